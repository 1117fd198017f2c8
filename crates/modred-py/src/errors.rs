//! The library's errors as Python exceptions, with the library's messages.

use pyo3::exceptions::{PyMemoryError, PyValueError, PyZeroDivisionError};
use pyo3::PyErr;

/// [`modred::Error::ZeroModulus`] is a `ZeroDivisionError` (as `x % 0`), memory the system
/// refused ([`modred::Error::OutOfMemory`]) a `MemoryError`; every other error (an
/// algorithm that does not apply, an argument beyond a forced algorithm's bound, an
/// unknown algorithm, a request over the work or memory limit) a `ValueError`.
pub fn library_error(e: modred::Error) -> PyErr {
    match e {
        modred::Error::ZeroModulus => PyZeroDivisionError::new_err(e.to_string()),
        modred::Error::OutOfMemory { .. } => PyMemoryError::new_err(e.to_string()),
        e => PyValueError::new_err(message(&e)),
    }
}

/// The library's message, with how to lift a work limit when it is one.
pub fn message(e: &modred::Error) -> String {
    match e {
        modred::Error::TooMuchWork { .. } => {
            format!("{e} (max_work= raises it, max_work=None lifts it)")
        }
        modred::Error::TooMuchMemory { .. } => {
            format!("{e} (max_memory= raises it, max_memory=None lifts it)")
        }
        e => e.to_string(),
    }
}
