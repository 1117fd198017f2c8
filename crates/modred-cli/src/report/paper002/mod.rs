//! Paper 002: Hong, Oh and Yoon, "New modular multiplication algorithms for fast modular
//! exponentiation" (EUROCRYPT '96) — Tables 1–3 measured again with modred's `hong`,
//! the exponentiation, the tables' memory, and where the method can still win.

mod counts;
mod times;

use super::table::{Cell, Table};
use super::{write_parts, Context, Part, Section};
use modred::exp::default_window;

/// Measures everything and builds the page.
pub fn run(ctx: &Context) -> Result<Section, String> {
    let counts = counts::measure(ctx)?;
    let parts = vec![
        counts::part1(&counts),
        times::part2(&times::measure_table2(ctx)?),
        counts::part3(&counts),
        counts::part_figure3(&counts),
        times::part_powm(&times::measure_powm(ctx)?),
        memory(),
        times::part_explore(&times::measure_explore(ctx)?),
    ];
    let mut md = String::from(
        "# Paper 002 — Table-based window multiplication and squaring\n\n\
         S.-M. Hong, S.-Y. Oh and H. Yoon (EUROCRYPT '96) speed up the small-window \
         exponentiation with two table-driven operations, modred's `hong`: the **window \
         multiplication** (eq. 8) multiplies by a fixed power M^α through a table of \
         `b^j·M^α mod N`, so no reduction is needed beyond a short correction (k² digit \
         multiplications against Montgomery's 2k² + k); the **squaring** (eqs. 10–13) \
         squares digit by digit from the top and reduces each two-digit shift with a table \
         of the multiples `m·N`, m < s = 2^8 ((k² + k)/2 multiplications against \
         3(k² + k)/2). On a Pentium-90 with 16-bit digits the paper's Table 2 has them take \
         0.40–0.44 and 0.67–0.76 of Montgomery's time (2.3–2.5× and 1.3–1.5× faster). Here: the counts (Tables 1 and 3) and the cost model against r (Figure 3), the times \
         at the paper's b = 2^16 and at b = 2^64 (Table 2), the whole exponentiation, the \
         memory of the tables, and a search for a setting where the method wins on a \
         64-bit machine. Corrections we had to make to the paper's description are in \
         the documentation of `modred::reduce::hong`.\n\n",
    );
    let csv = write_parts(ctx, &mut md, parts)?;
    Ok(Section {
        file: "paper002.md".to_string(),
        title: "Paper 002 — Table-based window multiplication and squaring".to_string(),
        summary: "hong against Montgomery: operation counts (Tables 1 and 3), times \
                  (Table 2), exponentiation, table memory, where it can still win"
            .to_string(),
        markdown: md,
        csv,
    })
}

/// The memory of the tables, computed (not measured): per window size of the sliding
/// window, hong's window tables (`2^(w−1)` tables of `k²` digits) beside Montgomery's
/// powers (`2^(w−1)` residues of `k` digits), at b = 2^64; plus the fixed table of
/// multiples (`2s·(k + 1)` digits, s = 2^8) and pointers (`2^10` entries).
fn memory() -> Part {
    let sizes = [512u32, 1024, 2048, 4096];
    let mut header = vec!["window w".to_string()];
    for b in sizes {
        header.push(format!("{b}: hong"));
        header.push(format!("{b}: montgomery"));
    }
    let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut md = Table::new(&header_refs);
    let mut csv = Table::new(&["window", "bits", "hong_bytes", "montgomery_bytes"]);
    let kib = |bytes: usize| Cell::text(format!("{:.1} KiB", bytes as f64 / 1024.0));
    for w in 1..=8u32 {
        let mut row = vec![Cell::Int(w as i64)];
        for bits in sizes {
            let k = bits as usize / 64;
            let powers = 1usize << (w - 1);
            let hong = powers * k * k * 8;
            let mont = powers * k * 8;
            row.push(kib(hong));
            row.push(kib(mont));
            csv.push(vec![
                Cell::Int(w as i64),
                Cell::Int(bits as i64),
                Cell::Int(hong as i64),
                Cell::Int(mont as i64),
            ]);
        }
        md.push(row);
    }
    let fixed: Vec<String> = sizes
        .iter()
        .map(|&bits| {
            let k = bits as usize / 64;
            format!("{bits} bits {:.1} KiB", (512 * (k + 1) * 8 + 1024 * 4) as f64 / 1024.0)
        })
        .collect();
    let defaults: Vec<String> =
        sizes.iter().map(|&b| format!("{b} bits: w = {}", default_window(b as u64))).collect();
    let body = format!(
        "Bytes of the precomputed powers' tables at b = 2^64, for each width w of the \
         sliding window (2^(w−1) odd powers): hong keeps a window table of k residues per \
         power (k²·8 bytes), Montgomery the power itself (k·8 bytes) — the paper's Table 1 \
         memory column, `k·2^(w−1)` against `2^(w−1)` operands. The library's default \
         window for a full-length exponent is {}. On top, per modulus, hong keeps the \
         2s = 512 multiples of N (s = 2^8) and 1024 backward pointers: {}.\n\n{}",
        defaults.join(", "),
        fixed.join(", "),
        md.markdown()
    );
    Part {
        figures: Vec::new(),
        heading: "Memory of the tables".to_string(),
        body,
        csv: vec![("paper002_memory.csv".to_string(), csv)],
    }
}
