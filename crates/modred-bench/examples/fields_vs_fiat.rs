//! Field multiplication and squaring for the special primes of elliptic-curve cryptography
//! — P-256, P-384, P-521, 2^255 − 19, secp256k1 — against fiat-crypto's formally verified
//! generated code (the `fiat-crypto` crate: `p256_64`, `p384_64`, `p521_64`,
//! `curve25519_64`, `secp256k1_montgomery_64`), as ratios measured in one process:
//!
//! ```text
//! cargo run --release -p modred-bench --features anchors --example fields_vs_fiat [rounds]
//! ```
//!
//! Ours: `modred::field::PrimeField` in both representations — standard (the hard-coded
//! NIST reduction, or the pseudo-Mersenne fold) and Montgomery — in its constant-time
//! forms `mul_ct`/`sqr_ct` (fiat-crypto's code is constant time too) and its plain
//! `mul`/`sqr`. Theirs: the Montgomery-domain `mul`/`square` for P-256, P-384 and
//! secp256k1, the unsaturated `carry_mul`/`carry_square` for 2^255 − 19 and P-521. Every
//! candidate's result is checked against `Nat` arithmetic first. Method as in
//! `fixed_ratios` (`modred_testkit::timing`): batches of about 20 µs interleaved in rotated
//! order, each candidate's minimum per operation over the rounds; the ratio is ours ÷
//! fiat-crypto's (below 1: we are faster).

use fiat_crypto::secp256k1_montgomery_64 as k256;
use fiat_crypto::{curve25519_64 as c25519, p256_64, p384_64, p521_64};
use modred::field::{Fe, PrimeField, Representation};
use modred::Nat;
use modred_bench::support::{below, compare_named, Candidate, Plan, SplitMix64};
use std::hint::black_box;
use std::time::Duration;

/// `x` as `N` little-endian bytes.
fn bytes<const N: usize>(x: &Nat) -> [u8; N] {
    let mut out = [0u8; N];
    let b = x.to_bytes_le();
    out[..b.len()].copy_from_slice(&b);
    out
}

/// The number of little-endian bytes `b` stands for.
fn from_bytes(b: &[u8]) -> Nat {
    Nat::from_bytes_le(b)
}

/// The rows of one field: our four forms in both representations, then fiat-crypto's two.
struct Row<'a> {
    name: &'static str,
    ours: Vec<(String, Candidate<'a>)>,
    fiat_mul: Candidate<'a>,
    fiat_sqr: Candidate<'a>,
}

/// Our candidates for `p` (checked against `want_mul`, `want_sqr`).
fn ours<'a, const N: usize>(
    fields: &'a [PrimeField<N>; 2],
    x: &'a [Fe<N>; 2],
    y: &'a [Fe<N>; 2],
    want_mul: &Nat,
    want_sqr: &Nat,
) -> Vec<(String, Candidate<'a>)> {
    let mut out = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let (a, b) = (&x[i], &y[i]);
        assert_eq!(f.to_nat(&f.mul_ct(a, b)), *want_mul);
        assert_eq!(f.to_nat(&f.mul(a, b)), *want_mul);
        assert_eq!(f.to_nat(&f.sqr_ct(a)), *want_sqr);
        assert_eq!(f.to_nat(&f.sqr(a)), *want_sqr);
        let repr = match f.representation() {
            Representation::Standard => "standard",
            Representation::Montgomery => "Montgomery",
        };
        out.push((
            format!("mul_ct ({repr})"),
            Candidate::new(move || {
                black_box(f.mul_ct(black_box(a), black_box(b)));
            }),
        ));
        out.push((
            format!("sqr_ct ({repr})"),
            Candidate::new(move || {
                black_box(f.sqr_ct(black_box(a)));
            }),
        ));
        out.push((
            format!("mul ({repr})"),
            Candidate::new(move || {
                black_box(f.mul(black_box(a), black_box(b)));
            }),
        ));
        out.push((
            format!("sqr ({repr})"),
            Candidate::new(move || {
                black_box(f.sqr(black_box(a)));
            }),
        ));
    }
    out
}

fn fields<const N: usize>(p: &Nat) -> [PrimeField<N>; 2] {
    [
        PrimeField::<N>::new(p, Representation::Standard).unwrap(),
        PrimeField::<N>::new(p, Representation::Montgomery).unwrap(),
    ]
}

fn report(row: Row<'_>, rounds: usize) {
    let plan = Plan::fixed(Duration::from_micros(20), rounds);
    let mut all: Vec<(String, Candidate<'_>)> = row.ours;
    all.push(("fiat-crypto mul".to_string(), row.fiat_mul));
    all.push(("fiat-crypto square".to_string(), row.fiat_sqr));
    let t = compare_named(&plan, all);
    let n = t.len();
    let (fmul, fsqr) = (t[n - 2].1.ns, t[n - 1].1.ns);
    println!("\n{}", row.name);
    println!("  {:<28} {:>9} {:>14}", "", "ns", "÷ fiat-crypto");
    for (name, ti) in &t {
        let theirs = if name.contains("sqr") || name.contains("square") { fsqr } else { fmul };
        println!("  {:<28} {:>9.2} {:>14.2}", name, ti.ns, ti.ns / theirs);
    }
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(300);
    println!(
        "interleaved, {rounds} rounds, minimum per operation; CPU features used by modred: {}",
        modred::cpu_features().join(", ")
    );
    let mut rng = SplitMix64::new(0xf1a7);

    p256(&mut rng, rounds);
    p384(&mut rng, rounds);
    secp256k1(&mut rng, rounds);
    curve25519(&mut rng, rounds);
    p521(&mut rng, rounds);
}

/// Operands below `p`, the expected product and square, and our two fields.
fn setup<const N: usize>(
    rng: &mut SplitMix64,
    p_hex: &str,
) -> (Nat, Nat, Nat, Nat, [PrimeField<N>; 2]) {
    let p: Nat = p_hex.parse().unwrap();
    let (a, b) = (below(rng, &p), below(rng, &p));
    let (want_mul, want_sqr) =
        (a.mul(&b).checked_rem(&p).unwrap(), a.sqr().checked_rem(&p).unwrap());
    let fs = fields::<N>(&p);
    (a, b, want_mul, want_sqr, fs)
}

/// A fiat-crypto field in the Montgomery domain (P-256, P-384, secp256k1): its element
/// types and `from_bytes`, `to_montgomery`, `from_montgomery`, `to_bytes`, `mul`, `square`.
macro_rules! montgomery_domain {
    ($fn_name:ident, $title:expr, $p:expr, $n:expr, $nb:expr, $m:ident, $mont:ident, $plain:ident,
     $from_bytes:ident, $to_m:ident, $from_m:ident, $to_bytes:ident, $mul:ident, $sqr:ident) => {
        fn $fn_name(rng: &mut SplitMix64, rounds: usize) {
            let (a, b, want_mul, want_sqr, fs) = setup::<$n>(rng, $p);
            let xs = [fs[0].from_nat(&a), fs[1].from_nat(&a)];
            let ys = [fs[0].from_nat(&b), fs[1].from_nat(&b)];
            let into = |x: &Nat| {
                let mut plain = [0u64; $n];
                $m::$from_bytes(&mut plain, &bytes::<$nb>(x));
                let mut out = $m::$mont([0; $n]);
                $m::$to_m(&mut out, &$m::$plain(plain));
                out
            };
            let back = |x: &$m::$mont| {
                let mut plain = $m::$plain([0; $n]);
                $m::$from_m(&mut plain, x);
                let mut out = [0u8; $nb];
                $m::$to_bytes(&mut out, &plain.0);
                from_bytes(&out)
            };
            let (fa, fb) = (into(&a), into(&b));
            let mut o = $m::$mont([0; $n]);
            $m::$mul(&mut o, &fa, &fb);
            assert_eq!(back(&o), want_mul, "fiat-crypto's product");
            $m::$sqr(&mut o, &fa);
            assert_eq!(back(&o), want_sqr, "fiat-crypto's square");
            let (mut o1, mut o2) = (o, o);
            report(
                Row {
                    name: $title,
                    ours: ours(&fs, &xs, &ys, &want_mul, &want_sqr),
                    fiat_mul: Candidate::new(|| {
                        $m::$mul(&mut o1, black_box(&fa), black_box(&fb));
                        black_box(&o1);
                    }),
                    fiat_sqr: Candidate::new(|| {
                        $m::$sqr(&mut o2, black_box(&fa));
                        black_box(&o2);
                    }),
                },
                rounds,
            );
        }
    };
}

/// A fiat-crypto field in unsaturated limbs (2^255 - 19, P-521): tight and loose element
/// types and `from_bytes`, `to_bytes`, `relax`, `carry_mul`, `carry_square`.
macro_rules! unsaturated {
    ($fn_name:ident, $title:expr, $p:expr, $n:expr, $nb:expr, $limbs:expr, $m:ident, $tight:ident,
     $loose:ident, $from_bytes:ident, $to_bytes:ident, $relax:ident, $mul:ident, $sqr:ident) => {
        fn $fn_name(rng: &mut SplitMix64, rounds: usize) {
            let (a, b, want_mul, want_sqr, fs) = setup::<$n>(rng, $p);
            let xs = [fs[0].from_nat(&a), fs[1].from_nat(&a)];
            let ys = [fs[0].from_nat(&b), fs[1].from_nat(&b)];
            let into = |x: &Nat| {
                let mut tight = $m::$tight([0; $limbs]);
                $m::$from_bytes(&mut tight, &bytes::<$nb>(x));
                let mut loose = $m::$loose([0; $limbs]);
                $m::$relax(&mut loose, &tight);
                loose
            };
            let back = |x: &$m::$tight| {
                let mut out = [0u8; $nb];
                $m::$to_bytes(&mut out, x);
                from_bytes(&out)
            };
            let (fa, fb) = (into(&a), into(&b));
            let mut o = $m::$tight([0; $limbs]);
            $m::$mul(&mut o, &fa, &fb);
            assert_eq!(back(&o), want_mul, "fiat-crypto's product");
            $m::$sqr(&mut o, &fa);
            assert_eq!(back(&o), want_sqr, "fiat-crypto's square");
            let (mut o1, mut o2) = (o, o);
            report(
                Row {
                    name: $title,
                    ours: ours(&fs, &xs, &ys, &want_mul, &want_sqr),
                    fiat_mul: Candidate::new(|| {
                        $m::$mul(&mut o1, black_box(&fa), black_box(&fb));
                        black_box(&o1);
                    }),
                    fiat_sqr: Candidate::new(|| {
                        $m::$sqr(&mut o2, black_box(&fa));
                        black_box(&o2);
                    }),
                },
                rounds,
            );
        }
    };
}

montgomery_domain!(
    p256,
    "P-256 (2^256 - 2^224 + 2^192 + 2^96 - 1)",
    "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    4,
    32,
    p256_64,
    fiat_p256_montgomery_domain_field_element,
    fiat_p256_non_montgomery_domain_field_element,
    fiat_p256_from_bytes,
    fiat_p256_to_montgomery,
    fiat_p256_from_montgomery,
    fiat_p256_to_bytes,
    fiat_p256_mul,
    fiat_p256_square
);

montgomery_domain!(
    p384,
    "P-384 (2^384 - 2^128 - 2^96 + 2^32 - 1)",
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff",
    6,
    48,
    p384_64,
    fiat_p384_montgomery_domain_field_element,
    fiat_p384_non_montgomery_domain_field_element,
    fiat_p384_from_bytes,
    fiat_p384_to_montgomery,
    fiat_p384_from_montgomery,
    fiat_p384_to_bytes,
    fiat_p384_mul,
    fiat_p384_square
);

montgomery_domain!(
    secp256k1,
    "secp256k1 (2^256 - 2^32 - 977)",
    "0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    4,
    32,
    k256,
    fiat_secp256k1_montgomery_montgomery_domain_field_element,
    fiat_secp256k1_montgomery_non_montgomery_domain_field_element,
    fiat_secp256k1_montgomery_from_bytes,
    fiat_secp256k1_montgomery_to_montgomery,
    fiat_secp256k1_montgomery_from_montgomery,
    fiat_secp256k1_montgomery_to_bytes,
    fiat_secp256k1_montgomery_mul,
    fiat_secp256k1_montgomery_square
);

unsaturated!(
    curve25519,
    "2^255 - 19",
    "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
    4,
    32,
    5,
    c25519,
    fiat_25519_tight_field_element,
    fiat_25519_loose_field_element,
    fiat_25519_from_bytes,
    fiat_25519_to_bytes,
    fiat_25519_relax,
    fiat_25519_carry_mul,
    fiat_25519_carry_square
);

unsaturated!(
    p521,
    "P-521 (2^521 - 1)",
    "0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    9,
    66,
    9,
    p521_64,
    fiat_p521_tight_field_element,
    fiat_p521_loose_field_element,
    fiat_p521_from_bytes,
    fiat_p521_to_bytes,
    fiat_p521_relax,
    fiat_p521_carry_mul,
    fiat_p521_carry_square
);
