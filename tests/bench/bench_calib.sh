#!/bin/sh
# bench_calib.sh - how long the CPU calibrations take on this machine, each
# next to calibrate --plan's prediction of the same options, per phase (the
# plan's slots are phases_s's keys: "predicted / measured s"), with the
# fits they produced and per_kernel.mape:
#   - `calibrate --backend cpu --quick --model llama-3-8b` (target: under
#     15 s, the layer sweep and the per-kernel sweep on OpenBLAS together);
#   - a scaled full run, `--max-tp 2 --max-tokens 64` (the full layer grid
#     and the full repeats, the model GEMMs capped): the unscaled full CPU
#     run plans 166 s (TP <= 8, tokens <= 2048), too long for make bench.
# Run by `make bench` as: sh tests/bench/bench_calib.sh ./shardscope.  Prints
# figures only; never fails on a timing.
set -u
bin=${1:-./shardscope}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/shardscope-bench-calib.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# plan_vs NAME FLAGS...: the plan of the same options next to the run's
# phases_s (from $tmp/NAME.json, pretty-printed cJSON: one field a line).
plan_vs() {
    name=$1
    shift
    if ! "$bin" calibrate --plan --backend cpu --model llama-3-8b "$@" --json \
        >"$tmp/$name-plan.json" 2>"$tmp/$name-plan.err"; then
        echo "  plan: failed: $(tail -n 1 "$tmp/$name-plan.err")"
        return
    fi
    awk '
        function num(s) { sub(/^[^:]*:[ \t]*/, "", s); sub(/,$/, "", s); return s + 0 }
        function str(s) { sub(/^[^:]*:[ \t]*"/, "", s); sub(/",?$/, "", s); return s }
        FNR == 1 { file++ }
        file == 1 && /^\t\t\t\t"slot":/ { slot = str($0)
            if (!(slot in plan)) { order[++n] = slot; plan[slot] = 0 } }
        file == 1 && /^\t\t\t\t"total_s":/ { plan[slot] += num($0) }
        file == 1 && /^\t\t"total_s":/ { ptotal = num($0) }
        file == 2 && /^\t"phases_s":/ { ph = 1; next }
        file == 2 && ph && /^\t}/ { ph = 0 }
        file == 2 && ph { k = $1; gsub(/[\t":]/, "", k); meas[k] = num($0) }
        file == 2 && /^\t"wall_s":/ { wall = num($0) }
        END {
            printf "  plan / measured:"
            for (i = 1; i <= n; i++)
                printf "%s %s %.2f / %.2f s", (i > 1 ? "," : ""), order[i], plan[order[i]], meas[order[i]]
            printf "; fit (not planned) %.2f s; total %.2f / %.2f s (wall)\n", meas["fit"], ptotal, wall
        }' "$tmp/$name-plan.json" "$tmp/$name.json"
}

# run NAME LABEL TARGET FLAGS...: one calibration (saved under $tmp only),
# its wall time and figures, then the plan beside it.
run() {
    name=$1 label=$2 target=$3
    shift 3
    load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
    start=$(date +%s.%N)
    XDG_CONFIG_HOME=$tmp "$bin" calibrate --backend cpu --model llama-3-8b "$@" \
        --out "$tmp/$name.json" >"$tmp/$name.txt" 2>"$tmp/$name.err"
    rc=$?
    end=$(date +%s.%N)
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
    if [ "$rc" -ne 0 ]; then
        echo "calibrate --backend cpu $label: failed (exit $rc): $(head -c 300 "$tmp/$name.err")"
        return
    fi
    echo "calibrate --backend cpu $label --model llama-3-8b: $secs s wall$target (load $load)"
    grep -E '^(best GEMM|power law|roofline|comm|per kernel|per-kernel fit|wall time|phases):' \
        "$tmp/$name.txt" | sed 's/^/  /'
    grep -E '^ +(gemm|note:|worst:)' "$tmp/$name.txt" | sed 's/^/  /'
    plan_vs "$name" "$@"
}

run quick "--quick" " (target < 15 s)" --quick
run full "full, scaled (--max-tp 2 --max-tokens 64)" "" --max-tp 2 --max-tokens 64
exit 0
