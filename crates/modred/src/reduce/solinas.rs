//! Generic generalized-Mersenne (Solinas) reduction: paper 003 §6.1, Algorithms 5–7.
//!
//! A generalized Mersenne modulus is `p = f(b)` for a monic polynomial
//! `f(t) = t^n + c_{n−1}t^{n−1} + … + c_0` with `c_i ∈ {−1, 0, 1}`, the highest nonzero
//! `c_i` negative (so `p < b^n`), and `b = 2^W` with `W = 32` or `64` ([`SolinasPoly`]).
//! The *reduction matrix* `X_f` (eqs. 6.3–6.4) holds in row `i` the coefficients of
//! `t^(n+i) mod f`, so `z mod p` is the sum (6.6) of the low half of `z` and the rows of
//! `X_f` weighted by the high digits. Its positive and negative parts give the
//! *addition* and *subtraction matrices* `A_f`, `S_f` (Algorithm 6) with `w_a(f)`, `w_s(f)`
//! rows (eq. 6.9): each row of `A_f` names, per column, the digit of `z` to add (`None`
//! for a zero digit; the paper writes `2n`, a zero digit appended to `z`, or −1 in its
//! printed examples).
//!
//! # Reduction (Algorithm 7) and a correction to it
//! `x = z mod b^n`; add the `w_a` vectors `u^(k) = (z_{A[k,0]}, …, z_{A[k,n−1]})`,
//! counting the carries out in `C`; bring `x` below `p`; subtract the `w_s` vectors of
//! `S_f`, counting the borrows; add `p` back. As printed, the correction loops decrement
//! `C` on *every* pass (`while C > 0 or x ≥ p: x = (x − p) mod b^n; C = C − 1`), which is
//! wrong: the value is `C·b^n + x`, and subtracting `p` from the stored `x` lowers `C`
//! only when that subtraction borrows. With `C ≥ 1` and a stored `x ≥ p` (possible after
//! two or more additions) the printed loop returns a result `b^n` too small; likewise
//! adding `p` after the subtractions lowers the borrow count only when it carries out
//! (the printed loop is wrong when the negative value lies in `[−b^n, −p)`, a window of
//! width `b^n − p`, which is `2^224 − 2^192 − 2^96 + 1` for P-256). Here `C` counts
//! borrows and carries of the correction steps; the tests drive every addition to carry
//! and every subtraction to borrow and check the result.
//!
//! Input bound: `z < b^(2n)` (every product of two residues); output below `p`. Cost:
//! `w_a + w_s` additions of `n` words plus the corrections; no multiplication.
//!
//! With 64-bit digits and `W = 32` (P-224, P-256, P-384) the reduction runs on 32-bit
//! words (the paper's half-word arithmetic); the [`super::Nist`] reducer does those primes
//! with 64-bit digits.

use super::{Bound, Reducer, Scratch};
use crate::error::Error;
use crate::kernels;
use crate::limb::Limb;
use crate::nat::Nat;
use crate::registry::Algorithm;
use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;

/// The largest degree `n` accepted (the matrices have `n²` entries).
pub const MAX_DEGREE: usize = 512;

/// The largest `w_a + w_s` a reducer is built for: its index matrices hold that many rows
/// of `n` words (at most 4 MiB at `n = 512`), and a reduction of so many additions of `n`
/// words is already many times slower than Montgomery's. The weights grow exponentially
/// for some polynomials (`t^n − t^(n−1) − … − 1`), which would otherwise ask for
/// terabytes.
pub const MAX_WEIGHT: usize = 1024;

/// A generalized Mersenne polynomial `f(t) = t^n + Σ c_i t^i` with `c_i ∈ {−1, 0, 1}` and
/// its word size `b = 2^W`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolinasPoly {
    /// `c_0 … c_{n−1}`.
    coeffs: Vec<i8>,
    word_bits: u32,
}

fn invalid(text: &str, why: &str) -> Error {
    Error::InvalidArgument(format!("invalid polynomial '{text}': {why}"))
}

impl SolinasPoly {
    /// The polynomial with lower coefficients `c_0 … c_{n−1}` (each −1, 0 or 1, the highest
    /// nonzero one −1) and word size `2^word_bits` (32 or 64).
    pub fn new(coeffs: Vec<i8>, word_bits: u32) -> Result<Self, Error> {
        if word_bits != 32 && word_bits != 64 {
            return Err(Error::InvalidArgument(format!(
                "the word size must be 2^32 or 2^64, got 2^{word_bits}"
            )));
        }
        if coeffs.is_empty() || coeffs.len() > MAX_DEGREE {
            return Err(Error::InvalidArgument(format!(
                "the degree must be from 1 to {MAX_DEGREE}, got {}",
                coeffs.len()
            )));
        }
        if coeffs.iter().any(|c| !(-1..=1).contains(c)) {
            return Err(Error::InvalidArgument(
                "the coefficients below the leading term must be -1, 0 or 1".to_string(),
            ));
        }
        match coeffs.iter().rev().find(|&&c| c != 0) {
            Some(-1) => Ok(SolinasPoly { coeffs, word_bits }),
            _ => Err(Error::InvalidArgument(
                "the highest nonzero coefficient below t^n must be -1 (so that f(b) < b^n)"
                    .to_string(),
            )),
        }
    }

    /// Parses `"t^3 - t - 1"`: a sum of terms `t^k`, `t` and `1`, each with a sign (the
    /// first may omit it); the leading term `t^n` with coefficient +1, the others ±1.
    pub fn parse(text: &str, word_bits: u32) -> Result<Self, Error> {
        let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if s.is_empty() {
            return Err(invalid(text, "it is empty"));
        }
        let mut terms: Vec<(i8, usize)> = Vec::new();
        let mut rest = s.as_str();
        while !rest.is_empty() {
            let (sign, body) = match rest.as_bytes()[0] {
                b'+' => (1i8, &rest[1..]),
                b'-' => (-1i8, &rest[1..]),
                _ if terms.is_empty() => (1i8, rest),
                _ => return Err(invalid(text, "expected + or - between terms")),
            };
            let end = body.find(['+', '-']).unwrap_or(body.len());
            let term = &body[..end];
            rest = &body[end..];
            let exp = if term == "1" {
                0
            } else if term == "t" {
                1
            } else if let Some(e) = term.strip_prefix("t^") {
                if e.is_empty() || !e.bytes().all(|c| c.is_ascii_digit()) {
                    return Err(invalid(text, &format!("bad exponent in '{term}'")));
                }
                e.parse::<usize>().ok().filter(|&e| e <= MAX_DEGREE).ok_or_else(|| {
                    invalid(text, &format!("exponent in '{term}' above {MAX_DEGREE}"))
                })?
            } else {
                return Err(invalid(
                    text,
                    &format!(
                        "bad term '{term}' (terms are t^k, t or 1, each with coefficient +1 or -1)"
                    ),
                ));
            };
            if terms.iter().any(|&(_, e)| e == exp) {
                return Err(invalid(text, &format!("the power t^{exp} appears twice")));
            }
            terms.push((sign, exp));
        }
        let n = terms.iter().map(|&(_, e)| e).max().unwrap_or(0);
        if n == 0 {
            return Err(invalid(text, "the degree must be at least 1"));
        }
        if terms.iter().any(|&(c, e)| e == n && c != 1) {
            return Err(invalid(text, "the leading coefficient must be +1"));
        }
        let mut coeffs = vec![0i8; n];
        for &(c, e) in &terms {
            if e < n {
                coeffs[e] = c;
            }
        }
        Self::new(coeffs, word_bits).map_err(|e| invalid(text, &e.to_string()))
    }

    /// The polynomial `f` with `f(2^word_bits) = m`, if `m` has that form.
    pub fn from_modulus<L: Limb>(m: &Nat<L>, word_bits: u32) -> Option<Self> {
        if (word_bits != 32 && word_bits != 64) || m.is_zero() {
            return None;
        }
        let n = m.bits().div_ceil(word_bits as u64) as usize;
        if n == 0 || n > MAX_DEGREE {
            return None;
        }
        // The lowest word of d (below) is (b − m) mod b, and must be 0, 1 or b − 1 (its
        // carry in is 0): tested first, it refuses most moduli without the subtraction.
        let mask = u64::MAX >> (64 - word_bits);
        let mut low = 0u64;
        for (i, l) in
            m.limbs().iter().enumerate().take_while(|(i, _)| (*i as u64) * (L::BITS as u64) < 64)
        {
            low |= l.to_u64() << (i as u64 * L::BITS as u64);
        }
        let d0 = low.wrapping_neg() & mask;
        if d0 > 1 && d0 != mask {
            return None;
        }
        // d = b^n − m in signed digits e_i ∈ {−1, 0, 1}; then c_i = −e_i.
        let d = Nat::<u64>::power_of_two(n as u64 * word_bits as u64)
            .checked_sub(&m.to_radix::<u64>())?;
        let words = words_of(&d, word_bits, n);
        let base = 1u128 << word_bits;
        let mut carry = 0u128;
        let mut coeffs = vec![0i8; n];
        for (i, &w) in words.iter().enumerate() {
            let v = w as u128 + carry;
            (coeffs[i], carry) = match v {
                0 => (0, 0),
                1 => (-1, 0),
                v if v == base - 1 => (1, 1),
                v if v == base => (0, 1),
                _ => return None,
            };
        }
        if carry != 0 {
            return None;
        }
        Self::new(coeffs, word_bits).ok()
    }

    /// The lowest-weight polynomial (`w_a + w_s`, ties to the larger word) with `f(b) = m`
    /// for `b = 2^64` or `2^32`.
    pub fn find<L: Limb>(m: &Nat<L>) -> Option<Self> {
        [64, 32]
            .into_iter()
            .filter_map(|w| Self::from_modulus(m, w))
            .min_by_key(|f| f.add_weight() + f.sub_weight())
    }

    /// Whether `m` is a generalized Mersenne number the reducer is built for: it has a
    /// polynomial ([`SolinasPoly::find`]) whose weights are within [`MAX_WEIGHT`]. What
    /// the registry and the form analysis both ask.
    pub fn usable_for<L: Limb>(m: &Nat<L>) -> bool {
        Self::find(m).is_some_and(|f| f.check_weights().is_ok())
    }

    /// The degree `n`.
    pub fn degree(&self) -> usize {
        self.coeffs.len()
    }

    /// `W`, with `b = 2^W`.
    pub fn word_bits(&self) -> u32 {
        self.word_bits
    }

    /// `c_0 … c_{n−1}`.
    pub fn coeffs(&self) -> &[i8] {
        &self.coeffs
    }

    /// `p = f(b)`.
    pub fn modulus<L: Limb>(&self) -> Nat<L> {
        let n = self.degree() as u64;
        let w = self.word_bits as u64;
        let mut pos = Nat::<L>::power_of_two(n * w);
        let mut neg = Nat::<L>::zero();
        for (i, &c) in self.coeffs.iter().enumerate() {
            match c {
                1 => pos = pos.add(&Nat::power_of_two(i as u64 * w)),
                -1 => neg = neg.add(&Nat::power_of_two(i as u64 * w)),
                _ => {}
            }
        }
        &pos - &neg
    }

    /// The reduction matrix `X_f` (paper 003, eqs. 6.3–6.4): row `i` holds the coefficients
    /// of `t^(n+i) mod f(t)`. The entries grow exponentially for some polynomials; those
    /// beyond `i64` saturate at its bounds (such a polynomial is far over [`MAX_WEIGHT`]).
    pub fn reduction_matrix(&self) -> Vec<Vec<i64>> {
        let n = self.degree();
        let c: Vec<i64> = self.coeffs.iter().map(|&c| c as i64).collect();
        let mut x = vec![vec![0i64; n]; n];
        for j in 0..n {
            x[0][j] = -c[j];
        }
        for i in 1..n {
            let top = x[i - 1][n - 1];
            x[i][0] = (-c[0]).saturating_mul(top);
            for j in 1..n {
                x[i][j] = x[i - 1][j - 1].saturating_sub(c[j].saturating_mul(top));
            }
        }
        x
    }

    fn weight(&self, sign: i64) -> usize {
        let x = self.reduction_matrix();
        let n = self.degree();
        (0..n)
            .map(|j| {
                (0..n).fold(0usize, |sum, i| {
                    sum.saturating_add(sign.saturating_mul(x[i][j]).max(0) as usize)
                })
            })
            .max()
            .unwrap_or(0)
    }

    /// `Ok` when `w_a + w_s` is at most [`MAX_WEIGHT`], so the addition and subtraction
    /// matrices can be built; else an error naming the weights.
    pub fn check_weights(&self) -> Result<(), Error> {
        let total = self.add_weight().checked_add(self.sub_weight());
        if total.is_some_and(|w| w <= MAX_WEIGHT) {
            return Ok(());
        }
        let n = self.degree();
        let (weight, bytes) = match total.and_then(|w| Some((w, w.checked_mul(8 * n)?))) {
            Some((w, b)) => (w.to_string(), b.to_string()),
            None => ("more than 2^64".to_string(), "more than 2^64".to_string()),
        };
        Err(Error::NotApplicable {
            algorithm: Algorithm::Solinas.name(),
            reason: format!(
                "the reduction by {} takes w_a + w_s = {weight} additions of {n} words, over \
                 the {MAX_WEIGHT} it is built for (its matrices would take {bytes} bytes); \
                 montgomery or barrett reduce this modulus faster",
                self.to_text_abbreviated()
            ),
        })
    }

    /// [`SolinasPoly::to_text`], its middle cut out past 80 characters.
    fn to_text_abbreviated(&self) -> String {
        let text = self.to_text();
        if text.len() <= 80 {
            return text;
        }
        format!("{} ... {}", &text[..40], &text[text.len() - 30..])
    }

    /// The modular addition weight `w_a(f)`: the largest column sum of `X_f⁺` (eq. 6.9).
    pub fn add_weight(&self) -> usize {
        self.weight(1)
    }

    /// The modular subtraction weight `w_s(f)`: the largest column sum of `X_f⁻` (eq. 6.9).
    pub fn sub_weight(&self) -> usize {
        self.weight(-1)
    }

    /// Algorithm 6 on `X_f⁺` (`sign = 1`) or `X_f⁻` (`sign = −1`): row `k`, column `j` is
    /// `Some(n + i)` for the digit `z_{n+i}` of the `k`-th addition, `None` for zero.
    /// Callers check the weights first ([`SolinasPoly::check_weights`]): the matrix has
    /// `w_a` (or `w_s`) rows.
    fn index_matrix(&self, sign: i64) -> Vec<Vec<Option<usize>>> {
        let n = self.degree();
        let mut part: Vec<Vec<i64>> = self
            .reduction_matrix()
            .into_iter()
            .map(|row| row.into_iter().map(|v| sign.saturating_mul(v).max(0)).collect())
            .collect();
        let rows = if sign > 0 { self.add_weight() } else { self.sub_weight() };
        // Per column, the first row `i` whose count is not used up yet.
        let mut next = vec![0usize; n];
        (0..rows)
            .map(|_| {
                (0..n)
                    .map(|j| {
                        while next[j] < n && part[next[j]][j] == 0 {
                            next[j] += 1;
                        }
                        let i = next[j];
                        if i == n {
                            return None;
                        }
                        part[i][j] -= 1;
                        Some(n + i)
                    })
                    .collect()
            })
            .collect()
    }

    /// The modular addition matrix `A_f` (Algorithm 6), `w_a(f) × n`.
    pub fn addition_matrix(&self) -> Vec<Vec<Option<usize>>> {
        self.index_matrix(1)
    }

    /// The modular subtraction matrix `S_f` (Algorithm 6 on `X_f⁻`), `w_s(f) × n`.
    pub fn subtraction_matrix(&self) -> Vec<Vec<Option<usize>>> {
        self.index_matrix(-1)
    }

    /// `f` as text, `"t^3 - t - 1"`.
    pub fn to_text(&self) -> String {
        let mut s = format!("t^{}", self.degree());
        for (i, &c) in self.coeffs.iter().enumerate().rev() {
            if c != 0 {
                s.push_str(if c > 0 { " + " } else { " - " });
                s.push_str(&match i {
                    0 => "1".to_string(),
                    1 => "t".to_string(),
                    _ => format!("t^{i}"),
                });
            }
        }
        s
    }

    /// The JSON object of `modred solinas-weights`: the polynomial, `W`, `p`, `X_f`, `A_f`
    /// and `S_f` (−1 for a zero digit, as in the paper's printed matrices), `add_weight`
    /// and `sub_weight`. Error: the weights over [`MAX_WEIGHT`]
    /// ([`SolinasPoly::check_weights`]).
    pub fn to_json(&self) -> Result<String, Error> {
        self.check_weights()?;
        fn rows<T: core::fmt::Display>(m: &[Vec<T>]) -> String {
            let r: Vec<String> = m
                .iter()
                .map(|row| {
                    format!("[{}]", row.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(","))
                })
                .collect();
            format!("[{}]", r.join(","))
        }
        let idx = |m: Vec<Vec<Option<usize>>>| -> Vec<Vec<i64>> {
            m.into_iter()
                .map(|r| r.into_iter().map(|v| v.map_or(-1, |i| i as i64)).collect())
                .collect()
        };
        Ok(format!(
            "{{\"poly\":\"{}\",\"word_bits\":{},\"n\":{},\"p\":\"{}\",\"reduction_matrix\":{},\
             \"add_matrix\":{},\"sub_matrix\":{},\"add_weight\":{},\"sub_weight\":{}}}",
            self.to_text(),
            self.word_bits,
            self.degree(),
            self.modulus::<u64>().to_decimal(),
            rows(&self.reduction_matrix()),
            rows(&idx(self.addition_matrix())),
            rows(&idx(self.subtraction_matrix())),
            self.add_weight(),
            self.sub_weight()
        ))
    }
}

/// The `n` base-`2^word_bits` digits of `d` (as u64 values).
fn words_of(d: &Nat<u64>, word_bits: u32, n: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(n);
    for &l in d.limbs() {
        if word_bits == 64 {
            out.push(l);
        } else {
            out.push(l & 0xffff_ffff);
            out.push(l >> 32);
        }
    }
    out.resize(n, 0);
    out
}

/// Index matrices flattened: entry `k·n + j` is the word index, or `usize::MAX` for zero.
fn flatten(m: &[Vec<Option<usize>>]) -> Vec<usize> {
    m.iter().flat_map(|r| r.iter().map(|v| v.unwrap_or(usize::MAX))).collect()
}

/// Algorithm 7 (corrected, module docs) on digits `D`, `g` digits per word of `f`:
/// `x = z mod p` for `z` of `2n` words (`2ng` digits), `p` of `n` words, `x` of `n`
/// words. `u` is `ng` digits of scratch. `trace(step, flag)` sees the carry out of each
/// addition (steps `0 … w_a − 1`) and the borrow out of each subtraction (steps
/// `w_a …`).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn algorithm7<D: Limb>(
    x: &mut [D],
    z: &[D],
    p: &[D],
    g: usize,
    add: &[usize],
    sub: &[usize],
    u: &mut [D],
    mut trace: impl FnMut(usize, bool),
) {
    let ng = x.len();
    let n = ng / g;
    x.copy_from_slice(&z[..ng]);
    let gather = |u: &mut [D], row: &[usize]| {
        for (j, &i) in row.iter().enumerate() {
            let dst = &mut u[j * g..(j + 1) * g];
            if i == usize::MAX {
                dst.fill(D::ZERO);
            } else {
                dst.copy_from_slice(&z[i * g..(i + 1) * g]);
            }
        }
    };
    let mut c = 0usize;
    for (k, row) in add.chunks_exact(n).enumerate() {
        gather(u, row);
        let carry = kernels::add_assign_n(x, u);
        trace(k, carry);
        c += carry as usize;
    }
    while c > 0 || kernels::cmp_n(x, p) != core::cmp::Ordering::Less {
        c -= kernels::sub_assign_n(x, p) as usize;
    }
    let wa = add.len() / n;
    c = 0;
    for (k, row) in sub.chunks_exact(n).enumerate() {
        gather(u, row);
        let borrow = kernels::sub_assign_n(x, u);
        trace(wa + k, borrow);
        c += borrow as usize;
    }
    while c > 0 {
        c -= kernels::add_assign_n(x, p) as usize;
    }
}

/// Generic generalized-Mersenne reduction (paper 003, Algorithm 7 with the correction in
/// the module docs) for `p = f(2^W)`.
///
/// Standard representation. [`Reducer::reduce_raw`] computes `z mod p` for
/// `z < b^(2n)` (`b = 2^W`); output below `p`.
#[derive(Clone, Debug)]
pub struct Solinas<L: Limb> {
    m: Nat<L>,
    poly: SolinasPoly,
    add: Vec<usize>,
    sub: Vec<usize>,
    /// Digits of `L` per word of `f`; 0 when a word is half a digit (`W = 32`, 64-bit
    /// digits), and the reduction runs on 32-bit words.
    g: usize,
    /// `p` in 32-bit words for the half-word case.
    p32: Vec<u32>,
}

impl<L: Limb> Solinas<L> {
    /// The reducer for `p = f(b)` with the given polynomial. Error:
    /// [`Error::NotApplicable`] when its weights are over [`MAX_WEIGHT`].
    pub fn with_poly(poly: SolinasPoly) -> Result<Self, Error> {
        poly.check_weights()?;
        let m = poly.modulus::<L>();
        let w = poly.word_bits();
        let g = if w >= L::BITS { (w / L::BITS) as usize } else { 0 };
        let p32 = if g == 0 { words_of(&m.to_radix::<u64>(), 32, poly.degree()) } else { vec![] };
        Ok(Solinas {
            add: flatten(&poly.addition_matrix()),
            sub: flatten(&poly.subtraction_matrix()),
            p32: p32.into_iter().map(|v| v as u32).collect(),
            m,
            poly,
            g,
        })
    }

    /// The polynomial.
    pub fn poly(&self) -> &SolinasPoly {
        &self.poly
    }

    /// `x = z mod p` with a trace of the carries and borrows of Algorithm 7 (for tests).
    /// Working memory comes from `scratch` (`words32` for the half-word case, `work`
    /// otherwise): nothing is allocated once it has grown.
    pub(crate) fn reduce_traced(
        &self,
        out: &mut [L],
        z: &[L],
        scratch: &mut Scratch<L>,
        trace: impl FnMut(usize, bool),
    ) {
        let n = self.poly.degree();
        let k = self.m.len();
        if self.g == 0 {
            // Half-word: 32-bit words of 64-bit digits. words32 = [ z (2n) | x (n) | u (n) ].
            if scratch.words32.len() < 4 * n {
                scratch.words32.resize(4 * n, 0);
            }
            let (z32, rest) = scratch.words32[..4 * n].split_at_mut(2 * n);
            let (x32, u) = rest.split_at_mut(n);
            z32.fill(0);
            for (i, &l) in z.iter().enumerate() {
                let v = l.to_u64();
                for (h, part) in [v as u32, (v >> 32) as u32].into_iter().enumerate() {
                    if let Some(slot) = z32.get_mut(2 * i + h) {
                        *slot = part;
                    }
                }
            }
            algorithm7(x32, z32, &self.p32, 1, &self.add, &self.sub, u, trace);
            for (i, o) in out.iter_mut().enumerate() {
                let lo = x32.get(2 * i).copied().unwrap_or(0) as u64;
                let hi = x32.get(2 * i + 1).copied().unwrap_or(0) as u64;
                *o = L::from_u64(lo | hi << 32);
            }
        } else {
            let ng = n * self.g;
            debug_assert_eq!(ng, k);
            // work = [ z (2ng) | u (ng) ]
            let work = super::zeroed(&mut scratch.work, 3 * ng);
            let (zz, u) = work.split_at_mut(2 * ng);
            let len = crate::nat::normalized_len(z).min(2 * ng);
            zz[..len].copy_from_slice(&z[..len]);
            algorithm7(out, zz, self.m.limbs(), self.g, &self.add, &self.sub, u, trace);
        }
    }
}

impl<L: Limb> Reducer<L> for Solinas<L> {
    fn heap_bytes(&self) -> usize {
        self.m.heap_bytes()
            + crate::nat::vec_bytes(&self.poly.coeffs)
            + crate::nat::vec_bytes(&self.add)
            + crate::nat::vec_bytes(&self.sub)
            + crate::nat::vec_bytes(&self.p32)
    }

    /// The polynomial is found from `m` ([`SolinasPoly::find`]). Error:
    /// [`Error::NotApplicable`] naming the form when there is none.
    fn new(m: &Nat<L>) -> Result<Self, Error> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        let poly = SolinasPoly::find(m).ok_or_else(|| Error::NotApplicable {
            algorithm: Algorithm::Solinas.name(),
            reason: "it needs a generalized Mersenne modulus m = f(2^32) or f(2^64) with f(t) = \
                     t^n + c_(n-1) t^(n-1) + ... + c_0, every c_i in {-1, 0, 1} and the highest \
                     nonzero c_i = -1"
                .to_string(),
        })?;
        Self::with_poly(poly)
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Solinas
    }

    fn modulus(&self) -> &Nat<L> {
        &self.m
    }

    /// `z < b^(2n)`, `b = 2^W`.
    fn input_bound(&self) -> Bound<L> {
        Bound::Below(Nat::power_of_two(
            2 * self.poly.degree() as u64 * self.poly.word_bits() as u64,
        ))
    }

    fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        self.reduce_traced(out, x, scratch, |_, _| {});
    }

    fn to_residue(&self, x: &Nat<L>) -> Vec<L> {
        let r = x.checked_rem(&self.m).unwrap_or_default();
        r.to_padded(self.width()).unwrap_or_else(|| vec![L::ZERO; self.width()])
    }

    fn from_residue(&self, r: &[L]) -> Nat<L> {
        Nat::from_limbs(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use modred_testkit::SplitMix64;

    /// Drives every addition of Algorithm 7 to carry and every subtraction to borrow, for
    /// each Table 2 polynomial, and checks each result against `Nat` division.
    #[test]
    fn every_carry_and_borrow_of_algorithm_7_is_exercised() {
        for (f, w) in [
            ("t^3 - t - 1", 64),
            ("t^7 - t^3 + 1", 32),
            ("t^8 - t^7 + t^6 + t^3 - 1", 32),
            ("t^12 - t^4 - t^3 + t - 1", 32),
            ("t^14 - t^7 - 1", 32),
            ("t^16 - t - 1", 32),
            ("t^6 - t^2 - 1", 32),
        ] {
            let poly = SolinasPoly::parse(f, w).unwrap();
            let steps = poly.add_weight() + poly.sub_weight();
            for limb_bits in [64u32, 32] {
                let mut seen = vec![false; steps];
                let mut rng = SplitMix64::new(7);
                let n = poly.degree();
                let words = 2 * n;
                let run = |z: Vec<u64>, seen: &mut Vec<bool>| {
                    // z as W-bit words -> Nat
                    let mut zn = Nat::<u64>::zero();
                    for (i, &v) in z.iter().enumerate() {
                        zn = zn.add(&Nat::from(v).shl(i as u64 * w as u64));
                    }
                    if limb_bits == 64 {
                        let r = Solinas::<u64>::with_poly(poly.clone()).unwrap();
                        let mut out = vec![0u64; r.width()];
                        let zl = zn.to_padded(2 * r.width() + 1).unwrap();
                        r.reduce_traced(&mut out, &zl, &mut Scratch::new(), |k, f| seen[k] |= f);
                        assert_eq!(
                            Nat::from_limbs(&out),
                            zn.checked_rem(r.modulus()).unwrap(),
                            "{f}"
                        );
                    } else {
                        let r = Solinas::<u32>::with_poly(poly.clone()).unwrap();
                        let z32: Nat<u32> = zn.to_radix();
                        let mut out = vec![0u32; r.width()];
                        let zl = z32.to_padded(2 * r.width()).unwrap();
                        r.reduce_traced(&mut out, &zl, &mut Scratch::new(), |k, f| seen[k] |= f);
                        let want: Nat<u32> = zn.checked_rem(&poly.modulus()).unwrap().to_radix();
                        assert_eq!(Nat::from_limbs(&out), want, "{f}");
                    }
                };
                let max = if w == 64 { u64::MAX } else { u32::MAX as u64 };
                let bn = Nat::<u64>::power_of_two(n as u64 * w as u64);
                let p = poly.modulus::<u64>();
                let value = |row: &[Option<usize>], z: &[u64]| -> Nat<u64> {
                    let mut v = Nat::zero();
                    for (j, i) in row.iter().enumerate() {
                        if let Some(i) = i {
                            v = v.add(&Nat::from(z[*i]).shl(j as u64 * w as u64));
                        }
                    }
                    v
                };
                let (adds, subs) = (poly.addition_matrix(), poly.subtraction_matrix());
                // Targeted inputs: random high half; the low half chosen so that the stored
                // x before addition k is b^n − 1 (so it carries whenever u ≠ 0), or before
                // subtraction k is 0 (so it borrows whenever u ≠ 0).
                for step in 0..steps {
                    for _ in 0..50 {
                        let mut z: Vec<u64> =
                            (0..words)
                                .map(|_| {
                                    if rng.next_u64() % 3 == 0 {
                                        max
                                    } else {
                                        rng.next_u64() & max
                                    }
                                })
                                .collect();
                        let low = if step < adds.len() {
                            let mut s = Nat::zero();
                            for row in &adds[..step] {
                                s = s.add(&value(row, &z));
                            }
                            let s = s.checked_rem(&bn).unwrap();
                            (&bn - &Nat::one()).checked_sub(&s).unwrap()
                        } else {
                            let k = step - adds.len();
                            let mut a = Nat::zero();
                            for row in &adds {
                                a = a.add(&value(row, &z));
                            }
                            let mut sp = Nat::zero();
                            for row in &subs[..k] {
                                sp = sp.add(&value(row, &z));
                            }
                            let x0 = sp.checked_rem(&bn).unwrap();
                            if x0 >= p {
                                continue;
                            }
                            // z_low ≡ x0 − A (mod p)
                            let a = a.checked_rem(&p).unwrap();
                            x0.add(&p).checked_sub(&a).unwrap().checked_rem(&p).unwrap()
                        };
                        let lw = words_of(&low, w, n);
                        z[..n].copy_from_slice(&lw);
                        run(z, &mut seen);
                        if seen[step] {
                            break;
                        }
                    }
                }
                // Structured inputs: every word chosen from {0, b−1, b−1−small, random}.
                for _ in 0..300 {
                    let z: Vec<u64> = (0..words)
                        .map(|_| match rng.next_u64() % 4 {
                            0 => 0,
                            1 => max,
                            2 => max - (rng.next_u64() & 3),
                            _ => rng.next_u64() & max,
                        })
                        .collect();
                    run(z, &mut seen);
                }
                assert!(seen.iter().all(|&s| s), "{f}: steps not driven to carry/borrow: {seen:?}");
                // Edge inputs: 0, p − 1, p, (p − 1)², b^(2n) − 1.
                for v in [
                    Nat::zero(),
                    &p - &Nat::one(),
                    p.clone(),
                    (&p - &Nat::one()).sqr(),
                    &Nat::power_of_two(2 * n as u64 * w as u64) - &Nat::one(),
                ] {
                    let z = words_of(&v, w, words);
                    run(z, &mut seen);
                }
            }
        }
    }

    /// Algorithm 7 exactly as printed: the correction loops decrement `C` on every pass.
    fn printed_algorithm7(x: &mut [u32], z: &[u32], p: &[u32], add: &[usize], sub: &[usize]) {
        let n = x.len();
        x.copy_from_slice(&z[..n]);
        let mut u = vec![0u32; n];
        let gather = |u: &mut [u32], row: &[usize]| {
            for (j, &i) in row.iter().enumerate() {
                u[j] = if i == usize::MAX { 0 } else { z[i] };
            }
        };
        let mut c = 0i64;
        for row in add.chunks_exact(n) {
            gather(&mut u, row);
            c += kernels::add_assign_n(x, &u) as i64;
        }
        while c > 0 || kernels::cmp_n(x, p) != core::cmp::Ordering::Less {
            kernels::sub_assign_n(x, p);
            c -= 1;
        }
        c = 0;
        for row in sub.chunks_exact(n) {
            gather(&mut u, row);
            c += kernels::sub_assign_n(x, &u) as i64;
        }
        while c > 0 {
            kernels::add_assign_n(x, p);
            c -= 1;
        }
    }

    #[test]
    fn the_printed_correction_loop_is_wrong_and_ours_is_not() {
        // P-256 (w_s = 4): when the value after the subtractions lies in [−b^n, −p) the
        // printed loop adds p once, sees C = 0 and stops, b^n too high. Build such z: a
        // random high half, and the low half x0 = S − b^n + t (t small) when that is a
        // residue, so that x0 − S = t − b^n < −p.
        let poly = SolinasPoly::parse("t^8 - t^7 + t^6 + t^3 - 1", 32).unwrap();
        let r = Solinas::<u32>::with_poly(poly.clone()).unwrap();
        let p: Nat<u32> = poly.modulus();
        let bn = Nat::<u32>::power_of_two(256);
        let mut rng = SplitMix64::new(3);
        let mut printed_wrong = 0;
        for _ in 0..2000 {
            let hi: Vec<u32> =
                (0..8).map(|_| (rng.next_u64() as u32) >> (rng.next_u64() % 33).min(31)).collect();
            // With z_low = 0: x after the additions is A mod p; subtractions remove S.
            let mut z = vec![0u32; 16];
            z[8..].copy_from_slice(&hi);
            let value = |row: &[Option<usize>]| -> Nat<u32> {
                let mut v = Nat::zero();
                for (j, i) in row.iter().enumerate() {
                    if let Some(i) = i {
                        v = v.add(&Nat::from(z[*i] as u64).shl(32 * j as u64));
                    }
                }
                v
            };
            let a = poly.addition_matrix().iter().fold(Nat::zero(), |s, row| s.add(&value(row)));
            let sum_s =
                poly.subtraction_matrix().iter().fold(Nat::zero(), |s, row| s.add(&value(row)));
            let t = Nat::from(rng.next_u64() & 0xffff);
            let Some(x0) = sum_s.add(&t).checked_sub(&bn).filter(|x0| *x0 < p) else { continue };
            // z_low ≡ x0 − A (mod p)
            let a = a.checked_rem(&p).unwrap();
            let low = x0.add(&p).checked_sub(&a).unwrap().checked_rem(&p).unwrap();
            z[..8].copy_from_slice(&low.to_padded(8).unwrap());
            let zn = Nat::<u32>::from_limbs(&z);
            let want = zn.checked_rem(&p).unwrap();
            let mut ours = vec![0u32; 8];
            r.reduce_raw(&mut ours, &z, &mut Scratch::new());
            assert_eq!(Nat::from_limbs(&ours), want);
            let mut printed = vec![0u32; 8];
            printed_algorithm7(&mut printed, &z, p.limbs(), &r.add, &r.sub);
            if Nat::from_limbs(&printed) != want {
                printed_wrong += 1;
            }
        }
        assert!(printed_wrong > 0, "no input separated the printed loop from the corrected one");
    }
}
