//! What the measuring examples share: their operands' generator, the best-of-rounds timing
//! and the command line of sizes of the calibrations (`calibrate_*.rs`), the peak memory.

#![allow(dead_code)] // each example uses some of them

use std::time::Instant;

/// A xorshift generator (Marsaglia 2003) from a non-zero `seed`: the same operands on
/// every run.
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}

/// Seconds per call of `f`: calls are batched until one batch takes `batch_s`, then the
/// fastest of `rounds` batches counts (the machine's slow phases only slow some).
pub fn best_seconds<F: FnMut()>(mut f: F, batch_s: f64, rounds: usize) -> f64 {
    let mut reps = 1;
    loop {
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        if t.elapsed().as_secs_f64() > batch_s {
            break;
        }
        reps *= 2;
    }
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            t.elapsed().as_secs_f64() / reps as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// The sizes (in 64-bit digits) given on the command line, or `default` when none are;
/// an argument that is not a number ends the program with an `error:` line.
pub fn sizes_from_args(default: &[usize]) -> Vec<usize> {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse().unwrap_or_else(|_| {
                eprintln!("error: '{a}' is not a size in 64-bit digits");
                std::process::exit(2)
            })
        })
        .collect();
    if sizes.is_empty() {
        default.to_vec()
    } else {
        sizes
    }
}

/// The peak resident memory of this process in KiB (VmHWM, Linux; 0 elsewhere).
pub fn vm_hwm_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}
