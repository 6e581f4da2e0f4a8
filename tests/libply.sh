#!/bin/sh
# libply.sh — the library as a user installs it: `make install` into a
# temporary prefix, the examples built with `pkg-config --cflags --libs
# ply` against the shared library and statically, run and their output
# checked; the exported names are exactly ply.h's functions, the soname
# carries the ABI version, no server library is needed; `make uninstall`
# removes every installed file.
# Environment: BUILD (build dir), MODE, PLY_SERVER (as make test sets them).
set -eu
: "${BUILD:=build/release}" "${MODE:=release}" "${PLY_SERVER:=1}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*" >&2; exit 1; }
# A make of our own, not a job of the make that runs the tests.
unset MAKEFLAGS MFLAGS MAKELEVEL || true
mk() { make -s --no-print-directory MODE="$MODE" SERVER="$PLY_SERVER" "$@"; }

prefix=$tmp/usr
mk install PREFIX="$prefix" > "$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "make install"; }
for f in bin/ply include/ply.h lib/libply.so.1.0.0 lib/libply.a \
         lib/pkgconfig/ply.pc share/man/man1/ply.1 share/man/man3/libply.3; do
    [ -f "$prefix/$f" ] || fail "not installed: $f"
done
[ "$(readlink "$prefix/lib/libply.so.1")" = libply.so.1.0.0 ] ||
    fail "libply.so.1 link"
[ "$(readlink "$prefix/lib/libply.so")" = libply.so.1 ] || fail "libply.so link"
"$prefix/bin/ply" --version > /dev/null || fail "installed ply runs"

so=$prefix/lib/libply.so.1.0.0
objdump -p "$so" | grep -q 'SONAME *libply\.so\.1$' || fail "soname"
if objdump -p "$so" | grep NEEDED | grep -Eq 'microhttpd|sqlite|curl|readline'; then
    fail "the library needs a server or CLI library: $(objdump -p "$so" | grep NEEDED)"
fi
# Exported: exactly the functions ply.h declares (src/lib/exports.txt).
sed -n 's/^.*\b\(ply_[a-z_]*\)(.*$/\1/p' include/ply.h | sort -u > "$tmp/header"
sort src/lib/exports.txt > "$tmp/list"
diff "$tmp/header" "$tmp/list" > /dev/null ||
    fail "src/lib/exports.txt differs from ply.h: $(diff "$tmp/header" "$tmp/list" | tr '\n' ' ')"
nm -D --defined-only "$so" | awk '$2 == "T" {sub(/@.*/, "", $3); print $3}' |
    sort > "$tmp/so"
diff "$tmp/list" "$tmp/so" > /dev/null ||
    fail "libply.so exports: $(diff "$tmp/list" "$tmp/so" | tr '\n' ' ')"
nm "$prefix/lib/libply.a" | awk '$2 == "T" {print $3}' | sort > "$tmp/a"
diff "$tmp/list" "$tmp/a" > /dev/null ||
    fail "libply.a globals: $(diff "$tmp/list" "$tmp/a" | head -5 | tr '\n' ' ')"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[ "$(pkg-config --modversion ply)" = "$(sed -n 's/^#define PLY_VERSION "\(.*\)"/\1/p' include/ply.h)" ] ||
    fail "pkg-config version"
san=""
[ "$MODE" = sanitize ] && san="-fsanitize=address,undefined"
[ "$MODE" = tsan ] && san="-fsanitize=thread"
for e in play moves; do
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Wextra -Werror $san -o "$tmp/$e" "examples/$e.c" \
        $(pkg-config --cflags --libs ply) -Wl,-rpath,"$prefix/lib" ||
        fail "examples/$e.c does not build against the installed library"
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Wextra -Werror $san -o "$tmp/$e-static" \
        "examples/$e.c" $(pkg-config --cflags ply) \
        $(pkg-config --static --libs ply | sed 's/-lply/-Wl,-Bstatic -lply -Wl,-Bdynamic/') ||
        fail "examples/$e.c does not build against libply.a"
done
objdump -p "$tmp/play" | grep -q 'NEEDED *libply\.so\.1$' || fail "play links libply.so.1"
if objdump -p "$tmp/play-static" | grep -q 'NEEDED *libply'; then
    fail "play-static needs libply.so"
fi

"$tmp/moves" draughts-russian > "$tmp/out" || fail "moves draughts-russian"
[ "$(head -n 1 "$tmp/out")" = "7 legal moves" ] || fail "draughts-russian: $(head -n 1 "$tmp/out")"
[ "$(wc -l < "$tmp/out")" -eq 8 ] || fail "moves lists 7 moves"
grep -qx 'c3-d4' "$tmp/out" || fail "c3-d4 among the moves"
"$tmp/moves-static" chess > "$tmp/out" || fail "moves chess (static)"
[ "$(head -n 1 "$tmp/out")" = "20 legal moves" ] || fail "chess: $(head -n 1 "$tmp/out")"
grep -qx 'g1f3' "$tmp/out" || fail "g1f3 among the moves"
"$tmp/moves" chess '4k3/8/8/8/8/8/8/4K2R w K - 0 1' > "$tmp/out" || fail "moves FEN"
grep -qx 'e1g1' "$tmp/out" || fail "castling listed: $(cat "$tmp/out")"
if "$tmp/moves" chess 'no fen' > "$tmp/out" 2> "$tmp/err"; then
    fail "a bad setup string is accepted"
fi
grep -q 'bad setup string' "$tmp/err" || fail "bad setup message: $(cat "$tmp/err")"
if "$tmp/moves" nosuch > /dev/null 2> "$tmp/err"; then fail "unknown game accepted"; fi
grep -q "unknown game 'nosuch'" "$tmp/err" || fail "unknown game message"

"$tmp/play" kalah > "$tmp/p1" || fail "play kalah"
"$tmp/play-static" kalah > "$tmp/p2" || fail "play kalah (static)"
cmp -s "$tmp/p1" "$tmp/p2" || fail "shared and static play differ"
tail -n 1 "$tmp/p1" | grep -Eq '^result South -?[01] North -?[01]$' ||
    fail "play's result line: $(tail -n 1 "$tmp/p1")"
[ "$(wc -l < "$tmp/p1")" -gt 10 ] || fail "a kalah game of a few moves"
"$tmp/play" chess random greedy > "$tmp/p3" || fail "play chess random greedy"
tail -n 1 "$tmp/p3" | grep -q '^result White' || fail "chess result"
if "$tmp/play" chess nosuch random > /dev/null 2> "$tmp/err"; then
    fail "unknown bot accepted"
fi
grep -q "unknown bot 'nosuch'" "$tmp/err" || fail "unknown bot message: $(cat "$tmp/err")"

# DESTDIR installs under it; uninstall leaves nothing behind.
mk install DESTDIR="$tmp/stage" PREFIX=/opt/ply > /dev/null 2>&1 || fail "make install DESTDIR"
[ -f "$tmp/stage/opt/ply/include/ply.h" ] || fail "DESTDIR layout"
grep -qx 'prefix=/opt/ply' "$tmp/stage/opt/ply/lib/pkgconfig/ply.pc" || fail "ply.pc prefix"
mk uninstall DESTDIR="$tmp/stage" PREFIX=/opt/ply > /dev/null 2>&1 || fail "make uninstall"
mk uninstall PREFIX="$prefix" > /dev/null 2>&1 || fail "make uninstall"
left=$(find "$tmp/stage" "$prefix" ! -type d | head -5)
[ -z "$left" ] || fail "left after uninstall: $left"
echo "libply: install, pkg-config, examples (shared and static), exports, uninstall: ok"
