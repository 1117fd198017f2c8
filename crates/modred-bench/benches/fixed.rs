//! The fixed-size paths beside GMP and OpenSSL, in one run:
//! `cargo bench -p modred-bench --features anchors --bench fixed`
//! (without `anchors` only modred's own columns run).
//!
//! Groups:
//! - `mont256`: one 256-bit Montgomery modular multiplication — `MontgomeryFixed<4>` on
//!   arrays, the same through `Reducer::mul` on slices (what `make` and `Modulus` return),
//!   the slice reducer `Montgomery` (runtime width, MULX/ADX kernels), and under `anchors`
//!   GMP `mpn_mul_n` (a plain 4×4-digit product) and OpenSSL `BN_mod_mul_montgomery`.
//!   Goals: ≤ 1.5× `mpn_mul_n`, ≤ 0.5× OpenSSL.
//! - `p256`: one P-256 field multiplication — `NistFixed<4>` (unrolled product + hard-coded
//!   reduction), its constant-time form through `PrimeField::mul_ct`, the Montgomery
//!   field, and OpenSSL `BN_mul`+`BN_nist_mod_256` and GMP `mpz_mul`+`mpz_tdiv_r`.
//!   Goals: ≤ 0.3× OpenSSL, below GMP.
//! - `table3/<bits>`: modular multiplication through `Reducer::mul` (as `make` builds them)
//!   for paper 003's Table 3 sizes: pseudo-Mersenne `2^N − c`, hard-coded `nist` on the
//!   generalized Mersenne prime of that size, and Montgomery on both.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use modred::field::{PrimeField, Representation};
use modred::reduce::{make, Montgomery, MontgomeryFixed, NistFixed, NistPrime, Scratch};
use modred::{Algorithm, Nat, Reducer};
use modred_bench::support::{below, odd, SplitMix64};
use std::hint::black_box;

fn arr<const N: usize>(v: &[u64]) -> [u64; N] {
    v.try_into().unwrap()
}

fn mont256(c: &mut Criterion) {
    let mut g = c.benchmark_group("mont256");
    let mut rng = SplitMix64::new(0x256);
    let m = odd(&mut rng, 4);
    let (a, b) = (below(&mut rng, &m), below(&mut rng, &m));
    let fixed = MontgomeryFixed::<4>::new(&m).unwrap();
    let slow = Montgomery::<u64>::new(&m).unwrap();
    let boxed = make::<u64>(Algorithm::Montgomery, &m).unwrap();
    let (ra, rb) = (slow.to_residue(&a), slow.to_residue(&b));
    let (fa, fb) = (arr::<4>(&ra), arr::<4>(&rb));
    let mut out = vec![0u64; 4];
    let mut s = Scratch::new();
    slow.mul(&mut out, &ra, &rb, &mut s);
    assert_eq!(fixed.mul_fixed(&fa, &fb).to_vec(), out);
    g.bench_function("modred_fixed_array", |bch| {
        bch.iter(|| fixed.mul_fixed(black_box(&fa), black_box(&fb)))
    });
    g.bench_function("modred_fixed_sqr_array", |bch| bch.iter(|| fixed.sqr_fixed(black_box(&fa))));
    g.bench_function("modred_make_reducer_mul", |bch| {
        bch.iter(|| boxed.mul(&mut out, black_box(&ra), black_box(&rb), &mut s))
    });
    g.bench_function("modred_slice_montgomery", |bch| {
        bch.iter(|| slow.mul(&mut out, black_box(&ra), black_box(&rb), &mut s))
    });
    #[cfg(feature = "anchors")]
    {
        use modred_bench::anchors::{GmpMulN, OpensslMontMul};
        let (ah, bh, mh) = (a.to_hex(), b.to_hex(), m.to_hex());
        let mut muln = GmpMulN::new(&ah, &mh);
        let mut ossl = OpensslMontMul::new(&ah, &bh, &mh);
        ossl.run();
        assert_eq!(
            ossl.result_hex(),
            a.mul(&b).checked_rem(&m).unwrap().to_hex().trim_start_matches("0x")
        );
        g.bench_function("gmp_mpn_mul_n", |bch| bch.iter(|| muln.run()));
        g.bench_function("openssl_mont_mul", |bch| bch.iter(|| ossl.run()));
    }
    g.finish();
}

fn p256(c: &mut Criterion) {
    let mut g = c.benchmark_group("p256");
    let p = NistPrime::P256.modulus::<u64>();
    let mut rng = SplitMix64::new(0x9256);
    let (a, b) = (below(&mut rng, &p), below(&mut rng, &p));
    let nist = NistFixed::<4>::new(&p).unwrap();
    let (na, nb) = (arr::<4>(&a.to_padded(4).unwrap()), arr::<4>(&b.to_padded(4).unwrap()));
    let std_f = PrimeField::<4>::new(&p, Representation::Standard).unwrap();
    let mont_f = PrimeField::<4>::new(&p, Representation::Montgomery).unwrap();
    let (sa, sb) = (std_f.from_nat(&a), std_f.from_nat(&b));
    let (ma, mb) = (mont_f.from_nat(&a), mont_f.from_nat(&b));
    let want = a.mul(&b).checked_rem(&p).unwrap();
    assert_eq!(Nat::from_limbs(&nist.mul_fixed(&na, &nb)), want);
    assert_eq!(std_f.to_nat(&std_f.mul_ct(&sa, &sb)), want);
    assert_eq!(mont_f.to_nat(&mont_f.mul(&ma, &mb)), want);
    g.bench_function("modred_nist_fixed", |bch| {
        bch.iter(|| nist.mul_fixed(black_box(&na), black_box(&nb)))
    });
    g.bench_function("modred_field_standard_mul_ct", |bch| {
        bch.iter(|| std_f.mul_ct(black_box(&sa), black_box(&sb)))
    });
    g.bench_function("modred_field_montgomery", |bch| {
        bch.iter(|| mont_f.mul(black_box(&ma), black_box(&mb)))
    });
    #[cfg(feature = "anchors")]
    {
        use modred_bench::anchors::{GmpMulMod, OpensslNist256, P256_HEX};
        let (ah, bh) = (a.to_hex(), b.to_hex());
        let mut ossl = OpensslNist256::new(&ah, &bh);
        let mut gmp = GmpMulMod::new(&ah, &bh, P256_HEX);
        ossl.run();
        gmp.run();
        assert_eq!(ossl.result_hex(), want.to_hex().trim_start_matches("0x"));
        assert_eq!(gmp.result_hex(), want.to_hex().trim_start_matches("0x"));
        g.bench_function("openssl_bn_mul_nist_mod_256", |bch| bch.iter(|| ossl.run()));
        g.bench_function("gmp_mpz_mul_tdiv_r", |bch| bch.iter(|| gmp.run()));
    }
    g.finish();
}

fn pm(n: u64, c: u64) -> Nat {
    &Nat::power_of_two(n) - &Nat::from(c)
}

/// (bits, pseudo-Mersenne prime of paper 003's Table 1, generalized Mersenne prime).
fn table3_primes() -> Vec<(u64, Nat, Option<Nat>)> {
    vec![
        (192, pm(192, 237), Some(NistPrime::P192.modulus())),
        (224, pm(224, 63), Some(NistPrime::P224.modulus())),
        (256, pm(256, 189), Some(NistPrime::P256.modulus())),
        (384, pm(384, 317), Some(NistPrime::P384.modulus())),
        (448, pm(448, 203), Some(NistPrime::P448.modulus())),
        (512, pm(512, 569), Some(NistPrime::P512.modulus())),
        (521, pm(521, 1), Some(NistPrime::P521.modulus())),
    ]
}

fn table3(c: &mut Criterion) {
    let mut g = c.benchmark_group("table3");
    for (bits, pmp, gm) in table3_primes() {
        let mut cases = vec![
            ("pseudo-mersenne", Algorithm::PseudoMersenne, pmp.clone()),
            ("montgomery", Algorithm::Montgomery, pmp),
        ];
        if let Some(q) = gm {
            cases.push(("nist", Algorithm::Nist, q.clone()));
            cases.push(("montgomery_gm", Algorithm::Montgomery, q));
        }
        for (name, alg, m) in cases {
            let r = make::<u64>(alg, &m).unwrap();
            let mut rng = SplitMix64::new(bits);
            let (a, b) = (below(&mut rng, &m), below(&mut rng, &m));
            let (ra, rb) = (r.to_residue(&a), r.to_residue(&b));
            let mut out = vec![0u64; r.width()];
            let mut s = Scratch::new();
            r.mul(&mut out, &ra, &rb, &mut s);
            assert_eq!(r.from_residue(&out), a.mul(&b).checked_rem(&m).unwrap());
            g.bench_function(BenchmarkId::new(name, bits), |bch| {
                bch.iter(|| r.mul(&mut out, black_box(&ra), black_box(&rb), &mut s))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, mont256, p256, table3);
criterion_main!(benches);
