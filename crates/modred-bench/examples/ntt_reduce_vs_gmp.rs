//! The transform reducers with their precalculation done (`ntt-barrett`, `ntt-montgomery`,
//! cyclic second product) against GMP's `mpz_tdiv_r` of the same double-length product,
//! interleaved in one process by `modred_testkit::timing` on the thread's CPU clock where
//! Linux has it. The inputs are those of `benches/huge.rs` (`huge-reduce`); each result is
//! checked against GMP's remainder first. Sizes are log2 of the modulus bits (default
//! 16 18 20 22):
//! `cargo run --release -p modred-bench --features anchors --example ntt_reduce_vs_gmp [k…]`.

use modred::reduce::{NttBarrett, NttMontgomery};
use modred::{Nat, Reducer, Scratch};
use modred_bench::anchors::GmpTdivR;
use modred_bench::support::{compare, Candidate, Plan, SplitMix64};
use std::time::Duration;

fn main() {
    let sizes: Vec<u32> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![16, 18, 20, 22] } else { sizes };
    println!("bits   barrett(ms)  montgomery(ms)  gmp_tdiv_r(ms)  barrett/gmp  montgomery/gmp");
    for log2 in sizes {
        let words = (1usize << log2) / 64;
        let mut rng = SplitMix64::new(0x001_1000 + u64::from(log2));
        let mut ml = rng.digits(words);
        ml[0] |= 1;
        ml[words - 1] |= 1 << 63;
        let m = Nat::from_vec(ml);
        let x: Vec<u64> = {
            let (a, b) = (Nat::from_vec(rng.digits(words)), Nat::from_vec(rng.digits(words)));
            let (a, b) = (a.div_rem(&m).unwrap().1, b.div_rem(&m).unwrap().1);
            let mut x = a.mul(&b).into_limbs();
            x.resize(2 * words, 0);
            x
        };
        let bar = NttBarrett::new(&m).unwrap();
        let mon = NttMontgomery::new(&m).unwrap();
        let mut gmp = GmpTdivR::from_limbs(&x, m.limbs());
        gmp.run();
        let want = Nat::from_vec(gmp.result_limbs());
        let (mut out_b, mut out_m) = (vec![0u64; words], vec![0u64; words]);
        let (mut s_b, mut s_m) = (Scratch::new(), Scratch::new());
        bar.reduce_raw(&mut out_b, &x, &mut s_b);
        assert_eq!(Nat::from_limbs(&out_b), want, "ntt-barrett at 2^{log2} bits");
        mon.reduce_raw(&mut out_m, &x, &mut s_m);
        let residue = mon.to_residue(&Nat::from_limbs(&out_m));
        assert_eq!(residue, want.to_padded(words).unwrap(), "ntt-montgomery at 2^{log2}");
        let rounds = if log2 >= 22 { 3 } else { 5 };
        let t = compare(
            &Plan::fixed(Duration::from_millis(2), rounds),
            &mut [
                Candidate::new(|| bar.reduce_raw(&mut out_b, &x, &mut s_b)),
                Candidate::new(|| mon.reduce_raw(&mut out_m, &x, &mut s_m)),
                Candidate::new(|| gmp.run()),
            ],
        );
        println!(
            "2^{log2}  {:11.3}  {:14.3}  {:14.3}  {:11.3}  {:14.3}",
            t[0].ns * 1e-6,
            t[1].ns * 1e-6,
            t[2].ns * 1e-6,
            t[0].ratio_to(&t[2]),
            t[1].ratio_to(&t[2]),
        );
    }
}
