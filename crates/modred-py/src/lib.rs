//! `modred` for Python: modular reduction, multiplication and exponentiation on Python
//! `int`s, through the Rust library's engines (the algorithm and the code for this CPU
//! chosen per modulus). The Python-facing documentation is in the docstrings and in
//! `python/modred/__init__.pyi`.

mod convert;
mod errors;
mod lists;
mod modulus;

use convert::{
    int_of, inverse, modulus_of, power, reduce as reduce_int, residue_of, to_int, value,
};
use errors::library_error;
use modred::modulus::limits::{DEFAULT_MAX_MEMORY, DEFAULT_MAX_WORK};
use modred::{Algorithm, Limits, Modulus, Nat, Operation};
use pyo3::prelude::*;
use std::cell::RefCell;
use std::sync::Arc;

/// Operands of at least this many 64-bit digits (1024 bits) are worked on with the GIL
/// released: their work outlasts the release's cost (about a microsecond) many times over.
const DETACH_DIGITS: usize = 16;

/// The algorithm named `algo` (`ValueError` naming the known ones otherwise).
fn algorithm_of(algo: &str) -> PyResult<Algorithm> {
    algo.parse::<Algorithm>().map_err(library_error)
}

/// The limits of `max_work=` and `max_memory=`: at most that many digit operations and
/// bytes of working memory per request (the library's estimates; `docs/limits.md`),
/// `None` for no limit.
fn limits_of(max_work: Option<u64>, max_memory: Option<u64>) -> Limits {
    Limits::new()
        .with_max_work(max_work.unwrap_or(u64::MAX))
        .with_max_memory(max_memory.unwrap_or(u64::MAX))
}

/// The library's modulus context for `m`: the automatic choice for `op`, or the forced
/// algorithm, held to `limits`.
fn make_modulus(
    algorithm: Algorithm,
    op: Operation,
    m: &Nat,
    limits: Limits,
) -> Result<Modulus, modred::Error> {
    Modulus::with_limits(algorithm, op, m, limits)
}

/// Prepared moduli each thread keeps for the function forms: `powmod(b, e, m)` called again
/// with the same `m` (the common case) skips the preparation, which at 256 bits costs as
/// much as a third of the exponentiation.
const CACHED_MODULI: usize = 8;
/// Moduli up to this many digits (16384 bits) are kept: a prepared modulus holds a few
/// copies of `m` (IFMA and transform contexts more), so the cache stays below a few MiB
/// per thread; larger ones are prepared per call, a small cost beside their arithmetic.
const CACHED_MAX_DIGITS: usize = 256;

type CacheEntry = (Algorithm, Operation, Limits, Nat, Arc<Modulus>);

thread_local! {
    /// Most recently used first.
    static CACHE: RefCell<Vec<CacheEntry>> = const { RefCell::new(Vec::new()) };
}

/// The prepared modulus for (`algorithm`, `op`, `limits`, `m`), from this thread's cache or
/// made now.
fn cached_modulus(
    algorithm: Algorithm,
    op: Operation,
    limits: Limits,
    m: &Nat,
) -> Result<Arc<Modulus>, modred::Error> {
    if m.len() > CACHED_MAX_DIGITS {
        return make_modulus(algorithm, op, m, limits).map(Arc::new);
    }
    let hit = CACHE.with_borrow_mut(|cache| {
        let i = cache
            .iter()
            .position(|(a, o, l, n, _)| *a == algorithm && *o == op && *l == limits && n == m)?;
        let entry = cache.remove(i);
        let modulus = entry.4.clone();
        cache.insert(0, entry);
        Some(modulus)
    });
    if let Some(modulus) = hit {
        return Ok(modulus);
    }
    let modulus = Arc::new(make_modulus(algorithm, op, m, limits)?);
    CACHE.with_borrow_mut(|cache| {
        cache.truncate(CACHED_MODULI - 1);
        cache.insert(0, (algorithm, op, limits, m.clone(), modulus.clone()));
    });
    Ok(modulus)
}

/// `f()`, with the GIL released when `release` (a large operand).
fn detach_if<T: Send>(py: Python<'_>, release: bool, f: impl FnOnce() -> T + Send) -> T {
    if release {
        py.detach(f)
    } else {
        f()
    }
}

/// ``pow(b, e, m)``: ``b**e % m`` for ``int`` arguments, ``m > 0``, ``b`` and ``e`` of any
/// sign (a negative ``e`` raises the inverse of ``b``, as Python's ``pow`` does). ``algo``
/// forces an algorithm (``modred.algorithms()``); ``"auto"`` picks the fastest for ``m`` on
/// this CPU. Variable time (public exponents; ``Modulus.pow_ct`` for secrets).
///
/// ``max_work`` bounds the estimated work of the call in digit operations (about a
/// nanosecond each; default ``2**36``, tens of seconds): a call estimated above it raises
/// ``ValueError`` at once, naming the estimate. ``max_work=None`` lifts the limit.
/// ``max_memory`` bounds its working memory in bytes (tables, scratch, transforms; default
/// ``2**30``) the same way; ``max_memory=None`` lifts it. Memory the system refuses all
/// the same raises ``MemoryError``.
///
/// Raises ``ZeroDivisionError`` for ``m == 0``; ``ValueError`` for a negative ``m``, a
/// negative ``e`` with a base that has no inverse, an unknown algorithm or one that does
/// not apply to ``m``, a call over ``max_work`` or ``max_memory``; ``TypeError`` for an argument that is not
/// an integer.
#[pyfunction]
#[pyo3(signature = (b, e, m, *, algo = "auto", max_work = Some(DEFAULT_MAX_WORK), max_memory = Some(DEFAULT_MAX_MEMORY)))]
fn powmod<'py>(
    py: Python<'py>,
    b: &Bound<'py, PyAny>,
    e: &Bound<'py, PyAny>,
    m: &Bound<'py, PyAny>,
    algo: &str,
    max_work: Option<u64>,
    max_memory: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let b = int_of(b, "b")?;
    let e = int_of(e, "e")?;
    let m = modulus_of(m, "m")?;
    let algorithm = algorithm_of(algo)?;
    let release = m.len() >= DETACH_DIGITS / 4 || e.magnitude.len() >= DETACH_DIGITS;
    let r = detach_if(py, release, || -> PyResult<Nat> {
        let modulus =
            cached_modulus(algorithm, Operation::PowMod, limits_of(max_work, max_memory), &m)
                .map_err(library_error)?;
        let base = residue_of(&modulus, &b)?;
        value(&modulus, &power(&modulus, &base, &e, "base")?)
    })?;
    to_int(py, &r)
}

/// The inverse of ``x`` modulo ``m > 0``: the ``y`` in ``0..m`` with ``x * y % m == 1``
/// (``pow(x, -1, m)``). Raises ``ValueError`` when ``x`` and ``m`` share a factor;
/// otherwise as :func:`powmod`. Euclid's algorithm, variable time.
#[pyfunction]
fn invert<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    m: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let x = int_of(x, "x")?;
    let m = modulus_of(m, "m")?;
    let r = detach_if(py, m.len() >= DETACH_DIGITS, || -> PyResult<Nat> {
        let modulus = cached_modulus(Algorithm::Auto, Operation::MulMod, Limits::new(), &m)
            .map_err(library_error)?;
        let inv = inverse(&modulus, &residue_of(&modulus, &x)?, "x")?;
        value(&modulus, &inv)
    })?;
    to_int(py, &r)
}

/// ``a * b % m`` for ``int`` arguments (any sign), ``m > 0``. Errors as :func:`powmod`.
#[pyfunction]
#[pyo3(signature = (a, b, m, *, algo = "auto", max_work = Some(DEFAULT_MAX_WORK), max_memory = Some(DEFAULT_MAX_MEMORY)))]
fn mulmod<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    m: &Bound<'py, PyAny>,
    algo: &str,
    max_work: Option<u64>,
    max_memory: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let a = int_of(a, "a")?;
    let b = int_of(b, "b")?;
    let m = modulus_of(m, "m")?;
    let algorithm = algorithm_of(algo)?;
    let r = detach_if(py, m.len() >= DETACH_DIGITS, || -> PyResult<Nat> {
        let modulus =
            cached_modulus(algorithm, Operation::MulMod, limits_of(max_work, max_memory), &m)
                .map_err(library_error)?;
        let (a, b) = (residue_of(&modulus, &a)?, residue_of(&modulus, &b)?);
        value(&modulus, &modulus.mul(&a, &b).map_err(library_error)?)
    })?;
    to_int(py, &r)
}

/// ``x % m`` for an ``int`` ``x`` (any sign) and ``m > 0``, as a one-off reduction. A
/// forced algorithm refuses an ``x`` beyond its input bound (``ValueError``; Barrett:
/// ``x < 2**(128*k)`` for a ``k``-digit ``m``); ``"auto"`` takes every ``x``. Errors as
/// :func:`powmod`.
#[pyfunction]
#[pyo3(signature = (x, m, *, algo = "auto", max_work = Some(DEFAULT_MAX_WORK), max_memory = Some(DEFAULT_MAX_MEMORY)))]
fn reduce<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    m: &Bound<'py, PyAny>,
    algo: &str,
    max_work: Option<u64>,
    max_memory: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let x = int_of(x, "x")?;
    let m = modulus_of(m, "m")?;
    let algorithm = algorithm_of(algo)?;
    let r = detach_if(py, x.magnitude.len() >= DETACH_DIGITS, || -> PyResult<Nat> {
        let modulus =
            cached_modulus(algorithm, Operation::Reduce, limits_of(max_work, max_memory), &m)
                .map_err(library_error)?;
        reduce_int(&modulus, &x)
    })?;
    to_int(py, &r)
}

/// Whether ``n`` is prime: Miller–Rabin, a proof below ``2**64`` (the first 12 prime
/// bases), above it 12 + 20 bases (a composite passes with probability below ``4**-32``).
/// Negative numbers, 0 and 1 are not prime.
#[pyfunction]
fn is_probable_prime(py: Python<'_>, n: &Bound<'_, PyAny>) -> PyResult<bool> {
    let n = int_of(n, "n")?;
    if n.negative {
        return Ok(false);
    }
    let big = n.magnitude.len() >= DETACH_DIGITS / 4;
    Ok(detach_if(py, big, || modred_research::primes::is_probable_prime(&n.magnitude)))
}

/// The names ``algo=`` takes, ``"auto"`` first.
#[pyfunction]
fn algorithms() -> Vec<&'static str> {
    Algorithm::ALL.iter().map(|a| a.name()).collect()
}

/// The CPU features the library's CPU-specific code uses on this CPU (``bmi2+adx``,
/// ``avx2+fma``, ``avx512ifma``, ``avx512vbmi``); empty where only portable code runs.
#[pyfunction]
fn cpu_features() -> Vec<&'static str> {
    modred::cpu_features()
}

#[pymodule]
fn _modred(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(powmod, m)?)?;
    m.add_function(wrap_pyfunction!(mulmod, m)?)?;
    m.add_function(wrap_pyfunction!(reduce, m)?)?;
    m.add_function(wrap_pyfunction!(invert, m)?)?;
    m.add_function(wrap_pyfunction!(is_probable_prime, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(cpu_features, m)?)?;
    m.add_function(wrap_pyfunction!(lists::powmod_base_list, m)?)?;
    m.add_function(wrap_pyfunction!(lists::powmod_exp_list, m)?)?;
    m.add_function(wrap_pyfunction!(lists::powmod_many, m)?)?;
    m.add_class::<modulus::PyModulus>()?;
    m.add_class::<modulus::PyResidue>()?;
    Ok(())
}
