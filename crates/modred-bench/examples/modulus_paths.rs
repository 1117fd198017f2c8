//! Where the time of a modular multiplication through the user-facing `Modulus` goes:
//! the arithmetic alone, the boxed reducer, `Modulus::mul` (a new residue per call) and
//! `Modulus::mul_into` (none), beside GMP's `mpn_mul_n` and OpenSSL's
//! `BN_mod_mul_montgomery` with `--features anchors`; ratios measured in one process, the
//! candidates interleaved (the method of `fixed_ratios`).
//!
//! ```text
//! cargo run --release -p modred-bench --features anchors --example modulus_paths [ROUNDS] [BITS,…]
//! ```

use modred::modulus::Operation;
use modred::reduce::{make, MontgomeryFixed, Scratch};
use modred::{Algorithm, Modulus, Nat, Reducer};
use modred_bench::support::{below, compare_named, odd, Candidate, Plan, SplitMix64};
use std::hint::black_box;
use std::time::Duration;

/// The batch length of the measurement: about 20 µs, or `BATCH_US` µs.
fn batch() -> Duration {
    Duration::from_micros(std::env::var("BATCH_US").ok().and_then(|s| s.parse().ok()).unwrap_or(20))
}

/// The fixed-size Montgomery product on arrays of `N` digits, as candidates: products of
/// independent operands (throughput), the square, and the dependent chains `x ← x·b` and
/// `x ← x²` (latency: each waits for the last, as in an exponentiation).
fn fixed<'a, const N: usize>(
    m: &Nat,
    a: &Nat,
    b: &Nat,
    want: &Nat,
) -> Vec<(String, Candidate<'a>)> {
    let f = MontgomeryFixed::<N>::new(m).unwrap();
    let ra: [u64; N] = f.to_residue(a).try_into().unwrap();
    let rb: [u64; N] = f.to_residue(b).try_into().unwrap();
    assert_eq!(&f.from_residue(&f.mul_fixed(&ra, &rb)), want);
    assert_eq!(f.from_residue(&f.sqr_fixed(&ra)), a.sqr().checked_rem(m).unwrap());
    let (f2, f3, f4) = (f.clone(), f.clone(), f.clone());
    let (mut x, mut y) = (ra, ra);
    vec![
        (
            format!("MontgomeryFixed<{N}>::mul_fixed (arrays)"),
            Candidate::new(move || {
                black_box(f.mul_fixed(black_box(&ra), black_box(&rb)));
            }),
        ),
        (
            format!("MontgomeryFixed<{N}>::sqr_fixed (arrays)"),
            Candidate::new(move || {
                black_box(f2.sqr_fixed(black_box(&ra)));
            }),
        ),
        (
            format!("MontgomeryFixed<{N}>::mul_fixed, chain x = x·b"),
            Candidate::new(move || {
                x = f3.mul_fixed(&x, &rb);
                black_box(&x);
            }),
        ),
        (
            format!("MontgomeryFixed<{N}>::sqr_fixed, chain x = x²"),
            Candidate::new(move || {
                y = f4.sqr_fixed(&y);
                black_box(&y);
            }),
        ),
    ]
}

fn size(bits: u64, rounds: usize) {
    let k = bits.div_ceil(64) as usize;
    let mut rng = SplitMix64::new(bits);
    let m = odd(&mut rng, k);
    let (a, b) = (below(&mut rng, &m), below(&mut rng, &m));
    let want = a.mul(&b).checked_rem(&m).unwrap();
    let mut c: Vec<(String, Candidate<'_>)> = Vec::new();
    match k {
        4 => c.extend(fixed::<4>(&m, &a, &b, &want)),
        12 => c.extend(fixed::<12>(&m, &a, &b, &want)),
        8 => c.extend(fixed::<8>(&m, &a, &b, &want)),
        16 => c.extend(fixed::<16>(&m, &a, &b, &want)),
        32 => c.extend(fixed::<32>(&m, &a, &b, &want)),
        _ => {}
    }
    for algo in [Algorithm::Montgomery, Algorithm::MontgomeryInterleaved] {
        let r = make::<u64>(algo, &m).unwrap();
        let (ra, rb) = (r.to_residue(&a), r.to_residue(&b));
        let mut out = vec![0u64; k];
        let mut s = Scratch::new();
        r.mul(&mut out, &ra, &rb, &mut s);
        assert_eq!(r.from_residue(&out), want);
        c.push((
            format!("make({algo}) Reducer::mul"),
            Candidate::new(move || {
                r.mul(&mut out, black_box(&ra), black_box(&rb), &mut s);
                black_box(&out);
            }),
        ));
    }
    for (name, op) in [("auto", Some(Operation::MulMod)), ("montgomery", None)] {
        let ctx = match op {
            Some(op) => Modulus::for_operation(&m, op).unwrap(),
            None => Modulus::with(Algorithm::Montgomery, &m).unwrap(),
        };
        let label = format!("{name} ({})", ctx.algorithm());
        let (ra, rb) = (ctx.residue(&a), ctx.residue(&b));
        let mut out = ctx.zero();
        ctx.mul_into(&mut out, &ra, &rb).unwrap();
        assert_eq!(ctx.to_nat(&out).unwrap(), want);
        assert_eq!(ctx.to_nat(&ctx.mul(&ra, &rb).unwrap()).unwrap(), want);
        let ctx2 = match op {
            Some(op) => Modulus::for_operation(&m, op).unwrap(),
            None => Modulus::with(Algorithm::Montgomery, &m).unwrap(),
        };
        // Residues of ctx2 and ctx3 (each residue belongs to the modulus that made it).
        let (ra2, rb2) = (ctx2.residue(&a), ctx2.residue(&b));
        let ctx3 = match op {
            Some(op) => Modulus::for_operation(&m, op).unwrap(),
            None => Modulus::with(Algorithm::Montgomery, &m).unwrap(),
        };
        let (ra3, mut out3) = (ctx3.residue(&a), ctx3.zero());
        c.push((
            format!("Modulus::mul_into, {label}"),
            Candidate::new(move || {
                black_box(ctx.mul_into(&mut out, black_box(&ra), black_box(&rb)).is_ok());
                black_box(&out);
            }),
        ));
        c.push((
            format!("Modulus::sqr_into, {label}"),
            Candidate::new(move || {
                black_box(ctx3.sqr_into(&mut out3, black_box(&ra3)).is_ok());
                black_box(&out3);
            }),
        ));
        c.push((
            format!("Modulus::mul (new residue), {label}"),
            Candidate::new(move || {
                black_box(ctx2.mul(black_box(&ra2), black_box(&rb2)).ok());
            }),
        ));
    }
    #[cfg(feature = "anchors")]
    {
        use modred_bench::anchors::{GmpMulN, OpensslMontMul};
        let (ah, bh, mh) = (a.to_hex(), b.to_hex(), m.to_hex());
        let mut muln = GmpMulN::new(&ah, &bh);
        let mut ossl = OpensslMontMul::new(&ah, &bh, &mh);
        ossl.run();
        assert_eq!(ossl.result_hex(), want.to_hex().trim_start_matches("0x"));
        c.push((
            format!("GMP mpn_mul_n ({k} limbs, product only)"),
            Candidate::new(move || muln.run()),
        ));
        c.push(("OpenSSL BN_mod_mul_montgomery".to_string(), Candidate::new(move || ossl.run())));
    }
    if let Ok(only) = std::env::var("ONLY") {
        c.retain(|(name, _)| name.contains(&only));
    }
    let t = compare_named(&Plan::fixed(batch(), rounds), c);
    let base = t.len() - 1;
    println!("\n{bits} bits (ratios to {})", t[base].0);
    for (name, ti) in &t {
        println!("  {:<58} {:>9.1} ns  {:>6.2}", name, ti.ns, ti.ns / t[base].1.ns);
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(200);
    let sizes: Vec<u64> = args
        .next()
        .map(|s| s.split(',').map(|x| x.parse().unwrap()).collect())
        .unwrap_or_else(|| vec![256, 512, 1024, 2048, 4096]);
    println!("interleaved, {rounds} rounds, minimum per operation");
    for bits in sizes {
        size(bits, rounds);
    }
}
