//! `modred batch`: JSON lines in, JSON lines out, one answer per input line, in order.
//!
//! A line is `{"op":"powm","algo":"barrett","x":"0x1f","e":"65537","m":"1000003"}`; the
//! answer is `{"ok":"<decimal>"}` or `{"error":"<message>"}`. A bad line — malformed,
//! empty, too long, not UTF-8, a missing or unexpected field, a bad number — is answered
//! with an error and the batch goes on. Only a failure to read the input or to write the
//! output stops it.
//!
//! Prepared moduli are cached by (algorithm, modulus), so a batch modulo one number pays
//! for the precalculation once. Output is buffered and flushed whenever the input has no
//! more data ready, so the command also serves an interactive peer line by line.

use super::algorithm_option;
use crate::algorithms;
use crate::args::{CommandSpec, OptSpec, Parsed};
use crate::engine::{Algorithm, Engine, Number, Window};
use crate::fail::Fail;
use crate::{guard, numbers};
use serde_json::{Map, Value};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

/// The longest line read; a longer one is answered with an error (and skipped without
/// being held in memory).
pub const MAX_LINE: usize = 1 << 20;

/// `modred batch`.
pub const SPEC: CommandSpec = CommandSpec {
    name: "batch",
    summary: "JSON lines in (stdin), JSON lines out (stdout), one answer per line, in order",
    usage: "batch [--algo A]",
    options: &[OptSpec { name: "algo", value: Some("A") }],
    positionals: &[],
    details: "Each input line is a JSON object:\n  \
              {\"op\":\"reduce\",\"x\":\"...\",\"m\":\"...\"}\n  \
              {\"op\":\"mulmod\",\"x\":\"...\",\"y\":\"...\",\"m\":\"...\"}\n  \
              {\"op\":\"powm\",\"x\":\"...\",\"e\":\"...\",\"m\":\"...\"}\n\
              with an optional \"algo\" (default: --algo, else auto). Numbers are strings, decimal\n\
              or hexadecimal with 0x (JSON integers below 2^64 are accepted too). Each answer\n\
              line is {\"ok\":\"<decimal>\"} or {\"error\":\"<message>\"}; a bad line never stops the\n\
              batch. Lines longer than 1 MiB are answered with an error.\n\n\
              options:\n  \
              --algo A  the default algorithm for lines without \"algo\" (default auto)\n",
};

/// Answers stdin's lines on stdout.
pub fn run(p: &Parsed) -> Result<(), Fail> {
    let default = algorithm_option(p)?;
    let input = BufReader::with_capacity(1 << 16, io::stdin().lock());
    let output = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    answer_all(input, output, default)
}

/// Answers every line of `input` on `output`.
pub fn answer_all<R: Read, W: Write>(
    mut input: BufReader<R>,
    mut output: W,
    default: Algorithm,
) -> Result<(), Fail> {
    let mut engine = Engine::new();
    let mut line = Vec::new();
    loop {
        // Flush before a read that may wait, so an interactive peer gets its answers.
        if input.buffer().is_empty() {
            output.flush()?;
        }
        let read = read_line(&mut input, &mut line)
            .map_err(|e| Fail::new(format!("cannot read the input: {e}")))?;
        let answer = match read {
            None => break,
            Some(Line::TooLong(n)) => {
                Err(format!("line too long: {n} bytes (the limit is {MAX_LINE})"))
            }
            Some(Line::Complete) => {
                guard::catch(|| answer(&mut engine, default, &line)).unwrap_or_else(Err)
            }
        };
        match answer {
            Ok(n) => {
                output.write_all(b"{\"ok\":\"")?;
                output.write_all(n.to_decimal().as_bytes())?;
                output.write_all(b"\"}\n")?;
            }
            Err(message) => {
                output.write_all(b"{\"error\":")?;
                output.write_all(Value::String(message).to_string().as_bytes())?;
                output.write_all(b"}\n")?;
            }
        }
    }
    output.flush()?;
    Ok(())
}

/// What [`read_line`] read.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// A line within [`MAX_LINE`], in the buffer, without its newline.
    Complete,
    /// A line of this many bytes, more than [`MAX_LINE`]; consumed but not kept.
    TooLong(usize),
}

/// Reads one line (up to `\n` or the end of input) into `buf`; `None` at the end.
fn read_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> io::Result<Option<Line>> {
    buf.clear();
    let mut total = 0usize;
    let mut too_long = false;
    let mut started = false;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(match (started, too_long) {
                (false, _) => None,
                (true, false) => Some(Line::Complete),
                (true, true) => Some(Line::TooLong(total)),
            });
        }
        started = true;
        let newline = available.iter().position(|&c| c == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        total += chunk.len();
        if !too_long {
            if buf.len() + chunk.len() > MAX_LINE {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(chunk);
            }
        }
        let used = newline.map_or(available.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(if too_long { Line::TooLong(total) } else { Line::Complete }));
        }
    }
}

/// The operations and the number fields each takes, with the role names for messages.
const OPS: &[(&str, &[(&str, &str)])] = &[
    ("reduce", &[("x", "x"), ("m", "modulus")]),
    ("mulmod", &[("x", "x"), ("y", "y"), ("m", "modulus")]),
    ("powm", &[("x", "base"), ("e", "exponent"), ("m", "modulus")]),
];

/// The answer to one line.
fn answer(engine: &mut Engine, default: Algorithm, line: &[u8]) -> Result<Number, String> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Err("empty line".into());
    }
    let text = std::str::from_utf8(line)
        .map_err(|e| format!("the line is not valid UTF-8 (at byte {})", e.valid_up_to()))?;
    let value: Value = serde_json::from_str(text).map_err(|e| format!("malformed JSON: {e}"))?;
    let Value::Object(fields) = value else {
        return Err(
            "a line must be a JSON object such as {\"op\":\"reduce\",\"x\":\"5\",\"m\":\"3\"}"
                .into(),
        );
    };
    let op = match fields.get("op") {
        Some(Value::String(op)) => op.as_str(),
        Some(_) => return Err("field 'op' must be a string".into()),
        None => return Err("missing field 'op' (reduce, mulmod or powm)".into()),
    };
    let (_, wanted) = OPS.iter().find(|(name, _)| *name == op).ok_or_else(|| {
        format!("unknown op '{}' (expected reduce, mulmod or powm)", crate::args::abbreviate(op))
    })?;
    if let Some(extra) =
        fields.keys().find(|k| *k != "op" && *k != "algo" && !wanted.iter().any(|(f, _)| f == k))
    {
        return Err(format!(
            "unexpected field '{}' for {op} (it takes {})",
            crate::args::abbreviate(extra),
            wanted.iter().map(|(f, _)| *f).collect::<Vec<_>>().join(", ")
        ));
    }
    let algo = match fields.get("algo") {
        None => default,
        Some(Value::String(name)) => algorithms::parse(name).map_err(|e| e.to_string())?,
        Some(_) => return Err("field 'algo' must be a string".into()),
    };
    let mut n = Vec::with_capacity(3);
    for (field, role) in wanted.iter() {
        n.push(number(&fields, op, field, role)?);
    }
    let result = match op {
        "reduce" => engine.reduce(algo, &n[0], &n[1]),
        "mulmod" => engine.mul_mod(algo, &n[0], &n[1], &n[2]),
        _ => engine.pow_mod(algo, &n[0], &n[1], &n[2], Window::Sliding),
    };
    result.map_err(|e| e.to_string())
}

/// The number in `field`: a string (decimal or `0x` hex) or a JSON integer below 2^64.
fn number(
    fields: &Map<String, Value>,
    op: &str,
    field: &str,
    role: &str,
) -> Result<Number, String> {
    match fields.get(field) {
        Some(Value::String(s)) => numbers::parse(s, role),
        Some(Value::Number(v)) => match v.as_u64() {
            Some(u) => Ok(Number::from_u64(u)),
            None if v.as_i64().is_some() => numbers::parse(&v.to_string(), role),
            None => Err(format!(
                "field '{field}': {v} is not a whole number below 2^64; give large numbers as strings"
            )),
        },
        Some(_) => Err(format!("field '{field}' must be a number as a string, such as \"0x1f\"")),
        None => Err(format!("missing field '{field}' for {op}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_on(input: &[u8]) -> String {
        let mut out = Vec::new();
        answer_all(BufReader::new(input), &mut out, Algorithm::Auto).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn lines_split_on_newlines_last_one_optional() {
        assert_eq!(run_on(b""), "");
        let ok = "{\"op\":\"reduce\",\"x\":\"10\",\"m\":\"7\"}";
        assert_eq!(run_on(ok.as_bytes()), "{\"ok\":\"3\"}\n");
        assert_eq!(run_on(format!("{ok}\r\n{ok}\n").as_bytes()), "{\"ok\":\"3\"}\n".repeat(2));
        assert_eq!(run_on(b"\n"), "{\"error\":\"empty line\"}\n");
    }

    #[test]
    fn long_lines_are_skipped_whole() {
        let mut input = vec![b'7'; MAX_LINE + 10];
        input.extend_from_slice(b"\n{\"op\":\"reduce\",\"x\":\"10\",\"m\":\"7\"}\n");
        let out = run_on(&input);
        let lines: Vec<_> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].contains("line too long"), "{}", lines[0]);
        assert_eq!(lines[1], "{\"ok\":\"3\"}");
    }

    #[test]
    fn read_line_at_the_limit() {
        let mut input = vec![b'1'; MAX_LINE];
        input.push(b'\n');
        let mut buf = Vec::new();
        let mut r = &input[..];
        assert_eq!(read_line(&mut r, &mut buf).unwrap(), Some(Line::Complete));
        assert_eq!(buf.len(), MAX_LINE);
        assert_eq!(read_line(&mut r, &mut buf).unwrap(), None);
    }
}
