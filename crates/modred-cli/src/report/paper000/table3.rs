//! Table 3: full-length modular exponentiation (base, exponent and modulus of one length)
//! with each reducer, by the paper's 16-ary method and by the library's default method.

use super::{paper, Part};
use crate::report::anchors;
use crate::report::plot::{Figure, Scale, BARS_RATIOS, BARS_ROUNDS};
use crate::report::rng::{digits, nat, SplitMix64};
use crate::report::table::{ratio_range, scaled, time_range, Cell, Table};
use crate::report::{Context, Mode};
use modred::exp::{self, Method};
use modred::reduce::{Barrett, Classical, Montgomery, MontgomeryInterleaved};
use modred::{Limb, Nat, Reducer};
use modred_testkit::timing::{compare, Candidate, Timing};
use std::hint::black_box;

/// Times are in the order classical, Barrett, Montgomery, Montgomery interleaved; ratios
/// are to Montgomery's.
const MONTGOMERY: usize = 2;

/// One size at one radix: times with the 16-ary method and with the default method, per
/// reducer, and the default method used.
pub struct Row {
    pub digit_bits: u32,
    pub bits: u32,
    pub fixed: [Timing; 4],
    pub default: [Timing; 4],
    pub default_method: Method,
    /// GMP and OpenSSL (b = 2^64, with the `anchors` feature), timed with the others.
    pub anchors: Vec<(&'static str, Timing)>,
}

impl Row {
    fn ratio(t: &[Timing; 4], j: usize) -> f64 {
        t[j].ratio_to(&t[MONTGOMERY])
    }
}

/// The paper's method: the 16-ary fixed window.
pub(super) const PAPER_METHOD: Method = Method::FixedWindow(4);

/// Measures every size at b = 2^64, then the paper's sizes at b = 2^16.
pub fn measure(ctx: &Context) -> Result<Vec<Row>, String> {
    let mut sizes64 = vec![128, 256, 512, 768, 1024, 2048];
    if ctx.mode == Mode::Full {
        sizes64.push(4096);
    }
    let mut rows = Vec::new();
    for bits in sizes64 {
        rows.push(measure_one::<u64>(ctx, bits)?);
    }
    for bits in [128, 256, 512, 768, 1024] {
        rows.push(measure_one::<u16>(ctx, bits)?);
    }
    Ok(rows)
}

/// A candidate computing `base^e mod m` from and to the standard representation:
/// conversion into the reducer's residues, exponentiation, conversion back (the
/// precalculation, which depends only on m, is done once outside).
pub(super) fn candidate<'a, L: Limb, R: Reducer<L>>(
    r: &'a R,
    base: &'a Nat<L>,
    e: &'a Nat<L>,
    method: Method,
) -> Candidate<'a> {
    Candidate::new(move || {
        let b = r.to_residue(black_box(base));
        let p = exp::pow_vartime(r, &b, black_box(e), method).expect("checked before timing");
        black_box(r.from_residue(&p));
    })
}

fn measure_one<L: Limb>(ctx: &Context, bits: u32) -> Result<Row, String> {
    let what = format!("paper 000, table 3: b = 2^{}, {bits}-bit exponentiation", L::BITS);
    ctx.progress(&what);
    let mut rng = SplitMix64::new(0x7ab1_e300 ^ bits as u64);
    let m: Nat<L> = nat(rng.odd_modulus(bits as u64));
    let base = nat(rng.below(&digits(&m)));
    let e: Nat<L> = nat(rng.exact_bits(bits as u64));
    let err = |e: modred::Error| format!("{what}: {e}");
    let classical = Classical::new(&m).map_err(err)?;
    let barrett = Barrett::new(&m).map_err(err)?;
    let montgomery = Montgomery::new(&m).map_err(err)?;
    let interleaved = MontgomeryInterleaved::new(&m).map_err(err)?;
    let default_method = exp::default_method(e.bits());

    // Every reducer and method must give the same power.
    let all: [&dyn Reducer<L>; 4] = [&classical, &barrett, &montgomery, &interleaved];
    let mut results = Vec::new();
    for r in all {
        for method in [PAPER_METHOD, default_method] {
            let p = exp::pow_vartime(r, &r.to_residue(&base), &e, method).map_err(err)?;
            results.push((r.algorithm().name(), method, r.from_residue(&p)));
        }
    }
    if let Some((name, method, v)) = results.iter().find(|(_, _, v)| *v != results[0].2) {
        return Err(format!(
            "{what}: {name} with {method:?} computed {} but classical with {:?} computed {} \
             (base {}, exponent {}, modulus {})",
            v.to_hex(),
            results[0].1,
            results[0].2.to_hex(),
            base.to_hex(),
            e.to_hex(),
            m.to_hex()
        ));
    }
    if results[0].2 >= m {
        return Err(format!("{what}: the power is not reduced"));
    }

    let mut cands = Vec::new();
    for method in [PAPER_METHOD, default_method] {
        cands.push(candidate(&classical, &base, &e, method));
        cands.push(candidate(&barrett, &base, &e, method));
        cands.push(candidate(&montgomery, &base, &e, method));
        cands.push(candidate(&interleaved, &base, &e, method));
    }
    let anchors = if L::BITS == 64 {
        let n = |x: &Nat<L>| x.to_radix::<u64>();
        anchors::powm(&n(&base), &n(&e), &n(&m), &n(&results[0].2))
            .map_err(|e| format!("{what}: {e}"))?
    } else {
        Vec::new()
    };
    let names: Vec<&'static str> = anchors.iter().map(|a| a.0).collect();
    cands.extend(anchors.into_iter().map(|a| a.1));
    let mut t = compare(&ctx.long_ops, &mut cands);
    let anchors = names.into_iter().zip(t.split_off(8)).collect();
    let default = t.split_off(4).try_into().expect("four candidates");
    let fixed = t.try_into().expect("four candidates");
    Ok(Row { digit_bits: L::BITS, bits, fixed, default, default_method, anchors })
}

fn method_name(m: Method) -> String {
    match m {
        Method::Binary => "binary".to_string(),
        Method::FixedWindow(w) => format!("fixed window, w = {w}"),
        Method::SlidingWindow(w) => format!("sliding window, w = {w}"),
    }
}

pub fn part(rows: &[Row]) -> Part {
    let mut fixed = Table::new(&[
        "b",
        "bits",
        "classical / montgomery",
        "1993",
        "barrett / montgomery",
        "1993",
        "interleaved / montgomery",
        "montgomery (ms)",
    ]);
    let anchor_names: Vec<&str> = rows
        .iter()
        .find(|r| !r.anchors.is_empty())
        .map_or(Vec::new(), |r| r.anchors.iter().map(|a| a.0).collect());
    let anchor_headers: Vec<String> =
        anchor_names.iter().map(|n| format!("montgomery / {n}")).collect();
    let mut header = vec![
        "b",
        "bits",
        "default method",
        "classical / montgomery",
        "barrett / montgomery",
        "interleaved / montgomery",
        "montgomery (ms)",
        "saved vs 16-ary",
    ];
    header.extend(anchor_headers.iter().map(String::as_str));
    let mut default = Table::new(&header);
    let mut anchors_csv = Table::new(&["bits", "library", "ms", "montgomery_over_library"]);
    let mut csv = Table::new(&[
        "digit_bits",
        "bits",
        "method",
        "classical_ms",
        "barrett_ms",
        "montgomery_ms",
        "montgomery_interleaved_ms",
        "classical_ratio",
        "barrett_ratio",
        "montgomery_interleaved_ratio",
        "paper_classical_ratio",
        "paper_barrett_ratio",
    ]);
    for r in rows {
        let p = paper::table3_ratios(r.bits).filter(|_| r.digit_bits == 16);
        let b = Cell::text(format!("2^{}", r.digit_bits));
        fixed.push(vec![
            b.clone(),
            Cell::Int(r.bits as i64),
            Cell::ratio(&r.fixed[0], &r.fixed[MONTGOMERY], 2),
            Cell::num(p.map(|p| p[0]), 2),
            Cell::ratio(&r.fixed[1], &r.fixed[MONTGOMERY], 2),
            Cell::num(p.map(|p| p[1]), 2),
            Cell::ratio(&r.fixed[3], &r.fixed[MONTGOMERY], 2),
            Cell::Num(r.fixed[MONTGOMERY].ns / 1e6, 3),
        ]);
        let mut cells = vec![
            b,
            Cell::Int(r.bits as i64),
            Cell::text(method_name(r.default_method)),
            Cell::ratio(&r.default[0], &r.default[MONTGOMERY], 2),
            Cell::ratio(&r.default[1], &r.default[MONTGOMERY], 2),
            Cell::ratio(&r.default[3], &r.default[MONTGOMERY], 2),
            Cell::Num(r.default[MONTGOMERY].ns / 1e6, 3),
            Cell::text(format!(
                "{:.0} %",
                100.0 * (1.0 - r.default[MONTGOMERY].ratio_to(&r.fixed[MONTGOMERY]))
            )),
        ];
        for name in &anchor_names {
            let t = r.anchors.iter().find(|a| a.0 == *name);
            cells.push(t.map_or(Cell::Empty, |a| Cell::ratio(&r.default[MONTGOMERY], &a.1, 2)));
        }
        default.push(cells);
        for (name, t) in &r.anchors {
            anchors_csv.push(vec![
                Cell::Int(r.bits as i64),
                Cell::text(*name),
                Cell::Num(t.ns / 1e6, 4),
                Cell::Num(r.default[MONTGOMERY].ratio_to(t), 4),
            ]);
        }
        for (method, t, p) in [(PAPER_METHOD, &r.fixed, p), (r.default_method, &r.default, None)] {
            let mut c = vec![
                Cell::Int(r.digit_bits as i64),
                Cell::Int(r.bits as i64),
                Cell::text(method_name(method)),
            ];
            c.extend(t.iter().map(|t| Cell::Num(t.ns / 1e6, 4)));
            c.extend([0, 1, 3].map(|j| Cell::Num(Row::ratio(t, j), 3)));
            c.extend([0, 1].map(|j| Cell::num(p.map(|p| p[j]), 3)));
            csv.push(c);
        }
    }
    let intro = "Time of a full-length modular exponentiation (base, exponent and modulus of \
                 the same length; a random odd modulus with its top bit set, a random base \
                 below it, a random exponent of full length), relative to the same \
                 exponentiation with Montgomery reduction, measured interleaved. Each time \
                 includes the conversion into the reducer's representation and back, not \
                 the precalculation. First with the paper's 16-ary fixed window (w = 4), \
                 then with the library's default method. `interleaved` is \
                 montgomery-interleaved: Montgomery multiplication with the reduction \
                 interleaved in the product (CIOS), which the paper does not have.";
    let anchors_text = if anchor_names.is_empty() {
        anchors::absent_note().trim_start().to_string()
    } else {
        "`montgomery / GMP` and `montgomery / OpenSSL` compare modred's Montgomery \
         exponentiation (default method) with GMP's `mpz_powm` and OpenSSL's \
         `BN_mod_exp_mont_consttime` on the same operands, timed interleaved with the \
         others: below 1 modred is faster. OpenSSL's is constant time, ours and GMP's are \
         not."
            .to_string()
    };
    let mut csv_files = vec![("paper000_table3.csv".to_string(), csv)];
    if !anchor_names.is_empty() {
        csv_files.push(("paper000_table3_anchors.csv".to_string(), anchors_csv));
    }
    Part {
        heading: "Table 3 — full-length modular exponentiation".to_string(),
        body: format!(
            "{intro} {}\n\n**16-ary fixed window (the paper's method)**\n\n{}\n\
             **The library's default method**\n\n{}\n{anchors_text}\n\n{}",
            crate::report::table::RATIO_NOTE,
            fixed.markdown(),
            default.markdown(),
            text(rows)
        ),
        csv: csv_files,
        figures: figures(rows),
    }
}

/// Exponentiation time per reducer against size (b = 2^64, default method, with GMP and
/// OpenSSL when built with them), and the 16-ary ratios at b = 2^16 beside 1993's.
fn figures(rows: &[Row]) -> Vec<Figure> {
    let r64: Vec<&Row> = rows.iter().filter(|r| r.digit_bits == 64).collect();
    let mut time = Figure::new(
        "paper000_table3_time",
        "Table 3: exponentiation time per reducer (b = 2^64, default method)",
    )
    .x("modulus bits (base and exponent as long)", Scale::Log2)
    .y("ms per exponentiation", Scale::Log10)
    .bars(BARS_ROUNDS);
    let ms = |t: &Timing| (t.ns / 1e6, scaled(time_range(t), 1e-6));
    for (j, name) in
        ["classical", "barrett", "montgomery", "montgomery-interleaved"].iter().enumerate()
    {
        let pts = r64.iter().map(|r| {
            let (y, bar) = ms(&r.default[j]);
            (r.bits as f64, y, bar)
        });
        time = time.series_bars(name, pts);
    }
    let names: Vec<&str> = r64.iter().flat_map(|r| r.anchors.iter().map(|a| a.0)).collect();
    for name in names.iter().enumerate().filter(|(i, n)| !names[..*i].contains(n)).map(|x| *x.1) {
        let pts = r64.iter().filter_map(|r| {
            r.anchors.iter().find(|a| a.0 == name).map(|a| {
                let (y, bar) = ms(&a.1);
                (r.bits as f64, y, bar)
            })
        });
        time = time.series_bars(name, pts);
    }
    let r16: Vec<&Row> = rows.iter().filter(|r| r.digit_bits == 16).collect();
    let mut ratio = Figure::new(
        "paper000_table3_ratio",
        "Table 3: time relative to Montgomery, 16-ary window, b = 2^16",
    )
    .x("modulus bits", Scale::Log2)
    .y("time / Montgomery's", Scale::Linear)
    .reference("Montgomery", 1.0)
    .bars(BARS_RATIOS);
    for (j, name) in ["classical", "barrett"].iter().enumerate() {
        let pts = r16.iter().map(|r| {
            (r.bits as f64, Row::ratio(&r.fixed, j), ratio_range(&r.fixed[j], &r.fixed[MONTGOMERY]))
        });
        ratio = ratio.series_bars(name, pts);
    }
    for (j, name) in ["classical, 1993", "barrett, 1993"].iter().enumerate() {
        let pts = paper::TABLE3_S.iter().map(|(b, t)| (*b as f64, t[j] / t[2]));
        ratio = ratio.published(name, pts);
    }
    vec![time, ratio]
}

fn text(rows: &[Row]) -> String {
    let mut s = String::new();
    let mut barrett_behind = Vec::new();
    let mut barrett_behind_bits = Vec::new();
    for digit_bits in [64, 16] {
        let rs: Vec<&Row> = rows.iter().filter(|r| r.digit_bits == digit_bits).collect();
        if rs.is_empty() {
            continue;
        }
        let range = |j: usize| {
            let (lo, hi) = rs.iter().fold((f64::MAX, 0.0f64), |(lo, hi), r| {
                let v = Row::ratio(&r.fixed, j);
                (lo.min(v), hi.max(v))
            });
            format!("{lo:.2}–{hi:.2}")
        };
        let mont_fastest =
            rs.iter().filter(|r| (0..2).all(|j| Row::ratio(&r.fixed, j) > 1.0)).count();
        for r in rs.iter().filter(|r| Row::ratio(&r.fixed, 1) >= Row::ratio(&r.fixed, 0)) {
            barrett_behind.push(format!("{} bits at b = 2^{digit_bits}", r.bits));
            barrett_behind_bits.push(r.bits);
        }
        let saved: Vec<f64> = rs
            .iter()
            .map(|r| 100.0 * (1.0 - r.default[MONTGOMERY].ratio_to(&r.fixed[MONTGOMERY])))
            .collect();
        let (lo, hi) = saved.iter().fold((f64::MAX, f64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
        let faster: Vec<String> = rs
            .iter()
            .filter(|r| Row::ratio(&r.fixed, 3) < 0.97)
            .map(|r| r.bits.to_string())
            .collect();
        let slower: Vec<String> = rs
            .iter()
            .filter(|r| Row::ratio(&r.fixed, 3) > 1.03)
            .map(|r| r.bits.to_string())
            .collect();
        let interleaved = match (faster.is_empty(), slower.is_empty()) {
            (true, true) => "is level with it (within 3 %) at every size".to_string(),
            (false, true) => format!("is faster at {} bits", faster.join(", ")),
            (true, false) => format!("is slower at {} bits", slower.join(", ")),
            (false, false) => format!(
                "is faster at {} bits and slower at {} bits",
                faster.join(", "),
                slower.join(", ")
            ),
        };
        s.push_str(&format!(
            "At b = 2^{digit_bits} with the 16-ary method, classical takes {} and Barrett {} \
             times Montgomery's time; Montgomery is the fastest of the paper's three at {} of \
             {} sizes. The interleaved form ({} of Montgomery's time) {interleaved}. The \
             default method saves {lo:.0} to {hi:.0} % of the 16-ary method's time with \
             Montgomery.\n\n",
            range(0),
            range(1),
            mont_fastest,
            rs.len(),
            range(3),
        ));
    }
    s.push_str(
        "1993 (b = 2^16): classical 1.14–1.17 and Barrett 1.06–1.26 times Montgomery, \
         Montgomery fastest at every size, Barrett second from 512 bits on (level with \
         classical at 256 bits, behind it at 128). ",
    );
    if barrett_behind.is_empty() {
        s.push_str(
            "The ranking agrees (Barrett second at every size here), and so does the trend of \
             Barrett closing in on Montgomery as the modulus grows. ",
        );
    } else {
        let why = if barrett_behind_bits.iter().all(|&b| b <= 256) {
            " — small sizes, where its fixed costs per reduction weigh most (Table 2)"
        } else {
            ""
        };
        s.push_str(&format!(
            "The ranking agrees except that Barrett is not ahead of classical at {}{why}; the \
             trend of Barrett closing in on Montgomery as the modulus grows agrees. ",
            barrett_behind.join(", ")
        ));
    }
    let classical_min = rows
        .iter()
        .filter(|r| r.digit_bits == 16)
        .map(|r| Row::ratio(&r.fixed, 0))
        .fold(f64::MAX, f64::min);
    if classical_min > 1.25 {
        s.push_str(
            "The classical gap is wider than in 1993, as Table 2 predicts: a modular \
             multiplication is one product (or square) and one reduction, the classical \
             reduction costs relatively more than it did, and it weighs more because the \
             library squares with about half the digit products of a multiplication (most \
             of an exponentiation is squarings). ",
        );
    }
    s.push_str(
        "`montgomery-interleaved` (CIOS) interleaves the reduction into a full multiplication, \
         so it squares by multiplying and cannot use the half-cost squaring or Karatsuba; \
         what it saves is the separate pass over a 2k-digit product, which matters most at \
         small sizes.\n",
    );
    s
}
