//! Which CPU-specific paths this test run exercises, and which it skips for lack of the CPU
//! feature (their portable twins and the scalar models of their arithmetic run instead:
//! `amm_portable` for the radix-2^52 product, `amm_model` for the radix-2^28 one, the
//! portable slice kernels for MULX/ADX).
//! CI prints it: `cargo test -p modred --release --test cpu_paths -- --nocapture`.

/// Every CPU-specific path of the library: the feature `modred::cpu_features` names when
/// the path runs, and what it is.
const PATHS: &[(&str, &str)] = &[
    (
        "bmi2+adx",
        "MULX/ADCX/ADOX digit kernels (kernels/arch/x86_64) and the 4-digit Montgomery assembly",
    ),
    (
        "avx2+fma",
        "AVX2+FMA double-precision transform (ntt/fma, kernels/arch/avx2), where AVX-512 IFMA \
         is absent",
    ),
    (
        "avx512ifma",
        "AVX-512 IFMA radix-2^52 Montgomery products and exponentiations (engine/ifma, \
         kernels/arch/avx512_ifma) and the IFMA transform (ntt/ifma)",
    ),
    ("avx512vbmi", "radix-2^52 conversions in vector registers (the IFMA word-level product)"),
    (
        "avx2",
        "AVX2 radix-2^28 exponentiations, constant-time and variable-time (engine/avx2, \
         kernels/arch/avx2/radix28), where BMI2/ADX are absent; the batch API's four \
         exponentiations in the lanes (engine/lanes, kernels/arch/avx2/lanes), where AVX-512 \
         IFMA is absent",
    ),
];

#[test]
fn cpu_specific_paths_exercised_and_skipped() {
    let used = modred::cpu_features();
    let arch = std::env::consts::ARCH;
    eprintln!("\nCPU-specific paths on this {arch} CPU:");
    for (feature, what) in PATHS {
        let state = if used.contains(feature) {
            "exercised"
        } else if *feature == "avx2+fma" && used.contains(&"avx512ifma") {
            // The FMA transform runs only where IFMA is absent; its vector passes are
            // still tested against their twin here, and CI's run with MODRED_CPU_OFF
            // exercises the engine.
            "not chosen: the IFMA transform takes its place (MODRED_CPU_OFF=avx512ifma runs it)"
        } else if *feature == "avx2" && used.contains(&"bmi2+adx") {
            // Its kernels are still tested against their models here.
            "not chosen: MULX/ADX and IFMA take its place (MODRED_CPU_OFF=bmi2 runs the \
             radix-2^28 exponentiations, MODRED_CPU_OFF=avx512ifma the batch lanes)"
        } else if arch != "x86_64" {
            "not built for this architecture (portable code runs)"
        } else if cfg!(miri) || !cfg!(target_arch = "x86_64") {
            "not built here"
        } else {
            "SKIPPED: this CPU or build lacks it; its portable twin and scalar model are tested"
        };
        eprintln!("  {feature:<11} {state:<12}  {what}");
    }
    eprintln!("  aarch64     none yet     no NEON/SVE kernel exists; the portable code runs there");
    // The list is complete: every feature the library reports is one of the paths above.
    for f in &used {
        assert!(PATHS.iter().any(|(p, _)| p == f), "cpu_features() names {f}, missing here");
    }
}
