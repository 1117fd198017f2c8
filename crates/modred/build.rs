//! Two cfg aliases for the x86-64 kernels (`src/kernels/arch/`), instead of repeating
//! `all(target_arch = "x86_64", not(feature = "portable"), not(miri))` in every module:
//!
//! - `x86_kernels_compiled`: an x86-64 target with SSE2, not Miri (which cannot run inline
//!   assembly or the vector intrinsics). Every hosted x86-64 target has SSE2; the bare-metal
//!   `x86_64-unknown-none` (soft float, no vector registers) does not, and LLVM cannot build
//!   the AVX-512 kernels there, so it runs the portable kernels only. The x86-64 kernels are compiled, also with the `portable`
//!   feature: the unit tests compare them with their portable twins in every build, and
//!   the IFMA transform engine of `ntt` stays testable there (with `portable` the library
//!   itself never calls them).
//! - `x86_kernels`: `x86_kernels_compiled` and not the `portable` feature. The library
//!   uses the x86-64 kernels: each is chosen at run time by what `kernels::cpu` detects.
//!
//! The three x86-64 kernel folders (`arch/x86_64`, `arch/avx512_ifma`, `arch/avx2`) share
//! these two aliases: same target, same family; which of them runs is a run-time answer of
//! `kernels::cpu` (MULX/ADX, AVX-512 IFMA, AVX2+FMA).
//!
//! So `x86_kernels` gates the dispatch (a call into a kernel, a field holding an x86-64
//! context), `x86_kernels_compiled` the kernels themselves and the tests against their
//! twins, `not(x86_kernels)` the portable-only code.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(x86_kernels)");
    println!("cargo::rustc-check-cfg=cfg(x86_kernels_compiled)");
    println!("cargo::rerun-if-changed=build.rs");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let portable = std::env::var_os("CARGO_FEATURE_PORTABLE").is_some();
    let miri = std::env::var_os("CARGO_CFG_MIRI").is_some();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let sse2 = features.split(',').any(|f| f == "sse2");
    if arch == "x86_64" && sse2 && !miri {
        println!("cargo::rustc-cfg=x86_kernels_compiled");
        if !portable {
            println!("cargo::rustc-cfg=x86_kernels");
        }
    }
}
