//! Four exponentiations side by side in the lanes of AVX2 registers, for the batch API
//! (`crate::batch`): up to four jobs `x_l^(e_l) mod m_l` whose odd moduli have the same
//! number of 28-bit digits run one fixed-window exponentiation (HAC Algorithm 14.82) in
//! which every product is four Montgomery products at once
//! (`kernels::arch::avx2::lanes::amm`). Where and when it runs:
//! [`crate::engine::rule::lanes_power`].
//!
//! Each lane keeps its own representation `x·R mod m_l` (below `2m_l`), `R = 2^(28n)`
//! with `R ≥ 4m_l`: the base enters by one division (`x·R mod m`), a window table of the
//! lane's powers is built by products, each window's squarings are shared by the four
//! lanes, and each lane multiplies by the table entry of its own exponent's digit (a lane
//! whose digit is zero by the representation of 1). The result leaves by one product with
//! the number 1. Variable time: the exponents (their lengths and digits) decide the
//! branches and the table entries read.

#![cfg_attr(not(x86_kernels), allow(dead_code))]

use crate::engine::avx2::{from_radix28, to_radix28};
use crate::kernels::arch::avx2::lanes::{self, LANES};
use crate::kernels::arch::avx2::radix28::{DIGIT_BITS, DIGIT_MASK};
use crate::limb::Limb;
use crate::nat::Nat;
use alloc::vec;
use alloc::vec::Vec;

/// One job `(x, e, m)`: `x^e mod m` for an odd `m > 1` (any `x`, any `e`).
pub(crate) type Job<'a> = (&'a Nat, &'a Nat, &'a Nat);

/// The four products of a step: `out = a·b·R^(−1) mod m` lane by lane, below `2m`
/// (`lanes::amm`'s contract; `t` its working space).
type Product = fn(&mut [u64], &[u64], &[u64], &[u64], &[u64; LANES], &mut [u64]);

/// Digits of 28 bits for a modulus of `bits` bits: the least `n` with `2^(28n) ≥ 2^(bits
/// + 2) > 4m`.
pub(crate) fn digits_for_bits(bits: u64) -> usize {
    (bits as usize + 2).div_ceil(DIGIT_BITS as usize)
}

/// The most bits of a modulus the lanes take (`lanes::MAX_DIGITS` digits).
pub(crate) const MAX_BITS: u64 = DIGIT_BITS as u64 * lanes::MAX_DIGITS as u64 - 2;

const _: () = assert!(crate::engine::rule::LANES_POWER_MAX_BITS <= MAX_BITS);

/// The window width for exponents of up to `bits` bits: the one with the fewest products
/// (`2^w − 2` for the table, one per window), at most 6.
pub(crate) fn window(bits: u64) -> u32 {
    (1..=6u32).min_by_key(|&w| (1u64 << w) - 2 + bits.div_ceil(u64::from(w))).unwrap_or(1)
}

/// Bytes of working memory one group takes for moduli of `bits` bits and exponents of up
/// to `ebits` bits: the window table and five more numbers (the modulus, the running value,
/// the product, the table entry, 1), the kernel's working space, all in the lanes' layout
/// (the conversions' numbers are the size of one of them).
pub(crate) fn memory(bits: u64, ebits: u64) -> u64 {
    let n = digits_for_bits(bits) as u64;
    let numbers = (1u64 << window(ebits)) + 5;
    (numbers * n + lanes::scratch_len(n as usize) as u64 / LANES as u64) * 8 * LANES as u64
}

/// `x_l^(e_l) mod m_l` for one to four jobs, in order, each below its `m_l`, on AVX2: the
/// fixed window of HAC Algorithm 14.82 on the almost Montgomery products of
/// `lanes::amm` (paper 000, Algorithm 3, four at a time). Every `m` odd, above 1 and at
/// most [`MAX_BITS`] bits (the caller groups moduli of one [`digits_for_bits`] size;
/// [`crate::engine::rule::lanes_power`] says where it runs); any `x`, any `e`.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn pow_vartime(jobs: &[Job<'_>]) -> Vec<Nat> {
    pow_with(jobs, amm_avx2)
}

/// `lanes::amm` as a [`Product`]. Called only where the CPU has AVX2 (by [`pow_vartime`],
/// whose caller guarantees it, and by the tests after asking).
fn amm_avx2(out: &mut [u64], a: &[u64], b: &[u64], m: &[u64], inv: &[u64; LANES], t: &mut [u64]) {
    // SAFETY: see above.
    unsafe { lanes::amm(out, a, b, m, inv, t) }
}

/// `n` digits of four numbers in the lanes' layout (`lanes`), 32-byte aligned, so that no
/// load of a digit's four lanes crosses a cache line (1024-bit products 4% faster, 2048-bit
/// 10%, than at 16-byte alignment; AMD EPYC Zen 3).
struct Words(Vec<Digit>);

/// The four lanes of one digit.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Digit([u64; LANES]);

impl Words {
    fn zero(n: usize) -> Words {
        Words(vec![Digit::default(); n])
    }

    fn words(&self) -> &[u64] {
        // SAFETY: `Digit` is `[u64; LANES]` with `repr(C)` (32 bytes, no padding), so the
        // digits are `LANES·len` consecutive, initialized `u64`s.
        unsafe { core::slice::from_raw_parts(self.0.as_ptr().cast(), LANES * self.0.len()) }
    }

    fn words_mut(&mut self) -> &mut [u64] {
        // SAFETY: as in `words`, borrowed exclusively.
        unsafe { core::slice::from_raw_parts_mut(self.0.as_mut_ptr().cast(), LANES * self.0.len()) }
    }
}

/// [`pow_vartime`] with the lanes' products by `product`: the AVX2 kernel, or its model in
/// the tests.
fn pow_with(jobs: &[Job<'_>], product: Product) -> Vec<Nat> {
    assert!((1..=LANES).contains(&jobs.len()), "lanes::pow_with: one to four jobs");
    let bits = jobs.iter().map(|j| j.2.bits()).max().unwrap_or(0);
    let n = digits_for_bits(bits);
    assert!(
        bits <= MAX_BITS && jobs.iter().all(|j| j.2.is_odd() && !j.2.is_one()),
        "lanes::pow_with: odd moduli above 1 of at most {MAX_BITS} bits"
    );
    // Lanes without a job repeat the first one (their results are dropped).
    let job = |l: usize| &jobs[l.min(jobs.len() - 1)];
    let r_mod = |m: &Nat| Nat::power_of_two(DIGIT_BITS as u64 * n as u64).checked_rem(m);
    let interleave = |f: &dyn Fn(usize) -> Vec<u64>| -> Words {
        let lane: Vec<Vec<u64>> = (0..LANES).map(f).collect();
        Words((0..n).map(|j| Digit(core::array::from_fn(|l| lane[l][j]))).collect())
    };
    let radix28 = |x: Option<Nat>| to_radix28(x.unwrap_or_default().limbs(), n);
    let m = interleave(&|l| to_radix28(job(l).2.limbs(), n));
    let inv: [u64; LANES] =
        core::array::from_fn(|l| m.0[0].0[l].inverse_mod_b().wrapping_neg() & DIGIT_MASK);
    // The representation of 1 and of the base: R mod m and x·R mod m.
    let one = interleave(&|l| radix28(r_mod(job(l).2)));
    let x =
        interleave(&|l| radix28(job(l).0.shl(DIGIT_BITS as u64 * n as u64).checked_rem(job(l).2)));
    let ebits = jobs.iter().map(|j| j.1.bits()).max().unwrap_or(0);
    let w = window(ebits);
    let mut t = Words::zero(lanes::scratch_len(n) / LANES);
    // table[d] = x^d in the representation, d < 2^w.
    let mut table = Vec::with_capacity(1 << w);
    table.push(one);
    table.push(x);
    for d in 2..1usize << w {
        let mut next = Words::zero(n);
        let (prev, base) = (table[d - 1].words(), table[1].words());
        product(next.words_mut(), prev, base, m.words(), &inv, t.words_mut());
        table.push(next);
    }
    // Window `i` of every lane's exponent (bits w·i … w·i + w − 1).
    let digits = |i: u64| -> [usize; LANES] {
        core::array::from_fn(|l| {
            (0..u64::from(w)).fold(0, |d, b| d | usize::from(job(l).1.bit(w as u64 * i + b)) << b)
        })
    };
    let gather = |out: &mut Words, d: &[usize; LANES]| {
        for (j, o) in out.0.iter_mut().enumerate() {
            *o = Digit(core::array::from_fn(|l| table[d[l]].0[j].0[l]));
        }
    };
    let windows = ebits.div_ceil(u64::from(w)).max(1);
    let (mut acc, mut tmp, mut operand) = (Words::zero(n), Words::zero(n), Words::zero(n));
    let m = m.words();
    gather(&mut acc, &digits(windows - 1));
    for i in (0..windows - 1).rev() {
        for _ in 0..w {
            product(tmp.words_mut(), acc.words(), acc.words(), m, &inv, t.words_mut());
            core::mem::swap(&mut acc, &mut tmp);
        }
        let d = digits(i);
        if d.iter().any(|&d| d != 0) {
            gather(&mut operand, &d);
            product(tmp.words_mut(), acc.words(), operand.words(), m, &inv, t.words_mut());
            core::mem::swap(&mut acc, &mut tmp);
        }
    }
    // Out of the representation: acc·1·R^(−1) ≤ m (equal to m only for a value 0 mod m).
    let mut unit = Words::zero(n);
    unit.0[0] = Digit([1; LANES]);
    product(tmp.words_mut(), acc.words(), unit.words(), m, &inv, t.words_mut());
    (0..jobs.len())
        .map(|l| {
            let lane: Vec<u64> = tmp.0.iter().map(|d| d.0[l]).collect();
            let k = n.div_ceil(2) + 1;
            let y = Nat::from_vec(from_radix28(&lane, k));
            y.checked_rem(jobs[l].2).unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Modulus;
    use modred_testkit::SplitMix64;
    use std::eprintln;

    fn model(out: &mut [u64], a: &[u64], b: &[u64], m: &[u64], inv: &[u64; LANES], _: &mut [u64]) {
        lanes::amm_model(out, a, b, m, inv);
    }

    /// The products to test: the model everywhere, the AVX2 kernel where the CPU has it.
    fn products() -> Vec<(&'static str, Product)> {
        let mut p: Vec<(&'static str, Product)> = vec![("model", model)];
        if crate::kernels::cpu::avx2() {
            p.push(("avx2", amm_avx2));
        } else {
            eprintln!("skipped: this CPU has no AVX2 (the lanes' exponentiation checked on the model only)");
        }
        p
    }

    fn nat(rng: &mut SplitMix64, bits: u64) -> Nat {
        Nat::from_vec(rng.below_pow2(bits))
    }

    /// Jobs of one group against `Modulus::pow_mod_vartime`: several moduli of the same
    /// digit count, bases below and above `m`, `0`, `1`, `m − 1`, `m`, exponents of
    /// different lengths, `0` and `1`, one to four jobs.
    #[test]
    fn powers_agree_with_one_at_a_time() {
        let mut rng = SplitMix64::new(0x1a4e5);
        for (name, product) in products() {
            for bits in [64u64, 200, 511, 512, 1024, 1500, 2048] {
                let n = digits_for_bits(bits);
                for round in 0..4 {
                    let mut ms: Vec<Nat> =
                        (0..LANES).map(|_| Nat::from_vec(rng.odd_modulus(bits))).collect();
                    // A shorter modulus of the same digit count in one lane.
                    let short = Nat::from_vec(rng.odd_modulus(28 * n as u64 - 29));
                    if digits_for_bits(short.bits()) == n {
                        ms[3] = short;
                    }
                    // m − 1 (m is odd: no borrow).
                    let mut below_m = ms[1].limbs().to_vec();
                    below_m[0] -= 1;
                    let xs: Vec<Nat> = vec![
                        nat(&mut rng, bits + 70),
                        [Nat::zero(), Nat::one(), ms[1].clone(), Nat::from_vec(below_m)][round]
                            .clone(),
                        nat(&mut rng, bits - 1),
                        nat(&mut rng, 3),
                    ];
                    let es: Vec<Nat> = vec![
                        nat(&mut rng, bits),
                        [Nat::zero(), Nat::one(), Nat::from(65537u64), nat(&mut rng, 2 * bits)]
                            [round]
                            .clone(),
                        nat(&mut rng, 17),
                        nat(&mut rng, bits / 2),
                    ];
                    let count = 1 + round % LANES;
                    let count = if round == 3 { LANES } else { count };
                    let jobs: Vec<Job<'_>> = (0..count).map(|l| (&xs[l], &es[l], &ms[l])).collect();
                    let got = pow_with(&jobs, product);
                    for (l, job) in jobs.iter().enumerate() {
                        let (x, e, m) = *job;
                        let want = Modulus::new(m).unwrap().pow_mod_vartime(x, e).unwrap();
                        assert_eq!(got[l], want, "{name}, {bits} bits, round {round}, lane {l}");
                    }
                }
            }
        }
    }

    #[test]
    fn window_widths() {
        assert_eq!(window(0), 1);
        assert_eq!(window(17), 2);
        assert_eq!(window(512), 5);
        assert_eq!(window(1024), 6);
        assert_eq!(digits_for_bits(1024), 37);
        assert_eq!(digits_for_bits(MAX_BITS), lanes::MAX_DIGITS);
        // 2048 bits, a window of 6: 69 numbers and the working space of 74 digits.
        assert_eq!(memory(2048, 2048), (69 * 74 + 76) * 32);
    }
}
