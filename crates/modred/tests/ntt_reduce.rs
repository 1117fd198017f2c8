//! Paper 001's transform-based reducers (`ntt-barrett`, `ntt-montgomery`): exhaustive at
//! one 8-bit digit (every modulus, every argument, as the paper did up to n = 8), random
//! differential tests against num-bigint from 2^10 to 2^18 bits, both second-product
//! forms (cyclic and linear), and the two algorithms against each other at 2^22 bits.

mod reduce_util;

use modred::reduce::{NttBarrett, NttMontgomery, Reducer, Scratch, SecondProduct};
use modred::{Algorithm, Error, Limb, Nat};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use reduce_util::{from_big, to_big, BigDraws};

fn check_reduce<L: Limb, R: Reducer<L>>(red: &R, x: &Nat<L>, scratch: &mut Scratch<L>) {
    let m = to_big(red.modulus());
    let xb = to_big(x);
    let mut out = vec![L::ZERO; red.width()];
    let mut padded = x.limbs().to_vec();
    padded.resize(padded.len().max(1), L::ZERO);
    red.reduce_raw(&mut out, &padded, scratch);
    let got = to_big(&Nat::from_vec(out));
    let xm = &xb % &m;
    assert!(got < m);
    match red.algorithm() {
        // got = x·R^(−1) mod m ⇔ got·R ≡ x (mod m), R = b^K (K = bound's digits − k).
        Algorithm::NttMontgomery => {
            let big_k = match red.input_bound() {
                modred::Bound::Below(b) => b.bits() - red.modulus().bits(),
                modred::Bound::Unbounded => unreachable!(),
            };
            assert_eq!((&got << big_k) % &m, xm, "{} m = {m:#x}", red.algorithm());
        }
        _ => assert_eq!(got, xm, "{} m = {m:#x}, x = {xb:#x}", red.algorithm()),
    }
    // The checked one-shot gives x mod m for both.
    assert_eq!(to_big(&red.reduce(x).unwrap()), xm);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "exhaustive: run with --release")]
fn exhaustive_one_u8_digit() {
    // n = 8: every modulus 1..=255. Barrett: for the paper's n-bit moduli
    // (2^7 < m < 2^8) every argument below its bound b²; for the shorter ones every
    // argument below m·b. Montgomery (R = b, K = 1): every argument below its bound m·b.
    let mut scratch = Scratch::new();
    for m in 1u64..=255 {
        let mn = Nat::<u8>::from_u64(m);
        let bar = NttBarrett::new(&mn).unwrap();
        let lin = NttBarrett::with_second_product(&mn, SecondProduct::Linear).unwrap();
        let top = if m >= 128 { 1 << 16 } else { m << 8 };
        for x in 0u64..top {
            let xs = [x as u8, (x >> 8) as u8];
            let mut out = [0u8];
            bar.reduce_raw(&mut out, &xs, &mut scratch);
            assert_eq!(out[0] as u64, x % m, "ntt-barrett m = {m}, x = {x}");
            if x % 61 == 0 {
                lin.reduce_raw(&mut out, &xs, &mut scratch);
                assert_eq!(out[0] as u64, x % m, "linear m = {m}, x = {x}");
            }
        }
        if m % 2 == 1 {
            let mon = NttMontgomery::new(&mn).unwrap();
            assert_eq!(mon.cyclic_len(), 1);
            // 256^(−1) mod m
            let rinv = (1..m.max(2)).find(|v| (v * 256) % m == 1 % m).unwrap_or(0);
            for x in 0..m * 256 {
                let xs = [x as u8, (x >> 8) as u8];
                let mut out = [0u8];
                mon.reduce_raw(&mut out, &xs, &mut scratch);
                assert_eq!(out[0] as u64, (x % m) * rinv % m, "ntt-montgomery m = {m}, x = {x}");
            }
        }
    }
}

#[test]
fn exhaustive_arguments_two_u8_digits() {
    // n = 16, cyclic length K = 2: every argument below m·b^2 for a spread of moduli
    // including b^(k−1), b^k − 1 and the all-ones patterns.
    let mut scratch = Scratch::new();
    let mut moduli: Vec<u64> = vec![256, 257, 0xff01, 0xffff, 0x8001, 0x80ff, 0x1ff, 0xfffd];
    let mut rng = SplitMix64::new(16);
    moduli.extend((0..6).map(|_| 256 + rng.below_u64(0xff00)));
    for m in moduli {
        let mn = Nat::<u8>::from_u64(m);
        let bar = NttBarrett::new(&mn).unwrap();
        let mon = if m % 2 == 1 { Some(NttMontgomery::new(&mn).unwrap()) } else { None };
        let step = 1 + (m >> 6); // a dense sweep of x < m²… b^4
        let mut x = 0u64;
        while x < 1 << 32 {
            let xs = (x as u32).to_le_bytes();
            let mut out = [0u8; 2];
            bar.reduce_raw(&mut out, &xs, &mut scratch);
            assert_eq!(u16::from_le_bytes(out) as u64, x % m, "m = {m}, x = {x}");
            if let Some(mon) = &mon {
                if x < m << 16 {
                    mon.reduce_raw(&mut out, &xs, &mut scratch);
                    let got = u16::from_le_bytes(out) as u64;
                    assert_eq!((got << 16) % m, x % m, "montgomery m = {m}, x = {x}");
                }
            }
            x += step * 9973 + (x & 0xff);
        }
    }
}

fn random_moduli(rng: &mut SplitMix64, bits: u64) -> Vec<BigUint> {
    let mut v = vec![rng.big_exact_bits(bits), rng.big_exact_bits(bits)];
    // b^k − 1 (all ones) and b^(k−1) + 1-like edges
    v.push((BigUint::from(1u32) << bits) - 1u32);
    v.push((BigUint::from(1u32) << (bits - 1)) + 1u32);
    v
}

fn differential<L: Limb>(bits_list: &[u64], per: usize, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let mut scratch = Scratch::new();
    for &bits in bits_list {
        for mb in random_moduli(&mut rng, bits) {
            let m: Nat<L> = from_big(&mb);
            let k = m.len() as u64 * L::BITS as u64;
            let bar = NttBarrett::new(&m).unwrap();
            let lin = NttBarrett::with_second_product(&m, SecondProduct::Linear).unwrap();
            let mut xs: Vec<BigUint> = (0..per).map(|_| rng.big_bits(2 * k)).collect();
            let msq = &mb * &mb;
            xs.extend([BigUint::from(0u32), BigUint::from(1u32), &mb - 1u32, mb.clone()]);
            xs.push(&msq - 1u32);
            xs.push((BigUint::from(1u32) << (2 * k)) - 1u32);
            for x in &xs {
                check_reduce(&bar, &from_big(x), &mut scratch);
                check_reduce(&lin, &from_big(x), &mut scratch);
            }
            if m.is_odd() {
                let mon = NttMontgomery::new(&m).unwrap();
                let monl = NttMontgomery::with_second_product(&m, SecondProduct::Linear).unwrap();
                let bound = match mon.input_bound() {
                    modred::Bound::Below(b) => to_big(&b),
                    modred::Bound::Unbounded => unreachable!(),
                };
                for x in xs.iter().filter(|x| **x < bound).chain([&bound - 1u32].iter()) {
                    check_reduce(&mon, &from_big(x), &mut scratch);
                    check_reduce(&monl, &from_big(x), &mut scratch);
                }
                // multiplication of residues through the trait
                let a = rng.big_bits(bits) % &mb;
                let b = rng.big_bits(bits) % &mb;
                let (ra, rb) = (mon.to_residue(&from_big(&a)), mon.to_residue(&from_big(&b)));
                let mut out = vec![L::ZERO; mon.width()];
                mon.mul(&mut out, &ra, &rb, &mut scratch);
                assert_eq!(to_big(&mon.from_residue(&out)), (&a * &b) % &mb);
            }
        }
    }
}

#[test]
fn differential_u64_small_and_odd_lengths() {
    // k = 1 … 17 words: cyclic lengths equal to k and larger (k = 5, 7, 9, …).
    let bits: Vec<u64> = (1..=17).map(|k| 64 * k - 3).chain([64, 128, 192, 320]).collect();
    differential::<u64>(&bits, 6, 1);
    differential::<u32>(&[33, 95, 200, 700], 6, 2);
    differential::<u16>(&[17, 40, 300], 6, 3);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "2^18-bit operands: run with --release")]
fn differential_u64_2_10_to_2_18_bits() {
    differential::<u64>(&[1 << 10, 1 << 12, 1 << 14, (1 << 14) + 1000, 1 << 16], 3, 4);
    differential::<u64>(&[1 << 18, 3 << 16], 1, 5);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "2^22-bit operands: run with --release")]
fn against_each_other_at_2_22_bits() {
    // One case at 2^22 bits: ntt-barrett's x mod m against ntt-montgomery's, both
    // through their checked one-shot `reduce`.
    let mut rng = SplitMix64::new(22);
    let bits = 1u64 << 22;
    let mut m = rng.big_exact_bits(bits);
    m |= BigUint::from(1u32);
    let x = rng.big_bits(2 * bits - 1);
    let (mn, xn): (Nat<u64>, Nat<u64>) = (from_big(&m), from_big(&x));
    let a = NttBarrett::new(&mn).unwrap().reduce(&xn).unwrap();
    let b = NttMontgomery::new(&mn).unwrap().reduce(&xn).unwrap();
    assert_eq!(a, b);
    assert!(a < mn && a != xn);
}

#[test]
fn errors_not_panics() {
    assert_eq!(NttBarrett::<u64>::new(&Nat::zero()).unwrap_err(), Error::ZeroModulus);
    assert_eq!(NttMontgomery::<u64>::new(&Nat::zero()).unwrap_err(), Error::ZeroModulus);
    assert!(matches!(
        NttMontgomery::<u64>::new(&Nat::from_u64(10)),
        Err(Error::NotApplicable { .. })
    ));
    let m = Nat::<u64>::from_u64(1_000_003);
    let bar = NttBarrett::new(&m).unwrap();
    assert!(matches!(bar.reduce(&Nat::power_of_two(128)), Err(Error::OutOfRange { .. })));
    let mon = NttMontgomery::new(&m).unwrap();
    assert!(matches!(mon.reduce(&m.shl(64)), Err(Error::OutOfRange { .. })));
    assert!(mon.reduce(&(&m.shl(64) - &Nat::one())).is_ok());
}
