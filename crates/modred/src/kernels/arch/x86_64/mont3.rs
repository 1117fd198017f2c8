//! Montgomery multiplication and squaring of 3-digit numbers (moduli of 129 to 192 bits,
//! and the odd parts of even moduli of that size) in MULX/ADCX/ADOX assembly, for
//! `reduce::fixed::MontgomeryFixed<3>`, which calls them through `reduce::fixed::arith`
//! after its CPU check ([`super::has_bmi2_adx`]). The portable twin is
//! `arith::mont_mul::<3, false>`; the tests comparing the two are in `reduce/fixed/arith.rs`.
//!
//! The reduction is the subtractive form of [`super::mont4`] (`u = t_0·m_0^(−1)`, so
//! `u·m` has the running value's low digit and comes off with one borrow chain; the
//! borrow out of a round is added to the top digit of the next round's `u·m`, at most
//! `2^64 − 2` as `u·m < 2^256 − 2^192`; the result `w ∈ (−m, m)` gets `m` added under a
//! mask when negative). Unlike the 4-digit blocks, the registers are the compiler's:
//! three digits need twelve, so the block is inlined into the exponentiation loop with
//! its operands and result in registers and no saves of its own, where a block with
//! fixed registers (or a call) pays for saving and loading them at every product.
//!
//! Why: LLVM's code of the portable 3-digit square and reduction took about 75 cycles a
//! square in the exponentiation loop (192-bit Montgomery square 20.5 ns through `Modulus`
//! on an AMD EPYC Zen 4, more than the 4-digit assembly's 17 ns).

use crate::reduce::fixed::arith::MontConsts;

/// Montgomery multiplication (paper 000, Algorithm 3, interleaved with the product)
/// `a·b·2^(−192) mod m` for `a, b < m < 2^192`, `m` odd (`k`: its [`MontConsts`], whose
/// `minv = m_0^(−1) mod 2^64` lies at byte offset 24), in MULX assembly. Operand scanning:
/// for each digit `b_i`, the row `a·b_i` (its four digits by one carry chain, added into
/// the running value by another), then the subtractive reduction of the running value's
/// lowest digit. Result below `m`. Branch-free and without conditional moves: constant time
/// (the constant-time fixed-size exponentiation, `ct::pow_fixed`, uses it too).
///
/// The running value (at most four digits and a pending borrow) stays below `2^256`
/// after each row: before it, it is below `2^192` (a value in `(−m, m)` with its borrow
/// pending), and the row `a·b_i ≤ (2^192 − 1)(2^64 − 1)`.
///
/// # Safety
/// The CPU must have BMI2 (MULX).
#[inline(always)]
pub(crate) unsafe fn mont_mul_3_adx(a: &[u64; 3], b: &[u64; 3], k: &MontConsts<3>) -> [u64; 3] {
    let (r0, r1, r2): (u64, u64, u64);
    // SAFETY: the caller guarantees BMI2. The block reads a[0..3], b[0..3] and k's first
    // four words (m, then minv: `MontConsts` is `repr(C)`) through their pointers, writes
    // only the registers declared, and touches neither the stack nor other memory.
    unsafe {
        core::arch::asm!(
            // Row 0: T = a·b_0, placed (one carry chain): t0..t3.
            "mov rdx, qword ptr [{b}]",
            "mulx {t1}, {t0}, qword ptr [{a}]",
            "mulx {t2}, {x}, qword ptr [{a} + 8]",
            "add {t1}, {x}",
            "mulx {t3}, {x}, qword ptr [{a} + 16]",
            "adc {t2}, {x}",
            "adc {t3}, 0",
            // Reduction 0: u = t0·minv, P = u·m (P_0 = t0 exactly, dropped); P_1, P_2 and
            // P_3 (rdx) by one carry chain, off t1..t3 by one borrow chain, the borrow
            // kept in `bw`.
            "mov rdx, {t0}",
            "imul rdx, qword ptr [{k} + 24]",
            "mulx {z}, {x}, qword ptr [{k} + 8]",
            "mulx {t0}, {n}, qword ptr [{k}]",
            "mulx rdx, {n}, qword ptr [{k} + 16]",
            "add {x}, {t0}",
            "adc {n}, {z}",
            "adc rdx, 0",
            "xor {bw:e}, {bw:e}",
            "sub {t1}, {x}",
            "sbb {t2}, {n}",
            "sbb {t3}, rdx",
            "adc {bw}, 0",
            // Row 1: the four digits of a·b_1 (x, n, rdx, z), added to t1..t3; z is the
            // new top digit.
            "mov rdx, qword ptr [{b} + 8]",
            "mulx {z}, {x}, qword ptr [{a}]",
            "mulx {t0}, {n}, qword ptr [{a} + 8]",
            "add {n}, {z}",
            "mulx {z}, rdx, qword ptr [{a} + 16]",
            "adc rdx, {t0}",
            "adc {z}, 0",
            "add {t1}, {x}",
            "adc {t2}, {n}",
            "adc {t3}, rdx",
            "adc {z}, 0",
            // Reduction 1: u = t1·minv, P off t2, t3, z (P_3 plus the kept borrow).
            "mov rdx, {t1}",
            "imul rdx, qword ptr [{k} + 24]",
            "mulx {t0}, {x}, qword ptr [{k} + 8]",
            "mulx {t1}, {n}, qword ptr [{k}]",
            "mulx rdx, {n}, qword ptr [{k} + 16]",
            "add {x}, {t1}",
            "adc {n}, {t0}",
            "adc rdx, {bw}",
            "xor {bw:e}, {bw:e}",
            "sub {t2}, {x}",
            "sbb {t3}, {n}",
            "sbb {z}, rdx",
            "adc {bw}, 0",
            // Row 2: the four digits of a·b_2 (x, n, rdx, t1), added to t2, t3, z; t1 is
            // the new top digit.
            "mov rdx, qword ptr [{b} + 16]",
            "mulx {t1}, {x}, qword ptr [{a}]",
            "mulx {t0}, {n}, qword ptr [{a} + 8]",
            "add {n}, {t1}",
            "mulx {t1}, rdx, qword ptr [{a} + 16]",
            "adc rdx, {t0}",
            "adc {t1}, 0",
            "add {t2}, {x}",
            "adc {t3}, {n}",
            "adc {z}, rdx",
            "adc {t1}, 0",
            // Reduction 2: u = t2·minv, P off t3, z, t1; the borrow out of the top digit
            // is the sign: bw = 0 or all ones.
            "mov rdx, {t2}",
            "imul rdx, qword ptr [{k} + 24]",
            "mulx {t0}, {x}, qword ptr [{k} + 8]",
            "mulx {t2}, {n}, qword ptr [{k}]",
            "mulx rdx, {n}, qword ptr [{k} + 16]",
            "add {x}, {t2}",
            "adc {n}, {t0}",
            "adc rdx, {bw}",
            "sub {t3}, {x}",
            "sbb {z}, {n}",
            "sbb {t1}, rdx",
            "sbb {bw}, {bw}",
            // Negative: add m (each digit masked with the sign), mod 2^192.
            "mov {x}, qword ptr [{k}]",
            "and {x}, {bw}",
            "mov {n}, qword ptr [{k} + 8]",
            "and {n}, {bw}",
            "and {bw}, qword ptr [{k} + 16]",
            "add {t3}, {x}",
            "adc {z}, {n}",
            "adc {t1}, {bw}",
            a = in(reg) a.as_ptr(),
            b = in(reg) b.as_ptr(),
            k = in(reg) k as *const MontConsts<3>,
            t0 = out(reg) _,
            t1 = out(reg) r2,
            t2 = out(reg) _,
            t3 = out(reg) r0,
            z = out(reg) r1,
            x = out(reg) _,
            n = out(reg) _,
            bw = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2]
}

/// Montgomery squaring (paper 000, Algorithm 3, after a dedicated square)
/// `a²·2^(−192) mod m` for `a < m < 2^192` (`k` as in [`mont_mul_3_adx`]), in
/// MULX/ADCX/ADOX assembly: the three products `a_i·a_j`, `i < j`, doubled in an ADOX
/// chain while the three squares `a_i²` come in on an ADCX chain (6 MULX instead of 9),
/// then the three subtractive reduction rounds of [`mont_mul_3_adx`] on the six digits.
/// Result below `m`. Takes its operand's digits in registers and gives the result in
/// registers (the exponentiation loop keeps its accumulator there).
///
/// # Safety
/// The CPU must have BMI2 (MULX) and ADX (ADCX, ADOX).
#[inline(always)]
pub(crate) unsafe fn mont_sqr_3_adx(a: &[u64; 3], k: &MontConsts<3>) -> [u64; 3] {
    let (r0, r1, r2): (u64, u64, u64);
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads k's first four words
    // (m, then minv) through its pointer, writes only the registers declared, and touches
    // neither the stack nor other memory.
    unsafe {
        core::arch::asm!(
            // The products a_i·a_j, i < j, into digits 1..4 (d1..d4).
            "mov rdx, {a0}",
            "mulx {d2}, {d1}, {a1}",
            "mulx {d3}, {x}, {a2}",
            "add {d2}, {x}",
            "adc {d3}, 0",
            "mov rdx, {a1}",
            "mulx {d4}, {x}, {a2}",
            "add {d3}, {x}",
            "adc {d4}, 0",
            // Doubled (ADOX chain: d_j + d_j) and the squares a_i² added (ADCX chain);
            // digit 0 goes into a0's register, digit 5 starts at zero.
            "xor {d5:e}, {d5:e}",
            "mov rdx, {a0}",
            "mulx {x}, {a0}, rdx",
            "adox {d1}, {d1}",
            "adcx {d1}, {x}",
            "mov rdx, {a1}",
            "mulx {y}, {x}, rdx",
            "adox {d2}, {d2}",
            "adcx {d2}, {x}",
            "adox {d3}, {d3}",
            "adcx {d3}, {y}",
            "mov rdx, {a2}",
            "mulx {y}, {x}, rdx",
            "adox {d4}, {d4}",
            "adcx {d4}, {x}",
            "adox {d5}, {d5}",
            "adcx {d5}, {y}",
            // Reduction 0: u = d0·minv, P = u·m (P_0 = d0 exactly, dropped); P_1, P_2 (a1)
            // and P_3 (a2) by one carry chain, off d1..d3 by one borrow chain, the
            // borrow kept in a0.
            "mov rdx, {a0}",
            "imul rdx, qword ptr [{k} + 24]",
            "mulx {y}, {x}, qword ptr [{k} + 8]",
            "mulx {a0}, {a1}, qword ptr [{k}]",
            "mulx {a2}, {a1}, qword ptr [{k} + 16]",
            "add {x}, {a0}",
            "adc {a1}, {y}",
            "adc {a2}, 0",
            "xor {a0:e}, {a0:e}",
            "sub {d1}, {x}",
            "sbb {d2}, {a1}",
            "sbb {d3}, {a2}",
            "adc {a0}, 0",
            // Reduction 1: u = d1·minv, P off d2..d4 (P_3 plus the kept borrow).
            "mov rdx, {d1}",
            "imul rdx, qword ptr [{k} + 24]",
            "mulx {y}, {x}, qword ptr [{k} + 8]",
            "mulx {d1}, {a1}, qword ptr [{k}]",
            "mulx {a2}, {a1}, qword ptr [{k} + 16]",
            "add {x}, {d1}",
            "adc {a1}, {y}",
            "adc {a2}, {a0}",
            "xor {a0:e}, {a0:e}",
            "sub {d2}, {x}",
            "sbb {d3}, {a1}",
            "sbb {d4}, {a2}",
            "adc {a0}, 0",
            // Reduction 2: u = d2·minv, P off d3..d5; the borrow out of the top digit is
            // the sign: a0 = 0 or all ones.
            "mov rdx, {d2}",
            "imul rdx, qword ptr [{k} + 24]",
            "mulx {y}, {x}, qword ptr [{k} + 8]",
            "mulx {d2}, {a1}, qword ptr [{k}]",
            "mulx {a2}, {a1}, qword ptr [{k} + 16]",
            "add {x}, {d2}",
            "adc {a1}, {y}",
            "adc {a2}, {a0}",
            "sub {d3}, {x}",
            "sbb {d4}, {a1}",
            "sbb {d5}, {a2}",
            "sbb {a0}, {a0}",
            // Negative: add m (each digit masked with the sign), mod 2^192.
            "mov {x}, qword ptr [{k}]",
            "and {x}, {a0}",
            "mov {y}, qword ptr [{k} + 8]",
            "and {y}, {a0}",
            "and {a0}, qword ptr [{k} + 16]",
            "add {d3}, {x}",
            "adc {d4}, {y}",
            "adc {d5}, {a0}",
            a0 = inout(reg) a[0] => _,
            a1 = inout(reg) a[1] => _,
            a2 = inout(reg) a[2] => _,
            k = in(reg) k as *const MontConsts<3>,
            d1 = out(reg) _,
            d2 = out(reg) _,
            d3 = out(reg) r0,
            d4 = out(reg) r1,
            d5 = out(reg) r2,
            x = out(reg) _,
            y = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2]
}
