//! The constant-time exponentiation at RSA sizes, where it runs in radix 2^52 on AVX-512
//! IFMA (`ct::MontgomeryCt::pow_uses_ifma`): `Modulus::pow_ct` against the variable-time
//! exponentiation and num-bigint, and the three ways `MontgomeryCt` can compute it — the
//! dispatching `pow`, the digit-level `pow_word` and the radix-2^52 method on the portable
//! kernels (`pow_radix52_portable`, what the valgrind check runs) — against each other.
//! Random and edge operands: exponents 0, 1, all ones, m − 1, m − 2 and random; bases 0, 1,
//! m − 1 and random; moduli all ones, top digit 1 and random, at odd bit lengths too.
//!
//! On a CPU without IFMA `pow` is `pow_word`, and the radix-2^52 method is still tested
//! through its portable twin.

use modred::ct::{MontgomeryCt, IFMA_MAX_BITS, IFMA_MIN_BITS};
use modred::{Algorithm, Modulus, Nat};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;

fn big(n: &Nat) -> BigUint {
    BigUint::from_slice(
        &n.limbs().iter().flat_map(|&d| [d as u32, (d >> 32) as u32]).collect::<Vec<_>>(),
    )
}

/// Odd moduli of `bits` bits: all ones, the top digit 1 (when `bits` allows), random.
fn moduli(rng: &mut SplitMix64, bits: u64) -> Vec<Nat> {
    let mut out = vec![&Nat::power_of_two(bits) - &Nat::one()];
    if bits % 64 == 1 {
        let mut v = Nat::from_vec(rng.exact_bits(bits)).into_limbs();
        v[0] |= 1;
        out.push(Nat::from_vec(v));
    }
    let mut v = Nat::from_vec(rng.exact_bits(bits)).into_limbs();
    v[0] |= 1;
    out.push(Nat::from_vec(v));
    out
}

fn exponents(rng: &mut SplitMix64, m: &Nat) -> Vec<Nat> {
    let k = m.len();
    let all_ones = &Nat::power_of_two(64 * k as u64) - &Nat::one();
    vec![
        Nat::zero(),
        Nat::one(),
        Nat::from(2u64),
        all_ones,
        m - &Nat::one(),
        m - &Nat::from(2u64),
        Nat::from_vec((0..k).map(|_| rng.next_u64()).collect()),
    ]
}

#[test]
fn pow_ct_agrees_with_vartime_and_num_bigint() {
    let mut rng = SplitMix64::new(0x001f_3ac7);
    for bits in [512, 1024, 1089, 2048, 3000, 3072, 4096] {
        for m in moduli(&mut rng, bits) {
            let bm = big(&m);
            let bases = [
                Nat::zero(),
                Nat::one(),
                &m - &Nat::one(),
                Nat::from_vec(rng.exact_bits(bits + 3)),
            ];
            let exps = exponents(&mut rng, &m);
            for algo in [Algorithm::Auto, Algorithm::Montgomery, Algorithm::Barrett] {
                let ctx = Modulus::with(algo, &m).unwrap();
                // Automatic context: every base with one random exponent, every exponent
                // with one random base; the forced ones (other residue representations
                // converted in and out): one case.
                let cases: Vec<(&Nat, &Nat)> = if algo == Algorithm::Auto {
                    bases
                        .iter()
                        .map(|x| (x, &exps[exps.len() - 1]))
                        .chain(exps.iter().map(|e| (&bases[3], e)))
                        .collect()
                } else {
                    vec![(&bases[3], &exps[exps.len() - 1])]
                };
                for (x, e) in cases {
                    let got = ctx.to_nat(&ctx.pow_ct(&ctx.residue(x), e).unwrap());
                    assert_eq!(
                        big(got.as_ref().unwrap()),
                        big(x).modpow(&big(e), &bm),
                        "{bits} bits, {algo:?}"
                    );
                    assert_eq!(got, ctx.pow_mod_vartime(x, e), "{bits} bits, {algo:?}");
                }
            }
        }
    }
}

#[test]
fn montgomery_ct_pow_paths_agree() {
    let mut rng = SplitMix64::new(0x5252);
    // 4158: the IFMA path's upper bound (`ct::IFMA_MAX_BITS`, 0 in a build without the path).
    for bits in [511, 512, 700, 1024, 2049, 4096, 4158] {
        for m in moduli(&mut rng, bits) {
            let ct = MontgomeryCt::new(&m).unwrap();
            let k = ct.width();
            let in_range = (IFMA_MIN_BITS..=IFMA_MAX_BITS).contains(&bits);
            let mut t = vec![0; ct.scratch_len()];
            let residue = |x: &Nat, t: &mut Vec<u64>| {
                let mut r = vec![0; k];
                ct.to_montgomery(&mut r, &x.to_padded(k).unwrap(), t);
                r
            };
            let x = Nat::from_vec(rng.exact_bits(bits)).checked_rem(&m).unwrap();
            let bases = [
                residue(&Nat::zero(), &mut t),
                residue(&Nat::one(), &mut t),
                {
                    let m1 = &m - &Nat::one();
                    residue(&m1, &mut t)
                },
                residue(&x, &mut t),
            ];
            let exps: Vec<Vec<u64>> =
                exponents(&mut rng, &m).iter().map(|e| e.to_padded(k).unwrap()).collect();
            let random_e = &exps[exps.len() - 1];
            // The random base with every exponent, every base with the random exponent, and
            // a short (one digit) and an empty exponent slice: the time is set by the
            // slice's length, the result by its value.
            let mut cases: Vec<(&[u64], &[u64])> =
                exps.iter().map(|e| (&bases[3][..], &e[..])).collect();
            cases.extend(bases[..3].iter().map(|b| (&b[..], &random_e[..])));
            cases.push((&bases[3], &random_e[..1]));
            cases.push((&bases[3], &[]));
            for (i, &(base, es)) in cases.iter().enumerate() {
                let (mut a, mut b, mut c) = (vec![0; k], vec![0; k], vec![0; k]);
                ct.pow(&mut a, base, es);
                ct.pow_word(&mut b, base, es);
                assert_eq!(a, b, "{bits} bits, case {i}: pow and pow_word");
                // The portable twin is slow: every case up to 2048 bits, a few above.
                if bits <= 2048 || i % 4 == 0 {
                    assert_eq!(ct.pow_radix52_portable(&mut c, base, es), in_range);
                    if in_range {
                        assert_eq!(c, b, "{bits} bits, case {i}: the portable radix-2^52 twin");
                    }
                }
            }
            // The value, once per modulus: x^(m−1) against num-bigint.
            let e = (&m - &Nat::one()).to_padded(k).unwrap();
            let mut r = vec![0; k];
            ct.pow(&mut r, &residue(&x, &mut t), &e);
            let mut back = vec![0; k];
            ct.from_montgomery(&mut back, &r, &mut t);
            let want = big(&x).modpow(&(big(&m) - 1u8), &big(&m));
            assert_eq!(big(&Nat::from_vec(back)), want, "{bits} bits");
        }
    }
}

#[test]
fn ifma_path_is_taken_where_the_cpu_has_it() {
    // Not a timing claim: which path runs is a property of the build, the CPU and the size.
    let m = &Nat::power_of_two(2048) - &Nat::one();
    let ct = MontgomeryCt::new(&m).unwrap();
    // The library's answer, which MODRED_CPU_OFF can hide the feature from.
    let cpu = modred::cpu_features().contains(&"avx512ifma");
    let built = IFMA_MAX_BITS != 0;
    assert_eq!(ct.pow_uses_ifma(), cpu && built);
    let small = MontgomeryCt::<u64>::new(&Nat::from(1_000_003u64)).unwrap();
    assert!(!small.pow_uses_ifma());
    // The counting digit never takes it (its operations must be counted).
    let counted = MontgomeryCt::<modred::Counted<u64>>::new(&Nat::from_vec(
        m.limbs().iter().map(|&d| modred::Counted(d)).collect(),
    ))
    .unwrap();
    assert!(!counted.pow_uses_ifma());
}
