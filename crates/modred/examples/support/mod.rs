//! What the measuring examples share: the command line of sizes of the calibrations
//! (`calibrate_*.rs`) and the peak memory. They time with modred-testkit's interleaved
//! harness and draw their operands from its fixed-seed generator.

#![allow(dead_code)] // each example uses some of them

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
