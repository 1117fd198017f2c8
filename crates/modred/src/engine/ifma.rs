//! Montgomery exponentiation in radix 2^52 on AVX-512 IFMA (x86-64), for odd moduli of
//! [`MIN_BITS`] to [`MAX_BITS`] bits: the word-level Montgomery method (paper 000,
//! Algorithm 3, interleaved as CIOS) with 52-bit digits eight to a register, the almost
//! Montgomery multiplication of [`crate::kernels::arch::avx512_ifma::radix52`] (as OpenSSL's RSAZ code).
//!
//! Numbers are converted into radix 2^52 and into the representation `x·R' mod m`,
//! `R' = 2^(52n)`, once per exponentiation, and back once at its end; in between every
//! value is an *almost* reduced residue below `2m` (the final subtraction is deferred to the
//! end). Not a [`crate::reduce::Reducer`]: the reducers' residues are `u64` digits below
//! `m`, and converting at every multiplication would cost more than it saves for one product.
//! [`crate::Modulus`] uses it for the exponentiations of its Montgomery reducers when the
//! CPU has IFMA.

use crate::error::Error;
use crate::exp::{self, Method, MulSqr};
use crate::kernels;
use crate::kernels::arch::avx512_ifma::radix52::{
    self as ifma, DIGIT_BITS, DIGIT_MASK, LANES, MAX_REGS,
};
use crate::limb::Limb;
use crate::nat::Nat;
use crate::reduce::Scratch;
use alloc::vec;
use alloc::vec::Vec;

/// The smallest modulus (bits) this path takes. At 1024 bits and above it measured 2–7
/// times faster than the word-level (ADX) Montgomery exponentiation (`cargo bench -p
/// modred-bench --bench rsa_sizes`: `powm` against `powm-word`); 512 is a provisional bound
/// below which the fixed costs (the scalar normalization of every product, the
/// conversions) are expected to eat the gain — not yet measured: run the same bench with
/// `RSA_SIZES_BITS=256,384,512,768` to place it.
pub(crate) const MIN_BITS: u64 = 512;

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
    /// `q` and `r` of `64k = 52q + r`, `0 ≤ r < 52` (`k` the u64 digits of `m`): the
    /// vector steps and the bits of the last, scalar step of [`MontgomeryIfma::mul_word`].
    q: usize,
    r: u32,
    /// `−m⁻¹ mod 2^64`.
    m0inv64: u64,
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
    /// The steps of [`ifma::mul_word`], `⌈64k/52⌉`, where the CPU has AVX-512 VBMI and
    /// they fit in the digits (else [`MontgomeryIfma::mul_word`] takes the path with the
    /// scalar last step).
    word_steps: Option<usize>,
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
/// digit-level constant-time exponentiation (`RSA_SIZES_BITS=512 cargo bench -p
/// modred-bench --bench rsa_sizes`: `powm-ct` against `powm-ct-word`, one run, interleaved;
/// `docs/benchmarks.md`).
#[cfg_attr(not(x86_kernels), allow(dead_code))] // only `ct` / `Modulus` use it
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

/// `u64` digits of the widest `2m` (4158 bits + 1) and one more.
const WIDE: usize = (LANES * MAX_REGS * 52).div_ceil(64) + 1;

impl MontgomeryIfma {
    /// The bytes of its numbers on the heap (the engine's account; the `portable` build
    /// compiles this module for its tests only).
    #[cfg_attr(not(x86_kernels), allow(dead_code))]
    pub(crate) fn heap_bytes(&self) -> usize {
        [&self.m, &self.m64, &self.rr, &self.to_word, &self.one, &self.r_word]
            .into_iter()
            .map(crate::nat::vec_bytes)
            .sum()
    }

    /// The context for `m`, or `None` when the CPU lacks AVX-512 IFMA, `m` is even, or its
    /// size is outside [`MIN_BITS`]`..=`[`MAX_BITS`] or below this CPU's
    /// [`super::rule::ifma_min_bits`].
    #[cfg_attr(not(x86_kernels), allow(dead_code))] // only `Modulus` calls it
    pub(crate) fn new(m: &Nat<u64>) -> Option<Self> {
        if !Self::applies(m) {
            return None;
        }
        Self::new_unchecked_cpu(m)
    }

    /// Whether [`MontgomeryIfma::new`] gives a context for `m` on this CPU, without
    /// building it (for the selector's rules).
    #[cfg_attr(not(x86_kernels), allow(dead_code))] // read by the x86-64 rules
    pub(crate) fn applies(m: &Nat<u64>) -> bool {
        ifma::has_ifma()
            && m.is_odd()
            && (super::rule::ifma_min_bits()..=MAX_BITS).contains(&m.bits())
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
        let m0inv64 = m.limbs()[0].inverse_mod_b().wrapping_neg();
        let m0inv = m0inv64 & DIGIT_MASK;
        let rr = Nat::power_of_two(2 * DIGIT_BITS as u64 * n as u64).checked_rem(m)?;
        let word_bits = 64 * m.len();
        let (q, r) = (word_bits / DIGIT_BITS as usize, (word_bits % DIGIT_BITS as usize) as u32);
        debug_assert!((1..=len).contains(&q));
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
            q,
            r,
            m0inv64,
            to_word: to_radix52(to_word.limbs(), len),
            one: to_radix52(one.limbs(), len),
            r_word: to_radix52(r_word.limbs(), len),
            word_steps: Some((64 * m.len()).div_ceil(DIGIT_BITS as usize))
                .filter(|&steps| steps <= len && ifma::has_vbmi()),
        })
    }

    /// As [`MontgomeryIfma::new`] whatever the CPU: for [`Kernels::Portable`] (the
    /// valgrind check of the constant-time exponentiation, which cannot run AVX-512).
    #[cfg_attr(not(x86_kernels), allow(dead_code))] // only `ct` / `Modulus` use it
    pub(crate) fn new_any_cpu(m: &Nat<u64>) -> Option<Self> {
        Self::new_unchecked_cpu(m)
    }

    /// Digits per number (`8·regs`).
    fn len(&self) -> usize {
        self.m.len()
    }

    /// Digits per number (`8·regs`), each a `u64`.
    #[cfg_attr(not(x86_kernels), allow(dead_code))] // only `Modulus` uses it
    pub(crate) fn digits(&self) -> usize {
        self.len()
    }

    /// `out = AMM(a, b)` for the variable-time callers (`ifma::amm_vartime`).
    #[inline]
    fn amm(&self, out: &mut [u64], a: &[u64], b: &[u64]) {
        self.amm_steps(out, a, b, self.n);
    }

    /// `out = AMM(a, b)` in constant time on `kernels` (`ifma::amm`; the portable twin
    /// where the CPU lacks IFMA).
    #[inline]
    fn amm_on(&self, kernels: Kernels, out: &mut [u64], a: &[u64], b: &[u64]) {
        if kernels == Kernels::Portable || !ifma::has_ifma() {
            ifma::amm_portable(out, a, b, &self.m, self.m0inv, self.n);
            return;
        }
        // SAFETY: `has_ifma` said yes just above.
        unsafe { ifma::amm(out, a, b, &self.m, self.m0inv, self.n) }
    }

    /// `out = (a·b_lo + y·m)/2^(52·steps)`, `b_lo` the low `steps` digits of `b`: the
    /// kernel's loop over `steps ≤ len` digits of `b`; variable time
    /// (`ifma::amm_vartime`; the portable twin where the CPU lacks IFMA).
    #[inline]
    fn amm_steps(&self, out: &mut [u64], a: &[u64], b: &[u64], steps: usize) {
        if !ifma::has_ifma() {
            ifma::amm_portable(out, a, b, &self.m, self.m0inv, steps);
            return;
        }
        // SAFETY: `has_ifma` said yes just above.
        unsafe { ifma::amm_vartime(out, a, b, &self.m, self.m0inv, steps) }
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
    /// must be valid). Variable time: leaks the exponent. [`Error::OutOfMemory`] when the
    /// system refuses the window table.
    pub(crate) fn pow_vartime(
        &self,
        base: &Nat<u64>,
        e: &Nat<u64>,
        method: Method,
    ) -> Result<Nat<u64>, Error> {
        if e.is_zero() {
            return Ok(Nat::one()
                .checked_rem(&Nat::from_vec(self.m64.clone()))
                .unwrap_or_default());
        }
        let b = self.enter(base);
        let mut scratch = Scratch::new();
        let r = exp::pow_loops(self, &b, e, method, &mut scratch)?;
        Ok(self.leave(&r))
    }

    /// `out = a·b·2^(−64k) mod m` for `a, b < m` in `k` u64 digits (`k` those of `m`): the
    /// word-level Montgomery product ([`crate::reduce::Montgomery`]'s `mul`, same
    /// representation) through radix 2^52. No allocation: the 52-bit digits live on the stack.
    ///
    /// Where the CPU has AVX-512 VBMI (every IFMA CPU so far): [`ifma::mul_word`], the
    /// whole product in vector registers. With `n = ⌈64k/52⌉` steps and `e = 52n − 64k`,
    /// `a` is converted into radix 2^52 shifted up by `e` bits, so that `n` steps of the
    /// almost-Montgomery product give `(a·2^e·b + Y·m)/2^(52n) ≡ a·b·2^(−64k)`, below
    /// `m·m/2^(64k) + m < 2m`; the lanes are normalized, `m` subtracted once if needed, and
    /// the digits converted back, all in registers. (Measured at 1024 bits, one run,
    /// shared machine: 0.53–0.56× OpenSSL's `BN_mod_mul_montgomery`, where the path below
    /// took 0.99×; its scalar conversions, scalar last step and scalar normalization were
    /// more than half of its time.)
    ///
    /// Otherwise, with `64k = 52q + r` (`0 ≤ r < 52`): `q` almost-Montgomery steps on
    /// IFMA over the low `q` digits `b_lo` of `b` give `X = (a·b_lo + Y·m)/2^(52q) < 2m`
    /// (`Y < 2^(52q)`); then, in `u64` digits, the top digit `b_q < 2^r` of `b` is added in
    /// (`X += a·b_q`) and a last Montgomery step of `r` bits divides by `2^r` (`y =
    /// X·(−m⁻¹) mod 2^r`, `X = (X + y·m)/2^r`). The result is `(a·b + Y'·m)/2^(64k)` with
    /// `Y' = Y + y·2^(52q) < 2^(64k)`, so below `m·m/2^(64k) + m < 2m`: one final
    /// subtraction.
    pub(crate) fn mul_word(&self, out: &mut [u64], a: &[u64], b: &[u64]) {
        let k = self.m64.len();
        debug_assert!(a.len() == k && b.len() == k && out.len() == k);
        if let Some(steps) = self.word_steps {
            // SAFETY: `word_steps` is set only where `has_vbmi` said yes.
            unsafe { ifma::mul_word(out, Some(a), Some(b), &self.m, self.m0inv, steps) };
            return;
        }
        self.mul_word_scalar_tail(out, a, Some(b));
    }

    /// [`MontgomeryIfma::mul_word`] by the path with the scalar last step (`b = None`
    /// squares).
    fn mul_word_scalar_tail(&self, out: &mut [u64], a: &[u64], b: Option<&[u64]>) {
        let k = self.m64.len();
        let mut wide = [0u64; WIDE];
        self.product_wide(&mut wide[..k + 1], a, b);
        let (low, top) = wide[..k + 1].split_at(k);
        crate::reduce::montgomery::conditional_subtract(out, low, top[0] != 0, &self.m64);
    }

    /// `a = a·b·2^(−64k) mod m` (`b = None`: `a²·2^(−64k) mod m`) in place, as
    /// [`MontgomeryIfma::mul_word`].
    pub(crate) fn mul_word_assign(&self, a: &mut [u64], b: Option<&[u64]>) {
        let k = self.m64.len();
        debug_assert!(a.len() == k && b.is_none_or(|b| b.len() == k));
        if let Some(steps) = self.word_steps {
            // SAFETY: `word_steps` is set only where `has_vbmi` said yes.
            unsafe { ifma::mul_word(a, None, b, &self.m, self.m0inv, steps) };
            return;
        }
        let x = a.to_vec();
        self.mul_word_scalar_tail(a, &x, b);
    }

    /// `wide = a·b·2^(−64k) mod m` up to one `m` (below `2m`, `k + 1` u64 digits); `b =
    /// None` squares. See [`MontgomeryIfma::mul_word`].
    fn product_wide(&self, wide: &mut [u64], a: &[u64], b: Option<&[u64]>) {
        // Buffers of exactly the digits needed: zeroing the widest ones for every product
        // measured as a tenth of a 512-bit product.
        match self.len() / LANES {
            1 => self.product_wide_len::<8>(wide, a, b),
            2 => self.product_wide_len::<16>(wide, a, b),
            3 => self.product_wide_len::<24>(wide, a, b),
            4 => self.product_wide_len::<32>(wide, a, b),
            5 => self.product_wide_len::<40>(wide, a, b),
            6 => self.product_wide_len::<48>(wide, a, b),
            7 => self.product_wide_len::<56>(wide, a, b),
            8 => self.product_wide_len::<64>(wide, a, b),
            9 => self.product_wide_len::<72>(wide, a, b),
            _ => self.product_wide_len::<80>(wide, a, b),
        }
    }

    /// [`MontgomeryIfma::product_wide`] for `LEN = self.len()` digits.
    #[inline(always)]
    fn product_wide_len<const LEN: usize>(&self, wide: &mut [u64], a: &[u64], b: Option<&[u64]>) {
        debug_assert_eq!(LEN, self.len());
        let k = self.m64.len();
        let mut a_buf = [0u64; LEN];
        let mut b_buf = [0u64; LEN];
        let mut t_buf = [0u64; LEN];
        let (a52, t) = (&mut a_buf[..], &mut t_buf[..]);
        to_radix52_fast(a, a52);
        let b52: &[u64] = match b {
            Some(b) => {
                let d = &mut b_buf[..];
                to_radix52_fast(b, d);
                d
            }
            None => a52,
        };
        let b = b.unwrap_or(a);
        // X = (a·b_lo + Y·m)/2^(52q) < 2m.
        self.amm_steps(t, a52, b52, self.q);
        from_radix52_fast(t, wide);
        let r = self.r;
        if r == 0 {
            return; // 64k = 52q: b has no digit q (b < 2^(64k)).
        }
        // b_q = b >> (52q) < 2^r (b < 2^(64k)), digit q in radix 2^52 (0 when q = len).
        let bq = b52.get(self.q).copied().unwrap_or(0);
        debug_assert_eq!(bq, b[k - 1] >> (64 - r));
        // X + a·b_q + y·m < 2m + 2^(r+1)·m < 2^(64k + 53): no carry out of digit k.
        let c = kernels::addmul_1(&mut wide[..k], a, bq);
        wide[k] += c;
        let y = wide[0].wrapping_mul(self.m0inv64) & ((1u64 << r) - 1);
        let c = kernels::addmul_1(&mut wide[..k], &self.m64, y);
        wide[k] += c;
        debug_assert_eq!(wide[0] & ((1u64 << r) - 1), 0);
        for i in 0..k {
            wide[i] = (wide[i] >> r) | (wide[i + 1] << (64 - r));
        }
        wide[k] >>= r;
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

/// `x` (u64 digits) in the 52-bit digits `out`; `x` must fit.
fn to_radix52_into(x: &[u64], out: &mut [u64]) {
    super::radix::to_small_digits::<DIGIT_BITS>(x, out);
}

/// [`to_radix52_into`] with the byte permutations of AVX-512 VBMI where the CPU has them
/// ([`ifma::to_radix52_vbmi`]; `out.len()` a multiple of 8).
#[inline]
fn to_radix52_fast(x: &[u64], out: &mut [u64]) {
    if ifma::has_vbmi() {
        // SAFETY: `has_vbmi` said yes.
        unsafe { ifma::to_radix52_vbmi(x, out) }
    } else {
        to_radix52_into(x, out)
    }
}

/// [`from_radix52_into`] with the byte permutations of AVX-512 VBMI where the CPU has
/// them ([`ifma::from_radix52_vbmi`]; `d.len()` a multiple of 8).
#[inline]
fn from_radix52_fast(d: &[u64], out: &mut [u64]) {
    if ifma::has_vbmi() {
        // SAFETY: `has_vbmi` said yes.
        unsafe { ifma::from_radix52_vbmi(d, out) }
    } else {
        from_radix52_into(d, out)
    }
}

/// `x` (u64 digits) in `len` 52-bit digits; `x` must fit.
fn to_radix52(x: &[u64], len: usize) -> Vec<u64> {
    let mut out = vec![0; len];
    to_radix52_into(x, &mut out);
    out
}

/// 52-bit digits `d` (each below 2^52) as `len` u64 digits; the value must fit.
fn from_radix52(d: &[u64], len: usize) -> Vec<u64> {
    let mut out = vec![0u64; len];
    from_radix52_into(d, &mut out);
    out
}

/// 52-bit digits `d` (each below 2^52) into the u64 digits `out`; the value must fit.
/// Constant time in the digits' values.
fn from_radix52_into(d: &[u64], out: &mut [u64]) {
    super::radix::from_small_digits::<DIGIT_BITS>(d, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::Reducer;
    use modred_testkit::SplitMix64;
    use std::eprintln;

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
            for &n in &[
                len,
                len - 1,
                len.saturating_sub(2).max(1),
                len.saturating_sub(3).max(1),
                len.saturating_sub(5).max(1),
                // The fewest steps: the kernel's lag of two steps still to be flushed.
                1,
                2,
            ] {
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
                        let mut vartime = vec![0; len];
                        // SAFETY: as above.
                        unsafe { ifma::amm_vartime(&mut vartime, &ad, &bd, &md, m0inv, n) };
                        assert_eq!(vartime, slow, "vartime: regs {regs}, n {n}, case {i}");
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
                assert_eq!(
                    ctx.pow_vartime(&a, &e, method).unwrap(),
                    want,
                    "{bits} bits, {method:?}"
                );
            }
            assert_eq!(ctx.pow_vartime(&b, &Nat::from(2u64), Method::Binary).unwrap(), Nat::one());
            assert_eq!(ctx.pow_vartime(&Nat::zero(), &e, Method::Binary).unwrap(), Nat::zero());
            assert_eq!(ctx.pow_vartime(&a, &Nat::zero(), Method::Binary).unwrap(), Nat::one());
        }
    }

    /// The word-level Montgomery product through radix 2^52 (the one-pass vector kernel
    /// where the CPU has it, the path with the scalar last step, both in place too)
    /// against the separated Montgomery reducer, on random and edge residues (0, 1, m − 1,
    /// all-ones moduli), at sizes where `64k − 52n` takes each residue mod 52 it can.
    #[test]
    fn mul_word_matches_word_level_montgomery() {
        let mut rng = SplitMix64::new(0x3017);
        for bits in [512u64, 640, 768, 832, 1024, 1030, 1536, 2048, 2049, 3072, 4096, MAX_BITS] {
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
                        let mut tail = vec![0; k];
                        ctx.mul_word_scalar_tail(&mut tail, &rx, Some(&ry));
                        assert_eq!(tail, want, "{bits} bits, scalar last step");
                        let mut in_place = rx.clone();
                        ctx.mul_word_assign(&mut in_place, Some(&ry));
                        assert_eq!(in_place, want, "{bits} bits, in place");
                        ctx.mul_word(&mut fast, &rx, &rx);
                        Reducer::sqr(&mont, &mut want, &rx, &mut Scratch::new());
                        assert_eq!(fast, want, "{bits} bits, square");
                        ctx.mul_word_scalar_tail(&mut tail, &rx, None);
                        assert_eq!(tail, want, "{bits} bits, square, scalar last step");
                        let mut in_place = rx.clone();
                        ctx.mul_word_assign(&mut in_place, None);
                        assert_eq!(in_place, want, "{bits} bits, square in place");
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

#[cfg(test)]
mod vbmi_tests {
    use super::*;
    use modred_testkit::SplitMix64;
    use std::eprintln;

    #[test]
    fn vbmi_conversions_match_scalar() {
        if !ifma::has_vbmi() {
            eprintln!("no AVX-512 VBMI on this CPU: the vector conversions are not run");
            return;
        }
        let mut rng = SplitMix64::new(0x52);
        for regs in 1..=MAX_REGS {
            let len = 8 * regs;
            for k in 1..=(52 * len).div_ceil(64) + 1 {
                for case in 0..4 {
                    let x: Vec<u64> = (0..k)
                        .map(|_| match case {
                            0 => u64::MAX,
                            1 => 0,
                            _ => rng.next_u64(),
                        })
                        .collect();
                    // Only values that fit in len digits.
                    let mut x = x;
                    let bits = 52 * len;
                    for (i, w) in x.iter_mut().enumerate() {
                        let lo = 64 * i;
                        if lo >= bits {
                            *w = 0;
                        } else if bits - lo < 64 {
                            *w &= (1u64 << (bits - lo)) - 1;
                        }
                    }
                    let mut want = vec![0u64; len];
                    to_radix52_into(&x, &mut want);
                    let mut got = vec![!0u64; len];
                    // SAFETY: has_vbmi said yes.
                    unsafe { ifma::to_radix52_vbmi(&x, &mut got) };
                    assert_eq!(got, want, "to: regs {regs}, k {k}, case {case}");
                    // Back, into k words (when the value fits) or more.
                    for extra in 0..2 {
                        let mut back_want = vec![0u64; k + extra];
                        from_radix52_into(&want, &mut back_want);
                        let mut back = vec![!0u64; k + extra];
                        // SAFETY: as above.
                        unsafe { ifma::from_radix52_vbmi(&want, &mut back) };
                        assert_eq!(back, back_want, "from: regs {regs}, k {k}, case {case}");
                    }
                }
            }
        }
    }
}
