//! Paper 003: Taschwer, "Modular multiplication using special prime moduli" — Table 1 by
//! search, Table 2's weights computed, Tables 3–6 measured again (modular multiplication
//! and reduction alone; classical, Montgomery, pseudo-Mersenne, generic and hard-coded
//! generalized Mersenne) as ratios to Montgomery, beside the paper's Pentium and Alpha
//! figures as ratios to its Montgomery.

use super::plot::{Figure, Scale};
use super::rng::SplitMix64;
use super::table::{Cell, Table};
use super::timing::{compare, Candidate};
use super::{Context, Section};
use modred::reduce::{make, NistPrime, Reducer, Scratch, SolinasPoly};
use modred::{Algorithm, Nat};
use std::hint::black_box;

/// Table 1 as printed: n and the c < 1024 with 2^n − c prime.
const TABLE_1: &[(u64, &[u64])] = &[
    (160, &[47, 57, 75, 189, 285, 383, 465, 543, 659, 843]),
    (192, &[237, 333, 399, 489, 527, 663, 915, 945]),
    (224, &[63, 363, 573, 719, 773, 857]),
    (256, &[189, 357, 435, 587, 617, 923]),
    (320, &[197, 743, 825, 843, 873, 1007, 1017]),
    (384, &[317]),
    (448, &[203, 207, 825]),
    (512, &[569, 629, 875, 975]),
];

/// Table 2 as printed: f, W, w_a, w_s.
const TABLE_2: &[(&str, u32, usize, usize)] = &[
    ("t^3 - t - 1", 64, 3, 0),
    ("t^7 - t^3 + 1", 32, 2, 2),
    ("t^8 - t^7 + t^6 + t^3 - 1", 32, 6, 4),
    ("t^12 - t^4 - t^3 + t - 1", 32, 7, 3),
    ("t^14 - t^7 - 1", 32, 3, 0),
    ("t^16 - t - 1", 32, 3, 0),
];

/// Paper Tables 3–6 (clock cycles): per size, classical, PM, generic GM, hard-coded GM,
/// Montgomery; `None` where the paper has no figure.
type PaperRow = (u32, [Option<f64>; 5]);
const T3_PENTIUM_MUL: &[PaperRow] = &[
    (192, [Some(2524.0), Some(1403.1), Some(1360.8), Some(1146.1), Some(1757.6)]),
    (224, [Some(3048.6), Some(1651.1), Some(1820.5), Some(1463.4), Some(2197.2)]),
    (256, [Some(3660.9), Some(1930.4), None, None, Some(2718.8)]),
    (320, [Some(5007.9), Some(2511.7), None, None, Some(3858.5)]),
    (384, [Some(6606.2), Some(3314.1), None, None, Some(5285.0)]),
    (448, [Some(8436.9), Some(4145.2), Some(4233.8), Some(3848.4), Some(6916.6)]),
    (512, [Some(9998.4), Some(4503.0), Some(4615.6), Some(4109.7), Some(8265.5)]),
];
const T4_ALPHA_MUL: &[PaperRow] = &[
    (192, [Some(1505.1), Some(717.8), Some(911.1), Some(654.7), Some(887.8)]),
    (224, [Some(2073.3), None, None, Some(1032.2), Some(1246.1)]),
    (256, [Some(1967.1), Some(932.1), None, None, Some(1241.2)]),
    (320, [Some(2431.5), Some(1166.1), None, None, Some(1616.4)]),
    (384, [Some(2997.8), Some(1418.9), None, None, Some(2079.6)]),
    (448, [Some(3652.6), Some(1713.1), None, Some(1732.7), Some(2631.1)]),
    (512, [Some(4317.0), Some(2009.1), None, Some(1894.6), Some(3205.6)]),
];
const T5_PENTIUM_RED: &[PaperRow] = &[
    (192, [Some(1640.4), Some(352.3), Some(480.5), Some(274.9), Some(867.0)]),
    (224, [Some(1963.3), Some(385.0), Some(715.0), Some(368.9), Some(1091.9)]),
    (256, [Some(2293.5), Some(408.6), None, None, Some(1348.4)]),
    (320, [Some(3066.7), Some(417.2), None, None, Some(1914.6)]),
    (384, [Some(3940.5), Some(471.4), None, None, Some(2650.5)]),
    (448, [Some(4948.0), Some(530.0), Some(797.5), Some(408.4), Some(3451.1)]),
    (512, [Some(6064.9), Some(580.8), Some(862.5), Some(355.9), Some(4382.5)]),
];
const T6_ALPHA_RED: &[PaperRow] = &[
    (192, [Some(1078.7), Some(261.3), Some(379.5), Some(194.1), Some(382.3)]),
    (224, [Some(1485.3), None, None, Some(381.7), Some(569.2)]),
    (256, [Some(1335.8), Some(278.7), None, None, Some(561.5)]),
    (320, [Some(1657.7), Some(332.3), None, None, Some(756.5)]),
    (384, [Some(2034.8), Some(359.5), None, None, Some(984.3)]),
    (448, [Some(2441.3), Some(406.5), None, Some(402.9), Some(1272.2)]),
    (512, [Some(2811.4), Some(399.7), None, Some(329.8), Some(1565.3)]),
];

const NAMES: [&str; 5] =
    ["classical", "pseudo-Mersenne", "generic GM (solinas)", "hard-coded GM (nist)", "Montgomery"];

/// The primes of one size: a pseudo-Mersenne prime of Table 1 and the GM prime of
/// Table 2 (or NIST) when there is one.
fn primes(bits: u32) -> (Nat, Option<Nat>) {
    let c = match bits {
        521 => 1,
        _ => TABLE_1.iter().find(|(n, _)| *n == bits as u64).map_or(1, |(_, cs)| cs[0]),
    };
    let pm = &Nat::power_of_two(bits as u64) - &Nat::from(c);
    let gm = NistPrime::ALL.iter().find(|p| p.bits() == bits).map(|p| p.modulus());
    (pm, gm)
}

/// A reducer timed at one size, with its modulus (`None`: no prime of that form).
type Timed = Option<(Box<dyn Reducer<u64>>, Nat)>;

/// Measured ratios to Montgomery (on the pseudo-Mersenne prime) of one size.
struct Measured {
    bits: u32,
    ratio: [Option<f64>; 5],
    montgomery_ns: f64,
}

fn measure(ctx: &Context, reduce_only: bool) -> Result<Vec<Measured>, String> {
    let mut rows = Vec::new();
    for bits in [192u32, 224, 256, 320, 384, 448, 512, 521] {
        let what = format!(
            "paper 003, {}: {bits} bits",
            if reduce_only { "reduction" } else { "modular multiplication" }
        );
        ctx.progress(&what);
        let (pm, gm) = primes(bits);
        let reducers: Vec<Timed> = vec![
            Some((make(Algorithm::Classical, &pm).map_err(|e| e.to_string())?, pm.clone())),
            Some((make(Algorithm::PseudoMersenne, &pm).map_err(|e| e.to_string())?, pm.clone())),
            gm.as_ref()
                .filter(|q| SolinasPoly::find(*q).is_some())
                .map(|q| (make(Algorithm::Solinas, q).expect("GM prime"), q.clone())),
            gm.as_ref().map(|q| (make(Algorithm::Nist, q).expect("NIST prime"), q.clone())),
            Some((make(Algorithm::Montgomery, &pm).map_err(|e| e.to_string())?, pm.clone())),
        ];
        let mut rng = SplitMix64::new(0x0003_0000 ^ bits as u64);
        // Inputs per reducer: 16 pairs of residues and their products; checked first.
        let mut inputs = Vec::new();
        for (r, m) in reducers.iter().flatten() {
            let k = r.width();
            let mut v = Vec::new();
            for _ in 0..16 {
                let (a, b): (Nat, Nat) = (rng.below(m), rng.below(m));
                let (ra, rb) = (r.to_residue(&a), r.to_residue(&b));
                let prod = a.mul(&b).to_padded(2 * k).expect("product fits");
                let mut out = vec![0u64; k];
                r.mul(&mut out, &ra, &rb, &mut Scratch::new());
                let want = a.mul(&b).checked_rem(m).expect("m > 0");
                if r.from_residue(&out) != want {
                    return Err(format!("{what}: {} gave a wrong product", r.algorithm()));
                }
                v.push((ra, rb, prod));
            }
            inputs.push(v);
        }
        let present: Vec<usize> =
            reducers.iter().enumerate().filter(|(_, r)| r.is_some()).map(|(i, _)| i).collect();
        let mut outs: Vec<Vec<u64>> =
            reducers.iter().flatten().map(|(r, _)| vec![0u64; r.width()]).collect();
        let mut cands: Vec<Candidate> = Vec::new();
        for (((r, _), inp), out) in reducers.iter().flatten().zip(&inputs).zip(outs.iter_mut()) {
            let r = &**r;
            let mut i = 0usize;
            let mut s = Scratch::new();
            cands.push(Candidate::new(move || {
                let (a, b, p) = &inp[i % 16];
                i += 1;
                if reduce_only {
                    r.reduce_raw(out, black_box(p), &mut s);
                } else {
                    r.mul(out, black_box(a), black_box(b), &mut s);
                }
                black_box(&out);
            }));
        }
        let t = compare(&ctx.short_ops, &mut cands);
        let mont = t.last().expect("montgomery timed");
        let mut ratio = [None; 5];
        for (j, &i) in present.iter().enumerate() {
            ratio[i] = Some(t[j].ratio_to(mont));
        }
        rows.push(Measured { bits, ratio, montgomery_ns: mont.ns });
    }
    Ok(rows)
}

fn paper_ratio(rows: &[PaperRow], bits: u32, j: usize) -> Option<f64> {
    let (_, r) = rows.iter().find(|(b, _)| *b == bits)?;
    Some(r[j]? / r[4]?)
}

fn timing_table(rows: &[Measured], pentium: &[PaperRow], alpha: &[PaperRow]) -> (String, Table) {
    let mut md = Table::new(&[
        "bits",
        "algorithm",
        "here (ratio to Montgomery)",
        "Pentium (paper)",
        "Alpha (paper)",
    ]);
    let mut csv = Table::new(&[
        "bits",
        "algorithm",
        "ratio",
        "paper_pentium_ratio",
        "paper_alpha_ratio",
        "montgomery_ns",
    ]);
    for r in rows {
        for (j, name) in NAMES.iter().enumerate() {
            let cells = |d| {
                vec![
                    Cell::Int(r.bits as i64),
                    Cell::text(*name),
                    Cell::num(r.ratio[j], d),
                    Cell::num(paper_ratio(pentium, r.bits, j), d),
                    Cell::num(paper_ratio(alpha, r.bits, j), d),
                ]
            };
            if r.ratio[j].is_none() && paper_ratio(pentium, r.bits, j).is_none() {
                continue;
            }
            md.push(cells(2));
            let mut c = cells(4);
            c.push(Cell::Num(r.montgomery_ns, 1));
            csv.push(c);
        }
    }
    (md.markdown(), csv)
}

/// Measures everything and builds the page.
pub fn run(ctx: &Context) -> Result<Section, String> {
    let mut md = String::from(
        "# Paper 003 — Modular multiplication using special prime moduli\n\n\
         M. Taschwer compares classical and Montgomery reduction with the reductions for \
         pseudo-Mersenne primes 2^n − c (Algorithms 3 and 4) and generalized Mersenne \
         (Solinas) primes f(b) — generic through the reduction matrix (Algorithms 5–7) and \
         hard-coded per prime — on a 200 MHz Pentium (32-bit) and a 600 MHz Alpha 21164 \
         (64-bit), at 192–512 bits. Here: modred's `classical`, `montgomery`, \
         `pseudo-mersenne`, `solinas` and `nist` with 64-bit digits.\n\n",
    );
    // Table 1.
    ctx.progress("paper 003, table 1: pseudo-Mersenne search");
    let mut t1 = Table::new(&["n", "c (this search)", "agrees with the paper"]);
    let mut t1csv = Table::new(&["n", "c", "paper_c", "agrees"]);
    for &(n, paper_c) in TABLE_1 {
        let cs = modred::primes::pseudo_mersenne_c(n, 1024).map_err(|e| e.to_string())?;
        let list = cs.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        let plist = paper_c.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        let agrees = cs == paper_c;
        t1.push(vec![
            Cell::Int(n as i64),
            Cell::text(list.clone()),
            Cell::text(if agrees { "yes" } else { "NO" }),
        ]);
        t1csv.push(vec![
            Cell::Int(n as i64),
            Cell::text(list.replace(", ", " ")),
            Cell::text(plist),
            Cell::text(agrees.to_string()),
        ]);
    }
    md.push_str("## Table 1 — pseudo-Mersenne primes 2^n − c, c < 1024, by search\n\n");
    md.push_str("Every c < 1024 with 2^n − c prime (Miller–Rabin with 32 bases: 12 fixed, 20 from a fixed seed), found by `modred special-primes`.\n\n");
    md.push_str(&t1.markdown());
    md.push_str("\nData: [paper003_table1.csv](paper003_table1.csv).\n\n");
    // Table 2.
    let mut t2 = Table::new(&[
        "f(t)",
        "b",
        "w_a (computed)",
        "w_s (computed)",
        "w_a (paper)",
        "w_s (paper)",
    ]);
    let mut t2csv = Table::new(&[
        "poly",
        "word_bits",
        "add_weight",
        "sub_weight",
        "paper_add_weight",
        "paper_sub_weight",
    ]);
    for &(f, w, wa, ws) in TABLE_2 {
        let p = SolinasPoly::parse(f, w).map_err(|e| e.to_string())?;
        let row = |d: bool| {
            vec![
                Cell::text(f),
                Cell::text(if d { format!("2^{w}") } else { w.to_string() }),
                Cell::Int(p.add_weight() as i64),
                Cell::Int(p.sub_weight() as i64),
                Cell::Int(wa as i64),
                Cell::Int(ws as i64),
            ]
        };
        t2.push(row(true));
        t2csv.push(row(false));
    }
    md.push_str("## Table 2 — generalized Mersenne primes and their reduction weights\n\n");
    md.push_str("w_a and w_s are the largest column sums of the positive and negative parts of the reduction matrix X_f (eqs. 6.3–6.9), computed by `modred solinas-weights`.\n\n");
    md.push_str(&t2.markdown());
    md.push_str("\nData: [paper003_table2.csv](paper003_table2.csv).\n\n");
    // Tables 3–6.
    let mul = measure(ctx, false)?;
    let red = measure(ctx, true)?;
    let (mul_md, mul_csv) = timing_table(&mul, T3_PENTIUM_MUL, T4_ALPHA_MUL);
    let (red_md, red_csv) = timing_table(&red, T5_PENTIUM_RED, T6_ALPHA_RED);
    let note = "Times are ratios to Montgomery (separated multiply-then-reduce, `Reducer::mul`) on the pseudo-Mersenne prime of the same size, measured interleaved in this run; the paper's columns are its clock cycles divided by its Montgomery figure of the same size and platform. Classical, pseudo-Mersenne and Montgomery run on the first pseudo-Mersenne prime of Table 1 (2^521 − 1 at 521 bits); generic and hard-coded GM on the Table 2 / NIST prime of that size. 320 bits has no GM prime.";
    md.push_str("## Tables 3 and 4 — modular multiplication\n\n");
    md.push_str(note);
    md.push_str("\n\n");
    md.push_str(&mul_md);
    md.push_str(&ctx.figure(&ratio_figure(
        "paper003_mulmod",
        "Tables 3 and 4: modular multiplication",
        &mul,
    ))?);
    md.push_str("\nData: [paper003_mulmod.csv](paper003_mulmod.csv).\n\n");
    md.push_str("## Tables 5 and 6 — modular reduction alone\n\n");
    md.push_str("The reduction of the double-length product of two residues, ratios as above.\n\n");
    md.push_str(&red_md);
    md.push_str(&ctx.figure(&ratio_figure(
        "paper003_reduce",
        "Tables 5 and 6: reduction alone",
        &red,
    ))?);
    md.push_str("\nData: [paper003_reduce.csv](paper003_reduce.csv).\n");
    Ok(Section {
        file: "paper003.md".to_string(),
        title: "Paper 003 — Modular multiplication using special prime moduli".to_string(),
        summary: "pseudo-Mersenne and generalized Mersenne primes: Table 1 by search, Table 2's \
                  weights, multiplication and reduction times (Tables 3–6) as ratios to Montgomery"
            .to_string(),
        markdown: md,
        csv: vec![
            ("paper003_table1.csv".to_string(), t1csv.csv()),
            ("paper003_table2.csv".to_string(), t2csv.csv()),
            ("paper003_mulmod.csv".to_string(), mul_csv.csv()),
            ("paper003_reduce.csv".to_string(), red_csv.csv()),
        ],
    })
}

/// Tables 3–6 as curves: each algorithm's time relative to Montgomery against the size.
fn ratio_figure(file: &str, title: &str, rows: &[Measured]) -> Figure {
    let mut f = Figure::new(file, &format!("{title}, time relative to Montgomery (b = 2^64)"))
        .x("modulus bits", Scale::Linear)
        .y("time / Montgomery's", Scale::Linear)
        .reference("Montgomery", 1.0);
    for (j, name) in NAMES.iter().enumerate().take(4) {
        f = f.series(name, rows.iter().filter_map(|r| r.ratio[j].map(|v| (r.bits as f64, v))));
    }
    f
}
