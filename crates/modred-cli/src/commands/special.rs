//! `modred special-primes` and `modred solinas-weights`: paper 003's Tables 1 and 2.

use super::print_line;
use crate::args::{CommandSpec, OptSpec, Parsed};
use crate::fail::Fail;

/// `modred special-primes`.
pub const SPECIAL_PRIMES: CommandSpec = CommandSpec {
    name: "special-primes",
    summary: "list the c below a bound with 2^N - c prime (paper 003, Table 1)",
    usage: "special-primes --form pseudo-mersenne --bits N --c-below C",
    options: &[
        OptSpec { name: "form", value: Some("F") },
        OptSpec { name: "bits", value: Some("N") },
        OptSpec { name: "c-below", value: Some("C") },
    ],
    positionals: &[],
    details: "Prints, on one line separated by spaces and ascending, every c with 0 < c < C\n\
              for which 2^N - c is prime (Miller-Rabin: exact below 2^64, 32 bases above).\n\
              An empty line when there is none.\n\n\
              options:\n  \
              --form F       pseudo-mersenne (the only form searched this way)\n  \
              --bits N       N, from 2 to 4096\n  \
              --c-below C    the bound on c, from 1 to 1048576 and at most 2^N\n\n\
              example: modred special-primes --form pseudo-mersenne --bits 256 --c-below 1024\n",
};

fn required<'a>(p: &'a Parsed, name: &str, usage: &str) -> Result<&'a str, Fail> {
    p.value(name)
        .ok_or_else(|| Fail::new(format!("missing option --{name} (usage: modred {usage})")))
}

/// A plain decimal `u64` (no sign, no spaces), or an error naming the option.
fn whole(p: &Parsed, name: &str, usage: &str) -> Result<u64, Fail> {
    let text = required(p, name, usage)?;
    if !text.is_empty() && text.bytes().all(|c| c.is_ascii_digit()) {
        if let Ok(v) = text.parse() {
            return Ok(v);
        }
    }
    Err(Fail::new(format!(
        "invalid --{name} '{}': expected a whole number",
        crate::args::abbreviate(text)
    )))
}

/// Prints the values of c.
pub fn special_primes(p: &Parsed) -> Result<(), Fail> {
    let usage = SPECIAL_PRIMES.usage;
    let form = required(p, "form", usage)?;
    if form != "pseudo-mersenne" {
        return Err(Fail::new(format!(
            "unknown --form '{}': expected pseudo-mersenne",
            crate::args::abbreviate(form)
        )));
    }
    let bits = whole(p, "bits", usage)?;
    let c_below = whole(p, "c-below", usage)?;
    let cs = modred::primes::pseudo_mersenne_c(bits, c_below)?;
    print_line(&cs.iter().map(u64::to_string).collect::<Vec<_>>().join(" "))
}
