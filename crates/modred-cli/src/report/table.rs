//! A table rendered twice: rounded for Markdown, at full precision for CSV.

use modred_testkit::timing::Timing;

/// One cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text, shown as is.
    Text(String),
    /// A number and the decimals to show it with in Markdown (CSV keeps every digit).
    Num(f64, usize),
    /// An integer.
    Int(i64),
    /// A time ratio ([`Cell::ratio`]): the value, its decimals, whether it differs by more
    /// than [`RATIO_TOLERANCE`] from the quotient of the two minimum times (marked `‡`),
    /// and the range (min, max) of the per-round ratios it is the median of (shown in
    /// Markdown; marked `†` when it contains 1).
    Ratio(f64, usize, bool, (f64, f64)),
    /// No value (the paper has no figure there): `—` in Markdown, empty in CSV.
    Empty,
}

impl Cell {
    /// A text cell.
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }

    /// A number shown with `decimals` decimals; `None` gives an empty cell.
    pub fn num(v: Option<f64>, decimals: usize) -> Cell {
        v.map_or(Cell::Empty, |v| Cell::Num(v, decimals))
    }

    /// The time ratio `a ÷ b` as every ratio column of the report shows it: the median of
    /// the per-round ratios over the quiet rounds ([`Timing::ratio_to`]), marked when the
    /// quotient of the minimum times `a.ns ÷ b.ns` (the time columns beside it) differs from
    /// it by more than [`RATIO_TOLERANCE`].
    pub fn ratio(a: &Timing, b: &Timing, decimals: usize) -> Cell {
        let r = a.ratio_to(b);
        Cell::Ratio(r, decimals, ratio_disagrees(r, a.ns / b.ns), ratio_range(a, b))
    }

    fn markdown(&self) -> String {
        match self {
            Cell::Ratio(v, d, disagrees, (lo, hi)) => {
                let d = *d;
                let mut s = format!("{v:.d$} ({lo:.d$}–{hi:.d$})");
                if *disagrees {
                    s.push('‡');
                }
                if *lo < 1.0 && *hi > 1.0 {
                    s.push('†');
                }
                s
            }
            Cell::Text(s) => s.replace('|', "\\|"),
            Cell::Num(v, d) => format!("{v:.d$}", d = *d),
            Cell::Int(v) => v.to_string(),
            Cell::Empty => "—".to_string(),
        }
    }

    fn csv(&self) -> String {
        match self {
            Cell::Text(s) if s.contains([',', '"', '\n']) => {
                format!("\"{}\"", s.replace('"', "\"\""))
            }
            Cell::Text(s) => s.clone(),
            Cell::Num(v, _) | Cell::Ratio(v, _, _, _) => format!("{v}"),
            Cell::Int(v) => v.to_string(),
            Cell::Empty => String::new(),
        }
    }

    fn is_numeric(&self) -> bool {
        matches!(self, Cell::Num(..) | Cell::Ratio(..) | Cell::Int(_) | Cell::Empty)
    }
}

/// How far (relative) a ratio may lie from the quotient of the minimum times before the
/// Markdown marks it.
pub const RATIO_TOLERANCE: f64 = 0.10;

/// Whether the median paired ratio `r` and the quotient of the minimum times `q` differ by
/// more than [`RATIO_TOLERANCE`].
pub fn ratio_disagrees(r: f64, q: f64) -> bool {
    (r / q - 1.0).abs() > RATIO_TOLERANCE
}

/// The range (min, max) of the per-round ratios `a ÷ b` over the quiet rounds, those
/// [`Timing::ratio_to`] takes the median of.
pub fn ratio_range(a: &Timing, b: &Timing) -> (f64, f64) {
    let r = a.quiet.iter().map(|&i| a.samples[i] / b.samples[i]);
    r.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)))
}

/// The range (min, max) of a candidate's per-round times over all its rounds, in
/// nanoseconds per operation: its minimum is [`Timing::ns`], the time the tables show.
pub fn time_range(t: &Timing) -> (f64, f64) {
    t.samples.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)))
}

/// `(lo, hi)` scaled by `f` (a time range in the unit a figure plots).
pub fn scaled((lo, hi): (f64, f64), f: f64) -> (f64, f64) {
    (lo * f, hi * f)
}

/// What every ratio column means, for the pages that show one beside time columns.
pub const RATIO_NOTE: &str = "A ratio `x / y` is x's time ÷ y's time (below 1: x is \
    faster; ours ÷ theirs whenever GMP or OpenSSL is one side), the median of the \
    per-round ratios over the quiet rounds of one run, shown with their range (min–max) \
    in parentheses; † marks a ratio whose range contains 1 (this run does not settle \
    which of the two is faster). The time columns are each side's minimum over the \
    rounds; a ratio more than 10% away from the quotient of the times beside it is \
    marked ‡.";

/// A table with a header row (the column names, also the CSV header).
#[derive(Clone, Debug, Default)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<Cell>>,
}

impl Table {
    /// An empty table with these column names.
    pub fn new(header: &[&str]) -> Table {
        Table { header: header.iter().map(|s| s.to_string()).collect(), rows: Vec::new() }
    }

    /// Appends a row; it must have one cell per column.
    pub fn push(&mut self, row: Vec<Cell>) {
        assert_eq!(row.len(), self.header.len(), "row width differs from the header");
        self.rows.push(row);
    }

    /// GitHub-flavoured Markdown; numeric columns right-aligned. A column with no value
    /// in any row (all "—", e.g. GMP's when it was not timed) is left out; the CSV keeps
    /// every column.
    pub fn markdown(&self) -> String {
        let shown: Vec<usize> = (0..self.header.len())
            .filter(|&j| self.rows.is_empty() || self.rows.iter().any(|r| r[j] != Cell::Empty))
            .collect();
        let numeric: Vec<bool> = shown
            .iter()
            .map(|&j| !self.rows.is_empty() && self.rows.iter().all(|r| r[j].is_numeric()))
            .collect();
        let mut s = String::new();
        let header: Vec<&str> = shown.iter().map(|&j| self.header[j].as_str()).collect();
        s.push_str(&format!("| {} |\n", header.join(" | ")));
        let rule: Vec<&str> = numeric.iter().map(|&n| if n { "---:" } else { "---" }).collect();
        s.push_str(&format!("|{}|\n", rule.join("|")));
        for row in &self.rows {
            let cells: Vec<String> = shown.iter().map(|&j| row[j].markdown()).collect();
            s.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        s
    }

    /// Comma-separated values with a header line.
    pub fn csv(&self) -> String {
        let mut s = String::new();
        let header: Vec<String> = self.header.iter().map(|h| Cell::Text(h.clone()).csv()).collect();
        s.push_str(&header.join(","));
        s.push('\n');
        for row in &self.rows {
            let cells: Vec<String> = row.iter().map(Cell::csv).collect();
            s.push_str(&cells.join(","));
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_markdown_and_csv() {
        let mut t = Table::new(&["k", "name", "ratio"]);
        t.push(vec![Cell::Int(8), Cell::text("a, b"), Cell::Num(1.23456, 2)]);
        t.push(vec![Cell::Int(16), Cell::text("c|d"), Cell::Empty]);
        assert_eq!(
            t.markdown(),
            "| k | name | ratio |\n|---:|---|---:|\n| 8 | a, b | 1.23 |\n| 16 | c\\|d | — |\n"
        );
        assert_eq!(t.csv(), "k,name,ratio\n8,\"a, b\",1.23456\n16,c|d,\n");
    }

    /// A column with no value in any row is left out of the Markdown, not of the CSV.
    #[test]
    fn empty_columns_are_left_out_of_the_markdown() {
        let mut t = Table::new(&["k", "gmp"]);
        t.push(vec![Cell::Int(8), Cell::Empty]);
        assert_eq!(t.markdown(), "| k |\n|---:|\n| 8 |\n");
        assert_eq!(t.csv(), "k,gmp\n8,\n");
    }

    fn timing(samples: &[f64]) -> Timing {
        let ns = samples.iter().copied().fold(f64::MAX, f64::min);
        Timing {
            samples: samples.to_vec(),
            ns,
            median_ns: ns,
            rounds: samples.len(),
            batch: 1,
            quiet: (0..samples.len()).collect(),
        }
    }

    /// A ratio is x ÷ y, shown plain when it agrees with the quotient of the minimum
    /// times and marked when it does not.
    #[test]
    fn ratio_cells_say_when_they_disagree_with_the_times() {
        let (x, y) = (timing(&[20.0, 21.0, 22.0]), timing(&[10.0, 10.5, 11.0]));
        let c = Cell::ratio(&x, &y, 2);
        assert_eq!(c, Cell::Ratio(2.0, 2, false, (2.0, 2.0)));
        assert_eq!(c.markdown(), "2.00 (2.00–2.00)");
        // The minimum of x fell in a round where y was slow: the paired ratio is 3, the
        // quotient of the minima 1.
        let (x, y) = (timing(&[30.0, 30.0, 10.0]), timing(&[10.0, 10.0, 10.0]));
        let c = Cell::ratio(&x, &y, 2);
        assert_eq!(c.markdown(), "3.00 (1.00–3.00)‡");
        assert_eq!(c.csv(), "3");
        // A range across 1: the run does not settle which is faster.
        let (x, y) = (timing(&[9.5, 10.0, 10.5]), timing(&[10.0, 10.0, 10.0]));
        assert_eq!(Cell::ratio(&x, &y, 2).markdown(), "1.00 (0.95–1.05)†");
    }
}
