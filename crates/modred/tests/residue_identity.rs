//! Residues belong to their modulus: every `Modulus` method given a residue of another
//! `Modulus` returns `Error::ForeignResidue` — for every algorithm, for residues of another
//! width, of the same width, and of the same modulus built twice — never a wrong answer, a
//! panic or a hang; an output residue of another modulus is only written (adopted).

use modred::reduce::{make, NistPrime, Scratch};
use modred::{Algorithm, Error, Modulus, Nat, Residue};
use modred_testkit::SplitMix64;

/// A modulus of each special form and of each width class, and the algorithms that apply.
fn moduli() -> Vec<Nat> {
    let mut rng = SplitMix64::new(0x1d_e117);
    vec![
        Nat::from(1_000_003u64),
        Nat::from_vec(rng.odd_modulus(256)),
        Nat::from_vec(rng.odd_modulus(200)),
        Nat::from_vec(rng.odd_modulus(1024)).add(&Nat::one()), // even
        &Nat::power_of_two(255) - &Nat::from(19u64),
        NistPrime::P384.modulus(),
        &(&Nat::power_of_two(256) - &Nat::power_of_two(64)) - &Nat::one(), // Solinas
    ]
}

/// Every method that takes a residue, with `foreign` in each operand position in turn
/// (`own` in the others): each must be `Err(ForeignResidue)`.
fn every_method_refuses(md: &Modulus, own: &Residue, foreign: &Residue, what: &str) {
    let e = Nat::from(65_537u64);
    let refused = |r: Result<(), Error>, op: &str| {
        assert_eq!(r, Err(Error::ForeignResidue), "{op}: {what} ({})", md.algorithm());
    };
    let unit = |r: Result<Residue, Error>| r.map(|_| ());
    refused(md.to_nat(foreign).map(|_| ()), "to_nat");
    refused(unit(md.add(foreign, own)), "add");
    refused(unit(md.add(own, foreign)), "add");
    refused(unit(md.sub(foreign, own)), "sub");
    refused(unit(md.sub(own, foreign)), "sub");
    refused(unit(md.neg(foreign)), "neg");
    refused(unit(md.mul(foreign, own)), "mul");
    refused(unit(md.mul(own, foreign)), "mul");
    refused(unit(md.sqr(foreign)), "sqr");
    refused(md.inverse(foreign).map(|_| ()), "inverse");
    let mut out = md.zero();
    refused(md.mul_into(&mut out, foreign, own), "mul_into");
    refused(md.mul_into(&mut out, own, foreign), "mul_into");
    refused(md.sqr_into(&mut out, foreign), "sqr_into");
    let mut a = foreign.clone();
    refused(md.mul_assign(&mut a, own), "mul_assign");
    assert_eq!(&a, foreign, "a refused operand is left as it was");
    refused(md.sqr_assign(&mut a), "sqr_assign");
    assert_eq!(&a, foreign);
    let mut a = own.clone();
    refused(md.mul_assign(&mut a, foreign), "mul_assign");
    assert_eq!(&a, own);
    refused(unit(md.pow_vartime(foreign, &e)), "pow_vartime");
    refused(
        unit(md.pow_with_vartime(foreign, &e, modred::exp::Method::FixedWindow(4))),
        "pow_with_vartime",
    );
    if md.modulus().is_odd() {
        refused(unit(md.mul_ct(foreign, own)), "mul_ct");
        refused(unit(md.mul_ct(own, foreign)), "mul_ct");
        refused(unit(md.sqr_ct(foreign)), "sqr_ct");
        refused(unit(md.pow_ct(foreign, &e)), "pow_ct");
    }
}

#[test]
fn a_residue_of_another_modulus_is_an_error_for_every_algorithm_and_method() {
    let all = moduli();
    for m in &all {
        for &algorithm in Algorithm::ALL.iter().filter(|a| a.applies(m)) {
            let md = Modulus::with(algorithm, m).unwrap();
            let own = md.residue(&Nat::from(12_345u64));
            // The same modulus and algorithm, another context.
            let twin = Modulus::with(algorithm, m).unwrap();
            every_method_refuses(&md, &own, &twin.residue(&Nat::from(7u64)), "a twin's residue");
            // Every other modulus (other widths, values and algorithms), with a residue
            // near its top: the largest digits another modulus's residue can have.
            for other in all.iter().filter(|o| *o != m) {
                let omd = Modulus::new(other).unwrap();
                let top = omd.residue(&(other - &Nat::one()));
                every_method_refuses(&md, &own, &top, "a residue of another modulus");
            }
            // Own residues still work after all the refusals.
            let sq = md.sqr(&own).unwrap();
            assert_eq!(md.to_nat(&sq).unwrap(), &Nat::from(12_345u64 * 12_345) % m, "{algorithm}");
        }
    }
}

/// `pow_vartime` used to panic (`expect`) for a residue of another modulus, with every
/// algorithm; now it is an error.
#[test]
fn pow_vartime_with_a_foreign_residue_is_an_error_not_a_panic() {
    let small = Modulus::new(&Nat::from(97u64)).unwrap();
    let m = Nat::from_vec(SplitMix64::new(5).odd_modulus(512));
    for &algorithm in Algorithm::ALL.iter().filter(|a| a.applies(&m)) {
        let md = Modulus::with(algorithm, &m).unwrap();
        let big = md.residue(&(&m - &Nat::one()));
        assert_eq!(small.pow_vartime(&big, &Nat::from(3u64)), Err(Error::ForeignResidue));
        assert_eq!(
            md.pow_vartime(&small.residue(&Nat::from(5u64)), &Nat::from(3u64)),
            Err(Error::ForeignResidue),
            "{algorithm}"
        );
    }
}

/// `ntt-montgomery`'s `sqr` and `mul_assign` used to hang on the residue of another modulus
/// of the same width (a correction loop subtracting `m` once per step, about `B^k/m`
/// times): through `Modulus` it is refused, and the reducer itself now finishes any
/// argument with a remainder instead.
#[test]
fn ntt_montgomery_with_a_foreign_residue_neither_hangs_nor_answers() {
    // m has a small top digit, the other modulus's residue a large one.
    let m = Nat::power_of_two(192).add(&Nat::from(0x1_0000_0001u64));
    let other = &Nat::power_of_two(256) - &Nat::from(189u64);
    let md = Modulus::with(Algorithm::NttMontgomery, &m).unwrap();
    let omd = Modulus::with(Algorithm::NttMontgomery, &other).unwrap();
    let foreign = omd.residue(&(&other - &Nat::from(2u64)));
    assert_eq!(md.sqr(&foreign), Err(Error::ForeignResidue));
    let mut a = foreign.clone();
    assert_eq!(md.mul_assign(&mut a, &md.one()), Err(Error::ForeignResidue));
    assert_eq!(md.sqr_assign(&mut a), Err(Error::ForeignResidue));

    // The reducer on such digits (outside its contract: below B^k, not below m) still
    // computes d·e·R⁻¹ mod m — the same as on the digits reduced modulo m first.
    let r = make::<u64>(Algorithm::NttMontgomery, &m).unwrap();
    let (d, e) = (foreign.limbs(), omd.residue(&Nat::from(3u64)).limbs().to_vec());
    let reduced = |v: &[u64]| (&Nat::from_limbs(v) % &m).to_padded(r.width()).unwrap();
    let (d_m, e_m) = (reduced(d), reduced(&e));
    let (mut got, mut want) = (vec![0u64; r.width()], vec![0u64; r.width()]);
    let mut scratch = Scratch::new();
    r.sqr(&mut got, d, &mut scratch);
    r.sqr(&mut want, &d_m, &mut scratch);
    assert_eq!(got, want, "sqr");
    r.mul(&mut got, d, &e, &mut scratch);
    r.mul(&mut want, &d_m, &e_m, &mut scratch);
    assert_eq!(got, want, "mul");
    // And an argument longer than the bound allows (any number of digits).
    let long: Vec<u64> = (0..3 * r.width() + 5).map(|i| u64::MAX - i as u64).collect();
    r.reduce_raw(&mut got, &long, &mut scratch);
    r.reduce_raw(&mut want, &reduced(&long), &mut scratch);
    assert_eq!(got, want, "reduce_raw of a long argument");
}

/// `Modulus::inverse` against num-bigint-free arithmetic: `r·r⁻¹ = 1` for every algorithm that
/// applies, `None` for a shared factor.
#[test]
fn inverses_for_every_algorithm() {
    for m in moduli() {
        for &algorithm in Algorithm::ALL {
            let Ok(md) = Modulus::with(algorithm, &m) else { continue };
            for x in [1u64, 2, 3, 12345, 0xffff_ffff_ffff] {
                let r = md.residue(&Nat::from(x));
                let shares = !m.gcd(&Nat::from(x)).is_one();
                match md.inverse(&r).unwrap() {
                    None => assert!(shares, "{x} mod {m:?} by {algorithm}"),
                    Some(y) => {
                        let one = md.to_nat(&md.mul(&r, &y).unwrap()).unwrap();
                        assert!(one.is_one() || m.is_one(), "{x} mod {m:?} by {algorithm}");
                    }
                }
            }
            assert_eq!(md.inverse(&md.zero()).unwrap().is_some(), m.is_one());
        }
    }
}
