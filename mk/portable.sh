#!/bin/sh
# portable.sh - a shardscope binary for a bare GPU machine (no development
# packages, maybe no network): CUDA, cuBLAS, NCCL and OpenBLAS are loaded
# with dlopen at run time; cJSON is linked statically when this machine has
# libcjson.a, else (Debian's libcjson-dev ships no static library) its
# shared library is copied beside the binary and found through
# RPATH=$ORIGIN.  What the binary needs is then checked with readelf: only
# libc (libc, libm), ncurses (libncursesw, libtinfo) and, when bundled,
# libcjson.so.1 from its own directory; never a CUDA library.
#   sh mk/portable.sh [DIR]      (default build-portable; `make portable`)
# Copy DIR/ to the GPU machine and run calib/gpu_check.sh there.
set -u
dir=${1:-build-portable}
mkdir -p "$dir"
static=""
for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
    [ -f "$d/libcjson.a" ] && static="$d/libcjson.a" && break
done
if [ -n "$static" ]; then
    libs="$static $(pkg-config --libs ncursesw) -lpthread -lm"
    make -j2 USE_CUDA=yes BUILD="$dir" BIN="$dir/shardscope" LIBS="$libs" "$dir/shardscope" ||
        exit 1
else
    make -j2 USE_CUDA=yes BUILD="$dir" BIN="$dir/shardscope" \
        EXTRA_LDFLAGS='-Wl,-rpath,\$$ORIGIN' "$dir/shardscope" || exit 1
    so=$(ldd "$dir/shardscope" | awk '/libcjson\.so/ { print $3; exit }')
    if [ -z "$so" ] || ! cp -L "$so" "$dir/libcjson.so.1"; then
        echo "portable: cannot find libcjson.so.1 to bundle" >&2
        exit 1
    fi
    echo "portable: no libcjson.a here; bundled $so as $dir/libcjson.so.1 (RPATH \$ORIGIN)"
fi
needed=$(readelf -d "$dir/shardscope" | awk '/NEEDED/ { gsub(/[][]/, "", $5); print $5 }')
echo "portable: $dir/shardscope NEEDED: $(echo $needed)"
bad=0
for n in $needed; do
    case $n in
    libc.so.6 | libm.so.6 | libncursesw.so.6 | libtinfo.so.6) ;;
    libcjson.so.1) [ -z "$static" ] || bad=1 ;;
    *) echo "portable: unexpected NEEDED $n" >&2; bad=1 ;;
    esac
done
readelf -d "$dir/shardscope" | grep -q 'R.*PATH.*\$ORIGIN' || [ -n "$static" ] || {
    echo "portable: no RPATH \$ORIGIN for the bundled libcjson" >&2
    bad=1
}
[ "$bad" -eq 0 ] && echo "portable: ok (CUDA, cuBLAS, NCCL and OpenBLAS are loaded at run time)"
exit "$bad"
