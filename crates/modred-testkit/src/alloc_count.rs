//! An allocator that counts, for tests that hold working memory to an estimate: install
//! [`Counting`] as a test binary's `#[global_allocator]` and measure a call with
//! [`peak_of`]. Counts are per thread, so the test harness's other threads do not disturb
//! a measurement.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting the bytes live and their peak on each thread.
pub struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; the counters are const-initialized
// thread-locals without destructors (no allocation, reached through `try_with`, so usable
// during thread teardown).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(p, layout) }
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Counted as the new block arriving before the old one leaves: the true peak.
        count(new_size as isize);
        count(-(layout.size() as isize));
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(p, layout, new_size) }
    }
}

fn count(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get().wrapping_add_signed(delta);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

/// The bytes `f` holds at its peak on this thread beyond what was live before it, and its
/// result. Meaningful only where [`Counting`] is the global allocator (0 otherwise).
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (u64, T) {
    let before = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(before));
    let out = f();
    ((PEAK.with(Cell::get) - before) as u64, out)
}
