//! The analysis of a modulus in words: its form, what `auto` picks for each operation and
//! why, the code that runs, and which algorithms apply. `modred algos M` prints it, and the
//! Python package's `Modulus.explain()` returns it.

use super::profile::{self, Form};
use super::rule::choose_method;
use super::{plan, Operation};
use crate::error::Error;
use crate::nat::Nat;
use crate::registry::{Algorithm, ALGORITHMS};
use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use alloc::vec::Vec;

/// The most digits [`analysis`] analyses (2^18 bits): building every reducer's plan for a
/// larger modulus takes long and shows nothing the rule does not already show at this size.
pub const MAX_ANALYSIS_DIGITS: usize = 1 << 12;

/// The form of `m`, the profile and CPU features in use, what `auto` picks for each
/// operation (with its reason and the code that runs), the exponentiation method for an
/// exponent as long as `m`, and for every algorithm whether it applies to `m` and what it
/// would run.
///
/// Errors: [`Error::ZeroModulus`]; [`Error::InvalidArgument`] for a modulus of more than
/// [`MAX_ANALYSIS_DIGITS`] digits.
pub fn analysis(m: &Nat) -> Result<String, Error> {
    if m.is_zero() {
        return Err(Error::ZeroModulus);
    }
    if m.len() > MAX_ANALYSIS_DIGITS {
        return Err(Error::InvalidArgument(format!(
            "modulus too large to analyse: {} bits (the limit is {} bits)",
            m.bits(),
            MAX_ANALYSIS_DIGITS * 64
        )));
    }
    let form = Form::of(m);
    let mut s = format!(
        "modulus: {} bit{} ({} digit{} of 64 bits), {}\nform: {} ({})\n",
        m.bits(),
        if m.bits() == 1 { "" } else { "s" },
        m.len(),
        if m.len() == 1 { "" } else { "s" },
        if m.is_odd() { "odd" } else { "even" },
        form.name(),
        form.describe()
    );
    s.push_str(&match profile::active() {
        Some(p) => format!(
            "profile: {} ({} entries)\n",
            p.source_name().unwrap_or_else(|| "(in memory)".to_string()),
            p.algorithms.len() + p.methods.len()
        ),
        None => {
            "profile: none (auto follows its built-in rule; 'modred tune' writes one)\n".to_string()
        }
    });
    s.push_str(&format!(
        "cpu: {}\n",
        match crate::cpu_features() {
            f if f.is_empty() => "no CPU-specific code used (portable kernels)".to_string(),
            f => format!("uses {}", f.join(", ")),
        }
    ));
    s.push_str("\nauto picks (and the code that runs):\n");
    let width = "method".len();
    let plans = Operation::ALL
        .iter()
        .map(|&op| plan(Algorithm::Auto, m, op).map(|p| (op, p)))
        .collect::<Result<Vec<_>, _>>()?;
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
    for info in ALGORITHMS {
        let verdict = match plan(info.algorithm, m, Operation::PowMod) {
            Ok(p) => format!("applies; runs {}", p),
            Err(Error::NotApplicable { reason, .. }) => format!("does not apply: {reason}"),
            Err(e) => format!("does not apply: {e}"),
        };
        s.push_str(&format!("  {:name_width$}  {verdict}\n", info.name()));
    }
    Ok(s)
}
