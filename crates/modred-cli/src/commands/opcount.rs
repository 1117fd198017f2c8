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
    usage: "opcount --algo A --op reduce|mulmod|sqrmod --bits N [--digit-bits 16]",
    options: &[
        OptSpec { name: "algo", value: Some("A") },
        OptSpec { name: "op", value: Some("OP") },
        OptSpec { name: "bits", value: Some("N") },
        OptSpec { name: "digit-bits", value: Some("D") },
    ],
    positionals: &[],
    details: "Runs the algorithm on counting digits and prints the counts as one JSON object,\n\
              {\"mul\":…,\"div\":…,\"add\":…}, the way the papers' complexity tables count.\n\n\
              options:\n  \
              --algo A          the algorithm (a name from 'modred algos', not auto)\n  \
              --op OP           reduce (a 2k-digit argument), mulmod or sqrmod\n  \
              --bits N          the modulus length in bits, 1 to 65536\n  \
              --digit-bits D    the digit size: 8, 16 (default), 32 or 64\n\n\
              example: modred opcount --algo barrett --op reduce --bits 512\n",
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
    let bits =
        whole(required(p, "bits")?).filter(|b| (1..=MAX_BITS).contains(b)).ok_or_else(|| {
            Fail::new(format!(
                "invalid --bits '{}': expected a whole number from 1 to {MAX_BITS}",
                crate::args::abbreviate(required(p, "bits").unwrap_or_default())
            ))
        })?;
    let digit_text = p.value("digit-bits").unwrap_or("16");
    let digit_bits = whole(digit_text).filter(|d| DIGIT_BITS.contains(d)).ok_or_else(|| {
        Fail::new(format!(
            "invalid --digit-bits '{}': expected 8, 16, 32 or 64",
            crate::args::abbreviate(digit_text)
        ))
    })?;
    let c = engine::op_count(algo, op, bits, digit_bits)?;
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
