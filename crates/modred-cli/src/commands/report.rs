//! `modred report`: parses the options and hands them to [`crate::report::run`].

use crate::fail::Fail;
use crate::report::{self, ReportOptions};
use std::path::PathBuf;

/// `modred report`.
#[derive(clap::Args, Debug)]
#[command(override_usage = "modred report [--quick] [--full] [--out DIR] | report --contents")]
pub struct Args {
    /// Print the pages and the headings of their tables and figures
    /// (the list every run and the committed sample are checked against)
    #[arg(long, verbatim_doc_comment)]
    pub contents: bool,
    /// A short run: small sizes, few repetitions
    #[arg(long)]
    pub quick: bool,
    /// The full run: every size of the papers
    #[arg(long)]
    pub full: bool,
    /// Where to write the report (default: report/)
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub out: Option<String>,
}

/// Runs the report.
pub fn run(p: &Args) -> Result<(), Fail> {
    if p.contents {
        return crate::commands::print_line(report::contents_text().trim_end());
    }
    let out = match p.out.as_deref() {
        Some("") => return Err(Fail::new("option --out needs a directory name, not ''")),
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from("report"),
    };
    let opts = ReportOptions { quick: p.quick, full: p.full, out };
    report::run(&opts).map_err(Fail::new)
}
