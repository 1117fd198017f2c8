//! `modred algos`: the algorithms, the moduli they apply to, and their sources.

use super::print_line;
use crate::algorithms::not_implemented;
use crate::args::{CommandSpec, Parsed};
use crate::engine::Algorithm;
use crate::fail::Fail;

/// `modred algos`.
pub const SPEC: CommandSpec = CommandSpec {
    name: "algos",
    summary: "list the algorithms: name, the moduli they apply to, their source",
    usage: "algos",
    options: &[],
    positionals: &[],
    details: "Prints a table of every algorithm this build implements, then the ones the\n\
              design names that are not implemented yet. The names are what --algo takes.\n",
};

/// Prints the table.
pub fn run(_p: &Parsed) -> Result<(), Fail> {
    print_line(table().trim_end())
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
