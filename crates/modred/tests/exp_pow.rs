//! `exp::pow` against independent oracles: num-bigint's `modpow` on seeded random inputs
//! (8 to 8192 bits), naive `u128` exponentiation exhaustively at tiny sizes with `u8`
//! digits, and the operation counts each method documents.

use modred::exp::{self, Method};
use modred::reduce::Classical;
use modred::{Algorithm, Bound, Error, Limb, Nat, Reducer, Scratch};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use std::sync::atomic::{AtomicU64, Ordering};

// ---------------------------------------------------------------------------------------
// Helpers

/// The draws of these tests from the testkit's seeded generator (every run sees the same
/// inputs).
trait Draws {
    /// A number of exactly `bits` bits (`bits ≥ 1`).
    fn nat<L: Limb>(&mut self, bits: u64) -> Nat<L>;
    /// A number below `m` (uniform enough for tests).
    fn nat_below<L: Limb>(&mut self, m: &Nat<L>) -> Nat<L>;
}

impl Draws for SplitMix64 {
    fn nat<L: Limb>(&mut self, bits: u64) -> Nat<L> {
        let mut bytes: Vec<u8> =
            (0..bits.div_ceil(8)).map(|_| self.next_u64() as u8).collect::<Vec<_>>();
        let top = ((bits - 1) % 8) as u32;
        let last = bytes.last_mut().unwrap();
        *last = (*last & ((1u16 << (top + 1)) - 1) as u8) | (1 << top);
        Nat::from_bytes_le(&bytes)
    }

    fn nat_below<L: Limb>(&mut self, m: &Nat<L>) -> Nat<L> {
        let x: Nat<L> = self.nat(m.bits() + 8);
        &x % m
    }
}

fn big<L: Limb>(x: &Nat<L>) -> BigUint {
    BigUint::from_bytes_le(&x.to_bytes_le())
}

fn nat<L: Limb>(x: &BigUint) -> Nat<L> {
    Nat::from_bytes_le(&x.to_bytes_le())
}

fn all_ones<L: Limb>(bits: u64) -> Nat<L> {
    &Nat::power_of_two(bits) - &Nat::one()
}

/// Binary, fixed windows 1 to 8 and sliding windows 1 to 8.
fn methods() -> Vec<Method> {
    let mut v = vec![Method::Binary];
    v.extend((1..=8).map(Method::FixedWindow));
    v.extend((1..=8).map(Method::SlidingWindow));
    v
}

/// `base^e mod m` through `r` and `method`, for any `base` (converted in and out).
fn pow_via<L: Limb, R: Reducer<L> + ?Sized>(
    r: &R,
    base: &Nat<L>,
    e: &Nat<L>,
    method: Method,
) -> Nat<L> {
    let b = r.to_residue(base);
    let out = exp::pow_vartime(r, &b, e, method).unwrap();
    assert_eq!(out.len(), r.width(), "the result is a residue");
    r.from_residue(&out)
}

// ---------------------------------------------------------------------------------------
// A reducer in a Montgomery-like representation, to show that `pow` never assumes the
// standard one (that 1 is the digit 1, say). Its residue of x is x·R mod m, R = b^k; the
// reduction x ↦ x·R⁻¹ mod m multiplies by R⁻¹ (from num-bigint) and reduces classically.

struct Scaled {
    classical: Classical<u64>,
    r: Nat<u64>,
    r_inv: Nat<u64>,
}

impl Scaled {
    /// `x·f mod m` into `out`.
    fn mul_reduce(&self, out: &mut [u64], x: &[u64], f: &Nat<u64>) {
        let t = Nat::from_limbs(x).mul(f);
        self.classical.reduce_raw(out, t.limbs(), &mut Scratch::new());
    }
}

impl Reducer<u64> for Scaled {
    fn new(m: &Nat<u64>) -> Result<Self, Error> {
        let classical = Classical::new(m)?;
        let bm = big(m);
        let r = (BigUint::from(1u8) << (64 * m.len())) % &bm;
        let r_inv = r.modinv(&bm).ok_or(Error::InvalidArgument("even modulus".into()))?;
        Ok(Scaled { classical, r: nat(&r), r_inv: nat(&r_inv) })
    }
    fn algorithm(&self) -> Algorithm {
        Algorithm::Montgomery
    }
    fn modulus(&self) -> &Nat<u64> {
        self.classical.modulus()
    }
    fn input_bound(&self) -> Bound<u64> {
        Bound::Unbounded
    }
    fn reduce_raw(&self, out: &mut [u64], x: &[u64], _: &mut Scratch<u64>) {
        self.mul_reduce(out, x, &self.r_inv);
    }
    fn to_residue(&self, x: &Nat<u64>) -> Vec<u64> {
        let mut out = vec![0; self.width()];
        self.mul_reduce(&mut out, x.limbs(), &self.r);
        out
    }
    fn from_residue(&self, r: &[u64]) -> Nat<u64> {
        let mut out = vec![0; self.width()];
        self.mul_reduce(&mut out, r, &self.r_inv);
        Nat::from_vec(out)
    }
}

// ---------------------------------------------------------------------------------------
// A wrapper counting the multiplications and squarings a reducer is asked for.

struct Counting<R> {
    inner: R,
    muls: AtomicU64,
    sqrs: AtomicU64,
}

impl<L: Limb, R: Reducer<L>> Reducer<L> for Counting<R> {
    fn new(m: &Nat<L>) -> Result<Self, Error> {
        Ok(Counting { inner: R::new(m)?, muls: AtomicU64::new(0), sqrs: AtomicU64::new(0) })
    }
    fn algorithm(&self) -> Algorithm {
        self.inner.algorithm()
    }
    fn modulus(&self) -> &Nat<L> {
        self.inner.modulus()
    }
    fn input_bound(&self) -> Bound<L> {
        self.inner.input_bound()
    }
    fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        self.inner.reduce_raw(out, x, scratch)
    }
    fn mul(&self, out: &mut [L], a: &[L], b: &[L], scratch: &mut Scratch<L>) {
        self.muls.fetch_add(1, Ordering::Relaxed);
        self.inner.mul(out, a, b, scratch)
    }
    fn sqr(&self, out: &mut [L], a: &[L], scratch: &mut Scratch<L>) {
        self.sqrs.fetch_add(1, Ordering::Relaxed);
        self.inner.sqr(out, a, scratch)
    }
    fn to_residue(&self, x: &Nat<L>) -> Vec<L> {
        self.inner.to_residue(x)
    }
    fn from_residue(&self, r: &[L]) -> Nat<L> {
        self.inner.from_residue(r)
    }
}

/// The reducers `pow` is checked with for modulus `m`: every reducer of the crate that
/// applies to `m`, and the `Scaled` one above.
fn reducers(m: &Nat<u64>) -> Vec<Box<dyn Reducer<u64>>> {
    let mut v: Vec<Box<dyn Reducer<u64>>> = Vec::new();
    for &a in &modred::Algorithm::ALL[1..] {
        // hong's generic `mul` rebuilds the window table of its operand on every call (its
        // own exponentiation, `exp::hong`, shares the tables and is tested in tests/hong.rs):
        // through the generic `pow` only up to 521 bits, to keep the suite fast.
        if a == modred::Algorithm::Hong && m.bits() > 521 {
            continue;
        }
        // The bit-serial radix-2 reducers (paper 004) cost O(k²/64) word steps per
        // product: only up to 128 bits here (tests/radix2.rs checks them further).
        let bit_serial =
            matches!(a, Algorithm::Radix2Montgomery | Algorithm::Radix2MontgomeryRecoded);
        // The transform reducers (paper 001) pay three transforms per product, slow at
        // these sizes; through the generic `pow` up to 1024 bits (their own tests are in
        // tests/ntt_reduce.rs).
        let transform = matches!(a, Algorithm::NttBarrett | Algorithm::NttMontgomery);
        if (bit_serial && m.bits() > 128) || (transform && m.bits() > 1024) {
            continue;
        }
        if let Ok(r) = modred::reduce::make::<u64>(a, m) {
            v.push(r);
        }
    }
    // The representation does not depend on the size; the slow test reducer only up to
    // 521 bits keeps the suite fast.
    if let (true, Ok(s)) = (m.bits() <= 521, Scaled::new(m)) {
        v.push(Box::new(s));
    }
    v
}

/// Checks every method on every reducer for `m` against num-bigint.
fn check(m: &Nat<u64>, bases: &[Nat<u64>], exps: &[Nat<u64>], methods: &[Method]) {
    check_on(&reducers(m), m, bases, exps, methods)
}

fn check_on(
    reducers: &[Box<dyn Reducer<u64>>],
    m: &Nat<u64>,
    bases: &[Nat<u64>],
    exps: &[Nat<u64>],
    methods: &[Method],
) {
    let bm = big(m);
    for r in reducers {
        for base in bases {
            for e in exps {
                let expected = big(base).modpow(&big(e), &bm);
                for &method in methods {
                    let got = pow_via(&**r, base, e, method);
                    assert_eq!(
                        big(&got),
                        expected,
                        "{:?} with {}: {base:#x}^{e:#x} mod {m:#x}",
                        method,
                        r.algorithm()
                    );
                }
            }
        }
    }
}

/// Edge bases (0, 1, m − 1, m, m + 1, 2m² + 3) and one random one.
fn edge_bases(m: &Nat<u64>, rng: &mut SplitMix64) -> Vec<Nat<u64>> {
    let one = Nat::one();
    let mut v = vec![Nat::zero(), one.clone(), m.add(&one), m.sqr().shl(1).add(&Nat::from(3u64))];
    v.push(m.checked_sub(&one).unwrap());
    v.push(m.clone());
    v.push(rng.nat_below(m));
    v
}

/// Edge exponents (0, 1, 2, 3, all ones, a single high one bit) and random ones.
fn edge_exps(bits: u64, rng: &mut SplitMix64) -> Vec<Nat<u64>> {
    let mut v: Vec<Nat<u64>> = (0..4u64).map(Nat::from).collect();
    v.push(all_ones(bits));
    v.push(Nat::power_of_two(bits - 1));
    v.push(rng.nat(bits));
    v.push(rng.nat(bits.min(19)));
    v
}

/// Edge moduli of `bits` bits: random odd and even ones, all ones, 2^(bits−1) and
/// 2^(bits−1) + 1.
fn edge_moduli(bits: u64, rng: &mut SplitMix64) -> Vec<Nat<u64>> {
    let (x, y) = (rng.nat::<u64>(bits), rng.nat::<u64>(bits));
    let odd = if x.is_odd() { x } else { x.add(&Nat::one()) };
    let even = if y.is_odd() { &y - &Nat::one() } else { y };
    let p = Nat::power_of_two(bits - 1);
    vec![odd, even, all_ones(bits), p.clone(), p.add(&Nat::one())]
}

// ---------------------------------------------------------------------------------------
// Differential tests

#[test]
fn tiny_moduli() {
    let mut rng = SplitMix64::new(1);
    for m in [1u64, 2, 3, 4, 5, 6, 7, 8, 255, 256, 257] {
        let m = Nat::from(m);
        let bases = edge_bases(&m, &mut rng);
        let exps = edge_exps(64, &mut rng);
        check(&m, &bases, &exps, &methods());
    }
}

#[test]
fn edge_cases_small_sizes() {
    let mut rng = SplitMix64::new(2);
    for bits in [8, 16, 63, 64, 65, 127, 128, 129, 192] {
        for m in edge_moduli(bits, &mut rng) {
            let bases = edge_bases(&m, &mut rng);
            let exps = edge_exps(bits, &mut rng);
            check(&m, &bases, &exps, &methods());
        }
    }
}

#[test]
fn random_up_to_1024_bits() {
    let mut rng = SplitMix64::new(3);
    for bits in [256, 521, 1024] {
        for m in edge_moduli(bits, &mut rng).into_iter().take(3) {
            let bases = [rng.nat_below(&m), m.checked_sub(&Nat::one()).unwrap()];
            let exps = [rng.nat(bits), all_ones(bits), Nat::from(2u64)];
            check(&m, &bases, &exps, &methods());
        }
    }
}

#[test]
fn random_2048_bits() {
    let mut rng = SplitMix64::new(4);
    let bits = 2048;
    for m in edge_moduli(bits, &mut rng).into_iter().take(2) {
        let base = [rng.nat_below(&m)];
        check(&m, &base, &[rng.nat(bits)], &methods());
    }
}

/// The large sizes with short exponents, or few methods, so the suite stays fast; the
/// slow num-bigint-based test reducer only with 64-bit exponents.
#[test]
fn random_4096_and_8192_bits() {
    let mut rng = SplitMix64::new(5);
    for bits in [4096u64, 8192] {
        let m = &edge_moduli(bits, &mut rng)[0];
        let base = [rng.nat_below(m)];
        check(m, &base, &[rng.nat(64)], &methods());
        let classical: [Box<dyn Reducer<u64>>; 1] = [Box::new(Classical::new(m).unwrap())];
        let e = [rng.nat(bits / 8)];
        check_on(&classical, m, &base, &e, &[Method::Binary, Method::FixedWindow(4)]);
    }
}

/// One full-length exponentiation at 8192 bits, without the slow test reducer.
#[test]
fn full_length_8192_bits() {
    let mut rng = SplitMix64::new(13);
    let m = rng.nat::<u64>(8192).add(&Nat::one());
    let (base, e) = (rng.nat_below(&m), rng.nat(8192));
    let r = Classical::new(&m).unwrap();
    let got = pow_via(&r, &base, &e, exp::default_method(8192));
    assert_eq!(big(&got), big(&base).modpow(&big(&e), &big(&m)));
}

/// Windows wider than 8, up to 16, on short and medium exponents.
#[test]
fn wide_windows() {
    let mut rng = SplitMix64::new(6);
    let m = rng.nat::<u64>(200);
    let base = [rng.nat_below(&m)];
    let exps = [rng.nat(5), rng.nat(16), rng.nat(40), all_ones(17)];
    let ws: Vec<Method> =
        (9..=16).flat_map(|w| [Method::FixedWindow(w), Method::SlidingWindow(w)]).collect();
    check(&m, &base, &exps, &ws);
}

// ---------------------------------------------------------------------------------------
// Other digit sizes

/// `b^e mod m` by repeated multiplication in `u128`.
fn naive_pow(b: u64, e: u64, m: u64) -> u64 {
    let mut acc = 1 % m as u128;
    for _ in 0..e {
        acc = acc * b as u128 % m as u128;
    }
    acc as u64
}

/// Every modulus below 2^7 and every base below it, exponents 0 to 9, with `u8` digits;
/// then two-digit moduli with random bases.
#[test]
fn exhaustive_u8_digits() {
    let small: Vec<Method> = [Method::Binary]
        .into_iter()
        .chain((1..=4).map(Method::FixedWindow))
        .chain((1..=4).map(Method::SlidingWindow))
        .collect();
    for m in 1..128u64 {
        let r = Classical::<u8>::new(&Nat::from(m)).unwrap();
        for b in 0..m {
            for e in 0..10u64 {
                let expected = naive_pow(b, e, m);
                for &method in &small {
                    let got = pow_via(&r, &Nat::from(b), &Nat::from(e), method);
                    assert_eq!(got.to_u64(), Some(expected), "{method:?}: {b}^{e} mod {m}");
                }
            }
        }
    }
    let mut rng = SplitMix64::new(7);
    for m in [255u64, 256, 257, 300, 511, 4093, 32768, 65521, 65535] {
        let r = Classical::<u8>::new(&Nat::from(m)).unwrap();
        for _ in 0..20 {
            let (b, e) = (rng.next_u64() % (3 * m), rng.next_u64() % 300);
            let expected = naive_pow(b % m, e, m);
            for &method in &small {
                let got = pow_via(&r, &Nat::from(b), &Nat::from(e), method);
                assert_eq!(got.to_u64(), Some(expected), "{method:?}: {b}^{e} mod {m}");
            }
        }
    }
}

fn random_with_digits<L: Limb>(seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for bits in [17u64, 100, 300] {
        let m = rng.nat::<L>(bits);
        let r = Classical::<L>::new(&m).unwrap();
        let (base, e) = (rng.nat_below(&m), rng.nat::<L>(bits));
        let expected = big(&base).modpow(&big(&e), &big(&m));
        for method in methods() {
            assert_eq!(big(&pow_via(&r, &base, &e, method)), expected, "{method:?}");
        }
    }
}

#[test]
fn other_digit_sizes() {
    random_with_digits::<u8>(8);
    random_with_digits::<u16>(9);
    random_with_digits::<u32>(10);
}

// ---------------------------------------------------------------------------------------
// Operation counts, as documented on `Method`

/// (squarings, multiplications) the documentation of `method` promises for exponent `e`.
fn documented_cost(e: &Nat<u64>, method: Method) -> (u64, u64) {
    let n = e.bits();
    if n == 0 {
        return (0, 0);
    }
    let bits: Vec<bool> = (0..n).map(|i| e.bit(i)).collect();
    match method {
        Method::Binary => (n - 1, bits.iter().filter(|&&b| b).count() as u64 - 1),
        Method::FixedWindow(w) => {
            let w = (w as u64).min(n);
            let d = n.div_ceil(w);
            let table = (1u64 << (w - 1)) - 1;
            let nonzero = (0..d - 1)
                .filter(|&i| (i * w..(i + 1) * w).any(|j| j < n && bits[j as usize]))
                .count() as u64;
            (table + w * (d - 1), table + nonzero)
        }
        Method::SlidingWindow(w) => {
            let w = (w as u64).min(n);
            // Windows from the top: each starts at a one bit and ends at the lowest one
            // bit within w bits of it.
            let mut windows = Vec::new();
            let mut i = n as i64 - 1;
            while i >= 0 {
                if !bits[i as usize] {
                    i -= 1;
                    continue;
                }
                let mut low = (i - w as i64 + 1).max(0);
                while !bits[low as usize] {
                    low += 1;
                }
                windows.push((i - low + 1) as u64);
                i = low - 1;
            }
            let table_sqr = u64::from(w >= 2);
            let table_mul = (1u64 << (w - 1)) - 1;
            (table_sqr + n - windows[0], table_mul + windows.len() as u64 - 1)
        }
    }
}

#[test]
fn operation_counts_match_documentation() {
    let mut rng = SplitMix64::new(11);
    let m = rng.nat::<u64>(256);
    let base = rng.nat_below(&m);
    let mut exps: Vec<Nat<u64>> = (0..40u64).map(Nat::from).collect();
    exps.extend([all_ones(256), Nat::power_of_two(255), rng.nat(256), rng.nat(1000)]);
    for e in &exps {
        for method in methods() {
            let r = Counting::<Classical<u64>>::new(&m).unwrap();
            let b = r.to_residue(&base);
            exp::pow_vartime(&r, &b, e, method).unwrap();
            let got = (r.sqrs.load(Ordering::Relaxed), r.muls.load(Ordering::Relaxed));
            assert_eq!(got, documented_cost(e, method), "{method:?}, e = {e:#x}");
        }
    }
}

/// On a random 4096-bit exponent the documented averages hold: about n/2, n/w·(1 − 2^−w)
/// and n/(w + 1) multiplications in the loop.
#[test]
fn multiplications_near_expected_averages() {
    let mut rng = SplitMix64::new(12);
    let e: Nat<u64> = rng.nat(4096);
    let n = 4096.0;
    let loop_muls = |m: Method| {
        let (_, muls) = documented_cost(&e, m);
        let table = match m {
            Method::Binary => 0,
            Method::FixedWindow(w) | Method::SlidingWindow(w) => (1u64 << (w - 1)) - 1,
        };
        (muls - table) as f64
    };
    let near = |got: f64, want: f64| (got - want).abs() < 0.1 * want;
    assert!(near(loop_muls(Method::Binary), n / 2.0));
    for w in 2..=6 {
        let fixed = n / w as f64 * (1.0 - 0.5f64.powi(w as i32));
        assert!(near(loop_muls(Method::FixedWindow(w)), fixed), "fixed {w}");
        assert!(near(loop_muls(Method::SlidingWindow(w)), n / (w as f64 + 1.0)), "sliding {w}");
    }
}

// ---------------------------------------------------------------------------------------
// Errors and special cases

#[test]
fn invalid_windows_are_errors() {
    let m: Nat = Nat::from(1_000_003u64);
    let r = Classical::new(&m).unwrap();
    let b = r.to_residue(&Nat::from(5u64));
    let e = Nat::from(77u64);
    for w in [0, 17, 100, u32::MAX] {
        for method in [Method::FixedWindow(w), Method::SlidingWindow(w)] {
            match exp::pow_vartime(&r, &b, &e, method) {
                Err(Error::InvalidArgument(msg)) => assert!(msg.contains("window"), "{msg}"),
                other => panic!("{method:?}: {other:?}"),
            }
        }
    }
    // Invalid even when the exponent is zero.
    assert!(exp::pow_vartime(&r, &b, &Nat::zero(), Method::FixedWindow(0)).is_err());
    assert!(exp::pow_vartime(&r, &b, &e, Method::FixedWindow(16)).is_ok());
    assert!(exp::pow_vartime(&r, &b, &e, Method::SlidingWindow(16)).is_ok());
}

#[test]
fn bases_that_are_not_residues_are_errors() {
    let m = Nat::from_u128(1 << 70 | 1);
    let r = Classical::new(&m).unwrap();
    let e = Nat::from(3u64);
    for bad in [vec![], vec![1], vec![1, 0, 0], m.limbs().to_vec(), vec![u64::MAX, u64::MAX]] {
        assert!(
            matches!(
                exp::pow_vartime(&r, &bad, &e, Method::Binary),
                Err(Error::InvalidArgument(_))
            ),
            "{bad:?}"
        );
    }
}

#[test]
fn zero_exponent_gives_the_residue_of_one() {
    for m in [1u64, 2, 3, 1 << 40, (1 << 61) - 1] {
        let m = Nat::from(m);
        for r in reducers(&m) {
            for method in methods() {
                let zero = r.to_residue(&Nat::zero());
                let out = exp::pow_vartime(&*r, &zero, &Nat::zero(), method).unwrap();
                assert_eq!(out, r.to_residue(&Nat::one()), "{method:?} mod {m}");
                let expected = if m.is_one() { Nat::zero() } else { Nat::one() };
                assert_eq!(r.from_residue(&out), expected);
            }
        }
    }
}

#[test]
fn default_method_is_a_sliding_window() {
    assert_eq!(exp::default_method(1024), Method::SlidingWindow(exp::default_window(1024)));
    assert_eq!(exp::default_method(0), Method::SlidingWindow(1));
}

/// `Modulus`'s sliding windows on the fixed-size Montgomery and Barrett reducers (one to
/// eight digits; their own loop on arrays up to a 6-bit window), against num-bigint: edge
/// and random bases, exponents from one bit to twice the modulus, windows of one to seven
/// bits.
#[test]
fn fixed_size_sliding_windows_against_num_bigint() {
    let mut rng = SplitMix64::new(0xf1_5ed5);
    for digits in 1..=8u64 {
        let moduli = edge_moduli(64 * digits, &mut rng);
        let cases = moduli.iter().flat_map(|m| {
            let odd = m.is_odd().then_some((Algorithm::Montgomery, m));
            odd.into_iter().chain([(Algorithm::Barrett, m)])
        });
        for (algorithm, m) in cases {
            let m = m.clone();
            let md = modred::Modulus::with(algorithm, &m).unwrap();
            let mut exps = edge_exps(64 * digits, &mut rng);
            exps.extend([1u64, 2, 3, 31].map(|b| rng.nat(b)));
            exps.push(rng.nat(128 * digits));
            for x in edge_bases(&m, &mut rng) {
                for e in &exps {
                    let want = big(&x).modpow(&big(e), &big(&m));
                    for w in 1..=7 {
                        let r = md.pow_with_vartime(&md.residue(&x), e, Method::SlidingWindow(w));
                        let got = md.to_nat(&r.unwrap()).unwrap();
                        assert_eq!(big(&got), want, "{algorithm}, {digits} digits, window {w}");
                    }
                }
            }
        }
    }
}

/// The one-off exponentiation without a context (`Modulus::pow_mod_once`; `engine::once`
/// up to seven digits, a context beyond) against num-bigint: odd moduli of 65 to 640 bits
/// with all-ones and sparse edge cases, edge and random bases (also beyond the modulus)
/// and exponents.
#[test]
fn one_off_exponentiation_against_num_bigint() {
    let mut rng = SplitMix64::new(0x0ff_0e5);
    for bits in [65u64, 127, 128, 129, 191, 192, 193, 256, 320, 448, 449, 511, 512, 640] {
        let ones: Nat<u64> = all_ones(bits);
        let sparse = Nat::power_of_two(bits - 1).add(&Nat::one());
        let random = rng.nat::<u64>(bits).add(&Nat::one()).low_bits(bits);
        let random = if random.is_odd() { random } else { random.add(&Nat::one()) };
        for m in [ones, sparse, random] {
            let mut bases = edge_bases(&m, &mut rng);
            bases.push(rng.nat(2 * bits));
            for x in &bases {
                for e in &edge_exps(bits, &mut rng) {
                    let want = big(x).modpow(&big(e), &big(&m));
                    let got = modred::Modulus::pow_mod_once(x, e, &m, modred::Limits::new());
                    assert_eq!(big(&got.unwrap()), want, "{bits} bits, m {m}, x {x}, e {e}");
                }
            }
        }
    }
}
