//! The GMP and OpenSSL columns of `modred bench --anchors` (built with the `anchors`
//! feature): `modred_bench::anchors`' wrappers on the same operands as ours, each checked
//! against an independent computation before it is timed.

use super::measure::{Operands, Prepared};
use super::Op;
use crate::engine::Number;
use modred::reduce::NistPrime;
use modred_bench::anchors::{
    GmpMulMod, GmpMulN, GmpPowm, GmpPowmSec, GmpRem, GmpSqrN, OpensslModExpConstTime,
    OpensslModExpConstTimeX2, OpensslMontMul, OpensslMontRedc, OpensslMontSqr, OpensslNist256,
};
use modred_testkit::timing::Candidate;
use std::hint::black_box;

fn hex(n: &Number) -> String {
    n.to_hex()
}

fn parse_hex(s: &str) -> Result<Number, String> {
    Number::from_str_radix(s, 16).map_err(|e| format!("an anchor printed a bad number: {e}"))
}

/// One anchor: runs it once, checks its result with `check`, and wraps it for timing
/// (`per_run`: the operations one run does, 1 but for the `_x2` anchor).
macro_rules! anchor {
    ($out:ident, $id:expr, $label:expr, $modulus:expr, $make:expr, $check:expr) => {
        anchor!($out, $id, $label, $modulus, $make, $check, 1)
    };
    ($out:ident, $id:expr, $label:expr, $modulus:expr, $make:expr, $check:expr, $per_run:expr) => {{
        let mut a = $make;
        a.run();
        let got = parse_hex(&a.result_hex())?;
        let check: &dyn Fn(&Number) -> bool = &$check;
        if !check(&got) {
            return Err(format!("{} disagrees with modred (a bug in one of them)", $label));
        }
        $out.push(Prepared {
            name: $id.to_string(),
            label: $label.to_string(),
            modulus: $modulus.to_string(),
            candidate: Candidate::new(move || {
                a.run();
                black_box(&a);
            }),
            per_run: $per_run,
        });
    }};
}

/// A second odd modulus of `m`'s size (top bit set), for the two-exponentiation anchor:
/// `m` (of two digits or more) with bits 1 to 63 inverted: it differs from `m`, stays odd
/// and keeps its top digit.
fn second_modulus(m: &Number) -> Number {
    let mut limbs = m.limbs().to_vec();
    limbs[0] ^= !1u64;
    Number::from_vec(limbs)
}

/// The anchors for `op` on `ops` (whose modulus is described by `desc`), with the P-256
/// anchor for `mulmod` when `p256` holds that prime's operands.
pub fn prepare(
    op: Op,
    ops: &Operands,
    desc: &str,
    p256: Option<&Operands>,
) -> Result<Vec<Prepared>, String> {
    let mut out = Vec::new();
    let m = &ops.m;
    let (a, b) = &ops.pairs[0];
    let (ah, bh, mh) = (hex(a), hex(b), hex(m));
    // OpenSSL's Montgomery code needs an odd modulus above 1.
    let odd = m.is_odd() && m.bits() > 1;
    let want = ops.expected(op)?;
    match op {
        Op::Reduce => {
            let x = ops.product();
            anchor!(out, "gmp-rem", "GMP mpz_tdiv_r", desc, GmpRem::new(&hex(&x), &mh), |g| {
                *g == want
            });
            if odd {
                // BN_from_montgomery gives y = x·R⁻¹ mod m, R = 2^(64k): check y·R ≡ x.
                let shift = 64 * m.len() as u64;
                anchor!(
                    out,
                    "openssl-mont-redc",
                    "OpenSSL BN_from_montgomery",
                    desc,
                    OpensslMontRedc::new(&hex(&x), &mh),
                    |g| g < m && g.shl(shift).checked_rem(m).as_ref() == Some(&want)
                );
            }
        }
        Op::MulMod => {
            let product = a.mul(b);
            anchor!(
                out,
                "gmp-mul",
                "GMP mpn_mul_n (product only)",
                desc,
                GmpMulN::new(&ah, &bh),
                |g| { *g == product }
            );
            anchor!(
                out,
                "gmp-mulmod",
                "GMP mpz_mul+mpz_tdiv_r",
                desc,
                GmpMulMod::new(&ah, &bh, &mh),
                |g| *g == want
            );
            if odd {
                anchor!(
                    out,
                    "openssl-mont-mul",
                    "OpenSSL BN_mod_mul_montgomery",
                    desc,
                    OpensslMontMul::new(&ah, &bh, &mh),
                    |g| *g == want
                );
            }
            if let Some(p) = p256 {
                let (pa, pb) = &p.pairs[0];
                let pwant = p.expected(Op::MulMod)?;
                anchor!(
                    out,
                    "openssl-nist256",
                    "OpenSSL BN_mul+BN_nist_mod_256",
                    NistPrime::P256.name(),
                    OpensslNist256::new(&hex(pa), &hex(pb)),
                    |g| *g == pwant
                );
            }
        }
        Op::SqrMod => {
            let square = a.sqr();
            anchor!(out, "gmp-sqr", "GMP mpn_sqr (square only)", desc, GmpSqrN::new(&ah), |g| {
                *g == square
            });
            anchor!(
                out,
                "gmp-mulmod",
                "GMP mpz_mul+mpz_tdiv_r",
                desc,
                GmpMulMod::new(&ah, &ah, &mh),
                |g| *g == want
            );
            if odd {
                anchor!(
                    out,
                    "openssl-mont-sqr",
                    "OpenSSL BN_mod_mul_montgomery (a·a)",
                    desc,
                    OpensslMontSqr::new(&ah, &mh),
                    |g| *g == want
                );
            }
        }
        Op::PowM => {
            let eh = hex(&ops.e);
            anchor!(out, "gmp-powm", "GMP mpz_powm", desc, GmpPowm::new(&ah, &eh, &mh), |g| {
                *g == want
            });
            if odd && !ops.e.is_zero() {
                anchor!(
                    out,
                    "gmp-powm-sec",
                    "GMP mpz_powm_sec",
                    desc,
                    GmpPowmSec::new(&ah, &eh, &mh),
                    |g| *g == want
                );
            }
            if odd {
                anchor!(
                    out,
                    "openssl-powm-ct",
                    "OpenSSL BN_mod_exp_mont_consttime",
                    desc,
                    OpensslModExpConstTime::new(&ah, &eh, &mh),
                    |g| *g == want
                );
                // RSA-CRT's call: this exponentiation and one modulo a second odd modulus of
                // the same size (the next one of the seed), timed per exponentiation.
                if m.len() >= 2 {
                    let m2 = second_modulus(m);
                    let b2 = &ops.pairs[1].0;
                    let want2 = modred::Modulus::new(&m2)
                        .map_err(|e| e.to_string())?
                        .pow_mod_vartime(b2, &ops.e)
                        .map_err(|e| e.to_string())?;
                    let mut x2 =
                        OpensslModExpConstTimeX2::new((&ah, &eh, &mh), (&hex(b2), &eh, &hex(&m2)));
                    x2.run();
                    if parse_hex(&x2.result2_hex())? != want2 {
                        return Err("OpenSSL BN_mod_exp_mont_consttime_x2's second result \
                                    disagrees with modred (a bug in one of them)"
                            .to_string());
                    }
                    anchor!(
                        out,
                        "openssl-powm-ct-x2",
                        "OpenSSL BN_mod_exp_mont_consttime_x2 (per exponentiation)",
                        desc,
                        x2,
                        |g| *g == want,
                        2
                    );
                }
            }
        }
    }
    Ok(out)
}
