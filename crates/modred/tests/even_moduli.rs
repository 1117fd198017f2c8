//! Exponentiation modulo even moduli: an automatic exponentiation context splits
//! `m = q·2^s` by CRT (`engine::even`) from 129 bits; its answers are checked against
//! num-bigint and the forced Barrett context for every shape of split — `s` of one bit to
//! thousands, `q = 1` (a power of two), `q` small or long, bases odd, even and multiples
//! of `2^s` — with every method, and so are the one-off exponentiations without a
//! context (`Modulus::pow_mod_once`, `engine::once` where the odd part has two to seven
//! digits).

use modred::engine::Power;
use modred::exp::Method;
use modred::{Algorithm, Limits, Modulus, Nat, Operation};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;

fn big(n: &Nat) -> BigUint {
    BigUint::from_bytes_le(&n.to_bytes_le())
}

fn odd(rng: &mut SplitMix64, bits: u64) -> Nat {
    let q = Nat::from_vec(rng.exact_bits(bits));
    if q.is_odd() {
        q
    } else {
        q.add(&Nat::one())
    }
}

#[test]
fn every_split_against_num_bigint() {
    let mut rng = SplitMix64::new(0xe7e2_0001);
    let mut moduli = Vec::new();
    for (q_bits, s) in [
        (1, 1),
        (1, 64),
        (1, 200),
        (1, 521),
        (2, 1),
        (2, 200),
        (5, 130),
        (63, 66),
        (63, 1),
        (64, 1),
        (64, 64),
        (65, 3),
        (100, 1),
        (127, 1),
        (127, 129),
        (129, 1),
        (191, 2),
        (255, 1),
        (447, 65),
        (512, 7),
        (1023, 1),
        (1024, 1024),
        (2047, 1),
        (3000, 1000),
        (4095, 1),
    ] {
        let q = if q_bits == 1 { Nat::one() } else { odd(&mut rng, q_bits) };
        moduli.push(q.shl(s));
    }
    for m in &moduli {
        let md = Modulus::for_operation(m, Operation::PowMod).unwrap();
        // Split past one digit (engine::rule::EVEN_CRT_MIN_BITS), but for two digits with
        // a full top digit (the fixed-size Barrett's, 128 bits and not 2^127).
        let split = md.plan().power == Power::EvenCrt;
        let fixed_barrett = m.bits() == 128 && *m != Nat::power_of_two(127);
        assert_eq!(split, m.bits() >= 65 && !fixed_barrett, "{} bits", m.bits());
        let forced = Modulus::with(Algorithm::Barrett, m).unwrap();
        assert_ne!(forced.plan().power, Power::EvenCrt, "forced barrett stays barrett");
        let bits = m.bits();
        let s = m.trailing_zeros();
        let bases = [
            Nat::zero(),
            Nat::one(),
            Nat::from(2u64),
            Nat::power_of_two(s),
            m - &Nat::one(),
            Nat::from_vec(rng.exact_bits(bits)).checked_rem(m).unwrap(),
            Nat::from_vec(rng.exact_bits(bits))
                .checked_rem(m)
                .unwrap()
                .shl(1)
                .checked_rem(m)
                .unwrap(),
        ];
        let exps = [
            Nat::zero(),
            Nat::one(),
            Nat::from(2u64),
            Nat::from(s),
            Nat::from_vec(rng.exact_bits(bits.min(300))),
            Nat::from_vec(rng.exact_bits(bits)),
        ];
        for x in &bases {
            for e in &exps {
                let want = big(x).modpow(&big(e), &big(m));
                let got = md.pow_mod_vartime(x, e).unwrap();
                assert_eq!(big(&got), want, "m {bits} bits (s {s}), x {x:?}, e {e:?}");
                let r = md.residue(x);
                for method in [Method::Binary, Method::FixedWindow(4), Method::SlidingWindow(5)] {
                    let y = md.to_nat(&md.pow_with_vartime(&r, e, method).unwrap()).unwrap();
                    assert_eq!(big(&y), want, "{method:?}");
                }
                assert_eq!(big(&forced.pow_mod_vartime(x, e).unwrap()), want);
                let once = Modulus::pow_mod_once(x, e, m, Limits::new()).unwrap();
                assert_eq!(big(&once), want, "once: m {bits} bits (s {s})");
            }
        }
    }
}

/// Products and one-off reductions modulo an even modulus do not build the split; odd
/// moduli never do.
#[test]
fn only_even_exponentiation_contexts_split() {
    let m = Nat::from(1000u64);
    for op in [Operation::MulMod, Operation::Reduce] {
        let md = Modulus::for_operation(&m, op).unwrap();
        assert_ne!(md.plan().power, Power::EvenCrt, "{op:?}");
        assert_eq!(
            md.pow_mod_vartime(&Nat::from(3u64), &Nat::from(7u64)).unwrap(),
            Nat::from(187u64)
        );
    }
    let odd = Modulus::for_operation(&Nat::from(1001u64), Operation::PowMod).unwrap();
    assert_ne!(odd.plan().power, Power::EvenCrt);
}

/// The split's odd context counts in the memory estimate: the least limit that admits a
/// product context of an even modulus refuses its exponentiation context.
#[test]
fn the_split_counts_in_the_memory_limit() {
    let m = Nat::power_of_two(1 << 16).add(&Nat::from(2u64));
    let context = |op, limit| {
        let limits = modred::Limits::new().with_max_memory(limit);
        Modulus::with_limits(Algorithm::Auto, op, &m, limits)
    };
    let (mut low, mut high) = (0u64, 1 << 30);
    while high - low > 1 {
        let mid = (low + high) / 2;
        if context(Operation::MulMod, mid).is_ok() {
            high = mid;
        } else {
            low = mid;
        }
    }
    assert!(context(Operation::MulMod, high).is_ok());
    assert!(matches!(context(Operation::PowMod, high), Err(modred::Error::TooMuchMemory { .. })));
}
