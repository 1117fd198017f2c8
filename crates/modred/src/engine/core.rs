//! The arithmetic core of an [`super::Engine`]: the concrete reducer its multiplications
//! run on, held by type where that lets [`crate::Modulus`] call it without a virtual call
//! (the fixed-size Montgomery products, inlined into `Modulus::mul_into` and friends), and
//! the per-thread working space of the reducers that need one.
//!
//! At 256 bits a product through `dyn Reducer` with a fresh [`Scratch`] per call took
//! 1.9–2.4× the fixed-size array product; through [`Core`] it takes the array product's
//! time (docs/tuning.md).

use crate::reduce::{Hong, MontgomeryFixed, Reducer, Scratch};
use alloc::boxed::Box;
use alloc::vec::Vec;
#[cfg(feature = "std")]
use core::cell::RefCell;

/// Up to this many digits the reducers' working space is kept per thread between calls
/// (a few times the width: at most some hundred KiB a thread); wider moduli (the
/// transform reducers' sizes) get a fresh [`Scratch`] per call.
pub(crate) const KEPT_SCRATCH_MAX_DIGITS: usize = 512;

/// The reducer a modulus multiplies with.
// One per `Modulus`, never moved in a hot loop: a box would add a load to every product.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Core {
    M1(MontgomeryFixed<1>),
    M2(MontgomeryFixed<2>),
    M3(MontgomeryFixed<3>),
    M4(MontgomeryFixed<4>),
    /// [`MontgomeryFixed<4>`] on a CPU with BMI2 and ADX (checked when made): `Modulus`'s
    /// `mul_into`, `sqr_into`, `mul_assign` and `sqr_assign` call its assembly inline.
    #[cfg(x86_kernels)]
    M4Asm(MontgomeryFixed<4>),
    M5(MontgomeryFixed<5>),
    M6(MontgomeryFixed<6>),
    M7(MontgomeryFixed<7>),
    M8(MontgomeryFixed<8>),
    /// Paper 002's reducer, whose exponentiation builds window tables per power
    /// ([`crate::exp::hong`]), which the trait cannot express.
    Hong(Hong<u64>),
    /// A Montgomery reducer whose products run in radix 2^52 on AVX-512 IFMA (the
    /// engine's IFMA context); the reducer converts residues.
    #[cfg(x86_kernels)]
    Ifma(Box<dyn Reducer<u64>>),
    /// Any other reducer, behind the trait.
    Boxed(Box<dyn Reducer<u64>>),
}

impl Core {
    /// The bytes the reducer holds on the heap, with the box of a boxed one.
    pub(crate) fn heap_bytes(&self) -> usize {
        let boxed = match self {
            #[cfg(x86_kernels)]
            Core::Ifma(r) => core::mem::size_of_val(&**r),
            Core::Boxed(r) => core::mem::size_of_val(&**r),
            _ => 0,
        };
        boxed + self.reducer().heap_bytes()
    }

    /// The core as a reducer (conversions, one-off reductions, the generic paths).
    pub(crate) fn reducer(&self) -> &dyn Reducer<u64> {
        match self {
            Core::M1(f) => f,
            Core::M2(f) => f,
            Core::M3(f) => f,
            Core::M4(f) => f,
            #[cfg(x86_kernels)]
            Core::M4Asm(f) => f,
            Core::M5(f) => f,
            Core::M6(f) => f,
            Core::M7(f) => f,
            Core::M8(f) => f,
            Core::Hong(h) => h,
            #[cfg(x86_kernels)]
            Core::Ifma(r) => &**r,
            Core::Boxed(r) => &**r,
        }
    }
}

/// Runs `$body` with `$f` bound to the fixed-size reducer of `$direct` and `N` its width,
/// or evaluates `$other` for the other paths.
macro_rules! with_fixed {
    ($direct:expr, |$f:ident, $n:ident| $body:expr, $other:expr) => {
        match $direct {
            Core::M1($f) => {
                const $n: usize = 1;
                $body
            }
            Core::M2($f) => {
                const $n: usize = 2;
                $body
            }
            Core::M3($f) => {
                const $n: usize = 3;
                $body
            }
            Core::M4($f) => {
                const $n: usize = 4;
                $body
            }
            #[cfg(x86_kernels)]
            Core::M4Asm($f) => {
                const $n: usize = 4;
                $body
            }
            Core::M5($f) => {
                const $n: usize = 5;
                $body
            }
            Core::M6($f) => {
                const $n: usize = 6;
                $body
            }
            Core::M7($f) => {
                const $n: usize = 7;
                $body
            }
            Core::M8($f) => {
                const $n: usize = 8;
                $body
            }
            _ => $other,
        }
    };
}
pub(crate) use with_fixed;

/// `N` digits of `x` as an array (the caller checked the width).
#[inline(always)]
pub(crate) fn arr<const N: usize>(x: &[u64]) -> &[u64; N] {
    x.try_into().expect("a residue of the modulus's width")
}

/// `N` digits of `x` as a mutable array (the caller checked the width).
#[inline(always)]
pub(crate) fn arr_mut<const N: usize>(x: &mut [u64]) -> &mut [u64; N] {
    x.try_into().expect("a residue of the modulus's width")
}

/// The working space kept per thread: the reducers' [`Scratch`] and a copy of an operand
/// for the in-place operations of the boxed reducers.
struct Work {
    scratch: Scratch<u64>,
    copy: Vec<u64>,
}

#[cfg(feature = "std")]
std::thread_local! {
    static WORK: RefCell<Work> = RefCell::new(Work { scratch: Scratch::new(), copy: Vec::new() });
}

/// Without std (no threads to keep one per thread): one for the program, used by whoever
/// finds it free.
#[cfg(not(feature = "std"))]
static WORK: crate::sync::Mutex<Option<Work>> = crate::sync::Mutex::new(None);

/// Runs `f` with this thread's kept working space for a modulus of `width` digits (a
/// fresh one for wide moduli, or should the thread's be in use or gone).
#[inline]
pub(crate) fn with_work<R>(
    width: usize,
    f: impl FnOnce(&mut Scratch<u64>, &mut Vec<u64>) -> R,
) -> R {
    let mut f = Some(f);
    if width <= KEPT_SCRATCH_MAX_DIGITS {
        #[cfg(not(feature = "std"))]
        if let Ok(mut w) = WORK.lock() {
            let w = w.get_or_insert_with(|| Work { scratch: Scratch::new(), copy: Vec::new() });
            let f = f.take().expect("called once");
            return f(&mut w.scratch, &mut w.copy);
        }
        #[cfg(feature = "std")]
        let kept = WORK.try_with(|w| match w.try_borrow_mut() {
            Ok(mut w) => {
                let w = &mut *w;
                let f = f.take().expect("called once");
                Some(f(&mut w.scratch, &mut w.copy))
            }
            Err(_) => None,
        });
        #[cfg(feature = "std")]
        if let Ok(Some(r)) = kept {
            return r;
        }
    }
    let f = f.take().expect("not called yet");
    f(&mut Scratch::new(), &mut Vec::new())
}
