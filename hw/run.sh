#!/usr/bin/env bash
# Paper 004's multipliers in hardware: simulation with Icarus Verilog, synthesis with Yosys.
#
#   hw/run.sh               simulate (k = 16, 64, 256), then synthesize k = 256 and 512
#   hw/run.sh --full        the same, synthesizing k = 256, 512, 768 and 1024 (Table II)
#   hw/run.sh --sim-only    only the simulation and the corrupted-vector self-test (CI)
#   hw/run.sh --synth-only [--full]   only the synthesis
#   SYNTH_SIZES="256 512" hw/run.sh --synth-only    other sizes
#
# Synthesis time grows with k and with how busy the machine is: with Yosys 0.23 on a shared
# 2-core machine all eight runs of --full took 46 s user, 93 s wall (2 s to 25 s per design
# and size); on a busier day 45 s to 250 s each (20 min wall). Hence the big sizes only
# with --full.
#
# Simulation: `modred radix2-vectors` writes the vectors (edge and random operands, with
# the software's expected results) into hw/build/; the self-checking testbench
# hw/tb_radix2.v runs each through both designs and must print PASS. Then one expected
# result is corrupted and the testbench must FAIL on it.
#
# Synthesis: each design at each k to generic gates (`synth`, then
# `abc -g AND,NAND,OR,NOR,XOR,XNOR,MUX`), area = cells (and flip-flops among them), logic
# depth = `ltp -noff` (the longest path of gates between flip-flops). The results go to
# hw/results/synth.csv and the tool versions to hw/results/tools.txt (or RESULTS_DIR),
# which `modred report` reads; `modred report --full` reruns the synthesis when Yosys is
# installed.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=all
default_sizes="256 512"
for arg in "$@"; do
    case "$arg" in
        --sim-only) mode=sim ;;
        --synth-only) mode=synth ;;
        --full) default_sizes="256 512 768 1024" ;;
        *) echo "usage: hw/run.sh [--sim-only | --synth-only] [--full]" >&2; exit 2 ;;
    esac
done

MODRED=${MODRED:-target/release/modred}
# Where the synthesis results go (RESULTS_DIR; `modred report --full` points it into a
# temporary directory when it reruns the synthesis) and the build files (BUILD_DIR).
BUILD=${BUILD_DIR:-hw/build}
RESULTS=${RESULTS_DIR:-hw/results}
mkdir -p "$BUILD" "$RESULTS"

simulate() {
    command -v iverilog >/dev/null || { echo "error: iverilog not found (apt-get install -y iverilog)" >&2; exit 2; }
    if [ ! -x "$MODRED" ]; then
        cargo build --release -p modred-cli
    fi
    local k count
    for spec in 16:200 64:100 256:16; do
        k=${spec%%:*}
        count=${spec##*:}
        "$MODRED" radix2-vectors --bits "$k" --count "$count" --seed "$k" --out "$BUILD/vectors_$k.hex"
        iverilog -g2012 -Wall -o "$BUILD/tb_$k" -P "tb_radix2.K=$k" \
            hw/tb_radix2.v hw/radix2_mont_plain.v hw/radix2_mont_recoded.v
        out=$(vvp -n "$BUILD/tb_$k" "+vectors=$BUILD/vectors_$k.hex" || true)
        echo "$out" | tail -n 3
        if ! echo "$out" | grep -q "^PASS k=$k vectors=$count\$"; then
            echo "error: simulation failed for k = $k" >&2
            exit 1
        fi
    done
    # The testbench must catch a corrupted vector: vector 3's expected plain result
    # replaced by 0 (or 1 where it was 0).
    awk 'NR == 3 { $7 = ($7 == "0") ? "1" : "0" } { print }' \
        "$BUILD/vectors_16.hex" > "$BUILD/vectors_16_corrupted.hex"
    out=$(vvp -n "$BUILD/tb_16" "+vectors=$BUILD/vectors_16_corrupted.hex" || true)
    if echo "$out" | grep -q "^PASS" || ! echo "$out" | grep -q "^FAIL plain vector 2:"; then
        echo "error: the testbench did not catch a corrupted vector" >&2
        echo "$out" >&2
        exit 1
    fi
    echo "corrupted vector caught: $(echo "$out" | grep -m1 '^FAIL plain')"
}

synthesize() {
    command -v yosys >/dev/null || { echo "error: yosys not found (apt-get install -y yosys)" >&2; exit 2; }
    local csv=$RESULTS/synth.csv
    local tmp=$BUILD/synth.csv
    echo "design,k,cells,flip_flops,logic_depth,cycles,seconds" > "$tmp"
    for k in ${SYNTH_SIZES:-$default_sizes}; do
        for design in plain recoded; do
            local top=radix2_mont_$design
            local log=$BUILD/synth_${design}_$k.log
            cat > "$BUILD/synth_${design}_$k.ys" <<YS
read_verilog hw/$top.v
chparam -set K $k $top
synth -top $top
abc -g AND,NAND,OR,NOR,XOR,XNOR,MUX
opt_clean
stat
ltp -noff
YS
            local t0 t1
            t0=$(date +%s.%N)
            yosys -q -l "$log" -s "$BUILD/synth_${design}_$k.ys" >/dev/null
            t1=$(date +%s.%N)
            # The last statistics block is the mapped netlist's.
            local stats cells ffs depth cycles
            stats=$(awk '/Printing statistics/ { block = "" } { block = block $0 "\n" } END { printf "%s", block }' "$log")
            cells=$(echo "$stats" | awk '/Number of cells:/ { print $4; exit }')
            ffs=$(echo "$stats" | awk '/\$_.*DFF|\$_.*FF_/ { s += $2 } END { print s + 0 }')
            depth=$(grep -o 'Longest topological path in [^ ]* (length=[0-9]*)' "$log" | sed 's/.*length=\([0-9]*\))/\1/')
            if [ "$design" = plain ]; then cycles=$((k + 1)); else cycles=$((k + 2)); fi
            printf '%s,%s,%s,%s,%s,%s,%.1f\n' "$design" "$k" "$cells" "$ffs" "$depth" "$cycles" \
                "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" | tee -a "$tmp"
        done
    done
    mv "$tmp" "$csv"
    {
        echo "yosys: $(yosys -V)"
        echo "iverilog: $(iverilog -V 2>/dev/null | head -n 1)"
        echo "synthesis: synth; abc -g AND,NAND,OR,NOR,XOR,XNOR,MUX; stat; ltp -noff"
        echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
    } > "$RESULTS/tools.txt"
    echo "wrote $csv"
}

case "$mode" in
    all) simulate; synthesize ;;
    sim) simulate ;;
    synth) synthesize ;;
esac
