//! Paper 004: the radix-2 Montgomery multiplication (§2), its recoded form (§4) and the
//! cycle-level model of both carry-save datapaths (§5), against `num-bigint`, against our
//! word-level Montgomery reducer and against each other. Every recoded product's raw
//! output is checked to be below 2n.

mod reduce_util;

use modred::reduce::radix2::model::{self, Design, Operands};
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

/// Operands for modulus `n`: 0, 1, n − 1, an odd and an even random value, and more random.
fn operands(n: &BigUint, rng: &mut SplitMix64, extra: usize) -> Vec<BigUint> {
    let one = BigUint::one();
    let mut v = vec![BigUint::zero(), one.clone() % n, n - &one];
    for _ in 0..2 + extra {
        v.push(rng.big_below(n));
    }
    // An odd and an even B, whatever the random draw gave.
    let r = rng.big_below(n);
    v.push(&r | &one);
    v.push(big_and_not_one(&r));
    v.retain(|x| x < n);
    v
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
                assert_eq!(to_big(&got), x.modpow(&e, &m), "{alg}: {x:#x}^{e:#x} mod {m:#x}");
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

/// The model of §5 gives the software's raw results, in k + 1 and k + 2 cycles, with the
/// recoded design's critical path one full-adder level shorter.
#[test]
fn cycle_model_equals_software() {
    let mut rng = SplitMix64::new(0x407);
    for bits in [2u64, 3, 8, 16, 17, 64, 65, 130, 256, 512] {
        let n = rng.big_exact_bits(bits) | BigUint::one();
        let nn: Nat = from_big(&n);
        let mut ops = operands(&n, &mut rng, 2);
        ops.truncate(7);
        for a in &ops {
            for b in ops.iter().take(4) {
                let (sp, sr) = check_raw::<u64>(&n, a, b);
                let (an, bn) = (from_big::<u64>(a), from_big::<u64>(b));
                let p = model::simulate_binary(Design::Plain, &an, &bn, &nn).unwrap();
                let r = model::simulate_binary(Design::Recoded, &an, &bn, &nn).unwrap();
                assert_eq!(to_big(&p.result()), sp, "plain model, A = {a:#x}, B = {b:#x}");
                assert_eq!(to_big(&r.result()), sr, "recoded model, A = {a:#x}, B = {b:#x}");
                assert!(to_big(&r.result()) < &n << 1);
                assert_eq!((p.cycles, r.cycles), (bits + 1, bits + 2));
                assert_eq!((p.critical_path, r.critical_path), (5, 4));
            }
        }
    }
}

/// Random carry-save splits of the operands, including B1_0 = B2_0 = 1 (B even, no
/// recoding, two in column 0) and exactly one odd half (recoded).
#[test]
fn cycle_model_carry_save_splits() {
    let mut rng = SplitMix64::new(0x408);
    for bits in [4u64, 9, 33, 100] {
        let n = rng.big_exact_bits(bits) | BigUint::one();
        for _ in 0..40 {
            let (a, b) = (rng.big_below(&n), rng.big_below(&n));
            let a1 = rng.big_below(&(&a + 1u32));
            let b1 = rng.big_below(&(&b + 1u32));
            let (sp, sr) = check_raw::<u64>(&n, &a, &b);
            let ops = Operands {
                a1: from_big(&a1),
                a2: from_big(&(&a - &a1)),
                b1: from_big(&b1),
                b2: from_big(&(&b - &b1)),
                n: from_big(&n),
                corr: model::correction(&from_big(&a), &from_big(&n)),
            };
            let p = model::simulate(Design::Plain, &ops).unwrap();
            let r = model::simulate(Design::Recoded, &ops).unwrap();
            assert_eq!(to_big(&p.result()), sp);
            assert_eq!(to_big(&r.result()), sr);
        }
    }
    // Both low bits set: B even, both halves odd.
    let n = BigUint::from(0xb5u32);
    let ops = Operands {
        a1: Nat::from_u64(0x33),
        a2: Nat::from_u64(0x20),
        b1: Nat::from_u64(0x11),
        b2: Nat::from_u64(0x41),
        n: from_big(&n),
        corr: model::correction(&Nat::from_u64(0x53), &from_big(&n)),
    };
    let (sp, sr) = check_raw::<u64>(&n, &BigUint::from(0x53u32), &BigUint::from(0x52u32));
    assert_eq!(to_big(&model::simulate(Design::Plain, &ops).unwrap().result()), sp);
    assert_eq!(to_big(&model::simulate(Design::Recoded, &ops).unwrap().result()), sr);
}

#[test]
fn cycle_model_rejects_bad_operands() {
    let n = Nat::from_u64(101);
    let big = Nat::from_u64(101);
    assert!(model::simulate_binary(Design::Plain, &big, &Nat::one(), &n).is_err());
    assert!(model::simulate_binary(Design::Recoded, &Nat::one(), &big, &n).is_err());
    assert!(model::simulate_binary(Design::Plain, &Nat::one(), &Nat::one(), &Nat::from_u64(100))
        .is_err());
    assert!(
        model::simulate_binary(Design::Plain, &Nat::one(), &Nat::one(), &Nat::default()).is_err()
    );
}
