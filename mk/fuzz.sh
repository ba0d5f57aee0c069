#!/bin/sh
# fuzz.sh - the two halves of `make fuzz` (the harnesses are tests/fuzz/fuzz_*.c).
#   sh mk/fuzz.sh check CC
#       CC must be a clang that links -fsanitize=fuzzer,address,undefined;
#       otherwise print what to install and exit 1.
#   sh mk/fuzz.sh run BUILD SECONDS
#       run every BUILD/tests/fuzz/fuzz_NAME for SECONDS (one process, no
#       forks), seeded from tests/fuzz/corpus/NAME, with the dictionary
#       tests/fuzz/NAME.dict (else json.dict), new inputs kept in
#       BUILD/fuzz/NAME/corpus and crashes in BUILD/fuzz/NAME/crashes.  One
#       line per target with its executions; exit 1 if any target crashed.
set -u
cd "$(dirname "$0")/.." || exit 2
root=$(pwd)

check() {
    cc=${1:-clang}
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/shardscope-fuzzcheck.XXXXXX") || exit 2
    printf '%s\n' '#include <stdint.h>' '#include <stddef.h>' \
        'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
        'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
        > "$tmp/t.c"
    if ! command -v "$cc" >/dev/null 2>&1; then
        why="no '$cc' on PATH"
    elif ! "$cc" -fsanitize=fuzzer,address,undefined "$tmp/t.c" -o "$tmp/t" >"$tmp/log" 2>&1; then
        why="'$cc' cannot link -fsanitize=fuzzer,address,undefined (no libFuzzer runtime): $(head -n 1 "$tmp/log")"
    else
        rm -rf "$tmp"
        return 0
    fi
    rm -rf "$tmp"
    echo "make fuzz: $why" >&2
    echo "make fuzz: install clang with its libFuzzer runtime, e.g. on Debian/Ubuntu:" >&2
    echo "    sudo apt-get install clang   (libFuzzer ships in libclang-rt-NN-dev or" >&2
    echo "    libclang-common-NN-dev, pulled in by clang), or pass CLANG=clang-NN" >&2
    exit 1
}

run() {
    build=$1
    secs=$2
    case $build in /*) ;; *) build=$root/$build ;; esac
    bad=0
    found=0
    for bin in "$build"/tests/fuzz/fuzz_*; do
        case $bin in *.o | *.d) continue ;; esac
        [ -x "$bin" ] || continue
        found=1
        name=${bin##*/fuzz_}
        dir=$build/fuzz/$name
        mkdir -p "$dir/corpus" "$dir/crashes" "$dir/tmp"
        set -- -max_total_time="$secs" -rss_limit_mb=2048 -timeout=30 \
            -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$dir/crashes/"
        dict=tests/fuzz/$name.dict
        [ -f "$dict" ] || dict=tests/fuzz/json.dict
        [ -f "$dict" ] && set -- "$@" -dict="$root/$dict"
        set -- "$@" "$dir/corpus"
        [ -d "tests/fuzz/corpus/$name" ] && set -- "$@" "$root/tests/fuzz/corpus/$name"
        SHARDSCOPE_FUZZ_TMP=$dir/tmp "$bin" "$@" >"$dir/log" 2>&1
        rc=$?
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -n 1)
        [ -n "$runs" ] || runs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$dir/log" | tail -n 1)
        cov=$(sed -n 's/.* cov: \([0-9][0-9]*\).*/\1/p' "$dir/log" | tail -n 1)
        if [ "$rc" -eq 0 ]; then
            printf 'fuzz: %-10s %10s execs in %ss, cov %s: ok\n' "$name" "${runs:-?}" "$secs" "${cov:-?}"
        else
            bad=1
            art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$dir/log" | tail -n 1)
            sum=$(grep -m 1 '^SUMMARY:' "$dir/log")
            printf 'fuzz: %-10s %10s execs: FAILED (exit %s) %s\n' "$name" "${runs:-?}" "$rc" "${sum:-}"
            printf 'fuzz: %-10s input: %s  log: %s\n' "$name" "${art:-none}" "$dir/log"
        fi
    done
    if [ "$found" -eq 0 ]; then
        echo "make fuzz: no harnesses under $build/tests/fuzz" >&2
        exit 1
    fi
    exit "$bad"
}

case ${1:-} in
check) check "${2:-clang}" ;;
run) run "${2:?BUILD}" "${3:?SECONDS}" ;;
*) echo "usage: sh mk/fuzz.sh check CC | run BUILD SECONDS" >&2; exit 2 ;;
esac
