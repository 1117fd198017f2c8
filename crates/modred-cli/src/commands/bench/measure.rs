//! What `modred bench` times: the moduli each algorithm needs, the prepared operations
//! (checked before they are timed), and the interleaved comparison of one group — one
//! operation at one size — with the ratios to the baseline.

use super::{Api, Op, Request};
use crate::engine::Number;
use crate::report::rng::{digits, nat, SplitMix64};
use modred::modulus::{choose, Operation};
use modred::reduce::{NistPrime, Scratch, SolinasPoly};
use modred::{Algorithm, Modulus};
use modred_testkit::timing::{compare, Candidate, Plan, Timing};
use std::hint::black_box;
use std::time::Duration;

/// Operand pairs each of our candidates cycles through (the anchors take the first).
pub const INPUTS: usize = 16;

/// The bit length of the random `c` in the pseudo-Mersenne moduli `2^N − c` (one 64-bit
/// digit, the form paper 003's optimised fold takes), or less where `2·bits(c) < N`
/// demands it.
const PSEUDO_MERSENNE_C_BITS: u64 = 32;

/// One line of the result: one candidate in one group.
#[derive(Clone, Debug)]
pub struct Row {
    /// The operation.
    pub op: Op,
    /// The size in bits.
    pub bits: u64,
    /// The candidate's name: an algorithm's command-line name or an anchor's id.
    pub name: String,
    /// What was run, for people: `"auto (montgomery)"`, `"GMP mpz_powm"`.
    pub label: String,
    /// The modulus it ran on, described (`"random odd"`, `"P-256"`, `"2^256 - c"`).
    pub modulus: String,
    /// The measurement, or why there is none.
    pub outcome: Outcome,
}

/// A candidate's measurement, or why it was not timed.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Timed in the group's interleaved run.
    Timed {
        /// Minimum time per operation over the rounds, in nanoseconds.
        ns: f64,
        /// Median time per operation, in nanoseconds.
        median_ns: f64,
        /// Time relative to the baseline (median of the per-round ratios over the quiet
        /// rounds); `None` when the baseline was not timed in this group.
        ratio: Option<f64>,
        /// Rounds timed.
        rounds: usize,
        /// Time relative to every candidate of the group (itself included), by name, the
        /// same way as `ratio`: `ours ÷ anchor` for any pair, from this one run.
        ratio_to: Vec<(String, f64)>,
    },
    /// Not timed: the algorithm has no modulus of this size or does not apply to it.
    NotApplicable(String),
}

/// A candidate ready to be timed.
pub struct Prepared {
    pub name: String,
    pub label: String,
    pub modulus: String,
    pub candidate: Candidate<'static>,
    /// Operations one call of the candidate does (2 for OpenSSL's `_x2` exponentiation):
    /// its times are divided by it.
    pub per_run: u32,
}

/// `t` for one of the `n` operations a call does.
fn per_operation(mut t: Timing, n: u32) -> Timing {
    let n = f64::from(n);
    t.samples.iter_mut().for_each(|s| *s /= n);
    t.ns /= n;
    t.median_ns /= n;
    t
}

/// Whether the candidate named `name` is an anchor (GMP, OpenSSL, …), not modred.
fn is_anchor(name: &str) -> bool {
    super::ANCHORS.iter().any(|(id, _)| *id == name)
}

/// The operands of one group, shared by the candidates of one modulus.
pub struct Operands {
    /// The modulus.
    pub m: Number,
    /// Pairs of values below `m`.
    pub pairs: Vec<(Number, Number)>,
    /// The exponent for `powm`: exactly `bits(m)` bits.
    pub e: Number,
}

impl Operands {
    /// Seeded operands below `m`.
    pub fn new(m: Number, seed: u64) -> Operands {
        let mut rng = SplitMix64::new(seed ^ m.bits().wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let pairs = (0..INPUTS)
            .map(|_| (nat(rng.below(&digits(&m))), nat(rng.below(&digits(&m)))))
            .collect();
        let e = nat(rng.exact_bits(m.bits().max(1)));
        Operands { m, pairs, e }
    }

    /// The first pair's product: the argument of the reductions timed with anchors.
    pub fn product(&self) -> Number {
        self.pairs[0].0.mul(&self.pairs[0].1)
    }

    /// What the first pair gives under `op`: the value every candidate must produce
    /// (for `powm`, the first pair's first value to the power `e`).
    pub fn expected(&self, op: Op) -> Result<Number, String> {
        let (a, b) = &self.pairs[0];
        let m = &self.m;
        let rem = |x: Number| x.checked_rem(m).ok_or_else(|| "zero modulus".to_string());
        match op {
            Op::Reduce | Op::MulMod => rem(a.mul(b)),
            Op::SqrMod => rem(a.sqr()),
            Op::PowM => {
                let classical =
                    Modulus::with(Algorithm::Classical, m).map_err(|e| e.to_string())?;
                classical.pow_mod_vartime(a, &self.e).map_err(|e| e.to_string())
            }
        }
    }
}

/// The random odd modulus of `bits` bits the generic algorithms (and the anchors) share.
pub fn generic_modulus(bits: u64, seed: u64) -> Number {
    nat(SplitMix64::new(seed ^ 0x6265_6e63_6800_0000 ^ bits).odd_modulus(bits.max(2)))
}

/// The modulus `algorithm` is timed on at `bits` bits, described; `Err` with the reason
/// when it has none of that size. `given` replaces the generated moduli.
pub fn modulus_for(
    algorithm: Algorithm,
    bits: u64,
    seed: u64,
    given: Option<&Number>,
) -> Result<(Number, String), String> {
    if let Some(m) = given {
        return Ok((m.clone(), "given".to_string()));
    }
    match algorithm {
        Algorithm::PseudoMersenne => {
            if bits < 3 {
                return Err("no pseudo-Mersenne modulus 2^N - c has fewer than 3 bits".into());
            }
            let c_bits = PSEUDO_MERSENNE_C_BITS.min((bits - 1) / 2);
            let mut rng = SplitMix64::new(seed ^ 0x7073_6575_646f ^ bits);
            let c: Number = nat(rng.exact_bits(c_bits));
            let c = if c.is_odd() { c } else { c.add(&Number::one()) };
            let m = &Number::power_of_two(bits) - &c;
            Ok((m, format!("2^{bits} - 0x{}", c.to_hex())))
        }
        Algorithm::Nist => NistPrime::ALL
            .iter()
            .find(|p| p.bits() as u64 == bits)
            .map(|p| (p.modulus(), p.name().to_string()))
            .ok_or_else(|| format!("no NIST prime has {bits} bits")),
        Algorithm::Solinas => {
            if let Some(p) = NistPrime::ALL.iter().find(|p| p.bits() as u64 == bits) {
                if SolinasPoly::find(&p.modulus::<u64>()).is_some() {
                    return Ok((p.modulus(), p.name().to_string()));
                }
            }
            // f(t) = t^n − t^(n/2) − 1 at t = 2^64 (or 2^32): 2^N − 2^(N/2 rounded to a
            // word) − 1, the shape of the generalized Mersenne primes.
            let word = [64u64, 32].into_iter().find(|w| bits % w == 0 && bits / w >= 2);
            let Some(w) = word else {
                return Err(format!(
                    "no generalized Mersenne modulus f(2^32) or f(2^64) of degree 2 or more \
                     has {bits} bits (use a multiple of 32)"
                ));
            };
            let n = bits / w;
            let j = n / 2;
            let mut coeffs = vec![0i8; n as usize];
            coeffs[0] = -1;
            coeffs[j as usize] = -1;
            let poly = SolinasPoly::new(coeffs, w as u32)
                .map_err(|e| format!("no generalized Mersenne modulus of {bits} bits: {e}"))?;
            Ok((poly.modulus(), format!("t^{n} - t^{j} - 1 at t = 2^{w}")))
        }
        _ => Ok((generic_modulus(bits, seed), "random odd".to_string())),
    }
}

/// The concrete algorithm `auto` stands for with `m` and `op`.
pub fn resolve(algorithm: Algorithm, m: &Number, op: Op) -> Algorithm {
    if algorithm != Algorithm::Auto {
        return algorithm;
    }
    choose(m, operation(op))
}

/// The library's operation that `op` times.
pub fn operation(op: Op) -> Operation {
    match op {
        Op::Reduce => Operation::Reduce,
        Op::MulMod | Op::SqrMod => Operation::MulMod,
        Op::PowM => Operation::PowMod,
    }
}

/// `x` padded to `k` digits.
fn padded(x: &Number, k: usize) -> Vec<u64> {
    x.to_padded(k).unwrap_or_else(|| {
        let mut v = x.limbs().to_vec();
        v.resize(k.max(v.len()), 0);
        v
    })
}

/// Our `algorithm` doing `op` on `ops`, checked on every input pair against
/// [`Operands::expected`] (and `Nat` arithmetic for the others) before it is timed.
///
/// `api` (for `reduce`, `mulmod` and `sqrmod`; `powm` always goes through [`Modulus`]):
/// [`Api::Reducer`] times the reducer's slice methods; [`Api::Modulus`] the user-facing
/// [`Modulus::reduce`], [`Modulus::mul_into`] and [`Modulus::sqr_into`] (whatever paths
/// they take, the result into one residue kept between calls); [`Api::ModulusAlloc`]
/// [`Modulus::mul`] and [`Modulus::sqr`] (a new residue per call). For `auto` the
/// context is [`Modulus::for_operation`] with the operation timed, so that it uses the
/// algorithm the row's label names.
pub fn ours(
    algorithm: Algorithm,
    op: Op,
    ops: &Operands,
    api: Api,
) -> Result<Candidate<'static>, String> {
    let m = &ops.m;
    let bad = |what: &str| format!("{} gave a wrong {what} (a bug; please report it)", algorithm);
    if api != Api::Reducer && op != Op::PowM {
        let ctx = if algorithm == Algorithm::Auto {
            Modulus::for_operation(m, operation(op))
        } else {
            Modulus::with(algorithm, m)
        }
        .map_err(|e| e.to_string())?;
        let mut args: Vec<(Number, modred::Residue, modred::Residue)> = Vec::with_capacity(INPUTS);
        let mut out = ctx.zero();
        for (a, b) in &ops.pairs {
            let (ra, rb) = (ctx.residue(a), ctx.residue(b));
            let x = a.mul(b);
            let want = match op {
                Op::SqrMod => a.sqr(),
                _ => x.clone(),
            }
            .checked_rem(m)
            .ok_or("zero modulus")?;
            let got = match (op, api) {
                (Op::Reduce, _) => ctx.reduce(&x),
                (Op::MulMod, Api::Modulus) => {
                    ctx.mul_into(&mut out, &ra, &rb).and_then(|()| ctx.to_nat(&out))
                }
                (Op::MulMod, _) => ctx.mul(&ra, &rb).and_then(|r| ctx.to_nat(&r)),
                (_, Api::Modulus) => ctx.sqr_into(&mut out, &ra).and_then(|()| ctx.to_nat(&out)),
                _ => ctx.sqr(&ra).and_then(|r| ctx.to_nat(&r)),
            }
            .map_err(|e| e.to_string())?;
            if got != want {
                return Err(bad("result through Modulus"));
            }
            args.push((x, ra, rb));
        }
        let mut i = 0usize;
        return Ok(Candidate::new(move || {
            let (x, a, b) = &args[i % INPUTS];
            i += 1;
            match (op, api) {
                (Op::Reduce, _) => {
                    black_box(ctx.reduce(black_box(x)).ok());
                }
                (Op::MulMod, Api::Modulus) => {
                    black_box(ctx.mul_into(&mut out, black_box(a), black_box(b)).is_ok());
                    black_box(&out);
                }
                (Op::MulMod, _) => {
                    black_box(ctx.mul(black_box(a), black_box(b)).ok());
                }
                (_, Api::Modulus) => {
                    black_box(ctx.sqr_into(&mut out, black_box(a)).is_ok());
                    black_box(&out);
                }
                _ => {
                    black_box(ctx.sqr(black_box(a)).ok());
                }
            }
        }));
    }
    if op == Op::PowM {
        let modulus = Modulus::with(algorithm, m).map_err(|e| e.to_string())?;
        let base = modulus.residue(&ops.pairs[0].0);
        let e = ops.e.clone();
        let got = modulus
            .pow_vartime(&base, &e)
            .and_then(|r| modulus.to_nat(&r))
            .map_err(|e| e.to_string())?;
        if got != ops.expected(op)? {
            return Err(bad("power"));
        }
        return Ok(Candidate::new(move || {
            black_box(modulus.pow_vartime(black_box(&base), &e).ok());
        }));
    }
    let (r, _) =
        modred::engine::reducer(resolve(algorithm, m, op), m).map_err(|e| e.to_string())?;
    let k = r.width();
    let mut scratch = Scratch::new();
    let mut out = vec![0u64; k];
    let mut args: Vec<(Vec<u64>, Vec<u64>)> = Vec::with_capacity(INPUTS);
    for (a, b) in &ops.pairs {
        let want = match op {
            Op::SqrMod => a.sqr(),
            _ => a.mul(b),
        }
        .checked_rem(m)
        .ok_or("zero modulus")?;
        match op {
            Op::Reduce => {
                let x = padded(&a.mul(b), 2 * k);
                r.reduce_raw(&mut out, &x, &mut scratch);
                // out = x·ρ⁻¹ mod m, so x mod m is out·ρ mod m (see Reducer::reduce).
                if r.to_residue(&Number::from_limbs(&out)) != padded(&want, k) {
                    return Err(bad("reduction"));
                }
                args.push((x, Vec::new()));
            }
            Op::MulMod | Op::SqrMod => {
                let (ra, rb) = (r.to_residue(a), r.to_residue(b));
                if op == Op::MulMod {
                    r.mul(&mut out, &ra, &rb, &mut scratch);
                } else {
                    r.sqr(&mut out, &ra, &mut scratch);
                }
                if r.from_residue(&out) != want {
                    return Err(bad(if op == Op::MulMod { "product" } else { "square" }));
                }
                args.push((ra, rb));
            }
            Op::PowM => unreachable!("handled above"),
        }
    }
    let mut i = 0usize;
    Ok(Candidate::new(move || {
        let (a, b) = &args[i % INPUTS];
        i += 1;
        match op {
            Op::Reduce => r.reduce_raw(&mut out, black_box(a), &mut scratch),
            Op::MulMod => r.mul(&mut out, black_box(a), black_box(b), &mut scratch),
            _ => r.sqr(&mut out, black_box(a), &mut scratch),
        }
        black_box(&out);
    }))
}

/// How long and how often to time one group.
pub fn plan(op: Op, quick: bool) -> Plan {
    let ms = Duration::from_millis;
    let us = Duration::from_micros;
    match (op == Op::PowM, quick) {
        (false, false) => Plan { batch: ms(1), rounds: 31, min_rounds: 11, budget: ms(2000) },
        (true, false) => Plan { batch: ms(2), rounds: 21, min_rounds: 7, budget: ms(10_000) },
        (false, true) => Plan { batch: us(200), rounds: 9, min_rounds: 5, budget: ms(300) },
        (true, true) => Plan { batch: us(500), rounds: 7, min_rounds: 3, budget: ms(1500) },
    }
}

/// Times the prepared candidates of one group interleaved and returns their rows, the
/// ratios taken to the candidate named `baseline` when it is among them.
pub fn time_group(
    req: &Request,
    op: Op,
    bits: u64,
    prepared: Vec<Prepared>,
    baseline: &str,
) -> Vec<Row> {
    let mut names = Vec::with_capacity(prepared.len());
    let mut candidates = Vec::with_capacity(prepared.len());
    let mut per_run = Vec::with_capacity(prepared.len());
    for p in prepared {
        names.push((p.name, p.label, p.modulus));
        candidates.push(p.candidate);
        per_run.push(p.per_run);
    }
    let timings: Vec<Timing> = compare(&plan(op, req.quick), &mut candidates)
        .into_iter()
        .zip(per_run)
        .map(|(t, n)| per_operation(t, n))
        .collect();
    let base = names.iter().position(|(n, _, _)| n == baseline).map(|i| timings[i].clone());
    let all: Vec<(String, Timing)> =
        names.iter().map(|(n, _, _)| n.clone()).zip(timings.iter().cloned()).collect();
    names
        .into_iter()
        .zip(timings)
        .map(|((name, label, modulus), t)| {
            let anchor_row = is_anchor(&name) && !is_anchor(baseline);
            Row {
                op,
                bits,
                name,
                label,
                modulus,
                outcome: Outcome::Timed {
                    ns: t.ns,
                    median_ns: t.median_ns,
                    // Ours ÷ theirs whenever an anchor is involved: an anchor's row against a
                    // modred baseline gives the baseline's time ÷ the anchor's.
                    ratio: base.as_ref().map(|b| {
                        if anchor_row {
                            b.ratio_to(&t)
                        } else {
                            t.ratio_to(b)
                        }
                    }),
                    rounds: t.rounds,
                    ratio_to: all.iter().map(|(n, other)| (n.clone(), t.ratio_to(other))).collect(),
                },
            }
        })
        .collect()
}
