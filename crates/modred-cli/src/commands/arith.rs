//! `modred reduce`, `mulmod` and `powm`: one computation each, the result on stdout.

use super::{algorithm_option, limits_option, LimitArgs};
use crate::engine::{Engine, Number, Window};
use crate::fail::Fail;
use crate::operands::{self, Encoding};

/// The largest `--window`: a 2^16-entry table is already far past any size that pays.
pub const MAX_WINDOW: u32 = 16;

/// The paragraph on numbers every arithmetic command's help has.
macro_rules! numbers_note {
    () => {
        "Numbers are decimal or hexadecimal with 0x (no sign; spaces around and single '_'\n\
         between digits are ignored). Any number may be @path, read\n\
         from that file (@- from standard input; up to 256 MiB), for numbers too long for an\n\
         argument (the system limits one to 128 KiB). The result is printed in decimal, or in\n\
         hexadecimal with 0x when --hex is given.\n\n"
    };
}

/// The options the three commands share.
#[derive(clap::Args, Debug, Default)]
pub struct ArithOptions {
    /// The reduction algorithm (default auto; see 'modred algos')
    #[arg(long, value_name = "A", value_parser = crate::args::Suggest(crate::args::algorithm_names))]
    pub algo: Option<String>,
    /// Print the result in hexadecimal
    #[arg(long)]
    pub hex: bool,
    /// The work and memory limits.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// @ files hold raw big-endian bytes, and the result is written as such
    #[arg(long)]
    pub bytes: bool,
    /// Write the result to FILE instead of standard output
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub out: Option<String>,
}

/// `modred reduce X M`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = "modred reduce [--algo A] [--hex] [--max-work WORK] [--max-memory BYTES] [--bytes] [--out FILE] X M",
    after_long_help = concat!(
        numbers_note!(),
        "A forced algorithm (--algo) takes only the arguments its paper allows (barrett:\n\
         X < b^(2k), montgomery: X < M·b^k, with b = 2^64 and k the digits of M).\n\n\
         example: modred reduce 0x1234567890abcdef 1000003"
    )
)]
pub struct ReduceArgs {
    /// The options.
    #[command(flatten)]
    pub options: ArithOptions,
    /// The number to reduce
    #[arg(value_name = "X")]
    pub x: String,
    /// The modulus
    #[arg(value_name = "M")]
    pub m: String,
}

/// `modred mulmod X Y M`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = "modred mulmod [--algo A] [--hex] [--max-work WORK] [--max-memory BYTES] [--bytes] [--out FILE] X Y M",
    after_long_help = concat!(
        numbers_note!(),
        "example: modred mulmod --algo montgomery 123456789 987654321 1000003"
    )
)]
pub struct MulmodArgs {
    /// The options.
    #[command(flatten)]
    pub options: ArithOptions,
    /// The first factor
    #[arg(value_name = "X")]
    pub x: String,
    /// The second factor
    #[arg(value_name = "Y")]
    pub y: String,
    /// The modulus
    #[arg(value_name = "M")]
    pub m: String,
}

/// `modred powm B E M`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = "modred powm [--algo A] [--window W] [--hex] [--max-work WORK] [--max-memory BYTES] [--bytes] [--out FILE] B E M",
    after_long_help = concat!(
        numbers_note!(),
        "example: modred powm --algo barrett 0x1f 65537 1000003"
    )
)]
pub struct PowmArgs {
    /// A fixed 2^W-ary window, W from 1 (binary square-and-multiply) to 16;
    /// default: a sliding window sized by the exponent's length
    #[arg(long, value_name = "W", verbatim_doc_comment)]
    pub window: Option<String>,
    /// The options.
    #[command(flatten)]
    pub options: ArithOptions,
    /// The base
    #[arg(value_name = "B")]
    pub b: String,
    /// The exponent
    #[arg(value_name = "E")]
    pub e: String,
    /// The modulus
    #[arg(value_name = "M")]
    pub m: String,
}

/// The encoding `--bytes` asks for.
fn encoding(p: &ArithOptions) -> Encoding {
    if p.bytes {
        Encoding::Bytes
    } else {
        Encoding::Text
    }
}

/// The positionals as numbers (`@path` read from files), named by `roles`.
fn numbers_of(p: &ArithOptions, texts: &[&String], roles: &[&str]) -> Result<Vec<Number>, Fail> {
    if p.bytes && p.hex {
        return Err(Fail::new("--bytes and --hex exclude each other"));
    }
    let texts: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
    operands::read_all(&texts, roles, encoding(p))
}

fn print(n: &Number, p: &ArithOptions) -> Result<(), Fail> {
    operands::write_result(n, encoding(p), p.hex, p.out.as_deref())
}

/// Prints `X mod M`.
pub fn reduce(a: &ReduceArgs) -> Result<(), Fail> {
    let p = &a.options;
    let algo = algorithm_option(p.algo.as_deref())?;
    let [x, m] =
        <[Number; 2]>::try_from(numbers_of(p, &[&a.x, &a.m], &["x", "modulus"])?).expect("two");
    print(&Engine::new(limits_option(&p.limits)?).reduce(algo, &x, &m)?, p)
}

/// Prints `X*Y mod M`.
pub fn mulmod(a: &MulmodArgs) -> Result<(), Fail> {
    let p = &a.options;
    let algo = algorithm_option(p.algo.as_deref())?;
    let texts = [&a.x, &a.y, &a.m];
    let [x, y, m] =
        <[Number; 3]>::try_from(numbers_of(p, &texts, &["x", "y", "modulus"])?).expect("three");
    print(&Engine::new(limits_option(&p.limits)?).mul_mod(algo, &x, &y, &m)?, p)
}

/// Prints `B^E mod M`.
pub fn powm(a: &PowmArgs) -> Result<(), Fail> {
    let p = &a.options;
    let algo = algorithm_option(p.algo.as_deref())?;
    let window = match a.window.as_deref() {
        None => Window::Sliding,
        Some(w) => Window::Fixed(parse_window(w)?),
    };
    let texts = [&a.b, &a.e, &a.m];
    let roles = ["base", "exponent", "modulus"];
    let [b, e, m] = <[Number; 3]>::try_from(numbers_of(p, &texts, &roles)?).expect("three");
    print(&Engine::new(limits_option(&p.limits)?).pow_mod(algo, &b, &e, &m, window)?, p)
}

/// A window width from 1 to [`MAX_WINDOW`].
fn parse_window(text: &str) -> Result<u32, Fail> {
    match text.parse::<u32>() {
        Ok(w) if (1..=MAX_WINDOW).contains(&w) && !text.starts_with('+') => Ok(w),
        _ => Err(Fail::new(format!(
            "invalid window '{}': expected a whole number from 1 to {MAX_WINDOW}",
            crate::fail::abbreviate(text)
        ))),
    }
}
