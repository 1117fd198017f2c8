//! The sliding-window exponentiation of [`super::sliding`] on residues of a const number
//! `N` of 64-bit digits: the accumulator and the window table are arrays on the stack and
//! the products are the fixed-size reducers' own, inlined into the loop.
//!
//! Why: at two to eight digits a product costs 20 to 200 cycles, and the generic loop's
//! call through `dyn Reducer`, its slice-length checks and its residues in heap vectors
//! were a fifth to a third of an exponentiation (perf, 128-bit moduli).

use super::{bit, odd_window};

/// The widest window whose table (`2^(w−1)` odd powers) lives on the stack here: 32
/// residues, 2 KiB at eight digits. Wider windows, for exponents of thousands of bits,
/// take the generic loop.
pub(crate) const MAX_FIXED_WINDOW: u32 = 6;

/// Products of residues of `N` digits in some representation, by value.
pub(crate) trait FixedProducts<const N: usize> {
    /// The residue of the product of the values of `a` and `b`.
    fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N];
    /// The residue of the square of the value of `a`.
    fn sqr(&self, a: &[u64; N]) -> [u64; N];
}

/// The residue of `base^e` for a residue `base`, an exponent `e` of `n ≥ 1` bits (top
/// bit `n − 1` set) and a window `1 ≤ w ≤ min(n, MAX_FIXED_WINDOW)`: HAC Algorithm 14.85,
/// the same squarings and multiplications as [`super::sliding::pow`] and so the same
/// result. On a CPU with BMI2 and ADX the loop is compiled for them, so the products'
/// MULX code is inlined into it.
pub(crate) fn pow_sliding<const N: usize, R: FixedProducts<N>>(
    r: &R,
    base: &[u64; N],
    e: &[u64],
    n: u64,
    w: u32,
) -> [u64; N] {
    debug_assert!(n >= 1 && (1..=MAX_FIXED_WINDOW).contains(&w) && w as u64 <= n);
    #[cfg(x86_kernels)]
    {
        #[target_feature(enable = "bmi2,adx")]
        unsafe fn fast<const N: usize, R: FixedProducts<N>>(
            r: &R,
            base: &[u64; N],
            e: &[u64],
            n: u64,
            w: u32,
        ) -> [u64; N] {
            sliding(r, base, e, n, w)
        }
        if crate::kernels::cpu::bmi2_adx() {
            // SAFETY: the CPU has BMI2 and ADX (checked just above), the only requirement
            // of a function compiled with those target features.
            return unsafe { fast(r, base, e, n, w) };
        }
    }
    sliding(r, base, e, n, w)
}

#[inline(always)]
fn sliding<const N: usize, R: FixedProducts<N>>(
    r: &R,
    base: &[u64; N],
    e: &[u64],
    n: u64,
    w: u32,
) -> [u64; N] {
    // table[j] holds base^(2j+1).
    let mut table = [[0u64; N]; 1 << (MAX_FIXED_WINDOW - 1)];
    let size = 1usize << (w - 1);
    table[0] = *base;
    if size > 1 {
        let square = r.sqr(base);
        for j in 1..size {
            table[j] = r.mul(&table[j - 1], &square);
        }
    }
    let (low, value) = odd_window(e, n - 1, w);
    let mut acc = table[value >> 1];
    // One squaring and one multiplication in the loop's body, each inlined once: the
    // multiplication by the open window's odd power comes after the squaring at its low
    // end (`mul_at`, none open while it is `u64::MAX`).
    let (mut mul_at, mut odd) = (u64::MAX, 0);
    for i in (0..low).rev() {
        if mul_at == u64::MAX && bit(e, i) {
            (mul_at, odd) = odd_window(e, i, w);
        }
        acc = r.sqr(&acc);
        if i == mul_at {
            acc = r.mul(&acc, &table[odd >> 1]);
            mul_at = u64::MAX;
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::MAX_FIXED_WINDOW;
    use crate::exp::{pow_loops, Method};
    use crate::kernels::tests::Rng;
    use crate::nat::Nat;
    use crate::reduce::fixed::{BarrettFixed, MontgomeryFixed, NistFixed, PseudoMersenneFixed};
    use crate::reduce::{NistPrime, Reducer, Scratch};
    use alloc::vec::Vec;

    /// Every fixed-size reducer's own loop against the generic loop over its
    /// `Reducer::mul`/`sqr` (the same algorithm on slices): bases with long carry chains,
    /// exponents from one bit to three times the modulus, every window the loop takes;
    /// wider windows are left to the generic loop.
    fn matches_generic_loop<R: Reducer<u64>>(r: &R, rng: &mut Rng) {
        let k = r.width();
        let m = r.modulus().clone();
        // Exponents of exactly `bits` bits (the loop's precondition), random below the top.
        let mut exps: Vec<Nat> = [1, 2, 3, 7, 64, 64 * k as u64 + 1, 192 * k as u64]
            .iter()
            .map(|&bits| {
                let low = Nat::from_vec(rng.digits(bits.div_ceil(64) as usize));
                low.low_bits(bits - 1).add(&Nat::power_of_two(bits - 1))
            })
            .collect();
        exps.push(Nat::power_of_two(64 * k as u64).add(&Nat::from(u64::MAX)));
        // Arguments outside the method's bounds are refused, not run.
        let base = r.to_residue(&Nat::from(3u64));
        let e = Nat::from(0b1011u64);
        assert!(r.pow_sliding_window(&base, e.limbs(), 5, 2).is_none(), "bit 4 is zero");
        assert!(r.pow_sliding_window(&base, e.limbs(), 0, 1).is_none(), "no bits");
        assert!(r.pow_sliding_window(&base, e.limbs(), 4, 0).is_none(), "no window");
        assert!(r.pow_sliding_window(&base, e.limbs(), 4, 5).is_none(), "window above the bits");
        assert!(r.pow_sliding_window(&base[..k - 1], e.limbs(), 4, 2).is_none(), "short base");
        for _ in 0..4 {
            let x = Nat::from_vec(rng.digits(k)).checked_rem(&m).unwrap();
            let base = r.to_residue(&x);
            for e in &exps {
                let n = e.bits();
                for w in 1..=MAX_FIXED_WINDOW + 1 {
                    let w = w.min(n as u32);
                    let own = r.pow_sliding_window(&base, e.limbs(), n, w);
                    if w > MAX_FIXED_WINDOW {
                        assert!(own.is_none(), "{k} digits, window {w}");
                        continue;
                    }
                    let want =
                        pow_loops(r, &base, e, Method::SlidingWindow(w), &mut Scratch::new())
                            .unwrap();
                    assert_eq!(
                        own.as_deref(),
                        Some(&want[..]),
                        "{k} digits, {n}-bit exponent, window {w}"
                    );
                }
            }
        }
    }

    macro_rules! each_width {
        ($f:ident) => {
            $f!(1);
            $f!(2);
            $f!(3);
            $f!(4);
            $f!(5);
            $f!(6);
            $f!(7);
            $f!(8);
        };
    }

    #[test]
    fn fixed_loops_match_the_generic_loop() {
        let mut rng = Rng::new(0xf1ed_100b);
        macro_rules! generic_moduli {
            ($n:literal) => {
                for _ in 0..3 {
                    let mut d: Vec<u64> = rng.digits($n);
                    d[$n - 1] |= 1 << 63;
                    let m = Nat::from_vec(d);
                    if let Ok(r) = BarrettFixed::<$n>::new(&m) {
                        matches_generic_loop(&r, &mut rng);
                    }
                    let odd = if m.is_odd() { m } else { m.add(&Nat::one()) };
                    if odd.len() == $n {
                        matches_generic_loop(&MontgomeryFixed::<$n>::new(&odd).unwrap(), &mut rng);
                    }
                }
                // 2^(64N) − c with a one-digit c.
                let m = Nat::power_of_two(64 * $n).checked_sub(&Nat::from(0xbc5u64)).unwrap();
                matches_generic_loop(&PseudoMersenneFixed::<$n>::new(&m).unwrap(), &mut rng);
            };
        }
        each_width!(generic_moduli);
        for p in NistPrime::ALL {
            let m = p.modulus::<u64>();
            macro_rules! nist {
                ($n:literal) => {
                    if m.len() == $n {
                        matches_generic_loop(&NistFixed::<$n>::new(&m).unwrap(), &mut rng);
                    }
                };
            }
            each_width!(nist);
        }
    }
}
