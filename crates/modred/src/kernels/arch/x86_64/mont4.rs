//! Montgomery multiplication and squaring of 4-digit numbers (moduli below 2^256, P-256
//! and the like) in MULX/ADCX/ADOX assembly, for `reduce::fixed::MontgomeryFixed<4>`,
//! which calls them through `reduce::fixed::arith` (re-exported there) after its CPU check
//! ([`super::has_bmi2_adx`]). The portable twin is `arith::mont_mul::<4, false>`; the
//! tests comparing the two are in `reduce/fixed/arith.rs`.
//!
//! The constants come as `arith::MontConsts<4>`, whose `repr(C)` layout (the modulus's
//! four digits, then `m_0^(−1) mod 2^64`) the assembly reads through one pointer.

use crate::reduce::fixed::arith::MontConsts;

// The 4-digit assembly (`mont_mul_4_adx`, `mont_sqr_4_adx`) computes Montgomery's
// reduction in its subtractive form: with `u = t_0·m_0^(−1) mod 2^64` (not `−m_0^(−1)`),
// `u·m ≡ t_0 (mod 2^64)`, so `t − u·m` has a zero low digit *with no borrow*. The row
// `u·m` needs no addition into digit 0 then, and its five digits are made with one carry
// chain and taken off `t` with one borrow chain; where the additive form (paper 000,
// Algorithm 3, as in `arith::redc` and `arith::mont_mul`) carries into the next digit
// and needs two carry chains (ADCX/ADOX) and their flushes. The value `a·b − U·m` (`U` the
// concatenated `u`s, below `2^256`) is a multiple of `2^256` in `(−m·2^256, m·2^256)`, so
// the quotient `w` lies in `(−m, m)`: the result is `w`, or `w + m` when negative (a masked
// addition, no branch and no conditional move). The borrow out of the last digit of a
// round is kept in a register and added to the top digit of the next round's `u·m`: that
// digit is at most `2^64 − 2` (as `u·m < 2^320 − 2^256`), so the sum fits.
//
// Why: on the Sapphire Rapids machine here ADCX, ADOX, ADC, SBB (and CMOV) all issue on
// two ports (0 and 6), and the CIOS loop's 64 ADCX/ADOX plus 24 flushes and the final
// CMOVs kept those two ports busy ~48 cycles, more than the 36 cycles MULX and IMUL need
// on port 1. The subtractive rows need 55 such instructions, so a product takes about the
// 36 cycles of its multiplications. Cycles in a standalone loop around the routines
// (Sapphire Rapids, ~2.1 GHz, best of many batches), CIOS assembly → these: independent
// products 44.8 → 36.6, squares 43.9 (the CIOS product) → 32.2 (10 MULX); dependent
// chains `x ← x·b` 55.8 → 48, `x ← x²` 56 → 43.5. The `modulus_paths` example of
// `modred-bench` times both kinds through the library.

/// Montgomery multiplication (paper 000, Algorithm 3, interleaved with the product)
/// `a·b·2^(−256) mod m` for `a, b < m < 2^256`, `m` odd (`k`: its [`MontConsts`]), in MULX
/// assembly. Operand scanning, one step per digit `b_i`:
/// the row `a·b_i` (its five digits by one carry chain, added into the running value `T`
/// by another), then the subtractive reduction of `T`'s lowest digit (see above), its
/// borrow out kept for the next step. Result below `m`. The running value's five digits
/// rotate through `r8`–`r12`; `rbx` and `rbp` are saved on the stack and used. The
/// portable twin is `arith::mont_mul::<4, false>` (tested against it in `arith`'s tests).
/// Branch-free and without conditional moves: constant time (the constant-time
/// fixed-size exponentiation, `ct::pow_fixed`, uses it too).
///
/// # Safety
/// The CPU must have BMI2 (MULX).
#[inline]
pub(crate) unsafe fn mont_mul_4_adx(
    out: &mut [u64; 4],
    a: &[u64; 4],
    b: &[u64; 4],
    k: &MontConsts<4>,
) {
    let (o0, o1, o2, o3): (u64, u64, u64, u64);
    // SAFETY: the caller guarantees BMI2. The block reads a[0..4], b[0..4] and k's five
    // words (m, then minv at byte offset 32: `MontConsts` is `repr(C)`) through their
    // pointers; it writes registers, every one declared as an output or clobber except
    // rbx and rbp, which it pushes first and pops last (so no `nostack`: the stack pointer
    // is kept aligned for it); the pushes are its only memory writes.
    unsafe {
        core::arch::asm!(
            "push rbx",
            "push rbp",
            // Row 0: T = a·b_0, placed (one carry chain).
            "mov rdx, qword ptr [rdi]",
            "mulx r9, r8, qword ptr [rsi]",
            "mulx r10, r13, qword ptr [rsi + 8]",
            "add r9, r13",
            "mulx r11, r13, qword ptr [rsi + 16]",
            "adc r10, r13",
            "mulx r12, r13, qword ptr [rsi + 24]",
            "adc r11, r13",
            "adc r12, 0",
            // Reduction 0: u = T_0·minv, P = u·m; P_0 = T_0 exactly, so digit 0 of T − P is 0
            // with no borrow. P_1..P_4 (P_4 plus the borrow kept from the last round) go
            // through one carry chain, then come off digits 1..4 in one borrow chain.
            "mov rdx, r8",
            "imul rdx, qword ptr [rcx + 32]",
            "mulx r14, r13, qword ptr [rcx + 8]",
            "mulx r8, r8, qword ptr [rcx]",
            "mulx rax, r15, qword ptr [rcx + 16]",
            "add r13, r8",
            "adc r15, r14",
            "mulx r14, r8, qword ptr [rcx + 24]",
            "adc r8, rax",
            "adc r14, 0",
            "xor ebx, ebx",
            "sub r9, r13",
            "sbb r10, r15",
            "sbb r11, r8",
            "sbb r12, r14",
            "adc rbx, 0",
            // Row 1: the five digits of a·b_1 (one carry chain), then added to digits
            // 1..4 of T (another), digit 5 new.
            "mov rdx, qword ptr [rdi + 8]",
            "mulx r14, r13, qword ptr [rsi]",
            "mulx rax, r15, qword ptr [rsi + 8]",
            "add r15, r14",
            "mulx r14, rbp, qword ptr [rsi + 16]",
            "adc rbp, rax",
            "mulx r8, rax, qword ptr [rsi + 24]",
            "adc rax, r14",
            "adc r8, 0",
            "add r9, r13",
            "adc r10, r15",
            "adc r11, rbp",
            "adc r12, rax",
            "adc r8, 0",
            // Reduction 1: u = T_1·minv, P = u·m; P_0 = T_1 exactly, so digit 1 of T − P is 0
            // with no borrow. P_1..P_4 (P_4 plus the borrow kept from the last round) go
            // through one carry chain, then come off digits 2..5 in one borrow chain.
            "mov rdx, r9",
            "imul rdx, qword ptr [rcx + 32]",
            "mulx r14, r13, qword ptr [rcx + 8]",
            "mulx r9, r9, qword ptr [rcx]",
            "mulx rax, r15, qword ptr [rcx + 16]",
            "add r13, r9",
            "adc r15, r14",
            "mulx r14, r9, qword ptr [rcx + 24]",
            "adc r9, rax",
            "adc r14, rbx",
            "xor ebx, ebx",
            "sub r10, r13",
            "sbb r11, r15",
            "sbb r12, r9",
            "sbb r8, r14",
            "adc rbx, 0",
            // Row 2: the five digits of a·b_2 (one carry chain), then added to digits
            // 2..5 of T (another), digit 6 new.
            "mov rdx, qword ptr [rdi + 16]",
            "mulx r14, r13, qword ptr [rsi]",
            "mulx rax, r15, qword ptr [rsi + 8]",
            "add r15, r14",
            "mulx r14, rbp, qword ptr [rsi + 16]",
            "adc rbp, rax",
            "mulx r9, rax, qword ptr [rsi + 24]",
            "adc rax, r14",
            "adc r9, 0",
            "add r10, r13",
            "adc r11, r15",
            "adc r12, rbp",
            "adc r8, rax",
            "adc r9, 0",
            // Reduction 2: u = T_2·minv, P = u·m; P_0 = T_2 exactly, so digit 2 of T − P is 0
            // with no borrow. P_1..P_4 (P_4 plus the borrow kept from the last round) go
            // through one carry chain, then come off digits 3..6 in one borrow chain.
            "mov rdx, r10",
            "imul rdx, qword ptr [rcx + 32]",
            "mulx r14, r13, qword ptr [rcx + 8]",
            "mulx r10, r10, qword ptr [rcx]",
            "mulx rax, r15, qword ptr [rcx + 16]",
            "add r13, r10",
            "adc r15, r14",
            "mulx r14, r10, qword ptr [rcx + 24]",
            "adc r10, rax",
            "adc r14, rbx",
            "xor ebx, ebx",
            "sub r11, r13",
            "sbb r12, r15",
            "sbb r8, r10",
            "sbb r9, r14",
            "adc rbx, 0",
            // Row 3: the five digits of a·b_3 (one carry chain), then added to digits
            // 3..6 of T (another), digit 7 new.
            "mov rdx, qword ptr [rdi + 24]",
            "mulx r14, r13, qword ptr [rsi]",
            "mulx rax, r15, qword ptr [rsi + 8]",
            "add r15, r14",
            "mulx r14, rbp, qword ptr [rsi + 16]",
            "adc rbp, rax",
            "mulx r10, rax, qword ptr [rsi + 24]",
            "adc rax, r14",
            "adc r10, 0",
            "add r11, r13",
            "adc r12, r15",
            "adc r8, rbp",
            "adc r9, rax",
            "adc r10, 0",
            // Reduction 3: u = T_3·minv, P = u·m; P_0 = T_3 exactly, so digit 3 of T − P is 0
            // with no borrow. P_1..P_4 (P_4 plus the borrow kept from the last round) go
            // through one carry chain, then come off digits 4..7 in one borrow chain.
            "mov rdx, r11",
            "imul rdx, qword ptr [rcx + 32]",
            "mulx r14, r13, qword ptr [rcx + 8]",
            "mulx r11, r11, qword ptr [rcx]",
            "mulx rax, r15, qword ptr [rcx + 16]",
            "add r13, r11",
            "adc r15, r14",
            "mulx r14, r11, qword ptr [rcx + 24]",
            "adc r11, rax",
            "adc r14, rbx",
            "sub r12, r13",
            "sbb r8, r15",
            "sbb r9, r11",
            "sbb r10, r14",
            // The borrow out of digit 7 is the sign: rbx = 0 or all ones.
            "sbb rbx, rbx",
            // Negative: add m (digit by digit masked with the sign), mod 2^256.
            "mov r13, qword ptr [rcx + 0]",
            "and r13, rbx",
            "mov r14, qword ptr [rcx + 8]",
            "and r14, rbx",
            "mov r15, qword ptr [rcx + 16]",
            "and r15, rbx",
            "mov rax, qword ptr [rcx + 24]",
            "and rax, rbx",
            "add r12, r13",
            "adc r8, r14",
            "adc r9, r15",
            "adc r10, rax",
            "pop rbp",
            "pop rbx",
            in("rsi") a.as_ptr(),
            in("rdi") b.as_ptr(),
            in("rcx") k as *const MontConsts<4>,
            out("rdx") _,
            out("r12") o0,
            out("r8") o1,
            out("r9") o2,
            out("r10") o3,
            out("r11") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
            out("rax") _,
            options(readonly),
        );
    }
    *out = [o0, o1, o2, o3];
}

/// Montgomery squaring (paper 000, Algorithm 3, after a dedicated square) `a²·2^(−256)
/// mod m` for `a < m < 2^256` (`k` as in
/// [`mont_mul_4_adx`]), in MULX/ADCX/ADOX assembly: the six products `a_i·a_j`, `i < j`, in
/// three rows, doubled in an ADOX chain while the four squares `a_i²` come in on an ADCX
/// chain (10 MULX instead of 16), then the four subtractive reduction rounds of
/// [`mont_mul_4_adx`] on the eight digits. Result below `m`. The portable twin is
/// `arith::mont_mul::<4, false>(a, a, …)` (tested against it in `arith`'s tests).
///
/// # Safety
/// The CPU must have BMI2 (MULX) and ADX (ADCX, ADOX).
#[inline]
pub(crate) unsafe fn mont_sqr_4_adx(out: &mut [u64; 4], a: &[u64; 4], k: &MontConsts<4>) {
    let (o0, o1, o2, o3): (u64, u64, u64, u64);
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads a[0..4] and k's five
    // words (as in `mont_mul_4_adx`); it writes registers, every one declared except rbx
    // and rbp, which it pushes first and pops last (no `nostack`); the pushes are its only
    // memory writes.
    unsafe {
        core::arch::asm!(
            "push rbx",
            "push rbp",
            // The products a_i·a_j, i < j, into digits 1..6: row a_0 placed, rows a_1, a_2 added.
            "mov rdx, qword ptr [rsi]",
            "mulx r10, r9, qword ptr [rsi + 8]",
            "mulx r11, rax, qword ptr [rsi + 16]",
            "add r10, rax",
            "mulx r12, rax, qword ptr [rsi + 24]",
            "adc r11, rax",
            "adc r12, 0",
            "mov rdx, qword ptr [rsi + 8]",
            "mulx rdi, rax, qword ptr [rsi + 16]",
            "mulx r13, rbp, qword ptr [rsi + 24]",
            "add rdi, rbp",
            "adc r13, 0",
            "add r11, rax",
            "adc r12, rdi",
            "adc r13, 0",
            "mov rdx, qword ptr [rsi + 16]",
            "mulx r14, rax, qword ptr [rsi + 24]",
            "add r13, rax",
            "adc r14, 0",
            // Doubled (ADOX chain: T_j + T_j) and the squares a_i² added (ADCX chain).
            "xor r15d, r15d",
            "mov rdx, qword ptr [rsi]",
            "mulx rax, r8, rdx",
            "adox r9, r9",
            "adcx r9, rax",
            "mov rdx, qword ptr [rsi + 8]",
            "mulx rdi, rax, rdx",
            "adox r10, r10",
            "adcx r10, rax",
            "adox r11, r11",
            "adcx r11, rdi",
            "mov rdx, qword ptr [rsi + 16]",
            "mulx rdi, rax, rdx",
            "adox r12, r12",
            "adcx r12, rax",
            "adox r13, r13",
            "adcx r13, rdi",
            "mov rdx, qword ptr [rsi + 24]",
            "mulx rdi, rax, rdx",
            "adox r14, r14",
            "adcx r14, rax",
            "adox r15, r15",
            "adcx r15, rdi",
            // Reduction 0: u = T_0·minv, P = u·m; P_0 = T_0 exactly, so digit 0 of T − P is 0
            // with no borrow. P_1..P_4 (P_4 plus the borrow kept from the last round) go
            // through one carry chain, then come off digits 1..4 in one borrow chain.
            "mov rdx, r8",
            "imul rdx, qword ptr [rcx + 32]",
            "mulx rdi, rax, qword ptr [rcx + 8]",
            "mulx r8, r8, qword ptr [rcx]",
            "mulx rbp, rsi, qword ptr [rcx + 16]",
            "add rax, r8",
            "adc rsi, rdi",
            "mulx rdi, r8, qword ptr [rcx + 24]",
            "adc r8, rbp",
            "adc rdi, 0",
            "xor ebx, ebx",
            "sub r9, rax",
            "sbb r10, rsi",
            "sbb r11, r8",
            "sbb r12, rdi",
            "adc rbx, 0",
            // Reduction 1: u = T_1·minv, P = u·m; P_0 = T_1 exactly, so digit 1 of T − P is 0
            // with no borrow. P_1..P_4 (P_4 plus the borrow kept from the last round) go
            // through one carry chain, then come off digits 2..5 in one borrow chain.
            "mov rdx, r9",
            "imul rdx, qword ptr [rcx + 32]",
            "mulx rdi, rax, qword ptr [rcx + 8]",
            "mulx r9, r9, qword ptr [rcx]",
            "mulx rbp, rsi, qword ptr [rcx + 16]",
            "add rax, r9",
            "adc rsi, rdi",
            "mulx rdi, r9, qword ptr [rcx + 24]",
            "adc r9, rbp",
            "adc rdi, rbx",
            "xor ebx, ebx",
            "sub r10, rax",
            "sbb r11, rsi",
            "sbb r12, r9",
            "sbb r13, rdi",
            "adc rbx, 0",
            // Reduction 2: u = T_2·minv, P = u·m; P_0 = T_2 exactly, so digit 2 of T − P is 0
            // with no borrow. P_1..P_4 (P_4 plus the borrow kept from the last round) go
            // through one carry chain, then come off digits 3..6 in one borrow chain.
            "mov rdx, r10",
            "imul rdx, qword ptr [rcx + 32]",
            "mulx rdi, rax, qword ptr [rcx + 8]",
            "mulx r10, r10, qword ptr [rcx]",
            "mulx rbp, rsi, qword ptr [rcx + 16]",
            "add rax, r10",
            "adc rsi, rdi",
            "mulx rdi, r10, qword ptr [rcx + 24]",
            "adc r10, rbp",
            "adc rdi, rbx",
            "xor ebx, ebx",
            "sub r11, rax",
            "sbb r12, rsi",
            "sbb r13, r10",
            "sbb r14, rdi",
            "adc rbx, 0",
            // Reduction 3: u = T_3·minv, P = u·m; P_0 = T_3 exactly, so digit 3 of T − P is 0
            // with no borrow. P_1..P_4 (P_4 plus the borrow kept from the last round) go
            // through one carry chain, then come off digits 4..7 in one borrow chain.
            "mov rdx, r11",
            "imul rdx, qword ptr [rcx + 32]",
            "mulx rdi, rax, qword ptr [rcx + 8]",
            "mulx r11, r11, qword ptr [rcx]",
            "mulx rbp, rsi, qword ptr [rcx + 16]",
            "add rax, r11",
            "adc rsi, rdi",
            "mulx rdi, r11, qword ptr [rcx + 24]",
            "adc r11, rbp",
            "adc rdi, rbx",
            "sub r12, rax",
            "sbb r13, rsi",
            "sbb r14, r11",
            "sbb r15, rdi",
            // The borrow out of digit 7 is the sign: rbx = 0 or all ones.
            "sbb rbx, rbx",
            // Negative: add m (digit by digit masked with the sign), mod 2^256.
            "mov rax, qword ptr [rcx + 0]",
            "and rax, rbx",
            "mov rdi, qword ptr [rcx + 8]",
            "and rdi, rbx",
            "mov rsi, qword ptr [rcx + 16]",
            "and rsi, rbx",
            "mov rbp, qword ptr [rcx + 24]",
            "and rbp, rbx",
            "add r12, rax",
            "adc r13, rdi",
            "adc r14, rsi",
            "adc r15, rbp",
            "pop rbp",
            "pop rbx",
            inout("rsi") a.as_ptr() => _,
            in("rcx") k as *const MontConsts<4>,
            out("rdx") _,
            out("r12") o0,
            out("r13") o1,
            out("r14") o2,
            out("r15") o3,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            out("rax") _,
            out("rdi") _,
            options(readonly),
        );
    }
    *out = [o0, o1, o2, o3];
}
