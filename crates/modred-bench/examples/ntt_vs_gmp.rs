//! Our transform product against GMP's `mpz_mul` (and `mpz_tdiv_r`) at huge sizes,
//! interleaved in one process, on the thread's CPU clock where Linux has it (on a shared
//! machine wall-clock times mostly measure the other processes).
//! `cargo run --release -p modred-bench --features anchors --example ntt_vs_gmp [log2 bits…]`.

use modred_bench::anchors::{GmpMul, GmpTdivR};
use std::time::Instant;

#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

/// Seconds of this thread's CPU time (`CLOCK_THREAD_CPUTIME_ID` = 3), if available.
fn thread_cpu_seconds() -> Option<f64> {
    if !(cfg!(target_os = "linux") && cfg!(target_pointer_width = "64")) {
        return None;
    }
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable `struct timespec` of 64-bit Linux, and
    // clock_gettime writes nothing else.
    let rc = unsafe { clock_gettime(3, &mut ts) };
    (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

fn best_of<F: FnMut()>(f: &mut F, reps: usize) -> f64 {
    let (c0, t) = (thread_cpu_seconds(), Instant::now());
    for _ in 0..reps {
        f();
    }
    match (c0, thread_cpu_seconds()) {
        (Some(a), Some(b)) => (b - a) / reps as f64,
        _ => t.elapsed().as_secs_f64() / reps as f64,
    }
}

fn main() {
    let sizes: Vec<u32> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![16, 18, 20, 22] } else { sizes };
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    println!("bits   ours_mul(ms)  gmp_mul(ms)  ours/gmp  gmp_tdiv_r/gmp_mul");
    for log2 in sizes {
        let words = (1usize << log2) / 64;
        let a: Vec<u64> = (0..words).map(|_| next()).collect();
        let b: Vec<u64> = (0..words).map(|_| next()).collect();
        let mut m: Vec<u64> = (0..words).map(|_| next()).collect();
        m[words - 1] |= 1 << 63;
        let mut r = vec![0u64; 2 * words];
        let mut gmp = GmpMul::from_limbs(&a, &b);
        gmp.run();
        modred::ntt::mul(&mut r, &a, &b);
        let mut want = gmp.result_limbs();
        want.resize(2 * words, 0);
        assert_eq!(r, want, "products differ at 2^{log2} bits");
        let mut div = GmpTdivR::from_limbs(&want, &m);
        let reps = (1usize << 24 >> log2).max(1);
        let (mut t_ours, mut t_gmp, mut t_div) = (f64::MAX, f64::MAX, f64::MAX);
        for _ in 0..5 {
            t_ours = t_ours.min(best_of(&mut || modred::ntt::mul(&mut r, &a, &b), reps));
            t_gmp = t_gmp.min(best_of(&mut || gmp.run(), reps));
            t_div = t_div.min(best_of(&mut || div.run(), reps));
        }
        println!(
            "2^{log2}  {:10.3}  {:10.3}  {:8.3}  {:8.3}",
            t_ours * 1e3,
            t_gmp * 1e3,
            t_ours / t_gmp,
            t_div / t_gmp
        );
    }
}
