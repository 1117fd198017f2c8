//! Paper 000: Bosselaers, Govaerts and Vandewalle, "Comparison of three modular reduction
//! functions" (Crypto '93) — Tables 1–3 and Figures 1–2 measured again with modred.

mod check;
mod figure1;
mod figure2;
mod mulmod;
mod paper;
mod table1;
mod table2;
mod table3;

use super::plot::Figure;
use super::table::Table;
use super::{Context, Section};

/// One table or figure of the page: a heading, its Markdown body, its CSV files and its
/// figures (drawn after the body).
pub struct Part {
    pub heading: String,
    pub body: String,
    pub csv: Vec<(String, Table)>,
    pub figures: Vec<Figure>,
}

/// Measures everything and builds the page.
pub fn run(ctx: &Context) -> Result<Section, String> {
    let parts = [
        table1::part(&table1::measure(ctx)?),
        table2::part(&table2::measure(ctx)?),
        figure1::part(&figure1::measure(ctx)?),
        figure2::part(&figure2::measure(ctx)?),
        table3::part(&table3::measure(ctx)?),
        mulmod::part(&mulmod::measure(ctx)?),
    ];
    let mut md = String::from(
        "# Paper 000 — Comparison of three modular reduction functions\n\n\
         A. Bosselaers, R. Govaerts and J. Vandewalle (Crypto '93) compare the classical \
         algorithm (Knuth's Algorithm D), Barrett's and Montgomery's reduction in portable C \
         on a 33 MHz 80386 with 16-bit digits (b = 2^16), by operation counts (Table 1), \
         reduction times (Table 2, Figures 1 and 2) and exponentiation times (Table 3). Here \
         the same three algorithms — modred's `classical`, `barrett` and `montgomery`, the \
         paper's Algorithms 1–3 — run on this machine with the paper's 16-bit digits and \
         with today's 64-bit digits. Times are in nanoseconds (ns) or milliseconds (ms) of \
         this machine; only ratios measured in this run are compared with 1993's.\n\n",
    );
    md.push_str("Contents:\n");
    for p in &parts {
        md.push_str(&format!("- [{}](#{})\n", p.heading, anchor(&p.heading)));
    }
    md.push('\n');
    let mut csv = Vec::new();
    for p in parts {
        md.push_str(&format!("## {}\n\n{}\n", p.heading, p.body.trim_end()));
        for f in &p.figures {
            md.push_str(&ctx.figure(f)?);
        }
        let files: Vec<String> = p.csv.iter().map(|(n, _)| format!("[{n}]({n})")).collect();
        md.push_str(&format!("\nData: {}.\n\n", files.join(", ")));
        csv.extend(p.csv.into_iter().map(|(n, t)| (n, t.csv())));
    }
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

/// GitHub's anchor for a heading: lower case, spaces to hyphens, punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn anchors_follow_github() {
        assert_eq!(
            super::anchor("Table 1 — operation counts (b = 2^16)"),
            "table-1--operation-counts-b--216"
        );
    }
}
