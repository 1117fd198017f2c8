//! Parsing and formatting: decimal, and hexadecimal with a `0x` prefix.

use super::{newton, Nat};
use crate::error::Error;
use crate::kernels;
use crate::limb::Limb;
use crate::ntt;
use alloc::format;
use alloc::string::String;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// The largest `c` with `10^c < b`, and `10^c`: decimal digits are handled `c` at a time.
fn decimal_chunk<L: Limb>() -> (usize, u64) {
    // Evaluated at compile time, per digit type.
    let c = const { decimal_digits_below_pow2(L::BITS) };
    (c as usize, 10u64.pow(c))
}

/// The largest `c` with `10^c < 2^bits` (`bits` up to 64), in integers.
const fn decimal_digits_below_pow2(bits: u32) -> u32 {
    let mut c = 0;
    while 10u128.pow(c + 1) < 1u128 << bits {
        c += 1;
    }
    c
}

/// The most decimal digits [`Nat::from_str_radix`] accepts (2^24, about 55.7 million bits):
/// the divide-and-conquer conversion reads a million bits in about 5 ms and 16 million in
/// 160 ms (Sapphire Rapids), so under a second at this limit; it bounds the work one
/// argument can ask for. Hexadecimal is linear and has no limit.
pub const MAX_DECIMAL_DIGITS: usize = 1 << 24;

impl<L: Limb> Nat<L> {
    /// Parses digits in base 10 or 16 (no prefix, no sign).
    ///
    /// Errors: [`Error::Parse`] for an empty string, a character that is not a digit of
    /// the radix, a radix other than 10 and 16, or more than [`MAX_DECIMAL_DIGITS`]
    /// decimal digits.
    pub fn from_str_radix(s: &str, radix: u32) -> Result<Self, Error> {
        let bad = |reason: String| Error::Parse { input: abbreviate(s), reason };
        if radix != 10 && radix != 16 {
            // Checked first: `char::is_digit` panics on a radix above 36.
            return Err(bad(format!("radix {radix} is not supported (use 10 or 16)")));
        }
        if s.is_empty() {
            return Err(bad("empty number".into()));
        }
        let valid = |b: &u8| if radix == 10 { b.is_ascii_digit() } else { b.is_ascii_hexdigit() };
        if !s.as_bytes().iter().all(valid) {
            let c = s.chars().find(|c| !c.is_digit(radix)).expect("a byte that is not a digit");
            let base = if radix == 16 { "hexadecimal" } else { "decimal" };
            return Err(bad(format!("{c:?} is not a {base} digit")));
        }
        let bytes = s.as_bytes();
        if radix == 10 && bytes.len() > MAX_DECIMAL_DIGITS {
            return Err(bad(format!(
                "too long: {} decimal digits, the limit is {MAX_DECIMAL_DIGITS} \
                 (hexadecimal with 0x has no limit)",
                bytes.len()
            )));
        }
        match radix {
            16 => {
                let per = (L::BITS / 4) as usize;
                let mut limbs = Vec::with_capacity(bytes.len().div_ceil(per));
                for chunk in bytes.rchunks(per) {
                    let mut v = 0u64;
                    for &ch in chunk {
                        v = (v << 4) | (ch as char).to_digit(16).unwrap_or(0) as u64;
                    }
                    limbs.push(L::from_u64(v));
                }
                Ok(Nat::from_vec(limbs))
            }
            10 => Ok(parse_decimal(bytes)),
            _ => unreachable!("radix checked above"),
        }
    }

    /// Decimal digits of the number: divide and conquer on powers of ten for long numbers
    /// (`O(M(n) log n)` with `M` the cost of a product), each level splitting its numbers
    /// in halves by one power made for this number: by [`Nat::div_rem`] (the recursive
    /// division; Algorithm D on the power without its zero digits) for the top level and
    /// powers below `DECIMAL_RECIPROCAL_LIMBS` (4096) digits, by one Newton reciprocal per
    /// power reused by every division by it (and the transforms of both) for the longer
    /// powers below the top; the quadratic chunk-by-chunk division below
    /// `DECIMAL_LEAF_LIMBS` (30) digits. 0.75–1.1 times GMP's `mpz_get_str` from 2^16 to
    /// 2^24 bits on Intel Xeon with AVX-512 IFMA, 1.0–1.4 with IFMA hidden
    /// (`decimal_vs_gmp`).
    /// Working memory: about 22 times the number's size, the digits included.
    pub fn to_decimal(&self) -> String {
        if self.len() <= DECIMAL_LEAF_LIMBS {
            return to_decimal_quadratic(self);
        }
        // Digits: bits·log10(2) < 0.302·bits.
        let mut out = Vec::with_capacity((self.bits() as usize / 10 * 3).saturating_add(2));
        let mut pows = WritePowers::new(self);
        let top = pows.top();
        write_level(self, top, 0, &mut pows, &mut out);
        String::from_utf8(out).expect("ASCII digits")
    }

    /// Lower-case hexadecimal digits of the number, without prefix.
    pub fn to_hex(&self) -> String {
        if self.is_zero() {
            return "0".into();
        }
        let per = (L::BITS / 4) as usize;
        let top = self.limbs().len() - 1;
        let mut s = format!("{:x}", self.limbs()[top].to_u64());
        for d in self.limbs()[..top].iter().rev() {
            s.push_str(&format!("{:0per$x}", d.to_u64()));
        }
        s
    }
}

/// The value of decimal digits (ASCII `0`–`9`, checked by the caller), one chunk of
/// [`decimal_chunk`] digits at a time: quadratic, for short numbers and the leaves of
/// [`parse_decimal`].
fn parse_decimal_quadratic<L: Limb>(bytes: &[u8]) -> Nat<L> {
    let (c, pow) = decimal_chunk::<L>();
    let mut limbs: Vec<L> = Vec::with_capacity(bytes.len() / c + 1);
    let head = bytes.len() % c;
    let mut start = 0;
    while start < bytes.len() {
        let end = if start == 0 && head != 0 { head } else { start + c };
        let v = chunk_value(&bytes[start..end]);
        let scale = if end - start == c { pow } else { 10u64.pow((end - start) as u32) };
        // limbs = limbs·scale + v (v < scale ≤ b, so it is a carry in).
        let top = kernels::mul_add_1_in_place(&mut limbs, L::from_u64(scale), L::from_u64(v));
        if !top.is_zero() {
            limbs.push(top);
        }
        start = end;
    }
    Nat::from_vec(limbs)
}

/// The value of at most 19 ASCII decimal digits: eight at a time in a 64-bit word (the
/// pairs, then the quadruples, then the eight combined by multiplications), the rest one
/// by one.
fn chunk_value(digits: &[u8]) -> u64 {
    debug_assert!(digits.len() <= 19);
    let mut v = 0u64;
    let mut eights = digits.chunks_exact(8);
    for eight in &mut eights {
        // Byte i holds the digit of weight 10^(7−i).
        let mut w =
            u64::from_le_bytes(eight.try_into().expect("eight bytes")) - 0x3030_3030_3030_3030;
        // Bytes 0, 2, 4, 6: the two-digit values of the pairs.
        w = (w * 10 + (w >> 8)) & 0x00ff_00ff_00ff_00ff;
        // Low half of bytes 0–1 and 4–5: the four-digit values.
        w = (w * 100 + (w >> 16)) & 0x0000_ffff_0000_ffff;
        w = (w & 0xffff) * 10_000 + (w >> 32);
        v = v * 100_000_000 + w;
    }
    for &d in eights.remainder() {
        v = v * 10 + u64::from(d - b'0');
    }
    v
}

/// Decimal digits of `n`, one chunk of [`decimal_chunk`] digits per division of the whole
/// number: quadratic, for short numbers and the leaves of [`write_level`].
fn to_decimal_quadratic<L: Limb>(n: &Nat<L>) -> String {
    let mut out = Vec::new();
    write_leaf(n, 0, &mut out);
    String::from_utf8(out).expect("ASCII digits")
}

/// Appends the decimal digits of `n` to `out` (ASCII), exactly `width` of them (leading
/// zeros) when `width > 0`, else without leading zeros ("0" for zero). 64-bit digits go
/// through [`leaf_chunks_u64`]; other digit types divide by `10^c` with
/// [`Limb::div_wide`].
fn write_leaf<L: Limb>(n: &Nat<L>, width: usize, out: &mut Vec<u8>) {
    let (c, pow) = decimal_chunk::<L>();
    let mut chunks = Vec::with_capacity(n.len() + 1);
    if L::BITS == 64 {
        let mut rest: Vec<u64> = n.limbs().iter().map(|d| d.to_u64()).collect();
        leaf_chunks_u64(&mut rest, &mut chunks);
    } else {
        let mut rest = n.limbs().to_vec();
        let d = L::from_u64(pow);
        while !rest.is_empty() {
            let mut r = L::ZERO;
            for digit in rest.iter_mut().rev() {
                let (q, rem) = L::div_wide(r, *digit, d);
                *digit = q;
                r = rem;
            }
            chunks.push(r.to_u64());
            while rest.last().is_some_and(|t| t.is_zero()) {
                rest.pop();
            }
        }
    }
    let Some((&top, low)) = chunks.split_last() else {
        // n = 0.
        let zeros = if width == 0 { 1 } else { width };
        out.resize(out.len() + zeros, b'0');
        return;
    };
    let top_digits = if top == 0 { 0 } else { top.ilog10() as usize + 1 };
    let digits = top_digits + c * low.len();
    out.resize(out.len() + width.saturating_sub(digits), b'0');
    let mut buf = [0u8; 20];
    put_digits(top, &mut buf[..top_digits]);
    out.extend_from_slice(&buf[..top_digits]);
    for &v in low.iter().rev() {
        put_digits(v, &mut buf[..c]);
        out.extend_from_slice(&buf[..c]);
    }
}

/// `10^19`, the largest power of ten below `2^64`; its top bit is set, so it is its own
/// normalized divisor.
const TEN_19: u64 = 10_000_000_000_000_000_000;

/// `⌊(2^128 − 1)/10^19⌋ − 2^64`: the reciprocal of [`TEN_19`] for [`div_ten_19`].
const TEN_19_INV: u64 = (u128::MAX / TEN_19 as u128 - (1u128 << 64)) as u64;

/// `((hi·2^64 + lo) div 10^19, … mod 10^19)` for `hi < 10^19`, by multiplication with the
/// precomputed reciprocal (Möller and Granlund, "Improved division by invariant integers",
/// 2011, Algorithm 4): no hardware division.
#[inline(always)]
fn div_ten_19(hi: u64, lo: u64) -> (u64, u64) {
    let p = (TEN_19_INV as u128) * (hi as u128) + (((hi as u128) + 1) << 64 | lo as u128);
    let (mut q, q0) = ((p >> 64) as u64, p as u64);
    let mut r = lo.wrapping_sub(q.wrapping_mul(TEN_19));
    if r > q0 {
        q = q.wrapping_sub(1);
        r = r.wrapping_add(TEN_19);
    }
    if r >= TEN_19 {
        q += 1;
        r -= TEN_19;
    }
    (q, r)
}

/// Base-`10^19` digits of the number in `rest` (64-bit digits, consumed), least significant
/// first, pushed to `chunks`: one pass of [`div_ten_19`] over the number per chunk.
fn leaf_chunks_u64(rest: &mut Vec<u64>, chunks: &mut Vec<u64>) {
    while rest.last().is_some_and(|t| *t == 0) {
        rest.pop();
    }
    while !rest.is_empty() {
        let mut r = 0u64;
        for digit in rest.iter_mut().rev() {
            let (q, rem) = div_ten_19(r, *digit);
            *digit = q;
            r = rem;
        }
        chunks.push(r);
        while rest.last().is_some_and(|t| *t == 0) {
            rest.pop();
        }
    }
}

/// Two decimal digits of every number below 100, for [`put_digits`].
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Writes the last `buf.len()` decimal digits of `v` (leading zeros included) into `buf`,
/// two digits per step.
#[inline]
fn put_digits(mut v: u64, buf: &mut [u8]) {
    let mut i = buf.len();
    while i >= 2 {
        let k = (v % 100) as usize * 2;
        v /= 100;
        buf[i - 2..i].copy_from_slice(&PAIRS[k..k + 2]);
        i -= 2;
    }
    if i == 1 {
        buf[0] = b'0' + (v % 10) as u8;
    }
}

/// Below this many digits (of any `L`) a number is written in decimal by the quadratic
/// chunk-by-chunk division, above it split by a power of ten. Measured (Sapphire Rapids,
/// 1024–32768-bit numbers, leaves of 8, 16, 30, 60, 120 digits): 30 to 60 equally fast,
/// 8 and 120 up to 20% slower; with the reciprocal division of the leaves (AMD EPYC,
/// 2^11–2^20 bits) 30 and 60 are still within the noise of each other.
pub const DECIMAL_LEAF_LIMBS: usize = 30;

/// Powers of at least this many digits, below the top level, divide by a Newton
/// reciprocal made once for the level and transforms prepared for it ([`Divisor`]);
/// shorter powers, and the top level's single division, by [`Nat::div_rem`] (Algorithm
/// D or the recursive division). Measured with `decimal_vs_gmp` (Intel Xeon, with and
/// without IFMA, 2^16–2^22 bits): 4096 wrote 2^16–2^18 bits 10–30% faster than 256, and
/// 1024 to 16384 were within the noise of each other from 2^20 bits.
pub const DECIMAL_RECIPROCAL_LIMBS: usize = 4096;

/// The same for parsing, in digits' worth of decimal digits: the quadratic parse is a
/// multiply-add pass per chunk, cheaper than the division of writing, so its leaves are
/// longer (the same measurement: 120 up to 20% faster than 30 from 4096 bits).
pub const PARSE_LEAF_LIMBS: usize = 120;

/// `10^(c·2^j)` for `j = 0, 1, …` (`c` the digits of [`decimal_chunk`]), squared up as
/// parsing needs them, each as `p·b^z` with its `z` zero digits stripped ([`strip_zeros`]).
struct Powers<L: Limb> {
    c: usize,
    pows: Vec<(Nat<L>, usize)>,
}

/// `n·b^z` as `(n', z')` with `n = n'·b^(z' − z)` and `n'` not divisible by `b`: the zero
/// digits of a power of ten (`10^w = 5^w·2^w` ends in `⌊w/BITS⌋` of them, about 30% of
/// its digits), which its products and divisions need not carry (as GMP's `powtab`).
fn strip_zeros<L: Limb>(n: Nat<L>, z: usize) -> (Nat<L>, usize) {
    let t = n.limbs().iter().take_while(|d| d.is_zero()).count();
    if t == 0 {
        return (n, z);
    }
    let mut v = n.into_limbs();
    v.drain(..t);
    (Nat::from_vec(v), z + t)
}

/// A power of ten as a divisor: the shift `s` that normalizes it, the power times `2^s`,
/// and that one's reciprocal `⌊b^(2n)/(10^w·2^s)⌋` ([`newton::reciprocal`]).
#[derive(Clone)]
struct Divisor<L: Limb> {
    shift: u64,
    normalized: Nat<L>,
    reciprocal: Nat<L>,
    /// For transform-sized divisors, the transforms of both ([`Prepared`]).
    prepared: Option<Prepared>,
}

/// The transforms of a [`Divisor`]'s reciprocal (linear, for `q̂ = ⌊q1·v/b^(n+1)⌋`) and of
/// the divisor itself (cyclic, of length at least `n + 2`, for the remainder, which is
/// below `3d < b^(n+1)` and so found from `y − q̂·d mod (b^K − 1)`): each division by the
/// power then transforms only its own operands, and its remainder product is half-length.
#[derive(Clone)]
struct Prepared {
    reciprocal: ntt::Transform,
    cyclic: ntt::Transform,
}

/// Divisor digits from which [`Prepared`] transforms are made: the product thresholds of
/// the transform.
fn prepared_from<L: Limb>() -> usize {
    if ntt::uses_ifma::<L>() {
        super::mul::NTT_IFMA_THRESHOLD
    } else if ntt::uses_fma::<L>() {
        super::mul::NTT_FMA_THRESHOLD
    } else {
        super::mul::NTT_THRESHOLD
    }
}

impl Prepared {
    /// `None` where the digits are not 64-bit or a transform cannot be made.
    fn new<L: Limb>(d: &Nat<L>, v: &Nat<L>) -> Option<Prepared> {
        if L::BITS != 64 || d.len() < prepared_from::<L>() {
            return None;
        }
        let n = d.len();
        let long = ntt::transform_len_at_least(2 * n + 1);
        let short = ntt::transform_len_at_least(n + 2);
        Some(Prepared {
            reciprocal: ntt::Transform::new(v.limbs(), long).ok()?,
            cyclic: ntt::Transform::new(d.limbs(), short).ok()?,
        })
    }

    /// [`newton::barrett_step`] on the transforms: `(y div d, y mod d)` for `y < b^(2n)`.
    fn barrett_step<L: Limb>(&self, y: &Nat<L>, d: &Nat<L>) -> Option<(Nat<L>, Nat<L>)> {
        let n = d.len();
        let mut buf = Vec::new();
        let q1 = &y.limbs()[(n - 1).min(y.len())..];
        let t = &self.reciprocal;
        let mut p = vec![L::ZERO; q1.len() + t.digits()];
        ntt::mul_prepared(&mut p, q1, t, &mut buf).ok()?;
        let mut q = Nat::from_limbs(&p[(n + 1).min(p.len())..]);
        let k = self.cyclic.len();
        let mut w = vec![L::ZERO; k];
        ntt::cyclic_mul_prepared(&mut w, q.limbs(), &self.cyclic, &mut buf).ok()?;
        let mut yk = vec![L::ZERO; k];
        ntt::fold_mod_bk1(&mut yk, y.limbs());
        let mut r = vec![L::ZERO; k];
        // r = y − q̂·d ∈ [0, 3d) ⊂ [0, b^K − 1): the residue is the remainder itself.
        ntt::sub_mod_bk1(&mut r, &yk, &w);
        let mut r = Nat::from_vec(r);
        let mut steps = 0u32;
        while r >= *d {
            r = &r - d;
            q = q.add(&Nat::one());
            steps += 1;
        }
        debug_assert!(steps <= 2, "barrett_step: {steps} corrections");
        Some((q, r))
    }
}

impl<L: Limb> Powers<L> {
    fn new() -> Self {
        Powers { c: decimal_chunk::<L>().0, pows: Vec::new() }
    }

    /// `10^w = p·b^z` with `w = c·2^j`, as `(p, z)`.
    fn get(&mut self, j: usize) -> (&Nat<L>, usize) {
        while self.pows.len() <= j {
            let next = match self.pows.last() {
                None => (Nat::from_u64(decimal_chunk::<L>().1), 0),
                Some((p, z)) => strip_zeros(p.sqr(), 2 * z),
            };
            self.pows.push(next);
        }
        let (p, z) = &self.pows[j];
        (p, *z)
    }
}

/// The powers of ten that [`Nat::to_decimal`] divides by, made for one number: with `T`
/// the number's length in chunks of `c` digits ([`decimal_chunk`]), the top level splits
/// at `t_top = ⌈T/2⌉` chunks and each level below at `t_(j−1) = ⌈t_j/2⌉`, so every
/// division is balanced (a `2t`-chunk number by a `t`-chunk power). Level `j`'s power
/// `10^(c·t_j)` is the square of the level below, divided by `10^c` when `t_j` is odd
/// (an exact one-digit division). Powers and their reciprocals are made on the first
/// division at their level, and kept for every other division there.
struct WritePowers<L: Limb> {
    c: usize,
    /// `t_j` for `j = 0, 1, …` (`t_0 = 1`).
    chunks: Vec<usize>,
    /// `10^(c·t_j)` as [`strip_zeros`] leaves it, made bottom-up as far as a division
    /// needed.
    pows: Vec<(Nat<L>, usize)>,
    /// For level `j`, made on its first division.
    divisors: Vec<Option<Divisor<L>>>,
}

impl<L: Limb> WritePowers<L> {
    /// The levels for `n` (at least one digit longer than a leaf).
    fn new(n: &Nat<L>) -> Self {
        let c = decimal_chunk::<L>().0;
        // Digits of n, rounded up: bits·log10(2) + 1, plus a margin for the float.
        let digits = (n.bits() as f64 * core::f64::consts::LOG10_2) as usize + 2;
        let mut t = digits.div_ceil(c).div_ceil(2);
        let mut chunks = vec![t];
        while t > 1 {
            t = t.div_ceil(2);
            chunks.push(t);
        }
        chunks.reverse();
        WritePowers { c, chunks, pows: Vec::new(), divisors: Vec::new() }
    }

    /// The top level: every number `n` it was made for is below `10^(2c·t_top)`.
    fn top(&self) -> usize {
        self.chunks.len() - 1
    }

    /// Digits of the low part at level `j`: `c·t_j`.
    fn width(&self, j: usize) -> usize {
        self.c * self.chunks[j]
    }

    /// `10^(c·t_j) = p·b^z` as `(p, z)` ([`strip_zeros`]).
    fn get(&mut self, j: usize) -> (&Nat<L>, usize) {
        while self.pows.len() <= j {
            let i = self.pows.len();
            let next = match self.pows.last() {
                // t_0 = 1.
                None => (Nat::from_u64(decimal_chunk::<L>().1), 0),
                Some((p, z)) if self.chunks[i] == 2 * self.chunks[i - 1] => {
                    strip_zeros(p.sqr(), 2 * z)
                }
                Some((p, z)) => {
                    // The square over 10^c: its zero digits are put back for the division.
                    let full = p.sqr().shl(2 * *z as u64 * u64::from(L::BITS));
                    strip_zeros(div_exact_limb(&full, L::from_u64(decimal_chunk::<L>().1)), 0)
                }
            };
            self.pows.push(next);
        }
        let (p, z) = &self.pows[j];
        (p, *z)
    }

    /// `(n div 10^w, n mod 10^w)`, `w = c·t_j`, for `n < 10^(2w)`; no division when
    /// `n < 10^w`. With `10^w = p·b^z`: `⌊n/b^z⌋` divided by `p` by [`Nat::div_rem`], its
    /// remainder followed by the low `z` digits of `n` — for the top level and powers below
    /// `DECIMAL_RECIPROCAL_LIMBS` digits; one Barrett step with the whole power's
    /// reciprocal (made on first use) for the others.
    fn div_rem(&mut self, n: &Nat<L>, j: usize) -> (Nat<L>, Nat<L>) {
        let top = j == self.top();
        let (p, z) = self.get(j);
        let (low, high) = n.limbs().split_at(z.min(n.len()));
        // n < p·b^z exactly when ⌊n/b^z⌋ < p.
        if high.len() < p.len()
            || (high.len() == p.len() && kernels::cmp_n(high, p.limbs()).is_lt())
        {
            return (Nat::zero(), n.clone());
        }
        if top || p.len() + z < DECIMAL_RECIPROCAL_LIMBS {
            let q_len = high.len() + 1 - p.len();
            let (q, r) = if q_len.min(p.len()) < super::div::DIV_RECURSIVE_THRESHOLD {
                // Algorithm D's n·m steps: fewer without the zero digits.
                let (q, r) = Nat::from_limbs(high).div_rem(p).expect("a power of ten is not zero");
                let mut r = r.into_limbs();
                r.splice(0..0, low.iter().copied());
                (q, Nat::from_vec(r))
            } else {
                // The recursive division wants the quotient no longer than the divisor.
                n.div_rem(&p.shl(z as u64 * u64::from(L::BITS)))
                    .expect("a power of ten is not zero")
            };
            if top {
                // The top level divides once: its power is not needed again.
                self.pows.truncate(j);
            }
            return (q, r);
        }
        if self.divisors.len() <= j {
            self.divisors.resize(j + 1, None);
        }
        if self.divisors[j].is_none() {
            let (p, z) = self.get(j);
            let top = p.limbs()[p.len() - 1];
            let s = u64::from(top.leading_zeros());
            let d = p.shl(z as u64 * u64::from(L::BITS) + s);
            let (v, _) = newton::reciprocal(&d, newton::RECIPROCAL_BASECASE);
            let prepared = Prepared::new(&d, &v);
            self.divisors[j] = Some(Divisor { shift: s, normalized: d, reciprocal: v, prepared });
        }
        let d = self.divisors[j].as_ref().expect("made just above");
        // n·2^s < 10^(2w)·2^s < d² < b^(2·len(d)): the bound of one Barrett step.
        let y = n.shl(d.shift);
        let (q, r) = d
            .prepared
            .as_ref()
            .and_then(|p| p.barrett_step(&y, &d.normalized))
            .unwrap_or_else(|| newton::barrett_step(&y, &d.normalized, &d.reciprocal));
        (q, r.shr(d.shift))
    }
}

/// `n / d` for a one-digit `d` that divides `n` exactly (the remainder is checked in debug
/// builds).
fn div_exact_limb<L: Limb>(n: &Nat<L>, d: L) -> Nat<L> {
    let mut limbs = n.limbs().to_vec();
    let mut r = L::ZERO;
    for digit in limbs.iter_mut().rev() {
        let (q, rem) = L::div_wide(r, *digit, d);
        *digit = q;
        r = rem;
    }
    debug_assert!(r.is_zero(), "not an exact division");
    Nat::from_vec(limbs)
}

/// Appends the decimal digits of `n < 10^(2w)`, `w = c·t_j` ([`WritePowers`]), to `out`:
/// exactly `width` of them (leading zeros) when `width > 0`, else without leading zeros.
/// `n = q·10^w + r` with `q, r < 10^w`, each written at level `j − 1` (`r` with exactly
/// `w` digits), down to leaves of [`DECIMAL_LEAF_LIMBS`] digits written by the quadratic
/// division.
fn write_level<L: Limb>(
    n: &Nat<L>,
    j: usize,
    width: usize,
    pows: &mut WritePowers<L>,
    out: &mut Vec<u8>,
) {
    if n.len() <= DECIMAL_LEAF_LIMBS || j == 0 {
        write_leaf(n, width, out);
        return;
    }
    let w = pows.width(j);
    let (q, r) = pows.div_rem(n, j);
    if width == 0 && q.is_zero() {
        // The leading part with nothing above the split: no leading "0".
        write_level(&r, j - 1, 0, pows, out);
        return;
    }
    write_level(&q, j - 1, width.saturating_sub(w), pows, out);
    write_level(&r, j - 1, w, pows, out);
}

/// The value of decimal digits (checked by the caller): divide and conquer, `hi·10^w + lo`
/// with `lo` the last `w = c·2^j` digits for the largest `j` with `2w` at most the length,
/// down to leaves of [`PARSE_LEAF_LIMBS`] digits' worth, which are converted by
/// [`parse_decimal_quadratic`]. `O(M(n) log n)`.
fn parse_decimal<L: Limb>(bytes: &[u8]) -> Nat<L> {
    fn rec<L: Limb>(bytes: &[u8], pows: &mut Powers<L>) -> Nat<L> {
        let leaf_digits = PARSE_LEAF_LIMBS * pows.c;
        if bytes.len() <= leaf_digits {
            return parse_decimal_quadratic(bytes);
        }
        let mut j = 0;
        while 2 * (pows.c << (j + 1)) <= bytes.len() {
            j += 1;
        }
        let w = pows.c << j;
        let (hi, lo) = bytes.split_at(bytes.len() - w);
        let (hi, lo) = (rec(hi, pows), rec(lo, pows));
        // hi·10^w + lo = hi·p·b^z + lo, with lo < 10^w: the product lands above the low z
        // digits of lo, and the rest of lo (at most p's length) is added to it.
        let (p, z) = pows.get(j);
        let (hi, lo) = (hi.limbs(), lo.limbs());
        let mut r = vec![L::ZERO; z + hi.len() + p.len()];
        super::mul::mul_slices(&mut r[z..], hi, p.limbs());
        let split = lo.len().min(z);
        r[..split].copy_from_slice(&lo[..split]);
        let carry = kernels::add_assign_slices(&mut r[z..], &lo[split..]);
        debug_assert!(!carry, "hi·10^w + lo has the product's length");
        Nat::from_vec(r)
    }
    rec(bytes, &mut Powers::new())
}

/// Keeps error messages one readable line even for huge inputs.
fn abbreviate(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let head: String = s.chars().take(MAX).collect();
        format!("{head}… ({} characters)", s.chars().count())
    }
}

/// Decimal (`"12345"`) or hexadecimal with a `0x` or `0X` prefix (`"0x3039"`). No sign,
/// no spaces, no separators.
impl<L: Limb> core::str::FromStr for Nat<L> {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        if let Some(rest) = s.strip_prefix('-') {
            if !rest.is_empty() {
                return Err(Error::Parse {
                    input: abbreviate(s),
                    reason: "negative numbers are not natural numbers".into(),
                });
            }
        }
        match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(hex) => Nat::from_str_radix(hex, 16),
            None => Nat::from_str_radix(s, 10),
        }
    }
}

impl<L: Limb> fmt::Display for Nat<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "", &self.to_decimal())
    }
}

impl<L: Limb> fmt::Debug for Nat<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<L: Limb> fmt::LowerHex for Nat<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "0x", &self.to_hex())
    }
}

#[cfg(test)]
mod conversion_tests {
    use super::*;
    use modred_testkit::SplitMix64;

    /// The eight-at-a-time chunk value against digit-by-digit, for every length a chunk
    /// has, with all-zeros, all-nines and random digits.
    #[test]
    fn chunk_values() {
        let mut rng = SplitMix64::new(0x51_4a_c8);
        for len in 0..=19usize {
            for shape in 0..3 {
                let digits: Vec<u8> = (0..len)
                    .map(|_| match shape {
                        0 => b'0',
                        1 => b'9',
                        _ => b'0' + rng.below_u64(10) as u8,
                    })
                    .collect();
                let expected = digits.iter().fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
                assert_eq!(chunk_value(&digits), expected, "{:?}", core::str::from_utf8(&digits));
            }
        }
    }

    /// Decimal chunks: the most digits below the digit base, for every digit type.
    #[test]
    fn decimal_chunks() {
        assert_eq!(decimal_chunk::<u8>(), (2, 100));
        assert_eq!(decimal_chunk::<u16>(), (4, 10_000));
        assert_eq!(decimal_chunk::<u32>(), (9, 1_000_000_000));
        assert_eq!(decimal_chunk::<u64>(), (19, 10_000_000_000_000_000_000));
    }

    /// Divide and conquer against the quadratic conversion, both ways, for every digit type,
    /// at lengths around the leaf size and its multiples, with runs of zero digits (the
    /// padding of the low halves) and all-nines.
    fn agree<L: Limb>(rng: &mut SplitMix64) {
        let c = decimal_chunk::<L>().0;
        let (leaf, parse_leaf) = (DECIMAL_LEAF_LIMBS * c, PARSE_LEAF_LIMBS * c);
        let lengths: &[usize] = if cfg!(miri) {
            &[1, leaf + 1, parse_leaf + 1]
        } else {
            &[
                1,
                2,
                c,
                leaf - 1,
                leaf,
                leaf + 1,
                2 * leaf + 3,
                parse_leaf,
                parse_leaf + 1,
                2 * parse_leaf + 5,
                17 * parse_leaf,
            ]
        };
        for &len in lengths {
            for shape in 0..4 {
                let digits: Vec<u8> = (0..len)
                    .map(|i| match shape {
                        0 => b'0' + rng.below_u64(10) as u8,
                        1 => b'9',
                        2 if i == 0 => b'1',
                        2 => b'0',
                        _ if i % (leaf / 2 + 1) < 3 => b'7',
                        _ => b'0',
                    })
                    .collect();
                let n: Nat<L> = parse_decimal(&digits);
                assert_eq!(n, parse_decimal_quadratic::<L>(&digits), "parse, {len} digits");
                let text = core::str::from_utf8(&digits).unwrap().trim_start_matches('0');
                let want = if text.is_empty() { "0" } else { text };
                assert_eq!(n.to_decimal(), want, "write, {len} digits, shape {shape}");
                assert_eq!(to_decimal_quadratic(&n), want);
            }
        }
        // Just above and below powers of ten of every level: quotients far below their
        // level's power (no leading zero may appear).
        let mut pows = Powers::<L>::new();
        let mut full = |j: usize| {
            let (p, z) = pows.get(j);
            p.shl(z as u64 * u64::from(L::BITS))
        };
        for j in 0..if cfg!(miri) { 5 } else { 10 } {
            let p = full(j);
            // The stripped power times its zero digits is 10^(c·2^j).
            let w = decimal_chunk::<L>().0 << j;
            let mut ten_w = alloc::string::String::from("1");
            ten_w.extend(core::iter::repeat_n('0', w));
            assert_eq!(to_decimal_quadratic(&p), ten_w, "power {j}");
            for n in [p.clone(), &p + &Nat::one(), &p - &Nat::one(), p.sqr(), &p.sqr() + &p] {
                assert_eq!(n.to_decimal(), to_decimal_quadratic(&n), "power {j}");
            }
            // A quotient longer than a leaf but below the next level's power (it divides to
            // zero there): 10^w·(10^(w/2) − 1) + 1.
            if j > 0 {
                let below = &full(j - 1) - &Nat::one();
                let n = &p.mul(&below) + &Nat::one();
                assert_eq!(n.to_decimal(), to_decimal_quadratic(&n), "below power {j}");
            }
        }
    }

    #[test]
    fn random_long_numbers_round_trip() {
        let mut rng = SplitMix64::new(0x10e6);
        let sizes: &[u64] = if cfg!(miri) { &[3000] } else { &[3000, 70_000, 330_000] };
        for &bits in sizes {
            let n = Nat::<u64>::from_vec(rng.below_pow2(bits));
            let text = n.to_decimal();
            assert_eq!(text, to_decimal_quadratic(&n), "{bits} bits");
            assert_eq!(parse_decimal::<u64>(text.as_bytes()), n);
        }
    }

    /// Long enough (17 500 digits) that the levels below the top divide by powers of at
    /// least `DECIMAL_RECIPROCAL_LIMBS` digits, by their prepared reciprocals.
    #[test]
    #[cfg_attr(any(debug_assertions, miri), ignore = "large: run with --release")]
    fn numbers_written_through_prepared_reciprocals_round_trip() {
        let mut rng = SplitMix64::new(0x10e7);
        let n = Nat::<u64>::from_vec(rng.digits(17_500));
        let mut pows = WritePowers::new(&n);
        let (p, z) = pows.get(pows.top() - 1);
        assert!(p.len() + z >= DECIMAL_RECIPROCAL_LIMBS);
        let text = n.to_decimal();
        assert_eq!(text, biguint(&n).to_string());
        assert_eq!(parse_decimal::<u64>(text.as_bytes()), n);
    }

    fn biguint(n: &Nat<u64>) -> num_bigint::BigUint {
        let words: Vec<u32> =
            n.limbs().iter().flat_map(|&w| [w as u32, (w >> 32) as u32]).collect();
        num_bigint::BigUint::new(words)
    }

    /// Writing and reading back against num-bigint's `to_string`: the leaf boundary, powers
    /// of ten and their neighbours, powers of two, runs of zero digits inside, and random
    /// lengths across the levels (odd and even chunk counts, the transform-prepared divisors
    /// from 64 digits on).
    #[test]
    fn writing_matches_bigint() {
        let mut rng = SplitMix64::new(0x5eed_0dec);
        let mut cases: Vec<Nat<u64>> = vec![Nat::zero(), Nat::one()];
        let leaf = DECIMAL_LEAF_LIMBS;
        let lengths: Vec<usize> = if cfg!(miri) {
            vec![leaf + 1, 2 * leaf + 1]
        } else {
            let mut l = vec![leaf - 1, leaf, leaf + 1, 2 * leaf, 2 * leaf + 1, 127, 128, 129];
            l.extend([130, 257, 500, 1000, 1023, 2049, 4100, 9000]);
            l
        };
        for &len in &lengths {
            cases.push(Nat::from_vec(rng.digits(len)));
            cases.push(Nat::from_vec(vec![u64::MAX; len]));
            // Zeros inside: a high digit, a low digit, nothing in between.
            let mut v = vec![0u64; len];
            v[0] = rng.next_u64();
            v[len - 1] = 1;
            cases.push(Nat::from_vec(v));
            cases.push(Nat::power_of_two(len as u64 * 64 - 1));
        }
        let ten = Nat::<u64>::from_u64(10);
        let ks: &[u64] = if cfg!(miri) { &[600] } else { &[570, 571, 1140, 5000, 20_013] };
        for &k in ks {
            let mut p = Nat::one();
            for _ in 0..k {
                p = p.mul(&ten);
            }
            cases.push(&p - &Nat::one());
            cases.push(&p + &Nat::one());
            // 10^k·(10^(k/3) + 7): zeros in the middle of the digits.
            let mut m = Nat::from_u64(1);
            for _ in 0..k / 3 {
                m = m.mul(&ten);
            }
            cases.push(p.mul(&m.add(&Nat::from_u64(7))));
            cases.push(p);
        }
        for n in &cases {
            let text = n.to_decimal();
            assert_eq!(text, biguint(n).to_string(), "{} digits of 64 bits", n.len());
            assert_eq!(&Nat::<u64>::from_str_radix(&text, 10).unwrap(), n);
        }
    }

    /// The reciprocal division by 10^19 against the hardware's, at the edges of its range.
    #[test]
    fn division_by_ten_19_matches_u128() {
        let mut rng = SplitMix64::new(19);
        let mut pairs = vec![(0, 0), (0, u64::MAX), (TEN_19 - 1, u64::MAX), (TEN_19 - 1, 0)];
        pairs.extend([(1, 0), (0, TEN_19), (0, TEN_19 - 1), (TEN_19 / 2, TEN_19 / 3)]);
        for _ in 0..if cfg!(miri) { 100 } else { 100_000 } {
            pairs.push((rng.below_u64(TEN_19), rng.next_u64()));
        }
        for (hi, lo) in pairs {
            let x = (hi as u128) << 64 | lo as u128;
            let want = ((x / TEN_19 as u128) as u64, (x % TEN_19 as u128) as u64);
            assert_eq!(div_ten_19(hi, lo), want, "{hi} {lo}");
        }
    }

    /// Leaves written to a width pad with zeros, and zero is all zeros.
    #[test]
    fn leaves_pad_to_their_width() {
        let mut out = Vec::new();
        write_leaf(&Nat::<u64>::from_u64(12345), 8, &mut out);
        write_leaf(&Nat::<u64>::zero(), 3, &mut out);
        write_leaf(&Nat::<u64>::from_u128(10u128.pow(19)), 21, &mut out);
        write_leaf(&Nat::<u16>::from_u64(907), 0, &mut out);
        assert_eq!(out, b"00012345000010000000000000000000907");
    }

    #[test]
    fn decimal_conversions_agree() {
        let mut rng = SplitMix64::new(0xdec);
        agree::<u8>(&mut rng);
        // Under Miri `u8` and `u64` digits only, as in nat's tests.
        if !cfg!(miri) {
            agree::<u16>(&mut rng);
            agree::<u32>(&mut rng);
        }
        agree::<u64>(&mut rng);
    }
}
