//! Figure 3: exponentiation of bases shorter than the modulus (512-bit modulus and
//! exponent, the paper's 16-ary method) with each reducer — the paper's claim that
//! classical and Barrett then beat Montgomery, so that Barrett is the best choice for
//! Rabin's primality test with small bases.

use super::table3::{candidate, PAPER_METHOD};
use super::Part;
use crate::report::plot::{Figure, Scale, BARS_ROUNDS};
use crate::report::rng::{nat, SplitMix64};
use crate::report::table::{scaled, time_range, Cell, Table};
use crate::report::{Context, Mode};
use modred::exp;
use modred::reduce::{Barrett, Classical, Montgomery};
use modred::{Limb, Nat, Reducer};
use modred_testkit::timing::{compare, Timing};

const MODULUS_BITS: u32 = 512;
const NAMES: [&str; 3] = ["classical", "barrett", "montgomery"];

/// One base length at one radix: the times of classical, Barrett and Montgomery.
pub struct Row {
    pub digit_bits: u32,
    pub base_bits: u32,
    pub t: [Timing; 3],
}

/// The base lengths: from one 16-bit digit to the modulus's length.
fn base_bits(mode: Mode) -> Vec<u32> {
    if mode == Mode::Quick {
        vec![16, 64, 256, 512]
    } else {
        vec![16, 32, 64, 128, 192, 256, 384, 512]
    }
}

/// Measures at b = 2^16 (the paper's) and b = 2^64.
pub fn measure(ctx: &Context) -> Result<Vec<Row>, String> {
    let mut rows = measure_radix::<u16>(ctx)?;
    rows.extend(measure_radix::<u64>(ctx)?);
    Ok(rows)
}

fn measure_radix<L: Limb>(ctx: &Context) -> Result<Vec<Row>, String> {
    let what = format!("paper 000, figure 3: b = 2^{}, short bases", L::BITS);
    ctx.progress(&what);
    let mut rng = SplitMix64::new(0xf1_0003);
    let m: Nat<L> = nat(rng.odd_modulus(MODULUS_BITS as u64));
    let e: Nat<L> = nat(rng.exact_bits(MODULUS_BITS as u64));
    let err = |e: modred::Error| format!("{what}: {e}");
    let classical = Classical::new(&m).map_err(err)?;
    let barrett = Barrett::new(&m).map_err(err)?;
    let montgomery = Montgomery::new(&m).map_err(err)?;
    let lengths = base_bits(ctx.mode);
    let bases: Vec<Nat<L>> = lengths
        .iter()
        .map(|&b| {
            let x: Nat<L> = nat(rng.exact_bits(b as u64));
            x.checked_rem(&m).unwrap_or_default()
        })
        .collect();
    let all: [&dyn Reducer<L>; 3] = [&classical, &barrett, &montgomery];
    // Every reducer must give the same power (and a reduced one).
    for base in &bases {
        let mut powers = Vec::new();
        for r in all {
            let p = exp::pow_vartime(r, &r.to_residue(base), &e, PAPER_METHOD).map_err(err)?;
            powers.push(r.from_residue(&p));
        }
        if powers.iter().any(|p| *p != powers[0] || *p >= m) {
            return Err(format!("{what}: the reducers disagree on a power"));
        }
    }
    let mut cands = Vec::new();
    for base in &bases {
        cands.push(candidate(&classical, base, &e, PAPER_METHOD));
        cands.push(candidate(&barrett, base, &e, PAPER_METHOD));
        cands.push(candidate(&montgomery, base, &e, PAPER_METHOD));
    }
    let t = compare(&ctx.long_ops, &mut cands);
    Ok(lengths
        .iter()
        .zip(t.chunks(3))
        .map(|(&b, t)| Row {
            digit_bits: L::BITS,
            base_bits: b,
            t: [t[0].clone(), t[1].clone(), t[2].clone()],
        })
        .collect())
}

pub fn part(rows: &[Row]) -> Part {
    let mut md = Table::new(&[
        "b",
        "base bits",
        "classical (ms)",
        "barrett (ms)",
        "montgomery (ms)",
        "classical / montgomery",
        "barrett / montgomery",
        "fastest",
    ]);
    let mut csv = Table::new(&[
        "digit_bits",
        "base_bits",
        "classical_ns",
        "barrett_ns",
        "montgomery_ns",
        "classical_over_montgomery",
        "barrett_over_montgomery",
    ]);
    let fastest = |r: &Row| {
        // By the paired ratios to Montgomery (the ratio columns), not by the minima.
        let rc = r.t[0].ratio_to(&r.t[2]);
        let rb = r.t[1].ratio_to(&r.t[2]);
        // Within 3% of Montgomery's time is a tie on a shared machine.
        let (best, r) = if rc < rb { (NAMES[0], rc) } else { (NAMES[1], rb) };
        if r < 0.97 {
            best
        } else if r < 1.03 {
            "tie"
        } else {
            NAMES[2]
        }
    };
    for r in rows {
        md.push(vec![
            Cell::text(format!("2^{}", r.digit_bits)),
            Cell::Int(r.base_bits as i64),
            Cell::Num(r.t[0].ns / 1e6, 3),
            Cell::Num(r.t[1].ns / 1e6, 3),
            Cell::Num(r.t[2].ns / 1e6, 3),
            Cell::ratio(&r.t[0], &r.t[2], 2),
            Cell::ratio(&r.t[1], &r.t[2], 2),
            Cell::text(fastest(r)),
        ]);
        let mut c = vec![Cell::Int(r.digit_bits as i64), Cell::Int(r.base_bits as i64)];
        c.extend(r.t.iter().map(|t| Cell::Num(t.ns, 0)));
        c.push(Cell::Num(r.t[0].ratio_to(&r.t[2]), 4));
        c.push(Cell::Num(r.t[1].ratio_to(&r.t[2]), 4));
        csv.push(c);
    }
    let mut text = String::new();
    for d in [16u32, 64] {
        let rs: Vec<&Row> = rows.iter().filter(|r| r.digit_bits == d).collect();
        let (Some(first), Some(last)) = (rs.first(), rs.last()) else { continue };
        let beats: Vec<String> = rs
            .iter()
            .filter(|r| !matches!(fastest(r), "montgomery" | "tie"))
            .map(|r| format!("{} ({})", r.base_bits, fastest(r)))
            .collect();
        text.push_str(&format!(
            "At b = 2^{d}: the fastest with a {}-bit base is {}, with a {}-bit base {}; \
             classical or Barrett beat Montgomery by more than 3% at base lengths {}.\n\n",
            first.base_bits,
            fastest(first),
            last.base_bits,
            fastest(last),
            if beats.is_empty() { "none".to_string() } else { beats.join(", ") },
        ));
    }
    let body = format!(
        "The paper (§5, Figure 3: b = 2^16, 512-bit modulus and exponent, 16-ary \
         exponentiation) found classical and Barrett exponentiation faster for bases \
         shorter than the modulus — the table of small powers stays short, so the products \
         reduced are shorter than twice the modulus and their reduction, linear in the \
         argument's length, is cheaper — and for small enough bases faster than \
         Montgomery's, whose reduction costs the same for any argument: \"Barrett based \
         exponentiation is therefore the best choice to perform Rabin primality tests with \
         small bases.\" The figure did not survive in the text we have, so only that claim \
         is compared. Here the same: a 512-bit modulus and exponent, the 16-ary method \
         (fixed window, w = 4), bases of each length (random, top bit set), every power \
         checked before timing; times include the conversions into and out of each \
         reducer's representation. {}\n\n{}\n{text}",
        crate::report::table::RATIO_NOTE,
        md.markdown()
    );
    Part {
        heading: "Figure 3 — exponentiation of short bases (512-bit modulus)".to_string(),
        body,
        csv: vec![("paper000_figure3.csv".to_string(), csv)],
        figures: [16, 64].iter().map(|&d| figure(rows, d)).collect(),
    }
}

/// Exponentiation time against the base's length at one digit size.
fn figure(rows: &[Row], digit_bits: u32) -> Figure {
    let rs: Vec<&Row> = rows.iter().filter(|r| r.digit_bits == digit_bits).collect();
    let mut f = Figure::new(
        &format!("paper000_figure3_b{digit_bits}"),
        &format!("Figure 3: 512-bit exponentiation against the base's length, b = 2^{digit_bits}"),
    )
    .x("base bits", Scale::Log2)
    .y("ms per exponentiation", Scale::Linear)
    .bars(BARS_ROUNDS);
    for (j, name) in NAMES.iter().enumerate() {
        let pts = rs
            .iter()
            .map(|r| (r.base_bits as f64, r.t[j].ns / 1e6, scaled(time_range(&r.t[j]), 1e-6)));
        f = f.series_bars(name, pts);
    }
    f
}
