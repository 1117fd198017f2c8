//! `modred completions SHELL` and `modred man`: generated from the command line's
//! definition, so they name every command; and the aligned list of `modred --help`.

use util::{fails_with, ok, run};

mod util;

/// Every command, as `modred help` lists them.
const COMMANDS: &[&str] = &[
    "algos",
    "reduce",
    "mulmod",
    "powm",
    "batch",
    "bench",
    "opcount",
    "radix2-model",
    "radix2-vectors",
    "report",
    "special-primes",
    "solinas-weights",
    "tune",
    "completions",
    "man",
    "help",
];

#[test]
fn the_bash_script_completes_every_command_and_option() {
    let script = ok(&["completions", "bash"]);
    assert!(script.contains("complete -F _modred"), "{script}");
    for cmd in COMMANDS {
        assert!(script.contains(cmd), "bash completion lacks {cmd}");
    }
    for option in ["--max-work", "--window", "--c-below", "--digit-bits", "--forms"] {
        assert!(script.contains(option), "bash completion lacks {option}");
    }
    // Values too: the algorithm names of --algo, the shells of `completions`.
    assert!(script.contains("auto classical barrett montgomery montgomery-interleaved"));
    assert!(script.contains("bash zsh fish elvish powershell"));
}

#[test]
fn every_shell_has_a_script() {
    let zsh = ok(&["completions", "zsh"]);
    assert!(zsh.starts_with("#compdef modred"), "{zsh}");
    assert!(zsh.contains("radix2-vectors") && zsh.contains("--window"));
    let fish = ok(&["completions", "fish"]);
    assert!(fish.contains("complete -c modred"), "{fish}");
    assert!(fish.contains("solinas-weights") && fish.contains("-l max-memory"));
    for shell in ["elvish", "powershell"] {
        assert!(ok(&["completions", shell]).contains("special-primes"), "{shell}");
    }
}

#[test]
fn an_unknown_shell_is_one_error_line() {
    fails_with(&["completions", "tcsh"], "unknown shell 'tcsh'");
    fails_with(&["completions"], "missing argument SHELL");
    fails_with(&["completions", "bash", "zsh"], "unexpected argument 'zsh'");
    fails_with(&["completions", "\u{1b}[2J"], "unknown shell '\\x1b[2J'");
}

#[test]
fn the_manual_page_names_every_command() {
    let page = ok(&["man"]);
    assert!(page.contains(".TH modred 1"), "{page}");
    for cmd in COMMANDS {
        let roff_name = format!("modred\\-{}", cmd.replace('-', "\\-"));
        assert!(page.contains(&roff_name), "the page lacks {cmd}");
    }
}

#[test]
fn man_out_writes_one_page_per_command() {
    let dir = std::env::temp_dir().join(format!("modred-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = ok(&["man", "--out", dir.to_str().unwrap()]);
    assert_eq!(out, format!("{} manual pages written to {}", COMMANDS.len() + 1, dir.display()));
    let top = std::fs::read_to_string(dir.join("modred.1")).unwrap();
    assert!(top.contains(".TH modred 1"));
    for cmd in COMMANDS {
        let page = std::fs::read_to_string(dir.join(format!("modred-{cmd}.1")))
            .unwrap_or_else(|e| panic!("modred-{cmd}.1: {e}"));
        assert!(page.contains(&format!(".TH modred-{cmd} 1")), "{cmd}: {page}");
    }
    // A command's page keeps the details of its help (value syntax, examples).
    let powm = std::fs::read_to_string(dir.join("modred-powm.1")).unwrap();
    assert!(powm.contains("\\-\\-window") && powm.contains("example: modred powm"), "{powm}");
    std::fs::remove_dir_all(&dir).unwrap();
    fails_with(&["man", "--out", ""], "needs a directory name");
}

#[test]
fn the_command_list_of_help_is_aligned() {
    let help = ok(&["--help"]);
    let rows: Vec<&str> = help
        .lines()
        .skip_while(|l| *l != "commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(rows.len(), COMMANDS.len(), "{help}");
    let column = |row: &str| {
        let name_end = 2 + row[2..].find(' ').unwrap();
        name_end + row[name_end..].find(|c| c != ' ').unwrap()
    };
    let first = column(rows[0]);
    for (row, cmd) in rows.iter().zip(COMMANDS) {
        assert!(row.starts_with(&format!("  {cmd} ")), "{row}");
        assert_eq!(column(row), first, "{row:?} is not aligned in\n{help}");
    }
}

#[test]
fn help_is_on_stdout_with_status_zero() {
    for args in [&["reduce", "-h"][..], &["reduce", "--help"], &["man", "--help"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(out.stderr.is_empty(), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("usage: modred"), "{args:?}: {text}");
        assert!(text.contains("Options:") && text.contains("-h, --help"), "{args:?}: {text}");
    }
    // The details of the old help stay: value syntax and examples.
    let bench = ok(&["help", "bench"]);
    assert!(bench.contains("A..B (A, 2A, 4A") && bench.contains("example: modred bench"));
}
