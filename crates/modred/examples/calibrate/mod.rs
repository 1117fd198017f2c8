//! What the calibration examples (`calibrate_*.rs`) share: their command line of sizes.
//! They time with modred-testkit's interleaved harness and draw their operands from its
//! fixed-seed generator.

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
