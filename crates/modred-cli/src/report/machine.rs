//! What the report was measured on: CPU, cores, compiler, date, build.

use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

/// One line of the machine description: a label and a value.
pub type Fact = (&'static str, String);

/// The machine, the toolchain and the date, as label–value pairs.
pub fn describe() -> Vec<Fact> {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let mut facts = vec![
        ("CPU", cpu_model(&cpuinfo).unwrap_or_else(|| "unknown".to_string())),
        ("Logical CPUs", logical_cpus(&cpuinfo)),
        ("Architecture", format!("{} ({})", std::env::consts::ARCH, std::env::consts::OS)),
    ];
    if let Some(v) = rustc_version() {
        facts.push(("rustc (on PATH)", v));
    }
    facts.push((
        "Build",
        if cfg!(debug_assertions) {
            "debug (times are NOT representative: use --release)".to_string()
        } else {
            "release".to_string()
        },
    ));
    facts.push(("Date (UTC)", today_utc()));
    facts
}

/// The `model name` of the first processor in `/proc/cpuinfo`.
fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo
        .lines()
        .find(|l| l.starts_with("model name") || l.starts_with("Model"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// Processors listed in `/proc/cpuinfo` and those this process may run on.
fn logical_cpus(cpuinfo: &str) -> String {
    let listed = cpuinfo.lines().filter(|l| l.starts_with("processor")).count();
    let usable = std::thread::available_parallelism().map_or(0, |n| n.get());
    match (listed, usable) {
        (0, u) => format!("{u} usable"),
        (l, u) if l == u => format!("{l}"),
        (l, u) => format!("{l} ({u} usable by this process)"),
    }
}

/// `rustc --version`, if a rustc is on the PATH (the report runs single-threaded work
/// only, so this short child process does not disturb any timing).
fn rustc_version() -> Option<String> {
    let out = Command::new("rustc").arg("--version").output().ok()?;
    let v = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !v.is_empty()).then_some(v)
}

/// Today's date as `YYYY-MM-DD` (UTC).
fn today_utc() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn parses_cpuinfo() {
        let info = "processor\t: 0\nmodel name\t: Example CPU @ 3.0GHz\nprocessor\t: 1\n";
        assert_eq!(cpu_model(info).as_deref(), Some("Example CPU @ 3.0GHz"));
        assert!(logical_cpus(info).starts_with('2'));
        assert!(describe().iter().any(|(k, _)| *k == "Date (UTC)"));
    }
}
