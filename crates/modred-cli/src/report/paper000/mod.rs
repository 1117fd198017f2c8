//! Paper 000: Bosselaers, Govaerts and Vandewalle, "Comparison of three modular reduction
//! functions" (Crypto '93) — Tables 1–3 and Figures 1–2 measured again with modred.

mod check;
mod figure1;
mod figure2;
mod figure3;
mod mulmod;
mod paper;
mod quotient;
pub(crate) mod table1;
mod table2;
mod table3;

use super::{write_parts, Context, Part, Section};

/// Measures everything and builds the page.
pub fn run(ctx: &Context) -> Result<Section, String> {
    let parts = vec![
        table1::part(&table1::measure(ctx)?),
        quotient::part(&quotient::measure(ctx)),
        table2::part(&table2::measure(ctx)?),
        figure1::part(&figure1::measure(ctx)?),
        figure2::part(&figure2::measure(ctx)?),
        table3::part(&table3::measure(ctx)?),
        figure3::part(&figure3::measure(ctx)?),
        mulmod::part(&mulmod::measure(ctx)?),
    ];
    let mut md = String::from(
        "# Paper 000 — Comparison of three modular reduction functions\n\n\
         A. Bosselaers, R. Govaerts and J. Vandewalle (Crypto '93) compare the classical \
         algorithm (Knuth's Algorithm D), Barrett's and Montgomery's reduction in portable C \
         on a 33 MHz 80386 with 16-bit digits (b = 2^16), by operation counts (Table 1), \
         reduction times (Table 2, Figures 1 and 2), exponentiation times (Table 3) and the exponentiation of short bases (Figure 3). Here \
         the same three algorithms — modred's `classical`, `barrett` and `montgomery`, the \
         paper's Algorithms 1–3 — run on this machine with the paper's 16-bit digits and \
         with today's 64-bit digits. Times are in nanoseconds (ns) or milliseconds (ms) of \
         this machine; only ratios measured in this run are compared with 1993's.\n\n",
    );
    let csv = write_parts(ctx, &mut md, parts)?;
    Ok(Section {
        file: "paper000.md".to_string(),
        title: "Paper 000 — Comparison of three modular reduction functions".to_string(),
        summary: "classical, Barrett and Montgomery reduction: operation counts (Table 1), \
                  reduction times (Table 2, Figures 1 and 2), exponentiation (Table 3); modular multiplication beside GMP and OpenSSL"
            .to_string(),
        markdown: md,
        csv,
    })
}
