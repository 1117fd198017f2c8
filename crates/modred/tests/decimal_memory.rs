//! The working memory of writing a huge number in decimal, counted by this binary's
//! allocator: the powers of ten, their reciprocals and transforms, and the divisions'
//! temporaries stay a small multiple of the number's own size.

use modred::Nat;
use modred_testkit::SplitMix64;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts the bytes live and their peak, per thread (the harness's other threads do not
/// disturb a measurement).
struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; the counters are const-initialized
// thread-locals without destructors, reached through `try_with`.
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
        count(new_size as isize - layout.size() as isize);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(p, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn count(delta: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get().wrapping_add_signed(delta);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

/// The peak bytes allocated during `f` beyond those live when it started.
fn peak_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let start = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(start));
    let out = f();
    (PEAK.with(Cell::get) - start, out)
}

#[test]
fn writing_decimal_needs_a_small_multiple_of_the_number() {
    let mut rng = SplitMix64::new(0xdec_0e0e);
    for log2 in [12u32, 16, 20, 22] {
        let words = (1usize << log2) / 64;
        let n = Nat::<u64>::from_vec(rng.digits(words));
        let bytes = words * 8;
        // The transforms' plans are made once per length and kept: not working memory.
        let _ = n.to_decimal();
        let (peak, text) = peak_of(|| n.to_decimal());
        // The digits themselves are 2.4 bytes per byte of the number; measured 22 times
        // in all (AMD EPYC, transform on AVX-512 IFMA) from 2^16 bits on.
        let ratio = peak as f64 / bytes as f64;
        println!("2^{log2} bits: peak {peak} bytes, {ratio:.1} times the number");
        assert!(text.len() > bytes * 2);
        assert!(ratio <= 26.0, "2^{log2} bits: {ratio:.1} times the number's size");
    }
}
