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
    if let Some(n) = parse_small(text) {
        return Ok(n);
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

/// The value of `text` when it is plain digits (decimal, or hexadecimal after `0x`), at
/// most 39, of a value below 2^128, else `None` (the general parser then takes it, and
/// words any error). A batch line's small numbers skip the general parser's work.
fn parse_small(text: &str) -> Option<Number> {
    let (digits, decimal) = match text.strip_prefix("0x") {
        Some(hex) => (hex.as_bytes(), false),
        None => (text.as_bytes(), true),
    };
    if digits.is_empty() || digits.len() > 39 {
        return None;
    }
    if decimal {
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        // Parts of at most 19 digits in 64-bit arithmetic, joined in 128-bit: below 10^38
        // without a check, the 39th digit's product checked.
        let value = |part: &[u8]| part.iter().fold(0u64, |a, &c| a * 10 + u64::from(c - b'0'));
        const E19: u128 = 10u128.pow(19);
        let n = digits.len();
        let v = match n {
            0..=19 => u128::from(value(digits)),
            20..=38 => {
                u128::from(value(&digits[..n - 19])) * E19 + u128::from(value(&digits[n - 19..]))
            }
            _ => {
                let high =
                    u128::from(value(&digits[..1])) * E19 + u128::from(value(&digits[1..20]));
                high.checked_mul(E19)?.checked_add(u128::from(value(&digits[20..])))?
            }
        };
        return Some(from_u128(v));
    }
    let digit = |c: u8| (c as char).to_digit(16).map(u64::from);
    // 16 hexadecimal digits fit in 64 bits: those first in 64-bit arithmetic, then the
    // rest in 128-bit, checked only where it could overflow.
    let (head, tail) = digits.split_at(digits.len().min(16));
    let mut v = 0u64;
    for &c in head {
        v = (v << 4) | digit(c)?;
    }
    let mut v = v as u128;
    for &c in tail {
        v = v.checked_mul(16)?.checked_add(digit(c)? as u128)?;
    }
    Some(from_u128(v))
}

/// `v` as a number.
fn from_u128(v: u128) -> Number {
    Number::from_limbs(&[v as u64, (v >> 64) as u64])
}

/// `n` when it fits in 128 bits.
fn to_u128(n: &Number) -> Option<u128> {
    match *n.limbs() {
        [] => Some(0),
        [lo] => Some(lo as u128),
        [lo, hi] => Some(lo as u128 | (hi as u128) << 64),
        _ => None,
    }
}

/// `n` in decimal, or in hexadecimal with `0x` when `hex`.
pub fn format(n: &Number, hex: bool) -> String {
    let mut out = Vec::new();
    write(&mut out, n, hex);
    String::from_utf8(out).expect("digits are ASCII")
}

/// Appends [`format()`]`(n, hex)` to `out`; a number below 2^128 without the general
/// conversion's allocations.
pub fn write(out: &mut Vec<u8>, n: &Number, hex: bool) {
    let Some(mut v) = to_u128(n) else {
        if hex {
            out.extend_from_slice(b"0x");
            out.extend_from_slice(n.to_hex().as_bytes());
        } else {
            out.extend_from_slice(n.to_decimal().as_bytes());
        }
        return;
    };
    // 2^128 has 39 decimal digits; they are written from the last, in 64-bit arithmetic
    // (a division by a constant is a multiplication; a 128-bit one is a library call).
    let mut buf = [0u8; 39];
    let mut i = buf.len();
    if hex {
        out.extend_from_slice(b"0x");
        loop {
            i -= 1;
            buf[i] = b"0123456789abcdef"[(v & 15) as usize];
            v >>= 4;
            if v == 0 {
                break;
            }
        }
    } else {
        const TEN19: u128 = 10_000_000_000_000_000_000;
        while v > u64::MAX as u128 {
            // The low 19 digits, zeros included, then the rest.
            let mut low = (v % TEN19) as u64;
            v /= TEN19;
            for _ in 0..19 {
                i -= 1;
                buf[i] = b'0' + (low % 10) as u8;
                low /= 10;
            }
        }
        let mut w = v as u64;
        loop {
            i -= 1;
            buf[i] = b'0' + (w % 10) as u8;
            w /= 10;
            if w == 0 {
                break;
            }
        }
    }
    out.extend_from_slice(&buf[i..]);
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

    /// The general conversions, which the small-number paths must agree with.
    fn general(text: &str) -> Number {
        grouping(text).unwrap().parse::<Number>().unwrap()
    }

    #[test]
    fn small_numbers_agree_with_the_general_path_at_the_edges() {
        let mut values: Vec<u128> = vec![0, 1, 9, 10, 15, 16, 255, 256];
        for bits in [63u32, 64, 65, 127] {
            let p = 1u128 << bits;
            values.extend([p - 1, p, p + 1]);
        }
        values.extend([u64::MAX as u128, u128::MAX, u128::MAX - 1, 10u128.pow(19), 10u128.pow(38)]);
        values.extend([10u128.pow(19) - 1, 10u128.pow(38) - 1]);
        // Zeros inside the low 19 digits of a number above 2^64.
        values.extend([10u128.pow(19) + 7, (u64::MAX as u128) * 10 + 3, 10u128.pow(37) + 10]);
        // Every length of decimal digits: the parts of 19 digits split at each of them.
        values.extend((1..=38).map(|d| 10u128.pow(d) - 1));
        values.extend((1..=38).map(|d| 7 * 10u128.pow(d - 1) + d as u128));
        for v in values {
            let n = from_u128(v);
            for text in [v.to_string(), format!("0x{v:x}"), format!("0x{v:X}")] {
                assert_eq!(parse_small(&text).as_ref(), Some(&n), "{text}");
                assert_eq!(parse(&text, "x").unwrap(), general(&text), "{text}");
            }
            assert_eq!(format(&n, false), n.to_decimal(), "{v}");
            assert_eq!(format(&n, false), v.to_string());
            assert_eq!(format(&n, true), format!("0x{}", n.to_hex()), "{v}");
            // Leading zeros, within the digit limit or beyond it.
            let padded = format!("{v:0>39}");
            assert_eq!(parse_small(&padded).as_ref(), Some(&n));
            assert_eq!(parse(&format!("0{padded}"), "x").unwrap(), n);
        }
        // Beyond 128 bits: the general path, for parsing and printing alike.
        let big = "340282366920938463463374607431768211456"; // 2^128
        assert_eq!(parse_small(big), None);
        assert_eq!(parse_small(&format!("0x1{}", "0".repeat(32))), None);
        assert_eq!(parse_small(&"9".repeat(39)), None);
        let n = parse(big, "x").unwrap();
        assert_eq!(n, general(big));
        assert_eq!(format(&n, false), big);
        assert_eq!(format(&n, true), format!("0x1{}", "0".repeat(32)));
        // Not plain digits: left to the general parser and its messages.
        for text in ["", "0x", "1a", "-1", "+1", "1_0", "0xg", "１"] {
            assert_eq!(parse_small(text), None, "{text}");
        }
        assert_eq!(parse("1_0", "x").unwrap(), Number::from_u64(10));
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
