//! Fixed-seed pseudo-random numbers for tests, examples, benchmarks and the report:
//! SplitMix64 (Steele, Lea and Flood, 2014), small and good enough for test data.
//! **Not for cryptography** — its output is predictable from any one value.
//!
//! Numbers are little-endian digits in radix 2^64 (`Vec<u64>`, high zero digits possible),
//! drawn the same way whatever digit size the caller converts them to, so one seed gives
//! the same numbers at every digit size: with modred, `Nat::<u64>::from_vec(v)` and, for
//! other digit sizes, `.to_radix::<L>()`.
//!
//! ```
//! use modred_testkit::SplitMix64;
//! let m = SplitMix64::new(3).odd_modulus(300); // 5 digits, 300 bits, odd
//! assert_eq!(m.len(), 5);
//! assert_eq!(m[4] >> 43, 1);
//! assert_eq!(m[0] & 1, 1);
//! ```

use core::cmp::Ordering;

/// The SplitMix64 generator: a 64-bit state advanced by a Weyl sequence and mixed by two
/// multiplications.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator with the given seed.
    pub const fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 pseudo-random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `next_u64() % n`: one draw, below `n`, with the small bias of a remainder (none for
    /// a power of two, negligible for the small `n` of test cases).
    ///
    /// # Panics
    /// If `n` is zero.
    pub fn below_u64(&mut self, n: u64) -> u64 {
        assert!(n != 0, "SplitMix64::below_u64: empty range (bound 0)");
        self.next_u64() % n
    }

    /// `n` digits, each the next 64 bits (uniform below `2^(64·n)`).
    pub fn digits(&mut self, n: usize) -> Vec<u64> {
        (0..n).map(|_| self.next_u64()).collect()
    }

    /// Uniform below `2^bits`, in `⌈bits / 64⌉` digits (`bits = 0` gives no digit).
    pub fn below_pow2(&mut self, bits: u64) -> Vec<u64> {
        let words = bits.div_ceil(64) as usize;
        let mut v = self.digits(words);
        let spare = words as u64 * 64 - bits;
        if let Some(top) = v.last_mut() {
            *top >>= spare;
        }
        v
    }

    /// Uniform with exactly `bits` bits (the top one set), in `⌈bits / 64⌉` digits;
    /// `bits = 0` gives 0 (no digit).
    pub fn exact_bits(&mut self, bits: u64) -> Vec<u64> {
        if bits == 0 {
            return Vec::new();
        }
        let mut v = self.below_pow2(bits - 1);
        v.resize(bits.div_ceil(64) as usize, 0);
        set_bit(&mut v, bits - 1);
        v
    }

    /// An odd number of exactly `bits ≥ 2` bits: a modulus every reducer accepts
    /// (`bits = 1` gives 1, `bits = 0` gives 1 as well: the smallest odd number).
    pub fn odd_modulus(&mut self, bits: u64) -> Vec<u64> {
        let mut m = self.exact_bits(bits);
        if m.is_empty() {
            m.push(0);
        }
        m[0] |= 1;
        m
    }

    /// Uniform below `bound` (digits, high zeros allowed), by rejection (fewer than two
    /// draws on average); as many digits as `bound` has significant ones.
    ///
    /// # Panics
    /// If `bound` is zero: the range is empty.
    pub fn below(&mut self, bound: &[u64]) -> Vec<u64> {
        let bits = bit_len(bound);
        assert!(bits != 0, "SplitMix64::below: empty range (bound 0)");
        loop {
            let x = self.below_pow2(bits);
            if cmp(&x, bound) == Ordering::Less {
                return x;
            }
        }
    }

    /// Uniform in `[lo, hi)` (digits, high zeros allowed).
    ///
    /// # Panics
    /// If `lo ≥ hi`: the range is empty.
    pub fn between(&mut self, lo: &[u64], hi: &[u64]) -> Vec<u64> {
        let width = if cmp(hi, lo) == Ordering::Greater { sub(hi, lo) } else { Vec::new() };
        add(&self.below(&width), lo)
    }
}

/// The number of significant bits of `x`.
fn bit_len(x: &[u64]) -> u64 {
    match x.iter().rposition(|&d| d != 0) {
        Some(i) => 64 * i as u64 + 64 - x[i].leading_zeros() as u64,
        None => 0,
    }
}

fn set_bit(x: &mut [u64], i: u64) {
    x[(i / 64) as usize] |= 1 << (i % 64);
}

/// Compares two numbers given as digits (high zeros allowed).
fn cmp(a: &[u64], b: &[u64]) -> Ordering {
    let n = a.len().max(b.len());
    let digit = |x: &[u64], i: usize| x.get(i).copied().unwrap_or(0);
    (0..n)
        .rev()
        .map(|i| digit(a, i).cmp(&digit(b, i)))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// `a + b`.
fn add(a: &[u64], b: &[u64]) -> Vec<u64> {
    let n = a.len().max(b.len());
    let mut out = Vec::with_capacity(n + 1);
    let mut carry = false;
    for i in 0..n {
        let (s, c1) =
            a.get(i).copied().unwrap_or(0).overflowing_add(b.get(i).copied().unwrap_or(0));
        let (s, c2) = s.overflowing_add(carry as u64);
        out.push(s);
        carry = c1 || c2;
    }
    if carry {
        out.push(1);
    }
    out
}

/// `a − b` for `a ≥ b`.
fn sub(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len());
    let mut borrow = false;
    for (i, &ai) in a.iter().enumerate() {
        let (d, b1) = ai.overflowing_sub(b.get(i).copied().unwrap_or(0));
        let (d, b2) = d.overflowing_sub(borrow as u64);
        out.push(d);
        borrow = b1 || b2;
    }
    debug_assert!(!borrow, "sub: a < b");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of up to two digits.
    fn val(x: &[u64]) -> u128 {
        assert!(x.iter().skip(2).all(|&d| d == 0));
        x.iter().take(2).rev().fold(0, |v, &d| v << 64 | d as u128)
    }

    #[test]
    fn first_output_matches_the_reference() {
        // Reference value of SplitMix64 seeded with 0 (as in Vigna's splitmix64.c).
        assert_eq!(SplitMix64::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn draws_are_those_of_the_library_generator_they_replace() {
        // Values drawn by `modred::rng::SplitMix64` before it moved here (as `Nat<u64>`
        // digits): every seeded test, table and report keeps its numbers.
        let mut rng = SplitMix64::new(7);
        assert_eq!(rng.exact_bits(100), vec![0x63cb_e1e4_5932_0dd7, 0x8_2261_e6bf]);
        assert_eq!(rng.odd_modulus(70), vec![0xe698_4080_bab1_2a03, 0x32]);
        assert_eq!(rng.below(&[0, 1]), vec![0x73d3_3b66_6a1e_21da, 0]);
        assert_eq!(rng.between(&[1000], &[1010]), vec![1007]);
    }

    #[test]
    fn draws_respect_their_ranges() {
        let mut rng = SplitMix64::new(7);
        for bits in [1u64, 2, 15, 16, 17, 63, 64, 65, 200, 512] {
            let x = rng.exact_bits(bits);
            assert_eq!((x.len() as u64, bit_len(&x)), (bits.div_ceil(64), bits));
            let y = rng.below_pow2(bits);
            assert!(y.len() as u64 == bits.div_ceil(64) && bit_len(&y) <= bits);
        }
        assert!(rng.exact_bits(0).is_empty() && rng.below_pow2(0).is_empty());
        assert_eq!((rng.odd_modulus(0), rng.odd_modulus(1)), (vec![1], vec![1]));
        let m = rng.odd_modulus(100);
        assert!(m[0] & 1 == 1 && bit_len(&m) == 100);
        for _ in 0..100 {
            assert_eq!(cmp(&rng.below(&m), &m), Ordering::Less);
            assert!(rng.below_u64(10) < 10);
        }
        // High zero digits of a bound change nothing.
        let (mut a, mut b) = (SplitMix64::new(5), SplitMix64::new(5));
        assert_eq!(a.below(&[12345, 0, 0]), b.below(&[12345]));
        for _ in 0..50 {
            let x = val(&rng.between(&[1000], &[1010]));
            assert!((1000..1010).contains(&x));
            let y = val(&rng.between(&[u64::MAX], &[5, 1]));
            assert!((u64::MAX as u128..(1u128 << 64) + 5).contains(&y));
        }
    }

    #[test]
    fn digit_arithmetic() {
        assert_eq!(add(&[u64::MAX, u64::MAX], &[1]), vec![0, 0, 1]);
        assert_eq!(sub(&[0, 0, 1], &[1]), vec![u64::MAX, u64::MAX, 0]);
        assert_eq!(cmp(&[1, 0, 0], &[1]), Ordering::Equal);
        assert_eq!(cmp(&[0, 1], &[u64::MAX]), Ordering::Greater);
        assert_eq!((bit_len(&[]), bit_len(&[0, 0]), bit_len(&[0, 1])), (0, 0, 65));
    }

    #[test]
    #[should_panic(expected = "empty range")]
    fn an_empty_range_is_refused() {
        SplitMix64::new(1).below(&[0]);
    }

    #[test]
    #[should_panic(expected = "empty range")]
    fn an_empty_interval_is_refused() {
        SplitMix64::new(1).between(&[5], &[5]);
    }
}
