//! Figure 2 as a table: special arguments that make one reducer faster than average.
//!
//! - §4's argument for the classical algorithm (and Barrett's): x = g·m·b^(l−k−n) + h with
//!   l = 2k, 0 < g < b^n, 0 ≤ h < m, whose quotient g·b^(k−n) has k − n zero digits.
//! - §4's argument for Montgomery's: x = h·b^k + b^k − (Σ_{i<n} t_i·m·b^i mod b^k), which
//!   leaves k − n zero digits after n steps, so the remaining t_i are zero.

use super::check::{reduction, reductions, Trio};
use super::Part;
use crate::report::plot::{Figure, Scale, BARS_RATIOS};
use crate::report::rng::{digits, nat, SplitMix64};
use crate::report::table::{ratio_range, scaled, Cell, Table};
use crate::report::{Context, Mode};
use modred::{Limb, Nat};
use modred_testkit::timing::{compare, Timing};

const MODULUS_BITS: u32 = 512;
const ARGS: usize = 16;

/// One n (or `None` for random arguments) at one radix: classical, Barrett and Montgomery
/// on the classical special argument, then Montgomery on its own special argument; and
/// each time relative to the same reducer's on random arguments.
pub struct Row {
    pub digit_bits: u32,
    pub k: usize,
    pub n: Option<usize>,
    pub t: [Timing; 4],
    pub to_random: [f64; 4],
    /// The range (min, max) of the per-round ratios [`Row::to_random`] is the median of.
    pub to_random_range: [(f64, f64); 4],
}

/// Values of n: every one in standard and full mode, a few in quick mode.
fn steps(k: usize, mode: Mode) -> Vec<usize> {
    if mode == Mode::Quick && k > 8 {
        let mut v = vec![1];
        v.extend((k / 8..=k).step_by(k / 8));
        v
    } else {
        (1..=k).collect()
    }
}

/// Measures at b = 2^16 (k = 32, the paper's case) and at b = 2^64 (k = 8).
pub fn measure(ctx: &Context) -> Result<Vec<Row>, String> {
    let mut rows = measure_radix::<u16>(ctx)?;
    rows.extend(measure_radix::<u64>(ctx)?);
    Ok(rows)
}

fn measure_radix<L: Limb>(ctx: &Context) -> Result<Vec<Row>, String> {
    ctx.progress(&format!("paper 000, figure 2: b = 2^{}, special arguments", L::BITS));
    let mut rng = SplitMix64::new(0xf1_0002);
    let m: Nat<L> = nat(rng.odd_modulus(MODULUS_BITS as u64));
    let k = m.len();
    let trio = Trio::new(&m)?;
    let random: Vec<Vec<L>> = (0..ARGS)
        .map(|_| {
            let (a, b) = (nat(rng.below(&digits(&m))), nat(rng.below(&digits(&m))));
            a.mul(&b).into_limbs()
        })
        .collect();
    // For the random row both sets are the same random products.
    let mut sets = vec![(None, random.clone(), random)];
    for n in steps(k, ctx.mode) {
        let classical: Vec<Vec<L>> =
            (0..ARGS).map(|_| classical_special(&mut rng, &m, n).into_limbs()).collect();
        let montgomery: Vec<Vec<L>> =
            (0..ARGS).map(|_| montgomery_special(&mut rng, &m, n).into_limbs()).collect();
        sets.push((Some(n), classical, montgomery));
    }
    // Every n of this radix in one comparison, so that each row's time relative to
    // random arguments is measured interleaved.
    let mut cands = Vec::new();
    for (n, cl, mo) in &sets {
        let what = format!("figure 2, b = 2^{}, n = {n:?}", L::BITS);
        trio.check(cl, &what)?;
        trio.check(mo, &what)?;
        cands.extend(reductions(&trio, cl));
        cands.push(reduction(&trio.montgomery, mo));
    }
    let t = compare(&ctx.short_ops, &mut cands);
    let random = &t[..4];
    Ok(sets
        .iter()
        .zip(t.chunks(4))
        .map(|((n, _, _), t)| Row {
            digit_bits: L::BITS,
            k,
            n: *n,
            // The §4 Montgomery argument is compared with Montgomery on random arguments.
            to_random: [0, 1, 2, 3].map(|j| t[j].ratio_to(&random[j.min(2)])),
            to_random_range: [0, 1, 2, 3].map(|j| ratio_range(&t[j], &random[j.min(2)])),
            t: [t[0].clone(), t[1].clone(), t[2].clone(), t[3].clone()],
        })
        .collect())
}

/// x = g·m·b^(k−n) + h (l = 2k) with g of exactly n digits and h < m: the quotient
/// x div m = g·b^(k−n) has k − n zero digits at the bottom.
fn classical_special<L: Limb>(rng: &mut SplitMix64, m: &Nat<L>, n: usize) -> Nat<L> {
    let k = m.len();
    let g: Nat<L> = nat(rng.exact_bits((n as u32 * L::BITS) as u64));
    let h = nat(rng.below(&digits(m)));
    g.mul(m).shl(((k - n) as u32 * L::BITS) as u64).add(&h)
}

/// x = h·b^k + b^k − (Σ_{i<n} t_i·m·b^i mod b^k) with random digits t_i and 0 < h < m − 1
/// (so x < m·b^k): Montgomery's first n steps compute exactly these t_i, after which the
/// low k digits are zero and every further t_i is zero.
fn montgomery_special<L: Limb>(rng: &mut SplitMix64, m: &Nat<L>, n: usize) -> Nat<L> {
    let k = m.len();
    let digit = |i: usize| (i as u32 * L::BITS) as u64;
    let t: Nat<L> = nat(rng.below_pow2(digit(n)));
    let s = t.mul(m).low_bits(digit(k));
    let h = nat(rng.between(&[1], &digits(&m.checked_sub(&Nat::one()).expect("m > 1"))));
    let x = h.add(&Nat::one()).shl(digit(k)).checked_sub(&s).expect("s < b^k");
    debug_assert!(x < m.shl(digit(k)));
    x
}

pub fn part(rows: &[Row]) -> Part {
    let mut md = Table::new(&[
        "b",
        "n",
        "classical, ns (% of random)",
        "barrett",
        "montgomery",
        "montgomery, §4 argument",
    ]);
    let mut csv = Table::new(&[
        "digit_bits",
        "k",
        "n",
        "classical_ns",
        "barrett_ns",
        "montgomery_ns",
        "montgomery_special_ns",
        "classical_to_random",
        "barrett_to_random",
        "montgomery_to_random",
        "montgomery_special_to_random",
    ]);
    for r in rows {
        let n = r.n.map_or(Cell::text("random"), |n| Cell::Int(n as i64));
        let mut c = vec![Cell::text(format!("2^{} (k = {})", r.digit_bits, r.k)), n.clone()];
        c.extend(
            r.t.iter()
                .zip(r.to_random)
                .map(|(t, q)| Cell::text(format!("{:.1} ({:.0} %)", t.ns, 100.0 * q))),
        );
        md.push(c);
        let mut c = vec![Cell::Int(r.digit_bits as i64), Cell::Int(r.k as i64), n];
        c.extend(r.t.iter().map(|t| Cell::Num(t.ns, 1)));
        c.extend(r.to_random.iter().map(|&q| Cell::Num(q, 4)));
        csv.push(c);
    }
    let names = ["classical", "Barrett", "Montgomery", "Montgomery on its §4 argument"];
    let mut text = String::new();
    let mut gains = [false; 4];
    for digit_bits in [16, 64] {
        let rs: Vec<&Row> =
            rows.iter().filter(|r| r.digit_bits == digit_bits && r.n.is_some()).collect();
        let (Some(first), Some(last)) = (rs.first(), rs.last()) else { continue };
        let parts: Vec<String> = (0..4)
            .map(|j| {
                gains[j] |= first.to_random[j] < 0.8;
                format!(
                    "{} {:.0} % at n = {} and {:.0} % at n = {}",
                    names[j],
                    100.0 * first.to_random[j],
                    first.n.unwrap_or(0),
                    100.0 * last.to_random[j],
                    last.n.unwrap_or(0)
                )
            })
            .collect();
        text.push_str(&format!(
            "At b = 2^{digit_bits} (k = {}), relative to random arguments: {}.\n\n",
            first.k,
            parts.join("; ")
        ));
    }
    text.push_str(
        "1993 (b = 2^16, k = 32): classical time grew in proportion to n from near zero, \
         Barrett's likewise but above it, Montgomery's stayed flat, so for small n classical \
         was the fastest and Montgomery the slowest; Montgomery's own special argument saved \
         time in proportion to its k − n zero digits. Those gains came from steps with a zero \
         quotient digit (or a zero t_i) costing next to nothing — the paper counts only \
         \"non-void\" steps — helped by the 80386's multiplier, which finishes early on small \
         operands. ",
    );
    let gainers: Vec<&str> = (0..4).filter(|&j| gains[j]).map(|j| names[j]).collect();
    let flat: Vec<&str> = (0..4).filter(|&j| !gains[j]).map(|j| names[j]).collect();
    if !gainers.is_empty() {
        text.push_str(&format!(
            "Here {} gain{} at small n, as in the paper: ",
            join_and(&gainers),
            if gainers.len() == 1 { "s" } else { "" }
        ));
        let mut why: Vec<&str> = gainers.iter().filter_map(|g| reason(g, true)).collect();
        why.dedup();
        text.push_str(&why.join("; "));
        text.push_str(". ");
    }
    if !flat.is_empty() {
        text.push_str(&format!(
            "{} stay{} close to {} time on random arguments: ",
            capitalize(&join_and(&flat)),
            if flat.len() == 1 { "s" } else { "" },
            if flat.len() == 1 { "its" } else { "their" },
        ));
        let mut why: Vec<&str> = flat.iter().filter_map(|g| reason(g, false)).collect();
        why.dedup();
        text.push_str(&why.join("; "));
        text.push_str(". ");
    }
    text.push('\n');
    let intro = "Reduction of the special arguments of the paper's §4 modulo a 512-bit \
                 modulus (16 arguments per n): x = g·m·b^(k−n) + h (l = 2k; the quotient \
                 has k − n low zero digits; the paper's Figure 2) for all three reducers, and \
                 beside it Montgomery on its own special argument \
                 x = h·b^k + b^k − (Σ_{i<n} t_i·m·b^i mod b^k), which leaves k − n zero \
                 digits after n steps. The row `random` is the product of two random \
                 residues; the percentages are of the same reducer's time on it, measured \
                 interleaved.";
    Part {
        heading: "Figure 2 — special arguments (512-bit modulus)".to_string(),
        body: format!("{intro}\n\n{}\n{text}", md.markdown()),
        csv: vec![("paper000_figure2.csv".to_string(), csv)],
        figures: [16, 64].iter().map(|&d| figure(rows, d)).collect(),
    }
}

/// The paper's Figure 2 at one digit size: time on the special arguments, relative to
/// random ones, against n.
fn figure(rows: &[Row], digit_bits: u32) -> Figure {
    let rs: Vec<&Row> = rows.iter().filter(|r| r.digit_bits == digit_bits).collect();
    let k = rs.first().map_or(0, |r| r.k);
    let mut f = Figure::new(
        &format!("paper000_figure2_b{digit_bits}"),
        &format!("Figure 2: special arguments, b = 2^{digit_bits} (k = {k})"),
    )
    .x("n (nonzero quotient digits, or Montgomery steps)", Scale::Linear)
    .y("% of the time on random arguments", Scale::Linear)
    .reference("random arguments", 100.0)
    .bars(BARS_RATIOS);
    let names = ["classical", "barrett", "montgomery", "montgomery, §4 argument"];
    for (j, name) in names.iter().enumerate() {
        let pts = rs.iter().filter_map(|r| {
            r.n.map(|n| (n as f64, 100.0 * r.to_random[j], scaled(r.to_random_range[j], 100.0)))
        });
        f = f.series_bars(name, pts);
    }
    f
}

/// Why a reducer's time on the special arguments falls (`gains`) or does not, from what
/// its code does with zero digits.
fn reason(name: &str, gains: bool) -> Option<&'static str> {
    Some(match (name, gains) {
        ("classical", true) => {
            "the classical reduction skips a step whose quotient digit is zero (the three \
             leading digits below the modulus's two: one comparison, no division or \
             multiplication), so only n of its k steps do work"
        }
        ("classical", false) => {
            "the classical reduction skips a step whose quotient digit is zero, yet the \
             saving did not show in this run"
        }
        ("Barrett", true) => {
            "Barrett's skips the zero digits of q̂ in q̂·m mod b^(k+1), as the paper says"
        }
        ("Barrett", false) => {
            "Barrett's skips the zero digits of q̂ in q̂·m mod b^(k+1), but its quotient \
             estimate (q1·μ, about half its work) is a full product whatever the digits"
        }
        ("Montgomery", _) | ("Montgomery on its §4 argument", _) => {
            "modred's Montgomery reduction is constant time — it runs all k steps and \
             never tests a t_i for zero (the paper's gain, proportional to the zero digits, \
             means its implementation skipped them) — so a special argument costs what a \
             random one does"
        }
        _ => return None,
    })
}

/// "a", "a and b", "a, b and c".
fn join_and(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_arguments_have_their_shape() {
        let mut rng = SplitMix64::new(1);
        let m: Nat<u16> = nat(rng.odd_modulus(128));
        let k = m.len();
        let bk = Nat::<u16>::power_of_two(16 * k as u64);
        for n in 1..=k {
            let x = classical_special(&mut rng, &m, n);
            let (q, r) = x.div_rem(&m).unwrap();
            assert!(r < m && q.len() == k && q.trailing_zeros() >= 16 * (k - n) as u64);
            let x = montgomery_special(&mut rng, &m, n);
            assert!(x < m.mul(&bk));
            // Run Montgomery's steps by hand: after n of them the low k digits are zero.
            let m0inv = m.limbs()[0].inverse_mod_b().wrapping_neg();
            let mut y = x.clone();
            for i in 0..n {
                let yi = y.limbs().get(i).copied().unwrap_or(0);
                let t = yi.wrapping_mul(m0inv);
                y = y.add(&m.mul_limb(t).shl(16 * i as u64));
            }
            assert!(y.low_bits(16 * k as u64).is_zero(), "n = {n}");
        }
    }
}
