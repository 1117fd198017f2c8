//! Paper 001 at huge sizes: our transform product against GMP's `mpz_mul`, and the
//! transform reducers (one linear and one cyclic convolution) against the same reducers
//! with two full products and against GMP's `mpz_tdiv_r` — all in one run:
//!
//! ```sh
//! cargo bench -p modred-bench --bench huge                       # modred alone
//! cargo bench -p modred-bench --bench huge --features anchors    # beside GMP
//! ```
//!
//! Groups, parameterised by the operand size in bits (2^16, 2^18, 2^20, 2^22):
//! - `huge-mul`: one n×n product: `modred::nat::mul_into` (the exact transform product
//!   above `NTT_THRESHOLD`, `NTT_IFMA_THRESHOLD` on AVX-512 IFMA), GMP `mpz_mul` and
//!   `mpn_mul_n`.
//! - `huge-reduce`: one reduction of a double-length product with the precalculation
//!   done: `ntt-barrett` and `ntt-montgomery` (cyclic second product), the same with two
//!   full products (`SecondProduct::Linear`), GMP `mpz_tdiv_r` (no precalculation).
//!
//! Δ (paper 001's ratio) is `huge-reduce/ntt-*` over `huge-mul/modred`; the speedup is
//! `ntt-*` over `ntt-*-linear`. `modred report` measures the same ratios interleaved
//! (paper 001's Figures 1 and 2).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use modred::reduce::{NttBarrett, NttMontgomery, SecondProduct};
use modred::{Nat, Reducer, Scratch};
use modred_bench::support::SplitMix64;
use std::hint::black_box;
use std::time::Duration;

const LOG2_SIZES: [u32; 4] = [16, 18, 20, 22];

fn huge_mul(c: &mut Criterion) {
    let mut group = c.benchmark_group("huge-mul");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    for log2 in LOG2_SIZES {
        let words = (1usize << log2) / 64;
        let mut rng = SplitMix64::new(0x001_0000 + log2 as u64);
        let (a, b) = (rng.digits(words), rng.digits(words));
        let mut r = vec![0u64; 2 * words];
        modred::nat::mul_into(&mut r, &a, &b);
        #[cfg(feature = "anchors")]
        {
            use modred_bench::anchors::GmpMul;
            let mut gmp = GmpMul::from_limbs(&a, &b);
            gmp.run();
            let mut want = gmp.result_limbs();
            want.resize(2 * words, 0);
            assert_eq!(want, r, "GMP and modred products differ at 2^{log2} bits");
            group.bench_function(BenchmarkId::new("gmp-mpz_mul", log2), |bch| {
                bch.iter(|| gmp.run())
            });
            let hex = |x: &[u64]| x.iter().rev().map(|w| format!("{w:016x}")).collect::<String>();
            let mut mpn = modred_bench::anchors::GmpMulN::new(&hex(&a), &hex(&b));
            group.bench_function(BenchmarkId::new("gmp-mpn_mul_n", log2), |bch| {
                bch.iter(|| mpn.run())
            });
        }
        group.bench_function(BenchmarkId::new("modred", log2), |bch| {
            bch.iter(|| modred::nat::mul_into(black_box(&mut r), black_box(&a), black_box(&b)))
        });
    }
    group.finish();
}

fn huge_reduce(c: &mut Criterion) {
    let mut group = c.benchmark_group("huge-reduce");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    for log2 in LOG2_SIZES {
        let words = (1usize << log2) / 64;
        let mut rng = SplitMix64::new(0x001_1000 + log2 as u64);
        let mut ml = rng.digits(words);
        ml[0] |= 1;
        ml[words - 1] |= 1 << 63;
        let m = Nat::from_vec(ml);
        let x: Vec<u64> = {
            let (a, b) = (Nat::from_vec(rng.digits(words)), Nat::from_vec(rng.digits(words)));
            let (a, b) = (a.div_rem(&m).unwrap().1, b.div_rem(&m).unwrap().1);
            let mut x = a.mul(&b).into_limbs();
            x.resize(2 * words, 0);
            x
        };
        let bar = NttBarrett::new(&m).unwrap();
        let bar2 = bar.to_second_product(SecondProduct::Linear).unwrap();
        let mon = NttMontgomery::new(&m).unwrap();
        let mon2 = mon.to_second_product(SecondProduct::Linear).unwrap();
        let want = Nat::from_limbs(&x).div_rem(&m).unwrap().1;
        let reducers: [(&str, &dyn Reducer<u64>); 4] = [
            ("ntt-barrett", &bar),
            ("ntt-barrett-linear", &bar2),
            ("ntt-montgomery", &mon),
            ("ntt-montgomery-linear", &mon2),
        ];
        let mut out = vec![0u64; words];
        let mut scratch = Scratch::new();
        for (name, r) in reducers {
            r.reduce_raw(&mut out, &x, &mut scratch);
            if name.starts_with("ntt-barrett") {
                assert_eq!(Nat::from_limbs(&out), want, "{name} at 2^{log2} bits");
            } else {
                assert_eq!(r.to_residue(&Nat::from_limbs(&out)), want.to_padded(words).unwrap());
            }
            group.bench_function(BenchmarkId::new(name, log2), |bch| {
                bch.iter(|| r.reduce_raw(black_box(&mut out), black_box(&x), &mut scratch))
            });
        }
        #[cfg(feature = "anchors")]
        {
            let mut gmp = modred_bench::anchors::GmpTdivR::from_limbs(&x, m.limbs());
            gmp.run();
            assert_eq!(Nat::from_vec(gmp.result_limbs()), want);
            group.bench_function(BenchmarkId::new("gmp-mpz_tdiv_r", log2), |bch| {
                bch.iter(|| gmp.run())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, huge_mul, huge_reduce);
criterion_main!(benches);
