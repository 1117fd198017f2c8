//! The arithmetic of `reduce`, `mulmod`, `powm` and `batch` ([`modred::Modulus`], prepared
//! moduli cached) and of `opcount` ([`modred_research::opcount`]). `bench`, `tune`, `report`
//! and `algos` call the library directly.

use modred::exp::Method;
use modred::limb::OpCounts;
use modred::{Modulus, Operation};
use modred_research::opcount::Op;
use std::collections::HashMap;

pub use modred::{Algorithm, Error};

/// The numbers of the command line: natural numbers in 64-bit digits.
pub type Number = modred::Nat<u64>;

/// How `pow_mod` walks the exponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// The library's default: a sliding window sized by the exponent's length.
    Sliding,
    /// A fixed 2^w-ary window (`w = 1` is binary square-and-multiply).
    Fixed(u32),
}

/// Prepared moduli are cached by (algorithm, modulus); beyond this many the cache starts
/// afresh, so a batch of ever new moduli cannot exhaust memory.
const CACHE_LIMIT: usize = 1024;

/// The largest `bits(E)·bits(M)` `powm` accepts: about the cost of the exponentiation in
/// units of digit products over 64² (a 65536-bit exponent modulo a 65536-bit modulus takes
/// seconds; far beyond it, hours). Larger requests are refused with an error instead of
/// running without an end in sight.
pub const MAX_POWM_WORK: u64 = 1 << 32;

/// Computes modulo prepared moduli, keeping them for repeated (algorithm, modulus) pairs.
pub struct Engine {
    cache: HashMap<(Algorithm, Operation, Number), Modulus>,
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

    /// The context for `m` with `algorithm` (`Auto`: the library's choice for `op`), from
    /// the cache or made now. Errors: a zero modulus, an algorithm that does not apply to
    /// `m`.
    fn modulus(
        &mut self,
        algorithm: Algorithm,
        op: Operation,
        m: &Number,
    ) -> Result<&Modulus, Error> {
        let key = (algorithm, op, m.clone());
        if !self.cache.contains_key(&key) {
            let modulus = match algorithm {
                Algorithm::Auto => Modulus::for_operation(m, op)?,
                a => Modulus::with(a, m)?,
            };
            if self.cache.len() >= CACHE_LIMIT {
                self.cache.clear();
            }
            self.cache.insert(key.clone(), modulus);
        }
        Ok(&self.cache[&key])
    }

    /// `x mod m`. `Auto` takes any `x`; a forced algorithm rejects an `x` beyond its input
    /// bound (Barrett: `x < b^(2k)`).
    pub fn reduce(&mut self, a: Algorithm, x: &Number, m: &Number) -> Result<Number, Error> {
        self.modulus(a, Operation::Reduce, m)?.reduce(x)
    }

    /// `x·y mod m`, for any `x` and `y`.
    pub fn mul_mod(
        &mut self,
        a: Algorithm,
        x: &Number,
        y: &Number,
        m: &Number,
    ) -> Result<Number, Error> {
        Ok(self.modulus(a, Operation::MulMod, m)?.mul_mod(x, y))
    }

    /// `b^e mod m`, for any `b`, walking `e` as `window` says.
    pub fn pow_mod(
        &mut self,
        a: Algorithm,
        b: &Number,
        e: &Number,
        m: &Number,
        window: Window,
    ) -> Result<Number, Error> {
        let work = e.bits().saturating_mul(m.bits().max(1));
        if work > MAX_POWM_WORK {
            return Err(Error::InvalidArgument(format!(
                "powm too large: a {}-bit exponent modulo a {}-bit modulus; the limit is \
                 bits(E)·bits(M) ≤ 2^32 (e.g. 65536-bit E and M)",
                e.bits(),
                m.bits()
            )));
        }
        let modulus = self.modulus(a, Operation::PowMod, m)?;
        let method = match window {
            Window::Sliding => return modulus.pow_mod_vartime(b, e),
            Window::Fixed(1) => Method::Binary,
            Window::Fixed(w) => Method::FixedWindow(w),
        };
        let r = modulus.pow_with_vartime(&modulus.residue(b), e, method)?;
        modulus.to_nat(&r)
    }
}

/// Counts the single-precision operations of one `op` ("reduce", "mulmod", "sqrmod") by
/// `algorithm` (not `Auto`) with a `bits`-bit modulus and `digit_bits`-bit digits.
pub fn op_count(
    algorithm: Algorithm,
    op: &str,
    bits: u32,
    digit_bits: u32,
) -> Result<OpCounts, Error> {
    modred_research::opcount::count(algorithm, op.parse::<Op>()?, bits, digit_bits)
}
