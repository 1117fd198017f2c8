//! A table rendered twice: rounded for Markdown, at full precision for CSV.

/// One cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text, shown as is.
    Text(String),
    /// A number and the decimals to show it with in Markdown (CSV keeps every digit).
    Num(f64, usize),
    /// An integer.
    Int(i64),
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

    fn markdown(&self) -> String {
        match self {
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
            Cell::Num(v, _) => format!("{v}"),
            Cell::Int(v) => v.to_string(),
            Cell::Empty => String::new(),
        }
    }

    fn is_numeric(&self) -> bool {
        matches!(self, Cell::Num(..) | Cell::Int(_) | Cell::Empty)
    }
}

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

    /// GitHub-flavoured Markdown; numeric columns right-aligned.
    pub fn markdown(&self) -> String {
        let numeric: Vec<bool> = (0..self.header.len())
            .map(|j| !self.rows.is_empty() && self.rows.iter().all(|r| r[j].is_numeric()))
            .collect();
        let mut s = String::new();
        s.push_str(&format!("| {} |\n", self.header.join(" | ")));
        let rule: Vec<&str> = numeric.iter().map(|&n| if n { "---:" } else { "---" }).collect();
        s.push_str(&format!("|{}|\n", rule.join("|")));
        for row in &self.rows {
            let cells: Vec<String> = row.iter().map(Cell::markdown).collect();
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
}
