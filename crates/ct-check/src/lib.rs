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
use modred::{Nat, Reducer};

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

/// SplitMix64, for reproducible inputs.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
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
    pub fn new(k: usize, rng: &mut Rng) -> Context {
        let mut limbs: Vec<u64> = (0..k).map(|_| rng.next_u64()).collect();
        limbs[0] |= 1;
        limbs[k - 1] |= 1 << 63;
        let m = Nat::from_vec(limbs);
        let ct = MontgomeryCt::new(&m).expect("odd modulus");
        let vartime = Montgomery::new(&m).expect("odd modulus");
        Context { m, ct, vartime }
    }

    /// A value below `m` (its top digit below `m`'s), `k` digits.
    pub fn random_residue(&self, rng: &mut Rng) -> Vec<u64> {
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
    pub fn random(ctx: &Context, rng: &mut Rng) -> Secrets {
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

/// A constant-time field-element function under test ([`field_targets`]): `run` builds
/// its field (public), draws two random elements, marks them secret, applies the function,
/// marks the result public, and returns the number of reports valgrind made meanwhile.
pub struct FieldTarget {
    /// Its name, as in the docs.
    pub name: &'static str,
    /// Runs it once on fresh secrets.
    pub run: fn(&mut Rng) -> u64,
}

/// A field operation on two elements.
type FieldOp<const N: usize> = fn(&PrimeField<N>, &Fe<N>, &Fe<N>) -> Fe<N>;

/// One run of `op` in the field modulo `p` (see [`FieldTarget`]).
fn field_case<const N: usize>(p: &Nat, repr: Representation, rng: &mut Rng, op: FieldOp<N>) -> u64 {
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

fn p(prime: NistPrime) -> Nat {
    prime.modulus()
}

fn pm(n: u64, c: u64) -> Nat {
    &Nat::power_of_two(n) - &Nat::from(c)
}

/// Every constant-time field-element function (issue 9 item 1: the constant-time
/// pseudo-Mersenne and hard-coded Solinas reductions), on each NIST / Table 2 prime and
/// on pseudo-Mersenne primes, in the standard representation (the special reductions)
/// and in Montgomery's.
pub fn field_targets() -> Vec<FieldTarget> {
    use Representation::{Montgomery, Standard};
    vec![
        FieldTarget {
            name: "field P-192 standard mul_ct (nist)",
            run: |r| field_case::<3>(&p(NistPrime::P192), Standard, r, |f, a, b| f.mul_ct(a, b)),
        },
        FieldTarget {
            name: "field P-224 standard mul_ct (nist)",
            run: |r| field_case::<4>(&p(NistPrime::P224), Standard, r, |f, a, b| f.mul_ct(a, b)),
        },
        FieldTarget {
            name: "field P-256 standard mul_ct (nist)",
            run: |r| field_case::<4>(&p(NistPrime::P256), Standard, r, |f, a, b| f.mul_ct(a, b)),
        },
        FieldTarget {
            name: "field P-256 standard sqr_ct (nist)",
            run: |r| field_case::<4>(&p(NistPrime::P256), Standard, r, |f, a, _| f.sqr_ct(a)),
        },
        FieldTarget {
            name: "field P-384 standard mul_ct (nist)",
            run: |r| field_case::<6>(&p(NistPrime::P384), Standard, r, |f, a, b| f.mul_ct(a, b)),
        },
        FieldTarget {
            name: "field 2^448-2^224-1 standard mul_ct (nist)",
            run: |r| field_case::<7>(&p(NistPrime::P448), Standard, r, |f, a, b| f.mul_ct(a, b)),
        },
        FieldTarget {
            name: "field 2^512-2^32-1 standard mul_ct (nist)",
            run: |r| field_case::<8>(&p(NistPrime::P512), Standard, r, |f, a, b| f.mul_ct(a, b)),
        },
        FieldTarget {
            name: "field P-521 standard mul_ct (nist)",
            run: |r| field_case::<9>(&p(NistPrime::P521), Standard, r, |f, a, b| f.mul_ct(a, b)),
        },
        FieldTarget {
            name: "field 2^255-19 standard mul_ct (pseudo-mersenne)",
            run: |r| field_case::<4>(&pm(255, 19), Standard, r, |f, a, b| f.mul_ct(a, b)),
        },
        FieldTarget {
            name: "field 2^255-19 standard sqr_ct (pseudo-mersenne)",
            run: |r| field_case::<4>(&pm(255, 19), Standard, r, |f, a, _| f.sqr_ct(a)),
        },
        FieldTarget {
            name: "field 2^256-189 standard mul_ct (pseudo-mersenne)",
            run: |r| field_case::<4>(&pm(256, 189), Standard, r, |f, a, b| f.mul_ct(a, b)),
        },
        FieldTarget {
            name: "field 2^130-5 standard mul_ct (pseudo-mersenne)",
            run: |r| field_case::<3>(&pm(130, 5), Standard, r, |f, a, b| f.mul_ct(a, b)),
        },
        FieldTarget {
            name: "field P-256 montgomery mul_ct",
            run: |r| field_case::<4>(&p(NistPrime::P256), Montgomery, r, |f, a, b| f.mul_ct(a, b)),
        },
        FieldTarget {
            name: "field P-256 add / sub / neg",
            run: |r| {
                field_case::<4>(&p(NistPrime::P256), Standard, r, |f, a, b| {
                    f.neg(&f.sub(&f.add(a, b), b))
                })
            },
        },
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
