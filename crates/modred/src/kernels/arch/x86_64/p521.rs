//! Multiplication and squaring modulo `p = 2^521 − 1` on nine 64-bit digits, for
//! `reduce::fixed::p521` (the field of P-521): the product in registers
//! ([`mul_mod_p521_adx`]) or the square in 45 digit products ([`sqr_mod_p521_adx`]), then
//! the Mersenne fold in assembly ([`fold_p521`]). The portable twin is `reduce::fixed::p521::mul_portable` (the
//! product by `arith::mul_wide`, then `reduce::nist`'s fold in Rust); the test comparing
//! the two is below.

use core::arch::asm;

/// The digit `hi_i = ⌊z/2^(521 + 64i)⌋ mod 2^64` of the fold into `$dst`: `z_(8+i)`
/// (at byte `$lo` of rsi) shifted right by nine, with the low nine bits of `z_(9+i)` (at
/// `$next`) above (SHR, SHL, OR: the fold took 6.8 ns so, 7.3 with one SHRD a digit, on
/// an AMD EPYC Zen 5).
macro_rules! high_digit {
    ($dst:literal, $lo:literal, $next:literal) => {
        concat!(
            "mov ",
            $dst,
            ", [rsi + ",
            $lo,
            "]\n",
            "shr ",
            $dst,
            ", 9\n",
            "mov rax, [rsi + ",
            $next,
            "]\n",
            "shl rax, 55\n",
            "or ",
            $dst,
            ", rax\n",
        )
    };
}

/// `out = z mod p` for `z < p²` (the product of two field elements), in `[0, p)` — the
/// Mersenne fold of paper 003 §6.2 (`2^521 ≡ 1`): with
/// `lo = z mod 2^521` and `hi = ⌊z/2^521⌋` (at most `p − 1`), `s = lo + hi ≡ z` and
/// `s < 2p`. One carry chain computes `u = s + 1`; its bit 521, `q`, says whether `s ≥ p`,
/// and then `s − p = u − 2^521` is `u` without that bit; otherwise `s = u − 1`. So the
/// result is `(u mod 2^521) − (1 − q)`, a borrow chain: two chains of nine digits, against
/// the three of `reduce::nist`'s fold (which allows any `z < 2^1042`; at `z = 2^1042 − 1`
/// this one would leave `p`). Baseline x86-64 (SHRD, ADC, SBB). No branch, no
/// conditional move, no memory index depending on the values: constant time.
#[inline]
pub(crate) fn fold_p521(out: &mut [u64; 9], z: &[u64; 18]) {
    // SAFETY: the block reads z[0..18] and writes out[0..9] through their pointers, and
    // writes only registers declared as outputs; no stack use.
    unsafe {
        asm!(
            // lo_8 = z_8 mod 2^9 in rdx; hi = (r8..r15, rcx).
            "mov edx, [rsi + 64]",
            "and edx, 0x1ff",
            high_digit!("r8", "64", "72"),
            high_digit!("r9", "72", "80"),
            high_digit!("r10", "80", "88"),
            high_digit!("r11", "88", "96"),
            high_digit!("r12", "96", "104"),
            high_digit!("r13", "104", "112"),
            high_digit!("r14", "112", "120"),
            high_digit!("r15", "120", "128"),
            high_digit!("rcx", "128", "136"),
            // u = hi + lo + 1 (below 2^522: rcx stays below 2^10).
            "stc",
            "adc r8, [rsi]",
            "adc r9, [rsi + 8]",
            "adc r10, [rsi + 16]",
            "adc r11, [rsi + 24]",
            "adc r12, [rsi + 32]",
            "adc r13, [rsi + 40]",
            "adc r14, [rsi + 48]",
            "adc r15, [rsi + 56]",
            "adc rcx, rdx",
            // rax = 1 − q; u mod 2^521 − (1 − q).
            "mov eax, ecx",
            "shr eax, 9",
            "xor eax, 1",
            "and ecx, 0x1ff",
            "sub r8, rax",
            "sbb r9, 0",
            "sbb r10, 0",
            "sbb r11, 0",
            "sbb r12, 0",
            "sbb r13, 0",
            "sbb r14, 0",
            "sbb r15, 0",
            "sbb rcx, 0",
            "mov [rdi], r8",
            "mov [rdi + 8], r9",
            "mov [rdi + 16], r10",
            "mov [rdi + 24], r11",
            "mov [rdi + 32], r12",
            "mov [rdi + 40], r13",
            "mov [rdi + 48], r14",
            "mov [rdi + 56], r15",
            "mov [rdi + 64], rcx",
            in("rsi") z.as_ptr(),
            in("rdi") out.as_mut_ptr(),
            out("rax") _,
            out("rcx") _,
            out("rdx") _,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
            options(nostack),
        );
    }
}

/// `out = a² mod p` for `a < p`: the low eight digits' square `A²` in registers
/// ([`super::mont_mulx::sqr_8_regs`]), `2·a_8·A·2^512` as one row (`a_8 < 2^9`, so `2·a_8`
/// is one digit) and `a_8²·2^1024`, then [`fold_p521`]: 36 + 8 + 1 digit products.
/// Constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
pub(crate) unsafe fn sqr_mod_p521_adx(out: &mut [u64; 9], a: &[u64; 9]) {
    let low: &[u64; 8] = a[..8].try_into().expect("nine digits");
    debug_assert!(a[8] < 1 << 9, "a field element of P-521");
    let mut z = [0u64; 18];
    // SAFETY: the caller guarantees BMI2 and ADX.
    unsafe {
        super::mont_mulx::sqr_8_regs((&mut z[..16]).try_into().expect("sixteen digits"), low);
        top_row(&mut z, a);
    }
    fold_p521(out, &z);
}

/// One digit product of [`top_row`]: `a_i·(2·a_8)` (`a_i` at byte `$off` of rsi) added
/// to `z_(8+i)` — the low half and the previous step's high half (`$h`) on the ADCX chain,
/// the digit of `z` on the ADOX chain — the high half left in `$h1`.
macro_rules! top_step {
    ($off:literal, $z:literal, $h:literal, $h1:literal) => {
        concat!(
            "mulx ",
            $h1,
            ", rax, [rsi + ",
            $off,
            "]\n",
            "adcx rax, ",
            $h,
            "\n",
            "adox rax, [rdi + ",
            $z,
            "]\n",
            "mov [rdi + ",
            $z,
            "], rax\n",
        )
    };
}

/// `z += (2·a_8·A)·2^512 + a_8²·2^1024` for `A = a mod 2^512`, `a_8 < 2^9` and `z = A²`:
/// one row of eight digit products, straight-line, and the top digit's square (the sum,
/// `a² < 2^1042`, leaves `z_17 = 0`). Constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
unsafe fn top_row(z: &mut [u64; 18], a: &[u64; 9]) {
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads a[0..9] and reads and
    // writes z[8..17] through their pointers, and writes only registers declared as
    // outputs; no stack use.
    unsafe {
        asm!(
            "mov rdx, [rsi + 64]",
            "mov r10, rdx",
            "imul r10, rdx",
            "add rdx, rdx",
            // CF = OF = 0, no high half yet.
            "xor r8d, r8d",
            top_step!("0", "64", "r8", "r9"),
            top_step!("8", "72", "r9", "r8"),
            top_step!("16", "80", "r8", "r9"),
            top_step!("24", "88", "r9", "r8"),
            top_step!("32", "96", "r8", "r9"),
            top_step!("40", "104", "r9", "r8"),
            top_step!("48", "112", "r8", "r9"),
            top_step!("56", "120", "r9", "r8"),
            // z_16 = the last high half, both chains' carries and a_8² (below 2^64).
            "mov eax, 0",
            "adcx r8, rax",
            "adox r8, rax",
            "add r8, r10",
            "mov [rdi + 128], r8",
            in("rsi") a.as_ptr(),
            in("rdi") z.as_mut_ptr(),
            out("rax") _,
            out("rdx") _,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            options(nostack),
        );
    }
}

/// `out = a·b mod p` for `a, b < p`: the product in registers ([`super::mul_9_regs`]),
/// then [`fold_p521`]. Constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
pub(crate) unsafe fn mul_mod_p521_adx(out: &mut [u64; 9], a: &[u64; 9], b: &[u64; 9]) {
    let mut z = [0u64; 18];
    // SAFETY: the caller guarantees BMI2 and ADX.
    unsafe { super::mul_9_regs(&mut z, a, b) };
    fold_p521(out, &z);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nat::Nat;
    use crate::reduce::fixed::p521;
    use crate::reduce::nist::NistPrime;
    use modred_testkit::SplitMix64;

    fn p() -> Nat {
        Nat::from_limbs(&NistPrime::P521.modulus_u64())
    }

    fn digits<const K: usize>(x: &Nat) -> [u64; K] {
        x.to_padded(K).unwrap().try_into().unwrap()
    }

    /// Field elements at the edges (0, 1, `p − 1`, `p − 2`, `2^520`, the top digit all
    /// ones, the low eight digits all ones) and at random.
    fn elements(rng: &mut SplitMix64, random: usize) -> alloc::vec::Vec<[u64; 9]> {
        let p = p();
        let mut xs: alloc::vec::Vec<[u64; 9]> = [0u64, 1, 2]
            .iter()
            .flat_map(|&k| [Nat::from_u64(k), &p - &Nat::from_u64(k + 1)])
            .map(|x| digits(&x))
            .collect();
        xs.push([0, 0, 0, 0, 0, 0, 0, 0, 1 << 8]);
        xs.push([0, 0, 0, 0, 0, 0, 0, 0, 0x1ff]);
        xs.push([
            u64::MAX,
            u64::MAX,
            u64::MAX,
            u64::MAX,
            u64::MAX,
            u64::MAX,
            u64::MAX,
            u64::MAX,
            0,
        ]);
        while xs.len() < 9 + random {
            let mut x: [u64; 9] = core::array::from_fn(|_| rng.next_u64());
            x[8] &= 0x1ff;
            if Nat::from_limbs(&x) < p {
                xs.push(x);
            }
        }
        xs
    }

    /// The fold against `Nat`'s remainder and `reduce::nist`'s fold for every `z < p²`
    /// that bounds its two chains: `s = lo + hi` at 0, 1, `p − 1`, `p`, `p + 1` and its
    /// largest, `2p − 2` (`z = (p − 2)·2^521 + p`), `z = p² − 1`, multiples of `p`, and
    /// random numbers below `p²`.
    #[test]
    fn fold_matches_nat_and_the_portable_fold() {
        let p = p();
        let p2 = p.sqr();
        let one = Nat::one();
        let shift = |x: &Nat| x.mul(&Nat::power_of_two(521));
        let mut zs: alloc::vec::Vec<Nat> = alloc::vec![
            Nat::zero(),
            one.clone(),
            &p - &one,
            p.clone(),
            &p + &one,
            &shift(&(&p - &Nat::from_u64(2))) + &p,
            &p2 - &one,
            shift(&one),
            &shift(&(&p - &one)) - &one,
        ];
        for k in [2u64, 3, 0x1234_5678, u64::MAX] {
            zs.push(p.mul(&Nat::from_u64(k)));
        }
        let mut rng = SplitMix64::new(0x0521_f01d);
        for _ in 0..3000 {
            let z = Nat::from_limbs(&core::array::from_fn::<u64, 17, _>(|_| rng.next_u64()));
            zs.push(z.checked_rem(&p2).unwrap());
        }
        for z in &zs {
            assert!(*z < p2);
            let z18: [u64; 18] = digits(z);
            let mut out = [0xdead_beefu64; 9];
            fold_p521(&mut out, &z18);
            let want = z.checked_rem(&p).unwrap();
            assert_eq!(Nat::from_limbs(&out), want, "{z18:x?}");
            let wide: [[u64; 9]; 2] = [z18[..9].try_into().unwrap(), z18[9..].try_into().unwrap()];
            assert_eq!(out, NistPrime::P521.reduce_wide::<9, true>(&wide));
        }
    }

    /// Products and squares against the portable twins; skipped, and said so, without BMI2
    /// and ADX.
    #[test]
    fn matches_the_portable_twin() {
        if !super::super::has_bmi2_adx() {
            std::eprintln!(
                "skipped: this CPU has no BMI2/ADX (the portable P-521 product is tested alone)"
            );
            return;
        }
        let mut rng = SplitMix64::new(0x0521_4d55);
        let xs = elements(&mut rng, 1000);
        for a in &xs {
            for b in xs.iter().take(48) {
                let mut out = [0xdead_beefu64; 9];
                // SAFETY: the CPU has BMI2 and ADX (checked above).
                unsafe { mul_mod_p521_adx(&mut out, a, b) };
                assert_eq!(out, p521::mul_portable::<true>(a, b), "{a:x?}·{b:x?}");
            }
            let mut out = [0xdead_beefu64; 9];
            // SAFETY: as above.
            unsafe { sqr_mod_p521_adx(&mut out, a) };
            assert_eq!(out, p521::sqr_portable::<true>(a), "{a:x?}²");
        }
    }
}
