#!/bin/sh
# check_layers.sh - the build's layering rules (DESIGN.md, "The parts and the
# tree"): every quoted #include names a header by name (never "../"), from
# the including file's own folder or from a folder that folder may use; and
# no library header crosses its line (curses outside the terminal and the
# explorer, cJSON in the engine, CUDA outside calib/backend).
# Prints one line per violation and exits 1 if there was any.
#   sh mk/check_layers.sh [ROOT]    (ROOT: the tree to check; default the repo)
set -u
cd "${1:-$(dirname "$0")/..}" || exit 2

# Folders a folder may include from (besides itself).
allowed() {
    case $1 in
    engine) echo "" ;;
    presets) echo "engine" ;;
    calib | calib/backend) echo "engine calib" ;;
    tui/out) echo "engine" ;;
    tui/term) echo "" ;;
    tui/explorer | tui/explorer/panes) echo "engine presets calib tui/out tui/term tui/explorer" ;;
    tui/cli | tui) echo "engine presets calib tui/out tui/term tui/cli" ;;
    *) echo "ANY" ;;
    esac
}
# The explorer headers a command may include: its entry points.
entry_headers="explorer.h explorer_calib.h explorer_bench.h"

headers=$(find engine presets calib tui -name '*.h' | sort)
bad=0
fail() { echo "check-layers: $1"; bad=1; }

for f in $(find engine presets calib tui -name '*.[ch]' | sort); do
    dir=$(dirname "$f")
    ok=$(allowed "$dir")
    grep -n '^[[:space:]]*#[[:space:]]*include' "$f" | while IFS= read -r line; do
        n=${line%%:*}
        inc=$(printf '%s\n' "$line" | sed -n 's/.*#[[:space:]]*include[[:space:]]*\(["<][^">]*[">]\).*/\1/p')
        case $inc in
        \"*)
            name=${inc#\"}; name=${name%\"}
            case $name in */*) echo "check-layers: $f:$n: include $inc by name, not by path"; continue ;; esac
            [ -f "$dir/$name" ] && continue
            where=""
            for h in $headers; do [ "$(basename "$h")" = "$name" ] && where="$where $(dirname "$h")"; done
            [ -z "$where" ] && continue # generated or system header
            pass=0
            for w in $where; do
                for a in $ok; do [ "$a" = "$w" ] && pass=1; done
                [ "$ok" = ANY ] && pass=1
                if [ "$w" = tui/explorer ] && [ "$dir" = tui/cli ]; then
                    for e in $entry_headers; do [ "$e" = "$name" ] && pass=1; done
                fi
            done
            [ $pass = 1 ] || echo "check-layers: $f:$n: $dir may not include $inc (from$where)"
            ;;
        \<*)
            name=${inc#<}; name=${name%>}
            case $dir:$name in
            engine*:*curses* | presets*:*curses* | calib*:*curses* | tui/out:*curses*)
                echo "check-layers: $f:$n: $dir may not include <$name> (curses)" ;;
            engine*:cjson/*)
                echo "check-layers: $f:$n: the engine may not include <$name> (cJSON)" ;;
            calib/backend:cuda* | calib/backend:cublas* | calib/backend:nccl*) ;;
            *:cuda* | *:cublas* | *:nccl* | *:cuda_runtime*)
                echo "check-layers: $f:$n: only calib/backend may include <$name> (CUDA)" ;;
            esac
            ;;
        esac
    done
done > "${TMPDIR:-/tmp}/check_layers.$$"
if [ -s "${TMPDIR:-/tmp}/check_layers.$$" ]; then
    cat "${TMPDIR:-/tmp}/check_layers.$$"
    rm -f "${TMPDIR:-/tmp}/check_layers.$$"
    exit 1
fi
rm -f "${TMPDIR:-/tmp}/check_layers.$$"
echo "check-layers: ok ($(find engine presets calib tui -name '*.[ch]' | wc -l | tr -d ' ') files)"
