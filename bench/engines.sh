#!/bin/sh
# engines.sh — the target table of the alpha-beta strength issue: Ply's
# default alpha-beta against the engines packaged on this machine, at
# equal time per game, one game at a time per match (run at most one
# match per free core: the clock is wall time).
#   usage: sh bench/engines.sh ROW...     (env: N=100 TC=10s+0.1s SEED=18
#                                          TC_SHOGI=300ms OPENINGS=random:4
#                                          PLY=./ply BOT=alphabeta OUT=bench/out)
#   rows: gnuchess phalanx toga sf10 sf15 (chess); xiangqi-fsf10
#         xiangqi-fsf; shogi-fsf10; minishogi-fsf10; makruk-fsf10
#         makruk-fsf; shatranj-fsf10 shatranj-fsf
# Engines keep their defaults but for these: no opening books (GNU Chess
# OwnBook=false, Phalanx -b-, Toga OwnBook=false) and no learning or
# pondering (Phalanx -l- -p-); "fsf10" is Fairy-Stockfish at Skill Level
# 10, "fsf" at full strength; sf10/sf15 Stockfish at Skill Level 10/15.
# Shogi and minishogi are played at TC_SHOGI (default 300ms a move, sent
# over USI as byoyomi): at 10s+0.1s Fairy-Stockfish spends about 16% of
# its clock on each shogi move (1.6 s of 10 s on the first) and loses
# nearly every game on time by move 25, its own time management and not
# a result of the play. Openings: 4 random plies, each played with both
# colours (OPENINGS: another --openings value, such as a file of
# balanced ones from `ply openings`, bench/openings/). Records go to
# OUT/engines-ROW.jsonl (--resume: a stopped row continues); the last
# lines of the match summary are printed.
set -u
N=${N:-100}; TC=${TC:-10s+0.1s}; SEED=${SEED:-18}; OPENINGS=${OPENINGS:-random:4}
PLY=${PLY:-./ply}; BOT=${BOT:-alphabeta}; OUT=${OUT:-bench/out}
G=/usr/games
mkdir -p "$OUT"
[ $# -gt 0 ] || { sed -n '2,/^set -u$/p' "$0" | sed '$d'; exit 2; }
for row in "$@"; do
    case $row in
    gnuchess) game=chess
        eng="gnuchess=$G/gnuchess --uci,proto=uci,option.OwnBook=false" ;;
    phalanx) game=chess; eng="phalanx=$G/phalanx -b- -l- -p-,proto=cecp" ;;
    toga) game=chess; eng="toga=$G/toga2,proto=uci,option.OwnBook=false" ;;
    sf10|sf15) game=chess
        eng="$row=$G/stockfish,proto=uci,option.Skill Level=${row#sf}" ;;
    *-fsf10|*-fsf) game=${row%-fsf*}
        proto=uci; [ "$game" = shogi ] || [ "$game" = minishogi ] && proto=usi
        eng="$row=$G/fairy-stockfish,proto=$proto"
        [ "${row##*-}" = fsf10 ] && eng="$eng,option.Skill Level=10" ;;
    *) echo "engines.sh: unknown row '$row'" >&2; exit 2 ;;
    esac
    bin=${eng#*=}; bin=${bin%%,*}; bin=${bin%% *}
    if [ ! -x "$bin" ]; then
        # a missing engine would "crash" at every handshake and hand Ply
        # N forfeit wins
        pkg=${bin##*/}
        echo "engines.sh: $row needs $bin (apt-get install $pkg)" >&2
        exit 2
    fi
    tc=$TC
    case $game in shogi|minishogi) tc=${TC_SHOGI:-300ms} ;; esac
    name=${eng%%=*}
    echo "== $row: $PLY match $game $BOT $name --engine \"$eng\" --tc $tc -n $N -j 1 --seed $SEED --openings $OPENINGS"
    "$PLY" match "$game" "$BOT" "$name" --engine "$eng" --tc "$tc" -n "$N" \
        -j 1 --seed "$SEED" --openings "$OPENINGS" \
        --out "$OUT/engines-$row.jsonl" --resume --quiet 2>&1 | tail -4
done
