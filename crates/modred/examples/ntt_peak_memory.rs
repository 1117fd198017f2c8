//! Peak resident memory (VmHWM, Linux) of one transform product of two 2^24-bit numbers
//! and of one ntt-montgomery reduction step's transforms at that size.
//! `cargo run --release -p modred --example ntt_peak_memory [log2 bits]`.

mod support;
use support::vm_hwm_kib;

fn main() {
    let log2: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(24);
    let words = (1usize << log2) / 64;
    let mut rng = modred_testkit::SplitMix64::new(0x2545_f491_4f6c_dd1d);
    let a = rng.digits(words);
    let b = rng.digits(words);
    let mut r = vec![0u64; 2 * words];
    r.iter_mut().for_each(|d| *d = 1); // touch the output
    let before = vm_hwm_kib();
    let t = std::time::Instant::now();
    modred::ntt::mul(&mut r, &a, &b);
    let dt = t.elapsed();
    let after = vm_hwm_kib();
    println!(
        "2^{log2}-bit product: {:.1} ms; VmHWM {} KiB before (operands and output: {} KiB), {} KiB after: +{} KiB for the transforms",
        dt.as_secs_f64() * 1e3,
        before,
        (4 * words * 8) / 1024,
        after,
        after - before
    );
}
