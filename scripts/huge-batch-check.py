#!/usr/bin/env python3
"""Huge reductions through `modred batch --hex`, checked by construction.

For each size N (default 2^22 and 2^24 bits) a random N-bit modulus m, a random r < m and
a random N-bit q give x = q*m + r, a 2N-bit number whose remainder is r — no division is
needed to know the answer, so the check is independent of any division code. With each
reduction goes a mulmod of the same size, a*(m + 1) mod m = a. All lines (30 MiB at 2^22
and 2^24 bits) go through one batch run on one thread.

    python3 scripts/huge-batch-check.py [--bin target/release/modred] [--bits 22,24]
"""
import argparse
import json
import random
import subprocess
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/modred")
    ap.add_argument("--bits", default="22,24", help="log2 of the modulus sizes")
    args = ap.parse_args()
    rng = random.Random(24)
    lines, want = [], []
    for k in (int(b) for b in args.bits.split(",")):
        n = 1 << k
        m = rng.getrandbits(n) | (1 << (n - 1)) | 1
        q = rng.getrandbits(n)
        r = rng.getrandbits(n) % m
        x = q * m + r
        lines.append(json.dumps({"op": "reduce", "x": hex(x), "m": hex(m)}))
        want.append((f"reduce 2^{k} bits", hex(r)))
        # x*y mod m with y = m + 1 (so x*y ≡ x): a full 2N-bit product reduced.
        a = rng.getrandbits(n) % m
        lines.append(json.dumps({"op": "mulmod", "x": hex(a), "y": hex(m + 1), "m": hex(m)}))
        want.append((f"mulmod 2^{k} bits", hex(a)))
    data = ("\n".join(lines) + "\n").encode()
    start = time.perf_counter()
    out = subprocess.run(
        [args.bin, "batch", "--hex", "--threads", "1"], input=data, capture_output=True, check=False
    )
    seconds = time.perf_counter() - start
    if out.returncode != 0:
        print(out.stderr.decode(), file=sys.stderr)
        return 1
    answers = out.stdout.decode().splitlines()
    ok = len(answers) == len(want)
    for (what, expected), line in zip(want, answers):
        got = json.loads(line)
        good = got.get("ok") == expected
        ok &= good
        print(f"{what}: {'ok' if good else 'WRONG ' + line[:200]}")
    print(f"{len(data) / 2**20:.1f} MiB of input, {seconds:.1f} s for the batch")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
