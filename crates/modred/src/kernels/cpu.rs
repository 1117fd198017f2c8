//! The CPU's features, detected once and cached: the only place the library asks the CPU
//! what it has. Every CPU-specific kernel and engine reads its answer from here.
//!
//! Each answer costs one CPUID query on first use (through `is_x86_feature_detected!`)
//! and a relaxed atomic load afterwards. A build for a CPU that has the feature
//! (`-C target-cpu=…`, `-C target-feature=+…`) answers at compile time.
//!
//! Without the `std` feature there is no run-time detection (`is_x86_feature_detected!`
//! is std's): a feature is present when the build enables it (`cfg!(target_feature)`),
//! so such a build runs the portable kernels unless it was made for a CPU with the
//! features (`-C target-feature=+bmi2,+adx`, `-C target-cpu=…`).
//!
//! Under valgrind (3.19) ADX is hidden from CPUID, so the portable kernels run there.
//!
//! With std, the environment variable `MODRED_CPU_OFF` hides features from the library,
//! as OpenSSL's `OPENSSL_ia32cap` does: a comma-separated list of `bmi2` (also hides
//! ADX), `avx2` and `avx512ifma` (also hides VBMI), read once at the first question. It
//! lets a CPU that has a feature measure and test the code that runs on one without it
//! (the AVX2-only path on an IFMA CPU). Unknown names are ignored. A build whose target
//! features include the feature answers at compile time and is not masked.

use alloc::vec::Vec;
// The cache exists where there is something to detect: on x86-64.
#[cfg(target_arch = "x86_64")]
use core::sync::atomic::{AtomicU8, Ordering};

/// Whether this CPU has the feature: asked of the CPU with std, the build's target
/// features without it.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
macro_rules! has {
    ($($feature:tt),+) => {
        $(std::is_x86_feature_detected!($feature))&&+
    };
}
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
macro_rules! has {
    ($($feature:tt),+) => {
        cfg!(all($(target_feature = $feature),+))
    };
}

#[cfg(target_arch = "x86_64")]
const UNKNOWN: u8 = 0;
#[cfg(target_arch = "x86_64")]
const ABSENT: u8 = 1;
#[cfg(target_arch = "x86_64")]
const PRESENT: u8 = 2;

/// One cached yes/no answer.
#[cfg(target_arch = "x86_64")]
struct Cached(AtomicU8);

#[cfg(target_arch = "x86_64")]
impl Cached {
    const fn new() -> Self {
        Cached(AtomicU8::new(UNKNOWN))
    }

    #[inline(always)]
    fn get(&self, detect: fn() -> bool) -> bool {
        match self.0.load(Ordering::Relaxed) {
            PRESENT => true,
            ABSENT => false,
            _ => self.detect(detect),
        }
    }

    #[cold]
    #[inline(never)]
    fn detect(&self, detect: fn() -> bool) -> bool {
        let present = detect();
        // Racing first callers all store the same answer.
        self.0.store(if present { PRESENT } else { ABSENT }, Ordering::Relaxed);
        present
    }
}

#[cfg(target_arch = "x86_64")]
static BMI2_ADX: Cached = Cached::new();
#[cfg(target_arch = "x86_64")]
static AVX2: Cached = Cached::new();
#[cfg(target_arch = "x86_64")]
static AVX2_FMA: Cached = Cached::new();
#[cfg(target_arch = "x86_64")]
static AVX512_IFMA: Cached = Cached::new();
#[cfg(target_arch = "x86_64")]
static AVX512_VBMI: Cached = Cached::new();

/// Whether `MODRED_CPU_OFF` names the feature (see the module documentation).
#[cfg(target_arch = "x86_64")]
fn hidden(feature: &str) -> bool {
    #[cfg(feature = "std")]
    {
        std::env::var("MODRED_CPU_OFF")
            .is_ok_and(|off| off.split(',').any(|name| name.trim().eq_ignore_ascii_case(feature)))
    }
    #[cfg(not(feature = "std"))]
    {
        let _ = feature;
        false
    }
}

/// MULX (BMI2) and ADCX/ADOX (ADX): the x86-64 `u64` kernels and the 4-digit Montgomery
/// assembly.
#[inline(always)]
pub(crate) fn bmi2_adx() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if cfg!(all(target_feature = "bmi2", target_feature = "adx")) {
            return true;
        }
        BMI2_ADX.get(|| has!("bmi2", "adx") && !hidden("bmi2"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// AVX2 (256-bit integer vectors): the constant-time exponentiation's masked table scan
/// (`ct::gather`) is compiled for it. No arithmetic kernel uses it without FMA
/// ([`avx2_fma`] is the answer the transform engine asks), so [`used_features`] does not
/// list it.
#[inline]
#[cfg_attr(not(x86_kernels), allow(dead_code))]
pub(crate) fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        AVX2.get(|| has!("avx2") && !hidden("avx2"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// AVX2 and FMA (fused multiply-add on `f64` vectors): the double-precision transform
/// engine (`ntt/fma.rs`, its passes in `arch/avx2/`). Hidden with `avx2`.
#[inline]
pub(crate) fn avx2_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if cfg!(all(target_feature = "avx2", target_feature = "fma")) {
            return true;
        }
        AVX2_FMA.get(|| has!("avx2", "fma") && !hidden("avx2"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// AVX-512F and AVX-512 IFMA (52-bit multiply-add in 512-bit vectors): the radix-2^52
/// Montgomery product and the IFMA transform.
#[inline]
pub(crate) fn avx512_ifma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        AVX512_IFMA.get(|| has!("avx512f", "avx512ifma") && !hidden("avx512ifma"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Besides [`avx512_ifma`]'s, AVX-512BW and AVX-512 VBMI (byte masks and the byte
/// permutation of the radix-2^52 digit conversions).
#[inline]
pub(crate) fn avx512_vbmi() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        AVX512_VBMI.get(|| avx512_ifma() && has!("avx512bw", "avx512vbmi"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The names of the features above that this CPU has and this build uses (none with the
/// `portable` feature or under Miri), in a fixed order.
pub(crate) fn used_features() -> Vec<&'static str> {
    if !cfg!(x86_kernels) {
        return Vec::new();
    }
    [
        ("bmi2+adx", bmi2_adx()),
        // The transform engine of AVX2+FMA runs where AVX-512 IFMA is absent.
        ("avx2+fma", avx2_fma() && !avx512_ifma()),
        ("avx512ifma", avx512_ifma()),
        ("avx512vbmi", avx512_vbmi()),
        // The radix-2^28 exponentiations run where BMI2/ADX are absent, the batch API's
        // four exponentiations in the lanes where AVX-512 IFMA is.
        ("avx2", avx2() && (!bmi2_adx() || !avx512_ifma())),
    ]
    .into_iter()
    .filter_map(|(name, has)| has.then_some(name))
    .collect()
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    /// Without std each answer is the build's: on a build for no particular CPU
    /// (as CI's), nothing beyond the x86-64 baseline.
    #[test]
    #[cfg(not(feature = "std"))]
    fn answers_are_the_builds_target_features() {
        assert_eq!(super::bmi2_adx(), cfg!(all(target_feature = "bmi2", target_feature = "adx")));
        assert_eq!(super::avx2(), cfg!(target_feature = "avx2"));
        assert_eq!(super::avx2_fma(), cfg!(all(target_feature = "avx2", target_feature = "fma")));
        let ifma = cfg!(all(target_feature = "avx512f", target_feature = "avx512ifma"));
        assert_eq!(super::avx512_ifma(), ifma);
        let vbmi = cfg!(all(target_feature = "avx512bw", target_feature = "avx512vbmi"));
        assert_eq!(super::avx512_vbmi(), ifma && vbmi);
    }

    /// Each cached answer is the CPU's as std detects it, asked directly (the one place
    /// besides the detection itself that does), and stays the same when asked again.
    #[test]
    #[cfg(feature = "std")]
    fn cached_answers_are_the_cpus() {
        let shown = |name| !super::hidden(name);
        let ifma = has!("avx512f") && has!("avx512ifma") && shown("avx512ifma");
        let expected = [
            ("bmi2+adx", has!("bmi2") && has!("adx") && shown("bmi2")),
            ("avx2", has!("avx2") && shown("avx2")),
            ("avx2+fma", has!("avx2") && has!("fma") && shown("avx2")),
            ("avx512ifma", ifma),
            ("avx512vbmi", ifma && has!("avx512bw") && has!("avx512vbmi")),
        ];
        for _ in 0..2 {
            let got = [
                super::bmi2_adx(),
                super::avx2(),
                super::avx2_fma(),
                super::avx512_ifma(),
                super::avx512_vbmi(),
            ];
            for ((name, want), got) in expected.iter().zip(got) {
                assert_eq!(got, *want, "{name}");
            }
        }
    }
}
