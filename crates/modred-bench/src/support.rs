//! What the benchmarks and the timing examples share: fixed-seed operands and the
//! interleaved timing, both from modred-testkit.

use modred::Nat;
pub use modred_testkit::timing::{compare, compare_wall_clock, Candidate, Plan, Timing};
pub use modred_testkit::SplitMix64;

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

/// Times named candidates with the testkit's interleaved harness ([`compare`]) and keeps
/// each name with its timing.
pub fn compare_named<N>(plan: &Plan, named: Vec<(N, Candidate<'_>)>) -> Vec<(N, Timing)> {
    let (names, mut cands): (Vec<N>, Vec<Candidate<'_>>) = named.into_iter().unzip();
    names.into_iter().zip(compare(plan, &mut cands)).collect()
}
