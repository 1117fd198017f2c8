//! Arbitrary bytes as (modulus, x, y, exponent, method): every algorithm of the registry
//! (`modred::registry::ALGORITHMS`) that applies is cross-checked against num-bigint (an independent
//! oracle) on reduce, to/from residue, mul, sqr and exponentiation, with 64-bit and
//! 8-bit digits; the constant-time API and `Modulus` on top. A new algorithm is covered
//! by its registry entry.
//!
//! Sizes are capped per algorithm class ([`caps`]) so that the target runs hundreds to
//! thousands of inputs a second: a bit-serial product costs a pass over the operand per
//! modulus bit, so the radix-2 reducers see moduli of up to 256 bits and one-byte
//! exponents; Hong's and the transform reducers moduli of up to 256 bits and 16-bit
//! exponents; every other reducer moduli of up to 576 bits (P-521 fits) and 32-bit
//! exponents (windows of up to 6 bits still see several windows). With 8-bit digits the
//! moduli are capped at a quarter of that and the exponents at 16 bits. No algorithm is
//! dropped: an input beyond an algorithm's cap checks the others, and the exponent is cut
//! to the cap (the oracle computes with the same cut exponent). The constant-time
//! exponentiation, whose time is set by the modulus width and not by the exponent, reads
//! the whole exponent, once per input, through the `Modulus` of the algorithm the input's
//! last byte picks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use modred::exp::{self, Method};
use modred::reduce::make;
use modred::{Algorithm, Error, Limb, Modulus, Nat};
use num_bigint::BigUint;

/// The largest modulus, in bytes, the parser reads (72: P-521's 66 bytes fit).
const MAX_M: usize = 72;

/// `(largest modulus in bytes, largest exponent in bytes)` for `alg` with `digit_bits`-bit
/// digits: the cost caps of the module doc.
fn caps(alg: Algorithm, digit_bits: u32) -> (usize, usize) {
    let (m_max, e_max) = match alg {
        // Bit-serial: a pass over the operand's digits per modulus bit, per product. The
        // exponentiation code is shared with every other reducer: one exponent byte
        // (about a dozen products) checks that the reducer plugs into it.
        Algorithm::Radix2Montgomery | Algorithm::Radix2MontgomeryRecoded => (32, 1),
        // Table-based window steps (one per w bits of each operand) and, at these sizes,
        // transforms dominated by their set-up.
        Algorithm::Hong | Algorithm::NttBarrett | Algorithm::NttMontgomery => (32, 2),
        _ => (MAX_M, 4),
    };
    if digit_bits == 8 {
        // Eight times the digits per product: the same code paths at a quarter the size.
        (m_max / 4, e_max.min(2))
    } else {
        (m_max, e_max)
    }
}

/// `x^e mod m` by the oracle, for the exponent cut to `e_max` bytes (computed once per cut).
struct Powers<'a> {
    bx: &'a BigUint,
    bm: &'a BigUint,
    e: &'a [u8],
    cache: Vec<(usize, BigUint, BigUint)>,
}

impl<'a> Powers<'a> {
    fn new(bx: &'a BigUint, bm: &'a BigUint, e: &'a [u8]) -> Self {
        Powers { bx, bm, e, cache: Vec::new() }
    }
    /// The cut exponent and the oracle's power.
    fn get(&mut self, e_max: usize) -> (BigUint, BigUint) {
        let len = self.e.len().min(e_max);
        if let Some((_, e, p)) = self.cache.iter().find(|c| c.0 == len) {
            return (e.clone(), p.clone());
        }
        let e = BigUint::from_bytes_le(&self.e[..len]);
        let p = self.bx.modpow(&e, self.bm);
        self.cache.push((len, e.clone(), p.clone()));
        (e, p)
    }
}

struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn byte(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map(|(b, r)| (*b, r)).unwrap_or((0, &[]));
        self.0 = rest;
        b
    }
    /// A little-endian number of at most `max` bytes, its length read first.
    fn number(&mut self, max: usize) -> Vec<u8> {
        let len = (self.byte() as usize).min(max).min(self.0.len());
        let (n, rest) = self.0.split_at(len);
        self.0 = rest;
        n.to_vec()
    }
}

fn nat<L: Limb>(bytes_le: &[u8]) -> Nat<L> {
    let per = (L::BITS / 8) as usize;
    Nat::from_vec(
        bytes_le
            .chunks(per)
            .map(|c| L::from_u64(c.iter().rev().fold(0u64, |v, &b| (v << 8) | b as u64)))
            .collect(),
    )
}

fn big<L: Limb>(n: &Nat<L>) -> BigUint {
    let bytes: Vec<u8> = n
        .limbs()
        .iter()
        .flat_map(|d| d.to_u64().to_le_bytes().into_iter().take((L::BITS / 8) as usize))
        .collect();
    BigUint::from_bytes_le(&bytes)
}

fn check_all<L: Limb>(m: &[u8], x: &[u8], y: &[u8], e: &[u8], method: Method) {
    let (mn, xn, yn) = (nat::<L>(m), nat::<L>(x), nat::<L>(y));
    let (bm, bx, by) =
        (BigUint::from_bytes_le(m), BigUint::from_bytes_le(x), BigUint::from_bytes_le(y));
    assert_eq!(big(&mn), bm, "byte conversion");
    let mut powers = Powers::new(&bx, &bm, e);
    for alg in modred::registry::ALGORITHMS.iter().map(|i| i.algorithm) {
        let (m_max, e_max) = caps(alg, L::BITS);
        if m.len() > m_max {
            continue;
        }
        let r = match make::<L>(alg, &mn) {
            Ok(r) => r,
            Err(Error::ZeroModulus) => {
                assert!(mn.is_zero());
                continue;
            }
            Err(Error::NotApplicable { .. }) => {
                assert!(!mn.is_zero());
                continue;
            }
            Err(other) => panic!("{alg:?}: unexpected error {other:?}"),
        };
        assert!(!mn.is_zero(), "{alg:?} accepted a zero modulus");
        let want_x = &bx % &bm;
        match r.reduce(&xn) {
            Ok(v) => assert_eq!(big(&v), want_x, "{alg:?} reduce"),
            Err(Error::OutOfRange { .. }) => assert!(!r.input_bound().admits(&xn)),
            Err(other) => panic!("{alg:?}: unexpected error {other:?}"),
        }
        let (a, b) = (r.to_residue(&xn), r.to_residue(&yn));
        assert_eq!(a.len(), r.width());
        assert_eq!(big(&r.from_residue(&a)), want_x, "{alg:?} residue round trip");
        let mut out = vec![L::ZERO; r.width()];
        let mut scratch = modred::Scratch::new();
        r.mul(&mut out, &a, &b, &mut scratch);
        assert_eq!(big(&r.from_residue(&out)), &bx * &by % &bm, "{alg:?} mul");
        r.sqr(&mut out, &a, &mut scratch);
        assert_eq!(big(&r.from_residue(&out)), &bx * &bx % &bm, "{alg:?} sqr");
        let (be, want) = powers.get(e_max);
        let en = nat::<L>(&be.to_bytes_le());
        let p = exp::pow_vartime(&*r, &a, &en, method).expect("valid method");
        assert_eq!(big(&r.from_residue(&p)), want, "{alg:?} pow {method:?}");
    }
}

fn check_modulus(m: &[u8], x: &[u8], y: &[u8], e: &[u8], pick: u8) {
    let (mn, xn, yn) = (nat::<u64>(m), nat::<u64>(x), nat::<u64>(y));
    let (bm, bx, by) =
        (BigUint::from_bytes_le(m), BigUint::from_bytes_le(x), BigUint::from_bytes_le(y));
    let mut powers = Powers::new(&bx, &bm, e);
    let ct_alg = Algorithm::ALL[pick as usize % Algorithm::ALL.len()];
    for &alg in Algorithm::ALL {
        let (m_max, e_max) = caps(alg, 64);
        if m.len() > m_max {
            continue;
        }
        let Ok(ctx) = Modulus::with(alg, &mn) else { continue };
        let (a, b) = (ctx.residue(&xn), ctx.residue(&yn));
        let val = |r: &modred::Residue| big(&ctx.to_nat(r).expect("a residue of ctx"));
        let own = |r: Result<modred::Residue, Error>| r.expect("residues of ctx");
        assert_eq!(val(&own(ctx.add(&a, &b))), (&bx + &by) % &bm, "{alg:?} add");
        assert_eq!(val(&own(ctx.sub(&a, &b))), (&bx % &bm + &bm - &by % &bm) % &bm, "{alg:?} sub");
        assert_eq!(val(&own(ctx.neg(&a))), (&bm - &bx % &bm) % &bm, "{alg:?} neg");
        assert_eq!(big(&ctx.mul_mod(&xn, &yn)), &bx * &by % &bm, "{alg:?} mul_mod");
        let (be, want) = powers.get(e_max);
        let en = nat::<u64>(&be.to_bytes_le());
        let p = ctx.pow_mod_vartime(&xn, &en).expect("within the default work limit");
        assert_eq!(big(&p), want, "{alg:?} pow_mod");
        if alg == ct_alg {
            let (be, want) = powers.get(usize::MAX);
            let en = nat::<u64>(&be.to_bytes_le());
            match ctx.pow_ct(&a, &en) {
                Ok(p) => assert_eq!(val(&p), want, "{alg:?} pow_ct"),
                Err(Error::NotApplicable { .. }) => assert!(!mn.is_odd()),
                Err(Error::OutOfRange { .. }) => assert!(en.len() > mn.len()),
                Err(other) => panic!("{alg:?}: unexpected error {other:?}"),
            }
        }
        match ctx.mul_ct(&a, &b) {
            Ok(p) => assert_eq!(val(&p), &bx * &by % &bm, "{alg:?} mul_ct"),
            Err(_) => assert!(!mn.is_odd()),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let flags = input.byte();
    let m = input.number(MAX_M);
    let x = input.number(2 * MAX_M + 8);
    let y = input.number(MAX_M);
    let e = input.number(16);
    // Which algorithm's `Modulus` runs the constant-time exponentiation (0 when absent).
    let pick = input.byte();
    let method = match flags & 3 {
        0 => Method::Binary,
        1 => Method::FixedWindow((flags >> 2) as u32 % 6 + 1),
        _ => Method::SlidingWindow((flags >> 2) as u32 % 6 + 1),
    };
    check_all::<u64>(&m, &x, &y, &e, method);
    if flags & 0x80 != 0 {
        check_all::<u8>(&m, &x, &y, &e, method);
    }
    check_modulus(&m, &x, &y, &e, pick);
});
