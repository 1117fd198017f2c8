//! `Modulus` at the RSA sizes (512–4158 bits), where on a CPU with AVX-512 IFMA its
//! Montgomery multiplication and exponentiation run in radix 2^52: the results must equal
//! the classical reducer's and num-bigint's, for random and edge operands. On other CPUs
//! (and with the `portable` feature) the same checks run the word-level path.

use modred::exp::Method;
use modred::{Algorithm, Modulus, Nat};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;

fn big(x: &Nat) -> BigUint {
    BigUint::from_bytes_le(&x.to_bytes_le())
}

#[test]
fn mul_sqr_pow_agree_with_classical_and_num_bigint() {
    let mut rng = SplitMix64::new(0x5eed_0008);
    for bits in [512u64, 1000, 1024, 1536, 2048, 3072, 4096, 4158] {
        for round in 0..2 {
            let m = if round == 0 {
                Nat::power_of_two(bits).checked_sub(&Nat::one()).unwrap() // all ones
            } else {
                let mut v = Nat::from_vec(rng.below_pow2(bits)).into_limbs();
                v[0] |= 1;
                let top = (bits - 1) % 64;
                v[((bits - 1) / 64) as usize] |= 1 << top;
                Nat::from_vec(v)
            };
            // The all-ones modulus is pseudo-Mersenne (auto picks that): force Montgomery.
            let auto = if round == 0 {
                Modulus::with(Algorithm::Montgomery, &m).unwrap()
            } else {
                Modulus::new(&m).unwrap()
            };
            assert!(matches!(
                auto.algorithm(),
                Algorithm::Montgomery | Algorithm::MontgomeryInterleaved
            ));
            let classical = Modulus::with(Algorithm::Classical, &m).unwrap();
            let m1 = m.checked_sub(&Nat::one()).unwrap();
            let xs = [
                Nat::zero(),
                Nat::one(),
                m1.clone(),
                Nat::from_vec(rng.below_pow2(bits + 7)),
                Nat::from_vec(rng.below_pow2(bits)),
            ];
            for x in &xs {
                for y in &xs {
                    let got = auto.to_nat(&auto.mul(&auto.residue(x), &auto.residue(y)).unwrap());
                    let want = classical.mul_mod(x, y);
                    assert_eq!(got, Ok(want), "{bits}-bit mul");
                    assert_eq!(big(&got.unwrap()), big(x) * big(y) % big(&m));
                }
                let sq = auto.to_nat(&auto.sqr(&auto.residue(x)).unwrap());
                assert_eq!(big(&sq.unwrap()), big(x) * big(x) % big(&m), "{bits}-bit sqr");
            }
            let e = Nat::from_vec(rng.below_pow2(if bits > 2048 { 300 } else { bits }));
            for x in &xs {
                let want = big(x).modpow(&big(&e), &big(&m));
                assert_eq!(big(&auto.pow_mod_vartime(x, &e).unwrap()), want, "{bits}-bit pow");
                let r = auto.residue(x);
                for method in [Method::Binary, Method::FixedWindow(4)] {
                    let p = auto.pow_with_vartime(&r, &e, method).unwrap();
                    assert_eq!(big(&auto.to_nat(&p).unwrap()), want, "{bits}-bit pow, {method:?}");
                }
            }
            // m − 1 squared is 1; x^0 is 1; windows are still checked.
            assert_eq!(auto.pow_mod_vartime(&m1, &Nat::from(2u64)), Ok(Nat::one()));
            assert_eq!(auto.pow_mod_vartime(&m1, &Nat::zero()), Ok(Nat::one()));
            let r = auto.residue(&m1);
            assert!(auto.pow_with_vartime(&r, &e, Method::SlidingWindow(17)).is_err());
            assert!(auto.pow_with_vartime(&r, &e, Method::FixedWindow(0)).is_err());
        }
    }
}
