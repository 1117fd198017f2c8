//! `modred help`, `modred --help`, `modred <command> --help` and `--version`.

use crate::args;
use crate::commands::print_line;
use crate::fail::{abbreviate, Fail};

/// `modred help [COMMAND]` (also `modred --help`): `args` are the arguments after `help`.
pub fn run(args: &[String]) -> Result<(), Fail> {
    match args {
        [] => print_line(&args::general_help()),
        [name] if matches!(name.as_str(), "help" | "--help" | "-h") => {
            print_line(&args::general_help())
        }
        [name] => match args::command_help(name) {
            Some(text) => print_line(&text),
            None => Err(args::unknown_command(name)),
        },
        [_, extra, ..] => Err(Fail::new(format!(
            "unexpected argument '{}' (usage: modred help [COMMAND])",
            abbreviate(extra)
        ))),
    }
}

/// `modred --version`.
pub fn version() -> Result<(), Fail> {
    print_line(&format!("modred {}", env!("CARGO_PKG_VERSION")))
}
