//! RSA-style modular exponentiation: a 2048-bit modulus from two 1024-bit probable primes
//! (a Fermat test on `Modulus`; fixed seed, so every run makes the same key), public
//! encryption with `e = 65537`, and private decryption twice — plainly (`c^d mod n`) and
//! by the Chinese remainder theorem with the constant-time exponentiation — checked
//! against each other and against the message.
//!
//! ```text
//! cargo run --release -p modred --example rsa_modexp
//! ```
//!
//! This shows the arithmetic only: no padding (use OAEP or PSS in practice), no blinding,
//! and a key from a fixed seed is no secret.

use modred::{Modulus, Nat};
use modred_testkit::SplitMix64;
use std::time::Instant;

/// A random number of exactly `bits` bits (a multiple of 64), top two bits set (so a
/// product of two has exactly `2·bits` bits) and odd, from the fixed-seed generator of
/// modred-testkit.
fn candidate(rng: &mut SplitMix64, bits: usize) -> Nat {
    let mut limbs = rng.digits(bits / 64);
    limbs[0] |= 1;
    *limbs.last_mut().expect("bits ≥ 64") |= 0b11 << 62;
    Nat::from_vec(limbs)
}

/// Whether `n` (odd, above 37) passes trial division by the primes up to 37 and a Fermat
/// test `a^(n−1) ≡ 1 (mod n)` to those bases: enough to find primes among random odd
/// candidates for this example (a Carmichael number among them is vanishingly unlikely);
/// real key generation uses a Miller–Rabin test with random bases.
fn is_probable_prime(n: &Nat) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if BASES.iter().any(|&p| (n % &Nat::from(p)).is_zero()) {
        return false;
    }
    let Ok(ctx) = Modulus::new(n) else { return false };
    let n_minus_1 = n - &Nat::one();
    BASES.iter().all(|&a| ctx.pow_mod_vartime(&Nat::from(a), &n_minus_1).is_ok_and(|r| r.is_one()))
}

/// The first probable prime `p ≥` a random `bits`-bit start with `gcd(e, p − 1) = 1`
/// (for a prime `e`: `p mod e ≠ 1`).
fn prime(rng: &mut SplitMix64, bits: usize, e: &Nat) -> Nat {
    let two = Nat::from(2u64);
    let mut p = candidate(rng, bits);
    loop {
        if !(&p % e).is_one() && is_probable_prime(&p) {
            return p;
        }
        p = &p + &two;
    }
}

/// `a⁻¹ mod m` by the extended Euclidean algorithm, for `gcd(a, m) = 1` (`None`
/// otherwise). The coefficients are kept as (magnitude, negative) pairs, as `Nat` has no
/// sign.
fn inverse(a: &Nat, m: &Nat) -> Option<Nat> {
    // Invariant: r0 ≡ s0·a and r1 ≡ s1·a (mod m).
    let (mut r0, mut r1) = (m.clone(), a % m);
    let (mut s0, mut s1) = ((Nat::default(), false), (Nat::one(), false));
    while !r1.is_zero() {
        let (q, r2) = r0.div_rem(&r1)?;
        // s2 = s0 − q·s1, in sign-magnitude.
        let qs1 = (&q * &s1.0, s1.1);
        let s2 = if s0.1 != qs1.1 {
            (&s0.0 + &qs1.0, s0.1) // opposite signs: magnitudes add
        } else if s0.0 >= qs1.0 {
            (&s0.0 - &qs1.0, s0.1)
        } else {
            (&qs1.0 - &s0.0, !s0.1)
        };
        (r0, r1) = (r1, r2);
        (s0, s1) = (s1, s2);
    }
    if !r0.is_one() {
        return None;
    }
    let s = &s0.0 % m;
    Some(if s0.1 && !s.is_zero() { m - &s } else { s })
}

/// An RSA key pair with its CRT parameters.
struct Key {
    n: Nat,
    e: Nat,
    d: Nat,
    p: Nat,
    q: Nat,
    dp: Nat,
    dq: Nat,
    q_inv: Nat,
}

fn keygen(bits: usize, seed: u64) -> Key {
    let mut rng = SplitMix64::new(seed);
    let e = Nat::from(65_537u64);
    let p = prime(&mut rng, bits / 2, &e);
    let mut q = prime(&mut rng, bits / 2, &e);
    while q == p {
        q = prime(&mut rng, bits / 2, &e);
    }
    let one = Nat::one();
    let (p1, q1) = (&p - &one, &q - &one);
    let phi = &p1 * &q1;
    let d = inverse(&e, &phi).expect("e is prime and divides neither p − 1 nor q − 1");
    let q_inv = inverse(&q, &p).expect("distinct primes");
    Key { n: &p * &q, dp: &d % &p1, dq: &d % &q1, e, d, p, q, q_inv }
}

/// `c^d mod n` by the CRT: two half-size constant-time exponentiations (`Modulus::pow_ct`,
/// the exponent's bits hidden) and Garner's recombination `m = m_q + q·(q⁻¹(m_p − m_q) mod p)`.
fn decrypt_crt(k: &Key, c: &Nat) -> Result<Nat, modred::Error> {
    let mp_ctx = Modulus::new(&k.p)?;
    let mq_ctx = Modulus::new(&k.q)?;
    let m_p = mp_ctx.to_nat(&mp_ctx.pow_ct(&mp_ctx.residue(c), &k.dp)?)?;
    let m_q = mq_ctx.to_nat(&mq_ctx.pow_ct(&mq_ctx.residue(c), &k.dq)?)?;
    // h = q⁻¹·(m_p − m_q) mod p, with the difference made non-negative first.
    let diff = mp_ctx.sub(&mp_ctx.residue(&m_p), &mp_ctx.residue(&m_q))?;
    let h = mp_ctx.to_nat(&mp_ctx.mul_ct(&diff, &mp_ctx.residue(&k.q_inv))?)?;
    Ok(&m_q + &(&h * &k.q))
}

fn main() -> Result<(), modred::Error> {
    let message: Nat = "0x4d6f6472656420524341206578616d706c653a2032303438206269747321".parse()?;
    let t = Instant::now();
    let key = keygen(2048, 2048);
    let keygen_time = t.elapsed();
    println!(
        "n = p·q: {} bits (p: {} bits, q: {} bits), found in {:.2?}",
        key.n.bits(),
        key.p.bits(),
        key.q.bits(),
        keygen_time
    );

    let n = Modulus::new(&key.n)?;
    println!("reducer chosen for n: {}", n.algorithm());
    let t = Instant::now();
    let c = n.pow_mod_vartime(&message, &key.e)?;
    println!("encrypt (e = 65537, variable time: e is public): {:.2?}", t.elapsed());

    let t = Instant::now();
    let plain = n.to_nat(&n.pow_ct(&n.residue(&c), &key.d)?)?;
    println!("decrypt c^d mod n (constant time, 2048-bit d):   {:.2?}", t.elapsed());
    let t = Instant::now();
    let crt = decrypt_crt(&key, &c)?;
    println!("decrypt by the CRT (two 1024-bit pow_ct):        {:.2?}", t.elapsed());

    assert_eq!(plain, message, "plain decryption gives the message back");
    assert_eq!(crt, message, "CRT decryption gives the message back");
    // e·d ≡ 1 mod (p − 1)(q − 1), checked with plain `Nat` arithmetic.
    let phi = &(&key.p - &Nat::one()) * &(&key.q - &Nat::one());
    assert!((&(&key.e * &key.d) % &phi).is_one());
    println!("round trip ok: {}", message.to_hex());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Makes the key, encrypts a message and decrypts it both ways; returns the three
    /// results (ciphertext, plain decryption, CRT decryption) for the checks.
    fn round_trip(
        bits: usize,
        seed: u64,
        message: &Nat,
    ) -> Result<(Key, Nat, Nat, Nat), modred::Error> {
        let key = keygen(bits, seed);
        let n = Modulus::new(&key.n)?;
        let c = n.pow_mod_vartime(message, &key.e)?; // the exponent 65537 is public
        let plain = n.to_nat(&n.pow_ct(&n.residue(&c), &key.d)?)?;
        let crt = decrypt_crt(&key, &c)?;
        Ok((key, c, plain, crt))
    }

    /// The example's round trip at a smaller size (fast in debug builds too), and at the
    /// full size in release builds (CI runs `cargo test --release`).
    #[test]
    fn round_trip_matches_the_message() {
        let message = Nat::from(0x1234_5678_9abc_def0u64);
        let bits = if cfg!(debug_assertions) { 512 } else { 2048 };
        let (key, c, plain, crt) = round_trip(bits, 7, &message).unwrap();
        assert_eq!(key.n.bits(), bits as u64);
        assert_ne!(c, message);
        assert_eq!(plain, message);
        assert_eq!(crt, message);
        // The two decryptions agree for other ciphertexts too (c below n, not a message).
        let c2 = &key.n - &Nat::from(12_345u64);
        assert_eq!(
            decrypt_crt(&key, &c2),
            Modulus::new(&key.n).unwrap().pow_mod_vartime(&c2, &key.d)
        );
    }

    #[test]
    fn fermat_test_tells_primes_from_composites() {
        let prime = |n: u64| is_probable_prime(&Nat::from(n));
        assert!(prime(41) && prime(65_537) && prime(0xffff_ffff_ffff_ffc5));
        assert!(!prime(41 * 43) && !prime(65_537 * 65_539) && !prime(1 << 40 | 1));
        let m127 = &Nat::power_of_two(127) - &Nat::one();
        assert!(is_probable_prime(&m127));
        assert!(!is_probable_prime(&(&m127 * &m127)));
    }

    #[test]
    fn inverse_by_euclid() {
        let m = Nat::from(3120u64);
        assert_eq!(inverse(&Nat::from(17u64), &m), Some(Nat::from(2753u64)));
        assert_eq!(inverse(&Nat::from(4u64), &m), None);
        assert_eq!(inverse(&Nat::from(1u64), &m), Some(Nat::one()));
    }
}
