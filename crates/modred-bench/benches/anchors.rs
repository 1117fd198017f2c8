//! GMP / OpenSSL speed anchors: `cargo bench -p modred-bench --features anchors`.
//!
//! Groups (parameter = operand / modulus size in bits):
//! - `mulmod`: one modular multiplication. GMP `mpz_mul`+`mpz_tdiv_r`,
//!   OpenSSL `BN_mod_mul_montgomery`, and at 256 bits OpenSSL
//!   `BN_mul`+`BN_nist_mod_256` on P-256.
//! - `mul_n`: plain `n x n` limb product, GMP `mpn_mul_n`.
//! - `modexp`: full-size exponent; GMP `mpz_powm`, `mpz_powm_sec` and OpenSSL
//!   `BN_mod_exp_mont_consttime`.
//!
//! Operands come from the fixed-seed generator of modred-testkit, so runs are comparable.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use modred_bench::anchors::*;
use modred_bench::support::{hex, SplitMix64};

const SIZES: [usize; 4] = [256, 1024, 2048, 4096];

struct Operands {
    a: String,
    b: String,
    m: String,
    e: String,
}

fn operands(bits: usize) -> Operands {
    let mut rng = SplitMix64::new(0x6d6f_6472_6564_0000 ^ bits as u64);
    let m = hex(&mut rng, bits, true);
    // a, b one bit shorter than m, so they are already reduced.
    let mut a = hex(&mut rng, bits, false);
    let mut b = hex(&mut rng, bits, false);
    for x in [&mut a, &mut b] {
        let top = u8::from_str_radix(&x[..1], 16).unwrap() & 0x7;
        x.replace_range(..1, &format!("{top:x}"));
    }
    let e = hex(&mut rng, bits, false);
    Operands { a, b, m, e }
}

fn mulmod(c: &mut Criterion) {
    let mut group = c.benchmark_group("mulmod");
    for bits in SIZES {
        let op = operands(bits);
        let mut gmp = GmpMulMod::new(&op.a, &op.b, &op.m);
        let mut ossl = OpensslMontMul::new(&op.a, &op.b, &op.m);
        gmp.run();
        ossl.run();
        assert_eq!(gmp.result_hex(), ossl.result_hex(), "anchor mismatch at {bits} bits");

        group.bench_function(BenchmarkId::new("gmp_mpz_mul_tdiv_r", bits), |bch| {
            bch.iter(|| gmp.run())
        });
        group.bench_function(BenchmarkId::new("openssl_mont_mul", bits), |bch| {
            bch.iter(|| ossl.run())
        });
        if bits == 256 {
            let mut nist = OpensslNist256::new(&op.a, &op.b);
            let mut gmp_p = GmpMulMod::new(&op.a, &op.b, P256_HEX);
            nist.run();
            gmp_p.run();
            assert_eq!(nist.result_hex(), gmp_p.result_hex(), "P-256 anchor mismatch");
            group.bench_function(BenchmarkId::new("openssl_nist_p256", bits), |bch| {
                bch.iter(|| nist.run())
            });
            group.bench_function(BenchmarkId::new("gmp_mpz_mul_tdiv_r_p256", bits), |bch| {
                bch.iter(|| gmp_p.run())
            });
        }
    }
    group.finish();
}

fn mul_n(c: &mut Criterion) {
    let mut group = c.benchmark_group("mul_n");
    for bits in SIZES {
        let op = operands(bits);
        let mut gmp = GmpMulN::new(&op.a, &op.m);
        assert_eq!(gmp.limbs(), bits / 64);
        group.bench_function(BenchmarkId::new("gmp_mpn_mul_n", bits), |bch| bch.iter(|| gmp.run()));
    }
    group.finish();
}

fn modexp(c: &mut Criterion) {
    let mut group = c.benchmark_group("modexp");
    for bits in SIZES {
        if bits >= 2048 {
            group.sample_size(10);
        }
        let op = operands(bits);
        let mut powm = GmpPowm::new(&op.a, &op.e, &op.m);
        let mut powm_sec = GmpPowmSec::new(&op.a, &op.e, &op.m);
        let mut ossl = OpensslModExpConstTime::new(&op.a, &op.e, &op.m);
        powm.run();
        powm_sec.run();
        ossl.run();
        assert_eq!(powm.result_hex(), powm_sec.result_hex());
        assert_eq!(powm.result_hex(), ossl.result_hex(), "anchor mismatch at {bits} bits");

        group.bench_function(BenchmarkId::new("gmp_mpz_powm", bits), |bch| bch.iter(|| powm.run()));
        group.bench_function(BenchmarkId::new("gmp_mpz_powm_sec", bits), |bch| {
            bch.iter(|| powm_sec.run())
        });
        group.bench_function(BenchmarkId::new("openssl_mod_exp_consttime", bits), |bch| {
            bch.iter(|| ossl.run())
        });
    }
    group.finish();
}

criterion_group!(benches, mulmod, mul_n, modexp);
criterion_main!(benches);
