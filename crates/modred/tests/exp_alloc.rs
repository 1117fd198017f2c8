//! `exp::pow` allocates only at setup: the number of allocations does not grow with the
//! exponent's length. Counted by a global allocator, per thread (the tests run in
//! parallel). The modulus stays below the Karatsuba threshold, where the product itself
//! allocates nothing.

use modred::exp::{self, Method};
use modred::reduce::Classical;
use modred::{Nat, Reducer};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct CountingAlloc;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every method forwards to `System`, which upholds `GlobalAlloc`'s contract; the
// counter is a thread-local that never allocates.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: as for `alloc` and `dealloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

fn allocations_during(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

/// `2^bits − 1 − 2^(bits/3)`: a number of `bits` bits with mixed digits.
fn number(bits: u64) -> Nat {
    let all = &Nat::power_of_two(bits) - &Nat::one();
    &all - &Nat::power_of_two(bits / 3)
}

#[test]
fn allocations_do_not_grow_with_the_exponent() {
    // The CPU's features are asked once per process (reading MODRED_CPU_OFF allocates):
    // asked here, before anything is counted.
    let _ = modred::cpu_features();
    let m = number(512);
    let r = Classical::new(&m).unwrap();
    let base = r.to_residue(&number(500));
    let (short, long) = (number(64), number(8192));
    let mut methods = vec![Method::Binary];
    for w in [1, 4, 8] {
        methods.extend([Method::FixedWindow(w), Method::SlidingWindow(w)]);
    }
    for method in methods {
        let a = allocations_during(|| drop(exp::pow_vartime(&r, &base, &short, method).unwrap()));
        let b = allocations_during(|| drop(exp::pow_vartime(&r, &base, &long, method).unwrap()));
        assert_eq!(a, b, "{method:?}: {a} allocations for 64 bits, {b} for 8192");
        assert!(a <= 8, "{method:?}: {a} allocations");
    }
}

/// The transform reducers keep their working transforms in the exponentiation's scratch
/// space: above every engine's transform thresholds (`NTT_SQR_THRESHOLD`, the portable
/// engine's square threshold, the highest), the products' transforms are not allocated per
/// product either.
#[test]
#[cfg_attr(debug_assertions, ignore = "large: run with --release")]
fn transform_products_reuse_their_working_space() {
    let _ = modred::cpu_features();
    let bits = 64 * modred::nat::NTT_SQR_THRESHOLD as u64 + 7;
    let m = number(bits);
    let (short, long) = (number(8), number(40));
    for algorithm in [modred::Algorithm::NttMontgomery, modred::Algorithm::NttBarrett] {
        let r = modred::reduce::make(algorithm, &m).unwrap();
        let base = r.to_residue(&number(bits - 5));
        let method = Method::FixedWindow(2);
        let a = allocations_during(|| drop(exp::pow_vartime(&*r, &base, &short, method).unwrap()));
        let b = allocations_during(|| drop(exp::pow_vartime(&*r, &base, &long, method).unwrap()));
        assert_eq!(a, b, "{algorithm}: {a} allocations for 8 bits, {b} for 40");
    }
}
