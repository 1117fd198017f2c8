//! Our transform product against GMP's `mpz_mul` (and `mpz_tdiv_r`) at huge sizes,
//! interleaved in one process by `modred_testkit::timing`, on the thread's CPU clock where
//! Linux has it (on a shared machine wall-clock times mostly measure the other processes).
//! `cargo run --release -p modred-bench --features anchors --example ntt_vs_gmp [log2 bits…]`.

use modred_bench::anchors::{GmpMul, GmpTdivR};
use modred_bench::support::{compare, Candidate, Plan, SplitMix64};
use std::time::Duration;

fn main() {
    let sizes: Vec<u32> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![16, 18, 20, 22] } else { sizes };
    let mut rng = SplitMix64::new(0x2545_f491_4f6c_dd1d);
    println!("bits   ours_mul(ms)  gmp_mul(ms)  ours/gmp  gmp_tdiv_r/gmp_mul");
    for log2 in sizes {
        let words = (1usize << log2) / 64;
        let a = rng.digits(words);
        let b = rng.digits(words);
        let mut m = rng.digits(words);
        m[words - 1] |= 1 << 63;
        let mut r = vec![0u64; 2 * words];
        let mut gmp = GmpMul::from_limbs(&a, &b);
        gmp.run();
        modred::ntt::mul(&mut r, &a, &b);
        let mut want = gmp.result_limbs();
        want.resize(2 * words, 0);
        assert_eq!(r, want, "products differ at 2^{log2} bits");
        let mut div = GmpTdivR::from_limbs(&want, &m);
        let t = compare(
            &Plan::fixed(Duration::from_millis(2), 5),
            &mut [
                Candidate::new(|| modred::ntt::mul(&mut r, &a, &b)),
                Candidate::new(|| gmp.run()),
                Candidate::new(|| div.run()),
            ],
        );
        println!(
            "2^{log2}  {:10.3}  {:10.3}  {:8.3}  {:8.3}",
            t[0].ns * 1e-6,
            t[1].ns * 1e-6,
            t[0].ratio_to(&t[1]),
            t[2].ratio_to(&t[1])
        );
    }
}
