//! `modred opcount`: single-precision operation counts of one algorithm, as JSON.

use super::print_line;
use crate::algorithms;
use crate::engine::{self, Algorithm};
use crate::fail::Fail;

/// The largest `--bits`.
pub const MAX_BITS: u32 = 65536;

/// The digit sizes the counting digit comes in.
pub const DIGIT_BITS: &[u32] = &[8, 16, 32, 64];

/// The operations that can be counted.
pub const OPS: &[&str] = &["reduce", "mulmod", "sqrmod"];

/// The usage line of `modred opcount`.
const USAGE: &str =
    "modred opcount --algo A --op reduce|mulmod|sqrmod --bits N|--modulus M [--digit-bits 16]";

/// What `modred opcount --help` says after the options.
const DETAILS: &str = "\
Runs the algorithm on counting digits and prints the counts as one JSON object,
{\"mul\":…,\"div\":…,\"add\":…}, the way the papers' complexity tables count.

ntt-barrett and ntt-montgomery are refused: their products are transforms on
64-bit words, which the counting digit does not see.

examples: modred opcount --algo barrett --op reduce --bits 512
          modred opcount --algo nist --op reduce --bits 256
          modred opcount --algo pseudo-mersenne --op mulmod --modulus 0xffffffffffffffc5";

/// `modred opcount`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = USAGE,
    after_long_help = DETAILS
)]
pub struct Args {
    /// The algorithm (a name from 'modred algos', not auto)
    #[arg(long, value_name = "A", value_parser = crate::args::Suggest(crate::args::algorithm_names))]
    pub algo: Option<String>,
    /// The operation: reduce (a 2k-digit argument), mulmod or sqrmod
    #[arg(long, value_name = "OP", value_parser = crate::args::Suggest(|| OPS.to_vec()))]
    pub op: Option<String>,
    /// The modulus length in bits, 1 to 65536: a random odd
    /// modulus from a fixed seed, or for nist, solinas and
    /// pseudo-mersenne one of the form they need (a NIST or
    /// generalized Mersenne prime of that size, 2^N - c)
    #[arg(long, value_name = "N", verbatim_doc_comment)]
    pub bits: Option<String>,
    /// Count modulo M instead (decimal, or hex with 0x)
    #[arg(long, value_name = "M")]
    pub modulus: Option<String>,
    /// The digit size: 8, 16 (default), 32 or 64
    #[arg(long, value_name = "D", value_parser = crate::args::Suggest(|| vec!["8", "16", "32", "64"]))]
    pub digit_bits: Option<String>,
}

fn required<'a>(value: &'a Option<String>, name: &str) -> Result<&'a str, Fail> {
    value.as_deref().ok_or_else(|| Fail::new(format!("missing option --{name} (usage: {USAGE})")))
}

/// Prints the counts.
pub fn run(p: &Args) -> Result<(), Fail> {
    let algo = algorithms::parse(required(&p.algo, "algo")?)?;
    if algo == Algorithm::Auto {
        return Err(Fail::new(
            "opcount counts one algorithm: give its name, not auto (see 'modred algos')",
        ));
    }
    let op = required(&p.op, "op")?;
    if !OPS.contains(&op) {
        return Err(Fail::new(format!(
            "invalid operation '{}': expected reduce, mulmod or sqrmod",
            crate::fail::abbreviate(op)
        )));
    }
    let modulus = match p.modulus.as_deref() {
        Some(text) => {
            if p.bits.as_deref().is_some() {
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
            let text = p.bits.as_deref().ok_or_else(|| {
                Fail::new(format!("missing option --bits or --modulus (usage: {USAGE})"))
            })?;
            whole(text).filter(|b| (1..=MAX_BITS).contains(b)).ok_or_else(|| {
                Fail::new(format!(
                    "invalid --bits '{}': expected a whole number from 1 to {MAX_BITS}",
                    crate::fail::abbreviate(text)
                ))
            })?
        }
    };
    let digit_text = p.digit_bits.as_deref().unwrap_or("16");
    let digit_bits = whole(digit_text).filter(|d| DIGIT_BITS.contains(d)).ok_or_else(|| {
        Fail::new(format!(
            "invalid --digit-bits '{}': expected 8, 16, 32 or 64",
            crate::fail::abbreviate(digit_text)
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
