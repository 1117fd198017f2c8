//! Table 1: single-precision multiplications and divisions to reduce a 2k-digit argument,
//! counted on the library's own code with the counting digit at b = 2^16.

use super::paper;
use super::Part;
use crate::report::table::{Cell, Table};
use crate::report::Context;
use modred::limb::OpCounts;
use modred::Algorithm;
use modred_research::opcount::{self, Op};

/// The digit counts k of the paper's sizes (128 to 1024 bits at b = 2^16).
const KS: [u32; 5] = [8, 16, 32, 48, 64];
const DIGIT_BITS: u32 = 16;
const ALGORITHMS: [Algorithm; 3] =
    [Algorithm::Classical, Algorithm::Barrett, Algorithm::Montgomery];

/// Counts for one k: classical, Barrett, Montgomery reduction, then the k×k product.
pub struct Row {
    pub k: u32,
    pub counts: [OpCounts; 4],
}

/// Counts every row.
pub fn measure(ctx: &Context) -> Result<Vec<Row>, String> {
    ctx.progress("paper 000, table 1: operation counts at b = 2^16");
    KS.iter()
        .map(|&k| {
            let bits = k * DIGIT_BITS;
            let mut counts = [OpCounts::default(); 4];
            for (c, alg) in counts.iter_mut().zip(ALGORITHMS) {
                *c = opcount::count(alg, Op::Reduce, bits, DIGIT_BITS)
                    .map_err(|e| format!("counting {alg} at {bits} bits: {e}"))?;
            }
            counts[3] = opcount::count_multiplication(bits, DIGIT_BITS)
                .map_err(|e| format!("counting the {k}×{k}-digit product: {e}"))?;
            Ok(Row { k, counts })
        })
        .collect()
}

/// Least-squares fit of `y = k² + a·k + c` over the rows: returns `(a, c)`.
pub(crate) fn fit(rows: &[Row], y: impl Fn(&Row) -> f64) -> (f64, f64) {
    let pts: Vec<(f64, f64)> = rows
        .iter()
        .map(|r| {
            let k = r.k as f64;
            (k, y(r) - k * k)
        })
        .collect();
    let n = pts.len() as f64;
    let (sx, sy) = pts.iter().fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let sxx: f64 = pts.iter().map(|&(x, _)| (x - mx) * (x - mx)).sum();
    let sxy: f64 = pts.iter().map(|&(x, y)| (x - mx) * (y - my)).sum();
    let a = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    (a, my - a * mx)
}

/// `k(k + a) + c` as text.
fn formula(a: f64, c: f64) -> String {
    let c = c.round();
    let tail = if c == 0.0 {
        String::new()
    } else if c > 0.0 {
        format!(" + {c}")
    } else {
        format!(" − {}", -c)
    };
    format!("k(k + {a:.2}){tail}")
}

/// The Markdown part and its CSV.
pub fn part(rows: &[Row]) -> Part {
    let mut md = Table::new(&[
        "k",
        "bits",
        "classical mul",
        "1993 k(k+2.5)",
        "classical div",
        "1993 k",
        "barrett mul",
        "1993 k(k+4)",
        "montgomery mul",
        "1993 k(k+1)",
        "k×k product mul",
        "1993 k²",
    ]);
    let mut csv =
        Table::new(&["k", "bits", "algorithm", "mul", "div", "add", "paper_mul", "paper_div"]);
    let names = ["classical", "barrett", "montgomery", "multiplication"];
    for r in rows {
        let k = r.k as f64;
        let (pm, pd) = (paper::table1_muls(k), paper::table1_divs(k));
        let mut cells = vec![Cell::Int(r.k as i64), Cell::Int((r.k * DIGIT_BITS) as i64)];
        for (j, c) in r.counts.iter().enumerate() {
            cells.push(Cell::Int(c.mul as i64));
            cells.push(Cell::Num(pm[j], if pm[j].fract() == 0.0 { 0 } else { 1 }));
            if j == 0 {
                cells.push(Cell::Int(c.div as i64));
                cells.push(Cell::Num(pd[0], 0));
            }
            csv.push(vec![
                Cell::Int(r.k as i64),
                Cell::Int((r.k * DIGIT_BITS) as i64),
                Cell::text(names[j]),
                Cell::Int(c.mul as i64),
                Cell::Int(c.div as i64),
                Cell::Int(c.add as i64),
                Cell::Num(pm[j], 1),
                Cell::Num(pd[j], 0),
            ]);
        }
        md.push(cells);
    }

    let fits: Vec<(f64, f64)> = (0..3).map(|j| fit(rows, |r| r.counts[j].mul as f64)).collect();
    let divs_other: u64 = rows.iter().map(|r| r.counts[1].div + r.counts[2].div).sum();
    let class_div_extra: Vec<i64> =
        rows.iter().map(|r| r.counts[0].div as i64 - r.k as i64).collect();
    let schoolbook_max =
        rows.iter().filter(|r| r.counts[3].mul == (r.k as u64) * (r.k as u64)).map(|r| r.k).max();
    let below_k2: Vec<String> = rows
        .iter()
        .filter(|r| r.counts[3].mul < (r.k as u64) * (r.k as u64))
        .map(|r| {
            format!(
                "{:.0} % of k² at k = {}",
                100.0 * r.counts[3].mul as f64 / (r.k as f64 * r.k as f64),
                r.k
            )
        })
        .collect();

    let mut text = String::new();
    text.push_str(&format!(
        "Fitted to our counts, the multiplications are classical {}, Barrett {}, \
         Montgomery {} (1993: k(k + 2.5), k(k + 4), k(k + 1)). ",
        formula(fits[0].0, fits[0].1),
        formula(fits[1].0, fits[1].1),
        formula(fits[2].0, fits[2].1),
    ));
    let extra = if class_div_extra.iter().all(|&d| d == class_div_extra[0]) {
        match class_div_extra[0] {
            0 => "exactly k divisions, as in 1993".to_string(),
            d => format!("k {} {} divisions", if d > 0 { "+" } else { "−" }, d.abs()),
        }
    } else {
        format!("k + ({class_div_extra:?}) divisions")
    };
    text.push_str(&format!(
        "The classical algorithm makes {extra}; Barrett and Montgomery {}. ",
        if divs_other == 0 { "none, as in 1993" } else { "some (unexpected)" }
    ));
    text.push_str(&explain_mults(&fits));
    if !below_k2.is_empty() {
        text.push_str(&format!(
            "\n\nThe reference k×k product is schoolbook (exactly k² multiplications) up to \
             k = {}; from the library's Karatsuba threshold ({} digits) on it needs fewer \
             ({}), while the three reductions stay quadratic — so against our product a \
             reduction costs more, relatively, than the paper's k² reference suggests.",
            schoolbook_max.map_or("—".to_string(), |k| k.to_string()),
            modred::nat::KARATSUBA_THRESHOLD,
            below_k2.join(", ")
        ));
    }
    let intro = "Single-precision multiplications and divisions to reduce a 2k-digit argument \
                 (pseudo-random below m²) modulo a pseudo-random odd k-digit modulus, \
                 excluding precalculation, counted by running the library's code on the \
                 counting digit `Counted<u16>`; the last columns count the k×k product the \
                 reductions are compared against.";
    Part {
        figures: Vec::new(),
        heading: "Table 1 — operation counts (b = 2^16)".to_string(),
        body: format!("{intro}\n\n{}\n{text}\n", md.markdown()),
        csv: vec![("paper000_table1.csv".to_string(), csv)],
    }
}

/// Why the multiplication counts differ from the paper's formulas, from the fitted
/// coefficients (classical, Barrett, Montgomery).
fn explain_mults(fits: &[(f64, f64)]) -> String {
    let mut s = Vec::new();
    let paper = [2.5, 4.0, 1.0];
    let names = ["Classical", "Barrett", "Montgomery"];
    let exact: Vec<&str> = (0..3)
        .filter(|&j| (fits[j].0 - paper[j]).abs() < 0.01 && fits[j].1.abs() < 0.5)
        .map(|j| names[j])
        .collect();
    match exact.as_slice() {
        [] => {}
        [one] => s.push(format!("{one} matches the paper's formula exactly")),
        many => s.push(format!("{} match the paper's formulas exactly", many.join(" and "))),
    }
    let (c, b, m) = (fits[0].0, fits[1].0, fits[2].0);
    if (c - 2.5).abs() > 0.25 {
        s.push(format!(
            "Classical: {c:.2} instead of 2.5 multiplications per step beyond the k for q·m. \
             Our step evaluates the quotient test q·(m_{{k−1}}b + m_{{k−2}}) > \
             x_i b² + x_{{i−1}}b + x_{{i−2}} with two digit products once and, when q must \
             be decremented, updates the product by subtraction; Algorithm 1 re-evaluates \
             the two products after each decrement, which presumably is the paper's extra \
             half multiplication per step on average"
        ));
    }
    if (b - 4.0).abs() > 0.25 {
        s.push(format!(
            "Barrett: {b:.2}k instead of 4k beyond k², in its two partial products \
             ⌊x/b^(k−1)⌋·μ div b^(k+1) and q̂·m mod b^(k+1)"
        ));
    }
    if (m - 1.0).abs() > 0.25 {
        s.push(format!("Montgomery: {m:.2}k instead of k beyond k²"));
    }
    format!("{}.", s.join(". "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_have_the_papers_shape() {
        let rows = measure(&Context::new(crate::report::Mode::Quick)).unwrap();
        assert_eq!(rows.iter().map(|r| r.k).collect::<Vec<_>>(), KS);
        for r in &rows {
            let k = r.k as u64;
            // Every reduction needs at least the k² of the product; only classical divides.
            assert!(r.counts[..3].iter().all(|c| c.mul >= k * k));
            assert!((k..=k + 1).contains(&r.counts[0].div));
            assert_eq!(r.counts[1].div + r.counts[2].div + r.counts[3].div, 0);
        }
        let part = part(&rows);
        assert_eq!(part.csv.len(), 1);
        assert_eq!(part.csv[0].1.csv().lines().count(), 1 + 4 * KS.len());
        assert!(part.body.contains("| 64 | 1024 |"));
    }

    #[test]
    fn fit_recovers_a_quadratic() {
        let rows: Vec<Row> = KS
            .iter()
            .map(|&k| {
                let mul = (k * (k + 3) + 2) as u64;
                Row { k, counts: [OpCounts { mul, div: 0, add: 0 }; 4] }
            })
            .collect();
        let (a, c) = fit(&rows, |r| r.counts[0].mul as f64);
        assert!((a - 3.0).abs() < 1e-9 && (c - 2.0).abs() < 1e-9);
        assert_eq!(formula(a, c), "k(k + 3.00) + 2");
    }
}
