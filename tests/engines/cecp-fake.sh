#!/bin/sh
# cecp-fake.sh MODE [LOG] — a CECP (xboard) engine for tests/engines.sh.
# MODE: crash (exits on go), garbage (an unreadable move), illegal (an
# illegal move), reject (says "Illegal move" to every move it gets and
# "Error" to go),
# fool (plays fool's mate from the chess start: as white f2f3 g2g4, as
# black e7e5 d8h4; its side is black if it got a move before its first
# go), v1 (no features at all). Input lines are appended to LOG.
mode=$1 log=${2:-/dev/null}
got=0 mine=0
while IFS= read -r line; do
    echo "$line" >> "$log"
    case $line in
    "protover 2")
        [ "$mode" = v1 ] && continue
        echo "feature myname=\"fake $mode\" setboard=1 usermove=1 done=0"
        echo "feature sigint=0 done=1" ;;
    usermove*)
        [ "$mode" = reject ] && { echo "Illegal move: ${line#usermove }"; continue; }
        got=$((got + 1)) ;;
    [a-h][1-8][a-h][1-8]*) got=$((got + 1)) ;;
    go)
        case $mode in
        crash) exit 1 ;;
        garbage) printf 'zzz \001\002\nmove @@@\n' ;;
        illegal) echo "move a1a1" ;;
        reject) echo "Error (command not legal now): go" ;;
        fool|v1)
            mine=$((mine + 1))
            if [ $got -gt 0 ] && [ $mine -eq 1 ] && [ $got -eq 1 ]; then side=b; fi
            [ $mine -eq 1 ] && [ $got -eq 0 ] && side=w
            echo "# thinking"
            case $side$mine in
            w1) echo "move f2f3" ;; w2) echo "move g2g4" ;;
            b1) echo "move e7e5" ;; b2) echo "move d8h4" ;;
            *) echo "resign" ;;
            esac ;;
        esac ;;
    quit) exit 0 ;;
    esac
done
