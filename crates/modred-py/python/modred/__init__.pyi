"""Type stubs of the extension module ``modred._modred``, re-exported by ``modred``."""

from typing import Iterable, List, Optional, SupportsIndex, Union, overload

__version__: str

# Anything with ``__index__`` is taken as an integer (``bool`` too, as Python does).
IntLike = SupportsIndex

def powmod(
    b: IntLike,
    e: IntLike,
    m: IntLike,
    *,
    algo: str = "auto",
    max_work: Optional[int] = 2**36,
    max_memory: Optional[int] = 2**30,
) -> int:
    """``pow(b, e, m)`` for ``m > 0``, any ``b`` and ``e`` (negative: the inverse's power); variable time.

    ``max_work``: the most estimated digit operations (about 1 ns each) the call may take,
    refused with ValueError before it starts; ``None`` for no limit. ``max_memory``: the
    most bytes of working memory (tables, scratch, transforms) the call may hold, refused
    the same way; MemoryError if the system refuses memory all the same."""

def invert(x: IntLike, m: IntLike) -> int:
    """``pow(x, -1, m)``: ValueError when ``x`` has no inverse modulo ``m``."""

def mulmod(
    a: IntLike,
    b: IntLike,
    m: IntLike,
    *,
    algo: str = "auto",
    max_work: Optional[int] = 2**36,
    max_memory: Optional[int] = 2**30,
) -> int:
    """``a * b % m`` for ``m > 0``, any ``a`` and ``b``."""

def reduce(
    x: IntLike,
    m: IntLike,
    *,
    algo: str = "auto",
    max_work: Optional[int] = 2**36,
    max_memory: Optional[int] = 2**30,
) -> int:
    """``x % m`` for ``m > 0``, any ``x``; a forced algorithm may refuse an ``x`` beyond its bound."""

def powmod_base_list(
    bases: Iterable[IntLike],
    e: IntLike,
    m: IntLike,
    *,
    algo: str = "auto",
    threads: Optional[int] = None,
    max_work: Optional[int] = 2**36,
    max_memory: Optional[int] = 2**30,
) -> List[int]:
    """``[pow(b, e, m) for b in bases]`` on every core (or ``threads``), GIL released; with
    ``e >= 0``, four at a time in the AVX2 lanes where that pays."""

def powmod_exp_list(
    b: IntLike,
    exps: Iterable[IntLike],
    m: IntLike,
    *,
    algo: str = "auto",
    threads: Optional[int] = None,
    max_work: Optional[int] = 2**36,
    max_memory: Optional[int] = 2**30,
) -> List[int]:
    """``[pow(b, e, m) for e in exps]`` on every core (or ``threads``), GIL released; with
    every ``e >= 0``, four at a time in the AVX2 lanes where that pays."""

def powmod_many(
    bases: Iterable[IntLike],
    exps: Iterable[IntLike],
    moduli: Iterable[IntLike],
    *,
    algo: str = "auto",
    threads: Optional[int] = None,
    max_work: Optional[int] = 2**36,
    max_memory: Optional[int] = 2**30,
) -> List[int]:
    """``[pow(b, e, m) for b, e, m in zip(bases, exps, moduli)]`` (equal lengths), on every core."""

def is_probable_prime(n: IntLike) -> bool:
    """Miller–Rabin: a proof below 2**64, error below 4**-32 above."""

def algorithms() -> List[str]:
    """The names ``algo=`` takes, ``"auto"`` first."""

def cpu_features() -> List[str]:
    """The CPU features the library's CPU-specific code uses here."""

class Modulus:
    """Arithmetic modulo one ``m > 0`` through one engine chosen once (immutable, thread-safe)."""

    def __init__(
        self,
        m: IntLike,
        algo: str = "auto",
        max_work: Optional[int] = 2**36,
        max_memory: Optional[int] = 2**30,
    ) -> None: ...
    @property
    def max_work(self) -> Optional[int]: ...
    @property
    def max_memory(self) -> Optional[int]: ...
    @property
    def modulus(self) -> int: ...
    @property
    def bits(self) -> int: ...
    @property
    def algorithm(self) -> str: ...
    def explain(self) -> str: ...
    def reduce(self, x: IntLike) -> int: ...
    @overload
    def inverse(self, x: IntLike) -> int: ...
    @overload
    def inverse(self, x: Residue) -> Residue: ...
    def residue(self, x: IntLike) -> Residue: ...
    @overload
    def mul(self, a: IntLike, b: IntLike) -> int: ...
    @overload
    def mul(self, a: Union[Residue, IntLike], b: Union[Residue, IntLike]) -> Union[Residue, int]: ...
    @overload
    def sqr(self, a: IntLike) -> int: ...
    @overload
    def sqr(self, a: Residue) -> Residue: ...
    @overload
    def pow(self, b: IntLike, e: IntLike) -> int: ...
    @overload
    def pow(self, b: Residue, e: IntLike) -> Residue: ...
    @overload
    def pow_ct(self, b: IntLike, e: IntLike) -> int: ...
    @overload
    def pow_ct(self, b: Residue, e: IntLike) -> Residue: ...

class Residue:
    """An element of Z/mZ belonging to one :class:`Modulus` object."""

    @property
    def modulus(self) -> Modulus: ...
    def __int__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __add__(self, other: Union[Residue, IntLike]) -> Residue: ...
    def __radd__(self, other: IntLike) -> Residue: ...
    def __sub__(self, other: Union[Residue, IntLike]) -> Residue: ...
    def __rsub__(self, other: IntLike) -> Residue: ...
    def __mul__(self, other: Union[Residue, IntLike]) -> Residue: ...
    def __rmul__(self, other: IntLike) -> Residue: ...
    def __neg__(self) -> Residue: ...
    def __pow__(self, e: IntLike, modulo: None = None) -> Residue: ...
    def __hash__(self) -> int: ...
