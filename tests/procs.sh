#!/bin/sh
# procs.sh — engine processes in ply match: an engine that leaves a helper
# behind and exits is a crash at once (not a time forfeit) and its helper
# dies with the game; killing ply match (SIGKILL or SIGTERM) mid-search
# leaves no process of the engine's group. Processes are found by a unique
# marker (a link to sleep in this run's temporary directory); every wait
# is bounded. Needs $PLY.
set -u
fails=0
n=0
T=$(mktemp -d)
P=$(cd "$(dirname "$PLY")" && pwd)/$(basename "$PLY")
E=$(cd "$(dirname "$0")" && pwd)/engines
K=$T/plytest          # the marker: every marked command line has it
M=$K-helper
ln -s "$(command -v sleep)" "$M"
ln -s "$P" "$K-ply"
ok() { n=$((n + 1)); }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
check() { d=$1; shift; if "$@"; then ok; else bad "$d"; fi; }
count() { c=$(grep -c -- "$2" "$1" 2>/dev/null); echo "${c:-0}"; }
# live processes (zombies excluded) whose command line has the marker
alive() { ps -eo stat=,args= | grep -v '^Z' | grep -F -- "$K" | grep -v grep; }
# none_left: waits up to 2 s for every marked process to be gone
none_left() {
    i=0
    while [ $i -lt 20 ]; do
        alive > /dev/null || return 0
        sleep 0.1; i=$((i + 1))
    done
    echo "still running:"; alive; return 1
}
cleanup() {
    # only this run's marked processes (never by a broad name)
    for pid in $(ps -eo pid=,args= | grep -F -- "$K" | grep -v grep | awk '{print $1}'); do
        kill -9 "$pid" 2>/dev/null
    done
    rm -rf "$T"
}
trap cleanup EXIT
ms() { date +%s%3N; }

# --- an engine that starts a helper and exits: a crash, at once
t0=$(ms)
$P match kalah random f -n 4 -j 1 --tc 30s --grace 100ms \
    --engine "f=sh $E/proc-fake.sh orphan $M" --out "$T/orphan.jsonl" \
    --quiet > /dev/null 2>&1
rc=$?
t=$(( $(ms) - t0 ))
check "orphan: match finishes" [ $rc -eq 0 ]
check "orphan: 4 crashes" [ "$(count "$T/orphan.jsonl" '"reason":"crash"')" -eq 4 ]
check "orphan: no time forfeit" [ "$(count "$T/orphan.jsonl" '"reason":"time"')" -eq 0 ]
# 4 games one at a time, each a crash seen at once: a game that waited
# for the engine's deadline (30 s) alone would pass the bound, which
# leaves a loaded machine 5 s a game
check "orphan: 4 games in ${t} ms (< 20000)" [ "$t" -lt 20000 ]
check "orphan: no helper survives" none_left

# --- ply match killed while an engine searches: its group dies too
for sig in KILL TERM; do
    $P match kalah random f -n 4 --tc 60s \
        --engine "f=sh $E/proc-fake.sh search $M" --out "$T/s-$sig.jsonl" \
        --quiet > /dev/null 2>&1 &
    pid=$!
    i=0
    while [ $i -lt 100 ] && ! alive | grep -q -- "$M 300"; do
        sleep 0.05; i=$((i + 1))
    done
    check "$sig: the engine searches (helper started)" eval 'alive | grep -q -- "$M 300"'
    check "$sig: the engine itself runs" eval 'alive | grep -q -- "proc-fake.sh search"'
    kill -"$sig" "$pid"
    wait "$pid" 2>/dev/null
    check "$sig: no engine process survives" none_left
done

# --- normal games: every engine process ends with its game
$P match kalah random u -n 4 --engine "u=$K-ply ugi --bot random" \
    --out "$T/n.jsonl" --quiet > /dev/null 2>&1
check "ugi: 4 normal games" [ "$(count "$T/n.jsonl" '"reason":"normal"')" -eq 4 ]
check "ugi: no engine left" none_left
$P match kalah random u -n 1 -j 1 --engine "u=$K-ply ugi --bot mcts:time=20s" \
    --tc 60s --out "$T/n2.jsonl" --quiet > /dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && ! alive | grep -q -- "$K-ply ugi"; do
    sleep 0.05; i=$((i + 1))
done
check "ply ugi searching" eval 'alive | grep -q -- "$K-ply ugi"'
kill -KILL "$pid"
wait "$pid" 2>/dev/null
check "KILL: ply ugi does not survive" none_left

echo "procs: $((n - fails))/$n passed"
[ $fails -eq 0 ]
