//! `modred help`, `modred --help`, `modred <command> --help` and `--version`.

use crate::commands::{self, print_line, COMMANDS};
use crate::fail::Fail;

/// `modred help [COMMAND]`.
pub fn run(args: &[String]) -> Result<(), Fail> {
    match args {
        [] => print_line(&general()),
        [name] => match commands::find(name) {
            Some(c) => print_line(c.spec.help().trim_end()),
            None if matches!(name.as_str(), "help" | "--help" | "-h") => print_line(&general()),
            None => Err(unknown_command(name)),
        },
        [_, extra, ..] => Err(Fail::new(format!(
            "unexpected argument '{}' (usage: modred help [COMMAND])",
            crate::args::abbreviate(extra)
        ))),
    }
}

/// `modred --version`.
pub fn version() -> Result<(), Fail> {
    print_line(&format!("modred {}", env!("CARGO_PKG_VERSION")))
}

/// The error for a command name that is not one.
pub fn unknown_command(name: &str) -> Fail {
    let names: Vec<_> = COMMANDS.iter().map(|c| c.spec.name).collect();
    Fail::new(format!(
        "unknown command '{}' (commands: {}, help; try 'modred help')",
        crate::args::abbreviate(name),
        names.join(", ")
    ))
}

/// The text of `modred help`.
fn general() -> String {
    let mut s = String::from(
        "modred — multi-precision modular reduction, multiplication and exponentiation\n\n\
         usage: modred <command> [options] [arguments]\n\ncommands:\n",
    );
    for c in COMMANDS {
        s.push_str(&format!("  {:<9} {}\n", c.spec.name, c.spec.summary));
    }
    s.push_str(&format!(
        "  {:<9} {}\n",
        "help", "this text; 'modred help <command>' for one command"
    ));
    s.push_str(
        "\nNumbers are decimal or hexadecimal with 0x; results are printed in decimal (hex with\n\
         --hex). --algo takes a name from 'modred algos'; the default, auto, chooses by the\n\
         modulus and the operation. Options may come before or after the arguments.\n\
         Errors: exit status 2 and one line on stderr starting 'error: '.\n\
         'modred --version' prints the version.",
    );
    s
}
