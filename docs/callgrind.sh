#!/usr/bin/env bash
# Instruction counts of the hot paths under callgrind: Montgomery multiplication,
# squaring and reduction (REDC) at 256-4096 bits, and 2048-bit exponentiation.
# Prints a Markdown table of instructions per operation. Needs valgrind.
#
#   docs/callgrind.sh            # from the repository root
#
# Each count is callgrind's Ir inside `hot_loop` of crates/modred-bench/examples/hot_paths.rs
# (N operations, set-up excluded) divided by N. Instruction counts do not depend on the
# machine's load, so they are the repeatable second opinion on the timings.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p modred-bench --example hot_paths >&2
bin=target/release/examples/hot_paths

count() { # op bits n -> instructions per operation
    local ir
    ir=$(valgrind --tool=callgrind --toggle-collect=hot_loop --callgrind-out-file=/dev/null \
        "$bin" "$1" "$2" "$3" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
    echo $(( (ir + $3 / 2) / $3 ))
}

kernels=$("$bin" mul 64 1 | sed 's/.*(\(.*\))/\1/')
under=$(valgrind --tool=none "$bin" mul 64 1 2>/dev/null | sed 's/.*(\(.*\))/\1/')
echo "natively: $kernels" >&2
echo "under valgrind: $under" >&2

echo "| bits | mul | sqr | redc |"
echo "|---:|---:|---:|---:|"
for bits in 256 512 1024 2048 4096; do
    n=$(( bits <= 1024 ? 1000 : (bits <= 2048 ? 300 : 100) ))
    echo "| $bits | $(count mul "$bits" "$n") | $(count sqr "$bits" "$n") | $(count redc "$bits" "$n") |"
done
echo
echo "| 2048-bit exponentiation (2048-bit exponent) | instructions |"
echo "|---|---:|"
echo "| powm (sliding window, variable time) | $(count powm 2048 3) |"
echo "| powm-ct (fixed 4-bit window, constant time) | $(count powm-ct 2048 3) |"
