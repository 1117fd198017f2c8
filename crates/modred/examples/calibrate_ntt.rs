//! Measures the crossover between the Karatsuba and the transform product (and square),
//! interleaving the two in one process. `cargo run --release --example calibrate_ntt`.

use modred::nat::mul_into;
use modred::ntt;
mod support;
use support::{best_seconds, sizes_from_args, xorshift};

fn main() {
    let mut next = xorshift(0x1234_5678);
    let sizes = sizes_from_args(&[256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 8192, 16384]);
    println!("words  karatsuba_mul/ntt_mul  karatsuba_sqr/ntt_sqr  (ratios > 1: transform faster)");
    for n in sizes {
        let a: Vec<u64> = (0..n).map(|_| next()).collect();
        let b: Vec<u64> = (0..n).map(|_| next()).collect();
        let mut r = vec![0u64; 2 * n];
        let k = best_seconds(|| mul_into(&mut r, &a, &b), 2e-3, 7);
        let t = best_seconds(|| ntt::mul(&mut r, &a, &b), 2e-3, 7);
        let ks = best_seconds(|| modred::nat::sqr_into(&mut r, &a), 2e-3, 7);
        let ts = best_seconds(|| ntt::sqr(&mut r, &a), 2e-3, 7);
        println!("{n:6} {:8.3} ({:.1} us vs {:.1} us)  {:8.3}", k / t, k * 1e6, t * 1e6, ks / ts);
    }
}
