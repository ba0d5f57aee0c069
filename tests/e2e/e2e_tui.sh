#!/bin/sh
# e2e_tui.sh - the real explorer binary in a tmux pseudo-terminal: type keys
# (change the model, slide the GPU count, switch the interconnect, open the
# help, export, resize down to too small and back, quit; Ctrl-C, Ctrl-\,
# SIGTERM and SIGHUP; Alt+x and an unknown End) and check the screen text
# after each step with capture-pane, and the terminal's modes afterwards.
# Runs headless (tmux provides the pty) on a private socket, killed at exit.
#   sh tests/e2e_tui.sh ./shardscope
set -u
BIN=${1:-./shardscope}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
if ! command -v tmux >/dev/null 2>&1; then
    echo "e2e_tui: SKIP (tmux not installed)"
    exit 0
fi
[ -x "$BIN" ] || { echo "e2e_tui: no binary at $BIN"; exit 1; }

SOCK=shardscope-e2e-$$
T="tmux -L $SOCK -f /dev/null"
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/shardscope-e2e.XXXXXX")
cleanup() { $T kill-server >/dev/null 2>&1; rm -rf "$TMPD"; }
trap cleanup EXIT INT TERM HUP
# Sanitizer builds start slowly; be patient.
WAIT=${E2E_WAIT:-30}
fails=0
pass() { echo "  ok   $1"; }
fail() { echo "  FAIL $1"; fails=$((fails + 1)); }

# A UTF-8 locale when the machine has one (tmux and the explorer agree).
UTF8=C.UTF-8
locale -a 2>/dev/null | grep -qi '^c.utf-\?8$' || UTF8=""

screen() { $T capture-pane -p -t "$1" 2>/dev/null; }
# wait_for SESSION TEXT: poll the screen until TEXT shows (fixed string).
wait_for() {
    i=0
    while [ $i -lt $((WAIT * 10)) ]; do
        if screen "$1" | grep -qF -- "$2"; then return 0; fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
wait_gone() {
    i=0
    while [ $i -lt $((WAIT * 10)) ]; do
        if ! screen "$1" | grep -qF -- "$2"; then return 0; fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
check() { # SESSION TEXT DESCRIPTION
    if wait_for "$1" "$2"; then pass "$3"; else
        fail "$3 (expected '$2')"; screen "$1" | sed 's/^/      | /'; fi
}
dead() { # SESSION: wait until the program exited; prints its exit status
    i=0
    while [ $i -lt $((WAIT * 10)) ]; do
        if [ -s "$TMPD/$1.rc" ]; then cat "$TMPD/$1.rc"; return 0; fi
        sleep 0.1
        i=$((i + 1))
    done
    echo "alive"
    return 1
}
start() { # NAME COLS ROWS ENV...
    name=$1 cols=$2 rows=$3
    shift 3
    # A shell around the explorer records its exit status.  It traps INT
    # and QUIT (Ctrl-C and Ctrl-\ reach the whole foreground group) so it
    # outlives the explorer and reports 128 + the signal, as an interactive
    # shell would; it stays a few seconds (tmux hides the cursor of a dead
    # pane, and modes_restored reads the modes the explorer left).
    $T new-session -d -s "$name" -x "$cols" -y "$rows" \
        "trap : INT QUIT; env XDG_CONFIG_HOME=$TMPD/config SHARDSCOPE_EXPORT_DIR=$TMPD $* $BIN; echo \$? > $TMPD/$name.rc; sleep 5"
    $T set-option -t "$name" remain-on-exit on >/dev/null
}

# modes_restored SESSION: the terminal left as found: main screen, cursor
# shown, keypad and mouse modes off (tmux keeps them after the exit).
modes_restored() {
    i=0
    while [ $i -lt 20 ]; do
        m=$($T display-message -p -t "$1" \
            '#{alternate_on} #{cursor_flag} #{keypad_flag} #{keypad_cursor_flag} #{mouse_any_flag} #{mouse_standard_flag} #{mouse_button_flag}')
        [ "$m" = "0 1 0 0 0 0 0" ] && return 0
        sleep 0.1
        i=$((i + 1))
    done
    echo "      | modes: $m"
    return 1
}

echo "e2e_tui: $BIN"
if [ -n "$UTF8" ]; then export LC_ALL=$UTF8; fi

# --- the main walk at 120x40 ------------------------------------------------
start main 120 40 "LC_ALL=${UTF8:-C} TERM=tmux-256color"
check main "Strategies: 8 GPUs" "opens at 120x40 with the ranked plans"
check main "Regime: TP over N GPUs x links" "every pane at once (heatmap)"
check main "VRAM frontier" "every pane at once (frontier)"
check main "calib: datasheet defaults" "bottom bar names the calibration"

$T send-keys -t main '/' ; check main "Choose Model" "/ opens the model filter"
$T send-keys -t main -l '3-8b'; $T send-keys -t main Enter
check main "Llama-3-8B on 8" "change model to Llama-3-8B"

$T send-keys -t main '+'; check main "Strategies: 16 GPUs" "+ slides the GPU count to the next power of two"
$T send-keys -t main Right Right; check main "Strategies: 18 GPUs" "Right steps the GPU count by one"
$T send-keys -t main PageUp; check main "Strategies: 16 GPUs" "PgUp big step down"

$T send-keys -t main Up Up Right
if wait_gone main "nvlink4 / ib-ndr" && screen main | grep -qF " / ib-ndr"; then
    pass "switch the intra-node interconnect"
else fail "the intra-node interconnect did not change"; screen main | sed 's/^/      | /'; fi

$T send-keys -t main '?'; check main "Help: keys" "? opens the help"
check main "Shift-Tab" "help lists Tab / Shift-Tab"
$T send-keys -t main Space
if wait_gone main "Help: keys"; then pass "any key closes the help"; else fail "help did not close"; fi

$T send-keys -t main 'e'; check main "exported $TMPD/shardscope-" "e exports and names the file"
if ls "$TMPD"/shardscope-*.csv >/dev/null 2>&1 && ls "$TMPD"/shardscope-*.json >/dev/null 2>&1; then
    pass "CSV and JSON written to SHARDSCOPE_EXPORT_DIR"
else fail "export files missing"; fi
# The exported JSON starts with its schema version and lists eval's plans.
if sed -n 2p "$TMPD"/shardscope-*.json 2>/dev/null | grep -Eq '^	"schema_version":	[0-9]+,$' &&
    grep -q '^	"plans":	\[' "$TMPD"/shardscope-*.json; then
    pass "the exported JSON has schema_version first and a plans list"
else fail "exported JSON: no schema_version first or no plans list"; fi

$T resize-window -t main -x 80 -y 24
check main "2 Strategies   3 Details" "80x24: compact layout with tabs"
check main "Strategies: 16 GPUs" "80x24: the plans are still shown"
$T send-keys -t main '5'; check main "Regime: TP over N GPUs x links" "80x24: heatmap tab"
$T resize-window -t main -x 60 -y 20
check main "terminal too small (needs 80x24)" "60x20: too small message"
$T resize-window -t main -x 1 -y 1; sleep 0.3
$T resize-window -t main -x 20 -y 3; sleep 0.3
$T resize-window -t main -x 120 -y 40
check main "Strategies: 16 GPUs" "back to 120x40 after 1x1: recovers"
check main "Llama-3-8B on 16" "state kept across resizes"

$T send-keys -t main 'q'
st=$(dead main)
if [ "$st" = 0 ]; then pass "q quits with status 0"; else fail "q: status $st"; fi
if screen main | grep -qF "Strategies:"; then fail "screen not restored after quit"
else pass "terminal restored after quit"; fi
if modes_restored main; then pass "q: cursor, keypad, mouse, alternate screen restored"
else fail "q: terminal modes left on"; fi

# --- calibration: the view, c on this machine, Esc --------------------------------
start calib 120 40 "LC_ALL=${UTF8:-C} TERM=tmux-256color"
check calib "calib: datasheet defaults" "calibration session opens with datasheet defaults"
$T send-keys -t calib 'v'
check calib "Calibration in use: datasheet defaults" "v opens the calibration view: datasheet defaults"
check calib "shardscope calibrate" "the view says how to measure"
$T send-keys -t calib Space
if wait_gone calib "Calibration in use"; then pass "any key closes the view"; else fail "the view did not close"; fi
$T send-keys -t calib 'c'
# The job starts at once and the bar shows its progress; without a usable GPU
# it fails within a second or two and the bar names the reason.  A real run
# takes longer: after 8 s it is still running (then Esc cancels it).
outcome=""
seen_bar=0
i=0
while [ $i -lt 80 ] && [ -z "$outcome" ]; do
    sc=$(screen calib)
    case $sc in
        *"calibration failed:"*) outcome=failed ;;
        *"calibration done"*) outcome=done ;;
        *"calibrating ["*) seen_bar=1 ;;
    esac
    [ -n "$outcome" ] || sleep 0.1
    i=$((i + 1))
done
[ -z "$outcome" ] && [ $seen_bar = 1 ] && outcome=running
[ $seen_bar = 1 ] && pass "c: the bar shows the calibration progress"
case $outcome in
failed)
    if screen calib | grep -qE "calibration failed: .*(GPU|CUDA)"; then
        pass "c without a GPU: the bar shows the CUDA failure"
    else fail "c: unclear failure"; screen calib | tail -2 | sed 's/^/      | /'; fi
    check calib "calib: datasheet defaults" "the failure keeps the datasheet defaults"
    $T send-keys -t calib 'v'
    check calib "Last attempt: failed:" "the view names the failed attempt"
    $T send-keys -t calib Space; wait_gone calib "Last attempt" >/dev/null ;;
running)
    pass "c on a GPU: progress bar on the bar"
    $T send-keys -t calib '+'
    check calib "Strategies: 16 GPUs" "sliders keep working while calibrating"
    $T send-keys -t calib '-'; check calib "Strategies: 8 GPUs" "and back"
    $T send-keys -t calib Escape
    check calib "calibration cancelled" "Esc cancels the running calibration" ;;
done) pass "c on a GPU: calibration finished" ;;
*) fail "c: no outcome on the bar"; screen calib | tail -2 | sed 's/^/      | /' ;;
esac
$T send-keys -t calib '-'
check calib "Strategies: 4 GPUs" "the explorer keeps running after c"
$T send-keys -t calib Escape
st=$(dead calib)
if [ "$st" = 0 ]; then pass "Esc with no calibration running quits"; else fail "Esc after c: status $st"; fi

# --- ASCII, no colour: LANG=C and vt100 ---------------------------------------
start ascii 80 24 "LANG=C LC_ALL=C TERM=vt100"
check ascii "+- 1 Controls -" "LANG=C vt100: ASCII line drawing"
check ascii "TP8xPP1xDP1" "LANG=C vt100: ASCII plan names"
# Escape sequences the terminfo entry does not know are not Esc: Alt+x, and
# tmux's End (ESC [4~) under TERM=vt100, which has no End key.
$T send-keys -t ascii M-x
check ascii "unknown key ESC x" "Alt+x does not quit: the bar names it"
$T send-keys -t ascii End
check ascii "unknown key ESC [4~" "End under a mismatched TERM does not quit: the bar names it"
if [ -s "$TMPD/ascii.rc" ]; then fail "an unknown sequence quit the explorer"
else pass "still running after unknown sequences"; fi
$T send-keys -t ascii Escape
st=$(dead ascii)
if [ "$st" = 0 ]; then pass "Esc quits"; else fail "Esc: status $st"; fi

# --- signals: Ctrl-C, Ctrl-\, SIGTERM, SIGHUP restore the terminal, then the
# process ends as the signal would: the shell sees 128 + the signal number.
start sigint 100 30 "LC_ALL=${UTF8:-C} TERM=xterm"
check sigint "Strategies: 8 GPUs" "xterm (8 colours) at 100x30 opens"
$T send-keys -t sigint C-c
st=$(dead sigint)
if [ "$st" = 130 ]; then pass "Ctrl-C exits with status 130 (128 + SIGINT)"; else fail "Ctrl-C: status $st, want 130"; fi
if screen sigint | grep -qF "Strategies:"; then fail "Ctrl-C: screen not restored"
else pass "Ctrl-C: terminal restored"; fi
if modes_restored sigint; then pass "Ctrl-C: terminal modes restored"; else fail "Ctrl-C: modes left on"; fi

start sigquit 120 40 "LC_ALL=${UTF8:-C} TERM=xterm-256color"
check sigquit "Strategies: 8 GPUs" "xterm-256color opens (Ctrl-\\ test)"
$T send-keys -t sigquit 'C-\'
st=$(dead sigquit)
if [ "$st" = 131 ]; then pass "Ctrl-\\ exits with status 131 (128 + SIGQUIT)"; else fail "Ctrl-\\: status $st, want 131"; fi
if screen sigquit | grep -qF "Strategies:"; then fail "Ctrl-\\: screen not restored"
else pass "Ctrl-\\: terminal restored"; fi
if modes_restored sigquit; then pass "Ctrl-\\: cursor, keypad, mouse, alternate screen restored"
else fail "Ctrl-\\: terminal modes left on"; fi

for sig in TERM HUP; do
    start "sig$sig" 120 40 "LC_ALL=${UTF8:-C} NO_COLOR=1"
    check "sig$sig" "Strategies: 8 GPUs" "NO_COLOR run opens ($sig test)"
    sh_pid=$($T display-message -p -t "sig$sig" '#{pane_pid}')
    # The pane runs a shell; env execs the explorer, the shell's child.
    pid=$(ps -o pid= --ppid "$sh_pid" | head -1)
    kill -s "$sig" $pid 2>/dev/null
    st=$(dead "sig$sig")
    case $sig in TERM) want=143 ;; HUP) want=129 ;; esac
    if [ "$st" = "$want" ]; then pass "SIG$sig exits with status $want (128 + SIG$sig)"
    else fail "SIG$sig: status $st, want $want"; fi
    if screen "sig$sig" | grep -qF "Strategies:"; then fail "SIG$sig: screen not restored"
    else pass "SIG$sig: terminal restored"; fi
    if modes_restored "sig$sig"; then pass "SIG$sig: terminal modes restored"
    else fail "SIG$sig: modes left on"; fi
done

# --- a Hugging Face config.json as --model (as eval takes it) ------------------
HF=$(cd "$(dirname "$0")/../fixtures/presets/hf/Meta-Llama-3-8B" && pwd)/config.json
$T new-session -d -s hf -x 120 -y 40 \
    "env XDG_CONFIG_HOME=$TMPD/config LC_ALL=${UTF8:-C} TERM=tmux-256color $BIN tui --model $HF --gpus 2; echo \$? > $TMPD/hf.rc"
$T set-option -t hf remain-on-exit on >/dev/null
check hf "Meta-Llama-3-8B on 2" "tui --model config.json opens the explorer on that model"
check hf "Strategies: 2 GPUs" "the config's model is ranked"
$T send-keys -t hf q
st=$(dead hf)
if [ "$st" = 0 ]; then pass "config.json session quits with q (status 0)"
else fail "config.json session: status $st"; fi

# --- a scenario file (eval --save-scenario) opens the explorer on it ----------
"$BIN" eval --model llama-3-8b --gpu h100-sxm --gpus 4 --tp 2 --dp 2 --batch 8 --prompt 2048 \
    --kv-dtype fp8 --framework vllm --framework-version v0 --save-scenario "$TMPD/scn.json" >/dev/null 2>&1 ||
    fail "eval --save-scenario for the explorer"
$T new-session -d -s scn -x 120 -y 40 \
    "env XDG_CONFIG_HOME=$TMPD/config LC_ALL=${UTF8:-C} TERM=tmux-256color $BIN --scenario $TMPD/scn.json; echo \$? > $TMPD/scn.rc"
$T set-option -t scn remain-on-exit on >/dev/null
check scn "Llama-3-8B on 4" "--scenario FILE opens the explorer on its model and GPU count"
check scn "8 seq" "the file's batch is the explorer's"
check scn "2048 tok" "the file's prompt is the explorer's"
check scn "not in the explorer: kv_dtype, framework_version" "what the explorer cannot show is named on the bar"
$T send-keys -t scn x
if [ -n "$UTF8" ]; then times='×'; else times=x; fi
check scn "TP2${times}PP1${times}DP2 kernels" "the file's plan is the selected one (details page 2)"
$T send-keys -t scn q
st=$(dead scn)
if [ "$st" = 0 ]; then pass "scenario session quits with q (status 0)"
else fail "scenario session: status $st"; fi
echo '{"gpus": "four"}' >"$TMPD/bad-scn.json"
out=$("$BIN" --scenario "$TMPD/bad-scn.json" 2>&1 </dev/null); st=$?
case "$st:$out" in
    "2:shardscope tui: $TMPD/bad-scn.json: gpus: expected an integer"*) pass "a bad scenario file: exit 2 naming the file and field" ;;
    *) fail "a bad scenario file: status $st, '$out'" ;;
esac

# --- not a terminal: the help -------------------------------------------------
out=$("$BIN" tui </dev/null 2>&1 | head -3)
case $out in *usage:*) pass "stdout not a terminal: prints the help" ;;
    *) fail "stdout not a terminal: got '$out'" ;; esac

echo "e2e_tui: $fails failed"
[ "$fails" -eq 0 ]
