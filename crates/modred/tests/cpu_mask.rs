//! `MODRED_CPU_OFF` hides CPU features from the library, so that a CPU with AVX-512 IFMA
//! (or MULX/ADX) runs, and can measure, the code a CPU without it runs. This binary sets
//! the variable before its first question to the CPU; the answers are cached per process.

use modred::{Modulus, Nat, Operation};

#[test]
fn hidden_features_are_not_used_and_answers_stay_right() {
    std::env::set_var("MODRED_CPU_OFF", "bmi2, AVX512IFMA,avx2,unknown-name");
    let used = modred::cpu_features();
    assert!(used.is_empty(), "hidden yet used: {used:?}");
    // A 1024-bit exponentiation, the size an IFMA CPU runs in radix 2^52, gives the
    // answer of repeated multiplication mod m on the code left.
    let m = &(&Nat::power_of_two(1023) + &Nat::from(0x1234_5678_9abc_def1u64));
    let md = Modulus::for_operation(m, Operation::PowMod).unwrap();
    assert!(!md.plan().code().contains("IFMA"), "{}", md.plan().code());
    let x = Nat::from(0xfeed_beefu64);
    let mut want = Nat::from(1u64);
    for _ in 0..13 {
        want = &(&want * &x) % m;
    }
    let e = Nat::from(13u64);
    assert_eq!(md.pow_mod_vartime(&x, &e).unwrap(), want);
    let ct = md.pow_ct(&md.residue(&x), &e).unwrap();
    assert_eq!(md.to_nat(&ct).unwrap(), want);
}
