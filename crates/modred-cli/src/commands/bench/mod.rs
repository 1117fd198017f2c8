//! `modred bench`: any set of algorithms × sizes × operations, timed side by side in one
//! run, with ratios to a baseline; a table, CSV, JSON or Markdown.
//!
//! Each group — one operation at one size — is timed by [`modred_testkit::timing`]: every
//! candidate (our algorithms, and with `--anchors` GMP and OpenSSL) interleaved round by
//! round, the time the minimum per operation, the ratio the median of the per-round
//! ratios to the baseline over the quiet rounds. Moduli are generated with a fixed seed in
//! the form each algorithm needs (see [`measure::modulus_for`]); every candidate's result
//! is checked before it is timed.

#[cfg(feature = "anchors")]
mod anchors;
pub mod measure;

use super::print_line;
use crate::algorithms;
use crate::engine::{Algorithm, Number};
use crate::fail::{abbreviate, Fail};
use crate::numbers;
use measure::{Operands, Outcome, Prepared, Row};
use serde_json::{json, Value};
use std::io::IsTerminal;

/// The largest size `--bits` takes (and the largest modulus `--modulus` takes): a million
/// bits and more, where the transform-based reducers of paper 001 take over (a full-length
/// `powm` at that size runs for hours; `mulmod` takes milliseconds).
pub const MAX_BITS: u64 = 1 << 20;

/// The largest size `--op powm` takes: a full-length exponentiation costs about
/// `1.2·bits` multiplications, 1.5 s at 16 384 bits here and minutes beyond, and every
/// candidate runs it at least a few times.
pub const MAX_POWM_BITS: u64 = 16384;

/// The most sizes one run takes.
pub const MAX_SIZES: usize = 64;

/// The algorithms timed when `--algo` is not given (the first is the default baseline).
pub const DEFAULT_ALGOS: &str = "montgomery,montgomery-interleaved,barrett,classical,auto";

/// The sizes timed when `--bits` is not given.
pub const DEFAULT_BITS: &str = "256..4096";

/// The anchors, by id, and the operations they take part in. Listed here (not only in the
/// feature-gated module) so that a `--baseline` naming one is recognised in every build.
pub const ANCHORS: &[(&str, &[Op])] = &[
    ("gmp-rem", &[Op::Reduce]),
    ("openssl-mont-redc", &[Op::Reduce]),
    ("gmp-mul", &[Op::MulMod]),
    ("gmp-mulmod", &[Op::MulMod, Op::SqrMod]),
    ("openssl-mont-mul", &[Op::MulMod]),
    ("openssl-nist256", &[Op::MulMod]),
    ("gmp-sqr", &[Op::SqrMod]),
    ("openssl-mont-sqr", &[Op::SqrMod]),
    ("gmp-powm", &[Op::PowM]),
    ("gmp-powm-sec", &[Op::PowM]),
    ("openssl-powm-ct", &[Op::PowM]),
    ("openssl-powm-ct-x2", &[Op::PowM]),
];

/// What `modred bench --help` says after the options.
const DETAILS: &str = "\
Times every algorithm at every size for every operation. The candidates of one
operation at one size are timed interleaved in this one run (the method of
'modred report'): the time is the minimum per operation over the rounds, the
ratio the median of the per-round ratios to the baseline. Every result is
checked before it is timed.

Moduli: a random odd one of each size for the generic algorithms and the anchors;
2^N - c (c of 32 bits) for pseudo-mersenne; the NIST prime of that size for nist;
for solinas that prime or t^n - t^(n/2) - 1 at t = 2^64 (2^32). An algorithm with
no modulus of a size is listed as n/a there.

example: modred bench --algo montgomery,barrett --bits 256..4096 --op mulmod,powm
example: modred bench --anchors --bits 256,1024,2048,4096 --op mulmod,powm";

/// `modred bench`.
#[derive(clap::Args, Debug, Default)]
#[command(
    override_usage = "modred bench [--algo A,B,…|all] [--bits 256..4096|N,N,…] [--modulus M] \
                      [--op reduce|mulmod|sqrmod|powm[,…]] [--baseline NAME] \
                      [--format table|csv|json|markdown] [--anchors] [--quick] [--seed S] \
                      [--api reducer|modulus|modulus-alloc]",
    after_long_help = DETAILS
)]
pub struct Args {
    /// Algorithm names from 'modred algos', or all (default:
    /// montgomery,montgomery-interleaved,barrett,classical,auto)
    #[arg(long, value_name = "A,B,…", verbatim_doc_comment)]
    pub algo: Option<String>,
    /// Sizes in bits, 2 to 1048576: a list 256,1024,2048 and/or ranges
    /// A..B (A, 2A, 4A, … up to B); default 256..4096
    #[arg(long, value_name = "SIZES", verbatim_doc_comment)]
    pub bits: Option<String>,
    /// Time every algorithm on this one modulus instead (not with --bits)
    #[arg(long, value_name = "M")]
    pub modulus: Option<String>,
    /// The operations: reduce (of the double-length product), mulmod, sqrmod or powm
    /// (exponent as long as the modulus, up to 16384 bits); several with commas;
    /// default mulmod
    #[arg(long, value_name = "OP", verbatim_doc_comment)]
    pub op: Option<String>,
    /// The candidate the ratios are to: an algorithm of --algo or, with
    /// --anchors, an anchor id (gmp-mul, gmp-mulmod, gmp-powm, openssl-mont-mul,
    /// openssl-powm-ct, …); default the first algorithm (montgomery for all)
    #[arg(long, value_name = "NAME", verbatim_doc_comment)]
    pub baseline: Option<String>,
    /// The output: table (default), csv, json or markdown (one wide table per op)
    #[arg(long, value_name = "F", value_parser = crate::args::Suggest(|| vec!["table", "csv", "json", "markdown"]))]
    pub format: Option<String>,
    /// Add GMP and OpenSSL (needs a build with --features anchors)
    #[arg(long)]
    pub anchors: bool,
    /// Fewer, shorter rounds
    #[arg(long)]
    pub quick: bool,
    /// The seed of the moduli and operands (default 1)
    #[arg(long, value_name = "S")]
    pub seed: Option<String>,
    /// The API timed: reducer (default): time reduce, mulmod and sqrmod through the
    /// reducer's own slice methods (Reducer::reduce_raw, mul, sqr); modulus:
    /// through the user-facing Modulus::reduce, mul_into and sqr_into (the
    /// result into a residue kept between calls, no allocation; auto is
    /// Modulus::for_operation with the operation timed); modulus-alloc: through
    /// Modulus::mul and sqr (a new residue per call). powm always uses Modulus.
    #[arg(
        long,
        value_name = "API",
        verbatim_doc_comment,
        value_parser = crate::args::Suggest(|| vec!["reducer", "modulus", "modulus-alloc"])
    )]
    pub api: Option<String>,
}

/// An operation `bench` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// The reduction of the double-length product of two values below `m`.
    Reduce,
    /// A modular multiplication of two residues.
    MulMod,
    /// A modular squaring of a residue.
    SqrMod,
    /// A modular exponentiation with an exponent as long as the modulus.
    PowM,
}

impl Op {
    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Op::Reduce => "reduce",
            Op::MulMod => "mulmod",
            Op::SqrMod => "sqrmod",
            Op::PowM => "powm",
        }
    }

    fn parse(s: &str) -> Option<Op> {
        [Op::Reduce, Op::MulMod, Op::SqrMod, Op::PowM].into_iter().find(|o| o.name() == s)
    }
}

/// Which of our APIs `--api` times for reduce, mulmod and sqrmod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// The reducer's slice methods (`Reducer::reduce_raw`, `mul`, `sqr`).
    Reducer,
    /// `Modulus::reduce`, `mul_into`, `sqr_into`: no allocation per call.
    Modulus,
    /// `Modulus::reduce`, `mul`, `sqr`: a new residue per call.
    ModulusAlloc,
}

/// The output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Table,
    Csv,
    Json,
    Markdown,
}

/// A parsed `bench` command line.
#[derive(Debug)]
pub struct Request {
    pub algos: Vec<Algorithm>,
    pub sizes: Vec<u64>,
    pub modulus: Option<Number>,
    pub ops: Vec<Op>,
    pub baseline: String,
    pub format: Format,
    pub anchors: bool,
    pub quick: bool,
    pub seed: u64,
    /// `--api`: which API of ours is timed.
    pub api: Api,
}

/// The items of a comma-separated list; an error for an empty one.
fn items<'a>(text: &'a str, option: &str) -> Result<Vec<&'a str>, Fail> {
    let items: Vec<&str> = text.split(',').collect();
    if items.iter().any(|s| s.is_empty()) {
        return Err(Fail::new(format!(
            "invalid --{option} '{}': an empty item (write names separated by single commas)",
            abbreviate(text)
        )));
    }
    Ok(items)
}

fn parse_algos(text: &str) -> Result<Vec<Algorithm>, Fail> {
    if text == "all" {
        return Ok(Algorithm::ALL.to_vec());
    }
    let mut algos = Vec::new();
    for name in items(text, "algo")? {
        if name == "all" {
            return Err(Fail::new("--algo all stands alone; it cannot be combined with names"));
        }
        let a = algorithms::parse(name)?;
        if algos.contains(&a) {
            return Err(Fail::new(format!("--algo names '{name}' twice")));
        }
        algos.push(a);
    }
    Ok(algos)
}

/// A size: a plain decimal from 2 to [`MAX_BITS`].
fn parse_size(text: &str, whole: &str) -> Result<u64, Fail> {
    let bad = || {
        Fail::new(format!(
            "invalid --bits '{}': expected sizes from 2 to {MAX_BITS} bits, as a list \
             (256,1024) or ranges (256..4096)",
            abbreviate(whole)
        ))
    };
    if text.is_empty() || !text.bytes().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    match text.parse::<u64>() {
        Ok(n) if (2..=MAX_BITS).contains(&n) => Ok(n),
        _ => Err(bad()),
    }
}

fn parse_sizes(text: &str) -> Result<Vec<u64>, Fail> {
    let mut sizes = Vec::new();
    for item in items(text, "bits")? {
        match item.split_once("..") {
            None => sizes.push(parse_size(item, text)?),
            Some((lo, hi)) => {
                let (lo, hi) = (parse_size(lo, text)?, parse_size(hi, text)?);
                if lo > hi {
                    return Err(Fail::new(format!(
                        "invalid --bits range '{item}': the start is above the end"
                    )));
                }
                let mut n = lo;
                while n <= hi {
                    sizes.push(n);
                    n *= 2;
                }
            }
        }
        if sizes.len() > MAX_SIZES {
            break;
        }
    }
    sizes.sort_unstable();
    sizes.dedup();
    if sizes.len() > MAX_SIZES {
        return Err(Fail::new(format!(
            "--bits '{}' gives more than {MAX_SIZES} sizes",
            abbreviate(text)
        )));
    }
    Ok(sizes)
}

fn parse_ops(text: &str) -> Result<Vec<Op>, Fail> {
    let mut ops = Vec::new();
    for name in items(text, "op")? {
        let op = Op::parse(name).ok_or_else(|| {
            Fail::new(format!(
                "invalid --op '{}': expected reduce, mulmod, sqrmod or powm",
                abbreviate(name)
            ))
        })?;
        if ops.contains(&op) {
            return Err(Fail::new(format!("--op names '{name}' twice")));
        }
        ops.push(op);
    }
    Ok(ops)
}

/// Parses the command line into a [`Request`].
pub fn request(p: &Args) -> Result<Request, Fail> {
    let algos = parse_algos(p.algo.as_deref().unwrap_or(DEFAULT_ALGOS))?;
    let modulus = match p.modulus.as_deref() {
        None => None,
        Some(_) if p.bits.as_deref().is_some() => {
            return Err(Fail::new("give --bits or --modulus, not both"));
        }
        Some(text) => {
            let m = numbers::parse(text, "modulus").map_err(Fail::new)?;
            if m.is_zero() {
                return Err(Fail::from(modred::Error::ZeroModulus));
            }
            if m.bits() > MAX_BITS {
                return Err(Fail::new(format!(
                    "--modulus has {} bits; bench takes at most {MAX_BITS}",
                    m.bits()
                )));
            }
            Some(m)
        }
    };
    let sizes = match &modulus {
        Some(m) => vec![m.bits()],
        None => parse_sizes(p.bits.as_deref().unwrap_or(DEFAULT_BITS))?,
    };
    let ops = parse_ops(p.op.as_deref().unwrap_or("mulmod"))?;
    if let Some(&big) = sizes.iter().find(|&&b| b > MAX_POWM_BITS) {
        if ops.contains(&Op::PowM) {
            return Err(Fail::new(format!(
                "--op powm at {big} bits would run for hours; bench times powm up to \
                 {MAX_POWM_BITS} bits (time mulmod or sqrmod at larger sizes)"
            )));
        }
    }
    let format = match p.format.as_deref().unwrap_or("table") {
        "table" => Format::Table,
        "csv" => Format::Csv,
        "json" => Format::Json,
        "markdown" => Format::Markdown,
        other => {
            return Err(Fail::new(format!(
                "invalid --format '{}': expected table, csv, json or markdown",
                abbreviate(other)
            )))
        }
    };
    let anchors = p.anchors;
    if anchors && !cfg!(feature = "anchors") {
        return Err(Fail::new(
            "--anchors needs GMP and OpenSSL, which this build of modred leaves out; build it \
             with: cargo build --release -p modred-cli --features anchors (needs \
             apt-get install m4 libssl-dev pkg-config)",
        ));
    }
    let baseline = match p.baseline.as_deref() {
        None if algos.len() == Algorithm::ALL.len() => Algorithm::Montgomery.name().to_string(),
        None => algos[0].name().to_string(),
        Some(name) => {
            let is_algo = algos.iter().any(|a| a.name() == name);
            let anchor = ANCHORS.iter().find(|(id, _)| *id == name);
            match (is_algo, anchor) {
                (true, _) => name.to_string(),
                (false, Some(_)) if !anchors => {
                    return Err(Fail::new(format!("--baseline {name} is an anchor: add --anchors")))
                }
                (false, Some((_, anchor_ops))) => {
                    if !ops.iter().any(|o| anchor_ops.contains(o)) {
                        return Err(Fail::new(format!(
                            "--baseline {name} takes no part in --op {}",
                            ops.iter().map(|o| o.name()).collect::<Vec<_>>().join(",")
                        )));
                    }
                    name.to_string()
                }
                (false, None) => {
                    return Err(Fail::new(format!(
                        "invalid --baseline '{}': name an algorithm of --algo or, with \
                         --anchors, an anchor ({})",
                        abbreviate(name),
                        ANCHORS.iter().map(|(id, _)| *id).collect::<Vec<_>>().join(", ")
                    )))
                }
            }
        }
    };
    let seed = match p.seed.as_deref() {
        None => 1,
        Some(t) => {
            t.parse::<u64>().ok().filter(|_| t.bytes().all(|c| c.is_ascii_digit())).ok_or_else(
                || {
                    Fail::new(format!(
                        "invalid --seed '{}': expected a whole number below 2^64",
                        abbreviate(t)
                    ))
                },
            )?
        }
    };
    let api = match p.api.as_deref() {
        None | Some("reducer") => Api::Reducer,
        Some("modulus") => Api::Modulus,
        Some("modulus-alloc") => Api::ModulusAlloc,
        Some(other) => {
            return Err(Fail::new(format!(
                "invalid --api '{}': expected reducer, modulus or modulus-alloc",
                abbreviate(other)
            )))
        }
    };
    Ok(Request { api, algos, sizes, modulus, ops, baseline, format, anchors, quick: p.quick, seed })
}

/// Runs the benchmark and prints the result.
pub fn run(p: &Args) -> Result<(), Fail> {
    let req = request(p)?;
    let rows = measure_all(&req)?;
    let text = match req.format {
        Format::Table => table(&req, &rows),
        Format::Csv => csv(&rows),
        Format::Json => json_text(&req, &rows),
        Format::Markdown => markdown(&req, &rows),
    };
    print_line(text.trim_end())
}

/// One progress line on stderr, when it is a terminal (scripts and tests get a clean
/// stderr on success).
fn progress(what: &str) {
    if std::io::stderr().is_terminal() {
        eprintln!("bench: {what}");
    }
}

/// Every group, measured.
pub fn measure_all(req: &Request) -> Result<Vec<Row>, Fail> {
    let mut rows = Vec::new();
    for &op in &req.ops {
        for &bits in &req.sizes {
            progress(&format!("{} at {bits} bits", op.name()));
            rows.extend(measure_group(req, op, bits)?);
        }
    }
    if rows.iter().all(|r| matches!(r.outcome, Outcome::NotApplicable(_))) {
        let reason = match rows.first() {
            Some(Row { outcome: Outcome::NotApplicable(why), .. }) => format!(" ({why})"),
            _ => String::new(),
        };
        return Err(Fail::new(format!(
            "nothing to time: no algorithm of --algo applies at the sizes given{reason}"
        )));
    }
    Ok(rows)
}

/// One operation at one size: prepares and checks every candidate, then times them.
fn measure_group(req: &Request, op: Op, bits: u64) -> Result<Vec<Row>, Fail> {
    let mut prepared: Vec<Prepared> = Vec::new();
    let mut skipped: Vec<Row> = Vec::new();
    let mut operands: Vec<Operands> = Vec::new();
    for &algo in &req.algos {
        let not_applicable = |why: String, modulus: String| Row {
            op,
            bits,
            name: algo.name().to_string(),
            label: algo.name().to_string(),
            modulus,
            outcome: Outcome::NotApplicable(why),
        };
        let (m, desc) = match measure::modulus_for(algo, bits, req.seed, req.modulus.as_ref()) {
            Ok(found) => found,
            Err(why) => {
                skipped.push(not_applicable(why, String::new()));
                continue;
            }
        };
        let index = match operands.iter().position(|o| o.m == m) {
            Some(i) => i,
            None => {
                operands.push(Operands::new(m.clone(), req.seed));
                operands.len() - 1
            }
        };
        let label = if algo == Algorithm::Auto {
            let chosen = if op == Op::PowM {
                modred::Modulus::new(&m).map(|c| c.algorithm()).unwrap_or(Algorithm::Classical)
            } else {
                measure::resolve(algo, &m, op)
            };
            format!("auto ({chosen})")
        } else {
            algo.name().to_string()
        };
        match measure::ours(algo, op, &operands[index], req.api) {
            Ok(candidate) => prepared.push(Prepared {
                name: algo.name().to_string(),
                label,
                modulus: desc,
                candidate,
                per_run: 1,
            }),
            Err(why) if why.contains("a bug") => return Err(Fail::new(why)),
            Err(why) => skipped.push(not_applicable(why, desc)),
        }
    }
    if req.anchors {
        prepared.extend(anchor_candidates(req, op, bits)?);
    }
    let mut rows = if prepared.is_empty() {
        Vec::new()
    } else {
        measure::time_group(req, op, bits, prepared, &req.baseline)
    };
    rows.extend(skipped);
    Ok(rows)
}

#[cfg(feature = "anchors")]
fn anchor_candidates(req: &Request, op: Op, bits: u64) -> Result<Vec<Prepared>, Fail> {
    use modred::reduce::NistPrime;
    let p256_m: Number = NistPrime::P256.modulus();
    let (ops, desc) = match &req.modulus {
        Some(m) => (Operands::new(m.clone(), req.seed), "given".to_string()),
        None => {
            let m = measure::generic_modulus(bits, req.seed);
            (Operands::new(m, req.seed), "random odd".to_string())
        }
    };
    let p256 = match &req.modulus {
        Some(m) if *m == p256_m => Some(Operands::new(p256_m, req.seed)),
        None if bits == 256 => Some(Operands::new(p256_m, req.seed)),
        _ => None,
    };
    anchors::prepare(op, &ops, &desc, p256.as_ref()).map_err(Fail::new)
}

#[cfg(not(feature = "anchors"))]
fn anchor_candidates(_req: &Request, _op: Op, _bits: u64) -> Result<Vec<Prepared>, Fail> {
    Err(Fail::new("--anchors needs a build with --features anchors"))
}

// ---------------------------------------------------------------------------------------
// Output

/// A time per operation for people: `41.3 ns`, `1.52 µs`, `2.44 ms`.
pub fn human_time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

fn ratio_text(r: Option<f64>) -> String {
    r.map_or("—".to_string(), |r| format!("{r:.2}"))
}

/// The aligned text table.
fn table(req: &Request, rows: &[Row]) -> String {
    let header = ["op", "bits", "algorithm", "modulus", "time/op", "ratio"];
    let mut cells: Vec<[String; 6]> = Vec::with_capacity(rows.len());
    for r in rows {
        let (time, ratio) = match &r.outcome {
            Outcome::Timed { ns, ratio, .. } => (human_time(*ns), ratio_text(*ratio)),
            Outcome::NotApplicable(why) => (format!("n/a: {why}"), String::new()),
        };
        cells.push([
            r.op.name().to_string(),
            r.bits.to_string(),
            r.label.clone(),
            r.modulus.clone(),
            time,
            ratio,
        ]);
    }
    let mut width = header.map(|h| h.chars().count());
    for row in &cells {
        for (w, c) in width.iter_mut().zip(row).take(4) {
            *w = (*w).max(c.chars().count());
        }
    }
    let w_time = cells
        .iter()
        .filter(|c| !c[5].is_empty())
        .map(|c| c[4].chars().count())
        .chain([header[4].len()])
        .max()
        .unwrap_or(8);
    let line = |c: &[String; 6]| {
        let s = format!(
            "{:<w0$}  {:>w1$}  {:<w2$}  {:<w3$}  {:>w4$}  {:>5}",
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            c[5],
            w0 = width[0],
            w1 = width[1],
            w2 = width[2],
            w3 = width[3],
            w4 = w_time
        );
        s.trim_end().to_string()
    };
    let mut s = line(&header.map(String::from));
    s.push('\n');
    for c in &cells {
        s.push_str(&line(c));
        s.push('\n');
    }
    s.push_str(&format!(
        "\nratio: a modred row's time ÷ {0}'s at the same operation and size; an anchor's row \
         (GMP, OpenSSL) {0}'s time ÷ the anchor's, so that every ratio with an anchor is ours \
         ÷ theirs (below 1: modred is faster); each the median of per-round ratios, measured \
         interleaved in this run ({1}).\n",
        req.baseline,
        modred_testkit::timing::clock_name()
    ));
    s
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One line per row, full precision.
fn csv(rows: &[Row]) -> String {
    let mut s = String::from("op,bits,algorithm,label,modulus,ns,median_ns,ratio,rounds,note\n");
    for r in rows {
        let (ns, median, ratio, rounds, note) = match &r.outcome {
            Outcome::Timed { ns, median_ns, ratio, rounds, .. } => (
                ns.to_string(),
                median_ns.to_string(),
                ratio.map_or(String::new(), |x| x.to_string()),
                rounds.to_string(),
                String::new(),
            ),
            Outcome::NotApplicable(why) => {
                (String::new(), String::new(), String::new(), String::new(), why.clone())
            }
        };
        let fields = [
            r.op.name().to_string(),
            r.bits.to_string(),
            r.name.clone(),
            r.label.clone(),
            r.modulus.clone(),
            ns,
            median,
            ratio,
            rounds,
            note,
        ];
        s.push_str(&fields.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(","));
        s.push('\n');
    }
    s
}

/// One JSON document: the baseline, the clock and one object per row (with, for a timed
/// row, `ratio_to`: its ratio to every candidate of its group).
fn json_text(req: &Request, rows: &[Row]) -> String {
    let results: Vec<Value> = rows
        .iter()
        .map(|r| {
            let mut v = json!({
                "op": r.op.name(),
                "bits": r.bits,
                "algorithm": r.name,
                "label": r.label,
                "modulus": r.modulus,
            });
            let obj = v.as_object_mut().expect("an object");
            match &r.outcome {
                Outcome::Timed { ns, median_ns, ratio, rounds, ratio_to } => {
                    obj.insert("ns".into(), json!(ns));
                    obj.insert("median_ns".into(), json!(median_ns));
                    obj.insert("ratio".into(), json!(ratio));
                    obj.insert("rounds".into(), json!(rounds));
                    let to: serde_json::Map<String, Value> =
                        ratio_to.iter().map(|(n, r)| (n.clone(), json!(r))).collect();
                    obj.insert("ratio_to".into(), Value::Object(to));
                }
                Outcome::NotApplicable(why) => {
                    obj.insert("ns".into(), Value::Null);
                    obj.insert("ratio".into(), Value::Null);
                    obj.insert("note".into(), json!(why));
                }
            }
            v
        })
        .collect();
    json!({
        "baseline": req.baseline,
        "clock": modred_testkit::timing::clock_name(),
        "seed": req.seed,
        "results": results,
    })
    .to_string()
}

/// One wide Markdown table per operation: a row per size, a column per candidate, each
/// cell `time (ratio)`.
fn markdown(req: &Request, rows: &[Row]) -> String {
    let mut s = String::new();
    for &op in &req.ops {
        let of_op: Vec<&Row> = rows.iter().filter(|r| r.op == op).collect();
        let mut columns: Vec<&str> = Vec::new();
        for r in &of_op {
            if !columns.contains(&r.name.as_str()) {
                columns.push(&r.name);
            }
        }
        let label = |name: &str| -> String {
            match of_op.iter().find(|r| r.name == name) {
                Some(r) if !r.label.starts_with("auto") => r.label.clone(),
                _ => name.to_string(),
            }
        };
        s.push_str(&format!(
            "**{}** — time per operation (ratio: ours ÷ theirs; a modred column's time ÷ {}'s, \
             an anchor's column that one's time ÷ the anchor's):\n\n| bits |",
            op.name(),
            req.baseline
        ));
        for c in &columns {
            s.push_str(&format!(" {} |", label(c)));
        }
        s.push_str("\n|---:|");
        s.push_str(&"---:|".repeat(columns.len()));
        s.push('\n');
        for &bits in &req.sizes {
            s.push_str(&format!("| {bits} |"));
            for c in &columns {
                let cell = of_op.iter().find(|r| r.bits == bits && r.name == *c).map_or(
                    "—".to_string(),
                    |r| match &r.outcome {
                        Outcome::Timed { ns, ratio, .. } => {
                            format!("{} ({})", human_time(*ns), ratio_text(*ratio))
                        }
                        Outcome::NotApplicable(_) => "—".to_string(),
                    },
                );
                s.push_str(&format!(" {cell} |"));
            }
            s.push('\n');
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Result<Request, Fail> {
        let args: Vec<String> =
            std::iter::once("bench").chain(args.iter().copied()).map(String::from).collect();
        match crate::args::parse(&args)? {
            crate::args::Request::Run(crate::args::Cmd::Bench(a)) => request(&a),
            other => panic!("not a bench request: {other:?}"),
        }
    }

    #[test]
    fn sizes_lists_and_ranges() {
        assert_eq!(parse_sizes("256..4096").unwrap(), [256, 512, 1024, 2048, 4096]);
        assert_eq!(parse_sizes("1024,256,1024").unwrap(), [256, 1024]);
        assert_eq!(parse_sizes("100..300,64").unwrap(), [64, 100, 200]);
        assert_eq!(parse_sizes("2..2").unwrap(), [2]);
        assert!(parse_sizes("2..65536,3..65536,5..65536,7..65536,9..65536,11..65536").is_err());
    }

    /// A modulus above the limit (too long for a command line: 262 145 hex digits exceed
    /// Linux's 128 KiB per argument, so only this unit test reaches the check).
    #[test]
    fn modulus_above_the_limit() {
        let big = format!("0x1{}", "0".repeat((MAX_BITS / 4) as usize));
        let msg = parsed(&["--modulus", &big]).unwrap_err().to_string();
        assert!(msg.contains("bench takes at most 1048576"), "{msg}");
    }

    #[test]
    fn defaults() {
        let r = parsed(&[]).unwrap();
        assert_eq!(r.baseline, "montgomery");
        assert_eq!(r.sizes, [256, 512, 1024, 2048, 4096]);
        assert_eq!(r.ops, [Op::MulMod]);
        assert_eq!(r.format, Format::Table);
        let r = parsed(&["--algo", "all"]).unwrap();
        assert_eq!(r.algos.len(), Algorithm::ALL.len());
        assert_eq!(r.baseline, "montgomery");
        let r = parsed(&["--algo", "barrett,classical", "--op", "powm,reduce"]).unwrap();
        assert_eq!(r.baseline, "barrett");
        assert_eq!(r.ops, [Op::PowM, Op::Reduce]);
    }

    #[test]
    fn moduli_have_the_form_and_size_asked() {
        for bits in [64u64, 192, 256, 384, 521, 1024, 4096] {
            for algo in Algorithm::ALL {
                if let Ok((m, _)) = measure::modulus_for(*algo, bits, 1, None) {
                    assert_eq!(m.bits(), bits, "{algo} {bits}");
                    if *algo != Algorithm::Auto {
                        modred::reduce::make(*algo, &m)
                            .unwrap_or_else(|e| panic!("{algo} at {bits}: {e}"));
                    }
                }
            }
        }
        assert!(measure::modulus_for(Algorithm::Nist, 1024, 1, None).is_err());
        assert!(measure::modulus_for(Algorithm::Solinas, 100, 1, None).is_err());
        assert_eq!(measure::modulus_for(Algorithm::Nist, 256, 1, None).unwrap().1, "P-256");
    }
}
