//! `modred tune`: measures which reducer and which exponentiation method win on this
//! machine, by modulus form and size, and what the auto rule's choice costs against the
//! winner.
//!
//! For every *point* (a modulus of one form and size) and operation, every algorithm that
//! applies is first checked against `Nat` arithmetic on the inputs it will be timed on,
//! then all are timed interleaved in one call ([`modred_testkit::timing`]): the ratios are
//! measured milliseconds apart, in the same state of the machine. The operations:
//!
//! - `reduce`: `x mod m` of a product `x < m²` of two residues (16 arguments in turn), the
//!   result in the standard representation, by `Modulus::reduce` of a context forced to each
//!   algorithm (for Montgomery's, whose reduction gives `x·ρ⁻¹`, one multiplication by `ρ²`
//!   more). Precalculation excluded.
//! - `mulmod`: one modular multiplication of two residues (`Modulus::mul_into`).
//!
//! Every candidate is a `Modulus` forced to one algorithm: what is timed is exactly the code
//! `Modulus` runs for it (its engine, `modred algos M`).
//! - `powm`: a full exponentiation with an exponent as long as the modulus, by the method
//!   the auto rule picks for that length. Candidates: the algorithms within
//!   [`POWM_SCREEN`] times the fastest multiplication at the point.
//! - `method`: for odd moduli, the exponentiation methods (binary, fixed and sliding
//!   windows around the default width) with the reducer auto picks.
//!
//! A run goes over all points [`Depth::passes`] times, each pass timing a share of the
//! rounds, and a point's ratios come from the rounds of all passes together
//! ([`timing::merge`]): a few seconds of a busy neighbour on a shared machine fall into one
//! pass, so they cannot decide a point alone (single-pass runs a minute apart disagreed on
//! near-tied points by up to 20%).
//!
//! The *winner* of a point is the fastest, except that the auto rule's own choice is kept
//! when it is within [`TIE_MARGIN`] of it: differences that small are below what a shared
//! machine reproduces from run to run. The winners make the profile.

use crate::report::rng::{digits, nat, SplitMix64};
use modred::exp::{self, Method};
use modred::modulus::profile::{method_name, Form, Profile};
use modred::modulus::{explain_with, Choice};
use modred::reduce::NistPrime;
use modred::{Algorithm, Modulus, Nat, Operation};
use modred_testkit::timing::{self, Candidate, Plan, Timing};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A winner is replaced by the auto rule's choice when that is at most this much slower
/// (3%): on the shared 2-core machine of the measurements, repeated runs of one comparison
/// differ by about that much.
pub const TIE_MARGIN: f64 = 0.03;

/// The auto rule must stay within this factor of the winner at every point (the goal
/// "at most 10% slower").
pub const AUTO_LIMIT: f64 = 1.10;

/// Exponentiation candidates: the algorithms whose multiplication is at most this many
/// times the fastest one's at the point. An exponentiation is a chain of about `1.2·n`
/// multiplications and squarings, so one that multiplies three times slower cannot win.
pub const POWM_SCREEN: f64 = 3.0;

/// Above this size (bits) the bit-serial radix-2 reducers and `hong` are left out: they
/// are already more than ten times slower at 8192 bits (the table shows it), and their
/// cost grows with the square of the size while the others' grows more slowly.
pub const SLOW_ALGORITHMS_MAX_BITS: u64 = 8192;

/// The longest exponent the methods are compared at: beyond it the sliding window's
/// operation count decides as well (the methods differ by under 3% at 2048–4096 bits).
pub const METHOD_MAX_BITS: u64 = 4096;

/// How thorough a run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// About a minute: fewer sizes, shorter timing.
    Quick,
    /// A few minutes.
    Normal,
}

impl Depth {
    /// Passes over all points: the rounds of each comparison are split between them.
    pub fn passes(self) -> usize {
        match self {
            Depth::Quick => 2,
            Depth::Normal => 3,
        }
    }
}

/// One modulus to measure at.
pub struct Point {
    /// The form (as [`Form::of`] finds it; checked).
    pub form: Form,
    /// A label: the size, or the prime's name.
    pub label: String,
    /// The modulus.
    pub m: Nat,
    /// Whether exponentiation is measured here.
    pub powm: bool,
}

impl Point {
    fn new(m: Nat, label: String, powm: bool) -> Point {
        Point { form: Form::of(&m), label, m, powm }
    }
}

/// The measurement of one operation at one point.
pub struct Row {
    /// The operation (`reduce`, `mulmod`, `powm`; `method` rows have their own type).
    pub op: Operation,
    /// The form of the modulus.
    pub form: Form,
    /// The modulus's size in bits.
    pub bits: u64,
    /// The point's label.
    pub label: String,
    /// Every candidate with its time (ns, minimum over rounds) and ratio to the winner.
    pub results: Vec<(Algorithm, f64, f64)>,
    /// The winner (after [`TIE_MARGIN`]).
    pub winner: Algorithm,
    /// The fastest measured (before the margin).
    pub fastest: Algorithm,
    /// What the auto rule under test picks, and why.
    pub auto: Choice,
    /// Auto's time over the fastest's (1.0 when auto picks the fastest).
    pub auto_ratio: f64,
}

/// The method measurement for one exponent length.
pub struct MethodRow {
    /// Exponent (and modulus) length in bits.
    pub bits: u64,
    /// The reducer used.
    pub algorithm: Algorithm,
    /// Every method with its time and ratio to the winner.
    pub results: Vec<(Method, f64, f64)>,
    /// The winner (after [`TIE_MARGIN`]).
    pub winner: Method,
    /// The fastest measured.
    pub fastest: Method,
    /// Auto's method.
    pub auto: Method,
    /// Auto's time over the fastest's.
    pub auto_ratio: f64,
}

/// Everything one run measured.
pub struct Results {
    /// Reducer rows.
    pub rows: Vec<Row>,
    /// Method rows.
    pub methods: Vec<MethodRow>,
    /// Seconds the run took.
    pub seconds: f64,
}

/// The timing plans of one pass (short operations, exponentiations): the rounds of a
/// comparison summed over the [`Depth::passes`].
fn plans(depth: Depth) -> (Plan, Plan) {
    let ms = Duration::from_millis;
    let us = Duration::from_micros;
    match depth {
        Depth::Quick => (
            Plan { batch: us(400), rounds: 5, min_rounds: 4, budget: ms(150) },
            Plan { batch: ms(1), rounds: 4, min_rounds: 3, budget: ms(750) },
        ),
        Depth::Normal => (
            Plan { batch: ms(1), rounds: 7, min_rounds: 4, budget: ms(270) },
            Plan { batch: ms(2), rounds: 4, min_rounds: 3, budget: ms(1000) },
        ),
    }
}

/// The points of a run: generic odd and even moduli from 64 bits up (mulmod and reduce
/// also at the transform sizes), pseudo-Mersenne numbers, the NIST primes, generalized
/// Mersenne (Solinas) numbers.
pub fn points(depth: Depth) -> Vec<Point> {
    let quick = depth == Depth::Quick;
    let mut rng = SplitMix64::new(0x7475_6e65);
    let mut v = Vec::new();
    let generic: &[u64] = if quick {
        &[64, 256, 1024, 2048, 4096]
    } else {
        &[64, 128, 256, 512, 1024, 2048, 4096, 8192]
    };
    let huge: &[u64] = if quick { &[32768, 65536] } else { &[16384, 32768, 65536, 131072] };
    let powm_max = if quick { 4096 } else { 8192 };
    for &bits in generic.iter().chain(huge) {
        let odd: Nat = nat(rng.odd_modulus(bits));
        let even = odd.add(&Nat::one());
        let even = if even.bits() == bits {
            even
        } else {
            odd.checked_sub(&Nat::one()).unwrap_or_default()
        };
        let powm = bits <= powm_max;
        v.push(Point::new(odd, bits.to_string(), powm));
        if !quick || bits != 2048 {
            v.push(Point::new(even, bits.to_string(), powm));
        }
    }
    let pm: &[(u64, u64)] = if quick {
        &[(192, 189), (255, 19), (384, 189)]
    } else {
        &[
            (128, 189),
            (192, 189),
            (224, 189),
            (255, 19),
            (256, 189),
            (384, 189),
            (512, 189),
            (1024, 189),
        ]
    };
    for &(n, c) in pm {
        let m = Nat::power_of_two(n).checked_sub(&Nat::from(c)).unwrap_or_default();
        v.push(Point::new(m, format!("2^{n}-{c}"), true));
    }
    let nist: &[NistPrime] = if quick {
        &[NistPrime::P192, NistPrime::P256, NistPrime::P384, NistPrime::P521]
    } else {
        &NistPrime::ALL
    };
    for p in nist {
        v.push(Point::new(p.modulus(), p.name().to_string(), true));
    }
    // t^4 − t − 1, t^6 − t^3 − 1, t^8 − t^2 − 1 at t = 2^64: generalized Mersenne numbers
    // that are neither NIST primes nor one-digit pseudo-Mersenne.
    let gm: &[(u64, u64)] = if quick { &[(256, 64)] } else { &[(256, 64), (384, 192), (512, 128)] };
    for &(n, mid) in gm {
        let m = Nat::power_of_two(n)
            .checked_sub(&Nat::power_of_two(mid))
            .and_then(|x| x.checked_sub(&Nat::one()))
            .unwrap_or_default();
        v.push(Point::new(m, format!("2^{n}-2^{mid}-1"), true));
    }
    v
}

/// A context of every algorithm that applies to `m` (what `Modulus::with` runs), except
/// those for study only (the registry's) above [`SLOW_ALGORITHMS_MAX_BITS`].
fn contexts(m: &Nat) -> Vec<Modulus> {
    modred::registry::ALGORITHMS
        .iter()
        .filter(|i| m.bits() <= SLOW_ALGORITHMS_MAX_BITS || !i.study_only)
        .filter_map(|i| Modulus::with(i.algorithm, m).ok())
        .collect()
}

/// The index of the fastest timing, and of the winner after the tie margin in favour of
/// `preferred` (an index into the same list).
fn pick(times: &[Timing], preferred: Option<usize>) -> (usize, usize) {
    // By the paired ratios, as every ratio shown is measured: the candidate whose largest
    // ratio to any other is smallest. (Medians of paired ratios are not transitive on a
    // noisy machine, so a ratio to the fastest below 1 can remain: a tie.)
    let worst = |i: usize| times.iter().map(|t| times[i].ratio_to(t)).fold(0.0, f64::max);
    let fastest = (0..times.len()).min_by(|&a, &b| worst(a).total_cmp(&worst(b))).unwrap_or(0);
    let winner = match preferred {
        Some(p) if times[p].ratio_to(&times[fastest]) <= 1.0 + TIE_MARGIN => p,
        _ => fastest,
    };
    (fastest, winner)
}

/// The timings of one comparison (one operation at one point) from every pass, and its
/// candidates (the same in every pass).
struct Passes<T> {
    cands: Vec<T>,
    parts: Vec<Vec<Timing>>,
}

impl<T: PartialEq> Passes<T> {
    fn new() -> Self {
        Passes { cands: Vec::new(), parts: Vec::new() }
    }

    /// Adds one pass's timings of `cands`.
    fn add(&mut self, (cands, times): (Vec<T>, Vec<Timing>)) -> Result<(), String> {
        if self.parts.is_empty() {
            self.cands = cands;
        } else if cands != self.cands {
            return Err("internal: the candidates of a point changed between passes".into());
        }
        self.parts.push(times);
        Ok(())
    }

    /// The timings of all passes as one comparison.
    fn merged(&self) -> Vec<Timing> {
        timing::merge(&self.parts)
    }
}

/// The comparisons at one point.
struct PointPasses {
    reduce: Passes<Algorithm>,
    mulmod: Passes<Algorithm>,
    /// The exponentiation candidates, screened by the first pass's multiplications.
    powm_candidates: Option<Vec<Algorithm>>,
    powm: Passes<Algorithm>,
    /// The reducer the methods are compared with (auto's for powm), and the comparison.
    method: Option<(Algorithm, Passes<Method>)>,
}

/// Runs the measurement: [`Depth::passes`] passes over the points, each timing every
/// comparison for a share of its rounds. The auto rule under test is the library's as
/// it stands: the active profile ([`modred::modulus::profile::active`]) where it decides,
/// else the built-in rule. Progress goes to `progress`.
pub fn run(
    depth: Depth,
    forms: Option<&[Form]>,
    progress: &mut dyn FnMut(&str),
) -> Result<Results, String> {
    let start = Instant::now();
    let active = modred::modulus::profile::active();
    let rule = active.as_deref();
    let (short, long) = plans(depth);
    let pts: Vec<Point> =
        points(depth).into_iter().filter(|p| forms.map_or(true, |f| f.contains(&p.form))).collect();
    let mut all: Vec<PointPasses> = pts
        .iter()
        .map(|_| PointPasses {
            reduce: Passes::new(),
            mulmod: Passes::new(),
            powm_candidates: None,
            powm: Passes::new(),
            method: None,
        })
        .collect();
    let passes = depth.passes();
    for pass in 0..passes {
        for (i, (p, pp)) in pts.iter().zip(&mut all).enumerate() {
            progress(&format!(
                "[{:5.1} s] pass {}/{passes}, {}/{}: {} modulus {} ({} bits)",
                start.elapsed().as_secs_f64(),
                pass + 1,
                i + 1,
                pts.len(),
                p.form,
                p.label,
                p.m.bits()
            ));
            let rs = contexts(&p.m);
            // The same operands in every pass.
            let mut rng = SplitMix64::new(0x6d6f_6472 ^ p.m.bits());
            pp.reduce.add(measure_reduce(p, &rs, &mut rng, &short)?)?;
            let (algos, times) = measure_mulmod(p, &rs, &mut rng, &short)?;
            if pp.powm_candidates.is_none() {
                let best = times.iter().map(|t| t.ns).fold(f64::INFINITY, f64::min);
                let screened = algos
                    .iter()
                    .zip(&times)
                    .filter(|(_, t)| t.ns <= POWM_SCREEN * best)
                    .map(|(&a, _)| a)
                    .collect();
                pp.powm_candidates = Some(screened);
            }
            pp.mulmod.add((algos, times))?;
            if p.powm {
                let screened = pp.powm_candidates.as_deref().unwrap_or_default();
                pp.powm.add(measure_powm(p, screened, &mut rng, &long, rule)?)?;
                if p.form == Form::Odd && p.m.bits() <= METHOD_MAX_BITS {
                    let algo = explain_with(&p.m, Operation::PowMod, rule).algorithm;
                    let (_, method) = pp.method.get_or_insert_with(|| (algo, Passes::new()));
                    method.add(measure_methods(p, algo, &mut rng, &long, rule)?)?;
                }
            }
        }
    }
    let mut rows = Vec::new();
    let mut methods = Vec::new();
    for (p, pp) in pts.iter().zip(&all) {
        rows.push(row(p, Operation::Reduce, &pp.reduce.cands, &pp.reduce.merged(), rule)?);
        rows.push(row(p, Operation::MulMod, &pp.mulmod.cands, &pp.mulmod.merged(), rule)?);
        if p.powm {
            rows.push(row(p, Operation::PowMod, &pp.powm.cands, &pp.powm.merged(), rule)?);
        }
        if let Some((algo, m)) = &pp.method {
            methods.push(method_row(p.m.bits(), *algo, &m.cands, &m.merged(), rule));
        }
    }
    Ok(Results { rows, methods, seconds: start.elapsed().as_secs_f64() })
}

/// Fills a row from the timings of `algos` (in the same order).
fn row(
    p: &Point,
    op: Operation,
    algos: &[Algorithm],
    times: &[Timing],
    rule: Option<&Profile>,
) -> Result<Row, String> {
    let auto = explain_with(&p.m, op, rule);
    // The algorithm the library's automatic context really uses for this operation.
    let used = Modulus::for_operation(&p.m, op).map_err(|e| e.to_string())?.algorithm();
    if used != auto.algorithm {
        return Err(format!(
            "internal: Modulus uses {used} where the rule says {}",
            auto.algorithm
        ));
    }
    let preferred = algos.iter().position(|&a| a == auto.algorithm);
    let (fastest, winner) = pick(times, preferred);
    let results =
        algos.iter().zip(times).map(|(&a, t)| (a, t.ns, t.ratio_to(&times[fastest]))).collect();
    let auto_ratio = match preferred {
        Some(i) => times[i].ratio_to(&times[fastest]),
        None => {
            return Err(format!(
                "auto's choice {} for {op} at {} was not measured",
                auto.algorithm, p.label
            ))
        }
    };
    Ok(Row {
        op,
        form: p.form,
        bits: p.m.bits(),
        label: p.label.clone(),
        results,
        winner: algos[winner],
        fastest: algos[fastest],
        auto,
        auto_ratio,
    })
}

/// Residues `(a_i, b_i)` of every reducer, for the same values.
fn values(m: &Nat, rng: &mut SplitMix64, n: usize) -> Vec<(Nat, Nat)> {
    (0..n).map(|_| (nat(rng.below(&digits(m))), nat(rng.below(&digits(m))))).collect()
}

fn measure_reduce(
    p: &Point,
    ctxs: &[Modulus],
    rng: &mut SplitMix64,
    plan: &Plan,
) -> Result<(Vec<Algorithm>, Vec<Timing>), String> {
    let vals = values(&p.m, rng, 16);
    let xs: Vec<Nat> = vals.iter().map(|(a, b)| a.mul(b)).collect();
    let want: Vec<Nat> = xs.iter().map(|x| x.checked_rem(&p.m).unwrap_or_default()).collect();
    let mut used = Vec::new();
    for md in ctxs {
        // A forced algorithm refuses arguments beyond its bound: not a candidate here.
        let Ok(got) = xs.iter().map(|x| md.reduce(x)).collect::<Result<Vec<Nat>, _>>() else {
            continue;
        };
        if got != want {
            return Err(format!("{} gave a wrong reduction modulo {}", md.algorithm(), p.label));
        }
        used.push(md);
    }
    let mut cands: Vec<Candidate<'_>> = Vec::new();
    for md in &used {
        let mut i = 0usize;
        let xs = &xs;
        cands.push(Candidate::new(move || {
            let x = &xs[i % xs.len()];
            i = i.wrapping_add(1);
            black_box(md.reduce(black_box(x)).ok());
        }));
    }
    let times = timing::compare(plan, &mut cands);
    drop(cands);
    Ok((used.iter().map(|md| md.algorithm()).collect(), times))
}

fn measure_mulmod(
    p: &Point,
    ctxs: &[Modulus],
    rng: &mut SplitMix64,
    plan: &Plan,
) -> Result<(Vec<Algorithm>, Vec<Timing>), String> {
    let vals = values(&p.m, rng, 16);
    let mut prepared = Vec::new();
    for md in ctxs {
        let pairs: Vec<_> = vals.iter().map(|(a, b)| (md.residue(a), md.residue(b))).collect();
        let mut out = md.zero();
        for ((a, b), (x, y)) in vals.iter().zip(&pairs) {
            let got = md.mul_into(&mut out, x, y).and_then(|()| md.to_nat(&out));
            let want = a.mul(b).checked_rem(&p.m).unwrap_or_default();
            if got != Ok(want) {
                return Err(format!("{} gave a wrong product modulo {}", md.algorithm(), p.label));
            }
        }
        prepared.push(pairs);
    }
    let mut cands: Vec<Candidate<'_>> = Vec::new();
    for (pairs, md) in prepared.iter().zip(ctxs) {
        let mut out = md.zero();
        let mut i = 0usize;
        cands.push(Candidate::new(move || {
            let (a, b) = &pairs[i % pairs.len()];
            i = i.wrapping_add(1);
            black_box(md.mul_into(&mut out, black_box(a), black_box(b)).is_ok());
            black_box(&out);
        }));
    }
    let times = timing::compare(plan, &mut cands);
    drop(cands);
    Ok((ctxs.iter().map(|md| md.algorithm()).collect(), times))
}

fn measure_powm(
    p: &Point,
    screened: &[Algorithm],
    rng: &mut SplitMix64,
    plan: &Plan,
    rule: Option<&Profile>,
) -> Result<(Vec<Algorithm>, Vec<Timing>), String> {
    let auto = explain_with(&p.m, Operation::PowMod, rule).algorithm;
    let mut algos: Vec<Algorithm> = screened.to_vec();
    if !algos.contains(&auto) {
        algos.push(auto);
    }
    let base: Nat = nat(rng.below(&digits(&p.m)));
    let e: Nat = nat(rng.exact_bits(p.m.bits()));
    let (method, _) = modred::modulus::choose_method_with(e.bits(), rule);
    let want = Modulus::with(Algorithm::Classical, &p.m)
        .map_err(|e| e.to_string())?
        .pow_mod_vartime(&base, &e)
        .map_err(|e| e.to_string())?;
    let mut ctxs = Vec::new();
    for &a in &algos {
        let md = Modulus::with(a, &p.m).map_err(|e| e.to_string())?;
        let b = md.residue(&base);
        let r = md.pow_with_vartime(&b, &e, method).map_err(|e| e.to_string())?;
        if md.to_nat(&r).as_ref() != Ok(&want) {
            return Err(format!("{a} gave a wrong power modulo {}", p.label));
        }
        ctxs.push((md, b));
    }
    let mut cands: Vec<Candidate<'_>> = ctxs
        .iter()
        .map(|(md, b)| {
            let e = &e;
            Candidate::new(move || {
                black_box(md.pow_with_vartime(black_box(b), e, method).ok());
            })
        })
        .collect();
    let times = timing::compare(plan, &mut cands);
    drop(cands);
    Ok((algos, times))
}

/// The methods compared for `bits`-bit exponents: binary, and fixed and sliding windows of
/// the default width and one either side.
fn method_candidates(bits: u64) -> Vec<Method> {
    let w = exp::default_window(bits);
    let mut v = vec![Method::Binary];
    for d in [w.saturating_sub(1), w, w + 1] {
        if (2..=exp::MAX_WINDOW).contains(&d) {
            v.push(Method::FixedWindow(d));
            v.push(Method::SlidingWindow(d));
        }
    }
    v
}

fn measure_methods(
    p: &Point,
    algorithm: Algorithm,
    rng: &mut SplitMix64,
    plan: &Plan,
    rule: Option<&Profile>,
) -> Result<(Vec<Method>, Vec<Timing>), String> {
    let bits = p.m.bits();
    let md = Modulus::with(algorithm, &p.m).map_err(|e| e.to_string())?;
    let base = md.residue(&nat(rng.below(&digits(&p.m))));
    let e: Nat = nat(rng.exact_bits(bits));
    let (auto, _) = modred::modulus::choose_method_with(bits, rule);
    let mut ms = method_candidates(bits);
    if !ms.contains(&auto) {
        ms.push(auto);
    }
    let want = md.pow_with_vartime(&base, &e, Method::Binary).map_err(|e| e.to_string())?;
    for &m in &ms {
        if md.pow_with_vartime(&base, &e, m).map_err(|e| e.to_string())? != want {
            return Err(format!("{} gave a wrong power modulo {}", method_name(m), p.label));
        }
    }
    let mut cands: Vec<Candidate<'_>> = ms
        .iter()
        .map(|&m| {
            let (md, base, e) = (&md, &base, &e);
            Candidate::new(move || {
                black_box(md.pow_with_vartime(black_box(base), e, m).ok());
            })
        })
        .collect();
    let times = timing::compare(plan, &mut cands);
    drop(cands);
    Ok((ms, times))
}

/// The method row of `bits`-bit exponents with `algorithm` from the timings of the
/// methods `ms` (in the same order).
fn method_row(
    bits: u64,
    algorithm: Algorithm,
    ms: &[Method],
    times: &[Timing],
    rule: Option<&Profile>,
) -> MethodRow {
    let (auto, _) = modred::modulus::choose_method_with(bits, rule);
    let preferred = ms.iter().position(|&m| m == auto);
    let (fastest, winner) = pick(times, preferred);
    let ai = preferred.unwrap_or(fastest);
    MethodRow {
        bits,
        algorithm,
        results: ms
            .iter()
            .zip(times)
            .map(|(&m, t)| (m, t.ns, t.ratio_to(&times[fastest])))
            .collect(),
        winner: ms[winner],
        fastest: ms[fastest],
        auto,
        auto_ratio: times[ai].ratio_to(&times[fastest]),
    }
}

/// The profile of the winners.
pub fn profile(results: &Results, notes: Vec<String>) -> Profile {
    let mut p = Profile::new();
    p.notes = notes;
    for r in &results.rows {
        if r.form.admits(r.winner) {
            p.set_algorithm(r.op, r.form, r.bits, r.winner);
        }
    }
    for m in &results.methods {
        p.set_method(m.bits, m.winner);
    }
    p
}

fn ns(v: f64) -> String {
    if v >= 1e6 {
        format!("{:.2} ms", v / 1e6)
    } else if v >= 1e3 {
        format!("{:.2} µs", v / 1e3)
    } else {
        format!("{v:.0} ns")
    }
}

/// The table of results: one line per point and operation.
pub fn table(results: &Results) -> String {
    let mut lines = vec![[
        "op".to_string(),
        "form".to_string(),
        "modulus".to_string(),
        "bits".to_string(),
        "fastest".to_string(),
        "time".to_string(),
        "auto".to_string(),
        "auto/fastest".to_string(),
        "runner-up (ratio)".to_string(),
    ]];
    for r in &results.rows {
        let best = r.results.iter().find(|x| x.0 == r.fastest).map_or(0.0, |x| x.1);
        let mut others: Vec<&(Algorithm, f64, f64)> =
            r.results.iter().filter(|x| x.0 != r.fastest).collect();
        others.sort_by(|a, b| a.2.total_cmp(&b.2));
        let runner = others.first().map_or("-".to_string(), |x| format!("{} ({:.2})", x.0, x.2));
        lines.push([
            r.op.name().to_string(),
            r.form.name().to_string(),
            r.label.clone(),
            r.bits.to_string(),
            r.fastest.name().to_string(),
            ns(best),
            r.auto.algorithm.name().to_string(),
            format!("{:.3}{}", r.auto_ratio, if r.auto_ratio > AUTO_LIMIT { " !" } else { "" }),
            runner,
        ]);
    }
    for m in &results.methods {
        let best = m.results.iter().find(|x| x.0 == m.fastest).map_or(0.0, |x| x.1);
        let mut others: Vec<&(Method, f64, f64)> =
            m.results.iter().filter(|x| x.0 != m.fastest).collect();
        others.sort_by(|a, b| a.2.total_cmp(&b.2));
        let runner = others
            .first()
            .map_or("-".to_string(), |x| format!("{} ({:.2})", method_name(x.0), x.2));
        lines.push([
            "method".to_string(),
            "odd".to_string(),
            format!("{} exp", m.algorithm),
            m.bits.to_string(),
            method_name(m.fastest),
            ns(best),
            method_name(m.auto),
            format!("{:.3}{}", m.auto_ratio, if m.auto_ratio > AUTO_LIMIT { " !" } else { "" }),
            runner,
        ]);
    }
    let mut width = [0usize; 9];
    for l in &lines {
        for (w, c) in width.iter_mut().zip(l) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut s = String::new();
    for l in &lines {
        let cells: Vec<String> = l
            .iter()
            .zip(width)
            .map(|(c, w)| format!("{c}{}", " ".repeat(w - c.chars().count())))
            .collect();
        s.push_str(cells.join("  ").trim_end());
        s.push('\n');
    }
    s
}

/// The table as CSV, every candidate of every point on its own line.
pub fn csv(results: &Results) -> String {
    let mut s =
        String::from("op,form,modulus,bits,candidate,ns,ratio_to_fastest,fastest,winner,auto\n");
    for r in &results.rows {
        for (a, t, q) in &r.results {
            s.push_str(&format!(
                "{},{},{},{},{},{:.1},{:.4},{},{},{}\n",
                r.op, r.form, r.label, r.bits, a, t, q, r.fastest, r.winner, r.auto.algorithm
            ));
        }
    }
    for m in &results.methods {
        for (me, t, q) in &m.results {
            s.push_str(&format!(
                "method,odd,{} exp,{},{},{:.1},{:.4},{},{},{}\n",
                m.algorithm,
                m.bits,
                method_name(*me),
                t,
                q,
                method_name(m.fastest),
                method_name(m.winner),
                method_name(m.auto)
            ));
        }
    }
    s
}

/// One line on how auto did: points within [`AUTO_LIMIT`], the worst one.
pub fn summary(results: &Results) -> String {
    let mut all: Vec<(String, f64)> = results
        .rows
        .iter()
        .map(|r| (format!("{} {} {}", r.op, r.form, r.label), r.auto_ratio))
        .chain(results.methods.iter().map(|m| (format!("method {} bits", m.bits), m.auto_ratio)))
        .collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1));
    let within = all.iter().filter(|x| x.1 <= AUTO_LIMIT).count();
    let worst = all.first().map_or("-".to_string(), |(w, r)| format!("{w} at {r:.3}"));
    format!(
        "auto within {:.0}% of the fastest at {within} of {} points (worst: {worst}); {:.0} s",
        (AUTO_LIMIT - 1.0) * 100.0,
        all.len(),
        results.seconds
    )
}
