//! The one timing harness of modred's report, `modred bench`, `modred tune`, the
//! benchmarks' examples and the calibration examples: candidates timed side by side on a
//! shared, noisy machine.
//!
//! Absolute times from different runs (or different processes) on a shared machine are not
//! comparable, so only candidates timed **in one call, interleaved** are compared:
//!
//! 1. *Calibration*: each candidate's batch size (operations per timed batch) is doubled
//!    until one batch takes at least [`Plan::batch`] (about 1–5 ms).
//! 2. *Rounds*: each round times one batch of every candidate, in an order rotated from
//!    round to round, so a slow phase of the machine (another process, a frequency change)
//!    hits all candidates alike.
//! 3. *Statistics*: a candidate's time is the minimum per-operation time over the rounds
//!    (noise on a shared machine only ever adds time, so the minimum is the best estimate
//!    of the undisturbed cost; the median is kept beside it as a measure of the noise).
//!    The ratio of two candidates is the median of their per-round ratios over the
//!    *quiet rounds*: the third of the rounds (at least three) in which all candidates
//!    together ran closest to their own minima. Pairing within a round cancels a slow
//!    phase of the machine (the two batches run within milliseconds of each other), and
//!    keeping the quiet rounds leaves out the rounds in which one candidate was disturbed
//!    and the other not.
//! 4. *Pooling*: [`merge`] takes the rounds of several [`compare`] calls of the same
//!    candidates, made at different times, as one comparison, so that a busy phase of the
//!    machine that covered one call weighs only as its share of the rounds.
//!
//! On a virtual machine whose physical core is shared with other tenants (SMT), a busy
//! sibling thread slows throughput-bound code (a multiplication loop) far more than
//! latency-bound code (a chain of dependent divisions), and such phases last for seconds:
//! then even ratios measured this way differ between runs.
//!
//! *Clock*: on Linux the thread's own CPU time (`CLOCK_THREAD_CPUTIME_ID`), which does not
//! count the time the thread spent descheduled while other processes ran — on a shared
//! machine the largest source of noise by far; elsewhere the monotonic wall clock. A batch
//! whose thread-clock reading fails or does not advance is timed by the wall clock, read
//! around it too (never as zero).
//! Candidates whose work runs on other threads (a thread pool) are timed on the wall
//! clock: [`compare_wall_clock`].
//!
//! Each candidate is a closure that performs one operation; it is wrapped in a loop
//! monomorphized for it (no dynamic call per operation), and its inputs and outputs go
//! through [`std::hint::black_box`] so the compiler can neither precompute nor discard it.
//!
//! ```
//! use modred_testkit::timing::{compare, Candidate, Plan};
//! use std::hint::black_box;
//! use std::time::Duration;
//!
//! let plan = Plan::fixed(Duration::from_micros(200), 5);
//! let (a, b) = (black_box(12345u64), black_box(678u64));
//! let t = compare(&plan, &mut [
//!     Candidate::new(|| drop(black_box(black_box(a) / black_box(b)))),
//!     Candidate::new(|| drop(black_box(black_box(a) * black_box(b)))),
//! ]);
//! assert!(t.iter().all(|t| t.ns > 0.0 && t.ns <= t.median_ns && t.rounds == 5));
//! ```
//!
//! Single operations, one sample each, for a statistical test over many inputs (the
//! constant-time check's t-test) are timed by [`time_each`].

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The clock the timings are read from: `"thread CPU time"` or `"wall clock"`.
pub fn clock_name() -> &'static str {
    if cpu_clock_works() {
        "thread CPU time (clock_gettime CLOCK_THREAD_CPUTIME_ID)"
    } else {
        "monotonic wall clock"
    }
}

fn cpu_clock_works() -> bool {
    static WORKS: OnceLock<bool> = OnceLock::new();
    *WORKS.get_or_init(|| cpu_clock::now().is_some())
}

/// Which clock a comparison reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Clock {
    /// The clock of [`clock_name`]: the thread's CPU time where it works.
    Thread,
    /// The monotonic wall clock.
    Wall,
}

/// A start time on one of the clocks.
#[derive(Clone, Copy)]
enum Stopwatch {
    Cpu(Duration),
    Wall(Instant),
}

impl Stopwatch {
    fn start(clock: Clock) -> Stopwatch {
        match (clock == Clock::Thread && cpu_clock_works()).then(cpu_clock::now).flatten() {
            Some(t) => Stopwatch::Cpu(t),
            None => Stopwatch::Wall(Instant::now()),
        }
    }

    /// The time since `start`; `None` where the thread clock's second reading failed or
    /// was not later than its first.
    fn elapsed(self) -> Option<Duration> {
        match self {
            Stopwatch::Cpu(t0) => {
                cpu_clock::now().and_then(|t| t.checked_sub(t0)).filter(|d| !d.is_zero())
            }
            Stopwatch::Wall(t0) => Some(t0.elapsed()),
        }
    }
}

/// A batch's time: the thread clock's reading, or where it has none (a failed read, or a
/// clock that did not advance: seen once in a virtual machine, a batch of about 20 µs
/// read as nothing, a minimum of 0.00 ns an operation and a ratio of infinity) the wall
/// clock's, which counts the batch and any time the thread was descheduled: never less.
fn batch_time(clock_reading: Option<Duration>, wall: Duration) -> Duration {
    clock_reading.unwrap_or(wall)
}

/// The calling thread's CPU time, where the platform has it.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
mod cpu_clock {
    use std::time::Duration;

    /// `struct timespec` of 64-bit Linux (`time_t` and `long` are 64 bits).
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }

    extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }

    /// `CLOCK_THREAD_CPUTIME_ID` in Linux's `<time.h>`.
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

    pub fn now() -> Option<Duration> {
        let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `ts` is a valid, writable `struct timespec` of this platform, and
        // clock_gettime writes nothing else.
        let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        (rc == 0 && ts.tv_sec >= 0 && (0..1_000_000_000).contains(&ts.tv_nsec))
            .then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
mod cpu_clock {
    pub fn now() -> Option<std::time::Duration> {
        None
    }
}

/// How long and how often to time.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Target duration of one timed batch.
    pub batch: Duration,
    /// Rounds wanted (each times one batch of every candidate).
    pub rounds: usize,
    /// Rounds always done, even past `budget`.
    pub min_rounds: usize,
    /// Stop starting new rounds (beyond `min_rounds`) after this much time in `compare`.
    pub budget: Duration,
}

impl Plan {
    /// Exactly `rounds` rounds of batches of about `batch` each, whatever they take.
    pub const fn fixed(batch: Duration, rounds: usize) -> Plan {
        Plan { batch, rounds, min_rounds: rounds, budget: Duration::MAX }
    }
}

/// One competitor: a loop running its operation `n` times.
pub struct Candidate<'a> {
    run: Box<dyn FnMut(u64) + 'a>,
}

impl<'a> Candidate<'a> {
    /// A candidate performing `op` once per call. Make `op` pass its inputs and outputs
    /// through [`black_box`].
    pub fn new(mut op: impl FnMut() + 'a) -> Self {
        Candidate {
            run: Box::new(move |n| {
                for _ in 0..n {
                    op();
                }
            }),
        }
    }

    fn time(&mut self, n: u64, clock: Clock) -> Duration {
        let wall = Instant::now();
        let start = Stopwatch::start(clock);
        (self.run)(black_box(n));
        let reading = start.elapsed();
        batch_time(reading, wall.elapsed())
    }
}

/// The time of one operation of one candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// Nanoseconds per operation in each round, in round order.
    pub samples: Vec<f64>,
    /// Minimum over the rounds, in nanoseconds per operation.
    pub ns: f64,
    /// Median over the rounds, in nanoseconds per operation.
    pub median_ns: f64,
    /// Rounds timed.
    pub rounds: usize,
    /// Operations per batch.
    pub batch: u64,
    /// The quiet rounds of the comparison (the same for all its candidates).
    pub quiet: Vec<usize>,
}

impl Timing {
    /// This candidate's time relative to `other`'s (how many times slower), both from the
    /// same [`compare`]: the median of the per-round ratios over the quiet rounds.
    pub fn ratio_to(&self, other: &Timing) -> f64 {
        let mut r: Vec<f64> =
            self.quiet.iter().map(|&i| self.samples[i] / other.samples[i]).collect();
        r.sort_by(f64::total_cmp);
        median(&r)
    }
}

/// The median of sorted, non-empty values (the mean of the middle two for an even count).
fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// Times every candidate, interleaved (see the module documentation), and returns their
/// timings in the candidates' order.
pub fn compare(plan: &Plan, candidates: &mut [Candidate<'_>]) -> Vec<Timing> {
    compare_on(Clock::Thread, plan, candidates)
}

/// [`compare`] on the monotonic wall clock, for candidates whose work runs on other
/// threads (a thread pool), which the calling thread's CPU time would not count.
pub fn compare_wall_clock(plan: &Plan, candidates: &mut [Candidate<'_>]) -> Vec<Timing> {
    compare_on(Clock::Wall, plan, candidates)
}

fn compare_on(clock: Clock, plan: &Plan, candidates: &mut [Candidate<'_>]) -> Vec<Timing> {
    let start = Instant::now();
    let batches: Vec<u64> =
        candidates.iter_mut().map(|c| calibrate(c, plan.batch, clock)).collect();
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(plan.rounds); candidates.len()];
    let n = candidates.len();
    for round in 0..plan.rounds.max(1) {
        if round >= plan.min_rounds.max(1) && start.elapsed() > plan.budget {
            break;
        }
        for j in 0..n {
            let i = (j + round) % n;
            let t = candidates[i].time(batches[i], clock);
            samples[i].push(t.as_secs_f64() * 1e9 / batches[i] as f64);
        }
    }
    timings(samples, batches)
}

/// The timings of candidates from their per-round samples (every candidate the same
/// number of rounds) and batch sizes.
fn timings(samples: Vec<Vec<f64>>, batches: Vec<u64>) -> Vec<Timing> {
    let quiet = quiet_rounds(&samples);
    samples
        .into_iter()
        .zip(batches)
        .map(|(samples, batch)| {
            let mut s = samples.clone();
            s.sort_by(f64::total_cmp);
            let (ns, median_ns) = (s[0], median(&s));
            Timing { samples, ns, median_ns, rounds: s.len(), batch, quiet: quiet.clone() }
        })
        .collect()
}

/// Several [`compare`] calls of the same candidates (in the same order), made at
/// different times, as one: the rounds of all of them, the quiet rounds chosen among all.
/// A disturbed phase of the machine that covered one call then weighs as its share of
/// the rounds. The batch size is the first call's.
///
/// # Panics
/// If the calls timed different numbers of candidates (a programming error).
pub fn merge(parts: &[Vec<Timing>]) -> Vec<Timing> {
    let n = parts.first().map_or(0, Vec::len);
    assert!(parts.iter().all(|p| p.len() == n), "merge: different candidates");
    let samples: Vec<Vec<f64>> =
        (0..n).map(|i| parts.iter().flat_map(|p| p[i].samples.iter().copied()).collect()).collect();
    let batches = (0..n).map(|i| parts[0][i].batch).collect();
    timings(samples, batches)
}

/// The third of the rounds (at least three, or all if fewer) with the smallest sum over
/// the candidates of their time relative to their own minimum, in round order.
fn quiet_rounds(samples: &[Vec<f64>]) -> Vec<usize> {
    let rounds = samples.first().map_or(0, Vec::len);
    let mins: Vec<f64> =
        samples.iter().map(|s| s.iter().copied().fold(f64::INFINITY, f64::min)).collect();
    let score = |r: usize| samples.iter().zip(&mins).map(|(s, m)| s[r] / m).sum::<f64>();
    let mut order: Vec<usize> = (0..rounds).collect();
    order.sort_by(|&a, &b| score(a).total_cmp(&score(b)));
    order.truncate(rounds.div_ceil(3).max(3).min(rounds));
    order.sort_unstable();
    order
}

/// Operations per batch so that one batch takes at least `target` (at least one).
fn calibrate(c: &mut Candidate<'_>, target: Duration, clock: Clock) -> u64 {
    c.time(1, clock); // warm caches, fault in buffers
    let mut n = 1u64;
    loop {
        let t = c.time(n, clock);
        if t >= target || n >= 1 << 40 {
            return n;
        }
        // Jump close to the target when the measurement is long enough to trust,
        // otherwise double.
        n = if t >= target / 16 {
            let scale = target.as_secs_f64() / t.as_secs_f64().max(1e-9);
            ((n as f64 * scale * 1.1).ceil() as u64).max(n + 1)
        } else {
            n * 2
        };
    }
}

/// Times `op` on each input alone, one sample per input, in nanoseconds (after a warm-up
/// on the first 64 inputs, which warms the caches and the branch predictor): the samples of
/// a statistical test over inputs, such as the constant-time check's t-test between two
/// classes of inputs. On the monotonic wall clock, whose reading costs tens of nanoseconds
/// (the thread CPU clock is a system call): an operation of a few hundred nanoseconds is
/// resolved.
pub fn time_each<S>(inputs: &mut [S], mut op: impl FnMut(&mut S)) -> Vec<f64> {
    for s in inputs.iter_mut().take(64) {
        op(s);
    }
    inputs
        .iter_mut()
        .map(|s| {
            let start = Instant::now();
            op(black_box(s));
            start.elapsed().as_nanos() as f64
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(iters: u64) -> u64 {
        let mut x = black_box(1u64);
        for i in 0..iters {
            x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
        }
        x
    }

    #[test]
    fn quiet_rounds_leave_out_disturbed_ones() {
        // Round 1 disturbs the first candidate, round 3 the second.
        let samples = vec![
            vec![10.0, 30.0, 10.0, 11.0, 10.0, 10.0],
            vec![20.0, 20.0, 21.0, 60.0, 20.0, 20.0],
        ];
        let q = quiet_rounds(&samples);
        assert_eq!(q.len(), 3);
        assert!(!q.contains(&1) && !q.contains(&3));
        assert_eq!(quiet_rounds(&[vec![1.0, 2.0]]), vec![0, 1]);
    }

    #[test]
    fn merged_timings_pool_the_rounds() {
        let t = |samples: Vec<f64>| {
            let n = samples.len();
            Timing { samples, ns: 0.0, median_ns: 0.0, rounds: n, batch: 7, quiet: vec![] }
        };
        // The first call caught a phase in which the second candidate ran twice as slow;
        // the second and third did not.
        let first = vec![t(vec![10.0, 10.0, 10.0]), t(vec![24.0, 24.0, 24.0])];
        let second = vec![t(vec![11.0, 10.0, 10.0]), t(vec![12.0, 12.0, 12.0])];
        let third = vec![t(vec![10.0, 10.0, 11.0]), t(vec![12.0, 12.0, 12.0])];
        let m = merge(&[first, second, third]);
        assert_eq!(m.len(), 2);
        assert_eq!((m[0].rounds, m[1].rounds, m[0].batch), (9, 9, 7));
        assert_eq!((m[0].ns, m[1].ns), (10.0, 12.0));
        // The quiet rounds (three of nine) are from the undisturbed calls.
        assert_eq!(m[0].quiet.len(), 3);
        assert!(m[0].quiet.iter().all(|&r| r >= 3), "{:?}", m[0].quiet);
        assert!((m[1].ratio_to(&m[0]) - 1.2).abs() < 1e-9);
    }

    #[test]
    fn timings_are_positive_and_ordered_by_work() {
        let plan = Plan {
            batch: Duration::from_micros(300),
            rounds: 5,
            min_rounds: 3,
            budget: Duration::from_secs(2),
        };
        let mut cands = [
            Candidate::new(|| {
                black_box(spin(black_box(50)));
            }),
            Candidate::new(|| {
                black_box(spin(black_box(2000)));
            }),
        ];
        let t = compare(&plan, &mut cands);
        assert_eq!(t.len(), 2);
        for ti in &t {
            assert!(ti.ns > 0.0 && ti.ns.is_finite() && ti.ns <= ti.median_ns);
            assert!(ti.rounds >= 3 && ti.batch >= 1);
        }
        // 40 times the work: at least several times slower, whatever the noise.
        assert!(t[1].ratio_to(&t[0]) > 5.0, "{t:?}");
    }

    #[test]
    fn a_batch_without_a_thread_clock_reading_takes_the_wall_clock() {
        let wall = Duration::from_micros(21);
        assert_eq!(batch_time(Some(Duration::from_micros(20)), wall), Duration::from_micros(20));
        assert_eq!(batch_time(None, wall), wall);
        // A thread-clock reading no later than the start is no reading.
        let later = cpu_clock::now().unwrap_or_default() + Duration::from_secs(3600);
        assert_eq!(Stopwatch::Cpu(later).elapsed(), None);
        assert!(Stopwatch::Wall(Instant::now()).elapsed().is_some());
    }

    #[test]
    fn fixed_plans_and_the_wall_clock() {
        let plan = Plan::fixed(Duration::from_micros(100), 4);
        assert_eq!((plan.rounds, plan.min_rounds, plan.budget), (4, 4, Duration::MAX));
        let mut cands = [
            Candidate::new(|| {
                black_box(spin(black_box(20)));
            }),
            Candidate::new(|| {
                black_box(spin(black_box(2000)));
            }),
        ];
        let t = compare_wall_clock(&plan, &mut cands);
        assert!(t.iter().all(|t| t.rounds == 4 && t.ns > 0.0 && t.quiet.len() == 3));
        assert!(t[1].ns > t[0].ns, "{t:?}");
    }

    #[test]
    fn each_input_is_timed_once() {
        let mut inputs: Vec<(u64, u64)> = (0..100).map(|i| (i, 0)).collect();
        let mut calls = 0;
        let t = time_each(&mut inputs, |(iters, out)| {
            calls += 1;
            *out = spin(*iters);
        });
        assert_eq!((t.len(), calls), (100, 164));
        assert!(t.iter().all(|&ns| ns >= 0.0));
    }
}
