//! Tables 1 and 3: single-precision multiplications and additions of the window
//! multiplication and the squaring, ours (counted on `Counted<u16>`) beside the paper's
//! formulas, for Montgomery (the basic method with Montgomery's reduction) and hong.

use super::Part;
use crate::report::table::{Cell, Table};
use crate::report::Context;
use modred::Algorithm;
use modred_research::opcount::{self, Op};

/// The digit sizes k of the table (b = 2^16: 128 to 1024 bits).
const KS: [u32; 5] = [8, 16, 32, 48, 64];

/// Counts at one k: [hong window mul, Montgomery mul, product, hong sqr, Montgomery sqr,
/// table construction] as (multiplications, additions).
pub struct Row {
    pub k: u32,
    pub c: [(u64, u64); 6],
}

pub fn measure(ctx: &Context) -> Result<Vec<Row>, String> {
    ctx.progress("paper 002, tables 1 and 3: operation counts at b = 2^16");
    let e = |e: modred::Error| e.to_string();
    KS.iter()
        .map(|&k| {
            let bits = 16 * k;
            let pair = |c: modred::limb::OpCounts| (c.mul, c.add);
            Ok(Row {
                k,
                c: [
                    pair(opcount::count(Algorithm::Hong, Op::MulMod, bits, 16).map_err(e)?),
                    pair(opcount::count(Algorithm::Montgomery, Op::MulMod, bits, 16).map_err(e)?),
                    pair(opcount::count_multiplication(bits, 16).map_err(e)?),
                    pair(opcount::count(Algorithm::Hong, Op::SqrMod, bits, 16).map_err(e)?),
                    pair(opcount::count(Algorithm::Montgomery, Op::SqrMod, bits, 16).map_err(e)?),
                    pair(opcount::count_hong_table(bits, 16).map_err(e)?),
                ],
            })
        })
        .collect()
}

/// The paper's Table 1 multiplications: Montgomery window mul, proposed, ordinary
/// product, Montgomery squaring, proposed squaring.
fn paper_muls(k: f64) -> [f64; 5] {
    [2.0 * k * k + k, k * k, k * k, 1.5 * (k * k + k), 0.5 * (k * k + k)]
}

/// The paper's Table 3 additions (the factor of r): Montgomery window mul, proposed,
/// Montgomery squaring, proposed squaring.
fn paper_adds(k: f64) -> [f64; 4] {
    [2.0 * k * k, k * k + 3.0 * (k + 1.0), 1.5 * k * k + k, 2.5 * (k * k + k)]
}

pub fn part1(rows: &[Row]) -> Part {
    let mut md = Table::new(&[
        "k",
        "bits",
        "window mul: montgomery",
        "paper 2k²+k",
        "hong",
        "paper k²",
        "product k²",
        "squaring: montgomery",
        "paper 3(k²+k)/2",
        "hong",
        "paper (k²+k)/2",
        "hong table build",
    ]);
    for r in rows {
        let p = paper_muls(r.k as f64);
        md.push(vec![
            Cell::Int(r.k as i64),
            Cell::Int(16 * r.k as i64),
            Cell::Int(r.c[1].0 as i64),
            Cell::Num(p[0], 0),
            Cell::Int(r.c[0].0 as i64),
            Cell::Num(p[1], 0),
            Cell::Int(r.c[2].0 as i64),
            Cell::Int(r.c[4].0 as i64),
            Cell::Num(p[3], 0),
            Cell::Int(r.c[3].0 as i64),
            Cell::Num(p[4], 0),
            Cell::Int(r.c[5].0 as i64),
        ]);
    }
    let exact = rows.iter().all(|r| {
        let k = r.k as u64;
        r.c[0].0 == k * k && r.c[3].0 == (k * k + k) / 2 && r.c[5].0 == 0
    });
    // Where Montgomery's counts follow the paper's formulas, and from where they fall
    // below them (the library's Karatsuba product and square).
    let split = |sqr: bool| {
        let exact = |r: &Row| {
            let k = r.k as u64;
            if sqr {
                r.c[4].0 == 3 * (k * k + k) / 2
            } else {
                r.c[1].0 == 2 * k * k + k
            }
        };
        let ks: Vec<String> = rows.iter().filter(|r| exact(r)).map(|r| r.k.to_string()).collect();
        let first_off = rows.iter().find(|r| !exact(r)).map(|r| r.k);
        (format!("for k = {}", ks.join(", ")), first_off)
    };
    let (mul_exact, mul_off) = split(false);
    let (sqr_exact, sqr_off) = split(true);
    let from = |k: Option<u32>| k.map_or("at no k here".to_string(), |k| format!("k = {k}"));
    let body = format!(
        "Single-precision multiplications counted by running the code on `Counted<u16>` \
         digits (b = 2^16, as the paper), random odd modulus of exactly 16k bits. \"Window \
         mul\" is a multiplication by a fixed operand (the paper's eq. 3): for hong the \
         window multiplication by an already built table (eq. 8), for Montgomery the product \
         and its reduction. The table build (eq. 9, `k` residues `b^j·A mod N`) is counted \
         separately, as the paper leaves it out of Table 1.\n\n{}\n\
         {} Montgomery's multiplication is the paper's 2k² + k {} and its squaring the \
         paper's 3(k² + k)/2 (the library's squaring, (k² + k)/2, and a k(k + 1) \
         reduction) {}; below them from {} (product) and {} (square) on, where the \
         library's product and square are Karatsuba's, with fewer than k² and \
         (k² + k)/2 multiplications — an advantage the paper's Montgomery did not have.\n\n\
         Memory (Table 1's last column, in operands of k digits): hong keeps one window \
         table of k operands per precomputed power (k·2^(w−1) for a sliding window of \
         width w) and the multiples of N (k·s in the paper, s = 256; ours are 2s = 512 \
         multiples of k + 1 digits, so that remainders may stay below 2N between steps), Montgomery the 2^(w−1) powers. See the memory table below for bytes.\n",
        md.markdown(),
        if exact {
            "Hong's counts are exactly the paper's: k² for the window multiplication, \
             (k² + k)/2 for the squaring, none for building a table."
        } else {
            "Hong's counts differ from the paper's formulas somewhere (see the table)."
        },
        mul_exact,
        sqr_exact,
        from(mul_off),
        from(sqr_off),
    );
    let mut csv = Table::new(&[
        "k",
        "bits",
        "hong_window_mul",
        "montgomery_mul",
        "product",
        "hong_sqr",
        "montgomery_sqr",
        "hong_table_build",
        "paper_montgomery_mul",
        "paper_hong_mul",
        "paper_montgomery_sqr",
        "paper_hong_sqr",
    ]);
    for r in rows {
        let p = paper_muls(r.k as f64);
        let mut c = vec![Cell::Int(r.k as i64), Cell::Int(16 * r.k as i64)];
        c.extend(r.c.iter().map(|x| Cell::Int(x.0 as i64)));
        c.extend([p[0], p[1], p[3], p[4]].iter().map(|&v| Cell::Num(v, 0)));
        csv.push(c);
    }
    Part {
        figures: Vec::new(),
        heading: "Table 1 — single-precision multiplications (b = 2^16)".to_string(),
        body,
        csv: vec![("paper002_table1.csv".to_string(), csv)],
    }
}

pub fn part3(rows: &[Row]) -> Part {
    let mut md = Table::new(&[
        "k",
        "window mul: montgomery",
        "paper 2k²",
        "hong",
        "paper k²+3(k+1)",
        "squaring: montgomery",
        "paper 3k²/2+k",
        "hong",
        "paper 5(k²+k)/2",
        "hong table build",
    ]);
    let mut csv = Table::new(&[
        "k",
        "montgomery_mul_add",
        "hong_mul_add",
        "montgomery_sqr_add",
        "hong_sqr_add",
        "hong_table_add",
        "paper_montgomery_mul_add",
        "paper_hong_mul_add",
        "paper_montgomery_sqr_add",
        "paper_hong_sqr_add",
    ]);
    for r in rows {
        let p = paper_adds(r.k as f64);
        md.push(vec![
            Cell::Int(r.k as i64),
            Cell::Int(r.c[1].1 as i64),
            Cell::Num(p[0], 0),
            Cell::Int(r.c[0].1 as i64),
            Cell::Num(p[1], 0),
            Cell::Int(r.c[4].1 as i64),
            Cell::Num(p[2], 0),
            Cell::Int(r.c[3].1 as i64),
            Cell::Num(p[3], 0),
            Cell::Int(r.c[5].1 as i64),
        ]);
        let mut c = vec![Cell::Int(r.k as i64)];
        c.extend([r.c[1].1, r.c[0].1, r.c[4].1, r.c[3].1, r.c[5].1].map(|v| Cell::Int(v as i64)));
        c.extend(p.iter().map(|&v| Cell::Num(v, 0)));
        csv.push(c);
    }
    let last = rows.last().expect("rows");
    let k = last.k as f64;
    let per_k2 = |v: u64| v as f64 / (k * k);
    let body = format!(
        "Single-precision additions and subtractions (with carry or borrow), counted as \
         above. Our counting digit counts a multiply-accumulate `a·b + c + d` as one \
         multiplication and **two** additions (the paper, judging by its Montgomery row, \
         counts one), so every k² multiply-accumulate loop shows 2k² here: compare the \
         ratios of the rows rather than the absolute figures.\n\n{}\n\
         At k = {}: hong's window multiplication makes {:.2}·k² additions (Montgomery's \
         {:.2}·k²), its squaring {:.2}·k² (Montgomery's {:.2}·k²). The squaring's extra \
         additions are eq. 13's subtractions of multiples of N: each of the ⌈k/2⌉ steps \
         reduces a (k+3)-digit sum by ⌈(2·16 + 1)/8⌉ = 5 shift-and-subtract steps of k + 1 \
         digits (one correction at the end of each), about 2.5k² in all, which is the \
         paper's (5/2)(k² + k) shape with our multiply-accumulate convention added on top. \
         With r = (time of an addition)/(time of a multiplication), the squaring wins only \
         while r is small; on today's cores a 64-bit multiply-accumulate costs about as \
         much as an addition in a dependent chain (r ≈ 1), which Table 2 shows.\n",
        md.markdown(),
        last.k,
        per_k2(last.c[0].1),
        per_k2(last.c[1].1),
        per_k2(last.c[3].1),
        per_k2(last.c[4].1),
    );
    Part {
        figures: Vec::new(),
        heading: "Table 3 — single-precision additions (b = 2^16)".to_string(),
        body,
        csv: vec![("paper002_table3.csv".to_string(), csv)],
    }
}

/// The values of r (the time of a single-precision addition over a multiplication) of
/// Figure 3.
const RS: [f64; 8] = [0.0, 0.1, 0.2, 0.3, 0.37, 0.5, 0.75, 1.0];

/// Per operation (window multiplication, squaring): Montgomery's and hong's
/// (multiplications, additions).
type Costs = [((f64, f64), (f64, f64)); 2];

/// Hong's cost over Montgomery's, `(C + r·D)/(A + r·B)`, for Montgomery's `(A, B)` and
/// hong's `(C, D)` multiplications and additions.
fn model(mont: (f64, f64), hong: (f64, f64), r: f64) -> f64 {
    (hong.0 + r * hong.1) / (mont.0 + r * mont.1)
}

/// The r at which the two costs are equal (where hong stops being cheaper), if any.
fn break_even(mont: (f64, f64), hong: (f64, f64)) -> Option<f64> {
    let r = (mont.0 - hong.0) / (hong.1 - mont.1);
    (r.is_finite() && r > 0.0).then_some(r)
}

/// Figure 3: the expected cost ratio against r at k = 32, from the paper's Table 3
/// formulas and from our counts.
pub fn part_figure3(rows: &[Row]) -> Part {
    const K: u32 = 32;
    let k = K as f64;
    let m = paper_muls(k);
    let a = paper_adds(k);
    // (multiplications, additions): Montgomery and hong, window multiplication and squaring.
    let paper: Costs = [((m[0], a[0]), (m[1], a[1])), ((m[3], a[2]), (m[4], a[3]))];
    let ours: Option<Costs> = rows.iter().find(|r| r.k == K).map(|r| {
        let f = |(x, y): (u64, u64)| (x as f64, y as f64);
        [(f(r.c[1]), f(r.c[0])), (f(r.c[4]), f(r.c[3]))]
    });
    let mut md = Table::new(&[
        "r",
        "window mul: paper model",
        "ours (counted)",
        "squaring: paper model",
        "ours (counted)",
    ]);
    let mut csv = Table::new(&[
        "r",
        "mul_paper_hong_over_montgomery",
        "mul_ours_hong_over_montgomery",
        "sqr_paper_hong_over_montgomery",
        "sqr_ours_hong_over_montgomery",
    ]);
    for &r in &RS {
        let row = |d| {
            let mut c = vec![Cell::Num(r, 2)];
            for j in 0..2 {
                c.push(Cell::Num(model(paper[j].0, paper[j].1, r), d));
                c.push(Cell::num(ours.map(|o| model(o[j].0, o[j].1, r)), d));
            }
            c
        };
        md.push(row(2));
        csv.push(row(4));
    }
    let at = |j: usize, r: f64| 1.0 / model(paper[j].0, paper[j].1, r);
    let (w37, s37) = (at(0, 0.37), at(1, 0.37));
    let even = |p: Option<Costs>, j: usize| {
        p.and_then(|p| break_even(p[j].0, p[j].1))
            .map_or("never".to_string(), |r| format!("r = {r:.2}"))
    };
    let body = format!(
        "The paper's Figure 3 plots its *expected performance ratio* (Definition 4: \
         Montgomery's cost over the proposed algorithm's, counting a single-precision \
         addition as r multiplications, Table 3) against r at k = 32. The figure did not \
         survive in the text we have; its formulas did, so the curves are recomputed here, \
         in this report's convention (hong's cost over Montgomery's: below 1 hong is \
         cheaper), beside the same model on our counted operations (Tables 1 and 3 at \
         k = 32, b = 2^16). Our counting digit counts two additions per multiply-accumulate \
         where the paper's Montgomery formula counts one (Table 3 above), which makes \
         Montgomery's additions weigh more in our column: compare the shapes, not the \
         break-even points.\n\n\
         At the Pentium's r ≈ 0.37 the paper's formulas give expected performance ratios \
         of {w37:.2} (window multiplication) and {s37:.2} (squaring) — hong's cost {:.2} \
         and {:.2} of Montgomery's — hence the paper's \"faster than the Montgomery \
         algorithm by 30%\" for the squaring ({:.0}% less time). The window \
         multiplication stays near 2 whatever r; the squaring's advantage shrinks as \
         additions get dearer: by the paper's formulas it vanishes at {}, by our counts at \
         {} (window multiplication: {} and {}).\n\n{}",
        1.0 / w37,
        1.0 / s37,
        100.0 * (1.0 - 1.0 / s37),
        even(Some(paper), 1),
        even(ours, 1),
        even(Some(paper), 0),
        even(ours, 0),
        md.markdown()
    );
    let mut f = crate::report::plot::Figure::new(
        "paper002_figure3",
        "Figure 3: hong's cost over Montgomery's against r (k = 32)",
    )
    .x("r = addition time / multiplication time", crate::report::plot::Scale::Linear)
    .y("hong's cost / Montgomery's", crate::report::plot::Scale::Linear)
    .reference("equal cost", 1.0);
    let names = ["window multiplication", "squaring"];
    if let Some(o) = ours {
        for (j, name) in names.iter().enumerate() {
            f = f.series(name, RS.iter().map(|&r| (r, model(o[j].0, o[j].1, r))));
        }
    }
    for (j, name) in names.iter().enumerate() {
        f = f.published(
            &format!("{name}, 1996 model"),
            RS.iter().map(|&r| (r, model(paper[j].0, paper[j].1, r))),
        );
    }
    Part {
        heading: "Figure 3 — expected cost ratio against r (k = 32)".to_string(),
        body,
        csv: vec![("paper002_figure3.csv".to_string(), csv)],
        figures: vec![f],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paper 002 §5: at k = 32 and r = 0.37 the expected performance ratios (Montgomery
    /// over proposed) are 1.97 and 1.44, the squaring "faster by 30%".
    #[test]
    fn figure3_model_at_the_pentiums_r() {
        let (m, a) = (paper_muls(32.0), paper_adds(32.0));
        let w = 1.0 / model((m[0], a[0]), (m[1], a[1]), 0.37);
        let s = 1.0 / model((m[3], a[2]), (m[4], a[3]), 0.37);
        assert_eq!((format!("{w:.2}"), format!("{s:.2}")), ("1.97".into(), "1.44".into()));
        assert_eq!(format!("{:.0}", 100.0 * (1.0 - 1.0 / s)), "30");
    }
}
