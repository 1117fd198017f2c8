//! Many independent exponentiations at once, spread over every core.
//!
//! [`pow_many_vartime`] computes `x_i^(e_i) mod m` for a list of `(x_i, e_i)` modulo one
//! [`Modulus`]; [`pow_many_mod_vartime`] takes a modulus per job. With the `rayon` feature the jobs
//! run on rayon's global thread pool (or the pool a caller installs), one job per task;
//! without it they run one after another on the calling thread. The results come back in
//! the order of the jobs either way, and are the same as [`Modulus::pow_mod_vartime`]'s.
//!
//! Throughput: `cargo bench -p modred-bench --bench rsa_sizes --features rayon` times 32
//! jobs of 2048 bits on one thread and on every core. On this project's 2-core machine,
//! shared with other builds (load average 10–13), it measured speed-ups of only 1.07, 1.24
//! and 1.29 on 2 threads (`docs/benchmarks.md`): the second core was busy; on an idle
//! machine expect up to the number of cores (the jobs share nothing but the read-only
//! `Modulus`). The CLI's `modred batch --threads N` does the same for JSON lines.
//!
//! Variable time, as [`Modulus::pow_mod_vartime`]: public exponents only.

use crate::error::Error;
use crate::modulus::Modulus;
use crate::nat::Nat;
use alloc::vec::Vec;

/// `x^e mod m` for every `(x, e)` in `jobs`, in order, modulo `modulus` (any `x`, any `e`);
/// an error for a job [`Modulus::pow_mod_vartime`] refuses, without stopping the others.
/// Parallel with the `rayon` feature.
pub fn pow_many_vartime(modulus: &Modulus, jobs: &[(Nat, Nat)]) -> Vec<Result<Nat, Error>> {
    map(jobs, |(x, e)| modulus.pow_mod_vartime(x, e))
}

/// `x^e mod m` for every `(x, e, m)` in `jobs`, in order, each modulus with the automatic
/// choice of reducer ([`Modulus::new`]); an error for a zero modulus (or a job refused as in
/// [`pow_many_vartime`]), without stopping the others. Parallel with the `rayon` feature.
pub fn pow_many_mod_vartime(jobs: &[(Nat, Nat, Nat)]) -> Vec<Result<Nat, Error>> {
    map(jobs, |(x, e, m)| Modulus::new(m)?.pow_mod_vartime(x, e))
}

/// Whether the jobs run in parallel (the `rayon` feature).
pub const PARALLEL: bool = cfg!(feature = "rayon");

#[cfg(feature = "rayon")]
fn map<T: Sync, U: Send>(jobs: &[T], f: impl Fn(&T) -> U + Sync + Send) -> Vec<U> {
    use rayon::prelude::*;
    jobs.par_iter().with_max_len(1).map(f).collect()
}

#[cfg(not(feature = "rayon"))]
fn map<T, U>(jobs: &[T], f: impl Fn(&T) -> U) -> Vec<U> {
    jobs.iter().map(f).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use modred_testkit::SplitMix64;

    #[test]
    fn results_in_order_and_equal_to_one_at_a_time() {
        let mut rng = SplitMix64::new(0xba7c);
        for bits in [64u64, 1024] {
            let m = Nat::from_vec(rng.odd_modulus(bits));
            let modulus = Modulus::new(&m).unwrap();
            let jobs: Vec<(Nat, Nat)> = (0..9)
                .map(|_| {
                    (Nat::from_vec(rng.below_pow2(bits + 5)), Nat::from_vec(rng.below_pow2(bits)))
                })
                .collect();
            let got = pow_many_vartime(&modulus, &jobs);
            assert_eq!(got.len(), jobs.len());
            for ((x, e), r) in jobs.iter().zip(&got) {
                assert_eq!(*r, modulus.pow_mod_vartime(x, e));
            }
            let with_m: Vec<(Nat, Nat, Nat)> =
                jobs.iter().map(|(x, e)| (x.clone(), e.clone(), m.clone())).collect();
            assert_eq!(got, pow_many_mod_vartime(&with_m));
        }
        assert!(pow_many_mod_vartime(&[(Nat::one(), Nat::one(), Nat::zero())])[0].is_err());
        assert!(pow_many_vartime(&Modulus::new(&Nat::from(7u64)).unwrap(), &[]).is_empty());
    }
}
