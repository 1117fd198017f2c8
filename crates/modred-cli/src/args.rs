//! The command line's definition, with clap's derive API, and its reading.
//!
//! Rules, the same for every command:
//! - options may come before, between or after the positional arguments;
//! - `--name value` and `--name=value` are the same; `-h` is `--help` (the whole help);
//! - an argument starting with `-` and a digit (`-5`, `-0x7`) is a positional argument (a
//!   negative number, which the command then rejects with a message saying so), not an
//!   option; an option's value may start with `-` (`--seed -1`), not with `--`;
//! - after `--` every argument is positional;
//! - an option given twice, an unknown option, a missing value, and too few or too many
//!   positional arguments are errors.
//!
//! clap reads the command line; its multi-line error reports are rewritten here into the
//! one `error: ` line of the contract ([`usage_error`]). clap has no rule for the last two
//! kinds of hyphen (a number such as `-0x7` that is not a decimal, and an option value
//! starting with `-`), so [`arrange`] puts the arguments into a form clap reads that way.

use crate::commands::{
    algos, arith, batch, bench, opcount, radix2, report, special, tune, CompletionsArgs, ManArgs,
};
use crate::fail::{abbreviate, Fail};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// The help of `modred --help` after the list of commands.
const GENERAL_NOTES: &str = "\
Numbers are decimal or hexadecimal with 0x; results are printed in decimal (hex with
--hex). --algo takes a name from 'modred algos'; the default, auto, chooses by the
modulus and the operation. Options may come before or after the arguments.
Errors: exit status 2 and one line on stderr starting 'error: '.
'modred --version' prints the version.";

/// The layout of `modred --help`.
const GENERAL_TEMPLATE: &str = "\
{name} — {about}

usage: {usage}

commands:
{subcommands}{after-help}";

/// The layout of `modred <command> --help`: clap's sections, then the command's own text
/// (what it prints, value syntax, examples).
fn command_template(name: &str) -> String {
    format!("modred {name} — {{about}}\n\nusage: {{usage}}\n\n{{all-args}}{{after-help}}")
}

/// `modred`: multi-precision modular reduction, multiplication and exponentiation.
#[derive(Parser, Debug)]
#[command(
    name = "modred",
    version,
    about = "multi-precision modular reduction, multiplication and exponentiation",
    long_about = None,
    override_usage = "modred <command> [options] [arguments]",
    help_template = GENERAL_TEMPLATE,
    after_help = GENERAL_NOTES,
    disable_help_subcommand = true,
    disable_help_flag = true,
    disable_version_flag = true,
    subcommand_required = true
)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Cmd,
}

/// The commands, in the order `modred help` lists them; each one's documentation is the
/// line `modred help` shows.
#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// list the algorithms; with M: which apply to M, which auto picks, and why
    #[command(name = "algos")]
    Algos(algos::Args),
    /// X mod M
    #[command(name = "reduce")]
    Reduce(arith::ReduceArgs),
    /// X*Y mod M
    #[command(name = "mulmod")]
    Mulmod(arith::MulmodArgs),
    /// B^E mod M
    #[command(name = "powm")]
    Powm(arith::PowmArgs),
    /// JSON lines in (stdin), JSON lines out (stdout), one answer per line, in order
    #[command(name = "batch")]
    Batch(batch::Args),
    /// time algorithms side by side over sizes and operations, ratios in one run
    #[command(name = "bench")]
    Bench(bench::Args),
    /// count the single-precision multiplications, divisions and additions of one operation
    #[command(name = "opcount")]
    Opcount(opcount::Args),
    /// run both radix-2 Montgomery carry-save datapaths (paper 004 §5) cycle by cycle
    #[command(name = "radix2-model")]
    Radix2Model(radix2::ModelArgs),
    /// write test vectors for the radix-2 Montgomery multipliers in hw/
    #[command(name = "radix2-vectors")]
    Radix2Vectors(radix2::VectorsArgs),
    /// reproduce every paper's comparison (tables and figures) on this machine
    #[command(name = "report")]
    Report(report::Args),
    /// list the c below a bound with 2^N - c prime (paper 003, Table 1)
    #[command(name = "special-primes")]
    SpecialPrimes(special::PrimesArgs),
    /// reduction matrix, addition/subtraction matrices and weights of f (paper 003, Table 2)
    #[command(name = "solinas-weights")]
    SolinasWeights(special::WeightsArgs),
    /// measure which algorithm and method win here; write the profile auto follows
    #[command(name = "tune")]
    Tune(tune::Args),
    /// print the completion script for a shell (bash, zsh, fish, elvish, powershell)
    #[command(name = "completions")]
    Completions(CompletionsArgs),
    /// print the manual page (roff); with --out DIR write one page per command
    #[command(name = "man")]
    Man(ManArgs),
    /// this text; 'modred help COMMAND' for one command
    #[command(name = "help")]
    Help(HelpArgs),
}

/// `modred help [COMMAND]`.
#[derive(clap::Args, Debug)]
#[command(override_usage = "modred help [COMMAND]")]
pub struct HelpArgs {
    /// The command to describe.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

/// The whole command line's definition, as completions, the manual and the help use it:
/// every command with the help layout and `-h`/`--help` printing the whole help.
pub fn command() -> clap::Command {
    let help = clap::Arg::new("help")
        .short('h')
        .long("help")
        .help("Print this help")
        .action(clap::ArgAction::HelpLong);
    let mut cmd = Cli::command()
        .arg(help.clone())
        .arg(
            clap::Arg::new("version")
                .short('V')
                .long("version")
                .help("Print the version")
                .action(clap::ArgAction::Version),
        )
        .mut_subcommands(|sub| {
            let template = command_template(sub.get_name());
            // The help texts name the values themselves; the lists are for completion.
            sub.help_template(template)
                .disable_help_flag(true)
                .arg(help.clone())
                .mut_args(|a| a.hide_possible_values(true))
        });
    cmd.build();
    cmd
}

/// The names of the commands, in order.
pub fn command_names() -> Vec<String> {
    command().get_subcommands().map(|c| c.get_name().to_string()).collect()
}

/// The text of `modred --help`.
pub fn general_help() -> String {
    command().render_long_help().to_string().trim_end().to_string()
}

/// The text of `modred <name> --help`, if `name` is a command.
pub fn command_help(name: &str) -> Option<String> {
    let mut cmd = command();
    let sub = cmd.find_subcommand_mut(name)?;
    Some(sub.render_long_help().to_string().trim_end().to_string())
}

/// What a command line asks for.
#[derive(Debug)]
pub enum Request {
    /// Run this command.
    Run(Cmd),
    /// Print this help text.
    Help(String),
}

/// Reads one command line: `args[0]` is the command's name, the rest its arguments.
pub fn parse(args: &[String]) -> Result<Request, Fail> {
    let Some((name, rest)) = args.split_first() else {
        return Err(Fail::new("no command given (try 'modred help')"));
    };
    let top = command();
    let sub = top
        .get_subcommands()
        .find(|c| c.get_name() == name.as_str())
        .ok_or_else(|| unknown_command(name))?;
    let argv = ["modred".to_string(), name.clone()].into_iter().chain(arrange(sub, rest));
    match top.clone().try_get_matches_from(argv) {
        Ok(matches) => {
            let cli = Cli::from_arg_matches(&matches).map_err(|e| usage_error(&e, sub))?;
            Ok(Request::Run(cli.command))
        }
        Err(e) if e.kind() == ErrorKind::DisplayHelp => {
            Ok(Request::Help(command_help(name).expect("a command")))
        }
        Err(e) => Err(usage_error(&e, sub)),
    }
}

/// The error for a command name that is not one.
pub fn unknown_command(name: &str) -> Fail {
    Fail::new(format!(
        "unknown command '{}' (commands: {}; try 'modred help')",
        abbreviate(name),
        command_names().join(", ")
    ))
}

/// Whether `arg` is an option (rather than a positional argument such as `-5` or `-`).
fn is_option(arg: &str) -> bool {
    let b = arg.as_bytes();
    b.len() >= 2 && b[0] == b'-' && !b[1].is_ascii_digit()
}

/// `args` in the form clap reads by the rules of the [module](self): the options first
/// (an option and its separate value joined as `--name=value`, so that a value starting
/// with `-` stays a value), then `--` and the positional arguments in their order. An
/// option missing its value ends the list there, so that it is the fault reported.
fn arrange(cmd: &clap::Command, args: &[String]) -> Vec<String> {
    let takes_value = |name: &str| {
        cmd.get_arguments().any(|a| a.get_long() == Some(name) && a.get_action().takes_values())
    };
    let mut options = Vec::new();
    let mut positionals = Vec::new();
    let mut rest = args.iter().peekable();
    while let Some(arg) = rest.next() {
        if arg == "--" {
            positionals.extend(rest.by_ref().cloned());
        } else if !is_option(arg) {
            positionals.push(arg.clone());
        } else {
            match arg.strip_prefix("--") {
                Some(name) if !name.contains('=') && takes_value(name) => {
                    match rest.next_if(|v| !v.starts_with("--")) {
                        Some(value) => options.push(format!("{arg}={value}")),
                        None => {
                            // An option without its value: what clap reports, as the
                            // first fault of the command line.
                            options.push(arg.clone());
                            return options;
                        }
                    }
                }
                _ => options.push(arg.clone()),
            }
        }
    }
    if !positionals.is_empty() {
        options.push("--".to_string());
        options.extend(positionals);
    }
    options
}

/// The usage line of `cmd`.
fn usage_of(cmd: &clap::Command) -> String {
    let usage = cmd.clone().render_usage().to_string();
    let usage = usage.trim();
    usage.strip_prefix("Usage:").unwrap_or(usage).trim().to_string()
}

/// clap's error `e` about command `cmd` as one line, in the words of the contract: what
/// is wrong, and where that helps, the usage or the way to the help.
fn usage_error(e: &clap::Error, cmd: &clap::Command) -> Fail {
    let name = cmd.get_name();
    let arg = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(v)) => v.join(" "),
        _ => String::new(),
    };
    // "--algo <A>" → "--algo"; "--frob=1" → "--frob".
    let option = arg.split([' ', '=']).next().unwrap_or_default().to_string();
    let placeholder = |option: &str| {
        cmd.get_arguments()
            .find(|a| a.get_long().map(|l| format!("--{l}")).as_deref() == Some(option))
            .and_then(|a| a.get_value_names().and_then(|v| v.first()).map(|v| v.to_string()))
            .unwrap_or_else(|| "a value".to_string())
    };
    let usage = usage_of(cmd);
    let message = match e.kind() {
        ErrorKind::UnknownArgument if option.starts_with("--") => {
            format!("unknown option '{}' for {name} (try 'modred {name} --help')", abbreviate(&option))
        }
        ErrorKind::UnknownArgument if is_option(&arg) => format!(
            "unknown option '{}' for {name} (options are spelled --name; try 'modred {name} --help')",
            abbreviate(&arg)
        ),
        ErrorKind::UnknownArgument => {
            format!("unexpected argument '{}' (usage: {usage})", abbreviate(&arg))
        }
        ErrorKind::InvalidValue | ErrorKind::NoEquals | ErrorKind::MissingRequiredArgument
            if e.get(ContextKind::InvalidValue).is_none_or(|v| v.to_string().is_empty())
                && option.starts_with("--") =>
        {
            format!("option {option} needs a value ({}; usage: {usage})", placeholder(&option))
        }
        ErrorKind::MissingRequiredArgument => {
            let missing: Vec<String> = match e.get(ContextKind::InvalidArg) {
                Some(ContextValue::Strings(v)) => {
                    v.iter().map(|s| s.trim_matches(['<', '>', '.']).to_string()).collect()
                }
                _ => vec![arg.clone()],
            };
            format!(
                "missing argument{} {} (usage: {usage})",
                if missing.len() > 1 { "s" } else { "" },
                missing.join(" ")
            )
        }
        ErrorKind::ArgumentConflict
            if e.get(ContextKind::PriorArg).is_some_and(|p| p.to_string() == arg) =>
        {
            format!("option {option} is given more than once")
        }
        ErrorKind::TooManyValues if option.starts_with("--") => {
            format!("option {option} takes no value")
        }
        _ => {
            // Any other report: its first line, without clap's "error: ".
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or_default();
            first.strip_prefix("error: ").unwrap_or(first).to_string()
        }
    };
    Fail::new(message)
}

/// A value parser that takes any value as it is (the command checks it, with its own
/// message) but names the usual values, for the help and the shells' completions.
#[derive(Clone)]
pub struct Suggest(pub fn() -> Vec<&'static str>);

impl clap::builder::TypedValueParser for Suggest {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new((self.0)().into_iter().map(clap::builder::PossibleValue::new)))
    }
}

/// The names `--algo` takes.
pub fn algorithm_names() -> Vec<&'static str> {
    modred::Algorithm::ALL.iter().map(|a| a.name()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    fn arranged(name: &str, args: &[&str]) -> Vec<String> {
        let top = command();
        arrange(top.find_subcommand(name).unwrap(), &strings(args))
    }

    fn err(args: &[&str]) -> String {
        parse(&strings(args)).unwrap_err().to_string()
    }

    #[test]
    fn options_first_and_their_values_joined() {
        assert_eq!(
            arranged("reduce", &["1", "--algo", "barrett", "-2", "--hex"]),
            ["--algo=barrett", "--hex", "--", "1", "-2"]
        );
        assert_eq!(arranged("powm", &["--window", "-1", "1"]), ["--window=-1", "--", "1"]);
        assert_eq!(arranged("powm", &["1", "--window", "--hex"]), ["--window"]);
        assert_eq!(arranged("reduce", &["--", "--x", "-y"]), ["--", "--x", "-y"]);
    }

    #[test]
    fn the_commands_read_their_arguments() {
        let Ok(Request::Run(Cmd::Powm(p))) =
            parse(&strings(&["powm", "-0x3", "--window=4", "--hex", "5", "7"]))
        else {
            panic!("powm not read")
        };
        assert_eq!((p.b.as_str(), p.e.as_str(), p.m.as_str()), ("-0x3", "5", "7"));
        assert_eq!(p.window.as_deref(), Some("4"));
        assert!(p.options.hex);
        assert!(matches!(parse(&strings(&["reduce", "-h"])), Ok(Request::Help(_))));
        assert!(matches!(parse(&strings(&["algos"])), Ok(Request::Run(Cmd::Algos(_)))));
    }

    #[test]
    fn errors_are_one_line_in_the_contract_words() {
        assert!(err(&["reduce", "1"]).starts_with("missing argument M (usage: modred reduce"));
        assert!(err(&["reduce"]).starts_with("missing arguments X M"));
        assert!(err(&["reduce", "1", "2", "3"]).starts_with("unexpected argument '3'"));
        assert!(err(&["reduce", "--bogus", "1", "2"]).contains("unknown option '--bogus'"));
        assert!(err(&["reduce", "-x", "1", "2"]).contains("unknown option '-x'"));
        assert!(err(&["reduce", "1", "2", "--algo"]).contains("option --algo needs a value"));
        assert!(err(&["reduce", "--algo", "--hex", "1", "2"]).contains("needs a value"));
        assert!(err(&["reduce", "1", "2", "--hex=1"]).contains("takes no value"));
        assert!(err(&["reduce", "1", "2", "--hex", "--hex"]).contains("more than once"));
        assert!(err(&["frob"]).starts_with("unknown command 'frob' (commands: algos, reduce"));
        for e in [err(&["reduce", "--bogus", "1", "2"]), err(&["reduce"])] {
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn suggested_values_are_not_checked_by_clap() {
        // The command's own check, with its own message, decides.
        let Ok(Request::Run(Cmd::Reduce(r))) =
            parse(&strings(&["reduce", "--algo=fourier", "5", "7"]))
        else {
            panic!("not read")
        };
        assert_eq!(r.options.algo.as_deref(), Some("fourier"));
        let top = command();
        let algo = top.find_subcommand("powm").unwrap().get_arguments();
        let algo = algo.into_iter().find(|a| a.get_id() == "algo").unwrap();
        let names: Vec<String> =
            algo.get_possible_values().iter().map(|v| v.get_name().to_string()).collect();
        assert_eq!(names.first().map(String::as_str), Some("auto"));
        assert!(names.iter().any(|n| n == "montgomery"), "{names:?}");
    }

    #[test]
    fn every_command_is_listed_in_order() {
        let names = command_names();
        assert_eq!(names.first().map(String::as_str), Some("algos"));
        assert_eq!(names.last().map(String::as_str), Some("help"));
        for name in ["radix2-model", "solinas-weights", "completions", "man"] {
            assert!(names.iter().any(|n| n == name), "{name}");
        }
    }
}
