//! `modred-difftest`: every algorithm against an independent oracle (`num-bigint`), on
//! moduli of every shape and size up to 8192 bits, for as long as asked.
//!
//! ```text
//! cargo run --release -p modred-difftest -- [--seconds S] [--seed N] [--max-bits B]
//! ```
//!
//! Each round draws a size — in turn every size around a change of the selector's plan
//! (where `auto`'s algorithm or the code it runs changes with the width, found by walking
//! every width from 2 bits up), the word boundaries and a random size — and a shape: random
//! odd, random even, top digit 1, top digit all ones, `2^k − c` (small odd `c`), `2^k + 1`,
//! `b^k − 1` (all ones), generalized Mersenne `t^n − t^(n/2) − 1` (`t = 2^32`, `2^64`) and the
//! NIST primes. Then for `auto` and every registry algorithm that applies to the modulus:
//! one-off reductions of random values below `m²` and at the edges, products, squares, and
//! an exponentiation (exponents up to the modulus's length, shorter for the bit-serial and
//! study-only algorithms at large sizes), each compared with `num-bigint`. A forced
//! algorithm may refuse an argument beyond its input bound (counted as a refusal, never a
//! mismatch); an answer that differs is printed with its inputs and the run exits 1.
//!
//! Output: cases, refusals and mismatches per algorithm, and the seed to reproduce.

use modred::registry::ALGORITHMS;
use modred::{Algorithm, Error, Modulus, Nat, Operation};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Per algorithm: cases compared, refusals (an argument beyond a forced bound, a
/// construction refused for a size), mismatches.
#[derive(Default, Clone, Copy)]
struct Counts {
    cases: u64,
    refused: u64,
    mismatches: u64,
}

struct Options {
    seconds: u64,
    seed: u64,
    max_bits: u64,
}

fn parse_options() -> Result<Options, String> {
    let mut o = Options { seconds: 60, seed: 1, max_bits: 8192 };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| -> Result<u64, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} needs a whole number"))
        };
        match a.as_str() {
            "--seconds" => o.seconds = value("--seconds")?,
            "--seed" => o.seed = value("--seed")?,
            "--max-bits" => o.max_bits = value("--max-bits")?.clamp(2, 65536),
            "-h" | "--help" => {
                println!("usage: modred-difftest [--seconds S (60)] [--seed N (1)] [--max-bits B (8192)]");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument '{other}' (try --help)")),
        }
    }
    Ok(o)
}

fn big(n: &Nat) -> BigUint {
    BigUint::from_bytes_le(&n.to_bytes_le())
}

fn nat(b: &BigUint) -> Nat {
    Nat::from_bytes_le(&b.to_bytes_le())
}

/// The widths (bits) at which the selector's plan for `auto` changes, for any operation:
/// walking every width from 2 to `max_bits` with a random odd modulus and an even one.
fn plan_boundaries(max_bits: u64, rng: &mut SplitMix64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut last: Option<String> = None;
    for bits in 2..=max_bits {
        let odd = Nat::from_vec(rng.odd_modulus(bits));
        let even = &odd - &Nat::one();
        let key: String = [&odd, &even]
            .iter()
            .flat_map(|m| {
                Operation::ALL.iter().map(move |&op| {
                    modred::modulus::plan(Algorithm::Auto, m, op)
                        .map(|p| format!("{p}"))
                        .unwrap_or_default()
                })
            })
            .collect::<Vec<_>>()
            .join("|");
        if last.as_ref().is_some_and(|l| *l != key) {
            out.push(bits);
        }
        last = Some(key);
    }
    out
}

/// A modulus of `bits` bits and shape `shape` (0..SHAPES), with its description.
fn modulus(shape: u64, bits: u64, rng: &mut SplitMix64) -> (Nat, &'static str) {
    let k = bits.div_ceil(64);
    let pow = |b: u64| Nat::power_of_two(b);
    match shape {
        0 => (Nat::from_vec(rng.odd_modulus(bits)), "random odd"),
        1 => {
            let m = Nat::from_vec(rng.odd_modulus(bits));
            (if bits > 1 { &m - &Nat::one() } else { m }, "random even")
        }
        2 => {
            // Top digit 1: 2^(64(k−1)) plus random lower digits (at least 65 bits).
            let b = 64 * (k.max(2) - 1);
            (&pow(b) + &Nat::from_vec(rng.below_pow2(b)), "top digit 1")
        }
        3 => {
            // Top digit all ones, random lower digits.
            let b = 64 * k;
            let top = &pow(b) - &pow(b - 64);
            (&top + &Nat::from_vec(rng.below_pow2(b - 64)), "top digit all ones")
        }
        4 => {
            let c = (rng.below_u64(1 << 20) | 1).min(pow(bits).to_u64().unwrap_or(u64::MAX) - 1);
            (&pow(bits) - &Nat::from(c.max(1)), "2^k - c")
        }
        5 => (&pow(bits) + &Nat::one(), "2^k + 1"),
        6 => (&pow(64 * k) - &Nat::one(), "b^k - 1"),
        7 => {
            // t^n − t^(n/2) − 1 with t = 2^64 (or 2^32 when bits is not a multiple of 64).
            let t = if bits % 64 == 0 { 64 } else { 32 };
            let n = (bits / t).max(2);
            let m = &(&pow(t * n) - &pow(t * (n / 2))) - &Nat::one();
            (m, "t^n - t^(n/2) - 1")
        }
        _ => {
            let primes = modred::reduce::NistPrime::ALL;
            let p = primes[rng.below_u64(primes.len() as u64) as usize];
            (p.modulus(), "NIST prime")
        }
    }
}

const SHAPES: u64 = 9;

/// The exponent length for `algorithm` at `bits`: the modulus's length, up to 1024 bits;
/// 64 bits for the bit-serial and study-only algorithms above 1024 bits (their products
/// take milliseconds there).
fn exponent_bits(algorithm: Algorithm, bits: u64) -> u64 {
    let slow = algorithm.info().is_some_and(|i| i.study_only)
        || matches!(algorithm, Algorithm::Radix2Montgomery | Algorithm::Radix2MontgomeryRecoded);
    if slow && bits > 1024 {
        64
    } else {
        bits.min(1024)
    }
}

/// One modulus through one algorithm: every operation compared with the oracle.
fn check(
    algorithm: Algorithm,
    m: &Nat,
    desc: &str,
    rng: &mut SplitMix64,
    counts: &mut Counts,
) -> Result<(), String> {
    let md = match algorithm {
        Algorithm::Auto => Modulus::new(m),
        a => Modulus::with(a, m),
    };
    let md = match md {
        Ok(md) => md,
        Err(Error::NotApplicable { .. }) | Err(Error::OutOfRange { .. }) => {
            counts.refused += 1;
            return Ok(());
        }
        Err(e) => return Err(format!("{algorithm} on a {desc} modulus {m}: construction: {e}")),
    };
    let (mb, bits) = (big(m), m.bits());
    let mismatch = |what: &str, got: &Nat, want: &BigUint| -> String {
        format!(
            "{algorithm} on a {desc} modulus m = 0x{}: {what}: got {got}, want {want}",
            m.to_hex()
        )
    };
    let mut values: Vec<Nat> = vec![Nat::zero(), Nat::one(), m - &Nat::one()];
    for _ in 0..3 {
        values.push(Nat::from_vec(rng.below_pow2(bits)).checked_rem(m).unwrap_or_default());
    }
    // Reductions: below m², at m² − 1 and beyond (refused by a bounded forced algorithm).
    let square = m.sqr();
    let wide = [
        Nat::from_vec(rng.below_pow2(2 * bits)).checked_rem(&square).unwrap_or_default(),
        &square - &Nat::one(),
        Nat::from_vec(rng.below_pow2(2 * bits + 70)),
    ];
    for x in wide.iter().chain(&values) {
        counts.cases += 1;
        match md.reduce(x) {
            Ok(r) => {
                let want = big(x) % &mb;
                if big(&r) != want {
                    return Err(mismatch(&format!("reduce 0x{}", x.to_hex()), &r, &want));
                }
            }
            Err(Error::OutOfRange { .. }) => counts.refused += 1,
            Err(e) => return Err(format!("{algorithm}: reduce: unexpected error {e}")),
        }
    }
    for (i, x) in values.iter().enumerate() {
        let y = &values[(i + 2) % values.len()];
        counts.cases += 2;
        let got = md.mul_mod(x, y);
        let want = (big(x) * big(y)) % &mb;
        if big(&got) != want {
            return Err(mismatch(&format!("0x{} * 0x{}", x.to_hex(), y.to_hex()), &got, &want));
        }
        let got = md
            .sqr(&md.residue(x))
            .and_then(|r| md.to_nat(&r))
            .map_err(|e| format!("{algorithm}: sqr: {e}"))?;
        let want = (big(x) * big(x)) % &mb;
        if big(&got) != want {
            return Err(mismatch(&format!("0x{}^2", x.to_hex()), &got, &want));
        }
    }
    let e = Nat::from_vec(rng.below_pow2(exponent_bits(algorithm, bits)));
    let x = &values[3];
    counts.cases += 1;
    let got = md.pow_mod_vartime(x, &e).map_err(|e| format!("{algorithm}: pow: {e}"))?;
    let want = big(x).modpow(&big(&e), &mb);
    if big(&got) != want {
        return Err(mismatch(&format!("0x{}^0x{}", x.to_hex(), e.to_hex()), &got, &want));
    }
    if m.is_odd() && bits > 1 {
        counts.cases += 1;
        let got = md.pow_ct(&md.residue(x), &e).and_then(|r| md.to_nat(&r));
        if let Ok(got) = got {
            if big(&got) != want {
                return Err(mismatch("pow_ct", &got, &want));
            }
        }
    }
    // The batch API (four at a time in the AVX2 lanes where the CPU and the size take it):
    // four jobs, 0, 1, m − 1 and a random base, each with its own exponent.
    if algorithm == Algorithm::Auto && bits <= 2100 {
        let jobs: Vec<(Nat, Nat)> = values[..4]
            .iter()
            .map(|x| (x.clone(), Nat::from_vec(rng.below_pow2(exponent_bits(algorithm, bits)))))
            .collect();
        for ((x, e), got) in jobs.iter().zip(modred::batch::pow_many_vartime(&md, &jobs)) {
            counts.cases += 1;
            let got = got.map_err(|e| format!("{algorithm}: batch pow: {e}"))?;
            let want = big(x).modpow(&big(e), &mb);
            if big(&got) != want {
                let what = format!("batch 0x{}^0x{}", x.to_hex(), e.to_hex());
                return Err(mismatch(&what, &got, &want));
            }
        }
    }
    let _ = nat; // the oracle's values come back through `big` only
    Ok(())
}

fn main() -> ExitCode {
    let o = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut rng = SplitMix64::new(o.seed);
    let boundaries = plan_boundaries(o.max_bits.min(8192), &mut rng);
    let mut sizes: Vec<u64> = boundaries.iter().flat_map(|&b| [b - 1, b, b + 1]).collect();
    for k in 1..=o.max_bits / 64 {
        if k <= 4 || k.is_power_of_two() {
            sizes.extend([64 * k - 1, 64 * k, 64 * k + 1]);
        }
    }
    sizes.extend([2, 3, 5, 17, 33]);
    sizes.retain(|&b| (2..=o.max_bits).contains(&b));
    sizes.sort_unstable();
    sizes.dedup();
    println!(
        "seed {}, {} s, sizes up to {} bits; {} widths where the selector's plan changes: {:?}",
        o.seed,
        o.seconds,
        o.max_bits,
        boundaries.len(),
        boundaries
    );
    let deadline = Instant::now() + Duration::from_secs(o.seconds);
    let mut counts: BTreeMap<&'static str, Counts> = BTreeMap::new();
    let algorithms: Vec<Algorithm> =
        std::iter::once(Algorithm::Auto).chain(ALGORITHMS.iter().map(|i| i.algorithm)).collect();
    let (mut round, mut moduli) = (0u64, 0u64);
    while Instant::now() < deadline {
        let bits = if (round as usize) < sizes.len() * SHAPES as usize {
            sizes[(round / SHAPES) as usize]
        } else {
            2 + rng.below_u64(o.max_bits - 1)
        };
        let shape = round % SHAPES;
        round += 1;
        let (m, desc) = modulus(shape, bits, &mut rng);
        if m.bits() > o.max_bits + 1 || m.is_zero() {
            continue;
        }
        moduli += 1;
        for &a in &algorithms {
            if !a.applies(&m) {
                continue;
            }
            let c = counts.entry(a.name()).or_default();
            if let Err(why) = check(a, &m, desc, &mut rng, c) {
                c.mismatches += 1;
                eprintln!("MISMATCH (seed {}): {why}", o.seed);
                return ExitCode::from(1);
            }
        }
    }
    println!(
        "{moduli} moduli; per algorithm (cases compared with num-bigint, refusals, mismatches):"
    );
    let total: u64 = counts.values().map(|c| c.cases).sum();
    for (name, c) in &counts {
        println!(
            "  {name:<26} {:>9} cases  {:>6} refused  {} mismatches",
            c.cases, c.refused, c.mismatches
        );
    }
    println!("  {:<26} {total:>9} cases, 0 mismatches", "all");
    ExitCode::SUCCESS
}
