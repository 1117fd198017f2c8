//! Hong, Oh and Yoon's table-based modular arithmetic (paper 002, EUROCRYPT '96): the
//! window modular multiplication (§3.2, eqs. 8–9) and the modular squaring (§3.2,
//! eqs. 10–13), for any modulus `N > 0`, odd or even, in the standard representation.
//!
//! Everything rests on one primitive, eq. 13's step: `Z ← Z·s + d − m·N` with `s = 2^w`,
//! a `w`-bit digit `d` and a multiple `T[m] = m·N` read from a table, `m` being looked up
//! in the *backward pointer* array from the top bits of `Z`. The shift and the
//! subtraction are one pass over the digits. No digit multiplication.
//!
//! # Corrections to the paper
//! - The paper (eq. 13) shifts by `log s` bits and subtracts `T[m_x]` but does not say how
//!   `m_x` is chosen. Here the remainders are kept *below `2N`* between steps (not below
//!   `N`): the pointer array is indexed by `v = ⌊Z'/2^(n−1)⌋` (`n` the bit length of `N`,
//!   `Z' = Z·s + d < 2s·N < 2^(w+2)·2^(n−1)`, so `2^(w+2)` entries) and holds
//!   `m = max{m < 2s : m·N ≤ v·2^(n−1)}`; then `0 ≤ Z' − m·N < 2^(n−1) + N ≤ 2N`. So the
//!   table holds `2s` multiples (twice the paper's `s`), and one conditional subtraction
//!   of `N` at the end of a whole reduction replaces a comparison and correction per
//!   step (measured in the report: the squaring about 1.3× faster than when every step
//!   reduces below `N`, the exponentiation about 1.5×).
//! - The paper's base case (eq. 11) says `(C^(k/2))² mod N` takes "one subtraction or no
//!   operation": true only when `N` is close to `b^k`. For any `N` (a small top digit)
//!   the square, below `b^k`, can be up to `b·N`; it is reduced here by the same
//!   shift-and-subtract steps (about `(log₂ b)/w` of them).
//! - The window multiplication's "small final correction" (§4.2) is the same reduction
//!   applied from the top of `Σ c_j·T[α][j] < k·b·N`: `⌈(log₂ b + log₂ k)/w⌉` steps,
//!   which is the paper's `3(k+1)` additions (three steps) at `b = 2^16`, `s = 2^8`.
//! - The squaring step (eq. 12) adds `2c_0·C^(j)·b + c_0²` to `(C^(j))² mod N` shifted
//!   by two digits; here the addition comes first and the sum (below `N·b² + 2b^(k+1)`)
//!   is reduced in one pass of `⌈(2 log₂ b + 2)/w⌉` steps, instead of shifting,
//!   reducing, adding and reducing again.
//! - For odd `k` the recursion runs `⌈k/2⌉` times and the base case squares the top
//!   `⌊k/2⌋` digits; the count is still `(k² + k)/2` multiplications.
//!
//! # Costs (single-precision multiplications, counted with [`crate::Counted`])
//! Window multiplication by a prepared [`WindowTable`]: exactly `k²`; preparing the table
//! (`k` residues `b^j·A mod N`): none. Squaring: exactly `(k² + k)/2` (paper 002,
//! Table 1). Additions: see the report (paper 002, Table 3).
//!
//! Memory: the multiples `2s·(k + 1)` digits and the pointers `2^(w+2)` entries for the
//! reducer; `k²` digits per window table (one per precomputed power in an
//! exponentiation: `2^(w_e−1)·k²` digits for a sliding window of width `w_e`).

use super::{zeroed, Bound, Reducer, Scratch};
use crate::error::Error;
use crate::kernels;
use crate::limb::Limb;
use crate::modulus::limits::try_zeroed;
use crate::nat::Nat;
use crate::registry::Algorithm;
use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

/// The shift `w = log₂ s` of eq. 13 that [`Hong::new`] uses: the paper's `s = 2^8`
/// (for `u8` digits `2^4`, since the shift must be narrower than a digit).
pub fn default_shift<L: Limb>() -> u32 {
    if L::BITS > 8 {
        8
    } else {
        L::BITS / 2
    }
}

/// The widest shift [`Hong::with_shift`] accepts: `s = 2^16` multiples of `N`.
pub const MAX_SHIFT: u32 = 16;

/// Paper 002's table-based reduction, multiplication and squaring modulo any `N > 0`.
///
/// Standard representation (the residue of `x` is `x mod N`). [`Reducer::reduce_raw`]
/// takes **any** `x` and reduces it from the top, `w` bits a step, with the table of
/// multiples of `N` (no multiplication, about `(bits(x) − bits(N))/w` subtractions of
/// `k + 1` digits: meant for arguments a few digits longer than `N`, slow for `x ≈ N²`).
/// [`Reducer::sqr`] is the paper's modular squaring; [`Reducer::mul`] builds the window
/// table of its second operand and multiplies by it (correct, but the table costs `k`
/// reductions by one digit: the exponentiation in [`crate::exp::hong`] builds each
/// table once and shares it).
#[derive(Clone, Debug)]
pub struct Hong<L: Limb> {
    m: Nat<L>,
    /// `N`, padded to `k + 1` digits.
    m_pad: Vec<L>,
    /// Bit length of `N`.
    n: u64,
    /// `w = log₂ s`.
    w: u32,
    /// `T[m] = m·N` for `0 ≤ m < 2s`, `k + 1` digits each.
    multiples: Vec<L>,
    /// `pointer[v] = max{m < 2s : m·N ≤ v·2^(n−1)}`, `0 ≤ v < 2^(w+2)`.
    pointer: Vec<u32>,
}

/// The window table of a fixed multiplicand `A` (eq. 9): `T[j] = b^j·A mod N` for
/// `0 ≤ j < k`, `k` digits each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowTable<L> {
    entries: Vec<L>,
}

impl<L: Limb> WindowTable<L> {
    /// The multiplicand `A` (the entry `j = 0`).
    pub fn multiplicand(&self, k: usize) -> &[L] {
        &self.entries[..k]
    }

    /// Digits the table holds (`k²`).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table is empty (never, for `k ≥ 1`).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<L: Limb> Hong<L> {
    /// The precalculation modulo `m` with the shift `w = log₂ s` (`1 ≤ w ≤ MAX_SHIFT` and
    /// `w < L::BITS`).
    ///
    /// Errors: [`Error::ZeroModulus`]; [`Error::InvalidArgument`] for another `w`.
    pub fn with_shift(m: &Nat<L>, w: u32) -> Result<Self, Error> {
        if m.is_zero() {
            return Err(Error::ZeroModulus);
        }
        if w == 0 || w > MAX_SHIFT || w >= L::BITS {
            return Err(Error::InvalidArgument(format!(
                "hong's shift log2(s) must be between 1 and {} for {}-bit digits (got {w})",
                MAX_SHIFT.min(L::BITS - 1),
                L::BITS
            )));
        }
        let k = m.len();
        let n = m.bits();
        // Multiples m·N for m < 2s, so that the steps may leave their result below 2N
        // instead of N (no correction per step).
        let s = 2usize << w;
        let mut m_pad = m.limbs().to_vec();
        m_pad.resize(k + 1, L::ZERO);
        // Multiples by repeated addition (precalculation).
        let mut multiples = try_zeroed(s * (k + 1), L::ZERO)?;
        for j in 1..s {
            let (done, rest) = multiples.split_at_mut(j * (k + 1));
            kernels::add_n(&mut rest[..k + 1], &done[(j - 1) * (k + 1)..], &m_pad);
        }
        // Backward pointers: m grows with v, so one walk over both.
        let mut pointer = vec![0u32; 1 << (w + 2)];
        let mut mm = 0usize;
        // `target = v·2^(n−1)` in k + 1 digits, written in place (no allocation per entry):
        // the digits below `(n − 1) / BITS` stay zero, and `v·2^((n − 1) mod BITS)` is below
        // 2^(w + 2 + 63) ≤ 2^81, so it fits a u128; `v·2^(n−1) < 2^(n+w+1)` fits k + 1 digits.
        let mut target = vec![L::ZERO; k + 1];
        let (low, shift) = (((n - 1) / L::BITS as u64) as usize, (n - 1) % L::BITS as u64);
        for (v, p) in pointer.iter_mut().enumerate() {
            let mut t = (v as u128) << shift;
            for d in &mut target[low..] {
                *d = L::from_u64(t as u64);
                t >>= L::BITS;
            }
            debug_assert_eq!(t, 0, "v·2^(n−1) fits k + 1 digits");
            while mm + 1 < s
                && kernels::cmp_n(&multiples[(mm + 1) * (k + 1)..(mm + 2) * (k + 1)], &target)
                    .is_le()
            {
                mm += 1;
            }
            *p = mm as u32;
        }
        Ok(Hong { m: m.clone(), m_pad, n, w, multiples, pointer })
    }

    /// `w = log₂ s`.
    pub fn shift(&self) -> u32 {
        self.w
    }

    /// Digits held by the multiples table (`2s·(k + 1)`) and entries of the pointer array
    /// (`2^(w+2)`).
    pub fn table_sizes(&self) -> (usize, usize) {
        (self.multiples.len(), self.pointer.len())
    }

    /// One step of eq. 13 on `z` (`k + 1` digits, value below `2N`):
    /// `z ← z·2^w + d − m·N`, again below `2N`, for `d < 2^w`.
    ///
    /// `m = pointer[⌊(z·2^w + d)/2^(n−1)⌋]`; the index needs only the top bits of `z`
    /// (and of `d` when `n ≤ w`), so the shift and the subtraction of `T[m]` are one pass
    /// over the digits (the subtraction counted: `k + 1` additions when `m > 0`).
    #[inline]
    fn shift_in(&self, z: &mut [L], d: u64) {
        let k1 = z.len();
        debug_assert!(k1 == self.m_pad.len());
        let w = self.w;
        let v = if self.n > w as u64 {
            // Bits n−1 … n+w of z·2^w + d are bits n−1−w … n of z.
            bits_of(z, self.n - 1 - w as u64, w + 2)
        } else {
            // A modulus of at most w bits: z·2^w + d fits 2w + 1 ≤ 33 bits.
            let zv = bits_of(z, 0, w + 2) as u64;
            (((zv << w) | d) >> (self.n - 1)) as usize
        };
        let mult = self.pointer[v] as usize;
        // z·2^w + d fits k + 1 digits (z < 2N ≤ 2^(n+1) and w < BITS ≤ (k+1)·BITS − n − 1).
        let mut carry = L::from_u64(d);
        if mult == 0 {
            for zi in z.iter_mut() {
                let v = *zi;
                *zi = v.shl(w).or(carry);
                carry = v.shr(L::BITS - w);
            }
        } else {
            let t = &self.multiples[mult * k1..(mult + 1) * k1];
            let mut borrow = false;
            for (zi, &ti) in z.iter_mut().zip(t) {
                let v = *zi;
                let (r, b) = v.shl(w).or(carry).borrowing_sub(ti, borrow);
                *zi = r;
                borrow = b;
                carry = v.shr(L::BITS - w);
            }
            debug_assert!(!borrow);
        }
        debug_assert!(carry.is_zero());
    }

    /// `out = y mod N` for any `y` (`out` has `k` digits), from the top, `w` bits a step:
    /// `z = ⌊y/2^q⌋ < 2^n ≤ 2N` for `q` the least multiple of `w` with
    /// `q ≥ bits(y) − n`, then `q/w` steps of [`Hong::shift_in`] bring the rest of `y`
    /// in, each leaving `z < 2N`, and one conditional subtraction of `N` at the end.
    /// `z` is working space (grown to `k + 1` digits).
    fn reduce_top(&self, out: &mut [L], y: &[L], z: &mut Vec<L>) {
        let k = self.m.len();
        let len = crate::nat::normalized_len(y);
        if len < k || (len == k && kernels::cmp_n(&y[..k], self.m.limbs()).is_lt()) {
            out.fill(L::ZERO);
            out[..len].copy_from_slice(&y[..len]);
            return;
        }
        let bits = len as u64 * L::BITS as u64 - y[len - 1].leading_zeros() as u64;
        let w = self.w as u64;
        let steps = bits.saturating_sub(self.n).div_ceil(w);
        let q = steps * w;
        let z = zeroed(z, k + 1);
        // z = ⌊y / 2^q⌋ (at most n bits): uncounted shift.
        let (qd, qb) = ((q / L::BITS as u64) as usize, (q % L::BITS as u64) as u32);
        for (i, zi) in z.iter_mut().enumerate() {
            let lo = y.get(qd + i).copied().unwrap_or(L::ZERO);
            let hi = y.get(qd + i + 1).copied().unwrap_or(L::ZERO);
            *zi = if qb == 0 { lo } else { lo.shr(qb).or(hi.shl(L::BITS - qb)) };
        }
        for i in (0..steps).rev() {
            self.shift_in(z, bits_of(y, i * w, self.w) as u64);
        }
        if kernels::cmp_n(z, &self.m_pad).is_ge() {
            kernels::sub_assign_n(z, &self.m_pad);
        }
        debug_assert!(kernels::cmp_n(z, &self.m_pad).is_lt());
        out.copy_from_slice(&z[..k]);
    }

    /// The window table of the residue `a` (eq. 9): `T[0] = a`,
    /// `T[j] = T[j−1]·b mod N`, each by `log₂ b / w` steps of eq. 13 (no multiplication).
    pub fn window_table(&self, a: &[L]) -> WindowTable<L> {
        let k = self.m.len();
        self.window_table_in(a, vec![L::ZERO; k * k])
    }

    /// [`Hong::window_table`], or [`Error::OutOfMemory`] when the system refuses its `k²`
    /// digits: for the tables an exponentiation keeps.
    pub fn try_window_table(&self, a: &[L]) -> Result<WindowTable<L>, Error> {
        let k = self.m.len();
        Ok(self.window_table_in(a, try_zeroed(k * k, L::ZERO)?))
    }

    /// The window table of `a` in `entries`, `k²` zero digits.
    fn window_table_in(&self, a: &[L], mut entries: Vec<L>) -> WindowTable<L> {
        let k = self.m.len();
        debug_assert!(a.len() == k && entries.len() == k * k);
        entries[..k].copy_from_slice(a);
        let mut z = vec![L::ZERO; k + 1];
        let mut y = vec![L::ZERO; k + 1];
        for j in 1..k {
            // y = T[j−1]·b, then reduced from the top: log₂ b / w steps when N ≈ b^k.
            y[1..].copy_from_slice(&entries[(j - 1) * k..j * k]);
            let (_, rest) = entries.split_at_mut(j * k);
            self.reduce_top(&mut rest[..k], &y, &mut z);
        }
        WindowTable { entries }
    }

    /// Window modular multiplication (eq. 8): `out = c·A mod N` for a residue `c` and the
    /// table of `A`: `Σ c_j·T[j]` (exactly `k²` digit multiplications), then the final
    /// correction from the top with the multiples of `N`. `out` must not alias `c`.
    pub fn mul_by_table(
        &self,
        out: &mut [L],
        c: &[L],
        table: &WindowTable<L>,
        scratch: &mut Scratch<L>,
    ) {
        let k = self.m.len();
        debug_assert!(c.len() == k && table.entries.len() == k * k);
        let mut acc = core::mem::take(&mut scratch.product);
        // Σ c_j·T[j] < k·b·N < b^(k+3) for k < b².
        let y = zeroed(&mut acc, k + 3);
        for (j, &cj) in c.iter().enumerate() {
            let carry = kernels::addmul_1(&mut y[..k], &table.entries[j * k..(j + 1) * k], cj);
            kernels::add_1(&mut y[k..], carry);
        }
        self.reduce_top(out, y, &mut scratch.work);
        scratch.product = acc;
    }

    /// Modular squaring (eqs. 10–13): `out = c² mod N` for a residue `c`, with exactly
    /// `(k² + k)/2` digit multiplications. `out` must not alias `c`.
    ///
    /// With `C^(j) = ⌊c/b^j⌋` and `h = ⌈k/2⌉`: the base `(C^(h))² mod N` (eq. 11; a
    /// `⌊k/2⌋`-digit square), then for `j = h … 1`:
    /// `(C^(j−1))² mod N = ((C^(j))² mod N)·b² + 2c_{j−1}·C^(j)·b + c_{j−1}²`, reduced.
    pub fn sqr_paper(&self, out: &mut [L], c: &[L], scratch: &mut Scratch<L>) {
        let k = self.m.len();
        debug_assert!(c.len() == k && out.len() == k);
        let h = k.div_ceil(2);
        let kb = k - h;
        let mut buf = core::mem::take(&mut scratch.product);
        // r: the running (C^(j))² mod N; y: the value to reduce; both in `buf`.
        let total = k + (k + 3);
        let all = zeroed(&mut buf, total.max(2 * kb + k));
        {
            let (r, rest) = all.split_at_mut(k);
            if kb > 0 {
                let sq = &mut rest[..2 * kb];
                kernels::sqr_basecase(sq, &c[h..]);
                self.reduce_top(r, sq, &mut scratch.work);
            }
        }
        for j in (1..=h).rev() {
            let (r, rest) = all.split_at_mut(k);
            let y = &mut rest[..k + 3];
            y.fill(L::ZERO);
            y[2..k + 2].copy_from_slice(r);
            let cj = c[j - 1];
            let high = &c[j..]; // C^(j), k − j digits
            if !high.is_empty() {
                // 2·c_{j−1}·C^(j)·b with k − j multiplications: 2c fits a digit, or
                // 2c = b + (2c − b) and the b·C^(j) part is an addition.
                let top_bit = cj.shr(L::BITS - 1);
                let twice = cj.shl(1);
                let span = high.len();
                let carry = kernels::addmul_1(&mut y[1..1 + span], high, twice);
                kernels::add_1(&mut y[1 + span..], carry);
                if !top_bit.is_zero() {
                    let carry = kernels::add_assign_n(&mut y[2..2 + span], high);
                    if carry {
                        kernels::add_1(&mut y[2 + span..], L::ONE);
                    }
                }
            }
            let (lo, hi) = cj.widening_mul(cj);
            let c0 = kernels::add_1(&mut y[..], lo);
            debug_assert!(!c0);
            let c1 = kernels::add_1(&mut y[1..], hi);
            debug_assert!(!c1);
            self.reduce_top(r, y, &mut scratch.work);
        }
        out.copy_from_slice(&all[..k]);
        scratch.product = buf;
    }
}

/// Bits `lo .. lo + len` of `x` (`len ≤ 17`), as an integer; 0 beyond its end.
#[inline]
fn bits_of<L: Limb>(x: &[L], lo: u64, len: u32) -> usize {
    let mut v = 0u64;
    let mut got = 0u32;
    while got < len {
        let pos = lo + got as u64;
        let (d, s) = ((pos / L::BITS as u64) as usize, (pos % L::BITS as u64) as u32);
        let take = (len - got).min(L::BITS - s);
        let digit = x.get(d).map_or(0, |x| x.to_u64());
        v |= ((digit >> s) & ((1u64 << take) - 1)) << got;
        got += take;
    }
    v as usize
}

impl<L: Limb> Reducer<L> for Hong<L> {
    fn heap_bytes(&self) -> usize {
        self.m.heap_bytes()
            + crate::nat::vec_bytes(&self.m_pad)
            + crate::nat::vec_bytes(&self.multiples)
            + crate::nat::vec_bytes(&self.pointer)
    }

    /// The precalculation with the paper's `s = 2^8` ([`default_shift`]).
    fn new(m: &Nat<L>) -> Result<Self, Error> {
        Hong::with_shift(m, default_shift::<L>())
    }

    fn algorithm(&self) -> Algorithm {
        Algorithm::Hong
    }

    fn modulus(&self) -> &Nat<L> {
        &self.m
    }

    fn input_bound(&self) -> Bound<L> {
        Bound::Unbounded
    }

    /// `out = x mod N` for any `x`, by the table of multiples of `N` (see [`Hong`]).
    fn reduce_raw(&self, out: &mut [L], x: &[L], scratch: &mut Scratch<L>) {
        self.reduce_top(out, x, &mut scratch.work);
    }

    /// Builds the window table of `b` and multiplies `a` by it.
    fn mul(&self, out: &mut [L], a: &[L], b: &[L], scratch: &mut Scratch<L>) {
        let table = self.window_table(b);
        self.mul_by_table(out, a, &table, scratch);
    }

    /// The paper's modular squaring, [`Hong::sqr_paper`].
    fn sqr(&self, out: &mut [L], a: &[L], scratch: &mut Scratch<L>) {
        self.sqr_paper(out, a, scratch);
    }

    fn to_residue(&self, x: &Nat<L>) -> Vec<L> {
        let r = if *x < self.m { x.clone() } else { x.checked_rem(&self.m).unwrap_or_default() };
        r.to_padded(self.m.len()).unwrap_or_else(|| vec![L::ZERO; self.m.len()])
    }

    fn from_residue(&self, r: &[L]) -> Nat<L> {
        Nat::from_limbs(r)
    }
}
