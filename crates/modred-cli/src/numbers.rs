//! Numbers on the command line and in batch lines: decimal, or hexadecimal with `0x`.

use crate::args::abbreviate;
use crate::engine::{Error, Number};

/// Parses `text` as the argument called `role` ("x", "modulus", "exponent", …). The error
/// message names the role, and a negative exponent is called what it is.
pub fn parse(text: &str, role: &str) -> Result<Number, String> {
    if role == "exponent" && text.len() > 1 && text.starts_with('-') {
        return Err(format!(
            "negative exponent '{}': the exponent must be a natural number",
            abbreviate(text)
        ));
    }
    text.parse::<Number>().map_err(|e| match e {
        Error::Parse { input, reason } => format!("invalid {role} '{input}': {reason}"),
        other => format!("invalid {role}: {other}"),
    })
}

/// `n` in decimal, or in hexadecimal with `0x` when `hex`.
pub fn format(n: &Number, hex: bool) -> String {
    if hex {
        format!("0x{}", n.to_hex())
    } else {
        n.to_decimal()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_radices() {
        assert_eq!(parse("255", "x").unwrap(), Number::from_u64(255));
        assert_eq!(parse("0xff", "x").unwrap(), Number::from_u64(255));
        assert_eq!(format(&Number::from_u64(255), true), "0xff");
        assert_eq!(format(&Number::from_u64(0), true), "0x0");
        assert_eq!(format(&Number::from_u64(255), false), "255");
    }

    #[test]
    fn messages_name_the_argument() {
        assert!(parse("12a", "modulus").unwrap_err().starts_with("invalid modulus '12a'"));
        assert!(parse("-5", "exponent").unwrap_err().starts_with("negative exponent '-5'"));
        assert!(parse("-5", "x").unwrap_err().contains("negative"));
        assert!(parse("", "x").unwrap_err().starts_with("invalid x"));
    }
}
