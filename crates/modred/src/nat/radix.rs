//! Parsing and formatting: decimal, and hexadecimal with a `0x` prefix.

use super::Nat;
use crate::error::Error;
use crate::kernels;
use crate::limb::Limb;
use core::fmt;

/// The largest `c` with `10^c < b`, and `10^c`: decimal digits are handled `c` at a time.
fn decimal_chunk<L: Limb>() -> (usize, u64) {
    let c = (L::BITS as f64 * core::f64::consts::LOG10_2).floor() as usize;
    let c = if 10u128.pow(c as u32) >= 1u128 << L::BITS { c - 1 } else { c };
    (c, 10u64.pow(c as u32))
}

/// The most decimal digits [`Nat::from_str_radix`] accepts (2^20, about 3.5 million bits).
/// Decimal conversion is quadratic (each chunk of 19 digits multiplies the whole number so
/// far): at this limit parsing takes seconds, at 10^8 bits (30 million digits) it would
/// take tens of minutes, so longer input is refused. Hexadecimal is converted in linear
/// time and has no limit.
pub const MAX_DECIMAL_DIGITS: usize = 1 << 20;

impl<L: Limb> Nat<L> {
    /// Parses digits in base 10 or 16 (no prefix, no sign).
    ///
    /// Errors: [`Error::Parse`] for an empty string, a character that is not a digit of
    /// the radix, a radix other than 10 and 16, or more than [`MAX_DECIMAL_DIGITS`]
    /// decimal digits.
    pub fn from_str_radix(s: &str, radix: u32) -> Result<Self, Error> {
        let bad = |reason: String| Error::Parse { input: abbreviate(s), reason };
        if radix != 10 && radix != 16 {
            // Checked first: `char::is_digit` panics on a radix above 36.
            return Err(bad(format!("radix {radix} is not supported (use 10 or 16)")));
        }
        if s.is_empty() {
            return Err(bad("empty number".into()));
        }
        if let Some(c) = s.chars().find(|c| !c.is_digit(radix)) {
            let base = if radix == 16 { "hexadecimal" } else { "decimal" };
            return Err(bad(format!("{c:?} is not a {base} digit")));
        }
        let bytes = s.as_bytes();
        if radix == 10 && bytes.len() > MAX_DECIMAL_DIGITS {
            return Err(bad(format!(
                "too long: {} decimal digits, the limit is {MAX_DECIMAL_DIGITS} \
                 (decimal conversion is quadratic; hexadecimal with 0x has no limit)",
                bytes.len()
            )));
        }
        match radix {
            16 => {
                let per = (L::BITS / 4) as usize;
                let mut limbs = Vec::with_capacity(bytes.len().div_ceil(per));
                for chunk in bytes.rchunks(per) {
                    let mut v = 0u64;
                    for &ch in chunk {
                        v = (v << 4) | (ch as char).to_digit(16).unwrap_or(0) as u64;
                    }
                    limbs.push(L::from_u64(v));
                }
                Ok(Nat::from_vec(limbs))
            }
            10 => {
                let (c, pow) = decimal_chunk::<L>();
                let mut limbs: Vec<L> = Vec::new();
                let head = bytes.len() % c;
                let mut start = 0;
                while start < bytes.len() {
                    let end = if start == 0 && head != 0 { head } else { start + c };
                    let mut v = 0u64;
                    for &ch in &bytes[start..end] {
                        v = v * 10 + (ch - b'0') as u64;
                    }
                    let scale =
                        if end - start == c { pow } else { 10u64.pow((end - start) as u32) };
                    // limbs = limbs·scale + v. The first chunk lands in an empty vector,
                    // where `add_1` could only report that v is non-zero, not its value.
                    let top = kernels::mul_1_in_place(&mut limbs, L::from_u64(scale));
                    if !top.is_zero() || limbs.is_empty() {
                        limbs.push(top);
                    }
                    if kernels::add_1(&mut limbs, L::from_u64(v)) {
                        limbs.push(L::ONE);
                    }
                    start = end;
                }
                Ok(Nat::from_vec(limbs))
            }
            _ => unreachable!("radix checked above"),
        }
    }

    /// Decimal digits of the number. Quadratic in the number of digits (one division of
    /// the whole number per chunk of decimal digits): for numbers of millions of bits
    /// prefer [`Nat::to_hex`] (linear).
    pub fn to_decimal(&self) -> String {
        if self.is_zero() {
            return "0".into();
        }
        let (c, pow) = decimal_chunk::<L>();
        let mut chunks = Vec::new();
        let mut rest = self.limbs().to_vec();
        let d = L::from_u64(pow);
        while !rest.is_empty() {
            let mut r = L::ZERO;
            for digit in rest.iter_mut().rev() {
                let (q, rem) = L::div_wide(r, *digit, d);
                *digit = q;
                r = rem;
            }
            chunks.push(r.to_u64());
            while rest.last().is_some_and(|t| t.is_zero()) {
                rest.pop();
            }
        }
        let mut s = chunks.last().map(|v| v.to_string()).unwrap_or_default();
        for v in chunks.iter().rev().skip(1) {
            s.push_str(&format!("{v:0c$}"));
        }
        s
    }

    /// Lower-case hexadecimal digits of the number, without prefix.
    pub fn to_hex(&self) -> String {
        if self.is_zero() {
            return "0".into();
        }
        let per = (L::BITS / 4) as usize;
        let top = self.limbs().len() - 1;
        let mut s = format!("{:x}", self.limbs()[top].to_u64());
        for d in self.limbs()[..top].iter().rev() {
            s.push_str(&format!("{:0per$x}", d.to_u64()));
        }
        s
    }
}

/// Keeps error messages one readable line even for huge inputs.
fn abbreviate(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let head: String = s.chars().take(MAX).collect();
        format!("{head}… ({} characters)", s.chars().count())
    }
}

/// Decimal (`"12345"`) or hexadecimal with a `0x` or `0X` prefix (`"0x3039"`). No sign,
/// no spaces, no separators.
impl<L: Limb> core::str::FromStr for Nat<L> {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        if let Some(rest) = s.strip_prefix('-') {
            if !rest.is_empty() {
                return Err(Error::Parse {
                    input: abbreviate(s),
                    reason: "negative numbers are not natural numbers".into(),
                });
            }
        }
        match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(hex) => Nat::from_str_radix(hex, 16),
            None => Nat::from_str_radix(s, 10),
        }
    }
}

impl<L: Limb> fmt::Display for Nat<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "", &self.to_decimal())
    }
}

impl<L: Limb> fmt::Debug for Nat<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<L: Limb> fmt::LowerHex for Nat<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "0x", &self.to_hex())
    }
}
