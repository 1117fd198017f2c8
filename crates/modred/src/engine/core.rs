//! The direct multiplication path of [`super::Modulus`] (issue 8): the concrete
//! arithmetic its `mul`, `sqr`, `mul_into`, `sqr_into`, `mul_assign` and `sqr_assign`
//! call without going through the boxed reducer, and the per-thread working space of the
//! reducers that need one.
//!
//! Measured at 256 bits (the `modulus_paths` example of `modred-bench` and `modred bench
//! --api reducer|modulus|modulus-alloc`, interleaved in one run each): `Modulus::mul`,
//! which allocated its result and a [`Scratch`] per call and reached [`MontgomeryFixed`]
//! through `dyn Reducer`, took 1.9–2.4× the array product
//! [`MontgomeryFixed::mul_fixed`]; `Modulus::mul_into` through this path takes the time
//! of `Reducer::mul` on the slices (within 3%). At 1024 bits and more the fresh
//! [`Scratch`] of every call reallocated the double-length product and the reduction's
//! work space each time.

use crate::algorithm::Algorithm;
use crate::nat::Nat;
use crate::reduce::{MontgomeryFixed, Reducer, Scratch};
use core::cell::RefCell;

/// Up to this many digits the reducers' working space is kept per thread between calls
/// (a few times the width, so at most some hundred KiB a thread); wider moduli (the
/// transform reducers' sizes) get a fresh [`Scratch`] per call, as before.
pub(super) const KEPT_SCRATCH_MAX_DIGITS: usize = 512;

/// The arithmetic a modulus multiplies with when it is faster to reach than its boxed
/// reducer: the fixed-size Montgomery reducers (the same ones [`crate::reduce::make`]
/// boxes for `montgomery`, 1 to 8 digits), the IFMA product, or none.
// One per `Modulus`, never moved in a hot loop: a box would add a load to every product.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub(super) enum Direct {
    M1(MontgomeryFixed<1>),
    M2(MontgomeryFixed<2>),
    M3(MontgomeryFixed<3>),
    M4(MontgomeryFixed<4>),
    /// [`MontgomeryFixed<4>`] on a CPU with BMI2 and ADX (checked when made): [`Modulus`]'s
    /// `mul_into`, `sqr_into`, `mul_assign` and `sqr_assign` call its assembly inline,
    /// without the calls and checks of the other paths.
    ///
    /// [`Modulus`]: super::Modulus
    #[cfg(all(target_arch = "x86_64", not(feature = "portable"), not(miri)))]
    M4Asm(MontgomeryFixed<4>),
    M5(MontgomeryFixed<5>),
    M6(MontgomeryFixed<6>),
    M7(MontgomeryFixed<7>),
    M8(MontgomeryFixed<8>),
    /// [`crate::reduce::montgomery_ifma::MontgomeryIfma::mul_word`], the modulus's IFMA
    /// context (where its product measured faster than the word-level one).
    Ifma,
    /// The boxed reducer.
    Boxed,
}

impl Direct {
    /// The direct path for `algorithm` (the reducer's) modulo `m`; `ifma`: whether the
    /// modulus's IFMA product pays.
    pub(super) fn new(algorithm: Algorithm, m: &Nat, ifma: bool) -> Direct {
        if ifma {
            return Direct::Ifma;
        }
        if algorithm != Algorithm::Montgomery {
            return Direct::Boxed;
        }
        fn fixed<const N: usize>(m: &Nat) -> Option<MontgomeryFixed<N>> {
            MontgomeryFixed::<N>::new(m).ok()
        }
        let d = match m.len() {
            1 => fixed::<1>(m).map(Direct::M1),
            2 => fixed::<2>(m).map(Direct::M2),
            3 => fixed::<3>(m).map(Direct::M3),
            4 => fixed::<4>(m).map(|f| {
                #[cfg(all(target_arch = "x86_64", not(feature = "portable"), not(miri)))]
                if crate::kernels::arch::x86_64::has_bmi2_adx() {
                    return Direct::M4Asm(f);
                }
                Direct::M4(f)
            }),
            5 => fixed::<5>(m).map(Direct::M5),
            6 => fixed::<6>(m).map(Direct::M6),
            7 => fixed::<7>(m).map(Direct::M7),
            8 => fixed::<8>(m).map(Direct::M8),
            _ => None,
        };
        d.unwrap_or(Direct::Boxed)
    }
}

/// Runs `$body` with `$f` bound to the fixed-size reducer of `$direct` and `N` its width,
/// or evaluates `$other` for the other paths.
macro_rules! with_fixed {
    ($direct:expr, |$f:ident, $n:ident| $body:expr, $other:expr) => {
        match $direct {
            Direct::M1($f) => {
                const $n: usize = 1;
                $body
            }
            Direct::M2($f) => {
                const $n: usize = 2;
                $body
            }
            Direct::M3($f) => {
                const $n: usize = 3;
                $body
            }
            Direct::M4($f) => {
                const $n: usize = 4;
                $body
            }
            #[cfg(all(target_arch = "x86_64", not(feature = "portable"), not(miri)))]
            Direct::M4Asm($f) => {
                const $n: usize = 4;
                $body
            }
            Direct::M5($f) => {
                const $n: usize = 5;
                $body
            }
            Direct::M6($f) => {
                const $n: usize = 6;
                $body
            }
            Direct::M7($f) => {
                const $n: usize = 7;
                $body
            }
            Direct::M8($f) => {
                const $n: usize = 8;
                $body
            }
            _ => $other,
        }
    };
}
pub(super) use with_fixed;

/// `N` digits of `x` as an array (the caller checked the width).
#[inline(always)]
pub(super) fn arr<const N: usize>(x: &[u64]) -> &[u64; N] {
    x.try_into().expect("a residue of the modulus's width")
}

/// The four digits of a residue of a 4-digit modulus: one width check (the panic of
/// [`super::Modulus`]'s `check` when it fails).
#[cfg(all(target_arch = "x86_64", not(feature = "portable"), not(miri)))]
#[inline(always)]
pub(super) fn four(r: &super::Residue) -> &[u64; 4] {
    match r.limbs().try_into() {
        Ok(x) => x,
        Err(_) => wrong_width(),
    }
}

/// The panic of a residue of another width (a programming error, as in
/// [`super::Modulus`]'s `check`).
#[cfg(all(target_arch = "x86_64", not(feature = "portable"), not(miri)))]
#[cold]
#[inline(never)]
pub(super) fn wrong_width() -> ! {
    panic!("the residue belongs to a modulus of another width")
}

/// `N` digits of `x` as a mutable array (the caller checked the width).
#[inline(always)]
pub(super) fn arr_mut<const N: usize>(x: &mut [u64]) -> &mut [u64; N] {
    x.try_into().expect("a residue of the modulus's width")
}

/// The working space kept per thread: the reducers' [`Scratch`] and a copy of an operand
/// for the in-place operations of the boxed reducers.
struct Work {
    scratch: Scratch<u64>,
    copy: Vec<u64>,
}

thread_local! {
    static WORK: RefCell<Work> = RefCell::new(Work { scratch: Scratch::new(), copy: Vec::new() });
}

/// Runs `f` with this thread's kept working space for a modulus of `width` digits (a
/// fresh one for wide moduli, or should the thread's be in use or gone).
#[inline]
pub(super) fn with_work<R>(
    width: usize,
    f: impl FnOnce(&mut Scratch<u64>, &mut Vec<u64>) -> R,
) -> R {
    let mut f = Some(f);
    if width <= KEPT_SCRATCH_MAX_DIGITS {
        let kept = WORK.try_with(|w| match w.try_borrow_mut() {
            Ok(mut w) => {
                let w = &mut *w;
                let f = f.take().expect("called once");
                Some(f(&mut w.scratch, &mut w.copy))
            }
            Err(_) => None,
        });
        if let Ok(Some(r)) = kept {
            return r;
        }
    }
    let f = f.take().expect("not called yet");
    f(&mut Scratch::new(), &mut Vec::new())
}
