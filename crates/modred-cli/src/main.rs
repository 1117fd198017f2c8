//! `modred`: the command line of the modred library.
//!
//! Every failure — bad usage, bad input, an algorithm that does not apply — is one line on
//! stderr starting `error: `, with exit status 2. Success is exit status 0.

#![deny(clippy::undocumented_unsafe_blocks)]

mod algorithms;
mod args;
mod commands;
mod engine;
mod fail;
mod guard;
mod help;
mod hw;
mod numbers;
pub mod report;

use fail::{one_line, Fail};
use std::io::Write;

fn main() {
    guard::install();
    let code = match guard::catch(|| run(std::env::args_os().skip(1).collect())) {
        Ok(Ok(())) | Ok(Err(Fail::BrokenPipe)) => 0,
        Ok(Err(Fail::Message(message))) | Err(message) => {
            // Nothing sensible is left to do if stderr is gone too.
            let _ = writeln!(std::io::stderr(), "error: {}", one_line(&message));
            2
        }
    };
    std::process::exit(code);
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
                (command.run)(&parsed)
            }
        }
    }
}
