#!/bin/sh
# bench_calib.sh - how long `shardscope calibrate --backend cpu --quick
# --model llama-3-8b` takes on this machine (target: under 15 s, the layer
# sweep and the per-kernel sweep on OpenBLAS together), its planned time,
# and the fits it produced with per_kernel.mape.
# Run by `make bench` as: sh tests/bench/bench_calib.sh ./shardscope.  Prints
# figures only; never fails on a timing.
set -u
bin=${1:-./shardscope}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/shardscope-bench-calib.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
start=$(date +%s.%N)
XDG_CONFIG_HOME=$tmp "$bin" calibrate --backend cpu --quick --model llama-3-8b --no-save \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
end=$(date +%s.%N)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
if [ "$rc" -ne 0 ]; then
    echo "calibrate --backend cpu --quick: failed (exit $rc): $(head -c 300 "$tmp/err")"
    exit 0
fi
echo "calibrate --backend cpu --quick --model llama-3-8b: $secs s wall (target < 15 s)"
grep -E '^(best GEMM|power law|roofline|comm|per kernel|per-kernel fit|wall time|phases):' "$tmp/out" |
    sed 's/^/  /'
grep -E '^ +(gemm|note:|worst:)' "$tmp/out" | sed 's/^/  /'
exit 0
