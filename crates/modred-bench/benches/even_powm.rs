//! Exponentiation modulo an even modulus, 64–4096 bits: the automatic context (the modulus
//! split by CRT where `engine::rule::EVEN_CRT_MIN_BITS` says so) beside the forced Barrett
//! context it replaces and, with `anchors`, GMP's `mpz_powm` (which splits the same way).
//! Ratios from one run with the candidates interleaved, a full-length exponent.
//!
//! ```sh
//! cargo bench -p modred-bench --bench even_powm --features anchors
//! EVEN_POWM_BITS=64,1024 EVEN_POWM_SHIFT=100 cargo bench -p modred-bench --bench even_powm
//! ```
//!
//! `EVEN_POWM_SHIFT` (default 1): the modulus is `q·2^s` with this `s` and a random odd `q`.

use modred::{Algorithm, Modulus, Nat, Operation};
use modred_bench::support::{compare_named, Candidate, Plan, SplitMix64};
use std::hint::black_box;
use std::time::Duration;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    let sizes: Vec<u64> = match std::env::var("EVEN_POWM_BITS") {
        Ok(v) => v.split(',').filter_map(|s| s.trim().parse().ok()).collect(),
        Err(_) => vec![64, 128, 256, 512, 1024, 2048, 4096],
    };
    let shift: u64 = env_or("EVEN_POWM_SHIFT", 1);
    let rounds: usize = env_or("EVEN_POWM_ROUNDS", 7);
    println!("even moduli q·2^{shift}, {sizes:?} bits; best of {rounds} interleaved rounds");
    for &bits in &sizes {
        let mut rng = SplitMix64::new(0xe7e2 ^ bits);
        let mut q = Nat::from_vec(rng.exact_bits(bits - shift));
        if !q.is_odd() {
            q = q.add(&Nat::one());
        }
        let m = q.shl(shift);
        let x = Nat::from_vec(rng.exact_bits(bits)).checked_rem(&m).unwrap();
        let e = Nat::from_vec(rng.exact_bits(bits));
        let auto = Modulus::for_operation(&m, Operation::PowMod).unwrap();
        let barrett = Modulus::with(Algorithm::Barrett, &m).unwrap();
        let want = barrett.pow_mod_vartime(&x, &e).unwrap();
        assert_eq!(auto.pow_mod_vartime(&x, &e).unwrap(), want, "{bits} bits");
        #[allow(unused_mut)] // the anchors feature adds a candidate
        let mut cands = vec![
            (
                "auto",
                Candidate::new(|| {
                    black_box(auto.pow_mod_vartime(black_box(&x), &e).ok());
                }),
            ),
            (
                "barrett",
                Candidate::new(|| {
                    black_box(barrett.pow_mod_vartime(black_box(&x), &e).ok());
                }),
            ),
        ];
        #[cfg(feature = "anchors")]
        {
            let mut gmp =
                modred_bench::anchors::GmpPowm::new(&x.to_hex(), &e.to_hex(), &m.to_hex());
            cands.push(("gmp", Candidate::new(move || gmp.run())));
        }
        let t = compare_named(&Plan::fixed(Duration::from_millis(20), rounds), cands);
        let ns = |name: &str| t.iter().find(|(n, _)| *n == name).map(|(_, t)| t);
        let cells: Vec<String> =
            t.iter().map(|(name, t)| format!("{name} {:.2} µs", t.ns / 1e3)).collect();
        print!("{bits:5} bits ({}) | {}", auto.plan().power, cells.join(" | "));
        let a = ns("auto").unwrap();
        print!(" | auto/barrett {:.2}", a.ratio_to(ns("barrett").unwrap()));
        if let Some(g) = ns("gmp") {
            print!(
                " | auto/gmp {:.2} | barrett/gmp {:.2}",
                a.ratio_to(g),
                ns("barrett").unwrap().ratio_to(g)
            );
        }
        println!();
    }
}
