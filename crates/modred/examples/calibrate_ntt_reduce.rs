//! Measures where the transform reducers of paper 001 overtake the word-level ones for a
//! modular multiplication (`Reducer::mul`), interleaved in one process.
//! `cargo run --release --example calibrate_ntt_reduce [words…]`.

use modred::reduce::{make, Scratch};
use modred::{Algorithm, Nat};
mod support;
use support::{best_seconds, sizes_from_args, xorshift};

fn main() {
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let sizes = sizes_from_args(&[128, 256, 384, 512, 768, 1024, 2048]);
    println!(
        "words  montgomery/ntt-montgomery  barrett/ntt-barrett  (mulmod; > 1: transform faster)"
    );
    for k in sizes {
        let mut m: Vec<u64> = (0..k).map(|_| next()).collect();
        m[0] |= 1;
        m[k - 1] |= 1 << 63;
        let m = Nat::from_vec(m);
        let a: Vec<u64> = (0..k).map(|_| next()).collect();
        let b: Vec<u64> = (0..k).map(|_| next()).collect();
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
            let mut out = vec![0u64; k];
            let mut sc = Scratch::new();
            let tw = best_seconds(|| rw.mul(&mut out, &aw, &bw, &mut sc), 2e-3, 5);
            let tn = best_seconds(|| rn.mul(&mut out, &an, &bn, &mut sc), 2e-3, 5);
            row += &format!("  {:8.3} ({:.0} us vs {:.0} us)", tw / tn, tw * 1e6, tn * 1e6);
        }
        println!("{row}");
    }
}
