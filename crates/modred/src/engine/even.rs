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
        // q is odd, so it is invertible modulo 2^s (and 1 is its own inverse when q = 1);
        // up to 64 bits its lowest digit's inverse, by Newton's iteration, suffices.
        let q_inv = if s <= 64 {
            Nat::from(q.limbs()[0].inverse_mod_b()).low_bits(s)
        } else {
            q.inverse_mod(&Nat::power_of_two(s)).unwrap_or_else(Nat::zero)
        };
        Ok(Some(EvenCrt { odd, q, s, q_inv }))
    }

    /// `x^e mod m` for `x < m`, the odd part by `method`, the power of two by the same.
    pub(crate) fn pow(&self, x: &Nat, e: &Nat, method: Method) -> Result<Nat, Error> {
        let r2 = pow_mod_power_of_two(x, e, self.s, method)?;
        let Some(odd) = &self.odd else { return Ok(r2) };
        let rq = odd.to_nat(&odd.pow_with_vartime(&odd.residue(x), e, method)?)?;
        // t = (r_2 − r_q)·q⁻¹ mod 2^s, with r_2 − r_q taken modulo 2^s.
        let two_s = Nat::power_of_two(self.s);
        let diff = r2.add(&two_s).checked_sub(&rq.low_bits(self.s)).unwrap_or_default();
        let t = diff.low_bits(self.s).mul(&self.q_inv).low_bits(self.s);
        Ok(rq.add(&self.q.mul(&t)))
    }

    /// The bytes it holds on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        let digits = self.q.len() + self.q_inv.len();
        self.odd.as_ref().map_or(0, |m| m.memory_bytes()) + 8 * digits
    }
}
