//! Operation counts: how many single-precision multiplications, divisions and additions
//! an algorithm performs, measured by running the library's real code on [`Counted`]
//! digits. This
//! reproduces paper 000, Table 1 (`reduce` of a 2k-digit argument at b = 2^16) and
//! extends it to whole modular multiplications and squarings.
//!
//! Inputs are pseudo-random from a fixed seed, so every count is reproducible: a modulus
//! of exactly `bits` bits (top bit set, odd, so that every algorithm applies) and
//! arguments below `m²` (for `reduce`) or below `m` (the residues of `mulmod` and
//! `sqrmod`). The precalculation and the conversions into and out of a representation
//! are not counted, as in the paper. For `hong` (paper 002), `mulmod` is the window
//! multiplication by an already built window table (the paper's Table 1 leaves the
//! table out too; [`count_hong_table`] counts it) and `sqrmod` the paper's squaring.

use core::fmt;
use core::str::FromStr;
use modred::limb::{count_ops, Counted, Limb, OpCounts};
use modred::nat::mul_schoolbook_into;
use modred::reduce::{make, Hong, NistPrime, Reducer, Scratch, SolinasPoly};
use modred::{Algorithm, Error, Nat};
use modred_testkit::SplitMix64;

/// The largest modulus size [`count`] accepts, in bits.
pub const MAX_BITS: u32 = 1 << 20;

/// The seed of every count's inputs.
const SEED: u64 = 0x6d6f_6472_6564_0000;

/// The operation whose cost is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// [`Reducer::reduce_raw`] of an argument below `m²` (paper 000, Table 1).
    Reduce,
    /// [`Reducer::mul`] of two residues: the product and its reduction.
    MulMod,
    /// [`Reducer::sqr`] of a residue.
    SqrMod,
}

impl Op {
    /// Every operation.
    pub const ALL: [Op; 3] = [Op::Reduce, Op::MulMod, Op::SqrMod];

    /// The name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Op::Reduce => "reduce",
            Op::MulMod => "mulmod",
            Op::SqrMod => "sqrmod",
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Op {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Op::ALL.iter().copied().find(|o| o.name() == s).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "unknown operation '{s}' (known: reduce, mulmod, sqrmod)"
            ))
        })
    }
}

fn check_bits(bits: u32) -> Result<(), Error> {
    if bits == 0 || bits > MAX_BITS {
        return Err(Error::InvalidArgument(format!(
            "the modulus size must be between 1 and {MAX_BITS} bits, not {bits}"
        )));
    }
    Ok(())
}

fn bad_digit_bits(digit_bits: u32) -> Error {
    Error::InvalidArgument(format!("the digit size must be 8, 16, 32 or 64 bits, not {digit_bits}"))
}

/// The single-precision operations `algorithm` performs for `op` with a `bits`-bit
/// modulus and digits of `digit_bits` bits (8, 16, 32 or 64; the papers use 16).
///
/// Errors: `bits` outside `1..=MAX_BITS`, another digit size, [`Algorithm::Auto`], or an
/// algorithm that does not apply to the (odd) modulus.
///
/// The modulus is [`default_modulus`]: a random odd one, or one of the form the special
/// reductions need. [`count_modulus`] counts with a given modulus.
pub fn count(algorithm: Algorithm, op: Op, bits: u32, digit_bits: u32) -> Result<OpCounts, Error> {
    check_bits(bits)?;
    countable(algorithm)?;
    count_modulus(algorithm, op, &default_modulus(algorithm, bits)?, digit_bits)
}

/// Refuses the algorithms whose work the counting digit cannot see: the transform
/// reducers, whose products are number-theoretic transforms on 64-bit words, and `nist`,
/// whose hard-coded reductions run on native 64-bit words (a count would say zero).
fn countable(algorithm: Algorithm) -> Result<(), Error> {
    let why = match algorithm {
        Algorithm::NttBarrett | Algorithm::NttMontgomery => {
            "its products are number-theoretic transforms on 64-bit words, which the \
             counting digit does not see, so a count would leave out nearly all of its work \
             (paper 001's transform cost is on the report's paper 001 page)"
        }
        Algorithm::Nist => {
            "its hard-coded reductions run on native 64-bit words, which the counting digit \
             does not see, so a count would leave the reduction out; count solinas on the \
             same prime (the generic form of the same additions and subtractions, paper 003 \
             §6), or see its weights with 'modred solinas-weights'"
        }
        _ => return Ok(()),
    };
    Err(Error::InvalidArgument(format!("cannot count {}: {why}", algorithm.name())))
}

/// [`count`] modulo `m` (any size up to [`MAX_BITS`]).
///
/// Errors: as [`count`]; the transform reducers (`ntt-barrett`, `ntt-montgomery`), whose
/// products are number-theoretic transforms on 64-bit words, and `nist`, whose reductions
/// run on native 64-bit words, are refused rather than counted without that work.
pub fn count_modulus(
    algorithm: Algorithm,
    op: Op,
    m: &Nat,
    digit_bits: u32,
) -> Result<OpCounts, Error> {
    check_bits(u32::try_from(m.bits()).unwrap_or(u32::MAX))?;
    countable(algorithm)?;
    match digit_bits {
        8 => count_with::<Counted<u8>>(algorithm, op, m),
        16 => count_with::<Counted<u16>>(algorithm, op, m),
        32 => count_with::<Counted<u32>>(algorithm, op, m),
        64 => count_with::<Counted<u64>>(algorithm, op, m),
        _ => Err(bad_digit_bits(digit_bits)),
    }
}

/// The modulus [`count`] uses for `algorithm` at `bits` bits: for `nist` the hard-coded
/// prime of that size (`nist` itself cannot be counted, see [`count_modulus`]); for `solinas` the generalized Mersenne prime of that size among
/// those (P-192 … P-384, paper 003's 448- and 512-bit primes); for `pseudo-mersenne`
/// `2^bits − c` with the least `c` of paper 003's Table 1 for that size, else
/// `c = 2^j − 1` with `j = min(⌊(bits − 1)/2⌋, 10)` (one digit, `2·bits(c) < bits`); for
/// every other algorithm a random odd modulus of exactly `bits` bits from a fixed seed.
///
/// Errors: `nist` or `solinas` at a size with no such prime (the message lists them).
pub fn default_modulus(algorithm: Algorithm, bits: u32) -> Result<Nat, Error> {
    check_bits(bits)?;
    let b = bits as u64;
    match algorithm {
        Algorithm::Nist | Algorithm::Solinas => {
            let fits = |p: &NistPrime| {
                p.bits() as u64 == b
                    && (algorithm == Algorithm::Nist
                        || SolinasPoly::find(&p.modulus::<u64>()).is_some())
            };
            NistPrime::ALL.iter().find(|p| fits(p)).map(|p| p.modulus()).ok_or_else(|| {
                let sizes: Vec<String> = NistPrime::ALL
                    .iter()
                    .filter(|p| {
                        algorithm == Algorithm::Nist
                            || SolinasPoly::find(&p.modulus::<u64>()).is_some()
                    })
                    .map(|p| p.bits().to_string())
                    .collect();
                Error::InvalidArgument(format!(
                    "{} has no default modulus of {bits} bits (it has one of {} bits); give \
                     one with --modulus",
                    algorithm.name(),
                    sizes.join(", ")
                ))
            })
        }
        Algorithm::PseudoMersenne => {
            let c = TABLE1_FIRST_C
                .iter()
                .find(|(n, _)| *n == bits)
                .map_or_else(|| (1u64 << ((bits - 1) / 2).min(10)) - 1, |(_, c)| *c);
            Ok(Nat::power_of_two(b).checked_sub(&Nat::from_u64(c.max(1))).unwrap_or_default())
        }
        _ => {
            let mut rng = SplitMix64::new(SEED);
            Ok(Nat::from_vec(rng.odd_modulus(b)))
        }
    }
}

/// Paper 003, Table 1: per size, the least `c < 1024` with `2^n − c` prime.
const TABLE1_FIRST_C: [(u32, u64); 8] =
    [(160, 47), (192, 237), (224, 63), (256, 189), (320, 197), (384, 317), (448, 203), (512, 569)];

/// The generator's digits (radix 2^64) as a number with `L` digits.
fn nat<L: Limb>(digits: Vec<u64>) -> Nat<L> {
    Nat::<u64>::from_vec(digits).to_radix()
}

/// Uniform below `bound`, by the generator's rejection sampling.
fn below<L: Limb>(rng: &mut SplitMix64, bound: &Nat<L>) -> Nat<L> {
    nat(rng.below(bound.to_radix::<u64>().limbs()))
}

fn count_with<L: Limb>(algorithm: Algorithm, op: Op, m: &Nat) -> Result<OpCounts, Error> {
    let mut rng = SplitMix64::new(SEED);
    // The same draws as before for the arguments: the modulus's draw comes first.
    let _ = rng.odd_modulus(m.bits());
    let m: Nat<L> = m.to_radix();
    if algorithm == Algorithm::Hong && op == Op::MulMod {
        return Ok(count_hong_window_mul(&m, &mut rng));
    }
    let reducer = make(algorithm, &m)?;
    let k = reducer.width();
    let mut out = vec![L::ZERO; k];
    let mut scratch = Scratch::new();
    let counts = match op {
        Op::Reduce => {
            let x = below(&mut rng, &m.sqr());
            let x = x.to_padded(2 * k).unwrap_or_default();
            count_ops(|| reducer.reduce_raw(&mut out, &x, &mut scratch)).1
        }
        Op::MulMod => {
            let a = reducer.to_residue(&below(&mut rng, &m));
            let b = reducer.to_residue(&below(&mut rng, &m));
            count_ops(|| reducer.mul(&mut out, &a, &b, &mut scratch)).1
        }
        Op::SqrMod => {
            let a = reducer.to_residue(&below(&mut rng, &m));
            count_ops(|| reducer.sqr(&mut out, &a, &mut scratch)).1
        }
    };
    Ok(counts)
}

/// Paper 002's window modular multiplication `c·A mod m` by the prepared window table of
/// `A` (the table, built without multiplications, is precalculation as in the paper's
/// Table 1 and is not counted; [`count_hong_table`] counts it).
fn count_hong_window_mul<L: Limb>(m: &Nat<L>, rng: &mut SplitMix64) -> OpCounts {
    let h = Hong::new(m).expect("m > 0");
    let k = h.width();
    let a = h.to_residue(&below(rng, m));
    let b = h.to_residue(&below(rng, m));
    let table = h.window_table(&b);
    let mut out = vec![L::ZERO; k];
    let mut scratch = Scratch::new();
    count_ops(|| h.mul_by_table(&mut out, &a, &table, &mut scratch)).1
}

/// The operations of building one window table of paper 002 (eq. 9: `k` residues
/// `b^j·A mod m`) for a `bits`-bit modulus with `digit_bits`-bit digits: no
/// multiplication, only the subtractions of eq. 13.
pub fn count_hong_table(bits: u32, digit_bits: u32) -> Result<OpCounts, Error> {
    fn with<L: Limb>(bits: u32) -> OpCounts {
        let mut rng = SplitMix64::new(SEED);
        let m: Nat<L> = nat(rng.odd_modulus(bits as u64));
        let h = Hong::new(&m).expect("m > 0");
        let b = h.to_residue(&below(&mut rng, &m));
        count_ops(|| h.window_table(&b)).1
    }
    check_bits(bits)?;
    match digit_bits {
        8 => Ok(with::<Counted<u8>>(bits)),
        16 => Ok(with::<Counted<u16>>(bits)),
        32 => Ok(with::<Counted<u32>>(bits)),
        64 => Ok(with::<Counted<u64>>(bits)),
        _ => Err(bad_digit_bits(digit_bits)),
    }
}

/// The operations of the reference of paper 000, Table 1: the schoolbook product of two
/// `k`-digit numbers (`k = ⌈bits / digit_bits⌉`), exactly `k²` multiplications.
pub fn count_multiplication(bits: u32, digit_bits: u32) -> Result<OpCounts, Error> {
    check_bits(bits)?;
    match digit_bits {
        8 => Ok(count_mul_with::<Counted<u8>>(bits)),
        16 => Ok(count_mul_with::<Counted<u16>>(bits)),
        32 => Ok(count_mul_with::<Counted<u32>>(bits)),
        64 => Ok(count_mul_with::<Counted<u64>>(bits)),
        _ => Err(bad_digit_bits(digit_bits)),
    }
}

fn count_mul_with<L: Limb>(bits: u32) -> OpCounts {
    let mut rng = SplitMix64::new(SEED);
    let k = (bits as usize).div_ceil(L::BITS as usize);
    let a = nat::<L>(rng.exact_bits(bits as u64)).to_padded(k).unwrap_or_default();
    let b = nat::<L>(rng.exact_bits(bits as u64)).to_padded(k).unwrap_or_default();
    let mut r = vec![L::ZERO; 2 * k];
    count_ops(|| mul_schoolbook_into(&mut r, &a, &b)).1
}
