//! The names of the algorithms, exactly as the command line spells them.

use crate::error::Error;
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

    /// Which moduli the algorithm applies to.
    pub const fn applies_to(self) -> &'static str {
        match self {
            Algorithm::Auto => "any modulus > 0 (picks one of the others)",
            Algorithm::Classical
            | Algorithm::Barrett
            | Algorithm::NttBarrett
            | Algorithm::Hong => "any modulus > 0",
            Algorithm::Montgomery
            | Algorithm::MontgomeryInterleaved
            | Algorithm::NttMontgomery
            | Algorithm::Radix2Montgomery
            | Algorithm::Radix2MontgomeryRecoded => "odd moduli",
            Algorithm::PseudoMersenne => "moduli 2^N - c with N = bits(m), 1 <= c, 2*bits(c) < N",
            Algorithm::Solinas => {
                "generalized Mersenne moduli f(2^32) or f(2^64), f monic with coefficients in {-1, 0, 1}"
            }
            Algorithm::Nist => {
                "P-192, P-224, P-256, P-384, P-521, 2^448 - 2^224 - 1, 2^512 - 2^32 - 1"
            }
        }
    }

    /// The paper and algorithm it implements.
    pub const fn source(self) -> &'static str {
        match self {
            Algorithm::Auto => "paper 000 §6 (the conclusion's rule)",
            Algorithm::Classical => "paper 000, Algorithm 1 (Knuth 4.3.1 D)",
            Algorithm::Barrett => "paper 000, Algorithm 2 (Barrett, t = k + 1)",
            Algorithm::Montgomery => "paper 000, Algorithm 3 (Hensel's b-ary Montgomery)",
            Algorithm::MontgomeryInterleaved => "paper 003 §2.3 (interleaved, CIOS)",
            Algorithm::Radix2Montgomery => "paper 004 §2 (bit-serial radix-2 Montgomery)",
            Algorithm::Radix2MontgomeryRecoded => {
                "paper 004 §4 (radix-2 Montgomery, multiplier recoded to even)"
            }
            Algorithm::NttBarrett => {
                "paper 001, Algorithm 1 (Barrett, one linear + one cyclic convolution)"
            }
            Algorithm::NttMontgomery => {
                "paper 001, Algorithm 2 (Montgomery, one linear + one cyclic convolution)"
            }
            Algorithm::Hong => "paper 002 (window multiplication eqs. 8-9, squaring eqs. 10-13)",
            Algorithm::PseudoMersenne => "paper 003, Algorithms 3 and 4 (Crandall)",
            Algorithm::Solinas => "paper 003, Algorithms 5 to 7 (Solinas' reduction matrix)",
            Algorithm::Nist => "paper 003 §6.2 (hard-coded generalized Mersenne reduction)",
        }
    }
}

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
