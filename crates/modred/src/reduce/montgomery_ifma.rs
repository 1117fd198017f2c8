//! Montgomery exponentiation in radix 2^52 on AVX-512 IFMA (x86-64), for odd moduli of
//! [`MIN_BITS`] to [`MAX_BITS`] bits: the word-level Montgomery method (paper 000,
//! Algorithm 3, interleaved as CIOS) with 52-bit digits eight to a register, the almost
//! Montgomery multiplication of [`crate::kernels::arch::ifma`] (as OpenSSL's RSAZ code).
//!
//! Numbers are converted into radix 2^52 and into the representation `x·R' mod m`,
//! `R' = 2^(52n)`, once per exponentiation, and back once at its end; in between every
//! value is an *almost* reduced residue below `2m` (the final subtraction is deferred to the
//! end). Not a [`super::Reducer`]: the reducers' residues are `u64` digits below `m`, and
//! converting at every multiplication would cost more than it saves for one product.
//! [`crate::Modulus`] uses it for the exponentiations of its Montgomery reducers when the
//! CPU has IFMA.

use super::Scratch;
use crate::exp::{self, Method, MulSqr};
use crate::kernels::arch::ifma::{self, DIGIT_BITS, DIGIT_MASK, LANES, MAX_REGS};
use crate::limb::Limb;
use crate::nat::Nat;

/// The smallest modulus (bits) this path takes. At 1024 bits and above it measured 2–7
/// times faster than the word-level (ADX) Montgomery exponentiation (`cargo bench -p
/// modred-bench --bench issue8`: `powm` against `powm-word`); 512 is a provisional bound
/// below which the fixed costs (the scalar normalization of every product, the
/// conversions) are expected to eat the gain — not yet measured: run the same bench with
/// `ISSUE8_BITS=256,384,512,768` to place it.
pub(crate) const MIN_BITS: u64 = 512;

/// The smallest modulus (bits) for which one Montgomery product ([`MontgomeryIfma::mul_word`],
/// two vector products and three conversions) beats the word-level one. Measured with
/// `cargo bench -p modred-bench --bench issue8` (one run, interleaved): `Modulus::mul` on
/// IFMA against the CIOS reducer 1.61× slower at 1024 bits, equal at 2048, 0.64× at
/// 4096 (0.57× at 3072 in an earlier run).
pub(crate) const MUL_MIN_BITS: u64 = 2049;

/// The largest modulus (bits): `4m ≤ 2^(52n)` with `n ≤ 80` digits, the lane-overflow bound
/// of [`ifma::amm`].
pub(crate) const MAX_BITS: u64 = 52 * (LANES * MAX_REGS) as u64 - 2;

/// Montgomery arithmetic modulo an odd `m` in radix 2^52 on AVX-512 IFMA.
#[derive(Clone, Debug)]
pub(crate) struct MontgomeryIfma {
    /// `m` in `8·regs` 52-bit digits.
    m: Vec<u64>,
    /// `m` in `u64` digits, for the final comparison.
    m64: Vec<u64>,
    /// `−m⁻¹ mod 2^52`.
    m0inv: u64,
    /// `R'² mod m` in 52-bit digits, `R' = 2^(52n)`.
    rr: Vec<u64>,
    /// `n`, the digit steps per multiplication: the fewest with `4m ≤ 2^(52n)`.
    n: usize,
    /// `2^(104n − 64k) mod m` in 52-bit digits (`k` the u64 digits of `m`): one almost
    /// Montgomery product with it turns `x·2^(−52n)` into `x·2^(−64k)`, the word-level
    /// Montgomery factor.
    to_word: Vec<u64>,
}

impl MontgomeryIfma {
    /// The context for `m`, or `None` when the CPU lacks AVX-512 IFMA, `m` is even, or its
    /// size is outside [`MIN_BITS`]`..=`[`MAX_BITS`].
    #[cfg_attr(feature = "portable", allow(dead_code))] // only `Modulus` calls it
    pub(crate) fn new(m: &Nat<u64>) -> Option<Self> {
        if !ifma::has_ifma() {
            return None;
        }
        Self::new_unchecked_cpu(m)
    }

    /// As [`MontgomeryIfma::new`] without the CPU check (the tests build the context to
    /// run its portable twin).
    fn new_unchecked_cpu(m: &Nat<u64>) -> Option<Self> {
        let bits = m.bits();
        if !m.is_odd() || !(MIN_BITS..=MAX_BITS).contains(&bits) {
            return None;
        }
        let n = (bits as usize + 2).div_ceil(DIGIT_BITS as usize);
        let len = n.div_ceil(LANES) * LANES;
        // −m⁻¹ mod 2^52 from the 64-bit inverse (m⁻¹ mod 2^64 is m⁻¹ mod 2^52 too).
        let m0inv = m.limbs()[0].inverse_mod_b().wrapping_neg() & DIGIT_MASK;
        let rr = Nat::power_of_two(2 * DIGIT_BITS as u64 * n as u64).checked_rem(m)?;
        let shift = 2 * DIGIT_BITS as u64 * n as u64 - 64 * m.len() as u64;
        let to_word = Nat::power_of_two(shift).checked_rem(m)?;
        Some(MontgomeryIfma {
            m: to_radix52(m.limbs(), len),
            m64: m.limbs().to_vec(),
            m0inv,
            rr: to_radix52(rr.limbs(), len),
            n,
            to_word: to_radix52(to_word.limbs(), len),
        })
    }

    /// Whether [`MontgomeryIfma::mul_word`] pays for one product ([`MUL_MIN_BITS`]).
    pub(crate) fn mul_pays(&self) -> bool {
        self.m64.len() as u64 * 64 >= MUL_MIN_BITS
    }

    /// Digits per number (`8·regs`).
    fn len(&self) -> usize {
        self.m.len()
    }

    /// `out = AMM(a, b)`.
    #[inline]
    fn amm(&self, out: &mut [u64], a: &[u64], b: &[u64]) {
        #[cfg(test)]
        if !ifma::has_ifma() {
            ifma::amm_portable(out, a, b, &self.m, self.m0inv, self.n);
            return;
        }
        // SAFETY: a context exists only where `has_ifma` said yes (`new`), or, in the
        // tests, the line above ran the portable twin instead.
        unsafe { ifma::amm(out, a, b, &self.m, self.m0inv, self.n) }
    }

    /// The representation `x·R' mod m` (below `2m`) of `x < m`.
    fn enter(&self, x: &Nat<u64>) -> Vec<u64> {
        let mut out = vec![0; self.len()];
        self.amm(&mut out, &to_radix52(x.limbs(), self.len()), &self.rr);
        out
    }

    /// The value `< m` an almost reduced residue `v < 2m` stands for.
    fn leave(&self, v: &[u64]) -> Nat<u64> {
        let mut one = vec![0; self.len()];
        one[0] = 1;
        let mut out = vec![0; self.len()];
        // (v + y·m)/R' < 2m/R' + m: at most m, and m only for v ≡ 0.
        self.amm(&mut out, v, &one);
        let x = Nat::from_vec(from_radix52(&out, self.m64.len() + 1));
        if x.limbs() == self.m64.as_slice() {
            Nat::zero()
        } else {
            x
        }
    }

    /// `base^e mod m` for `base < m`, by `method` (as [`exp::pow_vartime`]; the window
    /// must be valid). Variable time: leaks the exponent.
    pub(crate) fn pow_vartime(&self, base: &Nat<u64>, e: &Nat<u64>, method: Method) -> Nat<u64> {
        if e.is_zero() {
            return Nat::one().checked_rem(&Nat::from_vec(self.m64.clone())).unwrap_or_default();
        }
        let b = self.enter(base);
        let mut scratch = Scratch::new();
        let r = exp::pow_loops(self, &b, e, method, &mut scratch);
        self.leave(&r)
    }

    /// `out = a·b·2^(−64k) mod m` for `a, b < m` in `k` u64 digits (`k` those of `m`): the
    /// word-level Montgomery product ([`super::Montgomery`]'s `mul`, same representation),
    /// by two almost Montgomery products in radix 2^52 — `t = AMM(a, b) = a·b·2^(−52n)`,
    /// then `AMM(t, 2^(104n − 64k)) = a·b·2^(−64k)` — and one final subtraction. No
    /// allocation: the 52-bit digits live on the stack.
    pub(crate) fn mul_word(&self, out: &mut [u64], a: &[u64], b: &[u64]) {
        let len = self.len();
        let k = self.m64.len();
        debug_assert!(a.len() == k && b.len() == k && out.len() == k);
        let mut buf = [[0u64; LANES * MAX_REGS]; 3];
        let [a52, b52, t] = &mut buf;
        let (a52, b52, t) = (&mut a52[..len], &mut b52[..len], &mut t[..len]);
        to_radix52_into(a, a52);
        if core::ptr::eq(a, b) {
            self.amm(t, a52, a52);
        } else {
            to_radix52_into(b, b52);
            self.amm(t, a52, b52);
        }
        self.amm(a52, t, &self.to_word);
        // Below 2m: at most k + 1 u64 digits, then one subtraction of m when ≥ m.
        let mut wide = [0u64; (LANES * MAX_REGS * 52).div_ceil(64) + 1];
        let wide = &mut wide[..k + 1];
        from_radix52_into(a52, wide);
        let (low, top) = wide.split_at_mut(k);
        super::montgomery::conditional_subtract(out, low, top[0] != 0, &self.m64);
    }

    /// `a·b mod m` for `a, b < m`.
    #[cfg(test)]
    fn mul_mod(&self, a: &Nat<u64>, b: &Nat<u64>) -> Nat<u64> {
        let (a, b) = (self.enter(a), self.enter(b));
        let mut p = vec![0; self.len()];
        self.amm(&mut p, &a, &b);
        self.leave(&p)
    }
}

impl MulSqr<u64> for MontgomeryIfma {
    #[inline]
    fn mul(&self, out: &mut [u64], a: &[u64], b: &[u64], _: &mut Scratch<u64>) {
        self.amm(out, a, b);
    }
    #[inline]
    fn sqr(&self, out: &mut [u64], a: &[u64], _: &mut Scratch<u64>) {
        self.amm(out, a, a);
    }
}

/// `x` (u64 digits) in `len` 52-bit digits; `x` must fit.
fn to_radix52(x: &[u64], len: usize) -> Vec<u64> {
    let mut out = vec![0; len];
    to_radix52_into(x, &mut out);
    out
}

/// `x` (u64 digits) in the 52-bit digits `out`; `x` must fit.
fn to_radix52_into(x: &[u64], out: &mut [u64]) {
    for (j, o) in out.iter_mut().enumerate() {
        let bit = j * DIGIT_BITS as usize;
        let (w, s) = (bit / 64, bit % 64);
        let lo = x.get(w).map_or(0, |&v| v >> s);
        let hi = if s > 64 - DIGIT_BITS as usize {
            x.get(w + 1).map_or(0, |&v| v << (64 - s))
        } else {
            0
        };
        *o = (lo | hi) & DIGIT_MASK;
    }
}

/// 52-bit digits `d` (each below 2^52) as `len` u64 digits; the value must fit.
fn from_radix52(d: &[u64], len: usize) -> Vec<u64> {
    let mut out = vec![0u64; len];
    from_radix52_into(d, &mut out);
    out
}

/// 52-bit digits `d` (each below 2^52) into the u64 digits `out`; the value must fit.
fn from_radix52_into(d: &[u64], out: &mut [u64]) {
    out.fill(0);
    for (j, &v) in d.iter().enumerate() {
        let bit = j * DIGIT_BITS as usize;
        let (w, s) = (bit / 64, bit % 64);
        if v == 0 {
            continue;
        }
        let Some(o) = out.get_mut(w) else {
            debug_assert!(false, "the value does not fit");
            return;
        };
        *o |= v << s;
        if s > 64 - DIGIT_BITS as usize {
            match out.get_mut(w + 1) {
                Some(o) => *o |= v >> (64 - s),
                None => debug_assert_eq!(v >> (64 - s), 0, "the value does not fit"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::Reducer;
    use crate::rng::SplitMix64;

    fn random_nat(rng: &mut SplitMix64, bits: u64) -> Nat<u64> {
        let words = bits.div_ceil(64) as usize;
        let mut v: Vec<u64> = (0..words).map(|_| rng.next_u64()).collect();
        let top = bits % 64;
        if top != 0 {
            v[words - 1] &= (1u64 << top) - 1;
        }
        Nat::from_vec(v)
    }

    fn odd_modulus(rng: &mut SplitMix64, bits: u64) -> Nat<u64> {
        let mut v = random_nat(rng, bits).into_limbs();
        v.resize(bits.div_ceil(64) as usize, 0);
        v[0] |= 1;
        let top = (bits - 1) % 64;
        *v.last_mut().unwrap() |= 1 << top;
        Nat::from_vec(v)
    }

    #[test]
    fn radix52_round_trip() {
        let mut rng = SplitMix64::new(52);
        for bits in [1u64, 52, 64, 104, 500, 1024, 4096] {
            let x = random_nat(&mut rng, bits);
            let len = (bits as usize).div_ceil(52).div_ceil(8) * 8;
            let d = to_radix52(x.limbs(), len);
            assert!(d.iter().all(|&v| v <= DIGIT_MASK));
            assert_eq!(Nat::from_vec(from_radix52(&d, bits.div_ceil(64) as usize)), x);
        }
    }

    /// The IFMA kernel against its portable twin, digit for digit, on random and edge
    /// operands (all-ones digits, m − 1, 0, values up to 2m − 1), every register count.
    #[test]
    fn amm_matches_portable_twin() {
        if !ifma::has_ifma() {
            eprintln!(
                "no AVX-512 IFMA on this CPU: the kernel is not run (the twin is tested below)"
            );
            return;
        }
        let mut rng = SplitMix64::new(0x1f3a);
        for regs in 1..=MAX_REGS {
            let len = 8 * regs;
            for &n in &[len, len - 1, len.saturating_sub(5).max(1)] {
                let bits = 52 * n as u64 - 2;
                for round in 0..8 {
                    let m = if round == 0 {
                        Nat::power_of_two(bits).checked_sub(&Nat::one()).unwrap()
                    // all ones
                    } else {
                        odd_modulus(&mut rng, bits - (round % 3) * 17)
                    };
                    let md = to_radix52(m.limbs(), len);
                    let m0inv = m.limbs()[0].inverse_mod_b().wrapping_neg() & DIGIT_MASK;
                    let two_m = m.shl(1);
                    let edge = |i: u32, rng: &mut SplitMix64| -> Nat<u64> {
                        match i {
                            0 => Nat::zero(),
                            1 => m.checked_sub(&Nat::one()).unwrap(),
                            2 => two_m.checked_sub(&Nat::one()).unwrap(),
                            3 => Nat::one(),
                            _ => random_nat(rng, bits + 1).checked_rem(&two_m).unwrap(),
                        }
                    };
                    for i in 0..7 {
                        let (a, b) = (edge(i, &mut rng), edge((i + 3) % 7, &mut rng));
                        let (ad, bd) = (to_radix52(a.limbs(), len), to_radix52(b.limbs(), len));
                        let (mut fast, mut slow) = (vec![0; len], vec![0; len]);
                        // SAFETY: the CPU has IFMA (checked at the top).
                        unsafe { ifma::amm(&mut fast, &ad, &bd, &md, m0inv, n) };
                        ifma::amm_portable(&mut slow, &ad, &bd, &md, m0inv, n);
                        assert_eq!(fast, slow, "regs {regs}, n {n}, round {round}, case {i}");
                        // And the value: a·b·2^(−52n) mod m, below 2m.
                        let v = Nat::from_vec(from_radix52(&fast, len));
                        assert!(v < two_m);
                        let lhs = v.shl(52 * n as u64).checked_rem(&m).unwrap();
                        assert_eq!(lhs, a.mul(&b).checked_rem(&m).unwrap());
                    }
                }
            }
        }
    }

    /// Multiplication and exponentiation through the context (the IFMA kernel where the
    /// CPU has it, else the portable twin) against plain `Nat` arithmetic.
    #[test]
    fn pow_and_mul_agree_with_nat() {
        let mut rng = SplitMix64::new(0x7a11);
        for bits in [512u64, 700, 1024, 1500, 2048, 3072, 4094, MAX_BITS] {
            let m = odd_modulus(&mut rng, bits);
            let ctx = MontgomeryIfma::new_unchecked_cpu(&m).unwrap();
            let a = random_nat(&mut rng, bits).checked_rem(&m).unwrap();
            let b = m.checked_sub(&Nat::one()).unwrap();
            assert_eq!(ctx.mul_mod(&a, &b), a.mul(&b).checked_rem(&m).unwrap());
            assert_eq!(ctx.mul_mod(&b, &b), Nat::one());
            let e = random_nat(&mut rng, 80);
            let want = Nat::from_vec(
                crate::exp::pow_vartime(
                    &crate::reduce::Classical::new(&m).unwrap(),
                    &a.to_padded(m.len()).unwrap(),
                    &e,
                    Method::SlidingWindow(4),
                )
                .unwrap(),
            );
            for method in [Method::Binary, Method::FixedWindow(5), Method::SlidingWindow(6)] {
                assert_eq!(ctx.pow_vartime(&a, &e, method), want, "{bits} bits, {method:?}");
            }
            assert_eq!(ctx.pow_vartime(&b, &Nat::from(2u64), Method::Binary), Nat::one());
            assert_eq!(ctx.pow_vartime(&Nat::zero(), &e, Method::Binary), Nat::zero());
            assert_eq!(ctx.pow_vartime(&a, &Nat::zero(), Method::Binary), Nat::one());
        }
    }

    /// The word-level Montgomery product through radix 2^52 against the separated
    /// Montgomery reducer, on random and edge residues (0, 1, m − 1, all-ones moduli).
    #[test]
    fn mul_word_matches_word_level_montgomery() {
        let mut rng = SplitMix64::new(0x3017);
        for bits in [512u64, 640, 1024, 1030, 2048, 2049, 3072, 4096, MAX_BITS] {
            for round in 0..3 {
                let m = if round == 0 {
                    Nat::power_of_two(bits).checked_sub(&Nat::one()).unwrap()
                } else {
                    odd_modulus(&mut rng, bits)
                };
                let ctx = MontgomeryIfma::new_unchecked_cpu(&m).unwrap();
                let mont = crate::reduce::Montgomery::new(&m).unwrap();
                let k = m.len();
                let values = [
                    Nat::zero(),
                    Nat::one(),
                    m.checked_sub(&Nat::one()).unwrap(),
                    random_nat(&mut rng, bits).checked_rem(&m).unwrap(),
                    random_nat(&mut rng, bits).checked_rem(&m).unwrap(),
                ];
                for x in &values {
                    for y in &values {
                        let (rx, ry) = (mont.to_residue(x), mont.to_residue(y));
                        let (mut fast, mut want) = (vec![0; k], vec![0; k]);
                        ctx.mul_word(&mut fast, &rx, &ry);
                        Reducer::mul(&mont, &mut want, &rx, &ry, &mut Scratch::new());
                        assert_eq!(fast, want, "{bits} bits");
                        ctx.mul_word(&mut fast, &rx, &rx);
                        Reducer::sqr(&mont, &mut want, &rx, &mut Scratch::new());
                        assert_eq!(fast, want, "{bits} bits, square");
                    }
                }
            }
        }
    }

    #[test]
    fn sizes_outside_the_range_and_even_moduli_are_refused() {
        let mut rng = SplitMix64::new(3);
        assert!(MontgomeryIfma::new_unchecked_cpu(&odd_modulus(&mut rng, MIN_BITS - 1)).is_none());
        assert!(MontgomeryIfma::new_unchecked_cpu(&odd_modulus(&mut rng, MAX_BITS + 1)).is_none());
        assert!(MontgomeryIfma::new_unchecked_cpu(&Nat::power_of_two(1024)).is_none());
    }
}
