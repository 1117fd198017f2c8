#!/usr/bin/env bash
# Runs every fuzz target (`cargo fuzz list`: cross_algorithms, parse, batch, large_shapes)
# for a bounded time (FUZZ_SECONDS each, default 60) from the
# committed seed corpus; new inputs go to a temporary directory, not into the repository.
# A finding (panic, wrong answer) fails the run and leaves its input in fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${FUZZ_SECONDS:-60}
if ! rustup toolchain list | grep -q nightly; then
    echo "SKIPPED: fuzzing needs a nightly toolchain (rustup toolchain install nightly)" >&2
    exit 0
fi
command -v cargo-fuzz >/dev/null || cargo install --locked cargo-fuzz
# No sanitizer: the targets look for panics and wrong answers. (modred's unsafe code is
# x86-64 inline assembly and AVX-512 intrinsics, which its unit tests compare with the
# portable code.) One build serves every target.
cargo +nightly fuzz build -s none --release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# against_gmp needs the `anchors` feature (GMP through rug), which CI does not build.
mapfile -t targets < <(cargo +nightly fuzz list | grep -v '^against_gmp$')
# One target runs on one core: FUZZ_JOBS (default 2) of them at a time.
jobs=${FUZZ_JOBS:-2}
fuzz_one() {
    local target=$1 rc=0
    mkdir -p "$work/$target"
    cargo +nightly fuzz run -s none --release "$target" "$work/$target" "corpus/$target" -- \
        -max_total_time="$seconds" -max_len=1024 >"$work/$target.log" 2>&1 || rc=$?
    echo "$rc" >"$work/$target.rc"
}
for ((i = 0; i < ${#targets[@]}; i += jobs)); do
    for target in "${targets[@]:i:jobs}"; do
        fuzz_one "$target" &
    done
    wait
done
for target in "${targets[@]}"; do
    echo "== fuzz $target (${seconds}s)"
    grep -E "^#[0-9]+.*DONE|^Done" "$work/$target.log" || true
    if [ "$(cat "$work/$target.rc")" -ne 0 ]; then
        tail -40 "$work/$target.log"
        echo "FAIL: fuzz target $target found an input (see fuzz/artifacts/$target/)" >&2
        exit 1
    fi
done
