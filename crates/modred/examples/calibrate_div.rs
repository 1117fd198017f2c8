//! Measures the crossover between Knuth's Algorithm D and division by a Newton reciprocal
//! (`Nat::div_rem_knuth` against `Nat::div_rem_newton`, `2n`-digit dividends by `n`-digit
//! divisors), interleaving the two in one process.
//! `cargo run --release -p modred --example calibrate_div [digits…]`.

use modred::Nat;
use modred_testkit::timing::{compare, Candidate, Plan};
use modred_testkit::SplitMix64;
use std::time::Duration;
mod support;
use support::sizes_from_args;

fn main() {
    let mut rng = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    let sizes = sizes_from_args(&[64, 128, 256, 512, 1024, 2048, 4096]);
    println!("digits  knuth_us  newton_us  knuth/newton");
    for n in sizes {
        let d = Nat::<u64>::from_vec(rng.digits(n));
        let x = Nat::<u64>::from_vec(rng.digits(2 * n));
        assert_eq!(x.div_rem_knuth(&d), x.div_rem_newton(&d));
        let t = compare(
            &Plan::fixed(Duration::from_millis(5), 5),
            &mut [
                Candidate::new(|| drop(std::hint::black_box(x.div_rem_knuth(&d)))),
                Candidate::new(|| drop(std::hint::black_box(x.div_rem_newton(&d)))),
            ],
        );
        println!(
            "{n:6} {:9.1} {:9.1} {:8.2}",
            t[0].ns * 1e-3,
            t[1].ns * 1e-3,
            t[0].ratio_to(&t[1])
        );
    }
}
