//! Hard-coded generalized-Mersenne reduction for the NIST primes and the other primes of
//! paper 003, Table 2 (paper 003 §6.2), with 64-bit digits.
//!
//! # Method
//! Every prime but P-521 is `f(2^32)` for a polynomial of Table 2 (P-192 also as
//! `t^6 − t^2 − 1`). Equation 6.6a gives each 32-bit output word as a signed sum
//! `y_j = z_j + Σ_i z_{n+i}·X_f[i, j]` of input words; this module evaluates those sums
//! in 64-bit registers (the 32-bit words are read out of the 64-bit digits of the
//! product), then propagates the signed carries once, folds the final signed carry `h`
//! back with `h·b^n ≡ h·(b^n − p)` (row 0 of `X_f`) until it vanishes (at most twice:
//! module proof below) and subtracts `p` at most once. This is the standard FIPS 186-4
//! Appendix D.2 fast reduction with 32-bit words held in 64-bit registers, instead of
//! the paper's `w_a + w_s` modular additions of whole numbers: one carry chain instead of
//! one per row of `A_f` and `S_f`. The reduction matrix is a `const` computed at compile
//! time from the polynomial, so each prime gets its own straight-line code with the
//! zero entries gone and the ±1 entries as additions and subtractions.
//!
//! Bounds: `|X_f[i, j]| ≤ n ≤ 16`, so each sum is below `2^32(1 + 16·16) < 2^41` in
//! magnitude and fits an `i64`. After the carry propagation the value is
//! `V = W + h·b^n` with `0 ≤ W < b^n`. Folding `h = 1` gives `W + (b^n − p) < 2b^n`, whose
//! carry is 1 only if `W ≥ p`, and then the next fold leaves `W − p + 2(b^n − p) < b^n`;
//! folding `h = −1` gives `W − (b^n − p) ≥ p − b^n`, whose carry is −1 only if
//! `W < b^n − p`, and then the next value is `≥ 2p − b^n > 0`. Larger `|h|` shrink the
//! same way. At the end `0 ≤ W < b^n < 2p`: one conditional subtraction.
//!
//! P-521 = 2^521 − 1 is the Mersenne fold `z = q·2^521 + r ≡ q + r`, twice.
//!
//! Input bound: `z < 2^(2N)`, `N = bits(p)` (every product of two residues).

// Digit loops over several fixed-size arrays at once (the carry chains) read best indexed.
#![allow(clippy::needless_range_loop)]

use super::{Bound, Reducer, Scratch};
use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::limb::Limb;
use crate::nat::Nat;

/// The primes with a hard-coded reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NistPrime {
    /// P-192 = 2^192 − 2^64 − 1.
    P192,
    /// P-224 = 2^224 − 2^96 + 1.
    P224,
    /// P-256 = 2^256 − 2^224 + 2^192 + 2^96 − 1.
    P256,
    /// P-384 = 2^384 − 2^128 − 2^96 + 2^32 − 1.
    P384,
    /// 2^448 − 2^224 − 1 (Table 2).
    P448,
    /// 2^512 − 2^32 − 1 (Table 2).
    P512,
    /// P-521 = 2^521 − 1.
    P521,
}

impl NistPrime {
    /// All of them, ascending.
    pub const ALL: [NistPrime; 7] = [
        NistPrime::P192,
        NistPrime::P224,
        NistPrime::P256,
        NistPrime::P384,
        NistPrime::P448,
        NistPrime::P512,
        NistPrime::P521,
    ];

    /// The usual name.
    pub const fn name(self) -> &'static str {
        match self {
            NistPrime::P192 => "P-192",
            NistPrime::P224 => "P-224",
            NistPrime::P256 => "P-256",
            NistPrime::P384 => "P-384",
            NistPrime::P448 => "2^448-2^224-1",
            NistPrime::P512 => "2^512-2^32-1",
            NistPrime::P521 => "P-521",
        }
    }

    /// `bits(p)`.
    pub const fn bits(self) -> u32 {
        match self {
            NistPrime::P192 => 192,
            NistPrime::P224 => 224,
            NistPrime::P256 => 256,
            NistPrime::P384 => 384,
            NistPrime::P448 => 448,
            NistPrime::P512 => 512,
            NistPrime::P521 => 521,
        }
    }

    /// Number of 64-bit digits of `p`.
    pub const fn limbs(self) -> usize {
        (self.bits() as usize).div_ceil(64)
    }

    /// `p` in 64-bit digits.
    pub fn modulus_u64(self) -> Vec<u64> {
        fn pack<const N: usize>(w: &[u32; N]) -> Vec<u64> {
            w.chunks(2)
                .map(|c| c[0] as u64 | (c.get(1).copied().unwrap_or(0) as u64) << 32)
                .collect()
        }
        match self {
            NistPrime::P192 => pack(&P192.p),
            NistPrime::P224 => pack(&P224.p),
            NistPrime::P256 => pack(&P256.p),
            NistPrime::P384 => pack(&P384.p),
            NistPrime::P448 => pack(&P448.p),
            NistPrime::P512 => pack(&P512.p),
            NistPrime::P521 => {
                let mut v = vec![u64::MAX; 9];
                v[8] = 0x1ff;
                v
            }
        }
    }

    /// `p`.
    pub fn modulus<L: Limb>(self) -> Nat<L> {
        Nat::<u64>::from_vec(self.modulus_u64()).to_radix()
    }

    /// The prime equal to `m`, if any.
    pub fn of<L: Limb>(m: &Nat<L>) -> Option<NistPrime> {
        let bits = m.bits();
        NistPrime::ALL.into_iter().find(|p| p.bits() as u64 == bits && p.modulus::<L>() == *m)
    }

    /// `out = z mod p` for `z < 2^(2N)` given in 64-bit digits (any length, zero above
    /// `2N` bits); `out` has [`NistPrime::limbs`] digits.
    #[inline]
    pub fn reduce_u64(self, out: &mut [u64], z: &[u64]) {
        /// The first `N` digits of `z` as an array, zero-padded when `z` is shorter.
        #[inline(always)]
        fn digits<const N: usize>(z: &[u64]) -> [u64; N] {
            let mut a = [0u64; N];
            let n = z.len().min(N);
            a[..n].copy_from_slice(&z[..n]);
            a
        }
        match self {
            NistPrime::P192 => fold32::<6, 3>(out, &digits::<6>(z), &P192),
            NistPrime::P224 => fold32::<7, 4>(out, &digits::<7>(z), &P224),
            NistPrime::P256 => fold32::<8, 4>(out, &digits::<8>(z), &P256),
            NistPrime::P384 => fold32::<12, 6>(out, &digits::<12>(z), &P384),
            NistPrime::P448 => fold32::<14, 7>(out, &digits::<14>(z), &P448),
            NistPrime::P512 => fold32::<16, 8>(out, &digits::<16>(z), &P512),
            NistPrime::P521 => fold521(out, &digits::<18>(z)),
        }
    }
}

/// The compile-time data of one prime `f(2^32)`: `X_f`, row 0 (`b^n − p`) and `p`.
struct Gm<const N: usize> {
    x: [[i8; N]; N],
    p: [u32; N],
}

/// `X_f` (paper 003, eqs. 6.3–6.4) and `p` from the lower coefficients of `f`.
const fn gm<const N: usize>(c: [i8; N]) -> Gm<N> {
    let mut x = [[0i8; N]; N];
    let mut j = 0;
    while j < N {
        x[0][j] = -c[j];
        j += 1;
    }
    let mut i = 1;
    while i < N {
        let top = x[i - 1][N - 1];
        x[i][0] = -c[0] * top;
        let mut j = 1;
        while j < N {
            x[i][j] = x[i - 1][j - 1] - c[j] * top;
            j += 1;
        }
        i += 1;
    }
    // p = b^n + Σ c_i b^i: the low n words of Σ c_i b^i (the borrow cancels b^n).
    let mut p = [0u32; N];
    let mut carry: i64 = 0;
    let mut i = 0;
    while i < N {
        let v = c[i] as i64 + carry;
        p[i] = (v & 0xffff_ffff) as u32;
        carry = v >> 32;
        i += 1;
    }
    Gm { x, p }
}

const fn coeffs<const N: usize>(terms: &[(usize, i8)]) -> [i8; N] {
    let mut c = [0i8; N];
    let mut k = 0;
    while k < terms.len() {
        c[terms[k].0] = terms[k].1;
        k += 1;
    }
    c
}

/// t^6 − t^2 − 1 (P-192 on 32-bit words).
const P192: Gm<6> = gm(coeffs(&[(2, -1), (0, -1)]));
/// t^7 − t^3 + 1.
const P224: Gm<7> = gm(coeffs(&[(3, -1), (0, 1)]));
/// t^8 − t^7 + t^6 + t^3 − 1.
const P256: Gm<8> = gm(coeffs(&[(7, -1), (6, 1), (3, 1), (0, -1)]));
/// t^12 − t^4 − t^3 + t − 1.
const P384: Gm<12> = gm(coeffs(&[(4, -1), (3, -1), (1, 1), (0, -1)]));
/// t^14 − t^7 − 1.
const P448: Gm<14> = gm(coeffs(&[(7, -1), (0, -1)]));
/// t^16 − t − 1.
const P512: Gm<16> = gm(coeffs(&[(1, -1), (0, -1)]));

/// 32-bit word `i` of the 64-bit digits `z`.
#[inline(always)]
fn word<const N: usize>(z: &[u64; N], i: usize) -> i64 {
    (z[i / 2] >> (32 * (i % 2))) as u32 as i64
}

/// The hard-coded reduction modulo `f(2^32)` (module docs): `N` words, `K` 64-bit digits.
#[inline(always)]
fn fold32<const N: usize, const K: usize>(out: &mut [u64], z: &[u64; N], gm: &Gm<N>) {
    let mut acc = [0i64; N];
    for (j, a) in acc.iter_mut().enumerate() {
        let mut s = word(z, j);
        for i in 0..N {
            s += word(z, N + i) * gm.x[i][j] as i64;
        }
        *a = s;
    }
    let mut w = [0u32; N];
    let mut carry = 0i64;
    for j in 0..N {
        let v = acc[j] + carry;
        w[j] = v as u32;
        carry = v >> 32;
    }
    while carry != 0 {
        let h = carry;
        carry = 0;
        for j in 0..N {
            let v = w[j] as i64 + h * gm.x[0][j] as i64 + carry;
            w[j] = v as u32;
            carry = v >> 32;
        }
    }
    // 0 ≤ W < b^n < 2p: subtract p once if W ≥ p.
    let mut d = [0u32; N];
    let mut borrow = 0i64;
    for j in 0..N {
        let v = w[j] as i64 - gm.p[j] as i64 + borrow;
        d[j] = v as u32;
        borrow = v >> 32;
    }
    let r = if borrow == 0 { &d } else { &w };
    for k in 0..K {
        let lo = r[2 * k] as u64;
        let hi = if 2 * k + 1 < N { r[2 * k + 1] as u64 } else { 0 };
        out[k] = lo | hi << 32;
    }
}

/// `z mod (2^521 − 1)` for `z < 2^1042`: `r = (z mod 2^521) + (z >> 521)` twice, then one
/// conditional subtraction (the second sum is at most `2^521`).
#[inline(always)]
fn fold521(out: &mut [u64], z: &[u64; 18]) {
    const MASK: u64 = 0x1ff;
    let mut r = [0u64; 9];
    let mut carry = 0u64;
    for i in 0..9 {
        let hi = (z[8 + i] >> 9) | (z[9 + i] << 55);
        let lo = if i == 8 { z[8] & MASK } else { z[i] };
        let (s1, c1) = lo.overflowing_add(hi);
        let (s2, c2) = s1.overflowing_add(carry);
        r[i] = s2;
        carry = (c1 | c2) as u64;
    }
    // r < 2^522: fold bit 521 again.
    let top = r[8] >> 9;
    r[8] &= MASK;
    let mut c = top;
    for v in r.iter_mut() {
        let (s, o) = v.overflowing_add(c);
        *v = s;
        c = o as u64;
    }
    // r ≤ 2^521: r ≥ p iff r = p (all ones) or r = 2^521.
    let is_p = r[..8].iter().all(|&v| v == u64::MAX) && r[8] == MASK;
    let is_top = r[8] >> 9 != 0;
    if is_p || is_top {
        // r − p = r + 1 − 2^521
        let mut c = 1u64;
        for v in r.iter_mut() {
            let (s, o) = v.overflowing_add(c);
            *v = s;
            c = o as u64;
        }
        r[8] &= MASK;
    }
    out[..9].copy_from_slice(&r);
}

/// Hard-coded reduction modulo one of [`NistPrime::ALL`] (paper 003 §6.2), computed on
/// 64-bit digits whatever the digit type `L`.
///
/// Standard representation. [`Reducer::reduce_raw`] computes `z mod p` for
/// `z < 2^(2N)`; output below `p`.
#[derive(Clone, Debug)]
pub struct Nist<L: Limb> {
    m: Nat<L>,
    prime: NistPrime,
}

impl<L: Limb> Nist<L> {
    /// Which prime.
    pub fn prime(&self) -> NistPrime {
        self.prime
    }
}

impl<L: Limb> Reducer<L> for Nist<L> {
    /// Error: [`Error::NotApplicable`] naming the primes when `m` is not one of them.
    fn new(m: &Nat<L>) -> Result<Self, Error> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        let prime = NistPrime::of(m).ok_or_else(|| Error::NotApplicable {
            algorithm: Algorithm::Nist.name(),
            reason: "it needs one of the hard-coded primes P-192, P-224, P-256, P-384, P-521, \
                     2^448 - 2^224 - 1 or 2^512 - 2^32 - 1"
                .to_string(),
        })?;
        Ok(Nist { m: m.clone(), prime })
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Nist
    }

    fn modulus(&self) -> &Nat<L> {
        &self.m
    }

    /// `z < 2^(2N)`.
    fn input_bound(&self) -> Bound<L> {
        Bound::Below(Nat::power_of_two(2 * self.prime.bits() as u64))
    }

    fn bound_formula(&self) -> &'static str {
        "2^(2N)"
    }

    fn reduce_raw(&self, out: &mut [L], x: &[L], _scratch: &mut Scratch<L>) {
        let k = self.prime.limbs();
        let mut r = [0u64; 9];
        if L::BITS == 64 {
            let mut z = [0u64; 18];
            for (d, s) in z.iter_mut().zip(x) {
                *d = s.to_u64();
            }
            self.prime.reduce_u64(&mut r[..k], &z);
            for (o, v) in out.iter_mut().zip(r) {
                *o = L::from_u64(v);
            }
        } else {
            let per = (64 / L::BITS) as usize;
            let mut z = [0u64; 18];
            for (i, s) in x.iter().enumerate().take(18 * per) {
                z[i / per] |= s.to_u64() << ((i % per) as u32 * L::BITS);
            }
            self.prime.reduce_u64(&mut r[..k], &z);
            let mask = if L::BITS == 64 { u64::MAX } else { (1u64 << L::BITS) - 1 };
            for (i, o) in out.iter_mut().enumerate() {
                *o = L::from_u64((r[i / per] >> ((i % per) as u32 * L::BITS)) & mask);
            }
        }
    }

    fn to_residue(&self, x: &Nat<L>) -> Vec<L> {
        let r = x.checked_rem(&self.m).unwrap_or_default();
        r.to_padded(self.width()).unwrap_or_else(|| vec![L::ZERO; self.width()])
    }

    fn from_residue(&self, r: &[L]) -> Nat<L> {
        Nat::from_limbs(r)
    }
}
