//! Arbitrary bytes as (modulus, x, y, exponent, method): every algorithm in
//! `Algorithm::ALL` that applies is cross-checked against num-bigint (an independent
//! oracle) on reduce, to/from residue, mul, sqr and exponentiation, with 64-bit and
//! 8-bit digits; the constant-time API and `Modulus` on top. A new algorithm is covered
//! by being in `Algorithm::ALL`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use modred::exp::{self, Method};
use modred::reduce::make;
use modred::{Algorithm, Error, Limb, Modulus, Nat};
use num_bigint::BigUint;

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
    let (mn, xn, yn, en) = (nat::<L>(m), nat::<L>(x), nat::<L>(y), nat::<L>(e));
    let (bm, bx, by, be) = (
        BigUint::from_bytes_le(m),
        BigUint::from_bytes_le(x),
        BigUint::from_bytes_le(y),
        BigUint::from_bytes_le(e),
    );
    assert_eq!(big(&mn), bm, "byte conversion");
    for &alg in Algorithm::ALL.iter().filter(|&&a| a != Algorithm::Auto) {
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
        let p = exp::pow_vartime(&*r, &a, &en, method).expect("valid method");
        assert_eq!(big(&r.from_residue(&p)), bx.modpow(&be, &bm), "{alg:?} pow {method:?}");
    }
}

fn check_modulus(m: &[u8], x: &[u8], y: &[u8], e: &[u8]) {
    let (mn, xn, yn, en) = (nat::<u64>(m), nat::<u64>(x), nat::<u64>(y), nat::<u64>(e));
    let (bm, bx, by, be) = (
        BigUint::from_bytes_le(m),
        BigUint::from_bytes_le(x),
        BigUint::from_bytes_le(y),
        BigUint::from_bytes_le(e),
    );
    for &alg in Algorithm::ALL {
        let Ok(ctx) = Modulus::with(alg, &mn) else { continue };
        let (a, b) = (ctx.residue(&xn), ctx.residue(&yn));
        let val = |r: &modred::Residue| big(&ctx.to_nat(r));
        assert_eq!(val(&ctx.add(&a, &b)), (&bx + &by) % &bm, "{alg:?} add");
        assert_eq!(val(&ctx.sub(&a, &b)), (&bx % &bm + &bm - &by % &bm) % &bm, "{alg:?} sub");
        assert_eq!(val(&ctx.neg(&a)), (&bm - &bx % &bm) % &bm, "{alg:?} neg");
        assert_eq!(big(&ctx.mul_mod(&xn, &yn)), &bx * &by % &bm, "{alg:?} mul_mod");
        assert_eq!(big(&ctx.pow_mod_vartime(&xn, &en)), bx.modpow(&be, &bm), "{alg:?} pow_mod");
        match ctx.pow_ct(&a, &en) {
            Ok(p) => assert_eq!(val(&p), bx.modpow(&be, &bm), "{alg:?} pow_ct"),
            Err(Error::NotApplicable { .. }) => assert!(!mn.is_odd()),
            Err(Error::OutOfRange { .. }) => assert!(en.len() > mn.len()),
            Err(other) => panic!("{alg:?}: unexpected error {other:?}"),
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
    let m = input.number(64);
    let x = input.number(136);
    let y = input.number(64);
    let e = input.number(16);
    let method = match flags & 3 {
        0 => Method::Binary,
        1 => Method::FixedWindow((flags >> 2) as u32 % 6 + 1),
        _ => Method::SlidingWindow((flags >> 2) as u32 % 6 + 1),
    };
    check_all::<u64>(&m, &x, &y, &e, method);
    if flags & 0x80 != 0 && m.len() <= 24 {
        check_all::<u8>(&m, &x, &y, &e, method);
    }
    check_modulus(&m, &x, &y, &e);
});
