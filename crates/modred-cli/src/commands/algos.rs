//! `modred algos`: the algorithms, the moduli they apply to, and their sources.

use super::print_line;
use crate::engine::{Algorithm, Number};
use crate::fail::Fail;

/// What `modred algos --help` says after the arguments.
const DETAILS: &str = "\
Without M: a table of every algorithm this build implements (name, its cost model,
the moduli it applies to, its source), and which are for study only. The names are
what --algo takes; the cost models are what --max-work estimates with.

With a modulus M (decimal or 0x hex): the form detected, each algorithm with
whether it applies to M (and why not) with the code it runs, and the algorithm
auto picks for reduce, mulmod and powm (and the exponentiation method for an
exponent as long as M), each with its reason (the form, a size against a named
threshold, or the profile entry ('modred tune') that decided) and the code that
runs: slice code, unrolled fixed-size code, assembly, AVX-512 IFMA, transforms.

example: modred algos 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff";

/// `modred algos [M]`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = "modred algos [M]",
    after_long_help = DETAILS
)]
pub struct Args {
    /// A modulus to analyse (decimal or 0x hex)
    #[arg(value_name = "M")]
    pub m: Option<String>,
}

/// Prints the table, or the analysis of M.
pub fn run(p: &Args) -> Result<(), Fail> {
    match &p.m {
        None => print_line(table().trim_end()),
        Some(text) => {
            let m = crate::numbers::parse(text, "modulus").map_err(Fail::new)?;
            print_line(analysis(&m)?.trim_end())
        }
    }
}

/// What `algos M` prints: the form, which algorithms apply, what auto picks and why
/// ([`modred::modulus::analysis`]).
pub fn analysis(m: &Number) -> Result<String, Fail> {
    modred::modulus::analysis(m).map_err(Fail::from)
}

/// The table's text: the registry's entries.
pub fn table() -> String {
    let header = ["NAME", "COST", "APPLIES TO", "SOURCE"].map(String::from);
    let rows: Vec<[String; 4]> = std::iter::once(Algorithm::Auto)
        .chain(modred::registry::ALGORITHMS.iter().map(|i| i.algorithm))
        .map(|a| {
            let cost = a.info().map_or("its choice's".to_string(), |i| i.cost.formula());
            [a.name().to_string(), cost, a.applies_to().to_string(), a.source().to_string()]
        })
        .collect();
    let mut width = [0usize; 3];
    for row in std::iter::once(&header).chain(&rows) {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |row: &[String; 4]| {
        let pad = |i: usize| " ".repeat(width[i] - row[i].chars().count() + 2);
        format!("{}{}{}{}{}{}{}\n", row[0], pad(0), row[1], pad(1), row[2], pad(2), row[3])
    };
    let mut s = line(&header);
    for row in &rows {
        s.push_str(&line(row));
    }
    s.push_str(
        "\ncost: the estimated digit operations of one modular multiplication, k the 64-bit \
         digits of m,\nM(k) one k-digit product (schoolbook, Karatsuba or transform: the least), \
         T(n) one transform of n digits\n",
    );
    s.push_str("\nstudy only (never picked by auto): ");
    let study: Vec<_> =
        modred::registry::ALGORITHMS.iter().filter(|i| i.study_only).map(|i| i.name()).collect();
    s.push_str(&study.join(", "));
    s.push('\n');
    s
}
