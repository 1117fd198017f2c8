//! The arithmetic of `reduce`, `mulmod`, `powm` and `batch` ([`modred::Modulus`], prepared
//! moduli cached) and of `opcount` ([`modred_research::opcount`]). `bench`, `tune`, `report`
//! and `algos` call the library directly.

use modred::exp::Method;
use modred::limb::OpCounts;
use modred::{Limits, Modulus, Operation};
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

/// Computes modulo prepared moduli, keeping them for repeated (algorithm, modulus) pairs.
/// Every request is held to the engine's [`Limits`] (the library estimates its work and
/// refuses it at once above the limit: `--max-work`).
pub struct Engine {
    cache: HashMap<(Algorithm, Operation, Number), Modulus>,
    limits: Limits,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(Limits::new())
    }
}

impl Engine {
    /// An engine with an empty cache, holding requests to `limits`.
    pub fn new(limits: Limits) -> Engine {
        Engine { cache: HashMap::new(), limits }
    }

    /// Holds the next requests to `limits` (the prepared moduli kept for other limits are
    /// dropped).
    pub fn set_limits(&mut self, limits: Limits) {
        if limits != self.limits {
            self.cache.clear();
            self.limits = limits;
        }
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
            let modulus = Modulus::with_limits(algorithm, op, m, self.limits)?;
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

/// The message of a library error on the command line: the library's, and for a request
/// over the work limit how to raise it.
pub fn message(e: &Error) -> String {
    match e {
        Error::TooMuchWork { .. } => format!("{e} (--max-work sets the limit)"),
        _ => e.to_string(),
    }
}

/// Parses a `--max-work` value: a whole number of digit operations, written out (`1000000`),
/// as a power of two (`2^40`) or with a decimal exponent (`1e12`), or `unlimited`.
pub fn parse_max_work(text: &str) -> Result<Limits, String> {
    let bad = || {
        format!(
            "invalid --max-work '{}': expected a number of digit operations such as \
             68719476736, 2^36 or 1e11, or 'unlimited'",
            crate::args::abbreviate(text)
        )
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    let work = if text == "unlimited" {
        u64::MAX
    } else if let Some((base, exp)) = text.split_once('^') {
        match (base, exp.parse::<u32>()) {
            ("2", Ok(n)) if digits(exp) && n < 64 => 1u64 << n,
            _ => return Err(bad()),
        }
    } else if let Some((mantissa, exp)) = text.split_once(['e', 'E']) {
        match (mantissa.parse::<u64>(), exp.parse::<u32>()) {
            (Ok(a), Ok(n)) if digits(mantissa) && digits(exp) => {
                10u64.checked_pow(n).and_then(|p| p.checked_mul(a)).ok_or_else(bad)?
            }
            _ => return Err(bad()),
        }
    } else if digits(text) {
        text.parse::<u64>().map_err(|_| bad())?
    } else {
        return Err(bad());
    };
    Ok(Limits::new().with_max_work(work))
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

/// [`op_count`] modulo `m`.
pub fn op_count_modulus(
    algorithm: Algorithm,
    op: &str,
    m: &Number,
    digit_bits: u32,
) -> Result<OpCounts, Error> {
    modred_research::opcount::count_modulus(algorithm, op.parse::<Op>()?, m, digit_bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_work_values() {
        let w = |t: &str| parse_max_work(t).map(|l| l.max_work);
        assert_eq!(w("1000"), Ok(1000));
        assert_eq!(w("2^36"), Ok(1 << 36));
        assert_eq!(w("1e12"), Ok(1_000_000_000_000));
        assert_eq!(w("3E2"), Ok(300));
        assert_eq!(w("unlimited"), Ok(u64::MAX));
        assert_eq!(w("18446744073709551615"), Ok(u64::MAX));
        for bad in
            ["", "-1", "+5", "1.5e3", "2^64", "3^4", "2^-1", "1e20", "e5", "1e", "0x10", "many"]
        {
            assert!(w(bad).unwrap_err().starts_with("invalid --max-work"), "{bad}");
        }
    }

    #[test]
    fn too_much_work_says_how_to_raise_the_limit() {
        let mut engine = Engine::new(Limits::new().with_max_work(10));
        let m = Number::from_u64(1_000_003);
        let e = engine.pow_mod(Algorithm::Auto, &m, &m, &m, Window::Sliding).unwrap_err();
        assert!(message(&e).ends_with("(--max-work sets the limit)"), "{}", message(&e));
        engine.set_limits(Limits::UNLIMITED);
        assert!(engine.pow_mod(Algorithm::Auto, &m, &m, &m, Window::Sliding).is_ok());
    }
}
