#!/bin/sh
# e2e_report.sh - `shardscope report` and `shardscope recommend` end to end:
# report --out/--plots into a temporary directory, one CSV per table with
# its header, every SVG well-formed (xmllint --noout) with a title, axis
# labels and its expected series; recommend --json for seed 004's examples
# A, B and C and an impossible request.  POSIX sh + grep only.
# Usage: sh tests/e2e_report.sh PATH_TO_BINARY.  Exit 1 if a check failed.
set -u

bin=${1:-./shardscope}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/shardscope-report.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
# Shipped presets only.
XDG_CONFIG_HOME=$tmp/nouser
HOME=$tmp
LC_ALL=C
export XDG_CONFIG_HOME HOME LC_ALL

checks=0
failed=0
fail() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}
check() { # description, then a command that must succeed
    checks=$((checks + 1))
    d=$1
    shift
    "$@" >/dev/null 2>&1 || fail "$d"
}
has() { # file, fixed string
    grep -F -q -- "$2" "$1"
}

# --- report: CSV files and SVG figures ----------------------------------
"$bin" report --out "$tmp/csv" --plots "$tmp/svg" >"$tmp/report.txt" 2>"$tmp/report.err"
rc=$?
checks=$((checks + 1))
[ $rc -eq 0 ] || fail "report --out --plots: exit $rc: $(head -c 300 "$tmp/report.err")"

for t in top_config tp_efficiency_8gpu compute_comm_ratio tp_vs_pp min_gpus cheapest tail_latency; do
    check "report: $t.csv exists" test -s "$tmp/csv/$t.csv"
done
check "top_config.csv header" has "$tmp/csv/top_config.csv" \
    "model,strategy,tp,pp,gpus,efficiency_pct,p50_ms,p99_ms,vram_per_gpu_gb"
check "tail_latency.csv header" has "$tmp/csv/tail_latency.csv" "interconnect,p50_ms,p99_ms,p99_over_p50"
check "text report has the min-GPU table" has "$tmp/report.txt" "Minimum GPU count by GPU memory"

for f in tp_scaling_efficiency regime_heatmap tp_vs_pp pipeline_bubble cost_efficiency vram_frontier \
    pareto_frontier; do
    svg=$tmp/svg/$f.svg
    check "$f.svg exists" test -s "$svg"
    check "$f.svg parses (xmllint)" xmllint --noout "$svg"
    check "$f.svg has a title" has "$svg" "<title>"
done
series() { # figure, series names...
    svg=$tmp/svg/$1.svg
    shift
    for s in "$@"; do
        check "$(basename "$svg"): series '$s'" has "$svg" "data-series=\"$s\""
    done
}
series tp_scaling_efficiency pcie3 pcie4 nvlink3 nvlink4
series regime_heatmap gpt2-124m llama-7b llama-13b llama-2-70b falcon-180b
series tp_vs_pp "TP" "PP (m=4)" "TP x PP=2 (m=4)"
series pipeline_bubble "pp=2" "pp=4" "pp=8" "pp=16"
series cost_efficiency pcie3 pcie4 nvlink3 nvlink4
series vram_frontier "1 GPU" "2 GPUs" "8 GPUs" "16 GPUs" "80 GB GPU (usable 90%)"
check "tp_scaling_efficiency: axis units" has "$tmp/svg/tp_scaling_efficiency.svg" "efficiency (%)"
check "cost_efficiency: axis units" has "$tmp/svg/cost_efficiency.svg" "cost (USD per 1M tokens)"
check "vram_frontier: axis units" has "$tmp/svg/vram_frontier.svg" "memory per GPU (GB)"
series pareto_frontier "Pareto frontier" "TP1xPP1xDP8"
check "pareto_frontier: axis units" has "$tmp/svg/pareto_frontier.svg" "output tokens/s per GPU"
check "regime_heatmap: legend" has "$tmp/svg/regime_heatmap.svg" "C: compute-bound"

check "report --format json parses" sh -c "'$bin' report --format json | grep -q '\"tables\"'"
# Every JSON output opens with "schema_version" (OUT_SCHEMA_VERSION).
schema_first() { # file, what
    checks=$((checks + 1))
    sed -n 2p "$1" | grep -q '^	"schema_version":	3,$' ||
        fail "$2: does not open with \"schema_version\": 3"
}
"$bin" report --format json >"$tmp/report.json" 2>/dev/null
schema_first "$tmp/report.json" "report --format json"
checks=$((checks + 1))
"$bin" report --format xml >/dev/null 2>&1
[ $? -eq 2 ] || fail "report --format xml: want exit 2"

# --- recommend --json: seed 004 examples ------------------------------------
rec() { # name, args...
    name=$1
    shift
    "$bin" recommend "$@" --json >"$tmp/$name.json" 2>"$tmp/$name.err"
    rc=$?
    checks=$((checks + 1))
    [ $rc -eq 0 ] || fail "recommend $name: exit $rc: $(head -c 300 "$tmp/$name.err")"
    schema_first "$tmp/$name.json" "recommend $name --json"
}
# cJSON prints "key":<TAB>value; the chosen plan is the first "plan" object.
plan_is() { # name, tp, pp, dp, dtype
    f=$tmp/$1.json
    checks=$((checks + 1))
    got=$(grep -A5 '^	"plan":' "$f" | tr -d '\t\n ')
    want="\"plan\":{\"tp\":$2,\"pp\":$3,\"dp\":$4,\"ep\":1},"
    [ "$got" = "$want" ] || fail "recommend $1: plan $got, want $want"
    check "recommend $1: dtype $5" has "$f" "	\"dtype\":	\"$5\","
    check "recommend $1: feasible" has "$f" "\"verdict\":	\"feasible\""
}
rec a --model llama-3-8b --gpu h100-sxm --itl-ms 40
plan_is a 1 1 1 fp16
check "recommend a: steps" has "$tmp/a.json" "\"name\":	\"decode_floor\""
check "recommend a: engine figures" has "$tmp/a.json" "\"result\":"
# Seed 004 example B assumes an 80 GB H100 ("n_fit = ceil(141 / (80 - 4 -
# 10)) = 3 -> TP=4"); the preset holds the driver's 85.52 GB (81559 MiB),
# on which one sequence fits on TP=2, so the seed's card is given
# explicitly.  b_real and b_kv are the real card: TP=2 at one sequence, and
# the seed's TP=4 again once its 10 GB KV reserve (24 sequences) is asked.
rec b --model llama-3-70b --gpu h100-sxm --itl-ms 30 --vram-gb 80
plan_is b 4 1 1 fp16
check "recommend b: n_fit 3" has "$tmp/b.json" "\"n_fit\":	3"
check "recommend b: n_latency 2" has "$tmp/b.json" "\"n_latency\":	2"
"$bin" recommend --model llama-3-70b --gpu h100-sxm --itl-ms 30 --vram-gb 80 >"$tmp/b.txt" 2>&1
check "recommend b: text says 80.0 GB" has "$tmp/b.txt" "H100 SXM (80.0 GB each)"
rec b_real --model llama-3-70b --gpu h100-sxm --itl-ms 30
plan_is b_real 2 1 1 fp16
check "recommend b_real: n_fit 2" has "$tmp/b_real.json" "\"n_fit\":	2"
"$bin" recommend --model llama-3-70b --gpu h100-sxm --itl-ms 30 >"$tmp/b_real.txt" 2>&1
check "recommend b_real: text says 85.5 GB" has "$tmp/b_real.txt" "H100 SXM (85.5 GB each)"
rec b_kv --model llama-3-70b --gpu h100-sxm --itl-ms 30 --concurrency 24
plan_is b_kv 4 1 1 fp16
check "recommend b_kv: n_fit 3" has "$tmp/b_kv.json" "\"n_fit\":	3"
rec c8 --model llama-3.1-405b --gpu h100-sxm --allow-quant fp8
plan_is c8 8 1 1 fp8
rec c16 --model llama-3.1-405b --gpu h100-sxm --inter-link ib-ndr
plan_is c16 8 2 1 fp16
check "recommend c16: fp8 alternative" has "$tmp/c16.json" "\"dtype\":	\"fp8\""

# An impossible request is an answer: exit 0, verdict infeasible, nearest.
rec floor --model llama-3-70b --gpu h100-sxm --itl-ms 2
check "recommend floor: infeasible" has "$tmp/floor.json" "\"verdict\":	\"infeasible\""
check "recommend floor: nearest" has "$tmp/floor.json" "\"needs\":	\"relax_target\""
"$bin" recommend --model llama-3-70b --gpu h100-sxm --itl-ms 2 >"$tmp/floor.txt" 2>&1
check "recommend floor: text says infeasible" has "$tmp/floor.txt" "answer: infeasible"
checks=$((checks + 1))
"$bin" recommend --model llama-3-70b --gpu h100-sxm --allow-quant fp4 >/dev/null 2>&1
[ $? -eq 2 ] || fail "recommend --allow-quant fp4: want exit 2"

echo "e2e_report: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
