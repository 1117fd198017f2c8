//! Measures the crossovers between Knuth's Algorithm D, the recursive division and division
//! by a Newton reciprocal (`Nat::div_rem_knuth`, `Nat::div_rem_recursive` and
//! `Nat::div_rem_newton`, `2n`-digit dividends by `n`-digit divisors), interleaving the
//! three in one process. `MODRED_CPU_OFF` picks the transform engine the products run on.
//! `cargo run --release -p modred --example calibrate_div [digits…]`.

use modred::Nat;
use modred_testkit::timing::{compare, Candidate, Plan};
use modred_testkit::SplitMix64;
use std::time::Duration;
mod support;
use support::sizes_from_args;

fn main() {
    let mut rng = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    let sizes = sizes_from_args(&[16, 24, 32, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192]);
    println!("CPU features used: {}", modred::cpu_features().join(" "));
    println!("digits  knuth_us  recursive_us  newton_us  knuth/recursive  recursive/newton");
    for n in sizes {
        let d = Nat::<u64>::from_vec(rng.digits(n));
        let x = Nat::<u64>::from_vec(rng.digits(2 * n));
        assert_eq!(x.div_rem_knuth(&d), x.div_rem_newton(&d));
        assert_eq!(x.div_rem_knuth(&d), x.div_rem_recursive(&d));
        let t = compare(
            &Plan::fixed(Duration::from_millis(5), 5),
            &mut [
                Candidate::new(|| drop(std::hint::black_box(x.div_rem_knuth(&d)))),
                Candidate::new(|| drop(std::hint::black_box(x.div_rem_recursive(&d)))),
                Candidate::new(|| drop(std::hint::black_box(x.div_rem_newton(&d)))),
            ],
        );
        println!(
            "{n:6} {:9.1} {:13.1} {:10.1} {:16.2} {:17.2}",
            t[0].ns * 1e-3,
            t[1].ns * 1e-3,
            t[2].ns * 1e-3,
            t[0].ratio_to(&t[1]),
            t[1].ratio_to(&t[2])
        );
    }
}
