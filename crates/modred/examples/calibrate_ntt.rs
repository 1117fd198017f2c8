//! Measures the crossover between the Karatsuba and the transform product (and square),
//! interleaving the two in one process. `cargo run --release --example calibrate_ntt`.

use modred::nat::mul_into;
use modred::ntt;
use std::time::Instant;

fn time<F: FnMut()>(mut f: F) -> f64 {
    // the best of 7 rounds of enough calls for ~2 ms each
    let mut reps = 1;
    loop {
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        if t.elapsed().as_secs_f64() > 2e-3 {
            break;
        }
        reps *= 2;
    }
    (0..7)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            t.elapsed().as_secs_f64() / reps as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let mut x = 0x1234_5678u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let sizes: Vec<usize> =
        std::env::args().skip(1).map(|s| s.parse().expect("sizes in words")).collect();
    let sizes = if sizes.is_empty() {
        vec![256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 8192, 16384]
    } else {
        sizes
    };
    println!("words  karatsuba_mul/ntt_mul  karatsuba_sqr/ntt_sqr  (ratios > 1: transform faster)");
    for n in sizes {
        let a: Vec<u64> = (0..n).map(|_| next()).collect();
        let b: Vec<u64> = (0..n).map(|_| next()).collect();
        let mut r = vec![0u64; 2 * n];
        let k = time(|| mul_into(&mut r, &a, &b));
        let t = time(|| ntt::mul(&mut r, &a, &b));
        let ks = time(|| modred::nat::sqr_into(&mut r, &a));
        let ts = time(|| ntt::sqr(&mut r, &a));
        println!("{n:6} {:8.3} ({:.1} us vs {:.1} us)  {:8.3}", k / t, k * 1e6, t * 1e6, ks / ts);
    }
}
