#!/bin/sh
# e2e_layers.sh - make check-layers (mk/check_layers.sh) passes on the tree
# and fails, naming file, line and rule, on each kind of forbidden include
# planted in a copy of it.  Usage: sh tests/e2e/e2e_layers.sh [BINARY]
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # description, expected status, pattern (or ""), ROOT
    out=$(sh "$root/mk/check_layers.sh" "$4" 2>&1)
    st=$?
    if [ "$st" -ne "$2" ]; then
        echo "FAIL: $1: exit $st, want $2: $out"; fails=$((fails + 1)); return
    fi
    if [ -n "$3" ] && ! printf '%s\n' "$out" | grep -q -- "$3"; then
        echo "FAIL: $1: no line matching '$3' in: $out"; fails=$((fails + 1)); return
    fi
    echo "  ok   $1"
}
check "the tree passes" 0 '^check-layers: ok' "$root"

# README's Architecture section names every source file of the layers (as
# `file.c` in its folder's row; a name two folders share counts once), but the
# explorer's panes: one file per pane.
sed -n '/^## Architecture/,/^\*\*One frame of the explorer/p' "$root/README.md" >"$tmp/arch"
n=0
before=$fails
for f in $(cd "$root" && find engine presets calib tui tests/support tests/tools -name '*.c' ! -path 'tui/explorer/panes/*' | sort); do
    n=$((n + 1))
    b=$(basename "$f")
    grep -Eq "\`($b|$f)\`" "$tmp/arch" || { echo "FAIL: README Architecture does not name $f"; fails=$((fails + 1)); }
done
[ "$n" -gt 80 ] || { echo "FAIL: only $n source files found under $root"; fails=$((fails + 1)); }
[ "$fails" -gt "$before" ] || echo "  ok   README Architecture names the $n source files"

plant() { # file, line to add -> a fresh copy in $tmp/t with the line planted
    rm -rf "$tmp/t" && mkdir "$tmp/t"
    (cd "$root" && cp -r engine presets calib tui "$tmp/t/")
    printf '%s\n' "$2" >> "$tmp/t/$1"
}
plant engine/util.c '#include "preset.h"'
check "engine may not include presets" 1 'engine/util.c:[0-9]*: engine may not include "preset.h"' "$tmp/t"
plant engine/eval.c '#include <cjson/cJSON.h>'
check "engine may not include cJSON" 1 'engine/eval.c:[0-9]*: the engine may not include <cjson/cJSON.h>' "$tmp/t"
plant tui/out/fmt.c '#include <curses.h>'
check "tui/out may not include curses" 1 'tui/out/fmt.c:[0-9]*: tui/out may not include <curses.h>' "$tmp/t"
plant tui/term/slider.c '#include "engine.h"'
check "tui/term may not include the engine" 1 'tui/term/slider.c:[0-9]*: tui/term may not include "engine.h"' "$tmp/t"
plant tui/cli/eval.c '#include "explorer_int.h"'
check "a command may include only the explorer's entry headers" 1 'tui/cli/eval.c:[0-9]*: tui/cli may not include "explorer_int.h"' "$tmp/t"
plant calib/run.c '#include <cuda_runtime.h>'
check "CUDA headers only in calib/backend" 1 'calib/run.c:[0-9]*: only calib/backend may include <cuda_runtime.h>' "$tmp/t"
plant presets/preset.c '#include "../engine/engine.h"'
check "includes by name, not by path" 1 'presets/preset.c:[0-9]*: include "../engine/engine.h" by name' "$tmp/t"
echo "e2e_layers: $fails failed"
[ "$fails" -eq 0 ]
