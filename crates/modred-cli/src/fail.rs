//! How a command fails: a message for the one `error: ` line, or a closed output pipe.

use std::fmt;
use std::io;

/// A command's failure. Every kind but [`Fail::BrokenPipe`] is reported as one line on
/// stderr, `error: <message>`: with exit status 2, or 3 for [`Fail::Internal`].
#[derive(Debug)]
pub enum Fail {
    /// Bad usage or bad input; the message says what is wrong.
    Message(String),
    /// Not the input's fault: memory the system refused (the library's
    /// [`modred::Error::OutOfMemory`]).
    Internal(String),
    /// The reader of our output went away (`modred batch … | head`): stop quietly.
    BrokenPipe,
}

impl Fail {
    /// A failure with this message.
    pub fn new(message: impl Into<String>) -> Fail {
        Fail::Message(message.into())
    }
}

impl fmt::Display for Fail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fail::Message(m) | Fail::Internal(m) => f.write_str(m),
            Fail::BrokenPipe => f.write_str("the output pipe was closed"),
        }
    }
}

impl From<modred::Error> for Fail {
    fn from(e: modred::Error) -> Fail {
        match e {
            modred::Error::OutOfMemory { .. } => Fail::Internal(e.to_string()),
            _ => Fail::Message(crate::engine::message(&e)),
        }
    }
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Fail {
        match e.kind() {
            io::ErrorKind::BrokenPipe => Fail::BrokenPipe,
            _ => Fail::Message(format!("cannot write the output: {e}")),
        }
    }
}

/// `message` on one line: line breaks become spaces, so the error contract (exactly one
/// line on stderr) holds whatever a message contains, and any other control character is
/// escaped (`\x1b`), so that a message quoting input cannot drive the terminal.
pub fn one_line(message: &str) -> String {
    let joined =
        message.split(['\n', '\r']).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ");
    escape_controls(&joined)
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

    #[test]
    fn one_line_joins_lines() {
        assert_eq!(one_line("a\nb\r\nc"), "a b c");
        assert_eq!(one_line("plain"), "plain");
        assert_eq!(one_line("bad '\u{1b}[2J'"), "bad '\\x1b[2J'");
    }

    #[test]
    fn broken_pipe_is_quiet() {
        let e = io::Error::new(io::ErrorKind::BrokenPipe, "gone");
        assert!(matches!(Fail::from(e), Fail::BrokenPipe));
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
