//! Conversions between 64-bit digits and the small radices of the vector contexts: 2^52
//! for AVX-512 IFMA (`engine::ifma`), 2^28 for AVX2 (`engine::avx2`). One pass each, with
//! the bits not yet written in a `u128` window (no memory round trip per digit); every
//! branch depends on positions only, so both are constant time in the digits' values.

/// `x` (64-bit digits) in the `BITS`-bit digits `out` (`BITS` ≤ 64); the value must fit.
pub(crate) fn to_small_digits<const BITS: u32>(x: &[u64], out: &mut [u64]) {
    let mask = u64::MAX >> (64 - BITS);
    let mut words = x.iter();
    let (mut acc, mut have) = (0u128, 0u32);
    for o in out.iter_mut() {
        if have < BITS {
            acc |= (words.next().copied().unwrap_or(0) as u128) << have;
            have += 64;
        }
        *o = acc as u64 & mask;
        acc >>= BITS;
        have -= BITS;
    }
    debug_assert!(acc == 0 && words.all(|&v| v == 0), "the value does not fit");
}

/// `BITS`-bit digits `d` (each below `2^BITS`) into the 64-bit digits `out`; the value
/// must fit. Storing each digit into two overlapping words of memory instead made every
/// store wait for the previous one.
pub(crate) fn from_small_digits<const BITS: u32>(d: &[u64], out: &mut [u64]) {
    let mut words = out.iter_mut();
    let (mut acc, mut have) = (0u128, 0u32);
    for &v in d {
        debug_assert!(v >> BITS == 0);
        acc |= (v as u128) << have;
        have += BITS;
        if have >= 64 {
            match words.next() {
                Some(w) => *w = acc as u64,
                None => debug_assert_eq!(acc as u64, 0, "the value does not fit"),
            }
            acc >>= 64;
            have -= 64;
        }
    }
    match words.next() {
        Some(w) => *w = acc as u64,
        None => debug_assert_eq!(acc, 0, "the value does not fit"),
    }
    words.for_each(|w| *w = 0);
}
