//! A modular exponentiation with a one-million-bit modulus: `Modulus::new` picks the
//! transform-based Montgomery reduction of paper 001 at this size (`ntt-montgomery`: a
//! linear and a cyclic convolution per reduction instead of a quadratic product), and the
//! result is checked against the transform-based Barrett reduction, an independent
//! algorithm. The exponent is short (65537: 16 squarings and one multiplication) to keep
//! the run to a few seconds; the time per operation is printed.
//!
//! ```text
//! cargo run --release -p modred --example million_bit_modexp
//! ```

use modred::{Algorithm, Modulus, Nat};
use modred_testkit::SplitMix64;
use std::time::Instant;

/// The modulus length.
const BITS: usize = 1_000_000;

/// `base^e mod m` by `auto` and by `ntt-barrett`: (algorithm chosen, result, seconds,
/// checking algorithm's result).
fn modexp(bits: usize, e: &Nat, seed: u64) -> Result<(Algorithm, Nat, f64, Nat), modred::Error> {
    let mut rng = SplitMix64::new(seed);
    let m = Nat::from_vec(rng.odd_modulus(bits as u64));
    let base = Nat::from_vec(rng.exact_bits(bits as u64 - 1));
    let t = Instant::now();
    let ctx = Modulus::new(&m)?;
    let r = ctx.pow_mod_vartime(&base, e)?;
    let seconds = t.elapsed().as_secs_f64();
    let check = Modulus::with(Algorithm::NttBarrett, &m)?.pow_mod_vartime(&base, e)?;
    Ok((ctx.algorithm(), r, seconds, check))
}

fn main() -> Result<(), modred::Error> {
    let e = Nat::from(65_537u64);
    let (algorithm, r, seconds, check) = modexp(BITS, &e, 1_000_000)?;
    assert_eq!(r, check, "ntt-montgomery and ntt-barrett agree");
    let ops = 17.0; // 16 squarings and one multiplication, plus the conversions
    println!("{BITS}-bit modulus, exponent 65537, reducer chosen: {algorithm}");
    println!(
        "modexp (with precalculation and conversions): {seconds:.2} s, about {:.0} ms per modular multiplication",
        seconds * 1e3 / ops
    );
    println!(
        "result has {} bits; low digits 0x{:016x}; checked against ntt-barrett",
        r.bits(),
        r.limbs()[0]
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example's computation, a million bits in release builds (CI's `cargo test
    /// --release`), 100 000 in debug builds; checked against ntt-barrett and, at a size
    /// where it is quick, the word-level Montgomery reducer.
    #[test]
    fn transform_reducers_agree() {
        let bits = if cfg!(debug_assertions) { 100_000 } else { BITS };
        let e = Nat::from(65_537u64);
        let (algorithm, r, _, check) = modexp(bits, &e, 3).unwrap();
        assert_eq!(algorithm, Algorithm::NttMontgomery);
        assert_eq!(r, check);
        let (_, small, _, _) = modexp(70_000, &Nat::from(5u64), 4).unwrap();
        let mut rng = SplitMix64::new(4);
        let (m, base) =
            (Nat::from_vec(rng.odd_modulus(70_000)), Nat::from_vec(rng.exact_bits(69_999)));
        let word = Modulus::with(Algorithm::Montgomery, &m).unwrap();
        assert_eq!(Ok(small), word.pow_mod_vartime(&base, &Nat::from(5u64)));
    }
}
