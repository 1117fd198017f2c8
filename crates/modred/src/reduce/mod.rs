//! Layer 5: reduction algorithms, one module each, all behind [`Reducer`].
//!
//! Which to use when (paper 000 §6, confirmed by our measurements in the report):
//! - [`Classical`] for a one-off reduction: its precalculation is a shift, it takes any
//!   argument, and its time falls linearly with the argument's length.
//! - [`Montgomery`] / [`MontgomeryInterleaved`] for many multiplications modulo one odd
//!   modulus (exponentiation): the reduction costs about one multiplication.
//! - [`Radix2Montgomery`] / [`Radix2MontgomeryRecoded`] (paper 004): bit-serial hardware
//!   algorithms, correct for any odd modulus but slow in software; never chosen by `auto`.
//! - [`Barrett`] for many multiplications modulo an even modulus, and for arguments much
//!   shorter than twice the modulus (exponentiation of small bases).
//!
//! # Representation
//! A reducer works on *residues*: slices of exactly [`Reducer::width`] digits holding a
//! value below the modulus. Classical and Barrett use the standard representation (the
//! residue of `x` is `x mod m`); Montgomery uses `x·R mod m` with `R = b^k`. Call the
//! representation factor ρ (1 or R). [`Reducer::reduce_raw`] is the paper's algorithm:
//! `x ↦ x·ρ⁻¹ mod m`, which maps the product of two residues to the residue of the
//! product. [`Reducer::reduce`] is the checked one-shot `x mod m` in standard form.
//!
//! # Timing
//! The reducers are variable time in their arguments: classical and Barrett branch on
//! the value in their quotient corrections, and products switch between schoolbook and
//! Karatsuba on normalized lengths (leading zero digits). Montgomery's final subtraction is
//! branch-free, but the product around it is not guaranteed constant time. For secret
//! operands use [`crate::ct`] or `Modulus::{mul_ct, sqr_ct, pow_ct}`.

mod barrett;
mod classical;
pub mod fixed;
pub mod hong;
pub(crate) mod montgomery;
mod montgomery_interleaved;
#[cfg(x86_kernels)]
pub(crate) mod montgomery_mulx;
pub(crate) mod nist;
mod ntt_barrett;
mod ntt_montgomery;
mod pseudo_mersenne;
pub mod radix2;
mod solinas;

pub use barrett::Barrett;
pub use classical::Classical;
pub use fixed::{BarrettFixed, MontgomeryFixed, NistFixed, PseudoMersenneFixed};
pub use hong::{Hong, WindowTable};
pub use montgomery::Montgomery;
pub use montgomery_interleaved::MontgomeryInterleaved;
pub use nist::{Nist, NistPrime};
pub use ntt_barrett::{NttBarrett, SecondProduct};
pub use ntt_montgomery::NttMontgomery;
pub use pseudo_mersenne::{pseudo_mersenne_form, PseudoMersenne};
pub use radix2::{Radix2Montgomery, Radix2MontgomeryRecoded};
pub use solinas::{Solinas, SolinasPoly, MAX_WEIGHT as SOLINAS_MAX_WEIGHT};

use crate::error::Error;
use crate::limb::Limb;
use crate::nat::Nat;
use crate::registry::Algorithm;
use alloc::boxed::Box;
use alloc::format;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

/// The reducer `algorithm` names, with its precalculation for `m`, behind the trait: the
/// slice form, for any digit type and width. (The unrolled fixed-size forms for `u64` digits
/// are the selector's to pick: [`crate::engine::reducer`].)
///
/// Errors: [`Error::ZeroModulus`] for `m = 0`, [`Error::NotApplicable`] when the algorithm
/// does not apply to `m` (Montgomery with an even modulus), and
/// [`Error::InvalidArgument`] for [`Algorithm::Auto`], which only
/// [`crate::modulus`] can resolve (it depends on the modulus and the operation).
pub fn make<L: Limb>(algorithm: Algorithm, m: &Nat<L>) -> Result<Box<dyn Reducer<L>>, Error> {
    Ok(match algorithm {
        Algorithm::Auto => {
            return Err(Error::InvalidArgument(
                "algorithm 'auto' must be resolved to a concrete algorithm by Modulus first"
                    .to_string(),
            ))
        }
        Algorithm::Classical => Box::new(Classical::new(m)?),
        Algorithm::Barrett => Box::new(Barrett::new(m)?),
        Algorithm::Montgomery => Box::new(Montgomery::new(m)?),
        Algorithm::MontgomeryInterleaved => Box::new(MontgomeryInterleaved::new(m)?),
        Algorithm::Radix2Montgomery => Box::new(Radix2Montgomery::new(m)?),
        Algorithm::Radix2MontgomeryRecoded => Box::new(Radix2MontgomeryRecoded::new(m)?),
        Algorithm::NttBarrett => Box::new(NttBarrett::new(m)?),
        Algorithm::NttMontgomery => Box::new(NttMontgomery::new(m)?),
        Algorithm::Hong => Box::new(Hong::new(m)?),
        Algorithm::PseudoMersenne => Box::new(PseudoMersenne::new(m)?),
        Algorithm::Solinas => Box::new(Solinas::new(m)?),
        Algorithm::Nist => Box::new(Nist::new(m)?),
    })
}

/// The arguments [`Reducer::reduce_raw`] accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound<L: Limb> {
    /// Any natural number.
    Unbounded,
    /// Every `x` strictly below this number.
    Below(Nat<L>),
}

impl<L: Limb> Bound<L> {
    /// Whether `x` is within the bound.
    pub fn admits(&self, x: &Nat<L>) -> bool {
        match self {
            Bound::Unbounded => true,
            Bound::Below(b) => x < b,
        }
    }
}

/// Reusable working memory for the reducers, so that loops of multiplications (an
/// exponentiation) allocate nothing after the first call. Buffers grow on demand.
#[derive(Clone, Debug, Default)]
pub struct Scratch<L> {
    /// Holds the double-length product inside [`Reducer::mul`] and [`Reducer::sqr`].
    pub(crate) product: Vec<L>,
    /// The reduction's own working space.
    pub(crate) work: Vec<L>,
    /// Working transforms of the transform-based reducers (`ntt-barrett`,
    /// `ntt-montgomery`): residues modulo the three transform primes.
    pub(crate) transform: Vec<u64>,
    /// 32-bit words, for the generic Solinas reduction of a polynomial in `2^32` on
    /// 64-bit digits (the paper's half-word arithmetic).
    pub(crate) words32: Vec<u32>,
}

impl<L: Limb> Scratch<L> {
    /// Empty scratch space.
    pub fn new() -> Self {
        Scratch {
            product: Vec::new(),
            work: Vec::new(),
            transform: Vec::new(),
            words32: Vec::new(),
        }
    }
}

/// Grows `v` to at least `n` digits and returns its first `n`, zeroed.
pub(crate) fn zeroed<L: Limb>(v: &mut Vec<L>, n: usize) -> &mut [L] {
    if v.len() < n {
        v.resize(n, L::ZERO);
    }
    let s = &mut v[..n];
    s.fill(L::ZERO);
    s
}

/// The standard-representation residue of any `x` for a reducer whose `reduce_raw` takes
/// every `x < b^(2k)` (Barrett's bound): `reduce_raw` there, division with remainder above.
pub(crate) fn standard_residue_below_b2k<L: Limb, R: Reducer<L> + ?Sized>(
    r: &R,
    x: &Nat<L>,
) -> Vec<L> {
    let k = r.width();
    if x.len() <= 2 * k {
        let mut out = vec![L::ZERO; k];
        r.reduce_raw(&mut out, x.limbs(), &mut Scratch::new());
        out
    } else {
        let rem = x.checked_rem(r.modulus()).unwrap_or_default();
        rem.to_padded(k).unwrap_or_else(|| vec![L::ZERO; k])
    }
}

/// A modular reduction algorithm with its precalculation for one modulus.
///
/// The slice methods (`reduce_raw`, `mul`, `sqr`) are the fast path: their preconditions
/// (stated on each) are the caller's to keep, and they are checked only by debug
/// assertions. The `Nat` methods check everything and return [`Error`].
pub trait Reducer<L: Limb>: Send + Sync {
    /// Precalculation for modulus `m`; an error if `m` is zero or not of a form the
    /// algorithm applies to.
    fn new(m: &Nat<L>) -> Result<Self, Error>
    where
        Self: Sized;

    /// Which algorithm this is.
    fn algorithm(&self) -> Algorithm;

    /// The modulus `m`.
    fn modulus(&self) -> &Nat<L>;

    /// `k`, the number of digits of `m`: residues are slices of exactly `k` digits.
    fn width(&self) -> usize {
        self.modulus().len()
    }

    /// The bytes its precalculation holds on the heap: the tables and numbers kept for
    /// the modulus (not the reducer value itself, nor the per-call working space). The
    /// default counts the modulus alone, right for reducers whose other constants are
    /// single digits or inline arrays.
    fn heap_bytes(&self) -> usize {
        self.modulus().heap_bytes()
    }

    /// The arguments `reduce_raw` accepts.
    fn input_bound(&self) -> Bound<L>;

    /// The paper's reduction: `out = x·ρ⁻¹ mod m` (ρ = 1 for the standard representation,
    /// `R = b^k` for Montgomery's). Requires `x < input_bound()` (any number of digits,
    /// high zeros allowed) and `out.len() == width()`.
    fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>);

    /// `out = a·b·ρ⁻¹ mod m`, the residue of the product of the values of residues `a` and
    /// `b` (each `width()` digits, below `m`). `out` must not alias `a` or `b`.
    fn mul(&self, out: &mut [L], a: &[L], b: &[L], scratch: &mut Scratch<L>) {
        let k = self.width();
        let mut product = core::mem::take(&mut scratch.product);
        let p = zeroed(&mut product, 2 * k);
        // The product's transforms, if any, in the kept scratch space.
        crate::nat::mul::mul_slices_buf(p, a, b, &mut scratch.transform);
        self.reduce_raw(out, p, scratch);
        scratch.product = product;
    }

    /// `out = a²·ρ⁻¹ mod m` for a residue `a`; `out` must not alias `a`.
    fn sqr(&self, out: &mut [L], a: &[L], scratch: &mut Scratch<L>) {
        let k = self.width();
        let mut product = core::mem::take(&mut scratch.product);
        let p = zeroed(&mut product, 2 * k);
        crate::nat::mul::sqr_slice_buf(p, a, &mut scratch.transform);
        self.reduce_raw(out, p, scratch);
        scratch.product = product;
    }

    /// The residue of `base^e` by the sliding window of `w` bits (HAC Algorithm 14.85) for
    /// a residue `base`, an exponent with digits `e` of `bits ≥ 1` bits and `1 ≤ w ≤
    /// min(bits, 16)`, when this reducer runs that loop itself; `None` (the default) leaves
    /// it to [`crate::exp`]'s loop over [`Reducer::mul`] and [`Reducer::sqr`]. The
    /// fixed-size reducers run it on arrays with their products inlined, and answer `None`
    /// to arguments outside these bounds.
    fn pow_sliding_window(&self, base: &[L], e: &[L], bits: u64, w: u32) -> Option<Vec<L>> {
        let _ = (base, e, bits, w);
        None
    }

    /// The residue (`width()` digits) of `x` for any `x` (reduced modulo `m` first).
    fn to_residue(&self, x: &Nat<L>) -> Vec<L>;

    /// The value `< m` a residue stands for.
    #[allow(clippy::wrong_self_convention)] // converts out of the reducer's representation
    fn from_residue(&self, r: &[L]) -> Nat<L>;

    /// `x mod m` for `x` within [`Reducer::input_bound`], by the paper's algorithm (for
    /// Montgomery, followed by the conversion `y ↦ y·R mod m`); an error outside it.
    fn reduce(&self, x: &Nat<L>) -> Result<Nat<L>, Error> {
        if !self.input_bound().admits(x) {
            return Err(self.out_of_range());
        }
        let mut out = vec![L::ZERO; self.width()];
        let mut scratch = Scratch::new();
        self.reduce_raw(&mut out, x.limbs(), &mut scratch);
        // out = x·ρ⁻¹ mod m, so x mod m = out·ρ mod m, which is `to_residue(out)`.
        let standard = self.to_residue(&Nat::from_vec(out));
        Ok(Nat::from_vec(standard))
    }

    /// The error for an argument beyond [`Reducer::input_bound`].
    fn out_of_range(&self) -> Error {
        let bound = match self.input_bound() {
            Bound::Unbounded => "no bound".to_string(),
            Bound::Below(b) => {
                format!("x must be below {} (a {}-bit bound)", self.bound_formula(), b.bits())
            }
        };
        Error::OutOfRange { algorithm: self.algorithm().name(), bound }
    }

    /// The bound as the paper writes it, for messages (e.g. `"b^(2k)"`): the registry's.
    fn bound_formula(&self) -> &'static str {
        self.algorithm().info().map_or("the input bound", |i| i.input_bound)
    }
}
