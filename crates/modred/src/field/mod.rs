//! Fixed-size prime fields `F_p` with a const number of 64-bit digits, in the standard or
//! the Montgomery representation (paper 003, §2.1–2.2). Part of the modulus layer.
//!
//! A [`PrimeField<N>`] holds `p` (exactly `N` digits, prime, `N ≤` [`MAX_LIMBS`]) and the
//! representation; its elements [`Fe<N>`] are `[u64; N]` below `p`, so equality is the
//! equality of digits in both representations (the map `x ↦ x·R mod p` is a bijection,
//! §2.2). Addition, subtraction and negation are the same in both representations;
//! multiplication is a product followed by
//! - standard representation: the special reduction when `p` has one — the hard-coded
//!   one for the NIST / Table 2 primes ([`crate::reduce::NistPrime`]), the pseudo-Mersenne
//!   fold for `p = 2^N − c` with one-digit `c` — else classical division;
//! - Montgomery representation: Montgomery reduction (`x·R⁻¹ mod p`, `R = 2^(64N)`), eq. 2.3.
//!
//! Products run on the fixed-size paths of [`crate::reduce::fixed`] (arrays on the stack,
//! unrolled, no allocation). Inversion is Fermat's `a^(p−2)` by constant-time Montgomery
//! products ([`PrimeField::inv`]).
//!
//! # Timing
//! [`PrimeField::add`], [`PrimeField::sub`], [`PrimeField::neg`], [`PrimeField::mul_ct`],
//! [`PrimeField::sqr_ct`] and [`PrimeField::inv`] are constant time: no branch and no
//! memory index depends on the elements (the NIST and pseudo-Mersenne reductions fold every
//! carry back unconditionally and end in a masked subtraction; checked under valgrind by
//! `crates/ct-check`). [`PrimeField::mul`] and [`PrimeField::sqr`] compute the same with
//! plain selects, which the compiler may turn into branches, and in the standard
//! representation of a prime of no special form divide (variable time).
//! [`PrimeField::pow_vartime`] leaks the exponent, and the base where `mul` does.

// Digit loops over several fixed-size arrays at once (the carry chains) read best indexed.
#![allow(clippy::needless_range_loop)]

use crate::error::Error;
use crate::nat::Nat;
use crate::reduce::fixed::{self, arith, arith::Wide};
use crate::reduce::{make, pseudo_mersenne_form, NistPrime, Reducer, Scratch};
use crate::Algorithm;
use alloc::boxed::Box;
use alloc::format;
use alloc::string::ToString;
use core::fmt;

/// The largest number of digits of a [`PrimeField`] (1024-bit fields: every ECC size).
pub const MAX_LIMBS: usize = 16;

/// How field elements are represented.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Representation {
    /// `x` by the integer `x` itself, `0 ≤ x < p` (§2.1).
    Standard,
    /// `x` by `x·R mod p`, `R = 2^(64N)` (§2.2).
    Montgomery,
}

/// An element of a [`PrimeField<N>`], in that field's representation: `N` digits below `p`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fe<const N: usize>(pub(crate) [u64; N]);

impl<const N: usize> Fe<N> {
    /// The digits of the representation (not the value, in Montgomery's).
    pub fn limbs(&self) -> &[u64; N] {
        &self.0
    }
}

impl<const N: usize> fmt::Debug for Fe<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fe({})", Nat::<u64>::from_limbs(&self.0).to_hex())
    }
}

/// The reduction used by multiplication in the standard representation.
enum StandardReduction {
    Nist(NistPrime),
    /// `p = 2^bits − c` with one-digit `c`.
    PseudoMersenne {
        bits: u32,
        c: u64,
    },
    Generic(Box<dyn Reducer<u64>>),
}

/// The prime field `F_p`, `p` of exactly `N` 64-bit digits, in one representation.
pub struct PrimeField<const N: usize> {
    p: [u64; N],
    repr: Representation,
    /// `−p^(−1) mod 2^64`.
    m0inv: u64,
    /// `R² mod p`.
    r2: [u64; N],
    /// The representation of 1.
    one: [u64; N],
    standard: StandardReduction,
    p_minus_2: Nat,
}

impl<const N: usize> fmt::Debug for PrimeField<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PrimeField")
            .field("p", &Nat::<u64>::from_limbs(&self.p).to_hex())
            .field("repr", &self.repr)
            .finish()
    }
}

fn to_array<const N: usize>(x: &Nat) -> [u64; N] {
    let mut a = [0u64; N];
    a[..x.len()].copy_from_slice(x.limbs());
    a
}

impl<const N: usize> PrimeField<N> {
    /// The field modulo the prime `p` (exactly `N` digits) in representation `repr`.
    ///
    /// Errors: [`Error::InvalidArgument`] when `p` does not have `N` digits, `N` is above
    /// [`MAX_LIMBS`], or `p` is not prime (Miller–Rabin with 32 bases: 12 fixed, 20 from a fixed seed).
    pub fn new(p: &Nat, repr: Representation) -> Result<Self, Error> {
        if N == 0 || N > MAX_LIMBS {
            return Err(Error::InvalidArgument(format!(
                "a prime field has 1 to {MAX_LIMBS} digits, not {N}"
            )));
        }
        if p.len() != N {
            return Err(Error::InvalidArgument(format!(
                "the prime must have exactly {N} 64-bit digits, it has {}",
                p.len()
            )));
        }
        if !crate::primality::is_probable_prime(p) || p.bits() < 2 || !p.is_odd() {
            return Err(Error::InvalidArgument(
                "a prime field needs an odd prime modulus".to_string(),
            ));
        }
        let pa: [u64; N] = to_array(p);
        let m0inv = crate::limb::Limb::inverse_mod_b(pa[0]).wrapping_neg();
        let r = Nat::power_of_two(64 * N as u64);
        let r2 = to_array(&r.sqr().checked_rem(p).unwrap_or_default());
        let r1 = to_array(&r.checked_rem(p).unwrap_or_default());
        let standard = if let Some(prime) = NistPrime::of(p) {
            StandardReduction::Nist(prime)
        } else if let Some((bits, c)) = pseudo_mersenne_form(p).filter(|(_, c)| c.len() == 1) {
            StandardReduction::PseudoMersenne { bits: bits as u32, c: c.limbs()[0] }
        } else {
            StandardReduction::Generic(make(Algorithm::Classical, p)?)
        };
        let one = match repr {
            Representation::Standard => {
                let mut o = [0u64; N];
                o[0] = 1;
                o
            }
            Representation::Montgomery => r1,
        };
        Ok(PrimeField { p: pa, repr, m0inv, r2, one, standard, p_minus_2: p - &Nat::from(2u64) })
    }

    /// The representation.
    pub fn representation(&self) -> Representation {
        self.repr
    }

    /// `p`.
    pub fn modulus(&self) -> Nat {
        Nat::from_limbs(&self.p)
    }

    /// The additive identity.
    pub fn zero(&self) -> Fe<N> {
        Fe([0; N])
    }

    /// The multiplicative identity.
    pub fn one(&self) -> Fe<N> {
        Fe(self.one)
    }

    /// The element `x mod p`, for any `x`.
    pub fn from_nat(&self, x: &Nat) -> Fe<N> {
        let p = self.modulus();
        let v: [u64; N] = to_array(&x.checked_rem(&p).unwrap_or_default());
        match self.repr {
            Representation::Standard => Fe(v),
            Representation::Montgomery => self.mul(&Fe(v), &Fe(self.r2)),
        }
    }

    /// The element `x mod p`.
    pub fn from_u64(&self, x: u64) -> Fe<N> {
        self.from_nat(&Nat::from(x))
    }

    /// The value `0 ≤ x < p` of an element.
    pub fn to_nat(&self, a: &Fe<N>) -> Nat {
        match self.repr {
            Representation::Standard => Nat::from_limbs(&a.0),
            Representation::Montgomery => {
                let mut one = [0u64; N];
                one[0] = 1;
                Nat::from_limbs(&self.mul(a, &Fe(one)).0)
            }
        }
    }

    /// `a + b`. Constant time (straight-line digit loops, the correction by a mask).
    #[inline]
    pub fn add(&self, a: &Fe<N>, b: &Fe<N>) -> Fe<N> {
        Fe(arith::add_mod::<N, true>(&a.0, &b.0, &self.p))
    }

    /// `a − b`. Constant time.
    #[inline]
    pub fn sub(&self, a: &Fe<N>, b: &Fe<N>) -> Fe<N> {
        Fe(arith::sub_mod::<N, true>(&a.0, &b.0, &self.p))
    }

    /// `−a`.
    #[inline]
    pub fn neg(&self, a: &Fe<N>) -> Fe<N> {
        self.sub(&self.zero(), a)
    }

    /// `a·b` (eq. 2.3 in Montgomery's representation), on the fixed-size paths of
    /// [`crate::reduce::fixed`]: the unrolled product and the hard-coded NIST, the
    /// pseudo-Mersenne or the Montgomery reduction. Constant time except in the standard
    /// representation of a prime of no special form (classical division; use
    /// [`PrimeField::mul_ct`] for secrets).
    #[inline]
    pub fn mul(&self, a: &Fe<N>, b: &Fe<N>) -> Fe<N> {
        match (self.repr, &self.standard) {
            (Representation::Montgomery, StandardReduction::Nist(NistPrime::P256)) => {
                self.p256(a, b, crate::reduce::nist::p256_mont_mul::<false>)
            }
            (Representation::Montgomery, StandardReduction::Nist(NistPrime::P521)) => {
                self.p521(a, b, fixed::p521::mont_mul::<false>)
            }
            (Representation::Montgomery, _) => {
                Fe(arith::mont_mul::<N, false>(&a.0, &b.0, &self.p, self.m0inv))
            }
            _ => self.product::<false>(a, b),
        }
    }

    /// `a²`: the half-cost square ([`crate::reduce::fixed`]), then the reduction.
    #[inline]
    pub fn sqr(&self, a: &Fe<N>) -> Fe<N> {
        match (self.repr, &self.standard) {
            (Representation::Montgomery, StandardReduction::Nist(NistPrime::P256)) => {
                self.p256(a, a, |a, _| crate::reduce::nist::p256_mont_sqr::<false>(a))
            }
            (Representation::Montgomery, StandardReduction::Nist(NistPrime::P521)) => {
                self.p521(a, a, |a, _| fixed::p521::mont_sqr::<false>(a))
            }
            // The interleaved product beats the separate square and REDC at 1–2 digits and
            // from 9 (P-521: 78.9 against 116.7 ns, fields_vs_fiat on Sapphire Rapids).
            (Representation::Montgomery, _) if N <= 2 || N >= 9 => self.mul(a, a),
            _ => self.square::<false>(a),
        }
    }

    /// `a·b` in constant time: no branch and no memory index depends on `a` or `b`
    /// (checked under valgrind by `crates/ct-check`). Montgomery representation: the
    /// interleaved Montgomery product with a masked final subtraction (P-521: the standard
    /// field's product and fold, then the division by `R ≡ 2^55` as a rotation). Standard
    /// representation: the product, then the constant-time hard-coded NIST reduction or
    /// pseudo-Mersenne fold (paper 003 §5–6; every carry folded back unconditionally, the
    /// final subtraction masked); for a prime of neither form, three constant-time
    /// Montgomery products (into the representation, the product, back).
    #[inline]
    pub fn mul_ct(&self, a: &Fe<N>, b: &Fe<N>) -> Fe<N> {
        let (p, m0inv) = (&self.p, self.m0inv);
        match (self.repr, &self.standard) {
            (Representation::Montgomery, StandardReduction::Nist(NistPrime::P521)) => {
                self.p521(a, b, fixed::p521::mont_mul::<true>)
            }
            (Representation::Montgomery, _) => Fe(arith::mont_mul::<N, true>(&a.0, &b.0, p, m0inv)),
            (_, StandardReduction::Generic(_)) => {
                let am = arith::mont_mul::<N, true>(&a.0, &self.r2, p, m0inv);
                let bm = arith::mont_mul::<N, true>(&b.0, &self.r2, p, m0inv);
                let cm = arith::mont_mul::<N, true>(&am, &bm, p, m0inv);
                let mut one = [0u64; N];
                one[0] = 1;
                Fe(arith::mont_mul::<N, true>(&cm, &one, p, m0inv))
            }
            _ => self.product::<true>(a, b),
        }
    }

    /// `a²` in constant time, as [`PrimeField::mul_ct`].
    #[inline]
    pub fn sqr_ct(&self, a: &Fe<N>) -> Fe<N> {
        match (self.repr, &self.standard) {
            (Representation::Standard, StandardReduction::Nist(_))
            | (Representation::Standard, StandardReduction::PseudoMersenne { .. }) => {
                self.square::<true>(a)
            }
            (Representation::Montgomery, StandardReduction::Nist(NistPrime::P521)) => {
                self.p521(a, a, |a, _| fixed::p521::mont_sqr::<true>(a))
            }
            _ => self.mul_ct(a, a),
        }
    }

    /// `op` on P-256's 4-digit arrays (`N = 4` whenever `p` is P-256).
    #[inline(always)]
    fn p256(&self, a: &Fe<N>, b: &Fe<N>, op: fn(&[u64; 4], &[u64; 4]) -> [u64; 4]) -> Fe<N> {
        let mut out = [0u64; N];
        match (<&[u64; 4]>::try_from(&a.0[..]), <&[u64; 4]>::try_from(&b.0[..])) {
            (Ok(a4), Ok(b4)) => out.copy_from_slice(&op(a4, b4)),
            _ => unreachable!("P-256 has four digits"),
        }
        Fe(out)
    }

    /// `a·b` by the product and [`PrimeField::reduce_wide`]: the unrolled product, but for
    /// `2^255 − 19` ([`PrimeField::p25519`]) and P-521 ([`fixed::p521`]).
    #[inline(always)]
    fn product<const CT: bool>(&self, a: &Fe<N>, b: &Fe<N>) -> Fe<N> {
        match (self.repr, &self.standard) {
            (Representation::Standard, StandardReduction::PseudoMersenne { bits: 255, c: 19 }) => {
                self.p25519(a, b)
            }
            // P-521: the product in registers and the fold in assembly on MULX/ADX
            // (`fixed::p521`); the unrolled product with the generic fold took 1.2–1.4 of
            // fiat-crypto's time (fields_vs_fiat, Intel Xeon).
            (Representation::Standard, StandardReduction::Nist(NistPrime::P521)) => {
                self.p521(a, b, fixed::p521::mul::<CT>)
            }
            _ => self.reduce_wide::<CT>(&arith::mul_wide(&a.0, &b.0)),
        }
    }

    /// `op` on P-521's 9-digit arrays (`N = 9` whenever `p` is P-521).
    #[inline(always)]
    fn p521(&self, a: &Fe<N>, b: &Fe<N>, op: impl Fn(&[u64; 9], &[u64; 9]) -> [u64; 9]) -> Fe<N> {
        let mut out = [0u64; N];
        match (<&[u64; 9]>::try_from(&a.0[..]), <&[u64; 9]>::try_from(&b.0[..])) {
            (Ok(a9), Ok(b9)) => out.copy_from_slice(&op(a9, b9)),
            _ => unreachable!("P-521 has nine digits"),
        }
        Fe(out)
    }

    /// `a·b` modulo `2^255 − 19` by [`fixed::p25519::mul`] (`N = 4` whenever `p` is that
    /// prime). Constant time.
    #[inline(always)]
    fn p25519(&self, a: &Fe<N>, b: &Fe<N>) -> Fe<N> {
        let mut out = [0u64; N];
        match (<&[u64; 4]>::try_from(&a.0[..]), <&[u64; 4]>::try_from(&b.0[..])) {
            (Ok(a4), Ok(b4)) => out.copy_from_slice(&fixed::p25519::mul::<true>(a4, b4)),
            _ => unreachable!("2^255 − 19 has four digits"),
        }
        Fe(out)
    }

    /// `a²` as [`PrimeField::product`] computes `a·b`, by the half-cost square (by the
    /// product modulo `2^255 − 19`).
    #[inline(always)]
    fn square<const CT: bool>(&self, a: &Fe<N>) -> Fe<N> {
        match (self.repr, &self.standard) {
            // The square's own assembly (ten digit products) and the fold at the digit
            // boundary.
            (Representation::Standard, StandardReduction::PseudoMersenne { bits: 255, c: 19 }) => {
                let mut out = [0u64; N];
                match <&[u64; 4]>::try_from(&a.0[..]) {
                    Ok(a4) => out.copy_from_slice(&fixed::p25519::sqr::<true>(a4)),
                    _ => unreachable!("2^255 − 19 has four digits"),
                }
                Fe(out)
            }
            // P-521: 45 digit products and the fold in assembly on MULX/ADX (`fixed::p521`).
            (Representation::Standard, StandardReduction::Nist(NistPrime::P521)) => {
                self.p521(a, a, |a, _| fixed::p521::sqr::<CT>(a))
            }
            _ => self.reduce_wide::<CT>(&arith::sqr_wide(&a.0)),
        }
    }

    /// The field element of a double-length product `z < p²`.
    #[inline(always)]
    fn reduce_wide<const CT: bool>(&self, z: &Wide<N>) -> Fe<N> {
        Fe(match self.repr {
            Representation::Montgomery => arith::redc::<N, CT>(z, &self.p, self.m0inv),
            Representation::Standard => match &self.standard {
                StandardReduction::Nist(prime) => prime.reduce_wide::<N, CT>(z),
                StandardReduction::PseudoMersenne { bits, c } => {
                    fixed::pm_fold::<N, CT>(z, *bits, *c)
                }
                StandardReduction::Generic(r) => {
                    let mut out = [0u64; N];
                    r.reduce_raw(&mut out, arith::flat(z), &mut Scratch::new());
                    out
                }
            },
        })
    }

    /// `a^e` for a public exponent `e` (left-to-right square and multiply by
    /// [`PrimeField::mul`] and [`PrimeField::sqr`]). Variable time: leaks `e`, and `a`
    /// wherever `mul` does (the standard representation of a prime of no special form
    /// divides); for an inverse use [`PrimeField::inv`].
    pub fn pow_vartime(&self, a: &Fe<N>, e: &Nat) -> Fe<N> {
        let mut r = self.one();
        for i in (0..e.bits()).rev() {
            r = self.sqr(&r);
            if e.bit(i) {
                r = self.mul(&r, a);
            }
        }
        r
    }

    /// `a⁻¹` for `a ≠ 0`, and `0` for `a = 0` (Fermat: `a^(p−2)`, which is 0 for 0), in
    /// constant time: no branch and no memory index depends on `a`, for every prime and
    /// both representations (checked under valgrind by `crates/ct-check`, measured by its
    /// dudect tool: `docs/constant-time.md`). Test `a == f.zero()` first where zero must be
    /// told apart (that comparison is the caller's, and variable time).
    ///
    /// Fermat's little theorem (`a^(p−1) = 1` for `a ≠ 0`, HAC Fact 2.127) with a fixed
    /// 4-bit window over the public exponent `p − 2` (HAC Algorithm 14.82): the window
    /// digits, the table indices and the branches depend on `p` only. Every product is the
    /// constant-time Montgomery product (CIOS with a masked final subtraction, as in
    /// [`PrimeField::mul_ct`]'s Montgomery case): `a` goes into Montgomery's representation
    /// by one product with `R² mod p` (standard representation), and back by one with 1.
    /// About `bits(p)` squarings and `bits(p)/4 + 14` multiplications.
    pub fn inv(&self, a: &Fe<N>) -> Fe<N> {
        let (p, m0inv) = (&self.p, self.m0inv);
        let mont = |x: &[u64; N], y: &[u64; N]| arith::mont_mul::<N, true>(x, y, p, m0inv);
        let am = match self.repr {
            Representation::Montgomery => a.0,
            Representation::Standard => mont(&a.0, &self.r2),
        };
        // table[i] = a^i in Montgomery's representation, i = 1 … 15 (index 0 unused: a
        // zero digit of the public exponent is skipped).
        let mut table = [am; 16];
        for i in 2..16 {
            table[i] = mont(&table[i - 1], &am);
        }
        let e = &self.p_minus_2;
        let digits = e.bits().div_ceil(4);
        let digit = |i: u64| (0..4).fold(0usize, |d, b| d | (usize::from(e.bit(4 * i + b)) << b));
        // p ≥ 3, so e ≥ 1 and its top digit is not zero.
        let mut acc = table[digit(digits - 1)];
        for i in (0..digits - 1).rev() {
            for _ in 0..4 {
                acc = mont(&acc, &acc);
            }
            let d = digit(i);
            if d != 0 {
                acc = mont(&acc, &table[d]);
            }
        }
        Fe(match self.repr {
            Representation::Montgomery => acc,
            Representation::Standard => {
                let mut one = [0u64; N];
                one[0] = 1;
                mont(&acc, &one)
            }
        })
    }
}
