#!/bin/sh
# check_layers.sh - the build's layering rules (README.md, "Architecture",
# the tree): every quoted #include names a header by name (never "../"), from
# the including file's own folder or from a folder that folder may use; and
# no library header crosses its line (curses outside the terminal and the
# explorer, cJSON in the engine, CUDA outside calib/backend).
# Prints one line per violation and exits 1 if there was any.
#   sh mk/check_layers.sh [ROOT]    (ROOT: the tree to check; default the repo)
set -u
cd "${1:-$(dirname "$0")/..}" || exit 2

files=$(find engine presets calib tui -name '*.[ch]' | sort)
# Header name -> folder, then every include line, through one awk program.
{
    for h in $(find engine presets calib tui -name '*.h'); do
        echo "H ${h##*/} ${h%/*}"
    done
    grep -n '^[[:space:]]*#[[:space:]]*include' $files | sed 's/^/I /'
} | awk '
# Folders a folder may include from (besides itself); "*" any.
function allowed(dir) {
    if (dir == "engine" || dir == "tui/term") return ""
    if (dir == "presets" || dir == "tui/out") return " engine "
    if (dir == "calib" || dir == "calib/backend") return " engine calib "
    if (dir ~ /^tui\/explorer/) return " engine presets calib tui/out tui/term tui/explorer "
    if (dir == "tui/cli" || dir == "tui") return " engine presets calib tui/out tui/term tui/cli "
    return "*"
}
# The explorer headers a command may include: its entry points.
function entry(name) {
    return name == "explorer.h" || name == "explorer_calib.h" || name == "explorer_bench.h"
}
function bad(msg) { print "check-layers: " msg; nbad++ }
$1 == "H" { where[$2] = where[$2] " " $3 " "; next }
$1 == "I" {
    line = substr($0, 3)
    split(line, p, ":"); f = p[1]; n = p[2]
    dir = f; sub(/\/[^\/]*$/, "", dir)
    inc = line; sub(/^[^#]*#[[:space:]]*include[[:space:]]*/, "", inc); sub(/[[:space:]].*$/, "", inc)
    nfiles[f] = 1
    if (inc ~ /^"/) {
        name = inc; gsub(/"/, "", name)
        if (name ~ /\//) { bad(f ":" n ": include " inc " by name, not by path"); next }
        if (index(where[name], " " dir " ")) next        # its own folder
        if (where[name] == "") next                      # generated or system
        ok = allowed(dir); pass = (ok == "*")
        m = split(where[name], ws, " ")
        for (i = 1; i <= m; i++) {
            if (index(ok, " " ws[i] " ")) pass = 1
            if (ws[i] == "tui/explorer" && dir == "tui/cli" && entry(name)) pass = 1
        }
        if (!pass) bad(f ":" n ": " dir " may not include " inc " (from" where[name] ")")
    } else if (inc ~ /^</) {
        name = inc; gsub(/[<>]/, "", name)
        if (name ~ /curses/ && dir ~ /^(engine|presets|calib|tui\/out)/)
            bad(f ":" n ": " dir " may not include <" name "> (curses)")
        else if (name ~ /^cjson\// && dir ~ /^engine/)
            bad(f ":" n ": the engine may not include <" name "> (cJSON)")
        else if (name ~ /^(cuda|cublas|nccl)/ && dir != "calib/backend")
            bad(f ":" n ": only calib/backend may include <" name "> (CUDA)")
    }
}
END { exit nbad ? 1 : 0 }'
st=$?
[ $st -eq 0 ] && echo "check-layers: ok ($(echo "$files" | wc -l | tr -d ' ') files)"
exit $st
