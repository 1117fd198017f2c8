//! What the benchmarks and the timing examples share: fixed-seed operands and the
//! interleaved minimum-time measurement.

use modred::rng::SplitMix64;
use modred::Nat;
use std::time::Instant;

/// Fixed-seed operands (the library's SplitMix64), so every run times the same numbers.
#[derive(Clone, Debug)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator with the given seed.
    pub fn new(seed: u64) -> Self {
        Rng(SplitMix64::new(seed))
    }

    /// The next 64 pseudo-random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number below `m` (one digit longer than `m`, reduced: the bias is negligible).
    ///
    /// # Panics
    /// If `m` is zero.
    pub fn below(&mut self, m: &Nat) -> Nat {
        let v: Vec<u64> = (0..m.len() + 1).map(|_| self.next_u64()).collect();
        Nat::from_vec(v).checked_rem(m).expect("a non-zero modulus")
    }

    /// An odd modulus of `limbs ≥ 1` full 64-bit digits (top bit set).
    pub fn odd(&mut self, limbs: usize) -> Nat {
        let mut v: Vec<u64> = (0..limbs.max(1)).map(|_| self.next_u64()).collect();
        v[0] |= 1;
        *v.last_mut().expect("at least one digit") |= 1 << 63;
        Nat::from_vec(v)
    }
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
