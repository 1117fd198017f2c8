//! The one place the CLI calls into the library for arithmetic.
//!
//! TEMPORARY: until `modred::Modulus` lands, this stands in for it with the classical
//! reducer and `Nat` arithmetic, so the command line can be tested end to end. It will be
//! replaced by thin calls to `Modulus`, `modulus::choose` and `opcount::count`.

use modred::reduce::Classical;
use modred::{Reducer, Scratch};
use std::collections::HashMap;

pub use modred::{Algorithm, Error};

/// The numbers of the command line: natural numbers in 64-bit digits.
pub type Number = modred::Nat<u64>;

/// The operation a modulus is prepared for (`auto` chooses by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// One-shot `x mod m`.
    Reduce,
    /// `x·y mod m`.
    MulMod,
    /// `b^e mod m`.
    PowMod,
}

/// How `pow_mod` walks the exponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// The library's default: a sliding window sized by the exponent's length.
    Sliding,
    /// A fixed 2^w-ary window (`w = 1` is binary square-and-multiply).
    Fixed(u32),
}

/// Single-precision operation counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Digit multiplications.
    pub mul: u64,
    /// Digit divisions.
    pub div: u64,
    /// Digit additions and subtractions.
    pub add: u64,
}

/// A prepared modulus (stand-in).
struct Context {
    algorithm: Algorithm,
    classical: Classical<u64>,
}

impl Context {
    fn new(algorithm: Algorithm, m: &Number) -> Result<Context, Error> {
        let classical = Classical::new(m)?;
        if matches!(algorithm, Algorithm::Montgomery | Algorithm::MontgomeryInterleaved)
            && !m.is_odd()
        {
            return Err(Error::NotApplicable {
                algorithm: algorithm.name(),
                reason: "the modulus must be odd".into(),
            });
        }
        Ok(Context { algorithm, classical })
    }

    fn rem(&self, x: &Number) -> Number {
        let mut out = vec![0u64; self.classical.width()];
        self.classical.reduce_raw(&mut out, x.limbs(), &mut Scratch::new());
        Number::from_vec(out)
    }

    fn reduce(&self, x: &Number) -> Result<Number, Error> {
        let k = self.classical.modulus().len() as u64;
        if self.algorithm != Algorithm::Auto
            && self.algorithm != Algorithm::Classical
            && x.bits() > 128 * k
        {
            return Err(Error::OutOfRange {
                algorithm: self.algorithm.name(),
                bound: "x must be below b^(2k)".into(),
            });
        }
        Ok(self.rem(x))
    }

    fn mul_mod(&self, x: &Number, y: &Number) -> Number {
        self.rem(&self.rem(x).mul(&self.rem(y)))
    }

    fn pow_mod(&self, b: &Number, e: &Number) -> Number {
        let mut acc = self.rem(&Number::one());
        let b = self.rem(b);
        for i in (0..e.bits()).rev() {
            acc = self.rem(&acc.sqr());
            if e.bit(i) {
                acc = self.rem(&acc.mul(&b));
            }
        }
        acc
    }
}

/// Prepared moduli are cached for repeated (algorithm, modulus) pairs; beyond this many
/// the cache starts afresh, so a batch of distinct moduli cannot exhaust memory.
const CACHE_LIMIT: usize = 1024;

/// Computes with moduli, keeping the prepared ones.
pub struct Engine {
    cache: HashMap<(Algorithm, Option<Operation>, Number), Context>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine with an empty cache.
    pub fn new() -> Engine {
        Engine { cache: HashMap::new() }
    }

    fn context(
        &mut self,
        algorithm: Algorithm,
        op: Operation,
        m: &Number,
    ) -> Result<&Context, Error> {
        let key = (algorithm, (algorithm == Algorithm::Auto).then_some(op), m.clone());
        if !self.cache.contains_key(&key) {
            let ctx = Context::new(algorithm, m)?;
            if self.cache.len() >= CACHE_LIMIT {
                self.cache.clear();
            }
            self.cache.insert(key.clone(), ctx);
        }
        Ok(&self.cache[&key])
    }

    /// `x mod m`; a forced algorithm rejects `x` beyond its input bound.
    pub fn reduce(&mut self, a: Algorithm, x: &Number, m: &Number) -> Result<Number, Error> {
        self.context(a, Operation::Reduce, m)?.reduce(x)
    }

    /// `x·y mod m`.
    pub fn mul_mod(
        &mut self,
        a: Algorithm,
        x: &Number,
        y: &Number,
        m: &Number,
    ) -> Result<Number, Error> {
        Ok(self.context(a, Operation::MulMod, m)?.mul_mod(x, y))
    }

    /// `b^e mod m`.
    pub fn pow_mod(
        &mut self,
        a: Algorithm,
        b: &Number,
        e: &Number,
        m: &Number,
        _window: Window,
    ) -> Result<Number, Error> {
        Ok(self.context(a, Operation::PowMod, m)?.pow_mod(b, e))
    }
}

/// Counts the single-precision operations of one `op` ("reduce", "mulmod", "sqrmod") by
/// `algorithm` at `bits` bits with `digit_bits`-bit digits.
pub fn op_count(
    _algorithm: Algorithm,
    _op: &str,
    _bits: u32,
    _digit_bits: u32,
) -> Result<Counts, Error> {
    Err(Error::InvalidArgument("operation counts are not available yet".into()))
}
