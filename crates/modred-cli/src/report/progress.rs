//! The report's progress on stderr: a bar of the sections done, the step within the
//! current section and the time, redrawn in place (indicatif) when stderr is a terminal;
//! nothing when it is not (a log or a pipe gets only warnings and the closing line).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::cell::Cell;
use std::io::IsTerminal;
use std::time::Duration;

/// The status line: the bar of sections, the section, the time, then the step (cut to
/// the terminal's width).
const TEMPLATE: &str = "[{bar:24}] {pos}/{len} sections · {prefix} · {elapsed} · {wide_msg}";

/// The report's progress: sections done, the current section's steps.
pub struct Progress {
    bar: ProgressBar,
    /// The steps the current section has reported.
    steps: Cell<usize>,
}

impl Progress {
    /// Progress for `sections` sections; live when stderr is a terminal.
    pub fn new(sections: usize) -> Progress {
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        Progress::to(sections, target)
    }

    /// Progress for `sections` sections drawn on `target`.
    fn to(sections: usize, target: ProgressDrawTarget) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(sections as u64), target);
        let style =
            ProgressStyle::with_template(TEMPLATE).expect("a valid template").progress_chars("##-");
        bar.set_style(style);
        // A step may take minutes: the time keeps moving between steps.
        if !bar.is_hidden() {
            bar.enable_steady_tick(Duration::from_secs(1));
        }
        Progress { bar, steps: Cell::new(0) }
    }

    /// Seconds since the report began.
    pub fn elapsed_s(&self) -> f64 {
        self.bar.elapsed().as_secs_f64()
    }

    /// Section `name` begins.
    pub fn section(&self, name: &str) {
        self.steps.set(0);
        self.bar.set_prefix(name.to_string());
        self.bar.set_message("step 0");
    }

    /// The current section is finished.
    pub fn section_done(&self) {
        let done = (self.bar.position() + 1).min(self.bar.length().unwrap_or(u64::MAX));
        self.bar.set_position(done);
    }

    /// One step of the current section begins.
    pub fn step(&self, what: &str) {
        self.steps.set(self.steps.get() + 1);
        self.bar.set_message(format!("step {} · {what}", self.steps.get()));
    }

    /// A message that must be seen whatever the terminal (a warning, the closing line).
    pub fn message(&self, text: &str) {
        self.bar.suspend(|| eprintln!("report: {text}"));
    }
}

impl Drop for Progress {
    /// The status line goes; the messages stay.
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A terminal of `width` columns that keeps the last line drawn.
    #[derive(Debug, Clone)]
    struct Screen {
        width: u16,
        line: Arc<Mutex<String>>,
    }

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            self.width
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(s)
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            // The line, not the blanks that clear what a longer line left.
            if !s.trim().is_empty() {
                *self.line.lock().unwrap() = s.to_string();
            }
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Progress on a `width`-column screen, and a view of its line.
    fn on_screen(sections: usize, width: u16) -> (Progress, impl Fn(&Progress) -> String) {
        let screen = Screen { width, line: Arc::default() };
        let line = screen.line.clone();
        let target = ProgressDrawTarget::term_like(Box::new(screen));
        // The line now: `suspend` redraws it whatever the rate limit.
        let shown = move |p: &Progress| {
            p.bar.suspend(|| ());
            line.lock().unwrap().clone()
        };
        (Progress::to(sections, target), shown)
    }

    #[test]
    fn the_line_counts_sections_and_steps_and_cuts_the_step_to_the_width() {
        let (p, shown) = on_screen(4, 200);
        p.section("paper 000");
        p.step("table 1");
        p.step("table 2");
        p.section_done();
        p.section("paper 001");
        p.step("figure 1: 1024-bit modulus");
        let l = shown(&p);
        // A quarter of the bar, and the head of the next quarter.
        assert!(l.starts_with("[#######-----------------] 1/4 sections · paper 001 · "), "{l}");
        assert!(l.ends_with("step 1 · figure 1: 1024-bit modulus"), "{l}");
        for _ in 0..5 {
            p.section_done();
        }
        p.step("the last");
        let l = shown(&p);
        assert!(l.starts_with("[########################] 4/4 sections"), "{l}");

        let (short, shown) = on_screen(4, 60);
        short.section("paper 000");
        short.step("a long description of the step, longer than the screen");
        let l = shown(&short);
        // The step's text is cut to the screen, the rest of the line kept.
        assert!(!l.contains("screen") && l.chars().count() < 64, "{l}");
        assert!(l.starts_with("[------------------------] 0/4 sections · paper 000 · "), "{l}");
    }

    #[test]
    fn nothing_is_drawn_off_a_terminal() {
        let p = Progress::to(3, ProgressDrawTarget::hidden());
        p.section("paper 000");
        p.step("table 1");
        p.section_done();
        assert!(p.bar.is_hidden());
        assert_eq!(p.bar.position(), 1);
    }
}
