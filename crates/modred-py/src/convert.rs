//! Python integers to and from [`Nat`], through their little-endian bytes (`int.to_bytes`,
//! `int.from_bytes`: linear time, never a decimal string), with a direct path for values
//! of one machine word.

use crate::errors::library_error;
use modred::{Modulus, Nat};
use pyo3::exceptions::{PyTypeError, PyValueError, PyZeroDivisionError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt};
use pyo3::PyErr;

/// A Python integer as sign and magnitude.
pub struct Int {
    pub negative: bool,
    pub magnitude: Nat,
}

/// `obj` as an integer: an `int` (`bool` included, as Python's own arithmetic takes it) or
/// any object with `__index__` (numpy integers, for example); anything else, `float`
/// included, is a `TypeError` naming the argument `what`.
pub fn int_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Int> {
    let py = obj.py();
    let int = if obj.is_instance_of::<PyInt>() {
        obj.clone()
    } else if obj.hasattr(intern!(py, "__index__"))? {
        obj.call_method0(intern!(py, "__index__"))?
    } else {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an int, not {}",
            obj.get_type().name()?
        )));
    };
    let bits: u64 = int.call_method0(intern!(py, "bit_length"))?.extract()?;
    if bits < 64 {
        let v: i64 = int.extract()?;
        return Ok(Int { negative: v < 0, magnitude: Nat::from(v.unsigned_abs()) });
    }
    let negative = int.lt(0)?;
    let magnitude = if negative { int.neg()? } else { int };
    let bytes = magnitude
        .call_method1(intern!(py, "to_bytes"), (bits.div_ceil(8), intern!(py, "little")))?;
    let bytes = bytes.cast::<PyBytes>()?;
    Ok(Int { negative, magnitude: Nat::from_bytes_le(bytes.as_bytes()) })
}

/// `obj` as a non-negative integer (a secret exponent): a negative one is a `ValueError`.
pub fn natural_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Nat> {
    let x = int_of(obj, what)?;
    if x.negative {
        return Err(PyValueError::new_err(format!(
            "{what} must not be negative (the inverse would not be constant time)"
        )));
    }
    Ok(x.magnitude)
}

/// The `ValueError` of an argument `what` with no inverse (Python's own `pow` raises the
/// same). Made without the GIL (a lazy error).
pub fn not_invertible(what: &str) -> PyErr {
    PyValueError::new_err(format!("{what} is not invertible for the given modulus"))
}

/// The inverse of `r` modulo the modulus (variable time: Euclid); `ValueError` naming
/// `what` when there is none.
pub fn inverse(modulus: &Modulus, r: &modred::Residue, what: &str) -> PyResult<modred::Residue> {
    let v = modulus.to_nat(r).map_err(library_error)?;
    let inv = v.inverse_mod(modulus.modulus()).ok_or_else(|| not_invertible(what))?;
    Ok(modulus.residue(&inv))
}

/// `b^e` modulo the modulus for a residue `b` and an exponent of any sign, as Python's
/// `pow(b, e, m)`: a negative `e` raises the inverse of `b` (`what` in the error when
/// there is none) to `|e|`. Variable time.
pub fn power(
    modulus: &Modulus,
    b: &modred::Residue,
    e: &Int,
    what: &str,
) -> PyResult<modred::Residue> {
    let r = if e.negative {
        let inv = inverse(modulus, b, what)?;
        modulus.pow_vartime(&inv, &e.magnitude)
    } else {
        modulus.pow_vartime(b, &e.magnitude)
    };
    r.map_err(library_error)
}

/// The value of a residue of this modulus.
pub fn value(modulus: &Modulus, r: &modred::Residue) -> PyResult<Nat> {
    modulus.to_nat(r).map_err(library_error)
}

/// `obj` as a modulus: zero is a `ZeroDivisionError` (as `x % 0`), a negative one a
/// `ValueError`.
pub fn modulus_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Nat> {
    let m = int_of(obj, what)?;
    if m.magnitude.is_zero() {
        return Err(PyZeroDivisionError::new_err(format!("{what}: the modulus must not be zero")));
    }
    if m.negative {
        return Err(PyValueError::new_err(format!("{what}: the modulus must be positive")));
    }
    Ok(m.magnitude)
}

/// The residue of `x mod m` (`0..m`, as Python's `x % m`, for a negative `x` too).
pub fn residue_of(modulus: &Modulus, x: &Int) -> PyResult<modred::Residue> {
    let r = modulus.residue(&x.magnitude);
    if x.negative {
        modulus.neg(&r).map_err(library_error)
    } else {
        Ok(r)
    }
}

/// `x mod m` in `0..m`, as Python's `x % m`, by the modulus's one-off reduction (which a
/// forced algorithm may refuse for an `x` beyond its input bound: a `ValueError`).
pub fn reduce(modulus: &Modulus, x: &Int) -> PyResult<Nat> {
    let r = modulus.reduce(&x.magnitude).map_err(library_error)?;
    if x.negative && !r.is_zero() {
        return Ok(modulus.modulus() - &r);
    }
    Ok(r)
}

/// `n` as a Python `int`.
pub fn to_int<'py>(py: Python<'py>, n: &Nat) -> PyResult<Bound<'py, PyAny>> {
    if let Some(v) = n.to_u64() {
        return Ok(v.into_pyobject(py)?.into_any());
    }
    let limbs = n.limbs();
    let bytes = PyBytes::new_with(py, limbs.len() * 8, |buf| {
        for (chunk, limb) in buf.chunks_exact_mut(8).zip(limbs) {
            chunk.copy_from_slice(&limb.to_le_bytes());
        }
        Ok(())
    })?;
    py.get_type::<PyInt>().call_method1(intern!(py, "from_bytes"), (bytes, intern!(py, "little")))
}
