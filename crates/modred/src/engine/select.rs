//! The selector: the one place that maps (algorithm or `auto` for an operation, the
//! modulus's width and form, the CPU's features, the tuning profile) to the code that runs
//! — a [`Plan`] and the [`Engine`] built from it. A construction that fails is an error,
//! never a silent fallback to another algorithm.

use super::core::Core;
use super::even::EvenCrt;
use super::profile;
use super::rule;
use super::Operation;
use crate::error::Error;
use crate::exp::word::Word;
use crate::modulus::{limits, Limits};
use crate::nat::Nat;
use crate::reduce::{self, Hong, MontgomeryFixed, Reducer};
use crate::registry::Algorithm;
use crate::sync::OnceLock;
use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use alloc::vec::Vec;
use core::fmt;

#[cfg(x86_kernels)]
use super::avx2::PowerAvx2;
#[cfg(x86_kernels)]
use super::ifma::MontgomeryIfma;

/// The code that computes a modulus's products.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Product {
    /// The algorithm's reducer on digit slices of any length, on the digit kernels —
    /// MULX/ADX assembly (`adx`) or portable.
    Slice {
        /// Whether the digit kernels are the MULX/ADCX/ADOX ones (x86-64 with BMI2 and ADX).
        adx: bool,
    },
    /// The algorithm's unrolled fixed-size code for this many 64-bit digits.
    Fixed {
        /// The modulus's digits.
        digits: usize,
    },
    /// Montgomery's 4-digit product and square in MULX/ADCX/ADOX assembly.
    MontgomeryAsm4,
    /// Montgomery's product of any width as one fused MULX/ADCX/ADOX pass per digit (CIOS
    /// after OpenSSL's `bn_mulx4x_mont`), its square by a triangle and a reduction or by
    /// that product.
    MontgomeryMulx,
    /// Montgomery's product in radix 2^52, eight digits to a vector, on AVX-512 IFMA.
    Ifma52,
    /// One 64-bit digit in registers, reduced by a precomputed reciprocal (`exp::word`;
    /// classical reduction of one digit, for the one-off reductions of an automatic
    /// one-digit context).
    Word,
    /// Transform products (paper 001) on the AVX-512 IFMA transform engine (`ifma`), the
    /// AVX2+FMA double-precision engine (`fma`) or the portable three-prime engine.
    Transform {
        /// Whether the transforms run on AVX-512 IFMA.
        ifma: bool,
        /// Whether they run on AVX2 with FMA (where IFMA is absent).
        fma: bool,
    },
}

impl fmt::Display for Product {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Product::Slice { adx: true } => f.write_str("slice code on the MULX/ADX digit kernels"),
            Product::Slice { adx: false } => {
                f.write_str("slice code on the portable digit kernels")
            }
            Product::Fixed { digits: 1 } => f.write_str("unrolled fixed-size code for 1 digit"),
            Product::Fixed { digits } => write!(f, "unrolled fixed-size code for {digits} digits"),
            Product::MontgomeryAsm4 => f.write_str("4-digit MULX/ADCX/ADOX assembly"),
            Product::MontgomeryMulx => {
                f.write_str("fused MULX/ADCX/ADOX Montgomery multiplication (any width)")
            }
            Product::Ifma52 => f.write_str("AVX-512 IFMA radix-2^52 product"),
            Product::Word => {
                f.write_str("one digit in registers, division by a precomputed reciprocal")
            }
            Product::Transform { ifma: true, .. } => f.write_str("transforms on AVX-512 IFMA"),
            Product::Transform { ifma: false, fma: true } => {
                f.write_str("transforms on the AVX2+FMA double-precision engine")
            }
            Product::Transform { ifma: false, fma: false } => {
                f.write_str("transforms on the portable three-prime engine")
            }
        }
    }
}

/// The code that computes a modulus's exponentiations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Power {
    /// The exponentiation method ([`crate::exp`]) over the modulus's products.
    Window,
    /// The same method in radix 2^52 on AVX-512 IFMA (converted once in, once out).
    Ifma52,
    /// The same method in radix 2^28 on AVX2, on a CPU without BMI2/ADX (converted once
    /// in, once out).
    Avx2Radix28,
    /// Paper 002's small-window exponentiation with a window table per power.
    HongTables,
    /// An even modulus `q·2^s` split by the Chinese remainder theorem: the odd part's own
    /// automatic engine, products truncated to `s` bits, one recombination.
    EvenCrt,
    /// A one-digit modulus: the 16-ary window in registers on Montgomery's one-digit
    /// products, an even modulus split by CRT into its odd part and a power of two
    /// (`exp::word`).
    Word,
}

impl fmt::Display for Power {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Power::Window => "window method over these products",
            Power::Ifma52 => "window method in radix 2^52 on AVX-512 IFMA",
            Power::Avx2Radix28 => "window method in radix 2^28 on AVX2",
            Power::HongTables => "paper 002's window tables",
            Power::EvenCrt => "CRT: the odd part's automatic engine and a power modulo 2^s",
            Power::Word => "16-ary window in registers, one-digit Montgomery (even: CRT split)",
        })
    }
}

/// What runs for one modulus, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The algorithm of the products (never `Auto`).
    pub algorithm: Algorithm,
    /// Whether `auto` chose it.
    pub auto: bool,
    /// The code of the products.
    pub product: Product,
    /// The code of the exponentiations.
    pub power: Power,
    /// The algorithm and code of one-off reductions ([`crate::Modulus::reduce`]).
    pub reduce: (Algorithm, Product),
    /// Why this algorithm: the rule's reason, or that it was forced.
    pub reason: String,
}

impl Plan {
    /// The code in one line, e.g. `montgomery: AVX-512 IFMA radix-2^52 product`.
    pub fn code(&self) -> String {
        format!("{}: {}", self.algorithm, self.product)
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}; exponentiation: {}", self.code(), self.power)?;
        if self.reduce != (self.algorithm, self.product) {
            write!(f, "; one-off reductions: {}: {}", self.reduce.0, self.reduce.1)?;
        }
        Ok(())
    }
}

/// The plan of `algorithm` (`Auto`: the rule's choice for `op`) modulo `m`: what
/// [`crate::Modulus::with`] (or [`crate::Modulus::for_operation`] for `Auto`) builds and
/// runs. Builds the engine to know (its precalculation included).
///
/// Errors: as [`crate::Modulus::with`] (with the default [`Limits`]).
pub fn plan(algorithm: Algorithm, m: &Nat, op: Operation) -> Result<Plan, Error> {
    build(algorithm, m, op, &Limits::new()).map(|e| e.plan)
}

/// The reducer of `algorithm` (not `Auto`) modulo `m` behind the trait, as the selector
/// builds it — its unrolled fixed-size form for this width where it has one (what
/// [`crate::Modulus::with`] runs for one-off reductions) — and the code of its products.
///
/// Errors: [`Error::ZeroModulus`], [`Error::NotApplicable`], and [`Error::InvalidArgument`]
/// for `Auto`.
pub fn reducer(algorithm: Algorithm, m: &Nat) -> Result<(Box<dyn Reducer<u64>>, Product), Error> {
    reducer_for(algorithm, m)
}

/// For the one-off reductions of a modulus: the input bound of their reducer, and for a
/// reducer whose reduction gives `x·ρ⁻¹` (Montgomery's, `ρ ≢ 1`) the raw digits of
/// `ρ² mod m`, one multiplication by which turns `x·ρ⁻¹` into `x mod m`.
pub(crate) struct OneOff {
    /// The reducer, when it is not the core's.
    pub(crate) own: Option<Box<dyn Reducer<u64>>>,
    pub(crate) bound: reduce::Bound<u64>,
    /// The digits of `ρ² mod m` where `ρ ≢ 1`, made at the first one-off reduction (an
    /// exponentiation context may never make one).
    fix: OnceLock<Option<Vec<u64>>>,
}

impl OneOff {
    fn of(own: Option<Box<dyn Reducer<u64>>>, core: &Core) -> Self {
        let bound = own.as_deref().unwrap_or(core.reducer()).input_bound();
        OneOff { own, bound, fix: OnceLock::new() }
    }

    /// The digits of `ρ² mod m` for the reducer `r` of these reductions, when `ρ ≢ 1`.
    pub(crate) fn fix(&self, r: &dyn Reducer<u64>) -> Option<&[u64]> {
        let fix = self.fix.get_or_init(|| {
            let rho = Nat::from_limbs(&r.to_residue(&Nat::one()));
            (rho != Nat::one() && !rho.is_zero()).then(|| r.to_residue(&rho))
        });
        fix.as_deref()
    }

    /// The bytes of the fix, once made.
    fn fix_bytes(&self) -> usize {
        self.fix.get().and_then(Option::as_ref).map_or(0, crate::nat::vec_bytes)
    }
}

/// The code one modulus's arithmetic runs on: the plan and what it names.
pub(crate) struct Engine {
    pub(crate) plan: Plan,
    pub(crate) core: Core,
    /// For the Montgomery reducers on a CPU with AVX-512 IFMA and a modulus of 512–4158
    /// bits: the radix-2^52 context their exponentiations (and products) run on.
    #[cfg(x86_kernels)]
    pub(crate) ifma: Option<MontgomeryIfma>,
    /// For the Montgomery reducers on a CPU with AVX2 and without BMI2/ADX, where
    /// [`rule::montgomery_avx2_power`] holds: the radix-2^28 context their variable-time
    /// exponentiations run on.
    #[cfg(x86_kernels)]
    pub(crate) avx2: Option<PowerAvx2>,
    pub(crate) one_off: OneOff,
    /// For an automatic context of an even modulus where it pays: its exponentiations by
    /// CRT.
    pub(crate) even: Option<EvenCrt>,
    /// For an automatic context of a one-digit modulus: its exponentiations in registers.
    pub(crate) word: Option<Word>,
    /// `m`, padded to the residue width.
    pub(crate) m: Vec<u64>,
    /// The estimated work of one modular multiplication: the algorithm's cost model
    /// ([`crate::registry::Cost`]) at this width.
    pub(crate) mul_work: u64,
}

impl Engine {
    /// The bytes its reducers and constants hold on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        let vector = 0;
        #[cfg(x86_kernels)]
        let vector = vector
            + self.ifma.as_ref().map_or(0, MontgomeryIfma::heap_bytes)
            + self.avx2.as_ref().map_or(0, PowerAvx2::heap_bytes);
        let one_off =
            self.one_off.own.as_deref().map_or(0, |r| core::mem::size_of_val(r) + r.heap_bytes())
                + self.one_off.fix_bytes();
        let even = self.even.as_ref().map_or(0, EvenCrt::heap_bytes);
        self.core.heap_bytes() + vector + one_off + even + crate::nat::vec_bytes(&self.m)
    }

    /// The `u64` digits of each number of the exponentiations' window tables: the
    /// modulus's, or the vector representation's where one runs them (more digits of
    /// fewer bits).
    pub(crate) fn pow_digits(&self) -> usize {
        let digits = self.m.len();
        #[cfg(x86_kernels)]
        let digits = digits
            .max(self.ifma.as_ref().map_or(0, MontgomeryIfma::digits))
            .max(self.avx2.as_ref().map_or(0, PowerAvx2::digits));
        digits
    }

    /// The reducer of one-off reductions.
    pub(crate) fn one_off_reducer(&self) -> &dyn Reducer<u64> {
        self.one_off.own.as_deref().unwrap_or(self.core.reducer())
    }
}

/// Builds the engine for `algorithm` (`Auto`: the rule's choice for `op`, and the rule's
/// choice for [`Operation::Reduce`] for one-off reductions) modulo `m`, or refuses it
/// before any precalculation when one of its multiplications is over the work limit.
pub(crate) fn build(
    algorithm: Algorithm,
    m: &Nat,
    op: Operation,
    limits: &Limits,
) -> Result<Engine, Error> {
    build_with(algorithm, m, op, limits, Uses::Everything)
}

/// The automatic exponentiation engine modulo `m` for a caller that only exponentiates
/// (the odd part of a CRT split, an exponentiation without a kept context) and shows no
/// plan: as [`build`] for [`Operation::PowMod`], with one-off reductions on the
/// exponentiation's own reducer instead of a second one of the rule's choice for
/// [`Operation::Reduce`] (about a division's work and several allocations saved), and the
/// rule's reason not written (the plan's `reason` is empty).
pub(crate) fn build_for_powers(m: &Nat, limits: &Limits) -> Result<Engine, Error> {
    build_with(Algorithm::Auto, m, Operation::PowMod, limits, Uses::Powers)
}

/// What an engine is built for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Uses {
    /// A context a caller keeps and may explain: every operation, the plan's reason.
    Everything,
    /// Exponentiations alone ([`build_for_powers`]).
    Powers,
}

/// [`build`] for what `uses` says.
fn build_with(
    algorithm: Algorithm,
    m: &Nat,
    op: Operation,
    limits: &Limits,
    uses: Uses,
) -> Result<Engine, Error> {
    if m.is_zero() {
        return Err(Error::ZeroModulus);
    }
    let auto = algorithm == Algorithm::Auto;
    // The form is detected once, for the operation's choice and the one-off reductions'.
    let profile = if auto { profile::active() } else { None };
    let form = auto.then(|| profile::Form::of(m));
    let (algorithm, reason) = match form {
        Some(form) if uses == Uses::Powers => {
            (rule::choose_form(m, op, form, profile.as_deref()), String::new())
        }
        Some(form) => {
            let c = rule::explain_form(m, op, form, profile.as_deref());
            (c.algorithm, c.reason)
        }
        None => (algorithm, "forced".to_string()),
    };
    let mul_work = algorithm.info().map_or(0, |i| i.cost.mul_work(m.len() as u64));
    limits.check(mul_work, || {
        format!("one multiplication modulo a {}-bit modulus by {algorithm}", m.bits())
    })?;
    // The context, one product, and the one-off reducer when it is another algorithm.
    // One digit: the exponentiations and one-off reductions of an automatic context run
    // in registers (`exp::word`), where the bookkeeping of residue vectors and a reducer
    // behind a pointer costs more than the arithmetic.
    let word = if auto && m.len() == 1 { Word::new(m.limbs()[0]) } else { None };
    let one_off_algorithm = match form {
        _ if word.is_some() => Algorithm::Classical,
        Some(form) if op != Operation::Reduce && uses == Uses::Everything => {
            rule::choose_form(m, Operation::Reduce, form, profile.as_deref())
        }
        _ => algorithm,
    };
    let k = m.len() as u64;
    let mut memory = limits::mul_memory(algorithm, k);
    if one_off_algorithm != algorithm && word.is_none() {
        memory = memory.saturating_add(limits::context_memory(one_off_algorithm, k));
    }
    let even_crt = auto && rule::even_crt_pays(m, op);
    if even_crt {
        // The odd part's own context, whichever algorithm it takes.
        memory = memory.saturating_add(limits::mul_memory(Algorithm::NttMontgomery, k));
    }
    limits.check_memory(memory, || {
        format!("a modulus of {} bits by {algorithm} with one multiplication", m.bits())
    })?;
    #[cfg(x86_kernels)]
    let ifma = match algorithm {
        Algorithm::Montgomery | Algorithm::MontgomeryInterleaved => MontgomeryIfma::new(m),
        _ => None,
    };
    #[cfg(x86_kernels)]
    let avx2 = match algorithm {
        Algorithm::Montgomery | Algorithm::MontgomeryInterleaved if ifma.is_none() => {
            PowerAvx2::new(m)
        }
        _ => None,
    };
    // Wherever the IFMA context exists (from `rule::ifma_min_bits`) its one-pass product
    // beats the word-level one (0.86 of its time at 576 bits, 0.55 at 1024;
    // docs/benchmarks.md).
    #[cfg(x86_kernels)]
    let ifma_product = ifma.is_some();
    #[cfg(not(x86_kernels))]
    let ifma_product = false;
    // An engine built for exponentiations alone that splits the modulus never multiplies
    // modulo the whole of it: its core only converts residues, which classical's does
    // without the precalculation (a division for Barrett's μ) of the rule's algorithm.
    let core_algorithm =
        if even_crt && uses == Uses::Powers { Algorithm::Classical } else { algorithm };
    let (core, product) = core_for(core_algorithm, m, ifma_product)?;
    let even = if even_crt { EvenCrt::new(m, limits)? } else { None };
    let power = match &core {
        _ if even.is_some() => Power::EvenCrt,
        _ if word.is_some() => Power::Word,
        Core::Hong(_) => Power::HongTables,
        #[cfg(x86_kernels)]
        _ if ifma.is_some() => Power::Ifma52,
        #[cfg(x86_kernels)]
        _ if avx2.is_some() => Power::Avx2Radix28,
        _ => Power::Window,
    };
    let (own, reduce) = if word.is_some() {
        (None, (Algorithm::Classical, Product::Word))
    } else if one_off_algorithm == algorithm {
        (None, (algorithm, product))
    } else {
        let (r, p) = reducer_for(one_off_algorithm, m)?;
        (Some(r), (one_off_algorithm, p))
    };
    let one_off = OneOff::of(own, &core);
    let mut padded = m.limbs().to_vec();
    padded.resize(core.reducer().width(), 0);
    Ok(Engine {
        plan: Plan { algorithm, auto, product, power, reduce, reason },
        core,
        #[cfg(x86_kernels)]
        ifma,
        #[cfg(x86_kernels)]
        avx2,
        one_off,
        even,
        word,
        m: padded,
        mul_work,
    })
}

/// The core for `algorithm` modulo `m` and the code of its products; `ifma`: whether the
/// modulus's IFMA product pays.
fn core_for(algorithm: Algorithm, m: &Nat, ifma: bool) -> Result<(Core, Product), Error> {
    if ifma {
        #[cfg(x86_kernels)]
        return Ok((Core::Ifma(reducer_for(algorithm, m)?.0), Product::Ifma52));
    }
    if algorithm == Algorithm::Hong {
        return Ok((Core::Hong(Hong::new(m)?), slice_product()));
    }
    if algorithm == Algorithm::Montgomery && m.is_odd() && !rule::montgomery_mulx(m.len()) {
        fn fixed<const N: usize>(m: &Nat) -> Result<MontgomeryFixed<N>, Error> {
            MontgomeryFixed::<N>::new(m)
        }
        let core = match m.len() {
            1 => Some(Core::M1(fixed(m)?)),
            2 => Some(Core::M2(fixed(m)?)),
            3 => Some(Core::M3(fixed(m)?)),
            #[cfg(x86_kernels)]
            4 if rule::montgomery_asm(4) => Some(Core::M4Asm(fixed(m)?)),
            4 => Some(Core::M4(fixed(m)?)),
            5 => Some(Core::M5(fixed(m)?)),
            6 => Some(Core::M6(fixed(m)?)),
            7 => Some(Core::M7(fixed(m)?)),
            8 => Some(Core::M8(fixed(m)?)),
            _ => None,
        };
        if let Some(core) = core {
            return Ok((core, fixed_product(algorithm, m.len())));
        }
    }
    let (r, product) = reducer_for(algorithm, m)?;
    Ok((Core::Boxed(r), product))
}

/// The reducer of `algorithm` modulo `m` behind the trait — its unrolled fixed-size form
/// where it has one for this width — and the code of its products.
fn reducer_for(algorithm: Algorithm, m: &Nat) -> Result<(Box<dyn Reducer<u64>>, Product), Error> {
    let mulx = matches!(algorithm, Algorithm::Montgomery | Algorithm::MontgomeryInterleaved)
        && m.is_odd()
        && rule::montgomery_mulx(m.len());
    if !mulx {
        if let Some(r) = reduce::fixed::make_u64(algorithm, m) {
            return Ok((r, fixed_product(algorithm, m.len())));
        }
    }
    #[cfg(x86_kernels)]
    if mulx {
        let r = reduce::montgomery_mulx::MontgomeryMulx::new(m)?.named(algorithm);
        return Ok((Box::new(r), Product::MontgomeryMulx));
    }
    let r = reduce::make(algorithm, m)?;
    let product = match algorithm {
        Algorithm::NttBarrett | Algorithm::NttMontgomery => Product::Transform {
            ifma: crate::ntt::uses_ifma::<u64>(),
            fma: crate::ntt::uses_fma::<u64>(),
        },
        _ => slice_product(),
    };
    Ok((r, product))
}

/// The fixed-size code of `algorithm` at `digits` digits.
fn fixed_product(algorithm: Algorithm, digits: usize) -> Product {
    if algorithm == Algorithm::Montgomery && rule::montgomery_asm(digits) {
        Product::MontgomeryAsm4
    } else {
        Product::Fixed { digits }
    }
}

/// The slice code on this build's digit kernels.
fn slice_product() -> Product {
    Product::Slice { adx: cfg!(x86_kernels) && crate::kernels::cpu::bmi2_adx() }
}
