//! Paper 002 (`hong`): its reduction, window multiplication, squaring and exponentiation
//! against `num-bigint` and against Montgomery, for odd and even moduli of 64 to 4096
//! bits, sliding and fixed windows 1 to 8, the exponents 0, 1, 2 and all ones;
//! exhaustively with `u8` digits and tiny moduli. (The operation counts of the paper's
//! Table 1 are tested with the counting driver, in `modred-research`.)

mod reduce_util;

use modred::exp::{self, Method};
use modred::reduce::hong::default_shift;
use modred::reduce::{Hong, Montgomery};
use modred::{Algorithm, Limb, Modulus, Nat, Reducer, Scratch};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use num_traits::One;
use reduce_util::{edge_moduli, from_big, to_big, BigDraws};

/// Residue of `x` for `h`, via the oracle.
fn res<L: Limb>(h: &Hong<L>, x: &BigUint) -> Vec<L> {
    h.to_residue(&from_big(x))
}

/// mul (table built per call), mul_by_table, sqr and reduce_raw of `h` against the oracle.
fn check_ops<L: Limb>(h: &Hong<L>, m: &BigUint, rng: &mut SplitMix64, rounds: usize) {
    let k = h.width();
    let mut scratch = Scratch::new();
    let mut out = vec![L::ZERO; k];
    let mut specials = vec![BigUint::from(0u32), BigUint::one(), m - 1u32];
    for _ in 0..rounds {
        specials.push(rng.big_below(m));
    }
    for (i, a) in specials.iter().enumerate() {
        let b = &specials[(i * 7 + 3) % specials.len()];
        let (ra, rb) = (res(h, a), res(h, b));
        h.mul(&mut out, &ra, &rb, &mut scratch);
        assert_eq!(to_big(&Nat::from_limbs(&out)), (a * b) % m, "mul {a} {b} mod {m}");
        let table = h.window_table(&rb);
        h.mul_by_table(&mut out, &ra, &table, &mut scratch);
        assert_eq!(to_big(&Nat::from_limbs(&out)), (a * b) % m, "table mul {a} {b} mod {m}");
        h.sqr(&mut out, &ra, &mut scratch);
        assert_eq!(to_big(&Nat::from_limbs(&out)), (a * a) % m, "sqr {a} mod {m}");
        // reduce_raw of an unbounded argument: a·b·m + a + something beyond m².
        let x = a * b + rng.big_bits(m.bits() + 3 * L::BITS as u64);
        let xn: Nat<L> = from_big(&x);
        h.reduce_raw(&mut out, xn.limbs(), &mut scratch);
        assert_eq!(to_big(&Nat::from_limbs(&out)), &x % m, "reduce {x} mod {m}");
    }
}

fn moduli<L: Limb>(k: usize, rng: &mut SplitMix64) -> Vec<BigUint> {
    let mut v = edge_moduli::<L>(k, rng);
    let bits = L::BITS as u64 * k as u64;
    v.push(rng.big_exact_bits(bits) | BigUint::one()); // odd
    v.push((rng.big_exact_bits(bits) >> 1usize) << 1usize); // even
    v.push(rng.big_exact_bits(bits - L::BITS as u64 / 2 - 1)); // small top digit
    v.retain(|m| m.bits() > 0);
    v
}

fn differential_ops<L: Limb>(ks: &[usize], rounds: usize, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for &k in ks {
        for m in moduli::<L>(k, &mut rng) {
            for w in [1, default_shift::<L>(), L::BITS - 1] {
                if w > 16 {
                    continue;
                }
                let h = Hong::<L>::with_shift(&from_big(&m), w).unwrap();
                check_ops(&h, &m, &mut rng, rounds);
            }
        }
    }
}

#[test]
fn operations_match_num_bigint_u8_u16() {
    differential_ops::<u8>(&[1, 2, 3, 5, 8, 13], 6, 1);
    differential_ops::<u16>(&[1, 2, 4, 7, 16, 33], 6, 2);
}

#[test]
fn operations_match_num_bigint_u32_u64() {
    differential_ops::<u32>(&[1, 2, 3, 8, 17], 5, 3);
    differential_ops::<u64>(&[1, 2, 3, 4, 8, 16, 32, 64], 3, 4);
}

/// Exponents: 0, 1, 2, all ones of the modulus's length, and a random one.
fn exponents(rng: &mut SplitMix64, bits: u64) -> Vec<BigUint> {
    vec![
        BigUint::from(0u32),
        BigUint::one(),
        BigUint::from(2u32),
        (BigUint::one() << bits) - 1u32,
        rng.big_exact_bits(bits),
    ]
}

#[test]
fn powm_matches_num_bigint_and_montgomery() {
    let mut rng = SplitMix64::new(5);
    for bits in [64u64, 65, 127, 256, 521, 1024, 2048, 4096] {
        let windows: &[u32] = if bits > 1024 { &[1, 5, 8] } else { &[1, 2, 3, 4, 5, 6, 7, 8] };
        let odd = rng.big_exact_bits(bits) | BigUint::one();
        let even = (rng.big_exact_bits(bits) >> 1usize) << 1usize;
        for m in [odd, even] {
            let mn: Nat = from_big(&m);
            let hong = Modulus::with(Algorithm::Hong, &mn).unwrap();
            let mont = m.bit(0).then(|| Modulus::with(Algorithm::Montgomery, &mn).unwrap());
            let base = rng.big_below(&m);
            let es = exponents(&mut rng, if bits > 1024 { 160 } else { bits });
            for e in &es {
                let want = base.modpow(e, &m);
                let en: Nat = from_big(e);
                let got = hong.pow_mod_vartime(&from_big(&base), &en);
                assert_eq!(
                    to_big(got.as_ref().unwrap()),
                    want,
                    "{bits} bits, default window, e = {e}"
                );
                if let Some(mont) = &mont {
                    assert_eq!(mont.pow_mod_vartime(&from_big(&base), &en), got);
                }
                for &w in windows {
                    let b = hong.residue(&from_big(&base));
                    for method in [Method::SlidingWindow(w), Method::FixedWindow(w)] {
                        if bits > 1024 && matches!(method, Method::FixedWindow(8)) {
                            continue; // 255 tables of k² digits: slow, nothing new
                        }
                        let r = hong.pow_with_vartime(&b, &en, method).unwrap();
                        assert_eq!(
                            to_big(&hong.to_nat(&r).unwrap()),
                            want,
                            "{bits} bits {method:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn powm_generic_digits_match_num_bigint() {
    fn run<L: Limb>(seed: u64) {
        let mut rng = SplitMix64::new(seed);
        for k in [1usize, 2, 3, 6] {
            for m in moduli::<L>(k, &mut rng) {
                let h = Hong::<L>::new(&from_big(&m)).unwrap();
                let base = rng.big_below(&m);
                for e in exponents(&mut rng, 40) {
                    for method in [Method::Binary, Method::SlidingWindow(3), Method::FixedWindow(2)]
                    {
                        let r = exp::hong::pow_vartime(&h, &res(&h, &base), &from_big(&e), method)
                            .unwrap();
                        assert_eq!(to_big(&Nat::from_limbs(&r)), base.modpow(&e, &m), "{m}");
                    }
                }
            }
        }
    }
    run::<u8>(6);
    run::<u16>(7);
}

#[test]
fn pow_rejects_bad_arguments() {
    let h = Hong::<u64>::new(&Nat::from(1_000_003u64)).unwrap();
    let e = Nat::from(5u64);
    assert!(exp::hong::pow_vartime(&h, &[3], &e, Method::SlidingWindow(0)).is_err());
    assert!(exp::hong::pow_vartime(&h, &[3], &e, Method::FixedWindow(17)).is_err());
    assert!(exp::hong::pow_vartime(&h, &[1_000_003], &e, Method::Binary).is_err());
    assert!(exp::hong::pow_vartime(&h, &[3, 0], &e, Method::Binary).is_err());
    assert!(Hong::<u64>::new(&Nat::from(0u64)).is_err());
    assert!(Hong::<u64>::with_shift(&Nat::from(7u64), 0).is_err());
    assert!(Hong::<u64>::with_shift(&Nat::from(7u64), 17).is_err());
    assert!(Hong::<u8>::with_shift(&Nat::from(7u64), 8).is_err());
}

/// Every modulus of one `u8` digit, every pair of residues, every square, every
/// reduction of an argument below m·b, with the shifts 1, 4 and 7 (s = 2, 16, 128); and
/// every base for the exponents 0 … 12.
#[test]
fn exhaustive_u8_one_digit() {
    for m in 1u32..256 {
        let mn = Nat::<u8>::from_u64(m as u64);
        for w in [1, 4, 7] {
            let h = Hong::<u8>::with_shift(&mn, w).unwrap();
            let mut scratch = Scratch::new();
            let mut out = [0u8];
            for a in 0..m {
                // Every pair for s = 16; every seventh b for the other shifts.
                let step = if w == 4 { 1 } else { 7 };
                for b in (0..m).step_by(step) {
                    h.mul(&mut out, &[a as u8], &[b as u8], &mut scratch);
                    assert_eq!(out[0] as u32, a * b % m, "{a}·{b} mod {m}, w = {w}");
                }
                h.sqr(&mut out, &[a as u8], &mut scratch);
                assert_eq!(out[0] as u32, a * a % m);
            }
            // Every argument below m·b for s = 16; those below m² for the other shifts.
            let top = if w == 4 { m * 256 } else { m * m };
            for x in 0u32..top {
                h.reduce_raw(&mut out, &[x as u8, (x >> 8) as u8], &mut scratch);
                assert_eq!(out[0] as u32, x % m);
            }
            if w == 4 {
                for a in 0..m {
                    for e in 0u32..13 {
                        let en = Nat::<u8>::from_u64(e as u64);
                        let r =
                            exp::hong::pow_vartime(&h, &[a as u8], &en, Method::SlidingWindow(3))
                                .unwrap();
                        let want = (0..e).fold(1 % m, |acc, _| acc * a % m);
                        assert_eq!(r[0] as u32, want, "{a}^{e} mod {m}");
                    }
                }
            }
        }
    }
}

/// Two-digit `u8` moduli (a spread of them, top digits 1 … 255): every residue squared,
/// every residue times a fixed set through the window table.
#[test]
fn exhaustive_u8_two_digits() {
    for m in (256u32..65536).step_by(1021).chain([256, 257, 511, 32768, 32769, 65534, 65535]) {
        let h = Hong::<u8>::new(&Nat::from_u64(m as u64)).unwrap();
        let mut scratch = Scratch::new();
        let mut out = [0u8; 2];
        let tables: Vec<_> = [1u32, 2, m / 3, m - 1]
            .iter()
            .map(|&b| (b, h.window_table(&[b as u8, (b >> 8) as u8])))
            .collect();
        for a in 0..m {
            let ra = [a as u8, (a >> 8) as u8];
            h.sqr(&mut out, &ra, &mut scratch);
            assert_eq!(u16::from_le_bytes(out) as u64, (a as u64 * a as u64) % m as u64);
            for (b, t) in &tables {
                h.mul_by_table(&mut out, &ra, t, &mut scratch);
                assert_eq!(u16::from_le_bytes(out) as u64, (a as u64 * *b as u64) % m as u64);
            }
        }
    }
}

/// Montgomery and hong agree on every multiplication and squaring of random residues
/// (u64 digits, odd moduli), through `Modulus`.
#[test]
fn mul_and_sqr_agree_with_montgomery() {
    let mut rng = SplitMix64::new(9);
    for bits in [64u64, 100, 512, 1536, 4096] {
        let m = rng.big_exact_bits(bits) | BigUint::one();
        let mn: Nat = from_big(&m);
        let hong = Modulus::with(Algorithm::Hong, &mn).unwrap();
        let mont = Montgomery::<u64>::new(&mn).unwrap();
        let mont_ctx = Modulus::with(Algorithm::Montgomery, &mn).unwrap();
        assert_eq!(mont.algorithm(), Algorithm::Montgomery);
        for _ in 0..4 {
            let (a, b): (Nat, Nat) = (from_big(&rng.big_below(&m)), from_big(&rng.big_below(&m)));
            assert_eq!(hong.mul_mod(&a, &b), mont_ctx.mul_mod(&a, &b));
            let ra = hong.residue(&a);
            assert_eq!(hong.to_nat(&hong.sqr(&ra).unwrap()), Ok(mont_ctx.mul_mod(&a, &a)));
        }
    }
}
