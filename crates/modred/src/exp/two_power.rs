//! Exponentiation modulo a power of two, `2^s`: the even half of an even modulus's CRT
//! exponentiation ([`crate::engine`]'s even plan, as GMP's `mpz_powm` splits an even
//! modulus). Modulo `2^s` no reduction is needed — a product is truncated to its low
//! `s` bits — so this costs a fraction of a modular product of the same width.

use super::{pow_loops, Method, MulSqr};
use crate::error::Error;
use crate::nat::{mul_into, sqr_into, Nat};
use crate::reduce::{zeroed, Scratch};

/// Products modulo `2^s` on `⌈s/64⌉`-digit slices: the low digits of the product, the top
/// digit masked to the bits below `s`.
struct Truncated {
    /// The mask of the top digit's bits below `s`.
    top_mask: u64,
}

impl Truncated {
    fn keep_low(&self, out: &mut [u64], product: &[u64]) {
        let k = out.len();
        out.copy_from_slice(&product[..k]);
        out[k - 1] &= self.top_mask;
    }
}

impl MulSqr<u64> for Truncated {
    fn mul(&self, out: &mut [u64], a: &[u64], b: &[u64], scratch: &mut Scratch<u64>) {
        let product = zeroed(&mut scratch.product, a.len() + b.len());
        mul_into(product, a, b);
        self.keep_low(out, product);
    }

    fn sqr(&self, out: &mut [u64], a: &[u64], scratch: &mut Scratch<u64>) {
        let product = zeroed(&mut scratch.product, 2 * a.len());
        sqr_into(product, a);
        self.keep_low(out, product);
    }
}

/// `x^e mod 2^s` for any `x` and `e` (`x^0 = 1`, also for `x = 0`; everything is 0 when
/// `s = 0`), the result below `2^s`.
///
/// The odd numbers modulo `2^s` form a group of order `2^(s−1)`, so for an odd `x` the
/// exponent is first reduced modulo `2^(s−1)`; an even `x` (2-adic valuation `v ≥ 1`)
/// gives 0 once `e·v ≥ s`, else `e < s`. What remains runs through the window methods of
/// [`crate::exp`] (`method`; the same loops as every reducer's) on products truncated to
/// `s` bits: at most `s − 1` squarings of `⌈s/64⌉` digits.
///
/// Error: [`Error::InvalidArgument`] for a window outside `1..=16`; [`Error::OutOfMemory`]
/// when the system refuses the window table. Variable time.
pub fn pow_mod_power_of_two(x: &Nat, e: &Nat, s: u64, method: Method) -> Result<Nat, Error> {
    super::check_method(method)?;
    if s == 0 {
        return Ok(Nat::zero());
    }
    if e.is_zero() {
        return Ok(Nat::one());
    }
    let x = x.low_bits(s);
    let e = if x.is_odd() {
        e.low_bits(s - 1)
    } else {
        let v = if x.is_zero() { s } else { x.trailing_zeros() };
        // e·v ≥ s: x^e is a multiple of 2^s.
        if e.bits() > 64 || e.to_u64().is_some_and(|e| e.saturating_mul(v) >= s) {
            return Ok(Nat::zero());
        }
        e.clone()
    };
    if e.is_zero() {
        return Ok(Nat::one());
    }
    if s <= 64 {
        // One digit, an exponent below 2^63: binary powering on wrapping products (the
        // same value as any method's, without a table or residue vectors).
        let mask = if s == 64 { u64::MAX } else { (1u64 << s) - 1 };
        let (mut base, mut e) = (x.limbs()[0], e.to_u64().expect("below 2^(s − 1) or s"));
        let mut acc = 1u64;
        while e != 0 {
            if e & 1 == 1 {
                acc = acc.wrapping_mul(base);
            }
            base = base.wrapping_mul(base);
            e >>= 1;
        }
        return Ok(Nat::from(acc & mask));
    }
    let k = s.div_ceil(64) as usize;
    let top_bits = s - 64 * (k as u64 - 1);
    let top_mask = if top_bits == 64 { u64::MAX } else { (1u64 << top_bits) - 1 };
    let mut base = x.limbs().to_vec();
    base.resize(k, 0);
    let out = pow_loops(&Truncated { top_mask }, &base, &e, method, &mut Scratch::new())?;
    Ok(Nat::from_vec(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn big(n: &Nat) -> BigUint {
        BigUint::from_bytes_le(&n.to_bytes_le())
    }

    #[test]
    fn against_num_bigint() {
        let mut rng = modred_testkit::SplitMix64::new(0x2_5eed);
        let methods = [Method::Binary, Method::SlidingWindow(4), Method::FixedWindow(3)];
        for s in [0u64, 1, 2, 3, 5, 63, 64, 65, 127, 128, 129, 200, 1000] {
            let two_s = BigUint::from(1u8) << s;
            for case in 0..12 {
                let x = match case {
                    0 => Nat::zero(),
                    1 => Nat::one(),
                    2 => Nat::power_of_two(s.saturating_sub(1)),
                    3 => Nat::from(6u64),
                    4 => Nat::power_of_two(s + 5).add(&Nat::from(3u64)),
                    _ => Nat::from_vec(rng.digits(1 + case % 4)),
                };
                for e in [Nat::zero(), Nat::one(), Nat::from(2u64), Nat::from(s + 1), {
                    Nat::from_vec(rng.digits(1 + case % 3))
                }] {
                    let want = big(&x).modpow(&big(&e), &two_s);
                    for method in methods {
                        let got = pow_mod_power_of_two(&x, &e, s, method).unwrap();
                        assert_eq!(big(&got), want, "x={x:?} e={e:?} s={s} {method:?}");
                    }
                }
            }
        }
    }
}
