//! Montgomery's reducer (`montgomery`) on x86-64 with BMI2 and ADX: its products by the
//! MULX/ADCX/ADOX Montgomery multiplication (`kernels::arch::x86_64::mont_mulx`: CIOS with
//! the two inner loops in one pass, after OpenSSL's `bn_mulx4x_mont`, or for `8n` digits
//! from 16 the product and the reduction eight rows per pass, `kernels::arch::x86_64::rows8`),
//! its squares by the dedicated square (triangle, doubled, then the reduction) or by that
//! multiplication, whichever measured faster for the width
//! ([`crate::engine::rule::montgomery_mulx_sqr_separate`]).
//!
//! Same algorithm, representation (`x·R mod m`, `R = 2^(64k)`), input bound and results as
//! [`super::Montgomery`] (whose reduction, conversions and precalculation it shares); the
//! selector (`engine::select`) makes it, for the widths of
//! [`crate::engine::rule::montgomery_mulx`] on a CPU with BMI2 and ADX.

use super::montgomery::MontgomeryParams;
use super::{Bound, Reducer, Scratch};
use crate::error::Error;
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
        self.params.heap_bytes()
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
        Ok(MontgomeryMulx { params, algorithm: Algorithm::Montgomery, sqr_separate })
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
    /// product by Karatsuba at 32, 48 and 64 digits), `2k + 2` digits of working space.
    fn mul(&self, out: &mut [u64], a: &[u64], b: &[u64], scratch: &mut Scratch<u64>) {
        let m = self.params.m.limbs();
        let t = grown(&mut scratch.work, 2 * m.len() + 2);
        // SAFETY: a `MontgomeryMulx` exists only on a CPU with BMI2 and ADX (`new`).
        unsafe { mont_mulx::mont_mul(out, a, b, m, self.params.m0inv, t) };
    }

    /// The dedicated square and its reduction, or the fused multiplication with `a` twice
    /// (by width, module docs).
    fn sqr(&self, out: &mut [u64], a: &[u64], scratch: &mut Scratch<u64>) {
        let m = self.params.m.limbs();
        if self.sqr_separate {
            let p = grown(&mut scratch.product, 2 * m.len());
            // SAFETY: as in `mul`.
            unsafe { mont_mulx::mont_sqr(out, a, m, self.params.m0inv, p) };
        } else {
            let t = grown(&mut scratch.work, m.len() + 2);
            // SAFETY: as in `mul`.
            unsafe { mont_mulx::mont_mul(out, a, a, m, self.params.m0inv, t) };
        }
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
