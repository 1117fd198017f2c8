#!/usr/bin/env bash
# The per-line cost of `modred batch --threads 1` on huge `x·y mod m` lines against a C loop
# over GMP's mpz_mul + mpz_tdiv_r that reads and prints the same lines
# (scripts/huge-mulmod-cost.c, which also writes the lines: decimal strings, every modulus a
# new one, half odd and half even, x and y random below m; fixed seed). Whole-process wall
# time per line, so parsing and printing the decimal numbers count on both sides. One run
# each, alternately ROUNDS times (default 3); a last row per size compares the least times
# of the rounds (the shared machine's noise only ever adds time).
#
# Usage: scripts/huge-mulmod-cost.sh [--bin target/release/modred] [--rounds N] [BITS:LINES ...]
# Default sizes: 65536:400 262144:80 1048576:16.
# Needs python3, a C compiler and GMP (apt-get install -y libgmp-dev).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=target/release/modred
rounds=3
while [[ ${1:-} == --* ]]; do
    case $1 in
    --bin) bin=$2 ;;
    --rounds) rounds=$2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done
sizes=("$@")
if [[ ${#sizes[@]} -eq 0 ]]; then
    sizes=(65536:400 262144:80 1048576:16)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/gmp-loop" scripts/huge-mulmod-cost.c -lgmp

# Seconds of wall time of `$1 < $2 > $3`.
timed() {
    python3 - "$@" <<'PY'
import subprocess, sys, time
cmd, inp, out = sys.argv[1].split(), sys.argv[2], sys.argv[3]
with open(inp, "rb") as i, open(out, "wb") as o:
    t = time.perf_counter()
    subprocess.run(cmd, stdin=i, stdout=o, check=True)
    print(f"{time.perf_counter() - t:.6f}")
PY
}

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "MODRED_CPU_OFF=${MODRED_CPU_OFF:-}; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| modulus bits | lines | round | modred batch --threads 1, ms/line | GMP mpz_mul + mpz_tdiv_r loop, ms/line | ratio |"
echo "|---:|---:|---:|---:|---:|---:|"
for size in "${sizes[@]}"; do
    bits=${size%%:*}
    lines=${size##*:}
    "$work/gmp-loop" gen "$bits" "$lines" "$((20261127 + bits))" >"$work/in.jsonl"
    modred_all=() gmp_all=()
    for round in $(seq "$rounds"); do
        modred_s=$(timed "$bin batch --threads 1" "$work/in.jsonl" "$work/modred.out")
        gmp_s=$(timed "$work/gmp-loop" "$work/in.jsonl" "$work/gmp.out")
        modred_all+=("$modred_s") gmp_all+=("$gmp_s")
        if ! cmp -s "$work/modred.out" "$work/gmp.out"; then
            echo "error: modred and GMP answer differently at $bits bits" >&2
            exit 1
        fi
        python3 -c "
b, n, r, a, g = $bits, $lines, $round, $modred_s, $gmp_s
print(f'| {b} | {n} | {r} | {a / n * 1e3:.2f} | {g / n * 1e3:.2f} | {a / g:.2f} |')"
    done
    # The least time of each over the rounds: what a quiet machine gives.
    python3 -c "
b, n = $bits, $lines
a, g = min([${modred_all[*]/%/,}]), min([${gmp_all[*]/%/,}])
print(f'| {b} | {n} | least | {a / n * 1e3:.2f} | {g / n * 1e3:.2f} | {a / g:.2f} |')"
done
