//! `Modulus::memory_bytes`: what a prepared modulus holds, which the command line's cache of
//! prepared moduli is bounded by. It must count the large tables (the transform reducers'
//! precomputed transforms, Hong's multiples) and grow with the width.

use modred::{Algorithm, Limits, Modulus, Nat, Operation};
use modred_testkit::SplitMix64;

fn odd(bits: u64, seed: u64) -> Nat {
    Nat::from_vec(SplitMix64::new(seed).odd_modulus(bits))
}

/// Every algorithm that applies to an odd modulus holds at least the modulus itself, and
/// more at four times the width.
#[test]
fn every_algorithm_counts_at_least_its_modulus() {
    for &a in Algorithm::ALL {
        for bits in [64u64, 256, 2048] {
            let m = odd(bits, bits);
            let Ok(modulus) = Modulus::with_limits(a, Operation::MulMod, &m, Limits::UNLIMITED)
            else {
                continue; // does not apply (special forms)
            };
            let bytes = modulus.memory_bytes();
            assert!(bytes >= bits as usize / 8, "{a:?} at {bits} bits: {bytes}");
        }
    }
}

/// The transform reducers keep transforms of a few times the modulus's length; at 1 Mbit
/// that is megabytes, the size the command line's cache must see.
#[test]
fn transform_reducers_count_their_transforms() {
    let bits = 1 << 20;
    let m = odd(bits, 7);
    for a in [Algorithm::NttBarrett, Algorithm::NttMontgomery, Algorithm::Auto] {
        let modulus = Modulus::with_limits(a, Operation::MulMod, &m, Limits::UNLIMITED).unwrap();
        let bytes = modulus.memory_bytes();
        println!("{a:?} ({:?}) at {bits} bits: {bytes} bytes", modulus.algorithm());
        assert!(bytes > 4 * (bits as usize / 8), "{a:?}: {bytes}");
    }
    let hong =
        Modulus::with_limits(Algorithm::Hong, Operation::MulMod, &odd(4096, 1), Limits::UNLIMITED)
            .unwrap();
    println!("Hong at 4096 bits: {} bytes", hong.memory_bytes());
    // Its 2^9 multiples of the modulus, at least.
    assert!(hong.memory_bytes() > (1 << 9) * 4096 / 8);
    for bits in [2048u64, 1 << 21] {
        let m = odd(bits, 3);
        let auto =
            Modulus::with_limits(Algorithm::Auto, Operation::MulMod, &m, Limits::new()).unwrap();
        println!("auto ({:?}) at {bits} bits: {} bytes", auto.algorithm(), auto.memory_bytes());
    }
}
