#!/bin/sh
# e2e_calib.sh - `shardscope calibrate` end to end on the CPU backend: the
# JSON fields (backend, device, points, power_law, roofline, comm; mape a
# fraction), the atomic save (--out and the XDG default, no temporary file
# left), `--backend cuda` exiting 2 with one line when no GPU is usable,
# `auto` saying it fell back, no CUDA library in the binary's NEEDED list,
# the usage errors, another GPU's calibration applied only when named
# (--calib, a note naming both presets), and Ctrl-C (SIGINT) exiting 130
# with the previous calibration kept; `calibrate --plan` (text and --json:
# phases, counts, the budget) measuring nothing, and its usage errors.
# POSIX sh + grep/awk.
# Usage: sh tests/e2e_calib.sh PATH_TO_BINARY.  Timings are never asserted.
set -u

bin=${1:-./shardscope}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/shardscope-e2e-calib.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

XDG_CONFIG_HOME=$tmp/xdg
HOME=$tmp/home
export XDG_CONFIG_HOME HOME
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib_e2e.sh"

# has_key FILE KEY: a "KEY": line in the (pretty-printed) JSON.
has_key() {
    grep -q "\"$2\":" "$1" ||
        fail "$what: no \"$2\" in $1 ($(grep -o '"[a-z_]*note":[^,]*' "$1" | tr '\n' ' ' | head -c 600))"
}

# Every "mape": value of the layer fits must be a fraction in [0, 1);
# per_kernel.mape a non-negative number (its size is the machine's, not
# asserted: a CPU's kernels need not follow one bandwidth).
check_mape() {
    awk -v what="$what" '
        /^\t"per_kernel":/ { inpk = 1 }
        inpk && /^\t}/ { inpk = 0 }
        /"mape":/ {
            v = $0; sub(/.*"mape":[ \t]*/, "", v); sub(/,.*/, "", v)
            if (inpk) {
                if (v !~ /^[0-9.e+-]+$/ || v + 0 < 0) { print "FAIL: " what ": per_kernel.mape " v; bad = 1 }
                next
            }
            n++
            if (v + 0 < 0 || v + 0 >= 1) { print "FAIL: " what ": mape " v " is not a fraction"; bad = 1 }
        }
        END { if (n < 2) { print "FAIL: " what ": expected 2 mape fields, got " n; bad = 1 } exit bad }
    ' "$1" || failed=$((failed + 1))
}

# --- CPU, --quick, --json, --out --------------------------------------------
out=$tmp/cal/cpu.json
run calibrate --backend cpu --quick --model llama-3-8b --json --out "$out"
expect_rc 0
cp "$tmp/out" "$tmp/stdout.json"
expect_schema "$tmp/stdout.json"
grep -Eq '"backend":[[:space:]]*"cpu"' "$tmp/stdout.json" || fail "$what: backend is not \"cpu\""
grep -Eq '"device":[[:space:]]*"CPU' "$tmp/stdout.json" || fail "$what: device is not labelled CPU"
for k in points power_law a beta mape r2 roofline eta_compute eta_memory overhead_s \
         comm alpha_s bandwidth_bytes_per_s hidden batch seq time_s; do
    has_key "$tmp/stdout.json" "$k"
done
grep -q '"label":[[:space:]]*"loopback (2 local processes)"' "$tmp/stdout.json" ||
    fail "$what: comm is not labelled as a loopback"
npoints=$(grep -c '"kind":' "$tmp/stdout.json")
[ "$npoints" -ge 20 ] || fail "$what: only $npoints points"
check_mape "$tmp/stdout.json"
# the per-kernel calibration (schema 2): Llama-3-8B's GEMMs on OpenBLAS
grep -Eq '"schema":[[:space:]]*2,' "$tmp/stdout.json" || fail "$what: not schema 2"
grep -Eq '"library":[[:space:]]*"OpenBLAS [0-9]' "$tmp/stdout.json" || fail "$what: library is not OpenBLAS"
grep -Eq '"model":[[:space:]]*"llama-3-8b"' "$tmp/stdout.json" || fail "$what: model is not llama-3-8b"
for k in per_kernel t0_s bw_bytes_per_s gemm_efficiency small_kernel_s launch_s points kernels \
         class_mape model_s; do
    has_key "$tmp/stdout.json" "$k"
done
# 3 TP degrees (--quick on the CPU: TP <= 4) x 5 token counts (1..256) x 4 GEMMs
ngemm=$(grep -c '"class":[[:space:]]*"gemm"' "$tmp/stdout.json")
[ "$ngemm" -eq 60 ] || fail "$what: $ngemm model GEMM points, expected 60"
grep -Eq '"op":[[:space:]]*"gate_up"' "$tmp/stdout.json" || fail "$what: no gate_up GEMM"
grep -Eq '"n":[[:space:]]*6144,' "$tmp/stdout.json" || fail "$what: no TP1 QKV GEMM (n 6144)"
[ -f "$out" ] || fail "$what: --out file $out not written"
if [ -f "$out" ]; then
    for k in backend device date roofline eta_compute eta_memory overhead_s power_law; do
        has_key "$out" "$k"
    done
fi
ls -a "$tmp/cal" | grep -q '\.tmp\.' && fail "$what: a temporary file was left behind"
[ -d "$XDG_CONFIG_HOME/shardscope/calibration" ] &&
    fail "$what: --out should not also write the default store"
grep -q "saved $out" "$tmp/err" || fail "$what: stderr does not say where it saved: $(cat "$tmp/err")"

# --- eval uses it: the CPU's rates, a note naming both devices ---------------
run eval --model llama-3-8b --gpu h100-sxm --gpus 1 --tp 1 --no-calib --json
expect_rc 0
itl0=$(grep -m1 '"itl_s":' "$tmp/out" | sed 's/.*: *//; s/,.*//')
grep -A3 '"calibration_used":' "$tmp/out" | grep -q '"file":[[:space:]]*null' ||
    fail "$what: calibration_used.file is not null without a calibration"
grep -Eq '"gemm":[[:space:]]*"default"' "$tmp/out" || fail "$what: gemm is not a datasheet default"
grep -Eq '"gemm_tables":[[:space:]]*null' "$tmp/out" || fail "$what: gemm_tables is not null without a calibration"
run eval --model llama-3-8b --gpu h100-sxm --gpus 1 --tp 1 --calib "$out" --json
expect_rc 0
itl1=$(grep -m1 '"itl_s":' "$tmp/out" | sed 's/.*: *//; s/,.*//')
awk -v a="$itl0" -v b="$itl1" 'BEGIN { exit !(a > 0 && b > 10 * a) }' ||
    fail "$what: ITL $itl1 s with the CPU calibration is not 10x the H100's $itl0 s"
grep -q "\"file\":[[:space:]]*\"$out\"" "$tmp/out" || fail "$what: calibration_used.file is not $out"
grep -Eq '"gemm":[[:space:]]*"measured"' "$tmp/out" || fail "$what: gemm is not measured"
grep -Eq '"launch":[[:space:]]*"fitted"' "$tmp/out" || fail "$what: launch is not fitted"
grep -Eq '"gemm_tables":[[:space:]]*"fp32"' "$tmp/out" || fail "$what: gemm_tables is not the CPU's fp32"
grep -q "^shardscope eval: --calib: note: $out was measured on CPU.* (cpu), applied to h100-sxm" "$tmp/err" ||
    fail "$what: no note naming both devices: $(cat "$tmp/err")"
# bf16 tables (issue 12 sect. 1): the CPU file's GEMM points relabelled bf16
# are read by a bf16 scenario as bf16 tables; an fp16 one finds none of its own
sed 's/"dtype":[[:space:]]*"fp32"/"dtype": "bf16"/' "$out" >"$tmp/bf16.json"
run eval --model llama-3-8b --gpu h100-sxm --gpus 1 --tp 1 --dtype bf16 --calib "$tmp/bf16.json" --json
expect_rc 0
grep -Eq '"gemm_tables":[[:space:]]*"bf16"' "$tmp/out" || fail "$what: a bf16 scenario does not read the bf16 tables"
run eval --model llama-3-8b --gpu h100-sxm --gpus 1 --tp 1 --dtype fp16 --calib "$tmp/bf16.json" --json
expect_rc 0
grep -Eq '"gemm_tables":[[:space:]]*null' "$tmp/out" || fail "$what: an fp16 scenario reads bf16 tables"
grep -Eq '"gemm":[[:space:]]*"fitted"' "$tmp/out" || fail "$what: gemm is not fitted without tables of its math"
# A GPU's calibration (this file relabelled an H100 SXM's) applies to
# another GPU only when named: --calib with a note naming both presets;
# in the store it is used for its own preset and not for the other.
sed -e 's/"backend":[[:space:]]*"cpu"/"backend": "cuda"/' \
    -e 's/"preset":[[:space:]]*""/"preset": "h100-sxm"/' "$out" >"$tmp/h100.json"
run eval --model llama-3-8b --gpu a100-80gb --gpus 1 --tp 1 --calib "$tmp/h100.json"
expect_rc 0
grep -q "^shardscope eval: --calib: note: $tmp/h100.json was measured for h100-sxm, applied to a100-80gb$" "$tmp/err" ||
    fail "$what: no note naming both GPUs: $(cat "$tmp/err")"
grep -q '^framework: .*calibration: measured on ' "$tmp/out" || fail "$what: --calib not applied"
mkdir -p "$tmp/xdg2/shardscope/calibration"
cp "$tmp/h100.json" "$tmp/xdg2/shardscope/calibration/h100-sxm.json"
XDG_CONFIG_HOME=$tmp/xdg2
run eval --model llama-3-8b --gpu a100-80gb --gpus 1 --tp 1
expect_rc 0
grep -q '^framework: .*calibration: datasheet defaults$' "$tmp/out" ||
    fail "$what: another GPU's saved calibration applied: $(grep '^framework' "$tmp/out")"
run eval --model llama-3-8b --gpu h100-sxm --gpus 1 --tp 1
expect_rc 0
grep -q '^framework: .*calibration: measured on ' "$tmp/out" ||
    fail "$what: the H100's saved calibration not applied: $(grep '^framework' "$tmp/out")"
XDG_CONFIG_HOME=$tmp/xdg
# an older file loads with a note; a newer one is refused with the reason
sed 's/"schema":[[:space:]]*2,/"schema": 1,/' "$out" >"$tmp/old.json"
run eval --model llama-3-8b --gpu h100-sxm --gpus 1 --tp 1 --calib "$tmp/old.json" --json
expect_rc 0
grep -q "note: $tmp/old.json is a schema 1 file: no per-kernel fit" "$tmp/err" ||
    fail "$what: no schema note: $(cat "$tmp/err")"
grep -Eq '"schema":[[:space:]]*1,' "$tmp/out" || fail "$what: calibration_used.schema is not 1"
sed 's/"schema":[[:space:]]*2,/"schema": 3,/' "$out" >"$tmp/new.json"
run eval --model llama-3-8b --gpu h100-sxm --gpus 1 --tp 1 --calib "$tmp/new.json"
expect_rc 2
grep -q "schema 3 is newer than this shardscope reads (2)" "$tmp/err" ||
    fail "$what: newer schema not refused with the reason: $(cat "$tmp/err")"
run calibrate --backend cpu --quick --model no-such-model --no-save
expect_rc 2
grep -q "^shardscope calibrate: --model: " "$tmp/err" || fail "$what: stderr: $(cat "$tmp/err")"

# --- text output, default store ---------------------------------------------
run calibrate --backend cpu --quick --no-comm --model gpt2-124m
expect_rc 0
grep -q '^power law: T = ' "$tmp/out" || fail "$what: no power-law line"
grep -q '^roofline:  eta_compute ' "$tmp/out" || fail "$what: no roofline line"
# the point each fitted class misses most, with its signed error
grep -Eq '^ +worst: gemm [a-z_]+ TP[0-9]+ [0-9]+x[0-9]+x[0-9]+ [-+][0-9.]+%; gemv gemv TP0 ' "$tmp/out" ||
    fail "$what: no worst-point line: $(grep -A2 '^per-kernel fit' "$tmp/out")"
# where the wall time went: the layer grid first, the fit last, no
# collectives under --no-comm
grep -Eq '^phases: layer grid [0-9.]+ s, model GEMMs [0-9.]+ s, GEMV [0-9.]+ s, copy [0-9.]+ s, attention [0-9.]+ s, launch [0-9.]+ s, fit [0-9.]+ s$' "$tmp/out" ||
    fail "$what: no phases line: $(grep '^phases' "$tmp/out")"
grep -q "^saved: $XDG_CONFIG_HOME/shardscope/calibration/cpu-.*\.json (CPU: used only when named explicitly)$" "$tmp/out" ||
    fail "$what: not saved in the XDG store: $(grep saved "$tmp/out")"
n=$(ls "$XDG_CONFIG_HOME/shardscope/calibration" 2>/dev/null | grep -c '^cpu-.*\.json$')
[ "$n" -eq 1 ] || fail "$what: expected one cpu-*.json in the store, found $n"

# --- cuda without a GPU ---------------------------------------------------
run calibrate --backend cuda --quick --no-comm --no-save --model gpt2-124m
if [ "$rc" -eq 0 ]; then
    echo "note: a usable GPU is present; the no-GPU exit status is not checked here"
else
    expect_rc 2
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: stderr is not one line: $(cat "$tmp/err")"
    grep -q '^shardscope calibrate: --backend cuda: ' "$tmp/err" ||
        fail "$what: unexpected stderr: $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "$what: printed on stdout"

    run calibrate --quick --no-comm --no-save --json --model gpt2-124m
    expect_rc 0
    grep -q '^shardscope calibrate: auto: .*; using the CPU backend$' "$tmp/err" ||
        fail "$what: auto did not say it fell back: $(cat "$tmp/err")"
    grep -Eq '"backend":[[:space:]]*"cpu"' "$tmp/out" || fail "$what: auto did not run the CPU"
    grep -q '"notes":' "$tmp/out" || fail "$what: no notes about the fallback"
fi

# --- CUDA is loaded at calibration time, never linked ------------------------
run --version
expect_rc 0
[ -s "$tmp/err" ] && fail "$what: printed on stderr: $(cat "$tmp/err")"
if command -v readelf >/dev/null 2>&1; then
    checks=$((checks + 1))
    needed=$(readelf -d "$bin" | grep NEEDED | tr -s ' ')
    printf '%s\n' "$needed" | grep -Eq 'libcu(blas|blasLt|dart)' &&
        fail "readelf -d $bin: a CUDA library in NEEDED: $needed"
fi

# --- --plan: the budget before a run, measuring nothing -----------------------
saved_before=$(ls "$XDG_CONFIG_HOME/shardscope/calibration" 2>/dev/null | wc -l)
run calibrate --plan --gpu h100-sxm
expect_rc 0
expect_out '^calibration plan: h100-sxm \(cuda backend, 1 GPU\), model llama-3-8b, full, TP <= 8, tokens <= 16384$'
expect_out '^layer grid +layer_grid +66 +1 +5 +396 '
expect_out '^model GEMMs fp8 TP8 +gemm_fp8 +60 +1 +5 +360 .* m 1\.\.16384$'
expect_out '^loopback \(2 processes\) +collectives +10 +1 +5\.\.41 '
expect_out '^model GEMMs bf16 TP8 +gemm +60 +1 +5 +360 .* m 1\.\.16384$'
expect_out '^total +817 '
expect_out '^predicted: [0-9.]+ (s|ms), within issue 12.s budget \(full, on one H100/H200: < 60 s\)$'
expect_out '^assumptions: device: the engine.s kernel model of h100-sxm '
[ -s "$tmp/err" ] && fail "$what: printed on stderr: $(cat "$tmp/err")"
[ "$(ls "$XDG_CONFIG_HOME/shardscope/calibration" 2>/dev/null | wc -l)" -eq "$saved_before" ] ||
    fail "$what: saved a calibration"
run calibrate --plan --gpu h200 --gpus 8 --quick --json
expect_rc 0
expect_schema
for k in backend device model quick gpus max_tp max_tokens phases kernels device_s host_s \
    total_s budget_s within_budget assumptions slot runs reps_min reps_max; do
    has_key "$tmp/out" "$k"
done
grep -Eq '"within_budget":[[:space:]]*true' "$tmp/out" || fail "$what: not within the budget"
grep -Eq '"budget_s":[[:space:]]*15,' "$tmp/out" || fail "$what: budget_s is not 15"
grep -Eq '"name":[[:space:]]*"NCCL all-to-all"' "$tmp/out" || fail "$what: no NCCL all-to-all phase"
run calibrate --plan --backend cpu --quick --no-comm --max-tp 1 --max-tokens 4
expect_rc 0
expect_out '^calibration plan: CPU \(cpu backend\), model llama-3-8b, --quick, TP <= 1, tokens <= 4$'
expect_out '^assumptions: CPU: no kernel model '
grep -q '^loopback' "$tmp/out" && fail "$what: --no-comm planned the loopback"
run calibrate --plan --gpu nosuchgpu
expect_rc 2
grep -q "^shardscope calibrate: --gpu: unknown gpu 'nosuchgpu'" "$tmp/err" ||
    fail "$what: stderr: $(cat "$tmp/err")"
run calibrate --gpu h100-sxm --no-save
expect_rc 2
[ "$(cat "$tmp/err")" = "shardscope calibrate: --gpu: only with --plan (a run measures this machine)" ] ||
    fail "$what: stderr: $(cat "$tmp/err")"

# --- usage ------------------------------------------------------------------
run calibrate --backend tpu
expect_rc 2
[ "$(cat "$tmp/err")" = "shardscope calibrate: --backend: expected auto|cuda|cpu, got 'tpu'" ] ||
    fail "$what: stderr: $(cat "$tmp/err")"
run calibrate --device x
expect_rc 2
[ "$(cat "$tmp/err")" = "shardscope calibrate: --device: expected an integer 0..1023, got 'x'" ] ||
    fail "$what: stderr: $(cat "$tmp/err")"
run calibrate --out
expect_rc 2
[ "$(cat "$tmp/err")" = "shardscope calibrate: --out: missing value" ] ||
    fail "$what: stderr: $(cat "$tmp/err")"
run calibrate --frobnicate
expect_rc 2
run calibrate --help
expect_rc 0
grep -q '^usage: shardscope calibrate ' "$tmp/out" || fail "$what: no usage line"
grep -q '^ *\[--model NAME\] \[--max-tp N\] \[--max-tokens N\]$' "$tmp/out" ||
    fail "$what: the usage does not name --model, --max-tp and --max-tokens"

# Ctrl-C cancels a running calibration: status 130 (128 + SIGINT), the
# previous calibration at --out kept byte for byte, no temporary file.  The
# signal goes once stderr (not a terminal: a line per phase) shows the
# measuring under way, so the handler is in place: a default SIGINT death
# would read 130 too, but without the sentence.  A background job of a
# script ignores SIGINT, so env puts its default action back (GNU env;
# skipped without it).  The run names no --model: the default, Llama-3-8B,
# plans 68 points under --quick on the CPU (60 model GEMMs, 2 GEMVs, a
# copy, 4 attention points, a launch), and the signal comes once that plan
# is said, in the per-kernel sweep.
if env --default-signal=INT true 2>/dev/null; then
    checks=$((checks + 1))
    what="calibrate interrupted by SIGINT"
    mkdir -p "$tmp/int"
    printf '{"a previous calibration": 1}\n' >"$tmp/int/c.json"
    cp "$tmp/int/c.json" "$tmp/prev.json"
    env --default-signal=INT "$bin" calibrate --backend cpu --quick --out "$tmp/int/c.json" \
        >/dev/null 2>"$tmp/int-err" </dev/null &
    pid=$!
    i=0
    while [ "$i" -lt 900 ] && ! grep -q ': cpu: planned ' "$tmp/int-err" 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    kill -INT $pid
    wait $pid
    rc=$?
    expect_rc 130
    grep -q ': cpu: planned 68 points, ' "$tmp/int-err" ||
        fail "$what: the default model is not llama-3-8b: $(grep planned "$tmp/int-err")"
    grep -q '^shardscope calibrate: cancelled; the previous calibration is kept$' "$tmp/int-err" ||
        fail "$what: stderr: $(tail -n 2 "$tmp/int-err")"
    cmp -s "$tmp/int/c.json" "$tmp/prev.json" || fail "$what: the previous calibration changed"
    [ "$(ls "$tmp/int")" = c.json ] || fail "$what: left $(ls "$tmp/int")"
fi

# --- the CUDA values the cuda backend declares, against the toolkit's ---------
# calib/backend/cuda.c builds without CUDA's headers: it declares the few
# enum values it passes (CUBLAS_*, CUDA_R_*, LT_DESC_* = cublasLt's
# CUBLASLT_MATMUL_DESC_*, CUDA_STREAM_CAPTURE_GLOBAL, NCCL_*), and calib.h
# the runtime's (CALIB_CUDA_*, each naming the real one in a comment).
# Where a toolkit is installed (CUDA_HOME, default /usr/local/cuda), each is
# compiled against the real header as a static assertion, with the
# property buffer at least sizeof(struct cudaDeviceProp); else skipped.
src=$here/../..
cuda_inc=${CUDA_HOME:-/usr/local/cuda}/include
if [ -f "$cuda_inc/cublasLt.h" ] && [ -f "$cuda_inc/cuda_runtime.h" ] && command -v cc >/dev/null 2>&1; then
    checks=$((checks + 1))
    what="the cuda backend's CUDA values against $cuda_inc"
    {
        printf '#include <stddef.h>\n#include <cuda_runtime.h>\n#include <cublas_v2.h>\n#include <cublasLt.h>\n'
        printf '#if __has_include(<nccl.h>)\n#include <nccl.h>\n#define HAVE_NCCL 1\n#endif\n'
        printf '#include "calib.h"\n'
        awk '/^#define (CUBLAS_|CUDA_R_|LT_DESC_|NCCL_FLOAT32|NCCL_SUM|CUDA_STREAM_CAPTURE_GLOBAL)/ {
                name = $2; val = $3; real = name
                if (name ~ /^LT_DESC_/) { real = name; sub(/^LT_DESC_/, "CUBLASLT_MATMUL_DESC_", real) }
                if (name == "CUDA_STREAM_CAPTURE_GLOBAL") real = "cudaStreamCaptureModeGlobal"
                if (name == "NCCL_FLOAT32") real = "ncclFloat32"
                if (name == "NCCL_SUM") real = "ncclSum"
                nccl = real ~ /^nccl/
                if (nccl) print "#ifdef HAVE_NCCL"
                printf "_Static_assert((long)%s == (long)%s, \"cuda.c: %s %s\");\n", real, val, name, val
                if (nccl) print "#endif"
                n++ }
             END { if (n < 15) print "#error only " n " values found in cuda.c" }' \
            "$src/calib/backend/cuda.c"
        awk '/^ *CALIB_CUDA_[A-Z0-9_]+ = [0-9]+, *\/\* cuda[A-Za-z]+ \*\/$/ {
                name = $1; real = $5
                printf "_Static_assert((long)%s == (long)%s, \"calib.h: %s\");\n", real, name, name
                n++ }
             END { if (n < 8) print "#error only " n " values found in calib.h" }' "$src/calib/calib.h"
        printf '_Static_assert(sizeof(struct cudaDeviceProp) <= CALIB_CUDA_PROP_BYTES, "prop buffer");\n'
        printf '_Static_assert(offsetof(struct cudaDeviceProp, name) == 0, "name first");\n'
    } >"$tmp/cuda_abi.c"
    cc -std=c11 -fsyntax-only -I"$cuda_inc" -I"$src/calib" -I"$src/engine" "$tmp/cuda_abi.c" \
        >"$tmp/cuda_abi.err" 2>&1 ||
        fail "$what: $(grep -E 'error' "$tmp/cuda_abi.err" | head -n 5)"
else
    echo "note: no CUDA toolkit headers at $cuda_inc; the declared CUDA values are not checked here"
fi

# --- calib/gpu_check.sh fails early, and leaves OUTDIR small -----------------
# Its early exits (4: no binary; 3: no GPU, said in one line) measure
# nothing, and OUTDIR holds only gpu_check.txt: the working files go to
# WORKDIR, since the device tool brings back at most 8 files from $OUT.
gpu_check=$here/../../calib/gpu_check.sh
checks=$((checks + 1))
what="gpu_check.sh without a binary"
WORKDIR=$tmp/gcw4 sh "$gpu_check" "$tmp/no-such-binary" "$tmp/gc4" >"$tmp/gc.out" 2>&1
rc=$?
expect_rc 4
grep -q '^no binary: build one with .make portable.' "$tmp/gc.out" || fail "$what: $(cat "$tmp/gc.out")"
[ "$(cd "$tmp/gc4" && find . -type f)" = ./gpu_check.txt ] ||
    fail "$what: OUTDIR holds $(cd "$tmp/gc4" && find . -type f | tr '\n' ' ')"
cmp -s "$tmp/gc.out" "$tmp/gc4/gpu_check.txt" || fail "$what: gpu_check.txt is not the whole output"
if command -v nvidia-smi >/dev/null 2>&1; then
    echo "note: nvidia-smi is present; gpu_check.sh's no-GPU exit is not checked here"
else
    checks=$((checks + 1))
    what="gpu_check.sh without a GPU"
    WORKDIR=$tmp/gcw3 sh "$gpu_check" "$bin" "$tmp/gc3" >"$tmp/gc.out" 2>&1
    rc=$?
    expect_rc 3
    grep -q '^no GPU: no nvidia-smi on PATH; calibrate --backend cuda: .*no usable GPU' "$tmp/gc.out" ||
        fail "$what: $(cat "$tmp/gc.out")"
    [ "$(cd "$tmp/gc3" && find . -type f)" = ./gpu_check.txt ] ||
        fail "$what: OUTDIR holds $(cd "$tmp/gc3" && find . -type f | tr '\n' ' ')"
    [ -s "$tmp/gcw3/version.txt" ] || fail "$what: no version.txt in WORKDIR"
fi
# A GPU whose probe (a one-point cuda calibration) fails other than "no
# GPU" (exit 2): exit 5 before the full run, the probe's words said; a
# stand-in nvidia-smi and binary play the GPU machine.
checks=$((checks + 1))
what="gpu_check.sh with a failing probe"
mkdir -p "$tmp/fakegpu"
printf '#!/bin/sh\necho "index, name, driver_version, clocks.max.sm [MHz], memory.total [MiB]"\necho "0, NVIDIA H200, 580.00, 1980 MHz, 143771 MiB"\n' \
    >"$tmp/fakegpu/nvidia-smi"
printf '#!/bin/sh\ncase "$1" in\n--version) echo "shardscope (stand-in)" ;;\ncalibrate) echo "shardscope calibrate: cuda backend: cublasGemmEx failed: CUBLAS_STATUS_NOT_SUPPORTED" >&2; exit 1 ;;\n*) exit 9 ;;\nesac\n' \
    >"$tmp/fakegpu/shardscope"
chmod +x "$tmp/fakegpu/nvidia-smi" "$tmp/fakegpu/shardscope"
PATH=$tmp/fakegpu:$PATH WORKDIR=$tmp/gcw5 sh "$gpu_check" "$tmp/fakegpu/shardscope" "$tmp/gc5" \
    >"$tmp/gc.out" 2>&1
rc=$?
expect_rc 5
grep -q '^  0, NVIDIA H200, 580.00' "$tmp/gc.out" || fail "$what: nvidia-smi's line not shown"
grep -q '^the probe calibration failed (exit 1): .*CUBLAS_STATUS_NOT_SUPPORTED' "$tmp/gc.out" ||
    fail "$what: $(cat "$tmp/gc.out")"
grep -q '^== full calibration' "$tmp/gc.out" && fail "$what: the full calibration ran"
[ "$(cd "$tmp/gc5" && find . -type f)" = ./gpu_check.txt ] ||
    fail "$what: OUTDIR holds $(cd "$tmp/gc5" && find . -type f | tr '\n' ' ')"

if [ "$failed" -ne 0 ]; then
    echo "e2e_calib: $failed of $checks checks failed"
    exit 1
fi
echo "e2e_calib: $checks checks passed"
exit 0
