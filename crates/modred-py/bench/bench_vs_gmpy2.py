"""modred against gmpy2 and the built-in pow, in one run, as ratios (modred's time ÷ theirs).

    python crates/modred-py/bench/bench_vs_gmpy2.py [--quick] [--markdown]

Each row times the contenders in alternation, several rounds, on the same inputs (a random
odd modulus of the size, full-length exponents, fixed seed); a ratio is the median of the
rounds' ratios, with the lowest and highest round beside it, since the machines are shared
and noisy. The list forms use every core (the default); gmpy2's run on one. `powmod_many`
is timed on 1, 2, ... threads up to the number of cores.
"""

import argparse
import os
import platform
import random
import statistics
import sys
import time

import modred

try:
    import gmpy2
except ImportError:
    sys.exit("gmpy2 is not installed: pip install gmpy2")


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def per_call(f, min_time):
    """Seconds per call of f, over at least min_time seconds."""
    n, t = 1, 0.0
    while True:
        start = time.perf_counter()
        for _ in range(n):
            f()
        t = time.perf_counter() - start
        if t >= min_time:
            return t / n
        n = max(2 * n, int(n * min_time / max(t, 1e-9) * 1.2))


def compare(contenders, rounds, min_time):
    """{name: [seconds per call, one per round]}, the contenders alternating."""
    times = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, f in contenders.items():
            times[name].append(per_call(f, min_time))
    return times


def ratio(ours, theirs):
    rs = sorted(o / t for o, t in zip(ours, theirs))
    return f"{statistics.median(rs):.2f} ({rs[0]:.2f}–{rs[-1]:.2f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer sizes, rounds and list items")
    args = ap.parse_args()
    rng = random.Random(0xB3AC)
    rounds, min_time = (3, 0.05) if args.quick else (7, 0.2)
    sizes = [256, 1024, 2048, 4096] if args.quick else [256, 512, 1024, 2048, 3072, 4096]
    cores = os.cpu_count() or 1
    print(f"CPU: {cpu_name()}, {cores} cores; modred {modred.__version__} "
          f"(CPU features used: {', '.join(modred.cpu_features()) or 'none'}), "
          f"gmpy2 {gmpy2.version()} (GMP {gmpy2.mp_version()}), Python {platform.python_version()}")
    print()
    print("powmod, odd modulus, full-length exponent; ratio = modred ÷ theirs, median (min–max) of rounds")
    print()
    print("| bits | modred µs | gmpy2.powmod µs | pow µs | modred ÷ gmpy2 | modred ÷ pow |")
    print("|---:|---:|---:|---:|---:|---:|")
    for bits in sizes:
        m = (1 << (bits - 1)) | rng.getrandbits(bits - 1) | 1
        b, e = rng.getrandbits(bits) % m, rng.getrandbits(bits)
        gm, gb, ge = gmpy2.mpz(m), gmpy2.mpz(b), gmpy2.mpz(e)
        assert modred.powmod(b, e, m) == pow(b, e, m) == int(gmpy2.powmod(gb, ge, gm))
        t = compare({
            "modred": lambda: modred.powmod(b, e, m),
            "gmpy2": lambda: gmpy2.powmod(gb, ge, gm),
            "pow": lambda: pow(b, e, m),
        }, rounds, min_time)
        med = {k: statistics.median(v) * 1e6 for k, v in t.items()}
        print(f"| {bits} | {med['modred']:.1f} | {med['gmpy2']:.1f} | {med['pow']:.1f} | "
              f"{ratio(t['modred'], t['gmpy2'])} | {ratio(t['modred'], t['pow'])} |")
    print()
    count = 16 if args.quick else 64
    print(f"list forms, {count} powers each, full-length exponents; modred on every core, gmpy2 on one")
    print()
    print("| bits | form | modred ms | gmpy2 ms | modred ÷ gmpy2 |")
    print("|---:|---|---:|---:|---:|")
    for bits in ([1024, 2048] if args.quick else [1024, 2048, 4096]):
        m = (1 << (bits - 1)) | rng.getrandbits(bits - 1) | 1
        bases = [rng.getrandbits(bits) % m for _ in range(count)]
        exps = [rng.getrandbits(bits) for _ in range(count)]
        gm, gbases, gexps = gmpy2.mpz(m), [gmpy2.mpz(x) for x in bases], [gmpy2.mpz(x) for x in exps]
        assert modred.powmod_base_list(bases, exps[0], m) == [int(v) for v in gmpy2.powmod_base_list(gbases, gexps[0], gm)]
        assert modred.powmod_exp_list(bases[0], exps, m) == [int(v) for v in gmpy2.powmod_exp_list(gbases[0], gexps, gm)]
        for form, ours, theirs in [
            ("powmod_base_list", lambda: modred.powmod_base_list(bases, exps[0], m),
             lambda: gmpy2.powmod_base_list(gbases, gexps[0], gm)),
            ("powmod_exp_list", lambda: modred.powmod_exp_list(bases[0], exps, m),
             lambda: gmpy2.powmod_exp_list(gbases[0], gexps, gm)),
        ]:
            t = compare({"modred": ours, "gmpy2": theirs}, rounds, min_time)
            print(f"| {bits} | {form} | {statistics.median(t['modred']) * 1e3:.2f} | "
                  f"{statistics.median(t['gmpy2']) * 1e3:.2f} | {ratio(t['modred'], t['gmpy2'])} |")
    print()
    bits = 2048
    jobs = 32 if args.quick else 128
    moduli = [(1 << (bits - 1)) | rng.getrandbits(bits - 1) | 1 for _ in range(jobs)]
    bases = [rng.getrandbits(bits) for _ in range(jobs)]
    exps = [rng.getrandbits(bits) for _ in range(jobs)]
    print(f"powmod_many, {jobs} jobs of {bits} bits (a modulus each): thread scaling")
    print()
    print("| threads | jobs/s | speed-up |")
    print("|---:|---:|---:|")
    base = None
    for threads in range(1, cores + 1):
        t = compare({"many": lambda: modred.powmod_many(bases, exps, moduli, threads=threads)}, rounds, min_time)
        rate = jobs / statistics.median(t["many"])
        base = base or rate
        print(f"| {threads} | {rate:.0f} | {rate / base:.2f} |")


if __name__ == "__main__":
    main()
