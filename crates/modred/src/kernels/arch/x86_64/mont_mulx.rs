//! Montgomery multiplication and squaring of any width on BMI2 (MULX) and ADX
//! (ADCX/ADOX): the product of moduli of 5–64 digits (and any other width) on x86-64 CPUs
//! without AVX-512 IFMA.
//!
//! [`mont_mul`] is Montgomery multiplication in the Coarsely Integrated Operand Scanning
//! form (Koç, Acar and Kaliski 1996; the loop of `ct::cios`) with the two inner loops fused
//! into one pass, the structure of OpenSSL's `bn_mulx4x_mont` (crypto/bn/asm/x86_64-mont.pl):
//! per digit `b_i`, first `u = (t_0 + a_0·b_i)·m' mod 2^64`, then one pass over `t` in blocks
//! of four digits, each block
//!
//! ```text
//! s[j..j+4] = t[j..j+4] + a[j..j+4]·b_i + ca     MULX; ADOX: the product's carries,
//!                                                  ADCX: the sum with t; ca: the block's top
//! t[j−1..j+3] = s[j..j+4] + u·m[j..j+4] + cm     MULX; ADOX: the product's carries,
//!                                                  ADCX: the sum with s; cm: the block's top
//! ```
//!
//! so that both rows run on two independent carry chains each and the shift of `t` by a
//! digit (the division by `2^64`) is in the addressing; the last `k mod 4` digits run one
//! at a time. The carry digits `ca`, `cm` stay below `2^64`: a block of `t` plus a block of
//! `a` times a digit plus a carry digit is below `2^320`.
//!
//! At 8 digits (512 bits) [`mont_mul`] runs the same steps unrolled with the running value
//! in ten registers ([`mont_mul_8_loop`]): no loop counter, pointer or digit of `t` goes
//! through memory, which the looped form pays for in every block of four digits.
//!
//! For `8n` digits from 16 both run eight rows per pass instead ([`super::rows8`]): the
//! product (or square) first, then Montgomery's reduction, each digit product one MULX,
//! ADCX and ADOX on a window of eight digits in registers.
//!
//! [`mont_sqr`] is the square of the triangle ([`super::sqr_basecase_adx`]: the cross
//! products once, doubled, the diagonal added) followed by Montgomery's reduction (paper
//! 000, Algorithm 3) in one MULX/ADCX/ADOX block ([`redc_rows`]), `k(k+1)/2 + k(k+1)` digit
//! products against the `2k² + k` of [`mont_mul`] with `a` twice. At 8 digits the three
//! steps run unrolled with the live digits in registers ([`mont_sqr_8_regs`]): 100 digit
//! products against 128, about a tenth less time per chained square (the reduction's
//! rows wait on each other: each `u` needs the row before, so the time is the chain of
//! IMUL, MULX and two additions per row more than the products' count).
//!
//! At 9 digits (576 bits; the odd parts of even moduli up to 640 bits) the product
//! ([`super::mul_9_regs`]) or the square ([`sqr_9`]: the low eight digits' square in
//! registers and the ninth digit's rows) is followed by the reduction with the low half in
//! ten registers ([`redc_9_regs`], every general register in use): a 576-bit square 110 →
//! 82 ns and product 115 → 87 ns against the general code (AMD EPYC Zen 4).
//!
//! At 10–47 digits but the multiples of 8 (577–3008 bits) both are the product or square and
//! the reduction with every row written out ([`super::unrolled`]), no loop inside a row.
//!
//! Both end in one subtraction of `m`, always computed and kept or dropped by a mask: no
//! branch or memory address depends on the operands (the time depends on `k` only), which
//! is what `ct::MontgomeryCt` needs.

use crate::kernels::portable;
use core::arch::asm;

/// The CIOS loop, fused: for `a, b < m` (`k ≥ 1` digits each, `m` odd, `m0inv = −m_0^(−1)
/// mod 2^64`) and `t` of `k + 2` zero digits, leaves `a·b·2^(−64k) mod m` or that plus `m`
/// (the value is below `2m`) as `t[k+1]·2^(64k) + t[1..=k]`, `t[k+1] ∈ {0, 1}`; `t[0]` is
/// a dummy digit the shifted stores of the first block write.
///
/// Invariant (as `ct::cios`): after each digit of `b` the running value is below `2m`.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If the lengths differ from the above (checked before the assembly).
#[inline]
pub(crate) unsafe fn mont_mul_loop(t: &mut [u64], a: &[u64], b: &[u64], m: &[u64], m0inv: u64) {
    let k = m.len();
    assert!(
        k >= 1 && a.len() == k && b.len() == k && t.len() == k + 2,
        "mont_mul_loop: operand lengths"
    );
    // SAFETY: the caller guarantees BMI2 (MULX) and ADX (ADCX, ADOX). The loop reads
    // a[0..k], b[0..k], m[0..k] and reads and writes t[0..k+2] (through tp = t + 1: the
    // stores at tp − 8 land on t[0]), in bounds by the assertion above; `t` is exclusive,
    // the rest shared. The asm saves rbx and rbp (which `asm!` cannot name) on the stack
    // and keeps its state in 72 bytes below them, restoring the stack pointer and both
    // registers at the end (no `nostack`); every other register it writes is declared.
    //
    // Frame: [rsp] the block (then digit) counter, [rsp+8] the pointer to b_i, [rsp+16]
    // digits of b left, [rsp+24] a, [rsp+32] m, [rsp+40] t + 1, [rsp+48] m', [rsp+56] k / 4,
    // [rsp+64] k mod 4. Registers: rbx = b_i, rbp = u, rcx = 0 (the zero the closing
    // ADCX/ADOX add), r8 → a_j, r9 → m_j, r10 → t_j, rax = ca, r11 = cm, r12–r15 the
    // block's four digits, rsi/rdi the high halves, rdx the multiplier.
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            "sub rsp, 72",
            "mov [rsp + 8], rsi",
            "mov [rsp + 16], rcx",
            "mov [rsp + 24], r8",
            "mov [rsp + 32], r9",
            "mov [rsp + 40], r10",
            "mov [rsp + 48], rdi",
            "mov rax, rcx",
            "shr rax, 2",
            "mov [rsp + 56], rax",
            "and rcx, 3",
            "mov [rsp + 64], rcx",
            "xor ecx, ecx",
            // One digit b_i of b.
            "2:",
            "mov rsi, [rsp + 8]",
            "mov rbx, [rsi]",
            "lea rsi, [rsi + 8]",
            "mov [rsp + 8], rsi",
            "mov r8, [rsp + 24]",
            "mov r9, [rsp + 32]",
            "mov r10, [rsp + 40]",
            // u = (t_0 + a_0·b_i)·m' mod 2^64.
            "mov rbp, [r8]",
            "imul rbp, rbx",
            "add rbp, [r10]",
            "imul rbp, [rsp + 48]",
            "mov rdx, rbx",
            // ca = cm = 0; TEST clears CF and OF.
            "xor eax, eax",
            "xor r11d, r11d",
            "mov rsi, [rsp + 56]",
            "mov [rsp], rsi",
            "test rsi, rsi",
            "jz 4f",
            // Blocks of four digits; CF = OF = 0 at the top, rdx = b_i.
            "3:",
            "mulx rsi, r12, [r8]",
            // CF = OF = 0 already; TEST (rcx = 0) writes them without reading them, which
            // cuts the flags' dependence on the block before: the block's rows then wait
            // only for their own carry digit and overlap the rows of the block before.
            "test rcx, rcx",
            "adox r12, rax",
            "adcx r12, [r10]",
            "mulx rdi, r13, [r8 + 8]",
            "adox r13, rsi",
            "adcx r13, [r10 + 8]",
            "mulx rsi, r14, [r8 + 16]",
            "adox r14, rdi",
            "adcx r14, [r10 + 16]",
            "mulx rax, r15, [r8 + 24]",
            "adox r15, rsi",
            "adcx r15, [r10 + 24]",
            // ca = high + OF + CF (< 2^64); leaves CF = OF = 0.
            "adox rax, rcx",
            "adcx rax, rcx",
            "mov rdx, rbp",
            "mulx rsi, rdi, [r9]",
            "test rcx, rcx",
            "adcx r12, rdi",
            "adox r12, r11",
            "mov [r10 - 8], r12",
            "mulx rdi, r12, [r9 + 8]",
            "adcx r13, r12",
            "adox r13, rsi",
            "mov [r10], r13",
            "mulx rsi, r12, [r9 + 16]",
            "adcx r14, r12",
            "adox r14, rdi",
            "mov [r10 + 8], r14",
            "mulx r11, r12, [r9 + 24]",
            "adcx r15, r12",
            "adox r15, rsi",
            "mov [r10 + 16], r15",
            "adox r11, rcx",
            "adcx r11, rcx",
            "mov rdx, rbx",
            "lea r8, [r8 + 32]",
            "lea r9, [r9 + 32]",
            "lea r10, [r10 + 32]",
            // DEC leaves CF and sets OF only on a signed overflow, which a count cannot.
            "dec qword ptr [rsp]",
            "jnz 3b",
            // The last k mod 4 digits, one at a time, both chains closed per digit.
            "4:",
            "mov rsi, [rsp + 64]",
            "mov [rsp], rsi",
            "test rsi, rsi",
            "jz 6f",
            "5:",
            "mulx rsi, r12, [r8]",
            "test rcx, rcx",
            "adox r12, rax",
            "adcx r12, [r10]",
            "mov rax, rsi",
            "adox rax, rcx",
            "adcx rax, rcx",
            "mov rdx, rbp",
            "mulx rsi, r13, [r9]",
            "test rcx, rcx",
            "adcx r12, r13",
            "adox r12, r11",
            "mov [r10 - 8], r12",
            "mov r11, rsi",
            "adox r11, rcx",
            "adcx r11, rcx",
            "mov rdx, rbx",
            "lea r8, [r8 + 8]",
            "lea r9, [r9 + 8]",
            "lea r10, [r10 + 8]",
            "dec qword ptr [rsp]",
            "jnz 5b",
            // r10 → t_k: t'_(k−1) + 2^64·t'_k = t_k + ca + cm (the value stays below 2m,
            // so t'_k ∈ {0, 1}).
            "6:",
            "xor r12d, r12d",
            "add rax, r11",
            "adc r12, 0",
            "add rax, [r10]",
            "adc r12, 0",
            "mov [r10 - 8], rax",
            "mov [r10], r12",
            "dec qword ptr [rsp + 16]",
            "jnz 2b",
            "add rsp, 72",
            "pop rbp",
            "pop rbx",
            inout("r8") a.as_ptr() => _,
            inout("r9") m.as_ptr() => _,
            inout("r10") t.as_mut_ptr().add(1) => _,
            inout("rsi") b.as_ptr() => _,
            inout("rdi") m0inv => _,
            inout("rcx") k => _,
            out("rax") _,
            out("rdx") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
        );
    }
}

/// Montgomery's reduction loop (paper 000, Algorithm 3, as
/// `reduce::montgomery::redc_in_place`) in one MULX/ADCX/ADOX block: for `i = 0 … k−1`,
/// `u = p_i·m' mod 2^64` and `p[i..i+k] += u·m` on two carry chains (ADCX: the product's
/// carries, ADOX: the sum's), the row's carry digit parked in `p_i` (which the row
/// cleared); the caller adds the parked carries at position `k`. `p` has `2k` digits.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If `p.len() != 2·m.len()` or `m` is empty.
#[inline]
pub(crate) unsafe fn redc_rows(p: &mut [u64], m: &[u64], m0inv: u64) {
    let k = m.len();
    assert!(k >= 1 && p.len() == 2 * k, "redc_rows: operand lengths");
    // SAFETY: the caller guarantees BMI2 and ADX. Row i reads m[0..k] and reads and
    // writes p[i..i+k], i < k, within p[0..2k] by the assertion above; `p` is exclusive.
    // Registers: r8 → p_i, r10 → p_(i+j), r11 → m_j, rdx = u, rax/r12 the high halves,
    // r13 the low half, rcx the block (then digit) counter, rsi the rows left, r14 = k / 4,
    // r15 = k mod 4; every register written is declared; the stack is untouched.
    unsafe {
        asm!(
            "2:",
            "mov rdx, [r8]",
            "imul rdx, rdi",
            "mov r10, r8",
            "mov r11, r9",
            // h = 0, CF = OF = 0.
            "xor eax, eax",
            "mov rcx, r14",
            "jrcxz 4f",
            "3:",
            "mulx r12, r13, [r11]",
            "adcx r13, rax",
            "adox r13, [r10]",
            "mov [r10], r13",
            "mulx rax, r13, [r11 + 8]",
            "adcx r13, r12",
            "adox r13, [r10 + 8]",
            "mov [r10 + 8], r13",
            "mulx r12, r13, [r11 + 16]",
            "adcx r13, rax",
            "adox r13, [r10 + 16]",
            "mov [r10 + 16], r13",
            "mulx rax, r13, [r11 + 24]",
            "adcx r13, r12",
            "adox r13, [r10 + 24]",
            "mov [r10 + 24], r13",
            "lea r10, [r10 + 32]",
            "lea r11, [r11 + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 4f",
            "jmp 3b",
            "4:",
            "mov rcx, r15",
            "jrcxz 6f",
            "5:",
            "mulx r12, r13, [r11]",
            "adcx r13, rax",
            "adox r13, [r10]",
            "mov [r10], r13",
            "mov rax, r12",
            "lea r10, [r10 + 8]",
            "lea r11, [r11 + 8]",
            "lea rcx, [rcx - 1]",
            "jrcxz 6f",
            "jmp 5b",
            // The row's carry digit h + CF + OF (< 2^64: p[i..i+k] + u·m < 2^(64(k+1)))
            // parked in p_i, which the row made zero.
            "6:",
            "mov r13d, 0",
            "adcx rax, r13",
            "adox rax, r13",
            "mov [r8], rax",
            "lea r8, [r8 + 8]",
            "dec rsi",
            "jnz 2b",
            inout("r8") p.as_mut_ptr() => _,
            in("r9") m.as_ptr(),
            in("rdi") m0inv,
            inout("rsi") k => _,
            in("r14") k / 4,
            in("r15") k % 4,
            out("rax") _,
            out("rcx") _,
            out("rdx") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
            options(nostack),
        );
    }
}

/// One row of [`mont_mul_8_loop`]: the window `s0..s8` plus `rdx·x[0..8]` (`$x` → `x_0`),
/// MULX for the products, ADCX adding the low halves at their digit and ADOX the high
/// halves one digit up; both chains close into `c`, the digit above `s8`. The caller's
/// bounds keep `c` a single digit: the `a·b_i` row starts it at 0 and leaves at most 1
/// (window below `2m`, plus `a·b_i`: below `2^577`); the `u·m` row's sum divided by `2^64`
/// is below `2m`, so `c` stays in `{0, 1}`. Clobbers r14, r15 and the flags. `$init_c` is `"mov c, 0"` for the row that makes `c`, empty for the
/// row that adds to it.
macro_rules! row8 {
    ($x:literal, $init_c:expr; $s0:literal, $s1:literal, $s2:literal, $s3:literal,
     $s4:literal, $s5:literal, $s6:literal, $s7:literal, $s8:literal, $c:literal) => {
        concat!(
            // XOR clears CF and OF without reading them; MOV leaves the flags.
            "xor r14d, r14d\n",
            $init_c,
            "mulx r15, r14, [",
            $x,
            "]\n",
            "adcx ",
            $s0,
            ", r14\n",
            "adox ",
            $s1,
            ", r15\n",
            "mulx r15, r14, [",
            $x,
            " + 8]\n",
            "adcx ",
            $s1,
            ", r14\n",
            "adox ",
            $s2,
            ", r15\n",
            "mulx r15, r14, [",
            $x,
            " + 16]\n",
            "adcx ",
            $s2,
            ", r14\n",
            "adox ",
            $s3,
            ", r15\n",
            "mulx r15, r14, [",
            $x,
            " + 24]\n",
            "adcx ",
            $s3,
            ", r14\n",
            "adox ",
            $s4,
            ", r15\n",
            "mulx r15, r14, [",
            $x,
            " + 32]\n",
            "adcx ",
            $s4,
            ", r14\n",
            "adox ",
            $s5,
            ", r15\n",
            "mulx r15, r14, [",
            $x,
            " + 40]\n",
            "adcx ",
            $s5,
            ", r14\n",
            "adox ",
            $s6,
            ", r15\n",
            "mulx r15, r14, [",
            $x,
            " + 48]\n",
            "adcx ",
            $s6,
            ", r14\n",
            "adox ",
            $s7,
            ", r15\n",
            "mulx r15, r14, [",
            $x,
            " + 56]\n",
            "adcx ",
            $s7,
            ", r14\n",
            "adox ",
            $s8,
            ", r15\n",
            "mov r14d, 0\n",
            "adcx ",
            $s8,
            ", r14\n",
            "adox ",
            $c,
            ", r14\n",
            "adcx ",
            $c,
            ", r14\n",
        )
    };
}

/// One CIOS step of [`mont_mul_8_loop`] for the digit `b_i` at offset `$off` of `b`
/// (pointer at `[rsp + 16]`): the window `s0..s8` (below `2m`) plus `a·b_i` into
/// `s0..s8, c`, then `u = s0·m' mod 2^64` and plus `u·m`, which clears `s0`: the value
/// divided by `2^64` is `s1..s8, c`, below `2m` again (`c ∈ {0, 1}`), the next step's
/// window, and `s0` the next step's `c`.
macro_rules! cios_step8 {
    ($off:literal; $s0:literal, $s1:literal, $s2:literal, $s3:literal, $s4:literal,
     $s5:literal, $s6:literal, $s7:literal, $s8:literal, $c:literal) => {
        concat!(
            "mov rdx, [rsp + 16]\n",
            "mov rdx, [rdx + ", $off, "]\n",
            row8!("rsi", concat!("mov ", $c, ", 0\n");
                  $s0, $s1, $s2, $s3, $s4, $s5, $s6, $s7, $s8, $c),
            "mov rdx, ", $s0, "\n",
            // IMUL writes CF and OF; the row's XOR clears them after.
            "imul rdx, [rsp]\n",
            row8!("rdi", ""; $s0, $s1, $s2, $s3, $s4, $s5, $s6, $s7, $s8, $c),
        )
    };
}

/// The CIOS loop for 8-digit (512-bit) moduli with the running value in registers: for
/// `a, b < m` (8 digits each, `m` odd, `m0inv = −m_0^(−1) mod 2^64`), leaves `a·b·2^(−512)
/// mod m` or that plus `m` (below `2m`) in `t[0..8]` and its top digit (`{0, 1}`) in
/// `t[8]`. The arithmetic of [`mont_mul_loop`] (Koç–Acar–Kaliski's CIOS), unrolled: eight
/// steps over ten registers, a window of nine digits and a carry digit, that rotate by one
/// digit per step, so `t` is written once at the end and no counter or running digit goes
/// through memory. `8·16 = 128` digit products; constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
pub(crate) unsafe fn mont_mul_8_loop(
    t: &mut [u64; 9],
    a: &[u64; 8],
    b: &[u64; 8],
    m: &[u64; 8],
    m0inv: u64,
) {
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads a, b, m (eight digits
    // each, by reference) and writes t's nine digits; it saves rbx and rbp (which `asm!`
    // cannot name) on the stack with m', the pointer to t and the pointer to b below them,
    // restores the stack pointer and both registers at the end (no `nostack`), and
    // declares every other register it writes.
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            "sub rsp, 24",
            "mov [rsp], r14",
            "mov [rsp + 8], r15",
            "mov [rsp + 16], rdx",
            "xor eax, eax",
            "xor ebx, ebx",
            "xor ecx, ecx",
            "xor r8d, r8d",
            "xor r9d, r9d",
            "xor r10d, r10d",
            "xor r11d, r11d",
            "xor r12d, r12d",
            "xor r13d, r13d",
            cios_step8!("0"; "rax", "rbx", "rcx", "r8", "r9", "r10", "r11", "r12", "r13", "rbp"),
            cios_step8!("8"; "rbx", "rcx", "r8", "r9", "r10", "r11", "r12", "r13", "rbp", "rax"),
            cios_step8!("16"; "rcx", "r8", "r9", "r10", "r11", "r12", "r13", "rbp", "rax", "rbx"),
            cios_step8!("24"; "r8", "r9", "r10", "r11", "r12", "r13", "rbp", "rax", "rbx", "rcx"),
            cios_step8!("32"; "r9", "r10", "r11", "r12", "r13", "rbp", "rax", "rbx", "rcx", "r8"),
            cios_step8!("40"; "r10", "r11", "r12", "r13", "rbp", "rax", "rbx", "rcx", "r8", "r9"),
            cios_step8!("48"; "r11", "r12", "r13", "rbp", "rax", "rbx", "rcx", "r8", "r9", "r10"),
            cios_step8!("56"; "r12", "r13", "rbp", "rax", "rbx", "rcx", "r8", "r9", "r10", "r11"),
            // The window after eight steps: r13, rbp, rax, rbx, rcx, r8, r9, r10, r11.
            "mov r15, [rsp + 8]",
            "mov [r15 + 0], r13",
            "mov [r15 + 8], rbp",
            "mov [r15 + 16], rax",
            "mov [r15 + 24], rbx",
            "mov [r15 + 32], rcx",
            "mov [r15 + 40], r8",
            "mov [r15 + 48], r9",
            "mov [r15 + 56], r10",
            "mov [r15 + 64], r11",
            "add rsp, 24",
            "pop rbp",
            "pop rbx",
            inout("rsi") a.as_ptr() => _,
            inout("rdi") m.as_ptr() => _,
            inout("rdx") b.as_ptr() => _,
            inout("r14") m0inv => _,
            inout("r15") t.as_mut_ptr() => _,
            out("rax") _,
            out("rcx") _,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
        );
    }
}

/// `$lo += low half of rdx·[rsi + $off]` on the ADCX chain and `$hi += high half` on the
/// ADOX chain (r14, r15 the product's halves): one digit product of a row of the
/// triangle in [`mont_sqr_8_regs`].
macro_rules! cross_product {
    ($off:literal, $lo:literal, $hi:literal) => {
        concat!(
            "mulx r15, r14, [rsi + ",
            $off,
            "]\n",
            "adcx ",
            $lo,
            ", r14\n",
            "adox ",
            $hi,
            ", r15\n",
        )
    };
}

/// The end of row `i` of the triangle in [`mont_sqr_8_regs`]: the ADCX chain's carry into
/// the top digit `$top` (the ADOX chain has none: the top was zero), then the row's two
/// lowest digits, final, stored to `cross` (at `[rdi + $off]`).
macro_rules! close_cross_row {
    ($top:literal; $off0:literal, $d0:literal, $off1:literal, $d1:literal) => {
        concat!(
            "mov r14d, 0\n",
            "adcx ",
            $top,
            ", r14\n",
            "mov [rdi + ",
            $off0,
            "], ",
            $d0,
            "\n",
            "mov [rdi + ",
            $off1,
            "], ",
            $d1,
            "\n",
        )
    };
}

/// One digit of the square in [`mont_sqr_8_regs`]'s second pass, at byte offset `$pos8`
/// (eight times its position): `$dst` = twice the triangle's digit read from `[rdi +
/// $pos8]` (the doubling's carry on the ADCX chain) plus `$half` (a half of the diagonal
/// square `a_i²`, on the ADOX chain).
macro_rules! doubled_digit {
    ($pos8:literal, $dst:literal, $half:literal) => {
        concat!(
            "mov ",
            $dst,
            ", [rdi + ",
            $pos8,
            "]\n",
            "adcx ",
            $dst,
            ", ",
            $dst,
            "\n",
            "adox ",
            $dst,
            ", ",
            $half,
            "\n",
        )
    };
}

/// The triangle of an 8-digit square in registers, the first pass of [`mont_sqr_8_regs`]
/// and [`sqr_8_regs`]: `C = Σ_(i<j) a_i·a_j·2^(64(i+j))` (`a` at rsi), row `i` (`a_i` times
/// `a[i+1..8]`) adding into the live digits `2i+1 ..= i+8` in registers, each row's two
/// lowest digits, final, stored to `[rdi + 8·(2i+1)]` and `[rdi + 8·(2i+2)]` (digits 1..=14;
/// digits 0 and 15 are zero). Clobbers rax, rbx, rcx, rbp, r8–r15, rdx and the flags.
macro_rules! triangle_8 {
    () => {
        concat!(
            // Row 0: a_0·a[1..8] into digits 1..=8 (rax … r11).
            "xor eax, eax\n",
            "xor ebx, ebx\n",
            "xor ecx, ecx\n",
            "xor ebp, ebp\n",
            "xor r8d, r8d\n",
            "xor r9d, r9d\n",
            "xor r10d, r10d\n",
            "xor r11d, r11d\n",
            "mov rdx, [rsi]\n",
            cross_product!("8", "rax", "rbx"),
            cross_product!("16", "rbx", "rcx"),
            cross_product!("24", "rcx", "rbp"),
            cross_product!("32", "rbp", "r8"),
            cross_product!("40", "r8", "r9"),
            cross_product!("48", "r9", "r10"),
            cross_product!("56", "r10", "r11"),
            close_cross_row!("r11"; "8", "rax", "16", "rbx"),
            // Row 1: digits 3..=9 (rcx, rbp, r8 … r12).
            "xor r12d, r12d\n",
            "mov rdx, [rsi + 8]\n",
            cross_product!("16", "rcx", "rbp"),
            cross_product!("24", "rbp", "r8"),
            cross_product!("32", "r8", "r9"),
            cross_product!("40", "r9", "r10"),
            cross_product!("48", "r10", "r11"),
            cross_product!("56", "r11", "r12"),
            close_cross_row!("r12"; "24", "rcx", "32", "rbp"),
            // Row 2: digits 5..=10 (r8 … r13).
            "xor r13d, r13d\n",
            "mov rdx, [rsi + 16]\n",
            cross_product!("24", "r8", "r9"),
            cross_product!("32", "r9", "r10"),
            cross_product!("40", "r10", "r11"),
            cross_product!("48", "r11", "r12"),
            cross_product!("56", "r12", "r13"),
            close_cross_row!("r13"; "40", "r8", "48", "r9"),
            // Row 3: digits 7..=11 (r10 … r13, rax).
            "xor eax, eax\n",
            "mov rdx, [rsi + 24]\n",
            cross_product!("32", "r10", "r11"),
            cross_product!("40", "r11", "r12"),
            cross_product!("48", "r12", "r13"),
            cross_product!("56", "r13", "rax"),
            close_cross_row!("rax"; "56", "r10", "64", "r11"),
            // Row 4: digits 9..=12 (r12, r13, rax, rbx).
            "xor ebx, ebx\n",
            "mov rdx, [rsi + 32]\n",
            cross_product!("40", "r12", "r13"),
            cross_product!("48", "r13", "rax"),
            cross_product!("56", "rax", "rbx"),
            close_cross_row!("rbx"; "72", "r12", "80", "r13"),
            // Row 5: digits 11..=13 (rax, rbx, rcx).
            "xor ecx, ecx\n",
            "mov rdx, [rsi + 40]\n",
            cross_product!("48", "rax", "rbx"),
            cross_product!("56", "rbx", "rcx"),
            close_cross_row!("rcx"; "88", "rax", "96", "rbx"),
            // Row 6: digits 13..=14 (rcx, rbp).
            "xor ebp, ebp\n",
            "mov rdx, [rsi + 48]\n",
            cross_product!("56", "rcx", "rbp"),
            close_cross_row!("rbp"; "104", "rcx", "112", "rbp"),
        )
    };
}

/// One step of the reduction in [`mont_sqr_8_regs`]: `u = s0·m' mod 2^64` (m' at
/// `[rsp]`), then the window `s0..s8` plus `u·m` into `s0..s8, c` (`m` at rdi), which
/// clears `s0`: the value divided by `2^64` is `s1..s8, c`, the next step's window, and
/// `s0` the next step's `c`.
macro_rules! redc_step8 {
    ($s0:literal, $s1:literal, $s2:literal, $s3:literal, $s4:literal,
     $s5:literal, $s6:literal, $s7:literal, $s8:literal, $c:literal) => {
        concat!(
            "mov rdx, ", $s0, "\n",
            // IMUL writes CF and OF; the row's XOR clears them after.
            "imul rdx, [rsp]\n",
            row8!("rdi", concat!("mov ", $c, ", 0\n");
                  $s0, $s1, $s2, $s3, $s4, $s5, $s6, $s7, $s8, $c),
        )
    };
}

/// One row of the narrow register loops ([`mont_mul_7_loop`], [`mont_mul_6_loop`],
/// [`mont_mul_5_loop`]): `row8!` for `n` digits, the window `s0..s_n` plus `rdx·x[0..n]`
/// into `s0..s_n, c` (the bounds as for eight digits). The products are listed as `(byte
/// offset, low digit's register, high digit's register)`; `$top` is `s_n`.
macro_rules! row_n {
    ($x:literal, $init_c:expr; $top:literal, $c:literal; $(($off:literal, $lo:literal, $hi:literal)),+) => {
        concat!(
            "xor r14d, r14d\n",
            $init_c,
            $(
                "mulx r15, r14, [", $x, " + ", $off, "]\n",
                "adcx ", $lo, ", r14\n",
                "adox ", $hi, ", r15\n",
            )+
            "mov r14d, 0\n",
            "adcx ", $top, ", r14\n",
            "adox ", $c, ", r14\n",
            "adcx ", $c, ", r14\n",
        )
    };
}

/// One CIOS step of the narrow register loops, as `cios_step8!`: the digit of `b` at
/// `$off`, `$s0` the window's lowest register, the products as in `row_n!`.
macro_rules! cios_step_n {
    ($off:literal; $s0:literal, $top:literal, $c:literal; $($prod:tt),+) => {
        concat!(
            "mov rdx, [rsp + 16]\n",
            "mov rdx, [rdx + ", $off, "]\n",
            row_n!("rsi", concat!("mov ", $c, ", 0\n"); $top, $c; $($prod),+),
            "mov rdx, ", $s0, "\n",
            // IMUL writes CF and OF; the row's XOR clears them after.
            "imul rdx, [rsp]\n",
            row_n!("rdi", ""; $top, $c; $($prod),+),
        )
    };
}

/// Defines `$name(t, a, b, m, m0inv)`, the CIOS loop (Koç–Acar–Kaliski 1996) for `n`-digit
/// moduli (`n` = 5, 6, 7) with the running value in registers, as [`mont_mul_8_loop`]
/// narrower: for `a, b < m`
/// (`n` digits each, `m` odd, `m0inv = −m_0^(−1) mod 2^64`), leaves `a·b·2^(−64n) mod m` or
/// that plus `m` (below `2m`) in `t[0..n]` and its top digit (`{0, 1}`) in `t[n]`. `n` steps
/// (`cios_step_n!`) over `n + 2` registers, a window of `n + 1` digits and a carry digit
/// that rotate by one digit per step; `2n²` digit products; constant time. For the
/// fixed-size Montgomery of `n` digits (`reduce::fixed::arith`), where LLVM's code of the
/// same steps took up to 1.4 times as long (AMD EPYC Zen 4). The arguments: the zeroing
/// of the first window, the steps, the stores of the last window to `t` (at r15).
macro_rules! mont_mul_narrow_loop {
    ($name:ident, $n:literal, $n1:literal; [$($zero:literal),+]; [$($step:expr),+]; [$($store:literal),+]) => {
        /// The CIOS loop in registers for moduli of this many digits: see
        /// `mont_mul_narrow_loop!`.
        ///
        /// # Safety
        /// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
        #[inline]
        pub(crate) unsafe fn $name(
            t: &mut [u64; $n1],
            a: &[u64; $n],
            b: &[u64; $n],
            m: &[u64; $n],
            m0inv: u64,
        ) {
            // SAFETY: the caller guarantees BMI2 and ADX. The block reads a, b, m (n
            // digits each, by reference) and writes t's n + 1 digits; it saves rbx and rbp
            // (which `asm!` cannot name) on the stack with m', the pointer to t and the
            // pointer to b below them, restores the stack pointer and both registers at
            // the end (no `nostack`), and declares every other register it writes.
            unsafe {
                asm!(
                    "push rbx",
                    "push rbp",
                    "sub rsp, 24",
                    "mov [rsp], r14",
                    "mov [rsp + 8], r15",
                    "mov [rsp + 16], rdx",
                    $($zero,)+
                    $($step,)+
                    "mov r15, [rsp + 8]",
                    $($store,)+
                    "add rsp, 24",
                    "pop rbp",
                    "pop rbx",
                    inout("rsi") a.as_ptr() => _,
                    inout("rdi") m.as_ptr() => _,
                    inout("rdx") b.as_ptr() => _,
                    inout("r14") m0inv => _,
                    inout("r15") t.as_mut_ptr() => _,
                    out("rax") _,
                    out("rcx") _,
                    out("r8") _,
                    out("r9") _,
                    out("r10") _,
                    out("r11") _,
                    out("r12") _,
                    out("r13") _,
                );
            }
        }
    };
}

mont_mul_narrow_loop!(
    mont_mul_7_loop, 7, 8;
    ["xor eax, eax", "xor ebx, ebx", "xor ecx, ecx", "xor r8d, r8d", "xor r9d, r9d", "xor r10d, r10d", "xor r11d, r11d", "xor r12d, r12d"];
    [
        cios_step_n!("0"; "rax", "r12", "r13"; ("0", "rax", "rbx"), ("8", "rbx", "rcx"), ("16", "rcx", "r8"), ("24", "r8", "r9"), ("32", "r9", "r10"), ("40", "r10", "r11"), ("48", "r11", "r12")),
        cios_step_n!("8"; "rbx", "r13", "rax"; ("0", "rbx", "rcx"), ("8", "rcx", "r8"), ("16", "r8", "r9"), ("24", "r9", "r10"), ("32", "r10", "r11"), ("40", "r11", "r12"), ("48", "r12", "r13")),
        cios_step_n!("16"; "rcx", "rax", "rbx"; ("0", "rcx", "r8"), ("8", "r8", "r9"), ("16", "r9", "r10"), ("24", "r10", "r11"), ("32", "r11", "r12"), ("40", "r12", "r13"), ("48", "r13", "rax")),
        cios_step_n!("24"; "r8", "rbx", "rcx"; ("0", "r8", "r9"), ("8", "r9", "r10"), ("16", "r10", "r11"), ("24", "r11", "r12"), ("32", "r12", "r13"), ("40", "r13", "rax"), ("48", "rax", "rbx")),
        cios_step_n!("32"; "r9", "rcx", "r8"; ("0", "r9", "r10"), ("8", "r10", "r11"), ("16", "r11", "r12"), ("24", "r12", "r13"), ("32", "r13", "rax"), ("40", "rax", "rbx"), ("48", "rbx", "rcx")),
        cios_step_n!("40"; "r10", "r8", "r9"; ("0", "r10", "r11"), ("8", "r11", "r12"), ("16", "r12", "r13"), ("24", "r13", "rax"), ("32", "rax", "rbx"), ("40", "rbx", "rcx"), ("48", "rcx", "r8")),
        cios_step_n!("48"; "r11", "r9", "r10"; ("0", "r11", "r12"), ("8", "r12", "r13"), ("16", "r13", "rax"), ("24", "rax", "rbx"), ("32", "rbx", "rcx"), ("40", "rcx", "r8"), ("48", "r8", "r9"))
    ];
    ["mov [r15 + 0], r12", "mov [r15 + 8], r13", "mov [r15 + 16], rax", "mov [r15 + 24], rbx", "mov [r15 + 32], rcx", "mov [r15 + 40], r8", "mov [r15 + 48], r9", "mov [r15 + 56], r10"]
);

mont_mul_narrow_loop!(
    mont_mul_6_loop, 6, 7;
    ["xor eax, eax", "xor ebx, ebx", "xor ecx, ecx", "xor r8d, r8d", "xor r9d, r9d", "xor r10d, r10d", "xor r11d, r11d"];
    [
        cios_step_n!("0"; "rax", "r11", "r12"; ("0", "rax", "rbx"), ("8", "rbx", "rcx"), ("16", "rcx", "r8"), ("24", "r8", "r9"), ("32", "r9", "r10"), ("40", "r10", "r11")),
        cios_step_n!("8"; "rbx", "r12", "rax"; ("0", "rbx", "rcx"), ("8", "rcx", "r8"), ("16", "r8", "r9"), ("24", "r9", "r10"), ("32", "r10", "r11"), ("40", "r11", "r12")),
        cios_step_n!("16"; "rcx", "rax", "rbx"; ("0", "rcx", "r8"), ("8", "r8", "r9"), ("16", "r9", "r10"), ("24", "r10", "r11"), ("32", "r11", "r12"), ("40", "r12", "rax")),
        cios_step_n!("24"; "r8", "rbx", "rcx"; ("0", "r8", "r9"), ("8", "r9", "r10"), ("16", "r10", "r11"), ("24", "r11", "r12"), ("32", "r12", "rax"), ("40", "rax", "rbx")),
        cios_step_n!("32"; "r9", "rcx", "r8"; ("0", "r9", "r10"), ("8", "r10", "r11"), ("16", "r11", "r12"), ("24", "r12", "rax"), ("32", "rax", "rbx"), ("40", "rbx", "rcx")),
        cios_step_n!("40"; "r10", "r8", "r9"; ("0", "r10", "r11"), ("8", "r11", "r12"), ("16", "r12", "rax"), ("24", "rax", "rbx"), ("32", "rbx", "rcx"), ("40", "rcx", "r8"))
    ];
    ["mov [r15 + 0], r11", "mov [r15 + 8], r12", "mov [r15 + 16], rax", "mov [r15 + 24], rbx", "mov [r15 + 32], rcx", "mov [r15 + 40], r8", "mov [r15 + 48], r9"]
);

mont_mul_narrow_loop!(
    mont_mul_5_loop, 5, 6;
    ["xor eax, eax", "xor ebx, ebx", "xor ecx, ecx", "xor r8d, r8d", "xor r9d, r9d", "xor r10d, r10d"];
    [
        cios_step_n!("0"; "rax", "r10", "r11"; ("0", "rax", "rbx"), ("8", "rbx", "rcx"), ("16", "rcx", "r8"), ("24", "r8", "r9"), ("32", "r9", "r10")),
        cios_step_n!("8"; "rbx", "r11", "rax"; ("0", "rbx", "rcx"), ("8", "rcx", "r8"), ("16", "r8", "r9"), ("24", "r9", "r10"), ("32", "r10", "r11")),
        cios_step_n!("16"; "rcx", "rax", "rbx"; ("0", "rcx", "r8"), ("8", "r8", "r9"), ("16", "r9", "r10"), ("24", "r10", "r11"), ("32", "r11", "rax")),
        cios_step_n!("24"; "r8", "rbx", "rcx"; ("0", "r8", "r9"), ("8", "r9", "r10"), ("16", "r10", "r11"), ("24", "r11", "rax"), ("32", "rax", "rbx")),
        cios_step_n!("32"; "r9", "rcx", "r8"; ("0", "r9", "r10"), ("8", "r10", "r11"), ("16", "r11", "rax"), ("24", "rax", "rbx"), ("32", "rbx", "rcx"))
    ];
    ["mov [r15 + 0], r10", "mov [r15 + 8], r11", "mov [r15 + 16], rax", "mov [r15 + 24], rbx", "mov [r15 + 32], rcx", "mov [r15 + 40], r8"]
);

/// Montgomery squaring for 8-digit (512-bit) moduli with the running values in
/// registers: for `a < m` (8 digits, `m` odd, `m0inv = −m_0^(−1) mod 2^64`), leaves
/// `a²·2^(−512) mod m` or that plus `m` (below `2m`) in `v[0..8]` and its top digit
/// (`{0, 1}`) in `v[8]`; `cross` is working space.
///
/// Three passes, unrolled:
/// 1. the triangle `C = Σ_(i<j) a_i·a_j·2^(64(i+j))`, row `i` (`a_i` times `a[i+1..8]`)
///    adding into the live digits `2i+1 ..= i+8` in registers; the rows before row `i`
///    sum to less than `2^(64(i+8))` (each row is below `a_r·2^(64(r+8))`), so each row
///    closes at digit `i + 8`, and its two lowest digits are final and stored in `cross`;
/// 2. `a² = 2C + Σ a_i²·2^(128i)`: the doubling on the ADCX chain, the diagonal squares
///    on the ADOX chain, digit by digit; the low half stays in registers, the high half
///    `H` goes to `cross[8..16]` (both chains end without a carry: `a² < 2^1024`);
/// 3. Montgomery's reduction of the low half `L` (paper 000, Algorithm 3, the rows of
///    [`mont_mul_8_loop`] without the `a·b_i` rows): the window `W = (L + U·m)/2^(64i)`
///    stays below `2^512 + m`, so each step's sum fits the ten registers; then `v = W +
///    H = (a² + U·m)/2^512 < (m² + 2^512·m)/2^512 < 2m`.
///
/// `28 + 8 + 64 = 100` digit products against the 128 of [`mont_mul_8_loop`] with `a`
/// twice. Constant time (no branch, no address that depends on the values).
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
pub(crate) unsafe fn mont_sqr_8_regs(
    v: &mut [u64; 9],
    a: &[u64; 8],
    m: &[u64; 8],
    m0inv: u64,
    cross: &mut [u64; 16],
) {
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads a and m (eight digits
    // each), writes cross[1..16] and reads it back, and writes v's nine digits; it saves
    // rbx and rbp (which `asm!` cannot name) on the stack with m', the pointer to v and
    // the pointer to m below them, restores the stack pointer and both registers at the
    // end (no `nostack`), and declares every other register it writes.
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            "sub rsp, 24",
            "mov [rsp], r14",
            "mov [rsp + 8], r15",
            "mov [rsp + 16], rdx",
            // 1. The triangle.
            triangle_8!(),
            // 2. Doubled, the squares added: digits 0..8 into rax, rbx, rcx, r8 … r12 (the
            // reduction's window, r13 = 0 its ninth digit), digits 8..16 back to cross
            // through rbp. The triangle's digits 0 and 15 are zero.
            "xor r13d, r13d",
            "mov eax, 0",
            "mov rdx, [rsi]",
            "mulx r15, r14, rdx",
            "adcx rax, rax",
            "adox rax, r14",
            doubled_digit!("8", "rbx", "r15"),
            "mov rdx, [rsi + 8]",
            "mulx r15, r14, rdx",
            doubled_digit!("16", "rcx", "r14"),
            doubled_digit!("24", "r8", "r15"),
            "mov rdx, [rsi + 16]",
            "mulx r15, r14, rdx",
            doubled_digit!("32", "r9", "r14"),
            doubled_digit!("40", "r10", "r15"),
            "mov rdx, [rsi + 24]",
            "mulx r15, r14, rdx",
            doubled_digit!("48", "r11", "r14"),
            doubled_digit!("56", "r12", "r15"),
            "mov rdx, [rsi + 32]",
            "mulx r15, r14, rdx",
            doubled_digit!("64", "rbp", "r14"),
            "mov [rdi + 64], rbp",
            doubled_digit!("72", "rbp", "r15"),
            "mov [rdi + 72], rbp",
            "mov rdx, [rsi + 40]",
            "mulx r15, r14, rdx",
            doubled_digit!("80", "rbp", "r14"),
            "mov [rdi + 80], rbp",
            doubled_digit!("88", "rbp", "r15"),
            "mov [rdi + 88], rbp",
            "mov rdx, [rsi + 48]",
            "mulx r15, r14, rdx",
            doubled_digit!("96", "rbp", "r14"),
            "mov [rdi + 96], rbp",
            doubled_digit!("104", "rbp", "r15"),
            "mov [rdi + 104], rbp",
            "mov rdx, [rsi + 56]",
            "mulx r15, r14, rdx",
            doubled_digit!("112", "rbp", "r14"),
            "mov [rdi + 112], rbp",
            "mov ebp, 0",
            "adcx rbp, rbp",
            "adox rbp, r15",
            "mov [rdi + 120], rbp",
            // 3. The reduction: cross (H) at rsi, m at rdi.
            "mov rsi, rdi",
            "mov rdi, [rsp + 16]",
            redc_step8!("rax", "rbx", "rcx", "r8", "r9", "r10", "r11", "r12", "r13", "rbp"),
            redc_step8!("rbx", "rcx", "r8", "r9", "r10", "r11", "r12", "r13", "rbp", "rax"),
            redc_step8!("rcx", "r8", "r9", "r10", "r11", "r12", "r13", "rbp", "rax", "rbx"),
            redc_step8!("r8", "r9", "r10", "r11", "r12", "r13", "rbp", "rax", "rbx", "rcx"),
            redc_step8!("r9", "r10", "r11", "r12", "r13", "rbp", "rax", "rbx", "rcx", "r8"),
            redc_step8!("r10", "r11", "r12", "r13", "rbp", "rax", "rbx", "rcx", "r8", "r9"),
            redc_step8!("r11", "r12", "r13", "rbp", "rax", "rbx", "rcx", "r8", "r9", "r10"),
            redc_step8!("r12", "r13", "rbp", "rax", "rbx", "rcx", "r8", "r9", "r10", "r11"),
            // The window W after eight steps: r13, rbp, rax, rbx, rcx, r8, r9, r10, r11;
            // v = W + H.
            "add r13, [rsi + 64]",
            "adc rbp, [rsi + 72]",
            "adc rax, [rsi + 80]",
            "adc rbx, [rsi + 88]",
            "adc rcx, [rsi + 96]",
            "adc r8, [rsi + 104]",
            "adc r9, [rsi + 112]",
            "adc r10, [rsi + 120]",
            "adc r11, 0",
            "mov r15, [rsp + 8]",
            "mov [r15 + 0], r13",
            "mov [r15 + 8], rbp",
            "mov [r15 + 16], rax",
            "mov [r15 + 24], rbx",
            "mov [r15 + 32], rcx",
            "mov [r15 + 40], r8",
            "mov [r15 + 48], r9",
            "mov [r15 + 56], r10",
            "mov [r15 + 64], r11",
            "add rsp, 24",
            "pop rbp",
            "pop rbx",
            inout("rsi") a.as_ptr() => _,
            inout("rdi") cross.as_mut_ptr() => _,
            inout("rdx") m.as_ptr() => _,
            inout("r14") m0inv => _,
            inout("r15") v.as_mut_ptr() => _,
            out("rax") _,
            out("rcx") _,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
        );
    }
}

/// The square `r = a²` of nine digits: the low eight digits' square `A²` in registers
/// ([`sqr_8_regs`]), then `2·a_8·A·2^512 + a_8²·2^1024` as two rows `a_8·A`
/// ([`super::addmul_1_adx`]) and one digit's square: 36 + 16 + 1 digit products, against
/// the 45 of [`super::sqr_basecase_adx`] in eight rows of calls and a doubling pass, which
/// took 34 ns of a 9-digit Montgomery square's 94 in an exponentiation (AMD EPYC Zen 4).
/// Constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
pub(crate) unsafe fn sqr_9(r: &mut [u64; 18], a: &[u64; 9]) {
    let (low, a8): (&[u64; 8], u64) = (a[..8].try_into().expect("nine digits"), a[8]);
    let (square, top) = r.split_at_mut(16);
    // SAFETY: the caller guarantees BMI2 and ADX.
    unsafe { sqr_8_regs(square.try_into().expect("sixteen digits"), low) };
    top.fill(0);
    for _ in 0..2 {
        // SAFETY: the caller guarantees BMI2 and ADX.
        let carry = unsafe { super::addmul_1_adx(&mut r[8..16], low, a8) };
        let (sum, over) = r[16].overflowing_add(carry);
        r[16] = sum;
        r[17] += over as u64;
    }
    // a² < 2^1152: the top digit takes the last carry without overflow.
    let sq = a8 as u128 * a8 as u128;
    let (sum, over) = r[16].overflowing_add(sq as u64);
    r[16] = sum;
    r[17] += (sq >> 64) as u64 + over as u64;
}

/// One step of [`redc_9_regs`]: `u = s0·m' mod 2^64` (m' at `[rsp]`), then the window
/// `s0..s9` plus `u·m` into `s0..s9, c` (`m` at rdi), as `redc_step8!` one digit wider:
/// the value divided by `2^64` is `s1..s9, c`, the next step's window, and `s0` the next
/// step's `c`.
macro_rules! redc_step9 {
    ($s0:literal, $s1:literal, $s2:literal, $s3:literal, $s4:literal, $s5:literal,
     $s6:literal, $s7:literal, $s8:literal, $s9:literal, $c:literal) => {
        concat!(
            "mov rdx, ", $s0, "\n",
            // IMUL writes CF and OF; the row's XOR clears them after.
            "imul rdx, [rsp]\n",
            row_n!("rdi", concat!("mov ", $c, ", 0\n"); $s9, $c;
                ("0", $s0, $s1), ("8", $s1, $s2), ("16", $s2, $s3), ("24", $s3, $s4),
                ("32", $s4, $s5), ("40", $s5, $s6), ("48", $s6, $s7), ("56", $s7, $s8),
                ("64", $s8, $s9)),
        )
    };
}

/// Montgomery's reduction of a 9-digit modulus's product or square with the running value
/// in registers: for `p < 2^1152` (eighteen digits) and `m` (nine, odd, `m0inv =
/// −m_0^(−1) mod 2^64`), leaves `v = (p + U·m)/2^576` in `v[0..10]`, with `U < 2^576` the
/// value that makes the sum divisible — `v < 2^576 + m`, and `v < 2m` when `p < m·2^576`.
/// The third pass of [`mont_sqr_8_regs`] one digit wider (paper 000, Algorithm 3): the low
/// half `L = p[0..9]` in a window of ten registers (`(L + U_i·m)/2^(64i) < 2^576 + m`, so a
/// step's sum, below `2^641`, fits the window and a carry register), nine steps of nine
/// digit products each (`redc_step9!`, the registers rotating by one a step), then the
/// high half added once. Against the one-row passes of [`redc_rows`], which load and store
/// a digit of `p` for every product: see `mont_mul_to`. Constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
pub(crate) unsafe fn redc_9_regs(v: &mut [u64; 10], p: &[u64; 18], m: &[u64; 9], m0inv: u64) {
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads p (eighteen digits) and
    // m (nine) and writes v's ten digits; it saves rbx and rbp (which `asm!` cannot name)
    // on the stack with m', the pointer to v and the pointer to p below them, restores the
    // stack pointer and both registers at the end (no `nostack`), and declares every other
    // register it writes.
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            "sub rsp, 24",
            "mov [rsp], r14",
            "mov [rsp + 8], r15",
            "mov [rsp + 16], rdx",
            // The window: L = p[0..9] and a zero top digit.
            "mov rax, [rdx]",
            "mov rbx, [rdx + 8]",
            "mov rcx, [rdx + 16]",
            "mov rsi, [rdx + 24]",
            "mov rbp, [rdx + 32]",
            "mov r8, [rdx + 40]",
            "mov r9, [rdx + 48]",
            "mov r10, [rdx + 56]",
            "mov r11, [rdx + 64]",
            "xor r12d, r12d",
            redc_step9!("rax", "rbx", "rcx", "rsi", "rbp", "r8", "r9", "r10", "r11", "r12", "r13"),
            redc_step9!("rbx", "rcx", "rsi", "rbp", "r8", "r9", "r10", "r11", "r12", "r13", "rax"),
            redc_step9!("rcx", "rsi", "rbp", "r8", "r9", "r10", "r11", "r12", "r13", "rax", "rbx"),
            redc_step9!("rsi", "rbp", "r8", "r9", "r10", "r11", "r12", "r13", "rax", "rbx", "rcx"),
            redc_step9!("rbp", "r8", "r9", "r10", "r11", "r12", "r13", "rax", "rbx", "rcx", "rsi"),
            redc_step9!("r8", "r9", "r10", "r11", "r12", "r13", "rax", "rbx", "rcx", "rsi", "rbp"),
            redc_step9!("r9", "r10", "r11", "r12", "r13", "rax", "rbx", "rcx", "rsi", "rbp", "r8"),
            redc_step9!("r10", "r11", "r12", "r13", "rax", "rbx", "rcx", "rsi", "rbp", "r8", "r9"),
            redc_step9!("r11", "r12", "r13", "rax", "rbx", "rcx", "rsi", "rbp", "r8", "r9", "r10"),
            // The window after nine steps: r12, r13, rax, rbx, rcx, rsi, rbp, r8, r9, r10;
            // v = W + H, H = p[9..18].
            "mov rdx, [rsp + 16]",
            "add r12, [rdx + 72]",
            "adc r13, [rdx + 80]",
            "adc rax, [rdx + 88]",
            "adc rbx, [rdx + 96]",
            "adc rcx, [rdx + 104]",
            "adc rsi, [rdx + 112]",
            "adc rbp, [rdx + 120]",
            "adc r8, [rdx + 128]",
            "adc r9, [rdx + 136]",
            "adc r10, 0",
            "mov rdx, [rsp + 8]",
            "mov [rdx], r12",
            "mov [rdx + 8], r13",
            "mov [rdx + 16], rax",
            "mov [rdx + 24], rbx",
            "mov [rdx + 32], rcx",
            "mov [rdx + 40], rsi",
            "mov [rdx + 48], rbp",
            "mov [rdx + 56], r8",
            "mov [rdx + 64], r9",
            "mov [rdx + 72], r10",
            "add rsp, 24",
            "pop rbp",
            "pop rbx",
            inout("rdx") p.as_ptr() => _,
            in("rdi") m.as_ptr(),
            inout("r14") m0inv => _,
            inout("r15") v.as_mut_ptr() => _,
            out("rax") _,
            out("rcx") _,
            out("rsi") _,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
        );
    }
}

/// The square `r = a²` of eight digits (`r` sixteen) in registers: the triangle and the
/// doubling with the diagonal squares of [`mont_sqr_8_regs`] (its first two passes),
/// `28 + 8` digit products, no loop or branch; constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
pub(crate) unsafe fn sqr_8_regs(r: &mut [u64; 16], a: &[u64; 8]) {
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads a's eight digits and
    // writes r's sixteen (reading back those the triangle stored); it saves rbx and rbp
    // (which `asm!` cannot name) on the stack, restores them and the stack pointer at the
    // end (no `nostack`), and declares every other register it writes.
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            triangle_8!(),
            // Doubled, the squares added, digit by digit (the triangle's digits 0 and 15
            // are zero).
            "xor ebp, ebp",
            "mov rdx, [rsi]",
            "mulx r15, r14, rdx",
            "adcx rbp, rbp",
            "adox rbp, r14",
            "mov [rdi], rbp",
            doubled_digit!("8", "rbp", "r15"),
            "mov [rdi + 8], rbp",
            "mov rdx, [rsi + 8]",
            "mulx r15, r14, rdx",
            doubled_digit!("16", "rbp", "r14"),
            "mov [rdi + 16], rbp",
            doubled_digit!("24", "rbp", "r15"),
            "mov [rdi + 24], rbp",
            "mov rdx, [rsi + 16]",
            "mulx r15, r14, rdx",
            doubled_digit!("32", "rbp", "r14"),
            "mov [rdi + 32], rbp",
            doubled_digit!("40", "rbp", "r15"),
            "mov [rdi + 40], rbp",
            "mov rdx, [rsi + 24]",
            "mulx r15, r14, rdx",
            doubled_digit!("48", "rbp", "r14"),
            "mov [rdi + 48], rbp",
            doubled_digit!("56", "rbp", "r15"),
            "mov [rdi + 56], rbp",
            "mov rdx, [rsi + 32]",
            "mulx r15, r14, rdx",
            doubled_digit!("64", "rbp", "r14"),
            "mov [rdi + 64], rbp",
            doubled_digit!("72", "rbp", "r15"),
            "mov [rdi + 72], rbp",
            "mov rdx, [rsi + 40]",
            "mulx r15, r14, rdx",
            doubled_digit!("80", "rbp", "r14"),
            "mov [rdi + 80], rbp",
            doubled_digit!("88", "rbp", "r15"),
            "mov [rdi + 88], rbp",
            "mov rdx, [rsi + 48]",
            "mulx r15, r14, rdx",
            doubled_digit!("96", "rbp", "r14"),
            "mov [rdi + 96], rbp",
            doubled_digit!("104", "rbp", "r15"),
            "mov [rdi + 104], rbp",
            "mov rdx, [rsi + 56]",
            "mulx r15, r14, rdx",
            doubled_digit!("112", "rbp", "r14"),
            "mov [rdi + 112], rbp",
            "mov ebp, 0",
            "adcx rbp, rbp",
            "adox rbp, r15",
            "mov [rdi + 120], rbp",
            "pop rbp",
            "pop rbx",
            in("rsi") a.as_ptr(),
            in("rdi") r.as_mut_ptr(),
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
        );
    }
}

/// Two digits `2j`, `2j + 1` of [`sqr_16_from_cross`]'s pass, at byte offsets `$off0` and
/// `$off1` of `r` (rdi), `a_j` at `[rsi + $a_off]`: each digit `s` (the triangles' digit,
/// plus by `$add0`/`$add1` the cross product's digit on the ADCX chain) doubled with the
/// top bit of the digit below (SHRX and LEA: no flags), plus a half of `a_j²` on the ADOX
/// chain, stored. `s` lives in rbx (even digit) and rbp (odd), so rbp holds the digit
/// below the pair; r13 = 63.
macro_rules! doubled_pair {
    ($a_off:literal, $off0:literal, $add0:literal, $off1:literal, $add1:literal) => {
        concat!(
            "mov rdx, [rsi + ",
            $a_off,
            "]\n",
            "mulx r15, r14, rdx\n",
            "mov rbx, [rdi + ",
            $off0,
            "]\n",
            $add0,
            "shrx rax, rbp, r13\n",
            "lea rax, [rax + 2*rbx]\n",
            "adox rax, r14\n",
            "mov [rdi + ",
            $off0,
            "], rax\n",
            "mov rbp, [rdi + ",
            $off1,
            "]\n",
            $add1,
            "shrx rax, rbx, r13\n",
            "lea rax, [rax + 2*rbp]\n",
            "adox rax, r15\n",
            "mov [rdi + ",
            $off1,
            "], rax\n",
        )
    };
}

/// The square `r = a²` of sixteen digits given the product of its halves `cross = a_0·a_1`
/// (`a = a_0 + 2^512·a_1`, from [`super::mul_8_regs`]): the triangles of both halves in
/// registers ([`triangle_8`], written to `r[1..15]` and `r[17..31]`), then one pass over the
/// 32 digits that adds `cross` at digit 8 (ADCX), doubles (shifts through SHRX and LEA,
/// which leave the flags alone) and adds the diagonal squares `a_i²` (ADOX): `a² = 2·(T_0 +
/// 2^512·cross + 2^1024·T_1) + Σ a_i²·2^(128i)`. `56 + 16` digit products, no loop or
/// branch; constant time. One call in place of the two 8-digit squares and the doubling
/// pass over their buffer.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
pub(crate) unsafe fn sqr_16_from_cross(r: &mut [u64; 32], a: &[u64; 16], cross: &[u64; 16]) {
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads a's sixteen digits and
    // cross's sixteen and writes r's 32 (reading back those the triangles stored); it saves
    // rbx, rbp and the pointer to cross on the stack, restores them and the stack pointer
    // at the end (no `nostack`), and declares every other register it writes.
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            "push rcx",
            // The triangles of both halves: digits 1..=14 and 17..=30.
            triangle_8!(),
            "lea rsi, [rsi + 64]",
            "lea rdi, [rdi + 128]",
            triangle_8!(),
            "lea rsi, [rsi - 64]",
            "lea rdi, [rdi - 128]",
            "pop rcx",
            // The digits no triangle wrote are zero; r12 = 0, r13 = 63, rbp (the digit below
            // digit 0) = 0, and XOR clears CF and OF.
            "xor r12d, r12d",
            "mov [rdi], r12",
            "mov [rdi + 120], r12",
            "mov [rdi + 128], r12",
            "mov [rdi + 248], r12",
            "mov r13d, 63",
            "xor ebp, ebp",
            doubled_pair!("0", "0", "", "8", ""),
            doubled_pair!("8", "16", "", "24", ""),
            doubled_pair!("16", "32", "", "40", ""),
            doubled_pair!("24", "48", "", "56", ""),
            doubled_pair!("32", "64", "adcx rbx, [rcx]\n", "72", "adcx rbp, [rcx + 8]\n"),
            doubled_pair!("40", "80", "adcx rbx, [rcx + 16]\n", "88", "adcx rbp, [rcx + 24]\n"),
            doubled_pair!("48", "96", "adcx rbx, [rcx + 32]\n", "104", "adcx rbp, [rcx + 40]\n"),
            doubled_pair!("56", "112", "adcx rbx, [rcx + 48]\n", "120", "adcx rbp, [rcx + 56]\n"),
            doubled_pair!("64", "128", "adcx rbx, [rcx + 64]\n", "136", "adcx rbp, [rcx + 72]\n"),
            doubled_pair!("72", "144", "adcx rbx, [rcx + 80]\n", "152", "adcx rbp, [rcx + 88]\n"),
            doubled_pair!("80", "160", "adcx rbx, [rcx + 96]\n", "168", "adcx rbp, [rcx + 104]\n"),
            doubled_pair!("88", "176", "adcx rbx, [rcx + 112]\n", "184", "adcx rbp, [rcx + 120]\n"),
            // Above the cross product: its carry only (the sum of the off-diagonal products
            // is below 2^2047, so neither chain carries out of digit 31).
            doubled_pair!("96", "192", "adcx rbx, r12\n", "200", "adcx rbp, r12\n"),
            doubled_pair!("104", "208", "adcx rbx, r12\n", "216", "adcx rbp, r12\n"),
            doubled_pair!("112", "224", "adcx rbx, r12\n", "232", "adcx rbp, r12\n"),
            doubled_pair!("120", "240", "adcx rbx, r12\n", "248", "adcx rbp, r12\n"),
            "pop rbp",
            "pop rbx",
            inout("rsi") a.as_ptr() => _,
            inout("rdi") r.as_mut_ptr() => _,
            inout("rcx") cross.as_ptr() => _,
            out("rax") _,
            out("rdx") _,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
        );
    }
}

/// `out = v − m` (all `k` digits), returning the borrow (`0` or `1`): one SBB chain, four
/// digits a step, then the last `k mod 4` one at a time (the portable loop, which LLVM
/// compiles to two digits a step with the borrow moved through a register, took 40 cycles
/// of a 1024-bit Montgomery square on an AMD EPYC Zen 4). No branch on the values.
#[inline]
fn sub_n(out: &mut [u64], v: &[u64], m: &[u64]) -> u64 {
    let k = out.len();
    assert!(v.len() == k && m.len() == k, "sub_n: operand lengths");
    let borrow: u64;
    // SAFETY: the loops read v[0..k] and m[0..k] and write out[0..k] (k/4 steps of four
    // digits, then k mod 4 of one); `out` is exclusive. LEA, DEC, MOV and JRCXZ leave CF
    // alone. Plain
    // x86-64 (SBB): no feature needed.
    unsafe {
        asm!(
            "xor eax, eax",
            "test rcx, rcx",
            "jz 3f",
            "2:",
            "mov rax, [rsi]",
            "sbb rax, [rdx]",
            "mov [rdi], rax",
            "mov rax, [rsi + 8]",
            "sbb rax, [rdx + 8]",
            "mov [rdi + 8], rax",
            "mov rax, [rsi + 16]",
            "sbb rax, [rdx + 16]",
            "mov [rdi + 16], rax",
            "mov rax, [rsi + 24]",
            "sbb rax, [rdx + 24]",
            "mov [rdi + 24], rax",
            "lea rsi, [rsi + 32]",
            "lea rdx, [rdx + 32]",
            "lea rdi, [rdi + 32]",
            "dec rcx",
            "jnz 2b",
            // MOV and JRCXZ leave the borrow in CF.
            "3:",
            "mov rcx, r8",
            "jrcxz 5f",
            "4:",
            "mov rax, [rsi]",
            "sbb rax, [rdx]",
            "mov [rdi], rax",
            "lea rsi, [rsi + 8]",
            "lea rdx, [rdx + 8]",
            "lea rdi, [rdi + 8]",
            "dec rcx",
            "jnz 4b",
            "5:",
            "sbb rax, rax",
            "neg rax",
            inout("rdi") out.as_mut_ptr() => _,
            inout("rsi") v.as_ptr() => _,
            inout("rdx") m.as_ptr() => _,
            inout("rcx") k / 4 => _,
            inout("r8") k % 4 => _,
            out("rax") borrow,
            options(nostack),
        );
    }
    borrow
}

/// `out = v − m` if `v ≥ m`, else `v`, for `v = top·2^(64k) + v[..k] < 2m`, `top ∈ {0,
/// 1}`: the subtraction always computed, the result chosen by a mask (no branch on `v`).
#[inline]
fn subtract_if_at_least(out: &mut [u64], v: &[u64], top: u64, m: &[u64]) {
    let borrow = sub_n(out, v, m);
    // Keep v iff v < m: no top digit and the subtraction borrowed. The mask goes through
    // `black_box` so that LLVM cannot turn the select into a branch (see `ct::mask_from_bit`).
    let keep_v = (top ^ 1) & borrow;
    let mask = core::hint::black_box(0u64.wrapping_sub(keep_v));
    for (o, &x) in out.iter_mut().zip(v) {
        *o = (*o & !mask) | (x & mask);
    }
}

/// `out = v − top·m` for `v = top·2^(64k) + v[..k] < 2^(64k) + m`, `top ∈ {0, 1}`, `k` a
/// positive multiple of 4: the lazy final step of Montgomery's reduction, which keeps the
/// result below `2^(64k)` (not below `m`). One SBB chain over `top·m_i`, each made by MULX
/// with `rdx = top` (MULX leaves the flags alone, where AND or a conditional move would
/// break the chain or read them), four digits a step. No branch on the values.
///
/// # Safety
/// The CPU must support BMI2 ([`super::has_bmi2_adx`]).
#[inline]
unsafe fn subtract_if_carried(out: &mut [u64], v: &[u64], top: u64, m: &[u64]) {
    let k = out.len();
    assert!(v.len() == k && m.len() == k && k >= 4 && k % 4 == 0, "subtract_if_carried: lengths");
    debug_assert!(top <= 1);
    // SAFETY: the caller guarantees BMI2. The loop reads v[0..k] and m[0..k] and writes
    // out[0..k] (k/4 steps of four digits); `out` is exclusive. MULX, MOV, LEA and DEC
    // leave CF alone.
    unsafe {
        asm!(
            "xor eax, eax",
            "2:",
            "mulx r9, rax, [r10]",
            "mov r11, [rsi]",
            "sbb r11, rax",
            "mov [rdi], r11",
            "mulx r9, rax, [r10 + 8]",
            "mov r11, [rsi + 8]",
            "sbb r11, rax",
            "mov [rdi + 8], r11",
            "mulx r9, rax, [r10 + 16]",
            "mov r11, [rsi + 16]",
            "sbb r11, rax",
            "mov [rdi + 16], r11",
            "mulx r9, rax, [r10 + 24]",
            "mov r11, [rsi + 24]",
            "sbb r11, rax",
            "mov [rdi + 24], r11",
            "lea rsi, [rsi + 32]",
            "lea r10, [r10 + 32]",
            "lea rdi, [rdi + 32]",
            "dec rcx",
            "jnz 2b",
            inout("rdi") out.as_mut_ptr() => _,
            inout("rsi") v.as_ptr() => _,
            inout("r10") m.as_ptr() => _,
            inout("rcx") k / 4 => _,
            in("rdx") top,
            out("rax") _,
            out("r9") _,
            out("r11") _,
            options(nostack),
        );
    }
}

/// The last step of a Montgomery product of `8n` digits reduced to `top·2^(64k) + v`:
/// below `m` by [`subtract_if_at_least`], or (`LAZY`) below `2^(64k)` by
/// [`subtract_if_carried`].
///
/// # Safety
/// The CPU must support BMI2 ([`super::has_bmi2_adx`]).
#[inline(always)]
unsafe fn final_step<const LAZY: bool>(out: &mut [u64], v: &[u64], top: u64, m: &[u64]) {
    if LAZY {
        // SAFETY: the caller guarantees BMI2.
        unsafe { subtract_if_carried(out, v, top, m) };
    } else {
        subtract_if_at_least(out, v, top, m);
    }
}

/// Montgomery multiplication `out = a·b·2^(−64k) mod m` for `a, b < m` (`k ≥ 1` digits
/// each, `m` odd, `m0inv = −m_0^(−1) mod 2^64`), output below `m`: [`mont_mul_loop`] (CIOS,
/// Koç–Acar–Kaliski 1996, fused as OpenSSL's `bn_mulx4x_mont`; at `k = 8` its unrolled
/// register form [`mont_mul_8_loop`]), at `k = 9` the product in registers and
/// [`redc_9_regs`]; with `t` of `2k` digits, at `k` = 10–47 but `8n` the product and the
/// reduction with every row written out ([`super::unrolled`]) and for `k = 8n ≥ 16` eight
/// rows per pass ([`super::rows8::mul_8rows`], [`super::rows8::redc_8rows`], the product by
/// Karatsuba at the widths of [`super::karatsuba::mul_by_width`]); then one
/// branch-free subtraction.
/// `t` is working space of at least `k + 2` digits. At most `2k² + k` digit products
/// (fewer where Karatsuba runs); constant time in the values (the time depends on `k`).
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If a length is wrong.
#[inline]
pub(crate) unsafe fn mont_mul(
    out: &mut [u64],
    a: &[u64],
    b: &[u64],
    m: &[u64],
    m0inv: u64,
    t: &mut [u64],
) {
    // SAFETY: the caller guarantees BMI2 and ADX.
    unsafe { mont_mul_to::<false>(out, a, b, m, m0inv, t) }
}

/// [`mont_mul`] (`LAZY` false) or, `LAZY` true, the form for the inner products of an
/// exponentiation (almost Montgomery multiplication): `out ≡ a·b·2^(−64k) (mod m)` below
/// `2^(64k)`, not necessarily below `m`, for `a, b < 2^(64k)`. Every path accepts such
/// inputs (the reduced value is then below `2^(64k) + m`, one carry digit). Lazy, for `k =
/// 8n ≥ 16` the final step subtracts `m` only when the reduction carried out of `2^(64k)`
/// ([`subtract_if_carried`]: one pass where the full step takes a subtraction and a
/// selection); other widths give [`mont_mul`]'s result, which meets the same bound. A
/// caller makes its value below `m` at the end by one [`mont_mul`] with `R mod m` (`a·(R
/// mod m) < m·2^(64k)`). Constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If a length is wrong.
#[inline(always)]
pub(crate) unsafe fn mont_mul_to<const LAZY: bool>(
    out: &mut [u64],
    a: &[u64],
    b: &[u64],
    m: &[u64],
    m0inv: u64,
    t: &mut [u64],
) {
    let k = m.len();
    assert!(out.len() == k && t.len() >= k + 2, "mont_mul: operand lengths");
    if let (Ok(a8), Ok(b8), Ok(m8)) = (a.try_into(), b.try_into(), m.try_into()) {
        let t9: &mut [u64; 9] = (&mut t[..9]).try_into().expect("t has k + 2 = 10 digits");
        // SAFETY: the caller guarantees BMI2 and ADX.
        unsafe { mont_mul_8_loop(t9, a8, b8, m8, m0inv) };
        subtract_if_at_least(out, &t9[..8], t9[8], m);
        return;
    }
    if let (Ok(a9), Ok(b9), Ok(m9)) = (a.try_into(), b.try_into(), m.try_into()) {
        let (mut p, mut v) = ([0u64; 18], [0u64; 10]);
        // SAFETY: the caller guarantees BMI2 and ADX.
        unsafe {
            super::mul_9_regs(&mut p, a9, b9);
            redc_9_regs(&mut v, &p, m9, m0inv);
        }
        subtract_if_at_least(out, &v[..9], v[9], m);
        return;
    }
    if k % 8 == 0 && t.len() >= 2 * k {
        let p = &mut t[..2 * k];
        // SAFETY: the caller guarantees BMI2 and ADX.
        let top = unsafe {
            super::karatsuba::mul_by_width(p, a, b);
            super::rows8::redc_8rows(p, m, m0inv)
        };
        // SAFETY: the caller guarantees BMI2 and ADX.
        unsafe { final_step::<LAZY>(out, &p[k..], top, m) };
        return;
    }
    if super::unrolled::rows_unrolled(k) && t.len() >= 2 * k {
        let p = &mut t[..2 * k];
        // SAFETY: the caller guarantees BMI2 and ADX.
        unsafe {
            super::unrolled::mul_unrolled(p, a, b);
            super::unrolled::redc_rows_unrolled(p, m, m0inv);
        }
        add_parked_carries_and_subtract(out, p, m);
        return;
    }
    let t = &mut t[..k + 2];
    t.fill(0);
    // SAFETY: the caller guarantees BMI2 and ADX.
    unsafe { mont_mul_loop(t, a, b, m, m0inv) };
    subtract_if_at_least(out, &t[1..=k], t[k + 1], m);
}

/// Montgomery squaring `out = a²·2^(−64k) mod m` for `a < m` (`k ≥ 1` digits, `m` odd,
/// `m0inv = −m_0^(−1) mod 2^64`), output below `m`: the square by
/// [`super::sqr_basecase_adx`] (the cross products once, doubled, the squares added), then
/// Montgomery's reduction (paper 000, Algorithm 3, as `reduce::montgomery::redc_in_place`)
/// in one assembly block ([`redc_rows`]) with the carries added at the end, and one
/// branch-free subtraction; at `k = 8` the same three steps unrolled in registers
/// ([`mont_sqr_8_regs`]), at `k = 9` [`sqr_9`] and [`redc_9_regs`], at `k` = 10–47 but `8n`
/// the square and the reduction with every row written out ([`super::unrolled`]);
/// for `k = 8n ≥ 16` the square and the reduction eight rows per pass
/// (the square by [`super::karatsuba::sqr_by_width`]: [`super::rows8::sqr_8rows`] up to its
/// 64 digits, Karatsuba at 32, 56, 64 and wider; [`super::rows8::redc_8rows`]). `p` is
/// working space of at least `2k` digits. `k(k+1)/2 + k(k+1)` digit products; constant time
/// in the values. With `LAZY`, the square for the inner squarings of an exponentiation,
/// with the bounds of [`mont_mul_to`]: `out ≡ a²·2^(−64k) (mod m)` below `2^(64k)` for `a <
/// 2^(64k)`.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If a length is wrong.
#[inline(always)]
pub(crate) unsafe fn mont_sqr<const LAZY: bool>(
    out: &mut [u64],
    a: &[u64],
    m: &[u64],
    m0inv: u64,
    p: &mut [u64],
) {
    let k = m.len();
    assert!(a.len() == k && out.len() == k && p.len() >= 2 * k, "mont_sqr: operand lengths");
    let p = &mut p[..2 * k];
    if let (Ok(a8), Ok(m8), Ok(cross)) = (a.try_into(), m.try_into(), p.try_into()) {
        let mut v = [0u64; 9];
        // SAFETY: the caller guarantees BMI2 and ADX.
        unsafe { mont_sqr_8_regs(&mut v, a8, m8, m0inv, cross) };
        subtract_if_at_least(out, &v[..8], v[8], m);
        return;
    }
    if k % 8 == 0 {
        // SAFETY: the caller guarantees BMI2 and ADX.
        let top = unsafe {
            super::karatsuba::sqr_by_width(p, a);
            super::rows8::redc_8rows(p, m, m0inv)
        };
        // SAFETY: the caller guarantees BMI2 and ADX.
        unsafe { final_step::<LAZY>(out, &p[k..], top, m) };
        return;
    }
    if let (Ok(a9), Ok(m9), Ok(p18)) =
        (a.try_into(), m.try_into(), <&mut [u64; 18]>::try_from(&mut *p))
    {
        let mut v = [0u64; 10];
        // SAFETY: the caller guarantees BMI2 and ADX.
        unsafe {
            sqr_9(p18, a9);
            redc_9_regs(&mut v, p18, m9, m0inv);
        }
        subtract_if_at_least(out, &v[..9], v[9], m);
        return;
    }
    // SAFETY: the caller guarantees BMI2 and ADX.
    unsafe {
        if super::unrolled::rows_unrolled(k) {
            super::unrolled::sqr_unrolled(p, a);
            super::unrolled::redc_rows_unrolled(p, m, m0inv);
        } else {
            super::sqr_basecase_adx(p, a);
            redc_rows(p, m, m0inv);
        }
    }
    add_parked_carries_and_subtract(out, p, m);
}

/// The end of the rows' reduction ([`redc_rows`], `super::unrolled::redc_rows_unrolled`):
/// `p`'s high half plus the carry digits parked in its low half, `(T + U·m)/2^(64k)` (below
/// `2^(64k) + m` for `T < 2^(128k)`: a top digit of 0 or 1), then `m` subtracted once,
/// branch-free, if the value is at least `m`, into `out`.
#[inline(always)]
fn add_parked_carries_and_subtract(out: &mut [u64], p: &mut [u64], m: &[u64]) {
    let (carries, high) = p.split_at_mut(m.len());
    let top = portable::add_assign_n(high, carries) as u64;
    subtract_if_at_least(out, high, top, m);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nat::Nat;
    use alloc::vec;
    use alloc::vec::Vec;
    use modred_testkit::SplitMix64;
    use std::eprintln;

    /// The portable twin: CIOS on `portable::addmul_1` (the loop of `ct::cios`) and the
    /// same final subtraction.
    fn cios_portable(a: &[u64], b: &[u64], m: &[u64], m0inv: u64) -> Vec<u64> {
        let k = m.len();
        let mut t = vec![0u64; 2 * k + 2];
        for (i, &ai) in a.iter().enumerate() {
            let w = &mut t[i..i + k + 2];
            let c = portable::addmul_1(&mut w[..k], b, ai);
            let (s, o) = w[k].overflowing_add(c);
            w[k] = s;
            w[k + 1] = o as u64;
            let u = w[0].wrapping_mul(m0inv);
            let c = portable::addmul_1(&mut w[..k], m, u);
            let (s, o) = w[k].overflowing_add(c);
            w[k] = s;
            w[k + 1] += o as u64;
        }
        let mut out = vec![0u64; k];
        subtract_if_at_least(&mut out, &t[k..2 * k], t[2 * k], m);
        out
    }

    /// `−m_0^(−1) mod 2^64` by Newton's iteration.
    fn m0inv(m0: u64) -> u64 {
        let mut x = m0; // correct to 3 bits for odd m0
        for _ in 0..6 {
            x = x.wrapping_mul(2u64.wrapping_sub(m0.wrapping_mul(x)));
        }
        x.wrapping_neg()
    }

    fn random_below(rng: &mut SplitMix64, m: &Nat<u64>) -> Vec<u64> {
        let limbs: Vec<u64> = (0..m.len() + 1).map(|_| rng.next_u64()).collect();
        Nat::from_vec(limbs).checked_rem(m).unwrap().to_padded(m.len()).unwrap()
    }

    /// Moduli of k digits with long carry chains and edge values, then random ones.
    fn moduli(rng: &mut SplitMix64, k: usize) -> Vec<Vec<u64>> {
        let mut all_ones = vec![u64::MAX; k];
        all_ones[0] |= 1; // 2^(64k) − 1
        let mut top_one = vec![0u64; k];
        top_one[0] = 1;
        top_one[k - 1] = 1; // 2^(64(k−1)) + 1: mostly zero digits
        let mut ones_but_low: Vec<u64> = vec![u64::MAX; k];
        ones_but_low[0] = 0x8000_0000_0000_0001; // all-ones digits above a short low one
        let mut high_bit = vec![0u64; k];
        high_bit[k - 1] = 1 << 63;
        high_bit[0] = 1; // 2^(64k − 1) + 1
        let mut out = vec![all_ones, top_one, ones_but_low, high_bit];
        for _ in 0..3 {
            let mut r: Vec<u64> = (0..k).map(|_| rng.next_u64()).collect();
            r[0] |= 1;
            r[k - 1] |= 1 << 63;
            out.push(r);
        }
        out
    }

    /// Operand pairs below `m`: m − 1 twice, 0, 1, digits all ones where `m` allows, random.
    fn operands(rng: &mut SplitMix64, m: &Nat<u64>) -> Vec<(Vec<u64>, Vec<u64>)> {
        let k = m.len();
        let pad = |x: Nat<u64>| x.to_padded(k).unwrap();
        let m1 = pad(m.checked_sub(&Nat::one()).unwrap());
        let zero = vec![0u64; k];
        let mut one = vec![0u64; k];
        one[0] = 1;
        // The largest value below m whose low digits are all ones.
        let mut ones = m1.clone();
        ones[..k - 1].fill(u64::MAX);
        if Nat::from_limbs(&ones) >= *m {
            ones = m1.clone();
        }
        let mut out = vec![
            (m1.clone(), m1.clone()),
            (m1.clone(), zero.clone()),
            (one.clone(), m1.clone()),
            (ones.clone(), ones.clone()),
            (ones, m1),
        ];
        for _ in 0..4 {
            out.push((random_below(rng, m), random_below(rng, m)));
        }
        out
    }

    #[test]
    fn mont_mul_and_sqr_agree_with_the_portable_twin_and_nat() {
        if !super::super::has_bmi2_adx() {
            eprintln!(
                "skipped: this CPU lacks BMI2/ADX, the MULX/ADX Montgomery kernels cannot run"
            );
            return;
        }
        let mut rng = SplitMix64::new(0x6d75_6c78);
        let widths = (1..=64).chain([65, 67, 70, 72, 80, 88, 96, 104, 112, 127, 128]);
        for k in widths {
            for ml in moduli(&mut rng, k) {
                let m = Nat::from_vec(ml.clone());
                assert_eq!(m.len(), k);
                let inv = m0inv(ml[0]);
                for (a, b) in operands(&mut rng, &m) {
                    let want = cios_portable(&a, &b, &ml, inv);
                    let mut out = vec![0u64; k];
                    let mut t = vec![0u64; k + 2];
                    // SAFETY: checked above that the CPU has BMI2 and ADX.
                    unsafe { mont_mul(&mut out, &a, &b, &ml, inv, &mut t) };
                    assert_eq!(out, want, "mont_mul, k = {k}, m = {ml:x?}");
                    // With room for the product: the separate product and reduction (eight
                    // rows per pass, Karatsuba) where the width has them.
                    let mut wide = vec![0u64; 2 * k + 2];
                    // SAFETY: as above.
                    unsafe { mont_mul(&mut out, &a, &b, &ml, inv, &mut wide) };
                    assert_eq!(out, want, "mont_mul with 2k + 2 digits of room, k = {k}");
                    // The value: out·R ≡ a·b (mod m), out < m.
                    let (na, nb, no) =
                        (Nat::from_limbs(&a), Nat::from_limbs(&b), Nat::from_limbs(&out));
                    assert!(no < m);
                    assert_eq!(
                        no.shl(64 * k as u64).checked_rem(&m).unwrap(),
                        na.mul(&nb).checked_rem(&m).unwrap(),
                        "mont_mul value, k = {k}"
                    );
                    for x in [&a, &b] {
                        let want = cios_portable(x, x, &ml, inv);
                        let mut p = vec![0u64; 2 * k];
                        // SAFETY: as above.
                        unsafe { mont_sqr::<false>(&mut out, x, &ml, inv, &mut p) };
                        assert_eq!(out, want, "mont_sqr, k = {k}, m = {ml:x?}");
                        // SAFETY: as above.
                        unsafe { mont_mul(&mut out, x, x, &ml, inv, &mut t) };
                        assert_eq!(out, want, "mont_mul square, k = {k}");
                    }
                }
            }
        }
    }

    /// The lazy product and square (inputs and output below `2^(64k)`, not `m`): the value
    /// congruent to `a·b·R⁻¹` and below `R`, on every width (the lazy final step at `8n ≥
    /// 16`, the full one elsewhere), with inputs at and above `m` up to all ones (carry out
    /// of the reduction) as an exponentiation's inner products meet them; and one product
    /// with `R mod m` makes the value below `m`, as `ct::MontgomeryCt::pow_word` ends.
    #[test]
    fn lazy_products_stay_below_r_and_congruent() {
        if !super::super::has_bmi2_adx() {
            eprintln!(
                "skipped: this CPU lacks BMI2/ADX, the MULX/ADX Montgomery kernels cannot run"
            );
            return;
        }
        let mut rng = SplitMix64::new(0x6c61_7a79);
        for k in [1usize, 4, 7, 8, 9, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 112, 128] {
            for ml in moduli(&mut rng, k) {
                let m = Nat::from_vec(ml.clone());
                let inv = m0inv(ml[0]);
                let r_bits = 64 * k as u64;
                let r_mod_m = Nat::one().shl(r_bits).checked_rem(&m).unwrap();
                let mut xs: Vec<Vec<u64>> = vec![vec![u64::MAX; k], ml.clone()];
                let mut above = ml.clone();
                above[0] = above[0].wrapping_add(2); // m + 2 unless that wraps a digit
                xs.push(above);
                for (a, b) in operands(&mut rng, &m) {
                    xs.push(a);
                    xs.push(b);
                }
                xs.push((0..k).map(|_| rng.next_u64()).collect());
                let check = |out: &[u64], x: &Nat<u64>, y: &Nat<u64>, what: &str| {
                    let no = Nat::from_limbs(out);
                    assert!(no.bits() <= r_bits, "{what}: k = {k}");
                    assert_eq!(
                        no.shl(r_bits).checked_rem(&m).unwrap(),
                        x.mul(y).checked_rem(&m).unwrap(),
                        "{what} value, k = {k}, m = {ml:x?}"
                    );
                };
                for a in &xs {
                    let na = Nat::from_limbs(a);
                    let (mut out, mut t) = (vec![0u64; k], vec![0u64; 2 * k + 2]);
                    for b in xs.iter().take(4) {
                        // SAFETY: checked above that the CPU has BMI2 and ADX.
                        unsafe { mont_mul_to::<true>(&mut out, a, b, &ml, inv, &mut t) };
                        check(&out, &na, &Nat::from_limbs(b), "lazy mont_mul_to");
                    }
                    // SAFETY: as above.
                    unsafe { mont_sqr::<true>(&mut out, a, &ml, inv, &mut t) };
                    check(&out, &na, &na, "lazy mont_sqr");
                    let one = r_mod_m.to_padded(k).unwrap();
                    let lazy = out.clone();
                    // SAFETY: as above.
                    unsafe { mont_mul(&mut out, &lazy, &one, &ml, inv, &mut t) };
                    check(&out, &Nat::from_limbs(&lazy), &r_mod_m, "the closing product");
                    assert!(Nat::from_limbs(&out) < m, "the closing product is below m");
                }
            }
        }
    }

    #[test]
    fn working_space_contents_do_not_matter() {
        if !super::super::has_bmi2_adx() {
            eprintln!(
                "skipped: this CPU lacks BMI2/ADX, the MULX/ADX Montgomery kernels cannot run"
            );
            return;
        }
        let mut rng = SplitMix64::new(0x7773);
        for k in [5usize, 8, 16, 31, 32, 64] {
            let mut ml: Vec<u64> = (0..k).map(|_| rng.next_u64()).collect();
            ml[0] |= 1;
            let m = Nat::from_vec(ml.clone());
            let inv = m0inv(ml[0]);
            let (a, b) = (random_below(&mut rng, &m), random_below(&mut rng, &m));
            let want = cios_portable(&a, &b, &ml, inv);
            let (mut out, mut t, mut p) =
                (vec![0; k], vec![u64::MAX; k + 5], vec![u64::MAX; 2 * k + 3]);
            // SAFETY: checked above that the CPU has BMI2 and ADX.
            unsafe { mont_mul(&mut out, &a, &b, &ml, inv, &mut t) };
            assert_eq!(out, want);
            let want = cios_portable(&a, &a, &ml, inv);
            // SAFETY: as above.
            unsafe { mont_sqr::<false>(&mut out, &a, &ml, inv, &mut p) };
            assert_eq!(out, want);
        }
    }

    /// The unrolled 8-digit loop leaves the same nine digits as the general loop (before the
    /// final subtraction, where a wrong top digit could still hide), on the extreme moduli
    /// and operands and on 2,000 random ones.
    #[test]
    fn eight_digit_register_square_agrees_with_the_general_square() {
        if !super::super::has_bmi2_adx() {
            eprintln!(
                "skipped: this CPU lacks BMI2/ADX, the MULX/ADX Montgomery kernels cannot run"
            );
            return;
        }
        let mut rng = SplitMix64::new(0x7371_7238);
        let mut cases: Vec<(Vec<u64>, Vec<u64>)> = Vec::new();
        for ml in moduli(&mut rng, 8) {
            let m = Nat::from_vec(ml.clone());
            for (a, b) in operands(&mut rng, &m) {
                cases.push((ml.clone(), a));
                cases.push((ml.clone(), b));
            }
        }
        for _ in 0..2000 {
            let mut ml: Vec<u64> = (0..8).map(|_| rng.next_u64()).collect();
            ml[0] |= 1;
            ml[7] |= 1 << (rng.next_u64() % 64);
            let m = Nat::from_vec(ml.clone());
            cases.push((ml, random_below(&mut rng, &m)));
        }
        for (ml, a) in cases {
            let inv = m0inv(ml[0]);
            // The looped square and reduction, before the final subtraction.
            let mut p = [0u64; 16];
            // SAFETY: checked above that the CPU has BMI2 and ADX.
            unsafe {
                super::super::sqr_basecase_adx(&mut p, &a);
                redc_rows(&mut p, &ml, inv);
            }
            let (carries, high) = p.split_at_mut(8);
            let top = portable::add_assign_n(high, carries);
            let mut registers = [0u64; 9];
            // Working space full of ones: the triangle's pass must not read what it did
            // not write.
            let mut cross = [u64::MAX; 16];
            // SAFETY: as above.
            unsafe {
                mont_sqr_8_regs(
                    &mut registers,
                    a[..].try_into().unwrap(),
                    ml[..].try_into().unwrap(),
                    inv,
                    &mut cross,
                );
            }
            assert_eq!(registers[..8], high[..], "m = {ml:x?}, a = {a:x?}");
            assert_eq!(registers[8], top as u64, "m = {ml:x?}, a = {a:x?}");
        }
    }

    #[test]
    fn eight_digit_register_loop_agrees_with_the_general_loop() {
        if !super::super::has_bmi2_adx() {
            eprintln!(
                "skipped: this CPU lacks BMI2/ADX, the MULX/ADX Montgomery kernels cannot run"
            );
            return;
        }
        let mut rng = SplitMix64::new(0x3831_6f6f70);
        let mut cases: Vec<(Vec<u64>, Vec<u64>, Vec<u64>)> = Vec::new();
        for ml in moduli(&mut rng, 8) {
            let m = Nat::from_vec(ml.clone());
            for (a, b) in operands(&mut rng, &m) {
                cases.push((ml.clone(), a, b));
            }
        }
        for _ in 0..2000 {
            let mut ml: Vec<u64> = (0..8).map(|_| rng.next_u64()).collect();
            ml[0] |= 1;
            ml[7] |= 1 << (rng.next_u64() % 64);
            let m = Nat::from_vec(ml.clone());
            let (a, b) = (random_below(&mut rng, &m), random_below(&mut rng, &m));
            cases.push((ml, a, b));
        }
        for (ml, a, b) in cases {
            let inv = m0inv(ml[0]);
            let mut general = [0u64; 10];
            let mut registers = [0u64; 9];
            // SAFETY: checked above that the CPU has BMI2 and ADX.
            unsafe {
                mont_mul_loop(&mut general, &a, &b, &ml, inv);
                mont_mul_8_loop(
                    &mut registers,
                    a[..].try_into().unwrap(),
                    b[..].try_into().unwrap(),
                    ml[..].try_into().unwrap(),
                    inv,
                );
            }
            assert_eq!(registers[..], general[1..], "m = {ml:x?}, a = {a:x?}, b = {b:x?}");
        }
    }

    #[test]
    fn narrow_register_loops_agree_with_the_general_loop() {
        if !super::super::has_bmi2_adx() {
            eprintln!(
                "skipped: this CPU lacks BMI2/ADX, the MULX/ADX Montgomery kernels cannot run"
            );
            return;
        }
        let mut rng = SplitMix64::new(0x3731_6f6f70);
        for n in 5..=7usize {
            let mut cases: Vec<(Vec<u64>, Vec<u64>, Vec<u64>)> = Vec::new();
            for ml in moduli(&mut rng, n) {
                let m = Nat::from_vec(ml.clone());
                for (a, b) in operands(&mut rng, &m) {
                    cases.push((ml.clone(), a, b));
                }
            }
            for _ in 0..2000 {
                let mut ml: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
                ml[0] |= 1;
                ml[n - 1] |= 1 << (rng.next_u64() % 64);
                let m = Nat::from_vec(ml.clone());
                let (a, b) = (random_below(&mut rng, &m), random_below(&mut rng, &m));
                cases.push((ml, a, b));
            }
            for (ml, a, b) in cases {
                let inv = m0inv(ml[0]);
                let mut general = vec![0u64; n + 2];
                let mut registers = vec![0u64; n + 1];
                // SAFETY: checked above that the CPU has BMI2 and ADX.
                unsafe {
                    mont_mul_loop(&mut general, &a, &b, &ml, inv);
                    match n {
                        5 => mont_mul_5_loop(
                            (&mut registers[..]).try_into().unwrap(),
                            a[..].try_into().unwrap(),
                            b[..].try_into().unwrap(),
                            ml[..].try_into().unwrap(),
                            inv,
                        ),
                        6 => mont_mul_6_loop(
                            (&mut registers[..]).try_into().unwrap(),
                            a[..].try_into().unwrap(),
                            b[..].try_into().unwrap(),
                            ml[..].try_into().unwrap(),
                            inv,
                        ),
                        _ => mont_mul_7_loop(
                            (&mut registers[..]).try_into().unwrap(),
                            a[..].try_into().unwrap(),
                            b[..].try_into().unwrap(),
                            ml[..].try_into().unwrap(),
                            inv,
                        ),
                    }
                }
                assert_eq!(
                    registers[..],
                    general[1..],
                    "n = {n}, m = {ml:x?}, a = {a:x?}, b = {b:x?}"
                );
            }
        }
    }
}
