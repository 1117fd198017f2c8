//! The general-purpose reducers (`reduce_util::ALGORITHMS`: classical, Barrett and the two
//! Montgomery forms) against `num-bigint` and against each other, on seeded random moduli
//! and arguments from 8 to 8192 bits: `reduce` within (and beyond) each bound, the raw
//! reduction, the residue conversions, `mul` and `sqr`. `u64` digits at every size, `u32`,
//! `u16` and `u8` digits at the smaller ones, and `u8` digits past 257 digits, where
//! Barrett computes the full quotient product.

mod reduce_util;

use modred::Limb;
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use reduce_util::{check_all, edge_xs, BigDraws};

/// Random arguments for a `bits`-bit modulus `m`: below `m²` (products), below `b^(2k)`
/// (Barrett's bound), of every length up to twice `m`'s, and far beyond every bound.
fn random_xs<L: Limb>(m: &BigUint, rng: &mut SplitMix64, n: usize) -> Vec<BigUint> {
    let k = m.bits().div_ceil(L::BITS as u64) as usize;
    let mut xs = edge_xs::<L>(m, k);
    let m2 = m * m;
    for i in 0..n {
        xs.push(match i % 5 {
            0 | 1 => rng.big_below(&m2),
            2 => rng.big_bits(2 * k as u64 * L::BITS as u64),
            3 => {
                let len = 1 + rng.below_u64(2 * m.bits());
                rng.big_bits(len)
            }
            _ => rng.big_bits(3 * k as u64 * L::BITS as u64 + 5),
        });
    }
    xs
}

fn random_pairs(m: &BigUint, rng: &mut SplitMix64, n: usize) -> Vec<(BigUint, BigUint)> {
    let mut v = vec![(m - 1u32, m - 1u32), (BigUint::from(1u32), m - 1u32)];
    for _ in 0..n {
        v.push((rng.big_below(m), rng.big_below(m)));
    }
    // Arguments beyond m go through to_residue's reduction.
    v.push((m * 3u32 + 7u32, rng.big_bits(2 * m.bits())));
    v
}

/// For each size, `moduli` random moduli of exactly that many bits, odd and even.
fn run<L: Limb>(sizes: &[u64], moduli: usize, xs: usize, pairs: usize, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for &bits in sizes {
        for j in 0..moduli {
            let mut m = rng.big_exact_bits(bits);
            if j % 2 == 0 {
                m |= BigUint::from(1u32);
            }
            if m.bits() < 2 {
                continue;
            }
            let x = random_xs::<L>(&m, &mut rng, xs);
            let p = random_pairs(&m, &mut rng, pairs);
            check_all::<L>(&m, &x, &p);
        }
    }
}

const SMALL: &[u64] = &[8, 9, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 96, 127, 128, 129];
const MEDIUM: &[u64] = &[192, 255, 256, 257, 384, 511, 512, 521, 768, 1023, 1024];
const LARGE: &[u64] = &[1536, 2048, 2049, 3072, 4096, 8192];

#[test]
fn u64_digits_small_moduli() {
    run::<u64>(SMALL, 6, 25, 6, 1);
}

#[test]
fn u64_digits_medium_moduli() {
    run::<u64>(MEDIUM, 4, 20, 4, 2);
}

#[test]
fn u64_digits_large_moduli() {
    run::<u64>(LARGE, 2, 10, 2, 3);
}

#[test]
fn u32_digits() {
    run::<u32>(SMALL, 4, 20, 4, 4);
    run::<u32>(&[256, 521, 1024], 2, 10, 2, 5);
}

#[test]
fn u16_digits() {
    run::<u16>(SMALL, 4, 20, 4, 6);
    run::<u16>(&[256, 512], 2, 10, 2, 7);
}

#[test]
fn u8_digits() {
    run::<u8>(SMALL, 4, 20, 4, 8);
    run::<u8>(&[200, 256], 2, 10, 2, 9);
}

/// With `u8` digits and more than 257 digits Barrett's truncated quotient product loses
/// its error bound, so the full product is computed; this exercises that path.
#[test]
fn u8_digits_beyond_barretts_truncation() {
    run::<u8>(&[2056, 2064, 2305], 2, 8, 1, 10);
}
