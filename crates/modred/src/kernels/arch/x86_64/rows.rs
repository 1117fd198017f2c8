//! The `u64` row kernels on BMI2 (MULX) and ADX (ADCX/ADOX), and the schoolbook products
//! built on them.
//!
//! MULX multiplies by `rdx` without touching the flags, and ADCX/ADOX are additions with
//! carry that read and write only CF and only OF respectively, so one loop can run two
//! independent carry chains, the way GMP's `mpn/x86_64/coreibwl` kernels do:
//!
//! ```text
//! addmul_1, digit i:   (h_i, l_i) = a_i·b            MULX, no flags
//!                      l_i += h_(i−1) + CF           ADCX: the chain of the product a·b
//!                      r_i  = l_i + r_i + OF         ADOX: the chain of the sum r + a·b
//! ```
//!
//! The loops are unrolled by four with a tail of up to three digits; the loop counters
//! move with LEA and are tested with JRCXZ, neither of which touches the flags. Each
//! kernel is one `asm!` block in an `#[inline]` function without `#[target_feature]`, so
//! it inlines into its callers (the assembler takes the instructions regardless of the
//! compile-time target). Calling one on a CPU without BMI2 and ADX is undefined
//! behaviour, hence the `unsafe fn`s; the safe entry points ([`super::addmul_1`] etc.)
//! check [`super::has_bmi2_adx`] first and otherwise run the portable twin.
//!
//! Instruction counts: valgrind (3.19 at least) runs ADCX/ADOX but hides ADX from CPUID,
//! so under `valgrind --tool=callgrind` the detection answers no and the portable kernels
//! run. Build with `RUSTFLAGS="-C target-feature=+bmi2,+adx"` (which removes the check) to
//! count the assembly kernels.

use core::arch::asm;

/// `r[..n] = a·b` for the n digits of `a`; returns the high digit. Only `r[..n]` is
/// written (`r` may be longer).
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If `r` is shorter than `a`.
#[inline]
pub(crate) unsafe fn mul_1_adx(r: &mut [u64], a: &[u64], b: u64) -> u64 {
    let n = a.len();
    assert!(r.len() >= n, "mul_1: r shorter than a");
    let high: u64;
    // SAFETY: the caller guarantees BMI2 (MULX) and ADX (ADCX). The loop reads a[0..n]
    // and writes r[0..n], in bounds by the assertion above; `a` and `r` cannot overlap
    // (shared and exclusive borrows). Registers: rdx = b throughout, rcx counts the
    // blocks of four and then the tail, `ap`/`rp` walk the slices; every register
    // written is declared as an output, the stack is untouched.
    unsafe {
        asm!(
            // h = 0 and CF = 0: the carry into digit 0.
            "xor {h:e}, {h:e}",
            "jrcxz 3f",
            "2:",
            "mulx {h1}, {l}, qword ptr [{ap}]",
            "adcx {l}, {h}",
            "mov qword ptr [{rp}], {l}",
            "mulx {h}, {l}, qword ptr [{ap} + 8]",
            "adcx {l}, {h1}",
            "mov qword ptr [{rp} + 8], {l}",
            "mulx {h1}, {l}, qword ptr [{ap} + 16]",
            "adcx {l}, {h}",
            "mov qword ptr [{rp} + 16], {l}",
            "mulx {h}, {l}, qword ptr [{ap} + 24]",
            "adcx {l}, {h1}",
            "mov qword ptr [{rp} + 24], {l}",
            "lea {ap}, [{ap} + 32]",
            "lea {rp}, [{rp} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 3f",
            "jmp 2b",
            // The last n mod 4 digits, one at a time.
            "3:",
            "mov rcx, {rem}",
            "jrcxz 5f",
            "4:",
            "mulx {h1}, {l}, qword ptr [{ap}]",
            "adcx {l}, {h}",
            "mov qword ptr [{rp}], {l}",
            "mov {h}, {h1}",
            "lea {ap}, [{ap} + 8]",
            "lea {rp}, [{rp} + 8]",
            "lea rcx, [rcx - 1]",
            "jrcxz 5f",
            "jmp 4b",
            "5:",
            // h + CF < b: a·b < b^(n+1).
            "adc {h}, 0",
            ap = inout(reg) a.as_ptr() => _,
            rp = inout(reg) r.as_mut_ptr() => _,
            rem = in(reg) n % 4,
            h = out(reg) high,
            h1 = out(reg) _,
            l = out(reg) _,
            in("rdx") b,
            inout("rcx") n / 4 => _,
            options(nostack),
        );
    }
    high
}

/// `r[..n] += a·b` for the n digits of `a`; returns the carry digit out of position n.
/// Only `r[..n]` is written.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If `r` is shorter than `a`.
#[inline]
pub(crate) unsafe fn addmul_1_adx(r: &mut [u64], a: &[u64], b: u64) -> u64 {
    let n = a.len();
    assert!(r.len() >= n, "addmul_1: r shorter than a");
    let carry: u64;
    // SAFETY: the caller guarantees BMI2 (MULX) and ADX (ADCX, ADOX). The loop reads
    // a[0..n] and reads and writes r[0..n], in bounds by the assertion above; `a` and `r`
    // cannot overlap. Registers as in `mul_1_adx`; every register written is declared.
    unsafe {
        asm!(
            // h = 0, CF = OF = 0.
            "xor {h:e}, {h:e}",
            "jrcxz 3f",
            "2:",
            "mulx {h1}, {l}, qword ptr [{ap}]",
            "adcx {l}, {h}",
            "adox {l}, qword ptr [{rp}]",
            "mov qword ptr [{rp}], {l}",
            "mulx {h}, {l}, qword ptr [{ap} + 8]",
            "adcx {l}, {h1}",
            "adox {l}, qword ptr [{rp} + 8]",
            "mov qword ptr [{rp} + 8], {l}",
            "mulx {h1}, {l}, qword ptr [{ap} + 16]",
            "adcx {l}, {h}",
            "adox {l}, qword ptr [{rp} + 16]",
            "mov qword ptr [{rp} + 16], {l}",
            "mulx {h}, {l}, qword ptr [{ap} + 24]",
            "adcx {l}, {h1}",
            "adox {l}, qword ptr [{rp} + 24]",
            "mov qword ptr [{rp} + 24], {l}",
            "lea {ap}, [{ap} + 32]",
            "lea {rp}, [{rp} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            "mov rcx, {rem}",
            "jrcxz 5f",
            "4:",
            "mulx {h1}, {l}, qword ptr [{ap}]",
            "adcx {l}, {h}",
            "adox {l}, qword ptr [{rp}]",
            "mov qword ptr [{rp}], {l}",
            "mov {h}, {h1}",
            "lea {ap}, [{ap} + 8]",
            "lea {rp}, [{rp} + 8]",
            "lea rcx, [rcx - 1]",
            "jrcxz 5f",
            "jmp 4b",
            "5:",
            // Both chains end in the carry digit: h + CF + OF < b, as r + a·b < b^(n+1).
            "mov {l:e}, 0",
            "adcx {h}, {l}",
            "adox {h}, {l}",
            ap = inout(reg) a.as_ptr() => _,
            rp = inout(reg) r.as_mut_ptr() => _,
            rem = in(reg) n % 4,
            h = out(reg) carry,
            h1 = out(reg) _,
            l = out(reg) _,
            in("rdx") b,
            inout("rcx") n / 4 => _,
            options(nostack),
        );
    }
    carry
}

/// `r[..n] −= a·b` for the n digits of `a`; returns the borrow digit out of position n
/// (`r_new = r − a·b + borrow·b^n`). Only `r[..n]` is written.
///
/// The subtraction runs on OF as an addition of the complement: `r − p = r + !p + 1`
/// over n digits, with OF = 1 to start with and the borrow `1 − OF` at the end, while CF
/// carries the product digits `p_i = l_i + h_(i−1)` as in [`addmul_1_adx`].
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If `r` is shorter than `a`.
#[inline]
pub(crate) unsafe fn submul_1_adx(r: &mut [u64], a: &[u64], b: u64) -> u64 {
    let n = a.len();
    assert!(r.len() >= n, "submul_1: r shorter than a");
    let borrow: u64;
    // SAFETY: as in `addmul_1_adx`: BMI2 and ADX by the caller's guarantee, a[0..n] read
    // and r[0..n] read and written in bounds, no overlap, every written register declared.
    unsafe {
        asm!(
            "xor {h:e}, {h:e}",
            // 0x7fffffff + 1 overflows as a signed 32-bit addition and not as an unsigned
            // one: OF = 1 (the +1 of the complement), CF = 0.
            "mov {l:e}, 0x7fffffff",
            "add {l:e}, 1",
            "jrcxz 3f",
            "2:",
            "mulx {h1}, {l}, qword ptr [{ap}]",
            "adcx {l}, {h}",
            "not {l}",
            "adox {l}, qword ptr [{rp}]",
            "mov qword ptr [{rp}], {l}",
            "mulx {h}, {l}, qword ptr [{ap} + 8]",
            "adcx {l}, {h1}",
            "not {l}",
            "adox {l}, qword ptr [{rp} + 8]",
            "mov qword ptr [{rp} + 8], {l}",
            "mulx {h1}, {l}, qword ptr [{ap} + 16]",
            "adcx {l}, {h}",
            "not {l}",
            "adox {l}, qword ptr [{rp} + 16]",
            "mov qword ptr [{rp} + 16], {l}",
            "mulx {h}, {l}, qword ptr [{ap} + 24]",
            "adcx {l}, {h1}",
            "not {l}",
            "adox {l}, qword ptr [{rp} + 24]",
            "mov qword ptr [{rp} + 24], {l}",
            "lea {ap}, [{ap} + 32]",
            "lea {rp}, [{rp} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            "mov rcx, {rem}",
            "jrcxz 5f",
            "4:",
            "mulx {h1}, {l}, qword ptr [{ap}]",
            "adcx {l}, {h}",
            "not {l}",
            "adox {l}, qword ptr [{rp}]",
            "mov qword ptr [{rp}], {l}",
            "mov {h}, {h1}",
            "lea {ap}, [{ap} + 8]",
            "lea {rp}, [{rp} + 8]",
            "lea rcx, [rcx - 1]",
            "jrcxz 5f",
            "jmp 4b",
            "5:",
            // h = h + CF, the product's top digit; l = OF, then the borrow 1 − OF.
            "mov {l:e}, 0",
            "adcx {h}, {l}",
            "adox {l}, {l}",
            "xor {l:e}, 1",
            "add {h}, {l}",
            ap = inout(reg) a.as_ptr() => _,
            rp = inout(reg) r.as_mut_ptr() => _,
            rem = in(reg) n % 4,
            h = out(reg) borrow,
            h1 = out(reg) _,
            l = out(reg) _,
            in("rdx") b,
            inout("rcx") n / 4 => _,
            options(nostack),
        );
    }
    borrow
}

/// Schoolbook `r = a·b` (`r.len() == a.len() + b.len()`, both non-empty): a row of
/// [`mul_1_adx`] and `b.len() − 1` rows of [`addmul_1_adx`].
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If `b` is empty or `r.len() < a.len() + b.len()`.
pub(crate) unsafe fn mul_basecase_adx(r: &mut [u64], a: &[u64], b: &[u64]) {
    let n = a.len();
    debug_assert!(n > 0 && !b.is_empty() && r.len() == n + b.len());
    // SAFETY: the caller guarantees BMI2 and ADX.
    r[n] = unsafe { mul_1_adx(&mut r[..n], a, b[0]) };
    for (j, &bj) in b.iter().enumerate().skip(1) {
        // SAFETY: the caller guarantees BMI2 and ADX.
        r[n + j] = unsafe { addmul_1_adx(&mut r[j..j + n], a, bj) };
    }
}

/// One row of the products in registers ([`mul_8_regs`], [`mul_9_regs`]): `$load` puts the
/// digit of `b` in rdx; `$top`, the digit above the window, is zeroed (which also clears
/// CF and OF); each listed product `(byte offset in a, low digit, high digit)` is one MULX
/// (r14 high, r12 low), ADCX adding the low half and ADOX the high half one digit up; both
/// chains end in `$top`; then `$s0`, final, is stored to `[rdi + $roff]`.
macro_rules! mul_row {
    ($load:expr, $roff:literal, $s0:literal, $top:literal;
     $(($off:literal, $lo:literal, $hi:literal)),+) => {
        concat!(
            $load,
            "xor ", $top, ", ", $top, "\n",
            $(
                "mulx r14, r12, [rsi + ", $off, "]\n",
                "adcx ", $lo, ", r12\n",
                "adox ", $hi, ", r14\n",
            )+
            "adc ", $top, ", 0\n",
            "mov [rdi + ", $roff, "], ", $s0, "\n",
        )
    };
}

/// One row of [`mul_9_regs`], `mul_row!` for nine digits: the window `$s0..$s8` (the sum so
/// far divided by `2^(64i)`) plus `b_i·a` (`b_i` at `[b + $boff]`, the pointer `b` at
/// `[rsp]`, `a` at rsi) into `$s0..$s9`.
macro_rules! mul9_row {
    ($boff:literal, $roff:literal; $s0:literal, $s1:literal, $s2:literal, $s3:literal,
     $s4:literal, $s5:literal, $s6:literal, $s7:literal, $s8:literal, $s9:literal) => {
        mul_row!(
            concat!("mov rdx, [rsp]\n", "mov rdx, [rdx + ", $boff, "]\n"), $roff, $s0, $s9;
            ("0", $s0, $s1), ("8", $s1, $s2), ("16", $s2, $s3), ("24", $s3, $s4),
            ("32", $s4, $s5), ("40", $s5, $s6), ("48", $s6, $s7), ("56", $s7, $s8),
            ("64", $s8, $s9)
        )
    };
}

/// The nine-digit schoolbook product `r = a·b` (81 digit products) with the running sum in
/// registers: nine rows of `mul9_row!` over a window of ten registers that rotates by one
/// digit a row, each row's lowest digit stored as it becomes final, the top nine at the
/// end. No loop and no branch: for P-521 (nine digits), where the rows of
/// [`addmul_1_adx`] each paid a call and a tail digit.
///
/// Bounds: before row `i` the window is `⌊a·(b mod 2^(64i))/2^(64i)⌋ < 2^576` (nine
/// digits); adding `a·b_i < 2^640` keeps it below `2^640`, ten digits, so no chain carries
/// out of the tenth.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
pub(crate) unsafe fn mul_9_regs(r: &mut [u64; 18], a: &[u64; 9], b: &[u64; 9]) {
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads a and b (nine digits
    // each) and writes r's eighteen; it saves rbx and rbp (which `asm!` cannot name) and
    // the pointer to b on the stack, restores the stack pointer and both registers at the
    // end (no `nostack`), and declares every other register it writes. Window: rax, rbx,
    // rcx, r8–r11, r13, rbp, r15; r12 and r14 the product's halves; rdx the digit of b.
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            "push r15",
            "xor eax, eax",
            "xor ebx, ebx",
            "xor ecx, ecx",
            "xor r8d, r8d",
            "xor r9d, r9d",
            "xor r10d, r10d",
            "xor r11d, r11d",
            "xor r13d, r13d",
            "xor ebp, ebp",
            mul9_row!("0", "0"; "rax", "rbx", "rcx", "r8", "r9", "r10", "r11", "r13", "rbp", "r15"),
            mul9_row!("8", "8"; "rbx", "rcx", "r8", "r9", "r10", "r11", "r13", "rbp", "r15", "rax"),
            mul9_row!("16", "16"; "rcx", "r8", "r9", "r10", "r11", "r13", "rbp", "r15", "rax", "rbx"),
            mul9_row!("24", "24"; "r8", "r9", "r10", "r11", "r13", "rbp", "r15", "rax", "rbx", "rcx"),
            mul9_row!("32", "32"; "r9", "r10", "r11", "r13", "rbp", "r15", "rax", "rbx", "rcx", "r8"),
            mul9_row!("40", "40"; "r10", "r11", "r13", "rbp", "r15", "rax", "rbx", "rcx", "r8", "r9"),
            mul9_row!("48", "48"; "r11", "r13", "rbp", "r15", "rax", "rbx", "rcx", "r8", "r9", "r10"),
            mul9_row!("56", "56"; "r13", "rbp", "r15", "rax", "rbx", "rcx", "r8", "r9", "r10", "r11"),
            mul9_row!("64", "64"; "rbp", "r15", "rax", "rbx", "rcx", "r8", "r9", "r10", "r11", "r13"),
            // The window after nine rows: the top nine digits.
            "mov [rdi + 72], r15",
            "mov [rdi + 80], rax",
            "mov [rdi + 88], rbx",
            "mov [rdi + 96], rcx",
            "mov [rdi + 104], r8",
            "mov [rdi + 112], r9",
            "mov [rdi + 120], r10",
            "mov [rdi + 128], r11",
            "mov [rdi + 136], r13",
            "add rsp, 8",
            "pop rbp",
            "pop rbx",
            inout("rsi") a.as_ptr() => _,
            inout("rdi") r.as_mut_ptr() => _,
            inout("r15") b.as_ptr() => _,
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
        );
    }
}

/// One row of [`mul_8_regs`], `mul_row!` for eight digits: the window `$s0..$s7` plus
/// `b_i·a` (`b_i` at `[r15 + $boff]`, `a` at rsi) into `$s0..$s8`.
macro_rules! mul8_row {
    ($boff:literal, $roff:literal; $s0:literal, $s1:literal, $s2:literal, $s3:literal,
     $s4:literal, $s5:literal, $s6:literal, $s7:literal, $s8:literal) => {
        mul_row!(
            concat!("mov rdx, [r15 + ", $boff, "]\n"), $roff, $s0, $s8;
            ("0", $s0, $s1), ("8", $s1, $s2), ("16", $s2, $s3), ("24", $s3, $s4),
            ("32", $s4, $s5), ("40", $s5, $s6), ("48", $s6, $s7), ("56", $s7, $s8)
        )
    };
}

/// The eight-digit schoolbook product `r = a·b` (64 digit products) with the running sum in
/// registers, as [`mul_9_regs`]: eight rows of `mul8_row!` over a window of nine registers
/// that rotates by one digit a row. No loop and no branch; constant time. For the products
/// of two blocks of eight digits in the eight-row square (`super::rows8::sqr_8rows`).
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
#[inline]
pub(crate) unsafe fn mul_8_regs(r: &mut [u64; 16], a: &[u64; 8], b: &[u64; 8]) {
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads a and b (eight digits
    // each) and writes r's sixteen; it saves rbx and rbp (which `asm!` cannot name) on the
    // stack, restores them and the stack pointer at the end (no `nostack`), and declares
    // every other register it writes. Window: rax, rbx, rcx, r8–r11, r13, rbp; r12 and r14
    // the product's halves; rdx the digit of b; r15 → b.
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            "xor eax, eax",
            "xor ebx, ebx",
            "xor ecx, ecx",
            "xor r8d, r8d",
            "xor r9d, r9d",
            "xor r10d, r10d",
            "xor r11d, r11d",
            "xor r13d, r13d",
            mul8_row!("0", "0"; "rax", "rbx", "rcx", "r8", "r9", "r10", "r11", "r13", "rbp"),
            mul8_row!("8", "8"; "rbx", "rcx", "r8", "r9", "r10", "r11", "r13", "rbp", "rax"),
            mul8_row!("16", "16"; "rcx", "r8", "r9", "r10", "r11", "r13", "rbp", "rax", "rbx"),
            mul8_row!("24", "24"; "r8", "r9", "r10", "r11", "r13", "rbp", "rax", "rbx", "rcx"),
            mul8_row!("32", "32"; "r9", "r10", "r11", "r13", "rbp", "rax", "rbx", "rcx", "r8"),
            mul8_row!("40", "40"; "r10", "r11", "r13", "rbp", "rax", "rbx", "rcx", "r8", "r9"),
            mul8_row!("48", "48"; "r11", "r13", "rbp", "rax", "rbx", "rcx", "r8", "r9", "r10"),
            mul8_row!("56", "56"; "r13", "rbp", "rax", "rbx", "rcx", "r8", "r9", "r10", "r11"),
            // The window after eight rows: the top eight digits.
            "mov [rdi + 64], rbp",
            "mov [rdi + 72], rax",
            "mov [rdi + 80], rbx",
            "mov [rdi + 88], rcx",
            "mov [rdi + 96], r8",
            "mov [rdi + 104], r9",
            "mov [rdi + 112], r10",
            "mov [rdi + 120], r11",
            "pop rbp",
            "pop rbx",
            in("rsi") a.as_ptr(),
            in("rdi") r.as_mut_ptr(),
            in("r15") b.as_ptr(),
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
        );
    }
}

/// Schoolbook `r = a²` (`r.len() == 2·a.len()`, `a` non-empty): the cross products
/// `a_i·a_j`, `i < j`, in rows of [`mul_1_adx`] and [`addmul_1_adx`], then doubled with
/// the squares added by [`sqr_add_doubled_squares_adx`]. n(n+1)/2 digit products.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If `a` is empty or `r.len() < 2·a.len()`.
pub(crate) unsafe fn sqr_basecase_adx(r: &mut [u64], a: &[u64]) {
    let n = a.len();
    debug_assert!(n > 0 && r.len() == 2 * n);
    r[0] = 0;
    r[2 * n - 1] = 0;
    if n > 1 {
        // Row i: a_i·a[i+1..] at position 2i + 1, its carry digit at i + n. Row 0 writes
        // r[1..=n]; each later row adds onto digits written by the one before and
        // writes one new carry digit, up to r[2n − 2].
        // SAFETY: the caller guarantees BMI2 and ADX.
        r[n] = unsafe { mul_1_adx(&mut r[1..n], &a[1..], a[0]) };
        for i in 1..n - 1 {
            // SAFETY: the caller guarantees BMI2 and ADX.
            r[i + n] = unsafe { addmul_1_adx(&mut r[2 * i + 1..i + n], &a[i + 1..], a[i]) };
        }
    }
    // SAFETY: the caller guarantees BMI2 and ADX.
    unsafe { sqr_add_doubled_squares_adx(r, a) };
}

/// One step of [`sqr_add_doubled_squares_adx`]: `a_i` at `[rsi + $a]`, `r_(2i)` and
/// `r_(2i+1)` at `[rdi + $r]` doubled on the ADCX chain, `a_i²` (rax low, r9 high) added on
/// the ADOX chain.
macro_rules! doubled_square {
    ($a:literal, $r:literal) => {
        concat!(
            "mov rdx, [rsi + ",
            $a,
            "]\n",
            "mulx r9, rax, rdx\n",
            "mov r10, [rdi + ",
            $r,
            "]\n",
            "mov r11, [rdi + ",
            $r,
            " + 8]\n",
            "adcx r10, r10\n",
            "adox r10, rax\n",
            "adcx r11, r11\n",
            "adox r11, r9\n",
            "mov [rdi + ",
            $r,
            "], r10\n",
            "mov [rdi + ",
            $r,
            " + 8], r11\n",
        )
    };
}

/// [`crate::kernels::portable::sqr_add_doubled_squares`] on ADX: `r = 2·r + Σ a_i²·2^(128i)` for `r` (2n
/// digits) the sum of the cross products `a_i·a_j·2^(64(i+j))`, `i < j`, in one pass:
/// per digit of `r` the doubling on the ADCX chain (`ADCX x, x` is `2x + CF`, its carry the
/// bit shifted out) and a half of `a_i²` on the ADOX chain. Both chains end without a
/// carry: the result is `a² < 2^(128n)`. Two digits of `a` per iteration, one more for an
/// odd `n`.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If `r.len() != 2·a.len()`.
#[inline]
pub(crate) unsafe fn sqr_add_doubled_squares_adx(r: &mut [u64], a: &[u64]) {
    let n = a.len();
    assert_eq!(r.len(), 2 * n, "sqr_add_doubled_squares_adx: operand lengths");
    // SAFETY: the caller guarantees BMI2 and ADX. Iteration i reads a[i] (and a[i + 1])
    // and reads and writes r[2i..2i + 2] (r[2i..2i + 4]), within the lengths checked
    // above; `r` is exclusive. Registers: rsi → a_i, rdi → r_(2i), rcx the pairs left,
    // r8 = n mod 2, rdx the digit, rax/r9 the square's halves, r10/r11 digits of r.
    unsafe {
        asm!(
            // CF = OF = 0.
            "xor eax, eax",
            "jrcxz 3f",
            "2:",
            doubled_square!("0", "0"),
            doubled_square!("8", "16"),
            "lea rsi, [rsi + 16]",
            "lea rdi, [rdi + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            "mov rcx, r8",
            "jrcxz 4f",
            doubled_square!("0", "0"),
            "4:",
            inout("rsi") a.as_ptr() => _,
            inout("rdi") r.as_mut_ptr() => _,
            inout("rcx") n / 2 => _,
            in("r8") n % 2,
            out("rax") _,
            out("rdx") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            options(nostack),
        );
    }
}
