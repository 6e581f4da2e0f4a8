#!/bin/sh
# gtp-fake.sh MODE [LOG] — a GTP engine for tests/gtp.sh. Every command
# is answered "=" except genmove, which by MODE: crash (exits), hang
# (never answers), garbage (an unreadable vertex), illegal (A1, never
# legal at reversi's start), refuse ("? ..."), resign, d3 (D3 as its first
# move, then resigns). With MODE reject every play is refused too. Input
# lines are appended to LOG.
mode=$1 log=${2:-/dev/null}
n=0
while IFS= read -r line; do
    echo "$line" >> "$log"
    case $line in
    genmove*)
        n=$((n + 1))
        case $mode in
        crash) exit 1 ;;
        hang) sleep 5; exit 0 ;;
        garbage) printf '= @@@ \001\002\n\n' ;;
        illegal) printf '= A1\n\n' ;;
        refuse|reject) printf '? no move\n\n' ;;
        resign) printf '= resign\n\n' ;;
        d3) if [ $n -eq 1 ]; then printf 'debug line\n= D3\n\n'
            else printf '= resign\n\n'; fi ;;
        esac ;;
    play*)
        if [ "$mode" = reject ]; then printf '? illegal move\n\n'
        else printf '=\n\n'; fi ;;
    quit) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
    esac
done
