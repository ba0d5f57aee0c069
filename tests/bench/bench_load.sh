#!/bin/sh
# bench_load.sh - the wall time of a whole `shardscope load --requests
# 10000` (plan search, the simulation, the sustainable-rate run, output),
# the median of 3 runs.  Target: under 2 s.  Run by `make bench` as:
# sh tests/bench/bench_load.sh ./shardscope.  Prints figures only; never
# fails on a timing.
set -u
bin=${1:-./shardscope}
args="load --model llama-3-8b --gpu h100-sxm --gpus 1 --framework vllm --rate 10 --requests 10000"
times=""
for i in 1 2 3; do
    t0=$(date +%s%N)
    "$bin" $args >/dev/null 2>&1 || { echo "bench_load: shardscope $args failed"; exit 0; }
    t1=$(date +%s%N)
    times="$times $(( (t1 - t0) / 1000000 ))"
done
med=$(printf '%s\n' $times | sort -n | sed -n 2p)
echo "bench_load: 'shardscope $args': ${med} ms (median of 3; target < 2000 ms)"
