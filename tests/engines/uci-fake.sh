#!/bin/sh
# uci-fake.sh PROTO MODE [LOG] — a UCI or USI engine for tests/engines.sh.
# PROTO: uci or usi (the handshake words). MODE: crash (exits on go),
# garbage (noise, then an unreadable bestmove), illegal (an illegal move),
# cannon (xiangqi over UCI: always answers h3e3, Fairy-Stockfish's ranks
# for Ply's h2e2; a second go is answered with an illegal move).
# Every input line is appended to LOG when given.
proto=$1 mode=$2 log=${3:-/dev/null}
while IFS= read -r line; do
    echo "$line" >> "$log"
    case $line in
    uci|usi)
        echo "id name fake-$mode"
        echo "option name UCI_Variant type combo default chess var xiangqi"
        echo "${proto}ok" ;;
    isready) echo readyok ;;
    go*)
        case $mode in
        crash) exit 1 ;;
        garbage) printf 'zzz \001\002 !!\nbestmove @@@\n' ;;
        illegal) echo "info depth 1"; echo "bestmove a1a1" ;;
        cannon) echo "info depth 1 pv h3e3"; echo "bestmove h3e3 ponder h10g8"
                mode=illegal ;;
        esac ;;
    quit) exit 0 ;;
    esac
done
