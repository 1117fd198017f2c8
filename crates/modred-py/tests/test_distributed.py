"""The Dask recipe on a real local cluster (a scheduler and 2 worker processes): the same
answers as one process."""

import random

import pytest

import modred
import modred.distributed as md

distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as c:
        yield c


def test_batch_matches_one_process(client):
    rng = random.Random(0xDA5C)
    n = 300
    moduli = [rng.getrandbits(rng.choice([64, 521, 1024])) | 1 if i % 4 else rng.getrandbits(256) + 2
              for i in range(n)]
    bases = [rng.getrandbits(1100) - (1 << 1000) for _ in range(n)]
    exps = [rng.getrandbits(512) for _ in range(n)]
    got = md.powmod_many(client, bases, exps, moduli, chunk=37)
    assert got == modred.powmod_many(bases, exps, moduli)
    assert got == [pow(b, e, m) for b, e, m in zip(bases, exps, moduli)]
    assert md.powmod_many(None, bases, exps, moduli, chunk=50) == got
    with pytest.raises(ZeroDivisionError):
        md.powmod_many(client, [2, 3], [1, 1], [5, 0], chunk=1)


def test_prime_search_matches_one_process(client):
    bits, c_below = 256, 2000
    got = md.pseudo_mersenne_c(client, bits, c_below, chunk=97)
    one = [c for c in range(1, c_below) if modred.is_probable_prime((1 << bits) - c)]
    assert got == one and got == md.pseudo_mersenne_c(None, bits, c_below)
    assert got[0] == 189  # 2^256 - 189 is the largest 256-bit prime
    assert md.pseudo_mersenne_c(client, 5, 40) == [1, 3, 9, 13, 15, 19, 21, 25, 27, 29, 30]
