//! Layer 4: exact transform multiplication — number-theoretic transforms over three
//! word-size primes, recombined by the Chinese remainder theorem.
//!
//! Two products:
//! - the **linear convolution** ([`mul`], [`sqr`], [`mul_prepared`]): the full product of
//!   two digit strings;
//! - the **cyclic convolution** ([`cyclic_mul_prepared`], [`cyclic_mul`]): the product
//!   modulo `B^n − 1` (`B = 2^L::BITS`), which paper 001's separation principle uses for
//!   the second product of a reduction.
//!
//! A fixed operand's transform is a [`Transform`], computed once and reused (the
//! precalculated transforms of paper 001 §I-E and the shared operand of §IV-A).
//!
//! # Engines
//! Three engines compute the same products; which one is chosen per transform at run
//! time, in one place (`pick`):
//! - the **IFMA engine** (`ntt/ifma.rs`, its vector passes in
//!   `kernels/arch/avx512_ifma/ntt.rs`; x86-64 with AVX-512 IFMA, 64-bit digits, not with
//!   the `portable` feature): two primes below 2^50, each digit cut into two 32-bit pieces,
//!   eight residues per instruction — about three times the speed of the scalar engine
//!   and faster than GMP's `mpz_mul` from 2^16 to 2^22 bits (docs/benchmarks.md);
//! - else the **FMA engine** (`ntt/fma.rs`, its vector passes in
//!   `kernels/arch/avx2/ntt.rs`; x86-64 with AVX2 and FMA, 64-bit digits, not with
//!   `portable`, from [`FMA_MIN_PIECES`] pieces): the same primes, pieces and
//!   recombination, the residues in `f64` and reduced with fused multiply-adds, four per
//!   instruction; its portable twin (scalar `f64`) runs in the tests everywhere;
//! - the **scalar engine** (everything else, and lengths below the others' smallest):
//!   three primes below 2^62, one coefficient per digit.
//!
//! # Exactness
//! Scalar engine: each digit is one coefficient (`d < 2^w`, `w = L::BITS ≤ 64`). A
//! coefficient of the product of digit strings of lengths `la ≤ lb` is a sum of at most
//! `la` products `(2^w − 1)² < 2^128`, so it is below `la·2^128`; for the cyclic product
//! of length `n` it is below `n·2^128`. The three primes lie in `(2^61, 2^62)`, so their
//! product exceeds `2^183`: the coefficients are recovered exactly as long as the shorter
//! operand (or the cyclic length) has fewer than `2^55` digits — for every operand that
//! fits in memory, and in particular far beyond the 2^30 bits (2^24 words) this layer
//! promises. The transform lengths reach `3·2^33` (the primes are `c·3·2^33 + 1`).
//!
//! IFMA engine: a coefficient is a sum of at most `la` products of 32-bit pieces
//! (`la` counted in pieces), below `la·2^64`; the two primes' product exceeds `2^99.99`,
//! so the coefficients are exact while the shorter operand (or the cyclic length) has
//! fewer than `2^35` pieces — operands of up to 2^40 bits, again beyond 2^30. Its
//! lengths reach `3·2^32` pieces. (Details and the lazy-reduction bounds in `ntt/ifma.rs`.)
//!
//! FMA engine: the IFMA engine's coefficients, primes and bound; its floating-point
//! products are exact modular arithmetic by the error bound proved in `ntt/fma.rs`.
//!
//! The scalar and IFMA engines round nowhere: their transforms are exact modular
//! arithmetic.
//!
//! # Lengths
//! Transform lengths are `2^j` and `3·2^j` (a radix-3 pass in front of the radix-2
//! ones), so a product never pays more than 4/3 of the length it needs, instead of up to
//! 2 for powers of two only.

mod cache;
pub(crate) mod fma;
#[cfg(x86_kernels_compiled)]
mod ifma;
mod prime;
mod transform;

use crate::error::Error;
use crate::limb::Limb;
use alloc::format;
use alloc::string::ToString;
use alloc::sync::Arc;
use alloc::vec::Vec;
use prime::PRIMES;
use transform::Plan;

/// Whether `n` is a transform length: `2^j` or `3·2^j` (up to `3·2^33`).
pub fn is_transform_len(n: usize) -> bool {
    transform::is_transform_len(n)
}

/// The smallest transform length `≥ min`: the next of 1, 2, 3, 4, 6, 8, 12, 16, 24, …
pub fn transform_len_at_least(min: usize) -> usize {
    transform::transform_len_at_least(min)
}

/// Whether the AVX-512 IFMA engine may be chosen at all: where the x86-64 kernels are
/// used (`x86_kernels`: x86-64, not the `portable` feature, not Miri). Whether it is then depends on the CPU
/// ([`use_ifma`]).
const IFMA_ALLOWED: bool = cfg!(x86_kernels);

/// Whether a product of `L` digits runs on the IFMA engine at `pieces` 32-bit pieces:
/// `allow` (the caller's choice, [`IFMA_ALLOWED`] outside the tests), `u64` digits (not
/// the op-counting `Counted<u64>`, whose products keep the scalar engine and its
/// thresholds, so that operation counts do not change with the CPU), a length of that
/// engine and a CPU with AVX-512F and IFMA ([`crate::kernels::cpu::avx512_ifma`]).
#[allow(unused_variables)]
#[cfg_attr(not(x86_kernels_compiled), allow(clippy::extra_unused_type_parameters))]
fn use_ifma<L: Limb>(pieces: usize, allow: bool) -> bool {
    #[cfg(x86_kernels_compiled)]
    {
        allow
            && core::any::TypeId::of::<L>() == core::any::TypeId::of::<u64>()
            && ifma::is_len(pieces)
            && crate::kernels::cpu::avx512_ifma()
    }
    #[cfg(not(x86_kernels_compiled))]
    {
        false
    }
}

/// Whether products of `L` digits (at lengths that engine takes) run on the AVX-512
/// IFMA engine: `u64` digits, a CPU with AVX-512F and IFMA, not the `portable` feature.
/// The transform thresholds of [`crate::nat`] depend on it.
pub fn uses_ifma<L: Limb>() -> bool {
    use_ifma::<L>(1 << 10, IFMA_ALLOWED)
}

/// Pieces from which the FMA engine runs rather than the scalar engine (where the CPU
/// has AVX2 and FMA but not AVX-512 IFMA): 1.3–2.8 times as fast from 16 pieces (the
/// smallest length measured; the engine's start at 8) up (docs/benchmarks.md, "Huge
/// operands without AVX-512 IFMA").
pub const FMA_MIN_PIECES: usize = 16;

/// Which engines a product may use: the library's choice ([`allowed`]) or a test's.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Allow {
    /// The IFMA engine, where the CPU has it.
    #[cfg_attr(not(x86_kernels_compiled), allow(dead_code))]
    pub(crate) ifma: bool,
    /// The FMA engine with this kernel, from this many pieces on.
    pub(crate) fma: Option<(fma::Kernel, usize)>,
}

impl Allow {
    /// The scalar engine only.
    #[cfg(test)]
    pub(crate) const SCALAR: Allow = Allow { ifma: false, fma: None };
}

/// The library's choice: the IFMA engine where allowed ([`IFMA_ALLOWED`]), the FMA
/// engine's vector kernel where the CPU has AVX2 and FMA ([`fma::vector_kernel`]) from
/// [`FMA_MIN_PIECES`] pieces.
fn allowed() -> Allow {
    Allow { ifma: IFMA_ALLOWED, fma: fma::vector_kernel().map(|k| (k, FMA_MIN_PIECES)) }
}

/// The two-prime engine over 32-bit pieces for a transform of `n` pieces of `L` digits,
/// or `None` for the scalar engine: the one place that chooses. IFMA first (see
/// [`use_ifma`]), else the FMA engine where `allow` has it, for `u64` digits (as IFMA:
/// the op-counting digit keeps the scalar engine), at its lengths from its minimum.
fn pick<L: Limb>(n: usize, allow: Allow) -> Option<Pieces> {
    #[cfg(x86_kernels_compiled)]
    if use_ifma::<L>(n, allow.ifma) {
        return Some(Pieces::Ifma(ifma::Plan::get(n)));
    }
    match allow.fma {
        Some((k, min))
            if core::any::TypeId::of::<L>() == core::any::TypeId::of::<u64>()
                && fma::is_len(n)
                && n >= min =>
        {
            Some(Pieces::Fma(fma::Plan::get(n), k))
        }
        _ => None,
    }
}

/// A two-prime engine over 32-bit pieces with its plan: both leave coefficient `i` as
/// `x[i] + p1·x[n + i]` ([`coefficient`]).
#[derive(Clone, Debug)]
enum Pieces {
    /// AVX-512 IFMA ([`ifma`]); made only where [`use_ifma`] found the CPU features.
    #[cfg(x86_kernels_compiled)]
    Ifma(Arc<ifma::Plan>),
    /// Double precision with FMA ([`fma`]); the kernel's CPU features checked by
    /// [`fma::vector_kernel`] where it is the vector one.
    Fma(Arc<fma::Plan>, fma::Kernel),
}

impl Pieces {
    /// Forward transforms of the 64-bit digits `a` into `out` (`2n` words).
    fn forward<L: Limb>(&self, a: &[L], out: &mut [u64]) {
        match self {
            // SAFETY: an IFMA engine is made only where the CPU has AVX-512F and IFMA.
            #[cfg(x86_kernels_compiled)]
            Pieces::Ifma(plan) => unsafe { ifma::forward_digits(plan, a, out) },
            Pieces::Fma(plan, k) => fma::forward_digits(plan, *k, a, out),
        }
    }

    /// `x ← x ⋆ y` pointwise (`None`: `x ← x ⋆ x`).
    fn pointwise(&self, x: &mut [u64], y: Option<&[u64]>) {
        match self {
            // SAFETY: as in `forward`.
            #[cfg(x86_kernels_compiled)]
            Pieces::Ifma(plan) => unsafe { ifma::pointwise(plan, x, y) },
            Pieces::Fma(plan, k) => fma::pointwise(plan, *k, x, y),
        }
    }

    /// Inverse transforms and the recombination into `x1`, `x2` ([`coefficient`]).
    fn inverse_crt(&self, x: &mut [u64]) {
        match self {
            // SAFETY: as in `forward`.
            #[cfg(x86_kernels_compiled)]
            Pieces::Ifma(plan) => unsafe { ifma::inverse_crt(plan, x) },
            Pieces::Fma(plan, k) => fma::inverse_crt(plan, *k, x),
        }
    }
}

/// Coefficient `i` after [`Pieces::inverse_crt`] at `n` pieces.
#[inline(always)]
fn coefficient(x: &[u64], n: usize, i: usize) -> u128 {
    x[i] as u128 + fma::PRIMES[0] as u128 * x[n + i] as u128
}

/// Whether products of `L` digits (at lengths that engine takes, from
/// [`FMA_MIN_PIECES`]) run on the FMA engine: `u64` digits, a CPU with AVX2 and FMA but
/// without AVX-512 IFMA (which [`uses_ifma`] takes), not the `portable` feature. The
/// transform thresholds of [`crate::nat`] depend on it.
pub fn uses_fma<L: Limb>() -> bool {
    !uses_ifma::<L>()
        && core::any::TypeId::of::<L>() == core::any::TypeId::of::<u64>()
        && fma::vector_kernel().is_some()
}

/// Number of significant 32-bit pieces of the (normalized, nonempty) 64-bit digit
/// string `a`.
fn pieces<L: Limb>(a: &[L]) -> usize {
    let top = a[a.len() - 1].to_u64();
    2 * a.len() - usize::from(top >> 32 == 0)
}

/// The engine a [`Transform`] was computed with.
#[derive(Clone, Debug)]
enum Engine {
    /// Three primes below 2^62, one coefficient per digit ([`transform`]).
    Scalar(Arc<Plan>),
    /// Two primes below 2^50, two coefficients per 64-bit digit (AVX-512 IFMA or FMA,
    /// [`Pieces`]): length `2n` pieces for `n` digits.
    Pieces(Pieces),
}

/// The transform of one operand at one length, kept for reuse: the residue vectors of
/// the transform (one per prime) of the engine that computed it.
#[derive(Clone, Debug)]
pub struct Transform {
    /// Transform length in digits.
    n: usize,
    engine: Engine,
    data: Vec<u64>,
    /// Digits of the operand (without high zeros), for the length checks.
    digits: usize,
    /// The operand's lowest 32-bit piece (two-prime engines: see
    /// [`carry_linear_pieces`]).
    low: u64,
}

impl Transform {
    /// The bytes of its residue vectors on the heap (the plan it shares is not counted).
    pub(crate) fn heap_bytes(&self) -> usize {
        crate::nat::vec_bytes(&self.data)
    }

    /// The transform of the digit string `a` (least significant first) at length `n`.
    ///
    /// Errors: `n` is not a transform length ([`is_transform_len`]) or `a` has more
    /// significant digits than `n`.
    pub fn new<L: Limb>(a: &[L], n: usize) -> Result<Transform, Error> {
        Transform::new_with(a, n, allowed())
    }

    /// [`Transform::new`] on the engines `allow` has.
    pub(crate) fn new_with<L: Limb>(a: &[L], n: usize, allow: Allow) -> Result<Transform, Error> {
        if !is_transform_len(n) {
            return Err(Error::InvalidArgument(format!(
                "{n} is not a transform length (2^j or 3·2^j)"
            )));
        }
        let digits = crate::kernels::normalized_len(a);
        if digits > n {
            return Err(Error::InvalidArgument(format!(
                "an operand of {digits} digits does not fit a transform of length {n}"
            )));
        }
        if let Some(e) = pick::<L>(2 * n, allow) {
            let mut data = crate::modulus::limits::try_zeroed(4 * n, 0u64)?;
            e.forward(&a[..digits], &mut data);
            let low = a.first().map_or(0, |d| d.to_u64() & 0xffff_ffff);
            return Ok(Transform { n, engine: Engine::Pieces(e), data, digits, low });
        }
        let plan = Plan::get(n);
        let mut data = crate::modulus::limits::try_zeroed(3 * n, 0u64)?;
        forward_into(&plan, &a[..digits], &mut data);
        Ok(Transform { n, engine: Engine::Scalar(plan), data, digits, low: 0 })
    }

    /// The transform length `n`.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Always false: a transform has length at least 1.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Significant digits of the operand it was computed from.
    pub fn digits(&self) -> usize {
        self.digits
    }
}

/// Forward transforms of `a` (`≤ n` digits) into `out` (`3n` values, prime-major).
fn forward_into<L: Limb>(plan: &Plan, a: &[L], out: &mut [u64]) {
    let n = plan.n;
    for (j, part) in out.chunks_exact_mut(n).enumerate() {
        let pr = &PRIMES[j];
        for (o, d) in part.iter_mut().zip(a) {
            *o = pr.enter(d.to_u64());
        }
        part[a.len()..].fill(0);
        plan.forward(j, part);
    }
}

/// `x ← x ⋆ y` pointwise (Montgomery multiplication: both in Montgomery form, result too).
fn pointwise(plan: &Plan, x: &mut [u64], y: &[u64]) {
    let n = plan.n;
    for (j, (xs, ys)) in x.chunks_exact_mut(n).zip(y.chunks_exact(n)).enumerate() {
        let pr = &PRIMES[j];
        for (a, &b) in xs.iter_mut().zip(ys) {
            *a = pr.mul(*a, b);
        }
    }
}

/// `x ← x ⋆ x` pointwise.
fn pointwise_sqr(plan: &Plan, x: &mut [u64]) {
    let n = plan.n;
    for (j, xs) in x.chunks_exact_mut(n).enumerate() {
        let pr = &PRIMES[j];
        for a in xs.iter_mut() {
            *a = pr.mul(*a, *a);
        }
    }
}

/// A 192-bit accumulator for carry propagation.
#[derive(Clone, Copy, Default)]
struct Acc {
    lo: u128,
    hi: u64,
}

impl Acc {
    #[inline(always)]
    fn add(&mut self, c: Acc) {
        let (lo, carry) = self.lo.overflowing_add(c.lo);
        self.lo = lo;
        self.hi = self.hi.wrapping_add(c.hi).wrapping_add(carry as u64);
    }
    #[inline(always)]
    fn add_u64(&mut self, v: u64) {
        self.add(Acc { lo: v as u128, hi: 0 });
    }
    /// Removes and returns the low `w` bits (`8 ≤ w ≤ 64`).
    #[inline(always)]
    fn take(&mut self, w: u32) -> u64 {
        let d = if w == 64 { self.lo as u64 } else { (self.lo as u64) & ((1u64 << w) - 1) };
        self.lo = (self.lo >> w) | ((self.hi as u128) << (128 - w));
        self.hi = if w == 64 { 0 } else { self.hi >> w };
        d
    }
    fn is_zero(&self) -> bool {
        self.lo == 0 && self.hi == 0
    }
}

/// Constants of Garner's recombination for the three primes.
struct Crt {
    /// `p1^(−1) mod p2` and `(p1·p2)^(−1) mod p3` in Montgomery form, `p1 mod p3` in
    /// Montgomery form.
    inv_p1_mod_p2: u64,
    inv_p12_mod_p3: u64,
    p1_mod_p3: u64,
    p12: u128,
}

fn crt_constants() -> &'static Crt {
    static CRT: crate::sync::OnceLock<Crt> = crate::sync::OnceLock::new();
    CRT.get_or_init(crt_build)
}

fn crt_build() -> Crt {
    let [a, b, c] = PRIMES;
    let inv_p1_mod_p2 = b.inv(b.enter(a.p));
    let p12 = a.p as u128 * b.p as u128;
    let inv_p12_mod_p3 = c.inv(c.enter((p12 % c.p as u128) as u64));
    let p1_mod_p3 = c.enter(a.p);
    Crt { inv_p1_mod_p2, inv_p12_mod_p3, p1_mod_p3, p12 }
}

/// Inverse transforms of `x` (destroyed) and the exact coefficients, by Garner's CRT,
/// each passed to `sink` in order: `c = x1 + p1·x2 + p1·p2·x3` with `x1 < p1`, `x2 < p2`,
/// `x3 < p3`, so `c < p1·p2·p3`.
fn inverse_coefficients(plan: &Plan, x: &mut [u64], count: usize, mut sink: impl FnMut(Acc)) {
    let n = plan.n;
    for (j, part) in x.chunks_exact_mut(n).enumerate() {
        plan.inverse(j, part);
    }
    let [p1, p2, p3] = PRIMES;
    let k = crt_constants();
    let (f1, f2, f3) = (plan.finish(0), plan.finish(1), plan.finish(2));
    let (r1s, rest) = x.split_at(n);
    let (r2s, r3s) = rest.split_at(n);
    for ((&r1, &r2), &r3) in r1s.iter().zip(r2s).zip(r3s).take(count) {
        let x1 = p1.mul(r1, f1);
        let c2 = p2.mul(r2, f2);
        let c3 = p3.mul(r3, f3);
        // p1 < 2·p2 and p1 < 2·p3: one subtraction reduces x1.
        let x1_2 = if x1 >= p2.p { x1 - p2.p } else { x1 };
        let x2 = p2.mul(p2.sub(c2, x1_2), k.inv_p1_mod_p2);
        let x1_3 = if x1 >= p3.p { x1 - p3.p } else { x1 };
        let t = p3.sub(p3.sub(c3, x1_3), p3.mul(x2, k.p1_mod_p3));
        let x3 = p3.mul(t, k.inv_p12_mod_p3);
        let low = x1 as u128 + p1.p as u128 * x2 as u128;
        // p12·x3 as 192 bits.
        let a = (k.p12 as u64) as u128 * x3 as u128;
        let b = (k.p12 >> 64) * x3 as u128;
        let mut acc = Acc { lo: a, hi: 0 };
        acc.add(Acc { lo: b << 64, hi: (b >> 64) as u64 });
        acc.add(Acc { lo: low, hi: 0 });
        sink(acc);
    }
}

/// `r = (coefficients)` evaluated at `B`, for a linear product: all of `r` is written.
fn carry_linear<L: Limb>(plan: &Plan, x: &mut [u64], count: usize, r: &mut [L]) {
    let w = L::BITS;
    let mut acc = Acc::default();
    let mut i = 0;
    inverse_coefficients(plan, x, count, |c| {
        acc.add(c);
        if i < r.len() {
            r[i] = L::from_u64(acc.take(w));
        } else {
            debug_assert!(acc.take(w) == 0, "product longer than its buffer");
        }
        i += 1;
    });
    for d in r.iter_mut().skip(i) {
        *d = L::from_u64(acc.take(w));
    }
    debug_assert!(acc.is_zero(), "product longer than its buffer");
}

/// `r = (coefficients)` evaluated at `B`, modulo `B^n − 1` (`r.len() == n`): the carry out
/// of the top digit wraps to the bottom. The result is in `[0, B^n − 1]` (`B^n − 1`
/// itself stands for 0).
fn carry_cyclic<L: Limb>(plan: &Plan, x: &mut [u64], r: &mut [L]) {
    let w = L::BITS;
    let n = r.len();
    let mut acc = Acc::default();
    let mut i = 0;
    inverse_coefficients(plan, x, n, |c| {
        acc.add(c);
        r[i] = L::from_u64(acc.take(w));
        i += 1;
    });
    // B^n ≡ 1: add what is left at position 0, as often as it carries out again.
    while !acc.is_zero() {
        for d in r.iter_mut() {
            if acc.is_zero() {
                break;
            }
            acc.add_u64(d.to_u64());
            *d = L::from_u64(acc.take(w));
        }
    }
}

fn check_len(n_needed: usize, plan_n: usize) -> Result<(), Error> {
    if n_needed > plan_n {
        return Err(Error::InvalidArgument(format!(
            "a product of {n_needed} coefficients does not fit a transform of length {plan_n}"
        )));
    }
    Ok(())
}

/// The linear product's digits from a two-prime engine's coefficients (after
/// [`Pieces::inverse_crt`] on a length of `n` pieces): `count` coefficients, all of `r`
/// (64-bit digits) written.
///
/// `count` may be `n + 1`: a prepared transform of `n/2` digits holds products of up to
/// `n/2 + 1` digits' worth of coefficients minus one, i.e. `n + 1` pieces' worth. The
/// cyclic convolution then adds coefficient `n` onto coefficient 0; since coefficient 0
/// is the single product `a_0·b_0` of the lowest pieces (`fix`), coefficient `n` is the
/// wrapped value minus `fix` (exact: the wrapped sum is below `2^65`, far below
/// `p1·p2`).
fn carry_linear_pieces<L: Limb>(x: &[u64], n: usize, count: usize, fix: Option<u64>, r: &mut [L]) {
    debug_assert!(L::BITS == 64 && (count <= n || (count == n + 1 && fix.is_some())));
    let wrapped = coefficient(x, n, 0);
    let (c0, cn) = match fix {
        Some(f) if count == n + 1 => (f as u128, wrapped - f as u128),
        _ => (wrapped, 0),
    };
    let full = count.min(n);
    let coef = |i: usize| -> u128 {
        if i == 0 {
            c0
        } else if i < full {
            coefficient(x, n, i)
        } else if i == n && count == n + 1 {
            cn
        } else {
            0
        }
    };
    let mut acc = 0u128;
    for (j, d) in r.iter_mut().enumerate() {
        acc += coef(2 * j);
        let lo = acc as u64 & 0xffff_ffff;
        acc >>= 32;
        acc += coef(2 * j + 1);
        let hi = acc as u64 & 0xffff_ffff;
        acc >>= 32;
        *d = L::from_u64(lo | hi << 32);
    }
    debug_assert!(acc == 0 && 2 * r.len() >= count, "product longer than its buffer");
}

/// The cyclic product's `n/2` digits (`r.len()`) from a two-prime engine's `n`
/// coefficients, the carry out of the top wrapped to the bottom (`B^(n/2) ≡ 1`).
fn carry_cyclic_pieces<L: Limb>(x: &[u64], n: usize, r: &mut [L]) {
    debug_assert!(L::BITS == 64 && 2 * r.len() == n);
    let mut acc = 0u128;
    for (j, d) in r.iter_mut().enumerate() {
        acc += coefficient(x, n, 2 * j);
        let lo = acc as u64 & 0xffff_ffff;
        acc >>= 32;
        acc += coefficient(x, n, 2 * j + 1);
        let hi = acc as u64 & 0xffff_ffff;
        acc >>= 32;
        *d = L::from_u64(lo | hi << 32);
    }
    while acc != 0 {
        for d in r.iter_mut() {
            if acc == 0 {
                break;
            }
            acc += d.to_u64() as u128;
            *d = L::from_u64(acc as u64);
            acc >>= 64;
        }
    }
}

/// `r = a·b`, `r.len() == a.len() + b.len()`, by a linear convolution of length
/// [`transform_len_at_least`]`(a.len() + b.len() − 1)` (on the two-prime engines: of the
/// pieces' count). Either operand may be empty.
///
/// # Panics
/// If `r.len() != a.len() + b.len()`.
pub fn mul<L: Limb>(r: &mut [L], a: &[L], b: &[L]) {
    mul_with(r, a, b, &mut Vec::new(), allowed());
}

/// [`mul`] with `buf` as the working transforms (grown as needed, its contents ignored):
/// a caller making many products keeps one buffer instead of allocating two per product.
pub(crate) fn mul_with_buf<L: Limb>(r: &mut [L], a: &[L], b: &[L], buf: &mut Vec<u64>) {
    mul_with(r, a, b, buf, allowed());
}

/// [`mul_with_buf`] on the engines `allow` has.
pub(crate) fn mul_with<L: Limb>(r: &mut [L], a: &[L], b: &[L], buf: &mut Vec<u64>, allow: Allow) {
    assert_eq!(r.len(), a.len() + b.len(), "ntt::mul: r must have a.len() + b.len() digits");
    let (la, lb) = (crate::kernels::normalized_len(a), crate::kernels::normalized_len(b));
    if la == 0 || lb == 0 {
        r.fill(L::ZERO);
        return;
    }
    {
        let count = pieces(&a[..la]) + pieces(&b[..lb]) - 1;
        let n = transform_len_at_least(count);
        // Both operands' pieces fit: 2·la ≤ pieces(a) + 1 ≤ count + 1, and n ≥ count + 1
        // unless n = count, which is odd while the engines' lengths are even.
        if let Some(e) = pick::<L>(n, allow) {
            buf.resize(buf.len().max(4 * n), 0);
            let (x, y) = buf[..4 * n].split_at_mut(2 * n);
            e.forward(&a[..la], x);
            e.forward(&b[..lb], y);
            e.pointwise(x, Some(y));
            e.inverse_crt(x);
            carry_linear_pieces(x, n, count, None, r);
            return;
        }
    }
    let n = transform_len_at_least(la + lb - 1);
    let plan = Plan::get(n);
    buf.resize(buf.len().max(6 * n), 0);
    let (x, y) = buf[..6 * n].split_at_mut(3 * n);
    forward_into(&plan, &a[..la], x);
    forward_into(&plan, &b[..lb], y);
    pointwise(&plan, x, y);
    carry_linear(&plan, x, la + lb - 1, r);
}

/// `r = a²`, `r.len() == 2·a.len()`: one forward transform, a pointwise square, one inverse.
///
/// # Panics
/// If `r.len() != 2·a.len()`.
pub fn sqr<L: Limb>(r: &mut [L], a: &[L]) {
    assert_eq!(r.len(), 2 * a.len(), "ntt::sqr: r must have 2·a.len() digits");
    sqr_with_buf(r, a, &mut Vec::new());
}

/// [`sqr`] with `buf` as the working transform.
pub(crate) fn sqr_with_buf<L: Limb>(r: &mut [L], a: &[L], buf: &mut Vec<u64>) {
    sqr_with(r, a, buf, allowed());
}

/// [`sqr_with_buf`] on the engines `allow` has.
pub(crate) fn sqr_with<L: Limb>(r: &mut [L], a: &[L], buf: &mut Vec<u64>, allow: Allow) {
    let la = crate::kernels::normalized_len(a);
    if la == 0 {
        r.fill(L::ZERO);
        return;
    }
    {
        let count = 2 * pieces(&a[..la]) - 1;
        let n = transform_len_at_least(count);
        if let Some(e) = pick::<L>(n, allow) {
            buf.resize(buf.len().max(2 * n), 0);
            let x = &mut buf[..2 * n];
            e.forward(&a[..la], x);
            e.pointwise(x, None);
            e.inverse_crt(x);
            carry_linear_pieces(x, n, count, None, r);
            return;
        }
    }
    let n = transform_len_at_least(2 * la - 1);
    let plan = Plan::get(n);
    buf.resize(buf.len().max(3 * n), 0);
    let x = &mut buf[..3 * n];
    forward_into(&plan, &a[..la], x);
    pointwise_sqr(&plan, x);
    carry_linear(&plan, x, 2 * la - 1, r);
}

/// The error of a transform made for 64-bit digits used with other digits.
fn digit_mismatch() -> Error {
    Error::InvalidArgument("a transform of 64-bit digits used with other digits".to_string())
}

/// `r = a·b` for a prepared `b` (its transform length must hold `a.len() + b.digits() − 1`
/// coefficients). `r` receives all its digits (`r.len()` must hold the product; digits
/// beyond it must be zero). Reuses `buf` as the working transform.
///
/// Errors: the product does not fit `b`'s transform length.
pub fn mul_prepared<L: Limb>(
    r: &mut [L],
    a: &[L],
    b: &Transform,
    buf: &mut Vec<u64>,
) -> Result<(), Error> {
    let la = crate::kernels::normalized_len(a);
    if la == 0 || b.digits == 0 {
        r.fill(L::ZERO);
        return Ok(());
    }
    check_len(la + b.digits - 1, b.n)?;
    if r.len() < la + b.digits - 1 {
        return Err(Error::InvalidArgument("product buffer too short".to_string()));
    }
    match &b.engine {
        Engine::Scalar(plan) => {
            buf.resize(3 * plan.n, 0);
            forward_into(plan, &a[..la], buf);
            pointwise(plan, buf, &b.data);
            carry_linear(plan, buf, la + b.digits - 1, r);
        }
        Engine::Pieces(e) => {
            if L::BITS != 64 {
                return Err(digit_mismatch());
            }
            let n = 2 * b.n;
            // At most 2·(la + digits) − 1 ≤ n + 1 pieces' worth of coefficients (see
            // `carry_linear_pieces` for the one beyond n).
            let count = 2 * (la + b.digits) - 1;
            let fix = (count == n + 1).then(|| (a[0].to_u64() & 0xffff_ffff) * b.low);
            buf.resize(2 * n, 0);
            e.forward(&a[..la], buf);
            e.pointwise(buf, Some(&b.data));
            e.inverse_crt(buf);
            carry_linear_pieces(buf, n, count, fix, r);
        }
    }
    Ok(())
}

/// `r = a·b mod (B^n − 1)` for a prepared `b` of length `n = r.len()` and `a` of at most
/// `n` significant digits (a cyclic convolution of length `n`). The result is in
/// `[0, B^n − 1]`, where `B^n − 1` stands for 0. Reuses `buf` as working space.
///
/// Errors: `r.len()` differs from `b`'s transform length or `a` is longer.
pub fn cyclic_mul_prepared<L: Limb>(
    r: &mut [L],
    a: &[L],
    b: &Transform,
    buf: &mut Vec<u64>,
) -> Result<(), Error> {
    let la = crate::kernels::normalized_len(a);
    if r.len() != b.n || la > b.n {
        return Err(Error::InvalidArgument(format!(
            "a cyclic product of length {} needs an output of that length and operands no longer",
            b.n
        )));
    }
    match &b.engine {
        Engine::Scalar(plan) => {
            buf.resize(3 * plan.n, 0);
            forward_into(plan, &a[..la], buf);
            pointwise(plan, buf, &b.data);
            carry_cyclic(plan, buf, r);
        }
        Engine::Pieces(e) => {
            if L::BITS != 64 {
                return Err(digit_mismatch());
            }
            let n = 2 * b.n;
            buf.resize(2 * n, 0);
            e.forward(&a[..la], buf);
            e.pointwise(buf, Some(&b.data));
            e.inverse_crt(buf);
            carry_cyclic_pieces(buf, n, r);
        }
    }
    Ok(())
}

/// `r = a·b mod (B^n − 1)` for `n = r.len()` a transform length and operands of at most
/// `n` significant digits. Result in `[0, B^n − 1]`.
///
/// Errors: `n` is not a transform length, or an operand is longer than `n`.
pub fn cyclic_mul<L: Limb>(r: &mut [L], a: &[L], b: &[L]) -> Result<(), Error> {
    let t = Transform::new(b, r.len())?;
    cyclic_mul_prepared(r, a, &t, &mut Vec::new())
}

/// `out = x mod (B^K − 1)` for any digit string `x`, `K = out.len() ≥ 1`: the sum of
/// `x`'s K-digit chunks (since `B^K ≡ 1`), carries wrapped around. The result is in
/// `[0, B^K − 1]`; `B^K − 1` stands for 0.
pub(crate) fn fold_mod_bk1<L: Limb>(out: &mut [L], x: &[L]) {
    let k = out.len();
    out.fill(L::ZERO);
    let mut carry = 0u64;
    for chunk in x.chunks(k) {
        carry += crate::kernels::add_assign_slices(&mut out[..], chunk) as u64;
    }
    wrap_carry(out, carry);
}

/// Adds `carry` (a count of `B^K ≡ 1`) at position 0, wrapping again while it carries out.
fn wrap_carry<L: Limb>(out: &mut [L], mut carry: u64) {
    while carry > 0 {
        let mut c = carry;
        for d in out.iter_mut() {
            if c == 0 {
                break;
            }
            let v = d.to_u64() as u128 + c as u128;
            *d = L::from_u64(v as u64);
            c = if L::BITS == 64 { (v >> 64) as u64 } else { (v >> L::BITS) as u64 };
        }
        carry = c;
    }
}

/// Whether `x` is `B^K − 1` (all digits `b − 1`), the second representative of 0.
pub(crate) fn is_all_ones<L: Limb>(x: &[L]) -> bool {
    x.iter().all(|&d| d == L::MAX)
}

/// `out = (a − b) mod (B^K − 1)` in `[0, B^K − 1)` (canonical) for `a, b ∈ [0, B^K − 1]`,
/// all of `K = out.len()` digits.
pub(crate) fn sub_mod_bk1<L: Limb>(out: &mut [L], a: &[L], b: &[L]) {
    let borrow = crate::kernels::sub_n(out, a, b);
    if borrow {
        // a − b + B^K computed; B^K ≡ 1, so subtract 1 (the value is ≥ 1 here).
        let br = crate::kernels::sub_1(out, L::ONE);
        debug_assert!(!br);
    }
    if is_all_ones(out) {
        out.fill(L::ZERO);
    }
}

#[cfg(test)]
mod tests;
