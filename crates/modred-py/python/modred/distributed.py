"""Batch work over a Dask cluster: for work that outgrows one machine.

Each task is one chunk of the work (thousands of exponentiations, or a range of
candidates for a prime search) run by the extension on one worker, so the scheduler's
per-task cost (a few milliseconds) is spread over the chunk. The results come back in the
order of the input and are the same as on one machine, since every answer is computed by
the same deterministic code::

    from dask.distributed import Client
    import modred.distributed as md

    client = Client("tcp://scheduler:8786")          # or Client(LocalCluster(...))
    answers = md.powmod_many(client, bases, exps, moduli)
    cs = md.pseudo_mersenne_c(client, 1024, 1 << 16)  # every c < 2^16 with 2^1024 - c prime

Every worker needs this package installed (``pip install ./crates/modred-py`` on each
machine, or in the workers' image). ``client=None`` runs the same chunks in this process.
Dask is imported only by the caller: this module needs nothing but ``modred``.
"""

from typing import Any, Callable, List, Optional, Sequence

from ._modred import is_probable_prime
from ._modred import powmod_many as _powmod_many

__all__ = ["powmod_many", "pseudo_mersenne_c", "DEFAULT_CHUNK"]

#: Jobs per task: at 2048 bits a chunk of 1024 powers is about a second of work on one
#: core (IFMA CPUs: a quarter of that), far above the scheduler's cost per task.
DEFAULT_CHUNK = 1024


def _map(client: Any, f: Callable, chunks: Sequence, **kwargs) -> List:
    """f(chunk, **kwargs) for every chunk, on the cluster (in order) or here."""
    if client is None:
        return [f(c, **kwargs) for c in chunks]
    futures = client.map(f, chunks, pure=False, **kwargs)
    return client.gather(futures)


def _powmod_chunk(chunk, algo, threads):
    bases, exps, moduli = chunk
    return _powmod_many(bases, exps, moduli, algo=algo, threads=threads)


def powmod_many(
    client: Any,
    bases: Sequence[int],
    exps: Sequence[int],
    moduli: Sequence[int],
    *,
    chunk: int = DEFAULT_CHUNK,
    algo: str = "auto",
    threads: Optional[int] = 1,
) -> List[int]:
    """``[pow(b, e, m) for b, e, m in zip(bases, exps, moduli)]`` over a Dask cluster.

    The jobs are cut into chunks of ``chunk``; each chunk is one task, computed by
    :func:`modred.powmod_many` on ``threads`` threads of its worker (default 1: Dask already
    runs one task per worker thread; ``None`` uses every core of the worker's machine, for
    workers started with one thread each). Errors are those of :func:`modred.powmod_many`,
    raised here (the index is within the chunk that failed).
    """
    if chunk < 1:
        raise ValueError("chunk must be at least 1")
    if not (len(bases) == len(exps) == len(moduli)):
        raise ValueError(
            f"bases, exps and moduli must have the same length, got {len(bases)}, {len(exps)} and {len(moduli)}"
        )
    chunks = [
        (list(bases[i : i + chunk]), list(exps[i : i + chunk]), list(moduli[i : i + chunk]))
        for i in range(0, len(bases), chunk)
    ]
    parts = _map(client, _powmod_chunk, chunks, algo=algo, threads=threads)
    return [x for part in parts for x in part]


def _search_chunk(bounds, bits):
    lo, hi = bounds
    top = 1 << bits
    return [c for c in range(lo, hi) if (c % 2 == 1 or top - c == 2) and is_probable_prime(top - c)]


def pseudo_mersenne_c(
    client: Any, bits: int, c_below: int, *, c_from: int = 1, chunk: int = 4096
) -> List[int]:
    """Every ``c`` with ``c_from <= c < c_below`` and ``2**bits - c`` prime, ascending: the
    search behind paper 003's Table 1 (``modred special-primes``), over a Dask cluster.
    Primality by :func:`modred.is_probable_prime`."""
    if bits < 2:
        raise ValueError("bits must be at least 2")
    if chunk < 1:
        raise ValueError("chunk must be at least 1")
    c_from = max(c_from, 1)
    c_below = min(c_below, (1 << bits) - 1)
    ranges = [(lo, min(lo + chunk, c_below)) for lo in range(c_from, c_below, chunk)]
    parts = _map(client, _search_chunk, ranges, bits=bits)
    return [c for part in parts for c in part]
