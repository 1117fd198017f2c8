//! Paper 004: the radix-2 Montgomery multiplication (§2) and its recoded form (§4), against
//! `num-bigint`, against our word-level Montgomery reducer and against each other. Every
//! recoded product's raw output is checked to be below 2n. (The cycle-level model of the
//! datapaths of §5 is tested in `modred-research`.)

mod reduce_util;

use modred::reduce::{make, Montgomery, Radix2Montgomery, Radix2MontgomeryRecoded, Scratch};
use modred::{Algorithm, Error, Limb, Modulus, Nat, Reducer};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use reduce_util::{from_big, to_big, BigDraws};

const ALGS: [Algorithm; 2] = [Algorithm::Radix2Montgomery, Algorithm::Radix2MontgomeryRecoded];

fn padded<L: Limb>(x: &BigUint, w: usize) -> Vec<L> {
    from_big::<L>(x).to_padded(w).expect("operand fits the width")
}

/// Checks both raw products of `a·b` modulo `n` (both below `n`) against the oracle and
/// returns them (plain, recoded) for the model comparison.
fn check_raw<L: Limb>(n: &BigUint, a: &BigUint, b: &BigUint) -> (BigUint, BigUint) {
    let nn: Nat<L> = from_big(n);
    let w = nn.len();
    let k = n.bits();
    let ab = (a * b) % n;
    let (al, bl) = (padded::<L>(a, w), padded::<L>(b, w));
    let mut s = vec![L::MAX; w + 1];

    let plain = Radix2Montgomery::new(&nn).unwrap();
    assert_eq!(plain.bits(), k);
    plain.mul_raw(&mut s, &al, &bl);
    let sp = to_big(&Nat::from_limbs(&s));
    assert!(sp < n << 1, "plain raw {sp:#x} not below 2n, n = {n:#x}");
    assert_eq!((&sp << k) % n, ab, "plain raw: A·B·2^-k, A = {a:#x}, B = {b:#x}, n = {n:#x}");

    let rec = Radix2MontgomeryRecoded::new(&nn).unwrap();
    let corr = rec.correction(&al);
    let cb = to_big(&Nat::from_limbs(&corr));
    assert!(cb < *n && (&cb << k) % n == a % n, "correction of {a:#x} mod {n:#x}");
    s.fill(L::MAX);
    rec.mul_raw(&mut s, &al, &bl, &corr);
    let sr = to_big(&Nat::from_limbs(&s));
    assert!(sr < n << 1, "recoded raw {sr:#x} not below 2n, A = {a:#x}, B = {b:#x}, n = {n:#x}");
    assert_eq!((&sr << (k + 1)) % n, ab, "recoded raw: A·B·2^-(k+1), A = {a:#x}, B = {b:#x}");
    (sp, sr)
}

/// The standard `a·b mod n` through each radix-2 reducer and through our Montgomery.
fn check_reducers<L: Limb>(n: &BigUint, a: &BigUint, b: &BigUint) {
    let nn: Nat<L> = from_big(n);
    let w = nn.len();
    let want = (a * b) % n;
    let mont = Montgomery::new(&nn).unwrap();
    let mut scratch = Scratch::new();
    let mut out = vec![L::ZERO; w];
    mont.mul(
        &mut out,
        &mont.to_residue(&from_big(a)),
        &mont.to_residue(&from_big(b)),
        &mut scratch,
    );
    let by_montgomery = to_big(&mont.from_residue(&out));
    assert_eq!(by_montgomery, want);
    for alg in ALGS {
        let r = make::<L>(alg, &nn).unwrap();
        let (ra, rb) = (r.to_residue(&from_big(a)), r.to_residue(&from_big(b)));
        out.fill(L::MAX);
        r.mul(&mut out, &ra, &rb, &mut scratch);
        assert!(to_big(&Nat::from_limbs(&out)) < *n, "{alg}: mul output not below n");
        assert_eq!(to_big(&r.from_residue(&out)), by_montgomery, "{alg}: {a:#x}·{b:#x} mod {n:#x}");
        // Squaring, and the residue of A·B without conversions: out·ρ ≡ A·B.
        out.fill(L::MAX);
        r.sqr(&mut out, &ra, &mut scratch);
        assert_eq!(to_big(&r.from_residue(&out)), (a * a) % n, "{alg}: sqr {a:#x} mod {n:#x}");
    }
}

fn big_and_not_one(x: &BigUint) -> BigUint {
    if x.bit(0) {
        x - 1u32
    } else {
        x.clone()
    }
}

fn differential<L: Limb>(bit_sizes: &[u64], per_size: usize, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for &bits in bit_sizes {
        for _ in 0..per_size {
            let n = rng.big_exact_bits(bits) | BigUint::one();
            let one = BigUint::one();
            let r = rng.big_below(&n);
            let mut xs = vec![BigUint::zero(), one.clone() % &n, &n - &one, r.clone()];
            xs.push(&r | &one);
            xs.push(big_and_not_one(&r));
            xs.push(rng.big_below(&n));
            xs.retain(|x| x < &n);
            for a in &xs {
                for b in &xs {
                    check_raw::<L>(&n, a, b);
                }
                check_reducers::<L>(&n, a, &xs[xs.len() - 1]);
            }
        }
    }
}

#[test]
fn differential_u64_8_to_2048_bits() {
    differential::<u64>(&[8, 9, 31, 63, 64, 65, 127, 128, 192, 255, 256, 384, 521, 1024], 3, 0x400);
    differential::<u64>(&[1536, 2048], 1, 0x401);
}

#[test]
fn differential_small_digits() {
    differential::<u32>(&[8, 32, 33, 160, 512], 3, 0x402);
    differential::<u16>(&[8, 16, 17, 100, 256], 3, 0x403);
    differential::<u8>(&[8, 9, 16, 24, 72], 3, 0x404);
}

/// The reducers through the shared harness: reduce (x < n·ρ), reduce_raw, residues, mul,
/// sqr, at edge and random arguments.
#[test]
fn reducer_contract_against_the_oracle() {
    let mut rng = SplitMix64::new(0x405);
    for bits in [8u64, 16, 61, 64, 127, 200, 256] {
        let m = rng.big_exact_bits(bits) | BigUint::one();
        let k = from_big::<u64>(&m).len();
        let mut xs = reduce_util::edge_xs::<u64>(&m, k);
        xs.push(&m << bits);
        xs.push((&m << bits) - 1u32);
        xs.push((&m << (bits + 1)) - 1u32);
        xs.push(&m << (bits + 1));
        let pairs: Vec<_> = (0..4).map(|_| (rng.big_below(&m), rng.big_below(&m))).collect();
        for alg in ALGS {
            reduce_util::check::<u64>(alg, &m, &xs, &pairs);
            reduce_util::check::<u8>(alg, &m, &xs, &pairs);
        }
    }
}

/// Every pair of operands for every odd one-digit modulus with `u8` digits.
#[test]
fn exhaustive_u8_digits() {
    for n in (1u32..256).step_by(2) {
        let nb = BigUint::from(n);
        for a in 0..n {
            for b in 0..n {
                check_raw::<u8>(&nb, &BigUint::from(a), &BigUint::from(b));
            }
        }
    }
}

/// Every pair for odd moduli up to 63 through the reducers (conversions, mul, sqr).
#[test]
fn exhaustive_reducers_u8() {
    for n in (1u32..64).step_by(2) {
        let nb = BigUint::from(n);
        for a in 0..n {
            for b in 0..n {
                check_reducers::<u8>(&nb, &BigUint::from(a), &BigUint::from(b));
            }
        }
    }
}

#[test]
fn powm_matches_num_bigint() {
    let mut rng = SplitMix64::new(0x406);
    for bits in [8u64, 64, 100, 256, 521] {
        let m = rng.big_exact_bits(bits) | BigUint::one();
        let mn: Nat = from_big(&m);
        for alg in ALGS {
            let md = Modulus::with(alg, &mn).unwrap();
            for _ in 0..3 {
                let (x, e) = (rng.big_bits(bits + 10), rng.big_bits(40));
                let got = md.pow_mod_vartime(&from_big(&x), &from_big(&e));
                assert_eq!(
                    to_big(&got.unwrap()),
                    x.modpow(&e, &m),
                    "{alg}: {x:#x}^{e:#x} mod {m:#x}"
                );
            }
            let (x, y) = (rng.big_bits(2 * bits), rng.big_bits(bits));
            assert_eq!(to_big(&md.mul_mod(&from_big(&x), &from_big(&y))), (&x * &y) % &m);
        }
    }
}

#[test]
fn even_and_zero_moduli_are_errors() {
    for alg in ALGS {
        match make::<u64>(alg, &Nat::from_u64(1 << 20)) {
            Err(Error::NotApplicable { algorithm, reason }) => {
                assert_eq!(algorithm, alg.name());
                assert!(reason.contains("odd modulus"), "{reason}");
            }
            other => panic!("{alg}: even modulus gave {:?}", other.map(|r| r.algorithm())),
        }
        assert!(matches!(make::<u64>(alg, &Nat::default()), Err(Error::ZeroModulus)));
        let e = Modulus::with(alg, &Nat::from_u64(10)).unwrap_err().to_string();
        assert!(e.contains("odd modulus"), "{e}");
    }
}
