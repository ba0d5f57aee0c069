#!/bin/sh
# e2e_load.sh - `shardscope load` end to end: text and JSON, the top-level
# JSON names, byte-identical output for the same inputs and seed, overload
# at a rate far above the sustainable one, a closed loop, a trace file and
# its errors (file, line, field; exit 2), and usage errors.  POSIX sh +
# grep/sed/awk only.  Usage: sh tests/e2e/e2e_load.sh PATH_TO_BINARY
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib_e2e.sh"
e2e_setup shardscope-e2e-load "${1:-}"

# json_bool KEY / json_num KEY: the first top-level-looking member.
json_val() {
    sed -n "s/^	\"$1\":[[:space:]]*\\([^,]*\\),\\{0,1\\}[[:space:]]*\$/\\1/p" "$tmp/out" | head -n 1
}

# ttft_p50: the p50 of the ttft_s object.
ttft_p50() {
    sed -n '/"ttft_s":/,/}/s/^[[:space:]]*"p50":[[:space:]]*\([^,]*\),\{0,1\}[[:space:]]*$/\1/p' "$tmp/out" | head -n 1
}

base="--model llama-3-8b --gpu h100-sxm --gpus 1 --framework vllm"

# text: the table and the summary lines
run load $base --rate 5 --requests 300
expect_rc 0
expect_out '^  TTFT +[0-9.]+ ms'
expect_out '^  TPOT '
expect_out '^  E2E '
expect_out '^ +p50 +p90 +p99 +mean$'
expect_out '^  sustainable +[0-9.]+ requests/s'
expect_out '^  state +steady'
expect_out 'plan tp=1 pp=1 dp=1 ep=1 \(the best for the scenario\)'

# JSON: the names scripts read, at the top level
run load $base --rate 5 --requests 300 --json --ttft-ms 200 --itl-ms 50
expect_rc 0
expect_schema
for k in ttft_s tpot_s e2e_s; do
    grep -q "^	\"$k\":	{" "$tmp/out" || fail "$what: no top-level object $k"
done
for k in output_tokens_per_s requests_per_s goodput_requests_per_s sustainable_rate mean_batch kv_use; do
    v=$(json_val "$k")
    case $v in [0-9]*) ;; *) fail "$what: top-level $k is '$v', want a number" ;; esac
done
[ "$(json_val overloaded)" = false ] || fail "$what: overloaded is '$(json_val overloaded)' at 5 requests/s"
grep -q '"p99":' "$tmp/out" || fail "$what: no p99"
# each percentile object carries its mean over the same requests (the
# statistic NIM's and AIPerf's tables print); e2e's mean above TTFT's
pct_mean() {
    sed -n "/\"$1\":/,/}/s/^[[:space:]]*\"mean\":[[:space:]]*\([^,]*\),\{0,1\}[[:space:]]*\$/\1/p" "$tmp/out" | head -n 1
}
for k in ttft_s tpot_s e2e_s; do
    case $(pct_mean "$k") in [0-9]*) ;; *) fail "$what: $k has no numeric mean" ;; esac
done
awk -v t="$(pct_mean ttft_s)" -v e="$(pct_mean e2e_s)" 'BEGIN { exit !(t > 0 && e > t) }' ||
    fail "$what: e2e mean $(pct_mean e2e_s) s not above the TTFT mean $(pct_mean ttft_s) s"
grep -Eiq -- ':[[:space:]]*-?(nan|inf)' "$tmp/out" && fail "$what: NaN or infinity in the JSON"
grep -Eiq '"(date|time|timestamp|wall[a-z_]*)":' "$tmp/out" && fail "$what: a wall-clock field"

# byte-identical for the same inputs and seed; another seed differs
run load $base --rate 8 --requests 400 --seed 7 --json --prompt-dist lognormal:0.7 --gen-dist uniform:32-256
cp "$tmp/out" "$tmp/a.json"
run load $base --rate 8 --requests 400 --seed 7 --json --prompt-dist lognormal:0.7 --gen-dist uniform:32-256
cmp -s "$tmp/a.json" "$tmp/out" || fail "$what: two runs with one seed differ"
run load $base --rate 8 --requests 400 --seed 7 --prompt-dist lognormal:0.7 --gen-dist uniform:32-256
cp "$tmp/out" "$tmp/a.txt"
run load $base --rate 8 --requests 400 --seed 7 --prompt-dist lognormal:0.7 --gen-dist uniform:32-256
cmp -s "$tmp/a.txt" "$tmp/out" || fail "$what: two text runs with one seed differ"
run load $base --rate 8 --requests 400 --seed 8 --json --prompt-dist lognormal:0.7 --gen-dist uniform:32-256
cmp -s "$tmp/a.json" "$tmp/out" && fail "$what: another seed gave the same output"

# far above the sustainable rate: overloaded, and the sustainable rate stays
run load $base --rate 5 --requests 2000 --json
sus=$(json_val sustainable_rate)
run load $base --rate 200 --requests 2000 --json
expect_rc 0
[ "$(json_val overloaded)" = true ] || fail "$what: not overloaded at 200 requests/s"
[ "$(json_val sustainable_rate)" = "$sus" ] || fail "$what: sustainable_rate depends on --rate"
run load $base --rate 200 --requests 2000
expect_out '^  state +OVERLOADED'

# offline and closed loop
run load $base --rate inf --requests 500 --json
expect_rc 0
[ "$(json_val requests_completed)" = 500 ] || fail "$what: not every request served"
run load $base --total-concurrency 16 --requests 500 --json
expect_rc 0
grep -q '"arrival":	"closed"' "$tmp/out" || fail "$what: not a closed loop"
grep -q '"max":	16,' "$tmp/out" || fail "$what: the batch did not reach 16"
grep -q '"closed_start":	"burst"' "$tmp/out" || fail "$what: not a burst start by default"
burst_ttft=$(ttft_p50)
run load $base --total-concurrency 16 --requests 500 --closed-start steady --json
expect_rc 0
grep -q '"closed_start":	"steady"' "$tmp/out" || fail "$what: the start is not steady"
awk -v b="$burst_ttft" -v s="$(ttft_p50)" 'BEGIN { exit !(s > 0 && s < b) }' ||
    fail "$what: a steady start's TTFT p50 $(ttft_p50) s is not below the burst's $burst_ttft s"
run load $base --total-concurrency 16 --closed-start steady
expect_rc 0
expect_out '^load: closed loop, 16 requests in flight \(steady start: measured in the steady window\)'
# a time window: only the requests done by then are measured

run load $base --total-concurrency 16 --requests 500 --json
[ "$(json_val requests_measured)" = 500 ] || fail "$what: without a window not every request measured"
grep -q '"measure_window_s":	null,' "$tmp/out" || fail "$what: measure_window_s not null"
run load $base --total-concurrency 16 --measure-window 10
expect_rc 0
expect_out 'measured: those done by 10.0 s, '

# the server's front end: one request at a time before the engine; its
# cost raises TTFT, echoed in load (seconds); a negative cost is refused
run load $base --rate inf --requests 50 --json
expect_rc 0
grep -q '"frontend_s":	0,' "$tmp/out" || fail "$what: frontend_s not 0 by default"
t0=$(ttft_p50)
run load $base --rate inf --requests 50 --frontend-ms 20 --frontend-token-us 10 --json
expect_rc 0
grep -q '"frontend_s":	0.02,' "$tmp/out" || fail "$what: frontend_s not 0.02"
grep -q '"frontend_token_s":	1e-05' "$tmp/out" || fail "$what: frontend_token_s not 1e-05"
# the median request passes the front end after 25 others: at least 25 x 20 ms
awk -v a="$t0" -v b="$(ttft_p50)" 'BEGIN { exit !(b > a && b >= 0.5) }' ||
    fail "$what: 50 requests of 20 ms + 10 us a token: TTFT p50 $t0 -> $(ttft_p50) s, not above 0.5 s"
run load $base --rate 2 --requests 20 --frontend-ms 5
expect_rc 0
expect_out '^front end: 5 ms \+ 0 µs a prompt token per request, one at a time, before the engine$'
run load $base --frontend-ms -1
expect_rc 2
# the tokenizer batch window (vLLM's AsyncMicrobatchTokenizer, 2 ms): at 2
# requests/s each comes alone and waits the whole window, TTFT p50 + 2 ms;
# echoed in load (seconds); a batch above 256 is refused
run load $base --rate 2 --requests 20 --json
t0=$(ttft_p50)
run load $base --rate 2 --requests 20 --frontend-batch-ms 2 --frontend-batch-max 8 --json
expect_rc 0
grep -q '"frontend_batch_s":	0.002,' "$tmp/out" || fail "$what: frontend_batch_s not 0.002"
grep -q '"frontend_batch_max":	8' "$tmp/out" || fail "$what: frontend_batch_max not 8"
awk -v a="$t0" -v b="$(ttft_p50)" 'BEGIN { d = b - a; exit !(d > 0.00199 && d < 0.00201) }' ||
    fail "$what: TTFT p50 $t0 -> $(ttft_p50) s, not 2 ms more"
run load $base --rate 2 --requests 20 --frontend-batch-ms 2
expect_rc 0
expect_out '^front end: tokenizer batches of up to 32 requests, the first waiting 2 ms for others; then 0 ms \+ 0 µs a prompt token per request$'
run load $base --frontend-batch-max 257
expect_rc 2
expect_err 'frontend-batch-max'

# a trace, with a header
printf 'arrival_s,prompt_tokens,output_tokens\n0,100,10\n0.5,200,20\n1.0,300,30\n' >"$tmp/t.csv"
run load $base --trace "$tmp/t.csv" --json
expect_rc 0
[ "$(json_val requests_completed)" = 3 ] || fail "$what: three trace requests not served"
grep -q '"arrival":	"trace"' "$tmp/out" || fail "$what: not the trace's arrivals"

# trace errors: one line naming the file, line and field; exit 2
printf '0,100,10\n0.5,abc,20\n' >"$tmp/bad.csv"
run load $base --trace "$tmp/bad.csv"
expect_rc 2
printf 'shardscope load: --trace: %s:2: prompt_tokens: expected an integer 1..100000000, got '"'"'abc'"'"'\n' \
    "$tmp/bad.csv" >"$tmp/want"
cmp -s "$tmp/want" "$tmp/err" || fail "$what: stderr is '$(cat "$tmp/err")'"
printf '1,100,10\n0.5,100,20\n' >"$tmp/bad2.csv"
run load $base --trace "$tmp/bad2.csv"
expect_rc 2
expect_err "bad2.csv:2: arrival_s: 0.5 is before"
printf '0,100\n' >"$tmp/bad3.csv"
run load $base --trace "$tmp/bad3.csv"
expect_rc 2
expect_err "bad3.csv:1: expected 3 fields"
run load $base --trace "$tmp/missing.csv"
expect_rc 2
expect_err "missing.csv: cannot open"

# usage errors
run load $base --rate fast
expect_rc 2
expect_err "^shardscope load: --rate: expected requests/s above 0"
run load $base --rate 5 --total-concurrency 4
expect_rc 2
expect_err "cannot be combined with --total-concurrency"
run load $base --prompt-dist uniform:9-3
expect_rc 2
expect_err "^shardscope load: --prompt-dist: expected uniform:LO-HI"
run load $base --rate 5 --closed-start steady
expect_rc 2
expect_err "^shardscope load: --closed-start: only with --total-concurrency \\(a closed loop\\)$"
run load $base --total-concurrency 4 --closed-start steady --measure-window 5
expect_rc 2
expect_err "^shardscope load: --measure-window: not with --closed-start steady \\(its own window\\)$"
run load $base --total-concurrency 4 --measure-window 0
expect_rc 2
expect_err "^shardscope load: --measure-window: expected a number"
run load $base --total-concurrency 4 --closed-start random
expect_rc 2
expect_err "^shardscope load: --closed-start: expected burst\\|steady, got 'random'$"
run load $base --scheduler fifo
expect_rc 2
expect_err "^shardscope load: --scheduler: expected prefill-first|chunked|inflight|chunked-prefill-first, got 'fifo'$"
run load $base --total-concurrency 8 --scheduler inflight --requests 64 --json
expect_rc 0
expect_out '"scheduler":[[:space:]]*"inflight"'
expect_out '"admit_lag":[[:space:]]*true'
# vLLM's V1 generation before async scheduling: requests join the next step
run load $base --total-concurrency 8 --framework-version v1 --requests 64 --json
expect_rc 0
expect_out '"admit_lag":[[:space:]]*false'
# SGLang's defaults: prefill batches alone, batches formed a step ahead
run load --model llama-3-8b --gpu h100-sxm --gpus 1 --framework sglang --rate 5 --requests 100
expect_rc 0
expect_out '^engine: sglang, scheduler chunked-prefill-first \(batches formed a step ahead\), '
run load --model llama-3-8b --gpu h100-sxm --gpus 1 --framework sglang --rate 5 --requests 100 --admit-lag off --scheduler chunked --json
expect_rc 0
expect_out '"scheduler":[[:space:]]*"chunked"'
expect_out '"admit_lag":[[:space:]]*false'
run load $base --rate 5 --requests 100 --admit-lag on
expect_rc 0
expect_out '^engine: vllm, scheduler chunked \(batches formed a step ahead\), '
# SGLang's --scheduler-recv-interval: new requests taken in every N decode steps
run load --model llama-3-8b --gpu h100-sxm --gpus 1 --framework sglang --rate 5 --requests 100 --recv-interval 10
expect_rc 0
expect_out '^engine: sglang, scheduler chunked-prefill-first \(batches formed a step ahead\) \(new requests taken in every 10 decode steps\), '
run load $base --rate 5 --requests 100 --recv-interval 30 --json
expect_rc 0
expect_out '"recv_interval":[[:space:]]*30'
run load $base --rate 5 --requests 100 --json
expect_rc 0
expect_out '"recv_interval":[[:space:]]*1'
run load $base --recv-interval 0
expect_rc 2
expect_err "^shardscope load: --recv-interval: expected an integer 1..1000000, got '0'$"
# the KV cache's policy: vLLM on demand (preemption by recompute), SGLang
# behind its estimate (retraction), --kv-alloc overrides; a 70B on two H100s
# at 2000 + 2000 tokens, offline: the cache holds 6 whole, on demand more
kvb="--model llama-3.1-70b --gpu h100-sxm --gpus 2 --tp 2 --prompt 2000 --gen 2000 --rate inf --requests 60"
run load $kvb --framework vllm --json
expect_rc 0
expect_out '"kv_alloc":[[:space:]]*"on-demand"'
expect_out '"preemptions":[[:space:]]*[1-9][0-9]*'
run load $kvb --framework vllm --kv-alloc reserve --json
expect_rc 0
expect_out '"kv_alloc":[[:space:]]*"reserve"'
expect_out '"preemptions":[[:space:]]*0$'
expect_out '"max":[[:space:]]*6,'
# SGLang's default fraction for TP2 on an H100 (sglang#10975): R = 512 +
# 1.5 x 8192 + 2 x 256 + 1024 x 2 / 8 = 13568 MiB of 81558, 0.834: 71.3 GB
# leaves 65 MB beside 70.6 GB of weights, 103 MB of activations and 500 MB
# of runtime, 25 blocks of 16 tokens at 160 KiB a token a GPU: no request
# of 4000 tokens fits (SGLang itself stops with 'Not enough memory' there)
run load $kvb --framework sglang
expect_rc 0
expect_out 'KV cache 25 blocks of 16 tokens per replica, given out on demand behind an estimate'
expect_out '60 larger than the KV cache'
# with the older releases' fraction, 0.874, 1100 blocks: the estimate
# admits more than fit and retracts
run load $kvb --framework sglang --mem-fraction 0.874
expect_rc 0
expect_out 'KV cache 1100 blocks of 16 tokens per replica, given out on demand behind an estimate'
expect_out '^  KV cache .*; [1-9][0-9]* retractions$'
run load $kvb --framework vllm
expect_out '^  KV cache .*; [1-9][0-9]* preemptions$'
run load $base --kv-alloc lazy
expect_rc 2
expect_err "^shardscope load: --kv-alloc: expected reserve\|on-demand\|estimate, got 'lazy'$"
run load $base --admit-lag maybe
expect_rc 2
expect_err "^shardscope load: --admit-lag: expected default|on|off, got 'maybe'$"
run load $base --tp 3
expect_rc 2
run load --help
expect_rc 0
expect_out '^  --rate R'
expect_out '^  --max-num-seqs N'

# speculative decoding: simulated (E tokens a decode step), so TPOT drops
run load $base --rate 2 --requests 200 --json
t0=$(sed -n '/"tpot_s":/,/}/s/^		"p50":	\([0-9.e+-]*\),$/\1/p' "$tmp/out" | head -n 1)
run load $base --rate 2 --requests 200 --json --spec-method eagle
expect_rc 0
t1=$(sed -n '/"tpot_s":/,/}/s/^		"p50":	\([0-9.e+-]*\),$/\1/p' "$tmp/out" | head -n 1)
awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(a > 0 && b > 0 && b < a) }' ||
    fail "$what: TPOT p50 $t0 -> $t1 with speculation, want lower"

# --max-batched-tokens sizes the activation workspace too: a smaller budget
# leaves the generic profile (whole prompts at once) more KV cache
gen="--model llama-3-8b --gpu h100-sxm --gpus 1 --requests 50"
run load $gen --json
b0=$(sed -n 's/^		"capacity_blocks":	\([0-9]*\),$/\1/p' "$tmp/out")
run load $gen --json --max-batched-tokens 2048
b1=$(sed -n 's/^		"capacity_blocks":	\([0-9]*\),$/\1/p' "$tmp/out")
grep -q '"max_batched_tokens":	2048' "$tmp/out" || fail "$what: the budget is not 2048"
[ -n "$b0" ] && [ -n "$b1" ] && [ "$b1" -gt "$b0" ] || fail "$what: capacity_blocks $b0 -> $b1, want more"

# --disagg xPyD: two pools, the KV transfer, the smaller pool's rate
run load --model llama-3-8b --gpu h100-sxm --disagg 2P1D --prefill-tp 1 --decode-tp 2 --rate 5 --requests 300
expect_rc 0
expect_out '^Llama-3-8B on 4 x H100 SXM: disaggregated 2P1D tp1/tp2 \(prefill 2 x TP1, decode 1 x TP2\)$'
expect_out '^KV transfer: .* for a 1024-token prompt over nvlink4 in 1 stream, .* of it in TTFT \(sent layer by layer\)$'
expect_out '^  pools          prefill [0-9.]+ requests/s, decode [0-9.]+ requests/s'
run load --model llama-3-8b --gpu h100-sxm --disagg 2P1D --rate 5 --requests 300 --json
expect_rc 0
grep -q '^	"plan":	null,$' "$tmp/out" || fail "$what: plan is not null"
grep -q '"name":	"2P1D tp1/tp1"' "$tmp/out" || fail "$what: no disagg name"
grep -q '"prefill_pool_rate":' "$tmp/out" || fail "$what: no prefill_pool_rate"
run load --model llama-3-8b --gpu h100-sxm --disagg 2X1D
expect_rc 2
grep -q "^shardscope load: --disagg: expected xPyD with x, y in 1..1024 (e.g. 2P1D), got '2X1D'\$" "$tmp/err" || fail "$what: stderr $(cat "$tmp/err")"
run load --model llama-3-8b --gpu h100-sxm --disagg 2P1D --tp 2
expect_rc 2
grep -q '^shardscope load: --tp/--pp/--dp/--ep: with --disagg the pools are --prefill-tp and --decode-tp$' "$tmp/err" || fail "$what: stderr $(cat "$tmp/err")"
run load --model llama-3-8b --gpu h100-sxm --gpus 1 --decode-tp 2
expect_rc 2
grep -q '^shardscope load: --prefill-tp/--decode-tp: only with --disagg xPyD$' "$tmp/err" || fail "$what: stderr $(cat "$tmp/err")"
run load --model llama-3-8b --gpu h100-sxm --disagg 2P1D --total-concurrency 4
expect_rc 2
grep -q 'closed loop is not simulated with --disagg' "$tmp/err" || fail "$what: stderr $(cat "$tmp/err")"
run load --model llama-3-8b --gpu h100-sxm --disagg 2P1D --gpus 5
expect_rc 2
grep -q '^shardscope load: --gpus: 2P1D runs 3 GPUs (x \* prefill TP x PP + y \* decode TP x PP), not 5$' "$tmp/err" || fail "$what: stderr $(cat "$tmp/err")"
# a pool's PP counts: 1P1D with a 2-stage decode pool runs 1 + 2 GPUs
run load --model llama-3-8b --gpu h100-sxm --disagg 1P1D --decode-pp 2 --gpus 2
expect_rc 2
grep -q '^shardscope load: --gpus: 1P1D runs 3 GPUs (x \* prefill TP x PP + y \* decode TP x PP), not 2$' "$tmp/err" || fail "$what: stderr $(cat "$tmp/err")"

# README.md and the man page name every option `load --help` lists
checks=$((checks + 1))
"$bin" load --help 2>/dev/null | sed -n 's/^  \(--[a-z0-9-]*\).*/\1/p' >"$tmp/opts"
[ -s "$tmp/opts" ] || fail "shardscope load --help: no options listed"
while read -r o; do
    man=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
    grep -q -- "$man" "$here/../../tui/shardscope.1" || fail "tui/shardscope.1 does not mention load $o"
    grep -Eq -- "$o([^a-z-]|\$)" "$here/../../README.md" || fail "README.md does not mention load $o"
done <"$tmp/opts"
if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww -z "$here/../../tui/shardscope.1" >"$tmp/out" 2>"$tmp/err" ||
        fail "groff tui/shardscope.1: exit status $?"
    [ ! -s "$tmp/err" ] || fail "groff tui/shardscope.1: $(head -n 3 "$tmp/err")"
fi

echo "e2e_load: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
