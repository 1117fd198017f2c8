//! Paper 004 §5: the cycle-level model of both carry-save radix-2 Montgomery datapaths,
//! against the library's radix-2 reducers (their raw results, below 2n) and `num-bigint`.

mod support;

use modred::reduce::{Radix2Montgomery, Radix2MontgomeryRecoded};
use modred::{Limb, Nat, Reducer};
use modred_research::radix2_model::{self as model, Design, Operands};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use support::{from_big, to_big, BigDraws};

fn padded<L: Limb>(x: &BigUint, w: usize) -> Vec<L> {
    from_big::<L>(x).to_padded(w).expect("operand fits the width")
}

/// Both raw products of `a·b` modulo `n` (both below `n`) by the library's radix-2
/// reducers, checked against the oracle: (plain, recoded).
fn check_raw<L: Limb>(n: &BigUint, a: &BigUint, b: &BigUint) -> (BigUint, BigUint) {
    let nn: Nat<L> = from_big(n);
    let w = nn.len();
    let k = n.bits();
    let ab = (a * b) % n;
    let (al, bl) = (padded::<L>(a, w), padded::<L>(b, w));
    let mut s = vec![L::MAX; w + 1];

    let plain = Radix2Montgomery::new(&nn).unwrap();
    plain.mul_raw(&mut s, &al, &bl);
    let sp = to_big(&Nat::from_limbs(&s));
    assert!(sp < n << 1, "plain raw {sp:#x} not below 2n, n = {n:#x}");
    assert_eq!((&sp << k) % n, ab, "plain raw: A·B·2^-k, A = {a:#x}, B = {b:#x}, n = {n:#x}");

    let rec = Radix2MontgomeryRecoded::new(&nn).unwrap();
    let corr = rec.correction(&al);
    s.fill(L::MAX);
    rec.mul_raw(&mut s, &al, &bl, &corr);
    let sr = to_big(&Nat::from_limbs(&s));
    assert!(sr < n << 1, "recoded raw {sr:#x} not below 2n, A = {a:#x}, B = {b:#x}, n = {n:#x}");
    assert_eq!((&sr << (k + 1)) % n, ab, "recoded raw: A·B·2^-(k+1), A = {a:#x}, B = {b:#x}");
    (sp, sr)
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
    v.push(if r.bit(0) { &r - 1u32 } else { r.clone() });
    v.retain(|x| x < n);
    v
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
