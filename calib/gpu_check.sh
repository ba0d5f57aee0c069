#!/bin/sh
# gpu_check.sh - the one prepared GPU check of issue 12, for a machine with
# an NVIDIA GPU and perhaps no development packages or network: it runs a
# binary built beforehand (`make portable` on a development machine: CUDA,
# cuBLAS and NCCL are loaded with dlopen, cJSON is static or bundled), so
# nothing is compiled here.  It prints what the closing note needs:
#   - the device (nvidia-smi, and as the calibration names it);
#   - the full and the quick per-kernel calibration of --model (default
#     llama-3-8b): exit status and wall time of each;
#   - the largest model GEMM's TFLOP/s as a fraction of the datasheet peak
#     (target >= 75 % for fp16 on H100/H200), and the largest fp8 one
#     (cublasLt, compute capability >= 8.9) against the FP8 peak;
#   - the bf16 points (compute capability >= 8.0): their count, their
#     error against the fp16 fit, the largest dense one's bf16 / fp16 time;
#   - the GEMV bandwidth plateau against the datasheet HBM bandwidth, and
#     the copy plateau;
#   - each fit's error (per_kernel.mape, per class, fp8's own, the layer
#     roofline);
#   - the NCCL collectives (all-reduce, send/recv, all-gather, all-to-all:
#     busbw at the largest size), or the note saying why not (one GPU);
#   - the grouped MoE expert GEMMs of MOE_MODEL (default mixtral-8x7b, a
#     quick calibration): how they were timed (cublasGemmGroupedBatchedEx,
#     or the loop of cublasGemmEx and why), each TP1 group's TFLOP/s and its
#     time per expert against one expert alone at the same tokens;
#   - eval with and without the calibration.
# It fails early and loudly, before the device time goes to measuring:
#   exit 4  no binary, or it does not run here (a missing shared library:
#           build it with `make portable`);
#   exit 3  no GPU (no nvidia-smi, or the binary's cuda backend refusing:
#           no driver, no libcudart), said in one line;
#   exit 5  the probe (a one-point cuda calibration) failed or hung: the
#           full run would too;
#   exit 1  at the end: a later step failed (its exit status is printed);
#           at the start: OUTDIR or WORKDIR cannot be made;
#   exit 0  every step ran.
# Each calibration's line gives its wall time against the issue's target
# (full < 60 s, --quick < 15 s on one H100/H200) and its phases (where the
# time went: calibrate's "phases:" line), then calibrate --plan's predicted
# time per phase next to the measured one (the plan's first check).
# OUTDIR gets four files at most: gpu_check.txt (this script's whole
# output) and fixtures/calibration/<preset>-full.json, -quick.json and
# -moe.json (the real-GPU fixtures, to check into tests/fixtures/ as they
# are; full.json is the one eval is run with).  The device tool brings back
# at most 8 files from $OUT, 2 folders down, so every working file (each
# calibration's .json, .txt and .err, the eval outputs, nvidia-smi's) goes
# to WORKDIR (default a new mktemp -d folder, named in the output).  Every step is bounded so the
# whole script ends within BUDGET seconds (default 300: a second try fits
# in a 10-minute slot); a step cut short says so.
# With this project's device tool (`run`: the working tree is copied, the
# ignored build-portable/ only when carried, $OUT comes back): build here
# with `make portable`, then one call, e.g.
#   run carry=["build-portable/shardscope", "build-portable/libcjson.so.1"]
#       timeout_s=420 command="sh calib/gpu_check.sh build-portable/shardscope"
# (OUTDIR defaults to $OUT; the 300 s budget and the 420 s limit leave a
# second try inside 15 minutes of device time).
#   sh calib/gpu_check.sh [BINARY] [OUTDIR]
#     BINARY default build-portable/shardscope, then ./shardscope
#     OUTDIR default $OUT or /tmp/gpu_check
#   env: WORKDIR (the working files), BUDGET (s), MODEL (default llama-3-8b), MOE_MODEL (default
#   mixtral-8x7b; empty: no MoE phase); BACKEND (default cuda)
#   and CALIB_FLAGS (added to both runs) exist to dry-run the script on a
#   CPU: BACKEND=cpu CALIB_FLAGS="--max-tp 2 --max-tokens 64"
set -u
bin=${1:-}
if [ -z "$bin" ]; then
    bin=build-portable/shardscope
    [ -x "$bin" ] || bin=./shardscope
fi
out=${2:-${OUT:-/tmp/gpu_check}}
model=${MODEL:-llama-3-8b}
moe_model=${MOE_MODEL-mixtral-8x7b}
backend=${BACKEND:-cuda}
flags=${CALIB_FLAGS:-}
budget=${BUDGET:-300}
mkdir -p "$out" || exit 1
# The whole output also goes to OUTDIR/gpu_check.txt (run once more, teed);
# the working files to WORKDIR (chosen once, by the outer run).
if [ -z "${GPU_CHECK_TEED:-}" ]; then
    GPU_CHECK_TEED=1
    GPU_CHECK_WORK=${WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/gpu_check.XXXXXX")} || exit 1
    mkdir -p "$GPU_CHECK_WORK" || exit 1
    export GPU_CHECK_TEED GPU_CHECK_WORK
    work=$GPU_CHECK_WORK
    rm -f "$work/.status"
    sh "$0" "$bin" "$out" 2>&1 | tee "$out/gpu_check.txt"
    st=$(cat "$work/.status" 2>/dev/null || echo 1)
    rm -f "$work/.status"
    exit "$st"
fi
work=${GPU_CHECK_WORK:-$out}
# finish STATUS: the exit status the outer (teeing) run returns.
finish() {
    echo "$1" >"$work/.status"
    exit "$1"
}
failed=0
t_start=$(date +%s)
export XDG_CONFIG_HOME="$work/xdg"

# left: seconds of the budget still unspent (at least 5).
left() {
    l=$((budget - ($(date +%s) - t_start)))
    [ "$l" -lt 5 ] && l=5
    echo "$l"
}

# bounded SECONDS CMD...: run with a time limit when timeout(1) exists.
bounded() {
    s=$1
    shift
    if command -v timeout >/dev/null 2>&1; then
        timeout -k 5 "$s" "$@"
    else
        "$@"
    fi
}

echo "== binary: $bin (output kept in $out, the working files in $work)"
if [ ! -x "$bin" ]; then
    echo "no binary: build one with 'make portable' and copy build-portable/ here"
    finish 4
fi
command -v readelf >/dev/null 2>&1 &&
    echo "NEEDED: $(readelf -d "$bin" | awk '/NEEDED/ { gsub(/[][]/, "", $5); printf "%s ", $5 }')"
if ! "$bin" --version >"$work/version.txt" 2>&1; then
    echo "the binary does not run here: $(tail -n 2 "$work/version.txt" | tr '\n' ' ')"
    echo "(a missing shared library? 'make portable' needs only libc and ncurses)"
    finish 4
fi
cat "$work/version.txt"

echo "== device"
if [ "$backend" = cuda ]; then
    if ! command -v nvidia-smi >/dev/null 2>&1; then
        smi="no nvidia-smi on PATH"
    elif ! nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,memory.total \
        --format=csv >"$work/smi.txt" 2>&1; then
        smi="nvidia-smi failed: $(tail -n 1 "$work/smi.txt")"
    else
        smi=
        sed 's/^/  /' "$work/smi.txt"
    fi
    # the binary's own probe: one line naming what is missing, at once
    probe=$(bounded 60 "$bin" calibrate --backend cuda --quick --no-comm --no-save \
        --model gpt2-124m --max-tp 1 --max-tokens 1 2>&1 >/dev/null)
    prc=$?
    if [ -n "$smi" ] || [ "$prc" -eq 2 ]; then
        echo "no GPU: ${smi:-nvidia-smi lists a GPU}; calibrate --backend cuda: ${probe:-exit $prc}"
        echo "== nothing measured (dry-run the script on a CPU with BACKEND=cpu)"
        finish 3
    fi
    if [ "$prc" -ne 0 ]; then
        echo "the probe calibration failed (exit $prc$([ "$prc" -eq 124 ] && echo ': cut after 60 s')): $(printf '%s' "$probe" | tail -n 2 | tr '\n' ' ')"
        echo "== nothing measured: the full calibration would fail the same way"
        finish 5
    fi
    echo "  probe: calibrate --backend cuda on one point: ok"
else
    echo "  backend $backend (a dry run: no GPU is used)"
fi

# calib NAME TARGET FLAGS...: one calibration into $work/NAME.json (+ .txt,
# .err), its wall time against TARGET seconds (issue 12: full < 60 s,
# --quick < 15 s on one H100/H200; "-" none).
calib() {
    name=$1
    target=$2
    shift 2
    s0=$(date +%s.%N)
    # shellcheck disable=SC2086
    bounded "$(left)" "$bin" calibrate --backend "$backend" --model "$model" $flags "$@" \
        --out "$work/$name.json" >"$work/$name.txt" 2>"$work/$name.err"
    rc=$?
    s1=$(date +%s.%N)
    wall=$(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.1f", b - a }')
    [ "$rc" -eq 0 ] || failed=1
    verdict=
    if [ "$target" != - ] && [ "$backend" != cuda ]; then
        verdict=" (the < $target s target is a GPU's: a dry run)"
    elif [ "$target" != - ]; then
        verdict=$(awk -v w="$wall" -v t="$target" \
            'BEGIN { printf " (target < %d s: %s)", t, w + 0 < t + 0 ? "met" : "MISSED" }')
    fi
    echo "calibrate --backend $backend --model $model $flags $*: exit $rc, wall $wall s$verdict$([ "$rc" -eq 124 ] && echo ' (cut at the budget)')"
    grep -v ': [0-9.]* s: ' "$work/$name.err" | tail -n 3 | sed 's/^/  stderr: /'
}

# plan_vs NAME FLAGS...: calibrate --plan of the same options (its default
# device: the one the run used, matched to its preset) next to what the run
# measured, per phase (the plan's slots are phases_s's keys), so the first
# GPU run checks the plan: "predicted / measured s".
plan_vs() {
    name=$1
    shift
    pj=$work/$name-plan.json
    # shellcheck disable=SC2086
    bounded 30 "$bin" calibrate --plan --backend "$backend" --model "$model" $flags "$@" \
        --json >"$pj" 2>"$work/$name-plan.err"
    prc=$?
    if [ "$prc" -ne 0 ]; then
        echo "  plan: exit $prc: $(tail -n 1 "$work/$name-plan.err")"
        return
    fi
    [ -s "$work/$name.json" ] || { echo "  plan: no $work/$name.json to compare with"; return; }
    awk '
        function num(s) { sub(/^[^:]*:[ \t]*/, "", s); sub(/,$/, "", s); return s + 0 }
        function str(s) { sub(/^[^:]*:[ \t]*"/, "", s); sub(/",?$/, "", s); return s }
        FNR == 1 { file++ }
        file == 1 && /^\t\t"device":/ { dev = str($0) }
        file == 1 && /^\t\t\t\t"slot":/ { slot = str($0)
            if (!(slot in plan)) { order[++n] = slot; plan[slot] = 0 } }
        file == 1 && /^\t\t\t\t"total_s":/ { plan[slot] += num($0) }
        file == 1 && /^\t\t"total_s":/ { ptotal = num($0) }
        file == 2 && /^\t"phases_s":/ { ph = 1; next }
        file == 2 && ph && /^\t}/ { ph = 0 }
        file == 2 && ph { k = $1; gsub(/[\t":]/, "", k); meas[k] = num($0) }
        file == 2 && /^\t"wall_s":/ { wall = num($0) }
        END {
            printf "  plan (%s) / measured:", dev
            for (i = 1; i <= n; i++)
                printf "%s %s %.2f / %.2f s", (i > 1 ? "," : ""), order[i], plan[order[i]], meas[order[i]]
            printf "; fit (not planned) %.2f s; total %.2f / %.2f s (wall)\n", meas["fit"], ptotal, wall
        }' "$pj" "$work/$name.json"
}

# report NAME: the figures of $work/NAME.json (pretty-printed cJSON: one
# field a line, the kernel points' fields in writer order).
report() {
    f=$work/$1.json
    [ -s "$f" ] || { echo "  (no $f)"; return; }
    grep -E '^(calibration|device|roofs|best GEMM|roofline|comm|p2p|all-gather|all-to-all|per-kernel fit|  *(gemm|note|worst)|wall time|phases):' \
        "$work/$1.txt" | sed 's/^/  /'
    awk '
        /^\t"device":/ { v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/,$/, "", v); dev = v }
        /^\t"planned_s":/ { v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/,$/, "", v); planned = v }
        /^\t"(comm_note|collectives_note|kernel_note)":/ { v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/,$/, "", v)
            k = $1; gsub(/[\t":]/, "", k); notes = notes sprintf("  %s: %s\n", k, v) }
        /^\t"per_kernel":/ { pk = 1 }
        pk && /^\t\t"(t0_s|bw_bytes_per_s|gemm_efficiency|small_kernel_s|launch_s|mape|points|peak_flops|copy_bytes_per_s|gemm_efficiency_fp8|peak_flops_fp8|mape_fp8|mape_bf16|pack_bytes_per_s)":/ {
            k = $1; gsub(/[\t":]/, "", k); v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/,$/, "", v)
            pkv[k] = v }
        pk && /^\t\t"class_mape":/ { cm = 1; next }
        cm && /^\t\t}/ { cm = 0 }
        cm { k = $1; gsub(/[\t":]/, "", k); v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/,$/, "", v)
             classes = classes sprintf(" %s %.1f%%", k, 100 * v) }
        pk && /^\t}/ { pk = 0 }
        /^\t\t\t"class":/ { c = $0; sub(/^[^:]*:[ \t]*"/, "", c); sub(/",?$/, "", c) }
        /^\t\t\t"op":/ { op = $0; sub(/^[^:]*:[ \t]*"/, "", op); sub(/",?$/, "", op) }
        /^\t\t\t"dtype":/ { dt = $0; sub(/^[^:]*:[ \t]*"/, "", dt); sub(/",?$/, "", dt) }
        /^\t\t\t"m":/ { m = $2 + 0 } /^\t\t\t"n":/ { n = $2 + 0 } /^\t\t\t"k":/ { kk = $2 + 0 }
        /^\t\t\t"flops":/ { fl = $2 + 0 }
        /^\t\t\t"bytes":/ { by = $2 + 0 }
        /^\t\t\t"time_s":/ { t = $2 + 0
            if (c == "gemm" && dt != "fp8" && dt != "bf16" && op !~ /^grouped_/ && fl > bigf) { bigf = fl; bigt = t; bigs = op " " m "x" n "x" kk }
            if (c == "gemm" && dt != "fp8" && dt != "bf16" && op !~ /^grouped_/ && t > 0 && fl / t > bestf) { bestf = fl / t; bests = op " " m "x" n "x" kk }
            if (c == "gemm" && dt == "fp16" && t > 0) t16[op " " m "x" n "x" kk] = t
            if (c == "gemm" && dt == "bf16" && t > 0) { nb++; if (op !~ /^grouped_/ && fl > bigb) { bigb = fl; bigbt = t; bigbs = op " " m "x" n "x" kk } }
            if (c == "gemm" && dt == "fp8" && fl > big8) { big8 = fl; big8t = t; big8s = op " " m "x" n "x" kk }
            if (c == "gemv" && t > 0 && by / t > gemv) { gemv = by / t; gemvs = by }
            if (c == "copy" && t > 0) copy = by / t }
        END {
            peak = pkv["peak_flops"] + 0
            printf "  device: %s; planned %.2f s\n", dev, planned + 0
            if (bigt > 0)
                printf "  largest model GEMM (%s): %.1f TFLOP/s = %.1f%% of the datasheet %.1f TFLOP/s\n",
                       bigs, bigf / bigt / 1e12, (peak > 0 ? 100 * bigf / bigt / peak : 0), peak / 1e12
            if (bestf > 0)
                printf "  fastest model GEMM (%s): %.1f TFLOP/s = %.1f%% of the datasheet\n",
                       bests, bestf / 1e12, (peak > 0 ? 100 * bestf / peak : 0)
            peak8 = pkv["peak_flops_fp8"] + 0
            if (big8t > 0)
                printf "  largest fp8 GEMM (%s, cublasLt): %.1f TFLOP/s = %.1f%% of the FP8 %.1f TFLOP/s; fp8 efficiency %s, mape_fp8 %.2f%%\n",
                       big8s, big8 / big8t / 1e12, (peak8 > 0 ? 100 * big8 / big8t / peak8 : 0), peak8 / 1e12,
                       pkv["gemm_efficiency_fp8"], 100 * pkv["mape_fp8"]
            else
                printf "  fp8: not measured (see kernel_note)\n"
            if (nb > 0)
                printf "  bf16: %d GEMM points (every token count, grouped MoE too), mape_bf16 %.2f%% against the fp16 fit; largest (%s): %.1f TFLOP/s, bf16 / fp16 time %.3f\n",
                       nb, 100 * pkv["mape_bf16"], bigbs, bigb / bigbt / 1e12,
                       (t16[bigbs] > 0 ? bigbt / t16[bigbs] : 0)
            else
                printf "  bf16: not measured (see kernel_note)\n"
            if (gemv > 0)
                printf "  GEMV plateau: %.0f GB/s (at %.0f MB)\n", gemv / 1e9, gemvs / 1e6
            if (copy > 0)
                printf "  copy plateau: %.0f GB/s (read + write)\n", copy / 1e9
            printf "  per_kernel: gemm efficiency %.3f, bw %.1f GB/s, t0 %.2f us, small kernel %.2f us, launch %.2f us\n",
                   pkv["gemm_efficiency"], pkv["bw_bytes_per_s"] / 1e9, pkv["t0_s"] * 1e6,
                   pkv["small_kernel_s"] * 1e6, pkv["launch_s"] * 1e6
            printf "  per_kernel.mape %.2f%% over %s points; by class:%s\n",
                   100 * pkv["mape"], pkv["points"], classes
            printf "%s", notes
        }' "$f"
}

echo "== full calibration ($model)"
calib full 60
report full
plan_vs full
echo "== quick calibration ($model)"
calib quick 15 --quick --no-comm
report quick
plan_vs quick --quick --no-comm

# moe_report NAME: the grouped expert GEMMs of $work/NAME.json at TP 1:
# experts x tokens each, time, TFLOP/s, time per expert against one expert
# of the same shape alone at the same tokens (expert_*), and the note.
moe_report() {
    f=$work/$1.json
    [ -s "$f" ] || { echo "  (no $f)"; return; }
    awk '
        /^\t"kernel_note":/ { v = $0; sub(/^[^:]*:[ \t]*"/, "", v); sub(/",?$/, "", v)
            n = split(v, parts, /; /)
            for (i = 1; i <= n; i++) if (parts[i] ~ /grouped MoE|GroupedBatched/) note = note "  " parts[i] "\n" }
        /^\t\t\t"op":/ { op = $0; sub(/^[^:]*:[ \t]*"/, "", op); sub(/",?$/, "", op) }
        /^\t\t\t"dtype":/ { dt = $0; sub(/^[^:]*:[ \t]*"/, "", dt); sub(/",?$/, "", dt) }
        /^\t\t\t"tp":/ { tp = $2 + 0 }
        /^\t\t\t"m":/ { m = $2 + 0 } /^\t\t\t"n":/ { n = $2 + 0 } /^\t\t\t"k":/ { kk = $2 + 0 }
        /^\t\t\t"batch":/ { b = $2 + 0 } /^\t\t\t"calls":/ { calls = $2 + 0 }
        /^\t\t\t"flops":/ { fl = $2 + 0 }
        /^\t\t\t"time_s":/ { t = $2 + 0
            if (tp == 1 && dt != "fp8" && op ~ /^expert_/) { key = substr(op, 8) " " m; one[key] = t }
            if (tp == 1 && op ~ /^grouped_/) { g++; go[g] = op; gm[g] = m; gn[g] = n; gk[g] = kk
                gb[g] = b; gc[g] = calls; gt[g] = t; gf[g] = fl } }
        END {
            printf "%s", note
            for (i = 1; i <= g; i++) {
                key = substr(go[i], 9) " " gm[i]
                printf "  %s TP1 %d experts x %d tokens (%dx%d, %d call%s): %.1f µs, %.2f TFLOP/s, %.2f µs per expert",
                       go[i], gb[i], gm[i], gn[i], gk[i], gc[i], gc[i] == 1 ? "" : "s", gt[i] * 1e6,
                       gf[i] / gt[i] / 1e12, gt[i] / gb[i] * 1e6
                if (key in one)
                    printf " (one expert alone %.2f µs: %.2fx)", one[key] * 1e6, one[key] / (gt[i] / gb[i])
                printf "\n"
            }
            if (g == 0) printf "  no grouped points (not an MoE model?)\n"
        }' "$f"
}
if [ -n "$moe_model" ]; then
    echo "== grouped MoE expert GEMMs ($moe_model, quick)"
    model_saved=$model
    model=$moe_model
    calib moe - --quick --no-comm
    report moe
    plan_vs moe --quick --no-comm
    moe_report moe
    model=$model_saved
fi

# The datasheet HBM bandwidth of the matched preset, for the GEMV line.
preset=$(awk '/^\t"preset":/ { v = $0; sub(/^[^:]*:[ \t]*"/, "", v); sub(/",?$/, "", v); print v; exit }' \
    "$work/full.json" 2>/dev/null)
matched=${preset:-$backend}
[ -n "$preset" ] || preset=h100-sxm
"$bin" list gpus 2>/dev/null | awk -v p="$preset" '$1 == p { print "  datasheet (" p "): " $0 }'

echo "== eval with and without the calibration ($model on 1 x $preset)"
for c in "--no-calib" "--calib $work/full.json"; do
    # shellcheck disable=SC2086
    bounded "$(left)" "$bin" eval --model "$model" --gpu "$preset" --gpus 1 --tp 1 $c \
        >"$work/eval.txt" 2>"$work/eval.err"
    erc=$?
    [ "$erc" -eq 0 ] || failed=1
    echo "eval $c: exit $erc"
    grep -E '^(framework|  TTFT|  ITL|  generated)' "$work/eval.txt" | sed 's/^/  /'
    sed 's/^/  stderr: /' "$work/eval.err" | head -3
done
if [ -n "$moe_model" ] && [ -s "$work/moe.json" ]; then
    echo "== eval of $moe_model on 2 x $preset (TP2) with and without its calibration"
    for c in "--no-calib" "--calib $work/moe.json"; do
        # shellcheck disable=SC2086
        bounded "$(left)" "$bin" eval --model "$moe_model" --gpu "$preset" --gpus 2 --tp 2 $c \
            >"$work/eval-moe.txt" 2>"$work/eval-moe.err"
        erc=$?
        [ "$erc" -eq 0 ] || failed=1
        echo "eval $c: exit $erc"
        grep -E '^(framework|  TTFT|  ITL|  generated)' "$work/eval-moe.txt" | sed 's/^/  /'
        sed 's/^/  stderr: /' "$work/eval-moe.err" | head -3
    done
fi
# The fixtures-to-be, named by the preset the device matched.
mkdir -p "$out/fixtures/calibration"
for n in full quick moe; do
    [ -s "$work/$n.json" ] && cp "$work/$n.json" "$out/fixtures/calibration/$matched-$n.json"
done
echo "== fixtures to check in: $out/fixtures/calibration/ ($(ls "$out/fixtures/calibration" | tr '\n' ' ')) into tests/fixtures/calibration/ (tests/unit/test_calib_gpu_fixture.c checks each), and $out/gpu_check.txt"
echo "== done in $(($(date +%s) - t_start)) s of a $budget s budget; kept in $out (the working files: $work)"
find "$out" -type f | sort | sed 's/^/  /'
[ "$failed" -eq 0 ] || echo "== a step failed (see its exit status above)"
finish "$failed"
