//! Layer 3 against an independent oracle (num-bigint), for every digit type.
//!
//! Operands are drawn by a fixed-seed SplitMix64 from 0 to [`MAX_BITS`] bits, in shapes
//! that stress carries and borrows (runs of ones and zeros, digits of b − 1 with holes),
//! at digit counts straddling the Karatsuba thresholds, and as hand-built edge values. The
//! division tests build dividends whose quotient-digit estimate is wrong by one and by two
//! and whose corrected estimate still needs the add-back step, and check with a model of
//! Algorithm D that each of those branches is reached. The operation counts of the
//! schoolbook product and square and of the division steps are checked with [`Counted`].

use super::div::{div_3by2, reciprocal_3by2, rem_normalized, rem_normalized_pi1};
use super::mul::{mul_slices, sqr_slice, KARATSUBA_SQR_THRESHOLD};
use super::{Nat, KARATSUBA_THRESHOLD};
use crate::limb::{count_ops, Counted, Limb};
use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

/// Under Miri, which interprets every step thousands of times slower than compiled code,
/// the tests run on fewer and smaller operands of the same shapes, for `u8` and `u64`
/// digits only: there they look for undefined behaviour; the compiled runs cover the
/// arithmetic.
const MIRI: bool = cfg!(miri);

/// `n` random cases; one in 50 of them under Miri.
const fn cases(n: usize) -> usize {
    if MIRI {
        n.div_ceil(50)
    } else {
        n
    }
}

/// Largest operand drawn at random, in bits.
const MAX_BITS: u64 = if MIRI { 320 } else { 20_000 };

/// The testkit's fixed-seed SplitMix64 (the same cases on every run), with the operand
/// shapes of these tests.
struct Rng(SplitMix64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(SplitMix64::new(seed))
    }

    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0.below_u64(n)
    }

    /// A size in bits from 0 to `MAX_BITS`, small sizes as likely as large ones.
    fn bits(&mut self) -> u64 {
        match self.below(8) {
            0 => self.below(4),
            1 | 2 => self.below(MAX_BITS + 1),
            _ => {
                let scale = self.below(15);
                self.below(1 << scale).min(MAX_BITS)
            }
        }
    }

    /// `n` random digits in one of several shapes.
    fn digits<L: Limb>(&mut self, n: usize) -> Vec<L> {
        let half = 1u64 << (L::BITS - 1);
        match self.below(5) {
            0 | 1 => (0..n).map(|_| L::from_u64(self.next())).collect(),
            // Runs of ones and zeros (like GMP's mpz_rrandomb): long carry chains.
            2 => {
                let mut bits = Vec::with_capacity(n * L::BITS as usize);
                let mut one = self.below(2) == 0;
                while bits.len() < n * L::BITS as usize {
                    let run = 1 + self.below(3 * L::BITS as u64) as usize;
                    bits.extend(core::iter::repeat(one).take(run));
                    one = !one;
                }
                bits.chunks(L::BITS as usize)
                    .take(n)
                    .map(|c| L::from_u64(c.iter().rev().fold(0, |v, &b| v << 1 | b as u64)))
                    .collect()
            }
            // Every digit b − 1 (or 0) but a few.
            3 => {
                let fill = if self.below(2) == 0 { L::MAX } else { L::ZERO };
                let mut v = vec![fill; n];
                for _ in 0..self.below(4) {
                    if n > 0 {
                        v[self.below(n as u64) as usize] = L::from_u64(self.next());
                    }
                }
                v
            }
            _ => (0..n)
                .map(|_| {
                    L::from_u64(match self.below(6) {
                        0 => 0,
                        1 => 1,
                        2 => half,
                        3 => half - 1,
                        4 => u64::MAX,
                        _ => self.next(),
                    })
                })
                .collect(),
        }
    }

    /// A number of exactly `bits` bits.
    fn nat_bits<L: Limb>(&mut self, bits: u64) -> Nat<L> {
        if bits == 0 {
            return Nat::zero();
        }
        let n = bits.div_ceil(L::BITS as u64) as usize;
        let mut d = self.digits::<L>(n);
        let top = (bits - 1) % L::BITS as u64;
        let mask = u64::MAX >> (63 - top);
        d[n - 1] = L::from_u64(d[n - 1].to_u64() & mask | 1 << top);
        Nat::from_vec(d)
    }

    /// A number of exactly `n` digits.
    fn nat_digits<L: Limb>(&mut self, n: usize) -> Nat<L> {
        if n == 0 {
            return Nat::zero();
        }
        let bits = n as u64 * L::BITS as u64 - self.below(L::BITS as u64);
        self.nat_bits(bits)
    }

    fn nat<L: Limb>(&mut self) -> Nat<L> {
        let bits = self.bits();
        self.nat_bits(bits)
    }
}

/// The value of a digit slice, assembled independently of `Nat`'s own conversions.
fn to_big<L: Limb>(d: &[L]) -> BigUint {
    let mut words = Vec::new();
    let (mut acc, mut have) = (0u128, 0u32);
    for x in d {
        acc |= (x.to_u64() as u128) << have;
        have += L::BITS;
        while have >= 32 {
            words.push(acc as u32);
            acc >>= 32;
            have -= 32;
        }
    }
    words.push(acc as u32);
    BigUint::new(words)
}

/// The normalized digits of `x`.
fn from_big<L: Limb>(x: &BigUint) -> Vec<L> {
    let mut out = Vec::new();
    let (mut acc, mut have) = (0u128, 0u32);
    for w in x.to_u32_digits() {
        acc |= (w as u128) << have;
        have += 32;
        while have >= L::BITS {
            out.push(L::from_u64(acc as u64));
            acc >>= L::BITS;
            have -= L::BITS;
        }
    }
    out.push(L::from_u64(acc as u64));
    while out.last().is_some_and(|d| d.is_zero()) {
        out.pop();
    }
    out
}

/// The value of `n`, checking that it is normalized.
fn big<L: Limb>(n: &Nat<L>) -> BigUint {
    assert!(n.limbs().last().map_or(true, |d| !d.is_zero()), "not normalized: {:?}", n.limbs());
    to_big(n.limbs())
}

fn nat<L: Limb>(x: &BigUint) -> Nat<L> {
    Nat::from_vec(from_big(x))
}

fn radix<L: Limb>() -> BigUint {
    BigUint::one() << L::BITS
}

/// Runs a generic check for every digit type (under Miri: `u8` and `u64`), each with its
/// own seed.
macro_rules! for_each_limb {
    ($check:ident) => {
        $check::<u8>(0x0108);
        $check::<u64>(0x0164);
        if !MIRI {
            $check::<u16>(0x0116);
            $check::<u32>(0x0132);
            $check::<Counted<u16>>(0xc016);
        }
    };
}

/// Numbers that sit on digit and carry boundaries for digits of type `L`.
fn edge_values<L: Limb>() -> Vec<BigUint> {
    let b = radix::<L>();
    let one = BigUint::one();
    let mut v: Vec<BigUint> = vec![
        BigUint::zero(),
        one.clone(),
        BigUint::from(2u8),
        BigUint::from(3u8),
        &b >> 1u32,
        (&b >> 1u32) - 1u32,
        &b - 2u32,
        &b - 1u32,
        b.clone(),
        &b + 1u32,
    ];
    let (kt, kst) = (KARATSUBA_THRESHOLD as u32, KARATSUBA_SQR_THRESHOLD as u32);
    let ks: &[u32] = if MIRI { &[2, 5] } else { &[2, 3, 5, kt, kst + 1, 70] };
    for &k in ks {
        let bk = b.pow(k);
        let bk1 = b.pow(k - 1);
        v.push(&bk - 1u32); // all digits b − 1
        v.push(bk.clone()); // b^k
        v.push(&bk + 1u32);
        v.push(&bk - b.pow(k / 2)); // b − 1 on top, zeros below
        v.push(&bk1 + 1u32); // top digit 1
        v.push(&bk1 * 3u32 - 1u32); // top digit 2, then b − 1
        v.push(&bk - &bk1 + 1u32); // top digit b − 1, then zeros, then 1
        v.push((&bk - 1u32) / (&b - 1u32)); // every digit 1
    }
    for bits in [MAX_BITS - 1, MAX_BITS] {
        v.push((&one << bits) - 1u32); // all ones
        v.push(&one << bits);
        v.push((&one << bits) + 1u32);
    }
    if MIRI {
        // Every fourth: the cross products below are quadratic in the count.
        v = v.into_iter().step_by(4).collect();
    }
    v
}

// ---------------------------------------------------------------------------------------
// Addition, subtraction, comparison.

fn check_add_sub<L: Limb>(seed: u64) {
    let mut rng = Rng::new(seed);
    let edges = edge_values::<L>();
    let mut pairs: Vec<(BigUint, BigUint)> = Vec::new();
    for x in &edges {
        for y in &edges {
            pairs.push((x.clone(), y.clone()));
        }
    }
    for _ in 0..cases(200) {
        let (a, b) = (rng.nat::<L>(), rng.nat::<L>());
        pairs.push((big(&a), big(&b)));
        // Equal lengths, and b^n − 1 + small: carries that run off the top.
        let c = rng.nat_digits::<L>(a.len());
        pairs.push((big(&a), big(&c)));
    }
    for (x, y) in &pairs {
        let (a, b) = (nat::<L>(x), nat::<L>(y));
        let sum = a.add(&b);
        assert_eq!(big(&sum), x + y);
        assert_eq!(big(&(&b + &a)), x + y);
        assert_eq!(a.cmp(&b), x.cmp(y), "{x} vs {y}");
        match a.checked_sub(&b) {
            Some(d) => {
                assert!(x >= y);
                assert_eq!(big(&d), x - y);
                assert_eq!(big(&(&a - &b)), x - y);
            }
            None => assert!(x < y),
        }
        let diff = if x >= y { x - y } else { y - x };
        assert_eq!(big(&a.abs_diff(&b)), diff);
        assert_eq!(sum.checked_sub(&b).as_ref(), Some(&a));
    }
}

#[test]
fn add_sub_cmp_match_bigint() {
    for_each_limb!(check_add_sub);
}

// ---------------------------------------------------------------------------------------
// Shifts and bits.

fn check_shifts<L: Limb>(seed: u64) {
    let mut rng = Rng::new(seed);
    let w = L::BITS as u64;
    let mut values = edge_values::<L>();
    for _ in 0..cases(100) {
        values.push(big(&rng.nat::<L>()));
    }
    for x in &values {
        let a = nat::<L>(x);
        let bits = x.bits();
        assert_eq!(a.bits(), bits);
        assert_eq!(a.len(), (bits.div_ceil(w)) as usize);
        assert_eq!(a.trailing_zeros(), x.trailing_zeros().unwrap_or(0));
        assert_eq!(a.is_odd(), x.bit(0));
        assert_eq!(a.is_zero(), x.is_zero());
        assert_eq!(a.is_one(), x.is_one());
        for i in [0, 1, w - 1, w, bits.saturating_sub(1), bits, bits + 1, rng.below(bits + 2)] {
            assert_eq!(a.bit(i), x.bit(i), "bit {i} of {x}");
        }
        let shifts = [0, 1, w - 1, w, w + 1, 2 * w, bits, bits + w, rng.below(bits + 2 * w)];
        for n in shifts {
            assert_eq!(big(&a.shl(n)), x << n, "{x} << {n}");
            assert_eq!(big(&a.shr(n)), x >> n, "{x} >> {n}");
            let mask = (BigUint::one() << n) - 1u32;
            assert_eq!(big(&a.low_bits(n)), x & mask, "{x} mod 2^{n}");
        }
    }
    for n in [0, 1, w - 1, w, w + 1, 1000, MAX_BITS] {
        assert_eq!(big(&Nat::<L>::power_of_two(n)), BigUint::one() << n);
    }
}

#[test]
fn shifts_and_bits_match_bigint() {
    for_each_limb!(check_shifts);
}

// ---------------------------------------------------------------------------------------
// Multiplication and squaring.

/// Digit counts on and around the thresholds, where the recursion changes shape: just
/// below and above each, twice and four times each (one and two levels of recursion;
/// under Miri only the thresholds).
fn threshold_sizes() -> Vec<usize> {
    let mut v = Vec::new();
    let (multiples, offsets): (&[usize], &[isize]) =
        if MIRI { (&[1], &[0]) } else { (&[1, 2, 4], &[-2, -1, 0, 1, 2]) };
    for t in [KARATSUBA_THRESHOLD, KARATSUBA_SQR_THRESHOLD] {
        for base in multiples.iter().map(|j| j * t) {
            for &d in offsets {
                v.push((base as isize + d) as usize);
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// Checks `a·b` through `Nat::mul` and through `mul_slices` on zero-padded operands (the
/// form reducers use) writing into a buffer full of garbage.
fn check_product<L: Limb>(a: &Nat<L>, b: &Nat<L>, rng: &mut Rng) {
    let expected = big(a) * big(b);
    let p = a.mul(b);
    assert_eq!(big(&p), expected, "{} x {} digits", a.len(), b.len());
    let (pa, pb) = (rng.below(3) as usize, rng.below(3) as usize);
    let sa = a.to_padded(a.len() + pa).unwrap();
    let sb = b.to_padded(b.len() + pb).unwrap();
    let mut r = vec![L::MAX; sa.len() + sb.len()];
    mul_slices(&mut r, &sa, &sb);
    assert_eq!(to_big(&r), expected, "padded {} x {} digits", sa.len(), sb.len());
}

fn check_square<L: Limb>(a: &Nat<L>, rng: &mut Rng) {
    let expected = big(a).pow(2);
    assert_eq!(big(&a.sqr()), expected, "{} digits squared", a.len());
    let sa = a.to_padded(a.len() + rng.below(3) as usize).unwrap();
    let mut r = vec![L::MAX; 2 * sa.len()];
    sqr_slice(&mut r, &sa);
    assert_eq!(to_big(&r), expected, "padded {} digits squared", sa.len());
}

fn check_mul<L: Limb>(seed: u64) {
    let mut rng = Rng::new(seed);
    for _ in 0..cases(60) {
        let (a, b) = (rng.nat::<L>(), rng.nat::<L>());
        check_product(&a, &b, &mut rng);
    }
    let sizes = threshold_sizes();
    // Balanced, nearly balanced, and cut at h = ⌈n/2⌉ exactly (the unbalanced switch).
    for &n in &sizes {
        for m in [n, n - 1, n + 1, n.div_ceil(2), n.div_ceil(2) + 1] {
            let (a, b) = (rng.nat_digits::<L>(n), rng.nat_digits::<L>(m));
            check_product(&a, &b, &mut rng);
        }
    }
    // Very unbalanced: a few digits, or a threshold's worth, against thousands of bits.
    for m in [1, 2, KARATSUBA_THRESHOLD - 1, KARATSUBA_THRESHOLD, KARATSUBA_THRESHOLD + 1] {
        for bits in [3000, MAX_BITS].into_iter().filter(|&b| b <= MAX_BITS) {
            let n = (bits / L::BITS as u64) as usize + 1;
            let (a, b) = (rng.nat_digits::<L>(n), rng.nat_digits::<L>(m));
            check_product(&a, &b, &mut rng);
            check_product(&b, &a, &mut rng);
        }
    }
    // The largest operands: all digits b − 1.
    let largest = [KARATSUBA_THRESHOLD, 2 * KARATSUBA_THRESHOLD + 1, 300];
    for &n in &largest[..if MIRI { 1 } else { 3 }] {
        let a = nat::<L>(&(radix::<L>().pow(n as u32) - 1u32));
        check_product(&a, &a, &mut rng);
        check_square(&a, &mut rng);
    }
    let edges = edge_values::<L>();
    for x in &edges {
        for y in &edges {
            check_product(&nat::<L>(x), &nat(y), &mut rng);
        }
    }
}

fn check_sqr<L: Limb>(seed: u64) {
    let mut rng = Rng::new(seed);
    for _ in 0..cases(60) {
        let a = rng.nat::<L>();
        check_square(&a, &mut rng);
        assert_eq!(a.sqr(), a.mul(&a));
    }
    for n in threshold_sizes() {
        let a = rng.nat_digits::<L>(n);
        check_square(&a, &mut rng);
    }
    for x in edge_values::<L>() {
        check_square(&nat::<L>(&x), &mut rng);
    }
}

#[test]
fn mul_matches_bigint() {
    for_each_limb!(check_mul);
}

#[test]
fn sqr_matches_bigint() {
    for_each_limb!(check_sqr);
}

#[test]
fn mul_limb_matches_bigint() {
    fn check<L: Limb>(seed: u64) {
        let mut rng = Rng::new(seed);
        for _ in 0..cases(50) {
            let a = rng.nat::<L>();
            for d in [L::ZERO, L::ONE, L::MAX, L::from_u64(rng.next())] {
                assert_eq!(big(&a.mul_limb(d)), big(&a) * d.to_u64());
            }
        }
    }
    for_each_limb!(check);
}

// ---------------------------------------------------------------------------------------
// Division.

fn check_division<L: Limb>(x: &BigUint, m: &BigUint) {
    let (a, d) = (nat::<L>(x), nat::<L>(m));
    match a.div_rem(&d) {
        None => assert!(m.is_zero()),
        Some((q, r)) => {
            assert_eq!(big(&q), x / m, "{x} div {m}");
            assert_eq!(big(&r), x % m, "{x} mod {m}");
            assert_eq!(a.checked_rem(&d).as_ref(), Some(&r));
            assert_eq!(&(&a / &d), &q);
            assert_eq!(&(&a % &d), &r);
        }
    }
}

fn check_div<L: Limb>(seed: u64) {
    let mut rng = Rng::new(seed);
    for _ in 0..cases(150) {
        let (a, b) = (rng.nat::<L>(), rng.nat::<L>());
        let (a, b) = if a >= b { (a, b) } else { (b, a) };
        check_division::<L>(&big(&a), &big(&b));
        check_division::<L>(&big(&b), &big(&a));
    }
    let b = radix::<L>();
    let half = &b >> 1u32;
    // Divisors of one digit, and divisors whose top digit is 1 (normalization shifts by
    // BITS − 1), b/2 (no shift, smallest top digit) and b − 1.
    for _ in 0..cases(40) {
        let x = big(&rng.nat::<L>());
        let k = 1 + rng.below(if MIRI { 8 } else { 40 }) as u32;
        let low_bits = rng.below((k as u64 - 1) * L::BITS as u64 + 1);
        let low = big(&rng.nat_bits::<L>(low_bits));
        let low = low % b.pow(k - 1);
        let one_digit = BigUint::from(1 + rng.next() % (u64::MAX >> (64 - L::BITS)));
        for m in [
            BigUint::one(),
            BigUint::from(2u8),
            &b - 1u32,
            half.clone(),
            &half + 1u32,
            one_digit,
            b.pow(k - 1) + &low,
            &half * b.pow(k - 1) + &low,
            (&b - 1u32) * b.pow(k - 1) + &low,
        ] {
            check_division::<L>(&x, &m);
            // Dividend below, equal to, and just above the divisor; quotient b^j − 1.
            check_division::<L>(&(&m - 1u32), &m);
            check_division::<L>(&m, &m);
            check_division::<L>(&(&m + 1u32), &m);
            check_division::<L>(&(&m * 2u32 - 1u32), &m);
            let j = rng.below(5) as u32;
            check_division::<L>(&(&m * (b.pow(j) - 1u32) + &m - 1u32), &m);
        }
    }
    let edges = edge_values::<L>();
    for x in &edges {
        for m in &edges {
            check_division::<L>(x, m);
        }
    }
}

#[test]
fn div_rem_matches_bigint() {
    for_each_limb!(check_div);
}

#[test]
fn division_by_zero_is_none() {
    let a = Nat::<u64>::from_u64(5);
    assert_eq!(a.div_rem(&Nat::zero()), None);
    assert_eq!(a.checked_rem(&Nat::zero()), None);
    assert_eq!(Nat::<u8>::zero().div_rem(&Nat::zero()), None);
}

/// How often each correction of Algorithm D's quotient digit was needed.
#[derive(Debug, Default)]
struct Corrections {
    /// Steps whose first estimate ⌊(x_i·b + x_{i−1}) / m_{k−1}⌋ (capped at b − 1) exceeded
    /// the true digit by 0, 1 and 2 (Knuth's Theorem 4.3.1B: never more).
    over_by: [u64; 3],
    /// Steps where the estimate still exceeded the true digit after the three-by-two test,
    /// so that `x − q·m` went negative and `m` had to be added back.
    add_back: u64,
}

/// Replays the digit steps of `rem_normalized` on `x` and a normalized `m` with big
/// integers, recording which corrections each step needed.
fn corrections<L: Limb>(x: &BigUint, m: &BigUint, stats: &mut Corrections) {
    let w = L::BITS as usize;
    let b = radix::<L>();
    let k = from_big::<L>(m).len();
    let l = from_big::<L>(x).len().max(k);
    assert!(m.bit((k * w - 1) as u64), "divisor not normalized");
    let m1 = m >> ((k - 1) * w);
    let m12 = if k >= 2 { m >> ((k - 2) * w) } else { &m1 * &b };
    let mut r = x >> ((l - k) * w);
    if r >= *m {
        r -= m;
    }
    for i in (k..l).rev() {
        let digit = (x >> ((i - k) * w)) % &b;
        r = r * &b + digit;
        let q = &r / m;
        let top2 = &r >> ((k - 1) * w);
        let top3 = if k >= 2 { &r >> ((k - 2) * w) } else { &r * &b };
        let qhat = (top2 / &m1).min(&b - 1u32);
        let qtilde = (top3 / &m12).min(qhat.clone());
        let over = (&qhat - &q).to_usize().unwrap();
        assert!(over <= 2, "estimate {qhat} for digit {q}");
        stats.over_by[over] += 1;
        if qtilde > q {
            assert_eq!(qtilde, &q + 1u32);
            stats.add_back += 1;
        }
        r -= q * m;
    }
}

/// Divisors and dividends built to make the quotient-digit estimate wrong: a top digit
/// of b/2 under a second digit of b − 1 pushes the two-digit estimate up to two too high;
/// low digits of b − 1 under a dividend just below a multiple q·m fool the three-by-two
/// test, so that the subtraction goes negative (the add-back step, probability ~2/b on
/// random inputs). Checks that every branch is reached and every answer is right.
fn check_quotient_corrections<L: Limb>(seed: u64) {
    let mut rng = Rng::new(seed);
    let b = radix::<L>();
    let max = u64::MAX >> (64 - L::BITS);
    let half = 1u64 << (L::BITS - 1);
    let mut stats = Corrections::default();
    for k in 1..=6u32 {
        for top in [half, half + 1, max, half + rng.below(half)] {
            for second in [0, 1, max, rng.next() & max] {
                for low_fill in [0, max, u64::MAX] {
                    // m = top, second, then k − 2 digits of low_fill (u64::MAX: random).
                    let mut m = BigUint::from(top);
                    if k >= 2 {
                        m = m * &b + second;
                    }
                    for _ in 2..k {
                        let d = if low_fill == u64::MAX { rng.next() & max } else { low_fill };
                        m = m * &b + d;
                    }
                    let long_q = 1 + rng.below(4 * L::BITS as u64);
                    let quotients = [
                        BigUint::one(),
                        BigUint::from(half),
                        BigUint::from(max - 2),
                        BigUint::from(max),
                        big(&rng.nat_bits::<L>(long_q)),
                    ];
                    for q in &quotients {
                        let r = big(&rng.nat::<L>()) % &m;
                        for x in [q * &m, q * &m - 1u32, q * &m + &m - 1u32, q * &m + r] {
                            corrections::<L>(&x, &m, &mut stats);
                            check_division::<L>(&x, &m);
                            check_rem_normalized::<L>(&x, &m);
                        }
                    }
                }
            }
        }
    }
    assert!(stats.over_by[1] > 0, "{stats:?}");
    assert!(stats.over_by[2] > 0, "{stats:?}");
    assert!(stats.add_back > 0, "{stats:?}");
}

/// `rem_normalized` on raw slices, with and without the quotient, as the classical reducer
/// calls it.
fn check_rem_normalized<L: Limb>(x: &BigUint, m: &BigUint) {
    let md = from_big::<L>(m);
    let mut xd = from_big::<L>(x);
    xd.resize(xd.len().max(md.len()), L::ZERO);
    let (k, l) = (md.len(), xd.len());
    let mut q = vec![L::MAX; l - k + 1];
    let mut with_q = xd.clone();
    rem_normalized(&mut with_q, &md, Some(&mut q));
    assert_eq!(to_big(&with_q[..k]), x % m);
    assert!(with_q[k..].iter().all(|d| d.is_zero()));
    assert_eq!(to_big(&q), x / m);
    let mut no_q = xd.clone();
    rem_normalized(&mut no_q, &md, None);
    assert_eq!(no_q, with_q);
    // The reciprocal form gives the same quotient digits and remainder.
    if k >= 2 {
        let v = reciprocal_3by2(md[k - 1], md[k - 2]);
        let mut q2 = vec![L::MAX; l - k + 1];
        let mut x2 = xd.clone();
        rem_normalized_pi1(&mut x2, &md, v, Some(&mut q2));
        assert_eq!((&x2, &q2), (&with_q, &q), "x = {x}, m = {m}");
        let mut x3 = xd.clone();
        rem_normalized_pi1(&mut x3, &md, v, None);
        assert_eq!(x3, with_q);
    }
}

/// The 3-by-2 reciprocal of every normalized two-digit `u8` divisor is ⌊(b³ − 1)/d⌋ − b;
/// the 3-by-2 division by it is exact for every pair of high dividend digits it admits
/// (and low digits at the edges), for the divisors whose low digit is at an edge and for
/// every 61st other one.
#[test]
#[cfg_attr(miri, ignore = "exhaustive: hours under Miri")]
fn exhaustive_reciprocal_3by2_u8() {
    for d1 in 128u32..256 {
        for d0 in 0u32..256 {
            let d = d1 * 256 + d0;
            let v = reciprocal_3by2(d1 as u8, d0 as u8);
            assert_eq!(v as u32, (0xff_ffff / d) - 256, "d = {d}");
            if ![0, 1, 127, 128, 254, 255].contains(&d0) && d % 61 != 0 {
                continue;
            }
            for u2 in 0..=d1 {
                for u1 in 0u32..256 {
                    if (u2, u1) >= (d1, d0) {
                        break;
                    }
                    for u0 in [0u32, 0x80, d0, 255] {
                        let u = (u2 << 16) | (u1 << 8) | u0;
                        let (q, r1, r0) =
                            div_3by2(u2 as u8, u1 as u8, u0 as u8, d1 as u8, d0 as u8, v);
                        assert_eq!(
                            (q as u32, (r1 as u32) << 8 | r0 as u32),
                            (u / d, u % d),
                            "{u} / {d}"
                        );
                    }
                }
            }
        }
    }
}

/// The 64-bit reciprocal against the oracle, on divisors at the edges and at random.
#[test]
fn reciprocal_3by2_u64() {
    let mut rng = Rng::new(0x3b72);
    let b3 = (BigUint::one() << 192u32) - 1u32;
    let mut ds = vec![(1u64 << 63, 0u64), (1 << 63, u64::MAX), (u64::MAX, 0), (u64::MAX, u64::MAX)];
    for _ in 0..cases(2000) {
        ds.push((rng.next() | 1 << 63, rng.next()));
    }
    for (d1, d0) in ds {
        let d = (BigUint::from(d1) << 64u32) + d0;
        let want = (&b3 / &d) - (BigUint::one() << 64u32);
        assert_eq!(BigUint::from(reciprocal_3by2(d1, d0)), want, "d = {d}");
        let v = reciprocal_3by2(d1, d0);
        for _ in 0..4 {
            let u2 = rng.next() % d1;
            let (u1, u0) = (rng.next(), rng.next());
            let u = (BigUint::from(u2) << 128u32) + (BigUint::from(u1) << 64u32) + u0;
            let (q, r1, r0) = div_3by2(u2, u1, u0, d1, d0, v);
            assert_eq!(BigUint::from(q), &u / &d);
            assert_eq!((BigUint::from(r1) << 64u32) + r0, &u % &d);
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "thousands of divisions: too slow under Miri")]
fn quotient_digit_corrections() {
    for_each_limb!(check_quotient_corrections);
}

/// Every divisor below 2^16 (one and two `u8` digits) against dividends around its
/// multiples, checked against native arithmetic.
#[test]
#[cfg_attr(miri, ignore = "exhaustive: hours under Miri")]
fn exhaustive_small_divisors_u8() {
    let mut rng = Rng::new(0x5eed);
    for m in 1u64..1 << 16 {
        let d = Nat::<u8>::from_u64(m);
        for x in [
            m - 1,
            m,
            m + 1,
            2 * m - 1,
            255 * m + m - 1,
            256 * m - 1,
            256 * m,
            65535 * m + m - 1,
            m * m - 1,
            rng.next() >> 16,
            rng.next() >> (rng.below(64)),
        ] {
            let (q, r) = Nat::<u8>::from_u64(x).div_rem(&d).unwrap();
            assert_eq!((q.to_u64(), r.to_u64()), (Some(x / m), Some(x % m)), "{x} / {m}");
        }
    }
}

/// Every two-digit `u8` dividend by every one-digit divisor, on `rem_normalized` directly.
#[test]
#[cfg_attr(miri, ignore = "exhaustive: hours under Miri")]
fn exhaustive_two_by_one_digit_u8() {
    for m in 1u32..256 {
        let s = (m as u8).leading_zeros();
        let normalized = [(m << s) as u8];
        for v in 0u32..1 << 16 {
            // Normalized as div_rem does it: v·2^s needs three digits.
            let vs = v << s;
            let mut x = [vs as u8, (vs >> 8) as u8, (vs >> 16) as u8];
            let mut q = [0u8; 3];
            rem_normalized(&mut x, &normalized, Some(&mut q));
            assert_eq!((x[0] >> s) as u32, v % m, "{v} mod {m}");
            assert_eq!(x[1..], [0, 0]);
            assert_eq!(u32::from_le_bytes([q[0], q[1], q[2], 0]), v / m, "{v} div {m}");
        }
    }
}

#[test]
fn fixed_division_vectors() {
    // Quotient digits near b − 1 and b/2, divisors with top digits 1, b/2 and b − 1,
    // remainders near the divisor; each read with every digit size.
    let cases: &[(&str, &str)] = &[
        ("0x800000000000000000000003", "0x200000000000000000000001"),
        ("0x00007fff800000000000000", "0x800000000001"),
        ("0x80000000fffffffe00000000", "0x80000000ffffffff"),
        ("0x7fff800000000000", "0x800000000001"),
        ("0x0000800000000000fffe", "0x80000000ffff"),
        ("0x8000000000000000000000000003", "0x20000000000000000001"),
        ("0xffffffffffffffffffffffffffff", "0x10000000000000000"),
        ("0xfffffffffffffffeffffffff00000000", "0xffffffffffffffff00000001"),
    ];
    fn check<L: Limb>(cases: &[(&str, &str)]) {
        for (x, m) in cases {
            let x = BigUint::parse_bytes(&x.as_bytes()[2..], 16).unwrap();
            let m = BigUint::parse_bytes(&m.as_bytes()[2..], 16).unwrap();
            check_division::<L>(&x, &m);
        }
    }
    check::<u8>(cases);
    check::<u16>(cases);
    check::<u32>(cases);
    check::<u64>(cases);
}

// ---------------------------------------------------------------------------------------
// Parsing, formatting and conversions.

fn check_radix<L: Limb>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut values = edge_values::<L>();
    for _ in 0..cases(30) {
        values.push(big(&rng.nat::<L>()));
    }
    for _ in 0..cases(200) {
        let bits = rng.below(200);
        values.push(big(&rng.nat_bits::<L>(bits)));
    }
    for x in &values {
        let a = nat::<L>(x);
        let dec = x.to_str_radix(10);
        let hex = x.to_str_radix(16);
        assert_eq!(a.to_decimal(), dec);
        assert_eq!(a.to_hex(), hex);
        assert_eq!(a.to_string(), dec);
        if x.bits() <= 1000 {
            // Formatting with flags, on the short numbers only (each formats anew).
            assert_eq!(format!("{a:?}"), dec);
            assert_eq!(format!("{a:x}"), hex);
            assert_eq!(format!("{a:#x}"), format!("{x:#x}"));
            assert_eq!(
                format!("{a:>12}|{a:<12}|{a:^12}|{a:012}"),
                format!("{x:>12}|{x:<12}|{x:^12}|{x:012}")
            );
            assert_eq!(format!("{a:#018x}|{a:>9x}"), format!("{x:#018x}|{x:>9x}"));
        }

        assert_eq!(dec.parse::<Nat<L>>().unwrap(), a);
        assert_eq!(format!("0x{hex}").parse::<Nat<L>>().unwrap(), a);
        assert_eq!(format!("0X{}", hex.to_uppercase()).parse::<Nat<L>>().unwrap(), a);
        assert_eq!(format!("000{dec}").parse::<Nat<L>>().unwrap(), a);
        assert_eq!(format!("0x000{hex}").parse::<Nat<L>>().unwrap(), a);
        assert_eq!(Nat::<L>::from_str_radix(&dec, 10).unwrap(), a);
        assert_eq!(Nat::<L>::from_str_radix(&hex, 16).unwrap(), a);
        assert_eq!(Nat::<L>::from_str_radix(&hex.to_uppercase(), 16).unwrap(), a);

        let mut bytes = x.to_bytes_le();
        if x.is_zero() {
            bytes.clear();
        }
        assert_eq!(a.to_bytes_le(), bytes);
        assert_eq!(Nat::<L>::from_bytes_le(&bytes), a);
        bytes.extend([0, 0, 0]);
        assert_eq!(Nat::<L>::from_bytes_le(&bytes), a);
        // Big-endian, against num-bigint's (which writes zero as one zero byte).
        let be = if x.is_zero() { vec![] } else { x.to_bytes_be() };
        assert_eq!(a.to_bytes_be(), be);
        assert_eq!(Nat::<L>::from_bytes_be(&be), a);
        assert_eq!(Nat::<L>::from_bytes_be(&[&[0u8, 0][..], &be[..]].concat()), a);

        assert_eq!(big(&a.to_radix::<u8>()), *x);
        assert_eq!(big(&a.to_radix::<u16>()), *x);
        assert_eq!(big(&a.to_radix::<u32>()), *x);
        assert_eq!(big(&a.to_radix::<u64>()), *x);
        assert_eq!(big(&a.to_radix::<Counted<u8>>()), *x);

        if let Some(v) = x.to_u64() {
            assert_eq!(a.to_u64(), Some(v));
            assert_eq!(Nat::<L>::from_u64(v), a);
            assert_eq!(Nat::<L>::from(v), a);
        } else {
            assert_eq!(a.to_u64(), None);
        }
        if let Some(v) = x.to_u128() {
            assert_eq!(Nat::<L>::from_u128(v), a);
        }
        let padded = a.to_padded(a.len() + 2).unwrap();
        assert_eq!(to_big(&padded), *x);
        assert_eq!(padded.len(), a.len() + 2);
        assert_eq!(a.to_padded(a.len()).unwrap(), a.limbs());
        if !a.is_zero() {
            assert_eq!(a.to_padded(a.len() - 1), None);
        }
        assert_eq!(Nat::from_limbs(&padded), a);
        assert_eq!(a.clone().into_limbs(), a.limbs());
    }
    // Every length of decimal string up to a few chunks, including those that are a
    // whole number of chunks (no short head) and all nines (carry into a new digit).
    for len in 1..=if MIRI { 21 } else { 60 } {
        for s in ["9".repeat(len), format!("1{}", "0".repeat(len - 1)), {
            let mut s: String = (0..len).map(|_| char::from(b'0' + rng.below(10) as u8)).collect();
            s.replace_range(..1, "7");
            s
        }] {
            let expected = BigUint::parse_bytes(s.as_bytes(), 10).unwrap();
            let parsed: Nat<L> = s.parse().unwrap();
            assert_eq!(big(&parsed), expected, "{s}");
            assert_eq!(parsed.to_decimal(), s);
        }
    }
    for v in (0u64..cases(2000) as u64).chain([
        u64::MAX,
        u64::MAX - 1,
        1 << 63,
        10u64.pow(19),
        10u64.pow(19) - 1,
    ]) {
        let s = v.to_string();
        assert_eq!(s.parse::<Nat<L>>().unwrap().to_u64(), Some(v), "{s}");
        assert_eq!(format!("{v:#x}").parse::<Nat<L>>().unwrap().to_u64(), Some(v));
    }
}

#[test]
fn radix_and_conversions_match_bigint() {
    for_each_limb!(check_radix);
}

/// Regression: a decimal string of a single chunk (at most 19 digits for `u64`, 2 for
/// `u8`) parsed as 1 whenever its value was above 1.
#[test]
fn parses_short_decimal() {
    assert_eq!("5".parse::<Nat<u64>>().unwrap().to_u64(), Some(5));
    assert_eq!("123456789012345678901".parse::<Nat<u64>>().unwrap().to_u64(), None);
    assert_eq!("52345".parse::<Nat<u8>>().unwrap().to_u64(), Some(52345));
    assert_eq!("99".parse::<Nat<u8>>().unwrap().to_u64(), Some(99));
    assert_eq!("0".parse::<Nat<u32>>().unwrap(), Nat::zero());
}

fn check_parse_errors<L: Limb>(_seed: u64) {
    let bad = [
        "", "0x", "0X", "-5", "-0", "-", "-0x5", "+5", "12a", "0x12g", " 12", "12 ", "1 2", "\t1",
        "1\n", "0x-1", "0x+1", "0x 1", "0xx1", "0x0x1", "x1", "1_000", "1,000", "1.0", "1e3", "٣",
        "１２", "0b101", "0o17", "\u{0}", "0x\u{0}", "ff", "0xé",
    ];
    for s in bad {
        let e = s.parse::<Nat<L>>();
        assert!(matches!(e, Err(crate::Error::Parse { .. })), "{s:?} parsed as {e:?}");
        let msg = e.unwrap_err().to_string();
        assert!(msg.starts_with("invalid number"), "{msg}");
    }
    for radix in [0, 1, 2, 8, 36, 37, 100, u32::MAX] {
        assert!(Nat::<L>::from_str_radix("1", radix).is_err(), "radix {radix}");
    }
    assert!(Nat::<L>::from_str_radix("", 16).is_err());
    assert!(Nat::<L>::from_str_radix("0x1", 16).is_err());
    // A long bad input is abbreviated in the message.
    let long = format!("{}z", "1".repeat(1000));
    let msg = long.parse::<Nat<L>>().unwrap_err().to_string();
    assert!(msg.len() < 200, "{msg}");
}

#[test]
fn parse_errors_are_errors() {
    for_each_limb!(check_parse_errors);
}

// ---------------------------------------------------------------------------------------
// Operation counts (Counted<u16>).

#[test]
fn schoolbook_product_takes_k_squared_multiplications() {
    let mut rng = Rng::new(0xc0);
    for k in (1..KARATSUBA_THRESHOLD).step_by(if MIRI { 5 } else { 1 }) {
        let a = rng.nat_digits::<Counted<u16>>(k);
        let b = rng.nat_digits::<Counted<u16>>(k);
        let (p, ops) = count_ops(|| a.mul(&b));
        assert_eq!(ops.mul, (k * k) as u64, "k = {k}");
        assert_eq!(ops.div, 0);
        assert_eq!(big(&p), big(&a) * big(&b));
        // Unbalanced below the threshold: one product per pair of digits.
        let j = 1 + rng.below(3 * k as u64) as usize;
        let c = rng.nat_digits::<Counted<u16>>(j);
        let (_, ops) = count_ops(|| a.mul(&c));
        assert_eq!(ops.mul, (k * j) as u64, "{k} x {j}");
    }
}

#[test]
fn schoolbook_square_takes_k_k_plus_1_over_2_multiplications() {
    let mut rng = Rng::new(0xc1);
    let (last, step) =
        if MIRI { (KARATSUBA_SQR_THRESHOLD + 1, 5) } else { (3 * KARATSUBA_SQR_THRESHOLD, 1) };
    for k in (1..=last).step_by(step) {
        let a = rng.nat_digits::<Counted<u16>>(k);
        let mut r = vec![Counted(0u16); 2 * k];
        let ((), ops) = count_ops(|| crate::kernels::sqr_basecase(&mut r, a.limbs()));
        assert_eq!(ops.mul, (k * (k + 1) / 2) as u64, "k = {k}");
        assert_eq!(to_big(&r), big(&a).pow(2));
        if k < KARATSUBA_SQR_THRESHOLD {
            let (s, ops) = count_ops(|| a.sqr());
            assert_eq!(ops.mul, (k * (k + 1) / 2) as u64, "Nat::sqr, k = {k}");
            assert_eq!(big(&s), big(&a).pow(2));
        }
    }
}

#[test]
fn karatsuba_saves_multiplications() {
    let mut rng = Rng::new(0xc2);
    let t = KARATSUBA_THRESHOLD;
    for k in [t, t + 1, 2 * t, 4 * t + 3] {
        let a = rng.nat_digits::<Counted<u16>>(k);
        let b = rng.nat_digits::<Counted<u16>>(k);
        let (_, ops) = count_ops(|| a.mul(&b));
        assert!(ops.mul < (k * k) as u64, "k = {k}: {ops:?}");
    }
    // One level of recursion on 2t digits: three products of t or t + 1 digits.
    let a = rng.nat_digits::<Counted<u16>>(2 * t);
    let (_, ops) = count_ops(|| a.mul(&a));
    assert!(ops.mul <= (2 * t * t + (t + 1) * (t + 1)) as u64, "{ops:?}");
    let s = KARATSUBA_SQR_THRESHOLD;
    let a = rng.nat_digits::<Counted<u16>>(2 * s);
    let (_, ops) = count_ops(|| a.sqr());
    assert!(ops.mul <= (3 * (s + 1) * (s + 2) / 2) as u64, "{ops:?}");
    assert!(ops.mul < (2 * s * (2 * s + 1) / 2) as u64, "{ops:?}");
}

#[test]
fn division_step_costs() {
    // Each of the l − k steps: at most one digit division (none when x_i = m_{k−1}), two
    // multiplications for the estimate test, k for the multiply-and-subtract — which a
    // zero quotient digit skips (a void step, paper 000 §4).
    let mut rng = Rng::new(0xc3);
    for _ in 0..cases(100) {
        let k = 1 + rng.below(30) as usize;
        let l = k + rng.below(40) as usize;
        let m = rng.nat_digits::<Counted<u16>>(k);
        let s = m.limbs()[k - 1].leading_zeros() as u64;
        let m = m.shl(s);
        let x = rng.nat_digits::<Counted<u16>>(l);
        let mut xd = x.limbs().to_vec();
        let mut q = vec![Counted(0u16); l - k + 1];
        let ((), ops) = count_ops(|| rem_normalized(&mut xd, m.limbs(), Some(&mut q)));
        let steps = (l - k) as u64;
        let void = q[..l - k].iter().filter(|d| d.0 == 0).count() as u64;
        assert_eq!(ops.mul, steps * 2 + (steps - void) * k as u64, "k = {k}, l = {l}");
        assert!(ops.div <= steps);
        assert_eq!(to_big(&xd), big(&x) % big(&m));
    }
}

/// `b^(2k) mod m` (Montgomery's `R² mod m`) and `⌊b^(2k)/m⌋` (Barrett's `μ`) from the
/// dividend written already shifted, against num-bigint: random, normalized and
/// edge-shaped moduli of 1 to 40 digits.
fn check_b2k<L: Limb>(seed: u64) {
    let mut rng = Rng::new(seed);
    // Under Miri every third length (1, 4, …, 40) once each: the same range, an eighth of the work.
    let (step, reps) = if MIRI { (3, 1) } else { (1, 3) };
    for k in (1..=40usize).step_by(step) {
        for _ in 0..reps {
            let mut d: Vec<L> = rng.digits(k);
            if d[k - 1] == L::ZERO {
                d[k - 1] = L::ONE;
            }
            let m = Nat::from_vec(d);
            let b2k = BigUint::one() << (2 * k as u64 * L::BITS as u64);
            assert_eq!(big(&m.b2k_rem().unwrap()), &b2k % big(&m), "{k} digits");
            assert_eq!(big(&m.floor_b2k_div().unwrap()), &b2k / big(&m), "{k} digits");
        }
    }
    assert!(Nat::<L>::zero().b2k_rem().is_none());
}

#[test]
fn b2k_remainder_and_quotient_match_bigint() {
    for_each_limb!(check_b2k);
}
