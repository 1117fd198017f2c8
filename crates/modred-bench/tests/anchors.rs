//! Correctness checks for the GMP / OpenSSL anchors (`--features anchors`).
#![cfg(feature = "anchors")]

use modred_bench::anchors::*;
use modred_bench::support::{hex as random_hex, SplitMix64};
use rug::{Complete, Integer};

fn int(hex: &str) -> Integer {
    Integer::from_str_radix(hex, 16).unwrap()
}

fn hex(x: &Integer) -> String {
    x.to_string_radix(16)
}

const SIZES: [usize; 4] = [256, 1024, 2048, 4096];

#[test]
fn small_known_values() {
    let mut g = GmpMulMod::new("7", "9", "0xa");
    g.run();
    assert_eq!(g.result_hex(), "3");

    let mut g = GmpMulN::new("ffffffffffffffff", "2");
    assert_eq!(g.limbs(), 1);
    g.run();
    assert_eq!(g.result_hex(), "1fffffffffffffffe");

    let mut g = GmpPowm::new("3", "5", "7");
    g.run();
    assert_eq!(g.result_hex(), "5"); // 243 mod 7
    let mut g = GmpPowmSec::new("3", "5", "7");
    g.run();
    assert_eq!(g.result_hex(), "5");

    let mut o = OpensslMontMul::new("7", "9", "b");
    o.run();
    assert_eq!(o.result_hex(), "8"); // 63 mod 11
    let mut o = OpensslModExpConstTime::new("3", "5", "7");
    o.run();
    assert_eq!(o.result_hex(), "5");

    // (p - 1)^2 = 1 mod p, and a zero result prints as "0".
    let pm1 = hex(&(int(P256_HEX) - 1u32));
    let mut o = OpensslNist256::new(&pm1, &pm1);
    o.run();
    assert_eq!(o.result_hex(), "1");
    let mut o = OpensslNist256::new(P256_HEX, "5");
    o.run();
    assert_eq!(o.result_hex(), "0");
    let mut g = GmpMulMod::new(P256_HEX, "5", P256_HEX);
    g.run();
    assert_eq!(g.result_hex(), "0");
}

#[test]
fn gmp_against_rug() {
    let mut rng = SplitMix64::new(0x6d6f_6472_6564_0001);
    for bits in SIZES {
        for _ in 0..8 {
            let (a, b, m) = (
                random_hex(&mut rng, bits, false),
                random_hex(&mut rng, bits, false),
                random_hex(&mut rng, bits, true),
            );
            let (ai, bi, mi) = (int(&a), int(&b), int(&m));
            let prod = (&ai * &bi).complete();

            let mut g = GmpMulMod::new(&a, &b, &m);
            g.run();
            g.run(); // idempotent
            assert_eq!(g.result_hex(), hex(&(&prod % &mi).complete()));

            let mut g = GmpMulN::new(&a, &b);
            assert_eq!(g.limbs(), bits / 64);
            g.run();
            assert_eq!(g.result_hex(), hex(&prod));

            // Exponentiation against a plain square-and-multiply in rug.
            let e = random_hex(&mut rng, 64, false);
            let mut expect = Integer::from(1);
            let ei = int(&e);
            for i in (0..ei.significant_bits()).rev() {
                expect = (&expect * &expect).complete() % &mi;
                if ei.get_bit(i) {
                    expect = (&expect * &ai).complete() % &mi;
                }
            }
            let mut g = GmpPowm::new(&a, &e, &m);
            g.run();
            assert_eq!(g.result_hex(), hex(&expect));
            let mut g = GmpPowmSec::new(&a, &e, &m);
            g.run();
            assert_eq!(g.result_hex(), hex(&expect));
        }
    }
}

#[test]
fn openssl_against_gmp() {
    let mut rng = SplitMix64::new(0x6d6f_6472_6564_0002);
    for bits in SIZES {
        for _ in 0..8 {
            let (a, b, m) = (
                random_hex(&mut rng, bits, false),
                random_hex(&mut rng, bits, false),
                random_hex(&mut rng, bits, true),
            );

            let mut g = GmpMulMod::new(&a, &b, &m);
            g.run();
            let mut o = OpensslMontMul::new(&a, &b, &m);
            o.run();
            o.run();
            assert_eq!(o.result_hex(), g.result_hex(), "mont mul, {bits} bits");

            // Full-size exponent at 256/1024 bits, shorter above to keep the
            // test fast in debug builds.
            let e = random_hex(&mut rng, bits.min(1024), false);
            let mut g = GmpPowm::new(&a, &e, &m);
            g.run();
            let mut o = OpensslModExpConstTime::new(&a, &e, &m);
            o.run();
            assert_eq!(o.result_hex(), g.result_hex(), "modexp, {bits} bits");
        }
    }
}

#[test]
fn nist256_against_gmp() {
    let mut rng = SplitMix64::new(0x6d6f_6472_6564_0003);
    let p = int(P256_HEX);
    for _ in 0..64 {
        // Reduce below p first: both anchors reduce inputs, but make the
        // edge of the range (values just below p) likely too.
        let a = hex(&(int(&random_hex(&mut rng, 256, false)) % &p));
        let b = hex(&(p.clone() - (rng.next_u64() & 0xff) - 1u32));
        let mut g = GmpMulMod::new(&a, &b, P256_HEX);
        g.run();
        let mut o = OpensslNist256::new(&a, &b);
        o.run();
        assert_eq!(o.result_hex(), g.result_hex());
    }
}
