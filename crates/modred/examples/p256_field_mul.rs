//! P-256 field multiplication: the fixed-size field-element API (`PrimeField<4>`, whose
//! standard representation reduces with the hard-coded NIST reduction of paper 003 §6.2),
//! the `nist` reducer forced through `Modulus`, and the generic path (Montgomery, and
//! `Nat` multiplication with division), all checked against each other on seeded random
//! elements; then a rough timing of each.
//!
//! ```text
//! cargo run --release -p modred --example p256_field_mul
//! ```
//!
//! For timings to compare, use `modred bench --algo nist,montgomery --bits 256` (ratios
//! measured interleaved in one run); the times printed here are only indicative.

use modred::field::{PrimeField, Representation};
use modred::reduce::NistPrime;
use modred::{Algorithm, Modulus, Nat};
use modred_testkit::timing::{compare, Candidate, Plan};
use modred_testkit::SplitMix64;
use std::hint::black_box;
use std::time::Duration;

/// Multiplies `count` seeded pairs every way and checks that all agree; returns the
/// number of pairs checked.
fn check_all_paths(count: usize, seed: u64) -> Result<usize, modred::Error> {
    let p: Nat = NistPrime::P256.modulus();
    let standard = PrimeField::<4>::new(&p, Representation::Standard)?;
    let montgomery = PrimeField::<4>::new(&p, Representation::Montgomery)?;
    let nist = Modulus::with(Algorithm::Nist, &p)?;
    let generic = Modulus::with(Algorithm::Montgomery, &p)?;
    // Whichever reducer the measured auto rule picks for P-256 must agree too.
    let auto = Modulus::new(&p)?;
    let mut rng = SplitMix64::new(seed);
    let edge = [Nat::default(), Nat::one(), &p - &Nat::one(), &p - &Nat::from(2u64)];
    for i in 0..count {
        let (x, y) = match i {
            i if i < edge.len() => (edge[i].clone(), edge[edge.len() - 1 - i].clone()),
            _ => (Nat::from_vec(rng.below_pow2(256)), Nat::from_vec(rng.below_pow2(256))), // not reduced: from_nat reduces them
        };
        let want = &(&x * &y) % &p; // plain Nat multiplication and division
        let fe = standard.mul(&standard.from_nat(&x), &standard.from_nat(&y));
        let fm = montgomery.mul(&montgomery.from_nat(&x), &montgomery.from_nat(&y));
        assert_eq!(standard.to_nat(&fe), want, "field API, standard representation (nist)");
        assert_eq!(montgomery.to_nat(&fm), want, "field API, Montgomery representation");
        assert_eq!(nist.mul_mod(&x, &y), want, "Modulus with the nist reducer");
        assert_eq!(generic.mul_mod(&x, &y), want, "Modulus with the montgomery reducer");
        assert_eq!(auto.mul_mod(&x, &y), want, "Modulus with auto ({})", auto.algorithm());
        // Squaring, and a field identity: (x + y)² = x² + 2xy + y².
        let (a, b) = (standard.from_nat(&x), standard.from_nat(&y));
        let lhs = standard.sqr(&standard.add(&a, &b));
        let ab = standard.mul(&a, &b);
        let rhs = standard
            .add(&standard.add(&standard.sqr(&a), &standard.add(&ab, &ab)), &standard.sqr(&b));
        assert_eq!(lhs, rhs);
    }
    Ok(count)
}

fn main() -> Result<(), modred::Error> {
    let checked = check_all_paths(10_000, 256)?;
    println!("P-256: {checked} products agree on every path (field API standard and Montgomery, nist and montgomery reducers, Nat division)");

    let p: Nat = NistPrime::P256.modulus();
    let field = PrimeField::<4>::new(&p, Representation::Standard)?;
    let mont_field = PrimeField::<4>::new(&p, Representation::Montgomery)?;
    let generic = Modulus::with(Algorithm::Montgomery, &p)?;
    let mut rng = SplitMix64::new(1);
    let (x, y) = (Nat::from_vec(rng.below_pow2(256)), Nat::from_vec(rng.below_pow2(256)));
    let (a, b) = (field.from_nat(&x), field.from_nat(&y));
    let (am, bm) = (mont_field.from_nat(&x), mont_field.from_nat(&y));
    let (ra, rb) = (generic.residue(&x), generic.residue(&y));
    let (mut acc, mut accm) = (a, am);
    // Interleaved (modred-testkit's harness): 9 rounds of batches of about a millisecond.
    let t = compare(
        &Plan::fixed(Duration::from_millis(1), 9),
        &mut [
            Candidate::new(|| acc = field.mul(black_box(&acc), black_box(&b))),
            Candidate::new(|| accm = mont_field.mul(black_box(&accm), black_box(&bm))),
            Candidate::new(|| {
                black_box(generic.mul(black_box(&ra), black_box(&rb)).ok());
            }),
        ],
    );
    println!("PrimeField<4> mul, standard (nist reduction): {:6.1} ns", t[0].ns);
    println!("PrimeField<4> mul, Montgomery representation: {:6.1} ns", t[1].ns);
    println!("Modulus (montgomery reducer, heap residues):  {:6.1} ns", t[2].ns);
    black_box((acc, accm));
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_path_agrees() {
        assert_eq!(super::check_all_paths(500, 99).unwrap(), 500);
    }
}
