//! `modred completions SHELL`: the shell's completion script, from the command line's
//! definition ([`crate::args::command`]).

use crate::fail::{abbreviate, Fail};
use clap_complete::Shell;
use std::io::Write;

/// The shells, as `completions` names them.
pub const SHELLS: &[(&str, Shell)] = &[
    ("bash", Shell::Bash),
    ("zsh", Shell::Zsh),
    ("fish", Shell::Fish),
    ("elvish", Shell::Elvish),
    ("powershell", Shell::PowerShell),
];

/// `modred completions SHELL`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = "modred completions bash|zsh|fish|elvish|powershell",
    after_long_help = "\
Prints the script on standard output. To install it:
  bash:  modred completions bash > ~/.local/share/bash-completion/completions/modred
  zsh:   modred completions zsh > ~/.zfunc/_modred  (with fpath+=~/.zfunc before compinit)
  fish:  modred completions fish > ~/.config/fish/completions/modred.fish
  elvish: modred completions elvish >> ~/.config/elvish/rc.elv
  powershell: modred completions powershell >> $PROFILE"
)]
pub struct Args {
    /// The shell: bash, zsh, fish, elvish or powershell
    #[arg(
        value_name = "SHELL",
        value_parser = crate::args::Suggest(|| SHELLS.iter().map(|(n, _)| *n).collect())
    )]
    pub shell: String,
}

/// The completion script for the shell called `name`.
pub fn script(name: &str) -> Result<Vec<u8>, Fail> {
    let shell = SHELLS.iter().find(|(n, _)| *n == name).map(|&(_, s)| s).ok_or_else(|| {
        Fail::new(format!(
            "unknown shell '{}': expected bash, zsh, fish, elvish or powershell",
            abbreviate(name)
        ))
    })?;
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut crate::args::command(), "modred", &mut out);
    Ok(out)
}

/// Prints the script.
pub fn run(a: &Args) -> Result<(), Fail> {
    let text = script(&a.shell)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&text)?;
    out.flush()?;
    Ok(())
}
