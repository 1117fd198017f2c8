//! `modred algos`: the algorithms, the moduli they apply to, and their sources.

use super::print_line;
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
              applies to, its source), and which are for study only. The names are what --algo\n\
              takes.\n\n\
              With a modulus M (decimal or 0x hex): the form detected, each algorithm with\n\
              whether it applies to M (and why not) with the code it runs, and the algorithm\n\
              auto picks for reduce, mulmod and powm (and the exponentiation method for an\n\
              exponent as long as M), each with its reason (the form, a size against a named\n\
              threshold, or the profile entry ('modred tune') that decided) and the code that\n\
              runs: slice code, unrolled fixed-size code, assembly, AVX-512 IFMA, transforms.\n\n\
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
    use modred::modulus::{choose_method, plan, profile, Form};
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
    s.push_str(&format!(
        "cpu: {}\n",
        match modred::cpu_features() {
            f if f.is_empty() => "no CPU-specific code used (portable kernels)".to_string(),
            f => format!("uses {}", f.join(", ")),
        }
    ));
    s.push_str("\nauto picks (and the code that runs):\n");
    let width = "method".len();
    let plans = Operation::ALL
        .iter()
        .map(|&op| plan(Algorithm::Auto, m, op).map(|p| (op, p)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(Fail::from)?;
    let aw = plans.iter().map(|(_, p)| p.algorithm.name().len()).max().unwrap_or(0);
    let pad = " ".repeat(width + aw + 6);
    for (op, p) in &plans {
        let code = match op {
            Operation::Reduce => format!("{}: {}", p.reduce.0, p.reduce.1),
            Operation::MulMod => p.code(),
            Operation::PowMod => format!("{}; exponentiation: {}", p.code(), p.power),
        };
        s.push_str(&format!(
            "  {:width$}  {:aw$}  ({})\n{pad}runs: {code}\n",
            op.name(),
            p.algorithm.name(),
            p.reason
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
    s.push_str("\nalgorithms (forced with --algo):\n");
    let name_width = Algorithm::ALL.iter().map(|a| a.name().len()).max().unwrap_or(0);
    for info in modred::registry::ALGORITHMS {
        let verdict = match plan(info.algorithm, m, Operation::PowMod) {
            Ok(p) => format!("applies; runs {}", p),
            Err(modred::Error::NotApplicable { reason, .. }) => format!("does not apply: {reason}"),
            Err(e) => format!("does not apply: {e}"),
        };
        s.push_str(&format!("  {:name_width$}  {verdict}\n", info.name()));
    }
    Ok(s)
}

/// The table's text: the registry's entries.
pub fn table() -> String {
    let header = ["NAME", "APPLIES TO", "SOURCE"];
    let rows: Vec<[&str; 3]> = std::iter::once(Algorithm::Auto)
        .chain(modred::registry::ALGORITHMS.iter().map(|i| i.algorithm))
        .map(|a| [a.name(), a.applies_to(), a.source()])
        .collect();
    let mut width = [0usize; 2];
    for row in std::iter::once(&header).chain(&rows) {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |row: &[&str; 3]| {
        format!("{:w0$}  {:w1$}  {}\n", row[0], row[1], row[2], w0 = width[0], w1 = width[1])
    };
    let mut s = line(&header);
    for row in &rows {
        s.push_str(&line(row));
    }
    s.push_str("\nstudy only (never picked by auto): ");
    let study: Vec<_> =
        modred::registry::ALGORITHMS.iter().filter(|i| i.study_only).map(|i| i.name()).collect();
    s.push_str(&study.join(", "));
    s.push('\n');
    s
}
