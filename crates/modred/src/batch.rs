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
//! Four at a time: on a CPU with AVX2 and without AVX-512 IFMA, jobs whose odd moduli
//! have the same size (513 to 2048 bits, automatic contexts) run in groups of four, one
//! job to each 64-bit lane of the vector registers (`engine::lanes`: every product four
//! Montgomery products in radix 2^28 by `vpmuludq`), a last group of fewer than three one
//! at a time; where `engine::rule::lanes_power` says so. Same results. On an AMD EPYC (Zen
//! 3) an exponentiation takes 0.72–0.81 of its time alone at 576–2048 bits that way
//! (`docs/benchmarks.md`, "four exponentiations at once").
//!
//! Variable time, as [`Modulus::pow_mod_vartime`]: public exponents only.

use crate::error::Error;
use crate::modulus::Modulus;
use crate::nat::Nat;
use alloc::vec;
use alloc::vec::Vec;

/// `x^e mod m` for every `(x, e)` in `jobs`, in order, modulo `modulus` (any `x`, any `e`);
/// an error for a job [`Modulus::pow_mod_vartime`] refuses, without stopping the others.
/// Parallel with the `rayon` feature; four at a time in the lanes of AVX2 registers where
/// that pays (module docs).
pub fn pow_many_vartime(modulus: &Modulus, jobs: &[(Nat, Nat)]) -> Vec<Result<Nat, Error>> {
    let lanes: Vec<Option<usize>> = jobs.iter().map(|(_, e)| modulus.lanes_group(e)).collect();
    run(
        &tasks(&lanes),
        |i| (&jobs[i].0, &jobs[i].1, modulus.modulus()),
        |i| modulus.pow_mod_vartime(&jobs[i].0, &jobs[i].1),
    )
}

/// `x^e mod m` for every `(x, e, m)` in `jobs`, in order, each modulus with the automatic
/// choice of reducer ([`Modulus::new`]); an error for a zero modulus (or a job refused as in
/// [`pow_many_vartime`]), without stopping the others. Parallel with the `rayon` feature;
/// jobs whose moduli have the same size four at a time in the lanes of AVX2 registers
/// where that pays (module docs).
pub fn pow_many_mod_vartime(jobs: &[(Nat, Nat, Nat)]) -> Vec<Result<Nat, Error>> {
    let moduli: Vec<Result<Modulus, Error>> = map(jobs, |(_, _, m)| Modulus::new(m));
    let lanes: Vec<Option<usize>> = jobs
        .iter()
        .zip(&moduli)
        .map(|((_, e, _), modulus)| modulus.as_ref().ok().and_then(|m| m.lanes_group(e)))
        .collect();
    run(
        &tasks(&lanes),
        |i| (&jobs[i].0, &jobs[i].1, &jobs[i].2),
        |i| moduli[i].as_ref().map_err(Clone::clone)?.pow_mod_vartime(&jobs[i].0, &jobs[i].1),
    )
}

/// A unit of work: one job by its context, or up to four in the lanes.
enum Task {
    One(usize),
    Lanes(Vec<usize>),
}

/// The jobs' tasks: those with a lanes size (`Some`, [`Modulus::lanes_group`]) in groups
/// of four of one size (a last group of fewer than `LANES_POWER_MIN_JOBS` one at a time),
/// the others one at a time.
fn tasks(lanes: &[Option<usize>]) -> Vec<Task> {
    let mut sizes: Vec<(usize, usize)> =
        lanes.iter().enumerate().filter_map(|(i, s)| s.map(|s| (s, i))).collect();
    sizes.sort_unstable();
    let mut tasks: Vec<Task> =
        lanes.iter().enumerate().filter(|(_, s)| s.is_none()).map(|(i, _)| Task::One(i)).collect();
    for group in sizes.chunk_by(|a, b| a.0 == b.0) {
        for four in group.chunks(4) {
            if four.len() >= crate::engine::rule::LANES_POWER_MIN_JOBS {
                tasks.push(Task::Lanes(four.iter().map(|&(_, i)| i).collect()));
            } else {
                tasks.extend(four.iter().map(|&(_, i)| Task::One(i)));
            }
        }
    }
    tasks
}

/// The tasks' results in the order of the jobs: `job(i)` gives job `i` to the lanes,
/// `one(i)` computes it alone.
fn run<'a>(
    tasks: &[Task],
    job: impl Fn(usize) -> (&'a Nat, &'a Nat, &'a Nat) + Sync + Send,
    one: impl Fn(usize) -> Result<Nat, Error> + Sync + Send,
) -> Vec<Result<Nat, Error>> {
    let done = map(tasks, |task| match task {
        Task::One(i) => vec![(*i, one(*i))],
        Task::Lanes(group) => {
            let jobs: Vec<_> = group.iter().map(|&i| job(i)).collect();
            group.iter().copied().zip(lanes(&jobs).into_iter().map(Ok)).collect()
        }
    });
    let mut out: Vec<Option<Result<Nat, Error>>> = Vec::new();
    out.resize_with(done.iter().map(Vec::len).sum(), || None);
    for (i, r) in done.into_iter().flatten() {
        out[i] = Some(r);
    }
    out.into_iter().map(|r| r.expect("every job has one task")).collect()
}

/// Up to four jobs in the lanes of AVX2 registers (only for jobs
/// [`Modulus::lanes_group`] admitted, which needs AVX2).
#[cfg(x86_kernels)]
fn lanes(jobs: &[(&Nat, &Nat, &Nat)]) -> Vec<Nat> {
    // SAFETY: a job reaches the lanes only when `engine::rule::lanes_power` held, which
    // asks the CPU for AVX2.
    unsafe { crate::engine::lanes::pow_vartime(jobs) }
}

#[cfg(not(x86_kernels))]
fn lanes(_: &[(&Nat, &Nat, &Nat)]) -> Vec<Nat> {
    unreachable!("the lanes run only on x86-64 kernels")
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
    use crate::engine::Operation;
    use crate::modulus::Limits;
    use crate::Algorithm;
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

    /// Jobs of every kind mixed, so that groups of the lanes form (where the CPU has them)
    /// beside jobs one at a time: lanes sizes with four, five, three and two jobs of a size,
    /// even moduli, small moduli, a zero modulus, an exponent over the work limit.
    #[test]
    fn mixed_jobs_equal_one_at_a_time() {
        let mut rng = SplitMix64::new(0x1a4e);
        let mut jobs: Vec<(Nat, Nat, Nat)> = Vec::new();
        for (bits, count) in [(512u64, 4), (1024, 5), (1030, 3), (2048, 2), (1536, 4), (768, 7)] {
            for _ in 0..count {
                let m = Nat::from_vec(rng.odd_modulus(bits));
                let x = Nat::from_vec(rng.below_pow2(bits + 9));
                let ebits = 1 + rng.below_u64(bits);
                let e = Nat::from_vec(rng.below_pow2(ebits));
                jobs.push((x, e, m));
            }
        }
        for bits in [64u64, 200, 1024] {
            let mut even = rng.odd_modulus(bits);
            even[0] &= !1;
            jobs.push((Nat::from(3u64), Nat::from_vec(rng.below_pow2(bits)), Nat::from_vec(even)));
        }
        jobs.push((Nat::from(3u64), Nat::from(5u64), Nat::zero()));
        // A shuffle, so that the sizes interleave.
        for i in (1..jobs.len()).rev() {
            jobs.swap(i, rng.below_u64(i as u64 + 1) as usize);
        }
        let want: Vec<Result<Nat, Error>> =
            jobs.iter().map(|(x, e, m)| Modulus::new(m)?.pow_mod_vartime(x, e)).collect();
        assert_eq!(pow_many_mod_vartime(&jobs), want);
        assert!(want.iter().filter(|r| r.is_err()).count() == 1);
        // One modulus, nine jobs: two groups of four and one alone where the lanes run.
        let m = Nat::from_vec(rng.odd_modulus(1024));
        let modulus = Modulus::new(&m).unwrap();
        let same: Vec<(Nat, Nat)> = (0..9)
            .map(|_| (Nat::from_vec(rng.below_pow2(1030)), Nat::from_vec(rng.below_pow2(1024))))
            .collect();
        if crate::engine::rule::lanes_power(1024) {
            assert!(same.iter().all(|(_, e)| modulus.lanes_group(e) == Some(37)));
        } else {
            std::eprintln!("note: no lanes on this CPU (AVX-512 IFMA, or no AVX2): the batch ran one job at a time");
        }
        let want: Vec<Result<Nat, Error>> =
            same.iter().map(|(x, e)| modulus.pow_mod_vartime(x, e)).collect();
        assert_eq!(pow_many_vartime(&modulus, &same), want);
        // Limits: a memory limit below a group's keeps the jobs one at a time; with a work
        // limit, short exponents within it (in the lanes), long ones refused, as one at a
        // time; a forced algorithm keeps its own code.
        let small = Limits { max_memory: 70_000, ..Limits::new() };
        let held = Modulus::with_limits(Algorithm::Auto, Operation::PowMod, &m, small).unwrap();
        assert!(same.iter().all(|(_, e)| held.lanes_group(e).is_none()));
        let want: Vec<Result<Nat, Error>> =
            same.iter().map(|(x, e)| held.pow_mod_vartime(x, e)).collect();
        assert!(want.iter().all(Result::is_ok));
        assert_eq!(pow_many_vartime(&held, &same), want);
        let tight = Limits { max_work: 200 * modulus.mul_work(), ..Limits::new() };
        for algorithm in [Algorithm::Auto, Algorithm::Montgomery] {
            let held = Modulus::with_limits(algorithm, Operation::PowMod, &m, tight).unwrap();
            assert!(same.iter().all(|(_, e)| held.lanes_group(e).is_none()));
            let want: Vec<Result<Nat, Error>> =
                same.iter().map(|(x, e)| held.pow_mod_vartime(x, e)).collect();
            assert!(want.iter().all(|r| matches!(r, Err(Error::TooMuchWork { .. }))));
            assert_eq!(pow_many_vartime(&held, &same), want);
            let short: Vec<(Nat, Nat)> =
                same.iter().map(|(x, _)| (x.clone(), Nat::from_vec(rng.below_pow2(20)))).collect();
            let want: Vec<Result<Nat, Error>> =
                short.iter().map(|(x, e)| held.pow_mod_vartime(x, e)).collect();
            assert!(want.iter().all(Result::is_ok));
            assert_eq!(pow_many_vartime(&held, &short), want);
        }
    }

    /// The grouping: sizes apart, fours, a last group of three in the lanes, of two alone.
    #[test]
    fn tasks_group_by_size() {
        let lanes = [Some(37), None, Some(37), Some(19), Some(37), Some(37), Some(19), Some(37)];
        let tasks = tasks(&lanes);
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut alone: Vec<usize> = Vec::new();
        for t in &tasks {
            match t {
                Task::One(i) => alone.push(*i),
                Task::Lanes(g) => groups.push(g.clone()),
            }
        }
        alone.sort_unstable();
        assert_eq!(groups, [vec![0, 2, 4, 5]]);
        assert_eq!(alone, [1, 3, 6, 7]);
    }
}
