//! The allocation-free multiplication path of `Modulus` (`mul_into`, `sqr_into`,
//! `mul_assign`, `sqr_assign`) and the allocating `mul`/`sqr` that share it, at every
//! path it dispatches to — the fixed-size Montgomery reducers (1–8 digits), the IFMA
//! product (16–65 digits on a CPU with AVX-512 IFMA; the word-level reducers elsewhere),
//! the boxed reducers with the per-thread working space — against num-bigint and, for
//! Montgomery, digit for digit against the slice `Montgomery` reducer (the same
//! representation). Random and edge operands: 0, 1, m − 1, all-ones moduli.

use modred::modulus::Operation;
use modred::reduce::{Montgomery, Reducer, Scratch};
use modred::{Algorithm, Modulus, Nat};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;

fn big(x: &Nat) -> BigUint {
    BigUint::from_bytes_le(&x.to_bytes_le())
}

/// Every form of the multiplication through `ctx` on the values `xs`, against num-bigint.
fn check_context(ctx: &Modulus, xs: &[Nat], what: &str) {
    let m = big(ctx.modulus());
    let rs: Vec<_> = xs.iter().map(|x| ctx.residue(x)).collect();
    let mut out = ctx.zero();
    // An output of another width is resized.
    let mut odd_out = Modulus::new(&Nat::from(7u64)).unwrap().zero();
    for (x, rx) in xs.iter().zip(&rs) {
        let want_sq = big(x).pow(2) % &m;
        ctx.sqr_into(&mut out, rx).unwrap();
        assert_eq!(big(&ctx.to_nat(&out).unwrap()), want_sq, "{what}: sqr_into");
        assert_eq!(big(&ctx.to_nat(&ctx.sqr(rx).unwrap()).unwrap()), want_sq, "{what}: sqr");
        let mut a = rx.clone();
        ctx.sqr_assign(&mut a).unwrap();
        assert_eq!(a, out, "{what}: sqr_assign");
        for (y, ry) in xs.iter().zip(&rs) {
            let want = big(x) * big(y) % &m;
            ctx.mul_into(&mut out, rx, ry).unwrap();
            assert_eq!(big(&ctx.to_nat(&out).unwrap()), want, "{what}: mul_into");
            assert_eq!(ctx.mul(rx, ry).as_ref(), Ok(&out), "{what}: mul");
            let mut a = rx.clone();
            ctx.mul_assign(&mut a, ry).unwrap();
            assert_eq!(a, out, "{what}: mul_assign");
            ctx.mul_into(&mut odd_out, rx, ry).unwrap();
            assert_eq!(odd_out, out, "{what}: mul_into, resized output");
        }
    }
    // A chain: x^(2^5)·x by squarings in place, against num-bigint.
    if let (Some(x), Some(rx)) = (xs.last(), rs.last()) {
        let mut acc = rx.clone();
        for _ in 0..5 {
            ctx.sqr_assign(&mut acc).unwrap();
        }
        ctx.mul_assign(&mut acc, rx).unwrap();
        assert_eq!(
            big(&ctx.to_nat(&acc).unwrap()),
            big(x).modpow(&BigUint::from(33u32), &m),
            "{what}"
        );
    }
}

/// Values to multiply modulo `m` of `bits` bits: 0, 1, m − 1, and random ones.
fn values(rng: &mut SplitMix64, m: &Nat, bits: u64) -> Vec<Nat> {
    vec![
        Nat::zero(),
        Nat::one(),
        m.checked_sub(&Nat::one()).unwrap(),
        Nat::from_vec(rng.below_pow2(bits + 5)),
        Nat::from_vec(rng.below_pow2(bits)),
    ]
}

#[test]
fn every_path_agrees_with_num_bigint() {
    let mut rng = SplitMix64::new(0x5eed_1708);
    let sizes = [
        2u64, 63, 64, 65, 128, 192, 255, 256, 320, 384, 448, // fixed-size, 1–8 digits
        512, // IFMA where the CPU has it (from 512 bits), else fixed-size
        576, 768, 960, 1024, 1030, 1536, 2048, 3072, 4096, 4158, // IFMA, else slices
        4200, 4500, // beyond IFMA's range
    ];
    for bits in sizes {
        for round in 0..2 {
            let m = if round == 0 {
                Nat::power_of_two(bits).checked_sub(&Nat::one()).unwrap() // all ones
            } else {
                Nat::from_vec(rng.odd_modulus(bits))
            };
            let xs = values(&mut rng, &m, bits);
            for algo in [
                Algorithm::Montgomery,
                Algorithm::MontgomeryInterleaved,
                Algorithm::Barrett,
                Algorithm::Classical,
            ] {
                let ctx = Modulus::with(algo, &m).unwrap();
                check_context(&ctx, &xs, &format!("{algo}, {bits} bits, round {round}"));
            }
            for op in [Operation::MulMod, Operation::PowMod] {
                let ctx = Modulus::for_operation(&m, op).unwrap();
                check_context(&ctx, &xs, &format!("auto {op:?}, {bits} bits, round {round}"));
            }
        }
    }
}

/// Even moduli and the special forms go through the boxed reducers.
#[test]
fn even_and_special_moduli() {
    let mut rng = SplitMix64::new(0x5eed_1709);
    let moduli = [
        Nat::one(),
        Nat::from(2u64),
        Nat::power_of_two(256),
        Nat::from_vec(rng.below_pow2(1000)).shl(3),
        &Nat::power_of_two(255) - &Nat::from(19u64),
        modred::reduce::NistPrime::P256.modulus(),
        modred::reduce::NistPrime::P384.modulus(),
        modred::reduce::NistPrime::P521.modulus(),
    ];
    for m in &moduli {
        let bits = m.bits().max(1);
        let mut xs = vec![
            Nat::zero(),
            Nat::one(),
            Nat::from_vec(rng.below_pow2(bits + 3)),
            Nat::from_vec(rng.below_pow2(bits)),
        ];
        if let Some(m1) = m.checked_sub(&Nat::one()) {
            xs.push(m1);
        }
        let ctx = Modulus::new(m).unwrap();
        check_context(&ctx, &xs, &format!("auto, {} bits", m.bits()));
        for algo in modred::Algorithm::ALL {
            if let Ok(ctx) = Modulus::with(*algo, m) {
                check_context(&ctx, &xs, &format!("{algo}, {} bits", m.bits()));
            }
        }
    }
}

/// The Montgomery contexts' residues digit for digit against the slice reducer's `mul`
/// and `sqr` (the fixed-size and IFMA paths must give the same representation).
#[test]
fn montgomery_paths_match_the_slice_reducer() {
    let mut rng = SplitMix64::new(0x5eed_170a);
    for bits in [64u64, 200, 256, 512, 1024, 1100, 2048, 2100, 4096] {
        let m = Nat::from_vec(rng.odd_modulus(bits));
        let slice = Montgomery::<u64>::new(&m).unwrap();
        let mut s = Scratch::new();
        for algo in [Algorithm::Montgomery, Algorithm::MontgomeryInterleaved] {
            let ctx = Modulus::with(algo, &m).unwrap();
            let xs = values(&mut rng, &m, bits);
            let mut out = ctx.zero();
            let mut want = vec![0u64; m.len()];
            for x in &xs {
                let rx = ctx.residue(x);
                let sx = slice.to_residue(x);
                for y in &xs {
                    let ry = ctx.residue(y);
                    ctx.mul_into(&mut out, &rx, &ry).unwrap();
                    slice.mul(&mut want, &sx, &slice.to_residue(y), &mut s);
                    assert_eq!(ctx.residue(&ctx.to_nat(&out).unwrap()), out);
                    assert_eq!(
                        slice.from_residue(&want),
                        ctx.to_nat(&out).unwrap(),
                        "{algo} {bits}"
                    );
                    assert_eq!(slice.to_residue(&ctx.to_nat(&out).unwrap()), want, "{algo} {bits}");
                }
                ctx.sqr_into(&mut out, &rx).unwrap();
                slice.sqr(&mut want, &sx, &mut s);
                assert_eq!(slice.to_residue(&ctx.to_nat(&out).unwrap()), want, "{algo} {bits} sqr");
            }
        }
    }
}

/// The per-thread working space is per thread: contexts used from several threads at
/// once give the same answers.
#[test]
fn threads_share_nothing() {
    let mut rng = SplitMix64::new(0x5eed_170b);
    let m = Nat::from_vec(rng.odd_modulus(700));
    let ctx = Modulus::with(Algorithm::Barrett, &m).unwrap();
    let (x, y) = (Nat::from_vec(rng.below_pow2(700)), Nat::from_vec(rng.below_pow2(700)));
    let want = big(&x) * big(&y) % big(&m);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                let (rx, ry) = (ctx.residue(&x), ctx.residue(&y));
                let mut out = ctx.zero();
                for _ in 0..200 {
                    ctx.mul_into(&mut out, &rx, &ry).unwrap();
                    assert_eq!(big(&ctx.to_nat(&out).unwrap()), want);
                }
            });
        }
    });
}
