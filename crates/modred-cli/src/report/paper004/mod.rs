//! Paper 004: Manochehri, Sadeghian and Pourmozafari, "A modified radix-2 Montgomery
//! modular multiplication with new recoding method" — Table II (area and throughput of
//! the conventional and the recoded carry-save multiplier) from our Yosys runs, and the
//! cycle-level model of §5.
//!
//! The synthesis figures are read from `hw/results/synth.csv`, which `hw/run.sh` writes
//! from its Yosys runs (never typed by hand); `--full` with Yosys installed reruns the
//! synthesis of the four sizes instead (seconds to minutes, depending on the machine).
//! Without results, or without the tools, the page says so and shows the model only.

pub(crate) mod paper;

use super::plot::{Figure, Scale};
use super::rng::{digits, nat, SplitMix64};
use super::table::{Cell, Table};
use super::{Context, Mode, Section};
use modred::reduce::{Radix2Montgomery, Radix2MontgomeryRecoded};
use modred::{Nat, Reducer};
use modred_research::radix2_model::{self as model, Design};
use std::path::PathBuf;

/// The sizes of the paper's Table II.
const SIZES: [u64; 4] = [256, 512, 768, 1024];

/// One row of `hw/results/synth.csv`.
#[derive(Clone, Debug, PartialEq)]
struct Synth {
    design: String,
    k: u64,
    cells: u64,
    flip_flops: u64,
    depth: u64,
    cycles: u64,
}

impl Synth {
    /// Bits per gate delay: `k / (cycles × depth)`.
    fn throughput(&self) -> f64 {
        self.k as f64 / (self.cycles as f64 * self.depth as f64)
    }
}

/// Where `hw/results` is: under the current directory (a run from the repository root),
/// else in the source tree this binary was built from.
fn results_dir() -> PathBuf {
    let here = PathBuf::from("hw/results");
    if here.join("synth.csv").exists() {
        return here;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../hw/results")
}

fn parse_synth(text: &str) -> Result<Vec<Synth>, String> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    if !header.starts_with("design,k,cells,flip_flops,logic_depth,cycles") {
        return Err(format!("unexpected header '{header}'"));
    }
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let num = |i: usize| -> Result<u64, String> {
                f.get(i).and_then(|s| s.trim().parse().ok()).ok_or(format!("bad line '{l}'"))
            };
            Ok(Synth {
                design: f.first().unwrap_or(&"").to_string(),
                k: num(1)?,
                cells: num(2)?,
                flip_flops: num(3)?,
                depth: num(4)?,
                cycles: num(5)?,
            })
        })
        .collect()
}

/// What a synthesis run wrote: `synth.csv` and `tools.txt`.
struct SynthRun {
    csv: String,
    tools: String,
    /// Wall-clock seconds of `hw/run.sh --synth-only`.
    seconds: f64,
}

/// With `--full` and Yosys installed: reruns the synthesis of Table II's four sizes
/// (`hw/run.sh --synth-only --full`); `None` when not rerun (not a full run, no Yosys, or
/// no `hw/run.sh` beside the results).
fn rerun_synthesis(
    ctx: &Context,
    results: &std::path::Path,
    yosys: bool,
) -> Option<Result<SynthRun, String>> {
    if ctx.mode != Mode::Full || !yosys {
        return None;
    }
    let root = results.join("../..");
    if !root.join("hw/run.sh").exists() {
        return None;
    }
    ctx.progress("paper 004, table II: rerunning the synthesis (hw/run.sh --synth-only --full)");
    Some(synthesize(&root, None))
}

/// Runs `hw/run.sh --synth-only` of the repository at `root` into a temporary directory
/// (its `RESULTS_DIR` and `BUILD_DIR`, removed afterwards) and returns what it wrote:
/// Table II's four sizes (`--full`), or `sizes` (its `SYNTH_SIZES`, e.g. `"256"`).
fn synthesize(root: &std::path::Path, sizes: Option<&str>) -> Result<SynthRun, String> {
    // Absolute, so that the script (which changes to the repository root) and the
    // directories it is given do not depend on this process's current directory.
    let root = std::fs::canonicalize(root).map_err(|e| format!("{}: {e}", root.display()))?;
    let tmp = std::env::temp_dir().join(format!(
        "modred-report-synth-{}-{}",
        std::process::id(),
        sizes.unwrap_or("full").replace(' ', "-")
    ));
    let mut cmd = std::process::Command::new("bash");
    cmd.arg(root.join("hw/run.sh")).arg("--synth-only").current_dir(&root);
    match sizes {
        Some(s) => cmd.env("SYNTH_SIZES", s),
        None => cmd.arg("--full").env_remove("SYNTH_SIZES"),
    };
    cmd.env("RESULTS_DIR", tmp.join("results"))
        .env("BUILD_DIR", tmp.join("build"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let started = std::time::Instant::now();
    let run = cmd.output();
    let seconds = started.elapsed().as_secs_f64();
    let read = |f: &str| std::fs::read_to_string(tmp.join("results").join(f));
    let result = match run {
        Ok(o) if o.status.success() => match (read("synth.csv"), read("tools.txt")) {
            (Ok(csv), Ok(tools)) => Ok(SynthRun { csv, tools, seconds }),
            (Err(e), _) | (_, Err(e)) => Err(format!("hw/run.sh wrote no results: {e}")),
        },
        Ok(o) => Err(format!(
            "hw/run.sh exited with {}: {}",
            o.status,
            String::from_utf8_lossy(&o.stderr).lines().last().unwrap_or_default()
        )),
        Err(e) => Err(format!("cannot run hw/run.sh: {e}")),
    };
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

/// The first line of `tool -V`, if the tool runs.
fn tool_version(tool: &str) -> Option<String> {
    let out = std::process::Command::new(tool).arg("-V").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.lines().next().map(|l| l.trim().to_string()).filter(|l| !l.is_empty())
}

/// The model's row for one `k`: both designs on random operands, checked against the
/// software.
struct ModelRow {
    k: u64,
    plain: model::Simulation,
    recoded: model::Simulation,
}

fn run_model(k: u64, seed: u64) -> Result<ModelRow, String> {
    let mut rng = SplitMix64::new(seed);
    let n: Nat = nat(rng.odd_modulus(k));
    let a = nat(rng.below(&digits(&n)));
    let b = nat(rng.below(&digits(&n)));
    let plain = model::simulate_binary(Design::Plain, &a, &b, &n).map_err(|e| e.to_string())?;
    let recoded = model::simulate_binary(Design::Recoded, &a, &b, &n).map_err(|e| e.to_string())?;
    // The software's raw products must equal the model's.
    let w = n.len();
    let (al, bl) = (a.to_padded(w).unwrap_or_default(), b.to_padded(w).unwrap_or_default());
    let mut s = vec![0u64; w + 1];
    let p = Radix2Montgomery::new(&n).map_err(|e| e.to_string())?;
    p.mul_raw(&mut s, &al, &bl);
    let sp = Nat::from_limbs(&s);
    let r = Radix2MontgomeryRecoded::new(&n).map_err(|e| e.to_string())?;
    r.mul_raw(&mut s, &al, &bl, &r.correction(&al));
    let sr = Nat::from_limbs(&s);
    if plain.result() != sp || recoded.result() != sr || sr >= n.shl(1) {
        return Err(format!(
            "paper 004: the datapath model disagrees with the software at k = {k}"
        ));
    }
    Ok(ModelRow { k, plain, recoded })
}

fn pct(new: f64, old: f64) -> f64 {
    100.0 * (new / old - 1.0)
}

/// Builds the page.
pub fn run(ctx: &Context) -> Result<Section, String> {
    ctx.progress("paper 004: cycle-level model of the radix-2 datapaths");
    let sizes: &[u64] = if ctx.mode == Mode::Quick { &SIZES[..2] } else { &SIZES };
    let model_rows: Vec<ModelRow> =
        sizes.iter().map(|&k| run_model(k, 0x004 ^ k)).collect::<Result<_, _>>()?;

    let mut md = String::from(
        "# Paper 004 — A modified radix-2 Montgomery multiplication with recoding\n\n\
         K. Manochehri, B. Sadeghian and S. Pourmozafari recode the multiplier B of the \
         bit-serial (radix-2) Montgomery multiplication as an even number (B − 1 when B is \
         odd), so that q_i no longer depends on A_i·B_0; the missing A is added back in one \
         extra step after the loop (input a = A·2^(−k) mod n), giving A·B·2^(−(k+1)) mod n \
         below 2n without a final subtraction. Their carry-save multiplier takes k + 2 \
         cycles instead of k + 1 but runs at a higher clock; Table II reports 30–40 % more \
         throughput for about 8 % more gates (ASIC) and 50–66 % more for 0.2 % more slices \
         (FPGA). modred implements both algorithms in software (`radix2-montgomery`, \
         `radix2-montgomery-recoded`), as a cycle-level model of both carry-save \
         datapaths, and in Verilog (`hw/`), simulated with Icarus Verilog against vectors \
         from the software and synthesized with Yosys.\n\n\
         One correction to the paper: it says the correction input is the standard value a \
         of A (A = a·2^k mod n). Chained products must share one representation factor, \
         and the product carries 2^(−(k+1)), so the factor is 2^(k+1) and the input the \
         correction needs is A·2^(−k) mod n = 2a mod n (see the doc comment of \
         `Radix2MontgomeryRecoded`).\n\n",
    );

    // The model.
    md.push_str("## The cycle-level model (§5)\n\n");
    md.push_str(
        "Both datapaths run cycle by cycle on random operands (`modred radix2-model --bits K` \
         shows one run); results equal the software's. Critical path in full-adder levels: \
         the 5-to-2 carry-save adder is three levels per bit column, and q·n enters its \
         first level, so q's logic adds to it — the 4-input parity \
         S1_0 ⊕ S2_0 ⊕ A_i·B1_0 ⊕ A_i·B2_0 (two levels) for the conventional design, \
         S1_0 ⊕ S2_0 (one level) for the recoded one. Model throughput = \
         k / (cycles × levels), in bits per full-adder delay.\n\n",
    );
    let mut mt = Table::new(&[
        "k",
        "plain cycles",
        "plain FA levels",
        "plain bits/FA delay",
        "recoded cycles",
        "recoded FA levels",
        "recoded bits/FA delay",
        "throughput change %",
    ]);
    for r in &model_rows {
        let tp = |s: &model::Simulation| s.k as f64 / (s.cycles as f64 * s.critical_path as f64);
        mt.push(vec![
            Cell::Int(r.k as i64),
            Cell::Int(r.plain.cycles as i64),
            Cell::Int(r.plain.critical_path as i64),
            Cell::num(Some(tp(&r.plain)), 4),
            Cell::Int(r.recoded.cycles as i64),
            Cell::Int(r.recoded.critical_path as i64),
            Cell::num(Some(tp(&r.recoded)), 4),
            Cell::num(Some(pct(tp(&r.recoded), tp(&r.plain))), 1),
        ]);
    }
    md.push_str(&mt.markdown());
    md.push_str("\nData: [paper004_model.csv](paper004_model.csv).\n\n");
    let mut csv = vec![("paper004_model.csv".to_string(), mt.csv())];

    // Table II from the synthesis.
    md.push_str("## Table II — area and throughput from synthesis\n\n");
    let dir = results_dir();
    let yosys_now = tool_version("yosys");
    let iverilog_now = tool_version("iverilog");
    md.push_str(&format!(
        "Tools on this machine now: {}; {}.\n\n",
        yosys_now.as_deref().unwrap_or("Yosys not installed"),
        iverilog_now.as_deref().unwrap_or("Icarus Verilog not installed"),
    ));
    // With --full and Yosys installed, the synthesis is rerun (hw/run.sh --synth-only
    // --full) into a temporary directory and its results used; otherwise the committed
    // hw/results are read. The page says which.
    let committed = || {
        let tools = std::fs::read_to_string(dir.join("tools.txt")).unwrap_or_default();
        std::fs::read_to_string(dir.join("synth.csv")).ok().map(|csv| (csv, tools))
    };
    let (results, source) = match rerun_synthesis(ctx, &dir, yosys_now.is_some()) {
        Some(Ok(run)) => (
            Some((run.csv, run.tools)),
            format!(
                "**Rerun by this report** (`--full` with Yosys installed): `hw/run.sh \
                 --synth-only --full` ran in {:.0} s; the committed `hw/results/synth.csv` \
                 was not used.",
                run.seconds
            ),
        ),
        Some(Err(e)) => (
            committed(),
            format!(
                "The synthesis rerun failed ({e}); shown instead: the committed \
                 `hw/results/synth.csv`, **not rerun by this report**."
            ),
        ),
        None => (
            committed(),
            format!(
                "Read from the committed `hw/results/synth.csv`, **not rerun by this report** \
                 ({}): `modred report --full` reruns the synthesis when Yosys is installed.",
                if ctx.mode != Mode::Full { "not a --full run" } else { "Yosys is not installed" }
            ),
        ),
    };
    md.push_str(&source);
    md.push_str("\n\n");
    let mut synth: Option<Vec<Synth>> = None;
    match results {
        None => md.push_str(
            "No synthesis results: `hw/results/synth.csv` is missing. Install Yosys and \
             Icarus Verilog (`apt-get install -y yosys iverilog`) and run `hw/run.sh` to \
             produce them; the model above is the software part of this comparison.\n",
        ),
        Some((text, tools)) => {
            let rows = parse_synth(&text).map_err(|e| format!("synth.csv: {e}"))?;
            md.push_str(
                "Source: `synth.csv` as written by `hw/run.sh` from Yosys runs. Each design is synthesized to generic gates \
                 (`synth; abc -g AND,NAND,OR,NOR,XOR,XNOR,MUX`); area = all cells, \
                 flip-flops included; logic depth = the longest path of gates between \
                 flip-flops (`ltp -noff`); throughput = k / (cycles × depth), in bits per \
                 gate delay — the paper's Mb/s with the clock period taken as the depth. \
                 The paper's columns are the relative changes (new vs. conventional) of its \
                 Table II.\n\n",
            );
            if !tools.trim().is_empty() {
                md.push_str("The run that produced them:\n\n```text\n");
                md.push_str(tools.trim_end());
                md.push_str("\n```\n\n");
            }
            let mut t = Table::new(&[
                "k",
                "plain cells",
                "plain depth",
                "plain bits/gate delay",
                "recoded cells",
                "recoded depth",
                "recoded bits/gate delay",
                "area change % (ours)",
                "throughput change % (ours)",
                "area change % (ASIC)",
                "throughput change % (ASIC)",
                "area change % (FPGA)",
                "throughput change % (FPGA)",
            ]);
            let mut ks: Vec<u64> = rows.iter().map(|r| r.k).collect();
            ks.sort_unstable();
            ks.dedup();
            for k in ks {
                let find = |d: &str| rows.iter().find(|r| r.k == k && r.design == d);
                let (Some(p), Some(r)) = (find("plain"), find("recoded")) else { continue };
                let asic = paper::change(&paper::ASIC, k);
                let fpga = paper::change(&paper::FPGA, k);
                t.push(vec![
                    Cell::Int(k as i64),
                    Cell::text(format!("{} ({} FF)", p.cells, p.flip_flops)),
                    Cell::Int(p.depth as i64),
                    Cell::num(Some(p.throughput()), 4),
                    Cell::text(format!("{} ({} FF)", r.cells, r.flip_flops)),
                    Cell::Int(r.depth as i64),
                    Cell::num(Some(r.throughput()), 4),
                    Cell::num(Some(pct(r.cells as f64, p.cells as f64)), 1),
                    Cell::num(Some(pct(r.throughput(), p.throughput())), 1),
                    Cell::num(asic.map(|c| c.0), 1),
                    Cell::num(asic.map(|c| c.1), 1),
                    Cell::num(fpga.map(|c| c.0), 1),
                    Cell::num(fpga.map(|c| c.1), 1),
                ]);
            }
            md.push_str(&t.markdown());
            md.push_str("\nData: [paper004_table2.csv](paper004_table2.csv).\n\n");
            csv.push(("paper004_table2.csv".to_string(), t.csv()));
            md.push_str(&discussion(&rows, &model_rows));
            synth = Some(rows);
        }
    }
    // Figure 1 of the paper: the relative changes against k.
    md.push_str("## Figure 1 — throughput and area increase of the recoded design\n\n");
    md.push_str(
        "The paper's Figure 1 plots Table II's relative changes (new vs. conventional) \
         against k. Solid: ours — the synthesized netlists (when `hw/results/synth.csv` is \
         there) and the cycle-level model's throughput; dashed: the paper's ASIC and FPGA \
         figures.\n",
    );
    md.push_str(&ctx.figure(&figure1(synth.as_deref(), &model_rows))?);
    Ok(Section {
        file: "paper004.md".to_string(),
        title: "Paper 004 — Modified radix-2 Montgomery multiplication with recoding".to_string(),
        summary: "the conventional and the recoded bit-serial Montgomery multiplier: cycle \
                  model, and Table II (area, throughput) from Yosys synthesis of our Verilog"
            .to_string(),
        markdown: md,
        csv,
    })
}

/// The paper's Figure 1 (throughput and area increase, %, against k): ours from the
/// synthesis (when there is one) and the model, the paper's ASIC and FPGA rows dashed.
fn figure1(synth: Option<&[Synth]>, model_rows: &[ModelRow]) -> Figure {
    let mut f = Figure::new(
        "paper004_figure1",
        "Figure 1: recoded vs. conventional radix-2 Montgomery multiplier",
    )
    .x("operand length k (bits)", Scale::Linear)
    .y("increase over the conventional design (%)", Scale::Linear)
    .reference("no change", 0.0);
    if let Some(rows) = synth {
        let by_k = |g: &dyn Fn(&Synth) -> f64| -> Vec<(f64, f64)> {
            rows.iter()
                .filter(|p| p.design == "plain")
                .filter_map(|p| {
                    rows.iter()
                        .find(|r| r.design == "recoded" && r.k == p.k)
                        .map(|r| (p.k as f64, pct(g(r), g(p))))
                })
                .collect()
        };
        f = f
            .series("throughput, ours (Yosys)", by_k(&|r| r.throughput()))
            .series("area, ours (Yosys)", by_k(&|r| r.cells as f64));
    }
    let tp = |s: &model::Simulation| s.k as f64 / (s.cycles as f64 * s.critical_path as f64);
    f = f.series(
        "throughput, cycle model",
        model_rows.iter().map(|r| (r.k as f64, pct(tp(&r.recoded), tp(&r.plain)))),
    );
    for (name, rows) in [("ASIC", &paper::ASIC), ("FPGA", &paper::FPGA)] {
        let changes: Vec<(f64, (f64, f64))> =
            rows.iter().filter_map(|r| paper::change(rows, r.k).map(|c| (r.k as f64, c))).collect();
        f = f
            .published(
                &format!("throughput, paper {name}"),
                changes.iter().map(|&(k, (_, t))| (k, t)),
            )
            .published(&format!("area, paper {name}"), changes.iter().map(|&(k, (a, _))| (k, a)));
    }
    f
}

/// The relative change (recoded vs plain, %) of `f` at each size of `rows`.
fn gains(rows: &[Synth], f: impl Fn(&Synth) -> f64) -> Vec<f64> {
    rows.iter()
        .filter(|p| p.design == "plain")
        .filter_map(|p| {
            rows.iter().find(|r| r.design == "recoded" && r.k == p.k).map(|r| pct(f(r), f(p)))
        })
        .collect()
}

/// `lo–hi` with one decimal (or one number).
fn range(v: &[f64]) -> String {
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if v.is_empty() {
        "—".to_string()
    } else if (hi - lo).abs() < 0.05 {
        format!("{lo:.1}")
    } else {
        format!("{lo:.1}–{hi:.1}")
    }
}

/// A few sentences on what agrees and what differs, from the numbers.
fn discussion(rows: &[Synth], model_rows: &[ModelRow]) -> String {
    let depth = |d: &str| -> Vec<u64> {
        rows.iter().filter(|r| r.design == d).map(|r| r.depth).collect::<Vec<_>>()
    };
    let (pd, rd) = (depth("plain"), depth("recoded"));
    let fmt = |v: &[u64]| {
        let (lo, hi) = (v.iter().min().copied().unwrap_or(0), v.iter().max().copied().unwrap_or(0));
        if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}–{hi}")
        }
    };
    let model = model_rows
        .first()
        .map(|r| format!("{} vs {}", r.plain.critical_path, r.recoded.critical_path))
        .unwrap_or_default();
    format!(
        "### What agrees, what differs\n\n\
         - Throughput: the recoded design gains {} % here against the paper's 31–40 % \
           (ASIC) and 51–67 % (FPGA); area grows {} % against its 7.8 % (ASIC). The \
           direction agrees, the size of the gain does not: one gate level of about 13 is \
           all the recoding removes from our netlist.\n\
         - Cycles: k + 1 against k + 2, as in the paper, checked in simulation for every \
           vector.\n\
         - Logic depth after synthesis: {} gates (conventional) against {} (recoded); the \
           model's full-adder levels are {}. The recoding takes A_i·B_0 out of q, which \
           shortens the path that q·n feeds; how much that buys after technology mapping \
           depends on the tool, which restructures the XOR/majority logic of the \
           carry-save adder. The throughput change follows from the depths and the one \
           extra cycle.\n\
         - Area: the recoded design adds the register and input for a, a multiplexer per \
           bit on one adder input and the recoding of B's low bits; the paper's ASIC \
           figure (+7.8 %) includes the extra input the same way.\n\
         - Units: the paper gives gates (NAND2 equivalents of a 0.6 µm library) or \
           Virtex-2 slices and Mb/s at its synthesized clock; ours are generic \
           two-input cells and gate delays, so only the relative changes compare.\n",
        range(&gains(rows, |r| r.throughput())),
        range(&gains(rows, |r| r.cells as f64)),
        fmt(&pd),
        fmt(&rd),
        model
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_script_output() {
        let rows = parse_synth(
            "design,k,cells,flip_flops,logic_depth,cycles,seconds\n\
             plain,256,7739,1808,13,257,19.0\nrecoded,256,8000,2000,11,258,20.1\n",
        )
        .unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].design, "recoded");
        assert_eq!((rows[0].cells, rows[0].depth, rows[0].cycles), (7739, 13, 257));
        assert!((rows[0].throughput() - 256.0 / (257.0 * 13.0)).abs() < 1e-12);
        assert!(parse_synth("k,cells\n").is_err());
        assert!(parse_synth("design,k,cells,flip_flops,logic_depth,cycles\nplain,x\n").is_err());
    }

    #[test]
    fn model_rows_agree_with_software() {
        let r = run_model(64, 7).unwrap();
        assert_eq!((r.plain.cycles, r.recoded.cycles), (65, 66));
        assert!(r.recoded.critical_path < r.plain.critical_path);
    }

    #[test]
    fn figure1_draws_ours_and_the_papers() {
        let rows = parse_synth(
            "design,k,cells,flip_flops,logic_depth,cycles,seconds\n\
             plain,256,7739,1808,13,257,1\nrecoded,256,8515,2066,12,258,1\n\
             plain,512,15422,3601,13,513,1\nrecoded,512,16966,4115,12,514,1\n",
        )
        .unwrap();
        let model = vec![run_model(64, 7).unwrap(), run_model(128, 8).unwrap()];
        let f = figure1(Some(&rows), &model);
        assert_eq!(f.series.len(), 7);
        let ours = &f.series[0];
        assert_eq!(ours.points.len(), 2);
        let want = pct(256.0 / (258.0 * 12.0), 256.0 / (257.0 * 13.0));
        assert!((ours.points[0].1 - want).abs() < 1e-9);
        assert!(f.series.iter().filter(|s| s.dashed).count() == 4);
        let svg = f.svg().unwrap();
        assert!(svg.contains("throughput, paper ASIC") && svg.contains("area, ours (Yosys)"));
        // Without synthesis results: the model and the paper only.
        let f = figure1(None, &model);
        assert_eq!(f.series.len(), 5);
        assert!(f.svg().is_ok());
    }

    /// The rerun path of `--full`: `hw/run.sh --synth-only` into a temporary directory, its
    /// results parsed as the page parses them. Skipped (and says so) without Yosys.
    #[test]
    fn the_synthesis_reruns_where_yosys_is_installed() {
        let Some(version) = tool_version("yosys") else {
            eprintln!("SKIPPED: yosys is not installed (apt-get install -y yosys)");
            return;
        };
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let run = synthesize(&root, Some("64")).unwrap();
        let rows = parse_synth(&run.csv).unwrap();
        let designs: Vec<(&str, u64)> = rows.iter().map(|r| (r.design.as_str(), r.k)).collect();
        assert_eq!(designs, [("plain", 64), ("recoded", 64)]);
        for r in &rows {
            // The registers hold at least the k-bit operands and the carry-save sum; the
            // cycle counts are the designs' k + 1 and k + 2.
            assert!(r.flip_flops >= 3 * 64 && r.cells > r.flip_flops, "{r:?}");
            assert!(r.depth > 2 && r.depth < 40, "{r:?}");
        }
        assert_eq!((rows[0].cycles, rows[1].cycles), (65, 66));
        assert!(run.tools.contains(&version), "{}", run.tools);
        eprintln!("synthesis of k = 64, both designs: {:.1} s", run.seconds);
        // The page's rerun: only with --full.
        let quick = Context::new(Mode::Quick);
        assert!(rerun_synthesis(&quick, &results_dir(), true).is_none());
    }

    /// The whole section as `--full` writes it with Yosys installed: Table II from a rerun
    /// of the four sizes, equal to the committed results where the Yosys version is the
    /// committed one. Ignored by default (the synthesis takes one to several minutes);
    /// `cargo test -p modred-cli --release --lib -- --ignored full_section`.
    #[test]
    #[ignore]
    fn the_full_section_reruns_table_ii() {
        let Some(version) = tool_version("yosys") else {
            eprintln!("SKIPPED: yosys is not installed (apt-get install -y yosys)");
            return;
        };
        let section = run(&Context::new(Mode::Full)).unwrap();
        let md = &section.markdown;
        assert!(md.contains("**Rerun by this report**"), "{md}");
        let (_, table) = section.csv.iter().find(|(f, _)| f == "paper004_table2.csv").unwrap();
        assert_eq!(table.lines().count(), 1 + SIZES.len(), "{table}");
        let committed = std::fs::read_to_string(results_dir().join("tools.txt")).unwrap();
        if committed.contains(&version) {
            let csv = std::fs::read_to_string(results_dir().join("synth.csv")).unwrap();
            for r in parse_synth(&csv).unwrap() {
                let cells = format!("{} ({} FF)", r.cells, r.flip_flops);
                assert!(md.contains(&cells), "{cells} not in the rerun's Table II");
            }
        }
    }

    #[test]
    fn paper_changes() {
        let (area, thr) = paper::change(&paper::ASIC, 256).unwrap();
        assert!((area - 7.81).abs() < 0.01 && (thr - 35.55).abs() < 0.01);
        assert!(paper::change(&paper::FPGA, 100).is_none());
    }
}
