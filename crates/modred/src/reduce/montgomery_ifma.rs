//! Montgomery exponentiation in radix 2^52 on AVX-512 IFMA (x86-64), for odd moduli of
//! [`MIN_BITS`] to [`MAX_BITS`] bits: the word-level Montgomery method (paper 000,
//! Algorithm 3, interleaved as CIOS) with 52-bit digits eight to a register, the almost
//! Montgomery multiplication of [`crate::kernels::arch::ifma`] (as OpenSSL's RSAZ code).
//!
//! Numbers are converted into radix 2^52 and into the representation `x·R' mod m`,
//! `R' = 2^(52n)`, once per exponentiation, and back once at its end; in between every
//! value is an *almost* reduced residue below `2m` (the final subtraction is deferred to the
//! end). Not a [`super::Reducer`]: the reducers' residues are `u64` digits below `m`, and
//! converting at every multiplication would cost more than it saves for one product.
//! [`crate::Modulus`] uses it for the exponentiations of its Montgomery reducers when the
//! CPU has IFMA.

use super::Scratch;
use crate::exp::{self, Method, MulSqr};
use crate::kernels::arch::ifma::{self, DIGIT_BITS, DIGIT_MASK, LANES, MAX_REGS};
use crate::limb::Limb;
use crate::nat::Nat;

/// The smallest modulus (bits) this path takes. At 1024 bits and above it measured 2–7
/// times faster than the word-level (ADX) Montgomery exponentiation (`cargo bench -p
/// modred-bench --bench issue8`: `powm` against `powm-word`); 512 is a provisional bound
/// below which the fixed costs (the scalar normalization of every product, the
/// conversions) are expected to eat the gain — not yet measured: run the same bench with
/// `ISSUE8_BITS=256,384,512,768` to place it.
pub(crate) const MIN_BITS: u64 = 512;

/// The smallest modulus (bits) for which one Montgomery product ([`MontgomeryIfma::mul_word`],
/// two vector products and three conversions) beats the word-level one. Measured with
/// `cargo bench -p modred-bench --bench issue8` (one run, interleaved): `Modulus::mul` on
/// IFMA against the CIOS reducer 1.61× slower at 1024 bits, equal at 2048, 0.64× at
/// 4096 (0.57× at 3072 in an earlier run).
pub(crate) const MUL_MIN_BITS: u64 = 2049;

/// The largest modulus (bits): `4m ≤ 2^(52n)` with `n ≤ 80` digits, the lane-overflow bound
/// of [`ifma::amm`].
pub(crate) const MAX_BITS: u64 = 52 * (LANES * MAX_REGS) as u64 - 2;

/// Montgomery arithmetic modulo an odd `m` in radix 2^52 on AVX-512 IFMA.
#[derive(Clone, Debug)]
pub(crate) struct MontgomeryIfma {
    /// `m` in `8·regs` 52-bit digits.
    m: Vec<u64>,
    /// `m` in `u64` digits, for the final comparison.
    m64: Vec<u64>,
    /// `−m⁻¹ mod 2^52`.
    m0inv: u64,
    /// `R'² mod m` in 52-bit digits, `R' = 2^(52n)`.
    rr: Vec<u64>,
    /// `n`, the digit steps per multiplication: the fewest with `4m ≤ 2^(52n)`.
    n: usize,
    /// `2^(104n − 64k) mod m` in 52-bit digits (`k` the u64 digits of `m`): one almost
    /// Montgomery product with it turns `x·2^(−52n)` into `x·2^(−64k)`, the word-level
    /// Montgomery factor.
    to_word: Vec<u64>,
    /// `R' mod m` in 52-bit digits: the residue of 1 (the constant-time exponentiation's
    /// table entry 0).
    one: Vec<u64>,
    /// `2^(64k) mod m` in 52-bit digits: one almost Montgomery product with it turns
    /// `x·R'` into `x·2^(64k)`, the word-level representation.
    r_word: Vec<u64>,
}

/// Which kernels a computation runs on: the AVX-512 IFMA ones, or their portable twins
/// (same steps, same results, one digit at a time). Public: chosen by the caller, never
/// by a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernels {
    /// [`ifma::amm`] and [`ifma::select_ct`], where the CPU has IFMA (else the twins).
    Vector,
    /// [`ifma::amm_portable`] and [`ifma::select_ct_portable`].
    Portable,
}

/// The smallest modulus (bits) [`crate::ct::MontgomeryCt::pow`] takes this path for: the
/// smallest this context takes ([`MIN_BITS`]), where it already measured 0.65× the
/// digit-level constant-time exponentiation (`ISSUE8_BITS=512 cargo bench -p
/// modred-bench --bench issue8`: `powm-ct` against `powm-ct-word`, one run, interleaved;
/// `docs/benchmarks.md`).
#[cfg_attr(feature = "portable", allow(dead_code))] // only `ct` / `Modulus` use it
pub(crate) const CT_MIN_BITS: u64 = 512;

/// The window of the constant-time exponentiation for an exponent read as `ebits` bits
/// (public): 5 bits (a 32-entry table, as OpenSSL's RSAZ code) up to 3072 bits, 6 above.
/// By the count of products: at 4096 bits a 6-bit window saves `4096/5 − 4096/6 ≈ 137`
/// products for 32 more table products and scans of twice the length (a scan of 64
/// entries costs well under one product); at 2048 bits it would save 68 for the same 32
/// plus the scans. Chosen by that count, not by a measured sweep of `w`.
pub(crate) fn ct_window(ebits: usize) -> u32 {
    if ebits > 3072 {
        6
    } else {
        5
    }
}

impl MontgomeryIfma {
    /// The context for `m`, or `None` when the CPU lacks AVX-512 IFMA, `m` is even, or its
    /// size is outside [`MIN_BITS`]`..=`[`MAX_BITS`].
    #[cfg_attr(feature = "portable", allow(dead_code))] // only `Modulus` calls it
    pub(crate) fn new(m: &Nat<u64>) -> Option<Self> {
        if !ifma::has_ifma() {
            return None;
        }
        Self::new_unchecked_cpu(m)
    }

    /// As [`MontgomeryIfma::new`] without the CPU check (the tests build the context to
    /// run its portable twin).
    fn new_unchecked_cpu(m: &Nat<u64>) -> Option<Self> {
        let bits = m.bits();
        if !m.is_odd() || !(MIN_BITS..=MAX_BITS).contains(&bits) {
            return None;
        }
        let n = (bits as usize + 2).div_ceil(DIGIT_BITS as usize);
        let len = n.div_ceil(LANES) * LANES;
        // −m⁻¹ mod 2^52 from the 64-bit inverse (m⁻¹ mod 2^64 is m⁻¹ mod 2^52 too).
        let m0inv = m.limbs()[0].inverse_mod_b().wrapping_neg() & DIGIT_MASK;
        let rr = Nat::power_of_two(2 * DIGIT_BITS as u64 * n as u64).checked_rem(m)?;
        let shift = 2 * DIGIT_BITS as u64 * n as u64 - 64 * m.len() as u64;
        let to_word = Nat::power_of_two(shift).checked_rem(m)?;
        let one = Nat::power_of_two(DIGIT_BITS as u64 * n as u64).checked_rem(m)?;
        let r_word = Nat::power_of_two(64 * m.len() as u64).checked_rem(m)?;
        Some(MontgomeryIfma {
            m: to_radix52(m.limbs(), len),
            m64: m.limbs().to_vec(),
            m0inv,
            rr: to_radix52(rr.limbs(), len),
            n,
            to_word: to_radix52(to_word.limbs(), len),
            one: to_radix52(one.limbs(), len),
            r_word: to_radix52(r_word.limbs(), len),
        })
    }

    /// As [`MontgomeryIfma::new`] whatever the CPU: for [`Kernels::Portable`] (the
    /// valgrind check of the constant-time exponentiation, which cannot run AVX-512).
    #[cfg_attr(feature = "portable", allow(dead_code))] // only `ct` / `Modulus` use it
    pub(crate) fn new_any_cpu(m: &Nat<u64>) -> Option<Self> {
        Self::new_unchecked_cpu(m)
    }

    /// Whether [`MontgomeryIfma::mul_word`] pays for one product ([`MUL_MIN_BITS`]).
    #[cfg_attr(feature = "portable", allow(dead_code))] // only `ct` / `Modulus` use it
    pub(crate) fn mul_pays(&self) -> bool {
        self.m64.len() as u64 * 64 >= MUL_MIN_BITS
    }

    /// Digits per number (`8·regs`).
    fn len(&self) -> usize {
        self.m.len()
    }

    /// `out = AMM(a, b)`.
    #[inline]
    fn amm(&self, out: &mut [u64], a: &[u64], b: &[u64]) {
        self.amm_on(Kernels::Vector, out, a, b);
    }

    /// `out = AMM(a, b)` on `kernels` (the portable twin where the CPU lacks IFMA).
    #[inline]
    fn amm_on(&self, kernels: Kernels, out: &mut [u64], a: &[u64], b: &[u64]) {
        if kernels == Kernels::Portable || !ifma::has_ifma() {
            ifma::amm_portable(out, a, b, &self.m, self.m0inv, self.n);
            return;
        }
        // SAFETY: `has_ifma` said yes just above.
        unsafe { ifma::amm(out, a, b, &self.m, self.m0inv, self.n) }
    }

    /// `out = table[idx]` by a full masked scan on `kernels` (see [`ifma::select_ct`]).
    #[inline]
    fn select_on(kernels: Kernels, out: &mut [u64], table: &[u64], idx: u64) {
        if kernels == Kernels::Portable || !ifma::has_ifma() {
            ifma::select_ct_portable(out, table, idx);
            return;
        }
        // SAFETY: `has_ifma` (which implies AVX-512F) said yes just above.
        unsafe { ifma::select_ct(out, table, idx) }
    }

    /// `out = base^e·2^(64k) mod m` for `base = x·2^(64k) mod m` (the word-level
    /// Montgomery representation of [`crate::ct::MontgomeryCt`], `k` u64 digits below `m`),
    /// in constant time: no branch and no memory address depends on the digits of `base` or
    /// `e`; the time depends on `k` and `e.len()` only. `e` is read as exactly
    /// `64·e.len()` bits.
    ///
    /// The method of [`crate::ct::MontgomeryCt::pow`] (a fixed window, a masked scan of the
    /// whole table for every window) in radix 2^52 with almost Montgomery products, as
    /// OpenSSL's RSAZ exponentiation: `base` is converted once (`AMM(base, 2^(104n − 64k))
    /// = x·R'`), the table `T[j] = x^j·R'` (below `2m`) built by `2^w − 2` products, then
    /// for each window of [`ct_window`] bits, most significant first, `w` squarings, a scan
    /// of all of `T` and one product; the top window is only a scan. Every intermediate
    /// value stays below `2m` ([`ifma::amm`]'s bound), so there is no data-dependent
    /// subtraction on the way; at the end `AMM(acc, 2^(64k) mod m) ≡ x^e·2^(64k)`, below
    /// `2m`, is converted to u64 digits and reduced below `m` by one subtraction kept or
    /// undone by a mask.
    ///
    /// Panics when a length is wrong.
    pub(crate) fn pow_ct_word(&self, kernels: Kernels, out: &mut [u64], base: &[u64], e: &[u64]) {
        let (len, k) = (self.len(), self.m64.len());
        assert!(
            base.len() == k && out.len() == k,
            "constant-time exponentiation: residue lengths must equal the modulus width"
        );
        let ebits = e.len() * 64;
        let w = ct_window(ebits) as usize;
        let entries = 1usize << w;
        let mut table = vec![0u64; entries * len];
        let mut x = vec![0u64; len];
        to_radix52_into(base, &mut x);
        table[..len].copy_from_slice(&self.one);
        self.amm_on(kernels, &mut table[len..2 * len], &x, &self.to_word);
        for j in 2..entries {
            let (done, rest) = table.split_at_mut(j * len);
            self.amm_on(kernels, &mut rest[..len], &done[(j - 1) * len..], &done[len..2 * len]);
        }
        // The window digits, read at public positions only.
        let bit = |i: usize| -> u64 {
            if i >= ebits {
                return 0;
            }
            (e[i / 64] >> (i % 64)) & 1
        };
        let digit = |wi: usize| -> u64 { (0..w).fold(0, |d, j| d | (bit(wi * w + j) << j)) };
        let windows = ebits.div_ceil(w);
        let mut acc = self.one.clone();
        let mut tmp = vec![0u64; len];
        if windows > 0 {
            Self::select_on(kernels, &mut acc, &table, digit(windows - 1));
        }
        let mut entry = vec![0u64; len];
        for wi in (0..windows.saturating_sub(1)).rev() {
            for _ in 0..w {
                self.amm_on(kernels, &mut tmp, &acc, &acc);
                core::mem::swap(&mut acc, &mut tmp);
            }
            Self::select_on(kernels, &mut entry, &table, digit(wi));
            self.amm_on(kernels, &mut tmp, &acc, &entry);
            core::mem::swap(&mut acc, &mut tmp);
        }
        // Back to the word-level representation, below 2m < 2^(64k + 1).
        self.amm_on(kernels, &mut tmp, &acc, &self.r_word);
        let mut wide = vec![0u64; k + 1];
        from_radix52_into(&tmp, &mut wide);
        let top = wide[k] & 1;
        let borrow = crate::kernels::sub_n(out, &wide[..k], &self.m64) as u64;
        // Keep the value as it was (undo the subtraction) iff it is below m.
        let keep = (top ^ 1) & borrow;
        let mask = core::hint::black_box(0u64.wrapping_sub(keep));
        for (o, &v) in out.iter_mut().zip(&wide[..k]) {
            *o = (*o & !mask) | (v & mask);
        }
    }

    /// The representation `x·R' mod m` (below `2m`) of `x < m`.
    fn enter(&self, x: &Nat<u64>) -> Vec<u64> {
        let mut out = vec![0; self.len()];
        self.amm(&mut out, &to_radix52(x.limbs(), self.len()), &self.rr);
        out
    }

    /// The value `< m` an almost reduced residue `v < 2m` stands for.
    fn leave(&self, v: &[u64]) -> Nat<u64> {
        let mut one = vec![0; self.len()];
        one[0] = 1;
        let mut out = vec![0; self.len()];
        // (v + y·m)/R' < 2m/R' + m: at most m, and m only for v ≡ 0.
        self.amm(&mut out, v, &one);
        let x = Nat::from_vec(from_radix52(&out, self.m64.len() + 1));
        if x.limbs() == self.m64.as_slice() {
            Nat::zero()
        } else {
            x
        }
    }

    /// `base^e mod m` for `base < m`, by `method` (as [`exp::pow_vartime`]; the window
    /// must be valid). Variable time: leaks the exponent.
    pub(crate) fn pow_vartime(&self, base: &Nat<u64>, e: &Nat<u64>, method: Method) -> Nat<u64> {
        if e.is_zero() {
            return Nat::one().checked_rem(&Nat::from_vec(self.m64.clone())).unwrap_or_default();
        }
        let b = self.enter(base);
        let mut scratch = Scratch::new();
        let r = exp::pow_loops(self, &b, e, method, &mut scratch);
        self.leave(&r)
    }

    /// `out = a·b·2^(−64k) mod m` for `a, b < m` in `k` u64 digits (`k` those of `m`): the
    /// word-level Montgomery product ([`super::Montgomery`]'s `mul`, same representation),
    /// by two almost Montgomery products in radix 2^52 — `t = AMM(a, b) = a·b·2^(−52n)`,
    /// then `AMM(t, 2^(104n − 64k)) = a·b·2^(−64k)` — and one final subtraction. No
    /// allocation: the 52-bit digits live on the stack.
    pub(crate) fn mul_word(&self, out: &mut [u64], a: &[u64], b: &[u64]) {
        let len = self.len();
        let k = self.m64.len();
        debug_assert!(a.len() == k && b.len() == k && out.len() == k);
        let mut buf = [[0u64; LANES * MAX_REGS]; 3];
        let [a52, b52, t] = &mut buf;
        let (a52, b52, t) = (&mut a52[..len], &mut b52[..len], &mut t[..len]);
        to_radix52_into(a, a52);
        if core::ptr::eq(a, b) {
            self.amm(t, a52, a52);
        } else {
            to_radix52_into(b, b52);
            self.amm(t, a52, b52);
        }
        self.amm(a52, t, &self.to_word);
        // Below 2m: at most k + 1 u64 digits, then one subtraction of m when ≥ m.
        let mut wide = [0u64; (LANES * MAX_REGS * 52).div_ceil(64) + 1];
        let wide = &mut wide[..k + 1];
        from_radix52_into(a52, wide);
        let (low, top) = wide.split_at_mut(k);
        super::montgomery::conditional_subtract(out, low, top[0] != 0, &self.m64);
    }

    /// `a·b mod m` for `a, b < m`.
    #[cfg(test)]
    fn mul_mod(&self, a: &Nat<u64>, b: &Nat<u64>) -> Nat<u64> {
        let (a, b) = (self.enter(a), self.enter(b));
        let mut p = vec![0; self.len()];
        self.amm(&mut p, &a, &b);
        self.leave(&p)
    }
}

impl MulSqr<u64> for MontgomeryIfma {
    #[inline]
    fn mul(&self, out: &mut [u64], a: &[u64], b: &[u64], _: &mut Scratch<u64>) {
        self.amm(out, a, b);
    }
    #[inline]
    fn sqr(&self, out: &mut [u64], a: &[u64], _: &mut Scratch<u64>) {
        self.amm(out, a, a);
    }
}

/// `x` (u64 digits) in `len` 52-bit digits; `x` must fit.
fn to_radix52(x: &[u64], len: usize) -> Vec<u64> {
    let mut out = vec![0; len];
    to_radix52_into(x, &mut out);
    out
}

/// `x` (u64 digits) in the 52-bit digits `out`; `x` must fit.
fn to_radix52_into(x: &[u64], out: &mut [u64]) {
    for (j, o) in out.iter_mut().enumerate() {
        let bit = j * DIGIT_BITS as usize;
        let (w, s) = (bit / 64, bit % 64);
        let lo = x.get(w).map_or(0, |&v| v >> s);
        let hi = if s > 64 - DIGIT_BITS as usize {
            x.get(w + 1).map_or(0, |&v| v << (64 - s))
        } else {
            0
        };
        *o = (lo | hi) & DIGIT_MASK;
    }
}

/// 52-bit digits `d` (each below 2^52) as `len` u64 digits; the value must fit.
fn from_radix52(d: &[u64], len: usize) -> Vec<u64> {
    let mut out = vec![0u64; len];
    from_radix52_into(d, &mut out);
    out
}

/// 52-bit digits `d` (each below 2^52) into the u64 digits `out`; the value must fit.
/// Constant time in the digits' values: every branch depends on positions only.
fn from_radix52_into(d: &[u64], out: &mut [u64]) {
    out.fill(0);
    for (j, &v) in d.iter().enumerate() {
        let bit = j * DIGIT_BITS as usize;
        let (w, s) = (bit / 64, bit % 64);
        let Some(o) = out.get_mut(w) else {
            debug_assert_eq!(v, 0, "the value does not fit");
            continue;
        };
        *o |= v << s;
        if s > 64 - DIGIT_BITS as usize {
            match out.get_mut(w + 1) {
                Some(o) => *o |= v >> (64 - s),
                None => debug_assert_eq!(v >> (64 - s), 0, "the value does not fit"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::Reducer;
    use crate::rng::SplitMix64;

    fn random_nat(rng: &mut SplitMix64, bits: u64) -> Nat<u64> {
        let words = bits.div_ceil(64) as usize;
        let mut v: Vec<u64> = (0..words).map(|_| rng.next_u64()).collect();
        let top = bits % 64;
        if top != 0 {
            v[words - 1] &= (1u64 << top) - 1;
        }
        Nat::from_vec(v)
    }

    fn odd_modulus(rng: &mut SplitMix64, bits: u64) -> Nat<u64> {
        let mut v = random_nat(rng, bits).into_limbs();
        v.resize(bits.div_ceil(64) as usize, 0);
        v[0] |= 1;
        let top = (bits - 1) % 64;
        *v.last_mut().unwrap() |= 1 << top;
        Nat::from_vec(v)
    }

    #[test]
    fn radix52_round_trip() {
        let mut rng = SplitMix64::new(52);
        for bits in [1u64, 52, 64, 104, 500, 1024, 4096] {
            let x = random_nat(&mut rng, bits);
            let len = (bits as usize).div_ceil(52).div_ceil(8) * 8;
            let d = to_radix52(x.limbs(), len);
            assert!(d.iter().all(|&v| v <= DIGIT_MASK));
            assert_eq!(Nat::from_vec(from_radix52(&d, bits.div_ceil(64) as usize)), x);
        }
    }

    /// The IFMA kernel against its portable twin, digit for digit, on random and edge
    /// operands (all-ones digits, m − 1, 0, values up to 2m − 1), every register count.
    #[test]
    fn amm_matches_portable_twin() {
        if !ifma::has_ifma() {
            eprintln!(
                "no AVX-512 IFMA on this CPU: the kernel is not run (the twin is tested below)"
            );
            return;
        }
        let mut rng = SplitMix64::new(0x1f3a);
        for regs in 1..=MAX_REGS {
            let len = 8 * regs;
            for &n in &[len, len - 1, len.saturating_sub(5).max(1)] {
                let bits = 52 * n as u64 - 2;
                for round in 0..8 {
                    let m = if round == 0 {
                        Nat::power_of_two(bits).checked_sub(&Nat::one()).unwrap()
                    // all ones
                    } else {
                        odd_modulus(&mut rng, bits - (round % 3) * 17)
                    };
                    let md = to_radix52(m.limbs(), len);
                    let m0inv = m.limbs()[0].inverse_mod_b().wrapping_neg() & DIGIT_MASK;
                    let two_m = m.shl(1);
                    let edge = |i: u32, rng: &mut SplitMix64| -> Nat<u64> {
                        match i {
                            0 => Nat::zero(),
                            1 => m.checked_sub(&Nat::one()).unwrap(),
                            2 => two_m.checked_sub(&Nat::one()).unwrap(),
                            3 => Nat::one(),
                            _ => random_nat(rng, bits + 1).checked_rem(&two_m).unwrap(),
                        }
                    };
                    for i in 0..7 {
                        let (a, b) = (edge(i, &mut rng), edge((i + 3) % 7, &mut rng));
                        let (ad, bd) = (to_radix52(a.limbs(), len), to_radix52(b.limbs(), len));
                        let (mut fast, mut slow) = (vec![0; len], vec![0; len]);
                        // SAFETY: the CPU has IFMA (checked at the top).
                        unsafe { ifma::amm(&mut fast, &ad, &bd, &md, m0inv, n) };
                        ifma::amm_portable(&mut slow, &ad, &bd, &md, m0inv, n);
                        assert_eq!(fast, slow, "regs {regs}, n {n}, round {round}, case {i}");
                        // And the value: a·b·2^(−52n) mod m, below 2m.
                        let v = Nat::from_vec(from_radix52(&fast, len));
                        assert!(v < two_m);
                        let lhs = v.shl(52 * n as u64).checked_rem(&m).unwrap();
                        assert_eq!(lhs, a.mul(&b).checked_rem(&m).unwrap());
                    }
                }
            }
        }
    }

    /// Multiplication and exponentiation through the context (the IFMA kernel where the
    /// CPU has it, else the portable twin) against plain `Nat` arithmetic.
    #[test]
    fn pow_and_mul_agree_with_nat() {
        let mut rng = SplitMix64::new(0x7a11);
        for bits in [512u64, 700, 1024, 1500, 2048, 3072, 4094, MAX_BITS] {
            let m = odd_modulus(&mut rng, bits);
            let ctx = MontgomeryIfma::new_unchecked_cpu(&m).unwrap();
            let a = random_nat(&mut rng, bits).checked_rem(&m).unwrap();
            let b = m.checked_sub(&Nat::one()).unwrap();
            assert_eq!(ctx.mul_mod(&a, &b), a.mul(&b).checked_rem(&m).unwrap());
            assert_eq!(ctx.mul_mod(&b, &b), Nat::one());
            let e = random_nat(&mut rng, 80);
            let want = Nat::from_vec(
                crate::exp::pow_vartime(
                    &crate::reduce::Classical::new(&m).unwrap(),
                    &a.to_padded(m.len()).unwrap(),
                    &e,
                    Method::SlidingWindow(4),
                )
                .unwrap(),
            );
            for method in [Method::Binary, Method::FixedWindow(5), Method::SlidingWindow(6)] {
                assert_eq!(ctx.pow_vartime(&a, &e, method), want, "{bits} bits, {method:?}");
            }
            assert_eq!(ctx.pow_vartime(&b, &Nat::from(2u64), Method::Binary), Nat::one());
            assert_eq!(ctx.pow_vartime(&Nat::zero(), &e, Method::Binary), Nat::zero());
            assert_eq!(ctx.pow_vartime(&a, &Nat::zero(), Method::Binary), Nat::one());
        }
    }

    /// The word-level Montgomery product through radix 2^52 against the separated
    /// Montgomery reducer, on random and edge residues (0, 1, m − 1, all-ones moduli).
    #[test]
    fn mul_word_matches_word_level_montgomery() {
        let mut rng = SplitMix64::new(0x3017);
        for bits in [512u64, 640, 1024, 1030, 2048, 2049, 3072, 4096, MAX_BITS] {
            for round in 0..3 {
                let m = if round == 0 {
                    Nat::power_of_two(bits).checked_sub(&Nat::one()).unwrap()
                } else {
                    odd_modulus(&mut rng, bits)
                };
                let ctx = MontgomeryIfma::new_unchecked_cpu(&m).unwrap();
                let mont = crate::reduce::Montgomery::new(&m).unwrap();
                let k = m.len();
                let values = [
                    Nat::zero(),
                    Nat::one(),
                    m.checked_sub(&Nat::one()).unwrap(),
                    random_nat(&mut rng, bits).checked_rem(&m).unwrap(),
                    random_nat(&mut rng, bits).checked_rem(&m).unwrap(),
                ];
                for x in &values {
                    for y in &values {
                        let (rx, ry) = (mont.to_residue(x), mont.to_residue(y));
                        let (mut fast, mut want) = (vec![0; k], vec![0; k]);
                        ctx.mul_word(&mut fast, &rx, &ry);
                        Reducer::mul(&mont, &mut want, &rx, &ry, &mut Scratch::new());
                        assert_eq!(fast, want, "{bits} bits");
                        ctx.mul_word(&mut fast, &rx, &rx);
                        Reducer::sqr(&mont, &mut want, &rx, &mut Scratch::new());
                        assert_eq!(fast, want, "{bits} bits, square");
                    }
                }
            }
        }
    }

    /// The masked table scan, vector and portable, against plain indexing: every index of
    /// tables of 32 and 64 entries, every register count.
    #[test]
    fn select_ct_matches_indexing() {
        let mut rng = SplitMix64::new(0x5e1);
        for regs in 1..=MAX_REGS {
            let len = 8 * regs;
            for entries in [1usize, 32, 64] {
                let table: Vec<u64> = (0..entries * len).map(|_| rng.next_u64()).collect();
                for idx in 0..entries {
                    let want = &table[idx * len..(idx + 1) * len];
                    let mut got = vec![0; len];
                    ifma::select_ct_portable(&mut got, &table, idx as u64);
                    assert_eq!(got, want);
                    if ifma::has_ifma() {
                        let mut fast = vec![0; len];
                        // SAFETY: the CPU has IFMA (so AVX-512F).
                        unsafe { ifma::select_ct(&mut fast, &table, idx as u64) };
                        assert_eq!(fast, want);
                    }
                }
            }
        }
    }

    /// The constant-time exponentiation on both kernels against the variable-time one
    /// (word-level representation in and out), edge exponents and bases.
    #[test]
    fn pow_ct_word_matches_vartime() {
        let mut rng = SplitMix64::new(0xc7c7);
        for bits in [512u64, 1000, 2048, 3100, MAX_BITS] {
            let m = odd_modulus(&mut rng, bits);
            let ctx = MontgomeryIfma::new_unchecked_cpu(&m).unwrap();
            let mont = crate::reduce::Montgomery::new(&m).unwrap();
            let k = m.len();
            let all_ones = vec![u64::MAX; k];
            let m1 = m.checked_sub(&Nat::one()).unwrap();
            let exps: [Vec<u64>; 4] =
                [vec![0; k], Nat::one().to_padded(k).unwrap(), all_ones, m1.to_padded(k).unwrap()];
            for x in [Nat::zero(), m1.clone(), random_nat(&mut rng, bits).checked_rem(&m).unwrap()]
            {
                let base = mont.to_residue(&x);
                for e in &exps {
                    let want = crate::exp::pow_vartime(
                        &mont,
                        &base,
                        &Nat::from_limbs(e),
                        Method::SlidingWindow(5),
                    )
                    .unwrap();
                    for kernels in [Kernels::Vector, Kernels::Portable] {
                        let mut got = vec![0; k];
                        ctx.pow_ct_word(kernels, &mut got, &base, e);
                        assert_eq!(got, want, "{bits} bits, {kernels:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn sizes_outside_the_range_and_even_moduli_are_refused() {
        let mut rng = SplitMix64::new(3);
        assert!(MontgomeryIfma::new_unchecked_cpu(&odd_modulus(&mut rng, MIN_BITS - 1)).is_none());
        assert!(MontgomeryIfma::new_unchecked_cpu(&odd_modulus(&mut rng, MAX_BITS + 1)).is_none());
        assert!(MontgomeryIfma::new_unchecked_cpu(&Nat::power_of_two(1024)).is_none());
    }
}
