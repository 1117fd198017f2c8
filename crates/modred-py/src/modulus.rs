//! `modred.Modulus` and `modred.Residue`: one prepared modulus (the library's
//! [`modred::Modulus`], its engine chosen once) and the residues that belong to it.

use crate::convert::{
    int_of, inverse, modulus_of, natural_of, power, reduce, residue_of, to_int, value as value_of,
};
use crate::errors::library_error;
use crate::{algorithm_of, detach_if, limits_of};
use modred::modulus::limits::{DEFAULT_MAX_MEMORY, DEFAULT_MAX_WORK};
use modred::{Algorithm, Nat};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::PyTuple;
use std::hash::{Hash, Hasher};

/// Arithmetic modulo one positive integer ``m``, through one engine chosen once.
///
/// ``Modulus(m, algo="auto", max_work=2**36, max_memory=2**30)`` analyses ``m`` (size, odd
/// or even, special form) and picks the algorithm and the code that runs on this CPU;
/// ``algo`` forces one of ``modred.algorithms()``; ``max_work`` bounds each request's
/// estimated work in digit operations (about a nanosecond each; ``None``: no bound) and
/// ``max_memory`` its working memory in bytes, a request over either raising
/// ``ValueError`` before it starts. The methods take ``int`` arguments (any sign: ``x`` stands for
/// ``x % m``) and return ``int``; given a :class:`Residue` of this modulus they return
/// a ``Residue``, which stays in the engine's representation between operations.
///
/// Raises ``ZeroDivisionError`` for ``m == 0``, ``ValueError`` for a negative ``m``, an
/// unknown algorithm or one that does not apply to ``m`` (Montgomery with an even ``m``),
/// an ``m`` whose one product is over ``max_work`` or ``max_memory``. Immutable and safe to share between threads.
#[pyclass(frozen, module = "modred", name = "Modulus")]
pub struct PyModulus {
    pub(crate) inner: modred::Modulus,
    /// The `algo` it was made with (`auto`, or the forced name), for `repr` and pickling.
    requested: Algorithm,
    /// The `max_work` it was made with, for `repr` and pickling.
    max_work: Option<u64>,
    /// The `max_memory` it was made with, for `repr` and pickling.
    max_memory: Option<u64>,
}

/// An element of ``Z/mZ`` made by one :class:`Modulus` (``Modulus.residue(x)``), held in
/// that modulus's representation. ``+ - * **`` and unary ``-`` work between residues of the
/// same ``Modulus`` object and with ``int`` s; a residue of another ``Modulus`` object is a
/// ``ValueError`` (even for an equal modulus), never a wrong answer. ``int(r)`` is its value
/// in ``0..m``.
#[pyclass(frozen, module = "modred", name = "Residue")]
pub struct PyResidue {
    owner: Py<PyModulus>,
    value: modred::Residue,
}

/// An operand of a modulus's method: an `int` made into a residue, or a residue of this
/// modulus; `true` when it was a residue (the result is then one too).
fn operand(
    owner: &Bound<'_, PyModulus>,
    obj: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<(modred::Residue, bool)> {
    if let Ok(r) = obj.cast::<PyResidue>() {
        let r = r.get();
        if !r.owner.is(owner) {
            return Err(PyValueError::new_err(format!(
                "{what} is a residue of another Modulus object; convert it with int() first"
            )));
        }
        return Ok((r.value.clone(), true));
    }
    let x = int_of(obj, what)?;
    Ok((residue_of(&owner.get().inner, &x)?, false))
}

/// The result of a modulus's method: a residue when an operand was one, else an `int`.
fn answer<'py>(
    owner: &Bound<'py, PyModulus>,
    value: modred::Residue,
    as_residue: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = owner.py();
    if as_residue {
        Ok(Bound::new(py, PyResidue { owner: owner.clone().unbind(), value })?.into_any())
    } else {
        to_int(py, &value_of(&owner.get().inner, &value)?)
    }
}

#[pymethods]
impl PyModulus {
    #[new]
    #[pyo3(signature = (m, algo = "auto", max_work = Some(DEFAULT_MAX_WORK), max_memory = Some(DEFAULT_MAX_MEMORY)))]
    fn new(
        py: Python<'_>,
        m: &Bound<'_, PyAny>,
        algo: &str,
        max_work: Option<u64>,
        max_memory: Option<u64>,
    ) -> PyResult<Self> {
        let m = modulus_of(m, "m")?;
        let requested = algorithm_of(algo)?;
        let limits = limits_of(max_work, max_memory);
        let inner = detach_if(py, m.len() >= crate::DETACH_DIGITS, || {
            modred::Modulus::with_limits(requested, modred::Operation::PowMod, &m, limits)
        })
        .map_err(library_error)?;
        Ok(PyModulus { inner, requested, max_work, max_memory })
    }

    /// The work limit of each request, in digit operations (``None``: no limit).
    #[getter]
    fn max_work(&self) -> Option<u64> {
        self.max_work
    }

    /// The memory limit of each request, in bytes of working memory (``None``: no limit).
    #[getter]
    fn max_memory(&self) -> Option<u64> {
        self.max_memory
    }

    /// The modulus ``m`` as an ``int``.
    #[getter]
    fn modulus<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_int(py, self.inner.modulus())
    }

    /// The number of bits of ``m``.
    #[getter]
    fn bits(&self) -> u64 {
        self.inner.modulus().bits()
    }

    /// The name of the algorithm that runs (the one ``auto`` chose, or the forced one).
    #[getter]
    fn algorithm(&self) -> &'static str {
        self.inner.algorithm().name()
    }

    /// What runs and why: the form of ``m``, the CPU features used, what ``auto`` picks for
    /// each operation with its reason and code, every algorithm that applies to ``m`` (the
    /// text of ``modred algos M``), then this object's own plan.
    fn explain(&self) -> PyResult<String> {
        let mut text = modred::modulus::analysis(self.inner.modulus()).map_err(library_error)?;
        text.push_str(&format!(
            "\nthis Modulus ({}): {}\n",
            if self.inner.is_auto() { "auto" } else { "forced" },
            self.inner.plan()
        ));
        Ok(text)
    }

    /// ``x % m`` for any ``int`` ``x`` (negative too), as a one-off reduction.
    fn reduce<'py>(&self, py: Python<'py>, x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let x = int_of(x, "x")?;
        let r =
            detach_if(py, x.magnitude.len() >= crate::DETACH_DIGITS, || reduce(&self.inner, &x))?;
        to_int(py, &r)
    }

    /// ``x`` as a :class:`Residue` of this modulus (``x % m`` for any ``int``).
    fn residue<'py>(slf: &Bound<'py, Self>, x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let x = int_of(x, "x")?;
        answer(slf, residue_of(&slf.get().inner, &x)?, true)
    }

    /// ``a * b % m``.
    fn mul<'py>(
        slf: &Bound<'py, Self>,
        a: &Bound<'py, PyAny>,
        b: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (a, ra) = operand(slf, a, "a")?;
        let (b, rb) = operand(slf, b, "b")?;
        let md = &slf.get().inner;
        let out = detach_if(slf.py(), a.limbs().len() >= crate::DETACH_DIGITS, || md.mul(&a, &b));
        answer(slf, out.map_err(library_error)?, ra || rb)
    }

    /// ``a * a % m``.
    fn sqr<'py>(slf: &Bound<'py, Self>, a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (a, ra) = operand(slf, a, "a")?;
        let md = &slf.get().inner;
        let out = detach_if(slf.py(), a.limbs().len() >= crate::DETACH_DIGITS, || md.sqr(&a));
        answer(slf, out.map_err(library_error)?, ra)
    }

    /// ``pow(b, e, m)`` for an ``int`` exponent of any sign (a negative one raises the
    /// inverse of ``b``; ``ValueError`` when there is none), in variable time (it leaks
    /// ``e``: public exponents only; :meth:`pow_ct` for secret ones).
    fn pow<'py>(
        slf: &Bound<'py, Self>,
        b: &Bound<'py, PyAny>,
        e: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (b, rb) = operand(slf, b, "b")?;
        let e = int_of(e, "e")?;
        let md = &slf.get().inner;
        let out = slf.py().detach(|| power(md, &b, &e, "base"))?;
        answer(slf, out, rb)
    }

    /// The inverse of ``x`` modulo ``m`` (``pow(x, -1, m)``): an ``int`` for an ``int``, a
    /// ``Residue`` for a residue. ``ValueError`` when ``x`` and ``m`` share a factor.
    /// Euclid's algorithm: variable time.
    fn inverse<'py>(slf: &Bound<'py, Self>, x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (x, rx) = operand(slf, x, "x")?;
        let md = &slf.get().inner;
        let out = inverse(md, &x, "x")?;
        answer(slf, out, rx)
    }

    /// ``pow(b, e, m)`` in constant time for a secret base and exponent: the time depends
    /// only on the size of ``m`` (the exponent is read as exactly as many bits as ``m``'s
    /// 64-bit digits hold). Odd moduli only; ``0 <= e < 2**(64*k)`` for a ``k``-digit ``m``.
    /// Python's own ``int`` objects are not constant time: the conversion of ``b`` and ``e``
    /// into the library is not covered.
    fn pow_ct<'py>(
        slf: &Bound<'py, Self>,
        b: &Bound<'py, PyAny>,
        e: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (b, rb) = operand(slf, b, "b")?;
        let e = natural_of(e, "e")?;
        let md = &slf.get().inner;
        let out = slf.py().detach(|| md.pow_ct(&b, &e)).map_err(library_error)?;
        answer(slf, out, rb)
    }

    fn __repr__(&self) -> String {
        let mut limit = match self.max_work {
            Some(DEFAULT_MAX_WORK) => String::new(),
            Some(w) => format!(", max_work={w}"),
            None => ", max_work=None".to_string(),
        };
        match self.max_memory {
            Some(DEFAULT_MAX_MEMORY) => {}
            Some(b) => limit.push_str(&format!(", max_memory={b}")),
            None => limit.push_str(", max_memory=None"),
        }
        format!(
            "Modulus({}, algo='{}'{limit})",
            hex_or_decimal(self.inner.modulus()),
            self.requested.name()
        )
    }

    /// Pickling (Dask, multiprocessing): made again from ``m``, ``algo`` and the limits on
    /// the other side.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.get();
        let args = (
            to_int(py, this.inner.modulus())?,
            this.requested.name(),
            this.max_work,
            this.max_memory,
        );
        (py.get_type::<PyModulus>(), args).into_pyobject(py)
    }
}

/// `m` for a `repr`: decimal up to 64 bits, else hexadecimal.
fn hex_or_decimal(m: &Nat) -> String {
    match m.to_u64() {
        Some(v) => v.to_string(),
        None => format!("0x{}", m.to_hex()),
    }
}

impl PyResidue {
    fn modulus(&self) -> &modred::Modulus {
        &self.owner.get().inner
    }

    /// The value in `0..m`.
    fn value(&self) -> PyResult<Nat> {
        value_of(self.modulus(), &self.value)
    }

    /// Applies `f` to this residue and `other` (a residue of the same modulus or an `int`).
    fn binary<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
        f: impl FnOnce(
            &modred::Modulus,
            &modred::Residue,
            &modred::Residue,
        ) -> Result<modred::Residue, modred::Error>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let this = slf.get();
        let owner = this.owner.bind(slf.py());
        let (other, _) = operand(owner, other, "the other operand")?;
        answer(owner, f(this.modulus(), &this.value, &other).map_err(library_error)?, true)
    }
}

#[pymethods]
impl PyResidue {
    /// The :class:`Modulus` this residue belongs to.
    #[getter(modulus)]
    fn owner(&self, py: Python<'_>) -> Py<PyModulus> {
        self.owner.clone_ref(py)
    }

    fn __int__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_int(py, &self.value()?)
    }

    fn __bool__(&self) -> PyResult<bool> {
        Ok(!self.value()?.is_zero())
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!(
            "Residue({}, mod {})",
            self.value()?.to_decimal(),
            hex_or_decimal(self.modulus().modulus())
        ))
    }

    fn __str__(&self) -> PyResult<String> {
        Ok(self.value()?.to_decimal())
    }

    /// Equal to a residue of the same ``Modulus`` object with the same value; never to an
    /// ``int`` (compare ``int(r)``) or to a residue of another ``Modulus``.
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let equal = match other.cast::<PyResidue>() {
            Ok(o) => o.get().owner.is(&self.owner) && o.get().value == self.value,
            Err(_) => return Ok(py.NotImplemented()),
        };
        match op {
            CompareOp::Eq => Ok(equal.into_pyobject(py)?.to_owned().into_any().unbind()),
            CompareOp::Ne => Ok((!equal).into_pyobject(py)?.to_owned().into_any().unbind()),
            _ => Err(PyTypeError::new_err("residues are not ordered")),
        }
    }

    fn __hash__(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.owner.as_ptr().hash(&mut h);
        self.value.hash(&mut h);
        h.finish()
    }

    fn __add__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Self::binary(slf, other, |m, a, b| m.add(a, b))
    }

    fn __radd__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Self::binary(slf, other, |m, a, b| m.add(b, a))
    }

    fn __sub__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Self::binary(slf, other, |m, a, b| m.sub(a, b))
    }

    fn __rsub__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Self::binary(slf, other, |m, a, b| m.sub(b, a))
    }

    fn __mul__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Self::binary(slf, other, |m, a, b| m.mul(a, b))
    }

    fn __rmul__<'py>(
        slf: &Bound<'py, Self>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Self::binary(slf, other, |m, a, b| m.mul(b, a))
    }

    fn __neg__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let this = slf.get();
        let out = this.modulus().neg(&this.value).map_err(library_error)?;
        answer(this.owner.bind(slf.py()), out, true)
    }

    /// ``r ** e`` for an ``int`` ``e`` of any sign (variable time; ``Modulus.pow_ct`` for
    /// secrets).
    fn __pow__<'py>(
        slf: &Bound<'py, Self>,
        e: &Bound<'py, PyAny>,
        modulo: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if modulo.is_some_and(|m| !m.is_none()) {
            return Err(PyTypeError::new_err(
                "pow() of a Residue takes no modulus: the residue already has one",
            ));
        }
        let e = int_of(e, "the exponent")?;
        let this = slf.get();
        let out = slf.py().detach(|| power(this.modulus(), &this.value, &e, "the residue"))?;
        answer(this.owner.bind(slf.py()), out, true)
    }

    /// Pickling: the modulus and the value.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.get();
        let make = py.get_type::<PyModulus>().getattr("residue")?;
        let value = to_int(py, &this.value()?)?;
        (make, (this.owner.clone_ref(py), value)).into_pyobject(py)
    }
}
