//! Large moduli and algorithm-specific shapes, which `cross_algorithms` (moduli of at most
//! 576 bits) cannot reach: generic moduli of up to 32 768 bits, Solinas polynomials with
//! several high terms, pseudo-Mersenne and edge forms of up to 16 384 bits, Hong's reducer
//! at up to 8192 bits, and long exponents (up to 8192 bits) with the slow algorithms forced
//! (`radix2-montgomery`, `radix2-montgomery-recoded`, `classical`,
//! `montgomery-interleaved`).
//!
//! The input is a recipe, not the numbers: a shape, an algorithm, sizes and a seed from
//! which a fixed generator draws the numbers (so a 16-byte input names a 32 768-bit
//! modulus), and any further bytes overwrite the modulus's low bytes. Every request goes
//! through `Modulus::with_limits` with a work limit of [`MAX_WORK`]; each answer must equal
//! num-bigint's or be a clean refusal: `Err` with the error the request calls for (too much
//! work, an algorithm that does not apply, an argument beyond a forced algorithm's bound),
//! never a panic, a hang or a wrong number.
#![no_main]

use libfuzzer_sys::fuzz_target;
use modred::{Algorithm, Error, Limits, Modulus, Nat, Operation};
use num_bigint::BigUint;

/// The work limit of every request, in digit operations (`docs/limits.md`): 2^27 is a few
/// tenths of a second at most, so an input stays well under libFuzzer's timeout while the
/// slow algorithms still run products at thousands of bits and are refused beyond.
const MAX_WORK: u64 = 1 << 27;

/// The most work the oracle is given for one exponentiation, as exponent bits times the
/// square of the modulus's 64-bit digits (num-bigint's modpow is quadratic at these sizes):
/// a longer exponent is cut to fit, for modred and the oracle alike.
const ORACLE_POW_WORK: u64 = 1 << 26;

/// A fixed generator (xorshift64*): the numbers are a function of the input's seed.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A number of exactly `bits` bits (0 for `bits = 0`).
    fn bits(&mut self, bits: u64) -> BigUint {
        if bits == 0 {
            return BigUint::default();
        }
        let digits: Vec<u64> = (0..bits.div_ceil(64)).map(|_| self.next()).collect();
        let mut n = from_digits(&digits) & ((BigUint::from(1u8) << bits) - 1u8);
        n.set_bit(bits - 1, true);
        n
    }
}

fn from_digits(d: &[u64]) -> BigUint {
    BigUint::from_bytes_le(&d.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>())
}

fn nat(b: &BigUint) -> Nat {
    Nat::from_vec(b.to_u64_digits())
}

fn big(n: &Nat) -> BigUint {
    from_digits(n.limbs())
}

fn pow2(n: u64) -> BigUint {
    BigUint::from(1u8) << n
}

struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map(|(b, r)| (*b, r)).unwrap_or((0, &[]));
        self.0 = rest;
        b
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }
    fn u64(&mut self) -> u64 {
        (0..8).fold(0, |v, _| (v << 8) | self.byte() as u64)
    }
}

/// The slow algorithms the long exponents are forced through.
const SLOW: [Algorithm; 4] = [
    Algorithm::Radix2Montgomery,
    Algorithm::Radix2MontgomeryRecoded,
    Algorithm::Classical,
    Algorithm::MontgomeryInterleaved,
];

/// `(modulus, algorithm, exponent bits)` for the input's shape.
fn recipe(input: &mut Input, g: &mut Gen) -> (BigUint, Algorithm, u64) {
    let shape = input.byte() % 6;
    let pick = input.byte() as usize;
    let any = Algorithm::ALL[pick % Algorithm::ALL.len()];
    let size = input.u16() as u64;
    let e_bits = input.u16() as u64 % 8193;
    match shape {
        // Generic moduli of 64 to 32 768 bits, odd or even, any algorithm.
        0 => (g.bits(64 + size % 32705), any, e_bits),
        // Solinas polynomials f(t), t = 2^32 or 2^64, of degree up to 16 384 bits, with two to
        // five terms just below the top one and a constant term ±1.
        1 => {
            let w = if size & 1 == 0 { 32 } else { 64 };
            let d = 2 + (size >> 1) % (16384 / w);
            let mut m = pow2(d * w);
            let mut neg = BigUint::default();
            let terms = 2 + g.next() % 4;
            for _ in 0..terms {
                let i = d - 1 - g.next() % d.min(8);
                if g.next() & 1 == 0 {
                    m += pow2(i * w);
                } else {
                    neg += pow2(i * w);
                }
            }
            if g.next() & 1 == 0 {
                m += 1u8;
            } else {
                neg += 1u8;
            }
            // The top term outweighs the rest: at most five times t^(d−1), and 1.
            (m - neg, any, e_bits)
        }
        // Pseudo-Mersenne 2^n − c, c of up to n/2 − 1 bits.
        2 => {
            let n = 16 + size % 16369;
            let c_bits = 1 + g.next() % (n / 2 - 1).max(1);
            let c = g.bits(c_bits).max(BigUint::from(1u8));
            (pow2(n) - c, any, e_bits)
        }
        // Hong's reducer at up to 8192 bits.
        3 => (g.bits(64 + size % 8129), Algorithm::Hong, e_bits),
        // Long exponents through the slow algorithms, moduli of up to 4096 bits.
        4 => (g.bits(64 + size % 4033), SLOW[pick % SLOW.len()], 1024 + e_bits),
        // Edge forms: 2^n − 1, 2^n + 1, b^k − small, b^k + small.
        _ => {
            let n = 64 + size % 16321;
            let small = BigUint::from(g.next() >> (g.next() % 64));
            let m = match g.next() % 4 {
                0 => pow2(n) - 1u8,
                1 => pow2(n) + 1u8,
                2 => pow2(n / 64 * 64) - small.min(pow2(63)),
                _ => pow2(n / 64 * 64) + small,
            };
            (m, any, e_bits)
        }
    }
}

fn check(op: Operation, alg: Algorithm, m: &BigUint, x: &BigUint, y: &BigUint, e: &BigUint) {
    let mn = nat(m);
    let limits = Limits::new().with_max_work(MAX_WORK);
    let ctx = match Modulus::with_limits(alg, op, &mn, limits) {
        Ok(ctx) => ctx,
        Err(Error::ZeroModulus) => return assert!(mn.is_zero()),
        Err(Error::NotApplicable { .. }) => {
            return assert!(!alg.applies(&mn), "{alg:?} refused a modulus it applies to: {m}")
        }
        Err(Error::TooMuchWork { .. }) => return,
        Err(other) => panic!("{alg:?} {op:?}: unexpected error {other:?}"),
    };
    assert!(alg.applies(&mn), "{alg:?} accepted a modulus it does not apply to");
    match op {
        Operation::Reduce => match ctx.reduce(&nat(x)) {
            Ok(r) => assert_eq!(big(&r), x % m, "{alg:?} reduce"),
            Err(Error::OutOfRange { .. }) => assert!(alg != Algorithm::Auto, "auto out of range"),
            Err(Error::TooMuchWork { .. }) => {}
            Err(other) => panic!("{alg:?} reduce: unexpected error {other:?}"),
        },
        Operation::MulMod => {
            assert_eq!(big(&ctx.mul_mod(&nat(x), &nat(y))), x * y % m, "{alg:?} mul_mod");
            let (a, b) = (ctx.residue(&nat(x)), ctx.residue(&nat(y)));
            let p = ctx.mul(&a, &b).expect("residues of ctx");
            assert_eq!(big(&ctx.to_nat(&p).expect("a residue of ctx")), x * y % m, "{alg:?} mul");
        }
        Operation::PowMod => {
            // The oracle's power, computed once and only when an answer needs it.
            let mut want = None;
            let mut want = || want.get_or_insert_with(|| x.modpow(e, m)).clone();
            match ctx.pow_mod_vartime(&nat(x), &nat(e)) {
                Ok(p) => assert_eq!(big(&p), want(), "{alg:?} pow_mod"),
                Err(Error::TooMuchWork { .. }) => {}
                Err(other) => panic!("{alg:?} pow_mod: unexpected error {other:?}"),
            }
            // The constant-time exponentiation: odd moduli, exponents no longer than m.
            match ctx.pow_ct(&ctx.residue(&nat(x)), &nat(e)) {
                Ok(p) => {
                    let v = big(&ctx.to_nat(&p).expect("a residue of ctx"));
                    assert_eq!(v, want(), "{alg:?} pow_ct");
                }
                Err(Error::NotApplicable { .. }) => assert!(!mn.is_odd()),
                Err(Error::OutOfRange { .. }) => {
                    assert!(e.bits().div_ceil(64) > m.bits().div_ceil(64))
                }
                Err(Error::TooMuchWork { .. }) => {}
                Err(other) => panic!("{alg:?} pow_ct: unexpected error {other:?}"),
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let ops = input.byte();
    let seed = input.u64();
    let mut g = Gen(seed | 1);
    let (mut m, alg, e_bits) = recipe(&mut input, &mut g);
    // Any further bytes overwrite the modulus's low bytes (the fuzzer's direct hold on it).
    if !input.0.is_empty() {
        let n = input.0.len().min(m.bits().div_ceil(8) as usize);
        let mut bytes = m.to_bytes_le();
        bytes[..n].copy_from_slice(&input.0[..n]);
        m = BigUint::from_bytes_le(&bytes);
    }
    let bits = m.bits();
    let x_bits = if ops & 8 == 0 { bits } else { 2 * bits + g.next() % 64 };
    let x = g.bits(x_bits);
    let y = g.bits(bits);
    let k = bits.div_ceil(64).max(1);
    let e = g.bits(e_bits.min(ORACLE_POW_WORK / (k * k)));
    for (bit, op) in [(1, Operation::Reduce), (2, Operation::MulMod), (4, Operation::PowMod)] {
        if ops & bit != 0 || ops & 7 == 0 {
            check(op, alg, &m, &x, &y, &e);
        }
    }
});
