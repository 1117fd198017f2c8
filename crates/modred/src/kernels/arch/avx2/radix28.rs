//! The almost Montgomery product in radix 2^28 on AVX2: four digits to a 256-bit register,
//! each digit below 2^28 in a 64-bit lane, products by `vpmuludq` (32 × 32 → 64 bits),
//! sums of up to `2n` of them kept exactly in the 64-bit lanes (the column sums are
//! normalized only at the end). The method of OpenSSL's `rsaz-avx2` (radix 2^29), for
//! CPUs with AVX2 and without BMI2/ADX, where the scalar product has no MULX/ADCX/ADOX.
//!
//! [`amm`] computes `a·b·2^(−28n) mod m` or that plus `m` (below `2m`) for `a, b < 2m`
//! with `2^(28n) > 4m` (Montgomery's product without its final subtraction, so that the
//! output can be an input again), by operand scanning four rows at a time:
//!
//! - product rows `i … i+3`: every column from `i` on gets `Σ_g a_(i+g)·b_(j−g)`, the four
//!   shifted operands read by unaligned loads of `b` (stored with four zero digits in
//!   front), so that the running sum `t` is loaded and stored once per four rows, four
//!   columns at a time;
//! - reduction steps `s … s+3` right after (the columns below `s + 4` are final once the
//!   product rows up to `s + 3` are in): the four quotient digits `u = t_s·m' mod 2^28`
//!   come from the four low columns in scalar registers, each adding its carry and its
//!   products with `m_0 … m_3` into the columns still below `s + 4`; the products of the
//!   four `u` with the rest of `m` go to the columns from `s + 4` on, four rows at a time
//!   as the product's.
//!
//! Up to 40 digits (1116-bit moduli) [`amm`] keeps the running sum in registers instead,
//! word by word (`amm_regs`).
//!
//! The scalar model `amm_model` (built for the tests) computes the same digit by digit (the
//! value is unique, whatever the order of the additions); the tests compare the two.

use core::arch::x86_64::*;

/// Bits of a digit.
pub(crate) const DIGIT_BITS: u32 = 28;

/// `2^28 − 1`.
pub(crate) const DIGIT_MASK: u64 = (1 << DIGIT_BITS) - 1;

/// The most digits [`amm`] takes: a column sums at most `2n` products below `2^56` and a
/// carry below `2^37`, which stays below `2^64` for `n ≤ 127`; 76 digits hold a 2048-bit
/// modulus with `2^(28n) > 4m`.
pub(crate) const MAX_DIGITS: usize = 76;

/// Digits of working space [`amm`] needs for `n` digits.
pub(crate) const fn scratch_len(n: usize) -> usize {
    2 * n + 8
}

/// Digits of a padded operand (four zero digits in front, four behind) for `n` digits.
pub(crate) const fn padded_len(n: usize) -> usize {
    n + 8
}

/// The almost Montgomery product `out = a·b·2^(−28n) mod m`, below `2m`, in normalized
/// digits (each below `2^28`): Montgomery's reduction (paper 000, Algorithm 3, with `b =
/// 2^28`) interleaved with the product four digits at a time (CIOS, Koç–Acar–Kaliski
/// 1996; not in the papers), without the final subtraction. Input: `a, b < 2m` in `n`
/// normalized digits, `n` a multiple of 4 up to [`MAX_DIGITS`], `m` odd with `2^(28n) >
/// 4m` and `m0inv = −m^(−1) mod 2^28`. `bp` and `mp` are `b` and `m` padded ([`padded_len`]: four zero
/// digits, the `n` digits, four zero digits); `t` is working space of [`scratch_len`]
/// digits (any contents). Constant time: no branch or address depends on the values.
///
/// # Safety
/// The CPU must support AVX2.
///
/// # Panics
/// If a length is wrong or `n` is not a multiple of 4 up to [`MAX_DIGITS`].
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn amm(
    out: &mut [u64],
    a: &[u64],
    bp: &[u64],
    mp: &[u64],
    m0inv: u64,
    t: &mut [u64],
) {
    let n = a.len();
    assert!(
        n % 4 == 0
            && (4..=MAX_DIGITS).contains(&n)
            && out.len() == n
            && bp.len() == padded_len(n)
            && mp.len() == padded_len(n)
            && t.len() >= scratch_len(n),
        "amm: operand lengths"
    );
    // SAFETY: (every arm) AVX2 (the caller's guarantee) and the lengths asserted above.
    unsafe {
        match n / 4 {
            1 => return amm_regs::<1>(out, a, bp, mp, m0inv),
            2 => return amm_regs::<2>(out, a, bp, mp, m0inv),
            3 => return amm_regs::<3>(out, a, bp, mp, m0inv),
            4 => return amm_regs::<4>(out, a, bp, mp, m0inv),
            5 => return amm_regs::<5>(out, a, bp, mp, m0inv),
            6 => return amm_regs::<6>(out, a, bp, mp, m0inv),
            7 => return amm_regs::<7>(out, a, bp, mp, m0inv),
            8 => return amm_regs::<8>(out, a, bp, mp, m0inv),
            9 => return amm_regs::<9>(out, a, bp, mp, m0inv),
            10 => return amm_regs::<10>(out, a, bp, mp, m0inv),
            _ => {}
        }
    }
    let t = &mut t[..scratch_len(n)];
    t.fill(0);
    let blocks = n / 4;
    // The carry out of the last reduction group, into column s + 4.
    let mut carry = 0u64;
    // SAFETY: the caller guarantees AVX2. Every access is within the slices, by the
    // assertion above: the vector at column `s + 4p` (p ≤ n/4, s ≤ n − 4) ends at column
    // 2n − 1 < 2n + 8; the operand loads at b's and m's digit `4p − g` (g ≤ 3) read
    // padded digits −3 … n + 3 of the n + 8, behind the four in front.
    unsafe {
        let tp = t.as_mut_ptr();
        let (b0, m0) = (bp.as_ptr().add(4), mp.as_ptr().add(4));
        for group in 0..blocks {
            let s = 4 * group;
            // Product rows s … s+3 into the columns s … s+n+3 (blocks + 1 vectors).
            let a4 = [a[s], a[s + 1], a[s + 2], a[s + 3]];
            add_four_rows(tp.add(s), a4, b0, 0..=blocks);
            // Reduction steps s … s+3: the four low columns in registers.
            let mut c = [*tp.add(s) + carry, *tp.add(s + 1), *tp.add(s + 2), *tp.add(s + 3)];
            let mut u = [0u64; 4];
            for g in 0..4 {
                u[g] = c[g].wrapping_mul(m0inv) & DIGIT_MASK;
                // Column s + g is now a multiple of 2^28: its carry goes one column up.
                let up = (c[g] + u[g] * *m0) >> DIGIT_BITS;
                if g < 3 {
                    c[g + 1] += up;
                } else {
                    carry = up;
                }
                for j in 1..4 - g {
                    c[g + j] += u[g] * *m0.add(j);
                }
            }
            // Columns s + 4 on: Σ_g u_g·m_(j − g) for j ≥ 4, as the product's rows.
            add_four_rows(tp.add(s), u, m0, 1..=blocks);
        }
    }
    // The value is (carry + columns n … 2n − 1)·2^(28n): normalized into n digits (it is
    // below 2m < 2^(28n), so nothing is left over).
    let mut up = carry;
    for (o, &v) in out.iter_mut().zip(&t[n..2 * n]) {
        let v = v + up;
        *o = v & DIGIT_MASK;
        up = v >> DIGIT_BITS;
    }
    debug_assert!(up == 0 && t[2 * n..].iter().all(|&d| d == 0));
}

/// `$body` for `$j` = `$from` … `$to` (at most 10), written out: the accumulators stay
/// in registers only when every index is a constant.
macro_rules! unrolled_upto {
    ($j:ident, $from:expr, $to:expr, $body:block) => {
        unrolled_upto!(@ $j, $from, $to, $body; 0 1 2 3 4 5 6 7 8 9 10)
    };
    (@ $j:ident, $from:expr, $to:expr, $body:block; $($k:literal)*) => {
        $(
            #[allow(unused_comparisons)]
            if $k >= $from && $k <= $to {
                let $j: usize = $k;
                $body
            }
        )*
    };
}

/// [`amm`] for `n = 4·NV ≤ 40` digits (moduli up to 1116 bits) with the running sum in
/// registers, word by word (paper 000, Algorithm 3 with `b = 2^28`, interleaved with the
/// product as CIOS; the same value as [`amm`] and the tests' `amm_model`). For each group of
/// four digits `a_s … a_(s+3)`:
///
/// 1. the four rows `a_(s+g)·b` are added to `NV + 1` accumulators of four columns each,
///    `b` moved `g` lanes up by an unaligned load of its padded copy;
/// 2. the four quotient digits `u_g = c_g·m' mod 2^28` come from the low accumulator's
///    four columns in scalar registers, each column `c_g` plus the carry out of the one
///    below and the products of the group's earlier `u` with `m_1 … m_3`;
/// 3. the four rows `u_g·m` are added to the accumulators above the low one (the low one's
///    columns are final: their carry is in the scalar `carry`);
/// 4. the accumulators are renamed one register down.
///
/// `NV + 1` accumulators, the broadcast digit and a product fill the sixteen `ymm`
/// registers at `NV = 10`; above that they would spill, and [`amm`] keeps its columns in
/// memory. Each column sums at most `2n` products below `2^56` (the bound of
/// [`MAX_DIGITS`]). Constant time. On an AMD EPYC (Zen 4, BMI2/ADX and AVX-512 hidden,
/// where this path runs), against the columns in memory: a 1024-bit product (`n = 40`)
/// 278 → 250 ns, a 512-bit one (`n = 20`) 117 → 87 ns.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn amm_regs<const NV: usize>(
    out: &mut [u64],
    a: &[u64],
    bp: &[u64],
    mp: &[u64],
    m0inv: u64,
) {
    debug_assert!(a.len() == 4 * NV && out.len() == 4 * NV);
    debug_assert!(bp.len() == padded_len(4 * NV) && mp.len() == padded_len(4 * NV));
    // SAFETY: the caller guarantees AVX2; the loads at `4 + 4j − g` (j ≤ NV, g ≤ 3) read
    // padded digits 1 … 4NV + 7 of the 4NV + 8.
    unsafe {
        let zero = _mm256_setzero_si256();
        let mut t = [zero; 11];
        let (b0, m0p) = (bp.as_ptr().add(4), mp.as_ptr().add(4));
        let (m0, m1, m2, m3) = (mp[4], mp[5], mp[6], mp[7]);
        let mut carry = 0u64;
        for grp in 0..NV {
            let s = 4 * grp;
            for g in 0..4 {
                let x = _mm256_set1_epi64x((a[s + g] & DIGIT_MASK) as i64);
                unrolled_upto!(j, 0, NV, {
                    let v = _mm256_loadu_si256(b0.add(4 * j).sub(g).cast());
                    t[j] = _mm256_add_epi64(t[j], _mm256_mul_epu32(x, v));
                });
            }
            let (lo, hi) = (_mm256_castsi256_si128(t[0]), _mm256_extracti128_si256::<1>(t[0]));
            let low = [
                _mm_cvtsi128_si64(lo) as u64,
                _mm_extract_epi64::<1>(lo) as u64,
                _mm_cvtsi128_si64(hi) as u64,
                _mm_extract_epi64::<1>(hi) as u64,
            ];
            let c0 = low[0] + carry;
            let u0 = c0.wrapping_mul(m0inv) & DIGIT_MASK;
            let c1 = low[1] + ((c0 + u0 * m0) >> DIGIT_BITS) + u0 * m1;
            let u1 = c1.wrapping_mul(m0inv) & DIGIT_MASK;
            let c2 = low[2] + ((c1 + u1 * m0) >> DIGIT_BITS) + u0 * m2 + u1 * m1;
            let u2 = c2.wrapping_mul(m0inv) & DIGIT_MASK;
            let c3 = low[3] + ((c2 + u2 * m0) >> DIGIT_BITS) + u0 * m3 + u1 * m2 + u2 * m1;
            let u3 = c3.wrapping_mul(m0inv) & DIGIT_MASK;
            carry = (c3 + u3 * m0) >> DIGIT_BITS;
            for (g, u) in [u0, u1, u2, u3].into_iter().enumerate() {
                let y = _mm256_set1_epi64x(u as i64);
                unrolled_upto!(j, 1, NV, {
                    let v = _mm256_loadu_si256(m0p.add(4 * j).sub(g).cast());
                    t[j] = _mm256_add_epi64(t[j], _mm256_mul_epu32(y, v));
                });
            }
            unrolled_upto!(j, 0, NV, {
                t[j] = if j < NV { t[(j + 1).min(10)] } else { zero };
            });
        }
        let mut cols = [0u64; 44];
        for (j, v) in t[..NV].iter().enumerate() {
            _mm256_storeu_si256(cols.as_mut_ptr().add(4 * j).cast(), *v);
        }
        let mut up = carry;
        for (o, &v) in out.iter_mut().zip(&cols[..4 * NV]) {
            let v = v + up;
            *o = v & DIGIT_MASK;
            up = v >> DIGIT_BITS;
        }
        debug_assert!(up == 0);
    }
}

/// `t[4p..4p+4] += Σ_g x_g·op[4p − g..4p − g + 4]` for each `p` of `blocks`: four rows
/// (`x_g` times `op` shifted by `g` digits) added into the columns, one load and one store
/// of `t` per four columns. The digits `x_g` are masked to 28 bits: without the mask LLVM
/// cannot prove them below 2^32 and makes each `vpmuludq` a full 64-bit product.
///
/// # Safety
/// The CPU must support AVX2; `t[4p..4p+4]` and `op[4p − 3..4p + 4]` must be in bounds for
/// every `p` of `blocks` (`op` may point past the start of its allocation by up to three
/// digits of padding).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn add_four_rows(
    t: *mut u64,
    x: [u64; 4],
    op: *const u64,
    blocks: core::ops::RangeInclusive<usize>,
) {
    let x = x.map(|d| (d & DIGIT_MASK) as i64);
    // SAFETY: the caller guarantees AVX2 and the bounds.
    unsafe {
        let x4 = [
            _mm256_set1_epi64x(x[0]),
            _mm256_set1_epi64x(x[1]),
            _mm256_set1_epi64x(x[2]),
            _mm256_set1_epi64x(x[3]),
        ];
        for p in blocks {
            let mut acc = _mm256_loadu_si256(t.add(4 * p).cast());
            for (g, xg) in x4.iter().enumerate() {
                let v = _mm256_loadu_si256(op.add(4 * p).sub(g).cast());
                acc = _mm256_add_epi64(acc, _mm256_mul_epu32(*xg, v));
            }
            _mm256_storeu_si256(t.add(4 * p).cast(), acc);
        }
    }
}

#[cfg(test)]
/// [`amm`] digit by digit, on any CPU (the product, then paper 000's Algorithm 3 with `b =
/// 2^28`, no final subtraction; the same bounds): the same value (the quotient digits and the sum are
/// unique, whatever the order of the additions). `a`, `b`, `m` are `n` digits (unpadded).
pub(crate) fn amm_model(out: &mut [u64], a: &[u64], b: &[u64], m: &[u64], m0inv: u64) {
    let n = a.len();
    assert!(b.len() == n && m.len() == n && out.len() == n, "amm_model: operand lengths");
    let mut t = alloc::vec![0u64; 2 * n + 1];
    for (i, &ai) in a.iter().enumerate() {
        for (j, &bj) in b.iter().enumerate() {
            t[i + j] += ai * bj;
        }
    }
    for s in 0..n {
        let u = t[s].wrapping_mul(m0inv) & DIGIT_MASK;
        for (j, &mj) in m.iter().enumerate() {
            t[s + j] += u * mj;
        }
        debug_assert!(t[s] & DIGIT_MASK == 0);
        t[s + 1] += t[s] >> DIGIT_BITS;
    }
    let mut up = 0u64;
    for (j, o) in out.iter_mut().enumerate() {
        let v = t[n + j] + up;
        *o = v & DIGIT_MASK;
        up = v >> DIGIT_BITS;
    }
    debug_assert!(up + t[2 * n] == 0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;
    use modred_testkit::SplitMix64;
    use std::eprintln;

    fn padded(x: &[u64]) -> Vec<u64> {
        let mut p = vec![0u64; padded_len(x.len())];
        p[4..4 + x.len()].copy_from_slice(x);
        p
    }

    /// `m` in 28-bit digits: odd, below `2^(28n − 2)` (so `2^(28n) > 4m`).
    fn moduli(rng: &mut SplitMix64, n: usize) -> Vec<Vec<u64>> {
        // The largest allowed: every digit full below the top one's two free bits.
        let mut max = vec![DIGIT_MASK; n];
        max[n - 1] = DIGIT_MASK >> 2;
        // Mostly zero digits: 2^(28(n−1)) + 1.
        let mut sparse = vec![0u64; n];
        sparse[0] = 1;
        sparse[n - 1] = 1;
        let mut out = vec![max, sparse];
        for _ in 0..3 {
            let mut r: Vec<u64> = (0..n).map(|_| rng.next_u64() & DIGIT_MASK).collect();
            r[0] |= 1;
            r[n - 1] &= DIGIT_MASK >> 2;
            out.push(r);
        }
        out
    }

    /// Values below 2m: 2m − 1 (every column at its largest), 0, 1, and random ones.
    fn operands(rng: &mut SplitMix64, m: &[u64]) -> Vec<Vec<u64>> {
        let n = m.len();
        // 2m − 1 in normalized digits.
        let mut two_m = vec![0u64; n];
        let mut c = 0u64;
        for (d, &x) in two_m.iter_mut().zip(m) {
            let v = 2 * x + c;
            *d = v & DIGIT_MASK;
            c = v >> DIGIT_BITS;
        }
        assert_eq!(c, 0);
        let mut i = 0;
        while two_m[i] == 0 {
            two_m[i] = DIGIT_MASK;
            i += 1;
        }
        two_m[i] -= 1;
        let mut one = vec![0u64; n];
        one[0] = 1;
        let mut out = vec![two_m, vec![0u64; n], one];
        for _ in 0..3 {
            // Random below m (top digit at most m's top digit minus one, or zero).
            let mut r: Vec<u64> = (0..n).map(|_| rng.next_u64() & DIGIT_MASK).collect();
            r[n - 1] = if m[n - 1] > 0 { rng.next_u64() % m[n - 1] } else { 0 };
            out.push(r);
        }
        out
    }

    fn m0inv(m0: u64) -> u64 {
        let mut x = m0; // correct to 3 bits for odd m0
        for _ in 0..6 {
            x = x.wrapping_mul(2u64.wrapping_sub(m0.wrapping_mul(x)));
        }
        x.wrapping_neg() & DIGIT_MASK
    }

    #[test]
    fn amm_matches_the_model_at_every_width() {
        if !crate::kernels::cpu::avx2() {
            eprintln!(
                "skipped: this CPU has no AVX2 (engine::avx2's tests check the model against Nat)"
            );
            return;
        }
        let mut rng = SplitMix64::new(0x2828);
        for n in (4..=MAX_DIGITS).step_by(4) {
            for m in moduli(&mut rng, n) {
                let minv = m0inv(m[0]);
                let ops = operands(&mut rng, &m);
                let mp = padded(&m);
                let mut t = vec![0xdead_beefu64; scratch_len(n)];
                for a in &ops {
                    for b in &ops {
                        let mut want = vec![0u64; n];
                        amm_model(&mut want, a, b, &m, minv);
                        let mut got = vec![0u64; n];
                        // SAFETY: the CPU has AVX2 (checked above).
                        unsafe { amm(&mut got, a, &padded(b), &mp, minv, &mut t) };
                        assert_eq!(got, want, "n = {n}");
                        assert!(got.iter().all(|&d| d <= DIGIT_MASK));
                    }
                }
            }
        }
    }
}
