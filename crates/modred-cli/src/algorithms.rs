//! Algorithm names on the command line: the ones this build implements (the library's
//! [`Algorithm::ALL`]) and the rest of the design's list, which are recognised and reported
//! as not implemented yet rather than as unknown.

use crate::fail::Fail;
use modred::Algorithm;

/// An algorithm of the design that the library does not provide yet.
pub struct Planned {
    /// Its command-line name.
    pub name: &'static str,
    /// Which moduli it will apply to.
    pub applies_to: &'static str,
    /// The paper and algorithm.
    pub source: &'static str,
}

/// Every algorithm name of the design beyond the first ones. Those the library already
/// implements are skipped wherever this list is used, so it can stay as it is while the
/// library grows.
pub const PLANNED: &[Planned] = &[Planned {
    name: "ntt-barrett",
    applies_to: "any modulus > 0",
    source: "paper 002 (window multiplication and squaring)",
}];

/// Whether the library implements an algorithm of this name.
fn implemented(name: &str) -> bool {
    Algorithm::ALL.iter().any(|a| a.name() == name)
}

/// The planned algorithms the library does not implement yet.
pub fn not_implemented() -> impl Iterator<Item = &'static Planned> {
    PLANNED.iter().filter(|p| !implemented(p.name))
}

/// The algorithm called `name`; an error that tells an unknown name from a known but not
/// yet implemented one.
pub fn parse(name: &str) -> Result<Algorithm, Fail> {
    match name.parse::<Algorithm>() {
        Ok(a) => Ok(a),
        Err(e) => {
            if PLANNED.iter().any(|p| p.name == name) {
                let have: Vec<_> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                Err(Fail::new(format!(
                    "algorithm '{name}' is not implemented yet (available: {})",
                    have.join(", ")
                )))
            } else if let modred::Error::UnknownAlgorithm(_) = e {
                // The library's message quotes the name whole; a huge one is abbreviated.
                Err(Fail::from(modred::Error::UnknownAlgorithm(crate::args::abbreviate(name))))
            } else {
                Err(Fail::from(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_implemented_name_parses() {
        for a in Algorithm::ALL {
            assert_eq!(parse(a.name()).unwrap(), *a);
        }
    }

    #[test]
    fn planned_and_unknown_differ() {
        if let Some(p) = not_implemented().next() {
            let msg = parse(p.name).unwrap_err().to_string();
            assert!(msg.contains("not implemented yet"), "{msg}");
        }
        let msg = parse("fourier").unwrap_err().to_string();
        assert!(msg.contains("unknown algorithm 'fourier'"), "{msg}");
    }
}
