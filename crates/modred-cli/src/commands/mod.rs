//! The commands, one module each, and the table `main` dispatches on.

pub mod algos;
pub mod arith;
pub mod batch;
pub mod bench;
pub mod opcount;
pub mod radix2;
pub mod report;
pub mod special;
pub mod tune;

use crate::algorithms;
use crate::args::{CommandSpec, Parsed};
use crate::engine::Algorithm;
use crate::fail::Fail;
use std::io::Write;

/// A command: what it accepts and what it does.
pub struct Command {
    /// Its options, positional arguments and help.
    pub spec: &'static CommandSpec,
    /// Runs it on the parsed command line.
    pub run: fn(&Parsed) -> Result<(), Fail>,
}

/// Every command, in the order `modred help` lists them.
pub const COMMANDS: &[Command] = &[
    Command { spec: &algos::SPEC, run: algos::run },
    Command { spec: &arith::REDUCE, run: arith::reduce },
    Command { spec: &arith::MULMOD, run: arith::mulmod },
    Command { spec: &arith::POWM, run: arith::powm },
    Command { spec: &batch::SPEC, run: batch::run },
    Command { spec: &bench::SPEC, run: bench::run },
    Command { spec: &opcount::SPEC, run: opcount::run },
    Command { spec: &radix2::MODEL, run: radix2::model },
    Command { spec: &radix2::VECTORS, run: radix2::vectors },
    Command { spec: &report::SPEC, run: report::run },
    Command { spec: &special::SPECIAL_PRIMES, run: special::special_primes },
    Command { spec: &special::SOLINAS_WEIGHTS, run: special::solinas_weights },
    Command { spec: &tune::SPEC, run: tune::run },
];

/// The command called `name`.
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.spec.name == name)
}

/// The `--algo` option's algorithm; `auto` when absent.
pub fn algorithm_option(p: &Parsed) -> Result<Algorithm, Fail> {
    p.value("algo").map_or(Ok(Algorithm::Auto), algorithms::parse)
}

/// The `--max-work` and `--max-memory` options: the limits requests are held to (the
/// library's defaults where absent).
pub fn limits_option(p: &Parsed) -> Result<modred::Limits, Fail> {
    let mut limits = modred::Limits::new();
    if let Some(t) = p.value("max-work") {
        limits = limits.with_max_work(crate::engine::parse_max_work(t).map_err(Fail::new)?);
    }
    if let Some(t) = p.value("max-memory") {
        limits = limits.with_max_memory(crate::engine::parse_max_memory(t).map_err(Fail::new)?);
    }
    Ok(limits)
}

/// The `--max-work` option of the arithmetic commands.
pub const MAX_WORK: crate::args::OptSpec =
    crate::args::OptSpec { name: "max-work", value: Some("WORK") };

/// The `--max-memory` option of the arithmetic commands.
pub const MAX_MEMORY: crate::args::OptSpec =
    crate::args::OptSpec { name: "max-memory", value: Some("BYTES") };

/// The help paragraph on `--max-work` and `--max-memory`.
macro_rules! max_work_help {
    () => {
        "  --max-work WORK  refuse a request whose estimated work is over WORK digit\n                   \
         operations (a number, 2^N or AeN, or unlimited; default 2^36, about 20 s to\n                   \
         a minute), estimated from the algorithm's cost model ('modred algos')\n  \
         --max-memory BYTES\n                   \
         refuse a request whose tables (Hong's k^2-digit tables, exponentiation\n                   \
         windows) would be over BYTES (as WORK, or 512MiB, 2GiB; default 1GiB)\n"
    };
}
pub(crate) use max_work_help;

/// Writes `text` and a newline to stdout and flushes it.
pub fn print_line(text: &str) -> Result<(), Fail> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}
