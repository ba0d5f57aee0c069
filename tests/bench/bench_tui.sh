#!/bin/sh
# bench_tui.sh - explorer figures for `make bench`: a scripted run at 120x40
# (and 80x24) in-process on an xterm-256color screen writing to a file:
# keystroke-to-screen time p50/p99 (target p99 < 16 ms), bytes written
# to the terminal per slider step (target < 2 KB), and bytes for a burst of
# 30 Right keys with the plans focused (a held key), one frame per key vs
# coalesced by the loop (target < 8 KB).  Prints; asserts nothing.
#   sh tests/bench/bench_tui.sh ./shardscope
BIN=${1:-./shardscope}
[ -x "$BIN" ] || { echo "bench_tui: no binary at $BIN"; exit 0; }
XDG_CONFIG_HOME=${TMPDIR:-/tmp}/shardscope-bench-none "$BIN" tui --bench --size 120x40
XDG_CONFIG_HOME=${TMPDIR:-/tmp}/shardscope-bench-none "$BIN" tui --bench --size 80x24
XDG_CONFIG_HOME=${TMPDIR:-/tmp}/shardscope-bench-none "$BIN" tui --bench --size 120x40 --term vt100
exit 0
