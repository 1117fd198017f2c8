//! Measures where the transform reducers of paper 001 overtake the word-level ones for a
//! modular multiplication (`Reducer::mul`), interleaved in one process.
//! `cargo run --release --example calibrate_ntt_reduce [words…]`.

use modred::reduce::{make, Scratch};
use modred::{Algorithm, Nat};
use std::time::Instant;

fn best<F: FnMut()>(mut f: F) -> f64 {
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
    let sizes: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let sizes = if sizes.is_empty() { vec![128, 256, 384, 512, 768, 1024, 2048] } else { sizes };
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
            let tw = best(|| rw.mul(&mut out, &aw, &bw, &mut sc));
            let tn = best(|| rn.mul(&mut out, &an, &bn, &mut sc));
            row += &format!("  {:8.3} ({:.0} us vs {:.0} us)", tw / tn, tw * 1e6, tn * 1e6);
        }
        println!("{row}");
    }
}
