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
//! Inversion is Fermat's `a^(p−2)`; the exponent is public, so the square-and-multiply
//! leaks nothing about `a`. Multiplication is not constant time in the standard
//! representation (the special reductions branch on carries); the Montgomery one ends in
//! the branch-free conditional subtraction of [`crate::reduce`]'s Montgomery code.

// Digit loops over several fixed-size arrays at once (the carry chains) read best indexed.
#![allow(clippy::needless_range_loop)]

use crate::error::Error;
use crate::nat::Nat;
use crate::reduce::{make, pseudo_mersenne_form, NistPrime, Reducer, Scratch};
use crate::Algorithm;
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

/// `z = a·b` (`2N` digits), schoolbook with 128-bit products (unrolled for small `N`).
#[inline(always)]
fn mul_wide<const N: usize>(z: &mut [u64], a: &[u64; N], b: &[u64; N]) {
    z[..2 * N].fill(0);
    for i in 0..N {
        let mut carry = 0u64;
        for j in 0..N {
            let t = a[i] as u128 * b[j] as u128 + z[i + j] as u128 + carry as u128;
            z[i + j] = t as u64;
            carry = (t >> 64) as u64;
        }
        z[i + N] = carry;
    }
}

impl<const N: usize> PrimeField<N> {
    /// The field modulo the prime `p` (exactly `N` digits) in representation `repr`.
    ///
    /// Errors: [`Error::InvalidArgument`] when `p` does not have `N` digits, `N` is above
    /// [`MAX_LIMBS`], or `p` is not prime (Miller–Rabin, [`crate::primes`]).
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
        if !crate::primes::is_probable_prime(p) || p.bits() < 2 || !p.is_odd() {
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

    /// `a + b`.
    #[inline]
    pub fn add(&self, a: &Fe<N>, b: &Fe<N>) -> Fe<N> {
        let mut s = [0u64; N];
        let mut carry = false;
        for i in 0..N {
            let (v, c1) = a.0[i].overflowing_add(b.0[i]);
            let (v, c2) = v.overflowing_add(carry as u64);
            s[i] = v;
            carry = c1 | c2;
        }
        self.sub_p_if_needed(s, carry)
    }

    /// `v − p` if `carry·2^(64N) + v ≥ p`, else `v` (for `v < 2p`); branch-free.
    #[inline(always)]
    fn sub_p_if_needed(&self, v: [u64; N], carry: bool) -> Fe<N> {
        let mut d = [0u64; N];
        let mut borrow = false;
        for i in 0..N {
            let (x, b1) = v[i].overflowing_sub(self.p[i]);
            let (x, b2) = x.overflowing_sub(borrow as u64);
            d[i] = x;
            borrow = b1 | b2;
        }
        let keep_v = (!carry & borrow) as u64;
        let mask = 0u64.wrapping_sub(keep_v);
        let mut out = [0u64; N];
        for i in 0..N {
            out[i] = (v[i] & mask) | (d[i] & !mask);
        }
        Fe(out)
    }

    /// `a − b`.
    #[inline]
    pub fn sub(&self, a: &Fe<N>, b: &Fe<N>) -> Fe<N> {
        let mut d = [0u64; N];
        let mut borrow = false;
        for i in 0..N {
            let (v, b1) = a.0[i].overflowing_sub(b.0[i]);
            let (v, b2) = v.overflowing_sub(borrow as u64);
            d[i] = v;
            borrow = b1 | b2;
        }
        // Add p back when it borrowed (branch-free: p masked).
        let mask = 0u64.wrapping_sub(borrow as u64);
        let mut carry = false;
        for i in 0..N {
            let (v, c1) = d[i].overflowing_add(self.p[i] & mask);
            let (v, c2) = v.overflowing_add(carry as u64);
            d[i] = v;
            carry = c1 | c2;
        }
        Fe(d)
    }

    /// `−a`.
    #[inline]
    pub fn neg(&self, a: &Fe<N>) -> Fe<N> {
        self.sub(&self.zero(), a)
    }

    /// `a·b` (eq. 2.3 in Montgomery's representation).
    #[inline]
    pub fn mul(&self, a: &Fe<N>, b: &Fe<N>) -> Fe<N> {
        let mut z = [0u64; 2 * MAX_LIMBS];
        mul_wide(&mut z, &a.0, &b.0);
        self.reduce_wide(&mut z[..2 * N])
    }

    /// `a²`.
    #[inline]
    pub fn sqr(&self, a: &Fe<N>) -> Fe<N> {
        self.mul(a, a)
    }

    /// The field element of a double-length product `z < p²` (destroyed).
    #[inline(always)]
    fn reduce_wide(&self, z: &mut [u64]) -> Fe<N> {
        let mut out = [0u64; N];
        match self.repr {
            Representation::Montgomery => {
                crate::reduce::montgomery::redc_in_place(&mut out, z, &self.p, self.m0inv);
            }
            Representation::Standard => match &self.standard {
                StandardReduction::Nist(prime) => prime.reduce_u64(&mut out, z),
                StandardReduction::PseudoMersenne { bits, c } => {
                    pm_fold(&mut out, z, *bits, *c, &self.p)
                }
                StandardReduction::Generic(r) => {
                    r.reduce_raw(&mut out, z, &mut Scratch::new());
                }
            },
        }
        Fe(out)
    }

    /// `a^e` for a public exponent `e` (left-to-right square and multiply; leaks `e`).
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

    /// `a⁻¹` by Fermat (`a^(p−2)`); `None` for `a = 0`.
    pub fn inv(&self, a: &Fe<N>) -> Option<Fe<N>> {
        if a.0 == [0; N] {
            return None;
        }
        Some(self.pow_vartime(a, &self.p_minus_2))
    }
}

/// `z mod p` for `p = 2^bits − c`, `c` one digit with `2·bits(c) < bits`, `z < 2^(2·bits)`:
/// the two folds of [`crate::reduce::PseudoMersenne`] (paper 003, Algorithm 4 and its
/// extension to `bits` not a multiple of 64) on fixed-size digits.
#[inline(always)]
fn pm_fold<const N: usize>(out: &mut [u64; N], z: &[u64], bits: u32, c: u64, p: &[u64; N]) {
    let s = bits - 64 * (N as u32 - 1); // 1 ..= 64
    let mask = if s == 64 { u64::MAX } else { (1u64 << s) - 1 };
    let hi = |i: usize| -> u64 {
        // digit i of z >> bits
        let lo = z[N - 1 + i];
        let up = if N + i < z.len() { z[N + i] } else { 0 };
        if s == 64 {
            up
        } else {
            (lo >> s) | (up << (64 - s))
        }
    };
    let mut r = [0u64; N];
    r.copy_from_slice(&z[..N]);
    r[N - 1] &= mask;
    // t = r + q·c
    let mut carry = 0u64;
    for i in 0..N {
        let t = hi(i) as u128 * c as u128 + r[i] as u128 + carry as u128;
        r[i] = t as u64;
        carry = (t >> 64) as u64;
    }
    let q2 = if s == 64 { carry } else { (carry << (64 - s)) | (r[N - 1] >> s) };
    r[N - 1] &= mask;
    let t = q2 as u128 * c as u128;
    let mut acc = t;
    let mut top = false;
    for v in r.iter_mut() {
        let x = *v as u128 + (acc as u64) as u128;
        *v = x as u64;
        acc = (acc >> 64) + (x >> 64);
    }
    if acc != 0 {
        top = true;
    }
    let mut d = [0u64; N];
    let mut borrow = false;
    for i in 0..N {
        let (x, b1) = r[i].overflowing_sub(p[i]);
        let (x, b2) = x.overflowing_sub(borrow as u64);
        d[i] = x;
        borrow = b1 | b2;
    }
    *out = if top || !borrow { d } else { r };
}
