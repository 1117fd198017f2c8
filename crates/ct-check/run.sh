#!/usr/bin/env bash
# The constant-time check: every constant-time function under valgrind memcheck with its
# secrets marked undefined must give no report, and the planted leaks must be reported.
# Usage: crates/ct-check/run.sh   (installs valgrind with apt-get when it is missing)
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v valgrind >/dev/null || [ ! -f /usr/include/valgrind/memcheck.h ]; then
    echo "installing valgrind"
    (apt-get update -qq && apt-get install -y -qq valgrind) >/dev/null
fi

cargo build --release -p ct-check --bin ct-check
bin=target/release/ct-check
# --error-limit=no: memcheck stops showing (and counting) errors after 1000 distinct ones,
# which the planted pow_vartime leaks can pass (they did on an AMD EPYC); the planted leaks
# after them would then go unreported and the check fail for want of a count, not a leak.
vg=(valgrind --tool=memcheck --error-exitcode=1 --leak-check=no --track-origins=yes -q --error-limit=no)

echo "== constant-time functions (expect no report)"
if ! "${vg[@]}" "$bin"; then
    echo "FAIL: a constant-time function has a secret-dependent branch or memory index" >&2
    exit 1
fi

echo "== planted leaks (expect reports)"
log=$(mktemp)
if "${vg[@]}" "$bin" --leaky >"$log" 2>&1; then
    cat "$log"
    echo "FAIL: the planted leaks were not reported" >&2
    exit 1
fi
for leak in "branch on a secret bit" "secret table index" "pow_vartime" \
    "field inverse branching on zero" "field inverse by variable-time products"; do
    if ! grep -q "$leak.*report(s)" "$log"; then
        cat "$log"
        echo "FAIL: the planted leak '$leak' was not reported" >&2
        exit 1
    fi
done
grep -E "depends on uninitialised|Use of uninitialised value" "$log" | sort | uniq -c
grep "report(s)" "$log"

# valgrind hides ADX from CPUID, so the runs above take the portable kernels. Where this CPU
# has BMI2 and ADX, the MULX/ADX assembly (the fused product, the register forms, the
# written-out rows, eight rows per pass, Karatsuba) is checked too: built with the features
# fixed at compile time, so that the detection answers yes without asking CPUID, at the
# widths where each of them runs.
if grep -qw bmi2 /proc/cpuinfo && grep -qw adx /proc/cpuinfo; then
    echo "== the MULX/ADX kernels built in (expect no report)"
    CARGO_TARGET_DIR=target/ct-mulx RUSTFLAGS="-C target-feature=+bmi2,+adx" \
        cargo build --release -p ct-check --bin ct-check
    mulx=target/ct-mulx/release/ct-check
    adox=$(objdump -d "$mulx" | grep -c adox || true)
    if [ "${adox:-0}" -eq 0 ]; then
        echo "FAIL: the build with BMI2 and ADX holds no ADOX: the kernels were not built in" >&2
        exit 1
    fi
    echo "the build holds $adox ADOX"
    if ! "${vg[@]}" "$mulx" --widths 4,8,9,16,24,27,32,40,48,56,64,128; then
        echo "FAIL: a MULX/ADX kernel has a secret-dependent branch or memory index" >&2
        exit 1
    fi
else
    echo "skipped: the MULX/ADX kernels (this CPU has no BMI2 and ADX)"
fi
echo "ok: no report for the constant-time functions; every planted leak reported"
