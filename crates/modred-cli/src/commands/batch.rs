//! `modred batch`: JSON lines in, JSON lines out, one answer per input line, in order.
//!
//! A line is `{"op":"powm","algo":"barrett","x":"0x1f","e":"65537","m":"1000003"}`; the
//! answer is `{"ok":"<decimal>"}` or `{"error":"<message>"}`. A bad line — malformed,
//! empty, too long, not UTF-8, a missing or unexpected field, a bad number — is answered
//! with an error and the batch goes on. Only a failure to read the input or to write the
//! output stops it.
//!
//! Prepared moduli are cached by (algorithm, modulus), so a batch modulo one number pays
//! for the precalculation once (once per thread). Output is buffered and flushed whenever
//! the input has no more data ready, so the command also serves an interactive peer line by
//! line.
//!
//! # Threads
//! With `--threads N` (default: every core the process may use) the lines are answered on
//! N threads (rayon; the CLI's default feature `parallel`, which a build without default
//! features drops: then only `--threads 1` is accepted). The input is read in chunks of at
//! most [`CHUNK_LINES`] lines and [`CHUNK_BYTES`] bytes — a chunk also ends where the
//! input has no more data ready — each chunk's lines are answered in parallel, each thread
//! with its own cache of prepared moduli, and the answers are written in input order before
//! the next chunk is read, and the output is the same as with one thread, line for line.
//!
//! Memory stays bounded whatever the input's size: the chunk's lines and answers, and on
//! each thread its cache of prepared moduli, which keeps at most
//! [`crate::engine::CACHE_LIMIT`] moduli and [`crate::engine::CACHE_BYTES`] bytes (the
//! oldest make room; one modulus larger than that is kept alone).

use super::{algorithm_option, limits_option, LimitArgs};
use crate::algorithms;
use crate::engine::{Algorithm, Engine, Number, Window};
use crate::fail::Fail;
use crate::{guard, numbers};
use modred::Limits;
use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

/// The longest line read; a longer one is answered with an error (and skipped without
/// being held in memory). 256 MiB: a 2^24-bit product's three operands take 12 MiB in hex,
/// so numbers to 2^26 bits and more fit, while a line stays a small part of a machine.
pub const MAX_LINE: usize = 256 << 20;

/// The most lines answered together by the threads (see [Threads](self#threads)): enough
/// that the threads' start and the chunk's last, slowest line cost little against the
/// chunk, few enough that a chunk of short lines is answered quickly.
pub const CHUNK_LINES: usize = 4096;

/// The most bytes of lines held for one chunk (a chunk takes at least one line, up to
/// [`MAX_LINE`]).
pub const CHUNK_BYTES: usize = 16 << 20;

/// The most threads `--threads` accepts.
pub const MAX_THREADS: usize = 1024;

/// What `modred batch --help` says after the options.
const DETAILS: &str = "\
Each input line is a JSON object:
  {\"op\":\"reduce\",\"x\":\"...\",\"m\":\"...\"}
  {\"op\":\"mulmod\",\"x\":\"...\",\"y\":\"...\",\"m\":\"...\"}
  {\"op\":\"powm\",\"x\":\"...\",\"e\":\"...\",\"m\":\"...\"}
with an optional \"algo\" (default: --algo, else auto). Numbers are strings, decimal
or hexadecimal with 0x (JSON integers below 2^64 are accepted too). Each answer
line is {\"ok\":\"<decimal>\"} (with --hex {\"ok\":\"0x<hex>\"}) or
{\"error\":\"<message>\"}; a bad line never stops the batch. Lines longer than
256 MiB are answered with an error. A line over the work limit is answered with an
error naming its estimate.";

/// `modred batch`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = "modred batch [--algo A] [--threads N] [--hex] [--max-work WORK] [--max-memory BYTES]",
    after_long_help = DETAILS
)]
pub struct Args {
    /// The default algorithm for lines without "algo" (default auto)
    #[arg(long, value_name = "A", value_parser = crate::args::Suggest(crate::args::algorithm_names))]
    pub algo: Option<String>,
    /// Answer lines on N threads, 1 to 1024 (default: every core);
    /// the answers come in input order whatever N
    #[arg(long, value_name = "N", verbatim_doc_comment)]
    pub threads: Option<String>,
    /// Answer in hexadecimal with 0x (huge numbers: no decimal conversion)
    #[arg(long)]
    pub hex: bool,
    /// The work and memory limits.
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Answers stdin's lines on stdout.
///
/// Answers that cannot be written are lost, so unlike the listing commands (where
/// `modred algos | head` stops quietly) a closed output is an error: standard output closed
/// at the start (`modred batch >&-`) stops the batch before it reads a line, and a pipe
/// whose reader went away stops it at the next write; both with exit status 2.
pub fn run(p: &Args) -> Result<(), Fail> {
    let default = algorithm_option(p.algo.as_deref())?;
    let threads = threads_option(p.threads.as_deref())?;
    let limits = limits_option(&p.limits)?;
    if stdout_is_closed() {
        return Err(Fail::new("standard output is closed: the answers would be lost"));
    }
    keep_freed_memory();
    let input = BufReader::with_capacity(1 << 20, io::stdin().lock());
    let output = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    answer_all(input, output, default, threads, limits, p.hex).map_err(|f| match f {
        Fail::BrokenPipe => {
            Fail::new("cannot write the answers: the output pipe was closed by its reader")
        }
        other => other,
    })
}

/// Lets the allocator keep the blocks a line frees for the next line. glibc maps blocks
/// above a threshold that starts at 128 KiB afresh from the system and unmaps them when
/// freed, raising the threshold only as such blocks come back: the first few dozen lines
/// of huge numbers page-faulted every transform buffer and digit string anew (50 lines of
/// 2^16 bits took 1.56 times GMP's loop, 400 lines 1.35; with this, 1.34 and 1.35; Intel
/// Xeon with IFMA hidden).
/// Blocks up to 32 MiB (glibc's largest threshold) now come from the heap, and up to
/// 64 MiB of free heap is kept; the peak memory is that of the largest line either way.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() {
    // SAFETY: mallopt only sets two parameters of the allocator; a value it refuses
    // leaves the default in place.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}

/// Whether the process started with standard output closed. The Rust runtime reopens a
/// closed descriptor 0–2 on `/dev/null`, read-write, before `main`, so writes to it succeed
/// and vanish; a shell's `> /dev/null` opens it write-only, which stays a valid output.
#[cfg(unix)]
fn stdout_is_closed() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    // SAFETY: fcntl(F_GETFL) only reads the flags of descriptor 1; it touches no memory of
    // ours and fails harmlessly (−1) on a descriptor that is not open.
    let flags = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFL) };
    if flags < 0 {
        return true;
    }
    if flags & libc::O_ACCMODE != libc::O_RDWR {
        return false;
    }
    let stdout = io::stdout();
    let Ok(fd) = stdout.as_fd().try_clone_to_owned() else {
        return true;
    };
    match (std::fs::File::from(fd).metadata(), std::fs::metadata("/dev/null")) {
        (Ok(out), Ok(null)) => out.file_type().is_char_device() && out.rdev() == null.rdev(),
        _ => false,
    }
}

/// Elsewhere the runtime does not reopen closed descriptors, and a write to a closed
/// output fails with an error of its own.
#[cfg(not(unix))]
fn stdout_is_closed() -> bool {
    false
}

/// The number of threads: `--threads N`, else every core the process may use (1 without
/// the `parallel` feature).
fn threads_option(text: Option<&str>) -> Result<usize, Fail> {
    let Some(text) = text else {
        if !cfg!(feature = "parallel") {
            return Ok(1);
        }
        return Ok(std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS));
    };
    let n = match text.parse::<usize>() {
        Ok(n) if text.bytes().all(|c| c.is_ascii_digit()) && (1..=MAX_THREADS).contains(&n) => n,
        _ => {
            return Err(Fail::new(format!(
                "invalid --threads '{}': expected a whole number from 1 to {MAX_THREADS}",
                crate::fail::abbreviate(text)
            )))
        }
    };
    if n > 1 && !cfg!(feature = "parallel") {
        return Err(Fail::new(
            "--threads above 1 needs a build with the feature 'parallel' (a default feature)",
        ));
    }
    Ok(n)
}

/// Answers every line of `input` on `output`, on `threads` threads (1: on this one; more
/// needs the `parallel` feature, else the lines are answered on this thread too), each
/// line held to `limits`, the answers in hexadecimal when `hex`.
pub fn answer_all<R: Read, W: Write>(
    input: BufReader<R>,
    output: W,
    default: Algorithm,
    threads: usize,
    limits: Limits,
    hex: bool,
) -> Result<(), Fail> {
    #[cfg(feature = "parallel")]
    if threads > 1 {
        return parallel::answer_all(input, output, default, threads, limits, hex);
    }
    let _ = threads;
    answer_sequential(input, output, default, limits, hex)
}

/// Answers every line of `input` on `output`, one after another on this thread.
fn answer_sequential<R: Read, W: Write>(
    mut input: BufReader<R>,
    mut output: W,
    default: Algorithm,
    limits: Limits,
    hex: bool,
) -> Result<(), Fail> {
    let mut engine = Engine::new(limits);
    let mut line = Vec::new();
    let mut answer_line = Vec::new();
    loop {
        // Flush before a read that may wait, so an interactive peer gets its answers.
        if input.buffer().is_empty() {
            output.flush()?;
        }
        let read = read_line(&mut input, &mut line)
            .map_err(|e| Fail::new(format!("cannot read the input: {e}")))?;
        let answer = match read {
            None => break,
            Some(Line::TooLong(n)) => Err(too_long(n)),
            Some(Line::Complete) => guarded_answer(&mut engine, default, &line),
        };
        write_answer(&mut output, answer, hex, &mut answer_line)?;
    }
    output.flush()?;
    Ok(())
}

/// The message for a line of `n` bytes, over [`MAX_LINE`].
fn too_long(n: usize) -> String {
    format!("line too long: {n} bytes (the limit is {MAX_LINE})")
}

/// [`answer`], with a panic turned into an error answer for this line.
fn guarded_answer(engine: &mut Engine, default: Algorithm, line: &[u8]) -> Result<Number, String> {
    guard::catch(|| answer(engine, default, line)).unwrap_or_else(Err)
}

/// Writes one answer line, made in `line` (kept from line to line: no allocation per
/// answer).
fn write_answer<W: Write>(
    output: &mut W,
    answer: Result<Number, String>,
    hex: bool,
    line: &mut Vec<u8>,
) -> io::Result<()> {
    line.clear();
    match answer {
        Ok(n) => {
            line.extend_from_slice(b"{\"ok\":\"");
            numbers::write(line, &n, hex);
            line.extend_from_slice(b"\"}\n");
        }
        Err(message) => {
            line.extend_from_slice(b"{\"error\":");
            serde_json::to_writer(&mut *line, &message).expect("a string serializes");
            line.extend_from_slice(b"}\n");
        }
    }
    output.write_all(line)
}

/// The threaded batch (see [Threads](self#threads)).
#[cfg(feature = "parallel")]
mod parallel {
    use super::*;
    use rayon::prelude::*;
    use std::cell::RefCell;
    use std::ops::Range;

    thread_local! {
        /// Each worker thread's prepared moduli, kept from chunk to chunk.
        static ENGINE: RefCell<Engine> = RefCell::new(Engine::default());
    }

    /// Lines read for one chunk: their bytes one after another, and per line its range
    /// there or, for a line over [`MAX_LINE`], its length.
    #[derive(Default)]
    struct Chunk {
        data: Vec<u8>,
        lines: Vec<Result<Range<usize>, usize>>,
    }

    /// Answers every line of `input` on `output` on a pool of `threads` threads.
    pub(super) fn answer_all<R: Read, W: Write>(
        mut input: BufReader<R>,
        mut output: W,
        default: Algorithm,
        threads: usize,
        limits: Limits,
        hex: bool,
    ) -> Result<(), Fail> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| Fail::new(format!("cannot start {threads} threads: {e}")))?;
        let mut chunk = Chunk::default();
        let mut line = Vec::new();
        let mut answer_line = Vec::new();
        loop {
            chunk.data.clear();
            chunk.lines.clear();
            let mut end = false;
            // Read until the chunk is full, the input ends, or it has no more data ready
            // (then the lines read so far are answered and flushed before a read that may
            // wait: an interactive peer gets its answers).
            loop {
                let read = read_line(&mut input, &mut line)
                    .map_err(|e| Fail::new(format!("cannot read the input: {e}")))?;
                match read {
                    None => {
                        end = true;
                        break;
                    }
                    Some(Line::TooLong(n)) => chunk.lines.push(Err(n)),
                    Some(Line::Complete) => {
                        let start = chunk.data.len();
                        chunk.data.extend_from_slice(&line);
                        chunk.lines.push(Ok(start..chunk.data.len()));
                    }
                }
                if chunk.lines.len() >= CHUNK_LINES
                    || chunk.data.len() >= CHUNK_BYTES
                    || input.buffer().is_empty()
                {
                    break;
                }
            }
            let data = &chunk.data;
            let answers: Vec<Result<Number, String>> = pool.install(|| {
                chunk
                    .lines
                    .par_iter()
                    .map(|l| match l {
                        Err(n) => Err(too_long(*n)),
                        Ok(range) => ENGINE.with(|engine| {
                            let mut engine = engine.borrow_mut();
                            engine.set_limits(limits);
                            guarded_answer(&mut engine, default, &data[range.clone()])
                        }),
                    })
                    .collect()
            });
            for answer in answers {
                write_answer(&mut output, answer, hex, &mut answer_line)?;
            }
            if end {
                break;
            }
            if input.buffer().is_empty() {
                output.flush()?;
            }
        }
        output.flush()?;
        Ok(())
    }
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
        let newline = memchr::memchr(b'\n', available);
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

/// The keys a line may have (which of them an op takes: [`OPS`]).
const KEYS: [&str; 6] = ["op", "algo", "x", "y", "e", "m"];

/// The answer to one line.
fn answer(engine: &mut Engine, default: Algorithm, line: &[u8]) -> Result<Number, String> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Err("empty line".into());
    }
    let text = std::str::from_utf8(line)
        .map_err(|e| format!("the line is not valid UTF-8 (at byte {})", e.valid_up_to()))?;
    let value: LineValue =
        serde_json::from_str(text).map_err(|e| format!("malformed JSON: {e}"))?;
    let LineValue(Some(fields)) = value else {
        return Err(
            "a line must be a JSON object such as {\"op\":\"reduce\",\"x\":\"5\",\"m\":\"3\"}"
                .into(),
        );
    };
    let op = match fields.get("op") {
        Some(FieldValue::Str(op)) => op.as_ref(),
        Some(_) => return Err("field 'op' must be a string".into()),
        None => return Err("missing field 'op' (reduce, mulmod or powm)".into()),
    };
    let (_, wanted) = OPS.iter().find(|(name, _)| *name == op).ok_or_else(|| {
        format!("unknown op '{}' (expected reduce, mulmod or powm)", crate::fail::abbreviate(op))
    })?;
    // The first unexpected key in sorted order, as a map of the keys would list them.
    let unexpected = KEYS
        .iter()
        .zip(&fields.known)
        .filter(|(k, v)| {
            v.is_some() && **k != "op" && **k != "algo" && !wanted.iter().any(|(f, _)| f == *k)
        })
        .map(|(k, _)| *k)
        .chain(fields.other.iter().map(String::as_str))
        .min();
    if let Some(extra) = unexpected {
        return Err(format!(
            "unexpected field '{}' for {op} (it takes {})",
            crate::fail::abbreviate(extra),
            wanted.iter().map(|(f, _)| *f).collect::<Vec<_>>().join(", ")
        ));
    }
    let algo = match fields.get("algo") {
        None => default,
        Some(FieldValue::Str(name)) => algorithms::parse(name).map_err(|e| e.to_string())?,
        Some(_) => return Err("field 'algo' must be a string".into()),
    };
    let mut n: [Number; 3] = Default::default();
    for (slot, (field, role)) in n.iter_mut().zip(wanted.iter()) {
        *slot = number(fields.get(field), op, field, role)?;
    }
    let result = match op {
        "reduce" => engine.reduce(algo, &n[0], &n[1]),
        "mulmod" => engine.mul_mod(algo, &n[0], &n[1], &n[2]),
        _ => engine.pow_mod(algo, &n[0], &n[1], &n[2], Window::Sliding),
    };
    result.map_err(|e| crate::engine::message(&e))
}

/// A batch line's object: the values of the [`KEYS`] it has, and its other keys (for the
/// message that names one). Read straight into these slots, without a map per line.
#[derive(Default)]
struct Fields<'a> {
    known: [Option<FieldValue<'a>>; KEYS.len()],
    other: Vec<String>,
}

impl Fields<'_> {
    /// The value of `key`, one of [`KEYS`].
    fn get(&self, key: &str) -> Option<&FieldValue<'_>> {
        let i = KEYS.iter().position(|k| *k == key).expect("a known key");
        self.known[i].as_ref()
    }
}

/// A batch line as JSON: an object whose keys are all different (a map would keep the last
/// of repeated keys, so `{"op":"powm","op":"reduce",…}` would run a reduce silently), or
/// any other value (`None`), which the caller refuses.
struct LineValue<'a>(Option<Fields<'a>>);

/// A field's value: a string, borrowed from the line where it has no escapes (a line's
/// numbers are copied nowhere before they are read), a JSON number, or another value.
enum FieldValue<'a> {
    Str(Cow<'a, str>),
    Number(serde_json::Number),
    Other,
}

impl<'de> serde::Deserialize<'de> for FieldValue<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = FieldValue<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
                Ok(FieldValue::Str(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
                Ok(FieldValue::Str(Cow::Owned(s.to_string())))
            }
            fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
                Ok(FieldValue::Str(Cow::Owned(s)))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
                Ok(FieldValue::Number(v.into()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
                Ok(FieldValue::Number(v.into()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
                Ok(serde_json::Number::from_f64(v).map_or(FieldValue::Other, FieldValue::Number))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(FieldValue::Other)
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(FieldValue::Other)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<Self::Value, A::Error> {
                while a.next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?.is_some() {}
                Ok(FieldValue::Other)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<Self::Value, A::Error> {
                while a.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(FieldValue::Other)
            }
        }
        d.deserialize_any(Visit)
    }
}

/// An object's key: the index of one of [`KEYS`], or another key.
enum Key {
    Known(usize),
    Other(String),
}

impl<'de> serde::Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Key;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E>(self, key: &str) -> Result<Key, E> {
                Ok(match KEYS.iter().position(|k| *k == key) {
                    Some(i) => Key::Known(i),
                    None => Key::Other(key.to_string()),
                })
            }
        }
        d.deserialize_str(Visit)
    }
}

impl<'de> serde::Deserialize<'de> for LineValue<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = LineValue<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<Self::Value, A::Error> {
                let mut fields = Fields::default();
                let duplicate = |key: &str| {
                    serde::de::Error::custom(format_args!(
                        "duplicate field '{}'",
                        crate::fail::abbreviate(key)
                    ))
                };
                while let Some(key) = a.next_key::<Key>()? {
                    match key {
                        Key::Known(i) => {
                            if fields.known[i].is_some() {
                                return Err(duplicate(KEYS[i]));
                            }
                            fields.known[i] = Some(a.next_value()?);
                        }
                        Key::Other(key) => {
                            if fields.other.contains(&key) {
                                return Err(duplicate(&key));
                            }
                            a.next_value::<serde::de::IgnoredAny>()?;
                            fields.other.push(key);
                        }
                    }
                }
                Ok(LineValue(Some(fields)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<Self::Value, A::Error> {
                while a.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(LineValue(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(LineValue(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(LineValue(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(LineValue(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(LineValue(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(LineValue(None))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(LineValue(None))
            }
        }
        d.deserialize_any(Visit)
    }
}

/// The number in `field` (its `value`): a string (decimal or `0x` hex) or a JSON integer
/// below 2^64.
fn number(
    value: Option<&FieldValue<'_>>,
    op: &str,
    field: &str,
    role: &str,
) -> Result<Number, String> {
    match value {
        Some(FieldValue::Str(s)) => numbers::parse(s, role),
        Some(FieldValue::Number(v)) => match v.as_u64() {
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
        answer_all(BufReader::new(input), &mut out, Algorithm::Auto, 1, Limits::new(), false)
            .unwrap();
        let out = String::from_utf8(out).unwrap();
        if cfg!(feature = "parallel") {
            // The threaded batch answers the same, with small chunks (a small buffer) too.
            for (threads, capacity) in [(2, 1 << 16), (3, 7)] {
                let mut par = Vec::new();
                let input = BufReader::with_capacity(capacity, input);
                answer_all(input, &mut par, Algorithm::Auto, threads, Limits::new(), false)
                    .unwrap();
                assert_eq!(String::from_utf8(par).unwrap(), out, "{threads} threads");
            }
        }
        out
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
    fn repeated_keys_are_refused() {
        let out = run_on(b"{\"op\":\"powm\",\"op\":\"reduce\",\"x\":\"10\",\"m\":\"7\"}\n");
        assert!(out.contains("duplicate field 'op'"), "{out}");
        let out = run_on(b"{\"op\":\"reduce\",\"x\":\"10\",\"m\":\"7\",\"m\":\"9\"}\n");
        assert!(out.contains("duplicate field 'm'"), "{out}");
        // Other JSON values are still refused as not an object, and a single key is fine.
        for line in ["[1,{\"a\":2}]", "5", "\"x\"", "null", "true", "-1.5"] {
            assert!(run_on(line.as_bytes()).contains("must be a JSON object"), "{line}");
        }
        assert_eq!(run_on(b"{\"op\":\"reduce\",\"x\":\"10\",\"m\":\"7\"}"), "{\"ok\":\"3\"}\n");
    }

    #[test]
    fn field_values_of_every_kind() {
        // Strings with escapes are read as their text (the others are borrowed).
        let answers = [
            (r#"{"op":"re\u0064uce","x":"1\u0030","m":"7"}"#, r#"{"ok":"3"}"#),
            (r#"{"op":"powm","x":"3","e":5,"m":"0x11"}"#, r#"{"ok":"5"}"#),
            (r#"{"op":"reduce","x":"10","m":[1,{"a":2}]}"#, "field 'm' must be a number"),
            (r#"{"op":"reduce","x":{"a":[1,2]},"m":"7"}"#, "field 'x' must be a number"),
            (r#"{"op":"reduce","x":true,"m":"7"}"#, "field 'x' must be a number"),
            (r#"{"op":"reduce","x":null,"m":"7"}"#, "field 'x' must be a number"),
            (r#"{"op":"reduce","x":1.5,"m":"7"}"#, "1.5 is not a whole number below 2^64"),
            (r#"{"op":"reduce","x":-3,"m":"7"}"#, "invalid x '-3'"),
            (r#"{"op":5,"x":"10","m":"7"}"#, "field 'op' must be a string"),
        ];
        for (line, want) in answers {
            let out = run_on(line.as_bytes());
            assert!(out.contains(want), "{line}: {out}");
        }
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
