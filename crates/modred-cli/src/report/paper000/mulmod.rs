//! Modular multiplication (product and reduction) with the paper's three reducers and
//! the interleaved Montgomery form at b = 2^64, beside GMP and OpenSSL when the CLI is
//! built with them: the operation an exponentiation repeats, on today's sizes.

use super::Part;
use crate::report::anchors;
use crate::report::plot::{Figure, Scale, BARS_ROUNDS};
use crate::report::rng::{digits, nat, SplitMix64};
use crate::report::table::{time_range, Cell, Table};
use crate::report::{Context, Mode};
use modred::reduce::{Barrett, Classical, Montgomery, MontgomeryInterleaved};
use modred::{Nat, Reducer, Scratch};
use modred_testkit::timing::{compare, Candidate, Timing};
use std::hint::black_box;

/// Operand pairs per size; the candidates cycle through them.
const PAIRS: usize = 8;

const NAMES: [&str; 4] = ["classical", "barrett", "montgomery", "montgomery-interleaved"];
const MONTGOMERY: usize = 2;

pub struct Row {
    pub bits: u32,
    /// In [`NAMES`] order.
    pub t: [Timing; 4],
    pub anchors: Vec<(&'static str, Timing)>,
}

fn sizes(mode: Mode) -> &'static [u32] {
    match mode {
        Mode::Quick => &[256, 1024, 2048, 4096],
        Mode::Standard | Mode::Full => &[256, 512, 1024, 2048, 3072, 4096],
    }
}

/// A candidate multiplying residue pairs with `r.mul`, cycling through them.
fn candidate<'a>(r: &'a dyn Reducer<u64>, pairs: &'a [(Vec<u64>, Vec<u64>)]) -> Candidate<'a> {
    let (mut out, mut s, mut i) = (vec![0u64; r.width()], Scratch::new(), 0usize);
    Candidate::new(move || {
        let (a, b) = &pairs[i % pairs.len()];
        r.mul(&mut out, black_box(a), black_box(b), &mut s);
        black_box(&out);
        i += 1;
    })
}

pub fn measure(ctx: &Context) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for &bits in sizes(ctx.mode) {
        let what = format!("paper 000, modular multiplication: {bits}-bit modulus");
        ctx.progress(&what);
        let err = |e: modred::Error| format!("{what}: {e}");
        let mut rng = SplitMix64::new(0x0000_3131 ^ bits as u64);
        let m: Nat = nat(rng.odd_modulus(bits as u64));
        let classical = Classical::new(&m).map_err(err)?;
        let barrett = Barrett::new(&m).map_err(err)?;
        let montgomery = Montgomery::new(&m).map_err(err)?;
        let interleaved = MontgomeryInterleaved::new(&m).map_err(err)?;
        let all: [&dyn Reducer<u64>; 4] = [&classical, &barrett, &montgomery, &interleaved];
        let operands: Vec<(Nat, Nat)> = (0..PAIRS)
            .map(|_| (nat(rng.below(&digits(&m))), nat(rng.below(&digits(&m)))))
            .collect();
        // Residue pairs per reducer, each product checked against Nat arithmetic.
        let mut pairs = Vec::new();
        for r in all {
            let mut v = Vec::new();
            for (a, b) in &operands {
                let (ra, rb) = (r.to_residue(a), r.to_residue(b));
                let mut out = vec![0u64; r.width()];
                r.mul(&mut out, &ra, &rb, &mut Scratch::new());
                let want = a.mul(b).checked_rem(&m).ok_or("zero modulus")?;
                if r.from_residue(&out) != want {
                    return Err(format!("{what}: {} multiplies wrongly", r.algorithm()));
                }
                v.push((ra, rb));
            }
            pairs.push(v);
        }
        let (a, b) = &operands[0];
        let want = a.mul(b).checked_rem(&m).ok_or("zero modulus")?;
        let anchors = anchors::mulmod(a, b, &m, &want).map_err(|e| format!("{what}: {e}"))?;
        let names: Vec<&'static str> = anchors.iter().map(|a| a.0).collect();
        let mut cands: Vec<Candidate<'_>> =
            all.iter().zip(&pairs).map(|(r, p)| candidate(*r, p)).collect();
        cands.extend(anchors.into_iter().map(|a| a.1));
        let mut t = compare(&ctx.short_ops, &mut cands);
        drop(cands);
        let anchors = names.into_iter().zip(t.split_off(4)).collect();
        rows.push(Row { bits, t: t.try_into().expect("four candidates"), anchors });
    }
    Ok(rows)
}

pub fn part(rows: &[Row]) -> Part {
    let anchor_names: Vec<&str> =
        rows.first().map_or(Vec::new(), |r| r.anchors.iter().map(|a| a.0).collect());
    let mut header: Vec<String> = vec!["bits".into()];
    header.extend(NAMES.iter().map(|n| format!("{n} (ns)")));
    header.extend(anchor_names.iter().map(|n| format!("{n} (ns)")));
    header.extend(
        ["classical / montgomery", "barrett / montgomery", "interleaved / montgomery"]
            .map(String::from),
    );
    header.extend(anchor_names.iter().map(|n| format!("montgomery / {n}")));
    let h: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut md = Table::new(&h);
    let mut csv = Table::new(&["bits", "algorithm", "ns", "ratio_to_montgomery"]);
    for r in rows {
        let mont = &r.t[MONTGOMERY];
        let mut c = vec![Cell::Int(r.bits as i64)];
        c.extend(r.t.iter().map(|t| Cell::Num(t.ns, 0)));
        c.extend(r.anchors.iter().map(|a| Cell::Num(a.1.ns, 0)));
        c.extend([0, 1, 3].map(|j| Cell::ratio(&r.t[j], mont, 2)));
        c.extend(r.anchors.iter().map(|a| Cell::ratio(mont, &a.1, 2)));
        md.push(c);
        let named = NAMES.iter().copied().zip(&r.t).chain(r.anchors.iter().map(|a| (a.0, &a.1)));
        for (name, t) in named {
            csv.push(vec![
                Cell::Int(r.bits as i64),
                Cell::text(name),
                Cell::Num(t.ns, 1),
                Cell::Num(t.ratio_to(mont), 4),
            ]);
        }
    }
    let anchors_text = if anchor_names.is_empty() {
        anchors::absent_note().trim_start().to_string()
    } else {
        "GMP: `mpz_mul` then `mpz_tdiv_r` on ordinary integers; OpenSSL: \
         `BN_mod_mul_montgomery` on operands in Montgomery form (as ours are in each \
         reducer's representation). `montgomery / GMP` below 1: modred is faster."
            .to_string()
    };
    let body = format!(
        "Not in the paper, which times the reduction alone: one modular multiplication — \
         the product of two residues and its reduction, `Reducer::mul` — at b = 2^64 for \
         today's sizes (random odd modulus, {PAIRS} operand pairs per size), all candidates \
         timed interleaved. `montgomery-interleaved` is the CIOS form, which interleaves \
         the reduction into the product. {}\n\n{}\n{anchors_text}\n",
        crate::report::table::RATIO_NOTE,
        md.markdown()
    );
    let mut f = Figure::new("paper000_mulmod", "Modular multiplication time, b = 2^64")
        .x("modulus bits", Scale::Log2)
        .y("ns per multiplication", Scale::Log10)
        .bars(BARS_ROUNDS);
    for (j, name) in NAMES.iter().enumerate() {
        f = f.series_bars(
            name,
            rows.iter().map(|r| (r.bits as f64, r.t[j].ns, time_range(&r.t[j]))),
        );
    }
    for name in &anchor_names {
        let pts = rows.iter().filter_map(|r| {
            r.anchors
                .iter()
                .find(|a| a.0 == *name)
                .map(|a| (r.bits as f64, a.1.ns, time_range(&a.1)))
        });
        f = f.series_bars(name, pts);
    }
    Part {
        heading: "Modular multiplication at b = 2^64 (beyond the paper)".to_string(),
        body,
        csv: vec![("paper000_mulmod.csv".to_string(), csv)],
        figures: vec![f],
    }
}
