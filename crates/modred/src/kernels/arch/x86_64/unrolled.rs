//! Rows written out for moduli of 10–47 digits (577–3008 bits) on BMI2 (MULX) and ADX
//! (ADCX/ADOX): Montgomery's reduction ([`redc_rows_unrolled`]), the product
//! ([`mul_unrolled`]) and the square ([`sqr_unrolled`]) at the widths of
//! `super::mont_mulx` between its nine-digit register forms and its eight-row passes (`8n`
//! digits).
//!
//! Each row adds a digit times a number, `p[j] += rdx·x[j]` plus the carry, one MULX, ADCX
//! (the product's high half before) and ADOX (`p_j`) per digit product, as the looped rows
//! of [`super::mont_mulx::redc_rows`] and `super::rows::addmul_1_adx` do; here a row's
//! digit products are written out for its length, with no digit loop, counter or pointer
//! steps inside it (the looped reduction runs its rows four digits per iteration and the
//! rest one at a time, the looped square calls a row kernel per row). The product is
//! `k²` products and a separate reduction where the looped code fused the two in one pass
//! per digit (`mont_mul_loop`). On an AMD EPYC (Zen 4, AVX-512 hidden), against the looped
//! code: 640-bit Montgomery square 119 → 104 ns, product 140 → 115 ns, exponentiation 89 →
//! 76 µs; 960 bits 228 → 185 ns, 279 → 214 ns, 258 → 205 µs; 1280 bits 342 → 296 ns, 429 →
//! 356 ns, 519 → 447 µs; 1600 bits (25 digits) 504 → 436 ns, 658 → 525 ns, 969 → 811 µs;
//! 1984 bits (31) 758 → 641 ns, 1030 → 791 ns, 1818 → 1492 µs; 2240 bits (35) 932 → 824
//! ns, 1327 → 1000 ns, 2517 → 2170 µs; 2496 bits (39) 1153 → 1005 ns, 1614 → 1243 ns, 3516
//! → 2932 µs; 2752 bits (43) 1376 → 1224 ns square, 4584 → 3976 µs powm; 3008 bits (47)
//! 1614 → 1484 ns, 5914 → 5190 µs. Above 47 digits the rows stay looped but at the
//! multiples of eight: the square's shared block grows with the square of the width.

use core::arch::asm;

/// The most digits the rows are written out for: the code grows with it (a row of the
/// reduction or the product is `k` steps, about 20 bytes each, for every width; the
/// square's one block of rows `(k−1)k/2` steps, shared by the widths).
pub(crate) const MAX_DIGITS: usize = 47;

/// Whether [`redc_rows_unrolled`], [`mul_unrolled`] and [`sqr_unrolled`] are written for
/// `k` digits: 10 to [`MAX_DIGITS`] but the multiples of eight (eight rows per pass there,
/// `super::rows8`).
#[inline(always)]
pub(crate) fn rows_unrolled(k: usize) -> bool {
    (10..=MAX_DIGITS).contains(&k) && k % 8 != 0
}

/// One digit product of a row at byte offset `$off`: `[r8 + off] += rdx·[r9 + off]` plus the
/// carry, the product's high half into `$hi`, the high half of the product before (in
/// `$prev`) added on the ADCX chain and the digit of `p` on the ADOX chain. Consecutive
/// steps alternate rax and r12.
macro_rules! step {
    ($off:literal, $hi:literal, $prev:literal) => {
        concat!(
            "mulx ",
            $hi,
            ", r13, [r9 + ",
            $off,
            "]\n",
            "adcx r13, ",
            $prev,
            "\n",
            "adox r13, [r8 + ",
            $off,
            "]\n",
            "mov [r8 + ",
            $off,
            "], r13\n",
        )
    };
}

/// The steps at byte offsets `8, 16, …, 8L` after a first product whose high half is in
/// rax: the last high half is in r12 for odd `L`, in rax for even `L`.
#[rustfmt::skip]
macro_rules! steps_from_8 {
    (1) => { step!("8", "r12", "rax") };
    (2) => { concat!(steps_from_8!(1), step!("16", "rax", "r12")) };
    (3) => { concat!(steps_from_8!(2), step!("24", "r12", "rax")) };
    (4) => { concat!(steps_from_8!(3), step!("32", "rax", "r12")) };
    (5) => { concat!(steps_from_8!(4), step!("40", "r12", "rax")) };
    (6) => { concat!(steps_from_8!(5), step!("48", "rax", "r12")) };
    (7) => { concat!(steps_from_8!(6), step!("56", "r12", "rax")) };
    (8) => { concat!(steps_from_8!(7), step!("64", "rax", "r12")) };
    (9) => { concat!(steps_from_8!(8), step!("72", "r12", "rax")) };
    (10) => { concat!(steps_from_8!(9), step!("80", "rax", "r12")) };
    (11) => { concat!(steps_from_8!(10), step!("88", "r12", "rax")) };
    (12) => { concat!(steps_from_8!(11), step!("96", "rax", "r12")) };
    (13) => { concat!(steps_from_8!(12), step!("104", "r12", "rax")) };
    (14) => { concat!(steps_from_8!(13), step!("112", "rax", "r12")) };
    (15) => { concat!(steps_from_8!(14), step!("120", "r12", "rax")) };
    (16) => { concat!(steps_from_8!(15), step!("128", "rax", "r12")) };
    (17) => { concat!(steps_from_8!(16), step!("136", "r12", "rax")) };
    (18) => { concat!(steps_from_8!(17), step!("144", "rax", "r12")) };
    (19) => { concat!(steps_from_8!(18), step!("152", "r12", "rax")) };
    (20) => { concat!(steps_from_8!(19), step!("160", "rax", "r12")) };
    (21) => { concat!(steps_from_8!(20), step!("168", "r12", "rax")) };
    (22) => { concat!(steps_from_8!(21), step!("176", "rax", "r12")) };
    (23) => { concat!(steps_from_8!(22), step!("184", "r12", "rax")) };
    (24) => { concat!(steps_from_8!(23), step!("192", "rax", "r12")) };
    (25) => { concat!(steps_from_8!(24), step!("200", "r12", "rax")) };
    (26) => { concat!(steps_from_8!(25), step!("208", "rax", "r12")) };
    (27) => { concat!(steps_from_8!(26), step!("216", "r12", "rax")) };
    (28) => { concat!(steps_from_8!(27), step!("224", "rax", "r12")) };
    (29) => { concat!(steps_from_8!(28), step!("232", "r12", "rax")) };
    (30) => { concat!(steps_from_8!(29), step!("240", "rax", "r12")) };
    (31) => { concat!(steps_from_8!(30), step!("248", "r12", "rax")) };
    (32) => { concat!(steps_from_8!(31), step!("256", "rax", "r12")) };
    (33) => { concat!(steps_from_8!(32), step!("264", "r12", "rax")) };
    (34) => { concat!(steps_from_8!(33), step!("272", "rax", "r12")) };
    (35) => { concat!(steps_from_8!(34), step!("280", "r12", "rax")) };
    (36) => { concat!(steps_from_8!(35), step!("288", "rax", "r12")) };
    (37) => { concat!(steps_from_8!(36), step!("296", "r12", "rax")) };
    (38) => { concat!(steps_from_8!(37), step!("304", "rax", "r12")) };
    (39) => { concat!(steps_from_8!(38), step!("312", "r12", "rax")) };
    (40) => { concat!(steps_from_8!(39), step!("320", "rax", "r12")) };
    (41) => { concat!(steps_from_8!(40), step!("328", "r12", "rax")) };
    (42) => { concat!(steps_from_8!(41), step!("336", "rax", "r12")) };
    (43) => { concat!(steps_from_8!(42), step!("344", "r12", "rax")) };
    (44) => { concat!(steps_from_8!(43), step!("352", "rax", "r12")) };
    (45) => { concat!(steps_from_8!(44), step!("360", "r12", "rax")) };
    (46) => { concat!(steps_from_8!(45), step!("368", "rax", "r12")) };
}

/// A row's carry digit, the last high half `$hi` plus both chains' carries (below `2^64`: a
/// row adds less than `2^64` times the span of its digits), stored at `[r8 + $at]`.
macro_rules! row_carry {
    ($hi:literal, $at:literal) => {
        concat!(
            "mov r13d, 0\n",
            "adcx ",
            $hi,
            ", r13\n",
            "adox ",
            $hi,
            ", r13\n",
            "mov [r8 + ",
            $at,
            "], ",
            $hi,
            "\n",
        )
    };
}

/// The block of rows for each width of [`rows_unrolled`] (the last arm takes 47): `$rows!`
/// gets its arguments, the steps after a row's first product (`steps_from_8!(k − 1)`),
/// the register that ends with the row's last high half, and the byte offset `8k`.
#[rustfmt::skip]
macro_rules! by_width {
    ($k:expr; $rows:ident!($($args:tt)*)) => {
        match $k {
            10 => $rows!($($args)*; steps_from_8!(9), "r12", "80"),
            11 => $rows!($($args)*; steps_from_8!(10), "rax", "88"),
            12 => $rows!($($args)*; steps_from_8!(11), "r12", "96"),
            13 => $rows!($($args)*; steps_from_8!(12), "rax", "104"),
            14 => $rows!($($args)*; steps_from_8!(13), "r12", "112"),
            15 => $rows!($($args)*; steps_from_8!(14), "rax", "120"),
            17 => $rows!($($args)*; steps_from_8!(16), "rax", "136"),
            18 => $rows!($($args)*; steps_from_8!(17), "r12", "144"),
            19 => $rows!($($args)*; steps_from_8!(18), "rax", "152"),
            20 => $rows!($($args)*; steps_from_8!(19), "r12", "160"),
            21 => $rows!($($args)*; steps_from_8!(20), "rax", "168"),
            22 => $rows!($($args)*; steps_from_8!(21), "r12", "176"),
            23 => $rows!($($args)*; steps_from_8!(22), "rax", "184"),
            25 => $rows!($($args)*; steps_from_8!(24), "rax", "200"),
            26 => $rows!($($args)*; steps_from_8!(25), "r12", "208"),
            27 => $rows!($($args)*; steps_from_8!(26), "rax", "216"),
            28 => $rows!($($args)*; steps_from_8!(27), "r12", "224"),
            29 => $rows!($($args)*; steps_from_8!(28), "rax", "232"),
            30 => $rows!($($args)*; steps_from_8!(29), "r12", "240"),
            31 => $rows!($($args)*; steps_from_8!(30), "rax", "248"),
            33 => $rows!($($args)*; steps_from_8!(32), "rax", "264"),
            34 => $rows!($($args)*; steps_from_8!(33), "r12", "272"),
            35 => $rows!($($args)*; steps_from_8!(34), "rax", "280"),
            36 => $rows!($($args)*; steps_from_8!(35), "r12", "288"),
            37 => $rows!($($args)*; steps_from_8!(36), "rax", "296"),
            38 => $rows!($($args)*; steps_from_8!(37), "r12", "304"),
            39 => $rows!($($args)*; steps_from_8!(38), "rax", "312"),
            41 => $rows!($($args)*; steps_from_8!(40), "rax", "328"),
            42 => $rows!($($args)*; steps_from_8!(41), "r12", "336"),
            43 => $rows!($($args)*; steps_from_8!(42), "rax", "344"),
            44 => $rows!($($args)*; steps_from_8!(43), "r12", "352"),
            45 => $rows!($($args)*; steps_from_8!(44), "rax", "360"),
            46 => $rows!($($args)*; steps_from_8!(45), "r12", "368"),
            _ => $rows!($($args)*; steps_from_8!(46), "rax", "376"),
        }
    };
}

/// Montgomery's reduction rows for one width: `u = p_i·m'`, the first product (its low
/// digit cancels `p_i` and is not stored), the rest of the row, and the row's carry digit
/// parked in `p_i`; r8 → `p_i`, r9 → `m`, rsi the rows left.
macro_rules! redc_rows_loop {
    ($p:expr, $m:expr, $m0inv:expr, $k:expr; $rest:expr, $hi:literal, $end:literal) => {
        asm!(
            "2:",
            "mov rdx, [r8]",
            "imul rdx, rdi",
            "xor eax, eax",
            "mulx rax, r13, [r9]",
            "adox r13, [r8]",
            $rest,
            row_carry!($hi, "0"),
            "lea r8, [r8 + 8]",
            "dec rsi",
            "jnz 2b",
            inout("r8") $p => _,
            in("r9") $m,
            in("rdi") $m0inv,
            inout("rsi") $k => _,
            out("rax") _,
            out("rdx") _,
            out("r12") _,
            out("r13") _,
            options(nostack),
        )
    };
}

/// [`super::mont_mulx::redc_rows`] for the widths of [`rows_unrolled`], each row written
/// out: for `i = 0 … k−1`, `u = p_i·m' mod 2^64` and `p[i..i+k] += u·m`, the row's carry
/// digit parked in `p_i` (which the row made zero); the caller adds the parked carries at
/// position `k` (paper 000, Algorithm 3). Same contract and result as the looped rows.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If `p.len() != 2·m.len()` or [`rows_unrolled`] is false for `m.len()`.
#[inline]
pub(crate) unsafe fn redc_rows_unrolled(p: &mut [u64], m: &[u64], m0inv: u64) {
    let k = m.len();
    assert!(rows_unrolled(k) && p.len() == 2 * k, "redc_rows_unrolled: lengths");
    let (pp, mp) = (p.as_mut_ptr(), m.as_ptr());
    // SAFETY: the caller guarantees BMI2 and ADX. Row i reads m[0..k] and reads and
    // writes p[i..i+k], i < k, within p[0..2k] by the assertion above; `p` is exclusive.
    // Registers: r8 → p_i, r9 → m, rdx = u, rax/r12 the high halves, r13 the low half,
    // rsi the rows left; every register written is declared; the stack is untouched.
    unsafe { by_width!(k; redc_rows_loop!(pp, mp, m0inv, k)) }
}

/// The product's rows for one width: `rdx = b_j`, `r[j..j+k] += b_j·a`, the row's carry
/// digit stored at `r_(j+k)`; r8 → `r_j`, r9 → `a`, rcx → `b_j`, rsi the rows left.
macro_rules! mul_rows_loop {
    ($r:expr, $a:expr, $b:expr, $k:expr; $rest:expr, $hi:literal, $end:literal) => {
        asm!(
            "2:",
            "mov rdx, [rcx]",
            "xor eax, eax",
            "mulx rax, r13, [r9]",
            "adox r13, [r8]",
            "mov [r8], r13",
            $rest,
            row_carry!($hi, $end),
            "lea r8, [r8 + 8]",
            "lea rcx, [rcx + 8]",
            "dec rsi",
            "jnz 2b",
            inout("r8") $r => _,
            in("r9") $a,
            inout("rcx") $b => _,
            inout("rsi") $k => _,
            out("rax") _,
            out("rdx") _,
            out("r12") _,
            out("r13") _,
            options(nostack),
        )
    };
}

/// The product `r = a·b` of two numbers of `k` digits ([`rows_unrolled`]; `r` of `2k`), the
/// schoolbook rows of `super::rows::mul_basecase_adx` with each row written out; `k²`
/// digit products. Constant time in the values.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If `a` and `b` differ in length, [`rows_unrolled`] is false for it, or `r.len() !=
/// 2·a.len()`.
#[inline]
pub(crate) unsafe fn mul_unrolled(r: &mut [u64], a: &[u64], b: &[u64]) {
    let k = a.len();
    assert!(rows_unrolled(k) && b.len() == k && r.len() == 2 * k, "mul_unrolled: operand lengths");
    r[..k].fill(0);
    let (rp, ap, bp) = (r.as_mut_ptr(), a.as_ptr(), b.as_ptr());
    // SAFETY: the caller guarantees BMI2 and ADX. Row j reads a[0..k] and b_j and writes
    // r[j..=j+k], j < k, within r[0..2k] by the assertion above; r[j+k] is stored before
    // any row reads it; `r` is exclusive. Registers: r8 → r_j, r9 → a, rcx → b_j, rdx =
    // b_j, rax/r12 the high halves, r13 the low half, rsi the rows left; every register
    // written is declared; the stack is untouched.
    unsafe { by_width!(k; mul_rows_loop!(rp, ap, bp, k)) }
}

/// Row `i` of the square's triangle, of length `L = k − 1 − i`: r9 → `a_i`, r8 → `r_(2i)`,
/// `rdx = a_i`; `r[2i+1..2i+1+L] += a_i·a[i+1..k]` and the carry digit stored (not added)
/// at `r_(2i+1+L) = r_(i+k)`, which no earlier row wrote.
#[rustfmt::skip]
macro_rules! row_of_triangle {
    (1) => { concat!("xor eax, eax\n", steps_from_8!(1), row_carry!("r12", "16")) };
    (2) => { concat!("xor eax, eax\n", steps_from_8!(2), row_carry!("rax", "24")) };
    (3) => { concat!("xor eax, eax\n", steps_from_8!(3), row_carry!("r12", "32")) };
    (4) => { concat!("xor eax, eax\n", steps_from_8!(4), row_carry!("rax", "40")) };
    (5) => { concat!("xor eax, eax\n", steps_from_8!(5), row_carry!("r12", "48")) };
    (6) => { concat!("xor eax, eax\n", steps_from_8!(6), row_carry!("rax", "56")) };
    (7) => { concat!("xor eax, eax\n", steps_from_8!(7), row_carry!("r12", "64")) };
    (8) => { concat!("xor eax, eax\n", steps_from_8!(8), row_carry!("rax", "72")) };
    (9) => { concat!("xor eax, eax\n", steps_from_8!(9), row_carry!("r12", "80")) };
    (10) => { concat!("xor eax, eax\n", steps_from_8!(10), row_carry!("rax", "88")) };
    (11) => { concat!("xor eax, eax\n", steps_from_8!(11), row_carry!("r12", "96")) };
    (12) => { concat!("xor eax, eax\n", steps_from_8!(12), row_carry!("rax", "104")) };
    (13) => { concat!("xor eax, eax\n", steps_from_8!(13), row_carry!("r12", "112")) };
    (14) => { concat!("xor eax, eax\n", steps_from_8!(14), row_carry!("rax", "120")) };
    (15) => { concat!("xor eax, eax\n", steps_from_8!(15), row_carry!("r12", "128")) };
    (16) => { concat!("xor eax, eax\n", steps_from_8!(16), row_carry!("rax", "136")) };
    (17) => { concat!("xor eax, eax\n", steps_from_8!(17), row_carry!("r12", "144")) };
    (18) => { concat!("xor eax, eax\n", steps_from_8!(18), row_carry!("rax", "152")) };
    (19) => { concat!("xor eax, eax\n", steps_from_8!(19), row_carry!("r12", "160")) };
    (20) => { concat!("xor eax, eax\n", steps_from_8!(20), row_carry!("rax", "168")) };
    (21) => { concat!("xor eax, eax\n", steps_from_8!(21), row_carry!("r12", "176")) };
    (22) => { concat!("xor eax, eax\n", steps_from_8!(22), row_carry!("rax", "184")) };
    (23) => { concat!("xor eax, eax\n", steps_from_8!(23), row_carry!("r12", "192")) };
    (24) => { concat!("xor eax, eax\n", steps_from_8!(24), row_carry!("rax", "200")) };
    (25) => { concat!("xor eax, eax\n", steps_from_8!(25), row_carry!("r12", "208")) };
    (26) => { concat!("xor eax, eax\n", steps_from_8!(26), row_carry!("rax", "216")) };
    (27) => { concat!("xor eax, eax\n", steps_from_8!(27), row_carry!("r12", "224")) };
    (28) => { concat!("xor eax, eax\n", steps_from_8!(28), row_carry!("rax", "232")) };
    (29) => { concat!("xor eax, eax\n", steps_from_8!(29), row_carry!("r12", "240")) };
    (30) => { concat!("xor eax, eax\n", steps_from_8!(30), row_carry!("rax", "248")) };
    (31) => { concat!("xor eax, eax\n", steps_from_8!(31), row_carry!("r12", "256")) };
    (32) => { concat!("xor eax, eax\n", steps_from_8!(32), row_carry!("rax", "264")) };
    (33) => { concat!("xor eax, eax\n", steps_from_8!(33), row_carry!("r12", "272")) };
    (34) => { concat!("xor eax, eax\n", steps_from_8!(34), row_carry!("rax", "280")) };
    (35) => { concat!("xor eax, eax\n", steps_from_8!(35), row_carry!("r12", "288")) };
    (36) => { concat!("xor eax, eax\n", steps_from_8!(36), row_carry!("rax", "296")) };
    (37) => { concat!("xor eax, eax\n", steps_from_8!(37), row_carry!("r12", "304")) };
    (38) => { concat!("xor eax, eax\n", steps_from_8!(38), row_carry!("rax", "312")) };
    (39) => { concat!("xor eax, eax\n", steps_from_8!(39), row_carry!("r12", "320")) };
    (40) => { concat!("xor eax, eax\n", steps_from_8!(40), row_carry!("rax", "328")) };
    (41) => { concat!("xor eax, eax\n", steps_from_8!(41), row_carry!("r12", "336")) };
    (42) => { concat!("xor eax, eax\n", steps_from_8!(42), row_carry!("rax", "344")) };
    (43) => { concat!("xor eax, eax\n", steps_from_8!(43), row_carry!("r12", "352")) };
    (44) => { concat!("xor eax, eax\n", steps_from_8!(44), row_carry!("rax", "360")) };
    (45) => { concat!("xor eax, eax\n", steps_from_8!(45), row_carry!("r12", "368")) };
    (46) => { concat!("xor eax, eax\n", steps_from_8!(46), row_carry!("rax", "376")) };
}

/// From one row of the triangle to the next: r8 two digits on, r9 one, `rdx = a_i`.
macro_rules! next_row {
    () => {
        "lea r8, [r8 + 16]\nlea r9, [r9 + 8]\nmov rdx, [r9]\n"
    };
}

/// The triangle's rows from length `L` down to 1, [`next_row`] between them, the row of
/// length `l` at the label `3ll` (two digits): a square of `k` digits enters at row `k − 1`.
#[rustfmt::skip]
macro_rules! triangle {
    (1) => { concat!("301:\n", row_of_triangle!(1)) };
    (2) => { concat!("302:\n", row_of_triangle!(2), next_row!(), triangle!(1)) };
    (3) => { concat!("303:\n", row_of_triangle!(3), next_row!(), triangle!(2)) };
    (4) => { concat!("304:\n", row_of_triangle!(4), next_row!(), triangle!(3)) };
    (5) => { concat!("305:\n", row_of_triangle!(5), next_row!(), triangle!(4)) };
    (6) => { concat!("306:\n", row_of_triangle!(6), next_row!(), triangle!(5)) };
    (7) => { concat!("307:\n", row_of_triangle!(7), next_row!(), triangle!(6)) };
    (8) => { concat!("308:\n", row_of_triangle!(8), next_row!(), triangle!(7)) };
    (9) => { concat!("309:\n", row_of_triangle!(9), next_row!(), triangle!(8)) };
    (10) => { concat!("310:\n", row_of_triangle!(10), next_row!(), triangle!(9)) };
    (11) => { concat!("311:\n", row_of_triangle!(11), next_row!(), triangle!(10)) };
    (12) => { concat!("312:\n", row_of_triangle!(12), next_row!(), triangle!(11)) };
    (13) => { concat!("313:\n", row_of_triangle!(13), next_row!(), triangle!(12)) };
    (14) => { concat!("314:\n", row_of_triangle!(14), next_row!(), triangle!(13)) };
    (15) => { concat!("315:\n", row_of_triangle!(15), next_row!(), triangle!(14)) };
    (16) => { concat!("316:\n", row_of_triangle!(16), next_row!(), triangle!(15)) };
    (17) => { concat!("317:\n", row_of_triangle!(17), next_row!(), triangle!(16)) };
    (18) => { concat!("318:\n", row_of_triangle!(18), next_row!(), triangle!(17)) };
    (19) => { concat!("319:\n", row_of_triangle!(19), next_row!(), triangle!(18)) };
    (20) => { concat!("320:\n", row_of_triangle!(20), next_row!(), triangle!(19)) };
    (21) => { concat!("321:\n", row_of_triangle!(21), next_row!(), triangle!(20)) };
    (22) => { concat!("322:\n", row_of_triangle!(22), next_row!(), triangle!(21)) };
    (23) => { concat!("323:\n", row_of_triangle!(23), next_row!(), triangle!(22)) };
    (24) => { concat!("324:\n", row_of_triangle!(24), next_row!(), triangle!(23)) };
    (25) => { concat!("325:\n", row_of_triangle!(25), next_row!(), triangle!(24)) };
    (26) => { concat!("326:\n", row_of_triangle!(26), next_row!(), triangle!(25)) };
    (27) => { concat!("327:\n", row_of_triangle!(27), next_row!(), triangle!(26)) };
    (28) => { concat!("328:\n", row_of_triangle!(28), next_row!(), triangle!(27)) };
    (29) => { concat!("329:\n", row_of_triangle!(29), next_row!(), triangle!(28)) };
    (30) => { concat!("330:\n", row_of_triangle!(30), next_row!(), triangle!(29)) };
    (31) => { concat!("331:\n", row_of_triangle!(31), next_row!(), triangle!(30)) };
    (32) => { concat!("332:\n", row_of_triangle!(32), next_row!(), triangle!(31)) };
    (33) => { concat!("333:\n", row_of_triangle!(33), next_row!(), triangle!(32)) };
    (34) => { concat!("334:\n", row_of_triangle!(34), next_row!(), triangle!(33)) };
    (35) => { concat!("335:\n", row_of_triangle!(35), next_row!(), triangle!(34)) };
    (36) => { concat!("336:\n", row_of_triangle!(36), next_row!(), triangle!(35)) };
    (37) => { concat!("337:\n", row_of_triangle!(37), next_row!(), triangle!(36)) };
    (38) => { concat!("338:\n", row_of_triangle!(38), next_row!(), triangle!(37)) };
    (39) => { concat!("339:\n", row_of_triangle!(39), next_row!(), triangle!(38)) };
    (40) => { concat!("340:\n", row_of_triangle!(40), next_row!(), triangle!(39)) };
    (41) => { concat!("341:\n", row_of_triangle!(41), next_row!(), triangle!(40)) };
    (42) => { concat!("342:\n", row_of_triangle!(42), next_row!(), triangle!(41)) };
    (43) => { concat!("343:\n", row_of_triangle!(43), next_row!(), triangle!(42)) };
    (44) => { concat!("344:\n", row_of_triangle!(44), next_row!(), triangle!(43)) };
    (45) => { concat!("345:\n", row_of_triangle!(45), next_row!(), triangle!(44)) };
    (46) => { concat!("346:\n", row_of_triangle!(46), next_row!(), triangle!(45)) };
}

/// The square `r = a²` of `k` digits ([`rows_unrolled`]; `r` of `2k`): the cross products
/// `a_i·a_j`, `i < j`, once, each row written out, then doubled with the squares `a_i²`
/// added (`super::rows::sqr_add_doubled_squares_adx`); `k(k−1)/2 + k` digit products, the
/// schoolbook square of `super::rows::sqr_basecase_adx` without its row calls and loops.
/// One block of rows of lengths 46 down to 1 serves every width, entered at the row of
/// length `k − 1`. Constant time in the values.
///
/// # Safety
/// The CPU must support BMI2 and ADX ([`super::has_bmi2_adx`]).
///
/// # Panics
/// If `r.len() != 2·a.len()` or [`rows_unrolled`] is false for `a.len()`.
#[inline]
pub(crate) unsafe fn sqr_unrolled(r: &mut [u64], a: &[u64]) {
    let k = a.len();
    assert!(rows_unrolled(k) && r.len() == 2 * k, "sqr_unrolled: operand lengths");
    r.fill(0);
    // SAFETY: the caller guarantees BMI2 and ADX. The block enters at the row of length
    // `k − 1` (the last comparison falls through to 46, the longest, `k` = 47: the
    // assertion above leaves no other width); row i reads a[i..k] and writes
    // r[2i+1..=i+k], i ≤ k − 2, within r[0..2k]; `r` is exclusive. Registers: r8 →
    // r_(2i), r9 → a_i, rdx = a_i, rax/r12 the high halves, r13 the low half, ecx `k − 1`;
    // every register written is declared; the stack is untouched.
    unsafe {
        asm!(
            "mov rdx, [r9]",
            "cmp ecx, 9",
            "je 309f",
            "cmp ecx, 10",
            "je 310f",
            "cmp ecx, 11",
            "je 311f",
            "cmp ecx, 12",
            "je 312f",
            "cmp ecx, 13",
            "je 313f",
            "cmp ecx, 14",
            "je 314f",
            "cmp ecx, 16",
            "je 316f",
            "cmp ecx, 17",
            "je 317f",
            "cmp ecx, 18",
            "je 318f",
            "cmp ecx, 19",
            "je 319f",
            "cmp ecx, 20",
            "je 320f",
            "cmp ecx, 21",
            "je 321f",
            "cmp ecx, 22",
            "je 322f",
            "cmp ecx, 24",
            "je 324f",
            "cmp ecx, 25",
            "je 325f",
            "cmp ecx, 26",
            "je 326f",
            "cmp ecx, 27",
            "je 327f",
            "cmp ecx, 28",
            "je 328f",
            "cmp ecx, 29",
            "je 329f",
            "cmp ecx, 30",
            "je 330f",
            "cmp ecx, 32",
            "je 332f",
            "cmp ecx, 33",
            "je 333f",
            "cmp ecx, 34",
            "je 334f",
            "cmp ecx, 35",
            "je 335f",
            "cmp ecx, 36",
            "je 336f",
            "cmp ecx, 37",
            "je 337f",
            "cmp ecx, 38",
            "je 338f",
            "cmp ecx, 40",
            "je 340f",
            "cmp ecx, 41",
            "je 341f",
            "cmp ecx, 42",
            "je 342f",
            "cmp ecx, 43",
            "je 343f",
            "cmp ecx, 44",
            "je 344f",
            "cmp ecx, 45",
            "je 345f",
            triangle!(46),
            inout("r8") r.as_mut_ptr() => _,
            inout("r9") a.as_ptr() => _,
            in("ecx") (k - 1) as u32,
            out("rax") _,
            out("rdx") _,
            out("r12") _,
            out("r13") _,
            options(nostack),
        );
    }
    // SAFETY: the caller guarantees BMI2 and ADX.
    unsafe { super::rows::sqr_add_doubled_squares_adx(r, a) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::arch::x86_64::mont_mulx::redc_rows;
    use crate::kernels::arch::x86_64::rows8::tests::{m0inv, operands};
    use crate::kernels::portable;
    use alloc::vec;
    use modred_testkit::SplitMix64;
    use std::eprintln;

    /// The unrolled rows leave the same `p` (high half and parked carries) as the looped
    /// ones for every width they are written for, any `2k`-digit input and odd moduli with
    /// all-ones, mostly-zero and random digits.
    #[test]
    fn unrolled_reduction_rows_match_the_looped_rows() {
        if !super::super::has_bmi2_adx() {
            eprintln!("skipped: this CPU lacks BMI2/ADX, the unrolled reduction rows cannot run");
            return;
        }
        let mut rng = SplitMix64::new(0x7572_6f6c);
        for k in (10..=MAX_DIGITS).filter(|&k| rows_unrolled(k)) {
            for mut ml in operands(&mut rng, k) {
                ml[0] |= 1;
                let inv = m0inv(ml[0]);
                for p in operands(&mut rng, 2 * k) {
                    let (mut looped, mut unrolled) = (p.clone(), p.clone());
                    // SAFETY: checked above that the CPU has BMI2 and ADX.
                    unsafe {
                        redc_rows(&mut looped, &ml, inv);
                        redc_rows_unrolled(&mut unrolled, &ml, inv);
                    }
                    assert_eq!(unrolled, looped, "k = {k}, m = {ml:x?}, p = {p:x?}");
                }
            }
        }
    }

    /// The unrolled product equals the portable schoolbook product, whatever `r` held
    /// before.
    #[test]
    fn unrolled_product_matches_the_portable_product() {
        if !super::super::has_bmi2_adx() {
            eprintln!("skipped: this CPU lacks BMI2/ADX, the unrolled product cannot run");
            return;
        }
        let mut rng = SplitMix64::new(0x6d75_6c75);
        for k in (10..=MAX_DIGITS).filter(|&k| rows_unrolled(k)) {
            let all = operands(&mut rng, k);
            for a in &all {
                for b in &all {
                    let mut want = vec![0u64; 2 * k];
                    portable::mul_basecase(&mut want, a, b);
                    let mut r = vec![0x5555_5555_5555_5555u64; 2 * k];
                    // SAFETY: checked above that the CPU has BMI2 and ADX.
                    unsafe { mul_unrolled(&mut r, a, b) };
                    assert_eq!(r, want, "k = {k}, a = {a:x?}, b = {b:x?}");
                }
            }
        }
    }

    /// The unrolled square equals the portable schoolbook product `a·a`, whatever `r`
    /// held before.
    #[test]
    fn unrolled_square_matches_the_portable_product() {
        if !super::super::has_bmi2_adx() {
            eprintln!("skipped: this CPU lacks BMI2/ADX, the unrolled square cannot run");
            return;
        }
        let mut rng = SplitMix64::new(0x7371_7572);
        for k in (10..=MAX_DIGITS).filter(|&k| rows_unrolled(k)) {
            for a in operands(&mut rng, k) {
                let mut want = vec![0u64; 2 * k];
                portable::mul_basecase(&mut want, &a, &a);
                let mut r = vec![0x5555_5555_5555_5555u64; 2 * k];
                // SAFETY: checked above that the CPU has BMI2 and ADX.
                unsafe { sqr_unrolled(&mut r, &a) };
                assert_eq!(r, want, "k = {k}, a = {a:x?}");
            }
        }
    }
}
