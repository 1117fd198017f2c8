//! The arithmetic of `reduce`, `mulmod`, `powm` and `batch` ([`modred::Modulus`], prepared
//! moduli cached) and of `opcount` ([`modred_research::opcount`]). `bench`, `tune`, `report`
//! and `algos` call the library directly.

use modred::exp::Method;
use modred::limb::OpCounts;
use modred::{Limits, Modulus, Operation};
use modred_research::opcount::Op;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hasher};

pub use modred::{Algorithm, Error};

/// The numbers of the command line: natural numbers in 64-bit digits.
pub type Number = modred::Nat<u64>;

/// How `pow_mod` walks the exponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// The library's default: a sliding window sized by the exponent's length.
    Sliding,
    /// A fixed 2^w-ary window (`w = 1` is binary square-and-multiply).
    Fixed(u32),
}

/// The most prepared moduli one engine keeps: beyond it the oldest make room, so a batch of
/// ever new small moduli cannot grow the cache without end.
pub const CACHE_LIMIT: usize = 1024;

/// The most bytes the prepared moduli one engine keeps may hold ([`Modulus::memory_bytes`]
/// and the key): 32 MiB holds the entry limit's worth of 2048-bit moduli (about 4 KiB each
/// by `auto`) or four 2-Mbit ones (about 8 MB each), and keeps a batch on a thread per core
/// at some hundred MiB. A modulus larger than this by itself is kept alone.
pub const CACHE_BYTES: usize = 32 << 20;

/// The key of a prepared modulus.
type Key = (Algorithm, Operation, Number);

/// The hash of the cache's keys: a multiply-rotate over 64-bit words from a random seed,
/// a few times cheaper than the default SipHash on a small modulus, where the lookup is a
/// visible part of a batch line that makes a new modulus. Keys that collide on purpose can
/// only slow the lookups of a cache of at most [`CACHE_LIMIT`] entries.
#[derive(Clone, Copy)]
pub struct KeyHash {
    seed: u64,
}

impl KeyHash {
    /// A hash with a seed from the standard library's random state.
    fn new() -> KeyHash {
        KeyHash { seed: std::collections::hash_map::RandomState::new().hash_one(0u64) }
    }
}

impl BuildHasher for KeyHash {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(self.seed)
    }
}

/// The state of a [`KeyHash`].
pub struct KeyHasher(u64);

impl KeyHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        // The table takes its bucket from the low bits: the product's high bits mixed down.
        let h = self.0;
        (h ^ (h >> 31)).wrapping_mul(0x94d0_49bb_1331_11eb) ^ (h >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.add(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last) ^ (rest.len() as u64) << 59);
        }
    }

    fn write_u8(&mut self, v: u8) {
        self.add(v as u64);
    }

    fn write_u32(&mut self, v: u32) {
        self.add(v as u64);
    }

    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }

    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
}

/// Prepared moduli by (algorithm, operation, modulus), bounded by entries and by bytes: a
/// new one evicts the oldest until both bounds hold (or it is alone).
pub struct ModulusCache {
    map: HashMap<Key, (Modulus, usize), KeyHash>,
    /// The keys in insertion order, oldest first.
    order: VecDeque<Key>,
    bytes: usize,
    max_entries: usize,
    max_bytes: usize,
}

impl ModulusCache {
    /// An empty cache of at most `max_entries` moduli and `max_bytes` bytes.
    pub fn new(max_entries: usize, max_bytes: usize) -> ModulusCache {
        ModulusCache {
            map: HashMap::with_hasher(KeyHash::new()),
            order: VecDeque::new(),
            bytes: 0,
            max_entries: max_entries.max(1),
            max_bytes,
        }
    }

    /// The bytes the cached moduli hold.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The number of cached moduli.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the cache is empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Drops every cached modulus.
    pub fn clear(&mut self) {
        self.map.clear();
        self.order.clear();
        self.bytes = 0;
    }

    /// The modulus under `key`, made by `make` when it is not cached (an error from `make`
    /// caches nothing).
    pub fn get_or_make(
        &mut self,
        key: Key,
        make: impl FnOnce() -> Result<Modulus, Error>,
    ) -> Result<&Modulus, Error> {
        if self.map.contains_key(&key) {
            return Ok(&self.map[&key].0);
        }
        let modulus = make()?;
        let size = modulus.memory_bytes() + key.2.len() * std::mem::size_of::<u64>();
        while !self.order.is_empty()
            && (self.map.len() >= self.max_entries || self.bytes + size > self.max_bytes)
        {
            let old = self.order.pop_front().expect("not empty");
            let (_, old_size) = self.map.remove(&old).expect("ordered keys are cached");
            self.bytes -= old_size;
        }
        self.bytes += size;
        self.order.push_back(key.clone());
        Ok(&self.map.entry(key).or_insert((modulus, size)).0)
    }
}

/// The most moduli [`Seen`] remembers.
const SEEN_LIMIT: usize = 4 * CACHE_LIMIT;

/// The moduli an engine has met, by a 64-bit hash, the oldest forgotten beyond
/// [`SEEN_LIMIT`]: the second use of a modulus prepares a context, the first need not. A
/// collision only makes a modulus prepared at its first use.
struct Seen {
    hashes: std::collections::HashSet<u64>,
    order: VecDeque<u64>,
    hash: KeyHash,
}

impl Seen {
    fn new() -> Seen {
        Seen { hashes: Default::default(), order: VecDeque::new(), hash: KeyHash::new() }
    }

    /// Whether `m` is met for the first time (remembering it).
    fn first(&mut self, m: &Number) -> bool {
        let h = self.hash.hash_one(m.limbs());
        if !self.hashes.insert(h) {
            return false;
        }
        if self.order.len() == SEEN_LIMIT {
            let old = self.order.pop_front().expect("full");
            self.hashes.remove(&old);
        }
        self.order.push_back(h);
        true
    }
}

/// Computes modulo prepared moduli, keeping them for repeated (algorithm, modulus) pairs
/// in a [`ModulusCache`] of [`CACHE_LIMIT`] entries and [`CACHE_BYTES`] bytes. Every
/// request is held to the engine's [`Limits`] (the library estimates its work and refuses
/// it at once above the limit: `--max-work`).
pub struct Engine {
    cache: ModulusCache,
    limits: Limits,
    seen: Seen,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(Limits::new())
    }
}

impl Engine {
    /// An engine with an empty cache, holding requests to `limits`.
    pub fn new(limits: Limits) -> Engine {
        Engine::with_cache(limits, CACHE_LIMIT, CACHE_BYTES)
    }

    /// An engine whose cache keeps at most `max_entries` moduli and `max_bytes` bytes.
    pub fn with_cache(limits: Limits, max_entries: usize, max_bytes: usize) -> Engine {
        Engine { cache: ModulusCache::new(max_entries, max_bytes), limits, seen: Seen::new() }
    }

    /// The cache of prepared moduli.
    pub fn cache(&self) -> &ModulusCache {
        &self.cache
    }

    /// Holds the next requests to `limits` (the prepared moduli kept for other limits are
    /// dropped).
    pub fn set_limits(&mut self, limits: Limits) {
        if limits != self.limits {
            self.cache.clear();
            self.limits = limits;
        }
    }

    /// The context for `m` with `algorithm` (`Auto`: the library's choice for `op`), from
    /// the cache or made now. Errors: a zero modulus, an algorithm that does not apply to
    /// `m`.
    fn modulus(
        &mut self,
        algorithm: Algorithm,
        op: Operation,
        m: &Number,
    ) -> Result<&Modulus, Error> {
        let limits = self.limits;
        self.cache.get_or_make((algorithm, op, m.clone()), || {
            Modulus::with_limits(algorithm, op, m, limits)
        })
    }

    /// Whether `op` modulo `m` by `algorithm` is answered without a context: `auto`, and
    /// the library's rule says a context would never repay itself
    /// ([`modred::engine::rule::context_never_pays`]), or not at a modulus's first use
    /// ([`modred::engine::rule::once_pays`]) and `m` is met for the first time.
    fn once(&mut self, algorithm: Algorithm, op: Operation, m: &Number) -> bool {
        use modred::engine::rule::{context_never_pays, once_pays};
        algorithm == Algorithm::Auto
            && (context_never_pays(op, m) || once_pays(op, m) && self.seen.first(m))
    }

    /// `x mod m`. `Auto` takes any `x`; a forced algorithm rejects an `x` beyond its input
    /// bound (Barrett: `x < b^(2k)`).
    pub fn reduce(&mut self, a: Algorithm, x: &Number, m: &Number) -> Result<Number, Error> {
        if self.once(a, Operation::Reduce, m) {
            return Modulus::reduce_once(x, m, self.limits);
        }
        self.modulus(a, Operation::Reduce, m)?.reduce(x)
    }

    /// `x·y mod m`, for any `x` and `y`.
    pub fn mul_mod(
        &mut self,
        a: Algorithm,
        x: &Number,
        y: &Number,
        m: &Number,
    ) -> Result<Number, Error> {
        if self.once(a, Operation::MulMod, m) {
            return Modulus::mul_mod_once(x, y, m, self.limits);
        }
        Ok(self.modulus(a, Operation::MulMod, m)?.mul_mod(x, y))
    }

    /// `b^e mod m`, for any `b`, walking `e` as `window` says.
    pub fn pow_mod(
        &mut self,
        a: Algorithm,
        b: &Number,
        e: &Number,
        m: &Number,
        window: Window,
    ) -> Result<Number, Error> {
        if window == Window::Sliding && self.once(a, Operation::PowMod, m) {
            return Modulus::pow_mod_once(b, e, m, self.limits);
        }
        let modulus = self.modulus(a, Operation::PowMod, m)?;
        let method = match window {
            Window::Sliding => return modulus.pow_mod_vartime(b, e),
            Window::Fixed(1) => Method::Binary,
            Window::Fixed(w) => Method::FixedWindow(w),
        };
        let r = modulus.pow_with_vartime(&modulus.residue(b), e, method)?;
        modulus.to_nat(&r)
    }
}

/// The message of a library error on the command line: the library's, and for a request
/// over a limit how to raise it.
pub fn message(e: &Error) -> String {
    match e {
        Error::TooMuchWork { .. } => format!("{e} (--max-work sets the limit)"),
        Error::TooMuchMemory { .. } => format!("{e} (--max-memory sets the limit)"),
        _ => e.to_string(),
    }
}

/// Parses a `--max-work` value: a whole number of digit operations, written out (`1000000`),
/// as a power of two (`2^40`) or with a decimal exponent (`1e12`), or `unlimited`.
pub fn parse_max_work(text: &str) -> Result<u64, String> {
    parse_amount(text).ok_or_else(|| {
        format!(
            "invalid --max-work '{}': expected a number of digit operations such as \
             68719476736, 2^36 or 1e11, or 'unlimited'",
            crate::fail::abbreviate(text)
        )
    })
}

/// Parses a `--max-memory` value: bytes as `--max-work` takes numbers, or with a binary
/// unit (`512MiB`, `2GiB`, `64KiB`), or `unlimited`.
pub fn parse_max_memory(text: &str) -> Result<u64, String> {
    let (number, unit) = match text.strip_suffix("iB") {
        Some(t) if t.ends_with(['K', 'M', 'G', 'T']) => {
            let unit = match &t[t.len() - 1..] {
                "K" => 1u64 << 10,
                "M" => 1 << 20,
                "G" => 1 << 30,
                _ => 1 << 40,
            };
            (&t[..t.len() - 1], unit)
        }
        _ => (text, 1),
    };
    parse_amount(number)
        .and_then(|n| if n == u64::MAX { Some(n) } else { n.checked_mul(unit) })
        .ok_or_else(|| {
            format!(
                "invalid --max-memory '{}': expected a number of bytes such as 1073741824, \
                 2^30, 1e9 or 1GiB, or 'unlimited'",
                crate::fail::abbreviate(text)
            )
        })
}

/// A whole number written out, as `2^N` or as `AeN`; `unlimited` is `u64::MAX`.
fn parse_amount(text: &str) -> Option<u64> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if text == "unlimited" {
        Some(u64::MAX)
    } else if let Some((base, exp)) = text.split_once('^') {
        match (base, exp.parse::<u32>()) {
            ("2", Ok(n)) if digits(exp) && n < 64 => Some(1u64 << n),
            _ => None,
        }
    } else if let Some((mantissa, exp)) = text.split_once(['e', 'E']) {
        match (mantissa.parse::<u64>(), exp.parse::<u32>()) {
            (Ok(a), Ok(n)) if digits(mantissa) && digits(exp) => {
                10u64.checked_pow(n).and_then(|p| p.checked_mul(a))
            }
            _ => None,
        }
    } else if digits(text) {
        text.parse::<u64>().ok()
    } else {
        None
    }
}

/// Counts the single-precision operations of one `op` ("reduce", "mulmod", "sqrmod") by
/// `algorithm` (not `Auto`) with a `bits`-bit modulus and `digit_bits`-bit digits.
pub fn op_count(
    algorithm: Algorithm,
    op: &str,
    bits: u32,
    digit_bits: u32,
) -> Result<OpCounts, Error> {
    modred_research::opcount::count(algorithm, op.parse::<Op>()?, bits, digit_bits)
}

/// [`op_count`] modulo `m`.
pub fn op_count_modulus(
    algorithm: Algorithm,
    op: &str,
    m: &Number,
    digit_bits: u32,
) -> Result<OpCounts, Error> {
    modred_research::opcount::count_modulus(algorithm, op.parse::<Op>()?, m, digit_bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_work_values() {
        let w = parse_max_work;
        assert_eq!(w("1000"), Ok(1000));
        assert_eq!(w("2^36"), Ok(1 << 36));
        assert_eq!(w("1e12"), Ok(1_000_000_000_000));
        assert_eq!(w("3E2"), Ok(300));
        assert_eq!(w("unlimited"), Ok(u64::MAX));
        assert_eq!(w("18446744073709551615"), Ok(u64::MAX));
        for bad in
            ["", "-1", "+5", "1.5e3", "2^64", "3^4", "2^-1", "1e20", "e5", "1e", "0x10", "many"]
        {
            assert!(w(bad).unwrap_err().starts_with("invalid --max-work"), "{bad}");
        }
    }

    /// A fixed odd modulus of `bits` bits from `seed` (a simple generator: the test needs
    /// distinct large moduli, not random ones).
    fn modulus_of(bits: usize, seed: u64) -> Number {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut digits: Vec<u64> = (0..bits / 64)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            })
            .collect();
        digits[0] |= 1;
        *digits.last_mut().unwrap() |= 1 << 63;
        Number::from_limbs(&digits)
    }

    #[test]
    fn the_cache_stays_within_its_bytes_and_answers_the_same() {
        // 1 MiB against moduli of 64 Kbit (transform sizes, some hundred KiB prepared each)
        // and 2 Kbit: the cache evicts by bytes long before the entry limit.
        const MAX: usize = 1 << 20;
        let mut engine = Engine::with_cache(Limits::new(), CACHE_LIMIT, MAX);
        let x = modulus_of(4096, 99);
        let mut largest = 0;
        for i in 0..40u64 {
            let bits = if i % 3 == 0 { 2048 } else { 65536 };
            let m = modulus_of(bits, i % 20);
            let got = engine.mul_mod(Algorithm::Auto, &x, &x, &m).unwrap();
            let fresh = Modulus::with_limits(Algorithm::Auto, Operation::MulMod, &m, Limits::new())
                .unwrap();
            assert_eq!(got, fresh.mul_mod(&x, &x), "modulus {i}");
            largest = largest.max(fresh.memory_bytes());
            let cache = engine.cache();
            assert!(cache.bytes() <= MAX || cache.len() == 1, "{} bytes", cache.bytes());
        }
        assert!(largest > 64 << 10, "the large moduli take {largest} bytes");
        assert!(engine.cache().len() > 1 && engine.cache().len() < 20);
    }

    #[test]
    fn a_modulus_over_the_byte_bound_is_kept_alone() {
        let mut engine = Engine::with_cache(Limits::new(), CACHE_LIMIT, 1 << 10);
        for seed in 0..3 {
            let m = modulus_of(65536, seed);
            // The second use prepares the modulus.
            for _ in 0..2 {
                engine.reduce(Algorithm::Auto, &Number::from_u64(5), &m).unwrap();
            }
            assert_eq!(engine.cache().len(), 1);
        }
        // The entry limit holds too.
        let mut engine = Engine::with_cache(Limits::new(), 4, CACHE_BYTES);
        for seed in 0..10 {
            for _ in 0..2 {
                let m = modulus_of(256, seed);
                engine.reduce(Algorithm::Auto, &Number::from_u64(5), &m).unwrap();
            }
            assert!(engine.cache().len() <= 4);
        }
    }

    #[test]
    fn a_modulus_met_once_is_not_prepared() {
        let mut engine = Engine::new(Limits::new());
        let x = modulus_of(4096, 98);
        for bits in [128, 2048, 65536] {
            let m = modulus_of(bits, 7);
            let want = Modulus::with_limits(Algorithm::Auto, Operation::MulMod, &m, Limits::new())
                .unwrap()
                .mul_mod(&x, &x);
            let before = engine.cache().len();
            // First use: a product and a division; second: a prepared context.
            assert_eq!(engine.mul_mod(Algorithm::Auto, &x, &x, &m).unwrap(), want);
            assert_eq!(engine.cache().len(), before, "{bits} bits");
            assert_eq!(engine.mul_mod(Algorithm::Auto, &x, &x, &m).unwrap(), want);
            assert_eq!(engine.cache().len(), before + 1, "{bits} bits");
            assert_eq!(engine.reduce(Algorithm::Auto, &x, &m).unwrap(), x.checked_rem(&m).unwrap());
            // A forced algorithm is prepared at once.
            let cached = engine.cache().len();
            engine.mul_mod(Algorithm::Barrett, &x, &x, &m).unwrap();
            assert_eq!(engine.cache().len(), cached + 1, "{bits} bits");
            // An exponentiation prepares only what it runs on at first and keeps nothing,
            // then a kept context; a fixed window always keeps one.
            let (e, m2) = (modulus_of(bits.min(2048), 11), modulus_of(bits, 8));
            let want = Modulus::with_limits(Algorithm::Auto, Operation::PowMod, &m2, Limits::new())
                .unwrap()
                .pow_mod_vartime(&x, &e)
                .unwrap();
            assert_eq!(
                engine.pow_mod(Algorithm::Auto, &x, &e, &m2, Window::Sliding),
                Ok(want.clone())
            );
            assert_eq!(engine.cache().len(), cached + 1, "{bits} bits");
            assert_eq!(
                engine.pow_mod(Algorithm::Auto, &x, &e, &m2, Window::Sliding),
                Ok(want.clone())
            );
            assert_eq!(engine.cache().len(), cached + 2, "{bits} bits");
            let m3 = modulus_of(bits, 12);
            engine.pow_mod(Algorithm::Auto, &x, &e, &m3, Window::Fixed(4)).unwrap();
            assert_eq!(engine.cache().len(), cached + 3, "{bits} bits");
        }
        // The one-use path holds requests to the same limits.
        let mut engine = Engine::new(Limits::new().with_max_work(1000));
        let m = modulus_of(65536, 9);
        assert!(matches!(
            engine.mul_mod(Algorithm::Auto, &x, &x, &m),
            Err(Error::TooMuchWork { .. })
        ));
        assert_eq!(
            engine.mul_mod(Algorithm::Auto, &x, &x, &Number::zero()),
            Err(Error::ZeroModulus)
        );
    }

    #[test]
    fn the_key_hash_tells_moduli_apart() {
        // Distinct keys that differ in one digit, in their length or in the algorithm
        // hash differently (a collision among these few would be a bug, not chance).
        let build = KeyHash::new();
        let mut seen = std::collections::HashSet::new();
        for digits in 1..5usize {
            for bit in 0..64 {
                let mut limbs = vec![1u64; digits];
                limbs[digits - 1] |= 1 << bit;
                for a in [Algorithm::Auto, Algorithm::Barrett] {
                    let key: Key = (a, Operation::PowMod, Number::from_limbs(&limbs));
                    assert!(seen.insert(build.hash_one(&key)), "{digits} digits, bit {bit}");
                }
            }
        }
        // The same key hashes the same, and bytes not a multiple of 8 are all counted.
        let m = Number::from_u64(1_000_003);
        assert_eq!(
            build.hash_one((Algorithm::Auto, Operation::Reduce, &m)),
            build.hash_one((Algorithm::Auto, Operation::Reduce, &m))
        );
        assert_ne!(build.hash_one([1u8, 0, 0]), build.hash_one([1u8, 0]));
    }

    #[test]
    fn max_memory_values() {
        let m = parse_max_memory;
        assert_eq!(m("1000"), Ok(1000));
        assert_eq!(m("2^30"), Ok(1 << 30));
        assert_eq!(m("64KiB"), Ok(64 << 10));
        assert_eq!(m("512MiB"), Ok(512 << 20));
        assert_eq!(m("2GiB"), Ok(2 << 30));
        assert_eq!(m("1TiB"), Ok(1 << 40));
        assert_eq!(m("unlimited"), Ok(u64::MAX));
        for bad in ["", "1GB", "1 GiB", "GiB", "-1MiB", "1.5GiB", "2^70", "99999999999TiB", "lots"]
        {
            assert!(m(bad).unwrap_err().starts_with("invalid --max-memory"), "{bad}");
        }
    }

    #[test]
    fn too_much_memory_says_how_to_raise_the_limit() {
        let mut engine = Engine::new(Limits::new().with_max_memory(1000));
        let m = Number::from_u64(1_000_003);
        let e = engine.pow_mod(Algorithm::Auto, &m, &m, &m, Window::Fixed(16)).unwrap_err();
        assert!(message(&e).ends_with("(--max-memory sets the limit)"), "{}", message(&e));
    }

    #[test]
    fn too_much_work_says_how_to_raise_the_limit() {
        let mut engine = Engine::new(Limits::new().with_max_work(10));
        let m = Number::from_u64(1_000_003);
        let e = engine.pow_mod(Algorithm::Auto, &m, &m, &m, Window::Sliding).unwrap_err();
        assert!(message(&e).ends_with("(--max-work sets the limit)"), "{}", message(&e));
        engine.set_limits(Limits::UNLIMITED);
        assert!(engine.pow_mod(Algorithm::Auto, &m, &m, &m, Window::Sliding).is_ok());
    }
}
