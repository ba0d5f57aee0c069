# lib_e2e.sh - helpers shared by the end-to-end scripts (sourced, not run;
# mk/runtests.sh runs only tests/e2e_*.sh).  The caller sets $bin (the
# binary) and $tmp (a private temporary directory).
#   run CMD...       stdout -> $tmp/out, stderr -> $tmp/err, status -> $rc
#   expect_rc N      the last run exited N
#   expect_out RE    a stdout line matches (grep -E)
#   expect_err RE    a stderr line matches
#   fail MSG         count and print a failure
#   expect_schema [FILE]  the JSON (default: the last stdout) opens with
#                    "schema_version": SCHEMA_VERSION as its first member
#   e2e_setup PREFIX [BIN]  the prologue of a script run against the CLI
#                    fixtures (sets $bin, $fx and $tmp itself)
checks=0
failed=0

fail() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}

run() {
    checks=$((checks + 1))
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    what="shardscope $*"
}

expect_rc() {
    [ "$rc" -eq "$1" ] || fail "$what: exit $rc, want $1; stderr: $(head -c 400 "$tmp/err")"
}

expect_out() {
    grep -Eq -- "$1" "$tmp/out" || fail "$what: stdout has no line matching '$1'"
}

expect_err() {
    grep -Eq -- "$1" "$tmp/err" || fail "$what: stderr has no line matching '$1'"
}

# The schema version of every JSON output (OUT_SCHEMA_VERSION in
# tui/out/json.h; README.md lists what changed in each).
SCHEMA_VERSION=3

expect_schema() {
    f=${1:-$tmp/out}
    sed -n 2p "$f" | grep -q "^	\"schema_version\":	$SCHEMA_VERSION,\$" ||
        fail "${what:-json}: $(basename "$f") does not open with \"schema_version\": $SCHEMA_VERSION"
}

# e2e_setup PREFIX [BIN]: $bin = BIN (default ./shardscope) as an absolute
# path; $fx = tests/fixtures/cli; $tmp = a fresh directory
# ${TMPDIR:-/tmp}/PREFIX.XXXXXX, removed on exit (exits 1 when it cannot be
# made); isolated from the user's presets and saved calibrations: the
# fixture user directory (it adds one link, "test-600") is XDG_CONFIG_HOME,
# HOME is $tmp, LC_ALL=C, all exported.  Needs $here (tests/e2e).
e2e_setup() {
    bin=${2:-./shardscope}
    case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
    fx=$here/../fixtures/cli
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
    trap 'rm -rf "$tmp"' EXIT INT TERM
    XDG_CONFIG_HOME=$fx/user
    HOME=$tmp
    export XDG_CONFIG_HOME HOME
    LC_ALL=C
    export LC_ALL
}
