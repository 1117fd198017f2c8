//! Work limits: a [`crate::Modulus`] estimates the work of every request from the
//! registry's cost models ([`crate::registry::Cost`]) before it starts, and refuses one
//! whose estimate is over its limit with [`Error::TooMuchWork`], which names the estimate.
//!
//! What is estimated, in digit operations (about 0.3 to 2 ns each on the machines
//! measured; `docs/limits.md`):
//! - making the modulus: one modular multiplication of its algorithm at its width — every
//!   product afterwards costs that much, so `mul`, `sqr`, `mul_mod` and the other
//!   single products need no check of their own;
//! - a one-off reduction ([`crate::Modulus::reduce`]): the reduction of an argument within
//!   the algorithm's bound costs about a multiplication; beyond it (automatic contexts)
//!   the division of [`division_work`];
//! - an exponentiation: the products of its method ([`pow_products`]) times one
//!   multiplication; the constant-time one: its fixed count of constant-time products
//!   ([`ct_product_work`]).
//!
//! The limit is per request, set when the modulus is made ([`crate::Modulus::with_limits`];
//! the command line's `--max-work`).
//!
//! Memory: every request's working memory is estimated from the sizes before anything is
//! allocated, and a request over the memory limit is refused with [`Error::TooMuchMemory`],
//! which names the need. The estimates are upper bounds, checked against the allocations
//! themselves at every algorithm and size by `tests/memory_model.rs`:
//! - making a modulus ([`mul_memory`]): its context ([`context_memory`]: constants,
//!   precomputed transforms, Hong's `k²`-digit table machinery) and one product
//!   ([`product_memory`]: scratch, transforms, Hong's window table of the multiplicand) —
//!   what every later `mul`, `sqr` or `mul_mod` holds at most, so they need no check;
//! - an exponentiation ([`pow_memory`]): its window table (`2^w` or `2^(w−1)` residues,
//!   each a `k²`-digit table for Hong), one product and its accumulators;
//! - a one-off reduction of a long `x` by division ([`division_memory`]).
//!
//! The Solinas matrices are bounded by their own rule ([`crate::reduce::SOLINAS_MAX_WEIGHT`]:
//! under 4 MiB). The big buffers are allocated with `try_reserve` (`try_zeroed`), so an
//! allocation the system refuses all the same is [`Error::OutOfMemory`], not an abort.

use crate::error::Error;
use crate::exp::{Method, MAX_WINDOW};
use crate::registry::{product_work, Algorithm};
use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use alloc::vec::Vec;

/// The default memory limit: 1 GiB of working memory per request — room for a product of
/// two 2^24-bit numbers (about 600 MiB by the estimates), far above what a window table
/// needs, and below what a shared machine can give each of its threads.
pub const DEFAULT_MAX_MEMORY: u64 = 1 << 30;

/// The default work limit: 2^36 ≈ 6.9·10^10 digit operations — about 20 s to a minute, and
/// above an exponentiation with a 65 536-bit exponent modulo a 65 536-bit modulus on the
/// automatic choice (about 3.4·10^10), the largest request the command line took before.
pub const DEFAULT_MAX_WORK: u64 = 1 << 36;

/// The limits of one [`crate::Modulus`]'s requests. Made with [`Limits::new`] (the
/// defaults) and changed with the `with_` methods:
///
/// ```
/// use modred::{Algorithm, Error, Limits, Modulus, Nat, Operation};
/// let m = Nat::power_of_two(4096).add(&Nat::one());
/// let tight = Limits::new().with_max_work(1_000_000);
/// let md = Modulus::with_limits(Algorithm::Auto, Operation::PowMod, &m, tight)?;
/// let e = Nat::power_of_two(4000);
/// assert!(matches!(md.pow_mod_vartime(&Nat::from(3u64), &e), Err(Error::TooMuchWork { .. })));
/// # Ok::<(), modred::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Limits {
    /// The most estimated work, in digit operations, of one request (see the
    /// [module documentation](self)); [`DEFAULT_MAX_WORK`] unless set.
    pub max_work: u64,
    /// The most bytes of working memory one request may hold (see the [module
    /// documentation](self)); [`DEFAULT_MAX_MEMORY`] unless set.
    pub max_memory: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits::new()
    }
}

impl Limits {
    /// No limit at all.
    pub const UNLIMITED: Limits = Limits { max_work: u64::MAX, max_memory: u64::MAX };

    /// The default limits ([`DEFAULT_MAX_WORK`], [`DEFAULT_MAX_MEMORY`]).
    pub const fn new() -> Self {
        Limits { max_work: DEFAULT_MAX_WORK, max_memory: DEFAULT_MAX_MEMORY }
    }

    /// These limits with the work limit set to `max_work` digit operations.
    pub const fn with_max_work(self, max_work: u64) -> Self {
        Limits { max_work, ..self }
    }

    /// These limits with the memory limit set to `max_memory` bytes.
    pub const fn with_max_memory(self, max_memory: u64) -> Self {
        Limits { max_memory, ..self }
    }

    /// `Ok` when `need` bytes are within the memory limit, else the error naming `what`
    /// and the need.
    pub(crate) fn check_memory(
        &self,
        need: u64,
        what: impl FnOnce() -> String,
    ) -> Result<(), Error> {
        if need <= self.max_memory {
            Ok(())
        } else {
            Err(Error::TooMuchMemory { what: what(), need, limit: self.max_memory })
        }
    }

    /// `Ok` when `estimate` is within the work limit, else the error naming `what` and the
    /// estimate.
    pub(crate) fn check(&self, estimate: u64, what: impl FnOnce() -> String) -> Result<(), Error> {
        if estimate <= self.max_work {
            Ok(())
        } else {
            Err(Error::TooMuchWork { what: what(), estimate, limit: self.max_work })
        }
    }
}

/// The modular products of an exponentiation by `method` with an exponent of `bits` bits:
/// its squarings (`bits`), at most one multiplication per window (per bit for binary),
/// and its table (`2^w` entries for the fixed window, `2^(w−1)` for the sliding one) — an
/// upper estimate of the counts on [`Method`]'s variants. A window outside `1..=16` is
/// counted as the nearest valid one (the exponentiation refuses it anyway).
pub fn pow_products(bits: u64, method: Method) -> u64 {
    if bits == 0 {
        return 0;
    }
    let (loop_products, table) = match method {
        Method::Binary => (bits, 0),
        Method::FixedWindow(w) => {
            let w = w.clamp(1, MAX_WINDOW);
            (bits.div_ceil(w as u64), 1u64 << w)
        }
        Method::SlidingWindow(w) => {
            let w = w.clamp(1, MAX_WINDOW);
            (bits.div_ceil(w as u64 + 1), 1u64 << (w - 1))
        }
    };
    bits.saturating_add(loop_products).saturating_add(table)
}

/// Bytes a context holds whatever its size: constants, small tables, the boxes.
const CONTEXT_BASE: u64 = 16 << 10;

/// Digits per digit of the modulus of a context's own precalculations, beyond Hong's
/// tables: transforms keep the modulus and its reciprocal transformed at two lengths
/// (measured up to 59 digits a digit, 183 for an automatic context with its one-off
/// reducer); the others keep a few copies (up to 38, Barrett's and Montgomery's constants
/// at a million bits).
fn context_digits(algorithm: Algorithm) -> u64 {
    match algorithm {
        Algorithm::NttBarrett | Algorithm::NttMontgomery => 128,
        _ => 64,
    }
}

/// Digits per digit of the modulus of one product's scratch: the double-length product,
/// Karatsuba's or the transforms' buffers (measured up to 52 digits a digit, by the first
/// product of a thread, which sizes the scratch the thread keeps).
const PRODUCT_DIGITS: u64 = 64;

/// Hong's digits of tables for a `k`-digit modulus: the window table of a multiplicand
/// (`k²` digits, paper 002 eq. 9) and the table of multiples (`2s·(k + 1)` digits with
/// `s ≤ 2^8`).
fn hong_digits(k: u64) -> u64 {
    k.saturating_mul(k).saturating_add(512u64.saturating_mul(k + 1))
}

/// The bytes a context modulo a `k`-digit modulus by `algorithm` holds once made (not
/// counting the products it then computes, [`product_memory`]).
pub fn context_memory(algorithm: Algorithm, k: u64) -> u64 {
    let tables = if algorithm == Algorithm::Hong { hong_digits(k) } else { 0 };
    let digits = context_digits(algorithm).saturating_mul(k).saturating_add(tables);
    digits.saturating_mul(8).saturating_add(CONTEXT_BASE)
}

/// The bytes one product modulo a `k`-digit modulus by `algorithm` holds while it runs:
/// its scratch, and for Hong the window table of the second operand (`k²` digits).
pub fn product_memory(algorithm: Algorithm, k: u64) -> u64 {
    let tables = if algorithm == Algorithm::Hong { hong_digits(k) } else { 0 };
    PRODUCT_DIGITS.saturating_mul(k).saturating_add(tables).saturating_mul(8)
}

/// The bytes of making a modulus of `k` digits by `algorithm` and computing one product
/// with it: [`context_memory`] and [`product_memory`], what a multiplication modulus holds
/// at most (later products reuse the space of the first).
pub fn mul_memory(algorithm: Algorithm, k: u64) -> u64 {
    context_memory(algorithm, k).saturating_add(product_memory(algorithm, k))
}

/// The bytes of an exponentiation by `method` modulo a `k`-digit modulus by `algorithm`,
/// beyond its context: the window table — `2^w` residues for the fixed window, `2^(w−1)`
/// for the sliding one (a window outside `1..=16` counted as the nearest valid one), each
/// of `k` digits, or for Hong each with its `k²`-digit window table (paper 002, eq. 9) —
/// one product, and the base, accumulator and result (`4k` digits).
pub fn pow_memory(algorithm: Algorithm, k: u64, method: Method) -> u64 {
    let entries = match method {
        Method::Binary => 1u64,
        Method::FixedWindow(w) => 1 << w.clamp(1, MAX_WINDOW),
        Method::SlidingWindow(w) => 1 << (w.clamp(1, MAX_WINDOW) - 1),
    };
    let per_entry = match algorithm {
        Algorithm::Hong => k.saturating_mul(k).saturating_add(k),
        _ => k,
    };
    let table = entries.saturating_mul(per_entry).saturating_mul(8);
    let accumulators = k.saturating_mul(4 * 8);
    table.saturating_add(product_memory(algorithm, k)).saturating_add(accumulators)
}

/// The bytes of a division of an `x_digits`-digit number by a shorter modulus (a one-off
/// reduction beyond the algorithm's bound): the normalized copies, the quotient and, from
/// [`crate::nat::DIV_RECURSIVE_THRESHOLD`] digits, the recursion's products —
/// measured up to 17 digits a digit of `x`.
pub fn division_memory(x_digits: u64) -> u64 {
    32u64.saturating_mul(8).saturating_mul(x_digits).saturating_add(CONTEXT_BASE)
}

/// A buffer of `len` copies of `zero`, or [`Error::OutOfMemory`] when the system refuses
/// the allocation (instead of the abort of `vec!`): for the buffers that grow with the
/// numbers and the tables.
pub(crate) fn try_zeroed<T: Copy>(len: usize, zero: T) -> Result<Vec<T>, Error> {
    let mut v = Vec::new();
    let reserved = {
        let _fallible = FallibleScope::enter();
        v.try_reserve_exact(len)
    };
    reserved.map_err(|_| Error::OutOfMemory {
        bytes: (len as u64).saturating_mul(core::mem::size_of::<T>() as u64),
    })?;
    v.resize(len, zero);
    Ok(v)
}

#[cfg(feature = "std")]
std::thread_local! {
    static FALLIBLE: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Whether this thread is inside one of the library's fallible allocations
/// (`try_reserve`, whose refusal becomes [`Error::OutOfMemory`]). For a global allocator
/// that ends the process when the system refuses memory, as the `modred` command line's
/// does: here it should return null instead, so that the request fails alone (in a
/// batch, one line's error). Reading it allocates nothing. Always `false` without the
/// `std` feature (no thread-locals; a global allocator there sees every null).
pub fn allocating_fallibly() -> bool {
    #[cfg(feature = "std")]
    return FALLIBLE.try_with(core::cell::Cell::get).unwrap_or(false);
    #[cfg(not(feature = "std"))]
    false
}

/// Marks this thread as allocating fallibly while it lives (with `std`).
struct FallibleScope;

impl FallibleScope {
    fn enter() -> Self {
        #[cfg(feature = "std")]
        FALLIBLE.with(|f| f.set(true));
        FallibleScope
    }
}

impl Drop for FallibleScope {
    fn drop(&mut self) {
        #[cfg(feature = "std")]
        FALLIBLE.with(|f| f.set(false));
    }
}

/// `n` bytes for a message: `512 bytes`, `3.5 MiB`, `2.0 GiB`.
pub(crate) fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if n < 1024 {
        return format!("{n} bytes");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// The work of one constant-time Montgomery product ([`crate::ct::MontgomeryCt::mul`]) of
/// `k` digits: CIOS's `2k² + k` digit operations, never transforms (an upper bound where the
/// MULX/ADX code takes Karatsuba's product and a separate reduction).
pub fn ct_product_work(k: u64) -> u64 {
    k.saturating_mul(k).saturating_mul(2).saturating_add(k)
}

/// The work of `x mod m` by division for an `x` of `x_digits` and an `m` of `k` digits:
/// Algorithm D's `(x_digits − k + 1)·k` digit operations, or from
/// [`crate::nat::DIV_RECURSIVE_THRESHOLD`] digits of quotient and divisor the recursive
/// division, a `k`-digit product's work per level of halving, per block of `k` digits of `x`.
pub fn division_work(x_digits: u64, k: u64) -> u64 {
    let k = k.max(1);
    let q = x_digits.saturating_sub(k) + 1;
    let threshold = crate::nat::DIV_RECURSIVE_THRESHOLD as u64;
    let short = k.min(q);
    if short >= threshold {
        // Each level of halving costs at most one k-digit product's work (two half-size
        // products, then twice as many divisions of half the size), per block of k digits.
        let levels = u64::from(64 - (short / threshold).leading_zeros()) + 1;
        let blocks = x_digits.div_ceil(k).max(1);
        product_work(k).saturating_mul(levels).saturating_mul(blocks)
    } else {
        q.saturating_mul(k)
    }
}

/// `n` for a message: in full below a million, else like `1.1e12`.
pub(crate) fn amount(n: u64) -> String {
    if n < 1_000_000 {
        n.to_string()
    } else {
        format!("{:.1e}", n as f64)
    }
}

/// About how long `work` digit operations take at a nanosecond each, in words.
pub(crate) fn duration(work: u64) -> String {
    let s = work as f64 * 1e-9;
    if s < 1.0 {
        "under a second".to_string()
    } else if s < 120.0 {
        format!("about {s:.0} s")
    } else if s < 7200.0 {
        format!("about {:.0} minutes", s / 60.0)
    } else if s < 3.0 * 86_400.0 {
        format!("about {:.0} hours", s / 3600.0)
    } else {
        format!("about {:.0} days", s / 86_400.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_of_the_methods() {
        assert_eq!(pow_products(0, Method::Binary), 0);
        assert_eq!(pow_products(10, Method::Binary), 20);
        assert_eq!(pow_products(10, Method::FixedWindow(4)), 10 + 3 + 16);
        assert_eq!(pow_products(10, Method::SlidingWindow(4)), 10 + 2 + 8);
        assert_eq!(pow_products(u64::MAX, Method::Binary), u64::MAX);
        assert_eq!(pow_products(8, Method::FixedWindow(99)), 8 + 1 + (1 << 16));
    }

    #[test]
    fn memory_estimates() {
        // Hong at 1 000 000 bits: a k²-digit table per multiplicand, about 1.8 GiB.
        let k = 1_000_000u64.div_ceil(64);
        assert!(mul_memory(Algorithm::Hong, k) > DEFAULT_MAX_MEMORY);
        // Others: the context and one product, in proportion to the modulus.
        assert_eq!(context_memory(Algorithm::Montgomery, 4), CONTEXT_BASE + 64 * 4 * 8);
        assert_eq!(context_memory(Algorithm::NttBarrett, 4), CONTEXT_BASE + 128 * 4 * 8);
        assert_eq!(product_memory(Algorithm::Barrett, 4), 64 * 4 * 8);
        assert_eq!(
            mul_memory(Algorithm::Montgomery, k),
            context_memory(Algorithm::Montgomery, k) + product_memory(Algorithm::Montgomery, k)
        );
        // A product of two 2^24-bit numbers, automatic (transforms and a one-off reducer):
        // within the default.
        let k24 = 1u64 << 18;
        let auto24 =
            mul_memory(Algorithm::NttMontgomery, k24) + context_memory(Algorithm::Barrett, k24);
        assert!(auto24 < DEFAULT_MAX_MEMORY, "{auto24}");
        // Window tables, one product and four accumulators.
        let rest = product_memory(Algorithm::Barrett, 4) + 4 * 4 * 8;
        assert_eq!(pow_memory(Algorithm::Barrett, 4, Method::FixedWindow(4)), 16 * 4 * 8 + rest);
        assert_eq!(pow_memory(Algorithm::Barrett, 4, Method::SlidingWindow(4)), 8 * 4 * 8 + rest);
        let hong_rest = product_memory(Algorithm::Hong, 4) + 4 * 4 * 8;
        assert_eq!(pow_memory(Algorithm::Hong, 4, Method::Binary), 20 * 8 + hong_rest);
        // A 2^16-entry window at 2^20 bits: 8 GiB of table.
        let big = pow_memory(Algorithm::Montgomery, 1 << 14, Method::FixedWindow(16));
        assert!((8 << 30..(8 << 30) + (16 << 20)).contains(&big), "{big}");
        assert_eq!(pow_memory(Algorithm::Hong, u64::MAX, Method::FixedWindow(16)), u64::MAX);
        assert_eq!(division_memory(1000), CONTEXT_BASE + 32 * 8 * 1000);
        assert_eq!(bytes(512), "512 bytes");
        assert_eq!(bytes(3 << 19), "1.5 MiB");
        assert_eq!(bytes(8 << 30), "8.0 GiB");
        let l = Limits::new().with_max_memory(100);
        assert!(l.check_memory(100, || unreachable!()).is_ok());
        let e = l.check_memory(101, || "a request".into()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "too much memory: a request would hold 101 bytes of working memory, over the \
             memory limit of 100 bytes"
        );
    }

    /// An allocation the system cannot give is an error, and the thread is no longer
    /// marked as allocating fallibly afterwards.
    #[test]
    fn refused_allocations_are_errors() {
        for len in [usize::MAX / 8, 1 << 45] {
            match try_zeroed(len, 0u64) {
                Err(Error::OutOfMemory { bytes: b }) => {
                    assert_eq!(b, len as u64 * 8);
                    let message = Error::OutOfMemory { bytes: b }.to_string();
                    assert!(message.starts_with("out of memory: the system refused "));
                }
                other => panic!("{len}: {:?}", other.map(|v| v.len())),
            }
            assert!(!allocating_fallibly());
        }
        assert_eq!(try_zeroed(3, 7u32).unwrap(), [7, 7, 7]);
    }

    #[test]
    fn messages() {
        assert_eq!(amount(12_345), "12345");
        assert_eq!(amount(1_100_000_000_000), "1.1e12");
        assert_eq!(duration(5), "under a second");
        assert_eq!(duration(30_000_000_000), "about 30 s");
        assert_eq!(duration(1_800_000_000_000), "about 30 minutes");
        assert_eq!(duration(36_000_000_000_000), "about 10 hours");
    }
}
