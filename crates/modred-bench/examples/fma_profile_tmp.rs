fn main() {
    let log2: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(16);
    let reps: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let words = (1usize << log2) / 64;
    let a: Vec<u64> = (0..words as u64).map(|i| i.wrapping_mul(0x9e3779b97f4a7c15)).collect();
    let b: Vec<u64> = (0..words as u64).map(|i| i.wrapping_mul(0xc2b2ae3d27d4eb4f)).collect();
    let mut r = vec![0u64; 2 * words];
    let t = std::time::Instant::now();
    for _ in 0..reps {
        modred::ntt::mul(&mut r, &a, &b);
    }
    println!("{:?} per mul", t.elapsed() / reps as u32);
}
