//! The auto rule, in one place: which reducer [`crate::Modulus::new`] and the command
//! line's `auto` use for a modulus and an operation, and which exponentiation method.
//!
//! The rule is a tuning profile when one is active ([`super::profile`], written by
//! `modred tune` on the machine at hand) and covers the modulus's form and size, and the
//! built-in rule below otherwise. The built-in thresholds are named constants, each with
//! the measurement it comes from beside it (x86-64, 64-bit digits, `modred tune`, ratios
//! of interleaved timings in one process).
//!
//! [`explain`] returns the choice with the reason for it (`modred algos M` prints it);
//! [`choose`] only the algorithm.

use super::profile::{self, Form, Profile};
use super::Operation;
use crate::algorithm::Algorithm;
use crate::exp::{self, Method};
use crate::nat::Nat;
use crate::reduce::fixed::barrett_fixed_applies;
use crate::reduce::NistPrime;

// The measurements behind the constants below: `modred tune` (normal run) on the shared
// 2-core x86-64 machine of development (Xeon, BMI2/ADX kernels, 64-bit digits), 22 Nov
// 2026; a time ratio `a/b` is `a`'s time over `b`'s, interleaved in one process (the
// machine was loaded: ratios within ±5% of 1 are ties). "CIOS" is
// `montgomery-interleaved`, "separated" is `montgomery`.

/// Digits (u64) of the modulus from which the transform reducers of paper 001
/// (`ntt-montgomery` for odd moduli, `ntt-barrett` for even ones) are used for
/// multiplications, exponentiations and one-off reductions.
///
/// Measured: at 1024 digits (65 536 bits) ntt-montgomery/separated 1.09 and
/// ntt-barrett/barrett 1.01 (even) for a multiplication; at 2048 digits separated/
/// ntt-montgomery 1.33, barrett/ntt-barrett 1.34 (even), and for a one-off reduction
/// classical/ntt-barrett 1.31 (ntt-barrett/barrett 1.22 at 1024 digits). The crossover
/// lies between 1024 and 2048 digits; 1536 splits it. (An earlier calibration, before
/// the x86-64 kernels, put it between 768 and 1024 digits.)
///
/// Re-measured after the transform's inverse butterflies lost their mispredicted
/// branches and gained Shoup's multiplication (`modred tune --check --quick`): at 512
/// digits barrett/ntt-barrett 1.22 (reduce) and separated/ntt-montgomery 1.11 (mulmod),
/// at 1024 digits 2.2 and 1.6. The crossover now lies at or below 512 digits.
pub const NTT_REDUCER_THRESHOLD: usize = 512;

/// [`NTT_REDUCER_THRESHOLD`] for multiplications and exponentiations where the transforms
/// run on AVX-512 IFMA ([`crate::ntt::uses_ifma`]), and for one-off reductions there. Measured with `cargo run --release --example
/// calibrate_ntt_reduce` (`Reducer::mul`, interleaved, IFMA engine, 22 Nov 2026):
/// montgomery/ntt-montgomery 0.88 at 64 digits, 1.40 at 128, 2.11 at 256, 3.41 at 512;
/// barrett/ntt-barrett 1.03, 1.43, 2.40, 3.91 — the crossover lies between 64 and 128
/// digits. One-off reductions of a prepared modulus too (three full `modred tune
/// --check` runs, 22 Nov 2026): barrett/ntt-barrett 1.16–1.27 at 128 digits and 2.2–2.6
/// at 256.
pub const NTT_REDUCER_IFMA_THRESHOLD: usize = 128;

/// The digits from which reductions, multiplications and exponentiations use the
/// transform reducers on this CPU: [`NTT_REDUCER_IFMA_THRESHOLD`] where the transforms run on AVX-512 IFMA,
/// [`NTT_REDUCER_THRESHOLD`] elsewhere.
pub fn ntt_reducer_mul_threshold() -> (usize, &'static str) {
    if crate::ntt::uses_ifma::<u64>() {
        (NTT_REDUCER_IFMA_THRESHOLD, "NTT_REDUCER_IFMA_THRESHOLD")
    } else {
        (NTT_REDUCER_THRESHOLD, "NTT_REDUCER_THRESHOLD")
    }
}

/// Digits (u64) of an odd modulus up to which a modular multiplication uses the
/// interleaved Montgomery multiplication (CIOS); above it, the separated one, whose
/// product goes through Karatsuba.
///
/// Measured, separated/CIOS: 1.33 at 1 digit, 1.16 at 2, 1.13 at 4, 1.17 at 8, 1.0 (tie)
/// at 16, 1.19 at 32, 1.07 at 64, 1.09 at 128 digits; CIOS/separated 1.12 at 256 and
/// 1.26 at 512 digits.
pub const INTERLEAVED_MULMOD_MAX_DIGITS: usize = 128;

/// Digits (u64) of an odd modulus up to which multiplications and exponentiations use
/// `montgomery`, whose reducer for these widths is the fixed-size, unrolled one
/// (`reduce::fixed`), ahead of CIOS.
///
/// Measured (`modred tune --check --quick`, after the fixed-size paths): CIOS/fixed
/// 2.2 (mulmod) and 2.2 (powm) at 1 digit, 1.63 and 1.69 at 4 digits, 1.67 and 1.72 at
/// 4 digits on 2^256 − 2^64 − 1.
///
/// Above it an exponentiation uses the separated Montgomery multiplication (`montgomery`),
/// whose squarings take about half the digit products (CIOS squares as it multiplies).
/// Measured before the fixed-size paths, CIOS/separated: 1.00 at 16, 1.07 at 32, 1.19 at
/// 64 digits (separated/CIOS 1.30–1.36 at 1–4 digits, which the fixed-size path now
/// covers: the rule's former `INTERLEAVED_POWM_MAX_DIGITS`, also 8, never decided).
/// Re-measured in four runs of `modred tune --check --quick` (22 Nov 2026, loaded
/// machine), separated/CIOS: 1.00–1.06 at 16, 1.02–1.15 at 32, 0.93–1.05 at 64 digits —
/// a tie within the machine's noise.
pub const FIXED_MONTGOMERY_MAX_DIGITS: usize = 8;

/// Digits (u64) of an even modulus up to which a modular multiplication uses the
/// classical reduction rather than Barrett's (Montgomery does not apply).
///
/// Measured, barrett/classical: 1.5–1.6 at 1 digit, 1.2–1.6 at 2, 1.05–1.17 at 4,
/// 0.95–1.31 at 8 digits; at 16 digits 1.15, 1.16 and 1.10 in three runs, 0.85 in a
/// fourth; classical/barrett 1.0–1.8 at 32 digits, about 1.0 from 64 to 1024 digits.
///
/// Re-measured with the reciprocal classical reduction (`reduce::Classical`; full `modred
/// tune --check`, 22 Nov 2026), barrett/classical: 2.65 at 1 digit, 1.45 at 4, 1.27 at
/// 8, 1.15 at 16, 1.19 at 32 digits; at 64 digits 1.06 (in the quick runs 0.91–0.94
/// twice, 1.06 once), 1.04 at 128, 1.01 at 256.
///
/// Re-measured on the merged tree (three full `modred tune --check` runs, 22 Nov 2026,
/// load ≈ 9): classical/barrett 1.17–1.18 at 32 digits in every run, within 10% at 16.
///
/// Re-measured with the multi-pass `modred tune --check` (22 Nov 2026), in the machine's
/// two states: while its cores ran fast (reduce at 512 bits in 130 ns), barrett/classical
/// 1.08–1.10 at 16 digits, 1.16–1.19 at 32; while they ran slow (the same in 236 ns: a
/// busy neighbour on the physical core, which slows Barrett's multiplication rows more
/// than the classical division chain), classical/barrett 1.14 at 16 digits, 1.15 at 32.
/// The larger loss of the two states is smaller with classical at 16 digits (1.10
/// against 1.14) and with Barrett at 32 (1.15 against 1.19): 16 digits.
///
/// Re-measured after Barrett's rows lost their zeroed buffers and `μ`'s top digit its
/// products (`reduce::Barrett`; six `modred tune --check --forms odd,even` runs, 22 Nov
/// 2026), barrett/classical 1.03–1.04 at 8 digits, 1.11–1.12 at 16, 1.15–1.17 at 32,
/// 1.06–1.12 at 64. At 1 to 8 and at 16 digits a modulus with its top bit set now
/// takes the fixed-size Barrett ([`barrett_fixed_applies`], 0.26–0.40 of classical's
/// time from 1 to 3 digits, 0.74–0.86 at 4, 0.83–1.01 at 8, 0.78–0.81 at 16); this threshold is for the slice
/// reducers: Barrett above 8 digits.
pub const CLASSICAL_EVEN_MULMOD_MAX_DIGITS: usize = 8;

/// Digits (u64) of an even modulus up to which an exponentiation uses the classical
/// reduction rather than Barrett's.
///
/// Measured, barrett/classical: 1.55 at 1 digit, 1.47 at 2, 1.12 at 4; classical/barrett
/// 1.36 at 8, 1.30 at 16, 1.20 at 32, 1.15 at 64 digits.
///
/// Re-measured after the classical reduction took its quotient digits from a
/// precomputed reciprocal (`reduce::Classical`; 22 Nov 2026, loaded machine, three runs
/// of `modred tune --check --quick --forms odd,even` and two of `modred bench --algo
/// classical,barrett --op powm`), barrett/classical: 2.7–2.8 at 1 digit, 1.27–1.55 at 4,
/// 1.35–1.42 at 8 and 12, at 16 digits 1.14, 1.30 and 1.25 (twice), 0.88 once; from 24 to
/// 64 digits 0.90–0.92 in one bench run and 1.09–1.16 in the other, tied in the tune.
/// Classical now wins up to 16 digits; above, the two are within the noise. The full
/// `modred tune --check` (same day) measured barrett/classical 1.21 at 16, 1.10 at 32
/// digits, classical/barrett 1.11 at 64 and 1.10 at 128 digits: 32 digits.
///
/// Re-measured on the merged tree (five full `modred tune --check` runs, 22 Nov 2026):
/// classical/barrett 1.11 at 16 digits twice, barrett/classical 1.24 there once;
/// classical/barrett 1.19 at 32 digits three times: 16 digits (the smaller worst loss).
///
/// Re-measured with the multi-pass `modred tune --check` (22 Nov 2026) in the machine's
/// fast and slow states (see [`CLASSICAL_EVEN_MULMOD_MAX_DIGITS`]): barrett/classical
/// 1.09–1.10 at 16 digits when fast, classical/barrett 1.10 there when slow; at 32
/// digits Barrett 1.13–1.18 faster when fast, classical 1.06 when slow: 16 digits.
///
/// Re-measured after Barrett's rows lost their zeroed buffers and `μ`'s top digit its
/// products (six `modred tune --check --forms odd,even` runs, 22 Nov 2026),
/// barrett/classical 1.10–1.12 at 8 digits, 1.16–1.18 at 16, 1.18–1.22 at 32, 1.09–1.14
/// at 64. At 1 to 8 and at 16 digits a modulus with its top bit set now takes the fixed-size
/// Barrett ([`barrett_fixed_applies`]; 0.27–0.42 of classical's time from 1 to 3 digits,
/// 0.48–0.61 at 4, 0.57–0.81 at 8, 0.86–0.87 at 16); this threshold is for the slice reducers: Barrett
/// above 8 digits.
pub const CLASSICAL_EVEN_POWM_MAX_DIGITS: usize = 8;

/// Digits (u64) of the modulus from which a one-off reduction (of an argument below
/// `b^(2k)`; longer ones go to classical) uses Barrett's rather than the classical
/// algorithm.
///
/// Measured on products of two residues, classical/barrett in three runs: 0.54–0.98 at
/// 1–4 digits (classical faster, every run); at 8 digits 1.14–1.22, 0.78–1.09 and
/// 0.67–1.22; at 16 digits 1.29–1.31, 0.81–0.82 and 0.76–0.80; at 32 digits 1.01–1.31,
/// 0.96–1.26 and 0.88; 0.99–1.32 from 64 digits on. Between 8 and 32 digits the ratio
/// follows the load of the machine (a busy neighbour on the core slows Barrett's
/// multiplications more than the classical division chain); 32 digits keeps the larger
/// of the two possible losses smallest.
///
/// Re-measured after the classical reduction took its quotient digits from a
/// precomputed reciprocal, with no division on its critical path (`reduce::Classical`;
/// 22 Nov 2026, loaded machine: three runs of `modred tune --check --quick --forms
/// odd,even`, two of `modred bench --algo classical,barrett --op reduce`),
/// barrett/classical: 5.0–5.5 at 1 digit, 1.4–1.75 at 4, 1.42–1.54 at 8, 1.20–1.39 at 16
/// (0.81–0.83 in one run), 1.13–1.19 at 32 (0.75 in one run), 1.22–1.23 at 24, 1.09–1.14
/// at 48; at 64 digits classical/barrett 1.14–1.20 in the tune runs (1.00–1.03 once) but
/// barrett/classical 1.11–1.14 in the bench runs. Classical now wins to 32 digits and
/// more; 64 digits, where the two meet, is where Barrett takes over.
///
/// Re-measured on the merged tree (the allocation-free `Modulus` paths and the IFMA
/// transforms; five full `modred tune --check` runs, 22 Nov 2026, load ≈ 9): in three,
/// classical/barrett 1.10–1.12 at 8 digits, 1.16–1.18 at 16, 1.27–1.29 at 32; in one,
/// barrett/classical 1.43–1.48 at 8, 1.30 at 16, 1.19 at 32; in one a tie. The order
/// follows the machine's load; the threshold keeps the larger loss smallest at each
/// size: classical to 16 digits (at most 1.12 and 1.18 slower), Barrett from 32 (at most
/// 1.19).
///
/// Re-measured with the multi-pass `modred tune --check` (22 Nov 2026) in the machine's
/// two states (see [`CLASSICAL_EVEN_MULMOD_MAX_DIGITS`]), barrett/classical when fast:
/// 1.03–1.11 at 8 digits, 1.15–1.19 at 16, 1.29 at 32, 1.16 at 64; classical/barrett
/// when slow: 1.24–1.25 at 8, 1.12–1.17 at 16, 1.08–1.18 at 32, 1.08–1.14 at 64. The
/// larger loss of the two states is smallest with classical to 8 digits (1.11) and
/// Barrett from 16 (1.17, 1.18, 1.14): 16 digits. Neither choice keeps both states
/// within 10% from 16 to 64 digits.
///
/// Re-measured after Barrett's rows lost their zeroed buffers and `μ`'s top digit its
/// products (`reduce::Barrett`: 11–14% fewer instructions at 8–16 digits under callgrind;
/// six `modred tune --check --forms odd,even` runs, 22 Nov 2026), barrett/classical
/// 1.12–1.35 at 8 digits, 1.20–1.25 at 16, 1.30–1.32 at 32, 1.18–1.26 at 64 (in the
/// fast state; before the change the slow state had classical 1.12–1.25 faster). At 1 to 8
/// and at 16 digits a modulus with its top bit set now takes the fixed-size Barrett
/// ([`barrett_fixed_applies`]: 0.50–0.55 of classical's time at 2 and 3 digits, 0.44–0.55
/// at 4, 0.63–0.76 at 8, 0.74–0.76 at 16; 0.88–0.93 at 1 digit); this threshold is for the slice reducers:
/// Barrett above 8 digits.
pub const BARRETT_REDUCE_MIN_DIGITS: usize = 9;

/// Bits from which `pseudo-mersenne` (one-digit `c`) replaces the generic choice for
/// multiplications and exponentiations. For one-off reductions it wins at every size
/// (classical/pseudo-mersenne 1.3–6.9 from 128 to 1024 bits).
///
/// Measured, multiplication (exponentiation), pseudo-mersenne/CIOS: 192 bits 1.08 (–),
/// 255 bits 1.19 (1.32), 256 bits 1.01 (1.10); CIOS/pseudo-mersenne at 384 bits 1.26
/// (1.23), 512 bits 1.30 (1.16), separated/pseudo-mersenne at 1024 bits 1.42 (1.36).
///
/// Re-measured with the fixed-size pseudo-Mersenne reducer (`modred tune --check
/// --quick`): pseudo-mersenne is the fastest at 192, 255 and 384 bits for both
/// operations (fixed Montgomery/pseudo-mersenne 1.05–1.42), so it is used at every size.
pub const PSEUDO_MERSENNE_MIN_BITS: u64 = 1;

/// Digits of a pseudo-Mersenne modulus (one-digit `c`) at which multiplications and
/// exponentiations keep the generic rule's fixed-size Montgomery where its product runs
/// as MULX/ADCX/ADOX assembly ([`montgomery_asm`]): 4 digits (193–256 bits, e.g.
/// 2^255 − 19).
///
/// Measured after the 4-digit assembly took its subtractive form and got a dedicated
/// square (`modred tune --check --forms pseudo-mersenne,nist`, 22 Nov 2026, load ≈ 2):
/// pseudo-mersenne/Montgomery 1.14–1.17 (mulmod) and 1.21–1.22 (powm) at 224, 255 and
/// 256 bits; pseudo-mersenne still the fastest at 128, 192 (Montgomery 1.10–1.11 slower),
/// 384 (1.39–1.42) and 512 bits. Without the assembly (other CPUs, the `portable`
/// feature) pseudo-mersenne is kept at every size.
pub const PSEUDO_MERSENNE_MONTGOMERY_ASM_DIGITS: usize = 4;

/// Digits of a modulus (top bit set) from which a one-off reduction uses the fixed-size
/// Barrett ([`barrett_fixed_applies`]); below, classical, whose one-digit case is a chain
/// of two-by-one divisions by `m` itself.
///
/// Measured at 1 digit (22 Nov 2026): classical/barrett 1.00 and barrett/classical 1.03
/// (one full `modred tune --check`), classical/barrett 1.14 in another, barrett/classical
/// 0.88–0.93 in `modred bench` — a tie, left to classical; at 2 digits barrett/classical
/// 0.50–0.55.
pub const BARRETT_FIXED_REDUCE_MIN_DIGITS: usize = 2;

/// Digits of an odd modulus (top bit set) up to which an exponentiation uses the
/// fixed-size Barrett ([`barrett_fixed_applies`]) rather than the fixed-size Montgomery,
/// and rather than `pseudo-mersenne` for a modulus of that form.
///
/// Measured (`modred tune --check`, 22 Nov 2026, after the fixed-size Barrett), for an
/// exponentiation montgomery/barrett: 1.06–1.35 at 1 digit (four runs), 1.20 at 2 digits;
/// pseudo-mersenne/barrett 1.14 at 2^128 − 189 and 1.08 at 2^192 − 189; from 4 digits the
/// Montgomery assembly wins (barrett/montgomery 1.9). Multiplications keep Montgomery
/// (barrett/montgomery 1.06–1.21 at 1 and 2 digits).
pub const BARRETT_FIXED_ODD_POWM_MAX_DIGITS: usize = 2;

/// Whether an exponentiation modulo `m` takes the fixed-size Barrett although `m` is odd
/// ([`BARRETT_FIXED_ODD_POWM_MAX_DIGITS`]).
fn barrett_fixed_powm(m: &Nat) -> bool {
    m.len() <= BARRETT_FIXED_ODD_POWM_MAX_DIGITS && barrett_fixed_applies(m)
}

/// Digits of an odd modulus at which a one-off reduction uses the fixed-size Montgomery
/// reduction followed by one multiplication by `R² mod m` (the conversion back), where
/// that product runs as MULX/ADCX/ADOX assembly ([`montgomery_asm`]) and the fixed-size
/// Barrett does not apply (a top digit below `2^63`): 4 digits (193–255 bits).
///
/// Measured (`modred tune --check --forms odd,even`, 22 Nov 2026, eight runs at the
/// random odd 256-bit modulus, before the fixed-size Barrett): Montgomery the fastest in
/// every run, the slice Barrett 1.01–1.12 and classical 1.07–1.11 slower; in the
/// machine's slow state classical 1.12 slower; on 2^256 − 2^64 − 1 classical 1.155
/// slower. With its top bit set the fixed-size Barrett is faster still (36–46 ns against
/// Montgomery's 60–68).
pub const MONTGOMERY_REDUCE_ASM_DIGITS: usize = 4;

/// Whether the fixed-size Montgomery product of `digits` 64-bit digits runs as
/// MULX/ADCX/ADOX assembly on this CPU (4 digits with BMI2 and ADX, not with the
/// `portable` feature).
pub fn montgomery_asm(digits: usize) -> bool {
    #[cfg(all(target_arch = "x86_64", not(feature = "portable"), not(miri)))]
    if digits == 4 {
        return crate::kernels::arch::x86_64::has_bmi2_adx();
    }
    let _ = digits;
    false
}

/// Bits of a pseudo-Mersenne modulus (one-digit `c`) up to which an exponentiation uses
/// `pseudo-mersenne`; above, the generic rule's Montgomery, whose exponentiation runs in
/// radix 2^52 on AVX-512 IFMA from 512 bits (`Modulus::pow_vartime`) where the CPU has it.
///
/// Measured (full `modred tune --check` and two `--forms pseudo-mersenne,nist,solinas`
/// runs, 22 Nov 2026, a CPU with IFMA), Montgomery/pseudo-mersenne for an exponentiation:
/// 1.01–1.07 at 128 bits, 1.05–1.19 from 192 to 256, 1.22–1.47 at 384, 1.14–1.25 at 512;
/// pseudo-mersenne/Montgomery 1.49–1.56 at 1024 bits (its multiplication is still 1.6–1.7
/// times faster there: the difference is IFMA's exponentiation).
pub const PSEUDO_MERSENNE_POWM_MAX_BITS: u64 = 512;

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
    let form = Form::of(m);
    if let Some(p) = profile {
        if let Some(e) = p.algorithm_for(op, form, m.bits()) {
            if applies(e.algorithm, m, form) {
                let from = p.source.as_ref().map_or_else(
                    || "the profile".to_string(),
                    |s| format!("profile {}", s.display()),
                );
                return Choice {
                    algorithm: e.algorithm,
                    form,
                    reason: format!(
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
    builtin(m, op, form)
}

/// Whether `a` applies to `m`, a modulus of form `form`.
fn applies(a: Algorithm, m: &Nat, form: Form) -> bool {
    let needs_odd = matches!(
        a,
        Algorithm::Montgomery
            | Algorithm::MontgomeryInterleaved
            | Algorithm::NttMontgomery
            | Algorithm::Radix2Montgomery
            | Algorithm::Radix2MontgomeryRecoded
    );
    let structure = match a {
        Algorithm::PseudoMersenne => crate::reduce::pseudo_mersenne_form(m).is_some(),
        Algorithm::Solinas => crate::reduce::SolinasPoly::find(m).is_some(),
        Algorithm::Nist => NistPrime::of(m).is_some(),
        _ => true,
    };
    form.admits(a) && (!needs_odd || m.is_odd()) && structure
}

fn builtin_choice(algorithm: Algorithm, form: Form, reason: String) -> Choice {
    Choice { algorithm, form, reason: format!("built-in rule: {reason}"), from_profile: false }
}

/// The built-in rule: the special forms of paper 003 where measured faster
/// ([`special_form`]), then the generic rule ([`generic`]).
fn builtin(m: &Nat, op: Operation, form: Form) -> Choice {
    if let Some((a, why)) = special_form(m, op) {
        return builtin_choice(a, form, why);
    }
    let (a, why) = generic(m, op);
    let why = match form {
        Form::Nist | Form::PseudoMersenne | Form::Solinas => {
            format!("its special form is not faster here ({why})")
        }
        _ => why,
    };
    builtin_choice(a, form, why)
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
fn generic(m: &Nat, op: Operation) -> (Algorithm, String) {
    let k = m.len();
    let digits = if k == 1 { "1 digit".to_string() } else { format!("{k} digits") };
    let (nt, nt_name) = ntt_reducer_mul_threshold();
    if k >= nt {
        let a = match op {
            Operation::Reduce => Algorithm::NttBarrett,
            _ if m.is_odd() => Algorithm::NttMontgomery,
            _ => Algorithm::NttBarrett,
        };
        return (a, format!("{digits}, at least {nt_name} ({nt})"));
    }
    let at_most = |t: usize, name: &str, yes: Algorithm, no: Algorithm, what: &str| {
        if k <= t {
            (yes, format!("{what} of {digits}, at most {name} ({t})"))
        } else {
            (no, format!("{what} of {digits}, above {name} ({t})"))
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
            format!("{what} of {digits} with its top bit set: the fixed-size Barrett (1–8 and 16 digits)"),
        );
    }
    match op {
        Operation::Reduce if m.is_odd() && k == MONTGOMERY_REDUCE_ASM_DIGITS && montgomery_asm(k) => (
            Algorithm::Montgomery,
            format!("one-off reduction, odd modulus of {digits}, MONTGOMERY_REDUCE_ASM_DIGITS ({MONTGOMERY_REDUCE_ASM_DIGITS}) with the assembly product: Montgomery's reduction and one multiplication by R² mod m"),
        ),
        Operation::Reduce => {
            if k >= BARRETT_REDUCE_MIN_DIGITS {
                (
                    Algorithm::Barrett,
                    format!("one-off reduction, {digits}, at least BARRETT_REDUCE_MIN_DIGITS ({BARRETT_REDUCE_MIN_DIGITS})"),
                )
            } else {
                (
                    Algorithm::Classical,
                    format!("one-off reduction, {digits}, below BARRETT_REDUCE_MIN_DIGITS ({BARRETT_REDUCE_MIN_DIGITS})"),
                )
            }
        }
        Operation::MulMod | Operation::PowMod if m.is_odd() && k <= FIXED_MONTGOMERY_MAX_DIGITS => (
            Algorithm::Montgomery,
            format!("odd modulus of {digits}, at most FIXED_MONTGOMERY_MAX_DIGITS ({FIXED_MONTGOMERY_MAX_DIGITS}): the fixed-size path"),
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
            format!("odd modulus of {digits}, above FIXED_MONTGOMERY_MAX_DIGITS ({FIXED_MONTGOMERY_MAX_DIGITS}): separated Montgomery, whose squarings take half the digit products"),
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
///   faster than Montgomery — chosen; P-192 1.0 (1.20), P-224 1.08 (1.02), P-256 1.26
///   (1.23) of CIOS, P-384 and 2^448 − 2^224 − 1 slower than CIOS too — not chosen: the
///   generic rule's CIOS is as fast or faster at these sizes.
/// - `pseudo-mersenne` (one-digit `c`): see [`PSEUDO_MERSENNE_MIN_BITS`],
///   [`PSEUDO_MERSENNE_POWM_MAX_BITS`] and [`PSEUDO_MERSENNE_MONTGOMERY_ASM_DIGITS`].
pub fn special_form(m: &Nat, op: Operation) -> Option<(Algorithm, String)> {
    use crate::reduce::pseudo_mersenne_form;
    match (NistPrime::of(m), op) {
        (Some(p @ NistPrime::P521), _) => {
            return Some((
                Algorithm::Nist,
                format!("{}: the hard-coded reduction measured fastest", p.name()),
            ))
        }
        (Some(p @ (NistPrime::P192 | NistPrime::P384 | NistPrime::P448 | NistPrime::P512)), _) => {
            // Re-measured with the unrolled column sums (`modred tune --check --quick`):
            // fixed Montgomery/nist 1.28 (mulmod) and 1.30 (powm) on P-192, 1.11 and
            // 1.05 on P-384; on P-256 nist/fixed Montgomery is 1.12, so P-256 stays generic.
            // Full `modred tune --check`, three runs (22 Nov 2026): on 2^448 − 2^224 − 1
            // Montgomery/nist 1.66–1.79 (powm), nist/Montgomery 1.04–1.10 (mulmod: a
            // tie); on 2^512 − 2^32 − 1 pseudo-mersenne/nist 1.25–1.33 (reduce), 1.05–1.08
            // (mulmod), 1.00–1.10 (powm): nist for every operation on both.
            return Some((
                Algorithm::Nist,
                format!("{}: the hard-coded reduction measured fastest", p.name()),
            ));
        }
        (Some(p), Operation::Reduce) => {
            return Some((
                Algorithm::Nist,
                format!(
                    "{}: the hard-coded reduction measured fastest for one-off reductions",
                    p.name()
                ),
            ))
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
            format!("2^{n} - c with one-digit c: the pseudo-Mersenne fold measured fastest for one-off reductions"),
        )),
        Operation::PowMod if n > PSEUDO_MERSENNE_POWM_MAX_BITS => None,
        Operation::PowMod if barrett_fixed_powm(m) => None,
        Operation::MulMod | Operation::PowMod
            if m.is_odd()
                && m.len() == PSEUDO_MERSENNE_MONTGOMERY_ASM_DIGITS
                && montgomery_asm(m.len()) =>
        {
            None
        }
        Operation::MulMod | Operation::PowMod if n >= PSEUDO_MERSENNE_MIN_BITS => Some((
            Algorithm::PseudoMersenne,
            format!("2^{n} - c with one-digit c, at least PSEUDO_MERSENNE_MIN_BITS ({PSEUDO_MERSENNE_MIN_BITS})"),
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

/// [`choose_method`] with `profile` in place of the active one.
pub fn choose_method_with(exponent_bits: u64, profile: Option<&Profile>) -> (Method, String) {
    if let Some(e) = profile.and_then(|p| p.method_for(exponent_bits)) {
        return (
            e.method,
            format!(
                "profile: {} measured fastest for {}-bit exponents",
                profile::method_name(e.method),
                e.bits
            ),
        );
    }
    let m = exp::default_method(exponent_bits);
    (
        m,
        format!(
            "built-in rule: {} (the sliding window of the width that minimizes the operation \
             count, WINDOW_THRESHOLDS)",
            profile::method_name(m)
        ),
    )
}
