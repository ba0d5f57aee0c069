#!/bin/sh
# gpu_check.sh - the one prepared GPU check for issue 4: build (CUDA is
# loaded with dlopen when calibrating; the toolkit is not needed), run
# the cuBLAS sweep once (full grid, then --quick), and print what the
# closing note needs: the device, the achieved TFLOP/s of the largest GEMM
# as a fraction of the datasheet peak, and both fits' errors; with two or
# more GPUs (and libnccl), the NCCL AllReduce and send/recv fits too.
#   sh calib/gpu_check.sh [OUTDIR]      (OUTDIR default: $OUT or /tmp)
# Run from the repository root on the GPU machine.  Never fails silently:
# each step's status is printed.
set -u
out=${1:-${OUT:-/tmp}}
mkdir -p "$out"
b=build-gpu
echo "== build"
make -j"$(nproc)" USE_CUDA=yes BUILD=$b BIN=$b/shardscope $b/shardscope >"$out/build.log" 2>&1
echo "build: exit $? (log: $out/build.log)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv 2>&1 | sed 's/^/  /'
export XDG_CONFIG_HOME="$out/xdg"
echo "== full sweep"
start=$(date +%s.%N)
$b/shardscope calibrate --backend cuda --out "$out/calibration.json" >"$out/calibrate.txt" 2>"$out/calibrate.err"
rc=$?
end=$(date +%s.%N)
echo "calibrate --backend cuda: exit $rc, $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s"
cat "$out/calibrate.err"
grep -E '^(calibration|device|date|roofs|best GEMM|power law|roofline|comm|p2p):' "$out/calibrate.txt"
echo "largest GEMM (hidden 8192, batch 8, seq 2048):"
grep -E '^prefill +8192 +8 +2048 ' "$out/calibrate.txt" | sed 's/^/  /'
awk '/^roofs:/ { peak = $2 } /^prefill +8192 +8 +2048 / { tf = $7 }
     END { if (peak > 0 && tf > 0) printf "  %.1f TFLOP/s = %.1f%% of the datasheet %.1f TFLOP/s\n", tf, 100 * tf / peak, peak }' "$out/calibrate.txt"
echo "== quick sweep, JSON"
start=$(date +%s.%N)
$b/shardscope calibrate --backend cuda --quick --json --no-save >"$out/quick.json" 2>"$out/quick.err"
rc=$?
end=$(date +%s.%N)
echo "calibrate --backend cuda --quick: exit $rc, $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s"
# Every fit's figures, named by their JSON block (power_law, roofline,
# roofline_max, comm, comm_p2p, ...), whatever blocks come before them.
awk '/^\t"[a-z_0-9]+":/ { blk = $1; gsub(/[\t":]/, "", blk) }
     /^\t"(notes|comm_note|comm_p2p_note)":/ { print "  " $0 }
     /^\t\t"(label|a|beta|mape|r2|eta_compute|eta_memory|overhead_s|alpha_s|bandwidth_bytes_per_s)":/ {
         k = $1; gsub(/[\t":]/, "", k); v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/,$/, "", v)
         printf "  %s.%s = %s\n", blk, k, v }' "$out/quick.json"
echo "== unit test and e2e"
make USE_CUDA=yes BUILD=$b BIN=$b/shardscope $b/tests/unit/test_calib_cuda >>"$out/build.log" 2>&1 &&
    $b/tests/unit/test_calib_cuda 2>&1 | tail -3
sh tests/e2e/e2e_calib.sh $b/shardscope
