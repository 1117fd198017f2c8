//! Multiplication and squaring modulo `p = 2^255 − 19` on four 64-bit digits in
//! MULX/ADCX/ADOX assembly, for `reduce::fixed::p25519` (the field of `2^255 − 19`). The portable twin
//! is `reduce::fixed::p25519::mul_portable` (the product by `arith::mul_wide`, then the same
//! fold in Rust); the test comparing the two is below.

/// The fold of [`mul_mod_p25519_adx`] and [`sqr_mod_p25519_adx`] from the eight digits
/// of a product, `z0..z2` at `[{o}]` and `z3, z4, z5, z6, z7` in `t3, t4, t0, t1, t2`, to
/// the result in `[{o}]` (`reduce::fixed::p25519::fold`, in registers): `2^256 ≡ 38`, so the
/// high four digits times 38 (four MULX) are added to the low four (two carry chains); the
/// carry digit `c ≤ 38` and bit 255, `H = 2c + bit ≤ 77`, are added back as `19·(H + 1)`
/// to the low 255 bits, whose sum `u` has bit 255 set exactly when `p` is to be
/// subtracted; then `u − 19` or `u − 2^255` by one masked digit and one borrow chain. Uses
/// `a`, `b`, `lo`, `hi` and rdx as scratch. No branch, no conditional move, no memory
/// index depending on the values.
macro_rules! fold_p25519 {
    () => {
        concat!(
            // Fold 1: 38·(z4, z5, z6, z7) as (lo, hi), (a, b), (t4, t0), (rdx, t1) ...
            "mov edx, 38\n",
            "mulx {hi}, {lo}, {t4}\n",
            "mulx {b}, {a}, {t0}\n",
            "mulx {t0}, {t4}, {t1}\n",
            "mulx {t1}, rdx, {t2}\n",
            // ... added to (z0, z1, z2, z3): the low halves and z by CF, the high halves
            // one digit up by OF. r = (lo, a, t4, rdx), carry digit in t1.
            "xor {t2:e}, {t2:e}\n",
            "adcx {lo}, qword ptr [{o}]\n",
            "adcx {a}, qword ptr [{o} + 8]\n",
            "adox {a}, {hi}\n",
            "adcx {t4}, qword ptr [{o} + 16]\n",
            "adox {t4}, {b}\n",
            "adcx rdx, {t3}\n",
            "adox rdx, {t0}\n",
            "adcx {t1}, {t2}\n",
            "adox {t1}, {t2}\n",
            // r + c·2^256 = L + H·2^255 with H = 2c + bit 255 of r (at most 77) and L the
            // low 255 bits; u = L + 19·(H + 1) < 2^256 has bit 255 set exactly when L +
            // 19·H ≥ p (see `reduce::fixed::p25519::fold`).
            "mov {t2}, rdx\n",
            "shr {t2}, 63\n",
            "lea {t1}, [{t2} + 2*{t1} + 1]\n",
            "imul {t1}, {t1}, 19\n",
            "btr rdx, 63\n",
            "add {lo}, {t1}\n",
            "adc {a}, 0\n",
            "adc {t4}, 0\n",
            "adc rdx, 0\n",
            // The result: u − 19 when bit 255 of u is clear, u − 2^255 when it is set;
            // the mask (bit − 1) picks 19 or 0 without a branch.
            "mov {t2}, rdx\n",
            "shr {t2}, 63\n",
            "sub {t2}, 1\n",
            "and {t2}, 19\n",
            "sub {lo}, {t2}\n",
            "sbb {a}, 0\n",
            "sbb {t4}, 0\n",
            "sbb rdx, 0\n",
            "btr rdx, 63\n",
            "mov qword ptr [{o}], {lo}\n",
            "mov qword ptr [{o} + 8], {a}\n",
            "mov qword ptr [{o} + 16], {t4}\n",
            "mov qword ptr [{o} + 24], rdx\n",
        )
    };
}

/// `out = a·b mod p` for `a, b < 2^256`, in `[0, p)`, in MULX assembly.
///
/// The product by operand scanning: the first row placed by one carry chain, each further
/// row `a·b_i` added into the running digits by two (ADCX for the low halves of the digit
/// products, ADOX for the high halves), its carries ending in the row's new top digit; the
/// low three digits wait in `out`. Then the fold of `reduce::fixed::p25519::fold`, in
/// registers: `2^256 ≡ 38`, so the high four digits times 38 (four MULX) are added to the
/// low four (two carry chains), then the carry digit and bit 255 folded by `2^255 ≡ 19`
/// together with the `19` whose carry into bit 255 says whether `p` is to be subtracted,
/// and `19` or `2^255` subtracted by one borrow chain. No branch, no conditional move, no
/// memory index depending on the values: constant time.
///
/// # Safety
/// The CPU must have BMI2 (MULX) and ADX (ADCX, ADOX).
#[inline]
pub(crate) unsafe fn mul_mod_p25519_adx(out: &mut [u64; 4], a: &[u64; 4], b: &[u64; 4]) {
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads a[0..4] and b[0..4] and
    // reads and writes out[0..4] through their pointers, and writes only registers
    // declared as outputs (the pointers to a and b are spent as scratch once the product
    // is done); no stack use.
    unsafe {
        core::arch::asm!(
            // Row 0: a·b_0 placed, one carry chain: t0..t4.
            "mov rdx, qword ptr [{b}]",
            "mulx {t1}, {t0}, qword ptr [{a}]",
            "mulx {t2}, {lo}, qword ptr [{a} + 8]",
            "add {t1}, {lo}",
            "mulx {t3}, {lo}, qword ptr [{a} + 16]",
            "adc {t2}, {lo}",
            "mulx {t4}, {lo}, qword ptr [{a} + 24]",
            "adc {t3}, {lo}",
            "adc {t4}, 0",
            "mov qword ptr [{o}], {t0}",
            // Row 1: a·b_1 into t1..t4, new top t0 (zeroed with both flags).
            "mov rdx, qword ptr [{b} + 8]",
            "xor {t0:e}, {t0:e}",
            "mulx {hi}, {lo}, qword ptr [{a}]",
            "adcx {t1}, {lo}",
            "adox {t2}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 8]",
            "adcx {t2}, {lo}",
            "adox {t3}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 16]",
            "adcx {t3}, {lo}",
            "adox {t4}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 24]",
            "adcx {t4}, {lo}",
            "adox {t0}, {hi}",
            "adc {t0}, 0",
            "mov qword ptr [{o} + 8], {t1}",
            // Row 2: a·b_2 into t2, t3, t4, t0, new top t1.
            "mov rdx, qword ptr [{b} + 16]",
            "xor {t1:e}, {t1:e}",
            "mulx {hi}, {lo}, qword ptr [{a}]",
            "adcx {t2}, {lo}",
            "adox {t3}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 8]",
            "adcx {t3}, {lo}",
            "adox {t4}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 16]",
            "adcx {t4}, {lo}",
            "adox {t0}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 24]",
            "adcx {t0}, {lo}",
            "adox {t1}, {hi}",
            "adc {t1}, 0",
            "mov qword ptr [{o} + 16], {t2}",
            // Row 3: a·b_3 into t3, t4, t0, t1, new top t2. Now z = out[0..3], t3, t4, t0,
            // t1, t2 (low digit first).
            "mov rdx, qword ptr [{b} + 24]",
            "xor {t2:e}, {t2:e}",
            "mulx {hi}, {lo}, qword ptr [{a}]",
            "adcx {t3}, {lo}",
            "adox {t4}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 8]",
            "adcx {t4}, {lo}",
            "adox {t0}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 16]",
            "adcx {t0}, {lo}",
            "adox {t1}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 24]",
            "adcx {t1}, {lo}",
            "adox {t2}, {hi}",
            "adc {t2}, 0",
            fold_p25519!(),
            a = inout(reg) a.as_ptr() => _,
            b = inout(reg) b.as_ptr() => _,
            o = in(reg) out.as_mut_ptr(),
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            t3 = out(reg) _,
            t4 = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
}

/// `out = a² mod p` for `a < 2^256`, in `[0, p)`, in MULX assembly: the square with each
/// cross product once (six MULX: row `a_0·a[1..4]`, row `a_3·a[1..3]`, then `a_1·a_2`,
/// the triangle below `2^448`), doubled on the ADCX chain while the four diagonal squares
/// `a_i²` go in on the ADOX chain, then [`fold_p25519!`] (paper 003's pseudo-Mersenne
/// fold, Algorithm 4, at the digit boundary). Ten digit products against the
/// product's sixteen; no branch, no conditional move, no memory index depending on the
/// values: constant time.
///
/// # Safety
/// The CPU must support BMI2 (MULX) and ADX (ADCX, ADOX).
#[inline]
pub(crate) unsafe fn sqr_mod_p25519_adx(out: &mut [u64; 4], a: &[u64; 4]) {
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads a[0..4] and reads and
    // writes out[0..4] through their pointers, and writes only registers declared as
    // outputs (the pointer to a is spent as scratch once the square is done); no stack use.
    unsafe {
        core::arch::asm!(
            // The triangle: digits 1..=6 in b, t2, t3, t4, t0, t1.
            "mov rdx, qword ptr [{a}]",
            "mulx {t2}, {b}, qword ptr [{a} + 8]",
            "mulx {t3}, {lo}, qword ptr [{a} + 16]",
            "add {t2}, {lo}",
            "mulx {t4}, {lo}, qword ptr [{a} + 24]",
            "adc {t3}, {lo}",
            "mov rdx, qword ptr [{a} + 24]",
            "mulx {t0}, {lo}, qword ptr [{a} + 8]",
            "adc {t4}, {lo}",
            "mulx {t1}, {lo}, qword ptr [{a} + 16]",
            "adc {t0}, {lo}",
            "adc {t1}, 0",
            "mov rdx, qword ptr [{a} + 8]",
            "mulx {hi}, {lo}, qword ptr [{a} + 16]",
            "add {t3}, {lo}",
            "adc {t4}, {hi}",
            "adc {t0}, 0",
            "adc {t1}, 0",
            // Doubled (ADCX) plus the squares (ADOX), digit by digit; TEST clears both
            // flags. z0..z2 to out, z3..z7 in t3, t4, t0, t1, t2 for the fold.
            "mov rdx, qword ptr [{a}]",
            "mulx {hi}, {lo}, rdx",
            "test {lo}, {lo}",
            "mov qword ptr [{o}], {lo}",
            "adcx {b}, {b}",
            "adox {b}, {hi}",
            "mov qword ptr [{o} + 8], {b}",
            "mov rdx, qword ptr [{a} + 8]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t2}, {t2}",
            "adox {t2}, {lo}",
            "mov qword ptr [{o} + 16], {t2}",
            "adcx {t3}, {t3}",
            "adox {t3}, {hi}",
            "mov rdx, qword ptr [{a} + 16]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t4}, {t4}",
            "adox {t4}, {lo}",
            "adcx {t0}, {t0}",
            "adox {t0}, {hi}",
            "mov rdx, qword ptr [{a} + 24]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t1}, {t1}",
            "adox {t1}, {lo}",
            // MOV leaves the flags: z7 = the doubling's carry + hi(a_3²) + the chain's.
            "mov {t2:e}, 0",
            "adcx {t2}, {t2}",
            "adox {t2}, {hi}",
            fold_p25519!(),
            a = inout(reg) a.as_ptr() => _,
            b = out(reg) _,
            o = in(reg) out.as_mut_ptr(),
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            t3 = out(reg) _,
            t4 = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::fixed::p25519;
    use modred_testkit::SplitMix64;

    /// Against the portable twin for random digits, all-ones digits (the longest carry
    /// chains; above `p`, which the fold allows), zeros, `p − 1`, `p`'s neighbours and
    /// single set digits; skipped, and said so, without BMI2 and ADX.
    #[test]
    fn matches_the_portable_twin() {
        if !super::super::has_bmi2_adx() {
            std::eprintln!(
                "skipped: this CPU has no BMI2/ADX (the portable product is tested alone)"
            );
            return;
        }
        let mut rng = SplitMix64::new(0x4d55_4c34);
        let p = p25519::P;
        let mut cases: alloc::vec::Vec<[u64; 4]> = alloc::vec![
            [u64::MAX; 4],
            [0; 4],
            [1, 0, 0, 0],
            [0, 0, 0, 1 << 63],
            [u64::MAX, 0, u64::MAX, 0],
            p,
            [p[0] - 1, p[1], p[2], p[3]],
            [p[0] + 1, p[1], p[2], p[3]],
            [u64::MAX, u64::MAX, u64::MAX, u64::MAX >> 1],
        ];
        for _ in 0..2000 {
            cases.push(core::array::from_fn(|_| rng.next_u64()));
        }
        for a in &cases {
            for b in cases.iter().take(64) {
                let mut out = [0xdead_beefu64; 4];
                // SAFETY: the CPU has BMI2 and ADX (checked above).
                unsafe { mul_mod_p25519_adx(&mut out, a, b) };
                assert_eq!(out, p25519::mul_portable::<true>(a, b), "{a:x?}·{b:x?}");
            }
            let mut out = [0xdead_beefu64; 4];
            // SAFETY: as above.
            unsafe { sqr_mod_p25519_adx(&mut out, a) };
            assert_eq!(out, p25519::mul_portable::<true>(a, a), "{a:x?}²");
        }
    }
}
