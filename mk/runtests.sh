#!/bin/sh
# runtests.sh - run every test program given as arguments, then every
# tests/e2e/e2e_*.sh script (given $SHARDSCOPE_BIN), and close with one line
# "tests: N passed, N failed".  Exit status 1 if anything failed.
# --no-e2e (first) runs the programs only.
set -u
e2e=1
[ "${1:-}" = --no-e2e ] && { e2e=0; shift; }
passed=0
failed=0
failures=""
for t in "$@"; do
    echo "== $t"
    if "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); failures="$failures $t"; fi
done
for s in tests/e2e/e2e_*.sh; do
    [ "$e2e" = 1 ] && [ -f "$s" ] || continue
    echo "== $s"
    if sh "$s" "${SHARDSCOPE_BIN:-./shardscope}"; then passed=$((passed + 1)); else failed=$((failed + 1)); failures="$failures $s"; fi
done
[ -n "$failures" ] && echo "failed:$failures"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
