#!/bin/sh
# cli.sh — the `ply` command as a user meets it: help, errors with clear
# messages and non-zero exits, and a few outputs. Needs $PLY.
set -u
fails=0
n=0
ok() { n=$((n + 1)); }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
# expect_fail DESCRIPTION PATTERN CMD...: non-zero exit, stderr matches.
expect_fail() {
    desc=$1; pat=$2; shift 2
    out=$("$@" 2>&1 >/dev/null); rc=$?
    if [ $rc -eq 0 ]; then bad "$desc: exit 0"; return; fi
    if [ $rc -gt 128 ]; then bad "$desc: crashed (exit $rc)"; return; fi
    echo "$out" | grep -q -- "$pat" || { bad "$desc: message '$out' lacks '$pat'"; return; }
    ok
}
# expect_out DESCRIPTION PATTERN CMD...: exit 0, stdout matches.
expect_out() {
    desc=$1; pat=$2; shift 2
    out=$("$@" 2>&1); rc=$?
    if [ $rc -ne 0 ]; then bad "$desc: exit $rc: $out"; return; fi
    echo "$out" | grep -q -- "$pat" || { bad "$desc: output lacks '$pat'"; return; }
    ok
}

expect_out "help" "commands:" $PLY --help
expect_fail "no command" "usage" $PLY
expect_fail "unknown command" "unknown command 'frobnicate'" $PLY frobnicate
expect_out "list" "kalah" $PLY list
expect_out "list rules files" "dice.zrf  *Dice blocks (2 players, chance" $PLY list tests/zrf
expect_fail "list a missing path" "cannot read" $PLY list /nonexistent/x.zrf
badz=$(mktemp --suffix=.zrf)
printf '(game (players A B)' > "$badz"
out=$($PLY list "$badz" 2>&1); rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q "does not load"; then ok; else
    bad "list a broken rules file: exit $rc: $out"; fi
rm -f "$badz"
expect_out "info" "Kalah" $PLY info kalah
expect_fail "unknown game" "unknown game 'nosuchgame'" $PLY info nosuchgame
# a tunable evaluation names its weights (few) or counts them (many)
expect_out "info tunable" "tunable evaluation: 10 weights .*geese.margin 220, fox.room -12.*goose.advance.last 45" $PLY info fox-and-geese
expect_out "info tunable many" "tunable evaluation: [0-9]* weights (ply tune, alphabeta:weights=FILE; docs/tuning.md)$" $PLY info chess
# ply info BOT: every bot lists its options with types, ranges, defaults
expect_out "info mcts" "mem=SIZE (.*default 256M; engine option Hash)" $PLY info mcts
expect_out "info mcts threads" "threads=N (1..64, default 1; engine option Threads)" $PLY info mcts
expect_out "info mcts c" "c=X (0..100, default 1)" $PLY info mcts
expect_out "info mcts policy" "policy=auto|game|random|heuristic (default auto)" $PLY info mcts
expect_out "info alphabeta" "hash=N (0..65536, default 16; engine option Hash)" $PLY info alphabeta
expect_out "info alphabeta weights" "weights=FILE (default unset)" $PLY info alphabeta
expect_out "info alphabeta net" "net=FILE (default unset).*net=none: the hand-written" $PLY info alphabeta
expect_out "info alphabeta limits" "time=TIME (.*default none)" $PLY info alphabeta
expect_out "info greedy" "fallback=TEXT (default random)" $PLY info greedy
expect_out "info random" "seed=N" $PLY info random
expect_out "info vindinium-simple" "depth=N (1..200" $PLY info vindinium-simple
expect_out "info --bot vindinium" "radius=N (0..9, default 3)" $PLY info --bot vindinium
expect_out "info vindinium is the game" "rules:" $PLY info vindinium
expect_fail "info --bot unknown" "unknown bot 'nobot'" $PLY info --bot nobot
expect_fail "mcts bad choice" "policy must be auto, game, random or heuristic" $PLY play kalah --bot mcts:policy=best --demo
expect_fail "mcts out of range" "bad value '65' for threads: out of range 1..64" $PLY play kalah --bot mcts:threads=65 --demo
expect_out "perft kalah" "perft  4            942" $PLY perft kalah 4
expect_fail "perft bad depth" "DEPTH" $PLY perft kalah x
expect_fail "perft unknown flag" "unknown option '--bogus'" $PLY perft kalah 2 --bogus
expect_fail "bad option key" "unknown option 'pits'" $PLY perft kalah 2 --options pits=3
expect_fail "bad option value" "out of range" $PLY perft kalah 2 --options houses=99
expect_out "options" "perft  1              3" $PLY perft kalah 1 --options houses=3
expect_fail "garbage setup" "bad setup string" $PLY show kalah --setup 'garbage!!'
expect_fail "truncated setup" "bad setup string" $PLY show kalah --setup 'S:4,4,4'
expect_fail "illegal move" "move 1 '9'" $PLY show kalah --moves 9
expect_fail "malformed move" "move 2 'x1'" $PLY show kalah --moves "1 x1"
expect_out "show" "to move: North" $PLY show kalah --moves 1
expect_fail "unknown bot" "unknown bot 'nobot'" $PLY play kalah --bot nobot --demo
expect_fail "bad bot option" "bad value" $PLY play kalah --bot random:time=abc --demo
expect_out "demo game" "record:" $PLY play kalah --bot random --demo
expect_out "bench" "signature" $PLY bench kalah --iterations 500 --playouts 50
expect_fail "bench bad flag" "iterations" $PLY bench --iterations 0
expect_fail "bench unknown game" "unknown game 'nosuch'" $PLY bench nosuch
expect_out "bench --long flag" "sig" $PLY bench kalah --long --iterations 300 --playouts 20 --depth 2
expect_out "playthrough" "end: terminal after" $PLY playthrough kalah --seed 3
expect_out "playthrough options" "options: houses=3,seeds=2" $PLY playthrough kalah --options houses=3,seeds=2 --plies 4
expect_fail "playthrough no game" "usage" $PLY playthrough
expect_fail "playthrough unknown game" "unknown game 'nosuch'" $PLY playthrough nosuch
expect_fail "playthrough bad plies" "plies" $PLY playthrough kalah --plies x
expect_fail "playthrough bad option" "unknown option 'pits'" $PLY playthrough kalah --options pits=2
expect_fail "playthrough bad out" "cannot write" $PLY playthrough kalah --out /nonexistent/dir/f.txt
expect_fail "mcts bad option" "unknown option 'zz'" $PLY play kalah --bot mcts:zz=1 --demo
expect_out "play reads moves" "record: 1" sh -c "printf '1\nquit\n' | $PLY play kalah --bot random"
expect_out "analyze" "best: " $PLY analyze kalah --bot alphabeta:depth=4
expect_out "analyze watch" "^depth 3 " $PLY analyze kalah --moves "3 1" --bot alphabeta:depth=3 --watch
expect_out "analyze greedy" "pv: " $PLY analyze kalah --bot greedy
expect_fail "analyze game over" "game is over" $PLY analyze kalah --setup 'S:0,0,0,0,0,0,30:0,0,0,0,0,0,18'
expect_fail "analyze bad bot option" "unknown option 'bogus'" $PLY analyze kalah --bot alphabeta:bogus=1
expect_fail "analyze bad move" "move 1" $PLY analyze kalah --moves 9
expect_fail "analyze no game" "usage" $PLY analyze
expect_out "greedy demo" "record:" $PLY play kalah --bot greedy --demo
expect_out "pdn" "1. c3-d4 f6-e5 2. d4xf6 g7xe5 1-1" $PLY pdn tests/data/draughts-match.jsonl
expect_fail "pdn illegal move" "line 1: move 2 'c3-d4'" sh -c "echo '{\"game\":\"draughts-russian\",\"moves\":[\"c3-d4\",\"c3-d4\"]}' | $PLY pdn"
expect_fail "pdn bad json" "not a JSON object" sh -c "echo garbage | $PLY pdn"
expect_fail "pdn missing file" "cannot open" $PLY pdn /nonexistent.jsonl

# ply kif: shogi and minishogi records as KIF, and KIF back to records
KDATA=tests/data/shogi-match.jsonl
expect_out "kif header" "^手合割：平手$" $PLY kif $KDATA
expect_out "kif minishogi" "^手合割：5五将棋$" $PLY kif $KDATA
expect_out "kif handicap" "^上手：uwate$" $PLY kif $KDATA
expect_out "kif diagram" "^| ・ ・ ・ ・v玉 ・ ・ ・ ・|一$" $PLY kif $KDATA
expect_out "kif diagram hand" "^先手の持駒：飛二" $PLY kif $KDATA
expect_out "kif move" "^   1 ７六歩(77) " $PLY kif $KDATA
expect_out "kif promotion declined (no 不成)" "^   4 ７七角(22)  " $PLY kif $KDATA
expect_out "kif promotion" "^   8 ９五角成(77) " $PLY kif $KDATA
expect_out "kif recapture" "^  13 同　飛(58) " $PLY kif $KDATA
expect_out "kif drop" "^  15 ９七角打 " $PLY kif $KDATA
expect_out "kif drop recaptured" "^   2 同　玉(51) " $PLY kif $KDATA
expect_out "kif repetition" "^まで12手で千日手$" $PLY kif $KDATA
expect_out "kif time" "^   4 切れ負け " $PLY kif $KDATA
expect_out "kif illegal" "^まで3手で後手の反則負け$" $PLY kif $KDATA
expect_out "kif mate" "^  78 詰み " $PLY kif /dev/stdin < tests/data/shogi-match.jsonl
# comments (engine errors, the match's game number) do not come back
kif1=$($PLY kif $KDATA 2>/dev/null | grep -v '^[#*]')
kif2=$($PLY kif $KDATA 2>/dev/null | $PLY kif --read | $PLY kif 2>/dev/null | grep -v '^[#*]')
if [ -n "$kif1" ] && [ "$kif1" = "$kif2" ]; then ok; else bad "kif round trip"; fi
kif3=$($PLY kif --sjis $KDATA 2>/dev/null | $PLY kif --read | $PLY kif 2>/dev/null | grep -v '^[#*]')
if [ "$kif1" = "$kif3" ]; then ok; else bad "kif Shift_JIS round trip"; fi
kdir=$(mktemp -d)
expect_out "kif split" "wrote $kdir/g-007.kifu" $PLY kif $KDATA --split $kdir/g
[ -s $kdir/g-001.kifu ] && [ ! -e $kdir/g-008.kifu ] && ok || bad "kif split files"
rm -rf "$kdir"
expect_fail "kif skips others" "skipped 1 record" sh -c "echo '{\"game\":\"kalah\",\"moves\":[]}' | $PLY kif && false"
expect_fail "kif illegal move" "line 1: move 2 '7g7f'" sh -c "echo '{\"game\":\"shogi\",\"seats\":[\"a\",\"b\"],\"moves\":[\"7g7f\",\"7g7f\"]}' | $PLY kif"
expect_fail "kif bad json" "not a JSON object" sh -c "echo garbage | $PLY kif"
expect_fail "kif missing file" "cannot open" $PLY kif /nonexistent.jsonl
expect_fail "kif unknown option" "unknown option '--bogus'" $PLY kif --bogus
expect_fail "kif read bad move" "line 2: move 2 '７七歩(77)'" sh -c "printf '   1 ７六歩(77)\n   2 ７七歩(77)\n' | $PLY kif --read"
expect_fail "kif read bad square" "line 1: no square" sh -c "printf '   1 ０六歩(77)\n' | $PLY kif --read"
expect_fail "kif read wrong piece" "that piece is not on 7g" sh -c "printf '   1 ７六角(77)\n' | $PLY kif --read"
expect_fail "kif read handicap" "unknown 手合割" sh -c "printf '手合割：九枚落ち\n   1 ７六歩(77)\n' | $PLY kif --read"
expect_fail "kif read nothing" "no moves found" sh -c "printf '先手：a\n' | $PLY kif --read"
expect_out "kif read drop" '"moves":\["P\*5e"\]' sh -c "printf '先手の持駒：歩\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n後手の持駒：なし\n   1 ５五歩打\n   2 投了\n' | $PLY kif --read"

# ply record: the formats games declare; pgn, pdn and kif are its aliases
DDATA=tests/data/draughts-match.jsonl
CHESS='{"game":"chess","seats":["a","b"],"moves":["f2f3","e7e5","g2g4","d8h4"],"result":[-1,1],"reason":"normal"}'
[ "$($PLY record --to pdn $DDATA 2>&1)" = "$($PLY pdn $DDATA 2>&1 | sed 's/ply pdn:/ply record:/')" ] && ok || bad "record --to pdn is ply pdn"
[ "$($PLY record --to kif $KDATA 2>/dev/null)" = "$($PLY kif $KDATA 2>/dev/null)" ] && ok || bad "record --to kif is ply kif"
[ "$($PLY record --to kif-sjis $KDATA 2>/dev/null | od -c)" = "$($PLY kif --sjis $KDATA 2>/dev/null | od -c)" ] && ok || bad "record --to kif-sjis is ply kif --sjis"
expect_out "record --to pgn" "^1. f3 e5 2. g4 Qh4# 0-1$" sh -c "echo '$CHESS' | $PLY record --to pgn"
[ "$(echo "$CHESS" | $PLY record --to pgn)" = "$(echo "$CHESS" | $PLY pgn)" ] && ok || bad "record --to pgn is ply pgn"
rk1=$($PLY record --to kif $KDATA 2>/dev/null | $PLY record --from kif)
rk2=$($PLY kif $KDATA 2>/dev/null | $PLY kif --read)
[ -n "$rk2" ] && [ "$rk1" = "$rk2" ] && ok || bad "record --from kif is ply kif --read"
rk3=$($PLY record --to kif $KDATA 2>/dev/null | $PLY record --from kif | $PLY record --to kif 2>/dev/null | grep -v '^[#*]')
[ -n "$rk3" ] && [ "$rk3" = "$($PLY record --to kif $KDATA 2>/dev/null | grep -v '^[#*]')" ] && ok || bad "record kif round trip"
rdir=$(mktemp -d)
expect_out "record split" "wrote $rdir/d-004.pdn" $PLY record --to pdn $DDATA --split $rdir/d
[ -s $rdir/d-001.pdn ] && [ ! -e $rdir/d-005.pdn ] && ok || bad "record split files"
rm -rf "$rdir"
expect_out "record list" "^  pgn  *write: chess makruk shatranj$" $PLY record --list
expect_out "info formats" "^formats: pgn (record: write) uci cecp$" $PLY info chess
expect_out "info formats xiangqi" "^formats: uci (as xiangqi) ucci cecp (as xiangqi)$" $PLY info xiangqi
expect_out "info formats none" "^formats: none$" $PLY info kalah
expect_fail "record usage" "usage: ply record" $PLY record
expect_fail "record both" "usage: ply record" $PLY record --to pgn --from kif
expect_fail "record unknown format" "no game writes 'docx'" $PLY record --to docx $DDATA
expect_fail "record unreadable format" "no game reads pgn" sh -c "echo x | $PLY record --from pgn"
expect_fail "record unknown game" "line 1: unknown game 'nim'" sh -c "echo '{\"game\":\"nim\",\"moves\":[]}' | $PLY record --to pgn"
expect_fail "record bad result" "one per seat" sh -c "echo '{\"game\":\"chess\",\"seats\":[\"a\",\"b\"],\"moves\":[],\"result\":[1]}' | $PLY record --to pgn"
expect_fail "record from kif error" "line 1: no square" sh -c "printf '   1 ０六歩(77)\n' | $PLY record --from kif"
expect_fail "record unknown option" "unknown option '--bogus'" $PLY record --bogus
expect_out "record --to csa" "^-2277KA$" $PLY record --to csa $KDATA
rc1=$($PLY record --to csa $KDATA 2>/dev/null | grep -v "^'")
rc2=$($PLY record --to csa $KDATA 2>/dev/null | $PLY record --from csa | $PLY record --to csa 2>/dev/null | grep -v "^'")
[ -n "$rc1" ] && [ "$rc1" = "$rc2" ] && ok || bad "record csa round trip"
expect_fail "record csa skips minishogi" "skipped 1 record" sh -c "$PLY record --to csa $KDATA >/dev/null && false"
expect_fail "record from csa error" "line 3: move 1 '-3334FU': not the side to move" sh -c "printf 'PI\n+\n-3334FU\n' | $PLY record --from csa"
TREC='{"game":"chess","moves":["e2e4","e7e5","g1f3","b8c6"],"result":[1,-1]}'
expect_out "tune" "positions 5: training 5" sh -c "echo '$TREC' | $PLY tune --game chess --skip-plies 0 --validation 0 --epochs 5 -"
expect_fail "tune no game" "usage" $PLY tune /dev/null
expect_fail "tune no files" "usage" $PLY tune --game chess
expect_fail "tune unknown game" "unknown game 'nosuchgame'" $PLY tune --game nosuchgame /dev/null
expect_fail "tune game without tuning" "kalah has no tunable evaluation" $PLY tune --game kalah /dev/null
expect_fail "tune missing file" "cannot open '/nonexistent.jsonl'" $PLY tune --game chess /nonexistent.jsonl
expect_fail "tune bad json" "-:2: not a JSON object" sh -c "printf '%s\\n{oops\\n' '$TREC' | $PLY tune --game chess -"
expect_fail "tune bad move" "-:1: move 2 'e2e4'" sh -c "echo '{\"game\":\"chess\",\"moves\":[\"e2e4\",\"e2e4\"],\"result\":[0,0]}' | $PLY tune --game chess -"
expect_fail "tune no positions" "no chess positions" sh -c "echo '$TREC' | $PLY tune --game chess --skip-plies 50 -"
expect_fail "tune bad epochs" "--epochs must be" $PLY tune --game chess --epochs x /dev/null
expect_fail "tune bad rate" "--rate must be" $PLY tune --game chess --rate -1 /dev/null
expect_fail "tune unknown option" "unknown option '--bogus'" $PLY tune --game chess --bogus 1 /dev/null
expect_fail "tune only nothing" "leave no weight to fit" sh -c "echo '$TREC' | $PLY tune --game chess --skip-plies 0 --validation 0 --only nosuch -"
expect_out "tune only" "fitting 10 of 479 weights" sh -c "echo '$TREC' | $PLY tune --game chess --skip-plies 0 --validation 0 --epochs 1 --only material -"
expect_fail "tune bad init" "cannot open weights file" $PLY tune --game chess --init /nonexistent.h /dev/null
expect_fail "tune bad out" "cannot write" sh -c "echo '$TREC' | $PLY tune --game chess --skip-plies 0 --validation 0 --epochs 1 --out /nonexistent/w.h -"
expect_fail "weights bad file" "cannot open weights file" $PLY analyze chess --bot alphabeta:depth=1,weights=/nonexistent.h
expect_fail "weights no tuning" "kalah has none" $PLY analyze kalah --bot alphabeta:depth=1,weights=/nonexistent.h
SPREC='{"game":"splut","options":"players=4","moves":["Tf2-f3","Tb4-c4","Tc4-d4","Td8-d7","De8-e7","Sf8-f7"],"result":[1,-1,0.333,-0.333]}'
expect_out "tune splut players=4" "positions 28: training 28" sh -c "echo '$SPREC' | $PLY tune --game splut --skip-plies 0 --validation 0 --epochs 1 -"
expect_out "tune splut each view" "each player's from its own view" sh -c "echo '$SPREC' | $PLY tune --game splut --skip-plies 0 --validation 0 --epochs 1 -"
expect_fail "tune splut result count" "-:1: 2 results for 4 seats" sh -c "echo '{\"game\":\"splut\",\"options\":\"players=4\",\"moves\":[],\"result\":[1,-1]}' | $PLY tune --game splut -"

if [ "${PLY_SERVER:-1}" = 1 ]; then
expect_fail "serve unknown game" "only 'vindinium'" $PLY serve kalah
expect_fail "serve bad port" "--port" $PLY serve vindinium --port 99999
expect_fail "serve bad host" "not an IPv4 address" $PLY serve vindinium --host nohost --db :memory:
expect_fail "serve bad threads" "--threads must be" $PLY serve vindinium --threads 0
expect_fail "serve bad per-ip" "--max-per-ip must be" $PLY serve vindinium --max-per-ip 0
expect_fail "client needs a key" "--key" $PLY vindinium-client --server http://127.0.0.1:1
expect_fail "client bad mode" "--mode" $PLY vindinium-client --server http://127.0.0.1:1 --key k --mode duel
expect_fail "client no server" "127.0.0.1:1" $PLY vindinium-client --server http://127.0.0.1:1 --key k --bot random
expect_fail "client file server" "not an http:// or https:// URL" $PLY vindinium-client --server file:///etc/passwd --key k
expect_fail "client bad max-moves" "--max-moves must be" $PLY vindinium-client --server http://127.0.0.1:1 --key k --max-moves 0
else
echo "SKIP server and client CLI checks: built with SERVER=0"
expect_fail "serve without server" "no server support" $PLY serve vindinium
expect_fail "client without server" "no server support" $PLY vindinium-client --server http://127.0.0.1:1 --key k
fi
expect_out "vindinium m1" "@3 at (7,7)" $PLY show vindinium --options map=m1

# go: perft against go.md, the 19x19 default, SGF written and read back
expect_out "perft go 9x9" "perft  3 *531522 " $PLY perft go 3 --options size=9
expect_out "show go 19x19" "^19  \. \. " $PLY show go
GREC='{"game":"go","options":"size=9,komi=7","seats":["a","b"],"moves":["E5","C3","pass","pass"],"result":[-1,1],"reason":"normal"}'
expect_out "record --to sgf" "RE\[W+7\]" sh -c "echo '$GREC' | $PLY record --to sgf"
rs1=$(echo "$GREC" | $PLY record --to sgf)
rs2=$(echo "$GREC" | $PLY record --to sgf | $PLY record --from sgf | $PLY record --to sgf)
[ -n "$rs1" ] && [ "$rs1" = "$rs2" ] && ok || bad "record sgf round trip"
expect_fail "record from sgf error" "line 1: B\[zz\] is not a point" sh -c "echo '(;GM[1]SZ[9];B[zz])' | $PLY record --from sgf"
for g in $($PLY list | awk '/^games:/{f=1;next} /^bots:/{f=0} f{print $1}'); do
    expect_out "info $g" "start position setup string" $PLY info $g
    expect_out "perft $g" "perft  2" $PLY perft $g 2
    expect_fail "garbage setup $g" "bad setup string" $PLY show $g --setup '@@@ garbage ###'
    expect_fail "illegal move $g" "move 1" $PLY show $g --moves 'zz99'
    expect_out "demo $g" "record:" $PLY play $g --bot random --demo
    expect_out "analyze $g" "best: " $PLY analyze $g --bot alphabeta:depth=2
done

# Splut! and N-player matches: perft with four teams, a board after
# several turns, a four-player match with placements and ratings, its
# records shown by ply show --record
expect_out "perft splut players=4" "perft  4 *210" $PLY perft splut 4 --options players=4
expect_out "show splut turns" "turn 4: East to move, 3 steps left" $PLY show splut --options players=4 --moves "Tf2-f3 Tb4-c4 Tc4-d4 Td8-d7 De8-e7 Sf8-f7"
SREC=$(mktemp)
expect_out "match splut 4 players" "avg place" $PLY match splut random random:seed=2 random:seed=3 random:seed=4 --options players=4 -n 4 --out "$SREC"
expect_out "match splut ratings" "95% interval clustered by game" $PLY match splut random random:seed=2 random:seed=3 random:seed=4 --options players=4 -n 4
expect_out "show --record" "seat 3 East *random:seed=" $PLY show --record "$SREC" --game 4
expect_out "show --record --ply" "after 2 of" $PLY show splut --record "$SREC" --game 2 --ply 2
expect_fail "show --record past the end" "has 4 games, not 5" $PLY show --record "$SREC" --game 5
expect_fail "show --record wrong game" "not kalah" $PLY show kalah --record "$SREC"
expect_fail "show --ply without --record" "go with --record" $PLY show splut --ply 3
rm -f "$SREC"
# Players from options: players=2 seats South and North only (duels,
# with pair statistics), players=3 three teams; show, play and records
# name and count the teams playing
expect_out "show splut players=2" "to move: North" $PLY show splut --options players=2 --moves "Tf2-f3"
expect_out "analyze splut players=2" "North to move" $PLY analyze splut --options players=2 --moves "Tf2-f3" --bot alphabeta:depth=2
expect_out "match splut players=2 duels" "random vs random:seed=2: +" $PLY match splut random random:seed=2 --options players=2 -n 2 --out "$SREC"
expect_out "show splut players=2 record" "seat 1 North *random" $PLY show --record "$SREC"
expect_out "match splut players=2 resume" "2 games on record, 2 to play" $PLY match splut random random:seed=2 --options players=2 -n 4 --out "$SREC" --resume
SREC2=$(mktemp)
: > "$SREC"
$PLY match splut random greedy random:seed=4 --options players=3 -n 6 --shard 1/2 --out "$SREC" >/dev/null 2>&1
$PLY match splut random greedy random:seed=4 --options players=3 -n 6 --shard 2/2 --out "$SREC2" >/dev/null 2>&1
expect_out "merge splut players=3 shards" "placements over 6 games" $PLY match --merge "$SREC" "$SREC2"
rm -f "$SREC2"
expect_out "match splut players=3" "avg place" $PLY match splut random random:seed=2 random:seed=3 --options players=3 -n 3
expect_fail "match splut players=3 with 2" "participants\|seats\|at least" $PLY match splut random random:seed=2 random:seed=3 random:seed=4 random:seed=5 --options players=3 -n 1
expect_fail "play splut players=2 seat 2" "seat must be 0..1" $PLY play splut --options players=2 --seat 2 --bot random
expect_out "play splut players=2 demo" "result: \(South\|North\) wins" $PLY play splut --options players=2 --bot random --demo
rm -f "$SREC"

# ply show --as: what one seat sees, of a position and of a recorded game
# replayed from its true moves (the view at ply K equals the view of the
# same moves given by hand; the other seat's pieces stay in the fog)
DREC=$(mktemp)
$PLY match dark-chess random random -n 1 --seed 3 --out "$DREC" > /dev/null 2>&1
DMOVES=$(sed -n 's/.*"moves": *\[\([^]]*\)\].*/\1/p' "$DREC" | tr ',' ' ' | tr -d '"' | cut -d' ' -f1-10)
[ "$(echo "$DMOVES" | wc -w)" -eq 10 ] && ok || bad "show --as: ten moves from the record ($DMOVES)"
DVIEW=$($PLY show --record "$DREC" --ply 10 --as black 2>&1 | sed -n '/^what Black sees/,$p')
[ -n "$DVIEW" ] && [ "$DVIEW" = "$($PLY show dark-chess --moves "$DMOVES" --as black 2>&1)" ] && ok \
    || bad "show --record --as: the replayed view differs from the moves' view"
echo "$DVIEW" | grep -q '^view: .*?' && ok || bad "show --record --as: no fog in the view"
[ "$DVIEW" != "$($PLY show --record "$DREC" --ply 10 --as white 2>&1 | sed -n '/^what White sees/,$p')" ] && ok \
    || bad "show --record --as: both seats see the same"
expect_fail "show --record --as bad seat" "no player 'nobody'" $PLY show --record "$DREC" --as nobody
expect_fail "show --as on a game without hidden information" "no hidden information" $PLY show chess --as white
rm -f "$DREC"

echo "cli: $((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
