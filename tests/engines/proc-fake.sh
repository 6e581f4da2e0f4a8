#!/bin/sh
# proc-fake.sh MODE HELPER — a UGI engine that starts helper processes,
# for tests/procs.sh. HELPER is a command that sleeps (a uniquely named
# link to sleep, so the test can find every copy with pgrep -f).
# MODE: orphan (on go: starts HELPER in the background and exits at once,
# the helper holding the output pipe), search (on go: "searches" by
# waiting for a background HELPER; never answers).
mode=$1
helper=$2
while IFS= read -r line; do
    case $line in
    ugi) echo "id name proc-$mode"; echo ugiok ;;
    isready) echo readyok ;;
    go*)
        case $mode in
        orphan) "$helper" 300 & exit 1 ;;
        search) "$helper" 300 & echo "info searching"; wait; exit 0 ;;
        esac ;;
    quit) exit 0 ;;
    esac
done
