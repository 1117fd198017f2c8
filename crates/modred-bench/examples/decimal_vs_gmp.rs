//! Decimal conversion of huge numbers against GMP's `mpz_get_str` / `mpz_set_str` (through
//! `rug`), interleaved in one process by `modred_testkit::timing` on the thread's CPU clock.
//! Each round trip is checked against GMP's string first. Sizes are log2 of the bits
//! (default 16 20 22 24):
//! `cargo run --release -p modred-bench --features anchors --example decimal_vs_gmp [k…]`.

use modred::Nat;
use modred_bench::support::{compare, Candidate, Plan, SplitMix64};
use rug::integer::Order;
use rug::Integer;
use std::hint::black_box;
use std::time::Duration;

fn main() {
    let sizes: Vec<u32> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![16, 20, 22, 24] } else { sizes };
    let mut rng = SplitMix64::new(0xdec1_3a15_5eed);
    println!("bits   write: ours(µs)   gmp(µs)  ours/gmp   read: ours(µs)   gmp(µs)  ours/gmp");
    for log2 in sizes {
        let words = (1usize << log2) / 64;
        let mut limbs = rng.digits(words);
        limbs[words - 1] |= 1 << 63;
        let n = Nat::from_vec(limbs.clone());
        let g = Integer::from_digits(&limbs, Order::Lsf);
        let text = g.to_string_radix(10);
        assert_eq!(n.to_decimal(), text, "writing differs at 2^{log2} bits");
        assert_eq!(Nat::from_str_radix(&text, 10).expect("digits"), n, "reading, 2^{log2}");
        let rounds = if log2 >= 24 { 3 } else { 5 };
        let t = compare(
            &Plan::fixed(Duration::from_millis(2), rounds),
            &mut [
                Candidate::new(|| {
                    black_box(black_box(&n).to_decimal());
                }),
                Candidate::new(|| {
                    black_box(black_box(&g).to_string_radix(10));
                }),
                Candidate::new(|| {
                    black_box(Nat::<u64>::from_str_radix(black_box(&text), 10).ok());
                }),
                Candidate::new(|| {
                    black_box(Integer::from_str_radix(black_box(&text), 10).ok());
                }),
            ],
        );
        println!(
            "2^{log2}  {:14.1}  {:9.1}  {:8.2}  {:14.1}  {:9.1}  {:8.2}",
            t[0].ns * 1e-3,
            t[1].ns * 1e-3,
            t[0].ratio_to(&t[1]),
            t[2].ns * 1e-3,
            t[3].ns * 1e-3,
            t[2].ratio_to(&t[3]),
        );
    }
}
