//! `modred report`: every paper's comparison, reproduced on this machine.
//!
//! The report is one self-contained HTML page, `index.html` ([`html`]: inline CSS, the
//! figures inline as SVG drawn by [`plot`]), and beside it the same content as Markdown
//! pages — `index.md` (the machine, the mode, the method of measurement, links) and one
//! page per paper with its tables and figures, our measured figures beside the published
//! ones and a sentence or two on what agrees, what differs and why — each table also as
//! CSV at full precision, each figure also as an SVG file.
//!
//! Every timed computation is first checked: all reducers must agree on every input they
//! are timed on, or the report stops with an error (no figure of a wrong computation is
//! ever published). How the timing is done is explained in [`modred_testkit::timing`].

mod anchors;
mod auto;
mod corrections;
mod html;
pub(crate) mod machine;
mod paper000;
mod paper001;
mod paper002;
mod paper003;
mod paper004;
mod plot;
mod progress;
pub(crate) mod rng;
mod table;

use modred_testkit::timing::{self, Plan};
use plot::Plot;
use progress::Progress;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Whether this build times GMP and OpenSSL beside modred (the `anchors` feature).
pub(crate) const ANCHORS: bool = cfg!(feature = "anchors");

/// The options of `modred report`.
pub struct ReportOptions {
    /// Fewer sizes and shorter timing: the whole report in about a minute.
    pub quick: bool,
    /// More sizes (4096-bit exponentiation) and longer timing: a few minutes.
    pub full: bool,
    /// The directory to write into (created if missing).
    pub out: PathBuf,
}

/// How thorough the run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Quick,
    Standard,
    Full,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Quick => "quick (--quick)",
            Mode::Standard => "standard",
            Mode::Full => "full (--full)",
        }
    }
}

/// What every section needs: the mode, the timing plans, progress reporting.
pub(crate) struct Context {
    pub mode: Mode,
    /// For operations of microseconds (one reduction, one multiplication).
    pub short_ops: Plan,
    /// For operations of milliseconds (one exponentiation).
    pub long_ops: Plan,
    started: Instant,
    bar: Progress,
    /// The figures drawn so far: SVG file name, SVG document.
    figures: RefCell<Vec<(String, String)>>,
}

impl Context {
    fn new(mode: Mode) -> Context {
        let ms = Duration::from_millis;
        let us = Duration::from_micros;
        let (short_ops, long_ops) = match mode {
            Mode::Quick => (
                Plan { batch: us(500), rounds: 21, min_rounds: 9, budget: ms(800) },
                Plan { batch: ms(1), rounds: 21, min_rounds: 7, budget: ms(4000) },
            ),
            Mode::Standard => (
                Plan { batch: ms(1), rounds: 31, min_rounds: 12, budget: ms(1500) },
                Plan { batch: ms(2), rounds: 31, min_rounds: 11, budget: ms(8000) },
            ),
            Mode::Full => (
                Plan { batch: ms(1), rounds: 61, min_rounds: 21, budget: ms(5000) },
                Plan { batch: ms(2), rounds: 51, min_rounds: 15, budget: ms(25_000) },
            ),
        };
        Context {
            mode,
            short_ops,
            long_ops,
            started: Instant::now(),
            bar: Progress::new(SECTIONS.len()),
            figures: RefCell::new(Vec::new()),
        }
    }

    /// A step of the current section begins (the progress line on a terminal).
    pub fn progress(&self, what: &str) {
        self.bar.step(what);
    }

    /// Draws a figure (a [`plot::Figure`] or [`plot::Map`]) and returns the Markdown that
    /// shows it: an image of `<file>.svg`, written beside the page and inlined into the
    /// HTML page.
    pub fn figure<'a>(&self, plot: impl Into<Plot<'a>>) -> Result<String, String> {
        let plot = plot.into();
        let file = format!("{}.svg", plot.file());
        let svg = plot.svg()?;
        let mut figures = self.figures.borrow_mut();
        if figures.iter().any(|(f, _)| *f == file) {
            return Err(format!("two figures named {file}"));
        }
        figures.push((file.clone(), svg));
        let caption = plot.caption().map(|c| format!("*{c}*\n\n")).unwrap_or_default();
        Ok(format!("\n![{}]({file})\n\n{caption}", plot.title().replace(['[', ']'], "")))
    }
}

/// The sections in order: the name in the progress line, the function that measures and
/// writes it.
type SectionFn = fn(&Context) -> Result<Section, String>;
const SECTIONS: [(&str, SectionFn); 7] = [
    ("paper 000", paper000::run),
    ("paper 001", paper001::run),
    ("paper 002", paper002::run),
    ("paper 003", paper003::run),
    ("paper 004", paper004::run),
    ("corrections", corrections::run),
    ("auto", auto::run),
];

/// The report's pages in order (the page's id, its file name without `.md`) and, per page,
/// the headings of its tables, figures and discussions in order. Every run checks its
/// pages against this list (and stops if they differ), `modred report --contents` prints
/// it, and the committed sample `docs/report-sample/index.html` is checked against it (a
/// test and `scripts/check-report-page.sh`): change the report and this list together,
/// then regenerate the sample with `scripts/regenerate-report-sample.sh`.
pub const CONTENTS: &[(&str, &[&str])] = &[
    (
        "paper000",
        &[
            "Table 1 — operation counts (b = 2^16)",
            "§3 — the quotient estimates",
            "Table 2 — reduction time relative to a multiplication",
            "Figure 1 — reduction time against argument length (512-bit modulus)",
            "Figure 2 — special arguments (512-bit modulus)",
            "Table 3 — full-length modular exponentiation",
            "Figure 3 — exponentiation of short bases (512-bit modulus)",
            "Modular multiplication at b = 2^64 (beyond the paper)",
        ],
    ),
    (
        "paper001",
        &[
            "Figure 1 — reduction time / multiplication time (Δ)",
            "Figure 2 — speedup ratios S = Δ(cyclic) / Δ(two full products)",
            "§IV-A — modular exponentiation",
            "§III — exhaustive check at n = 8",
        ],
    ),
    (
        "paper002",
        &[
            "Table 1 — single-precision multiplications (b = 2^16)",
            "Table 2 — window multiplication and squaring times",
            "Table 3 — single-precision additions (b = 2^16)",
            "Figure 3 — expected cost ratio against r (k = 32)",
            "Exponentiation — hong against Montgomery (b = 2^64)",
            "Memory of the tables",
            "Where could hong win on a 64-bit machine?",
        ],
    ),
    (
        "paper003",
        &[
            "Table 1 — pseudo-Mersenne primes 2^n − c, c < 1024, by search",
            "Table 2 — generalized Mersenne primes and their reduction weights",
            "Tables 3 and 4 — modular multiplication",
            "Tables 5 and 6 — modular reduction alone",
            "What the tables show",
        ],
    ),
    (
        "paper004",
        &[
            "The cycle-level model (§5)",
            "Table II — area and throughput from synthesis",
            "Figure 1 — throughput and area increase of the recoded design",
        ],
    ),
    ("corrections", &[]),
    ("auto", &["The crossover map", "Exponentiation method"]),
];

/// [`CONTENTS`] as text: per page a line `page ID`, then a line per heading.
pub fn contents_text() -> String {
    let mut s = String::new();
    for (id, headings) in CONTENTS {
        s.push_str(&format!("page {id}\n"));
        for h in *headings {
            s.push_str(&format!("{h}\n"));
        }
    }
    s
}

/// The headings (`## `) of a page's Markdown, in order.
fn headings(markdown: &str) -> Vec<&str> {
    markdown.lines().filter_map(|l| l.strip_prefix("## ")).collect()
}

/// Checks the pages written against [`CONTENTS`].
fn check_contents(sections: &[Section]) -> Result<(), String> {
    let ids: Vec<&str> = sections.iter().map(|s| s.file.trim_end_matches(".md")).collect();
    let want: Vec<&str> = CONTENTS.iter().map(|c| c.0).collect();
    if ids != want {
        return Err(format!("the report's pages {ids:?} differ from report::CONTENTS {want:?}"));
    }
    for (s, (id, want)) in sections.iter().zip(CONTENTS) {
        let got = headings(&s.markdown);
        if got != *want {
            return Err(format!(
                "page {id}: headings {got:?} differ from report::CONTENTS {want:?}"
            ));
        }
    }
    Ok(())
}

/// One page of the report.
pub(crate) struct Section {
    /// File name of the page, e.g. `paper000.md`.
    pub file: String,
    /// Title for the index.
    pub title: String,
    /// One paragraph for the index.
    pub summary: String,
    /// The page.
    pub markdown: String,
    /// CSV files: name and contents.
    pub csv: Vec<(String, String)>,
}

/// One table or figure of a paper's page: a heading, its Markdown body, its CSV files and
/// its figures (drawn after the body).
pub(crate) struct Part {
    pub heading: String,
    pub body: String,
    pub csv: Vec<(String, table::Table)>,
    pub figures: Vec<plot::Figure>,
}

/// Appends the contents (linked to the headings) and then every part to `md`: heading,
/// body, figures and links to its CSV files. Returns the CSV files.
fn write_parts(
    ctx: &Context,
    md: &mut String,
    parts: Vec<Part>,
) -> Result<Vec<(String, String)>, String> {
    md.push_str("Contents:\n");
    for p in &parts {
        md.push_str(&format!("- [{}](#{})\n", p.heading, html::anchor(&p.heading)));
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
    Ok(csv)
}

/// Runs the report and writes it into `opts.out`.
pub fn run(opts: &ReportOptions) -> Result<(), String> {
    let mode = match (opts.quick, opts.full) {
        (true, true) => return Err("--quick and --full exclude each other".to_string()),
        (true, false) => Mode::Quick,
        (false, true) => Mode::Full,
        (false, false) => Mode::Standard,
    };
    std::fs::create_dir_all(&opts.out)
        .map_err(|e| format!("cannot create {}: {e}", opts.out.display()))?;
    let ctx = Context::new(mode);
    if cfg!(debug_assertions) {
        ctx.bar.message("warning: a debug build; the times will not be representative");
    }
    let mut sections = Vec::new();
    for (name, run) in SECTIONS {
        ctx.bar.section(name);
        match run(&ctx) {
            Ok(s) => sections.push(s),
            Err(e) => {
                ctx.bar.message(&format!("{name} failed after {:.1} s", ctx.bar.elapsed_s()));
                return Err(e);
            }
        }
        ctx.bar.section_done();
    }
    check_contents(&sections)?;

    for s in &sections {
        write(&opts.out, &s.file, &s.markdown)?;
        for (name, contents) in &s.csv {
            write(&opts.out, name, contents)?;
        }
    }
    let figures = ctx.figures.take();
    for (name, svg) in &figures {
        write(&opts.out, name, svg)?;
    }
    let elapsed = ctx.started.elapsed();
    let index_md = index(&ctx, &sections, elapsed);
    write(&opts.out, "index.md", &index_md)?;
    let pages: Vec<html::Page<'_>> = sections
        .iter()
        .map(|s| html::Page {
            id: s.file.strip_suffix(".md").unwrap_or(&s.file),
            markdown: &s.markdown,
        })
        .collect();
    let page = html::page(&html::Input {
        title: "modred report",
        index: html::Page { id: "index", markdown: &index_md },
        sections: pages,
        figures: &figures,
        anchors: ANCHORS,
    });
    write(&opts.out, "index.html", &page)?;
    ctx.bar.message(&format!(
        "done in {:.0} s ({} mode): {}",
        elapsed.as_secs_f64(),
        mode.name(),
        opts.out.join("index.html").display()
    ));
    Ok(())
}

fn write(dir: &Path, name: &str, contents: &str) -> Result<(), String> {
    let path = dir.join(name);
    std::fs::write(&path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The index page.
fn index(ctx: &Context, sections: &[Section], elapsed: Duration) -> String {
    let mut s = String::from("# modred report\n\n");
    s.push_str(
        "The comparisons of the papers modred implements, measured again on this machine \
         with modred's own code. Each page shows our figures beside the published ones and \
         says what agrees, what differs and why. The papers, \"paper 000\" to \"paper 004\" \
         here, are cited in full in the repository's `docs/papers.md`.\n\n",
    );
    s.push_str("## Machine\n\n| | |\n|---|---|\n");
    for (k, v) in machine::describe() {
        s.push_str(&format!("| {k} | {v} |\n"));
    }
    s.push_str(&format!("| Mode | {} |\n", ctx.mode.name()));
    s.push_str(&format!(
        "| GMP and OpenSSL (`anchors`) | {} |\n",
        if ANCHORS {
            "timed beside modred in the same runs"
        } else {
            "absent: built without the `anchors` feature; `cargo run --release --features \
             anchors -- report` shows them (needs m4, libssl-dev, pkg-config)"
        }
    ));
    s.push_str(&format!("| Run time | {:.1} s |\n\n", elapsed.as_secs_f64()));
    s.push_str("## Sections\n\n");
    for sec in sections {
        s.push_str(&format!("- [{}]({}) — {}\n", sec.title, sec.file, sec.summary));
    }
    s.push_str(
        "\nEvery table is also in a CSV file beside its page, at full precision, and every \
         figure in an SVG file; `index.html` is all of it on one page.\n\n",
    );
    s.push_str(&method(ctx));
    s
}

/// How the figures were measured.
fn method(ctx: &Context) -> String {
    let p = ctx.short_ops;
    let q = ctx.long_ops;
    format!(
        "## How the figures are measured\n\n\
         - **Operation counts** run the library's own code on a counting digit \
           (`Counted<u16>`, b = 2^16), which counts every single-precision multiplication, \
           division and addition it performs.\n\
         - **Times** are only ever compared within one run of one process: the machines \
           are shared and noisy, so absolute times across runs mean little. The competitors \
           of one table row are timed interleaved: each one's batch size is calibrated to \
           at least {} ms (for exponentiations {} ms), then every round times one batch of \
           each competitor in a rotating order ({} rounds, at least {}; {} and {} for \
           exponentiations). A time shown is the minimum time per operation over the \
           rounds (noise only ever adds time). A ratio is the median of the per-round \
           ratios over the quiet rounds — the third of the rounds in which all competitors \
           ran closest to their own best — so the two sides of a ratio are always measured \
           milliseconds apart, in the same state of the machine. The clock is the {}, \
           which leaves out the time the process spent waiting while others ran.\n\
         - **One ratio convention**: a column `x / y` is x's time ÷ y's time, so below 1 \
           means x is faster; every comparison with GMP or OpenSSL is ours ÷ theirs, as in \
           `modred bench` and the README. Since a ratio is a median of per-round ratios \
           and a time a minimum, the ratio can differ from the quotient of the time \
           columns beside it; where it differs by more than 10% the ratio is marked ‡.\n\
         - **Spread**: beside each ratio of a table with times, in parentheses, the range \
           (min–max) of the per-round ratios it is the median of; a ratio whose range \
           contains 1 is marked † — this run does not settle which side is faster, and \
           another run may order them the other way.\n\
         - **Bars in the figures** show the same spread, in the series' colour: on a \
           curve of times, each point's bar runs from its minimum (the point itself) to its \
           maximum over the rounds; on a curve of ratios, from the smallest to the largest \
           per-round ratio the point is the median of. Paper 003's ratios are means over \
           several primes: there the bars (and the parentheses in its tables) are the \
           smallest and largest per-prime ratio. Each figure's legend and the line under \
           it say which. Published series and models have no bars.\n\
         - **Legends** never cover data: a figure's legend goes in the first corner of the \
           plot where it meets no drawn line, point or bar, and below the plot (the figure \
           made taller) when every corner is taken.\n\
         - **Reproducibility**: on a virtual machine whose cores are shared with other \
           tenants, a busy neighbour on the same physical core slows throughput-bound code \
           (the multiplication loops of the product and of Montgomery's reduction) far more \
           than latency-bound code (the classical algorithm's chain of dependent steps), \
           and such phases last seconds. On such a machine the ratios involving the \
           classical algorithm can differ by a factor of up to two between runs (we saw \
           1.6 and 2.9 multiplications for a 1024-bit classical reduction at b = 2^16 on \
           the same machine); the rankings are far more stable than the ratios. A \
           dedicated machine gives repeatable figures.\n\
         - **Inputs** are fixed-seed pseudo-random (SplitMix64), so every run times the \
           same numbers; reductions cycle through 16 different arguments.\n\
         - **Correctness first**: before any timing, every reducer's result on every timed \
           input is checked against the others and against `Nat` division; the report \
           aborts rather than publish the time of a wrong computation.\n\
         - Times exclude each algorithm's precalculation (it depends only on the modulus), \
           as in the papers.\n",
        p.batch.as_secs_f64() * 1e3,
        q.batch.as_secs_f64() * 1e3,
        p.rounds,
        p.min_rounds,
        q.rounds,
        q.min_rounds,
        timing::clock_name(),
    )
}
