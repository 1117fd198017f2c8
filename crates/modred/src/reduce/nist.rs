//! Hard-coded generalized-Mersenne reduction for the NIST primes and the other primes of
//! paper 003, Table 2 (paper 003 §6.2), with 64-bit digits.
//!
//! # Method
//! Every prime but P-521 is `f(2^32)` for a polynomial of Table 2 (P-192 also as
//! `t^6 − t^2 − 1`). Equation 6.6a gives each 32-bit output word as a signed sum
//! `y_j = z_j + Σ_i z_{n+i}·X_f[i, j]` of input words; this module evaluates those sums
//! in 64-bit registers (the 32-bit words are read out of the 64-bit digits of the
//! product), pairs them into 64-bit digits and propagates the signed carry once (`i128`),
//! folds the final signed carry `h` back with `h·b^n ≡ h·(b^n − p)` (row 0 of `X_f`)
//! twice, unconditionally, and subtracts `p` once by a mask. This is the standard FIPS
//! 186-4 Appendix D.2 fast reduction with 32-bit words held in 64-bit registers, instead
//! of the paper's `w_a + w_s` modular additions of whole numbers: one carry chain instead
//! of one per row of `A_f` and `S_f`. The reduction matrix is a `const` computed at
//! compile time from the polynomial, and each column sum is its own expression
//! ([`columns!`]), so each prime gets straight-line code with the zero entries gone and
//! the ±1 entries as additions and subtractions — also at 12 to 16 words, where a loop
//! over the columns used to stay rolled and read the matrix at run time (which made this
//! reducer slower than Montgomery's at 384 to 512 bits). No branch and no memory index
//! depends on `z`: [`crate::field::PrimeField::mul_ct`] uses it for secrets.
//!
//! Bounds: `|X_f[i, j]| ≤ n ≤ 16`, so each sum is below `2^32(1 + 16·16) < 2^41` in
//! magnitude and fits an `i64`; the carry after the propagation is `|h| < 2^10`. After the
//! propagation the value is `V = W + h·b^n` with `0 ≤ W < b^n`. For every prime here
//! `|h|·(b^n − p) < b^n/2`, so the first fold leaves a carry in {−1, 0, 1}. Folding
//! `h = 1` gives `W + (b^n − p) < 2b^n`, whose carry is 1 only if `W ≥ p`, and then the
//! value is `W − p < b^n/2` and the next fold leaves `W − p + (b^n − p) < b^n`; folding
//! `h = −1` gives `W − (b^n − p) ≥ p − b^n`, whose carry is −1 only if `W < b^n − p`, and
//! then the next value is `≥ 2p − b^n > 0`. So two folds always leave no carry, and a
//! fold with `h = 0` changes nothing: both run every time. At the end
//! `0 ≤ W < b^n < 2p`: one masked conditional subtraction.
//!
//! P-192 = `f(2^64)` with `f = t^3 − t − 1` runs on 64-bit words directly;
//! 2^512 − 2^32 − 1 is `2^512 − c` with the one-digit `c = 2^32 + 1`, the pseudo-Mersenne
//! fold of [`super::fixed`]; P-521 = 2^521 − 1 is the Mersenne fold
//! `z = q·2^521 + r ≡ q + r`, twice, then a masked subtraction.
//!
//! With `u64` digits, [`crate::reduce::make`] returns [`super::NistFixed`], which adds the
//! unrolled product; this slice reducer converts any digit type to 64-bit digits.
//!
//! Input bound: `z < 2^(2N)`, `N = bits(p)` (every product of two residues).

// Digit loops over several fixed-size arrays at once (the carry chains) read best indexed.
#![allow(clippy::needless_range_loop)]

use super::fixed::{self, arith, arith::Wide};
use super::{Bound, Reducer, Scratch};
use crate::error::Error;
use crate::limb::Limb;
use crate::nat::Nat;
use crate::registry::Algorithm;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

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
        // The lowest digit first (its low 32 bits at most): most moduli of a prime's length
        // are refused without building the prime.
        let mask = u32::MAX >> (32 - L::BITS.min(32));
        let low = m.limbs().first().map_or(0, |d| d.to_u64() as u32) & mask;
        NistPrime::ALL.into_iter().find(|p| {
            p.bits() as u64 == bits && p.low_word() & mask == low && p.modulus::<L>() == *m
        })
    }

    /// The lowest 32 bits of `p`.
    fn low_word(self) -> u32 {
        match self {
            NistPrime::P192 => P192.p[0],
            NistPrime::P224 => P224.p[0],
            NistPrime::P256 => P256.p[0],
            NistPrime::P384 => P384.p[0],
            NistPrime::P448 => P448.p[0],
            NistPrime::P512 => P512.p[0],
            NistPrime::P521 => u32::MAX,
        }
    }

    /// `out = z mod p` for `z < 2^(2N)` given in 64-bit digits (any length, zero above
    /// `2N` bits); `out` has [`NistPrime::limbs`] digits.
    #[inline]
    pub fn reduce_u64(self, out: &mut [u64], z: &[u64]) {
        /// The first `2N` digits of `z` as a wide number, zero-padded when `z` is shorter.
        #[inline(always)]
        fn wide<const N: usize>(z: &[u64]) -> Wide<N> {
            let mut w: Wide<N> = [[0u64; N]; 2];
            for (k, &v) in z.iter().take(2 * N).enumerate() {
                arith::set(&mut w, k, v);
            }
            w
        }
        match self {
            NistPrime::P192 => out.copy_from_slice(&self.reduce_wide::<3, false>(&wide(z))),
            NistPrime::P224 | NistPrime::P256 => {
                out.copy_from_slice(&self.reduce_wide::<4, false>(&wide(z)))
            }
            NistPrime::P384 => out.copy_from_slice(&self.reduce_wide::<6, false>(&wide(z))),
            NistPrime::P448 => out.copy_from_slice(&self.reduce_wide::<7, false>(&wide(z))),
            NistPrime::P512 => out.copy_from_slice(&self.reduce_wide::<8, false>(&wide(z))),
            NistPrime::P521 => out.copy_from_slice(&self.reduce_wide::<9, false>(&wide(z))),
        }
    }

    /// `z mod p` for `z < 2^(2·bits(p))` of `2N` digits, `N = `[`NistPrime::limbs`]
    /// (a caller's precondition: panics when `N` is not this prime's width). Straight-line
    /// code: no branch and no memory index depends on `z`; with `CT` the final selects go
    /// through [`core::hint::black_box`] so that the compiler keeps them branch-free too.
    #[inline(always)]
    pub(crate) fn reduce_wide<const N: usize, const CT: bool>(self, z: &Wide<N>) -> [u64; N] {
        assert_eq!(N, self.limbs(), "the wide number must have twice the prime's width");
        let z = arith::flat(z);
        let mut out = [0u64; N];
        match self {
            NistPrime::P192 => out.copy_from_slice(&p192::<CT>(z)),
            NistPrime::P224 => {
                out.copy_from_slice(&fold32::<7, 4, CT>(&P224, columns!(z, &P224.x; 0 1 2 3 4 5 6)))
            }
            NistPrime::P256 => out
                .copy_from_slice(&fold32::<8, 4, CT>(&P256, columns!(z, &P256.x; 0 1 2 3 4 5 6 7))),
            NistPrime::P384 => out.copy_from_slice(&fold32::<12, 6, CT>(
                &P384,
                columns!(z, &P384.x; 0 1 2 3 4 5 6 7 8 9 10 11),
            )),
            NistPrime::P448 => out.copy_from_slice(&fold32::<14, 7, CT>(
                &P448,
                columns!(z, &P448.x; 0 1 2 3 4 5 6 7 8 9 10 11 12 13),
            )),
            NistPrime::P512 => {
                // p = 2^512 − c with the one-digit c = 2^32 + 1: the pseudo-Mersenne fold.
                let mut w: Wide<8> = [[0u64; 8]; 2];
                w[0].copy_from_slice(&z[..8]);
                w[1].copy_from_slice(&z[8..16]);
                out.copy_from_slice(&fixed::pm_fold::<8, CT>(&w, 512, (1 << 32) + 1))
            }
            NistPrime::P521 => out.copy_from_slice(&fold521::<CT>(z)),
        }
        out
    }
}

/// P-256 in 64-bit digits.
pub(crate) const P256_64: [u64; 4] = [u64::MAX, 0x0000_0000_ffff_ffff, 0, 0xffff_ffff_0000_0001];

arith::with_bmi2! {
    /// Montgomery multiplication modulo P-256 (`R = 2^256`) with the modulus a constant:
    /// `−p^(−1) mod 2^64 = 1`, so each quotient digit is the running low digit itself, and
    /// the products by the digits of `p` (`2^64 − 1`, `2^32 − 1`, 0, `2^64 − 2^32 + 1`)
    /// compile to shifts and subtractions — the structure OpenSSL's `ecp_nistz256` uses.
    /// Straight-line, the final subtraction by a mask (`CT` as in [`arith::sub_if_ge`]).
    pub(crate) fn p256_mont_mul<const CT: bool>(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        arith::mont_mul::<4, CT>(a, b, &P256_64, 1)
    }
}

arith::with_bmi2! {
    /// [`p256_mont_mul`]'s square: the half-cost square, then the reduction with the
    /// constant modulus.
    pub(crate) fn p256_mont_sqr<const CT: bool>(a: &[u64; 4]) -> [u64; 4] {
        arith::redc::<4, CT>(&arith::sqr_wide(a), &P256_64, 1)
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
fn word(z: &[u64], i: usize) -> i64 {
    (z[i / 2] >> (32 * (i % 2))) as u32 as i64
}

/// Column `j` of eq. 6.6a: `z_j + Σ_i z_(n+i)·X_f[i, j]` (32-bit words, `|sum| < 2^41`).
/// `x` is a `const`, and `j` a literal at each call ([`columns!`]), so once the loop over
/// `i` is unrolled every entry is known: zero entries vanish, ±1 entries become an
/// addition or a subtraction.
#[inline(always)]
fn column<const NW: usize>(z: &[u64], x: &[[i8; NW]; NW], j: usize) -> i64 {
    let mut s = word(z, j);
    for (i, row) in x.iter().enumerate() {
        let c = row[j] as i64;
        if c != 0 {
            // c is a compile-time constant here: this branch is not in the binary.
            s += word(z, NW + i) * c;
        }
    }
    s
}

/// The column sums for the listed columns, each a separate straight-line expression. A
/// loop over the columns would be a nested loop of `n²` steps, which LLVM leaves rolled
/// from `n = 12` on — the reason the hard-coded reductions of P-384, 2^448 − 2^224 − 1 and
/// 2^512 − 2^32 − 1 used to be slower than Montgomery's (the matrix was read and multiplied
/// at run time).
macro_rules! columns {
    ($z:expr, $x:expr; $($j:literal)*) => {
        [ $( column($z, $x, $j) ),* ]
    };
}
use columns;

/// The hard-coded reduction modulo `f(2^32)` from the column sums `acc` (module docs):
/// `NW` words, `K` 64-bit digits.
///
/// 1. The signed columns are paired into 64-bit digits and the signed carry propagated
///    once (`i128`): `V = W + h·b^n`, `0 ≤ W < b^n`, `h` small (`−w_s ≤ h ≤ w_a`).
/// 2. `h·b^n ≡ h·(b^n − p)` (row 0 of `X_f`) is folded back, twice, unconditionally: the
///    first fold leaves a carry in {−1, 0, 1} (`|h|·(b^n − p) < b^n/2` for every prime
///    here), the second none (module docs).
/// 3. `0 ≤ W < b^n < 2p`: one branch-free conditional subtraction of `p`.
#[inline(always)]
fn fold32<const NW: usize, const K: usize, const CT: bool>(
    gm: &Gm<NW>,
    acc: [i64; NW],
) -> [u64; K] {
    let odd = NW % 2 == 1;
    // 1. Pair and propagate.
    let mut w = [0u64; K];
    let mut carry: i128 = 0;
    for k in 0..K {
        let lo = acc[2 * k] as i128;
        let hi = if 2 * k + 1 < NW { acc[2 * k + 1] as i128 } else { 0 };
        let v = lo + (hi << 32) + carry;
        w[k] = v as u64;
        carry = v >> 64;
    }
    let top = |w: &mut [u64; K], carry: i128| -> i128 {
        if odd {
            // The top digit holds one word: the bits above it belong to the carry.
            let h = (carry << 32) + (w[K - 1] >> 32) as i128;
            w[K - 1] &= 0xffff_ffff;
            h
        } else {
            carry
        }
    };
    let mut h = top(&mut w, carry);
    // 2. Fold h·(b^n − p) back, twice. |h| < 2^10 and each 64-bit digit of row 0 is
    //    `x_(2k) + x_(2k+1)·2^32` with entries in {−1, 0, 1} (every prime here), so the
    //    products are i64 multiplications by constants.
    for _ in 0..2 {
        let h64 = h as i64;
        let mut carry: i128 = 0;
        for k in 0..K {
            let lo = gm.x[0][2 * k] as i64;
            let hi = if 2 * k + 1 < NW { gm.x[0][2 * k + 1] as i64 } else { 0 };
            let v = w[k] as i128 + (h64 * (lo + (hi << 32))) as i128 + carry;
            w[k] = v as u64;
            carry = v >> 64;
        }
        h = top(&mut w, carry);
    }
    debug_assert_eq!(h, 0, "two folds leave no carry");
    // 3. One conditional subtraction.
    let mut p = [0u64; K];
    for k in 0..K {
        let lo = gm.p[2 * k] as u64;
        let hi = if 2 * k + 1 < NW { gm.p[2 * k + 1] as u64 } else { 0 };
        p[k] = lo | hi << 32;
    }
    arith::sub_if_ge::<K, CT>(&w, 0, &p)
}

/// P-192 = 2^192 − 2^64 − 1 = `f(2^64)` with `f = t^3 − t − 1`, on 64-bit words: with
/// `2^192 ≡ 2^64 + 1`, `z ≡ (z2, z1, z0) + (0, z3, z3) + (z4, z4, 0) + (z5, z5, z5)`
/// (FIPS 186-4 D.2.1). The carry `h ≤ 3` is folded back twice as `h·(2^64 + 1)`, then one
/// conditional subtraction. Straight-line.
#[inline(always)]
fn p192<const CT: bool>(z: &[u64]) -> [u64; 3] {
    const P: [u64; 3] = [u64::MAX, u64::MAX - 1, u64::MAX];
    let c0 = z[0] as u128 + z[3] as u128 + z[5] as u128;
    let c1 = z[1] as u128 + z[3] as u128 + z[4] as u128 + z[5] as u128 + (c0 >> 64);
    let c2 = z[2] as u128 + z[4] as u128 + z[5] as u128 + (c1 >> 64);
    let mut w = [c0 as u64, c1 as u64, c2 as u64];
    let mut h = (c2 >> 64) as u64;
    for _ in 0..2 {
        let (a, c) = arith::adc(w[0], h, 0);
        let (b, c) = arith::adc(w[1], h, c);
        let (d, c) = arith::adc(w[2], 0, c);
        w = [a, b, d];
        h = c;
    }
    debug_assert_eq!(h, 0);
    arith::sub_if_ge::<3, CT>(&w, 0, &P)
}

/// `z mod (2^521 − 1)` for `z < 2^1042`: `r = (z mod 2^521) + (z >> 521) < 2^522`, then
/// the bit above 521 folded once more (`r ≤ 2^521`), then `r − p = r + 1 − 2^521` kept
/// when `r + 1` reaches `2^521`, by a mask. Straight-line.
#[inline(always)]
fn fold521<const CT: bool>(z: &[u64]) -> [u64; 9] {
    const MASK: u64 = 0x1ff;
    let mut r = [0u64; 9];
    let mut carry = 0u64;
    for i in 0..9 {
        let hi = (z[8 + i] >> 9) | if 9 + i < 18 { z[9 + i] << 55 } else { 0 };
        let lo = if i == 8 { z[8] & MASK } else { z[i] };
        (r[i], carry) = arith::adc(lo, hi, carry);
    }
    // r < 2^522: fold bit 521.
    let mut c = r[8] >> 9;
    r[8] &= MASK;
    for v in r.iter_mut() {
        (*v, c) = arith::adc(*v, c, 0);
    }
    // r ≤ 2^521; t = r + 1 has bit 521 set iff r ≥ p, and then t mod 2^521 = r − p.
    let mut t = [0u64; 9];
    let mut c = 1u64;
    for i in 0..9 {
        (t[i], c) = arith::adc(r[i], 0, c);
    }
    let mut mask = 0u64.wrapping_sub(t[8] >> 9);
    if CT {
        mask = core::hint::black_box(mask);
    }
    t[8] &= MASK;
    arith::select(mask, &t, &r)
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
