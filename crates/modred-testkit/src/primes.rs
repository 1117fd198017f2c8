//! Primes of no special form, one for every size from 1 to 16 digits of 64 bits, for tests
//! and checks that must cover every field size without a prime search at run time.
//!
//! ```
//! let p = modred_testkit::primes::generic_prime(1);
//! assert_eq!(p, vec![0x9e37_79b9_7f4a_7c55]);
//! ```

/// `⌊2^1024/φ⌋`, φ the golden ratio, as sixteen little-endian digits of 64 bits.
const PHI_1024: [u64; 16] = [
    0xfec5_0770_5e4a_e6e5,
    0x471c_4ab3_ed3d_82a5,
    0xbbf7_3c79_0d94_f79d,
    0x626e_33b8_d04b_4331,
    0xcadd_0ccc_fdff_bbe1,
    0x64d3_25d1_c537_1682,
    0x8583_9d6e_ffbd_7dc6,
    0xf06a_d7ae_9717_877e,
    0xc1d6_4ba4_0f33_5e36,
    0x0188_6f09_2840_3002,
    0x0347_045b_5bf1_827f,
    0x2767_f0b1_53d2_7b7f,
    0xf86c_6a11_d0c1_8e95,
    0x1082_276b_f3a2_7251,
    0xf39c_c060_5ced_c834,
    0x9e37_79b9_7f4a_7c15,
];

/// `GENERIC_PRIME_OFFSETS[n − 1]`: the distance from `⌊2^(64n)/φ⌋` to the least prime
/// above it (found by Miller–Rabin with 40 random bases; `modred::field::PrimeField::new`
/// checks primality again wherever these are used).
const GENERIC_PRIME_OFFSETS: [u64; 16] =
    [64, 5, 16, 198, 190, 492, 815, 385, 9, 37, 705, 208, 456, 1316, 604, 82];

/// The least prime above `⌊2^(64·digits)/φ⌋` (φ the golden ratio), as little-endian digits:
/// exactly `digits` digits, the top bit set, and no special form (not `2^N − c` with a
/// small `c`, not a NIST prime), so the generic code paths run on it. `digits` from 1 to 16.
///
/// # Panics
/// For `digits` outside `1..=16`.
pub fn generic_prime(digits: usize) -> Vec<u64> {
    assert!((1..=16).contains(&digits), "generic_prime: 1 to 16 digits, not {digits}");
    // ⌊2^(64n)/φ⌋ is the top n digits of ⌊2^1024/φ⌋.
    let mut p = PHI_1024[16 - digits..].to_vec();
    let mut carry = GENERIC_PRIME_OFFSETS[digits - 1];
    for d in p.iter_mut() {
        let (s, c) = d.overflowing_add(carry);
        *d = s;
        carry = u64::from(c);
    }
    debug_assert_eq!(carry, 0);
    p
}
