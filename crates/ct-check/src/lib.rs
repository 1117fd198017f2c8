//! The constant-time check of modred: the functions that promise constant time, run on
//! secrets that valgrind memcheck sees as undefined (see `src/main.rs`), and measured by
//! the dudect-style t-test (`src/bin/dudect.rs`).
//!
//! A function under test joins by being a [`Target`] in [`targets`]; [`planted_leaks`]
//! are deliberately leaky functions that show the check catches leaks.

#![deny(clippy::undocumented_unsafe_blocks)]

use modred::ct::MontgomeryCt;
use modred::exp::{self, Method};
use modred::field::{Fe, PrimeField, Representation};
use modred::reduce::Montgomery;
use modred::reduce::NistPrime;
use modred::{Modulus, Nat, Reducer, Residue};
/// The per-input timing of the t-test (modred-testkit's).
pub use modred_testkit::timing::time_each;
/// The fixed-seed generator of the inputs (modred-testkit's), so every run checks the same
/// numbers.
pub use modred_testkit::SplitMix64;

extern "C" {
    fn modred_ct_mark_secret(p: *const core::ffi::c_void, len: usize);
    fn modred_ct_mark_public(p: *const core::ffi::c_void, len: usize);
    fn modred_ct_running_on_valgrind() -> core::ffi::c_ulong;
    fn modred_ct_error_count() -> core::ffi::c_ulong;
    fn modred_ct_have_memcheck_header() -> core::ffi::c_int;
}

/// Whether the shim was compiled with valgrind's `memcheck.h` (without it the client
/// requests are no-ops and the check cannot work).
pub fn have_memcheck_header() -> bool {
    // SAFETY: a C function without arguments returning a constant.
    unsafe { modred_ct_have_memcheck_header() != 0 }
}

/// Tells memcheck that the bytes of `v` are secret (undefined): any branch or memory
/// address computed from them is reported. A no-op outside valgrind.
pub fn mark_secret<T: Copy>(v: &[T]) {
    // SAFETY: the client request only records the state of the address range, which `v`
    // borrows in full (`size_of_val` bytes from its start); it reads and writes nothing.
    unsafe { modred_ct_mark_secret(v.as_ptr().cast(), core::mem::size_of_val(v)) }
}

/// Tells memcheck that the bytes of `v` are public again (defined), e.g. a result about to
/// be printed or compared.
pub fn mark_public<T: Copy>(v: &[T]) {
    // SAFETY: as in `mark_secret`: a client request on a range `v` borrows in full.
    unsafe { modred_ct_mark_public(v.as_ptr().cast(), core::mem::size_of_val(v)) }
}

/// Whether this process runs under valgrind.
pub fn running_on_valgrind() -> bool {
    // SAFETY: a client request with no arguments; returns 0 outside valgrind.
    unsafe { modred_ct_running_on_valgrind() != 0 }
}

/// The number of errors valgrind has reported so far (0 outside valgrind).
pub fn error_count() -> u64 {
    // SAFETY: a client request with no arguments; returns 0 outside valgrind.
    unsafe { modred_ct_error_count() as u64 }
}

/// The public side of a test: an odd `k`-digit modulus with its top digit's high bit set,
/// and its constant-time context.
pub struct Context {
    /// The modulus.
    pub m: Nat,
    /// Its constant-time Montgomery context.
    pub ct: MontgomeryCt<u64>,
    /// A variable-time reducer for the same modulus (for the planted leaks).
    pub vartime: Montgomery<u64>,
}

impl Context {
    /// A random modulus of `k` 64-bit digits.
    pub fn new(k: usize, rng: &mut SplitMix64) -> Context {
        let mut limbs: Vec<u64> = (0..k).map(|_| rng.next_u64()).collect();
        limbs[0] |= 1;
        limbs[k - 1] |= 1 << 63;
        let m = Nat::from_vec(limbs);
        let ct = MontgomeryCt::new(&m).expect("odd modulus");
        let vartime = Montgomery::new(&m).expect("odd modulus");
        Context { m, ct, vartime }
    }

    /// A value below `m` (its top digit below `m`'s), `k` digits.
    pub fn random_residue(&self, rng: &mut SplitMix64) -> Vec<u64> {
        let k = self.ct.width();
        let mut v: Vec<u64> = (0..k).map(|_| rng.next_u64()).collect();
        v[k - 1] %= self.ct.modulus_limbs()[k - 1];
        v
    }
}

/// The secret side of a test: two residues and an exponent of the modulus's width, and
/// room for the output.
#[derive(Clone, Debug)]
pub struct Secrets {
    /// First operand (also the base).
    pub a: Vec<u64>,
    /// Second operand.
    pub b: Vec<u64>,
    /// Exponent digits, `k` of them.
    pub e: Vec<u64>,
    /// Output.
    pub out: Vec<u64>,
    /// Scratch.
    pub t: Vec<u64>,
}

impl Secrets {
    /// Random secrets for `ctx`.
    pub fn random(ctx: &Context, rng: &mut SplitMix64) -> Secrets {
        let k = ctx.ct.width();
        Secrets {
            a: ctx.random_residue(rng),
            b: ctx.random_residue(rng),
            e: (0..k).map(|_| rng.next_u64()).collect(),
            out: vec![0; k],
            t: vec![0; ctx.ct.scratch_len()],
        }
    }

    /// Fixed secrets (dudect's "fixed" class): `a = b = 1`, `e = 0`, the values most
    /// likely to take a short path in a leaky implementation.
    pub fn fixed(ctx: &Context) -> Secrets {
        let k = ctx.ct.width();
        let mut one = vec![0; k];
        one[0] = 1;
        Secrets {
            a: one.clone(),
            b: one,
            e: vec![0; k],
            out: vec![0; k],
            t: vec![0; ctx.ct.scratch_len()],
        }
    }

    /// Zero secrets (the fixed class of the `Modulus` and field measurements):
    /// `a = b = 0`, `e = 0`, the values whose representation is zero in every reducer.
    pub fn fixed_zero(ctx: &Context) -> Secrets {
        let k = ctx.ct.width();
        Secrets {
            a: vec![0; k],
            b: vec![0; k],
            e: vec![0; k],
            out: vec![0; k],
            t: vec![0; ctx.ct.scratch_len()],
        }
    }

    /// Marks every secret input undefined for memcheck.
    pub fn mark_secret(&self) {
        mark_secret(&self.a);
        mark_secret(&self.b);
        mark_secret(&self.e);
    }
}

/// A function under test.
pub struct Target {
    /// Its name, as in the docs.
    pub name: &'static str,
    /// Runs it on the secrets (writing `out`).
    pub run: fn(&Context, &mut Secrets),
}

/// The name of the target that runs the radix-2^52 exponentiation on portable kernels;
/// it applies to moduli of [`applies`] size only.
pub const RADIX52_TWIN: &str = "ct::MontgomeryCt::pow_radix52_portable";

/// Whether `target` applies to a modulus of `k` digits.
pub fn applies(target: &Target, k: usize) -> bool {
    let bits = 64 * k as u64;
    target.name != RADIX52_TWIN
        || (modred::ct::IFMA_MIN_BITS..=modred::ct::IFMA_MAX_BITS).contains(&bits)
            && modred::ct::IFMA_MAX_BITS != 0
}

/// Every function that promises constant time.
pub fn targets() -> Vec<Target> {
    vec![
        Target {
            name: "ct::MontgomeryCt::mul",
            run: |c, s| c.ct.mul(&mut s.out, &s.a, &s.b, &mut s.t),
        },
        Target { name: "ct::MontgomeryCt::sqr", run: |c, s| c.ct.sqr(&mut s.out, &s.a, &mut s.t) },
        Target {
            name: "ct::MontgomeryCt::to_montgomery",
            run: |c, s| c.ct.to_montgomery(&mut s.out, &s.a, &mut s.t),
        },
        Target {
            name: "ct::MontgomeryCt::from_montgomery",
            run: |c, s| c.ct.from_montgomery(&mut s.out, &s.a, &mut s.t),
        },
        Target { name: "ct::MontgomeryCt::pow", run: |c, s| c.ct.pow(&mut s.out, &s.a, &s.e) },
        Target {
            // The radix-2^52 (AVX-512 IFMA) exponentiation with the vector kernels replaced
            // by their portable twins: valgrind cannot execute AVX-512, so this is how the
            // code around the kernels (conversions, table, window digits, the masked scan's
            // logic, the final subtraction) is checked. Only from `ct::IFMA_MIN_BITS`.
            name: RADIX52_TWIN,
            run: |c, s| {
                c.ct.pow_radix52_portable(&mut s.out, &s.a, &s.e);
            },
        },
        Target {
            name: "ct::MontgomeryCt::is_below_modulus",
            run: |c, s| s.out[0] = c.ct.is_below_modulus(&s.a),
        },
    ]
}

/// A constant-time operation of [`Modulus`] on residues `a`, `b` and an exponent `e`,
/// returning its result.
pub type ModulusOp = fn(&Modulus, &Residue, &Residue, &Nat) -> Residue;

/// The constant-time operations of [`Modulus`] (odd moduli), checked under memcheck with
/// the residues' digits and the exponent's marked secret, and measured by dudect.
pub fn modulus_targets() -> Vec<(&'static str, ModulusOp)> {
    vec![
        ("Modulus::mul_ct", |m, a, b, _| m.mul_ct(a, b).expect("odd modulus")),
        ("Modulus::sqr_ct", |m, a, _, _| m.sqr_ct(a).expect("odd modulus")),
        ("Modulus::pow_ct", |m, a, _, e| m.pow_ct(a, e).expect("odd modulus, e below 2^(64k)")),
        ("Modulus::add", |m, a, b, _| m.add(a, b).expect("its residues")),
        ("Modulus::sub", |m, a, b, _| m.sub(a, b).expect("its residues")),
        ("Modulus::neg", |m, a, _, _| m.neg(a).expect("its residue")),
    ]
}

/// A constant-time field-element function under test ([`field_targets`]). `run` builds
/// its field (public), draws two random elements, marks them secret, applies the function,
/// marks the result public, and returns the number of reports valgrind made meanwhile.
/// `time` is the dudect measurement: for each class in `classes` (`true`: the fixed class,
/// both elements zero; `false`: random elements) it prepares the elements in advance, then
/// times one call per element pair and returns the times in nanoseconds.
pub struct FieldTarget {
    /// Its name, as in the docs.
    pub name: &'static str,
    /// The field's number of 64-bit digits.
    pub digits: usize,
    /// Runs it once on fresh secrets under memcheck.
    pub run: fn(&mut SplitMix64) -> u64,
    /// Times it on inputs of the given classes (dudect).
    pub time: fn(&[bool], &mut SplitMix64) -> Vec<f64>,
}

/// A field operation on two elements.
pub type FieldOp<const N: usize> = fn(&PrimeField<N>, &Fe<N>, &Fe<N>) -> Fe<N>;

/// One run of `op` in the field modulo `p` (see [`FieldTarget`]).
fn field_case<const N: usize>(
    p: &Nat,
    repr: Representation,
    rng: &mut SplitMix64,
    op: FieldOp<N>,
) -> u64 {
    let f = PrimeField::<N>::new(p, repr).expect("a prime of N digits");
    let mut draw = || {
        let v: Vec<u64> = (0..N + 1).map(|_| rng.next_u64()).collect();
        f.from_nat(&Nat::from_vec(v))
    };
    let (a, b) = (draw(), draw());
    mark_secret(core::slice::from_ref(&a));
    mark_secret(core::slice::from_ref(&b));
    let before = error_count();
    let r = op(&f, &a, &b);
    mark_public(core::slice::from_ref(&r));
    error_count() - before
}

/// The dudect times of `op` in the field modulo `p` (see [`FieldTarget`]).
fn field_times<const N: usize>(
    p: &Nat,
    repr: Representation,
    classes: &[bool],
    rng: &mut SplitMix64,
    op: FieldOp<N>,
) -> Vec<f64> {
    let f = PrimeField::<N>::new(p, repr).expect("a prime of N digits");
    let zero = f.zero();
    // Both classes are drawn the same way; the fixed class is then overwritten (elements
    // are arrays, so no allocation tells the classes apart).
    let mut inputs: Vec<(Fe<N>, Fe<N>)> = classes
        .iter()
        .map(|&fixed| {
            let mut draw = || {
                let v: Vec<u64> = (0..N + 1).map(|_| rng.next_u64()).collect();
                f.from_nat(&Nat::from_vec(v))
            };
            let pair = (draw(), draw());
            if fixed {
                (zero, zero)
            } else {
                pair
            }
        })
        .collect();
    time_each(&mut inputs, |(a, b)| {
        core::hint::black_box(op(&f, core::hint::black_box(a), core::hint::black_box(b)));
    })
}

fn p(prime: NistPrime) -> Nat {
    prime.modulus()
}

fn pm(n: u64, c: u64) -> Nat {
    &Nat::power_of_two(n) - &Nat::from(c)
}

/// The order of P-256's group: a 256-bit prime of no special form (the field's
/// constant-time path for such primes goes through Montgomery products).
fn p256_order() -> Nat {
    "0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"
        .parse()
        .expect("a hexadecimal constant")
}

/// A [`FieldTarget`] for `op` on `$n`-digit elements modulo `$p` in representation `$repr`.
macro_rules! field_target {
    ($name:expr, $n:literal, $p:expr, $repr:expr, $op:expr) => {
        FieldTarget {
            name: $name,
            digits: $n,
            run: |r| field_case::<$n>(&$p, $repr, r, $op),
            time: |classes, r| field_times::<$n>(&$p, $repr, classes, r, $op),
        }
    };
}

/// A prime of no special form of `n` digits (modred-testkit's).
fn generic(n: usize) -> Nat {
    Nat::from_vec(modred_testkit::primes::generic_prime(n))
}

/// Every constant-time field-element function — the constant-time pseudo-Mersenne and
/// hard-coded Solinas reductions on each NIST / Table 2 prime and on pseudo-Mersenne
/// primes, in the standard representation (the special reductions) and in Montgomery's,
/// and on a prime of no special form — then the inverse, [`inverse_targets`].
pub fn field_targets() -> Vec<FieldTarget> {
    let mut all = product_targets();
    all.extend(inverse_targets());
    all
}

/// The [`FieldTarget`]s of `PrimeField::inv` on `$n`-digit fields: the generic prime of
/// that size in both representations.
macro_rules! generic_inverse {
    ($($n:literal),*) => {
        [$(
            field_target!(
                concat!("field generic ", stringify!($n), "-digit standard inv"),
                $n,
                generic($n),
                Representation::Standard,
                |f, a, _| f.inv(a)
            ),
            field_target!(
                concat!("field generic ", stringify!($n), "-digit montgomery inv"),
                $n,
                generic($n),
                Representation::Montgomery,
                |f, a, _| f.inv(a)
            ),
        )*]
    };
}

/// `PrimeField::inv` on every kind of field and every size: each NIST / Table 2 prime and
/// the pseudo-Mersenne primes in both representations, and a prime of no special form of
/// every size from 1 to 16 digits in both.
pub fn inverse_targets() -> Vec<FieldTarget> {
    use NistPrime::*;
    use Representation::{Montgomery, Standard};
    let mut all = vec![
        field_target!("field P-192 standard inv", 3, p(P192), Standard, |f, a, _| f.inv(a)),
        field_target!("field P-224 standard inv", 4, p(P224), Standard, |f, a, _| f.inv(a)),
        field_target!("field P-256 standard inv", 4, p(P256), Standard, |f, a, _| f.inv(a)),
        field_target!("field P-384 standard inv", 6, p(P384), Standard, |f, a, _| f.inv(a)),
        field_target!("field 2^448-2^224-1 standard inv", 7, p(P448), Standard, |f, a, _| f.inv(a)),
        field_target!("field 2^512-2^32-1 standard inv", 8, p(P512), Standard, |f, a, _| f.inv(a)),
        field_target!("field P-521 standard inv", 9, p(P521), Standard, |f, a, _| f.inv(a)),
        field_target!("field P-256 montgomery inv", 4, p(P256), Montgomery, |f, a, _| f.inv(a)),
        field_target!("field P-521 montgomery inv", 9, p(P521), Montgomery, |f, a, _| f.inv(a)),
        field_target!("field 2^255-19 standard inv", 4, pm(255, 19), Standard, |f, a, _| f.inv(a)),
        field_target!("field 2^255-19 montgomery inv", 4, pm(255, 19), Montgomery, |f, a, _| f
            .inv(a)),
        field_target!("field 2^130-5 standard inv", 3, pm(130, 5), Standard, |f, a, _| f.inv(a)),
        field_target!("field 2^127-1 standard inv", 2, pm(127, 1), Standard, |f, a, _| f.inv(a)),
        field_target!("field 2^64-59 standard inv", 1, pm(64, 59), Standard, |f, a, _| f.inv(a)),
    ];
    all.extend(generic_inverse!(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16));
    all
}

/// The constant-time products, additions and subtractions of the fields.
fn product_targets() -> Vec<FieldTarget> {
    use NistPrime::*;
    use Representation::{Montgomery, Standard};
    vec![
        field_target!("field P-192 standard mul_ct (nist)", 3, p(P192), Standard, |f, a, b| f
            .mul_ct(a, b)),
        field_target!("field P-224 standard mul_ct (nist)", 4, p(P224), Standard, |f, a, b| f
            .mul_ct(a, b)),
        field_target!("field P-256 standard mul_ct (nist)", 4, p(P256), Standard, |f, a, b| f
            .mul_ct(a, b)),
        field_target!("field P-256 standard sqr_ct (nist)", 4, p(P256), Standard, |f, a, _| f
            .sqr_ct(a)),
        field_target!("field P-384 standard mul_ct (nist)", 6, p(P384), Standard, |f, a, b| f
            .mul_ct(a, b)),
        field_target!("field P-384 standard sqr_ct (nist)", 6, p(P384), Standard, |f, a, _| f
            .sqr_ct(a)),
        field_target!(
            "field 2^448-2^224-1 standard mul_ct (nist)",
            7,
            p(P448),
            Standard,
            |f, a, b| f.mul_ct(a, b)
        ),
        field_target!(
            "field 2^512-2^32-1 standard mul_ct (nist)",
            8,
            p(P512),
            Standard,
            |f, a, b| f.mul_ct(a, b)
        ),
        field_target!("field P-521 standard mul_ct (nist)", 9, p(P521), Standard, |f, a, b| f
            .mul_ct(a, b)),
        field_target!("field P-521 standard sqr_ct (nist)", 9, p(P521), Standard, |f, a, _| f
            .sqr_ct(a)),
        field_target!(
            "field 2^255-19 standard mul_ct (pseudo-mersenne)",
            4,
            pm(255, 19),
            Standard,
            |f, a, b| f.mul_ct(a, b)
        ),
        field_target!(
            "field 2^255-19 standard sqr_ct (pseudo-mersenne)",
            4,
            pm(255, 19),
            Standard,
            |f, a, _| f.sqr_ct(a)
        ),
        field_target!(
            "field 2^256-189 standard mul_ct (pseudo-mersenne)",
            4,
            pm(256, 189),
            Standard,
            |f, a, b| f.mul_ct(a, b)
        ),
        field_target!(
            "field 2^130-5 standard mul_ct (pseudo-mersenne)",
            3,
            pm(130, 5),
            Standard,
            |f, a, b| f.mul_ct(a, b)
        ),
        field_target!(
            "field P-256 order standard mul_ct (no special form)",
            4,
            p256_order(),
            Standard,
            |f, a, b| f.mul_ct(a, b)
        ),
        field_target!("field P-256 montgomery mul_ct", 4, p(P256), Montgomery, |f, a, b| f
            .mul_ct(a, b)),
        field_target!("field P-256 montgomery sqr_ct", 4, p(P256), Montgomery, |f, a, _| f
            .sqr_ct(a)),
        field_target!("field P-384 montgomery mul_ct", 6, p(P384), Montgomery, |f, a, b| f
            .mul_ct(a, b)),
        field_target!("field P-256 add", 4, p(P256), Standard, |f, a, b| f.add(a, b)),
        field_target!("field P-256 sub", 4, p(P256), Standard, |f, a, b| f.sub(a, b)),
        field_target!("field P-256 neg", 4, p(P256), Standard, |f, a, _| f.neg(a)),
    ]
}

/// Variable-time field functions measured by the dudect tool as controls (never run under
/// memcheck, where they would be reported): the plain multiplication in the standard
/// representation of a prime of no special form divides (classical division, whose
/// normalization and quotient corrections depend on the values).
pub fn field_controls() -> Vec<FieldTarget> {
    use Representation::Standard;
    vec![field_target!(
        "field P-256 order standard mul (variable time: division), control",
        4,
        p256_order(),
        Standard,
        |f, a, b| f.mul(a, b)
    )]
}

/// Deliberately leaky field functions: the check must report each of them. An inverse
/// that tests for zero first (what `PrimeField::inv` did for special primes), and one by
/// the variable-time exponentiation of a prime of no special form in the standard
/// representation (classical division in every product).
pub fn field_planted_leaks() -> Vec<FieldTarget> {
    use Representation::Standard;
    vec![
        field_target!(
            "planted: field inverse branching on zero",
            4,
            pm(255, 19),
            Standard,
            |f, a, _| {
                if *a == f.zero() {
                    f.zero()
                } else {
                    f.inv(a)
                }
            }
        ),
        field_target!(
            "planted: field inverse by variable-time products",
            4,
            p256_order(),
            Standard,
            |f, a, _| f.pow_vartime(a, &(&f.modulus() - &Nat::from(2u64)))
        ),
    ]
}

/// Deliberately leaky functions: the check must report each of them.
pub fn planted_leaks() -> Vec<Target> {
    vec![
        Target {
            // A branch on a secret bit.
            name: "planted: branch on a secret bit",
            run: |_, s| {
                if s.e[0] & 1 == 1 {
                    s.out[0] = s.a[0].wrapping_mul(3);
                } else {
                    s.out[0] = s.a[0];
                }
            },
        },
        Target {
            // A table read at a secret index (what a naive window lookup does).
            name: "planted: secret table index",
            run: |_, s| {
                let table: Vec<u64> = (0..16).collect();
                s.out[0] = table[(s.e[0] & 15) as usize];
            },
        },
        Target {
            // The real variable-time exponentiation on a secret exponent.
            name: "exp::pow_vartime (binary) on a secret exponent",
            run: |c, s| {
                let e = Nat::from_limbs(&s.e);
                let r = exp::pow_vartime(&c.vartime, &s.a, &e, Method::Binary).expect("valid");
                s.out.copy_from_slice(&r);
            },
        },
    ]
}
