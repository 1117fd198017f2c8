//! Fixed-size paths: Montgomery, Barrett, pseudo-Mersenne and the hard-coded NIST reductions on a
//! const number `N` of 64-bit digits behind the same [`Reducer`] trait.
//!
//! # Why
//! The slice reducers ([`super::Montgomery`], [`super::PseudoMersenne`], [`super::Nist`])
//! take any width: their loops run to a length known at run time, the product goes
//! through `scratch`, and each kernel is a call. At 64 to 512 bits that overhead is a large
//! part of the work. Here the width is a const generic: arrays on the stack, every loop
//! unrolled by the compiler, no allocation and no call inside `mul`, `sqr` or `pow`.
//!
//! # How it is hooked in
//! The selector ([`crate::engine::reducer`], and so [`crate::Modulus`]) picks these reducers for
//! `u64` digits when the width matches: [`MontgomeryFixed<N>`] for `montgomery` with
//! `N = 1 … 8` digits, [`BarrettFixed<N>`] for `barrett` with `N = 1 … 8` or 16 and the
//! modulus's top bit set, [`PseudoMersenneFixed<N>`] for `pseudo-mersenne` with a one-digit
//! `c` and `N = 1 … 9`, [`NistFixed<N>`] for `nist`. They report the same
//! [`Algorithm`], use the same representation and bounds, and give the same results as
//! the slice reducers (tested against them and num-bigint in `tests/fixed.rs`). Other
//! digit types and widths keep the slice reducers.
//!
//! The 128-bit products compile to `mul`/`mulx` with `adc` chains. Measured at 256 bits
//! (`cargo run --release -p modred-bench --features anchors --example fixed_ratios`,
//! interleaved in one process on a shared 2-core machine): `MontgomeryFixed<4>` on arrays
//! 1.21× GMP's plain `mpn_mul_n` and 0.59× OpenSSL's `BN_mod_mul_montgomery`; through
//! `Reducer::mul` on slices 1.19× the array form; the slice `Montgomery` reducer (MULX/ADX
//! kernels, run-time width) 2.1×. Each function is also compiled for BMI2 and chosen at
//! run time (`arith::with_bmi2!`); at 4 digits the difference was within the noise.
//!
//! At 4 digits on a CPU with BMI2 and ADX, [`MontgomeryFixed::mul_fixed_into`] and
//! [`MontgomeryFixed::sqr_fixed_into`] are assembly (`arith::mont_mul_4_adx`,
//! `arith::mont_sqr_4_adx`, tested against `arith::mont_mul`): Montgomery's reduction in
//! its subtractive form, one carry chain and one borrow chain per row, and a dedicated
//! square (10 digit products instead of 16); `Modulus::mul_into` and friends call them
//! inline (`modulus::direct`). About 36 cycles a product and 32 a square where the
//! earlier two-chain CIOS assembly took 45 (see `arith.rs` for why, and
//! `docs/benchmarks.md` for the ratios to GMP and OpenSSL).

// Digit loops over several fixed-size arrays at once (the carry chains) read best indexed.
#![allow(clippy::needless_range_loop)]

pub(crate) mod arith;
pub(crate) mod mont2;
pub(crate) mod p25519;
pub(crate) mod p521;

use super::{Bound, Montgomery, Nist, NistPrime, PseudoMersenne, Reducer, Scratch};
use crate::error::Error;
use crate::exp::fixed_size::FixedProducts;
use crate::nat::Nat;
use crate::registry::Algorithm;
use alloc::boxed::Box;
use alloc::format;
use arith::Wide;

/// The widest Montgomery modulus, in 64-bit digits, with a fixed-size path (512 bits).
pub const MAX_MONTGOMERY_LIMBS: usize = 8;

/// The low `N` digits of `x` (zeros above its length).
pub(crate) fn to_array<const N: usize>(x: &Nat<u64>) -> [u64; N] {
    let mut a = [0u64; N];
    let n = x.len().min(N);
    a[..n].copy_from_slice(&x.limbs()[..n]);
    a
}

/// Montgomery arithmetic modulo an odd `m` of exactly `N` 64-bit digits, `R = 2^(64N)`.
///
/// The same representation (`x·R mod m`), input bound (`x < m·R`) and results as
/// [`super::Montgomery`] (paper 000, Algorithm 3); [`Reducer::mul`] is the interleaved
/// CIOS product ([`MontgomeryFixed::mul_fixed`]), [`Reducer::sqr`] the half-cost square
/// followed by the reduction ([`MontgomeryFixed::sqr_fixed`]). Variable time only in that
/// the compiler may turn the final select into a conditional move; for secrets use
/// [`crate::ct`] or the constant-time field elements.
#[derive(Clone, Debug)]
pub struct MontgomeryFixed<const N: usize> {
    /// `m` and its inverses modulo `2^64`, laid out for the assembly.
    k: arith::MontConsts<N>,
    r2: [u64; N],
    one: [u64; N],
    /// The slice reducer, for conversions and for slices of another length.
    slow: Montgomery<u64>,
}

impl<const N: usize> MontgomeryFixed<N> {
    /// `m` as digits.
    pub fn modulus_array(&self) -> &[u64; N] {
        &self.k.m
    }

    /// `a·b·R⁻¹ mod m` for `a, b < m` (CIOS, `2N² + N` digit products).
    #[inline]
    pub fn mul_fixed(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let mut out = [0; N];
        self.mul_fixed_into(&mut out, a, b);
        out
    }

    /// `out = a·b·R⁻¹ mod m` for `a, b < m`, as [`MontgomeryFixed::mul_fixed`], written
    /// into `out` (no copy of the result through memory).
    #[inline]
    pub fn mul_fixed_into(&self, out: &mut [u64; N], a: &[u64; N], b: &[u64; N]) {
        arith::mont_mul_vartime_into::<N>(out, a, b, &self.k)
    }

    /// `a²·R⁻¹ mod m` for `a < m`: the square (`N(N+1)/2` products), then the reduction
    /// (`N(N+1)`).
    #[inline]
    pub fn sqr_fixed(&self, a: &[u64; N]) -> [u64; N] {
        let mut out = [0; N];
        self.sqr_fixed_into(&mut out, a);
        out
    }

    /// `out = a²·R⁻¹ mod m` for `a < m`, as [`MontgomeryFixed::sqr_fixed`], written into
    /// `out` (at 4 digits on a CPU with BMI2 and ADX, the assembly square
    /// `arith::mont_sqr_4_adx`).
    #[inline]
    pub fn sqr_fixed_into(&self, out: &mut [u64; N], a: &[u64; N]) {
        arith::mont_sqr_vartime_into::<N>(out, a, &self.k)
    }

    /// `z·R⁻¹ mod m` for `z < m·R` given as `2N` digits (low half first).
    #[inline]
    pub fn redc_fixed(&self, lo: &[u64; N], hi: &[u64; N]) -> [u64; N] {
        arith::redc::<N, false>(&[*lo, *hi], &self.k.m, self.k.m0inv)
    }

    /// The residue of 1, `R mod m`.
    pub fn one_fixed(&self) -> [u64; N] {
        self.one
    }

    /// The residue `x·R mod m` of `x < m`.
    #[inline]
    pub fn to_montgomery_fixed(&self, x: &[u64; N]) -> [u64; N] {
        self.mul_fixed(x, &self.r2)
    }

    /// The value `r·R⁻¹ mod m` of a residue.
    #[inline]
    pub fn from_montgomery_fixed(&self, r: &[u64; N]) -> [u64; N] {
        let mut one = [0u64; N];
        one[0] = 1;
        self.mul_fixed(r, &one)
    }

    /// `base^e` in the representation, `base` a residue: fixed 4-bit window with a table
    /// of 16 residues on the stack, no allocation. Variable time: the exponent's length
    /// and digits decide the work (a zero window skips its multiplication).
    pub fn pow_vartime_fixed(&self, base: &[u64; N], e: &Nat<u64>) -> [u64; N] {
        const W: u64 = 4;
        let mut table = [[0u64; N]; 16];
        table[0] = self.one;
        table[1] = *base;
        for j in 2..16 {
            table[j] = self.mul_fixed(&table[j - 1], base);
        }
        let bits = e.bits();
        let windows = bits.div_ceil(W);
        let mut acc = self.one;
        for w in (0..windows).rev() {
            if w + 1 != windows {
                for _ in 0..W {
                    acc = self.sqr_fixed(&acc);
                }
            }
            let mut digit = 0usize;
            for j in 0..W {
                digit |= (e.bit(w * W + j) as usize) << j;
            }
            if digit != 0 {
                acc = self.mul_fixed(&acc, &table[digit]);
            }
        }
        acc
    }
}

#[cfg(x86_kernels)]
impl MontgomeryFixed<4> {
    /// `out = a·b·R⁻¹ mod m` for `a, b < m` by the assembly (`arith::mont_mul_4_adx`),
    /// without the CPU check of [`MontgomeryFixed::mul_fixed_into`].
    ///
    /// # Safety
    /// The CPU must have BMI2 and ADX.
    #[inline(always)]
    pub(crate) unsafe fn mul_asm_into(&self, out: &mut [u64; 4], a: &[u64; 4], b: &[u64; 4]) {
        // SAFETY: the caller guarantees BMI2 and ADX.
        unsafe { arith::mont_mul_4_adx(out, a, b, &self.k) }
    }

    /// `out = a²·R⁻¹ mod m` for `a < m` by the assembly (`arith::mont_sqr_4_adx`), without
    /// the CPU check of [`MontgomeryFixed::sqr_fixed_into`].
    ///
    /// # Safety
    /// The CPU must have BMI2 and ADX.
    #[inline(always)]
    pub(crate) unsafe fn sqr_asm_into(&self, out: &mut [u64; 4], a: &[u64; 4]) {
        // SAFETY: the caller guarantees BMI2 and ADX.
        unsafe { arith::mont_sqr_4_adx(out, a, &self.k) }
    }
}

/// `a` as an array of `N` digits, when it has exactly `N`.
#[inline(always)]
fn arr<const N: usize>(a: &[u64]) -> Option<&[u64; N]> {
    a.try_into().ok()
}

/// The [`Reducer`] items a fixed-size reducer answers from `N` or forwards to its slice
/// twin `self.slow` (same modulus, same bound, same residues): `modulus`, `width`,
/// `input_bound`, `to_residue`, `from_residue`.
macro_rules! delegate_to_slice_twin {
    () => {
        fn modulus(&self) -> &Nat<u64> {
            self.slow.modulus()
        }

        fn width(&self) -> usize {
            N
        }

        fn input_bound(&self) -> Bound<u64> {
            self.slow.input_bound()
        }

        fn to_residue(&self, x: &Nat<u64>) -> alloc::vec::Vec<u64> {
            self.slow.to_residue(x)
        }

        fn from_residue(&self, r: &[u64]) -> Nat<u64> {
            self.slow.from_residue(r)
        }
    };
}

/// [`Reducer::pow_sliding_window`] on arrays ([`crate::exp::fixed_size`]) for a reducer
/// with [`FixedProducts`], for a base of `N` digits, a window whose table fits on the
/// stack and arguments within the trait method's preconditions; `None` otherwise (the
/// generic loop, or the caller's error).
macro_rules! fixed_sliding_window {
    () => {
        fixed_sliding_window!(|r: &Self, base, e, bits, w| {
            crate::exp::fixed_size::pow_sliding(r, base, e, bits, w)
        });
    };
    ($pow:expr) => {
        fn pow_sliding_window(
            &self,
            base: &[u64],
            e: &[u64],
            bits: u64,
            w: u32,
        ) -> Option<alloc::vec::Vec<u64>> {
            let base = arr::<N>(base)?;
            // The loop's preconditions, checked (the trait's callers are not only ours):
            // bit `bits − 1` of `e` set and `1 ≤ w ≤ bits`.
            let top_set = bits >= 1
                && e.get(((bits - 1) / 64) as usize)
                    .is_some_and(|d| (d >> ((bits - 1) % 64)) & 1 == 1);
            if N > crate::reduce::fixed::MAX_MONTGOMERY_LIMBS
                || w > crate::exp::fixed_size::MAX_FIXED_WINDOW
                || w == 0
                || w as u64 > bits
                || !top_set
            {
                return None;
            }
            Some(($pow)(self, base, e, bits, w).to_vec())
        }
    };
}

/// [`FixedProducts`] of a fixed-size reducer type: its `mul_fixed` and `sqr_fixed`.
macro_rules! fixed_products {
    ($t:ident) => {
        impl<const N: usize> FixedProducts<N> for $t<N> {
            #[inline(always)]
            fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
                self.mul_fixed(a, b)
            }
            #[inline(always)]
            fn sqr(&self, a: &[u64; N]) -> [u64; N] {
                self.sqr_fixed(a)
            }
        }
    };
}

fixed_products!(MontgomeryFixed);
fixed_products!(PseudoMersenneFixed);
fixed_products!(NistFixed);

/// [`Reducer::mul`] and [`Reducer::sqr`] through the type's `mul_fixed`/`sqr_fixed` when
/// the slices are exactly `N` digits, else through the slice twin `self.slow`; and the
/// exponentiation loop on arrays ([`fixed_sliding_window`]).
macro_rules! fixed_products_or_slice_twin {
    () => {
        fixed_sliding_window!();

        #[inline]
        fn mul(&self, out: &mut [u64], a: &[u64], b: &[u64], scratch: &mut Scratch<u64>) {
            match (<&mut [u64; N]>::try_from(&mut *out), arr::<N>(a), arr::<N>(b)) {
                (Ok(o), Some(a), Some(b)) => *o = self.mul_fixed(a, b),
                _ => self.slow.mul(out, a, b, scratch),
            }
        }

        #[inline]
        fn sqr(&self, out: &mut [u64], a: &[u64], scratch: &mut Scratch<u64>) {
            match (<&mut [u64; N]>::try_from(&mut *out), arr::<N>(a)) {
                (Ok(o), Some(a)) => *o = self.sqr_fixed(a),
                _ => self.slow.sqr(out, a, scratch),
            }
        }
    };
}

mod barrett;
pub use barrett::{barrett_fixed_applies, barrett_fixed_width, BarrettFixed, MAX_BARRETT_LIMBS};

impl<const N: usize> Reducer<u64> for MontgomeryFixed<N> {
    /// Errors as [`super::Montgomery`]'s, and [`Error::NotApplicable`] when `m` does not
    /// have exactly `N` digits.
    fn new(m: &Nat<u64>) -> Result<Self, Error> {
        let slow = Montgomery::new(m)?;
        if m.len() != N {
            return Err(Error::NotApplicable {
                algorithm: Algorithm::Montgomery.name(),
                reason: format!("this fixed-size path needs a {N}-digit modulus"),
            });
        }
        let k = arith::MontConsts::new(to_array(m));
        let mut r2 = [0u64; N];
        r2.copy_from_slice(slow.params().r2());
        // R mod m = (R² mod m)·R⁻¹: one reduction, not a second division.
        let one = arith::redc::<N, false>(&[r2, [0; N]], &k.m, k.m0inv);
        Ok(MontgomeryFixed { k, r2, one, slow })
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Montgomery
    }

    delegate_to_slice_twin!();

    fn reduce_raw(&self, out: &mut [u64], x: &[u64], scratch: &mut Scratch<u64>) {
        match <&mut [u64; N]>::try_from(&mut *out) {
            Ok(o) if crate::nat::normalized_len(x) <= 2 * N => {
                *o = arith::redc::<N, false>(&arith::wide_from_slice(x), &self.k.m, self.k.m0inv);
            }
            _ => self.slow.reduce_raw(out, x, scratch),
        }
    }

    // Two digits: `mont2`'s lazy (below 2^126) or almost-Montgomery products, the final
    // subtraction off the chain of dependent products.
    fixed_sliding_window!(|r: &Self, base: &[u64; N], e, bits, w| {
        mont2::pow_sliding_lazy(&r.k.m, r.k.m_inv_128, base, e, bits, w)
            .unwrap_or_else(|| crate::exp::fixed_size::pow_sliding(r, base, e, bits, w))
    });

    #[inline]
    fn mul(&self, out: &mut [u64], a: &[u64], b: &[u64], scratch: &mut Scratch<u64>) {
        match (<&mut [u64; N]>::try_from(&mut *out), arr::<N>(a), arr::<N>(b)) {
            (Ok(o), Some(a), Some(b)) => self.mul_fixed_into(o, a, b),
            _ => self.slow.mul(out, a, b, scratch),
        }
    }

    #[inline]
    fn sqr(&self, out: &mut [u64], a: &[u64], scratch: &mut Scratch<u64>) {
        match (<&mut [u64; N]>::try_from(&mut *out), arr::<N>(a)) {
            (Ok(o), Some(a)) => self.sqr_fixed_into(o, a),
            _ => self.slow.sqr(out, a, scratch),
        }
    }
}

/// `z mod p` for `p = 2^bits − c` with one-digit `c`, `2·bits(c) < bits`, `p` of `N`
/// digits and `z < 2^(2·bits)`: the folds of [`super::PseudoMersenne`] (paper 003,
/// Algorithm 4 and its extension to `bits` not a multiple of 64) on fixed-size digits, the
/// second one merged with the final subtraction (branch-free; `CT` as in
/// [`arith::sub_if_ge`]).
///
/// With `s = bits − 64(N−1)`: `q = z >> bits`, `r = z mod 2^bits`; `t = r + q·c <
/// 2^bits·(c+1)`, read as `L + H·2^bits` with `L < 2^bits` and `H ≤ c`. Then `z ≡ V = L +
/// H·c < 2^bits + c² < 2p`, and `V ≥ p` exactly when `V + c ≥ 2^bits`: so `u = L + c·(H +
/// 1)` (below `2^(bits+1)`) has bit `bits` set exactly when `p` is to be subtracted, and
/// the result is `u − c` when it is clear and `u − 2^bits` when it is set — `u − c·(1 −
/// bit)` with the bit dropped. (The fold as the paper writes it adds `H·c` and then compares
/// the sum with `p`; this adds the `c` of that comparison at once, and needs no selection
/// between two results.) No branch and no memory index depends on `z`.
#[inline(always)]
pub(crate) fn pm_fold<const N: usize, const CT: bool>(z: &Wide<N>, bits: u32, c: u64) -> [u64; N] {
    let s = bits - 64 * (N as u32 - 1); // 1 ..= 64, public
    let mask = if s == 64 { u64::MAX } else { (1u64 << s) - 1 };
    // Digit i of q = z >> bits.
    let q = |i: usize| -> u64 {
        let lo = arith::get(z, N - 1 + i);
        let up = if N + i < 2 * N { arith::get(z, N + i) } else { 0 };
        if s == 64 {
            up
        } else {
            (lo >> s) | (up << (64 - s))
        }
    };
    let mut r = z[0];
    r[N - 1] &= mask;
    // t = r + q·c (N digits and a top digit).
    let mut carry = 0u64;
    for i in 0..N {
        (r[i], carry) = arith::mac(r[i], q(i), c, carry);
    }
    let h = if s == 64 { carry } else { (carry << (64 - s)) | (r[N - 1] >> s) };
    r[N - 1] &= mask;
    // u = L + c·(H + 1).
    let (lo, hi) = arith::mac(c, h, c, 0);
    let mut cy;
    (r[0], cy) = arith::adc(r[0], lo, 0);
    let mut add = hi;
    for v in r.iter_mut().skip(1) {
        (*v, cy) = arith::adc(*v, add, cy);
        add = 0;
    }
    // Bit `bits` of u: the carry out of the digits when s = 64 (for N = 1 the high digit
    // of c·(H + 1) has nowhere to go but there), else the bit above the mask.
    let bit = if s == 64 {
        if N == 1 {
            cy + hi
        } else {
            cy
        }
    } else {
        r[N - 1] >> s
    };
    arith::sub_c_or_drop_bit::<N, CT>(r, bit, c, mask)
}

arith::with_bmi2! {
    /// `a·b mod p` by [`arith::mul_wide`] and [`pm_fold`], compiled for BMI2 where the CPU
    /// has it.
    pub(crate) fn pm_mul_fast<const N: usize, const CT: bool>(
        a: &[u64; N],
        b: &[u64; N],
        bits: u32,
        c: u64,
    ) -> [u64; N] {
        pm_fold::<N, CT>(&arith::mul_wide(a, b), bits, c)
    }
}

arith::with_bmi2! {
    /// `a² mod p` by [`arith::sqr_wide`] and [`pm_fold`], compiled for BMI2 where the CPU
    /// has it.
    pub(crate) fn pm_sqr_fast<const N: usize, const CT: bool>(
        a: &[u64; N],
        bits: u32,
        c: u64,
    ) -> [u64; N] {
        pm_fold::<N, CT>(&arith::sqr_wide(a), bits, c)
    }
}

arith::with_bmi2! {
    /// `a·b mod p` for `a, b < p` by [`arith::mul_wide`] and the hard-coded reduction,
    /// compiled for BMI2 where the CPU has it; P-521 by [`p521::mul`].
    pub(crate) fn nist_mul_fast<const N: usize, const CT: bool>(
        prime: NistPrime,
        a: &[u64; N],
        b: &[u64; N],
    ) -> [u64; N] {
        if let (NistPrime::P521, Ok(a9), Ok(b9)) = (prime, <&[u64; 9]>::try_from(&a[..]), <&[u64; 9]>::try_from(&b[..])) {
            let mut out = [0u64; N];
            out.copy_from_slice(&p521::mul::<CT>(a9, b9));
            return out;
        }
        prime.reduce_wide::<N, CT>(&arith::mul_wide(a, b))
    }
}

arith::with_bmi2! {
    /// `a² mod p` for `a < p` by [`arith::sqr_wide`] and the hard-coded reduction,
    /// compiled for BMI2 where the CPU has it; P-521 by [`p521::sqr`].
    pub(crate) fn nist_sqr_fast<const N: usize, const CT: bool>(
        prime: NistPrime,
        a: &[u64; N],
    ) -> [u64; N] {
        if let (NistPrime::P521, Ok(a9)) = (prime, <&[u64; 9]>::try_from(&a[..])) {
            let mut out = [0u64; N];
            out.copy_from_slice(&p521::sqr::<CT>(a9));
            return out;
        }
        prime.reduce_wide::<N, CT>(&arith::sqr_wide(a))
    }
}

/// Pseudo-Mersenne reduction modulo `p = 2^N_bits − c`, one-digit `c`, on `N` fixed
/// digits: the representation, bounds and results of [`super::PseudoMersenne`]'s
/// optimised fold, with the product unrolled (`mul_wide`, `sqr_wide`) and
/// the fold on stack arrays (`pm_fold`).
#[derive(Clone, Debug)]
pub struct PseudoMersenneFixed<const N: usize> {
    bits: u32,
    c: u64,
    slow: PseudoMersenne<u64>,
}

impl<const N: usize> PseudoMersenneFixed<N> {
    /// `z mod p` for `z < 2^(2·bits)` given as `2N` digits (low half first).
    #[inline]
    pub fn reduce_fixed(&self, lo: &[u64; N], hi: &[u64; N]) -> [u64; N] {
        pm_fold::<N, false>(&[*lo, *hi], self.bits, self.c)
    }

    /// `a·b mod p` for `a, b < p`.
    #[inline]
    pub fn mul_fixed(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        pm_mul_fast::<N, false>(a, b, self.bits, self.c)
    }

    /// `a² mod p` for `a < p`.
    #[inline]
    pub fn sqr_fixed(&self, a: &[u64; N]) -> [u64; N] {
        pm_sqr_fast::<N, false>(a, self.bits, self.c)
    }
}

impl<const N: usize> Reducer<u64> for PseudoMersenneFixed<N> {
    /// Errors as [`super::PseudoMersenne`]'s, and [`Error::NotApplicable`] when `m` does
    /// not have exactly `N` digits or `c` is more than one digit.
    fn new(m: &Nat<u64>) -> Result<Self, Error> {
        let slow = PseudoMersenne::new(m)?;
        if m.len() != N || slow.c().len() != 1 {
            return Err(Error::NotApplicable {
                algorithm: Algorithm::PseudoMersenne.name(),
                reason: format!("this fixed-size path needs {N} digits and a one-digit c"),
            });
        }
        let (bits, c) = (slow.exponent() as u32, slow.c().limbs()[0]);
        Ok(PseudoMersenneFixed { bits, c, slow })
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::PseudoMersenne
    }

    delegate_to_slice_twin!();

    fn reduce_raw(&self, out: &mut [u64], x: &[u64], scratch: &mut Scratch<u64>) {
        match <&mut [u64; N]>::try_from(&mut *out) {
            Ok(o) if crate::nat::normalized_len(x) <= 2 * N => {
                *o = pm_fold::<N, false>(&arith::wide_from_slice(x), self.bits, self.c);
            }
            _ => self.slow.reduce_raw(out, x, scratch),
        }
    }

    fixed_products_or_slice_twin!();
}

/// The hard-coded reduction of [`super::Nist`] for one prime of `N` digits, with the
/// product unrolled: [`Reducer::mul`] is the unrolled `mul_wide` (or `sqr_wide`)
/// followed by the prime's column sums (`NistPrime::reduce_wide`) on stack arrays, no copies through slices.
#[derive(Clone, Debug)]
pub struct NistFixed<const N: usize> {
    prime: NistPrime,
    slow: Nist<u64>,
}

impl<const N: usize> NistFixed<N> {
    /// Which prime.
    pub fn prime(&self) -> NistPrime {
        self.prime
    }

    /// `a·b mod p` for `a, b < p`.
    #[inline]
    pub fn mul_fixed(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        nist_mul_fast::<N, false>(self.prime, a, b)
    }

    /// `a² mod p` for `a < p`.
    #[inline]
    pub fn sqr_fixed(&self, a: &[u64; N]) -> [u64; N] {
        nist_sqr_fast::<N, false>(self.prime, a)
    }
}

impl<const N: usize> Reducer<u64> for NistFixed<N> {
    /// Errors as [`super::Nist`]'s, and [`Error::NotApplicable`] when the prime does not
    /// have `N` digits.
    fn new(m: &Nat<u64>) -> Result<Self, Error> {
        let slow = Nist::new(m)?;
        if slow.prime().limbs() != N {
            return Err(Error::NotApplicable {
                algorithm: Algorithm::Nist.name(),
                reason: format!("this fixed-size path needs a {N}-digit prime"),
            });
        }
        Ok(NistFixed { prime: slow.prime(), slow })
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Nist
    }

    delegate_to_slice_twin!();

    fn reduce_raw(&self, out: &mut [u64], x: &[u64], scratch: &mut Scratch<u64>) {
        match <&mut [u64; N]>::try_from(&mut *out) {
            Ok(o) if crate::nat::normalized_len(x) <= 2 * N => {
                *o = self.prime.reduce_wide::<N, false>(&arith::wide_from_slice(x));
            }
            _ => self.slow.reduce_raw(out, x, scratch),
        }
    }

    fixed_products_or_slice_twin!();
}

/// A boxed fixed-size reducer for `algorithm` and a `u64` modulus of `N` digits.
fn boxed<const N: usize>(algorithm: Algorithm, m: &Nat<u64>) -> Option<Box<dyn Reducer<u64>>> {
    Some(match algorithm {
        Algorithm::Montgomery if N <= MAX_MONTGOMERY_LIMBS => {
            Box::new(MontgomeryFixed::<N>::new(m).ok()?)
        }
        Algorithm::PseudoMersenne => Box::new(PseudoMersenneFixed::<N>::new(m).ok()?),
        Algorithm::Nist => Box::new(NistFixed::<N>::new(m).ok()?),
        _ => return None,
    })
}

/// The fixed-size reducer for `algorithm` and `m` when there is one (`u64` digits, a
/// width it covers, the modulus of the form), else `None` (then the slice reducer is used,
/// which also reports any error).
pub(crate) fn make_u64(algorithm: Algorithm, m: &Nat<u64>) -> Option<Box<dyn Reducer<u64>>> {
    if algorithm == Algorithm::Barrett {
        return barrett::boxed(m);
    }
    match m.len() {
        1 => boxed::<1>(algorithm, m),
        2 => boxed::<2>(algorithm, m),
        3 => boxed::<3>(algorithm, m),
        4 => boxed::<4>(algorithm, m),
        5 => boxed::<5>(algorithm, m),
        6 => boxed::<6>(algorithm, m),
        7 => boxed::<7>(algorithm, m),
        8 => boxed::<8>(algorithm, m),
        9 => boxed::<9>(algorithm, m),
        _ => None,
    }
}
