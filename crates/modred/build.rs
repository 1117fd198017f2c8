//! One cfg alias for "the x86-64 kernels are used": instead of repeating
//! `all(target_arch = "x86_64", not(feature = "portable"), not(miri))` in every module.
//!
//! - `x86_kernels`: an x86-64 target, not the `portable` feature, not Miri (which cannot
//!   run inline assembly or the vector intrinsics). The CPU-specific code is compiled and
//!   chosen at run time by `kernels::cpu`.
//!
//! Unit tests compile the x86-64 kernels also under `portable` (`all(test, target_arch =
//! "x86_64", not(miri))`), to keep comparing them with their portable twins.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(x86_kernels)");
    println!("cargo::rerun-if-changed=build.rs");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let portable = std::env::var_os("CARGO_FEATURE_PORTABLE").is_some();
    let miri = std::env::var_os("CARGO_CFG_MIRI").is_some();
    if arch == "x86_64" && !portable && !miri {
        println!("cargo::rustc-cfg=x86_kernels");
    }
}
