//! `modred special-primes` and `modred solinas-weights`: paper 003's Tables 1 and 2.

use super::print_line;
use crate::args::{CommandSpec, OptSpec, Parsed};
use crate::fail::Fail;

/// `modred special-primes`.
pub const SPECIAL_PRIMES: CommandSpec = CommandSpec {
    name: "special-primes",
    summary: "list the c below a bound with 2^N - c prime (paper 003, Table 1)",
    usage: "special-primes [--form pseudo-mersenne] --bits N --c-below C",
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
              --form F       pseudo-mersenne (the default, and the only form searched this way)\n  \
              --bits N       N, from 2 to 4096\n  \
              --c-below C    the bound on c, from 1 to 1048576 and at most 2^N\n\n\
              example: modred special-primes --bits 256 --c-below 1024\n",
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
    let form = p.value("form").unwrap_or("pseudo-mersenne");
    if form != "pseudo-mersenne" {
        return Err(Fail::new(format!(
            "unknown --form '{}': expected pseudo-mersenne",
            crate::args::abbreviate(form)
        )));
    }
    let bits = whole(p, "bits", usage)?;
    let c_below = whole(p, "c-below", usage)?;
    let cs = modred_research::primes::pseudo_mersenne_c(bits, c_below)?;
    print_line(&cs.iter().map(u64::to_string).collect::<Vec<_>>().join(" "))
}

/// `modred solinas-weights`.
pub const SOLINAS_WEIGHTS: CommandSpec = CommandSpec {
    name: "solinas-weights",
    summary: "reduction matrix, addition/subtraction matrices and weights of f (paper 003, Table 2)",
    usage: "solinas-weights --poly \"t^3 - t - 1\" --word-bits 64",
    options: &[
        OptSpec { name: "poly", value: Some("F") },
        OptSpec { name: "word-bits", value: Some("W") },
    ],
    positionals: &[],
    details: "Prints one JSON object for the generalized Mersenne polynomial f and b = 2^W:\n\
              poly, word_bits, n, p = f(b) in decimal, reduction_matrix X_f (row i: t^(n+i)\n\
              mod f), add_matrix A_f and sub_matrix S_f (Algorithm 6; each entry the index of\n\
              the digit of z to add or subtract, -1 for none), add_weight w_a and sub_weight w_s.\n\n\
              options:\n  \
              --poly F        f(t) = t^n +- t^k ... +- 1, coefficients -1, 0 or 1, the highest\n                  \
              nonzero one below t^n equal to -1\n  \
              --word-bits W   32 or 64\n\n\
              example: modred solinas-weights --poly \"t^8 - t^7 + t^6 + t^3 - 1\" --word-bits 32\n",
};

/// Prints the JSON object.
pub fn solinas_weights(p: &Parsed) -> Result<(), Fail> {
    let usage = SOLINAS_WEIGHTS.usage;
    let poly = required(p, "poly", usage)?;
    let w = whole(p, "word-bits", usage)?;
    if w != 32 && w != 64 {
        return Err(Fail::new(format!("invalid --word-bits '{w}': expected 32 or 64")));
    }
    // The library's message quotes the polynomial whole; a huge one is abbreviated.
    let f = modred::reduce::SolinasPoly::parse(poly, w as u32)
        .map_err(|e| Fail::new(e.to_string().replace(poly, &crate::args::abbreviate(poly))))?;
    print_line(&f.to_json().map_err(|e| Fail::new(e.to_string()))?)
}
