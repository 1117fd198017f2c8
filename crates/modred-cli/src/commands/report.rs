//! `modred report`: parses the options and hands them to [`crate::report::run`].

use crate::args::{CommandSpec, OptSpec, Parsed};
use crate::fail::Fail;
use crate::report::{self, ReportOptions};
use std::path::PathBuf;

/// `modred report`.
pub const SPEC: CommandSpec = CommandSpec {
    name: "report",
    summary: "reproduce every paper's comparison (tables and figures) on this machine",
    usage: "report [--quick] [--full] [--out DIR] | report --contents",
    options: &[
        OptSpec { name: "contents", value: None },
        OptSpec { name: "quick", value: None },
        OptSpec { name: "full", value: None },
        OptSpec { name: "out", value: Some("DIR") },
    ],
    positionals: &[],
    details: "options:\n  \
              --quick    a short run: small sizes, few repetitions\n  \
              --full     the full run: every size of the papers\n  \
              --out DIR  where to write the report (default: report/)\n  \
              --contents print the pages and the headings of their tables and figures\n             \
              (the list every run and the committed sample are checked against)\n",
};

/// Runs the report.
pub fn run(p: &Parsed) -> Result<(), Fail> {
    if p.flag("contents") {
        return crate::commands::print_line(report::contents_text().trim_end());
    }
    let out = match p.value("out") {
        Some("") => return Err(Fail::new("option --out needs a directory name, not ''")),
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from("report"),
    };
    let opts = ReportOptions { quick: p.flag("quick"), full: p.flag("full"), out };
    report::run(&opts).map_err(Fail::new)
}
