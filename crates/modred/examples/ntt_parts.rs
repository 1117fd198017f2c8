//! Where the time of one transform product goes: forward transforms (`Transform::new`,
//! three primes) against the whole product (two forward, one inverse, CRT and carries).
//! `cargo run --release -p modred --example ntt_parts [log2 bits]`.

use std::time::Instant;
mod support;
use support::xorshift;

fn best<F: FnMut()>(mut f: F) -> f64 {
    (0..7)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let log2: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let words = (1usize << log2) / 64;
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let a: Vec<u64> = (0..words).map(|_| next()).collect();
    let n = modred::ntt::transform_len_at_least(2 * words - 1);
    let mut r = vec![0u64; 2 * words];
    let fwd = best(|| {
        std::hint::black_box(modred::ntt::Transform::new(&a, n).unwrap());
    });
    let mul = best(|| modred::ntt::mul(&mut r, &a, &a));
    let sqr = best(|| modred::ntt::sqr(&mut r, &a));
    println!(
        "2^{log2} bits, length {n}: 3 forward transforms {:.2} ms, product {:.2} ms \
         (so 3 inverse + pointwise + CRT ≈ {:.2} ms), square {:.2} ms",
        fwd * 1e3,
        mul * 1e3,
        (mul - 2.0 * fwd) * 1e3,
        sqr * 1e3
    );
}
