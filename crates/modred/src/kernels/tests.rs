//! Every kernel, through its dispatching entry point and as the portable version, against
//! a naive reference that works digit by digit in `u128` arithmetic. Digits are drawn
//! with a bias towards 0, 1, b/2 and b − 1 so that carry and borrow chains run long.

use super::portable;
use crate::limb::{Counted, Limb};
use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Ordering;
use modred_testkit::SplitMix64;

/// The testkit's fixed-seed SplitMix64 (the same cases on every run), with the digit
/// shapes of these tests.
pub(crate) struct Rng(SplitMix64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(SplitMix64::new(seed))
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.0.below_u64(n)
    }

    pub(crate) fn digit<L: Limb>(&mut self) -> L {
        let half = 1u64 << (L::BITS - 1);
        let v = match self.below(8) {
            0 => 0,
            1 => 1,
            2 => half,
            3 => half - 1,
            4 | 5 => u64::MAX,
            _ => self.next(),
        };
        L::from_u64(v)
    }

    pub(crate) fn digits<L: Limb>(&mut self, n: usize) -> Vec<L> {
        match self.below(4) {
            // All b − 1, or all zero, apart from a few digits: the longest chains.
            0 => {
                let fill = if self.below(2) == 0 { L::MAX } else { L::ZERO };
                let mut v = vec![fill; n];
                for _ in 0..self.below(3) {
                    if n > 0 {
                        v[self.below(n as u64) as usize] = self.digit();
                    }
                }
                v
            }
            1 => (0..n).map(|_| L::from_u64(self.next())).collect(),
            _ => (0..n).map(|_| self.digit()).collect(),
        }
    }
}

fn base<L: Limb>() -> u128 {
    1u128 << L::BITS
}

fn val<L: Limb>(d: L) -> u128 {
    d.to_u64() as u128
}

fn dig<L: Limb>(v: u128) -> L {
    L::from_u64(v as u64)
}

fn ref_add<L: Limb>(a: &[L], b: &[L]) -> (Vec<L>, bool) {
    let mut c = 0u128;
    let mut r = Vec::new();
    for (&x, &y) in a.iter().zip(b) {
        let s = val(x) + val(y) + c;
        r.push(dig(s % base::<L>()));
        c = s / base::<L>();
    }
    (r, c == 1)
}

fn ref_sub<L: Limb>(a: &[L], b: &[L]) -> (Vec<L>, bool) {
    let mut br = 0u128;
    let mut r = Vec::new();
    for (&x, &y) in a.iter().zip(b) {
        let s = val(x) + base::<L>() - val(y) - br;
        r.push(dig(s % base::<L>()));
        br = 1 - s / base::<L>();
    }
    (r, br == 1)
}

/// `a · d` as `a.len() + 1` digits.
fn ref_mul_1<L: Limb>(a: &[L], d: L) -> Vec<L> {
    let mut c = 0u128;
    let mut r = Vec::new();
    for &x in a {
        let p = val(x) * val(d) + c;
        r.push(dig(p % base::<L>()));
        c = p / base::<L>();
    }
    r.push(dig(c));
    r
}

/// The product by adding each digit product `a_i·b_j` into position i + j with its own
/// carry chain: a different order of work from the row-wise kernels.
fn ref_mul<L: Limb>(a: &[L], b: &[L]) -> Vec<L> {
    let mut r = vec![0u128; a.len() + b.len()];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            let mut c = val(x) * val(y);
            let mut k = i + j;
            while c != 0 {
                let s = r[k] + c % base::<L>();
                r[k] = s % base::<L>();
                c = c / base::<L>() + s / base::<L>();
                k += 1;
            }
        }
    }
    r.into_iter().map(dig).collect()
}

fn ref_shl<L: Limb>(a: &[L], s: u32) -> (Vec<L>, L) {
    let mask = base::<L>() - 1;
    let mut r = Vec::new();
    let mut prev = 0u128;
    for &x in a {
        let w = val(x) * base::<L>() + prev;
        r.push(dig((w >> (L::BITS - s)) & mask));
        prev = val(x);
    }
    (r, dig(prev >> (L::BITS - s)))
}

fn ref_shr<L: Limb>(a: &[L], s: u32) -> (Vec<L>, L) {
    let mask = base::<L>() - 1;
    let mut r = Vec::new();
    for i in 0..a.len() {
        let next = a.get(i + 1).map_or(0, |&d| val(d));
        r.push(dig(((next * base::<L>() + val(a[i])) >> s) & mask));
    }
    let out = a.first().map_or(0, |&d| ((val(d) * base::<L>()) >> s) & mask);
    (r, dig(out))
}

fn ref_cmp<L: Limb>(a: &[L], b: &[L]) -> Ordering {
    a.iter().rev().cmp(b.iter().rev())
}

const LENGTHS: &[usize] = &[0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 32, 33, 47, 48, 49, 64, 100];

fn check_kernels<L: Limb>(seed: u64) {
    let mut rng = Rng::new(seed);
    for _round in 0..12 {
        for &n in LENGTHS {
            let a: Vec<L> = rng.digits(n);
            let b: Vec<L> = rng.digits(n);
            let d: L = rng.digit();

            let (sum, carry) = ref_add(&a, &b);
            for f in [super::add_n::<L>, portable::add_n::<L>] {
                let mut r = vec![L::MAX; n];
                assert_eq!(f(&mut r, &a, &b), carry);
                assert_eq!(r, sum);
            }
            for f in [super::add_assign_n::<L>, portable::add_assign_n::<L>] {
                let mut r = a.clone();
                assert_eq!(f(&mut r, &b), carry);
                assert_eq!(r, sum);
            }

            let (diff, borrow) = ref_sub(&a, &b);
            for f in [super::sub_n::<L>, portable::sub_n::<L>] {
                let mut r = vec![L::MAX; n];
                assert_eq!(f(&mut r, &a, &b), borrow);
                assert_eq!(r, diff);
            }
            for f in [super::sub_assign_n::<L>, portable::sub_assign_n::<L>] {
                let mut r = a.clone();
                assert_eq!(f(&mut r, &b), borrow);
                assert_eq!(r, diff);
            }

            let prod = ref_mul_1(&a, d);
            for f in [super::mul_1::<L>, portable::mul_1::<L>] {
                let mut r = vec![L::MAX; n];
                assert_eq!(f(&mut r, &a, d), prod[n]);
                assert_eq!(r, prod[..n]);
            }
            let mut r = a.clone();
            assert_eq!(super::mul_add_1_in_place(&mut r, d, L::ZERO), prod[n]);
            assert_eq!(r, prod[..n]);
            // With a carry in: a·d + (b − 1), which still fits n + 1 digits.
            let c = L::MAX;
            let (with_c, _) = ref_add(&prod, &[&[c][..], &vec![L::ZERO; n][..]].concat());
            let mut r = a.clone();
            assert_eq!(super::mul_add_1_in_place(&mut r, d, c), with_c[n]);
            assert_eq!(r, with_c[..n]);

            // addmul_1: r + a·d, where r may be longer than a (only r[..n] changes).
            let (sum, c) = ref_add(&[b.clone(), vec![L::ZERO]].concat(), &prod);
            assert!(!c);
            for f in [super::addmul_1::<L>, portable::addmul_1::<L>] {
                let mut r = [b.clone(), vec![L::MAX]].concat();
                assert_eq!(f(&mut r, &a, d), sum[n]);
                assert_eq!(r[..n], sum[..n]);
                assert_eq!(r[n], L::MAX);
            }

            // submul_1: b − a·d = r − borrow·b^n with borrow a single digit.
            let (diff, br) = ref_sub(&[b.clone(), vec![L::ZERO]].concat(), &prod);
            let borrow_digit = if br {
                assert!(!diff[n].is_zero());
                dig::<L>(base::<L>() - val(diff[n]))
            } else {
                assert!(diff[n].is_zero());
                L::ZERO
            };
            for f in [super::submul_1::<L>, portable::submul_1::<L>] {
                let mut r = [b.clone(), vec![L::MAX]].concat();
                assert_eq!(f(&mut r, &a, d), borrow_digit);
                assert_eq!(r[..n], diff[..n]);
                assert_eq!(r[n], L::MAX);
            }

            // add_1 and sub_1 with a one-bit carry and with a whole digit.
            for c in [L::ZERO, L::ONE, d] {
                let mut wide = vec![c];
                wide.resize(n, L::ZERO);
                let (sum, carry) = ref_add(&a, &wide);
                let mut r = a.clone();
                let out = super::add_1(&mut r, c);
                if n > 0 {
                    assert_eq!((r.clone(), out), (sum, carry));
                } else {
                    assert_eq!(out, !c.is_zero());
                }
                let (diff, borrow) = ref_sub(&a, &wide);
                let mut r = a.clone();
                let out = super::sub_1(&mut r, c);
                if n > 0 {
                    assert_eq!((r, out), (diff, borrow));
                } else {
                    assert_eq!(out, !c.is_zero());
                }
            }

            for s in [0, 1, L::BITS / 2, L::BITS - 1, rng.below(L::BITS as u64) as u32] {
                let (shl, out) = ref_shl(&a, s);
                let mut r = vec![L::MAX; n];
                assert_eq!(super::shl_bits(&mut r, &a, s), out);
                assert_eq!(r, shl);
                let (shr, out) = ref_shr(&a, s);
                let mut r = vec![L::MAX; n];
                assert_eq!(super::shr_bits(&mut r, &a, s), out);
                assert_eq!(r, shr);
            }

            assert_eq!(super::cmp_n(&a, &b), ref_cmp(&a, &b));
            assert_eq!(super::cmp_n(&a, &a), Ordering::Equal);
            if n > 0 {
                // Differ only in the lowest digit: the whole slice must be scanned.
                let mut c = a.clone();
                c[0] = c[0].wrapping_add(L::ONE);
                assert_eq!(super::cmp_n(&a, &c), ref_cmp(&a, &c));
            }
        }
    }
}

fn check_products<L: Limb>(seed: u64) {
    let mut rng = Rng::new(seed);
    for &n in &LENGTHS[1..] {
        for &m in &[1, 2, 3, 8, 33, n] {
            let a: Vec<L> = rng.digits(n);
            let b: Vec<L> = rng.digits(m);
            let expected = ref_mul(&a, &b);
            for f in [super::mul_basecase::<L>, portable::mul_basecase::<L>] {
                let mut r = vec![L::MAX; n + m];
                f(&mut r, &a, &b);
                assert_eq!(r, expected, "{n}x{m}");
            }
        }
        let a: Vec<L> = rng.digits(n);
        let square = ref_mul(&a, &a);
        for f in [super::sqr_basecase::<L>, portable::sqr_basecase::<L>] {
            let mut r = vec![L::MAX; 2 * n];
            f(&mut r, &a);
            assert_eq!(r, square, "{n}²");
        }
        let mut via_mul = vec![L::ZERO; 2 * n];
        super::mul_basecase(&mut via_mul, &a, &a);
        assert_eq!(via_mul, square);
    }
}

#[test]
fn kernels_match_u128_reference() {
    check_kernels::<u8>(1);
    check_kernels::<u16>(2);
    check_kernels::<u32>(3);
    check_kernels::<u64>(4);
    check_kernels::<Counted<u16>>(5);
}

#[test]
fn basecase_products_match_u128_reference() {
    check_products::<u8>(11);
    check_products::<u16>(12);
    check_products::<u32>(13);
    check_products::<u64>(14);
    check_products::<Counted<u16>>(15);
}

#[test]
fn all_max_digits() {
    // (b^n − 1)² = b^2n − 2b^n + 1: the largest product, every column saturated.
    fn check<L: Limb>() {
        for n in [1, 2, 5, 40] {
            let a = vec![L::MAX; n];
            let mut expected = vec![L::ZERO; 2 * n];
            expected[0] = L::ONE;
            expected[n] = L::MAX.wrapping_sub(L::ONE);
            for d in &mut expected[n + 1..] {
                *d = L::MAX;
            }
            let mut r = vec![L::ZERO; 2 * n];
            super::sqr_basecase(&mut r, &a);
            assert_eq!(r, expected);
            super::mul_basecase(&mut r, &a, &a);
            assert_eq!(r, expected);
            // b^n − 1 − (b^n − 1)(b − 1): the largest borrow digit, b − 2.
            let mut r = vec![L::MAX; n];
            let top = super::submul_1(&mut r, &a, L::MAX);
            let (diff, br) =
                ref_sub(&[vec![L::MAX; n], vec![L::ZERO]].concat(), &ref_mul_1(&a, L::MAX));
            assert!(br);
            assert_eq!(r, diff[..n]);
            assert_eq!(val(top), base::<L>() - val(diff[n]));
            assert_eq!(top, L::MAX.wrapping_sub(L::ONE));
        }
    }
    check::<u8>();
    check::<u16>();
    check::<u32>();
    check::<u64>();
}
