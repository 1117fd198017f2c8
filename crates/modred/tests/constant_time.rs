//! The constant-time API (`Modulus::{mul_ct, sqr_ct, pow_ct}`, `add`/`sub`/`neg`) against
//! num-bigint, through a context of every algorithm that applies (a new algorithm joins by
//! being in `Algorithm::ALL`). The timing itself is checked by `crates/ct-check`.

use modred::{Algorithm, Error, Modulus, Nat};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;

fn big(n: &Nat) -> BigUint {
    BigUint::from_slice(
        &n.limbs().iter().flat_map(|&d| [d as u32, (d >> 32) as u32]).collect::<Vec<_>>(),
    )
}

fn contexts(m: &Nat) -> Vec<Modulus> {
    Algorithm::ALL.iter().filter_map(|&a| Modulus::with(a, m).ok()).collect()
}

#[test]
fn ct_operations_agree_with_num_bigint_for_every_algorithm() {
    let mut rng = SplitMix64::new(0x5ec2e7);
    for k in [1usize, 2, 4, 7, 16] {
        for round in 0..4 {
            let mut m = Nat::from_vec(rng.digits(k)).into_limbs();
            m[0] |= 1;
            if round == 1 {
                m.fill(u64::MAX);
            }
            if round == 2 {
                m[k - 1] = 1;
            }
            let m = Nat::from_vec(m);
            let bm = big(&m);
            let (x, y, e) = (
                Nat::from_vec(rng.digits(k + 1)),
                Nat::from_vec(rng.digits(k)),
                Nat::from_vec(rng.digits(k)),
            );
            let (bx, by, be) = (big(&x), big(&y), big(&e));
            for ctx in contexts(&m) {
                let (a, b) = (ctx.residue(&x), ctx.residue(&y));
                let got = |r: &modred::Residue| big(&ctx.to_nat(r).unwrap());
                assert_eq!(got(&ctx.mul_ct(&a, &b).unwrap()), &bx * &by % &bm);
                assert_eq!(got(&ctx.sqr_ct(&a).unwrap()), &bx * &bx % &bm);
                assert_eq!(got(&ctx.pow_ct(&a, &e).unwrap()), bx.modpow(&be, &bm));
                assert_eq!(got(&ctx.pow_ct(&a, &Nat::zero()).unwrap()), BigUint::from(1u8) % &bm);
                assert_eq!(got(&ctx.add(&a, &b).unwrap()), (&bx + &by) % &bm);
                assert_eq!(got(&ctx.sub(&a, &b).unwrap()), (&bx % &bm + &bm - &by % &bm) % &bm);
                assert_eq!(got(&ctx.neg(&a).unwrap()), (&bm - &bx % &bm) % &bm);
                let zero = ctx.zero();
                assert_eq!(got(&ctx.neg(&zero).unwrap()), BigUint::from(0u8));
            }
        }
    }
}

#[test]
fn ct_refuses_even_moduli_and_long_exponents() {
    let even = Modulus::new(&Nat::from(1_000_000u64)).unwrap();
    let a = even.residue(&Nat::from(3u64));
    assert!(matches!(even.pow_ct(&a, &Nat::from(5u64)), Err(Error::NotApplicable { .. })));
    assert!(matches!(even.mul_ct(&a, &a), Err(Error::NotApplicable { .. })));
    let odd = Modulus::new(&Nat::from(1_000_003u64)).unwrap();
    let a = odd.residue(&Nat::from(3u64));
    let long = Nat::power_of_two(64);
    assert!(matches!(odd.pow_ct(&a, &long), Err(Error::OutOfRange { .. })));
    // m = 1: everything is 0.
    let one = Modulus::new(&Nat::one()).unwrap();
    let z = one.residue(&Nat::from(5u64));
    assert_eq!(one.to_nat(&one.pow_ct(&z, &Nat::zero()).unwrap()), Ok(Nat::zero()));
}
