"""Multi-precision modular arithmetic: reduction, multiplication and exponentiation.

The fastest correct algorithm for each modulus on this CPU (classical, Barrett,
Montgomery, special-prime reductions, transform-based reductions for huge numbers),
chosen once per modulus by the Rust library ``modred``::

    >>> import modred
    >>> modred.powmod(3, 10**50, 2**521 - 1) == pow(3, 10**50, 2**521 - 1)
    True
    >>> m = modred.Modulus(2**127 - 1)
    >>> r = m.residue(3)
    >>> int(r ** (2**127 - 2) * r)   # Fermat: 3^(p-1) = 1
    1

Functions on ``int``: :func:`powmod`, :func:`mulmod`, :func:`reduce` (keyword ``algo``),
:func:`invert`;
a prepared modulus: :class:`Modulus` with its :class:`Residue` s; many exponentiations on
every core with the GIL released: :func:`powmod_base_list`, :func:`powmod_exp_list`,
:func:`powmod_many`; across machines: :mod:`modred.distributed` (Dask).
"""

from ._modred import (
    Modulus,
    Residue,
    __version__,
    algorithms,
    cpu_features,
    invert,
    is_probable_prime,
    mulmod,
    powmod,
    powmod_base_list,
    powmod_exp_list,
    powmod_many,
    reduce,
)

__all__ = [
    "Modulus",
    "Residue",
    "__version__",
    "algorithms",
    "cpu_features",
    "invert",
    "is_probable_prime",
    "mulmod",
    "powmod",
    "powmod_base_list",
    "powmod_exp_list",
    "powmod_many",
    "reduce",
]
