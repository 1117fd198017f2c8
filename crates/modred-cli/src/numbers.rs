//! Numbers on the command line and in batch lines: decimal, or hexadecimal with `0x` (lower
//! case: `0X` is refused); surrounding whitespace is ignored and single underscores may
//! group the digits (`1_000_000`, `0xffff_ffff`).

use crate::engine::{Error, Number};
use crate::fail::abbreviate;

/// Parses `text` as the argument called `role` ("x", "modulus", "exponent", …). The error
/// message names the role, and a negative exponent is called what it is.
pub fn parse(text: &str, role: &str) -> Result<Number, String> {
    let text = text.trim_matches(|c: char| c.is_ascii_whitespace());
    if role == "exponent" && text.len() > 1 && text.starts_with('-') {
        return Err(format!(
            "negative exponent '{}': the exponent must be a natural number",
            abbreviate(text)
        ));
    }
    // The contract's prefix is `0x`; the library also takes `0X`, the command line does not
    // (one spelling, in arguments and batch lines alike).
    if text.starts_with("0X") {
        return Err(format!(
            "invalid {role} '{}': the hexadecimal prefix is '0x' (lower case)",
            abbreviate(text)
        ));
    }
    let grouped =
        grouping(text).map_err(|why| format!("invalid {role} '{}': {why}", abbreviate(text)))?;
    // The message quotes the input as `abbreviate` shows it: short, control characters
    // escaped.
    grouped.parse::<Number>().map_err(|e| match e {
        Error::Parse { reason, .. } => format!("invalid {role} '{}': {reason}", abbreviate(text)),
        other => format!("invalid {role}: {other}"),
    })
}

/// `text` without the underscores that group its digits: each must stand between two digits
/// (after the `0x` prefix, if any).
fn grouping(text: &str) -> Result<std::borrow::Cow<'_, str>, String> {
    if !text.contains('_') {
        return Ok(std::borrow::Cow::Borrowed(text));
    }
    let body = text.strip_prefix("0x").unwrap_or(text);
    let b = body.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'_'
            && (i == 0
                || i + 1 == b.len()
                || !b[i - 1].is_ascii_hexdigit()
                || !b[i + 1].is_ascii_hexdigit())
        {
            return Err("'_' may only stand between two digits".to_string());
        }
    }
    Ok(std::borrow::Cow::Owned(text.replace('_', "")))
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

    #[test]
    fn whitespace_and_digit_groups() {
        assert_eq!(parse(" 5\t", "x").unwrap(), Number::from_u64(5));
        assert_eq!(parse("\n1_000_000 ", "x").unwrap(), Number::from_u64(1_000_000));
        assert_eq!(parse("0xffff_ffff", "x").unwrap(), Number::from_u64(0xffff_ffff));
        assert!(parse(" -5", "exponent").unwrap_err().starts_with("negative exponent '-5'"));
        for bad in ["_1", "1_", "1__0", "0x_ff", "0xff_", "1 000", "+5", "   "] {
            assert!(parse(bad, "x").unwrap_err().starts_with("invalid x"), "{bad}");
        }
        assert!(parse("1__0", "x").unwrap_err().contains("between two digits"));
        assert!(parse("0x", "x").unwrap_err().starts_with("invalid x '0x'"));
    }

    #[test]
    fn upper_case_hex_prefix_is_refused() {
        for text in ["0X1f", "0X", "0XFF"] {
            let e = parse(text, "modulus").unwrap_err();
            assert!(e.contains("the hexadecimal prefix is '0x'"), "{text}: {e}");
        }
        // Upper-case digits after `0x` are fine.
        assert_eq!(parse("0xFF", "x").unwrap(), Number::from_u64(255));
    }

    #[test]
    fn quoted_input_has_its_control_characters_escaped() {
        let e = parse("12\u{1b}[31m", "x").unwrap_err();
        assert!(e.starts_with("invalid x '12\\x1b[31m'"), "{e}");
        assert!(!e.contains('\u{1b}'), "{e}");
    }
}
