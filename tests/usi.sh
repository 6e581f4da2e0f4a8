#!/bin/sh
# usi.sh — `ply usi` dialogues: handshake, positions with moves, go with
# each kind of limit, stop of an infinite search, quit while searching,
# the game-over answers, and malformed commands (answered with
# `info string error`, never a crash). Needs $PLY.
set -u
fails=0
n=0
ok() { n=$((n + 1)); }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
# usi DESCRIPTION PATTERN INPUT: runs the dialogue, exit 0, output matches.
usi() {
    desc=$1; pat=$2; input=$3
    out=$(printf "$input" | timeout 20 $PLY usi 2>&1); rc=$?
    if [ $rc -ne 0 ]; then bad "$desc: exit $rc: $out"; return; fi
    echo "$out" | grep -q -- "$pat" || { bad "$desc: output lacks '$pat': $out"; return; }
    ok
}
# bestmove_legal DESCRIPTION GAME MOVES INPUT: the answer is legal there.
bestmove_legal() {
    desc=$1; game=$2; moves=$3; input=$4
    out=$(printf "$input" | timeout 20 $PLY usi 2>&1)
    mv=$(echo "$out" | awk '/^bestmove/{print $2}' | tail -n 1)
    if [ -z "$mv" ]; then bad "$desc: no bestmove: $out"; return; fi
    if $PLY show $game --moves "$moves $mv" > /dev/null 2>&1; then ok
    else bad "$desc: bestmove '$mv' is not legal after '$moves'"; fi
}

usi "handshake" "usiok" 'usi\nquit\n'
usi "variant option" "option name UCI_Variant type combo default shogi var shogi var minishogi" 'usi\nquit\n'
usi "readyok" "readyok" 'isready\nquit\n'
bestmove_legal "startpos movetime" shogi "7g7f 3c3d" \
    'usinewgame\nposition startpos moves 7g7f 3c3d\ngo movetime 200\n'
bestmove_legal "clock" shogi "2g2f" \
    'position startpos moves 2g2f\ngo btime 3000 wtime 3000 byoyomi 100\n'
bestmove_legal "increments" shogi "" \
    'position startpos\ngo btime 3000 wtime 3000 binc 100 winc 100\n'
bestmove_legal "nodes" shogi "" 'position startpos\ngo nodes 500\n'
bestmove_legal "depth" shogi "" 'position startpos\ngo depth 1\n'
bestmove_legal "sfen with drops" shogi "" \
    'position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\ngo movetime 100\n'
bestmove_legal "minishogi" minishogi "5d5c" \
    'setoption name UCI_Variant value minishogi\nposition startpos moves 5d5c\ngo movetime 100\n'
bestmove_legal "infinite then stop" shogi "" \
    'position startpos\ngo infinite\nstop\n'
# bestmove of an infinite search waits for stop: none before it
tmp=$(mktemp)
(printf 'position startpos\ngo infinite\n'; sleep 1; cp "$tmp" "$tmp.mid"
 printf 'stop\n'; sleep 0.2) | timeout 20 $PLY usi > "$tmp" 2>&1
if grep -q bestmove "$tmp.mid"; then bad "infinite: bestmove before stop"
elif ! grep -q bestmove "$tmp"; then bad "infinite: no bestmove after stop"
else ok; fi
rm -f "$tmp" "$tmp.mid"
# go ponder: bestmove waits for ponderhit
tmp=$(mktemp)
(printf 'position startpos\ngo ponder depth 1\n'; sleep 1; cp "$tmp" "$tmp.mid"
 printf 'ponderhit\n'; sleep 1; cp "$tmp" "$tmp.after") |
    timeout 20 $PLY usi > "$tmp" 2>&1
if grep -q bestmove "$tmp.mid"; then bad "ponder: bestmove before ponderhit"
elif ! grep -q bestmove "$tmp.after"; then bad "ponder: no bestmove after ponderhit"
else ok; fi
rm -f "$tmp" "$tmp.mid" "$tmp.after"
usi "quit while searching" "" 'position startpos\ngo infinite\nquit\n'
usi "resign when mated" "bestmove resign" \
    'position sfen 8k/6G2/8P/7N1/9/9/9/9/4K4 b - 1 moves 1c1b\ngo movetime 100\n'
usi "impasse declaration" "bestmove win" \
    'position sfen GGGG1SSSS/RB2K4/9/9/9/9/9/9/4k4 b RB 1\ngo movetime 100\n'
usi "info line" "info depth" 'position startpos\ngo movetime 100\n'

# malformed input: an error line, the engine goes on
usi "unknown command" "info string error unknown command 'frobnicate'" 'frobnicate\nisready\n'
usi "goes on after errors" "readyok" 'frobnicate\nposition\ngo wtime\nisready\n'
usi "illegal move" "info string error move 2: illegal move '7g7f'" \
    'position startpos moves 7g7f 7g7f\n'
usi "uchifuzume" "uchifuzume" \
    'position sfen 8k/6G2/9/7N1/9/9/9/9/4K4 b P 1 moves P*1b\n'
usi "bad sfen" "info string error bad setup string" \
    'position sfen lnsgkgsnl/1r5b1/ppppppppp b - 1\n'
usi "bad position kind" "expected startpos or sfen" 'position fen x\n'
usi "missing position" "position needs startpos or sfen" 'position\n'
usi "junk after startpos" "expected 'moves'" 'position startpos 7g7f\n'
usi "bad go value" "go wtime: bad value 'x'" 'go wtime x\n'
usi "go value missing" "go btime needs a value" 'go btime\n'
usi "unknown go parameter" "unknown parameter 'sideways'" 'go sideways 3\n'
usi "unknown option" "unknown option 'Frob'" 'setoption name Frob value 1\n'
usi "bad variant" "variant must be shogi or minishogi" \
    'setoption name UCI_Variant value chess\n'
usi "bad bot" "unknown bot 'nobot'" 'setoption name PlyBot value nobot\n'
usi "setoption syntax" "expected 'name'" 'setoption UCI_Variant\n'
bestmove_legal "micro shogi" micro-shogi "2e4c 4b4c+" \
    'setoption name UCI_Variant value micro\nposition startpos moves 2e4c 4b4c+\ngo movetime 100\n'
usi "micro shogi sfen, mate by a knight dropped face down" "bestmove +P\\*3c" \
    'setoption name UCI_Variant value micro\nposition sfen kr2/pb2/4/4/3K b P 1\ngo depth 3\n'
bestmove_legal "variant value with spaces" minishogi "" \
    'setoption name UCI_Variant value  minishogi  \ngo depth 1\n'
usi "GUI options accepted" "readyok" \
    'setoption name USI_Hash value 256\nsetoption name USI_Ponder value false\nisready\n'
usi "long garbage" "readyok" "$(head -c 3000 /dev/zero | tr '\\0' 'x')\nisready\n"
usi "binary garbage" "readyok" '\001\002\377\376 \t\n\n   \nisready\n'
out=$(printf 'usi\n' | $PLY usi chess 2>&1); rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "shogi or minishogi"; then ok; else bad "usi chess: rc $rc: $out"; fi

echo "usi: $((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
