//! Montgomery arithmetic in radix 2^28 on AVX2, for the exponentiations on CPUs with AVX2
//! and without BMI2/ADX (where the scalar product runs without MULX and ADCX/ADOX): the
//! context of a modulus and its digit conversions. The product is the kernel
//! `kernels::arch::avx2::radix28::amm` (almost Montgomery, output below `2m`);
//! `ct::MontgomeryCt::pow` runs its exponentiation on it where
//! [`crate::engine::rule::montgomery_ct_avx2`] says so, and [`crate::Modulus`]'s
//! variable-time exponentiation ([`PowerAvx2`]) where
//! [`crate::engine::rule::montgomery_avx2_power`] does.
//!
//! The context keeps its own representation, `x·R' mod m` (below `2m`) with `R' =
//! 2^(28n)`, `n` digits a multiple of 4 with `R' > 4m`, and converts from and to the
//! constant-time context's `x·R mod m` (`R = 2^(64k)`) with one product each:
//! `amm(x·R, 2^(56n − 64k) mod m) = x·R'` and `amm(y·R', R mod m) = y·R`.

// With the `portable` feature only the tests use it.
#![cfg_attr(not(x86_kernels), allow(dead_code))]

use crate::error::Error;
use crate::exp::{self, Method, MulSqr};
use crate::kernels::arch::avx2::radix28::{self, DIGIT_BITS, DIGIT_MASK};
use crate::limb::Limb;
use crate::nat::Nat;
use crate::reduce::Scratch;
use alloc::vec;
use alloc::vec::Vec;

/// The radix-2^28 context of an odd modulus (module docs).
#[derive(Clone, Debug)]
pub(crate) struct MontgomeryAvx2 {
    /// Digits of the representation, a multiple of 4.
    n: usize,
    /// `m` in `n` digits, padded (`radix28::padded_len`).
    m: Vec<u64>,
    /// `−m^(−1) mod 2^28`.
    m0inv: u64,
    /// `2^(56n − 64k) mod m` in `n` digits, padded: into the representation.
    into: Vec<u64>,
    /// `R mod m = 2^(64k) mod m` in `n` digits, padded: out of it.
    out_of: Vec<u64>,
    /// `R' mod m`, the representation of 1, in `n` digits.
    one: Vec<u64>,
    /// `R'² mod m` in `n` digits, padded: from a value below `m` into the representation.
    rr: Vec<u64>,
    /// 1 in `n` digits, padded: out of the representation to the value.
    unit: Vec<u64>,
    /// The 64-bit digits of `m`.
    k: usize,
}

/// The digits of the representation for a modulus of `k` 64-bit digits: the least
/// multiple of 4 with `2^(28n) ≥ 2^(64k + 2) > 4m`.
pub(crate) fn digits_for(k: usize) -> usize {
    (64 * k + 2).div_ceil(DIGIT_BITS as usize).next_multiple_of(4)
}

/// `x` (64-bit digits, below `2^(28n)`) in `n` digits of 28 bits.
pub(crate) fn to_radix28(x: &[u64], n: usize) -> Vec<u64> {
    let mut out = vec![0u64; n];
    super::radix::to_small_digits::<DIGIT_BITS>(x, &mut out);
    out
}

/// Normalized 28-bit digits in `k` 64-bit digits (the value must fit).
pub(crate) fn from_radix28(d: &[u64], k: usize) -> Vec<u64> {
    let mut out = vec![0u64; k];
    super::radix::from_small_digits::<DIGIT_BITS>(d, &mut out);
    out
}

/// `x` in `n` digits with four zero digits before and after.
fn padded(x: &[u64]) -> Vec<u64> {
    let mut p = vec![0u64; radix28::padded_len(x.len())];
    p[4..4 + x.len()].copy_from_slice(x);
    p
}

impl MontgomeryAvx2 {
    /// The context for an odd `m` of `k` digits (`m` below `2^(64k)`, `k` at most 32), or
    /// `None` for an even or too long `m`. Variable time in `m`, which is public.
    pub(crate) fn new(m: &Nat<u64>) -> Option<Self> {
        let k = m.len();
        let n = digits_for(k);
        if !m.is_odd() || k == 0 || n > radix28::MAX_DIGITS {
            return None;
        }
        let m28 = to_radix28(m.limbs(), n);
        let m0inv = m.limbs()[0].inverse_mod_b().wrapping_neg() & DIGIT_MASK;
        let (bits_r, bits_rp) = (64 * k as u64, 28 * n as u64);
        let residue = |bits: u64| {
            let r = Nat::power_of_two(bits).checked_rem(m).unwrap_or_default();
            to_radix28(r.limbs(), n)
        };
        Some(MontgomeryAvx2 {
            n,
            m: padded(&m28),
            m0inv,
            into: padded(&residue(2 * bits_rp - bits_r)),
            out_of: padded(&residue(bits_r)),
            one: residue(bits_rp),
            rr: padded(&residue(2 * bits_rp)),
            unit: padded(&to_radix28(&[1], n)),
            k,
        })
    }

    /// Digits of the representation.
    pub(crate) fn digits(&self) -> usize {
        self.n
    }

    /// The bytes of its numbers on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        [&self.m, &self.into, &self.out_of, &self.one, &self.rr, &self.unit]
            .iter()
            .map(|v| crate::nat::vec_bytes(v))
            .sum()
    }

    /// `R' mod m`, the representation of 1.
    pub(crate) fn one(&self) -> &[u64] {
        &self.one
    }

    /// Working space for [`MontgomeryAvx2::mul`]: the padded operand, then the columns.
    pub(crate) fn scratch(&self) -> Vec<u64> {
        vec![0u64; radix28::padded_len(self.n) + radix28::scratch_len(self.n)]
    }

    /// `out = a·b·R'^(−1) mod m`, below `2m`, for `a, b < 2m` in `n` normalized digits;
    /// `work` from [`MontgomeryAvx2::scratch`]. Constant time.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn mul(&self, out: &mut [u64], a: &[u64], b: &[u64], work: &mut [u64]) {
        let n = self.n;
        let (bp, t) = work.split_at_mut(radix28::padded_len(n));
        bp[..4].fill(0);
        bp[4..4 + n].copy_from_slice(b);
        bp[4 + n..].fill(0);
        // SAFETY: the caller guarantees AVX2; the lengths are the context's.
        unsafe { radix28::amm(out, a, bp, &self.m, self.m0inv, t) };
    }

    /// [`MontgomeryAvx2::mul`] by a padded constant of the context.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    unsafe fn mul_padded(&self, out: &mut [u64], a: &[u64], bp: &[u64], work: &mut [u64]) {
        let t = &mut work[radix28::padded_len(self.n)..];
        // SAFETY: the caller guarantees AVX2; the lengths are the context's.
        unsafe { radix28::amm(out, a, bp, &self.m, self.m0inv, t) };
    }

    /// `x·R mod m` (`k` 64-bit digits, below `m`) as `x·R' mod m` (below `2m`).
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn enter(&self, x: &[u64], work: &mut [u64]) -> Vec<u64> {
        let mut out = vec![0u64; self.n];
        // SAFETY: the caller guarantees AVX2.
        unsafe { self.mul_padded(&mut out, &to_radix28(x, self.n), &self.into, work) };
        out
    }

    /// `y·R' mod m` (below `2m`) as `y·R mod m` (below `2m`) in `k + 1` 64-bit digits, the
    /// top one 0 or 1; the caller's final subtraction makes it below `m`.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn leave(&self, y: &[u64], work: &mut [u64]) -> Vec<u64> {
        let mut v = vec![0u64; self.n];
        // SAFETY: the caller guarantees AVX2.
        unsafe { self.mul_padded(&mut v, y, &self.out_of, work) };
        // v < 2m < 2^(64k + 1): one more 64-bit digit for its top bit.
        from_radix28(&v, self.k + 1)
    }
}

/// A [`MontgomeryAvx2`] built on a CPU with AVX2 (the only way to make one): the
/// variable-time exponentiation of [`crate::Modulus`]'s Montgomery contexts, by any
/// [`Method`], on its almost Montgomery products, where
/// [`crate::engine::rule::montgomery_avx2_power`] takes it.
#[derive(Clone, Debug)]
pub(crate) struct PowerAvx2(MontgomeryAvx2);

impl PowerAvx2 {
    /// The context for an odd `m` where the rule takes this path on this CPU (AVX2, no
    /// BMI2/ADX, its widths), else `None`.
    pub(crate) fn new(m: &Nat<u64>) -> Option<Self> {
        if !super::rule::montgomery_avx2_power(m.len()) {
            return None;
        }
        Self::new_on_avx2(m)
    }

    /// As [`PowerAvx2::new`] for any width the kernel takes, on any CPU with AVX2 (the
    /// tests run it where the rule would not).
    fn new_on_avx2(m: &Nat<u64>) -> Option<Self> {
        if !crate::kernels::cpu::avx2() {
            return None;
        }
        MontgomeryAvx2::new(m).map(PowerAvx2)
    }

    /// Digits of the representation (each a `u64`).
    pub(crate) fn digits(&self) -> usize {
        self.0.n
    }

    /// The bytes of its numbers on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.0.heap_bytes()
    }

    /// `base^e mod m` for `base < m` by `method` (as [`exp::pow_vartime`]; the window must
    /// be valid), in the representation `x·R'` throughout: one product in (by `R'² mod m`),
    /// one out (by 1, which leaves at most `m`, and `m` only for a zero power). Variable
    /// time: leaks the exponent. [`Error::OutOfMemory`] when the system refuses the window
    /// table.
    pub(crate) fn pow_vartime(
        &self,
        base: &Nat<u64>,
        e: &Nat<u64>,
        method: Method,
    ) -> Result<Nat<u64>, Error> {
        let ctx = &self.0;
        let m28 = &ctx.m[4..4 + ctx.n];
        if e.is_zero() {
            let m = Nat::from_vec(from_radix28(m28, ctx.k));
            return Ok(Nat::one().checked_rem(&m).unwrap_or_default());
        }
        let mut scratch = Scratch::new();
        let mut x = vec![0u64; ctx.n];
        // SAFETY: a `PowerAvx2` exists only on a CPU with AVX2 (`new_on_avx2`).
        unsafe {
            let work = self.work(&mut scratch);
            ctx.mul_padded(&mut x, &to_radix28(base.limbs(), ctx.n), &ctx.rr, work);
        }
        let y = exp::pow_loops(self, &x, e, method, &mut scratch)?;
        let mut v = vec![0u64; ctx.n];
        // SAFETY: as above.
        unsafe { ctx.mul_padded(&mut v, &y, &ctx.unit, self.work(&mut scratch)) };
        // Normalized digits are unique: `v = m` (a zero power) compares digit by digit.
        if v == m28 {
            return Ok(Nat::zero());
        }
        Ok(Nat::from_vec(from_radix28(&v, ctx.k)))
    }

    /// The products' working space, grown once: its contents are never read before
    /// written.
    fn work<'s>(&self, scratch: &'s mut Scratch<u64>) -> &'s mut [u64] {
        let len = radix28::padded_len(self.0.n) + radix28::scratch_len(self.0.n);
        if scratch.work.len() < len {
            scratch.work.resize(len, 0);
        }
        &mut scratch.work[..len]
    }
}

impl MulSqr<u64> for PowerAvx2 {
    #[inline]
    fn mul(&self, out: &mut [u64], a: &[u64], b: &[u64], scratch: &mut Scratch<u64>) {
        // SAFETY: a `PowerAvx2` exists only on a CPU with AVX2 (`new_on_avx2`).
        unsafe { self.0.mul(out, a, b, self.work(scratch)) };
    }
    #[inline]
    fn sqr(&self, out: &mut [u64], a: &[u64], scratch: &mut Scratch<u64>) {
        // SAFETY: as in `mul`.
        unsafe { self.0.mul(out, a, a, self.work(scratch)) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use modred_testkit::SplitMix64;
    use std::eprintln;

    /// `x^e mod m` by square-and-multiply on `Nat`: the reference.
    fn nat_pow(x: &Nat<u64>, e: &Nat<u64>, m: &Nat<u64>) -> Nat<u64> {
        let mut y = Nat::one().checked_rem(m).unwrap();
        for i in (0..e.bits()).rev() {
            y = y.mul(&y).checked_rem(m).unwrap();
            if e.bit(i) {
                y = y.mul(x).checked_rem(m).unwrap();
            }
        }
        y
    }

    /// The variable-time exponentiation in radix 2^28 against square-and-multiply on
    /// `Nat`, at widths the kernel takes inside and outside the rule's (1–32 digits; the
    /// rule takes 9–32), by each kind of method, with all-ones moduli, a top digit of 1,
    /// bases 0, 1, `m − 1` and random, exponents 0, 1, all ones and random. Then, where the
    /// rule takes the path on this CPU (AVX2 without BMI2/ADX: CI runs this test with
    /// `MODRED_CPU_OFF=bmi2,avx512ifma`), [`crate::Modulus`]'s plan and result.
    #[test]
    fn power_agrees_with_nat_square_and_multiply() {
        if !crate::kernels::cpu::avx2() {
            eprintln!("skipped: this CPU has no AVX2");
            return;
        }
        let mut rng = SplitMix64::new(0x28e1);
        let methods = [Method::Binary, Method::FixedWindow(4), Method::SlidingWindow(5)];
        let mut chosen = 0;
        for k in [1usize, 2, 7, 8, 9, 12, 16, 17, 31, 32] {
            for round in 0..3 {
                let mut m = random_nat(&mut rng, k).limbs().to_vec();
                m[0] |= 1;
                match round {
                    0 => m.fill(u64::MAX),
                    1 => m[k - 1] = 1,
                    _ => m[k - 1] |= 1 << 63,
                }
                let m = Nat::from_vec(m);
                let power = PowerAvx2::new_on_avx2(&m).expect("odd, at most 32 digits");
                let bases = [
                    Nat::zero(),
                    Nat::one(),
                    m.checked_sub(&Nat::one()).unwrap(),
                    random_nat(&mut rng, k).checked_rem(&m).unwrap(),
                ];
                let elen = 1 + round * k / 2;
                let es = [
                    Nat::zero(),
                    Nat::one(),
                    Nat::from_vec(vec![u64::MAX; elen]),
                    random_nat(&mut rng, elen),
                ];
                for (i, x) in bases.iter().enumerate() {
                    for e in &es {
                        let want = nat_pow(x, e, &m);
                        let method = methods[(i + round) % methods.len()];
                        let got = power.pow_vartime(x, e, method).unwrap();
                        assert_eq!(got, want, "{k} digits, {method:?}, exponent {e:x?}");
                    }
                }
                if crate::engine::rule::montgomery_avx2_power(k) {
                    chosen += 1;
                    let ctx = crate::Modulus::with(crate::Algorithm::Montgomery, &m).unwrap();
                    assert_eq!(ctx.plan().power, crate::engine::Power::Avx2Radix28);
                    let (x, e) = (&bases[3], &es[3]);
                    let got = ctx.pow_mod_vartime(x, e).unwrap();
                    assert_eq!(got, nat_pow(x, e, &m), "{k} digits through Modulus");
                }
            }
        }
        if chosen == 0 {
            eprintln!("Modulus's choice not checked: the rule does not take this path on this CPU (BMI2/ADX present)");
        }
    }

    fn random_nat(rng: &mut SplitMix64, k: usize) -> Nat<u64> {
        Nat::from_vec((0..k).map(|_| rng.next_u64()).collect())
    }

    #[test]
    fn digit_conversions_round_trip() {
        let mut rng = SplitMix64::new(0x28);
        for k in 1..=32 {
            let n = digits_for(k);
            assert!(28 * n >= 64 * k + 2 && n % 4 == 0, "{k} digits: {n}");
            for x in [vec![u64::MAX; k], (0..k).map(|_| rng.next_u64()).collect::<Vec<_>>()] {
                let d = to_radix28(&x, n);
                assert!(d.iter().all(|&v| v <= DIGIT_MASK));
                assert_eq!(from_radix28(&d, k), x, "{k} digits");
            }
        }
    }

    /// The model of the kernel's product (the value the AVX2 kernel is tested equal to)
    /// against `Nat`: `a·b·2^(−28n)` modulo `m`, below `2m`, for `a, b < 2m`.
    #[test]
    fn the_model_product_is_montgomery_s() {
        let mut rng = SplitMix64::new(0x5228);
        for k in [1, 2, 8, 9, 16, 31, 32] {
            let mut mods = vec![Nat::from_vec(vec![u64::MAX; k])];
            for _ in 0..3 {
                let mut m = random_nat(&mut rng, k);
                if !m.is_odd() {
                    m = m.add(&Nat::one());
                }
                mods.push(m);
            }
            for m in mods {
                let ctx = MontgomeryAvx2::new(&m).expect("odd, at most 32 digits");
                let n = ctx.digits();
                let two_m = m.add(&m);
                let ops = [
                    two_m.checked_sub(&Nat::one()).unwrap(),
                    Nat::zero(),
                    random_nat(&mut rng, k).checked_rem(&two_m).unwrap(),
                ];
                for a in &ops {
                    for b in &ops {
                        let mut got = vec![0u64; n];
                        let m28 = to_radix28(m.limbs(), n);
                        radix28::amm_model(
                            &mut got,
                            &to_radix28(a.limbs(), n),
                            &to_radix28(b.limbs(), n),
                            &m28,
                            ctx.m0inv,
                        );
                        let got = Nat::from_vec(from_radix28(&got, k + 1));
                        assert!(got < two_m, "{k} digits");
                        let lhs = got.shl(28 * n as u64).checked_rem(&m).unwrap();
                        assert_eq!(lhs, a.mul(b).checked_rem(&m).unwrap(), "{k} digits");
                    }
                }
            }
        }
    }
}
