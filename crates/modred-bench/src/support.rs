//! What the benchmarks and the timing examples share: fixed-seed operands (from the
//! testkit's generator) and the interleaved minimum-time measurement.

use modred::Nat;
pub use modred_testkit::SplitMix64;
use std::time::Instant;

/// A number below `m` from the fixed-seed generator (one digit longer than `m`, reduced:
/// the bias is negligible), so every run times the same numbers.
///
/// # Panics
/// If `m` is zero.
pub fn below(rng: &mut SplitMix64, m: &Nat) -> Nat {
    Nat::from_vec(rng.digits(m.len() + 1)).checked_rem(m).expect("a non-zero modulus")
}

/// An odd modulus of `limbs ≥ 1` full 64-bit digits (top bit set).
pub fn odd(rng: &mut SplitMix64, limbs: usize) -> Nat {
    Nat::from_vec(digits(rng, limbs.max(1), true))
}

/// `words ≥ 1` random digits with the top bit set (and the lowest when `odd`).
pub fn digits(rng: &mut SplitMix64, words: usize, odd: bool) -> Vec<u64> {
    let mut v = rng.digits(words);
    *v.last_mut().expect("at least one digit") |= 1 << 63;
    if odd {
        v[0] |= 1;
    }
    v
}

/// A `bits`-bit value (top bit set, and the lowest when `odd`) in hexadecimal without
/// prefix, for the anchors' constructors; `bits` a multiple of 64.
pub fn hex(rng: &mut SplitMix64, bits: usize, odd: bool) -> String {
    digits(rng, bits / 64, odd).iter().rev().map(|w| format!("{w:016x}")).collect()
}

/// A timing candidate: runs its operation `n` times.
pub type Batch<'a> = Box<dyn FnMut(u64) + 'a>;

/// `op` as a candidate.
pub fn cand<'a>(mut op: impl FnMut() + 'a) -> Batch<'a> {
    Box::new(move |n| {
        for _ in 0..n {
            op();
        }
    })
}

/// Minimum nanoseconds per operation of each candidate: each is first given a batch of
/// about `batch_ns` (doubling from one operation), then the batches are run `rounds`
/// times, interleaved and rotated, so the machine's slow phases hit every candidate.
pub fn measure<N>(cands: &mut [(N, Batch<'_>)], rounds: usize, batch_ns: u128) -> Vec<f64> {
    let mut batch = vec![1u64; cands.len()];
    for (i, (_, f)) in cands.iter_mut().enumerate() {
        loop {
            let t = Instant::now();
            f(batch[i]);
            if t.elapsed().as_nanos() > batch_ns || batch[i] > 1 << 24 {
                break;
            }
            batch[i] *= 2;
        }
    }
    let mut best = vec![f64::INFINITY; cands.len()];
    for r in 0..rounds {
        for j in 0..cands.len() {
            let i = (j + r) % cands.len();
            let t = Instant::now();
            (cands[i].1)(batch[i]);
            best[i] = best[i].min(t.elapsed().as_nanos() as f64 / batch[i] as f64);
        }
    }
    best
}
