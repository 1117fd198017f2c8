//! The registry: every algorithm's facts in one table, [`ALGORITHMS`].
//!
//! The command line's `algos`, the selector ([`crate::modulus`]), the tuning profile, `modred
//! tune` and `bench`, the report, the fuzz targets and the tests all read these facts
//! here: the name `--algo` takes, the paper and algorithm number, which moduli the
//! algorithm applies to, its residue representation, its input bound, its cost model
//! ([`Cost`]: what the work limits of [`crate::Limits`] estimate with), and whether it is
//! for study only (never chosen by `auto`). Adding a reducer is one module in
//! [`crate::reduce`] and one entry here; `tests/registry.rs` walks the table and
//! exercises every entry.

use crate::error::Error;
use crate::nat::Nat;
use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;
/// A modular reduction algorithm, or `Auto` to let [`crate::Modulus::new`] choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// Choose by the modulus and the operation.
    Auto,
    /// Paper 000, Algorithm 1: quotient digits estimated from leading digits (Knuth D).
    Classical,
    /// Paper 000, Algorithm 2: Barrett's reciprocal-based quotient estimate.
    Barrett,
    /// Paper 000, Algorithm 3: Montgomery reduction (Hensel's b-ary form), separated
    /// multiply-then-reduce.
    Montgomery,
    /// Montgomery multiplication with the reduction interleaved in the product (CIOS).
    MontgomeryInterleaved,
    /// Paper 004 §2: bit-serial (radix-2) Montgomery multiplication, `ρ = 2^k`.
    Radix2Montgomery,
    /// Paper 004 §4: radix-2 Montgomery with the multiplier recoded to an even number,
    /// `ρ = 2^(k+1)`.
    Radix2MontgomeryRecoded,
    /// Paper 001, Algorithm 1: Barrett with one linear and one cyclic convolution.
    NttBarrett,
    /// Paper 001, Algorithm 2: Montgomery with one linear and one cyclic convolution.
    NttMontgomery,
    /// Paper 002 (Hong, Oh, Yoon): table-based window multiplication and squaring, for
    /// any modulus, in a small-window exponentiation.
    Hong,
    /// Paper 003, Algorithms 3 and 4: reduction modulo `2^N − c` with small `c`.
    PseudoMersenne,
    /// Paper 003, Algorithms 5 to 7: generic generalized-Mersenne (Solinas) reduction
    /// through the reduction matrix of the prime's polynomial.
    Solinas,
    /// Paper 003 §6.2: hard-coded reduction for the NIST and Table 2 primes.
    Nist,
}

impl Algorithm {
    /// Every algorithm this build implements, `Auto` first.
    pub const ALL: &'static [Algorithm] = &[
        Algorithm::Auto,
        Algorithm::Classical,
        Algorithm::Barrett,
        Algorithm::Montgomery,
        Algorithm::MontgomeryInterleaved,
        Algorithm::Radix2Montgomery,
        Algorithm::Radix2MontgomeryRecoded,
        Algorithm::NttBarrett,
        Algorithm::NttMontgomery,
        Algorithm::Hong,
        Algorithm::PseudoMersenne,
        Algorithm::Solinas,
        Algorithm::Nist,
    ];

    /// The registry entry of a concrete algorithm; `None` for `Auto`.
    pub fn info(self) -> Option<&'static Info> {
        ALGORITHMS.iter().find(|i| i.algorithm == self)
    }

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Classical => "classical",
            Algorithm::Barrett => "barrett",
            Algorithm::Montgomery => "montgomery",
            Algorithm::MontgomeryInterleaved => "montgomery-interleaved",
            Algorithm::Radix2Montgomery => "radix2-montgomery",
            Algorithm::Radix2MontgomeryRecoded => "radix2-montgomery-recoded",
            Algorithm::NttBarrett => "ntt-barrett",
            Algorithm::NttMontgomery => "ntt-montgomery",
            Algorithm::Hong => "hong",
            Algorithm::PseudoMersenne => "pseudo-mersenne",
            Algorithm::Solinas => "solinas",
            Algorithm::Nist => "nist",
        }
    }

    /// Which moduli the algorithm applies to, in words.
    pub fn applies_to(self) -> &'static str {
        self.info().map_or("any modulus > 0 (picks one of the others)", |i| i.moduli.describe())
    }

    /// The paper and algorithm it implements.
    pub fn source(self) -> &'static str {
        self.info().map_or("paper 000 §6 (the conclusion's rule)", |i| i.source)
    }

    /// Whether the algorithm applies to `m > 0` (its structure only: parity, special form);
    /// `Auto` applies to every `m > 0`.
    pub fn applies(self, m: &Nat) -> bool {
        !m.is_zero() && self.info().is_none_or(|i| i.moduli.admits(m))
    }
}

/// The moduli an algorithm applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Moduli {
    /// Every `m > 0`.
    Any,
    /// Odd moduli (the Montgomery family: `m` must be invertible modulo the radix).
    Odd,
    /// `2^N − c` with `N = bits(m)`, `1 ≤ c`, `2·bits(c) < N` ([`crate::reduce::pseudo_mersenne_form`]).
    PseudoMersenne,
    /// Generalized Mersenne numbers `f(2^32)` or `f(2^64)` ([`crate::reduce::SolinasPoly::find`]).
    Solinas,
    /// The primes of [`crate::reduce::NistPrime`].
    Nist,
}

impl Moduli {
    /// Whether `m > 0` is one of these moduli.
    pub fn admits(self, m: &Nat) -> bool {
        match self {
            Moduli::Any => true,
            Moduli::Odd => m.is_odd(),
            Moduli::PseudoMersenne => crate::reduce::pseudo_mersenne_form(m).is_some(),
            Moduli::Solinas => crate::reduce::SolinasPoly::usable_for(m),
            Moduli::Nist => crate::reduce::NistPrime::of(m).is_some(),
        }
    }

    /// In words.
    pub const fn describe(self) -> &'static str {
        match self {
            Moduli::Any => "any modulus > 0",
            Moduli::Odd => "odd moduli",
            Moduli::PseudoMersenne => "moduli 2^N - c with N = bits(m), 1 <= c, 2*bits(c) < N",
            Moduli::Solinas => {
                "generalized Mersenne moduli f(2^32) or f(2^64), f monic with coefficients in {-1, 0, 1}, w_a + w_s <= 1024"
            }
            Moduli::Nist => "P-192, P-224, P-256, P-384, P-521, 2^448 - 2^224 - 1, 2^512 - 2^32 - 1",
        }
    }
}

/// How an algorithm holds a residue of `x` (the factor ρ of `x·ρ mod m`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Representation {
    /// `x mod m` (ρ = 1).
    Standard,
    /// `x·b^k mod m`, `b` the digit radix and `k` the modulus's digits (Montgomery's `R`).
    Montgomery,
    /// `x·2^k mod n` (plain) or `x·2^(k+1) mod n` (recoded), `k = bits(n)`: paper 004's ρ.
    Radix2,
    /// `x·b^K mod m` with `K` the transform length's digits (paper 001's Montgomery).
    Transform,
}

impl Representation {
    /// In words.
    pub const fn describe(self) -> &'static str {
        match self {
            Representation::Standard => "x mod m",
            Representation::Montgomery => "x·b^k mod m",
            Representation::Radix2 => "x·2^k mod m (2^(k+1) recoded)",
            Representation::Transform => "x·b^K mod m (K: the transform's digits)",
        }
    }
}

/// The work of one `k × k`-digit product (64-bit digits), in digit operations, as
/// [`crate::nat`] multiplies: the least of schoolbook (`k²` digit multiply-adds),
/// Karatsuba (`1024·3^log2(k/32)`, schoolbook's cost at its threshold of 32 digits, three
/// half-size products per level) and the transform product (`3·T(2k)`: two forward
/// transforms and one inverse of the `2k`-digit product, [`transform_work`]).
///
/// On the machines measured (x86-64, `modred bench --algo all --op mulmod`) one digit
/// operation of these models takes 0.3 to 1 ns; the models are upper estimates within a
/// small factor (up to 3 on the AVX-512 IFMA transforms), never a promise of time.
pub fn product_work(k: u64) -> u64 {
    let k = k.max(1);
    let schoolbook = k.saturating_mul(k);
    let karatsuba = if k <= 32 {
        schoolbook
    } else {
        // 1024·(k/32)^log2(3), in floating point: an estimate, not a count.
        (1024.0 * pow_log2_3(k as f64 / 32.0)) as u64
    };
    schoolbook.min(karatsuba).min(3u64.saturating_mul(transform_work(2 * k)))
}

/// `x^log2(3)` for `x ≥ 1`: std's `powf`, or without std `pow_log2_3_series`.
fn pow_log2_3(x: f64) -> f64 {
    #[cfg(feature = "std")]
    {
        x.powf(3f64.log2())
    }
    #[cfg(not(feature = "std"))]
    {
        pow_log2_3_series(x)
    }
}

/// `x^log2(3)` for `x ≥ 1` from basic arithmetic (core has no `powf`): with `x = 2^e·m`,
/// `m` in `[1, 2)`, it is `3^e · exp(log2(3)·ln m)`, `ln m` by the series of `atanh`
/// (`m` near 1: terms fall by 9 or more) and `exp` by its Taylor series on `[0, 1.1)`;
/// within a few ulps of `powf`.
#[cfg(any(not(feature = "std"), test))]
fn pow_log2_3_series(x: f64) -> f64 {
    const LOG2_3: f64 = 1.584_962_500_721_156_2;
    if !(x >= 1.0 && x.is_finite()) {
        return f64::NAN;
    }
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32 - 1023;
    let m = f64::from_bits((bits & ((1 << 52) - 1)) | (1023 << 52));
    let t = (m - 1.0) / (m + 1.0);
    let (t2, mut power, mut ln_m) = (t * t, t, 0.0);
    for i in 0..30 {
        ln_m += power / (2 * i + 1) as f64;
        power *= t2;
    }
    let y = LOG2_3 * 2.0 * ln_m;
    let (mut term, mut exp_y) = (1.0, 1.0);
    for i in 1..30 {
        term *= y / i as f64;
        exp_y += term;
    }
    let mut three_e = 1.0;
    for _ in 0..e {
        three_e *= 3.0;
    }
    three_e * exp_y
}

/// The work of one exact transform of `n` 64-bit digits ([`crate::ntt`]: three word-size
/// primes, `n·log2(n)` butterflies each): `3·n·⌈log2 n⌉` digit operations.
pub fn transform_work(n: u64) -> u64 {
    let n = n.max(2);
    let log = 64 - (n - 1).leading_zeros() as u64;
    3u64.saturating_mul(n).saturating_mul(log)
}

/// An algorithm's cost model: the estimated work, in digit operations, of one modular
/// multiplication (the product of two residues and its reduction; a one-off reduction of a
/// double-length argument costs about the same) for a modulus of `k` 64-bit digits:
///
/// `products·M(k) + quadratic·k² + convolutions·2·T(2k) + linear·k`
///
/// with `M(k)` = [`product_work`] and `T` = [`transform_work`] (a convolution with a
/// precomputed operand is a forward and an inverse transform). [`Cost::mul_work`] evaluates
/// it; [`Cost::formula`] writes it out. The coefficients count the algorithm's steps, then
/// were checked against `modred bench --algo all --op mulmod` at 64 to 16384 bits (each
/// entry's comment says how).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cost {
    /// Full `k × k`-digit products (`M(k)` each).
    pub products: u32,
    /// Digit operations beyond the products, in units of `k²` (quadratic reductions, the
    /// interleaved products, bit-serial passes).
    pub quadratic: u32,
    /// Convolutions of about `2k` digits with a precomputed transform (`2·T(2k)` each).
    pub convolutions: u32,
    /// Digit operations in units of `k` (folds, quotient digits).
    pub linear: u32,
}

impl Cost {
    /// The estimated digit operations of one modular multiplication modulo a `k`-digit
    /// modulus (saturating at `u64::MAX`).
    pub fn mul_work(&self, k: u64) -> u64 {
        let k = k.max(1);
        let terms = [
            (self.products as u64).saturating_mul(product_work(k)),
            (self.quadratic as u64).saturating_mul(k.saturating_mul(k)),
            (self.convolutions as u64).saturating_mul(2u64.saturating_mul(transform_work(2 * k))),
            (self.linear as u64).saturating_mul(k),
        ];
        terms.iter().fold(0u64, |sum, t| sum.saturating_add(*t))
    }

    /// The model as a formula, e.g. `2·M(k)` or `M(k) + k² + 20k` (what `modred algos`
    /// prints).
    pub fn formula(&self) -> String {
        let term = |c: u32, what: &str| match c {
            0 => None,
            1 if !what.is_empty() => Some(what.to_string()),
            c if what.starts_with('k') => Some(format!("{c}{what}")),
            c => Some(format!("{c}·{what}")),
        };
        [
            term(self.products, "M(k)"),
            term(self.quadratic, "k²"),
            term(self.convolutions, "2·T(2k)"),
            term(self.linear, "k"),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" + ")
    }
}

/// One algorithm's facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Info {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The paper and algorithm number it implements.
    pub source: &'static str,
    /// The moduli it applies to.
    pub moduli: Moduli,
    /// Its residues.
    pub representation: Representation,
    /// The arguments its reduction takes, as the paper writes the bound.
    pub input_bound: &'static str,
    /// Its cost model: the estimated work of one modular multiplication.
    pub cost: Cost,
    /// For study only: exact to its paper but measured slower than the others here, so
    /// `auto` never picks it and `modred tune` does not time it.
    pub study_only: bool,
}

impl Info {
    /// The name on the command line.
    pub const fn name(&self) -> &'static str {
        self.algorithm.name()
    }
}

/// Every concrete algorithm (all but `Auto`), in the order of [`Algorithm::ALL`].
pub const ALGORITHMS: &[Info] = &[
    Info {
        algorithm: Algorithm::Classical,
        source: "paper 000, Algorithm 1 (Knuth 4.3.1 D)",
        moduli: Moduli::Any,
        representation: Representation::Standard,
        input_bound: "any x",
        // The product, then Knuth D: k quotient digits of a k-digit multiply-subtract each,
        // a two-by-one division (about 20 digit operations) per digit.
        cost: Cost { products: 1, quadratic: 1, convolutions: 0, linear: 20 },
        study_only: false,
    },
    Info {
        algorithm: Algorithm::Barrett,
        source: "paper 000, Algorithm 2 (Barrett, t = k + 1)",
        moduli: Moduli::Any,
        representation: Representation::Standard,
        input_bound: "b^(2k)",
        // The product and the two half products of the quotient estimate and q·m.
        cost: Cost { products: 3, quadratic: 0, convolutions: 0, linear: 0 },
        study_only: false,
    },
    Info {
        algorithm: Algorithm::Montgomery,
        source: "paper 000, Algorithm 3 (Hensel's b-ary Montgomery)",
        moduli: Moduli::Odd,
        representation: Representation::Montgomery,
        input_bound: "m·b^k",
        // The product, then u = T·m' mod R and u·m: two products (paper 000, Table 1).
        cost: Cost { products: 2, quadratic: 0, convolutions: 0, linear: 0 },
        study_only: false,
    },
    Info {
        algorithm: Algorithm::MontgomeryInterleaved,
        source:
            "paper 000, Algorithm 3, interleaved with the product (CIOS, Koc-Acar-Kaliski 1996)",
        moduli: Moduli::Odd,
        representation: Representation::Montgomery,
        input_bound: "m·b^k",
        // CIOS: 2k² + k digit multiply-adds, no Karatsuba.
        cost: Cost { products: 0, quadratic: 2, convolutions: 0, linear: 1 },
        study_only: false,
    },
    Info {
        algorithm: Algorithm::Radix2Montgomery,
        source: "paper 004 §2 (bit-serial radix-2 Montgomery)",
        moduli: Moduli::Odd,
        representation: Representation::Radix2,
        input_bound: "n·2^k",
        // Bit-serial: per bit of the 64k-bit modulus about four passes over k digits (the
        // conditional additions of b and of m, the shift): 256k². Measured 1.85 s for one
        // product at 131 072 bits (1.1e9 here).
        cost: Cost { products: 0, quadratic: 256, convolutions: 0, linear: 0 },
        study_only: true,
    },
    Info {
        algorithm: Algorithm::Radix2MontgomeryRecoded,
        source: "paper 004 §4 (radix-2 Montgomery, multiplier recoded to even)",
        moduli: Moduli::Odd,
        representation: Representation::Radix2,
        input_bound: "n·2^(k+1)",
        // Twice the plain form's steps (the recoding's extra additions; measured 1.8–2.8×).
        cost: Cost { products: 0, quadratic: 512, convolutions: 0, linear: 0 },
        study_only: true,
    },
    Info {
        algorithm: Algorithm::NttBarrett,
        source: "paper 001, Algorithm 1 (Barrett, one linear + one cyclic convolution)",
        moduli: Moduli::Any,
        representation: Representation::Standard,
        input_bound: "b^(2k)",
        // The product, then one linear and one cyclic convolution with precomputed operands.
        cost: Cost { products: 1, quadratic: 0, convolutions: 2, linear: 0 },
        study_only: false,
    },
    Info {
        algorithm: Algorithm::NttMontgomery,
        source: "paper 001, Algorithm 2 (Montgomery, one linear + one cyclic convolution)",
        moduli: Moduli::Odd,
        representation: Representation::Transform,
        input_bound: "m·b^K",
        // The product, then one linear and one cyclic convolution with precomputed operands.
        cost: Cost { products: 1, quadratic: 0, convolutions: 2, linear: 0 },
        study_only: false,
    },
    Info {
        algorithm: Algorithm::Hong,
        source: "paper 002 (window multiplication eqs. 8-9, squaring eqs. 10-13)",
        moduli: Moduli::Any,
        representation: Representation::Standard,
        input_bound: "any x",
        // Table-based window steps: measured 12–13 k² digit operations' time at 1024 to
        // 16 384 bits (about ten times Montgomery).
        cost: Cost { products: 0, quadratic: 12, convolutions: 0, linear: 0 },
        study_only: true,
    },
    Info {
        algorithm: Algorithm::PseudoMersenne,
        source: "paper 003, Algorithms 3 and 4 (Crandall)",
        moduli: Moduli::PseudoMersenne,
        representation: Representation::Standard,
        input_bound: "2^(2N)",
        // The product, then two folds by c (a k-digit multiply by one digit, an addition).
        cost: Cost { products: 1, quadratic: 0, convolutions: 0, linear: 4 },
        study_only: false,
    },
    Info {
        algorithm: Algorithm::Solinas,
        source: "paper 003, Algorithms 5 to 7 (Solinas' reduction matrix)",
        moduli: Moduli::Solinas,
        representation: Representation::Standard,
        input_bound: "b^(2n) with b = 2^W",
        // The product, then w_a + w_s additions of n words (n ≤ 2k words of 32 bits, each
        // weight at most 2n, so at most 8k² digit operations for polynomials with many terms).
        cost: Cost { products: 1, quadratic: 8, convolutions: 0, linear: 0 },
        study_only: true,
    },
    Info {
        algorithm: Algorithm::Nist,
        source: "paper 003 §6.2 (hard-coded generalized Mersenne reduction)",
        moduli: Moduli::Nist,
        representation: Representation::Standard,
        input_bound: "2^(2N)",
        // The product, then a fixed number of additions of k digits (at most eight).
        cost: Cost { products: 1, quadratic: 0, convolutions: 0, linear: 8 },
        study_only: false,
    },
];

// One entry per concrete algorithm, in the order of `Algorithm::ALL` (checked at compile time).
const _: () = {
    assert!(ALGORITHMS.len() + 1 == Algorithm::ALL.len());
    let mut i = 0;
    while i < ALGORITHMS.len() {
        assert!(ALGORITHMS[i].algorithm as u8 == Algorithm::ALL[i + 1] as u8);
        i += 1;
    }
};

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Algorithm::ALL
            .iter()
            .copied()
            .find(|a| a.name() == s)
            .ok_or_else(|| Error::UnknownAlgorithm(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    /// The series stand-in for `powf` (no-std builds) agrees with it to a few ulps, so the
    /// work estimates of a no-std build are std's to 14 digits.
    #[test]
    fn pow_log2_3_series_is_powf() {
        let mut k = 33u64;
        while k < 1 << 40 {
            let x = k as f64 / 32.0;
            let (want, got) = (x.powf(3f64.log2()), super::pow_log2_3_series(x));
            assert!((got - want).abs() <= want * 1e-14, "{k}: {got} vs {want}");
            let (w, g) = ((1024.0 * want) as u64, (1024.0 * got) as u64);
            assert!(w.abs_diff(g) <= w / 100_000_000_000_000 + 1, "{k}: {g} vs {w}");
            k += k / 7 + 1;
        }
        assert_eq!(super::pow_log2_3_series(1.0), 1.0);
        assert_eq!(super::pow_log2_3_series(2.0), 3.0);
        assert!(super::pow_log2_3_series(0.5).is_nan());
    }
}
