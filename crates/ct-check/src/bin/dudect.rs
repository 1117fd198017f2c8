//! A dudect-style timing test (Reparaz, Balasch and Verbauwhede, "Dude, is my code
//! constant time?", DATE 2017) for modred's constant-time functions. Outside CI: timing
//! on a shared machine is noisy, and the verdict is statistical.
//!
//! For each function, inputs of two classes are prepared in advance — *fixed* (for
//! `ct::MontgomeryCt` a = b = 1, e = 0; for `Modulus` and the field elements a = b = 0,
//! e = 0: the values a leaky implementation would take a shortcut on) and *random* — and
//! the class of each measurement is drawn at random, so drift hits both alike. Each call is
//! timed alone; Welch's t statistic between the two classes' times is reported on all
//! measurements and after cropping at the 50th and 90th percentiles (dudect's
//! post-processing against the long tail of interrupts). |t| above 4.5 is evidence of a
//! leak; below it, none was found at this number of measurements.
//!
//! Usage: `cargo run --release -p ct-check --bin dudect [-- --samples N] [--widths 4,32]
//! [--only NAME,...]`: a group — `ct` (`ct::MontgomeryCt` and the control), `modulus`
//! (the constant-time `Modulus` methods), `field` (the `PrimeField` methods of
//! `ct_check::field_targets`, whose fields have fixed sizes, so `--widths` does not apply)
//! — or the end of a function's name, e.g. `--widths 16,32,64 --only "MontgomeryCt::pow,secret
//! exponent"` for the exponentiation (on AVX-512 IFMA where the CPU has it) and the control.
//! The planted leak `exp::pow_vartime` is measured as a control and must show a large |t|.

use ct_check::{
    field_planted_leaks, field_targets, modulus_targets, planted_leaks, targets, time_each,
    Context, ModulusOp, Secrets, SplitMix64, Target,
};
use modred::{Modulus, Nat, Residue};

/// Welch's t statistic of two samples.
fn welch_t(a: &[f64], b: &[f64]) -> f64 {
    let stats = |x: &[f64]| {
        let n = x.len() as f64;
        let mean = x.iter().sum::<f64>() / n;
        let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0);
        (n, mean, var)
    };
    let (na, ma, va) = stats(a);
    let (nb, mb, vb) = stats(b);
    (ma - mb) / (va / na + vb / nb).sqrt()
}

/// The t statistics between the classes' times: on all measurements, and on those below
/// the 50th and the 90th percentile.
fn t_statistics(times: &[f64], classes: &[bool]) -> [f64; 3] {
    let n = times.len();
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let crop = |p: f64| {
        let limit = sorted[((n as f64 * p) as usize).min(n - 1)];
        let (mut f, mut r) = (Vec::new(), Vec::new());
        for (&t, &fixed) in times.iter().zip(classes) {
            if t <= limit {
                if fixed {
                    f.push(t)
                } else {
                    r.push(t)
                }
            }
        }
        welch_t(&f, &r)
    };
    [crop(1.0), crop(0.5), crop(0.9)]
}

/// The classes of `n` measurements, drawn at random (`true`: fixed).
fn draw_classes(n: usize, rng: &mut SplitMix64) -> Vec<bool> {
    (0..n).map(|_| rng.next_u64() & 1 == 1).collect()
}

/// The t statistics for one `ct::MontgomeryCt` target.
fn measure(target: &Target, ctx: &Context, samples: usize, rng: &mut SplitMix64) -> [f64; 3] {
    let classes = draw_classes(samples, rng);
    // Both classes are built the same way (same allocations, same writes); the fixed
    // class then has its values overwritten in place.
    let fixed_values = Secrets::fixed(ctx);
    let mut inputs: Vec<Secrets> = classes
        .iter()
        .map(|&fixed| {
            let mut s = Secrets::random(ctx, rng);
            if fixed {
                s.a.copy_from_slice(&fixed_values.a);
                s.b.copy_from_slice(&fixed_values.b);
                s.e.copy_from_slice(&fixed_values.e);
            }
            s
        })
        .collect();
    let times = time_each(&mut inputs, |s| (target.run)(ctx, s));
    t_statistics(&times, &classes)
}

/// The t statistics for one `Modulus` operation: fixed class `a = b = 0`, `e = 0`
/// (residues of zero are zero digits in every representation); random class random
/// residues and a random exponent of the modulus's width.
fn measure_modulus(op: ModulusOp, ctx: &Context, samples: usize, rng: &mut SplitMix64) -> [f64; 3] {
    let md = Modulus::new(&ctx.m).expect("odd modulus");
    let classes = draw_classes(samples, rng);
    let mut inputs: Vec<(Residue, Residue, Nat)> = classes
        .iter()
        .map(|&fixed| {
            let s = if fixed { Secrets::fixed_zero(ctx) } else { Secrets::random(ctx, rng) };
            // Both classes' residues come out of the same calls (the same allocations in
            // the same order): converted, then copied by an addition of zero.
            let zero = md.zero();
            let (a, b) = (md.residue(&Nat::from_limbs(&s.a)), md.residue(&Nat::from_limbs(&s.b)));
            let copy = |r: &Residue| md.add(&zero, r).expect("residues of this modulus");
            (copy(&a), copy(&b), Nat::from_limbs(&s.e))
        })
        .collect();
    let times = time_each(&mut inputs, |(a, b, e)| drop(core::hint::black_box(op(&md, a, b, e))));
    t_statistics(&times, &classes)
}

fn row(name: &str, bits: &str, n: usize, t: [f64; 3]) {
    let worst = t.iter().fold(0f64, |a, v| a.max(v.abs()));
    let verdict = if worst > 4.5 { "LEAK (|t| > 4.5)" } else { "no leak found" };
    println!(
        "| `{name}` | {bits} | {n} | {:.2} | {:.2} | {:.2} | {:.2} | {verdict} |",
        t[0], t[1], t[2], worst
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1));
    let samples: usize = value("--samples").and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let widths: Vec<usize> = value("--widths")
        .map(|v| v.split(',').filter_map(|w| w.parse().ok()).collect())
        .unwrap_or_else(|| vec![4, 16, 32]);
    // `--only NAME,...`: groups (`ct`, `modulus`, `field`) or the ends of functions' names.
    let only: Option<Vec<String>> =
        value("--only").map(|v| v.split(',').map(str::to_string).collect());
    let chosen = |group: &str, name: &str| {
        only.as_ref().is_none_or(|o| o.iter().any(|n| n == group || name.ends_with(n.as_str())))
    };
    let mut rng = SplitMix64::new(0xd0dec7);
    println!(
        "| function | bits | measurements | t (all) | t (< p50) | t (< p90) | max abs t | verdict |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let controls: Vec<Target> =
        planted_leaks().into_iter().filter(|t| t.name.starts_with("exp::")).collect();
    // Exponentiations cost ~k·64 multiplications: fewer samples keep the run short.
    let pow_samples = |k: usize| (samples / (k * 4)).max(200);
    for &k in &widths {
        let ctx = Context::new(k, &mut rng);
        for target in targets().iter().filter(|t| ct_check::applies(t, k)).chain(&controls) {
            if chosen("ct", target.name) {
                let n = if target.name.contains("pow") { pow_samples(k) } else { samples };
                row(target.name, &(k * 64).to_string(), n, measure(target, &ctx, n, &mut rng));
            }
        }
        for (name, op) in modulus_targets() {
            if chosen("modulus", name) {
                let n = if name.contains("pow") { pow_samples(k) } else { samples };
                row(name, &(k * 64).to_string(), n, measure_modulus(op, &ctx, n, &mut rng));
            }
        }
    }
    let field_controls = ct_check::field_controls().into_iter().chain(field_planted_leaks());
    for target in field_targets().into_iter().chain(field_controls) {
        if chosen("field", target.name) {
            // An inverse costs about 80·N products of N² digit products each: fewer samples
            // the more digits (at least 5000), so that every field size takes seconds.
            let n = if target.name.contains("inv") {
                (samples / (4 * target.digits * target.digits)).max(5_000)
            } else {
                samples
            };
            let classes = draw_classes(n, &mut rng);
            let times = (target.time)(&classes, &mut rng);
            row(target.name, &(64 * target.digits).to_string(), n, t_statistics(&times, &classes));
        }
    }
}
