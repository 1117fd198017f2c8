//! Montgomery's reducer (`montgomery`) on x86-64 with BMI2 and ADX: its products by the
//! MULX/ADCX/ADOX Montgomery multiplication (`kernels::arch::x86_64::mont_mulx`: CIOS with
//! the two inner loops in one pass, after OpenSSL's `bn_mulx4x_mont`, or for `8n` digits
//! from 16 the product and the reduction eight rows per pass, `kernels::arch::x86_64::rows8`),
//! its squares by the dedicated square (triangle, doubled, then the reduction) or by that
//! multiplication, whichever measured faster for the width
//! ([`crate::engine::rule::montgomery_mulx_sqr_separate`]). At `8n ≥ 16` digits it runs the
//! sliding-window exponentiation itself over lazy products (values below `R` rather than
//! `m`, the final subtraction only where a reduction carried out of `R`; [`Lazy`]), closed
//! by one product with `R mod m`.
//!
//! Same algorithm, representation (`x·R mod m`, `R = 2^(64k)`), input bound and results as
//! [`super::Montgomery`] (whose reduction, conversions and precalculation it shares); the
//! selector (`engine::select`) makes it, for the widths of
//! [`crate::engine::rule::montgomery_mulx`] on a CPU with BMI2 and ADX.

use super::montgomery::MontgomeryParams;
use super::{Bound, Reducer, Scratch};
use crate::error::Error;
use crate::exp::MulSqr;
use crate::kernels::arch::x86_64::{has_bmi2_adx, mont_mulx};
use crate::nat::Nat;
use crate::registry::Algorithm;
use alloc::string::ToString;
use alloc::vec::Vec;

/// Montgomery's reducer with its products in MULX/ADCX/ADOX assembly (module docs).
#[derive(Clone, Debug)]
pub(crate) struct MontgomeryMulx {
    params: MontgomeryParams<u64>,
    /// The algorithm it stands for: `montgomery` or `montgomery-interleaved` (CIOS, which
    /// the fused multiplication is).
    algorithm: Algorithm,
    /// Whether squares take the dedicated square and a separate reduction rather than the
    /// fused multiplication.
    sqr_separate: bool,
    /// `R mod m`, the residue of 1: the product that ends an exponentiation of lazy
    /// products ([`Lazy`]) by a value below `m`.
    one: Vec<u64>,
}

impl MontgomeryMulx {
    /// The same reducer standing for `algorithm` (`montgomery` or `montgomery-interleaved`:
    /// the same representation and results).
    pub(crate) fn named(self, algorithm: Algorithm) -> Self {
        debug_assert!(matches!(
            algorithm,
            Algorithm::Montgomery | Algorithm::MontgomeryInterleaved
        ));
        MontgomeryMulx { algorithm, ..self }
    }
}

impl MontgomeryMulx {
    /// [`Reducer::mul`] (`LAZY` false) or the lazy product of [`Lazy`]:
    /// `mont_mulx::mont_mul_to`, `2k + 2` digits of working space.
    fn mul_with<const LAZY: bool>(
        &self,
        out: &mut [u64],
        a: &[u64],
        b: &[u64],
        scratch: &mut Scratch<u64>,
    ) {
        let m = self.params.m.limbs();
        let t = grown(&mut scratch.work, 2 * m.len() + 2);
        // SAFETY: a `MontgomeryMulx` exists only on a CPU with BMI2 and ADX (`new`).
        unsafe { mont_mulx::mont_mul_to::<LAZY>(out, a, b, m, self.params.m0inv, t) };
    }

    /// [`Reducer::sqr`] or the lazy square: the dedicated square and its reduction, or
    /// [`MontgomeryMulx::mul_with`] with `a` twice (by width, module docs).
    fn sqr_with<const LAZY: bool>(&self, out: &mut [u64], a: &[u64], scratch: &mut Scratch<u64>) {
        if !self.sqr_separate {
            return self.mul_with::<LAZY>(out, a, a, scratch);
        }
        let m = self.params.m.limbs();
        let p = grown(&mut scratch.product, 2 * m.len());
        // SAFETY: as in `mul_with`.
        unsafe { mont_mulx::mont_sqr::<LAZY>(out, a, m, self.params.m0inv, p) };
    }
}

/// Grows `v` to at least `n` digits and returns its first `n` (not cleared: the kernels
/// clear or overwrite what they use).
fn grown(v: &mut Vec<u64>, n: usize) -> &mut [u64] {
    if v.len() < n {
        v.resize(n, 0);
    }
    &mut v[..n]
}

impl Reducer<u64> for MontgomeryMulx {
    fn heap_bytes(&self) -> usize {
        self.params.heap_bytes() + 8 * self.one.capacity()
    }

    /// The precalculation of [`super::Montgomery`]; an error on a CPU without BMI2 and
    /// ADX (the kernels would not run there).
    fn new(m: &Nat<u64>) -> Result<Self, Error> {
        if !has_bmi2_adx() {
            return Err(Error::NotApplicable {
                algorithm: Algorithm::Montgomery.name(),
                reason: "its MULX/ADX product needs a CPU with BMI2 and ADX".to_string(),
            });
        }
        let params = MontgomeryParams::new(m, Algorithm::Montgomery)?;
        let sqr_separate = crate::engine::rule::montgomery_mulx_sqr_separate(m.len());
        let one = params.to_residue(&Nat::one());
        Ok(MontgomeryMulx { params, algorithm: Algorithm::Montgomery, sqr_separate, one })
    }

    fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    fn modulus(&self) -> &Nat<u64> {
        &self.params.m
    }

    /// `x < m·b^k`.
    fn input_bound(&self) -> Bound<u64> {
        Bound::Below(self.params.bound())
    }

    /// `out = x·R⁻¹ mod m` for `x < m·b^k`: paper 000, Algorithm 3, as
    /// [`super::Montgomery`].
    fn reduce_raw(&self, out: &mut [u64], x: &[u64], scratch: &mut Scratch<u64>) {
        self.params.reduce_raw(out, x, scratch);
    }

    /// The MULX/ADX Montgomery multiplication (`2k² + k` digit products at most; the
    /// product by Karatsuba at 24–64 digits, multiples of 8), `2k + 2` digits of working space.
    fn mul(&self, out: &mut [u64], a: &[u64], b: &[u64], scratch: &mut Scratch<u64>) {
        self.mul_with::<false>(out, a, b, scratch);
    }

    /// The dedicated square and its reduction, or the fused multiplication with `a` twice
    /// (by width, module docs).
    fn sqr(&self, out: &mut [u64], a: &[u64], scratch: &mut Scratch<u64>) {
        self.sqr_with::<false>(out, a, scratch);
    }

    /// The sliding window of [`crate::exp`] over lazy products ([`Lazy`]) for `8n ≥ 16`
    /// digits, where the lazy final step exists, then one product with `R mod m`: the
    /// same residue as the loop over [`Reducer::mul`]/[`Reducer::sqr`]. `None` at other
    /// widths and for arguments outside the trait method's preconditions.
    fn pow_sliding_window(&self, base: &[u64], e: &[u64], bits: u64, w: u32) -> Option<Vec<u64>> {
        let m = self.params.m.limbs();
        let k = m.len();
        let top_set = bits >= 1
            && e.get(((bits - 1) / 64) as usize).is_some_and(|d| (d >> ((bits - 1) % 64)) & 1 == 1);
        if k < 16 || k % 8 != 0 || base.len() != k || w == 0 || w as u64 > bits || !top_set {
            return None;
        }
        let mut scratch = Scratch::new();
        let acc = crate::exp::sliding::pow(&Lazy(self), base, e, bits, w, &mut scratch).ok()?;
        let mut out = alloc::vec![0; k];
        let t = grown(&mut scratch.work, 2 * k + 2);
        // acc < R, R mod m < m: the product is below 2m before its final subtraction.
        // SAFETY: as in `mul`.
        unsafe { mont_mulx::mont_mul(&mut out, &acc, &self.one, m, self.params.m0inv, t) };
        Some(out)
    }

    /// `x·R mod m` for any `x`.
    fn to_residue(&self, x: &Nat<u64>) -> Vec<u64> {
        self.params.to_residue(x)
    }

    /// `r·R⁻¹ mod m`.
    fn from_residue(&self, r: &[u64]) -> Nat<u64> {
        self.params.to_standard(r)
    }
}

/// The products of [`MontgomeryMulx`] inside its exponentiation: values below `R = 2^(64k)`
/// rather than `m` (`mont_mulx::mont_mul_to` and `mont_sqr` with `LAZY`: the final
/// subtraction only where the reduction carried out of `R`).
struct Lazy<'a>(&'a MontgomeryMulx);

impl MulSqr<u64> for Lazy<'_> {
    fn mul(&self, out: &mut [u64], a: &[u64], b: &[u64], scratch: &mut Scratch<u64>) {
        self.0.mul_with::<true>(out, a, b, scratch);
    }

    fn sqr(&self, out: &mut [u64], a: &[u64], scratch: &mut Scratch<u64>) {
        self.0.sqr_with::<true>(out, a, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exp::{pow_loops, Method};
    use crate::kernels::tests::Rng;
    use std::eprintln;

    /// The reducer's own exponentiation over lazy products against the generic loop over
    /// its `mul`/`sqr` (values below `m` throughout) at the widths it takes, on moduli with
    /// long carry chains and a small one (far below `R`, so lazy values exceed `m` many
    /// times over), bases `0`, `1`, `m − 1` and random, exponents from one bit to three
    /// times the modulus and every window up to 8; arguments outside the method's bounds
    /// are refused, and other widths are left to the generic loop.
    #[test]
    fn lazy_exponentiation_matches_the_generic_loop() {
        if !has_bmi2_adx() {
            eprintln!(
                "skipped: this CPU lacks BMI2/ADX, the MULX/ADX Montgomery kernels cannot run"
            );
            return;
        }
        let mut rng = Rng::new(0x006c_617a_7970_6f77);
        for k in [8usize, 15, 16, 24, 32, 48] {
            let mut moduli = alloc::vec![
                Nat::from_vec(alloc::vec![u64::MAX; k]),
                Nat::power_of_two(64 * k as u64 - 64).add(&Nat::one()),
            ];
            let mut random = rng.digits(k);
            random[0] |= 1;
            random[k - 1] |= 1 << 63;
            moduli.push(Nat::from_vec(random));
            for m in &moduli {
                let r = MontgomeryMulx::new(m).unwrap();
                let base = r.to_residue(&Nat::from(3u64));
                let e = Nat::from(0b1011u64);
                assert!(r.pow_sliding_window(&base, e.limbs(), 5, 2).is_none(), "bit 4 is zero");
                assert!(r.pow_sliding_window(&base, e.limbs(), 0, 1).is_none(), "no bits");
                assert!(r.pow_sliding_window(&base, e.limbs(), 4, 0).is_none(), "no window");
                assert!(r.pow_sliding_window(&base, e.limbs(), 4, 5).is_none(), "window > bits");
                assert!(r.pow_sliding_window(&base[1..], e.limbs(), 4, 2).is_none(), "short base");
                let m1 = m.checked_sub(&Nat::one()).unwrap();
                let random = Nat::from_vec(rng.digits(k)).checked_rem(m).unwrap();
                let exps: Vec<Nat> = [1u64, 2, 7, 64 * k as u64, 192 * k as u64]
                    .iter()
                    .map(|&bits| {
                        let low = Nat::from_vec(rng.digits(bits.div_ceil(64) as usize));
                        low.low_bits(bits - 1).add(&Nat::power_of_two(bits - 1))
                    })
                    .collect();
                for x in [Nat::zero(), Nat::one(), m1, random] {
                    let base = r.to_residue(&x);
                    for e in &exps {
                        let n = e.bits();
                        for w in [1u32, 4, 5, 6, 8] {
                            let w = w.min(n as u32);
                            let own = r.pow_sliding_window(&base, e.limbs(), n, w);
                            if k < 16 || k % 8 != 0 {
                                assert!(own.is_none(), "{k} digits: the generic loop's");
                                continue;
                            }
                            let want = pow_loops(
                                &r,
                                &base,
                                e,
                                Method::SlidingWindow(w),
                                &mut Scratch::new(),
                            )
                            .unwrap();
                            assert_eq!(own, Some(want), "{k} digits, {n}-bit exponent, window {w}");
                        }
                    }
                }
            }
        }
    }
}
