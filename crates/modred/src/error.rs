//! The one error type of the library. Every message is a complete sentence fragment that
//! the CLI prints after `error: `.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// What went wrong. Bad input never panics: it is one of these.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The modulus is zero.
    ZeroModulus,
    /// The algorithm does not apply to this modulus (for example Montgomery with an even
    /// modulus); `reason` says which form it needs.
    NotApplicable {
        /// The algorithm's command-line name.
        algorithm: &'static str,
        /// The form of modulus it needs.
        reason: String,
    },
    /// An argument is outside the bound the algorithm accepts; `bound` describes it.
    OutOfRange {
        /// The algorithm's command-line name.
        algorithm: &'static str,
        /// The bound, in words.
        bound: String,
    },
    /// A number could not be parsed.
    Parse {
        /// The text (abbreviated when long).
        input: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No algorithm has this name.
    UnknownAlgorithm(String),
    /// Any other invalid argument, described.
    InvalidArgument(String),
    /// A [`crate::Residue`] was given to a [`crate::Modulus`] other than the one that made
    /// it ([`crate::modulus`]: residues belong to their modulus).
    ForeignResidue,
    /// A request's estimated work is over the work limit ([`crate::Limits`]); refused
    /// before it started.
    TooMuchWork {
        /// The request, in words.
        what: String,
        /// Its estimated work, in digit operations (the registry's cost models).
        estimate: u64,
        /// The limit it is over.
        limit: u64,
    },
    /// A request's estimated working memory is over the memory limit ([`crate::Limits`]);
    /// refused before anything was allocated.
    TooMuchMemory {
        /// The request, in words.
        what: String,
        /// The bytes it would hold (the models of [`crate::modulus::limits`]).
        need: u64,
        /// The limit it is over, in bytes.
        limit: u64,
    },
    /// The system refused an allocation of working memory (its address-space limit, or no
    /// memory left): the request was abandoned, and nothing else is affected.
    OutOfMemory {
        /// The bytes asked for.
        bytes: u64,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ZeroModulus => write!(f, "the modulus must not be zero"),
            Error::NotApplicable { algorithm, reason } => {
                write!(f, "{algorithm} does not apply to this modulus: {reason}")
            }
            Error::OutOfRange { algorithm, bound } => {
                write!(f, "argument out of range for {algorithm}: {bound}")
            }
            Error::Parse { input, reason } => write!(f, "invalid number '{input}': {reason}"),
            Error::UnknownAlgorithm(name) => write!(
                f,
                "unknown algorithm '{name}' (known: {})",
                crate::Algorithm::ALL.iter().map(|a| a.name()).collect::<Vec<_>>().join(", ")
            ),
            Error::InvalidArgument(what) => write!(f, "{what}"),
            Error::TooMuchMemory { what, need, limit } => write!(
                f,
                "too much memory: {what} would hold {} of working memory, over the memory \
                 limit of {}",
                crate::modulus::limits::bytes(*need),
                crate::modulus::limits::bytes(*limit)
            ),
            Error::OutOfMemory { bytes } => write!(
                f,
                "out of memory: the system refused {} of working memory",
                crate::modulus::limits::bytes(*bytes)
            ),
            Error::TooMuchWork { what, estimate, limit } => write!(
                f,
                "too much work: {what} is estimated at {} digit operations ({} at a \
                 nanosecond each), over the work limit of {}",
                crate::modulus::limits::amount(*estimate),
                crate::modulus::limits::duration(*estimate),
                crate::modulus::limits::amount(*limit)
            ),
            Error::ForeignResidue => f.write_str(
                "the residue belongs to another modulus (convert it with that modulus's \
                 to_nat, then with this one's residue)",
            ),
        }
    }
}

impl core::error::Error for Error {}
