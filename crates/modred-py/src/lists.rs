//! The list forms: many exponentiations in one call, on every core (rayon) with the GIL
//! released. The arguments are converted while the GIL is held, the powers computed
//! without it, the answers converted back with it.

use crate::convert::{int_of, modulus_of, residue_of, to_int, value, Int};
use crate::errors::library_error;
use crate::{algorithm_of, limits_of, make_modulus};
use modred::modulus::limits::{DEFAULT_MAX_MEMORY, DEFAULT_MAX_WORK};
use modred::{Modulus, Nat, Operation};
use pyo3::exceptions::{PyValueError, PyZeroDivisionError};
use pyo3::prelude::*;
use pyo3::types::PyList;
use rayon::prelude::*;

/// The integers of an iterable, each converted as `int_of` (`what[i]` in messages).
fn ints_of(items: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Int>> {
    items.try_iter()?.enumerate().map(|(i, x)| int_of(&x?, &format!("{what}[{i}]"))).collect()
}

/// `x^e mod m` on the library's modulus, for a base and an exponent of any sign (`x`
/// stands for `x % m`; a negative `e` raises the inverse of `x`, `what` in the error when
/// there is none).
fn power(modulus: &Modulus, x: &Int, e: &Int, what: &str) -> PyResult<Nat> {
    let base = residue_of(modulus, x)?;
    value(modulus, &crate::convert::power(modulus, &base, e, what)?)
}

/// Runs `f` on a pool of `threads` threads, or on rayon's global pool (every core, or
/// `RAYON_NUM_THREADS`) when `threads` is `None`.
fn on_threads<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    match threads {
        None => Ok(f()),
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| PyValueError::new_err(format!("cannot start {n} threads: {e}")))?;
            Ok(pool.install(f))
        }
    }
}

/// `x^e mod m` for every `(x, e)` of `jobs` (non-negative exponents) through the library's
/// batch, which runs four at a time in the lanes of AVX2 registers where that pays
/// (`modred::batch`); the first error raises.
fn batch(modulus: &Modulus, jobs: &[(Nat, Nat)], threads: Option<usize>) -> PyResult<Vec<Nat>> {
    on_threads(threads, || modred::batch::pow_many_vartime(modulus, jobs))?
        .into_iter()
        .map(|r| r.map_err(library_error))
        .collect()
}

/// The answers as a Python list of `int`.
fn list_of<'py>(py: Python<'py>, values: &[Nat]) -> PyResult<Bound<'py, PyList>> {
    let items = values.iter().map(|v| to_int(py, v)).collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// ``[pow(b, e, m) for b in bases]``, on every core (``threads`` to choose) with the GIL
/// released; ``m`` prepared once; with ``e >= 0`` through the library's batch (four at a
/// time in the AVX2 lanes where that pays). Same arguments and errors as :func:`powmod`
/// (``max_work`` and ``max_memory`` bound each exponentiation).
#[pyfunction]
#[pyo3(signature = (bases, e, m, *, algo = "auto", threads = None, max_work = Some(DEFAULT_MAX_WORK), max_memory = Some(DEFAULT_MAX_MEMORY)))]
// The Python signature: each keyword argument is a parameter.
#[allow(clippy::too_many_arguments)]
pub fn powmod_base_list<'py>(
    py: Python<'py>,
    bases: &Bound<'py, PyAny>,
    e: &Bound<'py, PyAny>,
    m: &Bound<'py, PyAny>,
    algo: &str,
    threads: Option<usize>,
    max_work: Option<u64>,
    max_memory: Option<u64>,
) -> PyResult<Bound<'py, PyList>> {
    let bases = ints_of(bases, "bases")?;
    let e = int_of(e, "e")?;
    let m = modulus_of(m, "m")?;
    let algorithm = algorithm_of(algo)?;
    let out = py.detach(|| -> PyResult<Vec<Nat>> {
        let modulus =
            make_modulus(algorithm, Operation::PowMod, &m, limits_of(max_work, max_memory))
                .map_err(library_error)?;
        if !e.negative {
            let jobs = bases
                .iter()
                .map(|b| Ok((value(&modulus, &residue_of(&modulus, b)?)?, e.magnitude.clone())))
                .collect::<PyResult<Vec<_>>>()?;
            return batch(&modulus, &jobs, threads);
        }
        on_threads(threads, || {
            bases
                .par_iter()
                .enumerate()
                .with_max_len(1)
                .map(|(i, b)| power(&modulus, b, &e, &format!("bases[{i}]")))
                .collect()
        })?
    })?;
    list_of(py, &out)
}

/// ``[pow(b, e, m) for e in exps]``, on every core with the GIL released; ``m`` prepared
/// once; with every ``e >= 0`` through the library's batch. Same arguments and errors as
/// :func:`powmod`.
#[pyfunction]
#[pyo3(signature = (b, exps, m, *, algo = "auto", threads = None, max_work = Some(DEFAULT_MAX_WORK), max_memory = Some(DEFAULT_MAX_MEMORY)))]
// The Python signature: each keyword argument is a parameter.
#[allow(clippy::too_many_arguments)]
pub fn powmod_exp_list<'py>(
    py: Python<'py>,
    b: &Bound<'py, PyAny>,
    exps: &Bound<'py, PyAny>,
    m: &Bound<'py, PyAny>,
    algo: &str,
    threads: Option<usize>,
    max_work: Option<u64>,
    max_memory: Option<u64>,
) -> PyResult<Bound<'py, PyList>> {
    let b = int_of(b, "b")?;
    let exps = ints_of(exps, "exps")?;
    let m = modulus_of(m, "m")?;
    let algorithm = algorithm_of(algo)?;
    let out = py.detach(|| -> PyResult<Vec<Nat>> {
        let modulus =
            make_modulus(algorithm, Operation::PowMod, &m, limits_of(max_work, max_memory))
                .map_err(library_error)?;
        let base = residue_of(&modulus, &b)?;
        if exps.iter().all(|e| !e.negative) {
            let x = value(&modulus, &base)?;
            let jobs: Vec<(Nat, Nat)> =
                exps.iter().map(|e| (x.clone(), e.magnitude.clone())).collect();
            return batch(&modulus, &jobs, threads);
        }
        on_threads(threads, || {
            exps.par_iter()
                .with_max_len(1)
                .map(|e| value(&modulus, &crate::convert::power(&modulus, &base, e, "b")?))
                .collect()
        })?
    })?;
    list_of(py, &out)
}

/// ``[pow(b, e, m) for b, e, m in zip(bases, exps, moduli)]``: a modulus per job, each
/// prepared as :func:`powmod` would; on every core with the GIL released. The three
/// sequences must have the same length. Every argument is checked before any power is
/// computed: the first bad one raises, naming its index.
#[pyfunction]
#[pyo3(signature = (bases, exps, moduli, *, algo = "auto", threads = None, max_work = Some(DEFAULT_MAX_WORK), max_memory = Some(DEFAULT_MAX_MEMORY)))]
// The Python signature: each keyword argument is a parameter.
#[allow(clippy::too_many_arguments)]
pub fn powmod_many<'py>(
    py: Python<'py>,
    bases: &Bound<'py, PyAny>,
    exps: &Bound<'py, PyAny>,
    moduli: &Bound<'py, PyAny>,
    algo: &str,
    threads: Option<usize>,
    max_work: Option<u64>,
    max_memory: Option<u64>,
) -> PyResult<Bound<'py, PyList>> {
    let bases = ints_of(bases, "bases")?;
    let exps = ints_of(exps, "exps")?;
    let moduli = moduli
        .try_iter()?
        .enumerate()
        .map(|(i, m)| modulus_of(&m?, &format!("moduli[{i}]")))
        .collect::<PyResult<Vec<_>>>()?;
    if bases.len() != exps.len() || bases.len() != moduli.len() {
        return Err(PyValueError::new_err(format!(
            "bases, exps and moduli must have the same length, got {}, {} and {}",
            bases.len(),
            exps.len(),
            moduli.len()
        )));
    }
    let algorithm = algorithm_of(algo)?;
    let out = py.detach(|| {
        on_threads(threads, || {
            bases
                .par_iter()
                .zip(&exps)
                .zip(&moduli)
                .with_max_len(1)
                .enumerate()
                .map(|(i, ((b, e), m))| {
                    let modulus = make_modulus(
                        algorithm,
                        Operation::PowMod,
                        m,
                        limits_of(max_work, max_memory),
                    )
                    .map_err(|err| modulus_error(i, err))?;
                    power(&modulus, b, e, &format!("bases[{i}]"))
                })
                .collect::<PyResult<Vec<_>>>()
        })
    })??;
    list_of(py, &out)
}

/// The library's error for `moduli[i]`, the index in front of its message.
fn modulus_error(i: usize, err: modred::Error) -> PyErr {
    let message = format!("moduli[{i}]: {}", crate::errors::message(&err));
    match err {
        modred::Error::ZeroModulus => PyZeroDivisionError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}
