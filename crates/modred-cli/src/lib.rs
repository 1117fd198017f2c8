//! The code of the `modred` command line, as a library so that tests and fuzz targets
//! drive the same functions the binary does. Not a stable API: use the `modred` crate.
//!
//! Every failure — bad usage, bad input, an algorithm that does not apply — is one line on
//! stderr starting `error: `, with exit status 2. Success is exit status 0.

#![deny(clippy::undocumented_unsafe_blocks)]
// The crate is the command line; its documentation is for those who work on it (read with
// `cargo doc -p modred-cli --document-private-items`), so it links to private modules.
#![allow(rustdoc::private_intra_doc_links)]

pub mod algorithms;
pub mod args;
pub mod commands;
pub mod engine;
pub mod fail;
pub mod guard;
pub mod help;
pub mod hw;
pub mod numbers;
pub mod operands;
pub mod report;
pub mod tune;

use fail::{one_line, Fail};
use std::io::Write;

/// Runs the command line `args` (without the program name) and returns the exit status:
/// 0 on success, 2 after printing one `error: ` line on stderr.
pub fn main_with_args(args: Vec<std::ffi::OsString>) -> i32 {
    guard::install();
    match guard::catch(|| run(args)) {
        Ok(Ok(())) | Ok(Err(Fail::BrokenPipe)) => 0,
        Ok(Err(Fail::Message(message))) | Err(message) => {
            // Nothing sensible is left to do if stderr is gone too.
            let _ = writeln!(std::io::stderr(), "error: {}", one_line(&message));
            2
        }
    }
}

fn run(args: Vec<std::ffi::OsString>) -> Result<(), Fail> {
    let args = args
        .into_iter()
        .enumerate()
        .map(|(i, a)| {
            a.into_string().map_err(|_| Fail::new(format!("argument {} is not valid UTF-8", i + 1)))
        })
        .collect::<Result<Vec<String>, Fail>>()?;
    let Some((name, rest)) = args.split_first() else {
        return Err(Fail::new("no command given (try 'modred help')"));
    };
    match name.as_str() {
        "help" | "--help" | "-h" => help::run(rest),
        "--version" | "-V" => match rest.first() {
            None => help::version(),
            Some(extra) => Err(Fail::new(format!(
                "unexpected argument '{}' after --version",
                args::abbreviate(extra)
            ))),
        },
        _ => {
            let command = commands::find(name).ok_or_else(|| help::unknown_command(name))?;
            let parsed = args::parse(command.spec, rest)?;
            if parsed.help {
                commands::print_line(command.spec.help().trim_end())
            } else {
                commands::tune::activate_default_profile();
                (command.run)(&parsed)
            }
        }
    }
}
