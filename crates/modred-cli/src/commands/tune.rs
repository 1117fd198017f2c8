//! `modred tune`: measures the crossovers on this machine and writes a profile that `auto`
//! follows; with `--check`, measures how far `auto` is from the fastest algorithm.

use super::print_line;
use crate::fail::Fail;
use crate::tune::{self, Depth};
use modred::modulus::profile::{self, Form, Profile};
use std::path::PathBuf;

/// `modred tune`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = "modred tune [--quick] [--check] [--out FILE] [--csv FILE] [--forms LIST]",
    after_long_help = "\
Times every algorithm that applies, interleaved in one run, for reduce, mulmod and
powm, on moduli of each form (odd, even, pseudo-mersenne, nist, solinas) from 64
bits up (mulmod and reduce also at 16384-131072 bits, where the transform
reducers matter), and the exponentiation methods (binary, fixed and sliding
windows) for odd moduli. Prints one line per point: the fastest, auto's choice and
auto's time over the fastest; then writes the winners as a profile, which auto
follows from then on. Progress goes to stderr.

Without --check, auto is measured by its built-in rule (so the table shows what the
profile changes). MODRED_PROFILE= (empty) turns the profile off for any command."
)]
pub struct Args {
    /// About a minute: fewer sizes, shorter timing (default: a few minutes)
    #[arg(long)]
    pub quick: bool,
    /// Measure auto as it stands (with the profile, if one is in use) against
    /// the fastest at every point; write no profile
    #[arg(long, verbatim_doc_comment)]
    pub check: bool,
    /// Where to write the profile (default: $MODRED_PROFILE, else
    /// $XDG_CONFIG_HOME/modred/profile.txt, else ~/.config/modred/profile.txt)
    #[arg(long, value_name = "FILE", verbatim_doc_comment, value_hint = clap::ValueHint::FilePath)]
    pub out: Option<String>,
    /// Also write every timing as CSV
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub csv: Option<String>,
    /// Only these forms, comma-separated (odd,even,pseudo-mersenne,nist,solinas)
    #[arg(long, value_name = "LIST")]
    pub forms: Option<String>,
}

/// The forms of `--forms`.
fn forms(p: &Args) -> Result<Option<Vec<Form>>, Fail> {
    let Some(list) = p.forms.as_deref() else { return Ok(None) };
    let mut v = Vec::new();
    for name in list.split(',') {
        let f: Form = name.trim().parse().map_err(|_| {
            Fail::new(format!(
                "unknown form '{}' in --forms (known: odd, even, pseudo-mersenne, nist, solinas)",
                crate::fail::abbreviate(name)
            ))
        })?;
        if !v.contains(&f) {
            v.push(f);
        }
    }
    Ok(Some(v))
}

/// A file name given to an option, not empty.
fn file(value: &Option<String>, name: &str) -> Result<Option<PathBuf>, Fail> {
    match value.as_deref() {
        Some("") => Err(Fail::new(format!("option --{name} needs a file name, not ''"))),
        Some(f) => Ok(Some(PathBuf::from(f))),
        None => Ok(None),
    }
}

/// Runs the measurement, prints the table, writes the profile (unless `--check`).
pub fn run(p: &Args) -> Result<(), Fail> {
    let check = p.check;
    let out = file(&p.out, "out")?;
    let csv = file(&p.csv, "csv")?;
    let forms = forms(p)?;
    if check && out.is_some() {
        return Err(Fail::new("--check writes no profile: --out does not go with it"));
    }
    let target = if check {
        None
    } else {
        Some(out.or_else(profile::default_path).ok_or_else(|| {
            Fail::new("no place for the profile: give --out FILE, or set MODRED_PROFILE or HOME")
        })?)
    };
    // Refuse paths that cannot be written before measuring for minutes.
    if let Some(dir) =
        target.as_deref().and_then(|t| t.parent()).filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).map_err(|e| {
            Fail::new(format!("cannot write the profile into {}: {e}", dir.display()))
        })?;
    }
    let csv = match csv {
        Some(path) => Some((
            std::fs::File::create(&path)
                .map_err(|e| Fail::new(format!("cannot write {}: {e}", path.display())))?,
            path,
        )),
        None => None,
    };
    if !check {
        // Measure the built-in rule: the table then shows what the profile changes.
        profile::deactivate();
    }
    let depth = if p.quick { Depth::Quick } else { Depth::Normal };
    if cfg!(debug_assertions) {
        eprintln!("tune: warning: a debug build; the times will not be representative");
    }
    let results = tune::run(depth, forms.as_deref(), &mut |line| eprintln!("tune {line}"))
        .map_err(Fail::new)?;
    print_line(tune::table(&results).trim_end())?;
    print_line(&tune::summary(&results))?;
    if let Some((mut file, path)) = csv {
        use std::io::Write;
        file.write_all(tune::csv(&results).as_bytes())
            .map_err(|e| Fail::new(format!("cannot write {}: {e}", path.display())))?;
    }
    if let Some(path) = target {
        let notes = notes(depth);
        let prof = tune::profile(&results, notes);
        write_profile(&path, &prof)?;
        print_line(&format!("profile written to {}", path.display()))?;
    }
    Ok(())
}

fn notes(depth: Depth) -> Vec<String> {
    let mut n = vec![format!(
        "modred tuning profile, written by `modred tune{}` (modred {})",
        if depth == Depth::Quick { " --quick" } else { "" },
        env!("CARGO_PKG_VERSION")
    )];
    for (k, v) in crate::report::machine::describe() {
        n.push(format!("{k}: {v}"));
    }
    n
}

fn write_profile(path: &std::path::Path, prof: &Profile) -> Result<(), Fail> {
    let fail =
        |e: std::io::Error| Fail::new(format!("cannot write the profile {}: {e}", path.display()));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    std::fs::write(path, prof.to_text()).map_err(fail)?;
    // What was written must read back as the same entries.
    let back = Profile::load(path).map_err(Fail::from)?;
    if back.algorithms.len() != prof.algorithms.len() || back.methods.len() != prof.methods.len() {
        return Err(Fail::new(format!("the profile {} did not read back whole", path.display())));
    }
    Ok(())
}

/// Loads the profile at the default place and makes auto follow it; a file that cannot be
/// used gives one warning line on stderr, and auto keeps its built-in rule.
pub fn activate_default_profile() {
    match Profile::load_default() {
        Ok(Some(p)) => p.activate(),
        Ok(None) => {}
        Err(e) => eprintln!(
            "warning: {}; auto uses its built-in rule",
            crate::fail::one_line(&e.to_string())
        ),
    }
}
