//! Exponentiation modulo a modulus met once whose odd part has two to seven digits,
//! without a context: the fixed-size Montgomery products of [`crate::reduce::fixed`]
//! straight from the modulus's digits, and for an even modulus `m = q·2^s` the split of
//! [`super::even`] (the odd part `q` so, a power modulo `2^s`, one recombination).
//!
//! The base enters Montgomery's representation by one division (`x·2^(64N) mod q`, as
//! GMP's `mpz_powm` does), so no `R² mod q` is made; the result leaves it by one
//! reduction. Nothing else is prepared: no analysis of the modulus's form, no reducer
//! for one-off reductions, no residue vectors. A special form (pseudo-Mersenne, NIST)
//! met once runs on Montgomery's products here, which at these widths are within a few
//! percent of the special reductions, less than what their preparation costs.
//!
//! Why: a batch line `powm` with a new 192-bit modulus spent 1.3–2.5 µs preparing and
//! tearing down the contexts (`Modulus::for_powers`: analysis, selection, a boxed slice
//! reducer beside the fixed one, `R² mod m`, and for an even modulus a second context
//! for its odd part) around an exponentiation of 2.9–3.5 µs (AMD EPYC Zen 4).

use super::even;
use crate::error::Error;
use crate::exp::fixed_size::{pow_sliding, FixedProducts, MAX_FIXED_WINDOW};
use crate::exp::{pow_mod_power_of_two, word::Word, Method};
use crate::kernels;
use crate::modulus::{limits, Limits};
use crate::nat::{div, Nat};
use crate::reduce::fixed::arith::{self, MontConsts};
use crate::reduce::fixed::mont2;
use crate::reduce::fixed::to_array;
use crate::registry::Algorithm;
use alloc::format;

use super::rule::ONCE_FIXED_MAX_DIGITS as MAX_DIGITS;

/// `x^e mod m` by `method` when `m` has at least two digits and its odd part at most
/// [`MAX_DIGITS`] (one-digit odd parts on the register path of [`Word`]), `x` at most
/// twice as long as `m` and `method` a sliding window of at most [`MAX_FIXED_WINDOW`] bits;
/// `None` otherwise (the caller takes a context). `m > 0`; any `x`, any `e`.
///
/// Errors: [`Error::TooMuchWork`] when the exponentiation's products
/// ([`limits::pow_products`]) times one Montgomery product of `m`'s width are over
/// `limits`, [`Error::TooMuchMemory`] when its window table and products
/// ([`limits::pow_memory`]) are, both checked before it runs.
pub(crate) fn pow(
    x: &Nat,
    e: &Nat,
    m: &Nat,
    method: Method,
    limits: &Limits,
) -> Option<Result<Nat, Error>> {
    let Method::SlidingWindow(w) = method else { return None };
    if m.len() < 2 || x.len() > 2 * m.len() || !(1..=MAX_FIXED_WINDOW).contains(&w) {
        return None;
    }
    let s = m.trailing_zeros();
    let q = if s == 0 { None } else { Some(m.shr(s)) };
    if q.as_ref().is_some_and(|q| q.len() > MAX_DIGITS) || s == 0 && m.len() > MAX_DIGITS {
        return None;
    }
    let products = limits::pow_products(e.bits(), method);
    let mul_work = Algorithm::Montgomery.info().map_or(0, |i| i.cost.mul_work(m.len() as u64));
    let checked = limits.check(products.saturating_mul(mul_work), || {
        format!(
            "an exponentiation to a {}-bit exponent modulo a {}-bit modulus by {} \
             ({} multiplications)",
            e.bits(),
            m.bits(),
            Algorithm::Montgomery,
            limits::amount(products)
        )
    });
    // The same estimate of working memory as a context's (its window table and products),
    // though the table lives on the stack here: one answer to one request either way.
    let memory = limits::pow_memory(Algorithm::Montgomery, m.len() as u64, method);
    let checked = checked.and_then(|()| {
        limits.check_memory(memory, || {
            format!(
                "an exponentiation with a {} window table modulo a {}-bit modulus by {}",
                super::profile::method_name(method),
                m.bits(),
                Algorithm::Montgomery
            )
        })
    });
    if let Err(error) = checked {
        return Some(Err(error));
    }
    let Some(q) = q else { return pow_odd(x, e, m, w).map(Ok) };
    let r2 = match pow_mod_power_of_two(x, e, s, method) {
        Ok(r2) => r2,
        Err(error) => return Some(Err(error)),
    };
    let rq = match q.len() {
        _ if q.is_one() => return Some(Ok(r2)),
        1 => {
            let word = Word::new(q.limbs()[0])?;
            Nat::from(word.pow(word.reduce(x.limbs()), e))
        }
        _ => pow_odd(x, e, &q, w)?,
    };
    let q_inv = even::inverse_mod_power_of_two(&q, s);
    Some(Ok(even::recombine(&rq, &r2, &q, s, &q_inv)))
}

/// `x^e mod q` for an odd `q` of two to [`MAX_DIGITS`] digits, `x` of at most twice as many,
/// by the sliding window of `w` bits over [`MontConsts`]' products.
fn pow_odd(x: &Nat, e: &Nat, q: &Nat, w: u32) -> Option<Nat> {
    macro_rules! width {
        ($($n:literal)*) => {
            match q.len() {
                $($n => Some(pow_fixed::<$n>(x, e, q, w)),)*
                _ => None,
            }
        };
    }
    width!(2 3 4 5 6 7)
}

// The arms of `pow_odd` cover every width up to the threshold.
const _: () = assert!(MAX_DIGITS == 7, "pow_odd's arms cover two to seven digits");

/// [`pow_odd`] at `N` digits.
fn pow_fixed<const N: usize>(x: &Nat, e: &Nat, q: &Nat, w: u32) -> Nat {
    let n = e.bits();
    if n == 0 {
        return Nat::one(); // q ≥ 2^64 > 1
    }
    let k = MontConsts::new(to_array::<N>(q));
    let base = to_montgomery::<N>(x, q, &k.m);
    let w = w.min(n as u32);
    let power = mont2::pow_sliding_lazy(&k.m, k.m_inv_128, &base, e.limbs(), n, w)
        .unwrap_or_else(|| pow_sliding(&k, &base, e.limbs(), n, w));
    // Out of the representation: one reduction of the power as a 2N-digit number.
    let value = arith::redc::<N, false>(&[power, [0; N]], &k.m, k.m0inv);
    Nat::from_vec(value.to_vec())
}

/// `x·R mod q` (`R = 2^(64N)`, `q` odd of `N` digits, also as `q_digits`) by one division:
/// `x` shifted by `N` whole digits. On the stack when `x` has at most `2N` digits (the
/// base of an odd modulus always has), normalized by `q`'s leading zeros as Algorithm D
/// needs; a longer base (an even modulus's, longer than its odd part) through [`Nat`].
fn to_montgomery<const N: usize>(x: &Nat, q: &Nat, q_digits: &[u64; N]) -> [u64; N] {
    let x = x.limbs();
    if x.len() > 2 * N {
        let mut shifted = alloc::vec![0u64; N];
        shifted.extend_from_slice(x);
        return to_array::<N>(&Nat::from_vec(shifted).checked_rem(q).expect("q is not zero"));
    }
    let shift = q_digits[N - 1].leading_zeros();
    let mut divisor = [0u64; N];
    kernels::shl_bits(&mut divisor, q_digits, shift);
    // x·2^shift·b^N, one digit more than x for the bits shifted out of its top.
    let mut dividend = [0u64; 3 * MAX_DIGITS + 1];
    let len = N + x.len() + 1;
    dividend[len - 1] = kernels::shl_bits(&mut dividend[N..len - 1], x, shift);
    div::rem_normalized_fastest(&mut dividend[..len], &divisor, None);
    // The remainder is (x·b^N mod q)·2^shift, in the low N digits.
    let mut r = [0u64; N];
    kernels::shr_bits(&mut r, &dividend[..N], shift);
    r
}

impl<const N: usize> FixedProducts<N> for MontConsts<N> {
    #[inline(always)]
    fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let mut out = [0; N];
        arith::mont_mul_vartime_into::<N>(&mut out, a, b, self);
        out
    }
    #[inline(always)]
    fn sqr(&self, a: &[u64; N]) -> [u64; N] {
        let mut out = [0; N];
        arith::mont_sqr_vartime_into::<N>(&mut out, a, self);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modulus::{Limits, Modulus};
    use modred_testkit::SplitMix64;

    /// Against the context path (`Modulus::for_powers`), odd and even moduli of 65 to 520
    /// bits with 0 to 300 trailing zero bits, bases beyond the modulus, exponents of 0 to
    /// 700 bits, every window the path takes; and the refusals.
    #[test]
    fn matches_the_context_path() {
        let mut rng = SplitMix64::new(0x0_5e1f);
        let mut rnd = |bits: u64| -> Nat {
            let d: alloc::vec::Vec<u64> = (0..bits.div_ceil(64)).map(|_| rng.next_u64()).collect();
            Nat::from_vec(d).low_bits(bits)
        };
        let mut checked = 0;
        for bits in [65u64, 100, 128, 129, 136, 176, 192, 193, 256, 300, 448, 512, 520] {
            for s in [0u64, 1, 2, 63, 64, 65, 100, 300] {
                // q odd of bits − s bits (3 when s leaves less than two bits), m = q·2^s.
                let q = match bits.checked_sub(s) {
                    Some(b) if b >= 2 => {
                        let q = rnd(b - 1).add(&Nat::power_of_two(b - 1));
                        if q.is_odd() {
                            q
                        } else {
                            q.add(&Nat::one())
                        }
                    }
                    _ => Nat::from(3u64),
                };
                let m = q.shl(s);
                let ctx = Modulus::for_powers(&m, Limits::default()).unwrap();
                for (xb, eb) in [(0, 0), (1, 1), (bits, 5), (bits + 7, bits), (2 * bits, 700)] {
                    let x = rnd(xb);
                    let e = rnd(eb);
                    for w in 1..=MAX_FIXED_WINDOW {
                        let method = Method::SlidingWindow(w);
                        let Some(got) = pow(&x, &e, &m, method, &Limits::default()) else {
                            let odd_digits = q.len();
                            let refused = x.len() > 2 * m.len() || odd_digits > MAX_DIGITS;
                            assert!(refused, "{bits} bits, s {s}");
                            continue;
                        };
                        let want = ctx
                            .to_nat(&ctx.pow_with_vartime(&ctx.residue(&x), &e, method).unwrap());
                        assert_eq!(got.unwrap(), want.unwrap(), "{bits} bits, s {s}, x {x}, e {e}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 2000, "{checked}");
        let m = Nat::power_of_two(100).add(&Nat::one());
        let (x, e) = (Nat::from(3u64), Nat::from(5u64));
        let lim = Limits::default();
        let two = Method::SlidingWindow(2);
        assert!(pow(&x, &e, &Nat::from(7u64), two, &lim).is_none(), "one digit");
        assert!(pow(&x, &e, &m, Method::Binary, &lim).is_none(), "not a sliding window");
        let wide_window = Method::SlidingWindow(MAX_FIXED_WINDOW + 1);
        assert!(pow(&x, &e, &m, wide_window, &lim).is_none());
        assert!(pow(&Nat::power_of_two(300), &e, &m, two, &lim).is_none(), "long base");
        let wide = Nat::power_of_two(64 * MAX_DIGITS as u64).add(&Nat::one());
        assert!(pow(&x, &e, &wide, two, &lim).is_none(), "one digit too many");
        let even_wide = wide.shl(3);
        assert!(pow(&x, &e, &even_wide, two, &lim).is_none(), "an odd part too wide");
        // Over the work limit: refused before it runs.
        let tight = Limits { max_work: 10, ..Limits::default() };
        let refused = pow(&x, &Nat::power_of_two(1000), &m, two, &tight);
        assert!(matches!(refused, Some(Err(Error::TooMuchWork { .. }))), "{refused:?}");
        let small = Limits { max_memory: 64, ..Limits::default() };
        let refused = pow(&x, &e, &m, two, &small);
        assert!(matches!(refused, Some(Err(Error::TooMuchMemory { .. }))), "{refused:?}");
    }
}
