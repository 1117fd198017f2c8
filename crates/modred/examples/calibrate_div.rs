//! Measures the crossover between Knuth's Algorithm D and division by a Newton reciprocal
//! (`Nat::div_rem_knuth` against `Nat::div_rem_newton`, `2n`-digit dividends by `n`-digit
//! divisors), interleaving the two in one process.
//! `cargo run --release -p modred --example calibrate_div [digits…]`.

use modred::Nat;
use std::time::Instant;

fn time<F: FnMut()>(mut f: F) -> f64 {
    let mut reps = 1;
    loop {
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        if t.elapsed().as_secs_f64() > 5e-3 {
            break;
        }
        reps *= 2;
    }
    (0..5)
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
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let sizes: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![64, 128, 256, 512, 1024, 2048, 4096] } else { sizes };
    println!("digits  knuth_us  newton_us  knuth/newton");
    for n in sizes {
        let d = Nat::<u64>::from_vec((0..n).map(|_| next()).collect());
        let x = Nat::<u64>::from_vec((0..2 * n).map(|_| next()).collect());
        assert_eq!(x.div_rem_knuth(&d), x.div_rem_newton(&d));
        let k = time(|| {
            std::hint::black_box(x.div_rem_knuth(&d));
        });
        let t = time(|| {
            std::hint::black_box(x.div_rem_newton(&d));
        });
        println!("{n:6} {:9.1} {:9.1} {:8.2}", k * 1e6, t * 1e6, k / t);
    }
}
