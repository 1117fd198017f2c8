//! Paper 003: special prime moduli. `cargo bench -p modred-bench --bench special
//! [--features anchors]`.
//!
//! Groups:
//! - `p256_field_mul`: one P-256 field multiplication — modred's fixed-size field in the
//!   standard representation (hard-coded NIST reduction) and in Montgomery's, modred's
//!   generic Montgomery reducer, and under `anchors` OpenSSL `BN_mul`+`BN_nist_mod_256`
//!   and GMP `mpz_mul`+`mpz_tdiv_r`.
//! - `special_mulmod/<bits>`: `Reducer::mul` of pseudo-Mersenne, generic Solinas and
//!   hard-coded (nist) reducers against Montgomery on the same-size primes (Table 3's
//!   sizes, 192–521 bits).
//! - `special_reduce/<bits>`: the reduction of a double-length product alone (Table 5).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use modred::field::{PrimeField, Representation};
use modred::reduce::{make, NistPrime, Scratch};
use modred::{Algorithm, Nat};
use modred_bench::support::{below, SplitMix64};
use std::hint::black_box;

fn pm(n: u64, c: u64) -> Nat {
    &Nat::power_of_two(n) - &Nat::from(c)
}

fn p256_field_mul(c: &mut Criterion) {
    let mut g = c.benchmark_group("p256_field_mul");
    let p = NistPrime::P256.modulus::<u64>();
    let mut rng = SplitMix64::new(256);
    let (a, b) = (below(&mut rng, &p), below(&mut rng, &p));
    let std_f = PrimeField::<4>::new(&p, Representation::Standard).unwrap();
    let mont_f = PrimeField::<4>::new(&p, Representation::Montgomery).unwrap();
    let (sa, sb) = (std_f.from_nat(&a), std_f.from_nat(&b));
    let (ma, mb) = (mont_f.from_nat(&a), mont_f.from_nat(&b));
    assert_eq!(std_f.to_nat(&std_f.mul(&sa, &sb)), mont_f.to_nat(&mont_f.mul(&ma, &mb)));
    g.bench_function("modred_field_standard_nist", |bch| {
        bch.iter(|| std_f.mul(black_box(&sa), black_box(&sb)))
    });
    g.bench_function("modred_field_montgomery", |bch| {
        bch.iter(|| mont_f.mul(black_box(&ma), black_box(&mb)))
    });
    for alg in [Algorithm::Nist, Algorithm::Montgomery, Algorithm::Solinas] {
        let r = make::<u64>(alg, &p).unwrap();
        let (ra, rb) = (r.to_residue(&a), r.to_residue(&b));
        let mut out = vec![0u64; 4];
        let mut s = Scratch::new();
        g.bench_function(format!("modred_reducer_{}", alg.name()), |bch| {
            bch.iter(|| r.mul(&mut out, black_box(&ra), black_box(&rb), &mut s))
        });
    }
    #[cfg(feature = "anchors")]
    {
        use modred_bench::anchors::{GmpMulMod, OpensslNist256, P256_HEX};
        let (ah, bh) = (a.to_hex(), b.to_hex());
        let (ah, bh) = (ah.trim_start_matches("0x"), bh.trim_start_matches("0x"));
        let mut nist = OpensslNist256::new(ah, bh);
        let mut gmp = GmpMulMod::new(ah, bh, P256_HEX);
        nist.run();
        gmp.run();
        assert_eq!(nist.result_hex(), gmp.result_hex());
        g.bench_function("openssl_bn_mul_nist_mod_256", |bch| bch.iter(|| nist.run()));
        g.bench_function("gmp_mpz_mul_tdiv_r", |bch| bch.iter(|| gmp.run()));
    }
    g.finish();
}

/// (bits, pseudo-Mersenne prime, generalized Mersenne prime of that size if any).
fn table3_primes() -> Vec<(u64, Nat, Option<Nat>)> {
    vec![
        (192, pm(192, 237), Some(NistPrime::P192.modulus())),
        (224, pm(224, 63), Some(NistPrime::P224.modulus())),
        (256, pm(256, 189), Some(NistPrime::P256.modulus())),
        (320, pm(320, 197), None),
        (384, pm(384, 317), Some(NistPrime::P384.modulus())),
        (448, pm(448, 203), Some(NistPrime::P448.modulus())),
        (512, pm(512, 569), Some(NistPrime::P512.modulus())),
        (521, pm(521, 1), Some(NistPrime::P521.modulus())),
    ]
}

fn special(c: &mut Criterion, reduce_only: bool) {
    let name = if reduce_only { "special_reduce" } else { "special_mulmod" };
    let mut g = c.benchmark_group(name);
    for (bits, pmp, gmp) in table3_primes() {
        let mut cases = vec![
            (Algorithm::PseudoMersenne, pmp.clone()),
            (Algorithm::Montgomery, pmp.clone()),
            (Algorithm::Classical, pmp.clone()),
        ];
        if let Some(q) = gmp {
            if modred::reduce::SolinasPoly::find(&q).is_some() {
                cases.push((Algorithm::Solinas, q.clone()));
            }
            cases.push((Algorithm::Nist, q.clone()));
            cases.push((Algorithm::Montgomery, q));
        }
        for (i, (alg, m)) in cases.into_iter().enumerate() {
            let r = make::<u64>(alg, &m).unwrap();
            let mut rng = SplitMix64::new(bits);
            let (a, b) = (below(&mut rng, &m), below(&mut rng, &m));
            let (ra, rb) = (r.to_residue(&a), r.to_residue(&b));
            let k = r.width();
            let prod = a.mul(&b).to_padded(2 * k).unwrap();
            let mut out = vec![0u64; k];
            let mut s = Scratch::new();
            let id = BenchmarkId::new(
                format!("{}{}", alg.name(), if i >= 3 { "_gm" } else { "" }),
                bits,
            );
            if reduce_only {
                g.bench_function(id, |bch| {
                    bch.iter(|| r.reduce_raw(&mut out, black_box(&prod), &mut s))
                });
            } else {
                g.bench_function(id, |bch| {
                    bch.iter(|| r.mul(&mut out, black_box(&ra), black_box(&rb), &mut s))
                });
            }
        }
    }
    g.finish();
}

fn special_mulmod(c: &mut Criterion) {
    special(c, false)
}

fn special_reduce(c: &mut Criterion) {
    special(c, true)
}

criterion_group!(benches, p256_field_mul, special_mulmod, special_reduce);
criterion_main!(benches);
