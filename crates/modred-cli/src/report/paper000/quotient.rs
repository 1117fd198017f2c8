//! §3's claims about the quotient estimates, measured: the classical algorithm's
//! two-digit estimate (never too small, at most two in error for a normalized modulus)
//! and its three-digit refinement (at most one in error, with probability ≈ 2/b), and
//! Barrett's estimate with t = k + 1 (never too large, at most two in error, "for about
//! 90% of the values of x < m² and m" exact and "only in 1% of cases" two in error).
//!
//! The estimates are recomputed here from their definitions with 128-bit integers, for
//! random 48-bit moduli (top bit set) and random arguments below m², at b = 2^8 (k = 6)
//! and b = 2^16 (k = 3, the paper's digit).

use super::Part;
use crate::report::rng::SplitMix64;
use crate::report::table::{Cell, Table};
use crate::report::{Context, Mode};

const MODULUS_BITS: u32 = 48;

/// Counts of one digit size: per estimate, how many were exact, one off, two off, worse.
pub struct Row {
    pub digit_bits: u32,
    pub k: u32,
    pub trials: u64,
    /// Classical steps: the two-digit estimate q̂ − q (0, 1, 2, more; `too_small` below).
    pub classical2: [u64; 4],
    /// Classical steps: after the three-digit test.
    pub classical3: [u64; 4],
    pub classical_steps: u64,
    /// Estimates below the true quotient digit (the paper: never).
    pub classical_too_small: u64,
    /// Barrett: q − q̂ (0, 1, 2, more).
    pub barrett: [u64; 4],
    /// Barrett estimates above the true quotient (the paper: never).
    pub barrett_too_large: u64,
}

fn bucket(d: u128) -> usize {
    (d as usize).min(3)
}

fn measure_radix(w: u32, trials: u64) -> Row {
    let b: u128 = 1 << w;
    let k = MODULUS_BITS / w;
    let mut rng = SplitMix64::new(0x0003_0003 ^ w as u64);
    let mut row = Row {
        digit_bits: w,
        k,
        trials,
        classical2: [0; 4],
        classical3: [0; 4],
        classical_steps: 0,
        classical_too_small: 0,
        barrett: [0; 4],
        barrett_too_large: 0,
    };
    let digit = |x: u128, i: u32| (x >> (w * i)) & (b - 1);
    for _ in 0..trials {
        let m = (rng.next_u64() >> (64 - MODULUS_BITS) | 1 << (MODULUS_BITS - 1)) as u128;
        let x = ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128) % (m * m);
        // Classical (Algorithm 1, normalized m: its top bit is set): k steps, one per
        // quotient digit, on the running remainder.
        let (m1, m2) = (digit(m, k - 1), digit(m, k - 2));
        let mut rem = x >> (w * k);
        for i in (0..k).rev() {
            let z = rem * b + digit(x, i);
            let q = z / m;
            let (z2, z1, z0) = (digit(z, k), digit(z, k - 1), digit(z, k - 2));
            let mut qh = if z2 == m1 { b - 1 } else { (z2 * b + z1) / m1 };
            if qh < q {
                row.classical_too_small += 1;
            } else {
                row.classical2[bucket(qh - q)] += 1;
            }
            while qh * (m1 * b + m2) > z2 * b * b + z1 * b + z0 {
                qh -= 1;
            }
            if qh < q {
                row.classical_too_small += 1;
            } else {
                row.classical3[bucket(qh - q)] += 1;
            }
            rem = z - q * m;
            row.classical_steps += 1;
        }
        // Barrett with t = k + 1: μ = b^(2k) div m, q̂ = ((x div b^(k−1))·μ) div b^(k+1).
        let mu = (1u128 << (2 * w * k)) / m;
        let qh = ((x >> (w * (k - 1))) * mu) >> (w * (k + 1));
        let q = x / m;
        if qh > q {
            row.barrett_too_large += 1;
        } else {
            row.barrett[bucket(q - qh)] += 1;
        }
    }
    row
}

/// Measures at b = 2^8 and b = 2^16.
pub fn measure(ctx: &Context) -> Vec<Row> {
    ctx.progress("paper 000, §3: the quotient estimates");
    let trials = if ctx.mode == Mode::Quick { 200_000 } else { 1_000_000 };
    vec![measure_radix(8, trials), measure_radix(16, trials)]
}

pub fn part(rows: &[Row]) -> Part {
    let pct = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
    let mut md = Table::new(&[
        "b",
        "estimate",
        "cases",
        "exact %",
        "one off %",
        "two off %",
        "more %",
        "on the wrong side",
        "the paper",
    ]);
    let mut csv = Table::new(&[
        "digit_bits",
        "estimate",
        "cases",
        "exact",
        "one_off",
        "two_off",
        "more",
        "wrong_side",
    ]);
    for r in rows {
        let lines = [
            (
                "classical, two digits",
                r.classical2,
                r.classical_steps,
                r.classical_too_small,
                "never too small; at most two too large".to_string(),
            ),
            (
                "classical, three-digit test",
                r.classical3,
                r.classical_steps,
                0,
                format!(
                    "at most one too large, with probability ≈ 2/b = {:.4} %",
                    200.0 / (1u64 << r.digit_bits) as f64
                ),
            ),
            (
                "Barrett, t = k + 1",
                r.barrett,
                r.trials,
                r.barrett_too_large,
                "never too large; at most two too small; exact for about 90 %, two off in \
                 about 1 %"
                    .to_string(),
            ),
        ];
        for (name, c, n, wrong, paper) in lines {
            md.push(vec![
                Cell::text(format!("2^{} (k = {})", r.digit_bits, r.k)),
                Cell::text(name),
                Cell::Int(n as i64),
                Cell::Num(pct(c[0], n), 3),
                Cell::Num(pct(c[1], n), 3),
                Cell::Num(pct(c[2], n), 3),
                Cell::Num(pct(c[3], n), 3),
                Cell::Int(wrong as i64),
                Cell::text(paper),
            ]);
            let mut row =
                vec![Cell::Int(r.digit_bits as i64), Cell::text(name), Cell::Int(n as i64)];
            row.extend(c.iter().map(|&v| Cell::Int(v as i64)));
            row.push(Cell::Int(wrong as i64));
            csv.push(row);
        }
    }
    let holds = rows.iter().all(|r| {
        r.classical_too_small == 0
            && r.classical2[3] == 0
            && r.classical3[2] == 0
            && r.classical3[3] == 0
            && r.barrett_too_large == 0
            && r.barrett[3] == 0
    });
    let body = format!(
        "§3 says of the classical algorithm's quotient digit estimate from the two leading \
         digits of z by m_(k−1) that it is \"never too small and, if m_(k−1) ≥ ⌊b/2⌋, at \
         most two in error\", and that with a third digit of z and a second of m it is \
         \"at most one in error (an event occurring with probability ≈ 2/b)\"; of Barrett's \
         q̂ that it is never too large and at most two in error for k < t ≤ 2k, and that \
         \"for about 90% of the values of x < m² and m\" it is exact and \"only in 1% of \
         cases\" two in error. Measured here from the definitions (128-bit integers, not the \
         library's code): random {MODULUS_BITS}-bit moduli with the top bit set (so \
         normalized), random x < m², every quotient digit of the classical algorithm and \
         Barrett's q̂ with t = k + 1. The bounds {} in every case. The frequencies: {}\n\n{}",
        if holds { "held" } else { "did NOT hold" },
        rows.iter()
            .map(|r| format!(
                "at b = 2^{}, Barrett's q̂ exact in {:.1}% (the paper: about 90%) and two off \
                 in {:.2}% (about 1%), the three-digit classical estimate one off in {:.3}% \
                 (2/b = {:.3}%)",
                r.digit_bits,
                pct(r.barrett[0], r.trials),
                pct(r.barrett[2], r.trials),
                pct(r.classical3[1], r.classical_steps),
                200.0 / (1u64 << r.digit_bits) as f64
            ))
            .collect::<Vec<_>>()
            .join("; ")
            + ".",
        md.markdown()
    );
    Part {
        heading: "§3 — the quotient estimates".to_string(),
        body,
        csv: vec![("paper000_quotient.csv".to_string(), csv)],
        figures: Vec::new(),
    }
}
