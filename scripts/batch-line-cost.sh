#!/usr/bin/env bash
# The per-line cost of `modred batch --threads 1` against a C loop over GMP's mpz_powm that
# reads the same lines (scripts/batch-line-cost.c): whole-process wall time per line for
# powm lines of each modulus size, half odd and half even moduli (every modulus a new one;
# BITS:LINES:odd or BITS:LINES:even for one kind only), bases and exponents random of the
# modulus's size. Fixed seed; the two programs run alternately ROUNDS times (environment,
# default 3) and each one's fastest run counts, which steadies the ratio on a shared machine.
#
# Usage: scripts/batch-line-cost.sh [--bin target/release/modred] [BITS:LINES[:odd|:even] ...]
# Default sizes: 64:1000000 256:200000 1024:20000 2048:4000 4096:1000.
# Needs python3, a C compiler and GMP (apt-get install -y libgmp-dev).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=target/release/modred
if [[ ${1:-} == --bin ]]; then
    bin=$2
    shift 2
fi
sizes=("$@")
if [[ ${#sizes[@]} -eq 0 ]]; then
    sizes=(64:1000000 256:200000 1024:20000 2048:4000 4096:1000)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/gmp-loop" scripts/batch-line-cost.c -lgmp

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
echo "| modulus bits | lines | moduli | modred batch --threads 1, ns/line | GMP mpz_powm loop, ns/line | ratio |"
echo "|---:|---:|---|---:|---:|---:|"
for size in "${sizes[@]}"; do
    IFS=: read -r bits lines kind <<<"$size"
    kind=${kind:-mixed}
    case $kind in
        odd | even | mixed) ;;
        *)
            echo "error: '$size': the kind of moduli is odd or even (default: both)" >&2
            exit 2
            ;;
    esac
    python3 - "$bits" "$lines" "$kind" >"$work/in.jsonl" <<'PY'
import random, sys
bits, lines, kind = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(20261125 + bits)
out = []
for i in range(lines):
    m = rng.getrandbits(bits) | (1 << (bits - 1))
    odd = {"odd": True, "even": False}.get(kind, i % 2 == 0)
    m = m | 1 if odd else m & ~1
    x = rng.getrandbits(bits) % m
    e = rng.getrandbits(bits)
    out.append(f'{{"op":"powm","x":"{x}","e":"{e}","m":"{m}"}}\n')
sys.stdout.write("".join(out))
PY
    modred_s=1e9
    gmp_s=1e9
    for _ in $(seq "${ROUNDS:-3}"); do
        t=$(timed "$bin batch --threads 1" "$work/in.jsonl" "$work/modred.out")
        modred_s=$(python3 -c "print(min($modred_s, $t))")
        t=$(timed "$work/gmp-loop" "$work/in.jsonl" "$work/gmp.out")
        gmp_s=$(python3 -c "print(min($gmp_s, $t))")
    done
    if ! cmp -s "$work/modred.out" "$work/gmp.out"; then
        echo "error: modred and GMP answer differently at $bits bits" >&2
        exit 1
    fi
    python3 -c "
b, n, a, g = $bits, $lines, $modred_s, $gmp_s
print(f'| {b} | {n} | $kind | {a / n * 1e9:.0f} | {g / n * 1e9:.0f} | {a / g:.2f} |')"
done
