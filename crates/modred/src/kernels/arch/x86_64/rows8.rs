//! Eight rows per pass on BMI2 (MULX) and ADX (ADCX/ADOX): Montgomery's reduction, the
//! product and the square for operands of `8n` digits (the RSA sizes), after the structure
//! of OpenSSL's `bn_sqrx8x_internal` and `__bn_sqrx8x_reduction`
//! (crypto/bn/asm/x86_64-mont5.pl).
//!
//! A row adds a digit times a number: `p[i..i+k] += u_i·m`. One row per pass
//! ([`super::mont_mulx::redc_rows`], the rows of `super::rows`) loads and stores a digit of
//! `p` for every digit product. Here eight rows share a pass: a window of eight digits
//! lives in r8–r15, each digit product is one MULX, one ADCX and one ADOX, and `p` is
//! loaded and stored once per eight products. Each step of a pass adds one row's eight
//! products to the window, stores its lowest digit (final: no later row of the eight
//! reaches it) and shifts the window down a digit by renaming (register `i` takes digit `i
//! + 1` plus the products that land there), so the loop body is the same every step.
//!
//! - [`redc_8rows`]: the reduction, a block of eight rows at a time. For rows `8b … 8b+7`:
//!   1. the window is `p[8b..8b+8]`; eight steps each take `u_j = w_0·m' mod 2^64` and add
//!      `u_j·m[0..8]` (the lowest digit becomes zero and drops out), the next `u` found by
//!      MULX in the middle of the step (IMUL would clobber the carry flags). The `u_j` go
//!      to the stack; the window now holds what the rows carried above `p[8b+7]`;
//!   2. for each further block of eight digits of `m`: the window plus the next eight
//!      digits of `p` (ADC, the carry kept for the next block of `p`), then eight steps
//!      adding `u_j·m[8c..8c+8]` (`next_block_rows!`);
//!   3. the window reaches `p[8b+k..8b+k+8]`, digits no earlier block wrote: it adds them,
//!      the kept carry and the previous block's carry out (at `p[8b+k]`), stores them, and
//!      keeps its own carry (`0` or `1`: `p`'s digits there plus the block's `U·m` are
//!      below `2^(64(k+8)+1)`) for the next block; the last block's is the digit above
//!      `p[2k−1]`.
//! - [`addmul_8rows`]: `r += x·v` for eight digits `v`, the second step alone.
//! - [`mul_8rows`]: the product, [`addmul_8rows`] for each block of eight digits of `b`.
//! - [`sqr_8rows`]: the square, the products of distinct blocks once by [`addmul_8rows`],
//!   doubled, plus the squares of the blocks in registers
//!   ([`super::mont_mulx::sqr_8_regs`]); at 16 digits the halves' product in registers and
//!   one block for the triangles, the doubling and the diagonal
//!   ([`super::mont_mulx::sqr_16_from_cross`]: a 1024-bit Montgomery square 217 → 209 ns).
//!
//! `super::mont_mulx::mont_mul` and `mont_sqr` take these for `8n` digits from 16 (the
//! product by Karatsuba over these at 24–64 digits and the square at 32, 56 and 64,
//! `super::karatsuba`). On an AMD EPYC (Zen 4, AVX-512 hidden), against the fused one-row
//! CIOS and the square of the rows before: a 1024-bit Montgomery multiplication 288 → 250
//! ns, a square 250 → 210; 2048 bits 1060 → 880 and 791 → 725; 4096 bits 4058 → 3180 and
//! 2920 → 2650.

use core::arch::asm;

/// One digit product of a row, window register `$w` taking the high half: `$lo_dst +=
/// low half` (ADCX) and `$w = high half + $next` (ADOX), for `rdx·[rsi + $off]`.
macro_rules! step {
    ($off:literal, $lo_dst:literal, $w:literal, $next:literal, $tmp:literal) => {
        concat!(
            "mulx ",
            $w,
            ", ",
            $tmp,
            ", [rsi + ",
            $off,
            "]\n",
            "adcx ",
            $lo_dst,
            ", ",
            $tmp,
            "\n",
            "adox ",
            $w,
            ", ",
            $next,
            "\n",
        )
    };
}

/// The next block of eight digits of `m` (or `x`) for the eight rows of `u_0..u_7` (at
/// `[rsp]`): `rsi` moves to it; the window plus the digits of `p` under it (at `rdi`, with
/// the carry kept at `[rsp + 96]`, whose new value it stores); then eight steps, each the
/// window plus `u_j·m[8c..8c+8]` with its lowest digit stored, final, and the window
/// shifted down a digit. Leaves `rdi` at the digits of `p` under the new window.
macro_rules! next_block_rows {
    () => {
        concat!(
            "lea rsi, [rsi + 64]\n",
            "mov rax, [rsp + 96]\n",
            // NEG sets CF to the kept carry.
            "neg rax\n",
            "adc r8, [rdi]\n",
            "adc r9, [rdi + 8]\n",
            "adc r10, [rdi + 16]\n",
            "adc r11, [rdi + 24]\n",
            "adc r12, [rdi + 32]\n",
            "adc r13, [rdi + 40]\n",
            "adc r14, [rdi + 48]\n",
            "adc r15, [rdi + 56]\n",
            "setc al\n",
            "movzx eax, al\n",
            "mov [rsp + 96], rax\n",
            "mov rdx, [rsp]\n",
            "lea rdi, [rdi + 64]\n",
            "mov rcx, -8\n",
            // TEST clears CF and OF.
            "test rbp, rbp\n",
            // Step j: the window plus u_j·m[8c..8c+8], its lowest digit stored, final.
            "5:\n",
            "mov rbx, r8\n",
            "mulx r8, rax, [rsi]\n",
            "adcx rbx, rax\n",
            "adox r8, r9\n",
            step!("8", "r8", "r9", "r10", "rax"),
            step!("16", "r9", "r10", "r11", "rax"),
            step!("24", "r10", "r11", "r12", "rax"),
            step!("32", "r11", "r12", "r13", "rax"),
            step!("40", "r12", "r13", "r14", "rax"),
            step!("48", "r13", "r14", "r15", "rax"),
            "mulx r15, rax, [rsi + 56]\n",
            // u_(j+1) (after u_7 this reads the frame's next slot, unused).
            "mov rdx, [rsp + 8*rcx + 72]\n",
            "adcx r14, rax\n",
            "adox r15, rbp\n",
            "mov [rdi + 8*rcx], rbx\n",
            "adcx r15, rbp\n",
            "inc rcx\n",
            "jnz 5b\n",
        )
    };
}

/// Montgomery's reduction of `p` (`2k` digits, `k = 8n`, `n ≥ 1`) by `m` (`k` digits, odd,
/// `m0inv = −m_0^(−1) mod 2^64`): `p[k..2k] + 2^(64k)·top = (p + U·m)/2^(64k)` with
/// `U < 2^(64k)` the unique value that makes the sum divisible by `2^(64k)`; returns `top`.
/// The arithmetic of paper 000, Algorithm 3 (as `reduce::montgomery::redc_in_place`), the
/// rows grouped by eight. For `p < 2^(128k)` the result is below `2^(64k) + m`, so `top ∈
/// {0, 1}`; for `p < m·2^(64k)` (a product of two residues) it is below `2m`. `p[0..k]` is
/// left with working values. `k² + k` digit products; constant time (no branch or address
/// depends on the values).
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If `m.len()` is not a positive multiple of 8 or `p.len() != 2·m.len()`.
#[inline]
pub(crate) unsafe fn redc_8rows(p: &mut [u64], m: &[u64], m0inv: u64) -> u64 {
    let k = m.len();
    assert!(k >= 8 && k % 8 == 0 && p.len() == 2 * k, "redc_8rows: operand lengths");
    let top: u64;
    // SAFETY: the caller guarantees BMI2 and ADX. Block b reads and writes p[8b..8b+k+8]
    // (b < k/8, so within p[0..2k]) and reads m[0..k]; `p` is exclusive, `m` shared. The
    // asm saves rbx and rbp (which `asm!` cannot name) on the stack with its frame below
    // them, restores the stack pointer and both registers at the end (no `nostack`), and
    // declares every other register it writes.
    //
    // Frame: [rsp .. rsp+64] u_0..u_7, [rsp+64] m', [rsp+72] m, [rsp+80] m's last block,
    // [rsp+88] the block's start in p, [rsp+96] the carry of the window's additions of p,
    // [rsp+104] the previous block's top carry, [rsp+112] blocks left. Registers: r8–r15
    // the window, rdx the multiplier, rax/rbx the low halves, rsi → m's block, rdi → p,
    // rcx the step counter (−8 … −1), rbp = 0.
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            "sub rsp, 120",
            "mov [rsp + 64], rdx",
            "mov [rsp + 72], rsi",
            "lea rax, [rsi + 8*rcx - 64]",
            "mov [rsp + 80], rax",
            "mov [rsp + 88], rdi",
            "mov qword ptr [rsp + 104], 0",
            "shr rcx, 3",
            "mov [rsp + 112], rcx",
            // One block of eight rows; rdi → its first digit, rsi → m.
            "2:",
            "mov r8, [rdi]",
            "mov r9, [rdi + 8]",
            "mov r10, [rdi + 16]",
            "mov r11, [rdi + 24]",
            "mov r12, [rdi + 32]",
            "mov r13, [rdi + 40]",
            "mov r14, [rdi + 48]",
            "mov r15, [rdi + 56]",
            "mov rdx, r8",
            "imul rdx, [rsp + 64]",
            // rbp = 0; XOR clears CF and OF (after IMUL, which writes them).
            "xor ebp, ebp",
            "mov rcx, -8",
            // 1. Step j (rcx = j − 8): rdx = u_j, CF = OF = 0.
            "3:",
            "mov rbx, r8",
            "mulx r8, rax, [rsi]",
            // w_0 + low(u_j·m_0) = 0 mod 2^64: only its carry is kept.
            "adcx rax, rbx",
            "adox r8, r9",
            step!("8", "r8", "r9", "r10", "rbx"),
            step!("16", "r9", "r10", "r11", "rbx"),
            step!("24", "r10", "r11", "r12", "rbx"),
            "mulx r12, rbx, [rsi + 32]",
            // r8 (the next step's w_0) is final: u_(j+1) = r8·m' by MULX, which leaves the
            // flags alone.
            "mov rax, rdx",
            "mov rdx, r8",
            "adcx r11, rbx",
            "adox r12, r13",
            "mulx rdx, rbx, [rsp + 64]",
            "mov rdx, rax",
            "mov [rsp + 8*rcx + 64], rax",
            step!("40", "r12", "r13", "r14", "rax"),
            step!("48", "r13", "r14", "r15", "rax"),
            "mulx r15, rax, [rsi + 56]",
            "mov rdx, rbx",
            "adcx r14, rax",
            "adox r15, rbp",
            // Both chains end here (the window plus u_j·m[0..8] is below 2^576); INC leaves
            // CF and clears OF.
            "adcx r15, rbp",
            "inc rcx",
            "jnz 3b",
            "lea rdi, [rdi + 64]",
            "mov qword ptr [rsp + 96], 0",
            "cmp rsi, [rsp + 80]",
            "jae 6f",
            // 2. The next block of m: the window plus p's digits under it.
            "4:",
            next_block_rows!(),
            "cmp rsi, [rsp + 80]",
            "jb 4b",
            // 3. The window is p[8b+k..8b+k+8]: plus the previous block's top carry, the
            // kept carry and p's digits; the sum's carry is this block's top carry.
            "6:",
            "xor eax, eax",
            "add r8, [rsp + 104]",
            "adc r9, 0",
            "adc r10, 0",
            "adc r11, 0",
            "adc r12, 0",
            "adc r13, 0",
            "adc r14, 0",
            "adc r15, 0",
            "adc rax, 0",
            "mov rbx, [rsp + 96]",
            "neg rbx",
            "adc r8, [rdi]",
            "adc r9, [rdi + 8]",
            "adc r10, [rdi + 16]",
            "adc r11, [rdi + 24]",
            "adc r12, [rdi + 32]",
            "adc r13, [rdi + 40]",
            "adc r14, [rdi + 48]",
            "adc r15, [rdi + 56]",
            "adc rax, 0",
            "mov [rsp + 104], rax",
            "mov [rdi], r8",
            "mov [rdi + 8], r9",
            "mov [rdi + 16], r10",
            "mov [rdi + 24], r11",
            "mov [rdi + 32], r12",
            "mov [rdi + 40], r13",
            "mov [rdi + 48], r14",
            "mov [rdi + 56], r15",
            // The next block starts eight digits up.
            "mov rdi, [rsp + 88]",
            "lea rdi, [rdi + 64]",
            "mov [rsp + 88], rdi",
            "mov rsi, [rsp + 72]",
            "dec qword ptr [rsp + 112]",
            "jnz 2b",
            "mov rax, [rsp + 104]",
            "add rsp, 120",
            "pop rbp",
            "pop rbx",
            inout("rdi") p.as_mut_ptr() => _,
            inout("rsi") m.as_ptr() => _,
            inout("rdx") m0inv => _,
            inout("rcx") k => _,
            out("rax") top,
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
    top
}

/// `r += x·v` for `x` of `8n` digits (`n ≥ 1`), `v` of eight and `r` of `8n + 8`, by the
/// block rows of [`redc_8rows`] (its second step with `v` for the `u_j`): eight rows per
/// pass, the window in registers. Returns the carry out of `r` (`0` or `1`; `0` where the
/// caller knows the sum fits). `64n` digit products; constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If `x.len()` is not a positive multiple of 8 or `r.len() != x.len() + 8`.
#[inline]
pub(crate) unsafe fn addmul_8rows(r: &mut [u64], x: &[u64], v: &[u64; 8]) -> u64 {
    let n8 = x.len();
    assert!(n8 >= 8 && n8 % 8 == 0 && r.len() == n8 + 8, "addmul_8rows: operand lengths");
    let carry: u64;
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads v[0..8] and x[0..n8] and
    // reads and writes r[0..n8+8], in bounds by the assertion above; `r` is exclusive. It
    // saves rbx and rbp on the stack with the frame of `redc_8rows` below them ([rsp ..
    // rsp+64] v, [rsp+80] x's last block, [rsp+96] the kept carry), restores the stack
    // pointer and both registers at the end, and declares every other register it writes.
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            "sub rsp, 120",
            "mov rax, [rdx]",
            "mov [rsp], rax",
            "mov rax, [rdx + 8]",
            "mov [rsp + 8], rax",
            "mov rax, [rdx + 16]",
            "mov [rsp + 16], rax",
            "mov rax, [rdx + 24]",
            "mov [rsp + 24], rax",
            "mov rax, [rdx + 32]",
            "mov [rsp + 32], rax",
            "mov rax, [rdx + 40]",
            "mov [rsp + 40], rax",
            "mov rax, [rdx + 48]",
            "mov [rsp + 48], rax",
            "mov rax, [rdx + 56]",
            "mov [rsp + 56], rax",
            "lea rax, [rsi + 8*rcx - 64]",
            "mov [rsp + 80], rax",
            "mov qword ptr [rsp + 96], 0",
            "xor ebp, ebp",
            // The window starts empty; each block adds the digits of r under it.
            "xor r8d, r8d",
            "xor r9d, r9d",
            "xor r10d, r10d",
            "xor r11d, r11d",
            "xor r12d, r12d",
            "xor r13d, r13d",
            "xor r14d, r14d",
            "xor r15d, r15d",
            "lea rsi, [rsi - 64]",
            "4:",
            next_block_rows!(),
            "cmp rsi, [rsp + 80]",
            "jb 4b",
            // The window is r[8n..8n+8]: plus the kept carry and r's digits.
            "xor eax, eax",
            "mov rbx, [rsp + 96]",
            "neg rbx",
            "adc r8, [rdi]",
            "adc r9, [rdi + 8]",
            "adc r10, [rdi + 16]",
            "adc r11, [rdi + 24]",
            "adc r12, [rdi + 32]",
            "adc r13, [rdi + 40]",
            "adc r14, [rdi + 48]",
            "adc r15, [rdi + 56]",
            "adc rax, 0",
            "mov [rdi], r8",
            "mov [rdi + 8], r9",
            "mov [rdi + 16], r10",
            "mov [rdi + 24], r11",
            "mov [rdi + 32], r12",
            "mov [rdi + 40], r13",
            "mov [rdi + 48], r14",
            "mov [rdi + 56], r15",
            "add rsp, 120",
            "pop rbp",
            "pop rbx",
            inout("rdi") r.as_mut_ptr() => _,
            inout("rsi") x.as_ptr() => _,
            inout("rdx") v.as_ptr() => _,
            inout("rcx") n8 => _,
            out("rax") carry,
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
    carry
}

/// `r = a·b` for `a`, `b` of `k = 8n` digits and `r` of `2k`: [`addmul_8rows`] for each
/// block of eight digits of `b` (each partial sum fits the digits it is added to, so no
/// carry leaves a block). `k²` digit products; constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If the lengths differ from the above.
#[inline]
pub(crate) unsafe fn mul_8rows(r: &mut [u64], a: &[u64], b: &[u64]) {
    let k = a.len();
    assert!(b.len() == k && r.len() == 2 * k, "mul_8rows: operand lengths");
    if k == 16 {
        // SAFETY: the caller guarantees BMI2 and ADX.
        unsafe { mul_16_by_blocks(r, a, b) };
        return;
    }
    r.fill(0);
    for (i, v) in b.chunks_exact(8).enumerate() {
        let v: &[u64; 8] = v.try_into().expect("chunks of eight");
        // SAFETY: the caller guarantees BMI2 and ADX.
        let carry = unsafe { addmul_8rows(&mut r[8 * i..8 * i + k + 8], a, v) };
        debug_assert_eq!(carry, 0, "a partial product fits its digits");
    }
}

/// `r = a·b` for sixteen digits by the four products of their blocks of eight in
/// registers ([`super::mul_8_regs`]): `A_0·B_0` and `A_1·B_1` written to the two halves of
/// `r`, the two cross products added at digit 8 (`add_at_8`). `256` digit products;
/// constant time. A 1024-bit Montgomery multiplication 256 → 252 ns against the two passes
/// of eight rows (AMD EPYC Zen 4).
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
unsafe fn mul_16_by_blocks(r: &mut [u64], a: &[u64], b: &[u64]) {
    let block =
        |x: &[u64], i: usize| -> [u64; 8] { x[8 * i..8 * i + 8].try_into().expect("eight digits") };
    let (a0, a1, b0, b1) = (block(a, 0), block(a, 1), block(b, 0), block(b, 1));
    let (lo, hi) = r.split_at_mut(16);
    let lo: &mut [u64; 16] = lo.try_into().expect("sixteen digits");
    let hi: &mut [u64; 16] = hi.try_into().expect("sixteen digits");
    let mut cross = [0u64; 16];
    // SAFETY: the caller guarantees BMI2 and ADX.
    unsafe {
        super::mul_8_regs(lo, &a0, &b0);
        super::mul_8_regs(hi, &a1, &b1);
        super::mul_8_regs(&mut cross, &a0, &b1);
    }
    add_at_8(r, &cross);
    // SAFETY: as above.
    unsafe { super::mul_8_regs(&mut cross, &a1, &b0) };
    add_at_8(r, &cross);
}

/// `r[8..32] += t` for `r` of 32 digits, the carry taken through every digit above `t`
/// (no early exit: constant time). The caller knows the sum fits.
#[inline(always)]
fn add_at_8(r: &mut [u64], t: &[u64; 16]) {
    let mut carry = false;
    for (d, &x) in r[8..24].iter_mut().zip(t) {
        let (s, c1) = d.overflowing_add(x);
        let (s, c2) = s.overflowing_add(carry as u64);
        *d = s;
        carry = c1 | c2;
    }
    for d in &mut r[24..32] {
        let (s, c) = d.overflowing_add(carry as u64);
        *d = s;
        carry = c;
    }
}

/// `r = 2r + s` for `r`, `s` of `4n` digits (`n ≥ 1`), returning the carry out (`0`, `1`
/// or `2`): the doubling on the ADCX chain (`r_i + r_i` plus the carry, which is the top
/// bit of the digit below), `s` added on the ADOX chain. Constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If the lengths differ or are not a positive multiple of 4.
#[inline]
unsafe fn double_add(r: &mut [u64], s: &[u64]) -> u64 {
    let len = r.len();
    assert!(len >= 4 && len % 4 == 0 && s.len() == len, "double_add: operand lengths");
    let carry: u64;
    // SAFETY: the caller guarantees BMI2 and ADX. The loop reads s[0..len] and reads and
    // writes r[0..len]; `r` is exclusive. LEA and JRCXZ count without touching the flags.
    unsafe {
        asm!(
            "xor eax, eax",
            "2:",
            "mov r8, [rdi]",
            "adcx r8, r8",
            "adox r8, [rsi]",
            "mov [rdi], r8",
            "mov r8, [rdi + 8]",
            "adcx r8, r8",
            "adox r8, [rsi + 8]",
            "mov [rdi + 8], r8",
            "mov r8, [rdi + 16]",
            "adcx r8, r8",
            "adox r8, [rsi + 16]",
            "mov [rdi + 16], r8",
            "mov r8, [rdi + 24]",
            "adcx r8, r8",
            "adox r8, [rsi + 24]",
            "mov [rdi + 24], r8",
            "lea rdi, [rdi + 32]",
            "lea rsi, [rsi + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            "adcx rax, rcx",
            "adox rax, rcx",
            inout("rdi") r.as_mut_ptr() => _,
            inout("rsi") s.as_ptr() => _,
            inout("rcx") len / 4 => _,
            out("rax") carry,
            out("r8") _,
            options(nostack),
        );
    }
    carry
}

/// The largest `k` [`sqr_8rows`] takes: its block squares live on the stack (`2k` digits).
pub(crate) const SQR_8ROWS_MAX_DIGITS: usize = 64;

/// `r = a²` for `a` of `k = 8n` digits (`8 ≤ k ≤` [`SQR_8ROWS_MAX_DIGITS`]) and `r` of `2k`,
/// by blocks of eight digits `A_q`: the products of distinct blocks `C = Σ_(q<s)
/// A_q·A_s·2^(512(q+s))` by [`addmul_8rows`] (block `q` times `a`'s digits above it: no
/// carry leaves a block, as in [`mul_8rows`]), then `a² = 2C + Σ_q A_q²·2^(1024q)` in one
/// pass ([`double_add`]), the squares of the blocks (disjoint slots of sixteen digits) by
/// [`super::mont_mulx::sqr_8_regs`]. `k²/2 + k/2` digit products (`k(k−8)/2` in the pass
/// of eight rows, `36` per block in registers); constant time.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If `a.len()` is not a multiple of 8 in `8..=SQR_8ROWS_MAX_DIGITS` or `r.len() !=
/// 2·a.len()`.
#[inline]
pub(crate) unsafe fn sqr_8rows(r: &mut [u64], a: &[u64]) {
    let k = a.len();
    assert!(
        (8..=SQR_8ROWS_MAX_DIGITS).contains(&k) && k % 8 == 0 && r.len() == 2 * k,
        "sqr_8rows: operand lengths"
    );
    if k == 16 {
        // 1024 bits: the product of the halves in registers (no pass of eight rows to set
        // up), then the triangles and one doubling pass in one block.
        let mut cross = [0u64; 16];
        let (a0, a1) = a.split_at(8);
        // SAFETY: the caller guarantees BMI2 and ADX.
        unsafe {
            super::mul_8_regs(
                &mut cross,
                a0.try_into().expect("eight digits"),
                a1.try_into().expect("eight digits"),
            );
            super::mont_mulx::sqr_16_from_cross(
                r.try_into().expect("32 digits"),
                a.try_into().expect("sixteen digits"),
                &cross,
            );
        }
        return;
    }
    r.fill(0);
    for q in 0..k / 8 - 1 {
        let v: &[u64; 8] = a[8 * q..8 * q + 8].try_into().expect("eight digits");
        // SAFETY: the caller guarantees BMI2 and ADX.
        let carry = unsafe { addmul_8rows(&mut r[16 * q + 8..8 * q + k + 8], &a[8 * q + 8..], v) };
        debug_assert_eq!(carry, 0, "the products of blocks so far fit their digits");
    }
    // The squares' buffer sized to `k` (a 1 KiB buffer zeroed for every square cost 4% of
    // a 1024-bit square).
    // SAFETY: the caller guarantees BMI2 and ADX (the requirement of each arm).
    unsafe {
        match k / 8 {
            1 => add_block_squares::<16>(r, a),
            2 => add_block_squares::<32>(r, a),
            3 => add_block_squares::<48>(r, a),
            4 => add_block_squares::<64>(r, a),
            5 => add_block_squares::<80>(r, a),
            6 => add_block_squares::<96>(r, a),
            7 => add_block_squares::<112>(r, a),
            _ => add_block_squares::<128>(r, a),
        }
    }
}

/// `r = 2r + Σ_q A_q²·2^(1024q)` for the blocks `A_q` of eight digits of `a` (`r` of `K2 =
/// 2·a.len()` digits), the last step of [`sqr_8rows`].
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
unsafe fn add_block_squares<const K2: usize>(r: &mut [u64], a: &[u64]) {
    let mut squares = [0u64; K2];
    for q in 0..K2 / 16 {
        let block: &[u64; 8] = a[8 * q..8 * q + 8].try_into().expect("eight digits");
        let slot: &mut [u64; 16] =
            (&mut squares[16 * q..16 * q + 16]).try_into().expect("sixteen digits");
        // SAFETY: the caller guarantees BMI2 and ADX.
        unsafe { super::mont_mulx::sqr_8_regs(slot, block) };
    }
    // SAFETY: the caller guarantees BMI2 and ADX.
    let carry = unsafe { double_add(r, &squares) };
    debug_assert_eq!(carry, 0, "a² fits 2k digits");
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::kernels::arch::x86_64::mont_mulx::redc_rows;
    use crate::kernels::portable;
    use alloc::vec::Vec;
    use modred_testkit::SplitMix64;
    use std::eprintln;

    pub(in super::super) fn m0inv(m0: u64) -> u64 {
        let mut inv = 1u64;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(m0.wrapping_mul(inv)));
        }
        inv.wrapping_neg()
    }

    /// The one-row-per-pass reduction and its carries: the same `(p + U·m)/2^(64k)`.
    fn by_rows(p: &[u64], m: &[u64], m0inv: u64) -> (Vec<u64>, u64) {
        let k = m.len();
        let mut p = p.to_vec();
        // SAFETY: only called where the CPU has BMI2 and ADX.
        unsafe { redc_rows(&mut p, m, m0inv) };
        let (carries, high) = p.split_at_mut(k);
        let top = portable::add_assign_n(high, carries) as u64;
        (high.to_vec(), top)
    }

    /// Operands of `len` digits: zero, all ones (the longest carry chains), alternating
    /// ones and zeros, a top digit alone, and random ones.
    pub(in super::super) fn operands(rng: &mut SplitMix64, len: usize) -> Vec<Vec<u64>> {
        let mut out = alloc::vec![
            alloc::vec![0; len],
            alloc::vec![u64::MAX; len],
            (0..len).map(|i| if i % 2 == 0 { u64::MAX } else { 0 }).collect(),
            (0..len).map(|i| if i + 1 == len { 1 } else { 0 }).collect(),
        ];
        for _ in 0..5 {
            out.push((0..len).map(|_| rng.next_u64()).collect());
        }
        out
    }

    #[test]
    fn products_and_squares_agree_with_the_portable_schoolbook() {
        if !super::super::has_bmi2_adx() {
            eprintln!("skipped: this CPU has no BMI2/ADX (the eight-row products not run)");
            return;
        }
        let mut rng = SplitMix64::new(0x8_5e1);
        for k in (8..=128).step_by(8) {
            let xs = operands(&mut rng, k);
            for (i, a) in xs.iter().enumerate() {
                let b = &xs[(i + 3) % xs.len()];
                let mut expected = alloc::vec![0; 2 * k];
                portable::mul_basecase(&mut expected, a, b);
                let mut r = alloc::vec![u64::MAX; 2 * k];
                // SAFETY: the CPU has BMI2 and ADX (checked above).
                unsafe { mul_8rows(&mut r, a, b) };
                assert_eq!(r, expected, "mul_8rows, k = {k}, a = {a:x?}, b = {b:x?}");

                // r += x·v onto a nonzero r: the carry out and the digits.
                let v: &[u64; 8] = b[..8].try_into().unwrap();
                let mut r: Vec<u64> = (0..k + 8).map(|_| rng.next_u64()).collect();
                if i == 1 {
                    r.fill(u64::MAX);
                }
                let mut expected = r.clone();
                let mut carry = 0u64;
                for (j, &vj) in v.iter().enumerate() {
                    let c = portable::addmul_1(&mut expected[j..j + k], a, vj);
                    carry += portable::add_1(&mut expected[j + k..], c) as u64;
                }
                // SAFETY: the CPU has BMI2 and ADX (checked above).
                let got = unsafe { addmul_8rows(&mut r, a, v) };
                assert_eq!((r, got), (expected, carry), "addmul_8rows, k = {k}, a = {a:x?}");

                if k <= SQR_8ROWS_MAX_DIGITS {
                    let mut expected = alloc::vec![0; 2 * k];
                    portable::mul_basecase(&mut expected, a, a);
                    let mut r = alloc::vec![u64::MAX; 2 * k];
                    // SAFETY: the CPU has BMI2 and ADX (checked above).
                    unsafe { sqr_8rows(&mut r, a) };
                    assert_eq!(r, expected, "sqr_8rows, k = {k}, a = {a:x?}");
                }
                if k == 8 {
                    let a8: &[u64; 8] = a[..].try_into().unwrap();
                    let mut expected = alloc::vec![0; 16];
                    portable::mul_basecase(&mut expected, a, a);
                    let mut r = [u64::MAX; 16];
                    // SAFETY: the CPU has BMI2 and ADX (checked above).
                    unsafe { super::super::mont_mulx::sqr_8_regs(&mut r, a8) };
                    assert_eq!(r[..], expected[..], "sqr_8_regs, a = {a:x?}");
                }
            }
        }
    }

    #[test]
    fn eight_rows_per_pass_agree_with_one_row_per_pass() {
        if !super::super::has_bmi2_adx() {
            eprintln!("skipped: this CPU has no BMI2/ADX (redc_8rows not run)");
            return;
        }
        let mut rng = SplitMix64::new(0x8_0ef5);
        for k in [8usize, 16, 24, 32, 40, 48, 64, 96, 128] {
            let mut moduli: Vec<Vec<u64>> = alloc::vec![
                alloc::vec![u64::MAX; k],
                {
                    let mut m = alloc::vec![0; k];
                    m[0] = 1;
                    m[k - 1] = 1;
                    m
                },
                {
                    let mut m = alloc::vec![0; k];
                    m[0] = 1;
                    m[k - 1] = 1 << 63;
                    m
                },
            ];
            for _ in 0..6 {
                let mut m: Vec<u64> = (0..k).map(|_| rng.next_u64()).collect();
                m[0] |= 1;
                moduli.push(m);
            }
            for m in &moduli {
                let inv = m0inv(m[0]);
                let mut inputs: Vec<Vec<u64>> = alloc::vec![
                    alloc::vec![0; 2 * k],
                    alloc::vec![u64::MAX; 2 * k],
                    (0..2 * k).map(|i| if i % 2 == 0 { u64::MAX } else { 0 }).collect(),
                ];
                for _ in 0..8 {
                    inputs.push((0..2 * k).map(|_| rng.next_u64()).collect());
                }
                for p in &inputs {
                    let expected = by_rows(p, m, inv);
                    let mut q = p.clone();
                    // SAFETY: the CPU has BMI2 and ADX (checked above).
                    let top = unsafe { redc_8rows(&mut q, m, inv) };
                    assert_eq!((q[k..].to_vec(), top), expected, "k = {k}, m = {m:x?}, p = {p:x?}");
                }
            }
        }
    }
}
