//! `modred report`: every paper's comparison, reproduced. (Placeholder; the report is
//! written separately and replaces this module.)

use std::path::PathBuf;

/// The options of `modred report`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportOptions {
    /// A short run (small sizes, few repetitions).
    pub quick: bool,
    /// The full run (every size of the papers).
    pub full: bool,
    /// The directory the report is written to.
    pub out: PathBuf,
}

/// Builds the report.
pub fn run(_opts: &ReportOptions) -> Result<(), String> {
    Err("report is not built yet".into())
}
