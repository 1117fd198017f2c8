//! The auto rule, in one place: which reducer [`crate::Modulus::new`] and the command
//! line's `auto` use for a modulus and an operation, and which exponentiation method.
//!
//! The rule is a tuning profile when one is active ([`super::profile`], written by
//! `modred tune` on the machine at hand) and covers the modulus's form and size, and the
//! built-in rule below otherwise. The built-in thresholds are named constants, each with
//! its latest measurement and the command that re-measures it (history: docs/tuning.md).
//! Which code then runs for the chosen algorithm is the selector's ([`super::plan`]).
//!
//! [`explain`] returns the choice with the reason for it (`modred algos M` prints it);
//! [`choose`] only the algorithm.

use super::profile::{self, Form, Profile};
use super::Operation;
use crate::exp::{self, Method};
use crate::nat::Nat;
use crate::reduce::fixed::barrett_fixed_applies;
use crate::reduce::NistPrime;
use crate::registry::Algorithm;
use alloc::format;
use alloc::string::String;
use alloc::string::ToString;

// Each threshold: one line of reason (its latest measurement: x86-64, 64-bit digits, ratios
// of interleaved timings in one process) and the command that re-measures it; the history of
// each, with the machine states it was measured in, is in docs/tuning.md.

/// Digits from which the transform reducers (paper 001) take reductions, multiplications and
/// exponentiations where the transforms run on the portable engine: at 512 digits
/// barrett/ntt-barrett 1.22 and montgomery/ntt-montgomery 1.11. Re-measure: `modred tune --check`.
pub(crate) const NTT_REDUCER_THRESHOLD: usize = 512;

/// [`NTT_REDUCER_THRESHOLD`] where the transforms run on the AVX2+FMA engine:
/// montgomery/ntt-montgomery 0.93–1.08 at 192 digits, 1.28–1.29 at 256 (two runs).
/// Re-measure: `MODRED_CPU_OFF=avx512ifma cargo run --release -p modred --example calibrate_ntt_reduce`.
pub(crate) const NTT_REDUCER_FMA_THRESHOLD: usize = 256;

/// [`NTT_REDUCER_THRESHOLD`] where the transforms run on AVX-512 IFMA: montgomery/ntt-montgomery
/// 0.88 at 64 digits, 1.40 at 128. Re-measure: `cargo run --release -p modred --example calibrate_ntt_reduce`.
pub(crate) const NTT_REDUCER_IFMA_THRESHOLD: usize = 128;

/// The digits from which reductions, multiplications and exponentiations use the
/// transform reducers on this CPU: [`NTT_REDUCER_IFMA_THRESHOLD`] where the transforms run on AVX-512 IFMA,
/// [`NTT_REDUCER_FMA_THRESHOLD`] on the AVX2+FMA engine, [`NTT_REDUCER_THRESHOLD`] elsewhere.
pub(crate) fn ntt_reducer_mul_threshold() -> (usize, &'static str) {
    if crate::ntt::uses_ifma::<u64>() {
        (NTT_REDUCER_IFMA_THRESHOLD, "NTT_REDUCER_IFMA_THRESHOLD")
    } else if crate::ntt::uses_fma::<u64>() {
        (NTT_REDUCER_FMA_THRESHOLD, "NTT_REDUCER_FMA_THRESHOLD")
    } else {
        (NTT_REDUCER_THRESHOLD, "NTT_REDUCER_THRESHOLD")
    }
}

/// Digits of an odd modulus up to which a multiplication takes CIOS (`montgomery-interleaved`);
/// above, the separated product with Karatsuba: CIOS/separated 1.12 at 256 digits.
/// Re-measure: `modred tune --check`.
pub(crate) const INTERLEAVED_MULMOD_MAX_DIGITS: usize = 128;

/// Digits of an odd modulus up to which multiplications and exponentiations take the fixed-size
/// Montgomery (CIOS/fixed 1.6–2.2): every width it is instantiated for. Re-measure: `modred tune --check`.
pub(crate) const FIXED_MONTGOMERY_MAX_DIGITS: usize = 8;

/// Digits of an even modulus without the fixed-size Barrett up to which a multiplication takes
/// classical; above, the slice Barrett (barrett/classical 1.03–1.04 at 8 digits, the slice
/// Barrett ahead from 16). Re-measure: `modred tune --check --forms odd,even`.
pub(crate) const CLASSICAL_EVEN_MULMOD_MAX_DIGITS: usize = 8;

/// [`CLASSICAL_EVEN_MULMOD_MAX_DIGITS`] for exponentiations (the slice Barrett ahead from 16
/// digits in the undisturbed machine). Re-measure: `modred tune --check --forms odd,even`.
pub(crate) const CLASSICAL_EVEN_POWM_MAX_DIGITS: usize = 8;

/// Digits from which a one-off reduction (without the fixed-size Barrett) takes the slice Barrett
/// rather than classical: barrett/classical 1.12–1.35 at 8 digits, classical behind from 9.
/// Re-measure: `modred tune --check --forms odd,even`.
pub(crate) const BARRETT_REDUCE_MIN_DIGITS: usize = 9;

/// Bits from which `pseudo-mersenne` (one-digit `c`) replaces the generic choice for
/// multiplications and exponentiations: the fastest at every size measured (fixed
/// Montgomery/pseudo-mersenne 1.05–1.42). Re-measure: `modred tune --check --forms pseudo-mersenne`.
pub(crate) const PSEUDO_MERSENNE_MIN_BITS: u64 = 1;

/// Digits (top bit set) from which a one-off reduction takes the fixed-size Barrett; at 1 digit
/// a tie with classical (0.88–1.14), at 2 digits barrett/classical 0.50–0.55.
/// Re-measure: `modred tune --check --forms odd,even`.
pub(crate) const BARRETT_FIXED_REDUCE_MIN_DIGITS: usize = 2;

/// Digits of an odd modulus (top bit set) up to which an exponentiation takes the fixed-size
/// Barrett rather than Montgomery: from 2 digits the fixed-size Montgomery (one 128-bit
/// quotient digit, `reduce::fixed::mont2`) is ahead, a 128-bit powm 1.25 µs against 1.33–1.44
/// (Intel Xeon) and 1.50 against 1.64 (AMD EPYC Zen 4). Re-measure: `modred bench --algo
/// montgomery,barrett,pseudo-mersenne --bits 128 --op mulmod,powm`.
pub(crate) const BARRETT_FIXED_ODD_POWM_MAX_DIGITS: usize = 1;

/// Whether an exponentiation modulo `m` takes the fixed-size Barrett although `m` is odd
/// ([`BARRETT_FIXED_ODD_POWM_MAX_DIGITS`]).
fn barrett_fixed_powm(m: &Nat) -> bool {
    m.len() <= BARRETT_FIXED_ODD_POWM_MAX_DIGITS && barrett_fixed_applies(m)
}

/// Digits of an odd modulus (no fixed-size Barrett) at which a one-off reduction takes
/// Montgomery's reduction and one multiplication by `R² mod m` where its product is assembly:
/// Barrett 1.01–1.12 and classical 1.07–1.11 slower. Re-measure: `modred tune --check --forms odd,even`.
pub(crate) const MONTGOMERY_REDUCE_ASM_DIGITS: usize = 4;

/// Whether the fixed-size Montgomery product of `digits` 64-bit digits runs as
/// MULX/ADCX/ADOX assembly on this CPU (4 digits with BMI2 and ADX, not with the
/// `portable` feature).
pub(crate) fn montgomery_asm(digits: usize) -> bool {
    cfg!(x86_kernels) && digits == MONTGOMERY_ASM_DIGITS && crate::kernels::cpu::bmi2_adx()
}

/// The width of the fixed-size Montgomery product in MULX/ADCX/ADOX assembly.
pub(crate) const MONTGOMERY_ASM_DIGITS: usize = 4;

/// Bits of an odd modulus from which the Montgomery contexts ([`crate::Modulus`]'s
/// products and exponentiations, [`crate::ct::MontgomeryCt::pow`]) run in radix 2^52 on
/// AVX-512 IFMA: past the eight digits of the MULX/ADX register code (`mont_mul_8_loop`,
/// `mont_sqr_8_regs`), which is faster at 512 bits on both IFMA CPUs measured. AMD Zen 4
/// (512-bit operations as two halves): the IFMA paths took 1.23–1.31 (mulmod), 1.47–1.49
/// (sqrmod), 1.21 (powm) and 1.48 (`pow_ct`) of the 8-digit code's time at 512 bits, and
/// 0.72–0.91 of the MULX/ADX code's at 576. Intel Xeon (Sapphire Rapids class, AMX,
/// AVX-512 FP16): 1.12–1.16 (mulmod), 1.07 (powm), 1.18 (`pow_ct`) at 512; at 576 1.00
/// (mulmod), 0.91 (powm), 0.97 (`pow_ct`).
/// Re-measure: `modred bench --algo montgomery --api modulus --bits 512,576 --op mulmod,sqrmod,powm`
/// with and without `MODRED_CPU_OFF=avx512ifma`, and `RSA_SIZES_BITS=512,576 cargo bench
/// -p modred-bench --bench rsa_sizes` (`powm-ct` against `powm-ct-word`).
#[cfg(any(x86_kernels, all(test, x86_kernels_compiled)))]
#[cfg_attr(not(x86_kernels), allow(dead_code))] // read by the x86-64 kernels' users
pub(crate) fn ifma_min_bits() -> u64 {
    crate::engine::ifma::MIN_BITS.max(64 * MONTGOMERY_MULX_MIN_DIGITS as u64 + 1)
}

/// Digits of an odd modulus from which the Montgomery reducers (`montgomery`,
/// `montgomery-interleaved`) multiply with the fused MULX/ADX Montgomery multiplication
/// where AVX-512 IFMA does not take the product; below, the fixed-size Montgomery, ahead at
/// 5–7 digits (OpenSSL ÷ fixed 0.96–1.01 against ÷ MULX 1.11–1.25), behind at 8 (a 512-bit
/// square 88–92 ns against 106–108, `batch` powm lines 0.86–0.93 of the fixed one's time), IFMA hidden.
/// Re-measure: `MODRED_CPU_OFF=avx512ifma modred bench --anchors --algo montgomery --api modulus --bits 320,448,512,576`.
pub(crate) const MONTGOMERY_MULX_MIN_DIGITS: usize = 8;

/// Digits up to which [`MONTGOMERY_MULX_MIN_DIGITS`] holds (above, the separated product
/// with Karatsuba of [`crate::reduce::montgomery::PRODUCT_KARATSUBA_THRESHOLD`] digits).
pub(crate) const MONTGOMERY_MULX_MAX_DIGITS: usize = 64;

/// Digits from which the MULX/ADX Montgomery squares take the dedicated square (triangle,
/// doubled, then the reduction) rather than the fused multiplication: ours ÷ OpenSSL's a·a
/// 1.18–1.20 against 1.47–1.70 at 32–64 digits, 0.72–1.31 against 0.80–1.22 at 9–15, IFMA hidden.
/// Re-measure: `MODRED_CPU_OFF=avx512ifma modred bench --anchors --algo montgomery --api modulus --op sqrmod`.
#[cfg_attr(not(x86_kernels), allow(dead_code))] // read by the x86-64 kernels' users
pub(crate) const MONTGOMERY_MULX_SQR_SEPARATE_MIN_DIGITS: usize = 9;

/// Whether a Montgomery product of `digits` 64-bit digits runs as the fused MULX/ADCX/ADOX
/// Montgomery multiplication on this CPU (BMI2 and ADX, not with the `portable` feature,
/// [`MONTGOMERY_MULX_MIN_DIGITS`]..=[`MONTGOMERY_MULX_MAX_DIGITS`] digits). Where the
/// AVX-512 IFMA product pays, the selector takes that first.
pub(crate) fn montgomery_mulx(digits: usize) -> bool {
    cfg!(x86_kernels)
        && (MONTGOMERY_MULX_MIN_DIGITS..=MONTGOMERY_MULX_MAX_DIGITS).contains(&digits)
        && crate::kernels::cpu::bmi2_adx()
}

/// Whether the constant-time Montgomery context ([`crate::ct::MontgomeryCt`]) of `digits`
/// 64-bit digits multiplies with the fused MULX/ADCX/ADOX Montgomery multiplication: on a
/// CPU with BMI2 and ADX (not with the `portable` feature), every width (the alternative is
/// CIOS in rows of the digit kernels, which makes the same products in two passes).
#[cfg_attr(not(x86_kernels), allow(dead_code))] // read by the x86-64 kernels' users
pub(crate) fn montgomery_ct_mulx(digits: usize) -> bool {
    cfg!(x86_kernels) && digits >= 1 && crate::kernels::cpu::bmi2_adx()
}

/// Digits of an odd modulus up to which the constant-time exponentiation
/// ([`crate::ct::MontgomeryCt::pow`]) runs on arrays of a const width (`ct::pow_fixed`):
/// ÷ the digit-level path 0.50–0.70 at 2–7 digits, 1.65 at 8 (AMD EPYC Zen 5; with BMI2
/// hidden 0.49–0.65). Re-measure: `RSA_SIZES_BITS=128,256,448,512 cargo bench -p
/// modred-bench --bench rsa_sizes`, `powm-ct/powm-ct-word`.
pub(crate) const MONTGOMERY_CT_FIXED_MAX_DIGITS: usize = 7;

/// Whether the constant-time exponentiation modulo `digits` 64-bit digits runs on arrays
/// of a const width: 2 to [`MONTGOMERY_CT_FIXED_MAX_DIGITS`] digits, on every CPU.
pub(crate) fn montgomery_ct_fixed(digits: usize) -> bool {
    (2..=MONTGOMERY_CT_FIXED_MAX_DIGITS).contains(&digits)
}

/// Digits of an odd modulus up to which the constant-time exponentiation
/// ([`crate::ct::MontgomeryCt::pow`]) runs in radix 2^28 on AVX2 on a CPU without BMI2/ADX
/// (`engine::avx2`): the kernel's column sums stay exact to 2048 bits.
pub(crate) const MONTGOMERY_CT_AVX2_MAX_DIGITS: usize = 32;

/// Digits from which it does: ÷ the digit-level path 0.86–1.08 at 512 bits, 0.61–0.99 at
/// 768–2048 (Intel Xeon, BMI2/ADX hidden). Re-measure: `MODRED_CPU_OFF=bmi2,avx512ifma
/// RSA_SIZES_BITS=512,768,1024 cargo bench -p modred-bench --bench rsa_sizes`.
pub(crate) const MONTGOMERY_CT_AVX2_MIN_DIGITS: usize = 8;

/// Whether the constant-time exponentiation modulo `digits` 64-bit digits runs in radix
/// 2^28 on AVX2: a CPU with AVX2 and without BMI2 and ADX (where MULX/ADX runs it,
/// [`montgomery_ct_mulx`]), not with the `portable` feature, and
/// [`MONTGOMERY_CT_AVX2_MIN_DIGITS`]..=[`MONTGOMERY_CT_AVX2_MAX_DIGITS`] digits.
#[cfg_attr(not(x86_kernels), allow(dead_code))] // read by the x86-64 kernels' users
pub(crate) fn montgomery_ct_avx2(digits: usize) -> bool {
    cfg!(x86_kernels)
        && (MONTGOMERY_CT_AVX2_MIN_DIGITS..=MONTGOMERY_CT_AVX2_MAX_DIGITS).contains(&digits)
        && crate::kernels::cpu::avx2()
        && !crate::kernels::cpu::bmi2_adx()
}

/// Digits of an odd modulus from which the variable-time exponentiation of the Montgomery
/// contexts ([`crate::Modulus::pow_vartime`]) runs in radix 2^28 on AVX2 on a CPU without
/// BMI2/ADX (`engine::avx2::PowerAvx2`), up to [`MONTGOMERY_CT_AVX2_MAX_DIGITS`]: at 8 digits the
/// fixed-size product in registers is ahead (radix 2^28 constant-time 91.7 µs against its
/// 63.3), from 9 the vector one (÷ the digit-level exponentiation 0.79 at 576 bits, 0.71 at
/// 640, 0.62 at 768, 0.66 at 1024, 0.51 at 2048; AMD EPYC Zen 4, BMI2/ADX and AVX-512 hidden).
/// Re-measure: `MODRED_CPU_OFF=bmi2,avx512ifma RSA_SIZES_BITS=512,576,640,768 cargo bench -p
/// modred-bench --bench rsa_sizes` (`powm` against `powm-word`).
pub(crate) const MONTGOMERY_AVX2_POWER_MIN_DIGITS: usize = 9;

/// Whether the variable-time exponentiation modulo `digits` 64-bit digits runs in radix
/// 2^28 on AVX2: a CPU with AVX2 and without BMI2 and ADX, not with the `portable`
/// feature, and [`MONTGOMERY_AVX2_POWER_MIN_DIGITS`]..=[`MONTGOMERY_CT_AVX2_MAX_DIGITS`] digits.
#[cfg_attr(not(x86_kernels), allow(dead_code))] // read by the x86-64 kernels' users
pub(crate) fn montgomery_avx2_power(digits: usize) -> bool {
    cfg!(x86_kernels)
        && (MONTGOMERY_AVX2_POWER_MIN_DIGITS..=MONTGOMERY_CT_AVX2_MAX_DIGITS).contains(&digits)
        && crate::kernels::cpu::avx2()
        && !crate::kernels::cpu::bmi2_adx()
}

/// Bits of an odd modulus from which the batch exponentiations ([`crate::batch`]) run four
/// at a time in the lanes of AVX2 registers (`engine::lanes`), up to
/// [`LANES_POWER_MAX_BITS`]: at 512 bits one job on the 8-digit register code is ahead
/// (four in the lanes 1.09 of its time per job), above it the lanes (0.86 at 576 bits, 0.74
/// at 640 and 768, 0.78 at 1024, 0.90 at 2048; AMD EPYC Zen 3). Re-measure:
/// `RSA_SIZES_BITS=512,576,1024 cargo bench -p modred-bench --bench rsa_sizes`
/// (`powm-batch4` against `powm`).
#[cfg_attr(not(x86_kernels), allow(dead_code))]
pub(crate) const LANES_POWER_MIN_BITS: u64 = 513;

/// Bits up to which they do: the lanes' column sums stay exact to 2070 bits.
#[cfg_attr(not(x86_kernels), allow(dead_code))]
pub(crate) const LANES_POWER_MAX_BITS: u64 = 2048;

/// Jobs of one modulus size a group of the lanes needs: four products side by side take
/// about as long as three of the MULX/ADX products one at a time (AMD EPYC Zen 3, 1024
/// bits), so fewer than three go one at a time.
pub(crate) const LANES_POWER_MIN_JOBS: usize = 3;

/// Whether batch exponentiations modulo `bits`-bit odd moduli run in the lanes of AVX2
/// registers: a CPU with AVX2 and without AVX-512 IFMA (whose radix-2^52 exponentiation of
/// one job is faster than four in the lanes), not with the `portable` feature, and
/// [`LANES_POWER_MIN_BITS`]..=[`LANES_POWER_MAX_BITS`] bits.
#[cfg_attr(not(x86_kernels), allow(dead_code))] // read by the x86-64 kernels' users
pub(crate) fn lanes_power(bits: u64) -> bool {
    cfg!(x86_kernels)
        && (LANES_POWER_MIN_BITS..=LANES_POWER_MAX_BITS).contains(&bits)
        && crate::kernels::cpu::avx2()
        && !crate::kernels::cpu::avx512_ifma()
}

/// Whether the MULX/ADX Montgomery reducer of `digits` digits squares with the dedicated
/// square: at 8 digits its form unrolled in registers (100 digit products against the
/// fused multiplication's 128), from [`MONTGOMERY_MULX_SQR_SEPARATE_MIN_DIGITS`] the looped one.
#[cfg_attr(not(x86_kernels), allow(dead_code))] // read by the x86-64 kernels' users
pub(crate) fn montgomery_mulx_sqr_separate(digits: usize) -> bool {
    digits == 8 || digits >= MONTGOMERY_MULX_SQR_SEPARATE_MIN_DIGITS
}

// Equal by design: the fixed-size Montgomery covers every width up to its threshold (and
// `Core` has one arm per width); the asm thresholds are the assembly's width.
const _: () = assert!(FIXED_MONTGOMERY_MAX_DIGITS == crate::reduce::fixed::MAX_MONTGOMERY_LIMBS);
const _: () = assert!(MONTGOMERY_REDUCE_ASM_DIGITS == MONTGOMERY_ASM_DIGITS);
// The slice Barrett takes over where classical stops.
const _: () = assert!(CLASSICAL_EVEN_MULMOD_MAX_DIGITS + 1 == BARRETT_REDUCE_MIN_DIGITS);

/// Bits of an even modulus from which an automatic exponentiation context splits it by CRT
/// (`engine::even`: the odd part on its own engine, a power modulo 2^s): past one digit,
/// where the split took 0.77–0.94 of GMP's `mpz_powm` at 80–127 bits against Barrett's
/// 2.2–3.1 (no fixed-size Barrett below a full top digit), and 0.2–0.6 of Barrett's time
/// from three digits (Intel Xeon, Sapphire Rapids class; AMD EPYC: 0.2–0.6, 1.1 at 192 and
/// 512 bits). One digit splits the same way in registers (`exp::word`).
/// Re-measure: `EVEN_POWM_BITS=64,80,96,127,128,192 cargo bench -p modred-bench --bench even_powm`.
pub(crate) const EVEN_CRT_MIN_BITS: u64 = 65;

/// Whether an automatic context for `op` modulo `m` runs its exponentiations by CRT: an
/// even `m` of at least [`EVEN_CRT_MIN_BITS`], for exponentiation contexts (the split
/// costs a second precalculation that products and reductions do not repay), but for two
/// digits with a full top digit, where the fixed-size Barrett is ahead (128 bits: split ÷
/// Barrett 1.07 with the lazy two-digit products, Intel Xeon; 1.50 before them, AMD EPYC).
pub(crate) fn even_crt_pays(m: &Nat, op: Operation) -> bool {
    op == Operation::PowMod
        && !m.is_zero()
        && !m.is_odd()
        && m.bits() >= EVEN_CRT_MIN_BITS
        && !(m.len() == 2 && barrett_fixed_applies(m))
}

/// Digits from which `auto` answers a reduction or a product modulo a modulus it has not
/// met before by division alone, without preparing a context ([`once_pays`]): from two
/// digits a first batch line of `x·y mod m` took 0.25–0.7 of the time of preparing a context
/// and using it (128 bits to 2^18, Intel Xeon, with and without IFMA). One digit keeps its
/// register context (`exp::word`), prepared by one reciprocal.
pub const ONCE_MIN_DIGITS: usize = 2;

/// Whether a caller that meets `m` for the first time should answer `op` by
/// [`crate::Modulus::mul_mod_once`] / [`crate::Modulus::reduce_once`] /
/// [`crate::Modulus::pow_mod_once`] rather than prepare a context to keep (and prepare one
/// when `m` comes again): every context's preparation costs about a division by itself,
/// so one product never repays it; an exponentiation, whose hundreds of products do,
/// prepares only what it runs on (no reducer for one-off reductions) and keeps nothing.
pub fn once_pays(_op: Operation, m: &Nat) -> bool {
    m.len() >= ONCE_MIN_DIGITS
}

/// Digits of a modulus's odd part up to which a one-off exponentiation
/// ([`crate::Modulus::pow_mod_once`]) runs the fixed-size Montgomery products without a
/// context (`engine::once`); at eight digits the context's eight-row MULX kernels (or
/// IFMA) beat them 1.7× (512-bit batch powm 40 against 69 µs, AMD EPYC Zen 4).
pub const ONCE_FIXED_MAX_DIGITS: usize = 7;

/// Whether a caller that keeps contexts should answer `op` modulo `m` by `auto` without
/// one at every use ([`crate::Modulus::pow_mod_once`]): an exponentiation modulo one digit,
/// whose register context (`exp::word`) is one reciprocal, made in less time than
/// a cache finds a kept one (the key's copy and hash, the lookup).
pub fn context_never_pays(op: Operation, m: &Nat) -> bool {
    op == Operation::PowMod && m.len() == 1
}

/// A choice of the auto rule and why it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The algorithm (never `Auto`).
    pub algorithm: Algorithm,
    /// The form detected.
    pub form: Form,
    /// Why, in one sentence.
    pub reason: String,
    /// Whether a profile entry decided (rather than the built-in rule).
    pub from_profile: bool,
}

/// The auto rule: the algorithm for operation `op` modulo `m` (`m > 0`), following the
/// active profile ([`profile::active`]) where it decides, the built-in rule otherwise.
pub fn choose(m: &Nat, op: Operation) -> Algorithm {
    explain(m, op).algorithm
}

/// [`choose`] with the reason for the choice.
pub fn explain(m: &Nat, op: Operation) -> Choice {
    explain_with(m, op, profile::active().as_deref())
}

/// The auto rule with `profile` in place of the active one (`None`: the built-in rule).
pub fn explain_with(m: &Nat, op: Operation, profile: Option<&Profile>) -> Choice {
    explain_form(m, op, Form::of(m), profile)
}

/// [`explain_with`] for `m` of the form `form` ([`Form::of`]), for a caller that asks for
/// several operations (the form's detection is a good part of the rule's work on small
/// moduli).
pub(crate) fn explain_form(
    m: &Nat,
    op: Operation,
    form: Form,
    profile: Option<&Profile>,
) -> Choice {
    rule(m, op, form, profile, Say(true))
}

/// [`explain_form`]'s algorithm alone: the rule without writing its reason.
pub(crate) fn choose_form(
    m: &Nat,
    op: Operation,
    form: Form,
    profile: Option<&Profile>,
) -> Algorithm {
    rule(m, op, form, profile, Say(false)).algorithm
}

/// Whether the rule writes its reason: building a context needs the reason of its
/// operation's choice only, and on small moduli the sentences cost about as much as the
/// rest of the rule.
#[derive(Clone, Copy)]
struct Say(bool);

/// `format!` when the rule says why, else an empty string (no allocation).
macro_rules! why {
    ($say:expr, $($arg:tt)*) => {
        if $say.0 { format!($($arg)*) } else { String::new() }
    };
}

/// The number of digits, as the reasons write it.
struct Digits(usize);

impl core::fmt::Display for Digits {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0 {
            1 => f.write_str("1 digit"),
            k => write!(f, "{k} digits"),
        }
    }
}

fn rule(m: &Nat, op: Operation, form: Form, profile: Option<&Profile>, say: Say) -> Choice {
    if let Some(p) = profile {
        if let Some(e) = p.algorithm_for(op, form, m.bits()) {
            if applies(e.algorithm, m, form) {
                let from = p
                    .source_name()
                    .map_or_else(|| "the profile".to_string(), |s| format!("profile {s}"));
                return Choice {
                    algorithm: e.algorithm,
                    form,
                    reason: why!(
                        say,
                        "{from}: {} measured fastest for {op} on {form} moduli of {} bits \
                         (the entry nearest {} bits)",
                        e.algorithm,
                        e.bits,
                        m.bits()
                    ),
                    from_profile: true,
                };
            }
        }
    }
    builtin(m, op, form, say)
}

/// Whether `a` applies to `m`, a modulus of form `form`.
fn applies(a: Algorithm, m: &Nat, form: Form) -> bool {
    form.admits(a) && a.applies(m)
}

fn builtin_choice(algorithm: Algorithm, form: Form, mut reason: String, say: Say) -> Choice {
    // In place: every automatic modulus asks this (a format would copy it once more).
    if say.0 {
        reason.insert_str(0, "built-in rule: ");
    }
    Choice { algorithm, form, reason, from_profile: false }
}

/// The built-in rule: the special forms of paper 003 where measured faster
/// ([`special_form`]), then the generic rule ([`generic`]).
fn builtin(m: &Nat, op: Operation, form: Form, say: Say) -> Choice {
    if let Some((a, why)) = special_form(m, op, say) {
        return builtin_choice(a, form, why, say);
    }
    let (a, why) = generic(m, op, say);
    let why = match form {
        Form::Nist | Form::PseudoMersenne | Form::Solinas => {
            why!(say, "its special form is not faster here ({why})")
        }
        _ => why,
    };
    builtin_choice(a, form, why, say)
}

/// The generic rule, for any modulus: paper 000 §6 with the measured thresholds.
///
/// - 1 to 8 and 16 digits with the top bit set ([`barrett_fixed_applies`]): the
///   fixed-size Barrett for one-off reductions (from [`BARRETT_FIXED_REDUCE_MIN_DIGITS`])
///   and for even moduli, and for
///   exponentiations modulo odd moduli of up to [`BARRETT_FIXED_ODD_POWM_MAX_DIGITS`].
/// - One-off reduction otherwise: classical below [`BARRETT_REDUCE_MIN_DIGITS`] digits
///   (its precalculation is a shift and it takes any argument), Barrett from there,
///   `ntt-barrett` from [`NTT_REDUCER_THRESHOLD`] digits; for odd moduli of
///   [`MONTGOMERY_REDUCE_ASM_DIGITS`] digits, where the fixed-size Montgomery product runs
///   as assembly, Montgomery's reduction and one multiplication by `R² mod m`.
/// - Multiplications and exponentiations, odd moduli: the fixed-size `montgomery` up to
///   [`FIXED_MONTGOMERY_MAX_DIGITS`] digits, then Montgomery — for multiplications
///   interleaved (CIOS) up to [`INTERLEAVED_MULMOD_MAX_DIGITS`] digits and separated
///   above, for exponentiations separated — and `ntt-montgomery` from
///   [`ntt_reducer_mul_threshold`] digits ([`NTT_REDUCER_THRESHOLD`], or
///   [`NTT_REDUCER_IFMA_THRESHOLD`] on AVX-512 IFMA).
/// - Even moduli (Montgomery does not apply): classical up to
///   [`CLASSICAL_EVEN_MULMOD_MAX_DIGITS`] / [`CLASSICAL_EVEN_POWM_MAX_DIGITS`] digits,
///   Barrett above, `ntt-barrett` from [`ntt_reducer_mul_threshold`] digits.
///
/// Paper 002's `hong` is never chosen: 11–15 times Montgomery's multiplication from 192
/// to 8192 bits (its squaring trades multiplications for about 2.5k² shift-and-subtract
/// steps, and its window tables take k² digits per power). The bit-serial radix-2
/// reducers of paper 004 are hardware algorithms, 40–330 times slower in software. The
/// generic `solinas` reduction is 2.8–3.8 times Montgomery's. None of them is chosen.
fn generic(m: &Nat, op: Operation, say: Say) -> (Algorithm, String) {
    let k = m.len();
    let digits = Digits(k);
    let (nt, nt_name) = ntt_reducer_mul_threshold();
    if k >= nt {
        let a = match op {
            Operation::Reduce => Algorithm::NttBarrett,
            _ if m.is_odd() => Algorithm::NttMontgomery,
            _ => Algorithm::NttBarrett,
        };
        return (a, why!(say, "{digits}, at least {nt_name} ({nt})"));
    }
    let at_most = |t: usize, name: &str, yes: Algorithm, no: Algorithm, what: &str| {
        if k <= t {
            (yes, why!(say, "{what} of {digits}, at most {name} ({t})"))
        } else {
            (no, why!(say, "{what} of {digits}, above {name} ({t})"))
        }
    };
    if barrett_fixed_applies(m)
        && ((op == Operation::Reduce && k >= BARRETT_FIXED_REDUCE_MIN_DIGITS)
            || (op != Operation::Reduce && !m.is_odd())
            || (op == Operation::PowMod && barrett_fixed_powm(m)))
    {
        let what = match op {
            Operation::Reduce => "one-off reduction",
            _ if !m.is_odd() => "even modulus",
            _ => "exponentiation (at most BARRETT_FIXED_ODD_POWM_MAX_DIGITS digits), odd modulus",
        };
        return (
            Algorithm::Barrett,
            why!(say, "{what} of {digits} with its top bit set: the fixed-size Barrett (1–8 and 16 digits)"),
        );
    }
    match op {
        Operation::Reduce if m.is_odd() && k == MONTGOMERY_REDUCE_ASM_DIGITS && montgomery_asm(k) => (
            Algorithm::Montgomery,
            why!(say, "one-off reduction, odd modulus of {digits}, MONTGOMERY_REDUCE_ASM_DIGITS ({MONTGOMERY_REDUCE_ASM_DIGITS}) with the assembly product: Montgomery's reduction and one multiplication by R² mod m"),
        ),
        Operation::Reduce => {
            if k >= BARRETT_REDUCE_MIN_DIGITS {
                (
                    Algorithm::Barrett,
                    why!(say, "one-off reduction, {digits}, at least BARRETT_REDUCE_MIN_DIGITS ({BARRETT_REDUCE_MIN_DIGITS})"),
                )
            } else {
                (
                    Algorithm::Classical,
                    why!(say, "one-off reduction, {digits}, below BARRETT_REDUCE_MIN_DIGITS ({BARRETT_REDUCE_MIN_DIGITS})"),
                )
            }
        }
        Operation::MulMod | Operation::PowMod if m.is_odd() && k <= FIXED_MONTGOMERY_MAX_DIGITS => (
            Algorithm::Montgomery,
            why!(say, "odd modulus of {digits}, at most FIXED_MONTGOMERY_MAX_DIGITS ({FIXED_MONTGOMERY_MAX_DIGITS}): the fixed-size path below MONTGOMERY_MULX_MIN_DIGITS ({MONTGOMERY_MULX_MIN_DIGITS}) or without MULX/ADX"),
        ),
        Operation::MulMod if m.is_odd() => at_most(
            INTERLEAVED_MULMOD_MAX_DIGITS,
            "INTERLEAVED_MULMOD_MAX_DIGITS",
            Algorithm::MontgomeryInterleaved,
            Algorithm::Montgomery,
            "odd modulus",
        ),
        Operation::PowMod if m.is_odd() => (
            Algorithm::Montgomery,
            why!(say, "odd modulus of {digits}, above FIXED_MONTGOMERY_MAX_DIGITS ({FIXED_MONTGOMERY_MAX_DIGITS}): separated Montgomery, whose squarings take half the digit products"),
        ),
        Operation::MulMod => at_most(
            CLASSICAL_EVEN_MULMOD_MAX_DIGITS,
            "CLASSICAL_EVEN_MULMOD_MAX_DIGITS",
            Algorithm::Classical,
            Algorithm::Barrett,
            "even modulus (no Montgomery)",
        ),
        Operation::PowMod => at_most(
            CLASSICAL_EVEN_POWM_MAX_DIGITS,
            "CLASSICAL_EVEN_POWM_MAX_DIGITS",
            Algorithm::Classical,
            Algorithm::Barrett,
            "even modulus (no Montgomery)",
        ),
    }
}

/// Whether the hard-coded reduction of P-192, P-384, 2^448 − 2^224 − 1 or 2^512 − 2^32 − 1
/// beats the fixed-size Montgomery code for `op` (multiplications and exponentiations; the
/// one-off reductions take `nist` for every NIST prime). `modred tune --check --forms nist`
/// on an AMD EPYC Zen 5 (7 Dec 2026), `auto` then `nist` ÷ the fastest: with BMI2/ADX,
/// where Montgomery's 3-, 6-, 7- and 8-digit products run as assembly, mulmod 1.30, 1.16,
/// 1.33, 1.26 and powm 1.01, 1.00 (`nist` the fastest, Montgomery 1.02), 1.37, 1.00
/// (`nist` the fastest, Montgomery 1.12–1.15) — so `nist` for the powm of P-384 and
/// 2^512 − 2^32 − 1 only; with BMI2 hidden (`MODRED_CPU_OFF=bmi2,avx512ifma modred bench
/// --modulus`) Montgomery/nist 1.03–1.17 (mulmod) and 1.18–1.77 (powm) — `nist` for every
/// operation. (22 Nov 2026, before the 5–7-digit register
/// products: Montgomery/nist 1.66–1.79 on the 448-bit powm.)
fn nist_beats_fixed_montgomery(p: NistPrime, op: Operation) -> bool {
    let montgomery_asm = cfg!(x86_kernels) && crate::kernels::cpu::bmi2_adx();
    !montgomery_asm || (op == Operation::PowMod && matches!(p, NistPrime::P384 | NistPrime::P512))
}

/// Whether Montgomery's code (the generic rule's) beats the pseudo-Mersenne fold for the
/// products (`op` = MulMod) or the exponentiations (PowMod) modulo an odd `m = 2^n − c`,
/// one-digit `c`, on this CPU. Measured on an AMD EPYC Zen 5, 7 Dec 2026 (`modred tune
/// --check --forms pseudo-mersenne` at 128–1024 bits and `modred bench --modulus --algo
/// pseudo-mersenne,montgomery` at 576–2048, with and without `MODRED_CPU_OFF=avx512ifma`,
/// with `bmi2` hidden too), the slower one's time ÷ the faster one's:
/// - where Montgomery's products run on AVX-512 IFMA (from 513 bits): Montgomery, by 1.07–2.35
///   (mulmod) and 1.24–1.80 (powm);
/// - 2 digits, on every CPU: Montgomery (one 128-bit quotient digit), 1.35–1.41 and 1.14–1.16;
/// - 3 and 4 digits where Montgomery's product is MULX assembly: Montgomery, 1.35–1.47 and
///   1.00–1.26 — but for the 4-digit exponentiation only on a CPU with AVX-512 IFMA: on an
///   AMD EPYC Zen 3 (AVX2, no AVX-512; 7 Dec 2026, `modred tune --check`, three runs, and
///   `modred bench --modulus`) the fold's exponentiation is 1.11–1.15 faster at 224, 255
///   and 256 bits (7.2 against 8.2 µs at 256), although Montgomery's product and square
///   are faster one at a time (24 and 19.5 ns against 27.3 and 23.5): in a chain of
///   squarings its four serial quotient digits cost more than the fold's independent
///   products. IFMA marks the newer cores measured (Zen 4, Zen 5, Xeons), not code the
///   4-digit product runs;
/// - 8 digits with MULX: Montgomery's register code for mulmod (1.33–1.36), the fold for
///   powm (1.07–1.08); 9 digits with MULX: Montgomery, 1.15 and 1.23;
/// - the rest — 5–7 digits (Montgomery 1.03 and 1.19–1.20 slower at 384 bits), from 10 digits
///   without IFMA (1.19–1.41 and 1.30–1.85, 640–2048 bits: the fold's product and a linear
///   fold against Montgomery's product and reduction), and everything without BMI2/ADX
///   (1.01–1.49, but 2 digits) — the pseudo-Mersenne fold.
///
/// Before (22 Nov 2026, Zen 4 and an Intel Xeon): the fold at every size but 2 and 4
/// digits, and Montgomery for every exponentiation above 512 bits — 1.30–1.85 too slow there
/// without IFMA.
fn montgomery_beats_pseudo_mersenne(m: &Nat, op: Operation) -> bool {
    if montgomery_ifma(m) {
        return true;
    }
    let mulx = cfg!(x86_kernels) && crate::kernels::cpu::bmi2_adx();
    match m.len() {
        2 => true,
        3 => mulx,
        4 => mulx && (op == Operation::MulMod || crate::kernels::cpu::avx512_ifma()),
        8 => mulx && op == Operation::MulMod,
        9 => mulx,
        _ => false,
    }
}

/// Whether the Montgomery contexts of `m` run on AVX-512 IFMA on this CPU.
fn montgomery_ifma(m: &Nat) -> bool {
    #[cfg(x86_kernels)]
    {
        crate::engine::ifma::MontgomeryIfma::applies(m)
    }
    #[cfg(not(x86_kernels))]
    {
        let _ = m;
        false
    }
}

/// The special-form reducer for `m` and `op` where one was measured faster than the
/// generic choice, with the reason, else `None`.
///
/// Measured (`modred tune`, as the constants above):
/// - hard-coded `nist`, one-off reduction: classical/nist 2.6 (P-192), 3.0 (P-224), 2.0
///   (P-256), 1.09 (P-384), 1.0 (2^448 − 2^224 − 1), 2.2 against pseudo-mersenne
///   (P-521) — chosen for all. On 2^512 − 2^32 − 1, whose `c = 2^32 + 1` is one digit,
///   `pseudo-mersenne` was 3.6 times faster than `nist`; since nist's unrolled column
///   sums, nist is the faster (see the P-512 arm below).
/// - `nist`, multiplication (exponentiation): P-521 0.80 (0.76) of pseudo-mersenne and
///   faster than Montgomery — chosen; P-224 1.08 (1.02), P-256 1.26 (1.23) of CIOS — not
///   chosen; P-192, P-384, 2^448 − 2^224 − 1 and 2^512 − 2^32 − 1 by the CPU and the
///   operation ([`nist_beats_fixed_montgomery`]).
/// - `pseudo-mersenne` (one-digit `c`): see [`PSEUDO_MERSENNE_MIN_BITS`] and
///   [`montgomery_beats_pseudo_mersenne`].
fn special_form(m: &Nat, op: Operation, say: Say) -> Option<(Algorithm, String)> {
    use crate::reduce::pseudo_mersenne_form;
    match (NistPrime::of(m), op) {
        (Some(p @ NistPrime::P521), _) => {
            return Some((
                Algorithm::Nist,
                why!(say, "{}: the hard-coded reduction measured fastest", p.name()),
            ))
        }
        (Some(p), Operation::Reduce) => {
            return Some((
                Algorithm::Nist,
                why!(
                    say,
                    "{}: the hard-coded reduction measured fastest for one-off reductions",
                    p.name()
                ),
            ))
        }
        (Some(p @ (NistPrime::P192 | NistPrime::P384 | NistPrime::P448 | NistPrime::P512)), op) => {
            // Else the generic rule's fixed-size Montgomery (for 2^512 − 2^32 − 1 not the
            // pseudo-Mersenne fold below either: mulmod 72 ns against Montgomery's 54).
            return nist_beats_fixed_montgomery(p, op).then(|| {
                (
                    Algorithm::Nist,
                    why!(say, "{}: the hard-coded reduction measured fastest", p.name()),
                )
            });
        }
        _ => {}
    }
    let (n, c) = pseudo_mersenne_form(m)?;
    if c.len() != 1 {
        return None;
    }
    match op {
        Operation::Reduce => Some((
            Algorithm::PseudoMersenne,
            why!(say, "2^{n} - c with one-digit c: the pseudo-Mersenne fold measured fastest for one-off reductions"),
        )),
        Operation::PowMod if barrett_fixed_powm(m) => None,
        Operation::MulMod | Operation::PowMod
            if m.is_odd() && montgomery_beats_pseudo_mersenne(m, op) =>
        {
            None
        }
        Operation::MulMod | Operation::PowMod if n >= PSEUDO_MERSENNE_MIN_BITS => Some((
            Algorithm::PseudoMersenne,
            why!(say, "2^{n} - c with one-digit c, at least PSEUDO_MERSENNE_MIN_BITS ({PSEUDO_MERSENNE_MIN_BITS})"),
        )),
        _ => None,
    }
}

/// The exponentiation method for an exponent of `exponent_bits` bits, and why: the active
/// profile's method entry where one covers that length, else the built-in
/// [`exp::default_method`] (the sliding window whose width minimizes the operation count).
pub fn choose_method(exponent_bits: u64) -> (Method, String) {
    choose_method_with(exponent_bits, profile::active().as_deref())
}

/// [`choose_method`]'s method without the reason (whose words an exponentiation does not
/// need).
pub(crate) fn method(exponent_bits: u64) -> Method {
    method_with(exponent_bits, profile::active().as_deref()).0
}

/// The method rule: `profile`'s entry where one covers `exponent_bits`, else the built-in
/// [`exp::default_method`]; with the entry's length when a profile decided.
fn method_with(exponent_bits: u64, profile: Option<&Profile>) -> (Method, Option<u64>) {
    match profile.and_then(|p| p.method_for(exponent_bits)) {
        Some(e) => (e.method, Some(e.bits)),
        None => (exp::default_method(exponent_bits), None),
    }
}

/// [`choose_method`] with `profile` in place of the active one.
pub fn choose_method_with(exponent_bits: u64, profile: Option<&Profile>) -> (Method, String) {
    let (m, entry) = method_with(exponent_bits, profile);
    let why = match entry {
        Some(bits) => format!(
            "profile: {} measured fastest for {bits}-bit exponents",
            profile::method_name(m)
        ),
        None => format!(
            "built-in rule: {} (the sliding window of the width that minimizes the operation \
             count, WINDOW_THRESHOLDS)",
            profile::method_name(m)
        ),
    };
    (m, why)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Nat;
    use alloc::vec;

    #[test]
    fn auto_rule_follows_paper_000_with_measured_thresholds() {
        use crate::reduce::fixed::{barrett_fixed_applies, barrett_fixed_width};
        // Multiplications switch to the transform reducers at a threshold that depends on
        // the CPU (lower where the transforms run on AVX-512 IFMA).
        let nm = ntt_reducer_mul_threshold().0;
        // Generic moduli of `k` digits: top digit with a 0 bit far from any special form, its
        // top bit set (the fixed-size Barrett applies up to MAX_BARRETT_LIMBS digits) or not.
        let generic = |k: usize, odd: bool, top: u64| {
            let mut v = vec![0x1234_5678_9abc_def0u64; k];
            v[k - 1] = top;
            v[0] = (v[0] & !1) | odd as u64;
            Nat::from_vec(v)
        };
        use Algorithm::*;
        for k in [
            1,
            2,
            CLASSICAL_EVEN_POWM_MAX_DIGITS,
            CLASSICAL_EVEN_POWM_MAX_DIGITS + 1,
            FIXED_MONTGOMERY_MAX_DIGITS,
            FIXED_MONTGOMERY_MAX_DIGITS + 1,
            BARRETT_REDUCE_MIN_DIGITS - 1,
            BARRETT_REDUCE_MIN_DIGITS,
            CLASSICAL_EVEN_MULMOD_MAX_DIGITS,
            CLASSICAL_EVEN_MULMOD_MAX_DIGITS + 1,
            MONTGOMERY_REDUCE_ASM_DIGITS,
            INTERLEAVED_MULMOD_MAX_DIGITS,
            INTERLEAVED_MULMOD_MAX_DIGITS + 1,
            NTT_REDUCER_THRESHOLD - 1,
            NTT_REDUCER_THRESHOLD,
            nm - 1,
            nm,
        ] {
            for top in [0x8765_4321_0fed_cba9u64, 0x0765_4321_0fed_cba9] {
                let (odd, even) = (generic(k, true, top), generic(k, false, top));
                let fixed = barrett_fixed_applies(&odd);
                assert_eq!(fixed, barrett_fixed_width(k) && top >> 63 == 1);
                // One-off reductions switch at the same, CPU-dependent threshold.
                let reduce = if k >= nm {
                    NttBarrett
                } else if (fixed && k >= BARRETT_FIXED_REDUCE_MIN_DIGITS)
                    || k >= BARRETT_REDUCE_MIN_DIGITS
                {
                    Barrett
                } else {
                    Classical
                };
                // Odd moduli of MONTGOMERY_REDUCE_ASM_DIGITS digits without the fixed-size Barrett: Montgomery where its
                // fixed-size product is assembly.
                let odd_reduce = if !fixed && k == MONTGOMERY_REDUCE_ASM_DIGITS && montgomery_asm(k)
                {
                    Montgomery
                } else {
                    reduce
                };
                assert_eq!(choose(&odd, Operation::Reduce), odd_reduce, "{k}");
                assert_eq!(choose(&even, Operation::Reduce), reduce, "{k}");
                let (mul, pow) = if k >= nm {
                    (NttMontgomery, NttMontgomery)
                } else {
                    (
                        if k <= FIXED_MONTGOMERY_MAX_DIGITS {
                            Montgomery
                        } else if k <= INTERLEAVED_MULMOD_MAX_DIGITS {
                            MontgomeryInterleaved
                        } else {
                            Montgomery
                        },
                        // Fixed-size up to FIXED_MONTGOMERY_MAX_DIGITS digits, separated above: Montgomery either way;
                        // the fixed-size Barrett up to BARRETT_FIXED_ODD_POWM_MAX_DIGITS digits.
                        if fixed && k <= BARRETT_FIXED_ODD_POWM_MAX_DIGITS {
                            Barrett
                        } else {
                            Montgomery
                        },
                    )
                };
                assert_eq!(choose(&odd, Operation::MulMod), mul, "{k}");
                assert_eq!(choose(&odd, Operation::PowMod), pow, "{k}");
                let (mul, pow) = if k >= nm {
                    (NttBarrett, NttBarrett)
                } else {
                    let slice = |max: usize| if fixed || k > max { Barrett } else { Classical };
                    (slice(CLASSICAL_EVEN_MULMOD_MAX_DIGITS), slice(CLASSICAL_EVEN_POWM_MAX_DIGITS))
                };
                assert_eq!(choose(&even, Operation::MulMod), mul, "{k}");
                assert_eq!(choose(&even, Operation::PowMod), pow, "{k}");
            }
        }
        assert_eq!(choose(&Nat::one(), Operation::PowMod), Montgomery);
    }
}
