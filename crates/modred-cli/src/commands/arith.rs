//! `modred reduce`, `mulmod` and `powm`: one computation each, the result on stdout.

use super::{algorithm_option, limits_option, max_work_help, MAX_MEMORY, MAX_WORK};
use crate::args::{CommandSpec, OptSpec, Parsed};
use crate::engine::{Engine, Number, Window};
use crate::fail::Fail;
use crate::operands::{self, Encoding};

const ALGO: OptSpec = OptSpec { name: "algo", value: Some("A") };
const HEX: OptSpec = OptSpec { name: "hex", value: None };
const BYTES: OptSpec = OptSpec { name: "bytes", value: None };
const OUT: OptSpec = OptSpec { name: "out", value: Some("FILE") };

/// The largest `--window`: a 2^16-entry table is already far past any size that pays.
pub const MAX_WINDOW: u32 = 16;

/// The paragraph on numbers every arithmetic command's help starts with.
macro_rules! numbers_note {
    () => {
        "Numbers are decimal or hexadecimal with 0x (no sign; spaces around and single '_'\n\
         between digits are ignored). Any number may be @path, read\n\
         from that file (@- from standard input; up to 256 MiB), for numbers too long for an\n\
         argument (the system limits one to 128 KiB). The result is printed in decimal, or in\n\
         hexadecimal with 0x when --hex is given.\n\n"
    };
}

/// The paragraph on `--bytes` and `--out`.
macro_rules! files_help {
    () => {
        "  --bytes   @ files hold raw big-endian bytes, and the result is written as such\n  \
         --out FILE  write the result to FILE instead of standard output\n"
    };
}

/// `modred reduce`.
pub const REDUCE: CommandSpec = CommandSpec {
    name: "reduce",
    summary: "X mod M",
    usage: "reduce [--algo A] [--hex] [--max-work WORK] [--max-memory BYTES] [--bytes] [--out FILE] X M",
    options: &[ALGO, HEX, MAX_WORK, MAX_MEMORY, BYTES, OUT],
    positionals: &["X", "M"],
    details: concat!(
        numbers_note!(),
        "options:\n  \
              --algo A  the reduction algorithm (default auto; see 'modred algos'). A forced\n            \
              algorithm takes only the arguments its paper allows (barrett: X < b^(2k),\n            \
              montgomery: X < M·b^k, with b = 2^64 and k the digits of M).\n  \
              --hex     print the result in hexadecimal\n",
        max_work_help!(),
        files_help!(),
        "\nexample: modred reduce 0x1234567890abcdef 1000003\n"
    ),
};

/// `modred mulmod`.
pub const MULMOD: CommandSpec = CommandSpec {
    name: "mulmod",
    summary: "X*Y mod M",
    usage: "mulmod [--algo A] [--hex] [--max-work WORK] [--max-memory BYTES] [--bytes] [--out FILE] X Y M",
    options: &[ALGO, HEX, MAX_WORK, MAX_MEMORY, BYTES, OUT],
    positionals: &["X", "Y", "M"],
    details: concat!(
        numbers_note!(),
        "options:\n  \
              --algo A  the reduction algorithm (default auto; see 'modred algos')\n  \
              --hex     print the result in hexadecimal\n",
        max_work_help!(),
        files_help!(),
        "\nexample: modred mulmod --algo montgomery 123456789 987654321 1000003\n"
    ),
};

/// `modred powm`.
pub const POWM: CommandSpec = CommandSpec {
    name: "powm",
    summary: "B^E mod M",
    usage: "powm [--algo A] [--window W] [--hex] [--max-work WORK] [--max-memory BYTES] [--bytes] [--out FILE] B E M",
    options: &[ALGO, OptSpec { name: "window", value: Some("W") }, HEX, MAX_WORK, MAX_MEMORY, BYTES, OUT],
    positionals: &["B", "E", "M"],
    details: concat!(
        numbers_note!(),
        "options:\n  \
              --algo A    the reduction algorithm (default auto; see 'modred algos')\n  \
              --window W  a fixed 2^W-ary window, W from 1 (binary square-and-multiply) to 16;\n              \
              default: a sliding window sized by the exponent's length\n  \
              --hex       print the result in hexadecimal\n",
        max_work_help!(),
        files_help!(),
        "\nexample: modred powm --algo barrett 0x1f 65537 1000003\n"
    ),
};

/// The encoding `--bytes` asks for.
fn encoding(p: &Parsed) -> Encoding {
    if p.flag("bytes") {
        Encoding::Bytes
    } else {
        Encoding::Text
    }
}

/// The positionals as numbers (`@path` read from files), named by `roles`.
fn numbers_of(p: &Parsed, roles: &[&str]) -> Result<Vec<Number>, Fail> {
    if p.flag("bytes") && p.flag("hex") {
        return Err(Fail::new("--bytes and --hex exclude each other"));
    }
    operands::read_all(&p.positionals, roles, encoding(p))
}

fn print(n: &Number, p: &Parsed) -> Result<(), Fail> {
    operands::write_result(n, encoding(p), p.flag("hex"), p.value("out"))
}

/// Prints `X mod M`.
pub fn reduce(p: &Parsed) -> Result<(), Fail> {
    let algo = algorithm_option(p)?;
    let [x, m] = <[Number; 2]>::try_from(numbers_of(p, &["x", "modulus"])?).expect("two");
    print(&Engine::new(limits_option(p)?).reduce(algo, &x, &m)?, p)
}

/// Prints `X*Y mod M`.
pub fn mulmod(p: &Parsed) -> Result<(), Fail> {
    let algo = algorithm_option(p)?;
    let [x, y, m] = <[Number; 3]>::try_from(numbers_of(p, &["x", "y", "modulus"])?).expect("three");
    print(&Engine::new(limits_option(p)?).mul_mod(algo, &x, &y, &m)?, p)
}

/// Prints `B^E mod M`.
pub fn powm(p: &Parsed) -> Result<(), Fail> {
    let algo = algorithm_option(p)?;
    let window = match p.value("window") {
        None => Window::Sliding,
        Some(w) => Window::Fixed(parse_window(w)?),
    };
    let [b, e, m] =
        <[Number; 3]>::try_from(numbers_of(p, &["base", "exponent", "modulus"])?).expect("three");
    print(&Engine::new(limits_option(p)?).pow_mod(algo, &b, &e, &m, window)?, p)
}

/// A window width from 1 to [`MAX_WINDOW`].
fn parse_window(text: &str) -> Result<u32, Fail> {
    match text.parse::<u32>() {
        Ok(w) if (1..=MAX_WINDOW).contains(&w) && !text.starts_with('+') => Ok(w),
        _ => Err(Fail::new(format!(
            "invalid window '{}': expected a whole number from 1 to {MAX_WINDOW}",
            crate::args::abbreviate(text)
        ))),
    }
}
