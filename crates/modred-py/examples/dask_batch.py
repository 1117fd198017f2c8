"""Many exponentiations and a special-prime search over a Dask cluster.

    python crates/modred-py/examples/dask_batch.py                 # local clusters of 1..N workers
    python crates/modred-py/examples/dask_batch.py --scheduler tcp://host:8786   # a real cluster

Without --scheduler it starts a LocalCluster (a scheduler and worker processes, one thread
each) of 1, 2, ... up to the number of cores, times a batch of 2048-bit exponentiations and
a search for the c with 2^1024 - c prime on each, and prints throughput against the number
of workers. Every answer is checked against the same work done in this process.
"""

import argparse
import os
import random
import time

import modred
import modred.distributed as md
from dask.distributed import Client, LocalCluster


def work(seed, jobs, bits):
    rng = random.Random(seed)
    moduli = [(1 << (bits - 1)) | rng.getrandbits(bits - 1) | 1 for _ in range(jobs)]
    bases = [rng.getrandbits(bits) for _ in range(jobs)]
    exps = [rng.getrandbits(bits) for _ in range(jobs)]
    return bases, exps, moduli


def run(client, label, bases, exps, moduli, expected, search, expected_primes, chunk):
    md.powmod_many(client, bases[:chunk], exps[:chunk], moduli[:chunk], chunk=chunk)  # warm the workers
    start = time.perf_counter()
    got = md.powmod_many(client, bases, exps, moduli, chunk=chunk)
    batch = time.perf_counter() - start
    assert got == expected, "the cluster's answers differ from this process's"
    start = time.perf_counter()
    primes = md.pseudo_mersenne_c(client, *search, chunk=512)
    found = time.perf_counter() - start
    assert primes == expected_primes
    print(f"| {label} | {len(bases) / batch:.0f} | {search[1] / found:.0f} |")
    return len(bases) / batch


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scheduler", help="address of a running Dask scheduler (default: local clusters)")
    ap.add_argument("--jobs", type=int, default=2048, help="exponentiations in the batch (default 2048)")
    ap.add_argument("--bits", type=int, default=2048, help="size of moduli and exponents (default 2048)")
    ap.add_argument("--chunk", type=int, default=128, help="exponentiations per task (default 128)")
    ap.add_argument("--c-below", type=int, default=8192, help="search bound for c (default 8192)")
    args = ap.parse_args()

    bases, exps, moduli = work(0xD15C, args.jobs, args.bits)
    search = (1024, args.c_below)
    start = time.perf_counter()
    expected = modred.powmod_many(bases, exps, moduli, threads=1)
    one_thread = args.jobs / (time.perf_counter() - start)
    expected_primes = md.pseudo_mersenne_c(None, *search)
    print(f"{args.jobs} exponentiations of {args.bits} bits in chunks of {args.chunk}; "
          f"c < {args.c_below} with 2^1024 - c prime ({len(expected_primes)} found)")
    print(f"one process, one thread, no Dask: {one_thread:.0f} exponentiations/s")
    print()
    print("| workers | exponentiations/s | candidates/s |")
    print("|---|---:|---:|")
    if args.scheduler:
        with Client(args.scheduler) as client:
            workers = len(client.scheduler_info()["workers"])
            run(client, f"{workers} (cluster)", bases, exps, moduli, expected, search, expected_primes, args.chunk)
        return
    for n in range(1, (os.cpu_count() or 1) + 1):
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            run(client, str(n), bases, exps, moduli, expected, search, expected_primes, args.chunk)


if __name__ == "__main__":
    main()
