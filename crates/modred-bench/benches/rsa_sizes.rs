//! The RSA sizes, 1024–4096 bits: our Montgomery multiplication and exponentiation
//! beside GMP and OpenSSL, as ratios measured in one run with the candidates interleaved.
//!
//! ```sh
//! cargo bench -p modred-bench --bench rsa_sizes --features anchors          # with GMP/OpenSSL
//! cargo bench -p modred-bench --bench rsa_sizes                             # ours only
//! cargo bench -p modred-bench --bench rsa_sizes --features anchors,rayon    # + batch scaling
//! RSA_SIZES_BITS=2048 RSA_SIZES_ROUNDS=5 cargo bench ...                 # one size, rounds
//! ```
//!
//! Timed by `modred_testkit::timing`: every candidate runs a batch of calls per round,
//! round after round in an order rotated each round (so a slow phase of a shared machine
//! hits all of them), and keeps its best round: the figures are best-of-rounds times per
//! call, and a ratio is the median of the per-round ratios over the run's quiet rounds.
//! Operands come from a fixed seed.
//!
//! Columns: `mont` the separated Montgomery reducer's `mul` (residues in, residue out),
//! `cios` the interleaved one, `sqr` the separated reducer's `sqr` (the word-level paths);
//! `modulus` / `modulus-sqr` are `Modulus::mul` / `Modulus::sqr` with the automatic choice
//! (residues in, a new residue out: in radix 2^52 on AVX-512 IFMA where the CPU has it); `powm` is
//! `Modulus::pow_mod_vartime` with the automatic choice (odd modulus: Montgomery, in radix
//! 2^52 on AVX-512 IFMA where the CPU has it), standard values in and out, a full-length
//! exponent; `powm-batch4` the time per exponentiation of four through
//! `modred::batch::pow_many_vartime` (in the lanes of AVX2 registers where the CPU has
//! AVX2 and not AVX-512 IFMA, 513–2048 bits); `powm-word` the same exponentiation on 64-bit digits (`exp::pow_vartime` with
//! the separated reducer); `powm-ct` the constant-time `Modulus::pow_ct` (in radix 2^52 on
//! AVX-512 IFMA where the CPU has it, from `ct::IFMA_MIN_BITS` bits); `powm-ct-word` the
//! constant-time exponentiation on 64-bit digits (`ct::MontgomeryCt::pow_word`, what
//! `pow_ct` ran everywhere before the IFMA path), residues in and out.

use modred::exp::{default_method, pow_vartime};
use modred::reduce::make;
use modred::{Algorithm, Modulus, Nat, Scratch};
#[cfg(feature = "rayon")]
use modred_bench::support::compare_wall_clock;
use modred_bench::support::{compare_named, Candidate, Plan, SplitMix64, Timing};
use std::hint::black_box;
use std::time::Duration;

/// A time per call in nanoseconds, with its unit.
fn fmt(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{:.2} ms", ns / 1e6)
    }
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read from the command line.
    let sizes: Vec<u64> = match std::env::var("RSA_SIZES_BITS") {
        Ok(v) => v.split(',').filter_map(|s| s.trim().parse().ok()).collect(),
        Err(_) => vec![1024, 2048, 3072, 4096],
    };
    let rounds: usize = env_or("RSA_SIZES_ROUNDS", 7);
    println!("RSA sizes {sizes:?} bits; best of {rounds} interleaved rounds per figure");
    for &bits in &sizes {
        let mut rng = SplitMix64::new(0x6973_7375_6538 ^ bits);
        let mut m = Nat::from_vec(rng.exact_bits(bits));
        if !m.is_odd() {
            m = m.add(&Nat::one());
        }
        let a = Nat::from_vec(rng.exact_bits(bits)).checked_rem(&m).unwrap();
        let b = Nat::from_vec(rng.exact_bits(bits)).checked_rem(&m).unwrap();
        let e = Nat::from_vec(rng.exact_bits(bits));
        mulmod_row(bits, &m, &a, &b, rounds);
        powm_row(bits, &m, &a, &e, rounds);
    }
    #[cfg(feature = "rayon")]
    batch_scaling(rounds);
}

fn mulmod_row(bits: u64, m: &Nat, a: &Nat, b: &Nat, rounds: usize) {
    let mont = make::<u64>(Algorithm::Montgomery, m).unwrap();
    let cios = make::<u64>(Algorithm::MontgomeryInterleaved, m).unwrap();
    let (ra, rb) = (mont.to_residue(a), mont.to_residue(b));
    let auto = Modulus::new(m).unwrap();
    let (ma, mb) = (auto.residue(a), auto.residue(b));
    assert_eq!(
        auto.to_nat(&auto.mul(&ma, &mb).unwrap()).unwrap(),
        mont.from_residue(&{
            let mut o = vec![0u64; ra.len()];
            mont.mul(&mut o, &ra, &rb, &mut Scratch::new());
            o
        })
    );
    let k = ra.len();
    let (mut o1, mut o2, mut o3) = (vec![0u64; k], vec![0u64; k], vec![0u64; k]);
    let (mut s1, mut s2, mut s3) = (Scratch::new(), Scratch::new(), Scratch::new());
    #[allow(unused_mut)] // the anchors feature adds candidates
    let mut cands = vec![
        ("mont", Candidate::new(|| mont.mul(&mut o1, black_box(&ra), black_box(&rb), &mut s1))),
        ("cios", Candidate::new(|| cios.mul(&mut o2, black_box(&ra), black_box(&rb), &mut s2))),
        ("sqr", Candidate::new(|| mont.sqr(&mut o3, black_box(&ra), &mut s3))),
        (
            "modulus",
            Candidate::new(|| {
                black_box(auto.mul(black_box(&ma), black_box(&mb)).ok());
            }),
        ),
        (
            "modulus-sqr",
            Candidate::new(|| {
                black_box(auto.sqr(black_box(&ma)).ok());
            }),
        ),
    ];
    #[cfg(feature = "anchors")]
    let (mut mul_n, mut gmp, mut ossl) = {
        use modred_bench::anchors::{GmpMulMod, GmpMulN, OpensslMontMul};
        let (ah, bh, mh) = (a.to_hex(), b.to_hex(), m.to_hex());
        (GmpMulN::new(&ah, &bh), GmpMulMod::new(&ah, &bh, &mh), OpensslMontMul::new(&ah, &bh, &mh))
    };
    #[cfg(feature = "anchors")]
    {
        cands.push(("gmp mpn_mul_n", Candidate::new(move || mul_n.run())));
        cands.push(("gmp mul+tdiv_r", Candidate::new(move || gmp.run())));
        cands.push(("openssl mont", Candidate::new(move || ossl.run())));
    }
    // Many short rounds: on a shared machine each candidate gets its quiet moments.
    let t = compare_named(&Plan::fixed(Duration::from_millis(3), rounds * 6), cands);
    print_row(
        &format!("mulmod {bits}"),
        &t,
        &["mont", "cios", "sqr", "modulus", "modulus-sqr"],
        "openssl mont",
    );
}

fn powm_row(bits: u64, m: &Nat, a: &Nat, e: &Nat, rounds: usize) {
    let auto = Modulus::new(m).unwrap();
    let mont = make::<u64>(Algorithm::Montgomery, m).unwrap();
    let base = mont.to_residue(a);
    let method = default_method(e.bits());
    // Check the paths agree before timing them.
    let want = auto.pow_mod_vartime(a, e).unwrap();
    let word = mont.from_residue(&pow_vartime(&*mont, &base, e, method).unwrap());
    assert_eq!(want, word, "IFMA and word-level exponentiation differ at {bits} bits");
    let ra = auto.residue(a);
    let ct = auto.to_nat(&auto.pow_ct(&ra, e).unwrap()).unwrap();
    assert_eq!(want, ct, "constant-time exponentiation differs at {bits} bits");
    let mct = modred::ct::MontgomeryCt::new(m).unwrap();
    let k = mct.width();
    let (mut ct_base, mut ct_out, mut t) = (vec![0; k], vec![0; k], vec![0; mct.scratch_len()]);
    mct.to_montgomery(&mut ct_base, &a.to_padded(k).unwrap(), &mut t);
    let ct_e = e.to_padded(k).unwrap();
    mct.pow_word(&mut ct_out, &ct_base, &ct_e);
    let mut back = vec![0; k];
    mct.from_montgomery(&mut back, &ct_out, &mut t);
    assert_eq!(want, Nat::from_vec(back), "word-level constant-time exponentiation differs");
    // Four jobs through the batch API (four bases, the same exponent): in the lanes of AVX2
    // registers where `engine::rule::lanes_power` says so, else one at a time.
    let four: Vec<(Nat, Nat)> =
        (0..4u64).map(|i| (a.add(&Nat::from(i)).checked_rem(m).unwrap(), e.clone())).collect();
    for ((x, e), r) in four.iter().zip(modred::batch::pow_many_vartime(&auto, &four)) {
        assert_eq!(r.unwrap(), auto.pow_mod_vartime(x, e).unwrap(), "batch differs at {bits} bits");
    }
    #[allow(unused_mut)] // the anchors feature adds candidates
    let mut cands = vec![
        (
            "powm-batch4",
            Candidate::new(|| {
                black_box(modred::batch::pow_many_vartime(&auto, black_box(&four)));
            }),
        ),
        (
            "powm",
            Candidate::new(|| {
                black_box(auto.pow_mod_vartime(black_box(a), e).ok());
            }),
        ),
        (
            "powm-word",
            Candidate::new(|| {
                black_box(pow_vartime(&*mont, black_box(&base), e, method).ok());
            }),
        ),
        (
            "powm-ct",
            Candidate::new(|| {
                black_box(auto.pow_ct(black_box(&ra), e).ok());
            }),
        ),
        (
            "powm-ct-word",
            Candidate::new(|| {
                mct.pow_word(&mut ct_out, black_box(&ct_base), &ct_e);
                black_box(&ct_out);
            }),
        ),
    ];
    #[cfg(feature = "anchors")]
    let (mut gmp, mut ossl) = {
        use modred_bench::anchors::{GmpPowm, OpensslModExpConstTime};
        let (ah, eh, mh) = (a.to_hex(), e.to_hex(), m.to_hex());
        let mut gmp = GmpPowm::new(&ah, &eh, &mh);
        gmp.run();
        assert_eq!(
            gmp.result_hex().trim_start_matches('0'),
            want.to_hex().trim_start_matches("0x").trim_start_matches('0')
        );
        (gmp, OpensslModExpConstTime::new(&ah, &eh, &mh))
    };
    #[cfg(feature = "anchors")]
    {
        cands.push(("gmp mpz_powm", Candidate::new(move || gmp.run())));
        cands.push(("openssl consttime", Candidate::new(move || ossl.run())));
    }
    let mut t = compare_named(&Plan::fixed(Duration::from_millis(30), rounds), cands);
    // Per exponentiation.
    for (_, time) in t.iter_mut().filter(|(name, _)| *name == "powm-batch4") {
        time.samples.iter_mut().for_each(|s| *s /= 4.0);
        time.ns /= 4.0;
        time.median_ns /= 4.0;
    }
    print_row(
        &format!("powm {bits}"),
        &t,
        &["powm", "powm-batch4", "powm-word", "powm-ct", "powm-ct-word"],
        "gmp mpz_powm",
    );
    print_ratios(&t, &["powm", "powm-batch4", "powm-ct", "powm-ct-word"], "openssl consttime");
    print_ratios(&t, &["powm-ct"], "powm-ct-word");
    print_ratios(&t, &["powm-batch4"], "powm");
}

fn print_row(title: &str, times: &[(&str, Timing)], ours: &[&str], anchor: &str) {
    let cells: Vec<String> =
        times.iter().map(|(name, t)| format!("{name} {}", fmt(t.ns))).collect();
    println!("{title:12} | {}", cells.join(" | "));
    print_ratios(times, ours, anchor);
}

fn print_ratios(times: &[(&str, Timing)], ours: &[&str], anchor: &str) {
    let Some((_, anchor_t)) = times.iter().find(|(name, _)| *name == anchor) else { return };
    let ratios: Vec<String> = ours
        .iter()
        .filter_map(|o| times.iter().find(|(name, _)| name == o))
        .map(|(name, t)| format!("{name}/{anchor} = {:.2}", t.ratio_to(anchor_t)))
        .collect();
    println!("{:12} | {}", "", ratios.join(" | "));
}

/// Throughput of `modred::batch::pow_many_vartime` on 1 thread and on every core.
#[cfg(feature = "rayon")]
fn batch_scaling(rounds: usize) {
    let bits = 2048;
    let mut rng = SplitMix64::new(0xba7c);
    let mut m = Nat::from_vec(rng.exact_bits(bits));
    if !m.is_odd() {
        m = m.add(&Nat::one());
    }
    let modulus = Modulus::new(&m).unwrap();
    let jobs: Vec<(Nat, Nat)> = (0..32)
        .map(|_| {
            (
                Nat::from_vec(rng.exact_bits(bits)).checked_rem(&m).unwrap(),
                Nat::from_vec(rng.exact_bits(bits)),
            )
        })
        .collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut pools = Vec::new();
    for threads in [1, cores] {
        pools
            .push((threads, rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()));
    }
    let mut cands: Vec<Candidate<'_>> = pools
        .iter()
        .map(|(_, pool)| {
            Candidate::new(|| {
                black_box(pool.install(|| modred::batch::pow_many_vartime(&modulus, &jobs)));
            })
        })
        .collect();
    // The work runs on the pools' threads: the wall clock, not this thread's CPU time.
    let times =
        compare_wall_clock(&Plan::fixed(Duration::from_millis(1), rounds.min(3)), &mut cands);
    for ((threads, _), t) in pools.iter().zip(&times) {
        let per_s = jobs.len() as f64 / (t.ns * 1e-9);
        println!(
            "batch {bits}-bit powm × {}: {threads} thread(s) {} = {per_s:.0} powm/s, speed-up {:.2}",
            jobs.len(),
            fmt(t.ns),
            times[0].ratio_to(t)
        );
    }
}
