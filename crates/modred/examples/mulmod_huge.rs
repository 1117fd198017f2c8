//! One modular multiplication of two 2^N-bit residues with a transform reducer, from
//! scratch: the precalculation (Newton reciprocal for `ntt-barrett`'s μ, Hensel lifting
//! and `R² mod m` for `ntt-montgomery`), one `Reducer::mul`, and a check against `Nat`
//! division. Prints the times and the peak resident memory (VmHWM, Linux), for the
//! docs: `/usr/bin/time -v` on it agrees.
//! `cargo run --release -p modred --example mulmod_huge [log2 bits] [ntt-barrett|ntt-montgomery]`.

use modred::reduce::{make, Scratch};
use modred::{Algorithm, Nat};
use std::time::Instant;

mod support;
use support::vm_hwm_kib;

fn main() {
    let log2: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(24);
    let algo = std::env::args()
        .nth(2)
        .map(|a| a.parse::<Algorithm>().expect("an algorithm name"))
        .unwrap_or(Algorithm::NttBarrett);
    let words = (1usize << log2) / 64;
    let mut rng = modred_testkit::SplitMix64::new(0x2545_f491_4f6c_dd1d);
    let mut m = rng.digits(words);
    m[0] |= 1;
    m[words - 1] |= 1 << 63;
    let m = Nat::from_vec(m);
    let a = Nat::from_vec(rng.digits(words)).low_bits((1 << log2) - 1);
    let b = Nat::from_vec(rng.digits(words)).low_bits((1 << log2) - 1);
    let inputs_kib = vm_hwm_kib();
    let t = Instant::now();
    let r = make(algo, &m).expect("the reducer applies");
    let t_pre = t.elapsed();
    let (ra, rb) = (r.to_residue(&a), r.to_residue(&b));
    let mut out = vec![0u64; r.width()];
    let mut scratch = Scratch::new();
    let before = vm_hwm_kib();
    let t = Instant::now();
    r.mul(&mut out, &ra, &rb, &mut scratch);
    let t_mul = t.elapsed();
    let peak = vm_hwm_kib();
    let got = r.from_residue(&out);
    let want = a.mul(&b).div_rem(&m).expect("m > 0").1;
    assert_eq!(got, want, "{algo} gave a wrong product");
    println!(
        "{algo} at 2^{log2} bits: precalculation {:.2} s, one modular multiplication {:.1} ms; \
         VmHWM {} KiB with the inputs, {} KiB after the precalculation, {} KiB peak \
         (operands of {} KiB each); checked against Nat division",
        t_pre.as_secs_f64(),
        t_mul.as_secs_f64() * 1e3,
        inputs_kib,
        before,
        peak,
        words * 8 / 1024
    );
}
