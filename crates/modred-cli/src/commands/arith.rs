//! `modred reduce`, `mulmod` and `powm`: one computation each, the result on stdout.

use super::{algorithm_option, limits_option, max_work_help, print_line, MAX_MEMORY, MAX_WORK};
use crate::args::{CommandSpec, OptSpec, Parsed};
use crate::engine::{Engine, Number, Window};
use crate::fail::Fail;
use crate::numbers;

const ALGO: OptSpec = OptSpec { name: "algo", value: Some("A") };
const HEX: OptSpec = OptSpec { name: "hex", value: None };

/// The largest `--window`: a 2^16-entry table is already far past any size that pays.
pub const MAX_WINDOW: u32 = 16;

/// The paragraph on numbers every arithmetic command's help starts with.
macro_rules! numbers_note {
    () => {
        "Numbers are decimal or hexadecimal with 0x (no sign). The result is printed in\n\
         decimal, or in hexadecimal with 0x when --hex is given.\n\n"
    };
}

/// `modred reduce`.
pub const REDUCE: CommandSpec = CommandSpec {
    name: "reduce",
    summary: "X mod M",
    usage: "reduce [--algo A] [--hex] [--max-work WORK] [--max-memory BYTES] X M",
    options: &[ALGO, HEX, MAX_WORK, MAX_MEMORY],
    positionals: &["X", "M"],
    details: concat!(
        numbers_note!(),
        "options:\n  \
              --algo A  the reduction algorithm (default auto; see 'modred algos'). A forced\n            \
              algorithm takes only the arguments its paper allows (barrett: X < b^(2k),\n            \
              montgomery: X < M·b^k, with b = 2^64 and k the digits of M).\n  \
              --hex     print the result in hexadecimal\n",
        max_work_help!(),
        "\nexample: modred reduce 0x1234567890abcdef 1000003\n"
    ),
};

/// `modred mulmod`.
pub const MULMOD: CommandSpec = CommandSpec {
    name: "mulmod",
    summary: "X*Y mod M",
    usage: "mulmod [--algo A] [--hex] [--max-work WORK] [--max-memory BYTES] X Y M",
    options: &[ALGO, HEX, MAX_WORK, MAX_MEMORY],
    positionals: &["X", "Y", "M"],
    details: concat!(
        numbers_note!(),
        "options:\n  \
              --algo A  the reduction algorithm (default auto; see 'modred algos')\n  \
              --hex     print the result in hexadecimal\n",
        max_work_help!(),
        "\nexample: modred mulmod --algo montgomery 123456789 987654321 1000003\n"
    ),
};

/// `modred powm`.
pub const POWM: CommandSpec = CommandSpec {
    name: "powm",
    summary: "B^E mod M",
    usage: "powm [--algo A] [--window W] [--hex] [--max-work WORK] [--max-memory BYTES] B E M",
    options: &[ALGO, OptSpec { name: "window", value: Some("W") }, HEX, MAX_WORK, MAX_MEMORY],
    positionals: &["B", "E", "M"],
    details: concat!(
        numbers_note!(),
        "options:\n  \
              --algo A    the reduction algorithm (default auto; see 'modred algos')\n  \
              --window W  a fixed 2^W-ary window, W from 1 (binary square-and-multiply) to 16;\n              \
              default: a sliding window sized by the exponent's length\n  \
              --hex       print the result in hexadecimal\n",
        max_work_help!(),
        "\nexample: modred powm --algo barrett 0x1f 65537 1000003\n"
    ),
};

fn number(text: &str, role: &str) -> Result<Number, Fail> {
    numbers::parse(text, role).map_err(Fail::new)
}

fn print(n: &Number, p: &Parsed) -> Result<(), Fail> {
    print_line(&numbers::format(n, p.flag("hex")))
}

/// Prints `X mod M`.
pub fn reduce(p: &Parsed) -> Result<(), Fail> {
    let algo = algorithm_option(p)?;
    let x = number(&p.positionals[0], "x")?;
    let m = number(&p.positionals[1], "modulus")?;
    print(&Engine::new(limits_option(p)?).reduce(algo, &x, &m)?, p)
}

/// Prints `X*Y mod M`.
pub fn mulmod(p: &Parsed) -> Result<(), Fail> {
    let algo = algorithm_option(p)?;
    let x = number(&p.positionals[0], "x")?;
    let y = number(&p.positionals[1], "y")?;
    let m = number(&p.positionals[2], "modulus")?;
    print(&Engine::new(limits_option(p)?).mul_mod(algo, &x, &y, &m)?, p)
}

/// Prints `B^E mod M`.
pub fn powm(p: &Parsed) -> Result<(), Fail> {
    let algo = algorithm_option(p)?;
    let window = match p.value("window") {
        None => Window::Sliding,
        Some(w) => Window::Fixed(parse_window(w)?),
    };
    let b = number(&p.positionals[0], "base")?;
    let e = number(&p.positionals[1], "exponent")?;
    let m = number(&p.positionals[2], "modulus")?;
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
