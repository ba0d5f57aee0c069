#!/bin/sh
# deps.sh - find the build (or test) dependencies with pkg-config / PATH and,
# when some are missing, install them with apt-get (as root or through
# sudo), printing the command; elsewhere stop with the exact install line.
#   sh mk/deps.sh build   ncursesw, cJSON, pkg-config, OpenBLAS (dlopen'd by calibrate)
#   sh mk/deps.sh test    + cmocka, tmux, xmllint
#   sh mk/deps.sh clang   build + clang (make asan's clang UBSan pass)
set -u
want=${1:-build}
missing=""

need_pc() { # pkg-config module, Debian package
    if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "$1"; then
        missing="$missing $2"
    fi
}
need_cmd() { # command, Debian package
    command -v "$1" >/dev/null 2>&1 || missing="$missing $2"
}

need_cmd pkg-config pkg-config
need_pc ncursesw libncurses-dev
need_pc libcjson libcjson-dev
# OpenBLAS: loaded with dlopen by `calibrate --backend cpu` (not linked); the
# -dev package brings libopenblas0 and its pkg-config file.
need_pc openblas libopenblas-dev
[ "$want" = clang ] && need_cmd clang clang
if [ "$want" = test ]; then
    need_pc cmocka libcmocka-dev
    need_cmd tmux tmux
    need_cmd xmllint libxml2-utils
    need_cmd infocmp ncurses-bin
fi
# ncurses-term carries xterm-256color/vt100/screen entries on minimal images.
if [ "$want" = test ] && [ ! -e /usr/share/terminfo/x/xterm-256color ] \
   && [ ! -e /lib/terminfo/x/xterm-256color ] && [ ! -e /usr/lib/terminfo/x/xterm-256color ]; then
    missing="$missing ncurses-term"
fi

[ -z "$missing" ] && exit 0
# shellcheck disable=SC2086
set -- $missing
echo "shardscope: missing build dependencies:$missing" >&2
if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then sudo=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"
    else
        echo "shardscope: install them with: sudo apt-get update && sudo apt-get install -y $*" >&2
        exit 1
    fi
    echo "+ ${sudo:+$sudo }apt-get update && ${sudo:+$sudo }apt-get install -y $*" >&2
    $sudo apt-get update -qq >/dev/null && \
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null || {
        echo "shardscope: apt-get failed; run: sudo apt-get install -y $*" >&2
        exit 1
    }
    exit 0
fi
echo "shardscope: no apt-get here; install the equivalents of: $* (pkg-config, ncursesw, cJSON, OpenBLAS, cmocka, tmux, xmllint)" >&2
exit 1
