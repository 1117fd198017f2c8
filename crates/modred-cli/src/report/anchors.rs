//! GMP and OpenSSL as candidates of the report's comparisons, when the CLI is built with
//! the `anchors` feature (the structs of `modred_bench::anchors`; each owns its operands,
//! so a timed call is one operation of the library and nothing else).
//!
//! Without the feature every function returns no candidates, so the sections call them
//! unconditionally and show the columns only when there are timings. Each anchor's
//! result is checked against modred's before it is timed.

use modred::Nat;
use modred_testkit::timing::Candidate;

/// One anchor: its name for tables and legends, and its timed operation.
pub type Anchor = (&'static str, Candidate<'static>);

/// `base^e mod m` (odd `m`, `e > 0`): GMP's `mpz_powm` and OpenSSL's
/// `BN_mod_exp_mont_consttime`, both checked to give `want`.
#[cfg(feature = "anchors")]
pub fn powm(base: &Nat, e: &Nat, m: &Nat, want: &Nat) -> Result<Vec<Anchor>, String> {
    use modred_bench::anchors::{GmpPowm, OpensslModExpConstTime};
    let (b, e, m) = (base.to_hex(), e.to_hex(), m.to_hex());
    let mut gmp = GmpPowm::new(&b, &e, &m);
    gmp.run();
    check("GMP mpz_powm", &gmp.result_hex(), want)?;
    let mut ossl = OpensslModExpConstTime::new(&b, &e, &m);
    ossl.run();
    check("OpenSSL BN_mod_exp_mont_consttime", &ossl.result_hex(), want)?;
    Ok(vec![
        ("GMP", Candidate::new(move || gmp.run())),
        ("OpenSSL", Candidate::new(move || ossl.run())),
    ])
}

/// `a·b mod m` (odd `m`): GMP's `mpz_mul` + `mpz_tdiv_r` and OpenSSL's
/// `BN_mod_mul_montgomery` (operands in Montgomery form, as ours are in the reducer's
/// representation), both checked to give `want`.
#[cfg(feature = "anchors")]
pub fn mulmod(a: &Nat, b: &Nat, m: &Nat, want: &Nat) -> Result<Vec<Anchor>, String> {
    use modred_bench::anchors::{GmpMulMod, OpensslMontMul};
    let (a, b, m) = (a.to_hex(), b.to_hex(), m.to_hex());
    let mut gmp = GmpMulMod::new(&a, &b, &m);
    gmp.run();
    check("GMP mpz_mul + mpz_tdiv_r", &gmp.result_hex(), want)?;
    let mut ossl = OpensslMontMul::new(&a, &b, &m);
    ossl.run();
    check("OpenSSL BN_mod_mul_montgomery", &ossl.result_hex(), want)?;
    Ok(vec![
        ("GMP", Candidate::new(move || gmp.run())),
        ("OpenSSL", Candidate::new(move || ossl.run())),
    ])
}

#[cfg(feature = "anchors")]
fn check(what: &str, got_hex: &str, want: &Nat) -> Result<(), String> {
    if got_hex == want.to_hex() {
        Ok(())
    } else {
        Err(format!("{what} computed {got_hex}, modred {}", want.to_hex()))
    }
}

/// Without the `anchors` feature: no candidates.
#[cfg(not(feature = "anchors"))]
pub fn powm(_: &Nat, _: &Nat, _: &Nat, _: &Nat) -> Result<Vec<Anchor>, String> {
    Ok(Vec::new())
}

/// Without the `anchors` feature: no candidates.
#[cfg(not(feature = "anchors"))]
pub fn mulmod(_: &Nat, _: &Nat, _: &Nat, _: &Nat) -> Result<Vec<Anchor>, String> {
    Ok(Vec::new())
}

/// The sentence a table with anchor columns ends with when they are absent.
pub fn absent_note() -> &'static str {
    if super::ANCHORS {
        ""
    } else {
        " GMP and OpenSSL columns appear here when modred is built with the `anchors` \
         feature (`cargo run --release --features anchors -- report`)."
    }
}
