//! Times of `modred::ntt::mul` at transform sizes from 8 digits up, for comparing the
//! transform engines a CPU's features select: run it once per mask, e.g.
//! `MODRED_CPU_OFF=avx512ifma` (the FMA engine) and `MODRED_CPU_OFF=avx512ifma,avx2` (the
//! scalar engine), and compare the columns.
//! `cargo run --release -p modred-bench --example ntt_engine_times [digits…]`.

use std::time::Instant;

fn main() {
    let sizes: Vec<usize> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![8, 16, 32, 64, 128, 256, 512, 1024] } else { sizes };
    println!("features: {:?}", modred::cpu_features());
    println!("digits  ns_per_mul(min of 7 rounds)");
    for words in sizes {
        let a: Vec<u64> =
            (1..=words as u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect();
        let b: Vec<u64> =
            (1..=words as u64).map(|i| i.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)).collect();
        let mut r = vec![0u64; 2 * words];
        let reps = (1 << 22) / (words * 64) + 1;
        let mut best = f64::MAX;
        for _ in 0..7 {
            let t = Instant::now();
            for _ in 0..reps {
                modred::ntt::mul(&mut r, &a, &b);
            }
            best = best.min(t.elapsed().as_nanos() as f64 / reps as f64);
        }
        println!("{words:6}  {best:12.0}");
    }
}
