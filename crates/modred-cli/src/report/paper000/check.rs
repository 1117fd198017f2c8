//! The three reducers of paper 000 on one modulus, checked against each other before
//! they are timed, and the candidates that time them.

use modred::reduce::{Barrett, Classical, Montgomery};
use modred::{Algorithm, Limb, Nat, Reducer, Scratch};
use modred_testkit::timing::Candidate;
use std::hint::black_box;

/// The names of the three reducers, in the order used everywhere in this section.
pub const REDUCERS: [&str; 3] = ["classical", "barrett", "montgomery"];

/// Classical, Barrett and Montgomery reduction, precalculated for one odd modulus.
pub struct Trio<L: Limb> {
    pub m: Nat<L>,
    pub classical: Classical<L>,
    pub barrett: Barrett<L>,
    pub montgomery: Montgomery<L>,
}

impl<L: Limb> Trio<L> {
    /// Precalculation for the odd modulus `m`.
    pub fn new(m: &Nat<L>) -> Result<Self, String> {
        let err =
            |e: modred::Error| format!("cannot set up reduction modulo a {}-bit m: {e}", m.bits());
        Ok(Trio {
            m: m.clone(),
            classical: Classical::new(m).map_err(err)?,
            barrett: Barrett::new(m).map_err(err)?,
            montgomery: Montgomery::new(m).map_err(err)?,
        })
    }

    /// The three as trait objects, in [`REDUCERS`] order (for checks, never for timing).
    pub fn all(&self) -> [&dyn Reducer<L>; 3] {
        [&self.classical, &self.barrett, &self.montgomery]
    }

    /// Checks that every reducer accepts every argument and that all of them compute the
    /// same `x mod m` (after undoing Montgomery's factor R⁻¹), equal to `Nat` division's.
    /// `what` names the table row for the error message.
    pub fn check(&self, args: &[Vec<L>], what: &str) -> Result<(), String> {
        for x in args {
            let xn = Nat::from_limbs(x);
            let expected = xn.checked_rem(&self.m).ok_or("zero modulus")?;
            for r in self.all() {
                let name = r.algorithm().name();
                if !r.input_bound().admits(&xn) {
                    return Err(format!(
                        "{what}: an argument of {} bits is beyond {name}'s bound {}",
                        xn.bits(),
                        r.bound_formula()
                    ));
                }
                let mut out = vec![L::ZERO; r.width()];
                r.reduce_raw(&mut out, x, &mut Scratch::new());
                let got = standard_value(r, &out)?;
                if got != expected {
                    return Err(format!(
                        "{what}: {name} reduced x = {} to {} but x mod m = {} (m = {})",
                        xn.to_hex(),
                        got.to_hex(),
                        expected.to_hex(),
                        self.m.to_hex()
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The value `out·ρ mod m` of a `reduce_raw` output, which must equal `x mod m`: ρ = 1 for
/// the standard representation, R = b^k for Montgomery's. Checks `out < m` too. Computed
/// with `Nat` arithmetic only, independently of the reducer.
pub fn standard_value<L: Limb>(r: &dyn Reducer<L>, out: &[L]) -> Result<Nat<L>, String> {
    let m = r.modulus();
    let v = Nat::from_limbs(out);
    let name = r.algorithm().name();
    if &v >= m {
        return Err(format!(
            "{name} returned {} which is not below m = {}",
            v.to_hex(),
            m.to_hex()
        ));
    }
    match r.algorithm() {
        Algorithm::Classical | Algorithm::Barrett => Ok(v),
        Algorithm::Montgomery | Algorithm::MontgomeryInterleaved => {
            let shifted = v.shl(L::BITS as u64 * r.width() as u64);
            Ok(shifted.checked_rem(m).expect("m > 0"))
        }
        other => Err(format!("the report does not know the representation of {other}")),
    }
}

/// A candidate reducing the arguments `args` (each of any length below the bound) in turn.
pub fn reduction<'a, L: Limb, R: Reducer<L>>(r: &'a R, args: &'a [Vec<L>]) -> Candidate<'a> {
    let mut out = vec![L::ZERO; r.width()];
    let mut scratch = Scratch::new();
    let mut i = 0;
    Candidate::new(move || {
        r.reduce_raw(black_box(&mut out[..]), black_box(&args[i]), &mut scratch);
        i += 1;
        if i == args.len() {
            i = 0;
        }
    })
}

/// A candidate multiplying the pairs `pairs` in turn (the k×k reference product).
pub fn multiplication<'a, L: Limb>(pairs: &'a [(Vec<L>, Vec<L>)]) -> Candidate<'a> {
    let n = pairs.first().map_or(0, |(a, b)| a.len() + b.len());
    let mut out = vec![L::ZERO; n];
    let mut i = 0;
    Candidate::new(move || {
        let (a, b) = &pairs[i];
        modred::nat::mul_into(black_box(&mut out[..]), black_box(a), black_box(b));
        i += 1;
        if i == pairs.len() {
            i = 0;
        }
    })
}

/// Candidates for the three reducers on the same arguments, in [`REDUCERS`] order.
pub fn reductions<'a, L: Limb>(trio: &'a Trio<L>, args: &'a [Vec<L>]) -> Vec<Candidate<'a>> {
    vec![
        reduction(&trio.classical, args),
        reduction(&trio.barrett, args),
        reduction(&trio.montgomery, args),
    ]
}
