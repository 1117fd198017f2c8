//! The commands, one module each, and the table `main` dispatches on.

pub mod algos;
pub mod arith;
pub mod batch;
pub mod bench;
pub mod completions;
pub mod man;
pub mod opcount;
pub mod radix2;
pub mod report;
pub mod special;
pub mod tune;

use crate::algorithms;
use crate::args::Cmd;
use crate::engine::Algorithm;
use crate::fail::Fail;
use std::io::Write;

pub use completions::Args as CompletionsArgs;
pub use man::Args as ManArgs;

/// Runs the command `cmd` read from the command line.
pub fn run(cmd: Cmd) -> Result<(), Fail> {
    match cmd {
        Cmd::Algos(a) => algos::run(&a),
        Cmd::Reduce(a) => arith::reduce(&a),
        Cmd::Mulmod(a) => arith::mulmod(&a),
        Cmd::Powm(a) => arith::powm(&a),
        Cmd::Batch(a) => batch::run(&a),
        Cmd::Bench(a) => bench::run(&a),
        Cmd::Opcount(a) => opcount::run(&a),
        Cmd::Radix2Model(a) => radix2::model(&a),
        Cmd::Radix2Vectors(a) => radix2::vectors(&a),
        Cmd::Report(a) => report::run(&a),
        Cmd::SpecialPrimes(a) => special::special_primes(&a),
        Cmd::SolinasWeights(a) => special::solinas_weights(&a),
        Cmd::Tune(a) => tune::run(&a),
        Cmd::Completions(a) => completions::run(&a),
        Cmd::Man(a) => man::run(&a),
        Cmd::Help(a) => crate::help::run(&a.command.into_iter().collect::<Vec<_>>()),
    }
}

/// The `--max-work` and `--max-memory` options of the arithmetic commands and `batch`.
#[derive(clap::Args, Debug, Default)]
pub struct LimitArgs {
    /// Refuse a request whose estimated work is over WORK digit operations
    /// (a number, 2^N or AeN, or unlimited; default 2^36, about 20 s to a minute),
    /// estimated from the algorithm's cost model ('modred algos')
    #[arg(long, value_name = "WORK", verbatim_doc_comment)]
    pub max_work: Option<String>,
    /// Refuse a request whose tables (Hong's k^2-digit tables, exponentiation windows)
    /// would be over BYTES (as WORK, or 512MiB, 2GiB; default 1GiB)
    #[arg(long, value_name = "BYTES", verbatim_doc_comment)]
    pub max_memory: Option<String>,
}

/// The `--algo` option's algorithm; `auto` when absent.
pub fn algorithm_option(algo: Option<&str>) -> Result<Algorithm, Fail> {
    algo.map_or(Ok(Algorithm::Auto), algorithms::parse)
}

/// The `--max-work` and `--max-memory` options: the limits requests are held to (the
/// library's defaults where absent).
pub fn limits_option(p: &LimitArgs) -> Result<modred::Limits, Fail> {
    let mut limits = modred::Limits::new();
    if let Some(t) = &p.max_work {
        limits = limits.with_max_work(crate::engine::parse_max_work(t).map_err(Fail::new)?);
    }
    if let Some(t) = &p.max_memory {
        limits = limits.with_max_memory(crate::engine::parse_max_memory(t).map_err(Fail::new)?);
    }
    Ok(limits)
}

/// Writes `text` and a newline to stdout and flushes it.
pub fn print_line(text: &str) -> Result<(), Fail> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}
