#!/bin/sh
# install-deps.sh — installs the Debian packages Ply needs, if any are
# missing. Idempotent: does nothing when all are present. As root it runs
# apt-get; otherwise it prints the exact command to run (and fails when a
# package the build needs is missing; the browser tests' chromium, node
# and npm, and a CJK font for shogi and xiangqi pieces in its screenshots,
# only get a warning: tests/browser.sh says what is missing).
set -e
PKGS="gcc make libc6-dev libcmocka-dev clang libclang-rt-14-dev \
libjansson-dev libmicrohttpd-dev libsqlite3-dev libcurl4-openssl-dev \
libreadline-dev pkg-config"
TEST_PKGS="chromium fonts-wqy-zenhei fairy-stockfish gnugo"
missing=""
tmissing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        missing="$missing $p"
    fi
done
for p in $TEST_PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        tmissing="$tmissing $p"
    fi
done
# node and npm (tests/web): the machine's own when present, else Debian's
command -v node >/dev/null 2>&1 || tmissing="$tmissing nodejs"
command -v npm >/dev/null 2>&1 || tmissing="$tmissing npm"
[ -z "$missing$tmissing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "install-deps: installing$missing$tmissing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq $missing $tmissing
else
    echo "install-deps: missing Debian packages:$missing$tmissing" >&2
    echo "run: sudo apt-get update && sudo apt-get install -y$missing$tmissing" >&2
    [ -z "$missing" ] || exit 1
fi
