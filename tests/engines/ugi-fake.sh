#!/bin/sh
# ugi-fake.sh MODE — a misbehaving UGI engine for tests/match.sh.
# MODE: crash (exits on go), hang (never answers go), garbage (noise, then
# an unreadable bestmove), illegal (an illegal move), dead (exits at once),
# mute (never answers ugi), badhandshake (prints garbage, then exits).
mode=$1
[ "$mode" = dead ] && exit 3
while IFS= read -r line; do
    case $line in
    ugi)
        [ "$mode" = mute ] && { sleep 1000; exit 0; }
        if [ "$mode" = badhandshake ]; then
            printf '\001\002 garbage \377\n'; exit 1
        fi
        echo "id name fake-$mode"; echo ugiok ;;
    isready) echo readyok ;;
    go*)
        case $mode in
        crash) exit 1 ;;
        hang) sleep 1000 ;;
        garbage) printf 'zzz \001\002 !!\nbestmove @@@\n' ;;
        illegal) echo "info depth 1"; echo "bestmove 99" ;;
        esac ;;
    quit) exit 0 ;;
    esac
done
