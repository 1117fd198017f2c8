//! Where the time of one transform product goes: forward transforms (`Transform::new`,
//! three primes) against the whole product (two forward, one inverse, CRT and carries).
//! `cargo run --release -p modred --example ntt_parts [log2 bits]`.

use modred_testkit::timing::{compare, Candidate, Plan};
use modred_testkit::SplitMix64;
use std::time::Duration;

fn main() {
    let log2: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let words = (1usize << log2) / 64;
    let a = SplitMix64::new(0x2545_f491_4f6c_dd1d).digits(words);
    let n = modred::ntt::transform_len_at_least(2 * words - 1);
    let (mut r1, mut r2) = (vec![0u64; 2 * words], vec![0u64; 2 * words]);
    // Interleaved, the fastest of 7 rounds of each (one call a round at the default size).
    let t = compare(
        &Plan::fixed(Duration::from_millis(1), 7),
        &mut [
            Candidate::new(|| {
                std::hint::black_box(modred::ntt::Transform::new(&a, n).unwrap());
            }),
            Candidate::new(|| modred::ntt::mul(&mut r1, &a, &a)),
            Candidate::new(|| modred::ntt::sqr(&mut r2, &a)),
        ],
    );
    let (fwd, mul, sqr) = (t[0].ns * 1e-9, t[1].ns * 1e-9, t[2].ns * 1e-9);
    println!(
        "2^{log2} bits, length {n}: 3 forward transforms {:.2} ms, product {:.2} ms \
         (so 3 inverse + pointwise + CRT ≈ {:.2} ms), square {:.2} ms",
        fwd * 1e3,
        mul * 1e3,
        (mul - 2.0 * fwd) * 1e3,
        sqr * 1e3
    );
}
