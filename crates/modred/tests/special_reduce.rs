//! The special-prime reducers of paper 003 (pseudo-Mersenne, generic Solinas, hard-coded
//! NIST) against `num-bigint` on each of their primes, with random and edge arguments,
//! on 64-, 32- and 8-bit digits; their applicability errors; Table 2's weights.

mod reduce_util;

use modred::reduce::{make, NistPrime, SolinasPoly};
use modred::{Algorithm, Error, Limb, Nat};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use num_traits::One;
use reduce_util::{check, edge_xs, from_big, pow_b, to_big, BigDraws};

/// 2^n − c.
fn pm(n: u64, c: u64) -> BigUint {
    (BigUint::one() << n) - c
}

/// Random arguments (below m², below the bound) and edge ones, and multiplication pairs.
fn inputs<L: Limb>(m: &BigUint, rng: &mut SplitMix64) -> (Vec<BigUint>, Vec<(BigUint, BigUint)>) {
    let k = m.bits().div_ceil(L::BITS as u64) as usize;
    let mut xs = edge_xs::<L>(m, k);
    let m2 = m * m;
    let one = BigUint::one();
    xs.extend([(m - 1u32) * (m - 1u32), &m2 - 1u32, (&one << (2 * m.bits())) - 1u32]);
    for i in 0..60 {
        xs.push(match i % 3 {
            0 => rng.big_below(&m2),
            1 => rng.big_below(&pow_b::<L>(2 * k)),
            _ => rng.big_structured(2 * k, L::BITS),
        });
    }
    let mut pairs = vec![
        (m - 1u32, m - 1u32),
        (BigUint::from(0u32), m - 1u32),
        (one.clone(), m - 1u32),
        (m - 2u32, m - 1u32),
    ];
    for _ in 0..30 {
        pairs.push((rng.big_below(m), rng.big_below(m)));
    }
    (xs, pairs)
}

fn check_on_digits(alg: Algorithm, m: &BigUint, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let (xs, pairs) = inputs::<u64>(m, &mut rng);
    check::<u64>(alg, m, &xs, &pairs);
    let (xs, pairs) = inputs::<u32>(m, &mut rng);
    check::<u32>(alg, m, &xs, &pairs);
    let (xs, pairs) = inputs::<u8>(m, &mut rng);
    check::<u8>(alg, m, &xs[..xs.len().min(40)], &pairs[..10]);
}

/// The pseudo-Mersenne primes: Table 1 (each n with its first and last c), moduli with
/// N not a multiple of the digit size, and a c of several digits (Algorithm 3).
fn pseudo_mersenne_moduli() -> Vec<BigUint> {
    let mut v = vec![pm(255, 19), pm(130, 5), pm(521, 1), pm(127, 1), pm(61, 1), pm(31, 1)];
    for (n, c) in [
        (160, 47),
        (160, 843),
        (192, 237),
        (224, 63),
        (256, 189),
        (256, 923),
        (320, 197),
        (384, 317),
        (448, 203),
        (512, 569),
        (512, 975),
    ] {
        v.push(pm(n, c));
    }
    // c of two and more 64-bit digits: Algorithm 3 (not prime; the reduction needs no prime).
    v.push((BigUint::one() << 256u32) - (BigUint::one() << 100u32) - 1u32);
    v.push((BigUint::one() << 521u32) - (BigUint::one() << 200u32) - 12345u32);
    v
}

#[test]
fn pseudo_mersenne_against_num_bigint() {
    for (i, m) in pseudo_mersenne_moduli().iter().enumerate() {
        check_on_digits(Algorithm::PseudoMersenne, m, 100 + i as u64);
    }
}

/// The primes of Table 2 and the NIST primes.
fn gm_primes() -> Vec<BigUint> {
    NistPrime::ALL.iter().map(|p| to_big(&p.modulus::<u64>())).collect()
}

#[test]
fn solinas_against_num_bigint() {
    for (i, m) in gm_primes().iter().enumerate() {
        if *m == pm(521, 1) {
            continue; // 2^521 − 1 is no f(2^32) or f(2^64)
        }
        check_on_digits(Algorithm::Solinas, m, 200 + i as u64);
    }
    // A few more generalized Mersenne numbers (the reduction does not need a prime).
    for (f, w) in [("t^4 - t^3 + t - 1", 64), ("t^5 - t^2 - t - 1", 32), ("t^2 - t - 1", 64)] {
        let m = to_big(&SolinasPoly::parse(f, w).unwrap().modulus::<u64>());
        check_on_digits(Algorithm::Solinas, &m, 300);
    }
}

#[test]
fn nist_against_num_bigint() {
    for (i, m) in gm_primes().iter().enumerate() {
        check_on_digits(Algorithm::Nist, m, 400 + i as u64);
    }
}

#[test]
fn nist_on_many_random_products() {
    // The hard-coded sums have many carry patterns: 20 000 random and structured
    // products per prime against num-bigint.
    let mut rng = SplitMix64::new(9);
    for p in NistPrime::ALL {
        let m = to_big(&p.modulus::<u64>());
        let r = make::<u64>(Algorithm::Nist, &from_big(&m)).unwrap();
        let mut out = vec![0u64; r.width()];
        let mut scratch = modred::Scratch::new();
        for i in 0..20_000 {
            let (a, b) = if i % 2 == 0 {
                (rng.big_below(&m), rng.big_below(&m))
            } else {
                let k = r.width();
                (rng.big_structured(k, 64) % &m, rng.big_structured(k, 64) % &m)
            };
            let z = &a * &b;
            let zl = from_big::<u64>(&z).to_padded(2 * r.width()).unwrap();
            r.reduce_raw(&mut out, &zl, &mut scratch);
            assert_eq!(to_big(&Nat::from_limbs(&out)), z % &m, "{}", p.name());
        }
    }
}

#[test]
fn bad_moduli_are_refused_with_the_form_named() {
    let p256 = from_big::<u64>(&to_big(&NistPrime::P256.modulus::<u64>()));
    let c25519 = from_big::<u64>(&pm(255, 19));
    let cases: &[(Algorithm, Nat<u64>, &str)] = &[
        (Algorithm::PseudoMersenne, p256.clone(), "pseudo-Mersenne modulus m = 2^N - c"),
        (Algorithm::PseudoMersenne, Nat::from(3u64), "pseudo-Mersenne"),
        (Algorithm::PseudoMersenne, Nat::power_of_two(100), "pseudo-Mersenne"),
        (Algorithm::Solinas, c25519.clone(), "generalized Mersenne modulus"),
        (Algorithm::Solinas, Nat::power_of_two(128).add(&Nat::one()), "generalized Mersenne"),
        (Algorithm::Nist, c25519, "P-256"),
        (Algorithm::Nist, p256.add(&Nat::from(2u64)), "P-192"),
    ];
    for (alg, m, needle) in cases {
        match make::<u64>(*alg, m) {
            Err(Error::NotApplicable { algorithm, reason }) => {
                assert_eq!(algorithm, alg.name());
                assert!(reason.contains(needle), "{alg}: {reason}");
            }
            Err(e) => panic!("{alg}: unexpected {e}"),
            Ok(_) => panic!("{alg} accepted m = {}", m.to_decimal()),
        }
    }
    for alg in [Algorithm::PseudoMersenne, Algorithm::Solinas, Algorithm::Nist] {
        assert_eq!(make::<u64>(alg, &Nat::zero()).err(), Some(Error::ZeroModulus));
    }
    // Beyond the input bound: an error, not a wrong answer.
    let r = make::<u64>(Algorithm::Nist, &from_big(&pm(521, 1))).unwrap();
    let big_x = Nat::power_of_two(1042);
    assert!(matches!(r.reduce(&big_x), Err(Error::OutOfRange { .. })));
}

#[test]
fn table_2_weights_are_computed() {
    // (f, W, p, w_a, w_s) as printed in paper 003, Table 2.
    let table: &[(&str, u32, &str, usize, usize)] = &[
        ("t^3 - t - 1", 64, "2^192 - 2^64 - 1", 3, 0),
        ("t^7 - t^3 + 1", 32, "2^224 - 2^96 + 1", 2, 2),
        ("t^8 - t^7 + t^6 + t^3 - 1", 32, "2^256 - 2^224 + 2^192 + 2^96 - 1", 6, 4),
        ("t^12 - t^4 - t^3 + t - 1", 32, "2^384 - 2^128 - 2^96 + 2^32 - 1", 7, 3),
        ("t^14 - t^7 - 1", 32, "2^448 - 2^224 - 1", 3, 0),
        ("t^16 - t - 1", 32, "2^512 - 2^32 - 1", 3, 0),
    ];
    for &(f, w, p_text, wa, ws) in table {
        let poly = SolinasPoly::parse(f, w).unwrap();
        assert_eq!((poly.add_weight(), poly.sub_weight()), (wa, ws), "{f}");
        // p = f(b), evaluated independently from the printed sum of powers of two.
        let mut p = BigUint::from(0u32);
        let mut neg = BigUint::from(0u32);
        for (k, term) in p_text.split(' ').enumerate() {
            if let Some(e) = term.strip_prefix("2^") {
                let sign = if k == 0 { "+" } else { p_text.split(' ').nth(k - 1).unwrap() };
                let v = BigUint::one() << e.parse::<u32>().unwrap();
                if sign == "-" {
                    neg += v;
                } else {
                    p += v;
                }
            } else if term == "1" {
                let sign = p_text.split(' ').nth(k - 1).unwrap();
                if sign == "-" {
                    neg += 1u32;
                } else {
                    p += 1u32;
                }
            }
        }
        let p = p - neg;
        assert_eq!(to_big(&poly.modulus::<u64>()), p, "{f}");
        // Found back from p (the lowest-weight word size).
        let found = SolinasPoly::find(&from_big::<u64>(&p)).unwrap();
        assert_eq!(found.to_text(), f);
        assert_eq!(found.word_bits(), w);
    }
    // The worked example of §6.1: X_f and A_f of t^3 − t − 1.
    let poly = SolinasPoly::parse("t^3 - t - 1", 64).unwrap();
    assert_eq!(poly.reduction_matrix(), vec![vec![1, 1, 0], vec![0, 1, 1], vec![1, 1, 1]]);
    assert_eq!(
        poly.addition_matrix(),
        vec![
            vec![Some(3), Some(3), Some(4)],
            vec![Some(5), Some(4), Some(5)],
            vec![None, Some(5), None]
        ]
    );
    assert!(poly.subtraction_matrix().is_empty());
    // P-192 on 32-bit words (§6.1's remark).
    let p192 = SolinasPoly::parse("t^6 - t^2 - 1", 32).unwrap();
    assert_eq!(p192.modulus::<u64>(), NistPrime::P192.modulus());
}

#[test]
fn bad_polynomials_are_refused() {
    for (f, w) in [
        ("t^3 - t - 1", 16),
        ("", 64),
        ("t^3 + t + 1", 64),
        ("-t^3 - 1", 64),
        ("t^3 - 2t - 1", 64),
        ("t^3 - t - t - 1", 64),
        ("t^3 -- 1", 64),
        ("x^3 - 1", 64),
        ("t^99999 - 1", 64),
        ("1", 64),
    ] {
        assert!(SolinasPoly::parse(f, w).is_err(), "{f} accepted");
    }
}

/// Polynomials whose reduction matrix grows exponentially (every coefficient −1: the
/// weights double with each row) are refused at once with the weights named, never a
/// capacity overflow or terabytes of matrices; the automatic choice treats their moduli
/// as generic, and light polynomials of the same degree still work.
#[test]
fn heavy_solinas_polynomials_are_refused_within_bounds() {
    use modred::reduce::SOLINAS_MAX_WEIGHT as MAX_WEIGHT;
    for (n, w) in [(100usize, 64u32), (300, 64), (512, 64), (40, 32)] {
        let terms: Vec<String> = (1..n).rev().map(|i| format!(" - t^{i}")).collect();
        let text = format!("t^{n}{} - 1", terms.concat());
        let poly = SolinasPoly::parse(&text, w).unwrap();
        assert!(poly.add_weight().saturating_add(poly.sub_weight()) > MAX_WEIGHT, "{n}");
        let err = poly.check_weights().unwrap_err().to_string();
        assert!(err.contains("w_a + w_s") && err.contains("montgomery or barrett"), "{err}");
        assert!(poly.to_json().is_err());
        let m = poly.modulus::<u64>();
        let forced = modred::Modulus::with(Algorithm::Solinas, &m);
        assert!(matches!(forced, Err(Error::NotApplicable { .. })), "{n}");
        // auto: a generic algorithm, and right.
        let auto = modred::Modulus::new(&m).unwrap();
        assert_ne!(auto.algorithm(), Algorithm::Solinas);
        let x = auto.residue(&Nat::from(12345u64));
        let y = auto.mul(&x, &x).unwrap();
        assert_eq!(auto.to_nat(&y).unwrap(), Nat::from(12345u64 * 12345));
    }
    // A light polynomial of the largest degree still builds.
    let light = SolinasPoly::parse("t^512 - t^256 - 1", 64).unwrap();
    assert!(light.check_weights().is_ok());
    let md = modred::Modulus::with(Algorithm::Solinas, &light.modulus::<u64>()).unwrap();
    let x = md.residue(&Nat::from(3u64));
    assert_eq!(md.to_nat(&md.mul(&x, &x).unwrap()).unwrap(), Nat::from(9u64));
}

/// The form tests refuse most moduli by a few bits before any arithmetic; they must agree
/// with the definitions on moduli at the edges of each form and on random ones: 2^n − c
/// with `2·bits(c) < n`, and `d = b^n − m` in signed digits of {−1, 0, 1} (`b = 2^64` or
/// `2^32`, the carry propagated from the lowest word).
#[test]
fn form_tests_agree_with_their_definitions() {
    fn pm_reference(m: &BigUint) -> Option<(u64, BigUint)> {
        let n = m.bits();
        if n < 3 {
            return None;
        }
        let c = (BigUint::one() << n) - m;
        (c != BigUint::from(0u8) && 2 * c.bits() < n).then_some((n, c))
    }
    /// The coefficients `c_i = −e_i`, when `d` has such digits.
    fn solinas_reference(m: &BigUint, w: u64) -> Option<Vec<i8>> {
        let n = m.bits().div_ceil(w);
        // The reducer's largest degree (MAX_DEGREE in the source).
        if n == 0 || n > 512 {
            return None;
        }
        let mut coeffs = Vec::new();
        let mut d = (BigUint::one() << (n * w)) - m;
        let base = BigUint::one() << w;
        let mut carry = BigUint::from(0u8);
        for _ in 0..n {
            let v = (&d % &base) + &carry;
            d >>= w;
            let (c, next) = if v == BigUint::from(0u8) {
                (0, 0u8)
            } else if v == BigUint::one() {
                (-1, 0)
            } else if v == &base - 1u8 {
                (1, 1)
            } else if v == base {
                (0, 1)
            } else {
                return None;
            };
            coeffs.push(c);
            carry = BigUint::from(next);
        }
        (carry == BigUint::from(0u8)).then_some(coeffs)
    }
    let mut rng = SplitMix64::new(0x5eed_f0f0);
    let mut moduli: Vec<BigUint> = Vec::new();
    for n in [3u64, 4, 5, 31, 32, 33, 63, 64, 65, 96, 127, 128, 129, 192, 255, 256, 521] {
        let h = (n - 1) / 2;
        for c in [1u64, 2, 3, 5, 189] {
            if BigUint::from(c) < (BigUint::one() << n) {
                moduli.push(pm(n, c));
            }
        }
        // c at the edge of 2^h, on each side.
        let edge = BigUint::one() << h;
        for c in [&edge - 1u8, edge.clone(), &edge + 1u8] {
            if c < (BigUint::one() << n) && c > BigUint::from(0u8) {
                moduli.push((BigUint::one() << n) - c);
            }
        }
        // Generalized Mersenne shapes: 2^n ± 2^k ± 1 and low words 0, 1 and b − 1.
        for k in [n / 3, n / 2, 32, 64] {
            if k > 0 && k < n {
                moduli.push((BigUint::one() << n) - (BigUint::one() << k) - 1u8);
                moduli.push((BigUint::one() << n) + (BigUint::one() << k) - 1u8);
                moduli.push((BigUint::one() << n) - (BigUint::one() << k) + 1u8);
            }
        }
        moduli.push((BigUint::one() << n) + 1u8);
        moduli.push((BigUint::one() << n) - 1u8);
        for _ in 0..4 {
            let r = BigUint::from(rng.next_u64()) << (n.saturating_sub(64));
            moduli.push((BigUint::one() << n) - 1u8 - (r % (BigUint::one() << n.min(40))));
            moduli.push(((BigUint::one() << n) | BigUint::from(rng.next_u64())) >> 1);
        }
    }
    for m in moduli.iter().filter(|m| m.bits() >= 2) {
        let nat = from_big::<u64>(m);
        let got = modred::reduce::pseudo_mersenne_form(&nat).map(|(n, c)| (n, to_big(&c)));
        assert_eq!(got, pm_reference(m), "pseudo-Mersenne form of {m}");
        for w in [64u32, 32] {
            let found = SolinasPoly::from_modulus(&nat, w);
            let reference =
                solinas_reference(m, w as u64).and_then(|c| SolinasPoly::new(c, w).ok());
            assert_eq!(found, reference, "{m} in words of {w} bits");
            if let Some(f) = found {
                assert_eq!(to_big(&f.modulus::<u64>()), *m);
            }
        }
    }
}

/// Each NIST prime is recognized in every digit size, and its neighbours (one differing in
/// the lowest digit, one differing only above it) are not.
#[test]
fn nist_primes_are_recognized_and_their_neighbours_are_not() {
    fn on<L: Limb>() {
        for p in NistPrime::ALL {
            let big = p.modulus::<u64>();
            let m: Nat<L> = from_big(&to_big(&big));
            assert_eq!(NistPrime::of(&m), Some(p), "{p:?}");
            for other in [to_big(&big) - 2u32, to_big(&big) - (BigUint::one() << 100)] {
                let n: Nat<L> = from_big(&other);
                assert_eq!(NistPrime::of(&n), None, "{p:?}: {other:#x}");
            }
        }
    }
    on::<u8>();
    on::<u16>();
    on::<u32>();
    on::<u64>();
}
