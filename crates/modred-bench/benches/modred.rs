//! modred's reducers side by side, with GMP and OpenSSL in the same run when built with
//! `--features anchors`:
//!
//! ```sh
//! cargo bench -p modred-bench --bench modred                       # modred alone
//! cargo bench -p modred-bench --bench modred --features anchors    # beside GMP/OpenSSL
//! ```
//!
//! Groups, each parameterised by the modulus size in bits (256 … 8192):
//! - `reduce`: one reduction of a 2k-digit argument (the paper's algorithm, `reduce_raw`).
//! - `mulmod`: one modular multiplication of two residues; GMP `mpz_mul`+`mpz_tdiv_r` and
//!   OpenSSL `BN_mod_mul_montgomery` beside it.
//! - `powm`: a full-length exponentiation (default window), every reducer through
//!   `exp::pow_vartime` and `hong` through its own `exp::hong::pow_vartime` (paper 002's
//!   window tables and squaring); GMP `mpz_powm` and OpenSSL `BN_mod_exp_mont_consttime`
//!   beside it.
//! - `hong-ops`: paper 002's window multiplication (table prepared) and squaring beside
//!   Montgomery's multiplication and squaring.
//!
//! Operands come from a fixed-seed generator: every run measures the same numbers. Setup
//! (precalculation, conversions, scratch allocation) stays outside the timed closures.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use modred::exp::{default_window, pow_vartime, Method};
use modred::reduce::{make, Hong};
use modred::{Algorithm, Nat, Reducer, Scratch};
use modred_bench::support::SplitMix64;
use std::hint::black_box;
use std::time::Duration;

const SIZES: [u64; 6] = [256, 512, 1024, 2048, 4096, 8192];
const POWM_SIZES: [u64; 4] = [256, 1024, 2048, 4096];
const ALGORITHMS: [Algorithm; 4] = [
    Algorithm::Classical,
    Algorithm::Barrett,
    Algorithm::Montgomery,
    Algorithm::MontgomeryInterleaved,
];

struct Operands {
    m: Nat,
    a: Nat,
    b: Nat,
    e: Nat,
}

fn operands(bits: u64) -> Operands {
    let mut rng = SplitMix64::new(0x6d6f_6472_6564 ^ bits);
    let mut m = Nat::from_vec(rng.exact_bits(bits));
    if !m.is_odd() {
        m = m.add(&Nat::one());
    }
    let a = Nat::from_vec(rng.exact_bits(bits)).checked_rem(&m).unwrap_or_default();
    let b = Nat::from_vec(rng.exact_bits(bits)).checked_rem(&m).unwrap_or_default();
    let e = Nat::from_vec(rng.exact_bits(bits));
    Operands { m, a, b, e }
}

fn bench_reduce(c: &mut Criterion) {
    let mut group = c.benchmark_group("reduce");
    for bits in SIZES {
        let ops = operands(bits);
        let x = ops.a.mul(&ops.b);
        for algo in ALGORITHMS {
            let r = make::<u64>(algo, &ops.m).expect("odd modulus suits every algorithm");
            let mut out = vec![0u64; r.width()];
            let mut scratch = Scratch::new();
            group.bench_with_input(BenchmarkId::new(algo.name(), bits), &x, |bench, x| {
                bench.iter(|| r.reduce_raw(&mut out, black_box(x.limbs()), &mut scratch))
            });
        }
    }
    group.finish();
}

fn bench_mulmod(c: &mut Criterion) {
    let mut group = c.benchmark_group("mulmod");
    for bits in SIZES {
        let ops = operands(bits);
        for algo in ALGORITHMS {
            let r = make::<u64>(algo, &ops.m).expect("odd modulus suits every algorithm");
            let (a, b) = (r.to_residue(&ops.a), r.to_residue(&ops.b));
            let mut out = vec![0u64; r.width()];
            let mut scratch = Scratch::new();
            group.bench_function(BenchmarkId::new(algo.name(), bits), |bench| {
                bench.iter(|| r.mul(&mut out, black_box(&a), black_box(&b), &mut scratch))
            });
        }
        #[cfg(feature = "anchors")]
        {
            use modred_bench::anchors::{GmpMulMod, GmpMulN, OpensslMontMul};
            let (a, b, m) = (ops.a.to_hex(), ops.b.to_hex(), ops.m.to_hex());
            let mut gmp = GmpMulMod::new(&a, &b, &m);
            group.bench_function(BenchmarkId::new("gmp-mul+tdiv_r", bits), |bench| {
                bench.iter(|| gmp.run())
            });
            let mut mul_n = GmpMulN::new(&a, &b);
            group.bench_function(BenchmarkId::new("gmp-mpn_mul_n", bits), |bench| {
                bench.iter(|| mul_n.run())
            });
            let mut ossl = OpensslMontMul::new(&a, &b, &m);
            group.bench_function(BenchmarkId::new("openssl-mont", bits), |bench| {
                bench.iter(|| ossl.run())
            });
        }
    }
    group.finish();
}

fn bench_powm(c: &mut Criterion) {
    let mut group = c.benchmark_group("powm");
    group.sample_size(10).measurement_time(Duration::from_secs(3));
    for bits in POWM_SIZES {
        let ops = operands(bits);
        let method = Method::SlidingWindow(default_window(ops.e.bits()));
        for algo in ALGORITHMS {
            let r = make::<u64>(algo, &ops.m).expect("odd modulus suits every algorithm");
            let base = r.to_residue(&ops.a);
            group.bench_function(BenchmarkId::new(algo.name(), bits), |bench| {
                bench.iter(|| pow_vartime(&*r, black_box(&base), &ops.e, method))
            });
        }
        // Paper 002: a window table per odd power, the table-based squaring.
        let hong = Hong::<u64>::new(&ops.m).expect("hong applies to every modulus");
        let base = hong.to_residue(&ops.a);
        group.bench_function(BenchmarkId::new("hong", bits), |bench| {
            bench.iter(|| modred::exp::hong::pow_vartime(&hong, black_box(&base), &ops.e, method))
        });
        #[cfg(feature = "anchors")]
        {
            use modred_bench::anchors::{GmpPowm, OpensslModExpConstTime};
            let (a, e, m) = (ops.a.to_hex(), ops.e.to_hex(), ops.m.to_hex());
            let mut gmp = GmpPowm::new(&a, &e, &m);
            group.bench_function(BenchmarkId::new("gmp-powm", bits), |bench| {
                bench.iter(|| gmp.run())
            });
            let mut ossl = OpensslModExpConstTime::new(&a, &e, &m);
            group.bench_function(BenchmarkId::new("openssl-consttime", bits), |bench| {
                bench.iter(|| ossl.run())
            });
        }
    }
    group.finish();
}

fn bench_hong_ops(c: &mut Criterion) {
    let mut group = c.benchmark_group("hong-ops");
    for bits in [256u64, 512, 1024, 2048] {
        let ops = operands(bits);
        let hong = Hong::<u64>::new(&ops.m).expect("hong applies to every modulus");
        let mont = make::<u64>(Algorithm::Montgomery, &ops.m).expect("odd modulus");
        let (ha, hb) = (hong.to_residue(&ops.a), hong.to_residue(&ops.b));
        let (ma, mb) = (mont.to_residue(&ops.a), mont.to_residue(&ops.b));
        let table = hong.window_table(&hb);
        let mut out = vec![0u64; hong.width()];
        let mut scratch = Scratch::new();
        group.bench_function(BenchmarkId::new("hong-window-mul", bits), |bench| {
            bench.iter(|| hong.mul_by_table(&mut out, black_box(&ha), &table, &mut scratch))
        });
        group.bench_function(BenchmarkId::new("montgomery-mul", bits), |bench| {
            bench.iter(|| mont.mul(&mut out, black_box(&ma), &mb, &mut scratch))
        });
        group.bench_function(BenchmarkId::new("hong-sqr", bits), |bench| {
            bench.iter(|| hong.sqr(&mut out, black_box(&ha), &mut scratch))
        });
        group.bench_function(BenchmarkId::new("montgomery-sqr", bits), |bench| {
            bench.iter(|| mont.sqr(&mut out, black_box(&ma), &mut scratch))
        });
        group.bench_function(BenchmarkId::new("hong-table-build", bits), |bench| {
            bench.iter(|| hong.window_table(black_box(&hb)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_reduce, bench_mulmod, bench_powm, bench_hong_ops);
criterion_main!(benches);
