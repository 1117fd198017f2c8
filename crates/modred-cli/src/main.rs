//! Temporary entry point for developing `modred report` on its own branch; the CLI's real
//! `main.rs` replaces it.

mod report;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    if args.next().as_deref() != Some("report") {
        eprintln!("error: usage: modred report [--quick|--full] [--out DIR]");
        return ExitCode::from(2);
    }
    let mut opts =
        report::ReportOptions { quick: false, full: false, out: PathBuf::from("report") };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => opts.quick = true,
            "--full" => opts.full = true,
            "--out" => match args.next() {
                Some(d) => opts.out = PathBuf::from(d),
                None => {
                    eprintln!("error: --out needs a directory");
                    return ExitCode::from(2);
                }
            },
            other => {
                eprintln!("error: unknown option '{other}'");
                return ExitCode::from(2);
            }
        }
    }
    match report::run(&opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
