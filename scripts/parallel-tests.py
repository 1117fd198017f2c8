#!/usr/bin/env python3
"""Runs the test binaries cargo built, several at a time.

`cargo test` runs its test binaries one after the other; a binary whose time is one long
test then keeps one core busy. This reads the JSON messages of `cargo test --no-run
--message-format=json` on stdin and runs every test executable in them, `--jobs` at a
time, each through `--runner` (for example qemu-user) with the arguments after `--`, in
the directory `--cwd` (where cargo would run them: the package's own). Each binary's
output is printed whole when it ends. The exit status is 1 if any binary failed.

    cargo test -p modred --no-run --message-format=json \\
        | scripts/parallel-tests.py --jobs 2 --cwd crates/modred -- --skip slow_test
"""

import argparse
import json
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor


def executables(lines):
    """The test executables among cargo's JSON messages, in the order cargo built them."""
    seen = []
    for line in lines:
        line = line.strip()
        if not line.startswith("{"):
            continue
        msg = json.loads(line)
        if msg.get("reason") != "compiler-artifact" or not msg.get("profile", {}).get("test"):
            continue
        exe = msg.get("executable")
        if exe and exe not in seen:
            seen.append(exe)
    return seen


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="binaries at once (default 2)")
    parser.add_argument("--cwd", default=".", help="directory the binaries run in")
    parser.add_argument("--runner", default="", help="command put before each binary")
    parser.add_argument("args", nargs="*", help="arguments for every binary (after --)")
    opts = parser.parse_args()
    if opts.jobs < 1:
        parser.error("--jobs must be at least 1")

    exes = executables(sys.stdin)
    if not exes:
        print("error: no test executables in cargo's messages", file=sys.stderr)
        return 1
    runner = shlex.split(opts.runner)

    def run(exe):
        start = time.monotonic()
        done = subprocess.run(
            runner + [exe] + opts.args,
            cwd=opts.cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            check=False,
        )
        return exe, done.returncode, done.stdout.decode(errors="replace"), time.monotonic() - start

    failed = []
    with ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        for exe, code, output, seconds in pool.map(run, exes):
            print(f"     Running {exe} ({seconds:.1f} s, exit {code})")
            print(output, end="" if output.endswith("\n") else "\n", flush=True)
            if code != 0:
                failed.append(exe)
    if failed:
        print("error: failed: " + ", ".join(failed), file=sys.stderr)
        return 1
    print(f"{len(exes)} test binaries passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
