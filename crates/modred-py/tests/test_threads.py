"""Concurrency: the list forms against one-at-a-time answers, and calls from many Python
threads at once on shared Modulus objects."""

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import modred


@pytest.mark.parametrize("threads", [None, 1, 2, 3])
def test_list_forms_against_pow(threads):
    rng = random.Random(0x7157)
    for bits in (64, 521, 2048):
        m = (1 << (bits - 1)) | rng.getrandbits(bits - 1) | 1
        bases = [rng.getrandbits(bits + 3) - (1 << bits) for _ in range(17)]
        exps = [rng.getrandbits(bits) for _ in range(17)]
        e = exps[0]
        assert modred.powmod_base_list(bases, e, m, threads=threads) == [pow(b, e, m) for b in bases]
        assert modred.powmod_exp_list(bases[0], exps, m, threads=threads) == [pow(bases[0], x, m) for x in exps]
        moduli = [rng.getrandbits(bits) | 1 if i % 3 else rng.getrandbits(bits) + 2 for i in range(17)]
        assert modred.powmod_many(bases, exps, moduli, threads=threads) == [
            pow(b, x, n) for b, x, n in zip(bases, exps, moduli)]
        # generators are iterables too
        assert modred.powmod_base_list((b for b in bases), e, m) == [pow(b, e, m) for b in bases]


def test_calls_from_many_threads_share_a_modulus():
    rng = random.Random(0xC0C0)
    m = (1 << 2047) | rng.getrandbits(2047) | 1
    ctx = modred.Modulus(m)
    jobs = [(rng.getrandbits(2048), rng.getrandbits(256)) for _ in range(64)]
    barrier = threading.Barrier(8)

    def work(i):
        if i < 8:
            barrier.wait()
        b, e = jobs[i]
        r = ctx.residue(b)
        return ctx.pow(b, e), modred.powmod(b, e, m), int(r**e), int(r * r)

    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(work, range(len(jobs))))
    for (b, e), (p, q, s, sq) in zip(jobs, got):
        assert p == q == s == pow(b, e, m) and sq == b * b % m


def test_gil_is_released_during_a_list():
    """Another Python thread makes progress while a long list runs."""
    m = (1 << 4095) | 12345
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        modred.powmod_base_list(list(range(2, 40)), m - 2, m, threads=1)
    finally:
        done.set()
        t.join()
    assert len(ticks) > 3
