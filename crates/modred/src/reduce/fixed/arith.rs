//! Fixed-size digit arithmetic on `[u64; N]`: the building blocks of the const-generic
//! reducers. Every loop has a compile-time trip count, every array lives on the stack, and
//! the functions are `#[inline(always)]`, so for the small `N` they are used with
//! (1 to 9 digits) LLVM unrolls them completely and keeps the digits in registers; the
//! 128-bit products compile to `mul`/`mulx` with `adc` chains.
//!
//! A double-length number is a [`Wide<N>`], `[[u64; N]; 2]` (low half, high half): stable
//! Rust cannot write `[u64; 2 * N]` for a generic `N`, and the two halves are contiguous in
//! memory, so [`flat`] views them as one `2N`-digit slice.

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
/// ADX enabled when the CPU has them (the check of `kernels::cpu`, made once and
/// cached), else compiled as it is. The body must be inlined code over the
/// `#[inline(always)]` functions of this module for the second compilation to matter (a
/// closure would not do: it is compiled once, without the features). The `portable`
/// feature (and Miri) turns the second compilation off, so CI runs the plain code too.
macro_rules! with_bmi2 {
    ($(#[$doc:meta])* $vis:vis fn $name:ident<$(const $g:ident: $gt:ty),*>($($a:ident: $t:ty),* $(,)?) -> $r:ty $body:block) => {
        $(#[$doc])*
        #[inline(always)]
        $vis fn $name<$(const $g: $gt),*>($($a: $t),*) -> $r {
            #[cfg(x86_kernels)]
            {
                #[target_feature(enable = "bmi2,adx")]
                unsafe fn fast<$(const $g: $gt),*>($($a: $t),*) -> $r $body
                if crate::kernels::cpu::bmi2_adx() {
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

/// The last step of a pseudo-Mersenne fold that added `c` ahead (`reduce::fixed::pm_fold`,
/// `p25519::fold`): for `u = bit·2^bits + r` with `c ≤ u`, `bit` 0 or 1 and `r`'s bits at
/// and above `bits` cleared by `top_mask` (the top digit's), returns `u − c` when `bit` is
/// 0 and `u − 2^bits` (the bit dropped) when it is 1: one borrow chain, no branch (`CT` as
/// in [`sub_if_ge`]).
#[inline(always)]
pub(crate) fn sub_c_or_drop_bit<const N: usize, const CT: bool>(
    mut r: [u64; N],
    bit: u64,
    c: u64,
    top_mask: u64,
) -> [u64; N] {
    // All ones when the bit is clear (subtract c), zero when it is set (drop the bit).
    let mut clear = bit.wrapping_sub(1);
    if CT {
        clear = core::hint::black_box(clear);
    }
    let mut borrow;
    (r[0], borrow) = sbb(r[0], clear & c, 0);
    for v in r.iter_mut().skip(1) {
        (*v, borrow) = sbb(*v, 0, borrow);
    }
    r[N - 1] &= top_mask;
    r
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
    // At 7 digits LLVM leaves these loops rolled, each digit found by a division by 7; the
    // product's loops it unrolls (a 448-bit Barrett square 100 ns against 128-133, AMD
    // EPYC Zen 4).
    if N == 7 {
        return mul_wide(a, a);
    }
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
/// with the product (CIOS, Koç–Acar–Kaliski 1996): `2N² + N` digit products,
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

/// The constants of Montgomery arithmetic modulo an odd `m` of `N` digits, laid out for the
/// assembly: `m`, then `minv = m_0^(−1) mod 2^64` at byte offset `8N` (`repr(C)` keeps the
/// order), then `m0inv = −minv` for the portable code.
#[repr(C)]
#[derive(Clone, Debug)]
pub(crate) struct MontConsts<const N: usize> {
    /// The modulus.
    pub(crate) m: [u64; N],
    /// `m_0^(−1) mod 2^64`.
    pub(crate) minv: u64,
    /// `−m_0^(−1) mod 2^64`.
    pub(crate) m0inv: u64,
    /// `−m^(−1) mod 2^128` (of `m`'s low two digits): the whole quotient digit of the
    /// two-digit reduction ([`super::mont2`]).
    pub(crate) m_inv_128: u128,
}

impl<const N: usize> MontConsts<N> {
    /// The constants for an odd `m`.
    pub(crate) fn new(m: [u64; N]) -> Self {
        let minv = crate::limb::Limb::inverse_mod_b(m[0]);
        let low = m[0] as u128 | (m.get(1).copied().unwrap_or(0) as u128) << 64;
        let m_inv_128 = super::mont2::neg_inverse_128(low, minv);
        MontConsts { m, minv, m0inv: minv.wrapping_neg(), m_inv_128 }
    }
}

// The 4-digit Montgomery product and square in MULX/ADCX/ADOX assembly are kernels, in
// `kernels/arch/x86_64/mont4.rs`; re-exported here for `MontgomeryFixed<4>`.
#[cfg(x86_kernels)]
pub(crate) use crate::kernels::arch::x86_64::mont3::{mont_mul_3_adx, mont_sqr_3_adx};
#[cfg(x86_kernels)]
pub(crate) use crate::kernels::arch::x86_64::mont4::{mont_mul_4_adx, mont_sqr_4_adx};

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

/// `k` as the 4-digit constants, when `N = 4` and the CPU runs the 4-digit assembly
/// ([`mont_mul_4_adx`], [`mont_sqr_4_adx`]: BMI2 and ADX), else `None`.
#[cfg(x86_kernels)]
#[inline(always)]
fn asm4<const N: usize>(k: &MontConsts<N>) -> Option<&MontConsts<4>> {
    if N == 4 && crate::kernels::cpu::bmi2_adx() {
        // SAFETY: N = 4, so `MontConsts<N>` is `MontConsts<4>`: the same type.
        return Some(unsafe { &*(k as *const MontConsts<N>).cast::<MontConsts<4>>() });
    }
    None
}

/// `k` as the 3-digit constants, when `N = 3` and the CPU runs the 3-digit assembly
/// ([`mont_mul_3_adx`], [`mont_sqr_3_adx`]: BMI2 and ADX), else `None`.
#[cfg(x86_kernels)]
#[inline(always)]
fn asm3<const N: usize>(k: &MontConsts<N>) -> Option<&MontConsts<3>> {
    if N == 3 && crate::kernels::cpu::bmi2_adx() {
        // SAFETY: N = 3, so `MontConsts<N>` is `MontConsts<3>`: the same type.
        return Some(unsafe { &*(k as *const MontConsts<N>).cast::<MontConsts<3>>() });
    }
    None
}

/// `a·b·2^(−64N) mod m` by the CIOS in registers of five, six or seven digits
/// (`kernels::arch::x86_64::mont_mulx::mont_mul_{5,6,7}_loop`) when `N` is one of those and
/// the CPU has BMI2 and ADX, else `None`. Against LLVM's code of [`mont_mul_fast`] on an AMD
/// EPYC Zen 4: a 448-bit Montgomery product 80 → 61 ns and powm 39.4 → 31.9 µs.
#[cfg(x86_kernels)]
#[inline(always)]
fn mont_mul_regs_asm<const N: usize, const CT: bool>(
    a: &[u64; N],
    b: &[u64; N],
    k: &MontConsts<N>,
) -> Option<[u64; N]> {
    use crate::kernels::arch::x86_64::mont_mulx;
    if !(5..=7).contains(&N) || !crate::kernels::cpu::bmi2_adx() {
        return None;
    }
    let mut t = [0u64; 8];
    // SAFETY: the CPU has BMI2 and ADX (checked above); each arm's conversions hold for
    // its N (an identity, folded away).
    unsafe {
        match N {
            5 => mont_mulx::mont_mul_5_loop(
                (&mut t[..6]).try_into().expect("N = 5"),
                a[..].try_into().expect("N = 5"),
                b[..].try_into().expect("N = 5"),
                k.m[..].try_into().expect("N = 5"),
                k.m0inv,
            ),
            6 => mont_mulx::mont_mul_6_loop(
                (&mut t[..7]).try_into().expect("N = 6"),
                a[..].try_into().expect("N = 6"),
                b[..].try_into().expect("N = 6"),
                k.m[..].try_into().expect("N = 6"),
                k.m0inv,
            ),
            _ => mont_mulx::mont_mul_7_loop(
                (&mut t[..8]).try_into().expect("N = 7"),
                a[..].try_into().expect("N = 7"),
                b[..].try_into().expect("N = 7"),
                k.m[..].try_into().expect("N = 7"),
                k.m0inv,
            ),
        }
    }
    let low: [u64; N] = t[..N].try_into().expect("N digits");
    Some(sub_if_ge::<N, CT>(&low, t[N], &k.m))
}

/// `x` as a 3-digit array (`N = 3`: an identity, folded away).
#[cfg(x86_kernels)]
#[inline(always)]
fn three<const N: usize>(x: &[u64; N]) -> &[u64; 3] {
    x[..].try_into().expect("N = 3")
}

/// `x` as a 4-digit array (`N = 4`: an identity, folded away).
#[cfg(x86_kernels)]
#[inline(always)]
fn four<const N: usize>(x: &[u64; N]) -> &[u64; 4] {
    x[..].try_into().expect("N = 4")
}

/// `out = a·b·2^(−64N) mod m` for the variable-time callers ([`super::MontgomeryFixed`]):
/// for `N = 2` the reduction by one 128-bit quotient digit ([`super::mont2`]), for `N = 3`
/// and `N = 4` on a CPU with BMI2 and ADX the assembly [`mont_mul_3_adx`] and
/// [`mont_mul_4_adx`], for `N` = 5–7 there the
/// CIOS in registers ([`mont_mul_regs_asm`]; all branch-free; the callers that need
/// constant time take [`mont_mul_ct`], the same kernels with a masked final subtraction
/// kept from the compiler's branches), else [`mont_mul_fast`].
#[inline(always)]
pub(crate) fn mont_mul_vartime_into<const N: usize>(
    out: &mut [u64; N],
    a: &[u64; N],
    b: &[u64; N],
    k: &MontConsts<N>,
) {
    if let (Ok(o), Ok(a2), Ok(b2), Ok(m2)) = (
        <&mut [u64; 2]>::try_from(&mut out[..]),
        <&[u64; 2]>::try_from(&a[..]),
        <&[u64; 2]>::try_from(&b[..]),
        <&[u64; 2]>::try_from(&k.m[..]),
    ) {
        *o = super::mont2::mont_mul(a2, b2, m2, k.m_inv_128);
        return;
    }
    #[cfg(x86_kernels)]
    if let Some(k3) = asm3(k) {
        let o: &mut [u64; 3] = (&mut out[..]).try_into().expect("N = 3");
        // SAFETY: `asm3` checked that the CPU has BMI2 and ADX.
        *o = unsafe { mont_mul_3_adx(three(a), three(b), k3) };
        return;
    }
    #[cfg(x86_kernels)]
    if let Some(k4) = asm4(k) {
        let o: &mut [u64; 4] = (&mut out[..]).try_into().expect("N = 4");
        // SAFETY: `asm4` checked that the CPU has BMI2 and ADX.
        unsafe { mont_mul_4_adx(o, four(a), four(b), k4) };
        return;
    }
    #[cfg(x86_kernels)]
    if let Some(r) = mont_mul_regs_asm::<N, false>(a, b, k) {
        *out = r;
        return;
    }
    *out = mont_mul_fast::<N, false>(a, b, &k.m, k.m0inv);
}

/// `out = a²·2^(−64N) mod m` for the variable-time callers: for `N = 4` on a CPU with BMI2
/// and ADX the assembly [`mont_sqr_4_adx`], for `N` = 5–7 there the product in registers
/// ([`mont_mul_regs_asm`] of `a` by itself); below 3 digits the product (the separate square
/// saves no digit product worth a second pass there), and at 7, where LLVM leaves the
/// square's and the reduction's loops rolled (a 448-bit square took 183 ns against the
/// product's 80, and 124 with [`sqr_wide`]'s 7-digit product, AMD EPYC Zen 4); else
/// [`mont_sqr_fast`].
#[inline(always)]
pub(crate) fn mont_sqr_vartime_into<const N: usize>(
    out: &mut [u64; N],
    a: &[u64; N],
    k: &MontConsts<N>,
) {
    if let (Ok(o), Ok(a2), Ok(m2)) = (
        <&mut [u64; 2]>::try_from(&mut out[..]),
        <&[u64; 2]>::try_from(&a[..]),
        <&[u64; 2]>::try_from(&k.m[..]),
    ) {
        *o = super::mont2::mont_sqr(a2, m2, k.m_inv_128);
        return;
    }
    #[cfg(x86_kernels)]
    if let Some(k3) = asm3(k) {
        let o: &mut [u64; 3] = (&mut out[..]).try_into().expect("N = 3");
        // SAFETY: `asm3` checked that the CPU has BMI2 and ADX.
        *o = unsafe { mont_sqr_3_adx(three(a), k3) };
        return;
    }
    #[cfg(x86_kernels)]
    if let Some(k4) = asm4(k) {
        let o: &mut [u64; 4] = (&mut out[..]).try_into().expect("N = 4");
        // SAFETY: `asm4` checked that the CPU has BMI2 and ADX.
        unsafe { mont_sqr_4_adx(o, four(a), k4) };
        return;
    }
    #[cfg(x86_kernels)]
    if let Some(r) = mont_mul_regs_asm::<N, false>(a, a, k) {
        *out = r;
        return;
    }
    if N <= 2 || N == 7 {
        *out = mont_mul_fast::<N, false>(a, a, &k.m, k.m0inv);
    } else {
        *out = mont_sqr_fast::<N, false>(a, &k.m, k.m0inv);
    }
}

/// `a·b·2^(−64N) mod m` for `a, b < m`, in `[0, m)` (paper 000, Algorithm 3), in constant
/// time (for `ct::MontgomeryCt`'s fixed-size exponentiation): for `N = 2` the reduction by
/// one 128-bit quotient digit in its constant-time form ([`super::mont2::mont_mul_ct`]),
/// for `N = 3` and `N = 4` on a CPU with BMI2 and ADX the assembly [`mont_mul_3_adx`] and
/// [`mont_mul_4_adx`] (no branch, no conditional move, no memory index depending on the
/// values: the final correction is a masked addition), for `N` = 5–7 there the CIOS in
/// registers ([`mont_mul_regs_asm`], straight-line, its final subtraction by a mask through
/// `black_box`), else [`mont_mul_fast`] with `CT`.
#[inline(always)]
pub(crate) fn mont_mul_ct<const N: usize>(
    a: &[u64; N],
    b: &[u64; N],
    k: &MontConsts<N>,
) -> [u64; N] {
    if let (Ok(a2), Ok(b2), Ok(m2)) = (
        <&[u64; 2]>::try_from(&a[..]),
        <&[u64; 2]>::try_from(&b[..]),
        <&[u64; 2]>::try_from(&k.m[..]),
    ) {
        let mut out = [0u64; N];
        out.copy_from_slice(&super::mont2::mont_mul_ct(a2, b2, m2, k.m_inv_128));
        return out;
    }
    #[cfg(x86_kernels)]
    if let Some(k3) = asm3(k) {
        let mut out = [0u64; N];
        // SAFETY: `asm3` checked that the CPU has BMI2 and ADX.
        out.copy_from_slice(&unsafe { mont_mul_3_adx(three(a), three(b), k3) });
        return out;
    }
    #[cfg(x86_kernels)]
    if let Some(k4) = asm4(k) {
        let mut out = [0u64; N];
        let o: &mut [u64; 4] = (&mut out[..]).try_into().expect("N = 4");
        // SAFETY: `asm4` checked that the CPU has BMI2 and ADX.
        unsafe { mont_mul_4_adx(o, four(a), four(b), k4) };
        return out;
    }
    #[cfg(x86_kernels)]
    if let Some(r) = mont_mul_regs_asm::<N, true>(a, b, k) {
        return r;
    }
    mont_mul_fast::<N, true>(a, b, &k.m, k.m0inv)
}

/// `a²·2^(−64N) mod m` for `a < m`, in `[0, m)`, in constant time, as [`mont_mul_ct`]:
/// [`super::mont2::mont_sqr_ct`] at 2 digits, the assembly squares [`mont_sqr_3_adx`] and
/// [`mont_sqr_4_adx`], the 5–7-digit product in registers of `a` by itself, else the
/// product below 3 digits and [`mont_sqr_fast`] from 3.
#[inline(always)]
pub(crate) fn mont_sqr_ct<const N: usize>(a: &[u64; N], k: &MontConsts<N>) -> [u64; N] {
    if let (Ok(a2), Ok(m2)) = (<&[u64; 2]>::try_from(&a[..]), <&[u64; 2]>::try_from(&k.m[..])) {
        let mut out = [0u64; N];
        out.copy_from_slice(&super::mont2::mont_sqr_ct(a2, m2, k.m_inv_128));
        return out;
    }
    #[cfg(x86_kernels)]
    if let Some(k3) = asm3(k) {
        let mut out = [0u64; N];
        // SAFETY: `asm3` checked that the CPU has BMI2 and ADX.
        out.copy_from_slice(&unsafe { mont_sqr_3_adx(three(a), k3) });
        return out;
    }
    #[cfg(x86_kernels)]
    if let Some(k4) = asm4(k) {
        let mut out = [0u64; N];
        let o: &mut [u64; 4] = (&mut out[..]).try_into().expect("N = 4");
        // SAFETY: `asm4` checked that the CPU has BMI2 and ADX.
        unsafe { mont_sqr_4_adx(o, four(a), k4) };
        return out;
    }
    #[cfg(x86_kernels)]
    if let Some(r) = mont_mul_regs_asm::<N, true>(a, a, k) {
        return r;
    }
    if N <= 2 {
        mont_mul_fast::<N, true>(a, a, &k.m, k.m0inv)
    } else {
        mont_sqr_fast::<N, true>(a, &k.m, k.m0inv)
    }
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

#[cfg(all(test, x86_kernels_compiled))]
mod tests {
    use super::*;
    use crate::kernels::arch::x86_64::mont3::{mont_mul_3_adx, mont_sqr_3_adx};
    use crate::kernels::arch::x86_64::mont4::{mont_mul_4_adx, mont_sqr_4_adx};
    use alloc::vec;
    use alloc::vec::Vec;
    use modred_testkit::SplitMix64;
    use std::eprintln;

    /// Moduli of `N` digits with their edge cases: all ones, 2^(64(N−1)) + 1,
    /// 2^(64N−1) + 1, 2^(64(N−1)) + 2^64 − 1, 2^(64N) − 2^(64(N−1)) + 1 (the top of the
    /// range with a zero middle), a top digit of one bit under all ones, random ones, and
    /// random ones with leading zero bits.
    fn moduli<const N: usize>(rng: &mut SplitMix64) -> Vec<[u64; N]> {
        let with = |low: u64, top: u64| -> [u64; N] {
            let mut m = [0u64; N];
            m[0] = low;
            m[N - 1] = top;
            m
        };
        let mut almost = [u64::MAX; N];
        almost[N - 1] = 1 << 63;
        let mut moduli = vec![
            [u64::MAX; N],
            with(1, 1),
            with(1, 1 << 63),
            with(u64::MAX, 1),
            with(1, u64::MAX),
            almost,
        ];
        for i in 0..60 {
            let mut m: [u64; N] = core::array::from_fn(|_| rng.next_u64());
            m[0] |= 1;
            if i % 3 == 0 {
                m[N - 1] >>= rng.next_u64() % 64; // shorter moduli: leading zero bits
                m[N - 1] |= 1;
            }
            moduli.push(m);
        }
        moduli
    }

    /// Values below `m`: 0, 1, 2, m − 1, m − 2, all-ones digits under m's top (long carry
    /// and borrow chains), 2^(64N−1) − 1 and 2^64 − 1 when below m, and random ones.
    fn values<const N: usize>(m: &[u64; N], rng: &mut SplitMix64) -> Vec<[u64; N]> {
        let below = |x: [u64; N]| -> [u64; N] {
            let mut x = x;
            while sub_n(&x, m).1 == 0 {
                // x ≥ m: halve the top until below (keeps long runs of ones below).
                x[N - 1] >>= 1;
            }
            x
        };
        let small = |v: u64| -> [u64; N] {
            let mut x = [0u64; N];
            x[0] = v;
            x
        };
        let mut zero_low = [u64::MAX; N];
        zero_low[0] = 0;
        let mut half = [u64::MAX; N];
        half[N - 1] >>= 1;
        let mut v = vec![
            small(0),
            small(1),
            small(2),
            sub_n(m, &small(1)).0,
            sub_n(m, &small(2)).0,
            below([u64::MAX; N]),
            below(zero_low),
            below(half),
            below(small(u64::MAX)),
        ];
        for _ in 0..12 {
            v.push(below(core::array::from_fn(|_| rng.next_u64())));
        }
        v
    }

    /// An assembly square and product (`sqr`, `mul`; safe wrappers, called only where the
    /// CPU has BMI2 and ADX) against their portable twin `mont_mul::<N, false>` and through
    /// the dispatching `mont_mul_vartime_into`/`mont_sqr_vartime_into`, on the edge and
    /// random moduli and operands above; the callers pass `out` a copy of the operands.
    fn asm_matches_the_portable_twin<const N: usize>(
        seed: u64,
        sqr: impl Fn(&[u64; N], &MontConsts<N>) -> [u64; N],
        mul: impl Fn(&[u64; N], &[u64; N], &MontConsts<N>) -> [u64; N],
    ) {
        let mut rng = SplitMix64::new(seed);
        let mut checked = 0usize;
        for m in moduli::<N>(&mut rng) {
            let k = MontConsts::new(m);
            assert_eq!(k.minv.wrapping_mul(m[0]), 1);
            let values = values(&m, &mut rng);
            for a in &values {
                let want = mont_mul::<N, false>(a, a, &m, k.m0inv);
                assert_eq!(sqr(a, &k), want, "square: m {m:x?}, a {a:x?}");
                let mut got = [0; N];
                mont_sqr_vartime_into::<N>(&mut got, a, &k);
                assert_eq!(got, want);
                for b in &values {
                    let want = mont_mul::<N, false>(a, b, &m, k.m0inv);
                    assert_eq!(mul(a, b, &k), want, "product: m {m:x?}, a {a:x?}, b {b:x?}");
                    mont_mul_vartime_into::<N>(&mut got, a, b, &k);
                    assert_eq!(got, want);
                    checked += 1;
                }
            }
        }
        assert!(checked > 20_000);
    }

    /// Long random chains: `x ← x·y`, `y ← y²` by the assembly (`sqr`, `mul` as above) and by
    /// the portable twin stay equal (every result fed back in, so a wrong digit anywhere
    /// shows).
    fn asm_chains_match_the_portable_twin<const N: usize>(
        seed: u64,
        sqr: impl Fn(&[u64; N], &MontConsts<N>) -> [u64; N],
        mul: impl Fn(&[u64; N], &[u64; N], &MontConsts<N>) -> [u64; N],
    ) {
        let mut rng = SplitMix64::new(seed);
        for m in moduli::<N>(&mut rng) {
            let k = MontConsts::new(m);
            let v = values(&m, &mut rng);
            let (mut x, mut y) = (v[v.len() - 1], v[v.len() - 2]);
            let (mut px, mut py) = (x, y);
            for _ in 0..500 {
                (x, y) = (mul(&x, &y, &k), sqr(&y, &k));
                px = mont_mul::<N, false>(&px, &py, &m, k.m0inv);
                py = mont_mul::<N, false>(&py, &py, &m, k.m0inv);
                assert_eq!((x, y), (px, py), "m {m:x?}");
            }
        }
    }

    /// The 3-digit assembly (`mont3`) against its portable twin, single products and chains.
    #[test]
    fn mont_3_asm_matches_the_portable_twin() {
        if !crate::kernels::cpu::bmi2_adx() {
            eprintln!("no BMI2/ADX on this CPU: the 3-digit assembly is not run");
            return;
        }
        let sqr = |a: &[u64; 3], k: &MontConsts<3>| {
            // SAFETY: the CPU has BMI2 and ADX (checked above).
            unsafe { mont_sqr_3_adx(a, k) }
        };
        let mul = |a: &[u64; 3], b: &[u64; 3], k: &MontConsts<3>| {
            // SAFETY: the CPU has BMI2 and ADX (checked above).
            unsafe { mont_mul_3_adx(a, b, k) }
        };
        asm_matches_the_portable_twin(0x3adc, sqr, mul);
        asm_chains_match_the_portable_twin(0x3eed, sqr, mul);
    }

    /// The 4-digit assembly (`mont4`) against its portable twin, single products and chains.
    #[test]
    fn mont_4_asm_matches_the_portable_twin() {
        if !crate::kernels::cpu::bmi2_adx() {
            eprintln!("no BMI2/ADX on this CPU: the 4-digit assembly is not run");
            return;
        }
        let sqr = |a: &[u64; 4], k: &MontConsts<4>| {
            let mut out = [0; 4];
            // SAFETY: the CPU has BMI2 and ADX (checked above).
            unsafe { mont_sqr_4_adx(&mut out, a, k) };
            out
        };
        let mul = |a: &[u64; 4], b: &[u64; 4], k: &MontConsts<4>| {
            let mut out = [0; 4];
            // SAFETY: the CPU has BMI2 and ADX (checked above).
            unsafe { mont_mul_4_adx(&mut out, a, b, k) };
            out
        };
        asm_matches_the_portable_twin(0x4adc, sqr, mul);
        asm_chains_match_the_portable_twin(0x5eed, sqr, mul);
    }
}
