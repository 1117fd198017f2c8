//! The last line of defence: a panic becomes `error: internal error: …` (one line, exit
//! status 3, [`crate::EXIT_INTERNAL`]), or in `batch` an error answer for the one line that
//! caused it.
//!
//! No known input reaches a panic; every bad input is checked and reported as such. This
//! exists so that a bug shows up as a one-line report rather than a backtrace.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};

thread_local! {
    /// The message of the latest panic on this thread, kept by the hook for [`catch`].
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the default panic hook (which prints a multi-line report) by one that only
/// records the message for [`catch`].
pub fn install() {
    panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let what = if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "unknown panic".to_string()
        };
        let message = match info.location() {
            Some(at) => format!("{what} (at {}:{})", at.file(), at.line()),
            None => what,
        };
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(message));
    }));
}

/// Runs `f`; a panic inside it comes back as `Err` with the panic's message.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        let message = LAST_PANIC.with(|p| p.borrow_mut().take());
        format!("internal error: {}", message.unwrap_or_else(|| "unknown panic".into()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_error_message() {
        install();
        let r: Result<(), String> = catch(|| panic!("boom {}", 7));
        let msg = r.unwrap_err();
        assert!(msg.starts_with("internal error: boom 7"), "{msg}");
        assert_eq!(catch(|| 5), Ok(5));
    }
}
