//! `modred man`: the manual pages (roff), from the command line's definition
//! ([`crate::args::command`]).

use crate::fail::{abbreviate, Fail};
use std::io::Write;
use std::path::Path;

/// `modred man [--out DIR]`.
#[derive(clap::Args, Debug)]
#[command(
    override_usage = "modred man [--out DIR]",
    after_long_help = "\
Without --out: the page modred(1) on standard output, which lists every command;
read it with 'modred man | man -l -'. With --out DIR: DIR/modred.1 and one page
per command (modred-reduce.1, …), for a directory on MANPATH such as
~/.local/share/man/man1."
)]
pub struct Args {
    /// Write modred.1 and modred-COMMAND.1 into DIR instead
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub out: Option<String>,
}

/// The page of `cmd` (the whole tool, or one command) as roff.
fn page(cmd: clap::Command) -> Result<Vec<u8>, Fail> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    Ok(out)
}

/// The pages: `modred.1` and `modred-<command>.1` for each command, with their text.
pub fn pages() -> Result<Vec<(String, Vec<u8>)>, Fail> {
    let top = crate::args::command();
    let mut pages = vec![("modred.1".to_string(), page(top.clone())?)];
    for sub in top.get_subcommands() {
        // The built definition names a command's page `modred-<command>`.
        let name = sub.get_display_name().unwrap_or(sub.get_name());
        pages.push((format!("{name}.1"), page(sub.clone())?));
    }
    Ok(pages)
}

/// Prints the page, or writes every page into `--out`.
pub fn run(a: &Args) -> Result<(), Fail> {
    let Some(dir) = a.out.as_deref() else {
        let text = page(crate::args::command())?;
        let mut out = std::io::stdout().lock();
        out.write_all(&text)?;
        out.flush()?;
        return Ok(());
    };
    if dir.is_empty() {
        return Err(Fail::new("option --out needs a directory name, not ''"));
    }
    let cannot = |e: std::io::Error| {
        Fail::new(format!("cannot write the manual pages into '{}': {e}", abbreviate(dir)))
    };
    std::fs::create_dir_all(dir).map_err(cannot)?;
    let pages = pages()?;
    for (name, text) in &pages {
        std::fs::write(Path::new(dir).join(name), text).map_err(cannot)?;
    }
    crate::commands::print_line(&format!("{} manual pages written to {dir}", pages.len()))
}
