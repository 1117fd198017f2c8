//! Table 2 (window multiplication and squaring times, hong against Montgomery, at the
//! paper's b = 2^16 and at b = 2^64), the whole exponentiation, and the search for a
//! setting where hong wins on 64-bit digits (digit size and the shift s).

use super::Part;
use crate::report::anchors;
use crate::report::plot::{Figure, Scale, BARS_RATIOS, BARS_ROUNDS};
use crate::report::rng::{digits, nat, SplitMix64};
use crate::report::table::{ratio_range, scaled, time_range, Cell, Table, RATIO_NOTE};
use crate::report::{Context, Mode};
use modred::exp::{self, Method};
use modred::reduce::{Hong, Montgomery};
use modred::{Limb, Nat, Reducer, Scratch};
use modred_testkit::timing::{compare, Candidate, Timing};
use std::hint::black_box;

/// Operands per size; candidates cycle through them.
const ARGS: usize = 8;

/// The paper's Table 2 (ms on a Pentium-90, b = 2^16): bits, Montgomery window mul,
/// proposed, Montgomery squaring, proposed.
const PAPER: [(u32, [f64; 4]); 4] = [
    (256, [0.137, 0.0604, 0.121, 0.0851]),
    (512, [0.544, 0.220, 0.445, 0.297]),
    (768, [1.16, 0.489, 0.917, 0.698]),
    (1024, [2.07, 0.868, 1.65, 1.22]),
];

/// The paper's time ratios (proposed / Montgomery) for multiplication and squaring.
fn paper_ratios(bits: u32) -> Option<[f64; 2]> {
    PAPER.iter().find(|(b, _)| *b == bits).map(|(_, t)| [t[1] / t[0], t[3] / t[2]])
}

/// One size: times of [Montgomery mul, hong window mul, Montgomery sqr, hong sqr].
pub struct Row {
    pub digit_bits: u32,
    pub bits: u32,
    pub t: [Timing; 4],
}

impl Row {
    /// Hong's time over Montgomery's: below 1 hong is faster.
    pub fn ratio(&self, sqr: bool) -> f64 {
        let j = if sqr { 2 } else { 0 };
        self.t[j + 1].ratio_to(&self.t[j])
    }

    /// The range (min, max) of the per-round ratios [`Row::ratio`] is the median of.
    pub fn ratio_range(&self, sqr: bool) -> (f64, f64) {
        let j = if sqr { 2 } else { 0 };
        ratio_range(&self.t[j + 1], &self.t[j])
    }

    /// [`Row::ratio`] as a table cell (marked when it disagrees with the times).
    fn ratio_cell(&self, sqr: bool, decimals: usize) -> Cell {
        let j = if sqr { 2 } else { 0 };
        Cell::ratio(&self.t[j + 1], &self.t[j], decimals)
    }
}

struct Inputs<L: Limb> {
    mont: Montgomery<L>,
    hong: Hong<L>,
    /// Montgomery residues, hong residues (standard), hong tables of the second operand.
    pairs_m: Vec<(Vec<L>, Vec<L>)>,
    pairs_h: Vec<(Vec<L>, Vec<L>)>,
}

fn inputs<L: Limb>(bits: u32, shift: u32, seed: u64) -> Result<Inputs<L>, String> {
    let mut rng = SplitMix64::new(seed ^ bits as u64);
    let m: Nat<L> = nat(rng.odd_modulus(bits as u64));
    let mont = Montgomery::new(&m).map_err(|e| e.to_string())?;
    let hong = Hong::with_shift(&m, shift).map_err(|e| e.to_string())?;
    let mut pairs_m = Vec::new();
    let mut pairs_h = Vec::new();
    for _ in 0..ARGS {
        let (a, b) = (nat(rng.below(&digits(&m))), nat(rng.below(&digits(&m))));
        pairs_m.push((mont.to_residue(&a), mont.to_residue(&b)));
        pairs_h.push((hong.to_residue(&a), hong.to_residue(&b)));
    }
    Ok(Inputs { mont, hong, pairs_m, pairs_h })
}

/// Checks hong's window multiplication and squaring against Montgomery's on every input.
fn check<L: Limb>(x: &Inputs<L>, what: &str) -> Result<(), String> {
    let k = x.hong.width();
    let mut s = Scratch::new();
    let (mut o1, mut o2) = (vec![L::ZERO; k], vec![L::ZERO; k]);
    for (pm, ph) in x.pairs_m.iter().zip(&x.pairs_h) {
        let table = x.hong.window_table(&ph.1);
        x.hong.mul_by_table(&mut o1, &ph.0, &table, &mut s);
        x.mont.mul(&mut o2, &pm.0, &pm.1, &mut s);
        if Nat::from_limbs(&o1) != x.mont.from_residue(&o2) {
            return Err(format!("{what}: hong and montgomery multiply differently"));
        }
        x.hong.sqr(&mut o1, &ph.0, &mut s);
        x.mont.sqr(&mut o2, &pm.0, &mut s);
        if Nat::from_limbs(&o1) != x.mont.from_residue(&o2) {
            return Err(format!("{what}: hong and montgomery square differently"));
        }
    }
    Ok(())
}

/// One timed operation on input `i` into `out`.
type Op<'a, L> = dyn Fn(usize, &mut [L], &mut Scratch<L>) + 'a;

/// The four candidates (Montgomery mul, hong window mul, Montgomery sqr, hong sqr).
fn candidates<'a, L: Limb>(x: &'a Inputs<L>) -> Vec<Candidate<'a>> {
    let k = x.hong.width();
    let tables: Vec<_> = x.pairs_h.iter().map(|p| x.hong.window_table(&p.1)).collect();
    let mut v = Vec::new();
    let mut make = |f: Box<Op<'a, L>>| {
        let (mut out, mut s, mut i) = (vec![L::ZERO; k], Scratch::new(), 0usize);
        v.push(Candidate::new(move || {
            f(i % ARGS, &mut out, &mut s);
            black_box(&out);
            i += 1;
        }));
    };
    make(Box::new(move |i, out, s| {
        x.mont.mul(out, black_box(&x.pairs_m[i].0), &x.pairs_m[i].1, s)
    }));
    make(Box::new(move |i, out, s| {
        x.hong.mul_by_table(out, black_box(&x.pairs_h[i].0), &tables[i], s)
    }));
    make(Box::new(move |i, out, s| x.mont.sqr(out, black_box(&x.pairs_m[i].0), s)));
    make(Box::new(move |i, out, s| x.hong.sqr(out, black_box(&x.pairs_h[i].0), s)));
    v
}

pub fn measure_table2(ctx: &Context) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    let sizes: &[u32] =
        if ctx.mode == Mode::Quick { &[256, 512, 1024] } else { &[256, 512, 768, 1024] };
    for &bits in sizes {
        rows.push(measure_one::<u16>(ctx, bits)?);
    }
    for &bits in sizes {
        rows.push(measure_one::<u64>(ctx, bits)?);
    }
    Ok(rows)
}

fn measure_one<L: Limb>(ctx: &Context, bits: u32) -> Result<Row, String> {
    let what = format!("paper 002, table 2: b = 2^{}, {bits}-bit modulus", L::BITS);
    ctx.progress(&what);
    let x = inputs::<L>(bits, modred::reduce::hong::default_shift::<L>(), 0x2002)?;
    check(&x, &what)?;
    let t = compare(&ctx.short_ops, &mut candidates(&x)).try_into().expect("four candidates");
    Ok(Row { digit_bits: L::BITS, bits, t })
}

pub fn part2(rows: &[Row]) -> Part {
    let mut md = Table::new(&[
        "b",
        "bits",
        "window mul: montgomery (ns)",
        "hong (ns)",
        "hong / montgomery",
        "1996",
        "squaring: montgomery (ns)",
        "hong (ns)",
        "hong / montgomery",
        "1996",
    ]);
    let mut csv = Table::new(&[
        "digit_bits",
        "bits",
        "montgomery_mul_ns",
        "hong_mul_ns",
        "montgomery_sqr_ns",
        "hong_sqr_ns",
        "mul_hong_over_montgomery",
        "sqr_hong_over_montgomery",
        "paper_mul_hong_over_montgomery",
        "paper_sqr_hong_over_montgomery",
    ]);
    for r in rows {
        let p = paper_ratios(r.bits).filter(|_| r.digit_bits == 16);
        md.push(vec![
            Cell::text(format!("2^{}", r.digit_bits)),
            Cell::Int(r.bits as i64),
            Cell::Num(r.t[0].ns, 0),
            Cell::Num(r.t[1].ns, 0),
            r.ratio_cell(false, 2),
            Cell::num(p.map(|p| p[0]), 2),
            Cell::Num(r.t[2].ns, 0),
            Cell::Num(r.t[3].ns, 0),
            r.ratio_cell(true, 2),
            Cell::num(p.map(|p| p[1]), 2),
        ]);
        let mut c = vec![Cell::Int(r.digit_bits as i64), Cell::Int(r.bits as i64)];
        c.extend(r.t.iter().map(|t| Cell::Num(t.ns, 1)));
        c.push(Cell::Num(r.ratio(false), 3));
        c.push(Cell::Num(r.ratio(true), 3));
        c.push(Cell::num(p.map(|p| p[0]), 3));
        c.push(Cell::num(p.map(|p| p[1]), 3));
        csv.push(c);
    }
    let range = |d: u32, sqr: bool| {
        let v: Vec<f64> = rows.iter().filter(|r| r.digit_bits == d).map(|r| r.ratio(sqr)).collect();
        let lo = v.iter().copied().fold(f64::MAX, f64::min);
        let hi = v.iter().copied().fold(0.0, f64::max);
        format!("{lo:.2}–{hi:.2}")
    };
    let paper_range = |sqr: bool| {
        let v: Vec<f64> =
            PAPER.iter().filter_map(|(b, _)| paper_ratios(*b)).map(|p| p[sqr as usize]).collect();
        let lo = v.iter().copied().fold(f64::MAX, f64::min);
        let hi = v.iter().copied().fold(0.0, f64::max);
        format!("{lo:.2}–{hi:.2}")
    };
    let body = format!(
        "Time of one window multiplication (by a prepared table; Montgomery: product and \
         reduction) and of one squaring, hong against Montgomery (separated product and \
         reduction, the library's kernels), interleaved in this run. `hong / montgomery` \
         = hong's time ÷ Montgomery's: below 1 hong is faster. The 1996 ratios are \
         computed from the paper's Table 2 (Pentium-90, b = 2^16, Watcom C) and sit in the \
         b = 2^16 rows. {}\n\n{}\n\
         Measured hong / montgomery: at b = 2^16 window multiplication {}, squaring {} \
         (1996: {} and {}); at b = 2^64 window multiplication {}, squaring {}. \
         The window multiplication keeps much of its advantage where multiplications are \
         dear (16-bit digits: k² instead of 2k² + k multiply-accumulates); the squaring \
         loses the paper's advantage: its (k² + k)/2 multiplications are bought with \
         about 2.5k² dependent subtractions and shifts of eq. 13 and a pointer lookup per \
         step, and a modern core multiplies and adds at nearly the same rate (r ≈ 1 in \
         the paper's Table 3, where 1996's Pentium had r ≈ 0.37). At b = 2^64 both lose: \
         a 64-bit digit makes the eq. 13 steps per digit eight times as many (s = 2^8 \
         shifts 8 bits at a time: ⌈(64 + log₂ k)/8⌉ passes over k + 1 digits for the \
         window multiplication's correction, ⌈(128 + 1)/8⌉ per squaring step), while \
         Montgomery's multiply-accumulates cost what 16-bit ones do.\n",
        RATIO_NOTE,
        md.markdown(),
        range(16, false),
        range(16, true),
        paper_range(false),
        paper_range(true),
        range(64, false),
        range(64, true),
    );
    Part {
        figures: [16, 64].iter().map(|&d| table2_figure(rows, d)).collect(),
        heading: "Table 2 — window multiplication and squaring times".to_string(),
        body,
        csv: vec![("paper002_table2.csv".to_string(), csv)],
    }
}

/// Exponentiation: hong's (tables of every precomputed power) against Montgomery's,
/// both with the library's default sliding window, 64-bit digits.
pub struct PowRow {
    pub bits: u32,
    pub window: u32,
    pub t: [Timing; 2],
    /// GMP and OpenSSL, with the `anchors` feature.
    pub anchors: Vec<(&'static str, Timing)>,
}

pub fn measure_powm(ctx: &Context) -> Result<Vec<PowRow>, String> {
    let sizes: &[u32] = match ctx.mode {
        Mode::Quick => &[512, 1024],
        Mode::Standard => &[256, 512, 1024, 2048],
        Mode::Full => &[256, 512, 1024, 2048, 4096],
    };
    let mut rows = Vec::new();
    for &bits in sizes {
        let what = format!("paper 002, exponentiation: {bits}-bit modulus");
        ctx.progress(&what);
        let mut rng = SplitMix64::new(0x2002_0e0e ^ bits as u64);
        let m: Nat = nat(rng.odd_modulus(bits as u64));
        let e: Nat = nat(rng.exact_bits(bits as u64));
        let a: Nat = nat(rng.below(&digits(&m)));
        let mont = Montgomery::new(&m).map_err(|e| e.to_string())?;
        let hong = Hong::new(&m).map_err(|e| e.to_string())?;
        let w = exp::default_window(e.bits());
        let method = Method::SlidingWindow(w);
        let (bm, bh) = (mont.to_residue(&a), hong.to_residue(&a));
        let rm = exp::pow_vartime(&mont, &bm, &e, method).map_err(|e| e.to_string())?;
        let rh = exp::hong::pow_vartime(&hong, &bh, &e, method).map_err(|e| e.to_string())?;
        if mont.from_residue(&rm) != Nat::from_limbs(&rh) {
            return Err(format!("{what}: hong and montgomery disagree"));
        }
        let anchors = anchors::powm(&a, &e, &m, &mont.from_residue(&rm))
            .map_err(|e| format!("{what}: {e}"))?;
        let names: Vec<&'static str> = anchors.iter().map(|a| a.0).collect();
        let mut c = vec![
            Candidate::new(|| {
                black_box(exp::pow_vartime(&mont, black_box(&bm), &e, method).ok());
            }),
            Candidate::new(|| {
                black_box(exp::hong::pow_vartime(&hong, black_box(&bh), &e, method).ok());
            }),
        ];
        c.extend(anchors.into_iter().map(|a| a.1));
        let mut t = compare(&ctx.long_ops, &mut c);
        drop(c);
        let anchors = names.into_iter().zip(t.split_off(2)).collect();
        let t = t.try_into().expect("two candidates");
        rows.push(PowRow { bits, window: w, t, anchors });
    }
    Ok(rows)
}

pub fn part_powm(rows: &[PowRow]) -> Part {
    let names: Vec<&str> =
        rows.first().map_or(Vec::new(), |r| r.anchors.iter().map(|a| a.0).collect());
    let mut header: Vec<String> =
        ["bits", "window", "montgomery (ms)", "hong (ms)", "hong / montgomery"]
            .map(String::from)
            .to_vec();
    let mut csv_header = header.clone();
    csv_header.truncate(2);
    csv_header.extend(["montgomery_ns", "hong_ns", "hong_over_montgomery"].map(String::from));
    for n in &names {
        header.push(format!("{n} (ms)"));
        header.push(format!("montgomery / {n}"));
        csv_header.push(format!("{}_ns", n.to_lowercase()));
        csv_header.push(format!("montgomery_over_{}", n.to_lowercase()));
    }
    let mut md = Table::new(&header.iter().map(String::as_str).collect::<Vec<_>>());
    let mut csv = Table::new(&csv_header.iter().map(String::as_str).collect::<Vec<_>>());
    for r in rows {
        let ratio = r.t[1].ratio_to(&r.t[0]);
        let mut m = vec![
            Cell::Int(r.bits as i64),
            Cell::Int(r.window as i64),
            Cell::Num(r.t[0].ns / 1e6, 3),
            Cell::Num(r.t[1].ns / 1e6, 3),
            Cell::ratio(&r.t[1], &r.t[0], 2),
        ];
        let mut c = vec![
            Cell::Int(r.bits as i64),
            Cell::Int(r.window as i64),
            Cell::Num(r.t[0].ns, 0),
            Cell::Num(r.t[1].ns, 0),
            Cell::Num(ratio, 4),
        ];
        for (_, t) in &r.anchors {
            m.push(Cell::Num(t.ns / 1e6, 3));
            m.push(Cell::ratio(&r.t[0], t, 2));
            c.push(Cell::Num(t.ns, 0));
            c.push(Cell::Num(r.t[0].ratio_to(t), 4));
        }
        md.push(m);
        csv.push(c);
    }
    let mut f = Figure::new("paper002_powm", "Exponentiation time, b = 2^64 (default window)")
        .x("modulus bits (exponent as long)", Scale::Log2)
        .y("ms per exponentiation", Scale::Log10)
        .bars(BARS_ROUNDS);
    let ms = |t: &Timing| (t.ns / 1e6, scaled(time_range(t), 1e-6));
    let point = |bits: u32, t: &Timing| {
        let (y, bar) = ms(t);
        (bits as f64, y, bar)
    };
    f = f
        .series_bars("montgomery", rows.iter().map(|r| point(r.bits, &r.t[0])))
        .series_bars("hong", rows.iter().map(|r| point(r.bits, &r.t[1])));
    for (i, n) in names.iter().enumerate() {
        f = f.series_bars(n, rows.iter().map(|r| point(r.bits, &r.anchors[i].1)));
    }
    let anchors_text = if names.is_empty() {
        anchors::absent_note().trim_start().to_string()
    } else {
        "GMP (`mpz_powm`) and OpenSSL (`BN_mod_exp_mont_consttime`, constant time) on the \
         same operands, timed interleaved with the two above (including their conversions \
         into and out of their representations, negligible at these exponent lengths); \
         `montgomery / GMP` below 1: modred is faster."
            .to_string()
    };
    let body = format!(
        "A full-length exponentiation (exponent as long as the modulus, random odd \
         modulus, b = 2^64), both with the library's default sliding window: Montgomery \
         through the generic `exp::pow_vartime`, hong through `exp::hong::pow_vartime` \
         (a window table per odd power, built once and shared by all multiplications by \
         it). hong / montgomery above 1 means hong is slower.\n\n{}\n{anchors_text}\n",
        md.markdown()
    );
    Part {
        figures: vec![f],
        heading: "Exponentiation — hong against Montgomery (b = 2^64)".to_string(),
        body,
        csv: vec![("paper002_powm.csv".to_string(), csv)],
    }
}

/// Where could hong win? One 1024-bit modulus; Montgomery at b = 2^64 against hong at
/// every digit size with several shifts s = 2^w.
pub struct ExploreRow {
    pub digit_bits: u32,
    pub shift: u32,
    /// Hong's window mul and sqr time over Montgomery's (64-bit) mul and sqr.
    pub mul: f64,
    pub sqr: f64,
    pub multiples_bytes: usize,
}

pub fn measure_explore(ctx: &Context) -> Result<Vec<ExploreRow>, String> {
    let bits = 1024;
    ctx.progress("paper 002, where hong could win: digit size and s at 1024 bits");
    let base = inputs::<u64>(bits, 8, 0xe7)?;
    let mut rows = Vec::new();
    let configs: &[(u32, u32)] = if ctx.mode == Mode::Quick {
        &[(16, 8), (32, 8), (64, 4), (64, 8), (64, 12)]
    } else {
        &[
            (16, 4),
            (16, 8),
            (16, 12),
            (32, 8),
            (32, 12),
            (32, 16),
            (64, 4),
            (64, 8),
            (64, 12),
            (64, 16),
        ]
    };
    for &(d, w) in configs {
        let (mul, sqr, bytes) = match d {
            16 => explore_one::<u16>(ctx, &base, bits, w)?,
            32 => explore_one::<u32>(ctx, &base, bits, w)?,
            _ => explore_one::<u64>(ctx, &base, bits, w)?,
        };
        rows.push(ExploreRow { digit_bits: d, shift: w, mul, sqr, multiples_bytes: bytes });
    }
    Ok(rows)
}

fn explore_one<L: Limb>(
    ctx: &Context,
    base: &Inputs<u64>,
    bits: u32,
    w: u32,
) -> Result<(f64, f64, usize), String> {
    let x = inputs::<L>(bits, w, 0xe7)?;
    check(&x, "paper 002, exploration")?;
    let mut c = candidates(base);
    let mut mine = candidates(&x);
    // Montgomery (64-bit) mul, sqr; hong (this digit size and shift) window mul, sqr.
    let cands = vec![c.remove(0), c.remove(1), mine.remove(1), mine.remove(2)];
    let mut cands = cands;
    let t = compare(&ctx.short_ops, &mut cands);
    let bytes = x.hong.table_sizes().0 * (L::BITS as usize / 8);
    Ok((t[2].ratio_to(&t[0]), t[3].ratio_to(&t[1]), bytes))
}

pub fn part_explore(rows: &[ExploreRow]) -> Part {
    let mut md = Table::new(&[
        "hong digit",
        "s",
        "multiples table",
        "window mul: hong / montgomery",
        "squaring: hong / montgomery",
    ]);
    let mut csv = Table::new(&[
        "digit_bits",
        "shift",
        "multiples_bytes",
        "mul_hong_over_montgomery",
        "sqr_hong_over_montgomery",
    ]);
    for r in rows {
        md.push(vec![
            Cell::text(format!("2^{}", r.digit_bits)),
            Cell::text(format!("2^{}", r.shift)),
            Cell::text(format!("{:.1} KiB", r.multiples_bytes as f64 / 1024.0)),
            Cell::Num(r.mul, 2),
            Cell::Num(r.sqr, 2),
        ]);
        csv.push(vec![
            Cell::Int(r.digit_bits as i64),
            Cell::Int(r.shift as i64),
            Cell::Int(r.multiples_bytes as i64),
            Cell::Num(r.mul, 3),
            Cell::Num(r.sqr, 3),
        ]);
    }
    let best_sqr = rows.iter().map(|r| r.sqr).fold(f64::MAX, f64::min);
    let best_mul = rows.iter().map(|r| r.mul).fold(f64::MAX, f64::min);
    let body = format!(
        "Hong's time over Montgomery's **at b = 2^64** (`hong / montgomery`; below 1 \
         hong is faster), 1024-bit modulus, for hong at each digit size and shift s = 2^w \
         of eq. 13 (a larger s means fewer shift-and-subtract steps but a larger table of \
         multiples of N).\n\n{}\nThe best (lowest) squaring ratio found is {best_sqr:.2}, the best \
         window multiplication {best_mul:.2}. An exponentiation makes about one window \
         multiplication per 5–7 squarings, so the squaring decides: {}\n",
        md.markdown(),
        if best_sqr >= 1.0 {
            "with 64-bit Montgomery as the opponent, no digit size and no s tried makes \
             hong's squaring faster, and the automatic choice (`auto`) never picks hong."
        } else {
            "some setting makes hong's squaring faster here; `auto` still follows the \
             exponentiation measurement above."
        }
    );
    Part {
        figures: Vec::new(),
        heading: "Where could hong win on a 64-bit machine?".to_string(),
        body,
        csv: vec![("paper002_explore.csv".to_string(), csv)],
    }
}

/// Table 2 as curves: hong's time over Montgomery's against the modulus size at one
/// digit size; at b = 2^16 with the paper's (dashed).
fn table2_figure(rows: &[Row], digit_bits: u32) -> Figure {
    let rs: Vec<&Row> = rows.iter().filter(|r| r.digit_bits == digit_bits).collect();
    let mut f = Figure::new(
        &format!("paper002_table2_b{digit_bits}"),
        &format!("Table 2: hong's time relative to Montgomery's, b = 2^{digit_bits}"),
    )
    .x("modulus bits", Scale::Log2)
    .y("hong's time / Montgomery's", Scale::Linear)
    .reference("parity", 1.0)
    .bars(BARS_RATIOS)
    .series_bars(
        "window multiplication",
        rs.iter().map(|r| (r.bits as f64, r.ratio(false), r.ratio_range(false))),
    )
    .series_bars(
        "squaring",
        rs.iter().map(|r| (r.bits as f64, r.ratio(true), r.ratio_range(true))),
    );
    if digit_bits == 16 {
        let paper = |j: usize| PAPER.iter().map(move |(b, t)| (*b as f64, t[2 * j + 1] / t[2 * j]));
        f = f.published("window multiplication, 1996", paper(0));
        f = f.published("squaring, 1996", paper(1));
    }
    f
}
