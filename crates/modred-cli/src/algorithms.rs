//! Algorithm names on the command line: the ones the library implements
//! ([`Algorithm::ALL`]).

use crate::fail::Fail;
use modred::Algorithm;

/// The algorithm called `name`.
pub fn parse(name: &str) -> Result<Algorithm, Fail> {
    match name.parse::<Algorithm>() {
        Ok(a) => Ok(a),
        // The library's message quotes the name whole; a huge one is abbreviated.
        Err(modred::Error::UnknownAlgorithm(_)) => {
            Err(Fail::from(modred::Error::UnknownAlgorithm(crate::fail::abbreviate(name))))
        }
        Err(e) => Err(Fail::from(e)),
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
    fn unknown_names_are_errors() {
        let msg = parse("fourier").unwrap_err().to_string();
        assert!(msg.contains("unknown algorithm 'fourier'"), "{msg}");
    }
}
