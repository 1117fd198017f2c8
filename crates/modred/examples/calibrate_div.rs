//! Measures the crossover between Knuth's Algorithm D and division by a Newton reciprocal
//! (`Nat::div_rem_knuth` against `Nat::div_rem_newton`, `2n`-digit dividends by `n`-digit
//! divisors), interleaving the two in one process.
//! `cargo run --release -p modred --example calibrate_div [digits…]`.

use modred::Nat;
mod support;
use support::{best_seconds, sizes_from_args, xorshift};

fn main() {
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let sizes = sizes_from_args(&[64, 128, 256, 512, 1024, 2048, 4096]);
    println!("digits  knuth_us  newton_us  knuth/newton");
    for n in sizes {
        let d = Nat::<u64>::from_vec((0..n).map(|_| next()).collect());
        let x = Nat::<u64>::from_vec((0..2 * n).map(|_| next()).collect());
        assert_eq!(x.div_rem_knuth(&d), x.div_rem_newton(&d));
        let k = best_seconds(
            || {
                std::hint::black_box(x.div_rem_knuth(&d));
            },
            5e-3,
            5,
        );
        let t = best_seconds(
            || {
                std::hint::black_box(x.div_rem_newton(&d));
            },
            5e-3,
            5,
        );
        println!("{n:6} {:9.1} {:9.1} {:8.2}", k * 1e6, t * 1e6, k / t);
    }
}
