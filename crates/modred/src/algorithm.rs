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
    /// Paper 001, Algorithm 1: Barrett with one linear and one cyclic convolution.
    NttBarrett,
    /// Paper 001, Algorithm 2: Montgomery with one linear and one cyclic convolution.
    NttMontgomery,
    /// Paper 002 (Hong, Oh, Yoon): table-based window multiplication and squaring, for
    /// any modulus, in a small-window exponentiation.
    Hong,
}

impl Algorithm {
    /// Every algorithm this build implements, `Auto` first.
    pub const ALL: &'static [Algorithm] = &[
        Algorithm::Auto,
        Algorithm::Classical,
        Algorithm::Barrett,
        Algorithm::Montgomery,
        Algorithm::MontgomeryInterleaved,
        Algorithm::NttBarrett,
        Algorithm::NttMontgomery,
        Algorithm::Hong,
    ];

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Classical => "classical",
            Algorithm::Barrett => "barrett",
            Algorithm::Montgomery => "montgomery",
            Algorithm::MontgomeryInterleaved => "montgomery-interleaved",
            Algorithm::NttBarrett => "ntt-barrett",
            Algorithm::NttMontgomery => "ntt-montgomery",
            Algorithm::Hong => "hong",
        }
    }

    /// Which moduli the algorithm applies to.
    pub const fn applies_to(self) -> &'static str {
        match self {
            Algorithm::Auto => "any modulus > 0 (picks one of the others)",
            Algorithm::Classical | Algorithm::Barrett | Algorithm::NttBarrett | Algorithm::Hong => {
                "any modulus > 0"
            }
            Algorithm::Montgomery | Algorithm::MontgomeryInterleaved | Algorithm::NttMontgomery => {
                "odd moduli"
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
            Algorithm::NttBarrett => {
                "paper 001, Algorithm 1 (Barrett, one linear + one cyclic convolution)"
            }
            Algorithm::NttMontgomery => {
                "paper 001, Algorithm 2 (Montgomery, one linear + one cyclic convolution)"
            }
            Algorithm::Hong => "paper 002 (window multiplication eqs. 8-9, squaring eqs. 10-13)",
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
