//! Montgomery reduction with one linear and one cyclic convolution: paper 001,
//! Algorithm 2, on the exact transforms of [`crate::ntt`].

use super::{Bound, Reducer, Scratch};
use crate::error::Error;
use crate::kernels;
use crate::limb::Limb;
use crate::nat::add::{add_assign_slices, sub_assign_slices};
use crate::nat::{cmp_slices, normalized_len, Nat};
use crate::ntt::{self, is_all_ones, transform_len_at_least, Transform};
use crate::registry::Algorithm;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

pub use super::ntt_barrett::SecondProduct;

/// Montgomery reduction with `R = B^K` (`K = `[`transform_len_at_least`]`(k)`, `k` = digits
/// of `m`, `B = b`): `u = (T mod R)·m' mod R` by a linear convolution with the
/// precomputed transform of `m' = −m^(−1) mod R`, and `u·m` by a cyclic convolution
/// modulo `B^K − 1` with the precomputed transform of `m`, its halves separated because
/// the low half is known in advance (paper 001, Algorithm 2, corrected).
///
/// Residues are in Montgomery's representation `x·R mod m` with `R = B^K` (not `b^k`
/// when `k` is not a transform length); odd moduli only. [`Reducer::reduce_raw`]
/// computes `T·R^(−1) mod m` for `0 ≤ T < m·R`, output below `m`.
///
/// # The paper's slips, corrected
/// Part 1 of Algorithm 2 says `T mod R = T_u`, the upper half; it is the lower half
/// `T_l`. Part 2 states `L(mP) ∈ {0, 2^n − T_l}`; precisely `L(u·m) = 0` when `T_l = 0`
/// and `B^K − T_l` otherwise, so the upper half is
/// `U ≡ Z − L ≡ Z + T_l − [T_l ≠ 0] (mod B^K − 1)`, and the result is
/// `t = T_u + U + [T_l ≠ 0]` (the carry out of `T_l + L`), not `(Z + T_l + T_u) mod R`.
/// Proof on [`Reducer::reduce_raw`].
#[derive(Clone, Debug)]
pub struct NttMontgomery<L: Limb> {
    m: Nat<L>,
    /// `m'`'s transform for the `K × K`-digit linear product.
    mprime_t: Transform,
    /// `m`'s transform at the cyclic length `K`.
    m_cyclic: Transform,
    /// `m`'s transform for a linear `u·m` (only for [`SecondProduct::Linear`]).
    m_linear: Option<Transform>,
    /// `R² mod m`, `k` digits, for the conversion into the representation.
    r2: Vec<L>,
}

/// `−m^(−1) mod B^t` for odd `m` (Hensel lifting: `v ← v·(2 − m·v)` doubles the correct
/// digits).
fn neg_inverse_mod_power<L: Limb>(m: &Nat<L>, t: usize) -> Nat<L> {
    let w = L::BITS as u64;
    let mut v = Nat::from_limbs(&[m.limbs()[0].inverse_mod_b()]);
    let mut have = 1usize;
    while have < t {
        have = (2 * have).min(t);
        let bits = have as u64 * w;
        let mv = m.mul(&v).low_bits(bits);
        // 2 − m·v mod B^have
        let two_minus = (&Nat::power_of_two(bits).add(&Nat::from_u64(2)) - &mv).low_bits(bits);
        v = v.mul(&two_minus).low_bits(bits);
    }
    let bits = t as u64 * w;
    (&Nat::power_of_two(bits) - &v).low_bits(bits)
}

impl<L: Limb> NttMontgomery<L> {
    /// The reducer with the second product formed as `second` says.
    pub fn with_second_product(m: &Nat<L>, second: SecondProduct) -> Result<Self, Error> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        if !m.is_odd() {
            return Err(Error::NotApplicable {
                algorithm: Algorithm::NttMontgomery.name(),
                reason: "it needs an odd modulus (gcd(m, b) = 1)".to_string(),
            });
        }
        let k = m.len();
        let big_k = transform_len_at_least(k);
        let mprime = neg_inverse_mod_power(m, big_k);
        let mprime_t = Transform::new(mprime.limbs(), transform_len_at_least(2 * big_k - 1))?;
        let m_cyclic = Transform::new(m.limbs(), big_k)?;
        let m_linear = match second {
            SecondProduct::Cyclic => None,
            SecondProduct::Linear => {
                Some(Transform::new(m.limbs(), transform_len_at_least(big_k + k - 1))?)
            }
        };
        let r2 = Nat::power_of_two(2 * big_k as u64 * L::BITS as u64)
            .checked_rem(m)
            .unwrap_or_default()
            .to_padded(k)
            .unwrap_or_else(|| vec![L::ZERO; k]);
        Ok(NttMontgomery { m: m.clone(), mprime_t, m_cyclic, m_linear, r2 })
    }

    /// The same reducer with the second product formed as `second` says, reusing this
    /// one's precalculation (`m'`, `R² mod m` and the transforms); only a linear
    /// transform of `m` is added for [`SecondProduct::Linear`].
    pub fn to_second_product(&self, second: SecondProduct) -> Result<Self, Error> {
        let (k, big_k) = (self.m.len(), self.cyclic_len());
        let m_linear = match second {
            SecondProduct::Cyclic => None,
            SecondProduct::Linear => {
                Some(Transform::new(self.m.limbs(), transform_len_at_least(big_k + k - 1))?)
            }
        };
        Ok(NttMontgomery { m_linear, ..self.clone() })
    }

    /// `K`, with `R = B^K`.
    pub fn cyclic_len(&self) -> usize {
        self.m_cyclic.len()
    }
}

impl<L: Limb> Reducer<L> for NttMontgomery<L> {
    fn heap_bytes(&self) -> usize {
        self.m.heap_bytes()
            + self.mprime_t.heap_bytes()
            + self.m_cyclic.heap_bytes()
            + self.m_linear.as_ref().map_or(0, |t| t.heap_bytes())
            + crate::nat::vec_bytes(&self.r2)
    }

    fn new(m: &Nat<L>) -> Result<Self, Error> {
        Self::with_second_product(m, SecondProduct::Cyclic)
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::NttMontgomery
    }

    fn modulus(&self) -> &Nat<L> {
        &self.m
    }

    /// `T < m·B^K`.
    fn input_bound(&self) -> Bound<L> {
        Bound::Below(self.m.shl(self.cyclic_len() as u64 * L::BITS as u64))
    }

    /// `out = T·R^(−1) mod m` for `T < m·R`, `R = B^K` (paper 001, Algorithm 2,
    /// corrected).
    ///
    /// # Why it is exact
    /// Write `T = T_u·R + T_l` (`T_l < R`, `T_u < m`).
    /// 1. `u = T_l·m' mod R` (the low `K` digits of a linear convolution), so
    ///    `T + u·m ≡ 0 (mod R)`.
    /// 2. Write `u·m = U·R + L` with `L < R`. Then `L ≡ −T_l (mod R)`: `L = 0` if
    ///    `T_l = 0`, else `L = R − T_l`. And `U = (u·m) div R ≤ (R − 1)m/R < m`.
    /// 3. The cyclic convolution gives `Z ≡ u·m = U·R + L ≡ U + L (mod B^K − 1)`, so
    ///    `U ≡ Z − L ≡ Z + T_l − [T_l ≠ 0] (mod B^K − 1)` (as `R ≡ 1`). Since
    ///    `0 ≤ U < m ≤ B^K − 1`, `U` is that residue's canonical representative in
    ///    `[0, B^K − 1)`: the halves separate exactly, with no correction term.
    /// 4. `t = (T + u·m)/R = T_u + U + (T_l + L)/R = T_u + U + [T_l ≠ 0]`, and
    ///    `t < (m·R + R·m)/R = 2m`: one subtraction of `m` at most.
    ///
    /// Steps 1–4 but the bound `t < 2m` hold for any `T` of at most `K + k` digits, so an
    /// argument beyond the bound (the digits of another modulus's residue, say) still gets
    /// `T·R^(−1) mod m`: a remainder finishes `t` where one subtraction does not, and a
    /// longer `T` is first reduced modulo `m` — never a loop of subtractions as long as
    /// `t/m`.
    fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        let m = self.m.limbs();
        let k = m.len();
        let big_k = self.cyclic_len();
        debug_assert_eq!(out.len(), k);
        let l = normalized_len(x);
        if l > big_k + k {
            // T·R⁻¹ ≡ (T mod m)·R⁻¹, and T mod m < m·R.
            let rem = Nat::from_limbs(&x[..l]).checked_rem(&self.m).unwrap_or_default();
            return self.reduce_raw(out, rem.limbs(), scratch);
        }
        let x = &x[..l];
        let (tl, tu) = x.split_at(l.min(big_k));
        let tl_nonzero = normalized_len(tl) > 0;
        let need = 2 * big_k + 2 * big_k + k + 2 + big_k + k + 1;
        if scratch.work.len() < need {
            scratch.work.resize(need, L::ZERO);
        }
        let (p, rest) = scratch.work[..need].split_at_mut(2 * big_k);
        let (t, rest) = rest.split_at_mut(big_k + k + 2);
        // Part 1: u = T_l·m' mod R, from a linear convolution.
        ntt::mul_prepared(p, tl, &self.mprime_t, &mut scratch.transform)
            .expect("transform length fixed at construction");
        let u = &p[..big_k];
        t.fill(L::ZERO);
        if let Some(m_linear) = &self.m_linear {
            // Baseline: the full u·m, then t = (T + u·m) div R.
            let (um, _) = rest.split_at_mut(big_k + k);
            ntt::mul_prepared(um, u, m_linear, &mut scratch.transform)
                .expect("transform length fixed at construction");
            t[..l].copy_from_slice(x);
            let c = add_assign_slices(&mut t[..big_k + k + 1], um);
            debug_assert!(!c);
            debug_assert!(normalized_len(&t[..big_k]) == 0);
            t.copy_within(big_k..big_k + k + 1, 0);
            t[k + 1..].fill(L::ZERO);
        } else {
            // Part 2: Z = u·m mod (B^K − 1), a cyclic convolution.
            let (z, _) = rest.split_at_mut(big_k);
            ntt::cyclic_mul_prepared(z, u, &self.m_cyclic, &mut scratch.transform)
                .expect("transform length fixed at construction");
            // Part 3: U = (Z + T_l − [T_l ≠ 0]) mod (B^K − 1), canonical.
            let carry = add_assign_slices(z, tl);
            if tl_nonzero {
                // Z + T_l − 1 = z + carry·B^K − 1 ≡ z + carry − 1 (mod B^K − 1).
                if !carry {
                    let br = kernels::sub_1(z, L::ONE);
                    debug_assert!(!br);
                }
            } else if carry {
                kernels::add_1(z, L::ONE);
            }
            if is_all_ones(z) {
                z.fill(L::ZERO);
            }
            debug_assert!(cmp_slices(z, m).is_lt(), "ntt-montgomery: U ≥ m");
            // t = T_u + U + [T_l ≠ 0].
            t[..big_k].copy_from_slice(z);
            let c = add_assign_slices(&mut t[..big_k + 1], tu);
            debug_assert!(!c);
            if tl_nonzero {
                kernels::add_1(&mut t[..big_k + 1], L::ONE);
            }
        }
        if cmp_slices(t, m).is_ge() {
            let br = sub_assign_slices(t, m);
            debug_assert!(!br);
            if cmp_slices(t, m).is_ge() {
                // Only for T beyond the bound (t ≥ 2m).
                let rem = Nat::from_limbs(t).checked_rem(&self.m).unwrap_or_default();
                out.fill(L::ZERO);
                out[..rem.len()].copy_from_slice(rem.limbs());
                return;
            }
        }
        out.copy_from_slice(&t[..k]);
    }

    /// `x·R mod m` for any `x`: `REDC((x mod m)·(R² mod m))`.
    fn to_residue(&self, x: &Nat<L>) -> Vec<L> {
        let k = self.width();
        let xm = if *x < self.m { x.clone() } else { x.checked_rem(&self.m).unwrap_or_default() };
        let prod = xm.mul(&Nat::from_limbs(&self.r2));
        let mut out = vec![L::ZERO; k];
        self.reduce_raw(&mut out, prod.limbs(), &mut Scratch::new());
        out
    }

    /// `r·R^(−1) mod m`.
    fn from_residue(&self, r: &[L]) -> Nat<L> {
        let mut out = vec![L::ZERO; self.width()];
        self.reduce_raw(&mut out, r, &mut Scratch::new());
        Nat::from_vec(out)
    }
}
