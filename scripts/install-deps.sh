#!/bin/sh
# install-deps.sh — installs the Debian packages Ply needs, if any are
# missing. Idempotent: does nothing when all are present. As root it runs
# apt-get; otherwise it prints the exact command to run.
set -e
PKGS="gcc make libc6-dev libcmocka-dev clang libclang-rt-14-dev \
libjansson-dev libmicrohttpd-dev libsqlite3-dev libcurl4-openssl-dev \
libreadline-dev pkg-config"
missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "install-deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq $missing
else
    echo "install-deps: missing Debian packages:$missing" >&2
    echo "run: sudo apt-get update && sudo apt-get install -y$missing" >&2
    exit 1
fi
