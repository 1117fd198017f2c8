//! Measures the crossover between the Karatsuba and the transform product (and square),
//! interleaving the four in one process (modred-testkit's timing harness). `cargo run --release --example calibrate_ntt`.

use modred::nat::{mul_into, sqr_into};
use modred::ntt;
use modred_testkit::timing::{compare, Candidate, Plan};
use modred_testkit::SplitMix64;
use std::time::Duration;
mod support;
use support::sizes_from_args;

fn main() {
    let mut rng = SplitMix64::new(0x1234_5678);
    let sizes = sizes_from_args(&[256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 8192, 16384]);
    println!("words  karatsuba_mul/ntt_mul  karatsuba_sqr/ntt_sqr  (ratios > 1: transform faster)");
    for n in sizes {
        let (a, b) = (rng.digits(n), rng.digits(n));
        let mut r = vec![vec![0u64; 2 * n]; 4];
        let [r0, r1, r2, r3] = &mut r[..] else { unreachable!() };
        let t = compare(
            &Plan::fixed(Duration::from_millis(2), 7),
            &mut [
                Candidate::new(|| mul_into(r0, &a, &b)),
                Candidate::new(|| ntt::mul(r1, &a, &b)),
                Candidate::new(|| sqr_into(r2, &a)),
                Candidate::new(|| ntt::sqr(r3, &a)),
            ],
        );
        println!(
            "{n:6} {:8.3} ({:.1} us vs {:.1} us)  {:8.3}",
            t[0].ratio_to(&t[1]),
            t[0].ns * 1e-3,
            t[1].ns * 1e-3,
            t[2].ratio_to(&t[3])
        );
    }
}
