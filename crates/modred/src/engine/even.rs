//! Exponentiation modulo an even modulus by the Chinese remainder theorem, as GMP's
//! `mpz_powm` does: `m = q·2^s` with `q` odd; `x^e mod q` on `q`'s own automatic engine
//! (Montgomery, the fastest odd-modulus code on this CPU), `x^e mod 2^s` on products
//! truncated to `s` bits ([`crate::exp::pow_mod_power_of_two`]), and one recombination
//! (Garner): `r = r_q + q·((r_2 − r_q)·q⁻¹ mod 2^s)`, which lies below `q·2^s = m`.

use crate::error::Error;
use crate::exp::{pow_mod_power_of_two, Method};
use crate::limb::Limb;
use crate::modulus::{Limits, Modulus};
use crate::nat::Nat;
use alloc::boxed::Box;

/// `q⁻¹ mod 2^s` for an odd `q` (1 when `q = 1`): up to 64 bits its lowest digit's
/// inverse, by Newton's iteration, suffices.
pub(crate) fn inverse_mod_power_of_two(q: &Nat, s: u64) -> Nat {
    if s <= 64 {
        Nat::from(q.limbs()[0].inverse_mod_b()).low_bits(s)
    } else {
        q.inverse_mod(&Nat::power_of_two(s)).unwrap_or_else(Nat::zero)
    }
}

/// Garner's recombination: the `r < q·2^s` with `r ≡ r_q (mod q)` and `r ≡ r_2 (mod 2^s)`,
/// for `r_q < q`, `r_2 < 2^s` and `q_inv = q⁻¹ mod 2^s`:
/// `r = r_q + q·((r_2 − r_q)·q⁻¹ mod 2^s)`. Up to 64 bits of `s` the middle factor is
/// one digit's arithmetic.
pub(crate) fn recombine(rq: &Nat, r2: &Nat, q: &Nat, s: u64, q_inv: &Nat) -> Nat {
    if s <= 64 {
        let mask = if s == 64 { u64::MAX } else { (1u64 << s) - 1 };
        let low = |v: &Nat| v.limbs().first().copied().unwrap_or(0);
        let t = low(r2).wrapping_sub(low(rq)).wrapping_mul(low(q_inv)) & mask;
        return rq.add(&q.mul_limb(t));
    }
    // t = (r_2 − r_q)·q⁻¹ mod 2^s, with r_2 − r_q taken modulo 2^s.
    let two_s = Nat::power_of_two(s);
    let diff = r2.add(&two_s).checked_sub(&rq.low_bits(s)).unwrap_or_default();
    let t = diff.low_bits(s).mul(q_inv).low_bits(s);
    rq.add(&q.mul(&t))
}

/// An even modulus split for its exponentiations.
pub(crate) struct EvenCrt {
    /// The automatic engine of the odd part `q`; `None` when `q = 1` (`m = 2^s`).
    odd: Option<Box<Modulus>>,
    /// The odd part `q`.
    q: Nat,
    /// The power of two: `m = q·2^s`, `s ≥ 1`.
    s: u64,
    /// `q⁻¹ mod 2^s`.
    q_inv: Nat,
}

impl EvenCrt {
    /// The split of an even `m > 0` (`None` for an odd one), the odd part's engine held to
    /// `limits`.
    pub(crate) fn new(m: &Nat, limits: &Limits) -> Result<Option<Self>, Error> {
        if m.is_zero() || m.is_odd() {
            return Ok(None);
        }
        let s = m.trailing_zeros();
        let q = m.shr(s);
        let odd = if q.is_one() {
            None
        } else {
            // Only exponentiated, converted in and out: no reducer of its own for one-off
            // reductions.
            Some(Box::new(Modulus::for_powers(&q, *limits)?))
        };
        let q_inv = inverse_mod_power_of_two(&q, s);
        Ok(Some(EvenCrt { odd, q, s, q_inv }))
    }

    /// `x^e mod m` for `x < m`, the odd part by `method`, the power of two by the same.
    pub(crate) fn pow(&self, x: &Nat, e: &Nat, method: Method) -> Result<Nat, Error> {
        let r2 = pow_mod_power_of_two(x, e, self.s, method)?;
        let Some(odd) = &self.odd else { return Ok(r2) };
        let rq = odd.to_nat(&odd.pow_with_vartime(&odd.residue(x), e, method)?)?;
        Ok(recombine(&rq, &r2, &self.q, self.s, &self.q_inv))
    }

    /// The bytes it holds on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        let digits = self.q.len() + self.q_inv.len();
        self.odd.as_ref().map_or(0, |m| m.memory_bytes()) + 8 * digits
    }
}
