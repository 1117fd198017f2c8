//! `modred algos`: the algorithms, the moduli they apply to, and their sources.

use super::print_line;
use crate::algorithms::not_implemented;
use crate::args::{CommandSpec, Parsed};
use crate::engine::{Algorithm, Number};
use crate::fail::Fail;

/// `modred algos`.
pub const SPEC: CommandSpec = CommandSpec {
    name: "algos",
    summary: "list the algorithms; with M: which apply to M, which auto picks, and why",
    usage: "algos [M]",
    options: &[],
    positionals: &["[M]"],
    details: "Without M: a table of every algorithm this build implements (name, the moduli it\n\
              applies to, its source), then the ones the design names that are not implemented\n\
              yet. The names are what --algo takes.\n\n\
              With a modulus M (decimal or 0x hex): the form detected, each algorithm with\n\
              whether it applies to M (and why not), and the algorithm auto picks for reduce,\n\
              mulmod and powm (and the exponentiation method for an exponent as long as M), each\n\
              with its reason: the form, a size against a named threshold, or the profile entry\n\
              ('modred tune') that decided.\n\n\
              example: modred algos 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff\n",
};

/// Prints the table, or the analysis of M.
pub fn run(p: &Parsed) -> Result<(), Fail> {
    match p.positionals.first() {
        None => print_line(table().trim_end()),
        Some(text) => {
            let m = crate::numbers::parse(text, "modulus").map_err(Fail::new)?;
            print_line(analysis(&m)?.trim_end())
        }
    }
}

/// The most digits `algos M` analyses (2^18 bits): building every reducer (their
/// precalculations) for a larger M takes long and shows nothing the rule does not
/// already show at this size.
pub const MAX_ANALYSIS_DIGITS: usize = 1 << 12;

/// What `algos M` prints: the form, which algorithms apply, what auto picks and why.
pub fn analysis(m: &Number) -> Result<String, Fail> {
    use modred::modulus::{choose_method, explain, profile, Form};
    use modred::Operation;
    if m.is_zero() {
        return Err(Fail::from(modred::Error::ZeroModulus));
    }
    if m.len() > MAX_ANALYSIS_DIGITS {
        return Err(Fail::new(format!(
            "modulus too large to analyse: {} bits (the limit is {} bits)",
            m.bits(),
            MAX_ANALYSIS_DIGITS * 64
        )));
    }
    let form = Form::of(m);
    let mut s = format!(
        "modulus: {} bits ({} digit{} of 64 bits), {}\nform: {} ({})\n",
        m.bits(),
        m.len(),
        if m.len() == 1 { "" } else { "s" },
        if m.is_odd() { "odd" } else { "even" },
        form.name(),
        form.describe()
    );
    s.push_str(&match profile::active() {
        Some(p) => format!(
            "profile: {} ({} entries)\n",
            p.source.as_ref().map_or("(in memory)".to_string(), |p| p.display().to_string()),
            p.algorithms.len() + p.methods.len()
        ),
        None => {
            "profile: none (auto follows its built-in rule; 'modred tune' writes one)\n".to_string()
        }
    });
    s.push_str("\nauto picks:\n");
    let width = "method".len();
    let choices: Vec<_> = Operation::ALL.iter().map(|&op| (op, explain(m, op))).collect();
    let aw = choices.iter().map(|(_, c)| c.algorithm.name().len()).max().unwrap_or(0);
    for (op, c) in &choices {
        s.push_str(&format!(
            "  {:width$}  {:aw$}  ({})\n",
            op.name(),
            c.algorithm.name(),
            c.reason
        ));
    }
    let (method, why) = choose_method(m.bits());
    s.push_str(&format!(
        "  {:width$}  {}  (for a {}-bit exponent; {})\n",
        "method",
        profile::method_name(method),
        m.bits(),
        why
    ));
    s.push_str("\nalgorithms:\n");
    let name_width = Algorithm::ALL.iter().map(|a| a.name().len()).max().unwrap_or(0);
    for &a in Algorithm::ALL.iter().filter(|&&a| a != Algorithm::Auto) {
        let verdict = match modred::reduce::make::<u64>(a, m) {
            Ok(_) => "applies".to_string(),
            Err(modred::Error::NotApplicable { reason, .. }) => format!("does not apply: {reason}"),
            Err(e) => format!("does not apply: {e}"),
        };
        s.push_str(&format!("  {:name_width$}  {verdict}\n", a.name()));
    }
    Ok(s)
}

/// The table's text.
pub fn table() -> String {
    let header = ["NAME", "APPLIES TO", "SOURCE"];
    let built: Vec<[&str; 3]> =
        Algorithm::ALL.iter().map(|a| [a.name(), a.applies_to(), a.source()]).collect();
    let planned: Vec<[&str; 3]> =
        not_implemented().map(|p| [p.name, p.applies_to, p.source]).collect();
    let mut width = [0usize; 2];
    for row in std::iter::once(&header).chain(&built).chain(&planned) {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |row: &[&str; 3]| {
        format!("{:w0$}  {:w1$}  {}\n", row[0], row[1], row[2], w0 = width[0], w1 = width[1])
    };
    let mut s = line(&header);
    for row in &built {
        s.push_str(&line(row));
    }
    if !planned.is_empty() {
        s.push_str("\nnot implemented yet:\n");
        for row in &planned {
            s.push_str(&line(row));
        }
    }
    s
}
