//! Corrections to the papers: every slip in the papers that modred found and proved (in
//! its code comments and tests), with the paper's statement, the correct one and the
//! evidence — computed here where the report can compute it (from the transcribed tables,
//! the counting digit, the datapath model or the library's own matrices), otherwise the
//! proof and the tests that check it.

use super::paper000::table1;
use super::paper003::{paper_gain, paper_ratio, PaperRow, T3_PENTIUM_MUL, T4_ALPHA_MUL};
use super::paper004::paper as p004;
use super::table::{Cell, Table};
use super::{Context, Section};
use modred::reduce::SolinasPoly;
use modred::Nat;
use modred_research::radix2_model::{self as model, Design, Operands};

/// One slip: the paper, where, what it says, what is right, the evidence.
struct Slip {
    paper: &'static str,
    place: &'static str,
    says: String,
    correct: String,
    evidence: String,
}

/// The §6.2 addition matrices of paper 003 as printed (−1: a zero digit).
const PRINTED_A_F: &[(&str, &[&[i32]])] = &[
    ("t^3 - t - 1", &[&[3, 4, 5], &[5, 3, 4], &[-1, 5, -1]]),
    ("t^7 - t^3 + 1", &[&[-1, -1, -1, 7, 8, 9, 10], &[-1, -1, -1, 11, 12, 13, -1]]),
    (
        "t^14 - t^7 - 1",
        &[
            &[14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27],
            &[21, 22, 23, 24, 25, 27, 14, 15, 16, 17, 18, 19, 20],
        ],
    ),
    (
        "t^16 - t - 1",
        &[
            &[16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27, 28, 29, 30, 31],
            &[31, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27, 28, 29, 30],
            &[-1, 31, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1],
        ],
    ),
];

/// Compares a printed addition matrix with the one computed from `f` (Algorithm 6): per
/// column, the digits added (the order within a column does not matter, §6.2). Returns
/// `None` when they agree, else a description of the difference.
fn compare_a_f(f: &str, printed: &[&[i32]]) -> Result<Option<String>, String> {
    let poly = SolinasPoly::parse(f, if f == "t^3 - t - 1" { 64 } else { 32 })
        .map_err(|e| e.to_string())?;
    let n = poly.degree();
    let a = poly.addition_matrix();
    let cols = printed.first().map_or(0, |r| r.len());
    let column = |j: usize| -> Vec<usize> {
        let mut v: Vec<usize> = a.iter().filter_map(|r| r[j]).collect();
        v.sort_unstable();
        v
    };
    let printed_column = |j: usize| -> Vec<usize> {
        let mut v: Vec<usize> = printed
            .iter()
            .filter_map(|r| r.get(j))
            .filter(|&&d| d >= 0)
            .map(|&d| d as usize)
            .collect();
        v.sort_unstable();
        v
    };
    if cols == n && (0..n).all(|j| column(j) == printed_column(j)) {
        return Ok(None);
    }
    let used = |m: &dyn Fn(usize) -> Vec<usize>, c: usize| {
        let mut all: Vec<usize> = (0..c).flat_map(m).collect();
        all.sort_unstable();
        all.dedup();
        all
    };
    let missing: Vec<String> = used(&column, n)
        .into_iter()
        .filter(|d| !used(&printed_column, cols).contains(d))
        .map(|d| format!("z_{d}"))
        .collect();
    Ok(Some(format!(
        "printed: {} × {cols}; computed (Algorithm 6 on X_f): {} × {n}; digits never added \
         in the printed matrix: {}",
        printed.len(),
        a.len(),
        if missing.is_empty() { "none".to_string() } else { missing.join(", ") }
    )))
}

/// The range (min–max) over the sizes of 1 − Montgomery's time ÷ classical's in one of
/// paper 003's multiplication tables, in %.
fn montgomery_over_classical(rows: &[PaperRow]) -> (f64, f64) {
    let v: Vec<f64> = rows
        .iter()
        .filter_map(|(b, _)| paper_ratio(rows, *b, 0).map(|r| 100.0 * (1.0 - 1.0 / r)))
        .collect();
    (v.iter().copied().fold(f64::MAX, f64::min), v.iter().copied().fold(f64::MIN, f64::max))
}

/// The largest advantage of hard-coded GM over pseudo-Mersenne multiplication (1 − its
/// time ÷ pseudo-Mersenne's, in %) in paper 003's Tables 3–4, with the platform and size.
fn gm_over_pm() -> (f64, &'static str, u32) {
    let mut best = (f64::MIN, "", 0);
    for (name, rows) in [("Pentium", T3_PENTIUM_MUL), ("Alpha", T4_ALPHA_MUL)] {
        for (bits, t) in rows {
            if let (Some(gm), Some(pm)) = (t[3], t[1]) {
                let g = 100.0 * (1.0 - gm / pm);
                if g > best.0 {
                    best = (g, name, *bits);
                }
            }
        }
    }
    best
}

/// `x·2^(−1) mod n` for odd `n`.
fn half(x: &Nat, n: &Nat) -> Nat {
    let x = x.checked_rem(n).unwrap_or_default();
    if x.is_odd() {
        x.add(n).shr(1)
    } else {
        x.shr(1)
    }
}

/// Paper 004's recoded multiplier on the datapath model, for every odd `n` of `bits` bits
/// and every `A, B < n`: how many products are right with the correction input modred
/// uses (`A·2^(−k) mod n`) and with the paper's (the standard value `ā` of `A` in the
/// representation the `2^(−(k+1))` of the product implies, `A = ā·2^(k+1) mod n`), and
/// the largest result over `n` (the paper's bound: below 2).
fn radix2_correction(bits: u64) -> Result<(u64, u64, u64, f64), String> {
    let (mut cases, mut ours_ok, mut paper_ok, mut worst) = (0u64, 0u64, 0u64, 0f64);
    for nv in (1u64 << (bits - 1)) + 1..(1u64 << bits) {
        if nv % 2 == 0 {
            continue;
        }
        let n = Nat::from_u64(nv);
        for av in 0..nv {
            let a = Nat::from_u64(av);
            let ours = model::correction(&a, &n);
            let abar = half(&ours, &n);
            for bv in 0..nv {
                let b = Nat::from_u64(bv);
                let want = half(&model::correction(&Nat::from_u64(av * bv % nv), &n), &n);
                let (a1, a2) = model::split(&a);
                let (b1, b2) = model::split(&b);
                let run = |corr: &Nat| -> Result<Option<Nat>, String> {
                    let ops = Operands {
                        a1: a1.clone(),
                        a2: a2.clone(),
                        b1: b1.clone(),
                        b2: b2.clone(),
                        n: n.clone(),
                        corr: corr.clone(),
                    };
                    Ok(model::simulate(Design::Recoded, &ops).ok().map(|s| s.result()))
                };
                cases += 1;
                if let Some(r) = run(&ours)? {
                    worst = worst.max(r.to_u64().unwrap_or(u64::MAX) as f64 / nv as f64);
                    if r.checked_rem(&n) == Some(want.clone()) {
                        ours_ok += 1;
                    }
                }
                if let Some(r) = run(&abar)? {
                    if r.checked_rem(&n) == Some(want) {
                        paper_ok += 1;
                    }
                }
            }
        }
    }
    Ok((cases, ours_ok, paper_ok, worst))
}

fn slips(ctx: &Context) -> Result<Vec<Slip>, String> {
    let mut v = Vec::new();
    // Paper 000, Table 1: the classical count.
    let rows = table1::measure(ctx)?;
    let (a, c) = table1::fit(&rows, |r| r.counts[0].mul as f64);
    v.push(Slip {
        paper: "000",
        place: "Table 1, classical multiplications",
        says: "k(k + 2.5) single-precision multiplications to reduce a 2k-digit argument".into(),
        correct: "k(k + 2): per quotient digit, two for the test q̂·(m_{k−1}b + m_{k−2}) \
                  and k for q̂·m (paper 003 §3 counts Algorithm D the same way: m(n + 2))"
            .into(),
        evidence: format!(
            "counted on the library's classical reduction with the counting digit at \
             b = 2^16, k = 8 … 64: k(k + {a:.2}){} (fit over the sizes; see Table 1 on \
             paper 000's page); `crates/modred/src/reduce/classical.rs`",
            if c.round() == 0.0 { String::new() } else { format!(" + {:.0}", c) }
        ),
    });
    // Paper 001, Algorithms 1 and 2.
    v.push(Slip {
        paper: "001",
        place: "Algorithm 1 (Barrett), steps 10–15",
        says: "separate U and L by L = Z − X_u (step 11) and fix the result with a δ \
               from the least significant words; the signs and ranges of these steps do not \
               hold for every input"
            .into(),
        correct: "the remainder estimate r = x − q̂·m lies in [0, 3m), so it is its residue \
                  modulo B^K − 1 (the cyclic convolution) plus j·(B^K − 1), j ∈ {0, 1, 2}, \
                  and j is read off the least significant digit (one digit product q̂_0·m_0)"
            .into(),
        evidence: "proof on `NttBarrett::reduce_raw` (`crates/modred/src/reduce/ntt_barrett.rs`); \
                   exhaustive tests at 8-bit digits and differential tests to 2^22 bits in \
                   `crates/modred/tests/ntt_reduce.rs`"
            .into(),
    });
    v.push(Slip {
        paper: "001",
        place: "Algorithm 2 (Montgomery), parts 1–2",
        says: "T mod R = T_u, the upper half of T; L(mP) ∈ {0, 2^n − T_l} (eq. 31); last \
               step t = Z + T_l, if t > 2^n then t = t − 2^n + 1, t = t + T_u, return t % R \
               (eq. 32)"
            .into(),
        correct: "T mod R = T_l, the lower half; L(u·m) = 0 when T_l = 0 and B^K − T_l \
                  otherwise, so U ≡ Z + T_l − [T_l ≠ 0] (mod B^K − 1) and the result is \
                  T_u + U + [T_l ≠ 0]"
            .into(),
        evidence:
            "proof on `NttMontgomery::reduce_raw` (`crates/modred/src/reduce/ntt_montgomery.rs`); \
                   exhaustive and differential tests in `crates/modred/tests/ntt_reduce.rs`"
                .into(),
    });
    // Paper 002, eq. 11 and eq. 13.
    let k = 4u64;
    let n_small: Nat = Nat::power_of_two(16 * (k - 1)).add(&Nat::from_u64(1));
    let top: Nat = Nat::power_of_two(16 * k / 2).checked_sub(&Nat::from_u64(1)).unwrap_or_default();
    let sq = top.mul(&top);
    let times = sq.div_rem(&n_small).map(|(q, _)| q).unwrap_or_default();
    v.push(Slip {
        paper: "002",
        place: "eq. 11 (the squaring's base case)",
        says: "(C^(k/2))² mod N takes one subtraction or no operation".into(),
        correct: "true only when N is close to b^k; for any N the square (below b^k) can be \
                  up to b·N, and is reduced by the same shift-and-subtract steps as eq. 13 \
                  (about log₂ b / w of them)"
            .into(),
        evidence: format!(
            "computed: b = 2^16, k = {k}, N = b^{} + 1 (a {k}-digit modulus with top digit \
             1): ⌊(b^{} − 1)² ÷ N⌋ = {}, not at most one; \
             `crates/modred/src/reduce/hong.rs`, exhaustive tests in \
             `crates/modred/tests/hong.rs`",
            k - 1,
            k / 2,
            times
        ),
    });
    v.push(Slip {
        paper: "002",
        place: "eq. 13 (the shift-and-subtract step)",
        says: "subtract T[m_x] after shifting by log s bits, without saying how m_x is chosen"
            .into(),
        correct: "keep the remainder below 2N between steps: m = max{m < 2s : m·N ≤ v·2^(n−1)} \
                  for v = ⌊Z'/2^(n−1)⌋ from a pointer array of 2^(w+2) entries, a table of \
                  2s multiples (twice the paper's s), and one conditional subtraction of N \
                  at the end"
            .into(),
        evidence: "proof in the module docs of `crates/modred/src/reduce/hong.rs`; tests in \
                   `crates/modred/tests/hong.rs` (exhaustive at 8-bit digits)"
            .into(),
    });
    // Paper 003.
    let p256 = SolinasPoly::parse("t^8 - t^7 + t^6 + t^3 - 1", 32).map_err(|e| e.to_string())?;
    let window: Nat =
        Nat::power_of_two(256).checked_sub(&p256.modulus::<u64>()).unwrap_or_default();
    v.push(Slip {
        paper: "003",
        place: "Algorithm 7, lines 15–18 and 29–32",
        says: "while C > 0 or x ≥ p: x = (x − p) mod b^n; C = C − 1 (and C = C − 1 on \
               every pass of the loop that adds p back)"
            .into(),
        correct: "the value is C·b^n + x: subtracting p lowers C only when the subtraction \
                  borrows, adding p only when it carries out; C counts those"
            .into(),
        evidence: format!(
            "with C ≥ 1 and a stored x ≥ p the printed loop returns a result b^n too small; \
             after the subtractions it is wrong when the value lies in [−b^n, −p), a window \
             of width b^n − p, a {}-bit number for P-256 (computed); \
             `crates/modred/src/reduce/solinas.rs`, test \
             `the_printed_correction_loop_is_wrong_and_ours_is_not` (runs the printed loop)",
            window.bits()
        ),
    });
    for (f, printed) in PRINTED_A_F {
        if let Some(diff) = compare_a_f(f, printed)? {
            v.push(Slip {
                paper: "003",
                place: "§6.2, the printed addition matrix",
                says: format!("A_f of f(t) = {f} as printed"),
                correct: format!(
                    "A_f has one column per digit of p ({} columns), every digit z_n … z_(2n−1) \
                     with a nonzero X_f entry added",
                    SolinasPoly::parse(f, 32).map(|p| p.degree()).unwrap_or(0)
                ),
                evidence: format!(
                    "computed here from the transcribed matrix and `SolinasPoly::addition_matrix` \
                     (column by column, order within a column ignored as §6.2 allows): {diff}; \
                     the reduction with the computed matrix is checked in \
                     `crates/modred/src/reduce/solinas.rs` (every carry and borrow driven)"
                ),
            });
        }
    }
    let (g, plat, bits) = gm_over_pm();
    v.push(Slip {
        paper: "003",
        place: "§8 (conclusion)",
        says: "hard-coded GM reduction may have an advantage over pseudo-Mersenne of up to 9%"
            .into(),
        correct: format!("up to {g:.1}% in its own Tables 3–4 ({plat}, {bits} bits)"),
        evidence: "computed here from the transcribed Tables 3–4: 1 − hard-coded GM time ÷ \
                   pseudo-Mersenne time, largest over sizes and platforms"
            .into(),
    });
    let (pl, ph) = montgomery_over_classical(T3_PENTIUM_MUL);
    let (al, ah) = montgomery_over_classical(T4_ALPHA_MUL);
    v.push(Slip {
        paper: "003",
        place: "§8 (conclusion)",
        says: "Montgomery representation improves field multiplication over classical by \
               18–31% (32-bit) and 26–42% (64-bit)"
            .into(),
        correct: format!("{pl:.1}–{ph:.1}% (Pentium) and {al:.1}–{ah:.1}% (Alpha)"),
        evidence: "computed here from the transcribed Tables 3–4: 1 − Montgomery time ÷ \
                   classical time over 192–512 bits"
            .into(),
    });
    let g192 = [T3_PENTIUM_MUL, T4_ALPHA_MUL].map(|t| 100.0 * paper_gain(t, 192, 3).unwrap_or(0.0));
    let g512 = [T3_PENTIUM_MUL, T4_ALPHA_MUL].map(|t| 100.0 * paper_gain(t, 512, 3).unwrap_or(0.0));
    v.push(Slip {
        paper: "003",
        place: "§8 (conclusion)",
        says: "the special moduli gain about 35% (32-bit) and 27% (64-bit) over Montgomery \
               near 192 bits, 51% and 41% near 512"
            .into(),
        correct: format!(
            "those are the hard-coded GM rows, which give {:.1}% / {:.1}% and {:.1}% / \
             {:.1}%; pseudo-Mersenne gains less (see paper 003's page)",
            g192[0], g192[1], g512[0], g512[1]
        ),
        evidence: "computed here from the transcribed Tables 3–4: 1 − GM time ÷ Montgomery time"
            .into(),
    });
    // Paper 004.
    let area_max = p004::ASIC
        .iter()
        .filter_map(|r| p004::change(&p004::ASIC, r.k).map(|c| c.0))
        .fold(f64::MIN, f64::max);
    v.push(Slip {
        paper: "004",
        place: "abstract",
        says: "\"about 47% increase of data throughput with maximum 7% increase of hardware \
               area\""
            .into(),
        correct: format!(
            "its Table II gives up to {area_max:.1}% more area (ASIC; its §6 says 7.8%)"
        ),
        evidence: "computed here from the transcribed Table II: largest new ÷ old − 1 of the \
                   ASIC area"
            .into(),
    });
    let (cases, ours_ok, paper_ok, worst) = radix2_correction(5)?;
    v.push(Slip {
        paper: "004",
        place: "§4, the correction input and the bound",
        says: "A = a·2^k mod n, so the correction input A·2^(−k) mod n is a (the standard \
               value of A); S[k + 1] < 2n"
            .into(),
        correct: "the product carries 2^(−(k+1)), so a chain of products needs \
                  A = ā·2^(k+1) mod n, and the correction input is a = A·2^(−k) mod n = 2ā \
                  mod n, not ā; the bound S < 2n holds for A, B < n (with inputs up to 2n it \
                  is S < 5n)"
            .into(),
        evidence: format!(
            "computed on the datapath model (`modred_research::radix2_model`), every odd \
             5-bit n and every A, B < n ({cases} products): with A·2^(−k) mod n {ours_ok} \
             right, with ā {paper_ok} right; largest result {worst:.2}·n; \
             `crates/modred/src/reduce/radix2/recoded.rs`, tests in \
             `crates/modred/tests/radix2.rs`"
        ),
    });
    Ok(v)
}

/// Builds the page.
pub fn run(ctx: &Context) -> Result<Section, String> {
    ctx.progress("corrections to the papers");
    let v = slips(ctx)?;
    let mut md = Table::new(&["paper", "where", "the paper says", "correct", "evidence"]);
    for s in &v {
        md.push(vec![
            Cell::text(s.paper),
            Cell::text(s.place),
            Cell::text(s.says.clone()),
            Cell::text(s.correct.clone()),
            Cell::text(s.evidence.clone()),
        ]);
    }
    let mut page = String::from(
        "# Corrections to the papers\n\n\
         The slips in the five papers that implementing them exposed: what the paper says, \
         what is correct, and the evidence. Where the report can compute the evidence (from \
         the papers' own tables as transcribed, from the library's counting digit, from the \
         datapath model or from the library's matrices) it is computed in this run; the \
         rest rests on the proofs in the code's documentation and the tests named.\n\n",
    );
    page.push_str(&md.markdown());
    page.push_str("\nData: [corrections.csv](corrections.csv).\n");
    Ok(Section {
        file: "corrections.md".to_string(),
        title: "Corrections to the papers".to_string(),
        summary: format!(
            "{} slips in the papers, each with the correct statement and its evidence",
            v.len()
        ),
        markdown: page,
        csv: vec![("corrections.csv".to_string(), md.csv())],
    })
}
