//! The code of the `modred` command line, as a library so that tests and fuzz targets
//! drive the same functions the binary does. Not a stable API: use the `modred` crate.
//!
//! Every failure — bad usage, bad input, an algorithm that does not apply — is one line on
//! stderr starting `error: `, with exit status 2. Success is exit status 0. A failure that
//! is not the input's fault is one `error: ` line too, with its own exit status
//! [`EXIT_INTERNAL`] (3): a panic (`error: internal error: …`, a bug: [`guard`]) or memory
//! the system would not give (`error: out of memory: …`, [`out_of_memory`]).

#![deny(clippy::undocumented_unsafe_blocks)]
// The crate is the command line; its documentation is for those who work on it (read with
// `cargo doc -p modred-cli --document-private-items`), so it links to private modules.
#![allow(rustdoc::private_intra_doc_links)]

pub mod algorithms;
pub mod args;
pub mod commands;
pub mod engine;
pub mod fail;
pub mod guard;
pub mod help;
pub mod hw;
pub mod numbers;
pub mod operands;
pub mod report;
pub mod tune;

use fail::{one_line, Fail};
use std::io::Write;

/// The exit status of a bad request: usage, input, an algorithm that does not apply.
pub const EXIT_BAD_INPUT: i32 = 2;

/// The exit status of a failure that is not the input's fault: a panic (a bug) or an
/// allocation the system refused.
pub const EXIT_INTERNAL: i32 = 3;

/// Runs the command line `args` (without the program name) and returns the exit status:
/// 0 on success, [`EXIT_BAD_INPUT`] or [`EXIT_INTERNAL`] after printing one `error: ` line
/// on stderr.
pub fn main_with_args(args: Vec<std::ffi::OsString>) -> i32 {
    guard::install();
    let (message, status) = match guard::catch(|| run(args)) {
        Ok(Ok(())) | Ok(Err(Fail::BrokenPipe)) => return 0,
        Ok(Err(Fail::Message(message))) => (message, EXIT_BAD_INPUT),
        Ok(Err(Fail::Internal(message))) => (message, EXIT_INTERNAL),
        Err(message) => (message, EXIT_INTERNAL),
    };
    // Nothing sensible is left to do if stderr is gone too.
    let _ = writeln!(std::io::stderr(), "error: {}", one_line(&message));
    status
}

/// Reports an allocation of `size` bytes that the system refused — one `error: ` line on
/// stderr — and ends the process with [`EXIT_INTERNAL`]. The binary's allocator
/// ([`OneLineOnFailure`]) calls it instead of Rust's default, which prints its own message
/// and aborts (a core dump, the shell's "Aborted"); the hook that would replace that
/// default (`std::alloc::set_alloc_error_hook`) is not stable Rust.
///
/// It allocates nothing: the line is formatted on the stack.
pub fn out_of_memory(size: usize) -> ! {
    let mut buf = [0u8; 160];
    let len = out_of_memory_line(size, &mut buf);
    let _ = std::io::stderr().write_all(&buf[..len]);
    std::process::exit(EXIT_INTERNAL)
}

/// Writes the line of [`out_of_memory`] into `buf`; returns its length.
fn out_of_memory_line(size: usize, buf: &mut [u8; 160]) -> usize {
    let mut cursor = std::io::Cursor::new(&mut buf[..]);
    let _ = writeln!(
        cursor,
        "error: out of memory: the system refused {size} bytes (a request too large for this machine's memory)"
    );
    cursor.position() as usize
}

/// The binary's global allocator: the system's, except that an allocation the system
/// refuses ends the process through [`out_of_memory`] with one `error: ` line — unless
/// the library is allocating fallibly ([`modred::modulus::limits::allocating_fallibly`]),
/// whose refusal becomes the request's error.
///
/// The library's own limits refuse oversized requests before they allocate, and it
/// allocates its big buffers and tables fallibly (`try_reserve`, which does not come
/// here: a refusal there is the request's `Error::OutOfMemory`, in `batch` that line's
/// error); what still reaches a null answer here has nothing to recover.
pub struct OneLineOnFailure;

// SAFETY: every method forwards to `System` with the same arguments and returns its
// answer unchanged; a null answer either returns (to a fallible allocation, which expects
// it) or never returns (the process ends), both of which `GlobalAlloc` allows.
unsafe impl std::alloc::GlobalAlloc for OneLineOnFailure {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout, which the caller guarantees non-zero.
        let p = unsafe { std::alloc::System.alloc(layout) };
        if p.is_null() && !modred::modulus::limits::allocating_fallibly() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        let p = unsafe { std::alloc::System.alloc_zeroed(layout) };
        if p.is_null() && !modred::modulus::limits::allocating_fallibly() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: `ptr` came from `System` through this allocator, with `layout`.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `System` through this allocator, with `layout`; the
        // caller guarantees `new_size` is valid for it.
        let p = unsafe { std::alloc::System.realloc(ptr, layout, new_size) };
        if p.is_null() && !modred::modulus::limits::allocating_fallibly() {
            out_of_memory(new_size);
        }
        p
    }
}

fn run(args: Vec<std::ffi::OsString>) -> Result<(), Fail> {
    let args = args
        .into_iter()
        .enumerate()
        .map(|(i, a)| {
            a.into_string().map_err(|_| Fail::new(format!("argument {} is not valid UTF-8", i + 1)))
        })
        .collect::<Result<Vec<String>, Fail>>()?;
    let Some((name, rest)) = args.split_first() else {
        return Err(Fail::new("no command given (try 'modred help')"));
    };
    match name.as_str() {
        "help" | "--help" | "-h" => help::run(rest),
        "--version" | "-V" => match rest.first() {
            None => help::version(),
            Some(extra) => Err(Fail::new(format!(
                "unexpected argument '{}' after --version",
                fail::abbreviate(extra)
            ))),
        },
        _ => match args::parse(&args)? {
            args::Request::Help(text) => commands::print_line(&text),
            args::Request::Run(command) => {
                commands::tune::activate_default_profile();
                commands::run(command)
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_out_of_memory_report_is_one_error_line() {
        let mut buf = [0u8; 160];
        let len = out_of_memory_line(usize::MAX, &mut buf);
        let line = std::str::from_utf8(&buf[..len]).unwrap();
        assert!(
            line.starts_with("error: out of memory: the system refused 18446744073709551615 bytes")
        );
        assert!(line.ends_with('\n') && line.matches('\n').count() == 1, "{line:?}");
    }

    #[test]
    fn a_panic_is_one_line_with_its_own_status() {
        // Through `main_with_args`'s mapping: a panic is an internal error, not bad input.
        guard::install();
        let r: Result<(), String> = guard::catch(|| panic!("boom"));
        assert!(r.unwrap_err().starts_with("internal error: boom"));
        assert_ne!(EXIT_INTERNAL, EXIT_BAD_INPUT);
    }
}
