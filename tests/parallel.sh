#!/bin/sh
# parallel.sh — scripts/parallel-match.sh: the shards of a match through
# GNU parallel on this machine (-S :) and over two "hosts" reached through
# a stand-in ssh that runs the command here (so the remote quoting and the
# records coming back over parallel's output are exercised without a
# network); each merged summary equals the match played at once. Needs
# $PLY and GNU parallel (scripts/install-slurm.sh).
set -u
P=$(cd "$(dirname "$PLY")" && pwd)/$(basename "$PLY")
S=$(cd "$(dirname "$0")/.." && pwd)/scripts/parallel-match.sh
command -v parallel > /dev/null || { echo "parallel.sh: GNU parallel is missing: run scripts/install-slurm.sh"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
n=0
ok() { n=$((n + 1)); }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
check() { d=$1; shift; if "$@"; then ok; else bad "$d"; fi; }
cat > "$T/ssh" <<'EOS'
#!/bin/sh
# stand-in ssh: logs the host, runs the command here; like sshd, it sets
# SHELL to the login shell (parallel's remote wrapper runs the job with
# $SHELL, and CI's environment has none)
SHELL=/bin/sh
export SHELL
echo "$1" >> "$(dirname "$0")/hosts.log"
shift
[ "$1" = -- ] && shift
exec sh -c "$*"
EOS
chmod +x "$T/ssh"
cd "$T" || exit 1
$P match kalah random greedy "mcts:iterations=40" -n 7 --seed 5 --openings random:2 \
    > whole.txt 2>/dev/null
PLY_BIN=$P timeout 120 sh "$S" -N 3 -d local -- kalah random greedy \
    "mcts:iterations=40" -n 7 --seed 5 --openings random:2 > /dev/null 2>local.err \
    || bad "local run failed: $(cat local.err)"
check "local: 21 records" test "$(wc -l < local/records.jsonl)" -eq 21
check "local: merged summary equals the match at once" cmp -s whole.txt local/summary.txt
PARALLEL_SSH=$T/ssh PLY_BIN=$P timeout 120 sh "$S" -S 1/nodeA,1/nodeB -N 5 -d remote -- \
    kalah random greedy "mcts:iterations=40" -n 7 --seed 5 --openings random:2 \
    > /dev/null 2>remote.err || bad "remote run failed: $(cat remote.err)"
check "remote: merged summary equals the match at once" cmp -s whole.txt remote/summary.txt
check "remote: both hosts ran shards" test "$(sort -u hosts.log | wc -l)" -eq 2
check "remote: JSON summary" grep -q '"scheduled": 21' remote/summary.json
# a bot spec with a quote and a blank goes through the hosts' shells intact
PARALLEL_SSH=$T/ssh PLY_BIN=$P timeout 60 sh "$S" -S 1/nodeA -N 2 -d bad -- \
    kalah random "it's bad" > /dev/null 2> bad.err
check "an argument with a quote arrives whole" grep -q "it's bad" bad.err
PLY_BIN=$P sh "$S" -Q -- kalah random greedy > /dev/null 2> opt.err
check "unknown option" grep -q "unknown option '-Q'" opt.err
echo "$n checks, $fails failed"
[ "$fails" -eq 0 ]
