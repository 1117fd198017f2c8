//! `modred special-primes` and `modred solinas-weights`: paper 003's Tables 1 and 2.

use super::print_line;
use crate::fail::Fail;

/// The usage line of `modred special-primes`.
const PRIMES_USAGE: &str = "modred special-primes [--form pseudo-mersenne] --bits N --c-below C";

/// `modred special-primes`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = PRIMES_USAGE,
    after_long_help = "\
Prints, on one line separated by spaces and ascending, every c with 0 < c < C
for which 2^N - c is prime (Miller-Rabin: exact below 2^64, 32 bases above).
An empty line when there is none.

example: modred special-primes --bits 256 --c-below 1024"
)]
pub struct PrimesArgs {
    /// The form: pseudo-mersenne (the default, and the only form searched this way)
    #[arg(long, value_name = "F", value_parser = crate::args::Suggest(|| vec!["pseudo-mersenne"]))]
    pub form: Option<String>,
    /// N of 2^N - c, from 2 to 4096
    #[arg(long, value_name = "N")]
    pub bits: Option<String>,
    /// The bound on c, from 1 to 1048576 and at most 2^N
    #[arg(long, value_name = "C")]
    pub c_below: Option<String>,
}

fn required<'a>(value: &'a Option<String>, name: &str, usage: &str) -> Result<&'a str, Fail> {
    value.as_deref().ok_or_else(|| Fail::new(format!("missing option --{name} (usage: {usage})")))
}

/// A plain decimal `u64` (no sign, no spaces), or an error naming the option.
fn whole(value: &Option<String>, name: &str, usage: &str) -> Result<u64, Fail> {
    let text = required(value, name, usage)?;
    if !text.is_empty() && text.bytes().all(|c| c.is_ascii_digit()) {
        if let Ok(v) = text.parse() {
            return Ok(v);
        }
    }
    Err(Fail::new(format!(
        "invalid --{name} '{}': expected a whole number",
        crate::fail::abbreviate(text)
    )))
}

/// Prints the values of c.
pub fn special_primes(p: &PrimesArgs) -> Result<(), Fail> {
    let usage = PRIMES_USAGE;
    let form = p.form.as_deref().unwrap_or("pseudo-mersenne");
    if form != "pseudo-mersenne" {
        return Err(Fail::new(format!(
            "unknown --form '{}': expected pseudo-mersenne",
            crate::fail::abbreviate(form)
        )));
    }
    let bits = whole(&p.bits, "bits", usage)?;
    let c_below = whole(&p.c_below, "c-below", usage)?;
    let cs = modred_research::primes::pseudo_mersenne_c(bits, c_below)?;
    print_line(&cs.iter().map(u64::to_string).collect::<Vec<_>>().join(" "))
}

/// The usage line of `modred solinas-weights`.
const WEIGHTS_USAGE: &str = "modred solinas-weights --poly \"t^3 - t - 1\" --word-bits 64";

/// `modred solinas-weights`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = WEIGHTS_USAGE,
    after_long_help = "\
Prints one JSON object for the generalized Mersenne polynomial f and b = 2^W:
poly, word_bits, n, p = f(b) in decimal, reduction_matrix X_f (row i: t^(n+i)
mod f), add_matrix A_f and sub_matrix S_f (Algorithm 6; each entry the index of
the digit of z to add or subtract, -1 for none), add_weight w_a and sub_weight w_s.

example: modred solinas-weights --poly \"t^8 - t^7 + t^6 + t^3 - 1\" --word-bits 32"
)]
pub struct WeightsArgs {
    /// The polynomial f(t) = t^n +- t^k ... +- 1, coefficients -1, 0 or 1, the highest
    /// nonzero one below t^n equal to -1
    #[arg(long, value_name = "F", verbatim_doc_comment)]
    pub poly: Option<String>,
    /// The word size W of b = 2^W: 32 or 64
    #[arg(long, value_name = "W", value_parser = crate::args::Suggest(|| vec!["32", "64"]))]
    pub word_bits: Option<String>,
}

/// Prints the JSON object.
pub fn solinas_weights(p: &WeightsArgs) -> Result<(), Fail> {
    let usage = WEIGHTS_USAGE;
    let poly = required(&p.poly, "poly", usage)?;
    let w = whole(&p.word_bits, "word-bits", usage)?;
    if w != 32 && w != 64 {
        return Err(Fail::new(format!("invalid --word-bits '{w}': expected 32 or 64")));
    }
    // The library's message quotes the polynomial whole; a huge one is abbreviated.
    let f = modred::reduce::SolinasPoly::parse(poly, w as u32)
        .map_err(|e| Fail::new(e.to_string().replace(poly, &crate::fail::abbreviate(poly))))?;
    print_line(&f.to_json().map_err(|e| Fail::new(e.to_string()))?)
}
