//! Every algorithm against GMP (through `rug`), behind the `anchors` feature: the oracle is
//! independent of num-bigint, which the other targets use. Run with
//! `cargo +nightly fuzz run -s none --release --features anchors against_gmp`.
//!
//! The input: a flags byte, then three length-prefixed byte strings (modulus, x, y) and
//! the rest as the exponent. Moduli of up to 4096 bits, exponents of up to 1024 bits; for
//! `auto` and every algorithm that applies, `Modulus::with_limits` (work limit 2^28):
//! `reduce` of `x·y` (below `m²`, or any size for `auto`), `mul_mod`, `pow_mod_vartime`, and
//! for odd moduli `pow_ct`, each equal to GMP's answer or a refusal the request calls for.
#![no_main]

use libfuzzer_sys::fuzz_target;
use modred::{Algorithm, Error, Limits, Modulus, Nat, Operation};
use rug::Integer;

const MAX_WORK: u64 = 1 << 28;

fn take<'a>(data: &mut &'a [u8], max: usize) -> &'a [u8] {
    let Some((&len, rest)) = data.split_first() else { return &[] };
    let n = (len as usize * 4).min(max).min(rest.len());
    let (head, tail) = rest.split_at(n);
    *data = tail;
    head
}

fn big(b: &[u8]) -> Integer {
    Integer::from_digits(b, rug::integer::Order::Lsf)
}

fn nat(i: &Integer) -> Nat {
    Nat::from_bytes_le(&i.to_digits::<u8>(rug::integer::Order::Lsf))
}

fn same(got: &Nat, want: &Integer, what: &str, a: Algorithm) {
    assert_eq!(*got, nat(want), "{what} by {a}");
}

/// A refusal the request may get: too much work, an argument beyond a forced bound.
fn allowed(e: &Error) -> bool {
    matches!(e, Error::TooMuchWork { .. } | Error::OutOfRange { .. } | Error::TooMuchMemory { .. })
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, mut rest)) = data.split_first() else { return };
    let mut m = big(take(&mut rest, 512));
    if flags & 1 == 1 {
        m |= 1u8; // odd: every algorithm's domain
    }
    if m < 2 {
        return;
    }
    let x = big(take(&mut rest, 1024));
    let y = big(take(&mut rest, 1024));
    let e = big(&rest[..rest.len().min(128)]);
    let limits = Limits::new().with_max_work(MAX_WORK);
    let xy = Integer::from(&x * &y);
    let (xm, ym) = (Integer::from(&x % &m), Integer::from(&y % &m));
    for &a in Algorithm::ALL {
        let md = match Modulus::with_limits(a, Operation::PowMod, &nat(&m), limits) {
            Ok(md) => md,
            Err(Error::NotApplicable { .. }) => continue,
            Err(err) if allowed(&err) => continue,
            Err(err) => panic!("{a}: {err}"),
        };
        match md.reduce(&nat(&xy)) {
            Ok(r) => same(&r, &Integer::from(&xy % &m), "reduce", a),
            Err(err) => assert!(allowed(&err), "reduce by {a}: {err}"),
        }
        let want_mul = Integer::from(Integer::from(&xm * &ym) % &m);
        same(&md.mul_mod(&nat(&xm), &nat(&ym)), &want_mul, "mul_mod", a);
        let want = xm.clone().pow_mod(&e, &m).unwrap();
        match md.pow_mod_vartime(&nat(&x), &nat(&e)) {
            Ok(r) => same(&r, &want, "pow_mod_vartime", a),
            Err(err) => assert!(allowed(&err), "pow by {a}: {err}"),
        }
        if m.is_odd() && flags & 2 == 2 {
            match md.pow_ct(&md.residue(&nat(&xm)), &nat(&e)) {
                Ok(r) => same(&md.to_nat(&r).unwrap(), &want, "pow_ct", a),
                Err(err) => assert!(allowed(&err), "pow_ct by {a}: {err}"),
            }
        }
    }
});
