//! Helpers shared by the `reduce_*` tests: draws of the fixed-seed generator and conversions to the
//! `num-bigint` oracle, and one check of a reducer against it.

#![allow(dead_code)]

use modred::reduce::{make, Bound, Reducer, Scratch};
use modred::{Algorithm, Error, Limb, Nat};
use modred_testkit::SplitMix64;
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// The general-purpose reducers (any modulus; an odd one for the Montgomery forms), which
/// [`check_all`] runs and compares on every modulus. The crate's other reducers (radix-2,
/// transform, Hong's, the special forms) have tests of their own.
pub const ALGORITHMS: [Algorithm; 4] = [
    Algorithm::Classical,
    Algorithm::Barrett,
    Algorithm::Montgomery,
    Algorithm::MontgomeryInterleaved,
];

/// Whether `alg` applies to `m` (`m > 0`): the Montgomery forms need an odd modulus.
pub fn applies<L: Limb>(alg: Algorithm, m: &Nat<L>) -> bool {
    match alg {
        Algorithm::Montgomery
        | Algorithm::MontgomeryInterleaved
        | Algorithm::Radix2Montgomery
        | Algorithm::Radix2MontgomeryRecoded => m.is_odd(),
        _ => true,
    }
}

/// The representation factor ρ of `alg` modulo `m` (`k` digits): `b^k` for Montgomery,
/// `2^bits(m)` for radix-2 Montgomery, `2^(bits(m)+1)` for its recoded form, else 1.
pub fn rho_of<L: Limb>(alg: Algorithm, m: &BigUint, k: usize) -> BigUint {
    match alg {
        Algorithm::Radix2Montgomery => (BigUint::one() << m.bits()) % m,
        Algorithm::Radix2MontgomeryRecoded => (BigUint::one() << (m.bits() + 1)) % m,
        a if is_montgomery(a) => pow_b::<L>(k) % m,
        _ => BigUint::one() % m,
    }
}

/// Whether `alg` works in Montgomery's representation (ρ = R = b^k).
pub fn is_montgomery(alg: Algorithm) -> bool {
    matches!(alg, Algorithm::Montgomery | Algorithm::MontgomeryInterleaved)
}

/// Draws from the testkit's fixed-seed generator (every random test is reproducible) as
/// num-bigint numbers, the oracle's type.
pub trait BigDraws {
    /// A uniformly random number below `2^bits`.
    fn big_bits(&mut self, bits: u64) -> BigUint;
    /// Exactly `bits ≥ 1` bits.
    fn big_exact_bits(&mut self, bits: u64) -> BigUint;
    /// Uniform below `n > 0`.
    fn big_below(&mut self, n: &BigUint) -> BigUint;
    /// A number of `k` digits of `digit_bits` bits, each digit drawn from the values that
    /// stress carries and estimates (0, 1, b/2 − 1, b/2, b − 2, b − 1) or random.
    fn big_structured(&mut self, k: usize, digit_bits: u32) -> BigUint;
}

impl BigDraws for SplitMix64 {
    fn big_bits(&mut self, bits: u64) -> BigUint {
        let words = bits.div_ceil(64) as usize;
        let mut bytes = Vec::with_capacity(8 * words);
        for _ in 0..words {
            bytes.extend_from_slice(&self.next_u64().to_le_bytes());
        }
        let x = BigUint::from_bytes_le(&bytes);
        x & ((BigUint::one() << bits) - 1u32)
    }
    fn big_exact_bits(&mut self, bits: u64) -> BigUint {
        self.big_bits(bits - 1) | (BigUint::one() << (bits - 1))
    }
    fn big_below(&mut self, n: &BigUint) -> BigUint {
        if n.is_zero() {
            return BigUint::zero();
        }
        let bits = n.bits();
        loop {
            let x = self.big_bits(bits);
            if x < *n {
                return x;
            }
        }
    }
    fn big_structured(&mut self, k: usize, digit_bits: u32) -> BigUint {
        let b = 1u128 << digit_bits;
        let mut x = BigUint::zero();
        for _ in 0..k {
            let d = match self.below_u64(10) {
                0 => 0,
                1 => 1,
                2 => b / 2 - 1,
                3 => b / 2,
                4 => b - 2,
                5 => b - 1,
                _ => self.next_u64() as u128 % b,
            };
            x = (x << digit_bits) + BigUint::from(d);
        }
        x
    }
}

pub fn to_big<L: Limb>(n: &Nat<L>) -> BigUint {
    BigUint::from_bytes_le(&n.to_bytes_le())
}

pub fn from_big<L: Limb>(x: &BigUint) -> Nat<L> {
    Nat::from_bytes_le(&x.to_bytes_le())
}

/// `b^e` for digits of type `L`.
pub fn pow_b<L: Limb>(e: usize) -> BigUint {
    BigUint::one() << (L::BITS as usize * e)
}

/// The bound of `r` as a number, or `None` when it is unbounded.
pub fn bound_of<L: Limb>(r: &dyn Reducer<L>) -> Option<BigUint> {
    match r.input_bound() {
        Bound::Unbounded => None,
        Bound::Below(b) => Some(to_big(&b)),
    }
}

/// The bound of `alg` for a `k`-digit `m`, computed independently of the reducer:
/// Barrett `b^(2k)`, Montgomery `m·b^k`, classical none.
pub fn expected_bound<L: Limb>(alg: Algorithm, m: &BigUint, k: usize) -> Option<BigUint> {
    match alg {
        Algorithm::Barrett => Some(pow_b::<L>(2 * k)),
        Algorithm::Montgomery | Algorithm::MontgomeryInterleaved => Some(m * pow_b::<L>(k)),
        // 2^(2N) when c = 2^N − m is one digit (the optimised fold), else unbounded.
        Algorithm::PseudoMersenne => {
            let n = m.bits();
            let c = (BigUint::one() << n) - m;
            (c < pow_b::<L>(1)).then(|| BigUint::one() << (2 * n))
        }
        Algorithm::Nist => Some(BigUint::one() << (2 * m.bits())),
        // b^(2n) for the word size of the polynomial found: 2n words of W bits.
        Algorithm::Solinas => {
            let f = modred::reduce::SolinasPoly::find(&from_big::<u64>(m))?;
            Some(BigUint::one() << (2 * f.degree() as u64 * f.word_bits() as u64))
        }
        Algorithm::Radix2Montgomery => Some(m << m.bits()),
        Algorithm::Radix2MontgomeryRecoded => Some(m << (m.bits() + 1)),
        _ => None,
    }
}

/// Checks reducer `alg` for modulus `m` against the oracle:
/// - `reduce(x)` is `x mod m` for every `x` in `xs` within the bound, `OutOfRange` beyond;
/// - `reduce_raw(x)` is `x·ρ⁻¹ mod m` (ρ = R for Montgomery), below `m`;
/// - `to_residue`/`from_residue` round-trip every `x` (any size) to `x mod m`;
/// - `mul` and `sqr` of the residues of every pair in `pairs` give `a·b mod m`, `a² mod m`.
///
/// Returns the standard results `x mod m` for `xs` (for cross-checks between reducers).
pub fn check<L: Limb>(
    alg: Algorithm,
    m: &BigUint,
    xs: &[BigUint],
    pairs: &[(BigUint, BigUint)],
) -> Vec<Option<BigUint>> {
    let mn: Nat<L> = from_big(m);
    let k = mn.len();
    let r = make(alg, &mn).unwrap_or_else(|e| panic!("{alg} for m = {m:#x}: {e}"));
    assert_eq!(r.width(), k);
    assert_eq!(r.algorithm(), alg);
    let bound = bound_of(&*r);
    assert_eq!(bound, expected_bound::<L>(alg, m, k), "{alg}: bound for m = {m:#x}");
    let rho = rho_of::<L>(alg, m, k);
    let mut scratch = Scratch::new();
    let mut out = vec![L::ZERO; k];
    let mut results = Vec::with_capacity(xs.len());
    for x in xs {
        let xn: Nat<L> = from_big(x);
        let want = x % m;
        let within = bound.as_ref().map_or(true, |b| x < b);
        match r.reduce(&xn) {
            Ok(v) => {
                assert!(within, "{alg}: reduce accepted {x:#x} beyond the bound, m = {m:#x}");
                assert_eq!(to_big(&v), want, "{alg}: reduce({x:#x}) mod {m:#x}");
            }
            Err(Error::OutOfRange { algorithm, .. }) => {
                assert!(!within, "{alg}: reduce refused {x:#x} within the bound, m = {m:#x}");
                assert_eq!(algorithm, alg.name());
            }
            Err(e) => panic!("{alg}: reduce({x:#x}) mod {m:#x}: unexpected {e}"),
        }
        if within {
            // The raw reduction, with the argument padded by a high zero digit.
            let mut xl = xn.limbs().to_vec();
            xl.push(L::ZERO);
            out.fill(L::MAX);
            r.reduce_raw(&mut out, &xl, &mut scratch);
            let got = to_big(&Nat::from_limbs(&out));
            assert!(got < *m, "{alg}: reduce_raw({x:#x}) = {got:#x} not below m = {m:#x}");
            assert_eq!((&got * &rho) % m, want, "{alg}: reduce_raw({x:#x}) mod {m:#x}");
        }
        let res = r.to_residue(&xn);
        assert_eq!(res.len(), k);
        assert_eq!(to_big(&r.from_residue(&res)), want, "{alg}: residue round trip {x:#x}");
        results.push(Some(want));
    }
    for (a, b) in pairs {
        let (ra, rb) = (r.to_residue(&from_big(a)), r.to_residue(&from_big(b)));
        out.fill(L::MAX);
        r.mul(&mut out, &ra, &rb, &mut scratch);
        assert!(to_big(&Nat::from_limbs(&out)) < *m, "{alg}: mul output not below m");
        let got = to_big(&r.from_residue(&out));
        assert_eq!(got, (a * b) % m, "{alg}: mul({a:#x}, {b:#x}) mod {m:#x}");
        out.fill(L::MAX);
        r.sqr(&mut out, &ra, &mut scratch);
        assert!(to_big(&Nat::from_limbs(&out)) < *m, "{alg}: sqr output not below m");
        let got = to_big(&r.from_residue(&out));
        assert_eq!(got, (a * a) % m, "{alg}: sqr({a:#x}) mod {m:#x}");
    }
    results
}

/// Runs [`check`] for every reducer that applies to `m` and checks that they agree.
pub fn check_all<L: Limb>(m: &BigUint, xs: &[BigUint], pairs: &[(BigUint, BigUint)]) {
    let mn: Nat<L> = from_big(m);
    let mut first: Option<(Algorithm, Vec<Option<BigUint>>)> = None;
    for alg in ALGORITHMS {
        if !applies(alg, &mn) {
            continue;
        }
        let res = check::<L>(alg, m, xs, pairs);
        match &first {
            None => first = Some((alg, res)),
            Some((a0, r0)) => assert_eq!(r0, &res, "{a0} and {alg} disagree for m = {m:#x}"),
        }
    }
}

/// The edge arguments for a `k`-digit modulus `m`: 0, 1, m − 1, m, m + 1, 2m − 1, m²,
/// m² − 1, (m − 1)², b^k ± 1, b^(2k) − 1, m·b^k − 1 and each bound − 1 and − 2, and
/// a few beyond the bounds (b^(2k), m·b^k, b^(3k)).
pub fn edge_xs<L: Limb>(m: &BigUint, k: usize) -> Vec<BigUint> {
    let one = BigUint::one();
    let bk = pow_b::<L>(k);
    let b2k = pow_b::<L>(2 * k);
    let mbk = m * &bk;
    let mut v = vec![
        BigUint::zero(),
        one.clone(),
        m - 1u32,
        m.clone(),
        m + 1u32,
        m * 2u32 - 1u32,
        m * 2u32,
        m * m,
        m * m - 1u32,
        (m - 1u32) * (m - 1u32),
        &bk - 1u32,
        bk.clone(),
        &bk + 1u32,
        &b2k - 1u32,
        &b2k - 2u32,
        b2k.clone(),
        &b2k + 1u32,
        &mbk - 1u32,
        &mbk - 2u32,
        mbk.clone(),
        &mbk + 1u32,
        pow_b::<L>(3 * k) - 1u32,
        pow_b::<L>(3 * k),
    ];
    v.sort();
    v.dedup();
    v
}

/// Edge moduli of exactly `k` digits: b^(k−1) (a power of b), b^(k−1) + 1, top digit 1
/// and b − 1 (random below), all ones, b^k − 2, b^k − small, and 2^(bits−1) ± 1.
pub fn edge_moduli<L: Limb>(k: usize, rng: &mut SplitMix64) -> Vec<BigUint> {
    let bits = L::BITS as u64;
    let bk1 = pow_b::<L>(k - 1);
    let bk = pow_b::<L>(k);
    let top = pow_b::<L>(1) - 1u32;
    let mut v = vec![
        bk1.clone(),
        &bk1 + 1u32,
        &bk1 + 3u32,
        &bk - 1u32,
        &bk - 2u32,
        &bk - 3u32,
        &bk - 5u32,
        (&bk >> 1usize) + 1u32,
        (&bk >> 1usize) - 1u32,
        &bk1 + rng.big_bits(bits * (k as u64 - 1)),
        &bk1 * &top + rng.big_bits(bits * (k as u64 - 1)),
        &bk1 * &top + (&bk1 - 1u32),
    ];
    v.retain(|m| *m >= bk1 && *m < bk && !m.is_zero());
    v.sort();
    v.dedup();
    v
}

/// Divisors of `k` digits whose leading digits make division's estimates (Algorithm D's,
/// Barrett's, a reciprocal's, the recursive division's) err most: top digit b/2 (the
/// smallest normalized), b^k/2 exactly, all ones, top digit b − 1, b^(k−1) and
/// b^(k−1) + 1 (normalization shifts by BITS − 1), random, and random a few bits short.
pub fn hard_divisors<L: Limb>(k: usize, rng: &mut SplitMix64) -> Vec<BigUint> {
    let w = L::BITS as u64;
    let bk1 = pow_b::<L>(k - 1);
    let half = BigUint::one() << (k as u64 * w - 1);
    let short = rng.below_u64(w);
    vec![
        &half + rng.big_bits((k as u64 - 1) * w),
        half.clone(),
        (BigUint::one() << (k as u64 * w)) - 1u32,
        &bk1 * ((BigUint::one() << w) - 1u32) + rng.big_bits((k as u64 - 1) * w),
        bk1.clone(),
        &bk1 + 1u32,
        rng.big_exact_bits(k as u64 * w),
        rng.big_exact_bits(k as u64 * w - short),
    ]
}
