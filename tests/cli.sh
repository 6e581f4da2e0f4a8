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
expect_out "info" "Kalah" $PLY info kalah
expect_fail "unknown game" "unknown game 'nosuchgame'" $PLY info nosuchgame
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
expect_out "play reads moves" "record: 1" sh -c "printf '1\nquit\n' | $PLY play kalah --bot random"

expect_fail "serve unknown game" "only 'vindinium'" $PLY serve kalah
expect_fail "serve bad port" "--port" $PLY serve vindinium --port 99999
expect_fail "serve bad host" "not an IPv4 address" $PLY serve vindinium --host nohost --db :memory:
expect_fail "client needs a key" "--key" $PLY vindinium-client --server http://127.0.0.1:1
expect_fail "client bad mode" "--mode" $PLY vindinium-client --server http://127.0.0.1:1 --key k --mode duel
expect_fail "client no server" "127.0.0.1:1" $PLY vindinium-client --server http://127.0.0.1:1 --key k --bot random
expect_out "vindinium m1" "@3 at (7,7)" $PLY show vindinium --options map=m1

for g in $($PLY list | awk '/^games:/{f=1;next} /^bots:/{f=0} f{print $1}'); do
    expect_out "info $g" "start position setup string" $PLY info $g
    expect_out "perft $g" "perft  2" $PLY perft $g 2
    expect_fail "garbage setup $g" "bad setup string" $PLY show $g --setup '@@@ garbage ###'
    expect_fail "illegal move $g" "move 1" $PLY show $g --moves 'zz99'
    expect_out "demo $g" "record:" $PLY play $g --bot random --demo
done

echo "cli: $((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
