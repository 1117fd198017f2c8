//! The working memory of writing a huge number in decimal, counted by this binary's
//! allocator: the powers of ten, their reciprocals and transforms, and the divisions'
//! temporaries stay a small multiple of the number's own size.

use modred::Nat;
use modred_testkit::alloc_count::{peak_of, Counting};
use modred_testkit::SplitMix64;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn writing_decimal_needs_a_small_multiple_of_the_number() {
    let mut rng = SplitMix64::new(0xdec_0e0e);
    for log2 in [12u32, 16, 20, 22] {
        let words = (1usize << log2) / 64;
        let n = Nat::<u64>::from_vec(rng.digits(words));
        let bytes = words as u64 * 8;
        // The transforms' plans are made once per length and kept: not working memory.
        let _ = n.to_decimal();
        let (peak, text) = peak_of(|| n.to_decimal());
        // The digits themselves are 2.4 bytes per byte of the number; measured 22 times
        // in all (AMD EPYC, transform on AVX-512 IFMA) from 2^16 bits on.
        let ratio = peak as f64 / bytes as f64;
        println!("2^{log2} bits: peak {peak} bytes, {ratio:.1} times the number");
        assert!(text.len() as u64 > bytes * 2);
        assert!(ratio <= 26.0, "2^{log2} bits: {ratio:.1} times the number's size");
    }
}
