//! `modred report --quick` end to end: it runs, writes every page and CSV file, and the
//! tables have the expected shape. Timing figures are not asserted (speed is never
//! asserted in a test); only that they are finite and positive.
//!
//! The quick report takes seconds in a release build but much longer unoptimized, so the
//! end-to-end run happens in `cargo test --release` and is skipped otherwise.

use std::path::{Path, PathBuf};
use std::process::Command;

fn modred() -> Command {
    Command::new(env!("CARGO_BIN_EXE_modred"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("modred-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Data lines of a CSV file (without the header), split into cells (no quoted commas in
/// the numeric files checked here).
fn csv_rows(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = text.lines();
    let header = lines.next().expect("a header line").split(',').map(String::from).collect();
    (header, lines.map(|l| l.split(',').map(String::from).collect()).collect())
}

#[test]
fn quick_report_writes_every_table() {
    if cfg!(debug_assertions) {
        eprintln!("skipped: run `cargo test --release` for the end-to-end report");
        return;
    }
    let out = temp_dir("report");
    let status = modred().args(["report", "--quick", "--out"]).arg(&out).status().unwrap();
    assert!(status.success());

    let index = std::fs::read_to_string(out.join("index.md")).unwrap();
    assert!(index.contains("(paper000.md)") && index.contains("CPU"));
    let page = std::fs::read_to_string(out.join("paper000.md")).unwrap();
    for heading in ["Table 1", "Table 2", "Figure 1", "Figure 2", "Table 3"] {
        assert!(page.contains(&format!("## {heading}")), "{heading} missing");
    }
    assert!(!page.contains("NaN") && !page.contains("inf"));

    // Table 1: 5 sizes × (3 reducers + the product), exact counts.
    let (header, rows) =
        csv_rows(&std::fs::read_to_string(out.join("paper000_table1.csv")).unwrap());
    assert_eq!(header[..4], ["k", "bits", "algorithm", "mul"]);
    assert_eq!(rows.len(), 20);
    for r in &rows {
        let k: u64 = r[0].parse().unwrap();
        let mul: u64 = r[3].parse().unwrap();
        assert!(mul >= k * k, "{r:?}");
    }

    // Table 2: 7 sizes at b = 2^64, 5 at b = 2^16; every time positive.
    let (header, rows) =
        csv_rows(&std::fs::read_to_string(out.join("paper000_table2.csv")).unwrap());
    assert_eq!(rows.len(), 12);
    let ns = header.iter().position(|h| h == "classical_ns").unwrap();
    for r in &rows {
        for cell in &r[ns..ns + 7] {
            let v: f64 = cell.parse().unwrap();
            assert!(v.is_finite() && v > 0.0, "{r:?}");
        }
    }

    // Figures 1 and 2 and Table 3 have rows at both digit sizes.
    for (file, min_rows) in
        [("paper000_figure1.csv", 18), ("paper000_figure2.csv", 19), ("paper000_table3.csv", 22)]
    {
        let (_, rows) = csv_rows(&std::fs::read_to_string(out.join(file)).unwrap());
        assert!(rows.len() >= min_rows, "{file}: {} rows", rows.len());
        assert!(rows.iter().any(|r| r[0] == "16") && rows.iter().any(|r| r[0] == "64"));
    }
    // Paper 002: its page and tables; hong's counts are exactly the paper's Table 1.
    assert!(index.contains("(paper002.md)"));
    let page = std::fs::read_to_string(out.join("paper002.md")).unwrap();
    for heading in ["Table 1", "Table 2", "Table 3", "Exponentiation", "Memory"] {
        assert!(page.contains(&format!("## {heading}")), "paper 002: {heading} missing");
    }
    assert!(!page.contains("NaN") && !page.contains("inf"));
    let (header, rows) =
        csv_rows(&std::fs::read_to_string(out.join("paper002_table1.csv")).unwrap());
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert!(!rows.is_empty());
    for r in &rows {
        let k: u64 = r[col("k")].parse().unwrap();
        assert_eq!(r[col("hong_window_mul")].parse::<u64>().unwrap(), k * k);
        assert_eq!(r[col("hong_sqr")].parse::<u64>().unwrap(), (k * k + k) / 2);
        assert_eq!(r[col("hong_table_build")].parse::<u64>().unwrap(), 0);
    }
    for file in ["paper002_table2.csv", "paper002_table3.csv", "paper002_powm.csv"] {
        let (_, rows) = csv_rows(&std::fs::read_to_string(out.join(file)).unwrap());
        assert!(!rows.is_empty(), "{file}");
    }
    // The HTML page: every section, every figure inline as SVG, nothing fetched.
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    for id in ["index", "paper000", "paper001", "paper002", "paper003", "paper004", "auto"] {
        assert!(html.contains(&format!("id=\"{id}\"")), "section {id} missing");
    }
    let svgs: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "svg"))
        .collect();
    assert!(svgs.len() >= 15, "{} figures", svgs.len());
    assert_eq!(html.matches("<figure class=\"plot\">\n<svg").count(), svgs.len());
    assert!(!html.contains("src=\"http") && !html.contains("<script"));
    // Every line figure has a legend group, and the timed ones bars, named under the
    // figure; paper 003 shows its ratios' spread over the primes.
    for e in &svgs {
        let svg = std::fs::read_to_string(e.path()).unwrap();
        if svg.contains("<g class=\"series\"") {
            assert!(svg.contains("<g class=\"legend\""), "{:?} has no legend", e.path());
        }
    }
    let p003 = std::fs::read_to_string(out.join("paper003.md")).unwrap();
    assert!(
        p003.contains("min–max over primes")
            && p003.contains("*Vertical bars: min–max of the per-prime ratios"),
        "{p003}"
    );
    let p000 = std::fs::read_to_string(out.join("paper000.md")).unwrap();
    assert!(p000.contains("*Vertical bars: min–max over the timing rounds"), "{p000}");
    // No legend covers a drawn line, point or bar, read back from each SVG by
    // scripts/check-figures.py (skipped, saying so, without python3).
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/check-figures.py");
    match Command::new("python3").arg(&script).arg(&out).output() {
        Ok(o) => assert!(
            o.status.success(),
            "check-figures.py: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => eprintln!("SKIPPED: scripts/check-figures.py (python3: {e})"),
    }
    assert!(html.contains("auto_map.svg") && page.contains("](paper002_powm.svg)"));
    let auto = std::fs::read_to_string(out.join("auto_map.csv")).unwrap();
    assert!(auto.lines().count() > 200 && auto.contains("\npowm,odd,1024,"), "{auto}");
    // Montgomery-style reducers never for an even modulus.
    assert!(!auto.lines().any(|l| l.contains(",even,") && l.contains("montgomery")), "{auto}");
    // The corrections to the papers, the computed ones recomputed from the transcribed
    // tables, the counting digit, the matrices and the datapath model.
    let corr = std::fs::read_to_string(out.join("corrections.md")).unwrap();
    for want in [
        "k(k + 2.00)",
        "up to 18.3%",
        "17.3–30.4% (Pentium) and 25.7–41.0% (Alpha)",
        "up to 7.8% more area",
        "digits never added in the printed matrix: z_26",
    ] {
        assert!(corr.contains(want), "{want} missing from corrections.md");
    }
    assert!(index.contains("(corrections.md)"));
    // Table II says where its synthesis figures come from (a quick run never reruns it).
    let p004 = std::fs::read_to_string(out.join("paper004.md")).unwrap();
    assert!(p004.contains("not rerun by this report** (not a --full run)"), "{p004}");
    // A fresh run writes the pages and headings the code's list names.
    assert_eq!(
        html_contents(&html),
        modred_cli::report::CONTENTS
            .iter()
            .map(|(id, hs)| (id.to_string(), hs.iter().map(|h| h.to_string()).collect()))
            .collect::<Vec<(String, Vec<String>)>>()
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn quick_and_full_exclude_each_other() {
    let out = temp_dir("report-flags");
    let o = modred().args(["report", "--quick", "--full", "--out"]).arg(&out).output().unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("error: ") && err.contains("--quick"), "{err}");
    let _ = std::fs::remove_dir_all(&out);
}

/// The papers are cited through the repository's bibliography, never through a path
/// outside the repository: docs/papers.md has each paper, and the README points to it.
#[test]
fn papers_are_cited_in_the_repository() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let papers = std::fs::read_to_string(root.join("docs/papers.md")).unwrap();
    for n in 0..5 {
        assert!(papers.contains(&format!("## Paper 00{n} ")), "paper 00{n} missing");
        assert!(papers.contains(&format!("crates/modred-cli/src/report/paper00{n}/")));
    }
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(readme.contains("docs/papers.md") && !readme.contains("shared/papers"));
}

/// The pages (section ids) and, per page, the table and figure headings (`<h3>`) of a
/// report's HTML page, in order; the index page has none.
fn html_contents(html: &str) -> Vec<(String, Vec<String>)> {
    let unescape = |s: &str| s.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut rest = html;
    loop {
        let s = rest.find("<section");
        let h = rest.find("<h3");
        match (s, h) {
            (Some(si), hi) if hi.is_none_or(|hi| si < hi) => {
                let tag = &rest[si..rest[si..].find('>').map_or(rest.len(), |e| si + e)];
                let id = tag.split("id=\"").nth(1).and_then(|t| t.split('"').next());
                out.push((id.unwrap_or_default().to_string(), Vec::new()));
                rest = &rest[si + 8..];
            }
            (_, Some(hi)) => {
                let open = hi + rest[hi..].find('>').expect("a whole tag") + 1;
                let close = open + rest[open..].find("</h3>").expect("a closed heading");
                if let Some(last) = out.last_mut() {
                    last.1.push(unescape(&rest[open..close]));
                }
                rest = &rest[close..];
            }
            _ => break,
        }
    }
    out.retain(|(id, _)| id != "index");
    out
}

/// The committed sample shows exactly the pages and headings the code's list names:
/// `scripts/regenerate-report-sample.sh` regenerates it when the report changes.
#[test]
fn the_committed_sample_matches_the_report_contents() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let sample = std::fs::read_to_string(root.join("docs/report-sample/index.html")).unwrap();
    let want: Vec<(String, Vec<String>)> = modred_cli::report::CONTENTS
        .iter()
        .map(|(id, hs)| (id.to_string(), hs.iter().map(|h| h.to_string()).collect()))
        .collect();
    assert_eq!(
        html_contents(&sample),
        want,
        "docs/report-sample is not the report the code writes: run \
         scripts/regenerate-report-sample.sh"
    );
    // And `modred report --contents` prints the same list.
    let out = modred().args(["report", "--contents"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), modred_cli::report::contents_text());
}
