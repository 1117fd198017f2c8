//! Layer 7: the user-facing modulus context, on `u64` digits.
//!
//! A [`Modulus`] holds one engine for `m` ([`crate::engine`]): the reducer chosen by
//! [`choose`] (the auto rule) or forced with [`Modulus::with`], and the code its products
//! and exponentiations run on ([`Modulus::plan`]); all arithmetic modulo `m` goes through it. Values live as
//! [`Residue`]s in the reducer's representation between operations, so a chain of
//! multiplications pays for conversions (Montgomery's `x ↦ x·R mod m`) only at its ends:
//!
//! ```
//! use modred::{Modulus, Nat};
//! let m = Modulus::new(&Nat::from(1_000_003u64))?;
//! let a = m.residue(&Nat::from(2u64));
//! let b = m.pow_vartime(&a, &Nat::from(1_000_002u64))?; // Fermat: 2^(p−1) ≡ 1 mod p
//! assert_eq!(m.to_nat(&b)?, Nat::from(1u64));
//! assert_eq!(m.pow_mod_vartime(&Nat::from(3u64), &Nat::from(4u64))?, Nat::from(81u64));
//! # Ok::<(), modred::Error>(())
//! ```
//!
//! # Residues belong to their modulus
//! Every [`Modulus`] gets an identity when it is made (a number from a process-wide
//! counter, never reused), and every [`Residue`] carries the identity of the modulus that
//! made it. Each method that takes a residue checks it first: a residue of another
//! [`Modulus`] — of another width, another value, or the same value with another
//! algorithm — is [`Error::ForeignResidue`], never a wrong answer, a panic or a hang. The
//! check compares two numbers, neither of them secret, so the constant-time methods stay
//! constant time; on the hot paths it replaces the width check that was there before.
//! A residue's digits are only ever written by its own modulus, so a residue that passes
//! the check has the modulus's width and a value below `m`.
//!
//! # Timing
//! For secrets use the constant-time methods: [`Modulus::mul_ct`], [`Modulus::sqr_ct`],
//! [`Modulus::pow_ct`] (odd moduli; [`crate::ct`] has the slice-level versions), and
//! [`Modulus::add`], [`Modulus::sub`], [`Modulus::neg`], which are constant time too.
//! Exponentiation otherwise is variable time and says so in its name (`*_vartime`): it
//! leaks the exponent. [`Modulus::mul`] and [`Modulus::sqr`] take the time of the chosen
//! reducer, which for classical and Barrett depends on the values in their final
//! corrections, and the conversions [`Modulus::residue`] and [`Modulus::to_nat`] divide
//! or normalize (variable time in the value): keep secrets to the `_ct` methods.

pub mod limits;

pub use limits::{Limits, DEFAULT_MAX_WORK};

use crate::ct::MontgomeryCt;
use crate::engine::core::{arr, arr_mut, with_fixed};
use crate::engine::{self, with_work, Core, Engine};
use crate::error::Error;
use crate::exp::{self, Method};
use crate::kernels;
use crate::nat::Nat;
use crate::reduce::Reducer;
use crate::registry::Algorithm;
use crate::sync::OnceLock;
use alloc::format;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::sync::atomic::{AtomicU64, Ordering};

pub use crate::engine::profile::{self, Form, Profile};
pub use crate::engine::rule::{
    choose, choose_method, choose_method_with, explain, explain_with, Choice,
};
pub use crate::engine::{analysis, plan, Operation, Plan, Power, Product, MAX_ANALYSIS_DIGITS};

/// Constant-time Montgomery arithmetic for one modulus, with the factors that convert
/// between its representation and the modulus's reducer's.
struct CtContext {
    mont: MontgomeryCt<u64>,
    /// `R²·ρ⁻¹ mod m`: a Montgomery product with it maps `v·ρ` to `v·R`.
    into: Vec<u64>,
    /// `ρ mod m`: a Montgomery product with it maps `v·R` to `v·ρ`.
    out_of: Vec<u64>,
}

/// `out = a` when `choice` is 1, unchanged when 0, without a branch on `choice`.
fn ct_select(out: &mut [u64], a: &[u64], choice: u64) {
    // black_box on the mask itself, or LLVM turns the select back into a branch.
    let mask = core::hint::black_box(0u64.wrapping_sub(choice & 1));
    for (o, &x) in out.iter_mut().zip(a) {
        *o = (*o & !mask) | (x & mask);
    }
}

/// Arithmetic modulo one modulus `m > 0`, through one reducer.
///
/// Made with [`Modulus::new`] (the reducer chosen for repeated arithmetic by [`choose`])
/// or [`Modulus::with`] (forced). `m = 1` is allowed: every residue is then 0.
pub struct Modulus {
    /// The code the arithmetic runs on, chosen by the selector ([`crate::engine`]).
    engine: Engine,
    /// The constant-time Montgomery context, made on first use (odd moduli only).
    ct: OnceLock<Result<CtContext, Error>>,
    /// This modulus's identity, which its residues carry ([module docs](self)).
    id: u64,
    /// The limits its requests are held to.
    limits: Limits,
}

/// The identity of the next [`Modulus`]: 2^64 of them outlast any process.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A fresh modulus identity.
fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// The error of a residue of another modulus, out of the hot paths.
#[cold]
#[inline(never)]
fn foreign() -> Error {
    Error::ForeignResidue
}

/// An element of `Z/mZ`, held as a residue of the [`Modulus`] that made it (its
/// reducer's representation: `x mod m`, or `x·R mod m` for Montgomery).
///
/// A residue belongs to its modulus: it carries that modulus's identity, and every
/// [`Modulus`] method given a residue of another modulus returns
/// [`Error::ForeignResidue`] ([`crate::modulus`]). Equal residues belong to the same
/// modulus and stand for the same value.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Residue {
    limbs: Vec<u64>,
    /// The identity of the modulus that made it.
    owner: u64,
}

impl Residue {
    /// The digits of the representation (the reducer's: not the value itself in
    /// Montgomery's or a radix-2 representation; [`Modulus::to_nat`] gives the value).
    pub fn limbs(&self) -> &[u64] {
        &self.limbs
    }
}

impl fmt::Debug for Residue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Residue").field("limbs", &self.limbs).field("modulus", &self.owner).finish()
    }
}

impl fmt::Debug for Modulus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Modulus")
            .field("plan", &self.engine.plan)
            .field("modulus", self.modulus())
            .finish()
    }
}

impl Modulus {
    /// The context for repeated arithmetic modulo `m`, with the reducer [`choose`] picks for
    /// [`Operation::PowMod`] (exponentiations and long chains of multiplications), on the
    /// code the selector picks for it ([`Modulus::plan`]). The rule picks only algorithms
    /// that apply to `m`; should one still fail to build, that is an error, never a silent
    /// switch to another algorithm.
    ///
    /// Error: [`Error::ZeroModulus`] for `m = 0`.
    pub fn new(m: &Nat) -> Result<Self, Error> {
        Self::for_operation(m, Operation::PowMod)
    }

    /// The context modulo `m` with the reducer [`choose`] picks for `op`: for
    /// [`Operation::MulMod`] the fastest single multiplication, for [`Operation::PowMod`]
    /// the fastest exponentiation (mostly squarings), for [`Operation::Reduce`] the fastest
    /// one-off reduction. One-off reductions ([`Modulus::reduce`]) always use the
    /// [`Operation::Reduce`] choice. As [`Modulus::new`] otherwise.
    ///
    /// Error: [`Error::ZeroModulus`] for `m = 0`.
    pub fn for_operation(m: &Nat, op: Operation) -> Result<Self, Error> {
        Self::with_limits(Algorithm::Auto, op, m, Limits::new())
    }

    /// The context modulo `m` with the reducer of `algorithm`; `Algorithm::Auto` is
    /// [`Modulus::new`].
    ///
    /// Errors: [`Error::ZeroModulus`] for `m = 0`; [`Error::NotApplicable`] when the
    /// algorithm does not apply to `m` (Montgomery with an even modulus);
    /// [`Error::TooMuchWork`] when one multiplication by it is over the default work limit
    /// ([`Modulus::with_limits`]).
    pub fn with(algorithm: Algorithm, m: &Nat) -> Result<Self, Error> {
        Self::with_limits(algorithm, Operation::PowMod, m, Limits::new())
    }

    /// The context modulo `m` with the reducer of `algorithm` (`Algorithm::Auto`: the one
    /// [`choose`] picks for `op`, as [`Modulus::for_operation`]; `op` matters only then),
    /// whose requests are held to `limits` ([`limits`]): each request whose estimated work
    /// is over the work limit is refused with [`Error::TooMuchWork`] before it starts.
    /// [`Modulus::new`], [`Modulus::for_operation`] and [`Modulus::with`] use
    /// [`Limits::new`].
    ///
    /// Errors: as [`Modulus::with`]; [`Error::TooMuchWork`] when one multiplication modulo
    /// `m` by the algorithm is over the work limit (checked before any precalculation).
    pub fn with_limits(
        algorithm: Algorithm,
        op: Operation,
        m: &Nat,
        limits: Limits,
    ) -> Result<Self, Error> {
        let engine = engine::build(algorithm, m, op, &limits)?;
        Ok(Modulus { engine, ct: OnceLock::new(), id: next_id(), limits })
    }

    /// The automatic exponentiation context modulo `m` for a caller that only
    /// exponentiates: its one-off reductions run on the exponentiation's reducer
    /// ([`engine::build_for_powers`]). Errors: as [`Modulus::with_limits`].
    pub(crate) fn for_powers(m: &Nat, limits: Limits) -> Result<Self, Error> {
        let engine = engine::build_for_powers(m, &limits)?;
        Ok(Modulus { engine, ct: OnceLock::new(), id: next_id(), limits })
    }

    /// The limits this modulus's requests are held to.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The estimated work of one multiplication modulo `m` by this modulus's algorithm, in
    /// digit operations: its cost model ([`crate::registry::Cost`]) at `m`'s width. An
    /// exponentiation is estimated at [`limits::pow_products`] times this.
    pub fn mul_work(&self) -> u64 {
        self.engine.mul_work
    }

    /// The bytes this modulus holds: the value itself and its precalculation on the heap
    /// (the reducer's tables and constants, the AVX-512 IFMA context, the one-off reducer,
    /// and, once made, the constant-time context and the one-off reductions' factor).
    /// Transform plans shared between moduli and per-call working space are not counted.
    /// A cache of prepared moduli bounds itself by this (the command line's `batch`).
    pub fn memory_bytes(&self) -> usize {
        let ct = match self.ct.get() {
            Some(Ok(c)) => {
                c.mont.heap_bytes()
                    + crate::nat::vec_bytes(&c.into)
                    + crate::nat::vec_bytes(&c.out_of)
            }
            _ => 0,
        };
        core::mem::size_of::<Modulus>() + self.engine.heap_bytes() + ct
    }

    /// A residue of this modulus with these digits (`width` digits, below `m`).
    #[inline]
    fn own(&self, limbs: Vec<u64>) -> Residue {
        Residue { limbs, owner: self.id }
    }

    /// What runs: the algorithm, the code of its products, exponentiations and one-off
    /// reductions, and why (what `modred algos M` prints).
    pub fn plan(&self) -> &Plan {
        &self.engine.plan
    }

    /// The one-digit register code where the exponentiations run on it ([`Power::Word`]).
    fn word_power(&self) -> Option<&crate::exp::word::Word> {
        self.engine.word.as_ref().filter(|_| self.engine.plan.power == Power::Word)
    }

    /// The algorithm of the reducer doing the arithmetic (never `Auto`).
    pub fn algorithm(&self) -> Algorithm {
        self.engine.plan.algorithm
    }

    /// Whether the algorithm was chosen automatically ([`Modulus::new`]).
    pub fn is_auto(&self) -> bool {
        self.engine.plan.auto
    }

    /// The modulus `m`.
    pub fn modulus(&self) -> &Nat {
        self.reducer().modulus()
    }

    /// `x mod m`, as a one-off reduction.
    ///
    /// Automatic context: by the algorithm [`choose`] picks for [`Operation::Reduce`]
    /// (classical, Barrett, a special-form reducer), for any `x`: an `x` beyond that
    /// algorithm's bound goes to classical; a one-digit modulus, by classical reduction in
    /// registers (a digit division by a precomputed reciprocal per digit of `x`, see
    /// [`Plan::reduce`]). Forced context: by the forced algorithm, which enforces
    /// its input bound (Barrett: `x < b^(2k)`; Montgomery: `x < m·R`).
    ///
    /// Errors: [`Error::OutOfRange`] for an `x` beyond a forced algorithm's bound;
    /// [`Error::TooMuchWork`] or [`Error::TooMuchMemory`] for a division over the limits
    /// ([`limits::division_work`], [`limits::division_memory`]).
    ///
    /// The reduction runs in this thread's kept working space (no allocation but the
    /// result's); a Montgomery reducer's `x·R⁻¹` is turned into `x mod m` by one
    /// multiplication by `R² mod m`, computed with the context.
    pub fn reduce(&self, x: &Nat) -> Result<Nat, Error> {
        if let Some(word) = &self.engine.word {
            // Classical reduction by one digit, any x: a digit division per digit of x.
            self.limits.check(limits::division_work(x.len() as u64, 1), || {
                format!("a division of a {}-bit number by a {}-bit modulus", x.bits(), self.bits())
            })?;
            return Ok(Nat::from(word.reduce(x.limbs())));
        }
        let r = self.engine.one_off_reducer();
        let plan = &self.engine.one_off;
        let k = self.engine.m.len() as u64;
        if !plan.bound.admits(x) {
            if !self.is_auto() {
                return Err(r.out_of_range());
            }
            // Only division takes every x; the auto rule may pick a bounded reducer.
            return Modulus::reduce_once(x, self.modulus(), self.limits);
        }
        // Within the bound (x < b^(2k) or so): about one multiplication of its algorithm.
        let algorithm = self.engine.plan.reduce.0;
        let work = algorithm.info().map_or(0, |i| i.cost.mul_work(k));
        self.limits.check(work, || {
            format!("a reduction modulo a {}-bit modulus by {algorithm}", self.bits())
        })?;
        let k = r.width();
        let mut out = vec![0u64; k];
        let fix = plan.fix(r);
        with_work(k, |scratch, copy| {
            r.reduce_raw(&mut out, x.limbs(), scratch);
            if let Some(fix) = fix {
                copy.clear();
                copy.extend_from_slice(&out);
                r.mul(&mut out, copy, fix, scratch);
            }
        });
        Ok(Nat::from_vec(out))
    }

    /// The residue of `x mod m`, for any `x`.
    pub fn residue(&self, x: &Nat) -> Residue {
        self.own(self.reducer().to_residue(x))
    }

    /// The value (below `m`) that `r` stands for.
    ///
    /// Error: [`Error::ForeignResidue`] for a residue of another modulus.
    pub fn to_nat(&self, r: &Residue) -> Result<Nat, Error> {
        Ok(self.value(self.check(r)?))
    }

    /// A uniformly random residue from `rng` ([`Nat::random_below`]`(m)`), feature
    /// `rand_core`. Not constant time in the number of draws (fewer than two on average).
    #[cfg(feature = "rand_core")]
    pub fn random(&self, rng: &mut impl rand_core::RngCore) -> Residue {
        let v = Nat::random_below(self.modulus(), rng).unwrap_or_default();
        self.residue(&v)
    }

    /// The inverse of `r`: the residue `y` with `r·y ≡ 1 (mod m)`, or `None` when `r` and `m`
    /// share a factor (`m = 1`: the residue of 0). Extended Euclid on the value
    /// ([`Nat::inverse_mod`]): variable time, for public values; a secret's inverse modulo
    /// a prime is [`crate::field::PrimeField::inv`] (constant time).
    ///
    /// Error: [`Error::ForeignResidue`] for a residue of another modulus.
    pub fn inverse(&self, r: &Residue) -> Result<Option<Residue>, Error> {
        let v = self.value(self.check(r)?);
        Ok(v.inverse_mod(self.modulus()).map(|y| self.residue(&y)))
    }

    /// The value of the digits of one of this modulus's residues.
    fn value(&self, r: &[u64]) -> Nat {
        self.reducer().from_residue(r)
    }

    /// The residue of 0.
    pub fn zero(&self) -> Residue {
        self.own(vec![0; self.reducer().width()])
    }

    /// The residue of 1 (of 0 when `m = 1`).
    pub fn one(&self) -> Residue {
        self.residue(&Nat::one())
    }

    /// `a + b mod m`. Constant time (fixed-length digit loops, the correction by a mask).
    ///
    /// Error: [`Error::ForeignResidue`] for a residue of another modulus (as for every
    /// method below that takes residues).
    pub fn add(&self, a: &Residue, b: &Residue) -> Result<Residue, Error> {
        let (a, b, m) = (self.check(a)?, self.check(b)?, &self.engine.m[..]);
        let mut sum = vec![0; a.len()];
        let mut out = vec![0; a.len()];
        // a, b < m, so a + b < 2m: subtract m when the sum carried or did not borrow.
        let carry = kernels::add_n(&mut sum, a, b) as u64;
        let borrow = kernels::sub_n(&mut out, &sum, m) as u64;
        let keep_sum = (carry ^ 1) & borrow;
        ct_select(&mut out, &sum, keep_sum);
        Ok(self.own(out))
    }

    /// `a − b mod m`. Constant time.
    pub fn sub(&self, a: &Residue, b: &Residue) -> Result<Residue, Error> {
        let (a, b) = (self.check(a)?, self.check(b)?);
        Ok(self.own(self.sub_digits(a, b)))
    }

    /// `a − b mod m` on residue digits, in constant time.
    fn sub_digits(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let m = &self.engine.m[..];
        let mut out = vec![0; a.len()];
        // −m < a − b < m: add m back when it went below zero (m masked to 0 otherwise).
        let borrow = kernels::sub_n(&mut out, a, b) as u64;
        let mask = core::hint::black_box(0u64.wrapping_sub(borrow));
        let masked: Vec<u64> = m.iter().map(|&d| d & mask).collect();
        kernels::add_assign_n(&mut out, &masked);
        out
    }

    /// `−a mod m`. Constant time.
    pub fn neg(&self, a: &Residue) -> Result<Residue, Error> {
        let a = self.check(a)?;
        Ok(self.own(self.sub_digits(&vec![0; a.len()], a)))
    }

    /// `a·b mod m`, as a new residue. [`Modulus::mul_into`] and [`Modulus::mul_assign`]
    /// compute the same without allocating.
    ///
    /// With the Montgomery reducers on a CPU with AVX-512 IFMA and a modulus of 512 to
    /// 4158 bits, the same Montgomery product is computed in radix 2^52 (see
    /// [`Modulus::mul_into`]).
    #[inline]
    pub fn mul(&self, a: &Residue, b: &Residue) -> Result<Residue, Error> {
        let (a, b) = (self.check(a)?, self.check(b)?);
        Ok(self.own(self.product_vec(a, Some(b))))
    }

    /// `a·b` (`b = None`: `a²`) as new digits. Out of line, and the `Result` of `mul` and
    /// `sqr` made in their (inlined) bodies: a residue returned through memory inside a
    /// `Result` cost a store-forwarding stall, a fifth of a 256-bit product.
    #[inline(never)]
    fn product_vec(&self, a: &[u64], b: Option<&[u64]>) -> Vec<u64> {
        let mut out = vec![0; a.len()];
        match b {
            Some(b) => self.mul_digits(&mut out, a, b),
            None => self.sqr_digits(&mut out, a),
        }
        out
    }

    /// `a² mod m`, as [`Modulus::mul`]; [`Modulus::sqr_into`] and [`Modulus::sqr_assign`]
    /// without allocating.
    #[inline]
    pub fn sqr(&self, a: &Residue) -> Result<Residue, Error> {
        let a = self.check(a)?;
        Ok(self.own(self.product_vec(a, None)))
    }

    /// `out = a·b mod m`, allocating nothing (once `out` has this modulus's width: make it
    /// with [`Modulus::zero`] or reuse a residue). `out` is only written: it may be a
    /// residue of another modulus, and becomes one of this modulus (resized if need be).
    ///
    /// The fast path for repeated multiplications: for the fixed-size Montgomery reducers
    /// (odd moduli of 1 to 8 digits) it calls the unrolled product on the digits directly,
    /// for the Montgomery reducers on a CPU with AVX-512 IFMA from 513 bits (where it
    /// measured faster, `engine::rule::ifma_min_bits`) the radix-2^52 product in
    /// vector registers, and otherwise the
    /// reducer with working space kept per thread (up to 512 digits). Same results as
    /// [`Modulus::mul`]; timing as [`Modulus::mul`] (variable for classical and Barrett,
    /// use [`Modulus::mul_ct`] for secrets).
    ///
    /// ```
    /// use modred::{Modulus, Nat};
    /// let m = Modulus::new(&Nat::from(1_000_003u64)).unwrap();
    /// let (a, b) = (m.residue(&Nat::from(1234u64)), m.residue(&Nat::from(5678u64)));
    /// let mut out = m.zero();
    /// m.mul_into(&mut out, &a, &b)?;
    /// assert_eq!(m.to_nat(&out)?, Nat::from(1234u64 * 5678 % 1_000_003));
    /// # Ok::<(), modred::Error>(())
    /// ```
    #[inline]
    pub fn mul_into(&self, out: &mut Residue, a: &Residue, b: &Residue) -> Result<(), Error> {
        #[cfg(x86_kernels)]
        if let Core::M4Asm(f) = &self.engine.core {
            let (a, b) = (self.four(a)?, self.four(b)?);
            // SAFETY: `Core::M4Asm` is made only on a CPU with BMI2 and ADX.
            unsafe { f.mul_asm_into(self.four_out(out), a, b) };
            return Ok(());
        }
        self.product_into_other(out, a, Some(b))
    }

    /// The four digits of a residue of this 4-digit modulus (the identity check; a residue
    /// that passes it has four digits).
    #[cfg(x86_kernels)]
    #[inline(always)]
    fn four<'a>(&self, r: &'a Residue) -> Result<&'a [u64; 4], Error> {
        match (r.owner == self.id, <&[u64; 4]>::try_from(&r.limbs[..])) {
            (true, Ok(x)) => Ok(x),
            _ => Err(foreign()),
        }
    }

    /// [`Modulus::four`] for a residue that is also written (`mul_assign`, `sqr_assign`).
    #[cfg(x86_kernels)]
    #[inline(always)]
    fn four_mut<'a>(&self, r: &'a mut Residue) -> Result<&'a mut [u64; 4], Error> {
        match (r.owner == self.id, <&mut [u64; 4]>::try_from(&mut r.limbs[..])) {
            (true, Ok(x)) => Ok(x),
            _ => Err(foreign()),
        }
    }

    /// The four digits of an output residue of this 4-digit modulus, which becomes one of
    /// its residues (resized if it belonged to another modulus).
    #[cfg(x86_kernels)]
    #[inline(always)]
    fn four_out<'a>(&self, out: &'a mut Residue) -> &'a mut [u64; 4] {
        if out.owner != self.id || out.limbs.len() != 4 {
            self.adopt(out);
        }
        match <&mut [u64; 4]>::try_from(&mut out.limbs[..]) {
            Ok(x) => x,
            Err(_) => unreachable!("adopted at four digits"),
        }
    }

    /// Makes `out` a residue of this modulus (of its width; the value is then written).
    #[cold]
    #[inline(never)]
    fn adopt(&self, out: &mut Residue) {
        out.limbs.resize(self.engine.m.len(), 0);
        out.owner = self.id;
    }

    /// [`Modulus::mul_into`] (`b = None`: [`Modulus::sqr_into`]) other than by the inlined
    /// 4-digit assembly.
    #[inline(never)]
    fn product_into_other(
        &self,
        out: &mut Residue,
        a: &Residue,
        b: Option<&Residue>,
    ) -> Result<(), Error> {
        let a = self.check(a)?;
        let b = b.map(|b| self.check(b)).transpose()?;
        if out.owner != self.id || out.limbs.len() != a.len() {
            self.adopt(out);
        }
        match b {
            Some(b) => self.mul_digits(&mut out.limbs, a, b),
            None => self.sqr_digits(&mut out.limbs, a),
        }
        Ok(())
    }

    /// `out = a² mod m`, allocating nothing, as [`Modulus::mul_into`].
    #[inline]
    pub fn sqr_into(&self, out: &mut Residue, a: &Residue) -> Result<(), Error> {
        #[cfg(x86_kernels)]
        if let Core::M4Asm(f) = &self.engine.core {
            let a = self.four(a)?;
            // SAFETY: `Core::M4Asm` is made only on a CPU with BMI2 and ADX.
            unsafe { f.sqr_asm_into(self.four_out(out), a) };
            return Ok(());
        }
        self.product_into_other(out, a, None)
    }

    /// `a = a·b mod m` in place, allocating nothing, as [`Modulus::mul_into`] (`a` is an
    /// operand: it must be a residue of this modulus).
    #[inline]
    pub fn mul_assign(&self, a: &mut Residue, b: &Residue) -> Result<(), Error> {
        #[cfg(x86_kernels)]
        if let Core::M4Asm(f) = &self.engine.core {
            let b = self.four(b)?;
            let a = self.four_mut(a)?;
            let x = *a;
            // SAFETY: `Core::M4Asm` is made only on a CPU with BMI2 and ADX.
            unsafe { f.mul_asm_into(a, &x, b) };
            return Ok(());
        }
        self.assign_fixed_or_other(a, Some(b))
    }

    /// [`Modulus::mul_assign`] (`b = None`: [`Modulus::sqr_assign`]) other than by the
    /// inlined 4-digit assembly.
    #[inline(never)]
    fn assign_fixed_or_other(&self, a: &mut Residue, b: Option<&Residue>) -> Result<(), Error> {
        let b = b.map(|b| self.check(b)).transpose()?;
        self.check(a)?;
        let a = &mut a.limbs[..];
        with_fixed!(
            &self.engine.core,
            |f, N| {
                let a = arr_mut::<N>(a);
                let x = *a;
                match b {
                    Some(b) => f.mul_fixed_into(a, &x, arr::<N>(b)),
                    None => f.sqr_fixed_into(a, &x),
                }
            },
            self.assign_other(a, b)
        );
        Ok(())
    }

    /// `a = a² mod m` in place, allocating nothing, as [`Modulus::mul_assign`].
    #[inline]
    pub fn sqr_assign(&self, a: &mut Residue) -> Result<(), Error> {
        #[cfg(x86_kernels)]
        if let Core::M4Asm(f) = &self.engine.core {
            let a = self.four_mut(a)?;
            let x = *a;
            // SAFETY: `Core::M4Asm` is made only on a CPU with BMI2 and ADX.
            unsafe { f.sqr_asm_into(a, &x) };
            return Ok(());
        }
        self.assign_fixed_or_other(a, None)
    }

    /// `out = a·b mod m` on residue digits (`out` of the residue width, checked ones).
    /// The fixed-size products are inlined here; the other paths are calls, so that this
    /// function's frame stays that of the small products. Inlined into its callers
    /// (`product_into_other`, `mul`): one call from the user's code to the product.
    #[inline(always)]
    fn mul_digits(&self, out: &mut [u64], a: &[u64], b: &[u64]) {
        with_fixed!(
            &self.engine.core,
            |f, N| f.mul_fixed_into(arr_mut::<N>(out), arr::<N>(a), arr::<N>(b)),
            self.mul_other(out, a, Some(b))
        )
    }

    /// `out = a² mod m` on residue digits, inlined as [`Modulus::mul_digits`].
    #[inline(always)]
    fn sqr_digits(&self, out: &mut [u64], a: &[u64]) {
        with_fixed!(
            &self.engine.core,
            |f, N| f.sqr_fixed_into(arr_mut::<N>(out), arr::<N>(a)),
            self.mul_other(out, a, None)
        )
    }

    /// `out = a·b mod m` (`b = None`: `a²`) by the IFMA product or the boxed reducer.
    #[inline(never)]
    fn mul_other(&self, out: &mut [u64], a: &[u64], b: Option<&[u64]>) {
        #[cfg(x86_kernels)]
        if let (Core::Ifma(_), Some(ifma)) = (&self.engine.core, &self.engine.ifma) {
            ifma.mul_word(out, a, b.unwrap_or(a));
            return;
        }
        with_work(a.len(), |scratch, _| match b {
            Some(b) => self.reducer().mul(out, a, b, scratch),
            None => self.reducer().sqr(out, a, scratch),
        })
    }

    /// `a = a·b mod m` (`b = None`: `a²`) in place by the IFMA product or the boxed
    /// reducer.
    #[inline(never)]
    fn assign_other(&self, a: &mut [u64], b: Option<&[u64]>) {
        #[cfg(x86_kernels)]
        if let (Core::Ifma(_), Some(ifma)) = (&self.engine.core, &self.engine.ifma) {
            ifma.mul_word_assign(a, b);
            return;
        }
        with_work(a.len(), |scratch, copy| {
            copy.clear();
            copy.extend_from_slice(a);
            match b {
                Some(b) => self.reducer().mul(a, copy, b, scratch),
                None => self.reducer().sqr(a, copy, scratch),
            }
        })
    }

    /// `base^e mod m`, by the method [`choose_method`] picks for the length of `e` (the
    /// active profile's, else the sliding window of [`exp::default_window`] width). `e = 0`
    /// gives 1 (0 when `m = 1`). An automatic context of a one-digit modulus runs the
    /// 16-ary window in registers instead ([`Power::Word`]): the same result, without the
    /// residue vectors and the reducer behind a pointer that cost more than the products
    /// at that size.
    ///
    /// Variable time: leaks the exponent (its length and where its windows fall) and,
    /// through the reducer's corrections, something of the base. Public exponents only.
    ///
    /// Error: [`Error::ForeignResidue`] for a residue of another modulus.
    pub fn pow_vartime(&self, base: &Residue, e: &Nat) -> Result<Residue, Error> {
        let method = crate::engine::rule::method(e.bits());
        if let Some(word) = self.word_power() {
            let x = self.value(self.check(base)?);
            self.check_pow(e, method)?;
            let y = word.pow(word.reduce(x.limbs()), e);
            return Ok(self.residue(&Nat::from(y)));
        }
        self.pow_with_vartime(base, e, method)
    }

    /// `base^e mod m` by `method` (costs on [`Method`]). Variable time, as
    /// [`Modulus::pow_vartime`].
    ///
    /// With the Montgomery reducers (`montgomery`, `montgomery-interleaved`), a modulus of
    /// 512 to 4158 bits and a CPU with AVX-512 IFMA, the same method runs in radix 2^52,
    /// eight digits to a vector register (`engine::ifma`; the base is converted
    /// once, the result back once). Same result; at 2048 bits 3.4–7 times faster in
    /// `cargo bench -p modred-bench --bench rsa_sizes` on a shared 2-core machine. On a CPU
    /// with AVX2 and without BMI2/ADX, a modulus of 9 to 32 digits runs it in radix 2^28,
    /// four digits to a vector register (`engine::avx2`).
    ///
    /// Errors: [`Error::InvalidArgument`] for a window outside `1..=16`,
    /// [`Error::ForeignResidue`] for a residue of another modulus, [`Error::TooMuchWork`]
    /// when its products ([`limits::pow_products`]) times one multiplication are over the
    /// work limit, [`Error::TooMuchMemory`] when its window table and working space
    /// ([`limits::pow_memory`]) are over the memory limit, [`Error::OutOfMemory`] when the
    /// system refuses the table.
    pub fn pow_with_vartime(
        &self,
        base: &Residue,
        e: &Nat,
        method: Method,
    ) -> Result<Residue, Error> {
        let base = self.check(base)?;
        self.check_pow(e, method)?;
        if let Some(even) = &self.engine.even {
            let y = even.pow(&self.value(base), e, method)?;
            return Ok(self.residue(&y));
        }
        #[cfg(x86_kernels)]
        if let Some(ifma) = &self.engine.ifma {
            let y = ifma.pow_vartime(&self.value(base), e, method)?;
            return Ok(self.residue(&y));
        }
        #[cfg(x86_kernels)]
        if let Some(avx2) = &self.engine.avx2 {
            let y = avx2.pow_vartime(&self.value(base), e, method)?;
            return Ok(self.residue(&y));
        }
        let limbs = match &self.engine.core {
            Core::Hong(h) => exp::hong::pow_vartime(h, base, e, method)?,
            _ => exp::pow_vartime(self.reducer(), base, e, method)?,
        };
        Ok(self.own(limbs))
    }

    /// Where this context's exponentiation to `e` may run in the lanes of the batch API
    /// (`engine::lanes`), the lanes' size of its modulus (28-bit digits: jobs of one size
    /// share a group): an automatic context of an odd modulus whose size
    /// [`engine::rule::lanes_power`] takes, the lanes' fixed window within the work limit
    /// and a group's memory (`engine::lanes::memory`) within the memory limit. `None`
    /// elsewhere.
    pub(crate) fn lanes_group(&self, e: &Nat) -> Option<usize> {
        #[cfg(x86_kernels)]
        {
            let admitted = self.is_auto()
                && self.modulus().is_odd()
                && engine::rule::lanes_power(self.bits())
                && self.check_pow(e, Method::FixedWindow(engine::lanes::window(e.bits()))).is_ok()
                && engine::lanes::memory(self.bits(), e.bits()) <= self.limits.max_memory;
            admitted.then(|| engine::lanes::digits_for_bits(self.bits()))
        }
        #[cfg(not(x86_kernels))]
        {
            let _ = e;
            None
        }
    }

    /// The checks of an exponentiation to `e` by `method` before it starts: the method,
    /// the work limit and the memory limit (errors of [`Modulus::pow_with_vartime`]).
    fn check_pow(&self, e: &Nat, method: Method) -> Result<(), Error> {
        exp::check_method(method)?;
        let products = limits::pow_products(e.bits(), method);
        self.limits.check(products.saturating_mul(self.engine.mul_work), || {
            format!(
                "an exponentiation to a {}-bit exponent modulo a {}-bit modulus by {} \
                 ({} multiplications)",
                e.bits(),
                self.bits(),
                self.algorithm(),
                limits::amount(products)
            )
        })?;
        let k = self.engine.pow_digits() as u64;
        self.limits.check_memory(limits::pow_memory(self.algorithm(), k, method), || {
            format!(
                "an exponentiation with a {} window table modulo a {}-bit modulus by {}",
                crate::engine::profile::method_name(method),
                self.bits(),
                self.algorithm()
            )
        })
    }

    /// `x^e mod m` for any `x`, `e` (`x^0 = 1`; everything is 0 when `m = 1`), without
    /// keeping a context, variable time. A one-digit modulus exponentiates in registers
    /// (`exp::word`: the 16-ary window on Montgomery's one-digit products, an even `m`
    /// split into its odd part and a power of two, recombined by CRT); one whose odd
    /// part has at most [`crate::engine::rule::ONCE_FIXED_MAX_DIGITS`] digits runs the
    /// fixed-size Montgomery products on that odd part straight from its digits, the base
    /// converted by one division and an even modulus split as its context would
    /// (`engine::once`); a longer one gets the automatic
    /// exponentiation context of [`Modulus::with_limits`] for this exponentiation alone,
    /// without the separate reducer of one-off reductions.
    /// [`crate::engine::rule::context_never_pays`] says when `auto` takes it at every use.
    ///
    /// Errors: [`Error::ZeroModulus`]; [`Error::TooMuchWork`] or [`Error::TooMuchMemory`]
    /// when the exponentiation is over `limits`, checked before it runs.
    pub fn pow_mod_once(x: &Nat, e: &Nat, m: &Nat, limits: Limits) -> Result<Nat, Error> {
        let word = match m.limbs() {
            [digit] => exp::word::Word::new(*digit),
            _ => None,
        };
        let Some(word) = word else {
            if m.is_zero() {
                return Err(Error::ZeroModulus);
            }
            let method = crate::engine::rule::method(e.bits());
            if let Some(y) = crate::engine::once::pow(x, e, m, method, &limits) {
                return y;
            }
            return Modulus::for_powers(m, limits)?.pow_mod_vartime(x, e);
        };
        let method = Method::FixedWindow(exp::word::WINDOW);
        let mul_work = Algorithm::Classical.info().map_or(0, |i| i.cost.mul_work(1));
        let products = limits::pow_products(e.bits(), method);
        limits.check(products.saturating_mul(mul_work), || {
            format!(
                "an exponentiation to a {}-bit exponent modulo a {}-bit modulus ({} \
                 multiplications)",
                e.bits(),
                m.bits(),
                limits::amount(products)
            )
        })?;
        Ok(Nat::from(word.pow(word.reduce(x.limbs()), e)))
    }

    /// `x·y mod m` for any `x`, `y`, without a context: each factor longer than `m`
    /// reduced first, then the product and one division ([`Nat::div_rem`]: Algorithm D,
    /// or the recursive division from [`crate::nat::DIV_RECURSIVE_THRESHOLD`] digits).
    /// For a modulus used once this is cheaper than any context, whose preparation
    /// (Montgomery's `R² mod m`, Barrett's `μ`, the transforms of `m`) costs about a
    /// division by itself; [`crate::engine::rule::once_pays`] says when `auto` takes it.
    ///
    /// Errors: [`Error::ZeroModulus`]; [`Error::TooMuchWork`] or [`Error::TooMuchMemory`]
    /// when the divisions and the product are over `limits` ([`limits::division_work`],
    /// [`limits::division_memory`]), checked before any of them runs.
    pub fn mul_mod_once(x: &Nat, y: &Nat, m: &Nat, limits: Limits) -> Result<Nat, Error> {
        let k = m.len() as u64;
        if k == 0 {
            return Err(Error::ZeroModulus);
        }
        let (xl, yl) = (x.len() as u64, y.len() as u64);
        let what = || {
            format!(
                "a product of a {}-bit and a {}-bit number modulo a {}-bit modulus",
                x.bits(),
                y.bits(),
                m.bits()
            )
        };
        let reduce_work = |l: u64| if l > k { limits::division_work(l, k) } else { 0 };
        let work = reduce_work(xl)
            .saturating_add(reduce_work(yl))
            .saturating_add(crate::registry::product_work(k))
            .saturating_add(limits::division_work(2 * k, k));
        limits.check(work, what)?;
        let longest = xl.max(yl).max(2 * k);
        let memory = limits::division_memory(longest)
            .saturating_add(limits::product_memory(Algorithm::Classical, k));
        limits.check_memory(memory, what)?;
        let reduced = |v: &Nat| if v.len() > m.len() { v.checked_rem(m) } else { None };
        let (xr, yr) = (reduced(x), reduced(y));
        let product = xr.as_ref().unwrap_or(x).mul(yr.as_ref().unwrap_or(y));
        Ok(product.checked_rem(m).expect("the modulus is not zero"))
    }

    /// `x mod m` for any `x` without a context: one division ([`Nat::div_rem`]), as
    /// [`Modulus::mul_mod_once`].
    ///
    /// Errors: [`Error::ZeroModulus`]; [`Error::TooMuchWork`] or [`Error::TooMuchMemory`]
    /// for a division over `limits`.
    pub fn reduce_once(x: &Nat, m: &Nat, limits: Limits) -> Result<Nat, Error> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        let what =
            || format!("a division of a {}-bit number by a {}-bit modulus", x.bits(), m.bits());
        limits.check(limits::division_work(x.len() as u64, m.len() as u64), what)?;
        limits.check_memory(limits::division_memory(x.len() as u64), what)?;
        Ok(x.checked_rem(m).expect("the modulus is not zero"))
    }

    /// `x·y mod m` for any `x`, `y`.
    pub fn mul_mod(&self, x: &Nat, y: &Nat) -> Nat {
        let (a, b) = (self.reducer().to_residue(x), self.reducer().to_residue(y));
        let mut out = vec![0; a.len()];
        self.mul_digits(&mut out, &a, &b);
        self.value(&out)
    }

    /// `x^e mod m` for any `x`, `e` (`x^0 = 1`, also for `x = 0`; everything is 0 when
    /// `m = 1`). Variable time, as [`Modulus::pow_vartime`].
    pub fn pow_mod_vartime(&self, x: &Nat, e: &Nat) -> Result<Nat, Error> {
        if let Some(word) = self.word_power() {
            self.check_pow(e, Method::FixedWindow(exp::word::WINDOW))?;
            return Ok(Nat::from(word.pow(word.reduce(x.limbs()), e)));
        }
        let r = self.pow_vartime(&self.residue(x), e)?;
        Ok(self.value(&r.limbs))
    }

    /// The constant-time context, or why there is none (an even modulus).
    fn ct_context(&self) -> Result<&CtContext, Error> {
        let ct = self.ct.get_or_init(|| {
            let mont = MontgomeryCt::new(self.modulus())?;
            let k = mont.width();
            if k != self.reducer().width() {
                return Err(Error::NotApplicable {
                    algorithm: self.algorithm().name(),
                    reason: "its residues are wider than the modulus; use a context made \
                             with Modulus::new for constant-time arithmetic"
                        .to_string(),
                });
            }
            // This modulus's residues hold v·ρ mod m (ρ = 1, 2^bits(m), b^k, … by reducer);
            // MontgomeryCt's hold v·R mod m, R = 2^(64k). With G = ρ mod m (the residue of 1)
            // and F = R²·ρ⁻¹ mod m (R² mod m read as a residue), one Montgomery product
            // converts each way: (v·ρ)·F·R⁻¹ = v·R and (v·R)·G·R⁻¹ = v·ρ. Both factors
            // depend on m only, so computing them in variable time leaks nothing secret.
            let m = self.modulus();
            let r2 = Nat::power_of_two(128 * k as u64).checked_rem(m).unwrap_or_default();
            let pad = |n: Nat| n.to_padded(k).unwrap_or_else(|| vec![0; k]);
            let into = pad(self.reducer().from_residue(&pad(r2)));
            let out_of = self.reducer().to_residue(&Nat::one());
            Ok(CtContext { mont, into, out_of })
        });
        ct.as_ref().map_err(Clone::clone)
    }

    /// The constant-time Montgomery arithmetic, or why there is none (an even modulus).
    fn ct(&self) -> Result<&MontgomeryCt<u64>, Error> {
        self.ct_context().map(|c| &c.mont)
    }

    /// Whether residues are already in [`MontgomeryCt`]'s representation (`x·R mod m`,
    /// `R = 2^(64k)`), as those of the two word-level Montgomery reducers are.
    fn residues_are_montgomery(&self) -> bool {
        matches!(self.algorithm(), Algorithm::Montgomery | Algorithm::MontgomeryInterleaved)
    }

    /// The digits of a residue of this modulus in Montgomery's representation, in constant
    /// time.
    fn to_montgomery_ct(&self, ct: &MontgomeryCt<u64>, r: &[u64], t: &mut [u64]) -> Vec<u64> {
        if self.residues_are_montgomery() {
            return r.to_vec();
        }
        let mut out = vec![0; r.len()];
        let into = self.ct_context().map(|c| c.into.as_slice()).unwrap_or(&[]);
        ct.mul(&mut out, r, into, t);
        out
    }

    /// Back from Montgomery's representation to this modulus's, in constant time.
    fn out_of_montgomery_ct(&self, ct: &MontgomeryCt<u64>, r: Vec<u64>, t: &mut [u64]) -> Residue {
        if self.residues_are_montgomery() {
            return self.own(r);
        }
        let mut out = vec![0; r.len()];
        let out_of = self.ct_context().map(|c| c.out_of.as_slice()).unwrap_or(&[]);
        ct.mul(&mut out, &r, out_of, t);
        self.own(out)
    }

    /// `a·b mod m` in constant time (no branch or memory index depends on `a` or `b`), by
    /// [`MontgomeryCt::mul`]; for a modulus whose reducer is not Montgomery's, the
    /// residues are converted in and out by constant-time multiplications.
    ///
    /// Errors: [`Error::NotApplicable`] for an even modulus, [`Error::ForeignResidue`] for
    /// a residue of another modulus.
    pub fn mul_ct(&self, a: &Residue, b: &Residue) -> Result<Residue, Error> {
        let (a, b) = (self.check(a)?, self.check(b)?);
        // The product and, for a reducer other than Montgomery's, three conversions.
        self.check_ct_work(4, "a constant-time multiplication")?;
        let ct = self.ct()?;
        let mut t = vec![0; ct.scratch_len()];
        let (a, b) = (self.to_montgomery_ct(ct, a, &mut t), self.to_montgomery_ct(ct, b, &mut t));
        let mut out = vec![0; a.len()];
        ct.mul(&mut out, &a, &b, &mut t);
        Ok(self.out_of_montgomery_ct(ct, out, &mut t))
    }

    /// `a² mod m` in constant time, as [`Modulus::mul_ct`].
    ///
    /// Errors: as [`Modulus::mul_ct`].
    pub fn sqr_ct(&self, a: &Residue) -> Result<Residue, Error> {
        self.mul_ct(a, a)
    }

    /// `base^e mod m` for a secret `base` and a secret exponent `e < 2^(64k)` (`k` the
    /// number of 64-bit digits of `m`), in constant time: the exponent is read as exactly
    /// `64k` bits by [`MontgomeryCt::pow`] (fixed window, every table entry read, selection
    /// by masks), so the time depends on `k` only. Odd moduli only (RSA, DH and ECC
    /// moduli are odd). What is not hidden: the number of digits of `e` as a [`Nat`]
    /// (a normalized `Nat` has no leading zero digits), which decides only whether the
    /// call is refused.
    ///
    /// Errors: [`Error::NotApplicable`] for an even modulus, [`Error::OutOfRange`] for an
    /// exponent of more than `64k` bits, [`Error::ForeignResidue`] for a residue of another
    /// modulus.
    pub fn pow_ct(&self, base: &Residue, e: &Nat) -> Result<Residue, Error> {
        let base = self.check(base)?;
        // The exponentiation's products over the modulus's width, and the conversions.
        let k = self.engine.m.len();
        let products = crate::ct::pow_products(64 * k, k, 64).saturating_add(4);
        self.check_ct_work(products, "a constant-time exponentiation")?;
        let ct = self.ct()?;
        let k = ct.width();
        let Some(e) = e.to_padded(k) else {
            return Err(Error::OutOfRange {
                algorithm: "constant-time exponentiation",
                bound: format!("the exponent must be below 2^{} (the modulus's width)", 64 * k),
            });
        };
        let mut t = vec![0; ct.scratch_len()];
        let base = self.to_montgomery_ct(ct, base, &mut t);
        let mut out = vec![0; k];
        ct.pow(&mut out, &base, &e);
        Ok(self.out_of_montgomery_ct(ct, out, &mut t))
    }

    /// The work limit's check of `products` constant-time Montgomery products at this
    /// width (CIOS, quadratic whatever the reducer: at transform sizes more than the
    /// reducer's own products).
    fn check_ct_work(&self, products: u64, what: &str) -> Result<(), Error> {
        let work = products.saturating_mul(limits::ct_product_work(self.engine.m.len() as u64));
        self.limits.check(work, || format!("{what} modulo a {}-bit modulus", self.bits()))
    }

    /// The number of bits of `m`.
    fn bits(&self) -> u64 {
        self.modulus().bits()
    }

    /// The reducer of the products (conversions, the generic paths).
    fn reducer(&self) -> &dyn Reducer<u64> {
        self.engine.core.reducer()
    }

    /// The digits of `r`, after checking that it is a residue of this modulus (so of its
    /// width, and below `m`).
    #[inline(always)]
    fn check<'a>(&self, r: &'a Residue) -> Result<&'a [u64], Error> {
        if r.owner == self.id {
            Ok(&r.limbs)
        } else {
            Err(foreign())
        }
    }
}
