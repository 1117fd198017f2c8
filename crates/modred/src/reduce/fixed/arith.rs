//! Fixed-size digit arithmetic on `[u64; N]`: the building blocks of the const-generic
//! reducers. Every loop has a compile-time trip count, every array lives on the stack, and
//! the functions are `#[inline(always)]`, so for the small `N` they are used with
//! (1 to 9 digits) LLVM unrolls them completely and keeps the digits in registers; the
//! 128-bit products compile to `mul`/`mulx` with `adc` chains.
//!
//! A double-length number is a [`Wide<N>`], `[[u64; N]; 2]` (low half, high half): stable
//! Rust cannot write `[u64; 2 * N]` for a generic `N`, and the two halves are contiguous in
//! memory, so [`Wide::flat`] views them as one `2N`-digit slice.

// Digit loops over several fixed-size arrays at once (the carry chains) read best indexed.
#![allow(clippy::needless_range_loop)]

/// A `2N`-digit number: `w[0]` the low `N` digits, `w[1]` the high `N`.
pub(crate) type Wide<const N: usize> = [[u64; N]; 2];

/// Digit `k` (`0 ≤ k < 2N`) of a wide number.
#[inline(always)]
pub(crate) fn get<const N: usize>(z: &Wide<N>, k: usize) -> u64 {
    z[k / N][k % N]
}

/// Sets digit `k` of a wide number.
#[inline(always)]
pub(crate) fn set<const N: usize>(z: &mut Wide<N>, k: usize, v: u64) {
    z[k / N][k % N] = v;
}

/// The `2N` digits of a wide number as one slice.
#[inline(always)]
pub(crate) fn flat<const N: usize>(z: &Wide<N>) -> &[u64] {
    z.as_flattened()
}

/// Defines `fn name<consts>(args) -> R { body }` that runs `body` compiled with BMI2 and
/// ADX enabled when the CPU has them (the check of `kernels::arch::x86_64`, made once and
/// cached), else compiled as it is. The body must be inlined code over the
/// `#[inline(always)]` functions of this module for the second compilation to matter (a
/// closure would not do: it is compiled once, without the features). The `portable`
/// feature (and Miri) turns the second compilation off, so CI runs the plain code too.
macro_rules! with_bmi2 {
    ($(#[$doc:meta])* $vis:vis fn $name:ident<$(const $g:ident: $gt:ty),*>($($a:ident: $t:ty),* $(,)?) -> $r:ty $body:block) => {
        $(#[$doc])*
        #[inline(always)]
        $vis fn $name<$(const $g: $gt),*>($($a: $t),*) -> $r {
            #[cfg(all(target_arch = "x86_64", not(feature = "portable"), not(miri)))]
            {
                #[target_feature(enable = "bmi2,adx")]
                unsafe fn fast<$(const $g: $gt),*>($($a: $t),*) -> $r $body
                if crate::kernels::arch::x86_64::has_bmi2_adx() {
                    // SAFETY: the CPU has BMI2 and ADX (checked just above), the only
                    // requirement of a function compiled with those target features.
                    return unsafe { fast::<$($g),*>($($a),*) };
                }
            }
            $body
        }
    };
}
pub(crate) use with_bmi2;

/// `a + b·c + d` as (low, high); never overflows 128 bits.
#[inline(always)]
pub(crate) fn mac(a: u64, b: u64, c: u64, d: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 * c as u128 + d as u128;
    (t as u64, (t >> 64) as u64)
}

/// `a + b + carry` (carry 0 or 1) as (sum, carry out 0 or 1).
#[inline(always)]
pub(crate) fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `a − b − borrow` (borrow 0 or 1) as (difference, borrow out 0 or 1).
#[inline(always)]
pub(crate) fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = (a as u128).wrapping_sub(b as u128).wrapping_sub(borrow as u128);
    (t as u64, (t >> 127) as u64)
}

/// `a + b` as (sum, carry out 0 or 1).
#[inline(always)]
pub(crate) fn add_n<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut s = [0u64; N];
    let mut c = 0;
    for i in 0..N {
        (s[i], c) = adc(a[i], b[i], c);
    }
    (s, c)
}

/// `a − b` as (difference mod 2^(64N), borrow out 0 or 1).
#[inline(always)]
pub(crate) fn sub_n<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut d = [0u64; N];
    let mut c = 0;
    for i in 0..N {
        (d[i], c) = sbb(a[i], b[i], c);
    }
    (d, c)
}

/// `a` where `mask` is all ones, `b` where it is zero, digit by digit; no branch.
#[inline(always)]
pub(crate) fn select<const N: usize>(mask: u64, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
    let mut r = [0u64; N];
    for i in 0..N {
        r[i] = (a[i] & mask) | (b[i] & !mask);
    }
    r
}

/// `v − m` if `top·2^(64N) + v ≥ m`, else `v`, for a value below `2m` (`top` 0 or 1).
/// Branch-free in source; `CT` passes the mask through [`core::hint::black_box`] so that
/// the compiler cannot turn the select into a conditional branch or move (the constant-time
/// callers need that; see [`crate::ct`]).
#[inline(always)]
pub(crate) fn sub_if_ge<const N: usize, const CT: bool>(
    v: &[u64; N],
    top: u64,
    m: &[u64; N],
) -> [u64; N] {
    let (d, borrow) = sub_n(v, m);
    // Keep v iff it is below m: no top digit and the subtraction borrowed.
    let keep_v = (top ^ 1) & borrow;
    let mut mask = 0u64.wrapping_sub(keep_v);
    if CT {
        mask = core::hint::black_box(mask);
    }
    select(mask, v, &d)
}

/// `a + b mod m` for `a, b < m`. Branch-free (`CT` as in [`sub_if_ge`]).
#[inline(always)]
pub(crate) fn add_mod<const N: usize, const CT: bool>(
    a: &[u64; N],
    b: &[u64; N],
    m: &[u64; N],
) -> [u64; N] {
    let (s, c) = add_n(a, b);
    sub_if_ge::<N, CT>(&s, c, m)
}

/// `a − b mod m` for `a, b < m`: `m` masked in when the subtraction borrowed. Branch-free.
#[inline(always)]
pub(crate) fn sub_mod<const N: usize, const CT: bool>(
    a: &[u64; N],
    b: &[u64; N],
    m: &[u64; N],
) -> [u64; N] {
    let (d, borrow) = sub_n(a, b);
    let mut mask = 0u64.wrapping_sub(borrow);
    if CT {
        mask = core::hint::black_box(mask);
    }
    let mut mm = [0u64; N];
    for i in 0..N {
        mm[i] = m[i] & mask;
    }
    add_n(&d, &mm).0
}

/// The full product `a·b` (schoolbook, operand scanning): `N²` digit products.
#[inline(always)]
pub(crate) fn mul_wide<const N: usize>(a: &[u64; N], b: &[u64; N]) -> Wide<N> {
    let mut z: Wide<N> = [[0u64; N]; 2];
    for i in 0..N {
        let mut c = 0u64;
        for j in 0..N {
            let (lo, hi) = mac(get(&z, i + j), a[i], b[j], c);
            set(&mut z, i + j, lo);
            c = hi;
        }
        set(&mut z, i + N, c);
    }
    z
}

/// The square `a²`: the `N(N−1)/2` products below the diagonal, doubled by a shift, plus
/// the `N` squares on the diagonal — `N(N+1)/2` digit products instead of `N²`.
#[inline(always)]
pub(crate) fn sqr_wide<const N: usize>(a: &[u64; N]) -> Wide<N> {
    let mut z: Wide<N> = [[0u64; N]; 2];
    for i in 0..N {
        let mut c = 0u64;
        for j in i + 1..N {
            let (lo, hi) = mac(get(&z, i + j), a[i], a[j], c);
            set(&mut z, i + j, lo);
            c = hi;
        }
        if i + N < 2 * N {
            set(&mut z, i + N, c);
        }
    }
    // Double: z <<= 1 (the cross products are below 2^(128N − 1), nothing falls out).
    let mut prev = 0u64;
    for k in 0..2 * N {
        let v = get(&z, k);
        set(&mut z, k, (v << 1) | (prev >> 63));
        prev = v;
    }
    // Add the diagonal a_i² at digit 2i.
    let mut c = 0u64;
    for i in 0..N {
        let sq = a[i] as u128 * a[i] as u128;
        let (lo, c1) = adc(get(&z, 2 * i), sq as u64, c);
        let (hi, c2) = adc(get(&z, 2 * i + 1), (sq >> 64) as u64, c1);
        set(&mut z, 2 * i, lo);
        set(&mut z, 2 * i + 1, hi);
        c = c2;
    }
    z
}

/// Montgomery reduction (paper 000, Algorithm 3) of a wide `z < m·2^(64N)`:
/// `z·2^(−64N) mod m`, output below `m`. `m` odd, `m0inv = −m_0^(−1) mod 2^64`. `N(N+1)`
/// digit products; the final subtraction branch-free (`CT` as in [`sub_if_ge`]).
///
/// Step `i` adds `u_i·m·2^(64i)` with `u_i = z_i·m0inv mod 2^64`, which clears digit `i`;
/// the carry out of the row goes into digit `i + N`, and the carry out of *that* addition
/// (`top`) moves up one digit per step, so after step `N − 1` the value is
/// `top·2^(64N) + z_hi < 2m` (paper 003, eq. 4.1).
#[inline(always)]
pub(crate) fn redc<const N: usize, const CT: bool>(
    z: &Wide<N>,
    m: &[u64; N],
    m0inv: u64,
) -> [u64; N] {
    let mut z = *z;
    let mut top = 0u64;
    for i in 0..N {
        let u = get(&z, i).wrapping_mul(m0inv);
        let mut c = 0u64;
        for j in 0..N {
            let (lo, hi) = mac(get(&z, i + j), u, m[j], c);
            set(&mut z, i + j, lo);
            c = hi;
        }
        let (s, t) = adc(get(&z, i + N), c, top);
        set(&mut z, i + N, s);
        top = t;
    }
    sub_if_ge::<N, CT>(&z[1], top, m)
}

/// Montgomery multiplication `a·b·2^(−64N) mod m` for `a, b < m`, the reduction interleaved
/// with the product (CIOS, Koç–Acar–Kaliski; paper 003 §2.3): `2N² + N` digit products,
/// the running value in `N + 2` registers, one branch-free final subtraction.
///
/// Invariant: after step `i` the value `t < 2m` (from `a·b < m·2^(64N)`), so `t` fits
/// `N` digits and a top bit.
#[inline(always)]
pub(crate) fn mont_mul<const N: usize, const CT: bool>(
    a: &[u64; N],
    b: &[u64; N],
    m: &[u64; N],
    m0inv: u64,
) -> [u64; N] {
    let mut t = [0u64; N];
    let mut t_n = 0u64; // digit N of the running value (0 or 1 between steps)
    for i in 0..N {
        // t += a_i·b
        let mut c = 0u64;
        for j in 0..N {
            (t[j], c) = mac(t[j], a[i], b[j], c);
        }
        let (s, t_n1) = adc(t_n, c, 0);
        // t = (t + u·m) / 2^64
        let u = t[0].wrapping_mul(m0inv);
        let (_, mut c) = mac(t[0], u, m[0], 0);
        for j in 1..N {
            (t[j - 1], c) = mac(t[j], u, m[j], c);
        }
        let (lo, hi) = adc(s, c, 0);
        t[N - 1] = lo;
        t_n = t_n1 + hi;
    }
    sub_if_ge::<N, CT>(&t, t_n, m)
}

/// Montgomery multiplication `a·b·2^(−256) mod m` for `a, b < m < 2^256`, `m` odd, `m0inv =
/// −m_0^(−1) mod 2^64`: the CIOS loop of [`mont_mul`] for `N = 4` written out in MULX with
/// two carry chains (ADCX for the low halves, ADOX for the high ones), the running value
/// in six registers `T_0 … T_5` renamed each step instead of shifted. Each of the four
/// steps adds `a·b_i` (one row of four MULX), then `u·m` with `u = T_0·m0inv` (another row),
/// which clears `T_0`; the register that held it becomes the next step's `T_5`. After each
/// step `T < 2m` (as in [`mont_mul`]), so the carry word is 0 or 1; the final subtraction
/// is a `sub`/`sbb` chain and four conditional moves. The result goes to `out` digit by
/// digit (returned as an array through memory and copied with 16-byte loads, a product
/// waited on store forwarding). The portable twin is `mont_mul::<4, false>` (tested
/// against it in the tests below).
///
/// # Safety
/// The CPU must have BMI2 (MULX) and ADX (ADCX, ADOX).
#[cfg(all(target_arch = "x86_64", not(feature = "portable"), not(miri)))]
#[inline]
pub(crate) unsafe fn mont_mul_4_adx(
    out: &mut [u64; 4],
    a: &[u64; 4],
    b: &[u64; 4],
    m: &[u64; 4],
    m0inv: u64,
) {
    let (mut t0, mut t1, mut t2, mut t3, mut t4, mut t5) = (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    // SAFETY: the caller guarantees BMI2 and ADX. The block reads a[0..4], b[0..4] and
    // m[0..4] through their pointers (arrays of four digits) and writes only registers,
    // every one declared; the stack is untouched.
    unsafe {
        core::arch::asm!(
            // b_0: T += a·b_0 (T_5 cleared, with both flags), then u = T_0·m0inv, T += u·m.
            "mov rdx, qword ptr [{b} + 0]",
            "xor {t5:e}, {t5:e}",
            "mulx {hi}, {lo}, qword ptr [{a} + 0]",
            "adcx {t0}, {lo}",
            "adox {t1}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 8]",
            "adcx {t1}, {lo}",
            "adox {t2}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 16]",
            "adcx {t2}, {lo}",
            "adox {t3}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 24]",
            "adcx {t3}, {lo}",
            "adox {t4}, {hi}",
            "mov edx, 0",
            "adcx {t4}, rdx",
            "adox {t5}, rdx",
            "adcx {t5}, rdx",
            "mov rdx, {t0}",
            "imul rdx, {m0inv}",
            "xor {lo:e}, {lo:e}",
            "mulx {hi}, {lo}, qword ptr [{m} + 0]",
            "adcx {t0}, {lo}",
            "adox {t1}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{m} + 8]",
            "adcx {t1}, {lo}",
            "adox {t2}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{m} + 16]",
            "adcx {t2}, {lo}",
            "adox {t3}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{m} + 24]",
            "adcx {t3}, {lo}",
            "adox {t4}, {hi}",
            "mov edx, 0",
            "adcx {t4}, rdx",
            "adox {t5}, rdx",
            "adcx {t5}, rdx",
            // b_1: T += a·b_1 (T_5 cleared, with both flags), then u = T_0·m0inv, T += u·m.
            "mov rdx, qword ptr [{b} + 8]",
            "xor {t0:e}, {t0:e}",
            "mulx {hi}, {lo}, qword ptr [{a} + 0]",
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
            "adox {t5}, {hi}",
            "mov edx, 0",
            "adcx {t5}, rdx",
            "adox {t0}, rdx",
            "adcx {t0}, rdx",
            "mov rdx, {t1}",
            "imul rdx, {m0inv}",
            "xor {lo:e}, {lo:e}",
            "mulx {hi}, {lo}, qword ptr [{m} + 0]",
            "adcx {t1}, {lo}",
            "adox {t2}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{m} + 8]",
            "adcx {t2}, {lo}",
            "adox {t3}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{m} + 16]",
            "adcx {t3}, {lo}",
            "adox {t4}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{m} + 24]",
            "adcx {t4}, {lo}",
            "adox {t5}, {hi}",
            "mov edx, 0",
            "adcx {t5}, rdx",
            "adox {t0}, rdx",
            "adcx {t0}, rdx",
            // b_2: T += a·b_2 (T_5 cleared, with both flags), then u = T_0·m0inv, T += u·m.
            "mov rdx, qword ptr [{b} + 16]",
            "xor {t1:e}, {t1:e}",
            "mulx {hi}, {lo}, qword ptr [{a} + 0]",
            "adcx {t2}, {lo}",
            "adox {t3}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 8]",
            "adcx {t3}, {lo}",
            "adox {t4}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 16]",
            "adcx {t4}, {lo}",
            "adox {t5}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 24]",
            "adcx {t5}, {lo}",
            "adox {t0}, {hi}",
            "mov edx, 0",
            "adcx {t0}, rdx",
            "adox {t1}, rdx",
            "adcx {t1}, rdx",
            "mov rdx, {t2}",
            "imul rdx, {m0inv}",
            "xor {lo:e}, {lo:e}",
            "mulx {hi}, {lo}, qword ptr [{m} + 0]",
            "adcx {t2}, {lo}",
            "adox {t3}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{m} + 8]",
            "adcx {t3}, {lo}",
            "adox {t4}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{m} + 16]",
            "adcx {t4}, {lo}",
            "adox {t5}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{m} + 24]",
            "adcx {t5}, {lo}",
            "adox {t0}, {hi}",
            "mov edx, 0",
            "adcx {t0}, rdx",
            "adox {t1}, rdx",
            "adcx {t1}, rdx",
            // b_3: T += a·b_3 (T_5 cleared, with both flags), then u = T_0·m0inv, T += u·m.
            "mov rdx, qword ptr [{b} + 24]",
            "xor {t2:e}, {t2:e}",
            "mulx {hi}, {lo}, qword ptr [{a} + 0]",
            "adcx {t3}, {lo}",
            "adox {t4}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 8]",
            "adcx {t4}, {lo}",
            "adox {t5}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 16]",
            "adcx {t5}, {lo}",
            "adox {t0}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{a} + 24]",
            "adcx {t0}, {lo}",
            "adox {t1}, {hi}",
            "mov edx, 0",
            "adcx {t1}, rdx",
            "adox {t2}, rdx",
            "adcx {t2}, rdx",
            "mov rdx, {t3}",
            "imul rdx, {m0inv}",
            "xor {lo:e}, {lo:e}",
            "mulx {hi}, {lo}, qword ptr [{m} + 0]",
            "adcx {t3}, {lo}",
            "adox {t4}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{m} + 8]",
            "adcx {t4}, {lo}",
            "adox {t5}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{m} + 16]",
            "adcx {t5}, {lo}",
            "adox {t0}, {hi}",
            "mulx {hi}, {lo}, qword ptr [{m} + 24]",
            "adcx {t0}, {lo}",
            "adox {t1}, {hi}",
            "mov edx, 0",
            "adcx {t1}, rdx",
            "adox {t2}, rdx",
            "adcx {t2}, rdx",
            // The value is (t4, t5, t0, t1) with the carry t2 (the registers rotated once
            // per step). d = value − m; t2 − borrow borrows (CF = 1) iff value < m: keep
            // it, else take d (conditional moves, no branch).
            "mov {lo}, {t4}",
            "sub {lo}, qword ptr [{m}]",
            "mov {hi}, {t5}",
            "sbb {hi}, qword ptr [{m} + 8]",
            "mov rdx, {t0}",
            "sbb rdx, qword ptr [{m} + 16]",
            "mov {t3}, {t1}",
            "sbb {t3}, qword ptr [{m} + 24]",
            "sbb {t2}, 0",
            "cmovnc {t4}, {lo}",
            "cmovnc {t5}, {hi}",
            "cmovnc {t0}, rdx",
            "cmovnc {t1}, {t3}",
            a = in(reg) a.as_ptr(),
            b = in(reg) b.as_ptr(),
            m = in(reg) m.as_ptr(),
            m0inv = in(reg) m0inv,
            lo = out(reg) _,
            hi = out(reg) _,
            t0 = inout(reg) t0,
            t1 = inout(reg) t1,
            t2 = inout(reg) t2,
            t3 = inout(reg) t3,
            t4 = inout(reg) t4,
            t5 = inout(reg) t5,
            out("rdx") _,
            options(nostack, readonly),
        );
    }
    let _ = (t2, t3);
    *out = [t4, t5, t0, t1];
}

/// `x` (any number of digits, at most `2N` significant) as a wide number.
#[inline(always)]
pub(crate) fn wide_from_slice<const N: usize>(x: &[u64]) -> Wide<N> {
    let mut z: Wide<N> = [[0u64; N]; 2];
    let n = crate::nat::normalized_len(x);
    debug_assert!(n <= 2 * N);
    for (k, &v) in x[..n.min(2 * N)].iter().enumerate() {
        set(&mut z, k, v);
    }
    z
}

with_bmi2! {
    /// [`mont_mul`], compiled for BMI2 where the CPU has it.
    pub(crate) fn mont_mul_fast<const N: usize, const CT: bool>(
        a: &[u64; N],
        b: &[u64; N],
        m: &[u64; N],
        m0inv: u64,
    ) -> [u64; N] {
        mont_mul::<N, CT>(a, b, m, m0inv)
    }
}

/// Whether [`mont_mul_vartime_into`] takes the assembly for `N` digits (then a square is
/// faster as that product than as [`mont_sqr_fast`]: 24 against 34 ns at 256 bits in one
/// `modred bench --op mulmod,sqrmod` run).
#[inline(always)]
pub(crate) fn mul_asm<const N: usize>() -> bool {
    #[cfg(all(target_arch = "x86_64", not(feature = "portable"), not(miri)))]
    if N == 4 {
        return crate::kernels::arch::x86_64::has_bmi2_adx();
    }
    false
}

/// `out = a·b·2^(−64N) mod m` for the variable-time callers ([`super::MontgomeryFixed`]):
/// for `N = 4` on a CPU with BMI2 and ADX the two-chain assembly [`mont_mul_4_adx`] (its
/// final subtraction uses conditional moves, but the callers that need constant time keep
/// to [`mont_mul_fast`] with `CT`), else [`mont_mul_fast`].
#[inline(always)]
pub(crate) fn mont_mul_vartime_into<const N: usize>(
    out: &mut [u64; N],
    a: &[u64; N],
    b: &[u64; N],
    m: &[u64; N],
    m0inv: u64,
) {
    #[cfg(all(target_arch = "x86_64", not(feature = "portable"), not(miri)))]
    if N == 4 && crate::kernels::arch::x86_64::has_bmi2_adx() {
        // N = 4: the conversions are identities.
        fn four<const N: usize>(x: &[u64; N]) -> &[u64; 4] {
            x[..].try_into().expect("N = 4")
        }
        let o: &mut [u64; 4] = (&mut out[..]).try_into().expect("N = 4");
        // SAFETY: the CPU has BMI2 and ADX (checked just above).
        unsafe { mont_mul_4_adx(o, four(a), four(b), four(m), m0inv) };
        return;
    }
    *out = mont_mul_fast::<N, false>(a, b, m, m0inv);
}

with_bmi2! {
    /// [`sqr_wide`] then [`redc`], compiled for BMI2 where the CPU has it.
    pub(crate) fn mont_sqr_fast<const N: usize, const CT: bool>(
        a: &[u64; N],
        m: &[u64; N],
        m0inv: u64,
    ) -> [u64; N] {
        redc::<N, CT>(&sqr_wide(a), m, m0inv)
    }
}

#[cfg(all(test, target_arch = "x86_64", not(feature = "portable"), not(miri)))]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// The two-chain assembly against its portable twin `mont_mul::<4, false>`, on random
    /// and edge operands (0, 1, m − 1, all-ones digits, long carry chains) and moduli
    /// (all ones, top digit 1, 2^255 + 1, random).
    #[test]
    fn mont_mul_4_adx_matches_the_portable_twin() {
        if !crate::kernels::arch::x86_64::has_bmi2_adx() {
            eprintln!("no BMI2/ADX on this CPU: the assembly is not run");
            return;
        }
        let mut rng = SplitMix64::new(0x4adc);
        let mut moduli = vec![[u64::MAX; 4], [1, 0, 0, 1], [1, 0, 0, 1 << 63], [u64::MAX, 0, 0, 1]];
        for _ in 0..60 {
            let mut m: [u64; 4] = core::array::from_fn(|_| rng.next_u64());
            m[0] |= 1;
            if moduli.len() % 3 == 0 {
                m[3] >>= rng.next_u64() % 64; // shorter moduli: leading zero bits
                m[3] |= 1;
            }
            moduli.push(m);
        }
        for m in moduli {
            let m0inv = crate::limb::Limb::inverse_mod_b(m[0]).wrapping_neg();
            // Values below m: 0, 1, m − 1, m − 2^64, and random ones reduced by subtraction.
            let below = |x: [u64; 4]| -> [u64; 4] {
                let mut x = x;
                while sub_n(&x, &m).1 == 0 {
                    // x ≥ m: halve the top until below (keeps long runs of ones below).
                    x[3] >>= 1;
                }
                x
            };
            let m1 = sub_n(&m, &[1, 0, 0, 0]).0;
            let mut values =
                vec![[0; 4], [1, 0, 0, 0], m1, below([0, u64::MAX, u64::MAX, u64::MAX])];
            for _ in 0..12 {
                values.push(below(core::array::from_fn(|_| rng.next_u64())));
            }
            for a in &values {
                for b in &values {
                    let want = mont_mul::<4, false>(a, b, &m, m0inv);
                    let mut got = [0; 4];
                    // SAFETY: the CPU has BMI2 and ADX (checked above).
                    unsafe { mont_mul_4_adx(&mut got, a, b, &m, m0inv) };
                    assert_eq!(got, want, "m {m:x?}, a {a:x?}, b {b:x?}");
                    mont_mul_vartime_into::<4>(&mut got, a, b, &m, m0inv);
                    assert_eq!(got, want);
                }
            }
        }
    }
}
