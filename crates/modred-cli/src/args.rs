//! Hand-written argument parsing. The error contract (exactly one `error: ` line, exit
//! status 2) rules out the usual frameworks' multi-line reports.
//!
//! Rules, the same for every command:
//! - options may come before, between or after the positional arguments;
//! - `--name value` and `--name=value` are the same; `-h` is `--help`;
//! - an argument starting with `-` and a digit (`-5`) is a positional argument (a negative
//!   number, which the command then rejects with a message saying so), not an option;
//! - after `--` every argument is positional;
//! - an option given twice, an unknown option, a missing value, and too few or too many
//!   positional arguments are errors.

use crate::fail::Fail;

/// An option a command accepts.
pub struct OptSpec {
    /// The name without the leading `--`.
    pub name: &'static str,
    /// For an option that takes a value, the value's placeholder in help texts (`"A"`);
    /// `None` for a flag.
    pub value: Option<&'static str>,
}

/// What a command accepts, and its help.
pub struct CommandSpec {
    /// The command's name.
    pub name: &'static str,
    /// One line: what it does.
    pub summary: &'static str,
    /// The usage line, without the leading `modred `.
    pub usage: &'static str,
    /// The accepted options.
    pub options: &'static [OptSpec],
    /// The positional arguments' names, in order; all are required but those written in
    /// brackets (`"[M]"`), which are optional and come last.
    pub positionals: &'static [&'static str],
    /// The rest of `modred <command> --help`: arguments, options, examples.
    pub details: &'static str,
}

impl CommandSpec {
    /// The full text of `modred <command> --help`.
    pub fn help(&self) -> String {
        format!(
            "modred {} — {}\n\nusage: modred {}\n\n{}",
            self.name, self.summary, self.usage, self.details
        )
    }

    fn usage_hint(&self) -> String {
        format!("usage: modred {}", self.usage)
    }
}

/// The parsed command line of one command.
#[derive(Debug, Default)]
pub struct Parsed {
    /// `--help` or `-h` was given: print the help and ignore the rest.
    pub help: bool,
    values: Vec<(&'static str, String)>,
    flags: Vec<&'static str>,
    /// The positional arguments, as many as the command's spec names.
    pub positionals: Vec<String>,
}

impl Parsed {
    /// The value of option `--name`, if given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str())
    }

    /// Whether flag `--name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.flags.contains(&name)
    }
}

/// Whether `arg` is an option (rather than a positional argument such as `-5`).
fn is_option(arg: &str) -> bool {
    let b = arg.as_bytes();
    b.len() >= 2 && b[0] == b'-' && !b[1].is_ascii_digit()
}

/// Parses `args` (everything after the command's name) against `spec`.
pub fn parse(spec: &CommandSpec, args: &[String]) -> Result<Parsed, Fail> {
    let mut parsed = Parsed::default();
    let mut seen: Vec<&'static str> = Vec::new();
    let mut rest = args.iter();
    let mut only_positionals = false;
    while let Some(arg) = rest.next() {
        if only_positionals || !is_option(arg) {
            parsed.positionals.push(arg.clone());
            continue;
        }
        if arg == "--" {
            only_positionals = true;
            continue;
        }
        if arg == "--help" || arg == "-h" {
            parsed.help = true;
            return Ok(parsed);
        }
        let body = arg.strip_prefix("--").ok_or_else(|| {
            Fail::new(format!(
                "unknown option '{arg}' for {} (options are spelled --name; try 'modred {} --help')",
                spec.name, spec.name
            ))
        })?;
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        let opt = spec.options.iter().find(|o| o.name == name).ok_or_else(|| {
            Fail::new(format!(
                "unknown option '--{name}' for {} (try 'modred {} --help')",
                spec.name, spec.name
            ))
        })?;
        if seen.contains(&opt.name) {
            return Err(Fail::new(format!("option --{name} is given more than once")));
        }
        seen.push(opt.name);
        match opt.value {
            None => {
                if inline.is_some() {
                    return Err(Fail::new(format!("option --{name} takes no value")));
                }
                parsed.flags.push(opt.name);
            }
            Some(placeholder) => {
                let value = match inline {
                    Some(v) => v.to_string(),
                    None => match rest.next() {
                        Some(v) if !v.starts_with("--") => v.clone(),
                        _ => {
                            return Err(Fail::new(format!(
                                "option --{name} needs a value ({placeholder}; {})",
                                spec.usage_hint()
                            )))
                        }
                    },
                };
                parsed.values.push((opt.name, value));
            }
        }
    }
    let wanted = spec.positionals.len();
    let required = spec.positionals.iter().filter(|p| !p.starts_with('[')).count();
    if parsed.positionals.len() < required {
        let missing = spec.positionals[parsed.positionals.len()..required].join(" ");
        return Err(Fail::new(format!(
            "missing argument{} {missing} ({})",
            if required - parsed.positionals.len() > 1 { "s" } else { "" },
            spec.usage_hint()
        )));
    }
    if parsed.positionals.len() > wanted {
        let extra = &parsed.positionals[wanted];
        return Err(Fail::new(format!(
            "unexpected argument '{}' ({})",
            abbreviate(extra),
            spec.usage_hint()
        )));
    }
    Ok(parsed)
}

/// Keeps messages short when they quote a huge argument, and safe for a terminal: control
/// characters of the input are shown escaped ([`escape_controls`]).
pub fn abbreviate(s: &str) -> String {
    const MAX: usize = 40;
    match s.char_indices().nth(MAX) {
        None => escape_controls(s),
        Some((cut, _)) => {
            format!("{}… ({} characters)", escape_controls(&s[..cut]), s.chars().count())
        }
    }
}

/// `s` with every control character written as an escape (`\x1b`, `\n`, `\u{9b}`), so
/// that a message quoting input never sends the terminal an escape sequence.
pub fn escape_controls(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() && (c as u32) < 0x80 => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: CommandSpec = CommandSpec {
        name: "t",
        summary: "test",
        usage: "t [--algo A] [--hex] X M",
        options: &[
            OptSpec { name: "algo", value: Some("A") },
            OptSpec { name: "hex", value: None },
        ],
        positionals: &["X", "M"],
        details: "",
    };

    fn p(args: &[&str]) -> Result<Parsed, Fail> {
        parse(&SPEC, &args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    fn err(args: &[&str]) -> String {
        p(args).unwrap_err().to_string()
    }

    #[test]
    fn options_anywhere_both_forms() {
        let a = p(&["1", "--algo", "barrett", "2", "--hex"]).unwrap();
        assert_eq!(a.positionals, ["1", "2"]);
        assert_eq!(a.value("algo"), Some("barrett"));
        assert!(a.flag("hex"));
        let b = p(&["--algo=classical", "1", "2"]).unwrap();
        assert_eq!(b.value("algo"), Some("classical"));
        assert!(!b.flag("hex"));
    }

    #[test]
    fn negative_numbers_are_positionals() {
        let a = p(&["-5", "-0x7"]).unwrap();
        assert_eq!(a.positionals, ["-5", "-0x7"]);
        let b = p(&["--", "--x", "-y"]).unwrap();
        assert_eq!(b.positionals, ["--x", "-y"]);
    }

    #[test]
    fn help_wins() {
        assert!(p(&["--help"]).unwrap().help);
        assert!(p(&["1", "-h"]).unwrap().help);
    }

    #[test]
    fn errors() {
        assert!(err(&["1"]).starts_with("missing argument M"));
        assert!(err(&[]).starts_with("missing arguments X M"));
        assert!(err(&["1", "2", "3"]).starts_with("unexpected argument '3'"));
        assert!(err(&["--bogus", "1", "2"]).contains("unknown option '--bogus'"));
        assert!(err(&["-x", "1", "2"]).contains("unknown option '-x'"));
        assert!(err(&["1", "2", "--algo"]).contains("needs a value"));
        assert!(err(&["1", "2", "--algo", "--hex"]).contains("needs a value"));
        assert!(err(&["1", "2", "--hex=1"]).contains("takes no value"));
        assert!(err(&["1", "2", "--hex", "--hex"]).contains("more than once"));
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(abbreviate("1\u{1b}[31m2"), "1\\x1b[31m2");
        assert_eq!(abbreviate("a\nb\tc\rd\u{7f}\u{9b}é"), "a\\nb\\tc\\rd\\x7f\\u{9b}é");
        let long = format!("{}\u{1b}", "9".repeat(39));
        assert_eq!(
            abbreviate(&format!("{long}zz")),
            format!("{}\\x1b… (42 characters)", "9".repeat(39))
        );
    }

    #[test]
    fn abbreviates_long_arguments() {
        assert_eq!(abbreviate("12"), "12");
        let long = "9".repeat(100);
        assert_eq!(abbreviate(&long), format!("{}… (100 characters)", "9".repeat(40)));
    }
}
