//! `modred opcount`: single-precision operation counts of one algorithm, as JSON.

use super::print_line;
use crate::algorithms;
use crate::args::{CommandSpec, OptSpec, Parsed};
use crate::engine::{self, Algorithm};
use crate::fail::Fail;

/// The largest `--bits`.
pub const MAX_BITS: u32 = 65536;

/// The digit sizes the counting digit comes in.
pub const DIGIT_BITS: &[u32] = &[8, 16, 32, 64];

/// The operations that can be counted.
pub const OPS: &[&str] = &["reduce", "mulmod", "sqrmod"];

/// `modred opcount`.
pub const SPEC: CommandSpec = CommandSpec {
    name: "opcount",
    summary: "count the single-precision multiplications, divisions and additions of one operation",
    usage: "opcount --algo A --op reduce|mulmod|sqrmod --bits N|--modulus M [--digit-bits 16]",
    options: &[
        OptSpec { name: "algo", value: Some("A") },
        OptSpec { name: "op", value: Some("OP") },
        OptSpec { name: "bits", value: Some("N") },
        OptSpec { name: "modulus", value: Some("M") },
        OptSpec { name: "digit-bits", value: Some("D") },
    ],
    positionals: &[],
    details: "Runs the algorithm on counting digits and prints the counts as one JSON object,\n\
              {\"mul\":…,\"div\":…,\"add\":…}, the way the papers' complexity tables count.\n\n\
              options:\n  \
              --algo A          the algorithm (a name from 'modred algos', not auto)\n  \
              --op OP           reduce (a 2k-digit argument), mulmod or sqrmod\n  \
              --bits N          the modulus length in bits, 1 to 65536: a random odd\n                    \
                modulus from a fixed seed, or for nist, solinas and\n                    \
                pseudo-mersenne one of the form they need (a NIST or\n                    \
                generalized Mersenne prime of that size, 2^N - c)\n  \
              --modulus M       count modulo M instead (decimal, or hex with 0x)\n  \
              --digit-bits D    the digit size: 8, 16 (default), 32 or 64\n\n\
              ntt-barrett and ntt-montgomery are refused: their products are transforms on\n\
              64-bit words, which the counting digit does not see.\n\n\
              examples: modred opcount --algo barrett --op reduce --bits 512\n          \
                modred opcount --algo nist --op reduce --bits 256\n          \
                modred opcount --algo pseudo-mersenne --op mulmod --modulus 0xffffffffffffffc5\n",
};

fn required<'a>(p: &'a Parsed, name: &str) -> Result<&'a str, Fail> {
    p.value(name)
        .ok_or_else(|| Fail::new(format!("missing option --{name} (usage: modred {})", SPEC.usage)))
}

/// Prints the counts.
pub fn run(p: &Parsed) -> Result<(), Fail> {
    let algo = algorithms::parse(required(p, "algo")?)?;
    if algo == Algorithm::Auto {
        return Err(Fail::new(
            "opcount counts one algorithm: give its name, not auto (see 'modred algos')",
        ));
    }
    let op = required(p, "op")?;
    if !OPS.contains(&op) {
        return Err(Fail::new(format!(
            "invalid operation '{}': expected reduce, mulmod or sqrmod",
            crate::args::abbreviate(op)
        )));
    }
    let modulus = match p.value("modulus") {
        Some(text) => {
            if p.value("bits").is_some() {
                return Err(Fail::new("give --bits or --modulus, not both"));
            }
            let m = crate::numbers::parse(text, "modulus").map_err(Fail::new)?;
            if m.is_zero() || m.bits() > MAX_BITS as u64 {
                return Err(Fail::new(format!(
                    "invalid modulus: expected 1 to {MAX_BITS} bits and not zero"
                )));
            }
            Some(m)
        }
        None => None,
    };
    let bits = match &modulus {
        Some(m) => m.bits() as u32,
        None => {
            let text = p.value("bits").ok_or_else(|| {
                Fail::new(format!(
                    "missing option --bits or --modulus (usage: modred {})",
                    SPEC.usage
                ))
            })?;
            whole(text).filter(|b| (1..=MAX_BITS).contains(b)).ok_or_else(|| {
                Fail::new(format!(
                    "invalid --bits '{}': expected a whole number from 1 to {MAX_BITS}",
                    crate::args::abbreviate(text)
                ))
            })?
        }
    };
    let digit_text = p.value("digit-bits").unwrap_or("16");
    let digit_bits = whole(digit_text).filter(|d| DIGIT_BITS.contains(d)).ok_or_else(|| {
        Fail::new(format!(
            "invalid --digit-bits '{}': expected 8, 16, 32 or 64",
            crate::args::abbreviate(digit_text)
        ))
    })?;
    let c = match &modulus {
        Some(m) => engine::op_count_modulus(algo, op, m, digit_bits)?,
        None => engine::op_count(algo, op, bits, digit_bits)?,
    };
    print_line(&format!("{{\"mul\":{},\"div\":{},\"add\":{}}}", c.mul, c.div, c.add))
}

/// A plain decimal `u32` (no sign, no spaces).
fn whole(text: &str) -> Option<u32> {
    if text.bytes().all(|c| c.is_ascii_digit()) {
        text.parse().ok()
    } else {
        None
    }
}
