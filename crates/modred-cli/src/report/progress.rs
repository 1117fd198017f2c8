//! The report's progress on stderr: a bar of the sections done, the step within the
//! current section and the time, redrawn in place when stderr is a terminal; nothing
//! when it is not (a log or a pipe gets only warnings and the closing line).

use std::cell::RefCell;
use std::io::{IsTerminal, Write};
use std::time::Instant;

/// Width of the bar in characters.
const BAR: usize = 24;

pub struct Progress {
    /// Redraw a status line (stderr is a terminal).
    live: bool,
    started: Instant,
    state: RefCell<State>,
}

#[derive(Default)]
struct State {
    sections: usize,
    /// Sections finished.
    done: usize,
    /// The current section's name and the steps it has reported.
    current: String,
    steps: usize,
    /// A status line is on the screen.
    drawn: bool,
}

impl Progress {
    /// Progress for `sections` sections; live when stderr is a terminal.
    pub fn new(sections: usize) -> Progress {
        Progress::with(sections, std::io::stderr().is_terminal())
    }

    pub fn with(sections: usize, live: bool) -> Progress {
        Progress {
            live,
            started: Instant::now(),
            state: RefCell::new(State { sections, ..State::default() }),
        }
    }

    pub fn elapsed_s(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Section `name` begins.
    pub fn section(&self, name: &str) {
        let mut s = self.state.borrow_mut();
        s.current = name.to_string();
        s.steps = 0;
        drop(s);
        self.draw("");
    }

    /// The current section is finished.
    pub fn section_done(&self) {
        let mut s = self.state.borrow_mut();
        s.done = (s.done + 1).min(s.sections);
        drop(s);
        self.draw("");
    }

    /// One step of the current section begins.
    pub fn step(&self, what: &str) {
        self.state.borrow_mut().steps += 1;
        self.draw(what);
    }

    /// A message that must be seen whatever the terminal (a warning, the closing line).
    pub fn message(&self, text: &str) {
        self.clear();
        eprintln!("report: {text}");
    }

    /// The status line for the current state, at most `width` characters.
    pub fn line(&self, what: &str, width: usize) -> String {
        let s = self.state.borrow();
        let filled = (s.done * BAR).checked_div(s.sections).unwrap_or(0);
        let mut line = format!(
            "[{}{}] {}/{} sections · {} · step {} · {:.0} s",
            "#".repeat(filled),
            "-".repeat(BAR - filled),
            s.done,
            s.sections,
            s.current,
            s.steps,
            self.elapsed_s(),
        );
        if !what.is_empty() {
            line.push_str(" · ");
            line.push_str(what);
        }
        if let Some((i, _)) = line.char_indices().nth(width.saturating_sub(1)) {
            line.truncate(i);
            line.push('…');
        }
        line
    }

    fn draw(&self, what: &str) {
        if !self.live {
            return;
        }
        let width = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).unwrap_or(100);
        let line = self.line(what, width);
        let mut err = std::io::stderr().lock();
        // Carriage return, the line, clear to its end.
        let _ = write!(err, "\r{line}\x1b[K");
        let _ = err.flush();
        self.state.borrow_mut().drawn = true;
    }

    /// Removes the status line so that a message starts on a clean line.
    fn clear(&self) {
        let mut s = self.state.borrow_mut();
        if s.drawn {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
            s.drawn = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_counts_sections_and_steps_and_fits_the_width() {
        let p = Progress::with(4, false);
        p.section("paper 000");
        p.step("table 1");
        p.step("table 2");
        p.section_done();
        p.section("paper 001");
        let l = p.line("figure 1: 1024-bit modulus", 200);
        assert!(
            l.starts_with("[######------------------] 1/4 sections · paper 001 · step 0"),
            "{l}"
        );
        assert!(l.ends_with("figure 1: 1024-bit modulus"));
        let short = p.line("a long description of the step", 30);
        assert_eq!(short.chars().count(), 30);
        assert!(short.ends_with('…'));
    }
}
