//! Measures where the transform reducers of paper 001 overtake the word-level ones for a
//! modular multiplication (`Reducer::mul`), interleaved in one process.
//! `cargo run --release --example calibrate_ntt_reduce [words…]`.

use modred::reduce::{make, Scratch};
use modred::{Algorithm, Nat};
use modred_testkit::timing::{compare, Candidate, Plan};
use modred_testkit::SplitMix64;
use std::time::Duration;
mod support;
use support::sizes_from_args;

fn main() {
    let mut rng = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    let sizes = sizes_from_args(&[128, 256, 384, 512, 768, 1024, 2048]);
    println!(
        "words  montgomery/ntt-montgomery  barrett/ntt-barrett  (mulmod; > 1: transform faster)"
    );
    for k in sizes {
        let mut m = rng.digits(k);
        m[0] |= 1;
        m[k - 1] |= 1 << 63;
        let m = Nat::from_vec(m);
        let (a, b) = (rng.digits(k), rng.digits(k));
        let mut row = format!("{k:6}");
        for (word, ntt) in [
            (Algorithm::Montgomery, Algorithm::NttMontgomery),
            (Algorithm::Barrett, Algorithm::NttBarrett),
        ] {
            let rw = make(word, &m).unwrap();
            let rn = make(ntt, &m).unwrap();
            let (aw, bw) =
                (rw.to_residue(&Nat::from_limbs(&a)), rw.to_residue(&Nat::from_limbs(&b)));
            let (an, bn) =
                (rn.to_residue(&Nat::from_limbs(&a)), rn.to_residue(&Nat::from_limbs(&b)));
            let (mut ow, mut on) = (vec![0u64; k], vec![0u64; k]);
            let (mut sw, mut sn) = (Scratch::new(), Scratch::new());
            let t = compare(
                &Plan::fixed(Duration::from_millis(2), 5),
                &mut [
                    Candidate::new(|| rw.mul(&mut ow, &aw, &bw, &mut sw)),
                    Candidate::new(|| rn.mul(&mut on, &an, &bn, &mut sn)),
                ],
            );
            let (tw, tn) = (t[0].ns * 1e-3, t[1].ns * 1e-3);
            row += &format!("  {:8.3} ({tw:.0} us vs {tn:.0} us)", t[0].ratio_to(&t[1]));
        }
        println!("{row}");
    }
}
