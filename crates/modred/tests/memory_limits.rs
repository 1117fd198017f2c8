//! The memory limit: working memory (Hong's `k²`-digit window tables, exponentiation
//! windows, scratch) is estimated before it is allocated, and a request over the limit is
//! refused with `Error::TooMuchMemory` at once — never an abort. (That the estimates are
//! upper bounds: `memory_model.rs`.)

use modred::exp::Method;
use modred::modulus::limits::{DEFAULT_MAX_MEMORY, DEFAULT_MAX_WORK};
use modred::{Algorithm, Error, Limits, Modulus, Nat, Operation};

fn odd_modulus(bits: u64) -> Nat {
    Nat::power_of_two(bits - 1).add(&Nat::from(0x1234_5679u64))
}

#[test]
fn defaults() {
    let l = Limits::new();
    assert_eq!((l.max_work, l.max_memory), (DEFAULT_MAX_WORK, DEFAULT_MAX_MEMORY));
    assert_eq!(l.with_max_memory(5).max_work, DEFAULT_MAX_WORK);
    assert_eq!(l.with_max_work(5).max_memory, DEFAULT_MAX_MEMORY);
}

/// Hong keeps a `k²`-digit table per multiplicand: at a million bits about 1.8 GiB, which
/// once took 2 GB a line and a whole machine for a batch.
#[test]
fn hong_at_a_million_bits_is_refused_before_allocating() {
    let m = odd_modulus(1_000_000);
    match Modulus::with(Algorithm::Hong, &m) {
        Err(Error::TooMuchMemory { need, limit, what }) => {
            assert!(need > limit && limit == DEFAULT_MAX_MEMORY, "{need} {limit}");
            assert!(what.contains("hong"), "{what}");
        }
        other => panic!("expected TooMuchMemory, got {:?}", other.map(|md| md.algorithm())),
    }
    // Within a smaller limit, a smaller modulus is refused the same way, and allowed above.
    let m = odd_modulus(4096);
    let tight = Limits::new().with_max_memory(64 * 1024);
    assert!(matches!(
        Modulus::with_limits(Algorithm::Hong, Operation::MulMod, &m, tight),
        Err(Error::TooMuchMemory { .. })
    ));
    let md = Modulus::with_limits(Algorithm::Hong, Operation::MulMod, &m, Limits::new()).unwrap();
    assert_eq!(md.mul_mod(&Nat::from(6u64), &Nat::from(7u64)), Nat::from(42u64));
}

/// A 2^16-entry window at 2^20 bits would be 8 GiB of table.
#[test]
fn wide_windows_are_refused_by_their_table() {
    let m = odd_modulus(1 << 20);
    let no_work_limit = Limits::new().with_max_work(u64::MAX);
    let md = Modulus::with_limits(Algorithm::Auto, Operation::PowMod, &m, no_work_limit).unwrap();
    let x = md.residue(&Nat::from(3u64));
    let e = Nat::power_of_two(100).add(&Nat::one());
    let err = md.pow_with_vartime(&x, &e, Method::FixedWindow(16)).unwrap_err();
    match &err {
        Error::TooMuchMemory { need, .. } => assert!((8 << 30..9 << 30).contains(need), "{need}"),
        other => panic!("expected TooMuchMemory, got {other}"),
    }
    assert!(err.to_string().contains("8.0 GiB") && err.to_string().contains("fixed-16"), "{err}");
    // Hong's exponentiation keeps a k²-digit table per window entry: 16 of 132 KiB for a
    // sliding window of 5 at 8192 bits (the modulus with one product, 1.4 MiB, fits in 2 MiB).
    let m = odd_modulus(8192);
    let tight = Limits::new().with_max_memory(2 << 20);
    let md = Modulus::with_limits(Algorithm::Hong, Operation::PowMod, &m, tight).unwrap();
    let x = md.residue(&Nat::from(3u64));
    assert!(matches!(
        md.pow_with_vartime(&x, &e, Method::SlidingWindow(5)),
        Err(Error::TooMuchMemory { .. })
    ));
    // Binary needs one table (the base's), within the limit, and is right.
    let y = md.pow_with_vartime(&x, &Nat::from(5u64), Method::Binary).unwrap();
    assert_eq!(md.to_nat(&y).unwrap(), Nat::from(243u64));
}

/// The limit never changes an answer: the same exponentiation within and without it.
#[test]
fn a_limit_within_reach_changes_nothing() {
    let m = odd_modulus(2048);
    let e = Nat::power_of_two(2047).add(&Nat::from(12345u64));
    let free = Modulus::with_limits(Algorithm::Auto, Operation::PowMod, &m, Limits::UNLIMITED);
    let held = Modulus::new(&m).unwrap();
    let x = Nat::from(0xdead_beefu64);
    assert_eq!(
        free.unwrap().pow_mod_vartime(&x, &e).unwrap(),
        held.pow_mod_vartime(&x, &e).unwrap()
    );
}
