//! The memory estimates are upper bounds: for every algorithm, at widths from one digit to
//! a million bits (the slow study algorithms to 16 384), the bytes actually allocated by
//! making a modulus and by one product, one exponentiation and one division are counted
//! by this binary's allocator and compared with `modred::modulus::limits`' estimates —
//! the numbers the memory limit refuses requests by. A request within the limit therefore
//! holds at most the limit.

use modred::exp::Method;
use modred::modulus::limits::{
    context_memory, division_memory, mul_memory, pow_memory, product_memory,
};
use modred::{Algorithm, Limits, Modulus, Nat, Operation};
use modred_testkit::alloc_count::{peak_of, Counting};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Odd moduli of `bits` bits, and the special ones of paper 003 with their widths.
fn moduli() -> Vec<Nat> {
    let mut v: Vec<Nat> = [61u64, 64, 256, 1024, 4096, 16384, 65536, 1 << 18, 1 << 20]
        .iter()
        .map(|&bits| Nat::power_of_two(bits - 1).add(&Nat::from(0x1234_5679u64)))
        .collect();
    v.push(Nat::power_of_two(4096).add(&Nat::from(6u64))); // even
    v.push(&Nat::power_of_two(255) - &Nat::from(19u64));
    v.push(&Nat::power_of_two(4253) - &Nat::one());
    v.push(&(&Nat::power_of_two(256) - &Nat::power_of_two(64)) - &Nat::one());
    for p in modred::reduce::NistPrime::ALL {
        v.push(p.modulus());
    }
    v
}

/// Whether `algorithm` is measured at `bits`: the bit-serial and table-based study
/// algorithms and the quadratic reducers take minutes at the largest widths.
fn measured(algorithm: Algorithm, bits: u64) -> bool {
    match algorithm {
        Algorithm::Radix2Montgomery | Algorithm::Radix2MontgomeryRecoded | Algorithm::Hong => {
            bits <= 16384
        }
        Algorithm::Classical | Algorithm::Barrett | Algorithm::MontgomeryInterleaved => {
            bits <= 1 << 18
        }
        _ => true,
    }
}

#[test]
fn allocations_stay_within_the_estimates() {
    let method = Method::SlidingWindow(4);
    let mut checked = 0;
    for m in moduli() {
        let k = m.len() as u64;
        for &algorithm in Algorithm::ALL {
            if !measured(algorithm, m.bits()) {
                continue;
            }
            let (built, md) = peak_of(|| {
                Modulus::with_limits(algorithm, Operation::MulMod, &m, Limits::UNLIMITED)
            });
            let Ok(md) = md else { continue };
            let chosen = md.algorithm();
            // Auto: the chosen algorithm's context, and the one-off reducer's when it is
            // another (at most one of every applicable algorithm's contexts).
            let estimate = if algorithm == Algorithm::Auto {
                let extra = Algorithm::ALL[1..]
                    .iter()
                    .filter(|a| **a != chosen)
                    .map(|a| context_memory(*a, k))
                    .max()
                    .unwrap_or(0);
                mul_memory(chosen, k) + extra
            } else {
                mul_memory(chosen, k)
            };
            let at = format!("{algorithm} (runs {chosen}) at {} bits", m.bits());
            assert!(built <= estimate, "{at}: making it took {built} bytes > {estimate}");

            let x = md.residue(&(&m - &Nat::from(3u64)));
            let y = md.residue(&(&m / &Nat::from(3u64)));
            let (product, z) = peak_of(|| md.mul(&x, &y).unwrap());
            assert!(product <= product_memory(chosen, k), "{at}: a product took {product} bytes");

            let e = Nat::from(0xfedc_ba98_7654_3211u64);
            let (power, _) = peak_of(|| md.pow_with_vartime(&z, &e, method).unwrap());
            let pow_estimate = pow_memory(chosen, k, method);
            assert!(power <= pow_estimate, "{at}: a power took {power} bytes > {pow_estimate}");

            if algorithm == Algorithm::Auto {
                // A one-off reduction of a number eight times the modulus's length.
                let long = Nat::power_of_two(8 * m.bits()).add(&Nat::from(12345u64));
                let (divided, _) = peak_of(|| md.reduce(&long).unwrap());
                let estimate = division_memory(long.len() as u64);
                assert!(divided <= estimate, "{at}: a division took {divided} bytes > {estimate}");
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} contexts measured");
}
