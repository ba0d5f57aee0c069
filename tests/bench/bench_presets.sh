#!/bin/sh
# bench_presets.sh - how long start-up takes with many user presets: a
# `shardscope list models` with 16000 and with 60000 user models (files of
# PRESET_MAX_FILE_ENTRIES = 10000 entries or fewer, the per-file cap), and
# with none for the baseline.  Target: 60000 entries in under 1 s.
# Run by `make bench` as: sh tests/bench/bench_presets.sh ./shardscope.
# Prints figures only; never fails on a timing.
set -u
bin=${1:-./shardscope}
per_file=${BENCH_PRESETS_PER_FILE:-10000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/shardscope-bench-presets.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# gen DIR TOTAL: TOTAL distinct models in files of at most $per_file.
gen() {
    mkdir -p "$1/shardscope"
    awk -v dir="$1/shardscope" -v total="$2" -v per="$per_file" 'BEGIN {
        for (f = 0; f * per < total; f++) {
            out = sprintf("%s/bench-%03d.json", dir, f)
            printf "{\"models\": {\n" > out
            last = (f + 1) * per < total ? (f + 1) * per : total
            for (i = f * per; i < last; i++)
                printf "\"bench-model-%06d\": {\"source\": \"bench\", \"layers\": 32, " \
                       "\"hidden\": 4096, \"heads\": 32, \"kv_heads\": 8, \"ffn\": 14336, " \
                       "\"vocab\": 128256, \"context\": 8192, \"mlp\": \"swiglu\"}%s\n",
                       i, i + 1 < last ? "," : "" > out
            printf "}}\n" > out
            close(out)
        }
    }'
}

# timed LABEL DIR: one start-up with DIR as XDG_CONFIG_HOME.
timed() {
    start=$(date +%s.%N)
    XDG_CONFIG_HOME=$2 "$bin" list models >"$tmp/out" 2>"$tmp/err"
    rc=$?
    end=$(date +%s.%N)
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
    rows=$(grep -c '^bench-model-' "$tmp/out")
    if [ "$rc" -ne 0 ]; then
        echo "presets: $1: failed (exit $rc): $(head -c 300 "$tmp/err")"
    else
        echo "presets: $1: $secs s ($rows user models listed)"
    fi
}

mkdir -p "$tmp/none"
timed "start-up, no user presets" "$tmp/none"
for n in 16000 60000; do
    gen "$tmp/u$n" "$n"
    files=$(ls "$tmp/u$n/shardscope" | wc -l | tr -d ' ')
    timed "start-up, $n user models in $files files (target < 1 s for 60000)" "$tmp/u$n"
    rm -rf "$tmp/u$n"
done
exit 0
