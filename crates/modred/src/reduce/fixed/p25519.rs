//! Multiplication in the field of `p = 2^255 − 19` on four 64-bit digits: the full
//! product ([`arith::mul_wide`]), then the pseudo-Mersenne fold of paper 003 (Algorithm 4) taken at
//! the digit boundary: `2^256 = 2·2^255 ≡ 2·19 = 38 (mod p)`, so the high four digits are
//! multiplied by 38 and added to the low four with no shifts, the carry digit and the top bit
//! are folded by `2^255 ≡ 19` together with the `19` that tells whether `p` is to be
//! subtracted, and one subtraction of `19` or of `2^255` leaves the result in `[0, p)`. The general
//! fold (`super::pm_fold`, at bit 255) shifts every digit; this one does not. Where the
//! CPU has BMI2 and ADX, product and fold run as one block of MULX/ADCX/ADOX assembly
//! (`kernels/arch/x86_64/p25519.rs`); so do the square (ten digit products, [`sqr`]) and
//! the fold.
//!
//! Tested against `Nat` arithmetic below and through `PrimeField` in `field`'s tests; the
//! assembly against `arith::mul_wide` in its own module.

use super::arith;

/// `p = 2^255 − 19`, least significant digit first (the tests' reference: [`fold`] needs
/// only `19` and `2^255`).
#[cfg(test)]
pub(crate) const P: [u64; 4] = [u64::MAX - 18, u64::MAX, u64::MAX, u64::MAX >> 1];

/// `z mod p` for any 8-digit `z` (`z < 2^512`), in `[0, p)`. Branch-free; `CT` passes the
/// final mask through `black_box` as [`arith::sub_if_ge`] does.
///
/// `z_low + 38·z_high < 39·2^256`: four digits and a carry digit `c ≤ 38`, read as `L +
/// H·2^255` with `L < 2^255` and `H = 2c + (bit 255) ≤ 77`. Then `z ≡ V = L + 19·H < 2^255 +
/// 19·77 < 2p`, and `V ≥ p` exactly when `V + 19 ≥ 2^255`: so `u = V + 19 = L + 19·(H + 1)`
/// (below `2^256`, no carry out) has bit 255 set exactly when `p` is to be subtracted, and
/// the result is `u − 19` if that bit is clear, `u − 2^255` if it is set — in both cases `u
/// − 19·(1 − bit)` with bit 255 cleared. One pass to add, one to subtract, no comparison
/// with `p` and no selection between two results.
#[inline(always)]
pub(crate) fn fold<const CT: bool>(z: &[u64; 8]) -> [u64; 4] {
    let mut t = [0u64; 4];
    let mut carry = 0u64;
    for i in 0..4 {
        (t[i], carry) = arith::mac(z[i], z[4 + i], 38, carry);
    }
    let h = 2 * carry + (t[3] >> 63);
    t[3] &= u64::MAX >> 1;
    let mut c;
    (t[0], c) = arith::adc(t[0], 19 * (h + 1), 0);
    for v in t.iter_mut().skip(1) {
        (*v, c) = arith::adc(*v, 0, c);
    }
    arith::sub_c_or_drop_bit::<4, CT>(t, t[3] >> 63, 19, u64::MAX >> 1)
}

/// `a·b mod p` for `a, b < 2^256` (field elements are below `p`), in `[0, p)`: the
/// assembly `mul_mod_p25519_adx` where the CPU has BMI2 and ADX, else
/// [`mul_portable`]. Constant time for `CT` (the CPU check is the only branch).
#[inline(always)]
pub(crate) fn mul<const CT: bool>(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    #[cfg(x86_kernels)]
    if crate::kernels::cpu::bmi2_adx() {
        let mut out = [0u64; 4];
        // SAFETY: the CPU has BMI2 and ADX (checked just above).
        unsafe { crate::kernels::arch::x86_64::p25519::mul_mod_p25519_adx(&mut out, a, b) };
        return out;
    }
    mul_portable::<CT>(a, b)
}

/// `a² mod p` for `a < 2^256`, in `[0, p)`: the assembly `sqr_mod_p25519_adx` (ten digit
/// products where the product takes sixteen) where the CPU has BMI2 and ADX, else
/// [`sqr_portable`]. Constant time for `CT` (the CPU check is the only branch).
#[inline(always)]
pub(crate) fn sqr<const CT: bool>(a: &[u64; 4]) -> [u64; 4] {
    #[cfg(x86_kernels)]
    if crate::kernels::cpu::bmi2_adx() {
        let mut out = [0u64; 4];
        // SAFETY: the CPU has BMI2 and ADX (checked just above).
        unsafe { crate::kernels::arch::x86_64::p25519::sqr_mod_p25519_adx(&mut out, a) };
        return out;
    }
    sqr_portable::<CT>(a)
}

/// [`sqr`] on any CPU: the square by [`arith::sqr_wide`], then [`fold`]. The assembly's
/// twin.
#[inline(always)]
pub(crate) fn sqr_portable<const CT: bool>(a: &[u64; 4]) -> [u64; 4] {
    let w = arith::sqr_wide(a);
    let mut z = [0u64; 8];
    z[..4].copy_from_slice(&w[0]);
    z[4..].copy_from_slice(&w[1]);
    fold::<CT>(&z)
}

/// [`mul`] on any CPU: the product by [`arith::mul_wide`], then [`fold`]. The assembly's
/// twin.
#[inline(always)]
pub(crate) fn mul_portable<const CT: bool>(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let w = arith::mul_wide(a, b);
    let mut z = [0u64; 8];
    z[..4].copy_from_slice(&w[0]);
    z[4..].copy_from_slice(&w[1]);
    fold::<CT>(&z)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nat::Nat;
    use modred_testkit::SplitMix64;

    fn nat(d: &[u64]) -> Nat {
        Nat::from_limbs(d)
    }

    /// The fold of every kind of 8-digit number (random, all ones, `p`'s multiples and
    /// their neighbours, carries out of every stage) against `Nat`'s remainder, and the
    /// product of field elements at the edges against `Nat`.
    #[test]
    fn fold_and_product_match_nat() {
        let p = nat(&P);
        let mut rng = SplitMix64::new(0x0002_5519);
        let mut zs: alloc::vec::Vec<[u64; 8]> = alloc::vec![[u64::MAX; 8], [0; 8]];
        for k in [1u64, 2, 3, 38, 39] {
            let m = &p.mul(&Nat::from_u64(k));
            for d in [Nat::zero(), Nat::one()] {
                for v in [m + &d, if *m >= d { m - &d } else { Nat::zero() }] {
                    let mut z = [0u64; 8];
                    z[..v.len()].copy_from_slice(v.limbs());
                    zs.push(z);
                }
            }
        }
        for _ in 0..5000 {
            zs.push(core::array::from_fn(|_| rng.next_u64()));
        }
        // Where the fold decides whether to subtract p: z_low + 38·z_high = L + H·2^255 for
        // H from 0 to its largest, 77, and L + 19·H = V just below, at and above p (and
        // the extremes of L), z_high as large as it may be.
        let two255 = Nat::one().shl(255);
        let (n19, n38) = (Nat::from_u64(19), Nat::from_u64(38));
        for h in [0u64, 1, 2, 3, 38, 76, 77] {
            let h19 = n19.mul(&Nat::from_u64(h));
            let ls = [
                Nat::zero(),
                &two255 - &Nat::one(),
                &(&p - &Nat::one()) - &h19,
                &p - &h19,
                &(&p + &Nat::one()) - &h19,
            ];
            for l in ls {
                let total = &l + &two255.mul(&Nat::from_u64(h));
                let max_high = &Nat::one().shl(256) - &Nat::one();
                let q = total.div_rem(&n38).unwrap().0;
                let high = if q > max_high { max_high } else { q };
                let low = &total - &high.mul(&n38);
                let mut z = [0u64; 8];
                z[..low.len()].copy_from_slice(low.limbs());
                z[4..4 + high.len()].copy_from_slice(high.limbs());
                zs.push(z);
            }
        }
        for z in &zs {
            let want = nat(z).checked_rem(&p).unwrap();
            assert_eq!(nat(&fold::<true>(z)), want, "{z:x?}");
            assert_eq!(nat(&fold::<false>(z)), want, "{z:x?}");
        }
        let pm1 = (&p - &Nat::one()).to_padded(4).unwrap();
        let edge: [[u64; 4]; 5] = [
            [0; 4],
            [1, 0, 0, 0],
            pm1.clone().try_into().unwrap(),
            [u64::MAX - 19, u64::MAX, u64::MAX, u64::MAX >> 1],
            [u64::MAX, u64::MAX, u64::MAX, (u64::MAX >> 1) - 1],
        ];
        let mut xs: alloc::vec::Vec<[u64; 4]> = edge.to_vec();
        for _ in 0..500 {
            let v = Nat::from_limbs(&core::array::from_fn::<u64, 4, _>(|_| rng.next_u64()))
                .checked_rem(&p)
                .unwrap();
            xs.push(v.to_padded(4).unwrap().try_into().unwrap());
        }
        for a in &xs {
            for b in xs.iter().take(40) {
                let want = nat(a).mul(&nat(b)).checked_rem(&p).unwrap();
                assert_eq!(nat(&mul::<true>(a, b)), want, "{a:x?}·{b:x?}");
                assert_eq!(nat(&mul::<false>(a, b)), want);
            }
            let want = nat(a).sqr().checked_rem(&p).unwrap();
            assert_eq!(nat(&sqr::<true>(a)), want, "{a:x?}²");
            assert_eq!(nat(&sqr_portable::<true>(a)), want, "{a:x?}² (portable)");
        }
    }
}
