#!/bin/sh
# gtp.sh — `ply gtp` dialogues (answers, errors, ids, forced passes, undo,
# final_score, time commands) and ply match against GTP engines: fake
# engines (tests/engines/gtp-fake.sh) that crash, hang, refuse, resign or
# answer garbage and illegal moves forfeit with the right reason, and
# ply gtp plays whole games through the match's GTP client. Needs $PLY.
set -u
fails=0
n=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$(cd "$(dirname "$PLY")" && pwd)/$(basename "$PLY")
E=$(cd "$(dirname "$0")" && pwd)/engines
ok() { n=$((n + 1)); }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
check() { d=$1; shift; if "$@"; then ok; else bad "$d"; fi; }
count() { c=$(grep -c -- "$2" "$1" 2>/dev/null); echo "${c:-0}"; }
# the replies of a dialogue, one per line (multi-line replies joined by |)
gtp() {
    printf "$1" | timeout 60 "$P" gtp reversi --bot "${2:-alphabeta:depth=2}" |
        awk 'BEGIN { r = "" } /^$/ { print r; r = ""; next }
             { r = r == "" ? $0 : r "|" $0 }'
}
reply() { echo "$1" | sed -n "${2}p"; }

# --- the standard commands
out=$(gtp 'protocol_version\n7 name\nknown_command genmove\nknown_command frobnicate\nlist_commands\nversion\n')
check "protocol_version" [ "$(reply "$out" 1)" = "= 2" ]
check "name with id" [ "$(reply "$out" 2)" = "=7 Ply" ]
check "known_command true" [ "$(reply "$out" 3)" = "= true" ]
check "known_command false" [ "$(reply "$out" 4)" = "= false" ]
check "list_commands" [ "$(reply "$out" 5)" = "= protocol_version|name|version|known_command|list_commands|quit|boardsize|clear_board|komi|play|genmove|undo|showboard|final_score|time_settings|time_left|reg_genmove|loadsgf|printsgf" ]
check "version" sh -c "echo '$(reply "$out" 6)' | grep -q '^= [0-9]'"

# --- errors: '? message', the session goes on
out=$(gtp 'boardsize 9\nboardsize x\nboardsize 8\nfrobnicate\nplay b\nplay q d3\nplay b z9\nplay b a1\nplay w d3\ngenmove x\nundo\nkomi abc\nkomi 6.5\ntime_settings 1 2\ntime_left b x 0\nfinal_score\n# a comment\n\n  \t name\n')
check "boardsize 9 refused" [ "$(reply "$out" 1)" = "? unacceptable size" ]
check "boardsize x" [ "$(reply "$out" 2)" = "? syntax error" ]
check "boardsize 8" [ "$(reply "$out" 3)" = "= " ]
check "unknown command" [ "$(reply "$out" 4)" = "? unknown command" ]
check "play without vertex" [ "$(reply "$out" 5)" = "? syntax error" ]
check "play bad colour" [ "$(reply "$out" 6)" = "? invalid color" ]
check "play off the board" [ "$(reply "$out" 7)" = "? illegal move" ]
check "play illegal square" [ "$(reply "$out" 8)" = "? illegal move" ]
check "play wrong colour" [ "$(reply "$out" 9)" = "? illegal move" ]
check "genmove bad colour" [ "$(reply "$out" 10)" = "? invalid color" ]
check "undo at the start" [ "$(reply "$out" 11)" = "? cannot undo" ]
check "komi abc" [ "$(reply "$out" 12)" = "? syntax error" ]
check "komi 6.5" [ "$(reply "$out" 13)" = "= " ]
check "time_settings short" [ "$(reply "$out" 14)" = "? syntax error" ]
check "time_left bad" [ "$(reply "$out" 15)" = "? syntax error" ]
check "final_score mid-game" [ "$(reply "$out" 16)" = "? cannot score" ]
check "comments, blank lines, tabs" [ "$(reply "$out" 17)" = "= Ply" ]
check "17 replies" [ "$(echo "$out" | wc -l)" -eq 17 ]

# --- play, genmove, undo, showboard: the board follows
out=$(gtp 'play b D3\nplay w c5\nshowboard\ngenmove b\nundo\nundo\nshowboard\ngenmove w\n')
check "play upper and lower case" [ "$(reply "$out" 1)$(reply "$out" 2)" = "= = " ]
check "showboard" sh -c "echo '$(reply "$out" 3)' | grep -q ' 5 . . O O O . . . 5'"
check "genmove answers a vertex" sh -c "echo '$(reply "$out" 4)' | grep -q '^= [A-H][1-8]$'"
check "undo twice" [ "$(reply "$out" 5)$(reply "$out" 6)" = "= = " ]
check "board after undo" sh -c "echo '$(reply "$out" 7)' | grep -q ' 3 . . . X . . . . 3'"
check "genmove w after undo" sh -c "echo '$(reply "$out" 8)' | grep -q '^= [A-H][1-8]$'"

# --- a whole game with forced passes left out (as Othello controllers
# do): play fills them in, undo takes them back, final_score at the end
for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
    rm -f "$T/r.jsonl"
    "$P" match reversi random random -n 1 --seed $seed --out "$T/r.jsonl" \
        --quiet >/dev/null 2>&1
    grep -q '"pass","[a-h]' "$T/r.jsonl" && break
done
moves=$(sed -e 's/.*"moves":\[//' -e 's/\].*//' -e 's/","/ /g' -e 's/"//g' "$T/r.jsonl")
check "the game has a pass" sh -c "echo '$moves' | grep -q 'pass [a-h]'"
cmds=$(c=b; for m in $moves; do [ "$m" != pass ] && printf 'play %s %s\\n' $c $m
       if [ $c = b ]; then c=w; else c=b; fi; done)
res=$(sed -e 's/.*"result":\[//' -e 's/\].*//' "$T/r.jsonl")
out=$(gtp "${cmds}final_score\nundo\nfinal_score\n")
k=$(echo "$moves" | wc -w)
check "every play accepted" [ "$(echo "$out" | head -n $(($(echo "$cmds" | grep -c play))) | grep -vc '^= $')" -eq 0 ]
score=$(echo "$out" | tail -n 3 | head -n 1)
case $res in
    -1,1) want='^= W+[0-9]*$' ;; 1,-1) want='^= B+[0-9]*$' ;; *) want='^= 0$' ;;
esac
check "final_score names the winner ($res: $score)" sh -c "echo '$score' | grep -q '$want'"
check "undo then no score" [ "$(echo "$out" | tail -n 1)" = "? cannot score" ]

# --- time: time_settings and time_left drive the budget; a short clock
# gives a quick answer
out=$(gtp 'time_settings 60 0 0\ntime_left b 1 0\ngenmove b\ntime_settings 0 1 1\ntime_left w 1 1\ngenmove w\n' alphabeta)
check "time commands accepted" [ "$(reply "$out" 1)$(reply "$out" 2)$(reply "$out" 4)$(reply "$out" 5)" = "= = = = " ]
check "timed genmoves" [ "$(echo "$out" | grep -c '^= [A-H][1-8]$')" -eq 2 ]

# --- bad command lines
"$P" gtp chess < /dev/null > /dev/null 2> "$T/err"
check "ply gtp chess fails" [ $? -ne 0 ]
check "names the GTP games" grep -q "does not speak GTP (games that do: .*reversi" "$T/err"
"$P" gtp reversi --bot nosuchbot < /dev/null > /dev/null 2> "$T/err"
check "bad bot spec fails" [ $? -ne 0 ]
echo quit | "$P" gtp > "$T/out" 2>&1
check "ply gtp without a game: go, its native game" [ "$(cat "$T/out")" = "= " ]

# --- misbehaving GTP engines in a match: a forfeit with its reason
for spec in "crash crash" "hang time" "garbage illegal" "illegal illegal" \
            "refuse crash" "reject crash" "resign adjudicated"; do
    set -- $spec
    out=$T/$1.jsonl
    "$P" match reversi random f -n 2 --tc 300ms --grace 100ms \
        --startup 1s --engine "f=sh $E/gtp-fake.sh $1 $T/$1.log,proto=gtp" \
        --out "$out" --quiet > /dev/null 2>&1
    check "$1: match finishes" [ $? -eq 0 ]
    check "$1: 2 records" [ "$(count "$out" '')" -eq 2 ]
    check "$1: each lost by $2" \
        [ "$(count "$out" "\"reason\":\"$2\".*\"error\":\"f")" -eq 2 ]
done
check "reject: names the refused play" grep -q "rejected our move 'play b" "$T/reject.jsonl"
check "hang: no process left" [ -z "$(pgrep -f "gtp-fake.sh hang $T" 2>/dev/null)" ]
# the dialogue the client held
L=$T/d3.log
"$P" match reversi f random -n 1 --tc 2s+0.1s --engine "f=sh $E/gtp-fake.sh d3 $L,proto=gtp" --out "$T/d3.jsonl" --quiet > /dev/null 2>&1
check "d3: handshake" [ "$(head -n 3 "$L" | tr '\n' ' ')" = "boardsize 8 clear_board time_settings 2 0 0 " ]
check "d3: time_left then genmove" [ "$(sed -n '4,5p' "$L" | tr '\n' ' ' | sed 's/[0-9]* 0 /N 0 /')" = "time_left b N 0 genmove b " ]
check "d3: its move recorded, the reply played to it" grep -q '"moves":\["d3","[a-h][1-8]"\]' "$T/d3.jsonl"
mv2=$(sed -e 's/.*"moves":\["d3","//' -e 's/".*//' "$T/d3.jsonl" | tr a-h A-H)
check "d3: play w $mv2 sent" grep -q "^play w $mv2$" "$L"
check "d3: own move not echoed" [ "$(count "$L" '^play b')" -eq 0 ]
check "d3: resigned" grep -q '"reason":"adjudicated".*"error":"f resigned"' "$T/d3.jsonl"
# openings go as plays; setups cannot
"$P" match reversi random f -n 2 --openings random:3 --tc 300ms --engine "f=sh $E/gtp-fake.sh refuse $T/o.log,proto=gtp" --out "$T/o.jsonl" --quiet > /dev/null 2>&1
check "opening sent as plays" [ "$(grep -c '^play' "$T/o.log")" -ge 6 ]
echo '---------------------------OX------XO--------------------------- O' > "$T/open.txt"
"$P" match reversi random f -n 2 --openings "$T/open.txt" --tc 300ms --engine "f=sh $E/gtp-fake.sh d3,proto=gtp" --out "$T/s.jsonl" --quiet > /dev/null 2>&1
check "setup refused" [ "$(count "$T/s.jsonl" 'GTP cannot start from a position')" -eq 2 ]

# --- ply gtp through the GTP client: whole games, both seats
"$P" match reversi alphabeta:depth=2 g -n 2 --tc 5s+0.1s \
    --engine "g=$P gtp reversi --bot alphabeta:depth=1,proto=gtp" \
    --out "$T/full.jsonl" --quiet > /dev/null 2>&1
check "ply gtp: match finishes" [ $? -eq 0 ]
check "ply gtp: 2 normal games" [ "$(count "$T/full.jsonl" '"reason":"normal"')" -eq 2 ]

# --- go: boardsize and komi start the game again with those options,
# komi survives a later boardsize, final_score counts area and komi
gogtp() {
    printf "$1" | timeout 60 "$P" gtp go --bot mcts:iterations=300 |
        awk 'BEGIN { r = "" } /^$/ { print r; r = ""; next }
             { r = r == "" ? $0 : r "|" $0 }'
}
out=$(gogtp 'boardsize 9\nkomi 6.5\nclear_board\ngenmove b\nboardsize 5\nshowboard\nplay b pass\nplay w pass\nfinal_score\nboardsize 30\nkomi 99\nkomi 7\nclear_board\nplay b C3\nplay w pass\nplay b pass\nfinal_score\n')
check "go: boardsize 9" [ "$(reply "$out" 1)" = "= " ]
check "go: komi 6.5" [ "$(reply "$out" 2)" = "= " ]
check "go: genmove a vertex" sh -c "echo '$(reply "$out" 4)' | grep -qE '^= ([A-HJ][1-9]|pass)$'"
check "go: 5x5 board, komi kept" sh -c "echo '$(reply "$out" 6)' | grep -q 'komi 6.5' && echo '$(reply "$out" 6)' | grep -q ' 5  \. \. \. \. \.  5'"
check "go: empty board, two passes: W+6.5" [ "$(reply "$out" 9)" = "= W+6.5" ]
check "go: boardsize 30 refused" [ "$(reply "$out" 10)" = "? unacceptable size" ]
check "go: komi 99 refused" [ "$(reply "$out" 11)" = "? unacceptable komi" ]
check "go: one black stone owns 5x5: B+18" [ "$(reply "$out" 17)" = "= B+18" ]
# ply match sends boardsize and komi to a GTP engine; other options refused
"$P" match go alphabeta:depth=1 g -n 2 --options size=5,komi=3 --tc 5s+0.1s \
    --engine "g=$P gtp go --bot mcts:iterations=200,proto=gtp" \
    --out "$T/go.jsonl" --quiet > /dev/null 2>&1
check "go: match through ply gtp finishes" [ $? -eq 0 ]
check "go: 2 normal games" [ "$(count "$T/go.jsonl" '"reason":"normal"')" -eq 2 ]
# after each game the engine's own final_score is checked against the
# referee's: ply gtp agrees; an engine that names the other winner (the
# same engine with B and W swapped in its answers) is recorded as such
check "go: final_score agrees in both games" [ "$(count "$T/go.jsonl" '"check":\[[a-z",]*"agree"')" -eq 2 ]
check "go: no final_score disagrees" [ "$(count "$T/go.jsonl" '"disagree"\|"margin"')" -eq 0 ]
printf '#!/bin/sh\n"%s" gtp go --bot mcts:iterations=50 | sed -u -e "s/^= B+/= X+/" -e "s/^= W+/= B+/" -e "s/^= X+/= W+/"\n' "$P" > "$T/liar.sh"
"$P" match go random liar -n 2 --options size=5,komi=3 --engine "liar=sh $T/liar.sh,proto=gtp" --out "$T/liar.jsonl" > "$T/liar.txt" 2>&1
check "go: a lying final_score is recorded as the other winner" [ "$(count "$T/liar.jsonl" '"disagree"')" -eq 2 ]
check "go: and summed up" grep -q 'liar *agree 0  same winner, other margin 0  other winner 2' "$T/liar.txt"
"$P" match go random liar -n 2 --options size=5,komi=3 --engine "liar=false,proto=gtp" --out "$T/liar.jsonl" --resume > "$T/resume.txt" 2>&1
check "go: final_score checks read back by --resume" grep -q 'liar *agree 0  same winner, other margin 0  other winner 2' "$T/resume.txt"
# a whole 9x9 game against GNU Go (installed by scripts/install-deps.sh):
# both count the final position alike (GNU Go with Chinese rules and
# capture-all-dead, so no dead stone is left for area scoring to count)
if [ -x /usr/games/gnugo ]; then
    "$P" match go "mcts:rave=1,bias=0.015,c=0,iterations=1000" gnugo -n 1 \
        --options size=9,komi=7.5 --movetime 60s --quiet --out "$T/gnugo.jsonl" \
        --engine "gnugo=/usr/games/gnugo --mode gtp --level 1 --capture-all-dead --chinese-rules,proto=gtp" > /dev/null 2>&1
    check "go: a game against GNU Go ends normally" [ "$(count "$T/gnugo.jsonl" '"reason":"normal"')" -eq 1 ]
    check "go: GNU Go's final_score agrees with the referee's" [ "$(count "$T/gnugo.jsonl" '"check":\["none","agree"\]')" -eq 1 ]
else
    echo "gtp: gnugo not installed at /usr/games/gnugo: the game against GNU Go did not run (scripts/install-deps.sh installs it)"
fi
out=$("$P" match go random g -n 2 --options size=5,ko=ssk --engine "g=$P gtp go,proto=gtp" 2>&1)
check "go: ko= refused for GTP" sh -c "echo '$out' | grep -q 'GTP passes only the options size'"

# --- reversi: reg_genmove leaves the board alone; printsgf and loadsgf
# go through reversi's SGF (GM[2]); the go-only commands are unknown
out=$(gtp "play b d3\nreg_genmove w\nshowboard\nreg_genmove b\nprintsgf $T/r1.sgf\nprintsgf\nloadsgf $T/r1.sgf\nshowboard\nloadsgf $T/r1.sgf 1\nshowboard\nloadsgf $T/nosuch.sgf\nknown_command final_status_list\nfixed_handicap 2\nloadsgf\n")
check "reversi reg_genmove" sh -c "echo '$(reply "$out" 2)' | grep -q '^= [A-H][1-8]$'"
check "reversi board unchanged after reg_genmove" sh -c "echo '$(reply "$out" 3)' | grep -q ' 3 . . . X . . . . 3'"
check "reversi reg_genmove for the side not to move" [ "$(reply "$out" 4)" = "? not this color's turn" ]
check "reversi printsgf to a file" [ "$(reply "$out" 5)" = "= " ]
check "reversi printsgf GM[2]" sh -c "echo '$(reply "$out" 6)' | grep -q '^= (;FF\[4\]GM\[2\].*SZ\[8\].*;B\[dc\])$'"
check "reversi printsgf file = reply" [ "$(tr '\n' '|' < "$T/r1.sgf")" = "$(reply "$out" 6 | sed 's/^= //')|" ]
check "reversi loadsgf: white to move" [ "$(reply "$out" 7)" = "= white" ]
check "reversi loadsgf: the board" sh -c "echo '$(reply "$out" 8)' | grep -q ' 3 . . . X . . . . 3'"
check "reversi loadsgf 1: the start" [ "$(reply "$out" 9)" = "= black" ]
check "reversi loadsgf 1: board" sh -c "echo '$(reply "$out" 10)' | grep -q ' 3 . . . . . . . . 3'"
check "reversi loadsgf missing file" [ "$(reply "$out" 11)" = "? cannot load file" ]
check "reversi: no final_status_list" [ "$(reply "$out" 12)" = "= false" ]
check "reversi: no fixed_handicap" [ "$(reply "$out" 13)" = "? unknown command" ]
check "reversi: loadsgf without a file" [ "$(reply "$out" 14)" = "? syntax error" ]
echo '(;FF[4]GM[1]SZ[9];B[ee])' > "$T/go.sgf"
out=$(gtp "loadsgf $T/go.sgf\n")
check "reversi loadsgf of a go file" sh -c "echo '$(reply "$out" 1)' | grep -q '^? cannot load file: .*GM\[1\] is not Othello'"

# --- go: handicap commands, final_status_list, kgs-genmove_cleanup,
# reg_genmove, loadsgf and printsgf
gorun() {
    timeout 60 "$P" gtp go --bot mcts:iterations=200 < "$1" |
        awk 'BEGIN { r = "" } /^$/ { print r; r = ""; next }
             { r = r == "" ? $0 : r "|" $0 }'
}
printf '%s\n' 'boardsize 9' 'fixed_handicap 4' printsgf clear_board \
    'fixed_handicap 1' 'fixed_handicap 10' 'fixed_handicap x' \
    'place_free_handicap 3' 'fixed_handicap 2' clear_board \
    'set_free_handicap A1' 'set_free_handicap A1 A1' \
    'set_free_handicap A1 Z9' 'set_free_handicap A1 B2 pass' \
    'set_free_handicap A1 B2 C3' showboard 'reg_genmove w' printsgf \
    'play w D4' 'set_free_handicap E5 F6' final_status_list \
    'final_status_list dame' clear_board showboard > "$T/h.gtp"
out=$(gorun "$T/h.gtp")
check "go: fixed_handicap 4" [ "$(reply "$out" 2)" = "= C7 G7 C3 G3" ]
check "go: printsgf with HA and AB" sh -c "echo '$(reply "$out" 3)' | grep -q 'HA\[4\]|AB\[cg\]\[gg\]\[cc\]\[gc\])$'"
check "go: fixed_handicap 1" [ "$(reply "$out" 5)" = "? invalid number of stones" ]
check "go: fixed_handicap 10" [ "$(reply "$out" 6)" = "? invalid number of stones" ]
check "go: fixed_handicap x" [ "$(reply "$out" 7)" = "? syntax error" ]
check "go: place_free_handicap 3" [ "$(reply "$out" 8)" = "= C7 G7 C3" ]
check "go: handicap on a full board" [ "$(reply "$out" 9)" = "? board not empty" ]
check "go: set_free_handicap bad lists" [ "$(reply "$out" 11)$(reply "$out" 12)$(reply "$out" 13)$(reply "$out" 14)" = "? bad vertex list? bad vertex list? bad vertex list? bad vertex list" ]
check "go: set_free_handicap A1 B2 C3" [ "$(reply "$out" 15)" = "= " ]
check "go: clear_board dropped the handicap; stones; White to move" sh -c "echo '$(reply "$out" 16)' | grep -q ' 7  \. \. \. \. \. \. \. \. \.  7|.* 1  X \. \. \. \. \. \. \. \.  1|.*White (O) to move'"
check "go: reg_genmove w" sh -c "echo '$(reply "$out" 17)' | grep -qE '^= ([A-HJ][1-9]|pass)$'"
check "go: printsgf free handicap as a setup" sh -c "echo '$(reply "$out" 18)' | grep -q 'AB\[ai\]\[bh\]\[cg\]PL\[W\])$'"
check "go: play after reg_genmove" [ "$(reply "$out" 19)" = "= " ]
check "go: set_free_handicap on a played board" [ "$(reply "$out" 20)" = "? board not empty" ]
check "go: final_status_list without or bad status" [ "$(reply "$out" 21)$(reply "$out" 22)" = "? invalid status? invalid status" ]
check "go: clear_board after set_free_handicap" sh -c "echo '$(reply "$out" 24)' | grep -q 'area: X 0, O 0'"
# dead stones: White's B5 in Black's area, Black's H6 in White's
printf '%s\n' '(;FF[4]GM[1]SZ[9]KM[7.5]' \
    'AB[ea][eb][ec][ed][ee][ef][eg][eh][ei][hd]' \
    'AW[fa][fb][fc][fd][fe][ff][fg][fh][fi][be]' \
    ';B[aa];W[ia];B[ab])' > "$T/dead.sgf"
printf '(;FF[4]GM[1]SZ[3]KM[0.5]AB[aa][ab][ac][bb]AW[ca][cb][cc]PL[B])' > "$T/seki.sgf"
echo '(;GM[1]SZ[9];B[zz])' > "$T/bad.sgf"
printf '%s\n' "loadsgf $T/dead.sgf" 'final_status_list dead' \
    'final_status_list alive' 'final_status_list seki' \
    'kgs-genmove_cleanup b' "loadsgf $T/dead.sgf 2" \
    "loadsgf $T/dead.sgf ia" "printsgf $T/p1.sgf" "loadsgf $T/p1.sgf" \
    "printsgf $T/p2.sgf" "loadsgf $T/seki.sgf" 'final_status_list seki' \
    'final_status_list dead' 'kgs-genmove_cleanup x' \
    "loadsgf $T/bad.sgf" > "$T/d.gtp"
out=$(gorun "$T/d.gtp")
check "go: loadsgf, White to move" [ "$(reply "$out" 1)" = "= white" ]
check "go: final_status_list dead" [ "$(reply "$out" 2)" = "= H6|B5" ]
check "go: final_status_list alive" [ "$(reply "$out" 3 | tr '|' '\n' | wc -l)" -eq 21 ]
check "go: no seki" [ "$(reply "$out" 4)" = "= " ]
check "go: kgs-genmove_cleanup plays on" sh -c "echo '$(reply "$out" 5)' | grep -qE '^= [A-HJ][1-9]$'"
check "go: loadsgf 2" [ "$(reply "$out" 6)" = "= white" ]
check "go: loadsgf ia" [ "$(reply "$out" 7)" = "= white" ]
check "go: printsgf, loadsgf, printsgf: the same" cmp -s "$T/p1.sgf" "$T/p2.sgf"
check "go: the setup kept" grep -q 'AW\[fi\]\[fh\]\[fg\]\[ff\]\[be\]' "$T/p1.sgf"
check "go: seki" [ "$(reply "$out" 12)" = "= A3|C3|A2|B2|C2|A1|C1" ]
check "go: nothing dead in seki" [ "$(reply "$out" 13)" = "= " ]
check "go: kgs-genmove_cleanup bad colour" [ "$(reply "$out" 14)" = "? invalid color" ]
check "go: loadsgf of a bad file" sh -c "echo '$(reply "$out" 15)' | grep -q '^? cannot load file'"

out=$(printf '(;GM[2]SZ[8];B[dc];W[cc])' | "$P" record --from sgf 2>&1)
check "record --from sgf: GM[2] is reversi" sh -c "echo '$out' | grep -q '\"game\":\"reversi\".*\"moves\":\[\"d3\",\"c3\"\]'"

echo "gtp: $((n - fails))/$n passed"
[ "$fails" -eq 0 ]
