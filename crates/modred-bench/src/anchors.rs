//! GMP and OpenSSL speed anchors.
//!
//! Each anchor owns its operands and every scratch buffer it needs. All of the
//! set-up (parsing, reduction, conversion to Montgomery form, context
//! allocation) happens in `new`, so that [`run`](GmpMulMod::run) performs
//! exactly one operation of the library under test and nothing else. After a
//! call to `run`, `result_hex` returns the result of that operation as a
//! lower-case hexadecimal string without prefix or leading zeros (`"0"` for
//! zero), so callers can check it against their own implementation.
//!
//! Constructors take big integers as hexadecimal strings (an optional `0x`
//! prefix is accepted) and panic on malformed input or on operands that the
//! underlying routine does not accept; these are benchmark fixtures, not a
//! general API.

use std::os::raw::c_int;

use foreign_types::ForeignTypeRef;
use gmp_mpfr_sys::gmp;
use openssl::bn::{BigNum, BigNumContext, BigNumRef};
use openssl_sys::{BIGNUM, BN_CTX, BN_MONT_CTX};
use rug::integer::Order;
use rug::{Assign, Integer};

// Functions that exist in libcrypto (1.1 and 3.x) but that `openssl-sys` does
// not declare. `openssl-sys` is what links libcrypto into the final binary
// (found through pkg-config or `OPENSSL_DIR`), so no `#[link]` is needed here.
extern "C" {
    fn BN_MONT_CTX_new() -> *mut BN_MONT_CTX;
    fn BN_MONT_CTX_free(mont: *mut BN_MONT_CTX);
    fn BN_MONT_CTX_set(mont: *mut BN_MONT_CTX, modulus: *const BIGNUM, ctx: *mut BN_CTX) -> c_int;
    fn BN_to_montgomery(
        r: *mut BIGNUM,
        a: *const BIGNUM,
        mont: *mut BN_MONT_CTX,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn BN_from_montgomery(
        r: *mut BIGNUM,
        a: *const BIGNUM,
        mont: *mut BN_MONT_CTX,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn BN_mod_mul_montgomery(
        r: *mut BIGNUM,
        a: *const BIGNUM,
        b: *const BIGNUM,
        mont: *mut BN_MONT_CTX,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn BN_mod_exp_mont_consttime(
        rr: *mut BIGNUM,
        a: *const BIGNUM,
        p: *const BIGNUM,
        m: *const BIGNUM,
        ctx: *mut BN_CTX,
        in_mont: *mut BN_MONT_CTX,
    ) -> c_int;
    fn BN_mod_exp_mont_consttime_x2(
        rr1: *mut BIGNUM,
        a1: *const BIGNUM,
        p1: *const BIGNUM,
        m1: *const BIGNUM,
        in_mont1: *mut BN_MONT_CTX,
        rr2: *mut BIGNUM,
        a2: *const BIGNUM,
        p2: *const BIGNUM,
        m2: *const BIGNUM,
        in_mont2: *mut BN_MONT_CTX,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn BN_nist_mod_256(
        r: *mut BIGNUM,
        a: *const BIGNUM,
        p: *const BIGNUM,
        ctx: *mut BN_CTX,
    ) -> c_int;
    fn BN_get0_nist_prime_256() -> *const BIGNUM;
}

/// The NIST P-256 prime `2^256 - 2^224 + 2^192 + 2^96 - 1`, in hexadecimal.
pub const P256_HEX: &str = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";

fn strip_prefix(hex: &str) -> &str {
    hex.strip_prefix("0x").or_else(|| hex.strip_prefix("0X")).unwrap_or(hex)
}

fn parse_int(hex: &str) -> Integer {
    Integer::from_str_radix(strip_prefix(hex), 16)
        .unwrap_or_else(|e| panic!("invalid hex integer {hex:?}: {e}"))
}

fn parse_bn(hex: &str) -> BigNum {
    BigNum::from_hex_str(strip_prefix(hex))
        .unwrap_or_else(|e| panic!("invalid hex integer {hex:?}: {e}"))
}

fn int_hex(x: &Integer) -> String {
    x.to_string_radix(16)
}

fn bn_hex(x: &BigNumRef) -> String {
    let s = x.to_hex_str().expect("BN_bn2hex failed").to_ascii_lowercase();
    // BN_bn2hex may pad to whole bytes; normalise to GMP's formatting.
    let (sign, digits) = match s.strip_prefix('-') {
        Some(d) => ("-", d),
        None => ("", s.as_str()),
    };
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        "0".to_owned()
    } else {
        format!("{sign}{digits}")
    }
}

fn check(ret: c_int, what: &str) {
    assert_eq!(ret, 1, "{what} failed");
}

// ---------------------------------------------------------------------------
// GMP
// ---------------------------------------------------------------------------

/// `r = a * b mod m` with GMP's general-purpose `mpz_mul` followed by
/// `mpz_tdiv_r` (through rug's allocation-free in-place operations).
pub struct GmpMulMod {
    a: Integer,
    b: Integer,
    m: Integer,
    r: Integer,
}

impl GmpMulMod {
    /// # Panics
    /// On malformed hex or `m == 0`.
    pub fn new(a_hex: &str, b_hex: &str, m_hex: &str) -> Self {
        let m = parse_int(m_hex);
        assert!(m != 0, "modulus must be non-zero");
        let a = parse_int(a_hex);
        let b = parse_int(b_hex);
        // Reserve room for the full product so `run` never reallocates.
        let bits = a.significant_bits() as usize + b.significant_bits() as usize + 64;
        Self { a, b, m, r: Integer::with_capacity(bits) }
    }

    /// One `mpz_mul` + `mpz_tdiv_r`.
    #[inline]
    pub fn run(&mut self) {
        self.r.assign(&self.a * &self.b);
        self.r %= &self.m;
    }

    pub fn result_hex(&self) -> String {
        int_hex(&self.r)
    }
}

/// Low-level `mpn_mul_n`: the full `2n`-limb product of two `n`-limb numbers
/// into a preallocated buffer.
pub struct GmpMulN {
    a: Vec<gmp::limb_t>,
    b: Vec<gmp::limb_t>,
    r: Vec<gmp::limb_t>,
}

impl GmpMulN {
    /// `n` is the larger limb count of the two operands (at least 1); the
    /// shorter one is zero-extended.
    ///
    /// # Panics
    /// On malformed hex or negative operands.
    pub fn new(a_hex: &str, b_hex: &str) -> Self {
        let a = parse_int(a_hex);
        let b = parse_int(b_hex);
        assert!(a >= 0 && b >= 0, "mpn operands must be non-negative");
        let mut a = a.to_digits::<gmp::limb_t>(Order::Lsf);
        let mut b = b.to_digits::<gmp::limb_t>(Order::Lsf);
        let n = a.len().max(b.len()).max(1);
        a.resize(n, 0);
        b.resize(n, 0);
        Self { a, b, r: vec![0; 2 * n] }
    }

    /// Number of limbs per operand.
    pub fn limbs(&self) -> usize {
        self.a.len()
    }

    /// One `mpn_mul_n`.
    #[inline]
    pub fn run(&mut self) {
        let n = self.a.len();
        debug_assert!(self.b.len() == n && self.r.len() == 2 * n);
        // SAFETY: `a` and `b` are valid for reads of `n` limbs, `r` is valid
        // for writes of `2n` limbs, `n >= 1` (checked in `new`), and `r` is a
        // separate allocation so it overlaps neither input, as mpn_mul_n
        // requires. `n` fits in `c_long` because it came from a Vec length.
        unsafe {
            gmp::mpn_mul_n(self.r.as_mut_ptr(), self.a.as_ptr(), self.b.as_ptr(), n as gmp::size_t);
        }
    }

    pub fn result_hex(&self) -> String {
        int_hex(&Integer::from_digits(&self.r, Order::Lsf))
    }
}

/// `r = base^exp mod m` with `mpz_powm` (variable time).
pub struct GmpPowm {
    base: Integer,
    exp: Integer,
    m: Integer,
    r: Integer,
}

impl GmpPowm {
    /// # Panics
    /// On malformed hex, `m == 0` or a negative exponent.
    pub fn new(base_hex: &str, exp_hex: &str, m_hex: &str) -> Self {
        let m = parse_int(m_hex);
        assert!(m != 0, "modulus must be non-zero");
        let exp = parse_int(exp_hex);
        assert!(exp >= 0, "exponent must be non-negative");
        let r = Integer::with_capacity(m.significant_bits() as usize + 64);
        Self { base: parse_int(base_hex), exp, m, r }
    }

    /// One `mpz_powm`.
    #[inline]
    pub fn run(&mut self) {
        let op = self.base.pow_mod_ref(&self.exp, &self.m).expect("non-negative exponent");
        self.r.assign(op);
    }

    pub fn result_hex(&self) -> String {
        int_hex(&self.r)
    }
}

/// `r = base^exp mod m` with `mpz_powm_sec` (constant time, odd `m`,
/// positive exponent); the GMP counterpart of [`OpensslModExpConstTime`].
pub struct GmpPowmSec {
    base: Integer,
    exp: Integer,
    m: Integer,
    r: Integer,
}

impl GmpPowmSec {
    /// # Panics
    /// On malformed hex, even `m`, or an exponent `<= 0`.
    pub fn new(base_hex: &str, exp_hex: &str, m_hex: &str) -> Self {
        let m = parse_int(m_hex);
        assert!(m.is_odd(), "mpz_powm_sec needs an odd modulus");
        let exp = parse_int(exp_hex);
        assert!(exp > 0, "mpz_powm_sec needs a positive exponent");
        let r = Integer::with_capacity(m.significant_bits() as usize + 64);
        Self { base: parse_int(base_hex), exp, m, r }
    }

    /// One `mpz_powm_sec`.
    #[inline]
    pub fn run(&mut self) {
        let op = self.base.secure_pow_mod_ref(&self.exp, &self.m);
        self.r.assign(op);
    }

    pub fn result_hex(&self) -> String {
        int_hex(&self.r)
    }
}

// ---------------------------------------------------------------------------
// OpenSSL
// ---------------------------------------------------------------------------

/// Owned `BN_MONT_CTX`.
struct MontCtx(*mut BN_MONT_CTX);

impl MontCtx {
    fn new(m: &BigNumRef, ctx: &mut BigNumContext) -> Self {
        // SAFETY: BN_MONT_CTX_new has no preconditions; null is checked below.
        let raw = unsafe { BN_MONT_CTX_new() };
        assert!(!raw.is_null(), "BN_MONT_CTX_new failed");
        let mont = MontCtx(raw);
        // SAFETY: `raw` is a live BN_MONT_CTX owned by `mont`, `m` and `ctx`
        // are live OpenSSL objects borrowed for the duration of the call.
        // BN_MONT_CTX_set copies the modulus, so no borrow outlives the call.
        check(unsafe { BN_MONT_CTX_set(raw, m.as_ptr(), ctx.as_ptr()) }, "BN_MONT_CTX_set");
        mont
    }
}

impl Drop for MontCtx {
    fn drop(&mut self) {
        // SAFETY: `self.0` came from BN_MONT_CTX_new, is non-null and is freed
        // exactly once, here.
        unsafe { BN_MONT_CTX_free(self.0) }
    }
}

fn odd_modulus(m_hex: &str) -> BigNum {
    let m = parse_bn(m_hex);
    assert!(
        m.is_bit_set(0) && !m.is_negative() && m.num_bits() > 1,
        "Montgomery needs an odd modulus > 1"
    );
    m
}

fn reduced(x_hex: &str, m: &BigNumRef, ctx: &mut BigNumContext) -> BigNum {
    let x = parse_bn(x_hex);
    let mut r = BigNum::new().expect("BN_new");
    r.nnmod(&x, m, ctx).expect("BN_nnmod");
    r
}

/// `r = a * b * R^-1 mod m` with `BN_mod_mul_montgomery`; the operands are
/// converted to Montgomery form in `new`, so `run` is one Montgomery product
/// and [`result_hex`](Self::result_hex) reports the ordinary `a * b mod m`.
pub struct OpensslMontMul {
    a_mont: BigNum,
    b_mont: BigNum,
    r: BigNum,
    mont: MontCtx,
    ctx: BigNumContext,
}

impl OpensslMontMul {
    /// `a` and `b` are first reduced modulo `m`.
    ///
    /// # Panics
    /// On malformed hex or an even modulus / modulus `<= 1`.
    pub fn new(a_hex: &str, b_hex: &str, m_hex: &str) -> Self {
        let mut ctx = BigNumContext::new().expect("BN_CTX_new");
        let m = odd_modulus(m_hex);
        let mont = MontCtx::new(&m, &mut ctx);
        let to_mont = |x: BigNum, ctx: &mut BigNumContext| {
            let xm = BigNum::new().expect("BN_new");
            // SAFETY: all pointers are live OpenSSL objects owned or
            // borrowed here; `xm` and `x` are distinct objects; `x < m`.
            check(
                unsafe { BN_to_montgomery(xm.as_ptr(), x.as_ptr(), mont.0, ctx.as_ptr()) },
                "BN_to_montgomery",
            );
            xm
        };
        let a_mont = to_mont(reduced(a_hex, &m, &mut ctx), &mut ctx);
        let b_mont = to_mont(reduced(b_hex, &m, &mut ctx), &mut ctx);
        // Pre-size the result so `run` does not allocate.
        let r = a_mont.to_owned().expect("BN_dup");
        Self { a_mont, b_mont, r, mont, ctx }
    }

    /// One `BN_mod_mul_montgomery`.
    #[inline]
    pub fn run(&mut self) {
        // SAFETY: every pointer refers to a live object owned by `self`; `r`
        // is distinct from the inputs (aliasing would be allowed anyway);
        // both inputs are in Montgomery form, i.e. reduced below m.
        check(
            unsafe {
                BN_mod_mul_montgomery(
                    self.r.as_ptr(),
                    self.a_mont.as_ptr(),
                    self.b_mont.as_ptr(),
                    self.mont.0,
                    self.ctx.as_ptr(),
                )
            },
            "BN_mod_mul_montgomery",
        );
    }

    /// The last product converted out of Montgomery form: `a * b mod m`.
    pub fn result_hex(&self) -> String {
        let out = BigNum::new().expect("BN_new");
        let ctx = BigNumContext::new().expect("BN_CTX_new");
        // SAFETY: live objects; `out` is distinct from `self.r`. OpenSSL does
        // not mutate the BN_MONT_CTX here (the pointer is non-const only for
        // historical reasons).
        check(
            unsafe { BN_from_montgomery(out.as_ptr(), self.r.as_ptr(), self.mont.0, ctx.as_ptr()) },
            "BN_from_montgomery",
        );
        bn_hex(&out)
    }
}

/// `r = base^exp mod m` with `BN_mod_exp_mont_consttime` and a precomputed
/// `BN_MONT_CTX`.
pub struct OpensslModExpConstTime {
    base: BigNum,
    exp: BigNum,
    m: BigNum,
    r: BigNum,
    mont: MontCtx,
    ctx: BigNumContext,
}

impl OpensslModExpConstTime {
    /// `base` is first reduced modulo `m`.
    ///
    /// # Panics
    /// On malformed hex, a negative exponent, or an even modulus / modulus
    /// `<= 1`.
    pub fn new(base_hex: &str, exp_hex: &str, m_hex: &str) -> Self {
        let mut ctx = BigNumContext::new().expect("BN_CTX_new");
        let m = odd_modulus(m_hex);
        let mont = MontCtx::new(&m, &mut ctx);
        let base = reduced(base_hex, &m, &mut ctx);
        let exp = parse_bn(exp_hex);
        assert!(!exp.is_negative(), "exponent must be non-negative");
        let r = m.to_owned().expect("BN_dup");
        Self { base, exp, m, r, mont, ctx }
    }

    /// One `BN_mod_exp_mont_consttime`.
    #[inline]
    pub fn run(&mut self) {
        // SAFETY: every pointer refers to a live object owned by `self`; `r`
        // is distinct from the inputs; `mont` was set up for this `m`; the
        // base is reduced and the exponent non-negative (checked in `new`).
        check(
            unsafe {
                BN_mod_exp_mont_consttime(
                    self.r.as_ptr(),
                    self.base.as_ptr(),
                    self.exp.as_ptr(),
                    self.m.as_ptr(),
                    self.ctx.as_ptr(),
                    self.mont.0,
                )
            },
            "BN_mod_exp_mont_consttime",
        );
    }

    pub fn result_hex(&self) -> String {
        bn_hex(&self.r)
    }
}

/// Two exponentiations at once, `r1 = base^exp mod m` and `r2 = base2^exp2 mod m2` with
/// `BN_mod_exp_mont_consttime_x2`, the call RSA-CRT makes for its two primes: OpenSSL runs
/// its AVX-512 IFMA code only here (for two moduli of one supported size; 1024 bits in
/// OpenSSL 3.0, also 1536 and 2048 from 3.2), elsewhere two `BN_mod_exp_mont_consttime`.
/// A `run` is two exponentiations: callers halve its time for the cost of one.
pub struct OpensslModExpConstTimeX2 {
    one: OpensslModExpConstTime,
    two: OpensslModExpConstTime,
}

impl OpensslModExpConstTimeX2 {
    /// The first exponentiation is `base^exp mod m`, whose result `result_hex` reports; the
    /// second uses `base2`, `exp2`, `m2` (the same size as `m`).
    ///
    /// # Panics
    /// As [`OpensslModExpConstTime::new`].
    pub fn new(
        (base_hex, exp_hex, m_hex): (&str, &str, &str),
        (base2_hex, exp2_hex, m2_hex): (&str, &str, &str),
    ) -> Self {
        Self {
            one: OpensslModExpConstTime::new(base_hex, exp_hex, m_hex),
            two: OpensslModExpConstTime::new(base2_hex, exp2_hex, m2_hex),
        }
    }

    /// One `BN_mod_exp_mont_consttime_x2`: two exponentiations.
    #[inline]
    pub fn run(&mut self) {
        let (a, b) = (&mut self.one, &mut self.two);
        // SAFETY: every pointer refers to a live object owned by `self.one` or `self.two`;
        // each result is distinct from all inputs; each BN_MONT_CTX was set up for its own
        // modulus; both contexts' scratch comes from `self.one.ctx` (one BN_CTX per call).
        check(
            unsafe {
                BN_mod_exp_mont_consttime_x2(
                    a.r.as_ptr(),
                    a.base.as_ptr(),
                    a.exp.as_ptr(),
                    a.m.as_ptr(),
                    a.mont.0,
                    b.r.as_ptr(),
                    b.base.as_ptr(),
                    b.exp.as_ptr(),
                    b.m.as_ptr(),
                    b.mont.0,
                    a.ctx.as_ptr(),
                )
            },
            "BN_mod_exp_mont_consttime_x2",
        );
    }

    /// The first exponentiation's result.
    pub fn result_hex(&self) -> String {
        self.one.result_hex()
    }

    /// The second exponentiation's result.
    pub fn result2_hex(&self) -> String {
        self.two.result_hex()
    }
}

/// `r = a * b mod p256` with `BN_mul` followed by the special-form reduction
/// `BN_nist_mod_256`.
pub struct OpensslNist256 {
    a: BigNum,
    b: BigNum,
    t: BigNum,
    r: BigNum,
    ctx: BigNumContext,
}

impl OpensslNist256 {
    /// `a` and `b` are first reduced modulo the P-256 prime ([`P256_HEX`]).
    ///
    /// # Panics
    /// On malformed hex.
    pub fn new(a_hex: &str, b_hex: &str) -> Self {
        let mut ctx = BigNumContext::new().expect("BN_CTX_new");
        let p = parse_bn(P256_HEX);
        let a = reduced(a_hex, &p, &mut ctx);
        let b = reduced(b_hex, &p, &mut ctx);
        // Pre-size the scratch and result so `run` does not allocate.
        let mut t = BigNum::new().expect("BN_new");
        t.checked_mul(&p, &p, &mut ctx).expect("BN_mul");
        let r = p.to_owned().expect("BN_dup");
        Self { a, b, t, r, ctx }
    }

    /// One `BN_mul` + `BN_nist_mod_256`.
    #[inline]
    pub fn run(&mut self) {
        self.t.checked_mul(&self.a, &self.b, &mut self.ctx).expect("BN_mul");
        // SAFETY: `r`, `t` and `ctx` are live objects owned by `self` and `r`
        // is distinct from `t`; the prime is OpenSSL's static P-256 BIGNUM,
        // valid for the life of the process; `t = a * b < p^2` and `t >= 0`
        // as BN_nist_mod_256 requires.
        check(
            unsafe {
                BN_nist_mod_256(
                    self.r.as_ptr(),
                    self.t.as_ptr(),
                    BN_get0_nist_prime_256(),
                    self.ctx.as_ptr(),
                )
            },
            "BN_nist_mod_256",
        );
    }

    pub fn result_hex(&self) -> String {
        bn_hex(&self.r)
    }
}

// ---------------------------------------------------------------------------
// GMP, huge operands (paper 001's Figure 1: GMP's remainder over GMP's product)
// ---------------------------------------------------------------------------

fn int_from_limbs(limbs: &[u64]) -> Integer {
    Integer::from_digits(limbs, Order::Lsf)
}

/// `r = a * b` with GMP's `mpz_mul` on fixed operands (the product GMP's own
/// modular arithmetic uses; at large sizes GMP switches to its FFT).
pub struct GmpMul {
    a: Integer,
    b: Integer,
    r: Integer,
}

impl GmpMul {
    /// # Panics
    /// On malformed hex.
    pub fn new(a_hex: &str, b_hex: &str) -> Self {
        Self::from_ints(parse_int(a_hex), parse_int(b_hex))
    }

    /// The operands as little-endian 64-bit limbs (no parsing of huge hex strings).
    pub fn from_limbs(a: &[u64], b: &[u64]) -> Self {
        Self::from_ints(int_from_limbs(a), int_from_limbs(b))
    }

    fn from_ints(a: Integer, b: Integer) -> Self {
        let bits = a.significant_bits() as usize + b.significant_bits() as usize + 64;
        Self { a, b, r: Integer::with_capacity(bits) }
    }

    /// One `mpz_mul`.
    #[inline]
    pub fn run(&mut self) {
        self.r.assign(&self.a * &self.b);
    }

    pub fn result_hex(&self) -> String {
        int_hex(&self.r)
    }

    /// The product as little-endian 64-bit limbs.
    pub fn result_limbs(&self) -> Vec<u64> {
        self.r.to_digits::<u64>(Order::Lsf)
    }
}

/// `r = x mod m` with GMP's `mpz_tdiv_r` on a fixed `x` (typically a double-length
/// product) and modulus `m`. `run` copies `x` into the result and reduces it in place,
/// so each call does the same division; the copy is O(n), negligible beside it.
pub struct GmpTdivR {
    x: Integer,
    m: Integer,
    r: Integer,
}

impl GmpTdivR {
    /// # Panics
    /// On malformed hex or `m == 0`.
    pub fn new(x_hex: &str, m_hex: &str) -> Self {
        Self::from_ints(parse_int(x_hex), parse_int(m_hex))
    }

    /// The operands as little-endian 64-bit limbs.
    ///
    /// # Panics
    /// If `m` is zero.
    pub fn from_limbs(x: &[u64], m: &[u64]) -> Self {
        Self::from_ints(int_from_limbs(x), int_from_limbs(m))
    }

    fn from_ints(x: Integer, m: Integer) -> Self {
        assert!(m != 0, "modulus must be non-zero");
        let bits = x.significant_bits() as usize + 64;
        Self { x, m, r: Integer::with_capacity(bits) }
    }

    /// One `mpz_tdiv_r` (after an O(n) copy of `x`).
    #[inline]
    pub fn run(&mut self) {
        self.r.assign(&self.x);
        self.r %= &self.m;
    }

    pub fn result_hex(&self) -> String {
        int_hex(&self.r)
    }

    /// The remainder as little-endian 64-bit limbs.
    pub fn result_limbs(&self) -> Vec<u64> {
        self.r.to_digits::<u64>(Order::Lsf)
    }
}

// ---------------------------------------------------------------------------
// Anchors for `modred bench`: one reduction alone, and squaring.
// ---------------------------------------------------------------------------

/// `r = x mod m` with GMP's `mpz_tdiv_r` alone (the reduction of a number already
/// multiplied out, as `modred bench --op reduce` times ours).
pub struct GmpRem {
    x: Integer,
    m: Integer,
    r: Integer,
}

impl GmpRem {
    /// # Panics
    /// On malformed hex or `m == 0`.
    pub fn new(x_hex: &str, m_hex: &str) -> Self {
        let m = parse_int(m_hex);
        assert!(m != 0, "modulus must be non-zero");
        let r = Integer::with_capacity(m.significant_bits() as usize + 64);
        Self { x: parse_int(x_hex), m, r }
    }

    /// One `mpz_tdiv_r`.
    #[inline]
    pub fn run(&mut self) {
        self.r.assign(&self.x % &self.m);
    }

    pub fn result_hex(&self) -> String {
        int_hex(&self.r)
    }
}

/// Low-level `mpn_sqr`: the `2n`-limb square of an `n`-limb number into a
/// preallocated buffer (GMP's dedicated squaring, the counterpart of
/// [`GmpMulN`]).
pub struct GmpSqrN {
    a: Vec<gmp::limb_t>,
    r: Vec<gmp::limb_t>,
}

impl GmpSqrN {
    /// # Panics
    /// On malformed hex or a negative operand.
    pub fn new(a_hex: &str) -> Self {
        let a = parse_int(a_hex);
        assert!(a >= 0, "mpn operands must be non-negative");
        let mut a = a.to_digits::<gmp::limb_t>(Order::Lsf);
        let n = a.len().max(1);
        a.resize(n, 0);
        Self { a, r: vec![0; 2 * n] }
    }

    /// One `mpn_sqr`.
    #[inline]
    pub fn run(&mut self) {
        let n = self.a.len();
        debug_assert!(self.r.len() == 2 * n);
        // SAFETY: `a` is valid for reads of `n >= 1` limbs (checked in `new`),
        // `r` for writes of `2n` limbs and is a separate allocation, so the
        // operands do not overlap, as mpn_sqr requires.
        unsafe {
            gmp::mpn_sqr(self.r.as_mut_ptr(), self.a.as_ptr(), n as gmp::size_t);
        }
    }

    pub fn result_hex(&self) -> String {
        int_hex(&Integer::from_digits(&self.r, Order::Lsf))
    }
}

/// `r = a² · R^-1 mod m` with `BN_mod_mul_montgomery(r, a, a, …)`: the same
/// BIGNUM passed twice, so OpenSSL takes its squaring path. [`result_hex`]
/// reports the ordinary `a² mod m`.
///
/// [`result_hex`]: Self::result_hex
pub struct OpensslMontSqr {
    inner: OpensslMontMul,
}

impl OpensslMontSqr {
    /// `a` is first reduced modulo `m`.
    ///
    /// # Panics
    /// On malformed hex or an even modulus / modulus `<= 1`.
    pub fn new(a_hex: &str, m_hex: &str) -> Self {
        Self { inner: OpensslMontMul::new(a_hex, a_hex, m_hex) }
    }

    /// One `BN_mod_mul_montgomery` with both operands the same BIGNUM.
    #[inline]
    pub fn run(&mut self) {
        let s = &mut self.inner;
        // SAFETY: every pointer refers to a live object owned by `s`; `r` is
        // distinct from the input; the input is in Montgomery form (below m).
        check(
            unsafe {
                BN_mod_mul_montgomery(
                    s.r.as_ptr(),
                    s.a_mont.as_ptr(),
                    s.a_mont.as_ptr(),
                    s.mont.0,
                    s.ctx.as_ptr(),
                )
            },
            "BN_mod_mul_montgomery",
        );
    }

    pub fn result_hex(&self) -> String {
        self.inner.result_hex()
    }
}

/// `r = x · R^-1 mod m` with `BN_from_montgomery`: Montgomery's reduction
/// alone (REDC), the counterpart of `modred`'s `montgomery` reducer's
/// `reduce_raw`. [`result_hex`](Self::result_hex) reports `x · R^-1 mod m`.
pub struct OpensslMontRedc {
    x: BigNum,
    r: BigNum,
    mont: MontCtx,
    ctx: BigNumContext,
}

impl OpensslMontRedc {
    /// # Panics
    /// On malformed hex, an even modulus / modulus `<= 1`, or `x >= m²`.
    pub fn new(x_hex: &str, m_hex: &str) -> Self {
        let mut ctx = BigNumContext::new().expect("BN_CTX_new");
        let m = odd_modulus(m_hex);
        let mont = MontCtx::new(&m, &mut ctx);
        let x = parse_bn(x_hex);
        let mut m2 = BigNum::new().expect("BN_new");
        m2.checked_mul(&m, &m, &mut ctx).expect("BN_mul");
        assert!(!x.is_negative() && x < m2, "BN_from_montgomery needs 0 <= x < m^2");
        let r = m.to_owned().expect("BN_dup");
        Self { x, r, mont, ctx }
    }

    /// One `BN_from_montgomery`.
    #[inline]
    pub fn run(&mut self) {
        // SAFETY: every pointer refers to a live object owned by `self`; `r`
        // is distinct from `x`; `0 <= x < m²` (checked in `new`).
        check(
            unsafe {
                BN_from_montgomery(self.r.as_ptr(), self.x.as_ptr(), self.mont.0, self.ctx.as_ptr())
            },
            "BN_from_montgomery",
        );
    }

    pub fn result_hex(&self) -> String {
        bn_hex(&self.r)
    }
}
