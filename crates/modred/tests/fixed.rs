//! The fixed-size paths (`reduce::fixed`): `MontgomeryFixed<N>` for N = 1…8, `BarrettFixed<N>`
//! for N = 1…8 and 16,
//! `PseudoMersenneFixed<N>` and `NistFixed<N>`, differentially against the slice reducers
//! and num-bigint, on random and edge inputs (0, 1, m−1, all-ones moduli, the largest
//! arguments of each bound, and 32-bit word patterns that drive every column sum of the
//! hard-coded reductions to its largest and smallest value, so that every addition carries
//! and every subtraction borrows); and the field elements' `mul_ct`/`sqr_ct` against
//! `mul` and num-bigint.

use modred::field::{PrimeField, Representation};
use modred::reduce::{
    make, Barrett, BarrettFixed, Montgomery, MontgomeryFixed, Nist, NistFixed, NistPrime,
    PseudoMersenne, PseudoMersenneFixed, Scratch,
};
use modred::{Algorithm, Nat, Reducer};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use num_traits::One;

/// The draws of these tests from the testkit's fixed-seed generator.
trait Draws {
    /// A number below `m` (one digit longer than `m`, reduced).
    fn big_below(&mut self, m: &BigUint) -> BigUint;
    /// A 32-bit word biased to the extremes (0, 1, 2^31, 2^32 − 2, 2^32 − 1) or random.
    fn edge_word(&mut self) -> u64;
}

impl Draws for SplitMix64 {
    fn big_below(&mut self, m: &BigUint) -> BigUint {
        let n = m.to_u64_digits().len() + 1;
        big(&self.digits(n)) % m
    }
    fn edge_word(&mut self) -> u64 {
        match self.next_u64() % 6 {
            0 => 0,
            1 => 1,
            2 => 0x8000_0000,
            3 => 0xffff_fffe,
            4 => 0xffff_ffff,
            _ => self.next_u64() & 0xffff_ffff,
        }
    }
}

fn big(v: &[u64]) -> BigUint {
    let mut bytes = Vec::with_capacity(8 * v.len());
    for d in v {
        bytes.extend_from_slice(&d.to_le_bytes());
    }
    BigUint::from_bytes_le(&bytes)
}

fn limbs(x: &BigUint, n: usize) -> Vec<u64> {
    let mut v = x.to_u64_digits();
    assert!(v.len() <= n, "value wider than {n} digits");
    v.resize(n, 0);
    v
}

fn nat(x: &BigUint) -> Nat {
    Nat::from_vec(x.to_u64_digits())
}

fn arr<const N: usize>(x: &BigUint) -> [u64; N] {
    limbs(x, N).try_into().unwrap()
}

/// Odd moduli of `n` digits: random, all ones, top digit 1, b^n − b + 1, and 3 for n = 1.
fn odd_moduli(n: usize, rng: &mut SplitMix64) -> Vec<BigUint> {
    let b_n = BigUint::one() << (64 * n);
    let mut ms = vec![&b_n - 1u32, (BigUint::one() << (64 * (n - 1))) + 1u32];
    if n > 1 {
        ms.push(&b_n - (BigUint::one() << 64) + 1u32);
    } else {
        ms.push(BigUint::from(3u32));
    }
    for _ in 0..4 {
        let mut v: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
        v[0] |= 1;
        v[n - 1] |= 1 << 63;
        ms.push(big(&v));
    }
    ms.retain(|m| m.bit(0) && *m > BigUint::one());
    ms
}

fn check_montgomery<const N: usize>(rng: &mut SplitMix64) {
    for m in odd_moduli(N, rng) {
        let mn = nat(&m);
        let fixed = MontgomeryFixed::<N>::new(&mn).unwrap();
        let slow = Montgomery::<u64>::new(&mn).unwrap();
        let made = make::<u64>(Algorithm::Montgomery, &mn).unwrap();
        assert_eq!(made.algorithm(), Algorithm::Montgomery);
        assert_eq!(made.width(), N);
        let r = BigUint::one() << (64 * N);
        let r_inv = r.modinv(&m).unwrap();
        let mut values = vec![BigUint::from(0u32), BigUint::one() % &m, &m - 1u32];
        for _ in 0..12 {
            values.push(rng.big_below(&m));
        }
        let mut s = Scratch::new();
        for a in &values {
            for b in values.iter().take(6) {
                // Residues are values below m: the product's Montgomery reduction is
                // a·b·R⁻¹ mod m.
                let want = a * b * &r_inv % &m;
                let (fa, fb) = (arr::<N>(a), arr::<N>(b));
                let got = fixed.mul_fixed(&fa, &fb);
                assert_eq!(big(&got), want, "mul_fixed N={N} m={m:x}");
                let mut out = vec![0u64; N];
                made.mul(&mut out, &fa, &fb, &mut s);
                assert_eq!(big(&out), want, "make(montgomery).mul N={N}");
                let mut out2 = vec![0u64; N];
                slow.mul(&mut out2, &fa, &fb, &mut s);
                assert_eq!(out, out2);
            }
            let want = a * a * &r_inv % &m;
            let fa = arr::<N>(a);
            assert_eq!(big(&fixed.sqr_fixed(&fa)), want, "sqr_fixed N={N}");
            let mut out = vec![0u64; N];
            made.sqr(&mut out, &fa, &mut s);
            assert_eq!(big(&out), want);
            // Conversions round-trip.
            let x = fixed.to_montgomery_fixed(&fa);
            assert_eq!(big(&x), a * &r % &m);
            assert_eq!(fixed.from_montgomery_fixed(&x), fa);
        }
        // reduce_raw over its whole range: x < m·R, including the top and all-ones digits.
        let bound = &m * &r;
        let mut xs =
            vec![BigUint::from(0u32), BigUint::one(), &bound - 1u32, (&m - 1u32) * (&m - 1u32)];
        for _ in 0..8 {
            let v: Vec<u64> = (0..2 * N).map(|_| rng.next_u64()).collect();
            xs.push(big(&v) % &bound);
        }
        for x in xs {
            let want = &x * &r_inv % &m;
            let z = limbs(&x, 2 * N);
            let mut out = vec![0u64; N];
            made.reduce_raw(&mut out, &z, &mut s);
            assert_eq!(big(&out), want, "reduce_raw N={N}");
            let (lo, hi): ([u64; N], [u64; N]) =
                (z[..N].try_into().unwrap(), z[N..].try_into().unwrap());
            assert_eq!(big(&fixed.redc_fixed(&lo, &hi)), want);
        }
        // pow against num-bigint.
        let base = rng.big_below(&m);
        let e = rng.big_below(&m);
        let got = fixed.pow_vartime_fixed(&fixed.to_montgomery_fixed(&arr::<N>(&base)), &nat(&e));
        assert_eq!(big(&fixed.from_montgomery_fixed(&got)), base.modpow(&e, &m));
        let one = fixed.pow_vartime_fixed(&arr::<N>(&base), &Nat::zero());
        assert_eq!(one, fixed.one_fixed());
    }
}

#[test]
fn montgomery_fixed_against_slice_reducer_and_num_bigint() {
    let mut rng = SplitMix64::new(0xf1ed);
    check_montgomery::<1>(&mut rng);
    check_montgomery::<2>(&mut rng);
    check_montgomery::<3>(&mut rng);
    check_montgomery::<4>(&mut rng);
    check_montgomery::<5>(&mut rng);
    check_montgomery::<6>(&mut rng);
    check_montgomery::<7>(&mut rng);
    check_montgomery::<8>(&mut rng);
}

#[test]
fn make_keeps_the_slice_reducers_where_no_fixed_path_applies() {
    // Nine digits: Montgomery has no fixed path there; results still right.
    let mut rng = SplitMix64::new(9);
    let mut v: Vec<u64> = (0..9).map(|_| rng.next_u64()).collect();
    v[0] |= 1;
    let m = big(&v);
    let r = make::<u64>(Algorithm::Montgomery, &nat(&m)).unwrap();
    let (a, b) = (rng.big_below(&m), rng.big_below(&m));
    let mut out = vec![0u64; 9];
    r.mul(&mut out, &limbs(&a, 9), &limbs(&b, 9), &mut Scratch::new());
    let r_inv = (BigUint::one() << 576u32).modinv(&m).unwrap();
    assert_eq!(big(&out), a * b * r_inv % &m);
    // Even moduli are still refused with the slice reducer's error.
    assert!(make::<u64>(Algorithm::Montgomery, &Nat::from(10u64)).is_err());
    // Other digit types keep the slice reducers and agree.
    let m32 = Nat::<u32>::from_limbs(&[0xffff_fff1, 0x1234, 0x8000_0001]);
    assert!(make::<u32>(Algorithm::Montgomery, &m32).is_ok());
}

/// Moduli of `n` digits with the top bit set (odd and even): b^n − 1, 2^(64n−1) + 1, the
/// top digit 2^63 with the rest all ones or random, b^n − b + 1, random.
fn top_bit_moduli(n: usize, rng: &mut SplitMix64) -> Vec<BigUint> {
    let b_n = BigUint::one() << (64 * n);
    let half = BigUint::one() << (64 * n - 1);
    let mut ms = vec![&b_n - 1u32, &half + 1u32, &b_n - 2u32, &half + (&half - 1u32)];
    if n > 1 {
        ms.push(&b_n - (BigUint::one() << 64) + 1u32);
        ms.push(&half + (rng.big_below(&(BigUint::one() << (64 * (n - 1))))));
    }
    for _ in 0..4 {
        let mut v: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
        v[n - 1] |= 1 << 63;
        ms.push(big(&v));
    }
    ms
}

fn check_barrett<const N: usize>(rng: &mut SplitMix64) {
    for m in top_bit_moduli(N, rng) {
        let mn = nat(&m);
        let fixed = BarrettFixed::<N>::new(&mn).unwrap();
        let slow = Barrett::<u64>::new(&mn).unwrap();
        let made = make::<u64>(Algorithm::Barrett, &mn).unwrap();
        assert_eq!((made.algorithm(), made.width()), (Algorithm::Barrett, N));
        let mut s = Scratch::new();
        // reduce_raw over its whole range x < b^(2N): edges, zero digits, random.
        let bound = BigUint::one() << (128 * N);
        let mut xs = vec![
            BigUint::from(0u32),
            BigUint::one(),
            &m - 1u32,
            m.clone(),
            &m + 1u32,
            (&m - 1u32) * (&m - 1u32),
            &m * &m,
            &bound - 1u32,
            &bound - &m,
        ];
        for _ in 0..12 {
            let mut v: Vec<u64> = (0..2 * N).map(|_| rng.next_u64()).collect();
            for d in v.iter_mut() {
                if rng.next_u64() % 4 == 0 {
                    *d = if rng.next_u64() % 2 == 0 { 0 } else { u64::MAX };
                }
            }
            let len = 1 + (rng.next_u64() as usize) % (2 * N);
            xs.push(big(&v[..len]));
        }
        for x in xs.iter().filter(|x| **x < bound) {
            let want = x % &m;
            let z = limbs(x, 2 * N);
            let mut out = vec![0u64; N];
            made.reduce_raw(&mut out, &z, &mut s);
            assert_eq!(big(&out), want, "reduce_raw N={N} m={m:x} x={x:x}");
            let mut out2 = vec![0u64; N];
            slow.reduce_raw(&mut out2, &z, &mut s);
            assert_eq!(out, out2);
            let mut short = vec![0u64; N];
            made.reduce_raw(&mut short, &x.to_u64_digits(), &mut s);
            assert_eq!(short, out, "unpadded x");
        }
        let mut values = vec![BigUint::from(0u32), BigUint::one(), &m - 1u32];
        for _ in 0..8 {
            values.push(rng.big_below(&m));
        }
        for a in &values {
            let fa = limbs(a, N);
            for b in values.iter().take(5) {
                let mut out = vec![0u64; N];
                made.mul(&mut out, &fa, &limbs(b, N), &mut s);
                assert_eq!(big(&out), a * b % &m, "mul N={N}");
            }
            let mut out = vec![0u64; N];
            made.sqr(&mut out, &fa, &mut s);
            assert_eq!(big(&out), a * a % &m, "sqr N={N}");
            assert_eq!(fixed.reduce_fixed(&[arr::<N>(a), [0; N]]), arr::<N>(a));
        }
    }
    // A top digit below 2^63 (μ's top digit above 1) and b^N/2 (μ = 2·b^N): the slice
    // reducer, with the same results.
    let mut low: Vec<u64> = (0..N).map(|_| rng.next_u64()).collect();
    low[N - 1] = (low[N - 1] >> 1).max(1);
    for m in [big(&low), BigUint::one() << (64 * N - 1)] {
        assert!(BarrettFixed::<N>::new(&nat(&m)).is_err());
        let made = make::<u64>(Algorithm::Barrett, &nat(&m)).unwrap();
        let x = rng.big_below(&(&m * &m));
        let mut out = vec![0u64; N];
        made.reduce_raw(&mut out, &limbs(&x, 2 * N), &mut Scratch::new());
        assert_eq!(big(&out), &x % &m);
    }
}

#[test]
fn barrett_fixed_against_slice_reducer_and_num_bigint() {
    let mut rng = SplitMix64::new(0xba77);
    check_barrett::<1>(&mut rng);
    check_barrett::<2>(&mut rng);
    check_barrett::<3>(&mut rng);
    check_barrett::<4>(&mut rng);
    check_barrett::<5>(&mut rng);
    check_barrett::<6>(&mut rng);
    check_barrett::<7>(&mut rng);
    check_barrett::<8>(&mut rng);
    check_barrett::<16>(&mut rng);
}

/// Arguments for a reduction with input bound 2^(2·bits): edges, word patterns, random.
fn wide_inputs(bits: u64, p: &BigUint, rng: &mut SplitMix64, random: usize) -> Vec<BigUint> {
    let bound = BigUint::one() << (2 * bits);
    let mut xs = vec![
        BigUint::from(0u32),
        BigUint::one(),
        p - 1u32,
        p.clone(),
        p + 1u32,
        (p - 1u32) * (p - 1u32),
        &bound - 1u32,
        (BigUint::one() << bits) - 1u32,
        BigUint::one() << bits,
        // Low half zero, high half all ones: the negative terms at their largest.
        &bound - (BigUint::one() << bits),
    ];
    let words = (2 * bits).div_ceil(32) as usize;
    for _ in 0..random {
        let w: Vec<u64> =
            (0..words.div_ceil(2)).map(|_| rng.edge_word() | rng.edge_word() << 32).collect();
        xs.push(big(&w) % &bound);
        let v: Vec<u64> = (0..words.div_ceil(2)).map(|_| rng.next_u64()).collect();
        xs.push(big(&v) % &bound);
    }
    xs
}

/// Arguments `x = q·2^bits + r` whose first fold `t = r + q·c = L + H·2^bits` lands where
/// the reduction decides whether to subtract `p = 2^bits − c`: `L + c·H` just below, at and
/// just above `p` (and `L` at its extremes) for `H` from 0 to its largest, `c`.
fn fold_thresholds(bits: u64, p: &BigUint) -> Vec<BigUint> {
    let two = BigUint::one() << bits;
    let c = &two - p;
    let mut xs = Vec::new();
    for h in [BigUint::from(0u32), BigUint::one(), &c / 2u32, &c - 1u32, c.clone()] {
        let ch = &c * &h;
        for v in [p - 1u32, p.clone(), p + 1u32, ch.clone(), &ch + &two - 1u32] {
            if v < ch || &v - &ch >= two {
                continue;
            }
            let t = &v - &ch + &h * &two;
            let q = (&t / &c).min(&two - 1u32);
            let r = &t - &q * &c;
            if r < two {
                xs.push(q * &two + r);
            }
        }
    }
    xs
}

fn check_pm<const N: usize>(p: &BigUint, rng: &mut SplitMix64) {
    let pn = nat(p);
    let bits = p.bits();
    let fixed = PseudoMersenneFixed::<N>::new(&pn).unwrap();
    let slow = PseudoMersenne::<u64>::new(&pn).unwrap();
    let made = make::<u64>(Algorithm::PseudoMersenne, &pn).unwrap();
    assert_eq!(made.width(), N);
    let mut s = Scratch::new();
    let thresholds = fold_thresholds(bits, p);
    assert!(thresholds.len() >= 10, "p={p:x}: {} threshold arguments", thresholds.len());
    for x in wide_inputs(bits, p, rng, 150).into_iter().chain(thresholds) {
        let want = &x % p;
        let z = limbs(&x, 2 * N);
        let (lo, hi): ([u64; N], [u64; N]) =
            (z[..N].try_into().unwrap(), z[N..].try_into().unwrap());
        assert_eq!(big(&fixed.reduce_fixed(&lo, &hi)), want, "pm N={N} p={p:x} x={x:x}");
        let mut out = vec![0u64; N];
        made.reduce_raw(&mut out, &z, &mut s);
        assert_eq!(big(&out), want);
        let mut out2 = vec![0u64; N];
        slow.reduce_raw(&mut out2, &z, &mut s);
        assert_eq!(out, out2);
    }
    for _ in 0..40 {
        let (a, b) = (rng.big_below(p), rng.big_below(p));
        let (fa, fb) = (arr::<N>(&a), arr::<N>(&b));
        assert_eq!(big(&fixed.mul_fixed(&fa, &fb)), &a * &b % p);
        assert_eq!(big(&fixed.sqr_fixed(&fa)), &a * &a % p);
    }
    let pm1 = arr::<N>(&(p - 1u32));
    assert_eq!(big(&fixed.sqr_fixed(&pm1)), BigUint::one());
}

fn pm(n: u64, c: u64) -> BigUint {
    (BigUint::one() << n) - c
}

#[test]
fn pseudo_mersenne_fixed_against_slice_reducer_and_num_bigint() {
    let mut rng = SplitMix64::new(0x9e);
    check_pm::<1>(&pm(61, 1), &mut rng);
    check_pm::<1>(&pm(64, 59), &mut rng);
    check_pm::<2>(&pm(127, 1), &mut rng);
    check_pm::<3>(&pm(130, 5), &mut rng);
    check_pm::<3>(&pm(192, 237), &mut rng);
    check_pm::<4>(&pm(224, 63), &mut rng);
    check_pm::<4>(&pm(255, 19), &mut rng);
    check_pm::<4>(&pm(256, 189), &mut rng);
    check_pm::<4>(&pm(256, (1 << 31) - 1), &mut rng); // largest c the form allows here
    check_pm::<6>(&pm(384, 317), &mut rng);
    check_pm::<7>(&pm(448, 203), &mut rng);
    check_pm::<8>(&pm(512, 569), &mut rng);
    check_pm::<9>(&pm(521, 1), &mut rng);
}

fn check_nist<const N: usize>(prime: NistPrime, rng: &mut SplitMix64) {
    let pn = prime.modulus::<u64>();
    let p = big(pn.limbs());
    let fixed = NistFixed::<N>::new(&pn).unwrap();
    let slow = Nist::<u64>::new(&pn).unwrap();
    let made = make::<u64>(Algorithm::Nist, &pn).unwrap();
    assert_eq!(made.width(), N);
    let mut s = Scratch::new();
    for x in wide_inputs(prime.bits() as u64, &p, rng, 600) {
        let want = &x % &p;
        let z = limbs(&x, 2 * N);
        let mut out = vec![0u64; N];
        made.reduce_raw(&mut out, &z, &mut s);
        assert_eq!(big(&out), want, "{} x={x:x}", prime.name());
        let mut out2 = vec![0u64; N];
        slow.reduce_raw(&mut out2, &z, &mut s);
        assert_eq!(out, out2);
        let mut out3 = vec![0u64; N];
        prime.reduce_u64(&mut out3, &z);
        assert_eq!(out, out3);
    }
    for _ in 0..40 {
        let (a, b) = (rng.big_below(&p), rng.big_below(&p));
        let (fa, fb) = (arr::<N>(&a), arr::<N>(&b));
        assert_eq!(big(&fixed.mul_fixed(&fa, &fb)), &a * &b % &p);
        assert_eq!(big(&fixed.sqr_fixed(&fa)), &a * &a % &p);
    }
}

#[test]
fn nist_fixed_against_slice_reducer_and_num_bigint() {
    let mut rng = SplitMix64::new(0x4157);
    check_nist::<3>(NistPrime::P192, &mut rng);
    check_nist::<4>(NistPrime::P224, &mut rng);
    check_nist::<4>(NistPrime::P256, &mut rng);
    check_nist::<6>(NistPrime::P384, &mut rng);
    check_nist::<7>(NistPrime::P448, &mut rng);
    check_nist::<8>(NistPrime::P512, &mut rng);
    check_nist::<9>(NistPrime::P521, &mut rng);
}

fn check_field<const N: usize>(p: &BigUint, rng: &mut SplitMix64) {
    for repr in [Representation::Standard, Representation::Montgomery] {
        let f = PrimeField::<N>::new(&nat(p), repr).unwrap();
        let mut values = vec![BigUint::from(0u32), BigUint::one(), p - 1u32, p - 2u32];
        for _ in 0..10 {
            values.push(rng.big_below(p));
        }
        for a in &values {
            let fa = f.from_nat(&nat(a));
            for b in values.iter().take(6) {
                let fb = f.from_nat(&nat(b));
                let want = nat(&(a * b % p));
                assert_eq!(f.to_nat(&f.mul_ct(&fa, &fb)), want, "{repr:?} p={p:x}");
                assert_eq!(f.mul_ct(&fa, &fb), f.mul(&fa, &fb));
                assert_eq!(f.to_nat(&f.add(&fa, &fb)), nat(&((a + b) % p)));
                assert_eq!(f.to_nat(&f.sub(&fa, &fb)), nat(&((a + p - b) % p)));
            }
            assert_eq!(f.sqr_ct(&fa), f.mul(&fa, &fa));
            assert_eq!(f.sqr(&fa), f.mul(&fa, &fa));
            assert_eq!(f.to_nat(&f.sqr_ct(&fa)), nat(&(a * a % p)));
        }
    }
}

#[test]
fn field_elements_constant_time_products_agree() {
    let mut rng = SplitMix64::new(0xfe);
    for prime in [NistPrime::P224, NistPrime::P256] {
        check_field::<4>(&big(prime.modulus::<u64>().limbs()), &mut rng);
    }
    check_field::<3>(&big(NistPrime::P192.modulus::<u64>().limbs()), &mut rng);
    check_field::<6>(&big(NistPrime::P384.modulus::<u64>().limbs()), &mut rng);
    check_field::<7>(&big(NistPrime::P448.modulus::<u64>().limbs()), &mut rng);
    check_field::<8>(&big(NistPrime::P512.modulus::<u64>().limbs()), &mut rng);
    check_field::<9>(&big(NistPrime::P521.modulus::<u64>().limbs()), &mut rng);
    check_field::<4>(&pm(255, 19), &mut rng);
    check_field::<3>(&pm(130, 5), &mut rng);
    check_field::<1>(&pm(61, 1), &mut rng);
    // A prime of no special form (the standard representation's generic path).
    check_field::<2>(
        &BigUint::parse_bytes(b"170141183460469231731687303715884105727", 10).unwrap(),
        &mut rng,
    );
    let q = BigUint::parse_bytes(
        b"fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
        16,
    )
    .unwrap();
    check_field::<4>(&q, &mut rng);
}
