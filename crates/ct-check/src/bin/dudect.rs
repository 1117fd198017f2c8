//! A dudect-style timing test (Reparaz, Balasch and Verbauwhede, "Dude, is my code
//! constant time?", DATE 2017) for modred's constant-time functions. Outside CI: timing
//! on a shared machine is noisy, and the verdict is statistical.
//!
//! For each function, inputs of two classes are prepared in advance — *fixed* (a = b = 1,
//! e = 0: the values a leaky implementation would take a shortcut on) and *random* — and
//! the class of each measurement is drawn at random, so drift hits both alike. Each call is
//! timed alone; Welch's t statistic between the two classes' times is reported on all
//! measurements and after cropping at the 50th and 90th percentiles (dudect's
//! post-processing against the long tail of interrupts). |t| above 4.5 is evidence of a
//! leak; below it, none was found at this number of measurements.
//!
//! Usage: `cargo run --release -p ct-check --bin dudect [-- --samples N] [--widths 4,32]
//! [--only NAME-END,...]`, e.g. `--widths 16,32,64 --only "MontgomeryCt::pow,secret exponent"`
//! for the exponentiation (on AVX-512 IFMA where the CPU has it) and the control.
//! The planted leak `exp::pow_vartime` is measured as a control and must show a large |t|.

use ct_check::{planted_leaks, targets, Context, Rng, Secrets, Target};
use std::time::Instant;

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

/// The t statistics (all, cropped at p50, cropped at p90) for one target.
fn measure(target: &Target, ctx: &Context, samples: usize, rng: &mut Rng) -> [f64; 3] {
    let classes: Vec<bool> = (0..samples).map(|_| rng.next_u64() & 1 == 1).collect();
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
    // Warm up caches and the branch predictor on both classes.
    for s in inputs.iter_mut().take(64) {
        (target.run)(ctx, s);
    }
    let mut times = Vec::with_capacity(samples);
    for s in inputs.iter_mut() {
        let start = Instant::now();
        (target.run)(ctx, core::hint::black_box(s));
        times.push(start.elapsed().as_nanos() as f64);
    }
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let crop = |p: f64| {
        let limit = sorted[((samples as f64 * p) as usize).min(samples - 1)];
        let (mut f, mut r) = (Vec::new(), Vec::new());
        for (&t, &fixed) in times.iter().zip(&classes) {
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1));
    let samples: usize = value("--samples").and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let widths: Vec<usize> = value("--widths")
        .map(|v| v.split(',').filter_map(|w| w.parse().ok()).collect())
        .unwrap_or_else(|| vec![4, 16, 32]);
    // `--only NAME,...`: the functions (and controls) whose name ends with one of these.
    let only: Option<String> = value("--only").cloned();
    let mut rng = Rng(0xd0dec7);
    println!("| function | bits | measurements | t (all) | t (< p50) | t (< p90) | verdict |");
    println!("|---|---|---|---|---|---|---|");
    let controls: Vec<Target> =
        planted_leaks().into_iter().filter(|t| t.name.starts_with("exp::")).collect();
    for &k in &widths {
        let ctx = Context::new(k, &mut rng);
        let list = targets();
        let chosen =
            |t: &&Target| only.as_ref().is_none_or(|o| o.split(',').any(|n| t.name.ends_with(n)));
        for target in
            list.iter().filter(|t| ct_check::applies(t, k)).chain(&controls).filter(chosen)
        {
            // Exponentiations cost ~k·64 multiplications: fewer samples keep the run short.
            let n =
                if target.name.contains("pow") { (samples / (k * 4)).max(200) } else { samples };
            let t = measure(target, &ctx, n, &mut rng);
            let worst = t.iter().fold(0f64, |a, v| a.max(v.abs()));
            let verdict = if worst > 4.5 { "LEAK (|t| > 4.5)" } else { "no leak found" };
            println!(
                "| `{}` | {} | {} | {:.2} | {:.2} | {:.2} | {} |",
                target.name,
                k * 64,
                n,
                t[0],
                t[1],
                t[2],
                verdict
            );
        }
    }
}
