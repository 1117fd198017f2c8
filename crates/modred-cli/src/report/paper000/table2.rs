//! Table 2: the time of each reduction of a 2k-digit argument relative to a k×k
//! multiplication, at b = 2^64 and at the paper's b = 2^16.

use super::check::{multiplication, reductions, Trio};
use super::{paper, Part};
use crate::report::plot::{Figure, Scale, BARS_RATIOS};
use crate::report::rng::{digits, nat, SplitMix64};
use crate::report::table::{ratio_range, Cell, Table};
use crate::report::Context;
use modred::{Limb, Nat};
use modred_testkit::timing::{compare, Timing};

/// Arguments per size; reductions cycle through them.
const ARGS: usize = 16;

/// One size: digit bits, modulus bits, digits, and the times of classical, Barrett,
/// Montgomery and the multiplication.
pub struct Row {
    pub digit_bits: u32,
    pub bits: u32,
    pub k: usize,
    pub t: [Timing; 4],
}

impl Row {
    /// Time of reducer `j` relative to the multiplication.
    pub fn ratio(&self, j: usize) -> f64 {
        self.t[j].ratio_to(&self.t[3])
    }
}

/// Measures every size at both radices.
pub fn measure(ctx: &Context) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for bits in [128, 256, 512, 768, 1024, 2048, 4096] {
        rows.push(measure_one::<u64>(ctx, bits)?);
    }
    for bits in [128, 256, 512, 768, 1024] {
        rows.push(measure_one::<u16>(ctx, bits)?);
    }
    Ok(rows)
}

fn measure_one<L: Limb>(ctx: &Context, bits: u32) -> Result<Row, String> {
    let what = format!("paper 000, table 2: b = 2^{}, {bits}-bit modulus", L::BITS);
    ctx.progress(&what);
    let mut rng = SplitMix64::new(0x7ab1_e200 ^ bits as u64);
    let m: Nat<L> = nat(rng.odd_modulus(bits as u64));
    let k = m.len();
    let trio = Trio::new(&m)?;
    let pairs: Vec<(Vec<L>, Vec<L>)> = (0..ARGS)
        .map(|_| {
            let a = nat(rng.below(&digits(&m))).to_padded(k).expect("below m");
            let b = nat(rng.below(&digits(&m))).to_padded(k).expect("below m");
            (a, b)
        })
        .collect();
    let args: Vec<Vec<L>> = pairs
        .iter()
        .map(|(a, b)| {
            let mut p = vec![L::ZERO; 2 * k];
            modred::nat::mul_into(&mut p, a, b);
            p
        })
        .collect();
    trio.check(&args, &what)?;
    let mut cands = reductions(&trio, &args);
    cands.push(multiplication(&pairs));
    let t = compare(&ctx.short_ops, &mut cands).try_into().expect("four candidates");
    Ok(Row { digit_bits: L::BITS, bits, k, t })
}

/// The Markdown part and its CSV.
pub fn part(rows: &[Row]) -> Part {
    let mut md = Table::new(&[
        "b",
        "bits",
        "k",
        "classical",
        "1993",
        "barrett",
        "1993",
        "montgomery",
        "1993",
        "k×k product (ns)",
    ]);
    let mut csv = Table::new(&[
        "digit_bits",
        "bits",
        "k",
        "classical_ns",
        "barrett_ns",
        "montgomery_ns",
        "multiplication_ns",
        "classical_ratio",
        "barrett_ratio",
        "montgomery_ratio",
        "paper_classical_ratio",
        "paper_barrett_ratio",
        "paper_montgomery_ratio",
        "classical_median_ns",
        "barrett_median_ns",
        "montgomery_median_ns",
        "multiplication_median_ns",
    ]);
    for r in rows {
        let p = paper::table2_ratios(r.bits).filter(|_| r.digit_bits == 16);
        let mut cells = vec![
            Cell::text(format!("2^{}", r.digit_bits)),
            Cell::Int(r.bits as i64),
            Cell::Int(r.k as i64),
        ];
        for j in 0..3 {
            cells.push(Cell::ratio(&r.t[j], &r.t[3], 2));
            cells.push(Cell::num(p.map(|p| p[j]), 2));
        }
        cells.push(Cell::Num(r.t[3].ns, 1));
        md.push(cells);
        let mut c =
            vec![Cell::Int(r.digit_bits as i64), Cell::Int(r.bits as i64), Cell::Int(r.k as i64)];
        c.extend(r.t.iter().map(|t| Cell::Num(t.ns, 1)));
        c.extend((0..3).map(|j| Cell::Num(r.ratio(j), 3)));
        c.extend((0..3).map(|j| Cell::num(p.map(|p| p[j]), 3)));
        c.extend(r.t.iter().map(|t| Cell::Num(t.median_ns, 1)));
        csv.push(c);
    }
    let intro = "Time to reduce a 2k-digit argument (the product of two random residues) \
                 modulo a random odd k-digit modulus, relative to the time of one k×k-digit \
                 multiplication (the library's product, as used by every reducer's `mul`), \
                 both measured interleaved in this run. The 1993 ratios are computed from \
                 the paper's Table 2 (milliseconds on a 33 MHz 80386, b = 2^16); they sit \
                 in the b = 2^16 rows, which use the paper's digit size. A ratio is the \
                 median of the per-round ratios of the run (the CSV file has every time), \
                 shown with their range (min–max) in parentheses; † marks a range that \
                 contains 1 (the run does not settle which is faster), ‡ a ratio more than \
                 10% away from the quotient of the two minimum times.";
    Part {
        heading: "Table 2 — reduction time relative to a multiplication".to_string(),
        body: format!("{intro}\n\n{}\n{}\n", md.markdown(), text(rows)),
        csv: vec![("paper000_table2.csv".to_string(), csv)],
        figures: [64, 16].iter().map(|&d| figure(rows, d)).collect(),
    }
}

/// Reduction time relative to the multiplication against the modulus size, at one digit
/// size; at b = 2^16 with the paper's ratios beside (dashed).
fn figure(rows: &[Row], digit_bits: u32) -> Figure {
    let rs: Vec<&Row> = rows.iter().filter(|r| r.digit_bits == digit_bits).collect();
    let mut f = Figure::new(
        &format!("paper000_table2_b{digit_bits}"),
        &format!("Table 2: reduction time / k×k multiplication time, b = 2^{digit_bits}"),
    )
    .x("modulus bits", Scale::Log2)
    .y("reduction / multiplication", Scale::Linear)
    .reference("one multiplication", 1.0)
    .bars(BARS_RATIOS);
    for (j, name) in ["classical", "barrett", "montgomery"].iter().enumerate() {
        let pts = rs.iter().map(|r| (r.bits as f64, r.ratio(j), ratio_range(&r.t[j], &r.t[3])));
        f = f.series_bars(name, pts);
    }
    if digit_bits == 16 {
        for (j, name) in ["classical, 1993", "barrett, 1993", "montgomery, 1993"].iter().enumerate()
        {
            f = f.published(name, paper::TABLE2_MS.iter().map(|(b, t)| (*b as f64, t[j] / t[3])));
        }
    }
    f
}

/// What agrees with 1993 and what differs, from the measured ratios.
fn text(rows: &[Row]) -> String {
    let mut s = String::new();
    for digit_bits in [64, 16] {
        let rs: Vec<&Row> = rows.iter().filter(|r| r.digit_bits == digit_bits).collect();
        if rs.is_empty() {
            continue;
        }
        let range = |j: usize| {
            let (lo, hi) = rs
                .iter()
                .fold((f64::MAX, 0.0f64), |(lo, hi), r| (lo.min(r.ratio(j)), hi.max(r.ratio(j))));
            format!("{lo:.2}–{hi:.2}")
        };
        let mont_fastest = rs.iter().filter(|r| r.ratio(2) < r.ratio(0).min(r.ratio(1))).count();
        let barrett_ahead: Vec<bool> = rs.iter().map(|r| r.ratio(1) < r.ratio(0)).collect();
        s.push_str(&format!(
            "At b = 2^{digit_bits} ({}–{} bits) a reduction costs {} multiplications with \
             Montgomery's algorithm, {} with Barrett's and {} with the classical one. \
             Montgomery is the fastest at {} of {} sizes; Barrett beats classical {}.\n\n",
            rs[0].bits,
            rs[rs.len() - 1].bits,
            range(2),
            range(1),
            range(0),
            mont_fastest,
            rs.len(),
            where_true(&rs, &barrett_ahead),
        ));
    }
    s.push_str(
        "1993 (b = 2^16): Montgomery 1.02–1.13, Barrett 1.12–1.71, classical 1.25–1.53 \
         multiplications; Montgomery fastest at every size, Barrett ahead of classical from \
         512 bits on, all three approaching one multiplication as k grows. ",
    );
    let at = |bits: u32| rows.iter().find(|r| r.digit_bits == 16 && r.bits == bits);
    if let (Some(r), Some(p)) = (at(1024), paper::table2_ratios(1024)) {
        let b16: Vec<&Row> = rows.iter().filter(|row| row.digit_bits == 16).collect();
        let ranking = b16.iter().all(|row| {
            row.ratio(2) < row.ratio(0).min(row.ratio(1))
                && (row.bits < 512 || row.ratio(1) < row.ratio(0))
        });
        let trend = b16.first().is_some_and(|first| (0..3).all(|j| r.ratio(j) < first.ratio(j)));
        let verdict = match (ranking, trend) {
            (true, true) => "The ranking and the downward trend agree",
            (true, false) => "The ranking agrees but not every ratio falls with k",
            (false, true) => "The downward trend agrees but the ranking differs in places",
            (false, false) => "Neither the ranking nor the trend fully agrees",
        };
        s.push_str(&format!(
            "{verdict}; the size of the gaps does not. At 1024 bits and \
             b = 2^16 we measure {:.2} / {:.2} / {:.2} (classical / Barrett / Montgomery) \
             against 1993's {:.2} / {:.2} / {:.2}. ",
            r.ratio(0),
            r.ratio(1),
            r.ratio(2),
            p[0],
            p[1],
            p[2]
        ));
        if r.ratio(0) > p[0] + 0.2 {
            s.push_str(
                "The classical algorithm suffers most, although Table 1 shows it performing \
                 almost the same number of digit multiplications as Montgomery's (k(k + 2) \
                 against k(k + 1), plus k divisions). The difference is most likely in how \
                 the work runs on a modern out-of-order core: a classical step cannot start \
                 before the previous one has finished — its quotient digit needs the top \
                 digits of the previous step's result (the end of its carry chain) and then \
                 a division — whereas a Montgomery step needs only the lowest digit of the \
                 previous one, so consecutive steps overlap. The 80386 ran one instruction \
                 at a time, and there only the operation counts mattered. ",
            );
        }
    }
    let smallest: Vec<&Row> =
        [64, 16].iter().filter_map(|&d| rows.iter().find(|r| r.digit_bits == d)).collect();
    let barrett_worst = smallest.iter().all(|r| r.ratio(1) > r.ratio(0).max(r.ratio(2)));
    s.push_str(&format!(
        "At the smallest sizes every reducer's fixed costs per call (bounds, buffer set-up, \
         final corrections) weigh heavily against a product of a few digits{}",
        if barrett_worst { ", Barrett's most (as in 1993)." } else { "." }
    ));
    let kt = modred::nat::KARATSUBA_THRESHOLD;
    let karatsuba: Vec<String> = [64, 16]
        .iter()
        .filter_map(|&d| {
            let bits: Vec<String> = rows
                .iter()
                .filter(|r| r.digit_bits == d && r.k >= kt)
                .map(|r| r.bits.to_string())
                .collect();
            (!bits.is_empty()).then(|| format!("{} bits at b = 2^{d}", bits.join(", ")))
        })
        .collect();
    if !karatsuba.is_empty() {
        s.push_str(&format!(
            " From k = {kt} digits on ({}) the library's product is Karatsuba's, \
             cheaper than the paper's schoolbook reference, while the reductions stay \
             quadratic: there our ratios are, if anything, pessimistic.",
            karatsuba.join("; ")
        ));
    }
    s.push('\n');
    s
}

/// "at every size", "at no size", "from 512 bits on" or "at 128, 512 bits".
fn where_true(rs: &[&Row], flags: &[bool]) -> String {
    if flags.iter().all(|&f| f) {
        return "at every size".to_string();
    }
    if !flags.iter().any(|&f| f) {
        return "at no size".to_string();
    }
    let first = flags.iter().position(|&f| f).expect("some flag is set");
    if flags[first..].iter().all(|&f| f) {
        return format!("from {} bits on", rs[first].bits);
    }
    let sizes: Vec<String> =
        rs.iter().zip(flags).filter(|(_, &f)| f).map(|(r, _)| r.bits.to_string()).collect();
    format!("at {} bits", sizes.join(", "))
}
