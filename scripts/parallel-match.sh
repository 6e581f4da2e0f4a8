#!/bin/sh
# parallel-match.sh — a ply match over machines without a scheduler: GNU
# parallel runs the N shards over ssh hosts (ply match --shard I/N), brings
# each shard's records back, and ply match --merge prints the statistics of
# the whole match. See docs/cluster.md.
#
#   scripts/parallel-match.sh [-S HOSTS] [-N SHARDS] [-d DIR] -- \
#       GAME BOT_A BOT_B [...] [ply match options]
#
# -S: parallel's host list (default ':' = this machine; e.g.
#     '2/alice@node1,2/node2' runs two shards at a time on each), or
#     -S ..file to read them from a file (--sshloginfile).
# -N: shards (default: 4). -d: where the records and summaries go
#     (default ./ply-match-parallel; the same command again resumes).
# PLY_BIN: the ply binary on the hosts (default: ply on their PATH).
# Each shard's records come back over parallel's output (no shared file
# system needed) into DIR/records.jsonl. Files named in the match options (--openings
# FILE) must exist on every host at the same path. A shard that failed can
# be run again with the same command: shards already on record are
# skipped (parallel --joblog/--resume-failed).
set -eu
hosts=":"
shards=4
dir=ply-match-parallel
while [ $# -gt 0 ]; do
    case $1 in
    -S) hosts=$2; shift 2 ;;
    -N) shards=$2; shift 2 ;;
    -d) dir=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "parallel-match: unknown option '$1' (want -S, -N, -d, then -- and ply match's arguments)" >&2; exit 2 ;;
    esac
done
[ $# -ge 2 ] || { echo "usage: parallel-match.sh [-S HOSTS] [-N SHARDS] [-d DIR] -- GAME BOT_A BOT_B [options]" >&2; exit 2; }
case $shards in ''|*[!0-9]*) echo "parallel-match: -N wants a number" >&2; exit 2 ;; esac
[ "$shards" -ge 1 ] || { echo "parallel-match: -N wants at least 1" >&2; exit 2; }
command -v parallel > /dev/null || { echo "parallel-match: GNU parallel is missing (scripts/install-slurm.sh installs it)" >&2; exit 1; }
PLY_BIN=${PLY_BIN:-ply}
# parallel runs each job with $SHELL; an environment without one (cron, CI)
# gets the POSIX shell
SHELL=${SHELL:-/bin/sh}
export SHELL
LOCAL_PLY=${LOCAL_PLY:-$PLY_BIN}
mkdir -p "$dir"
cd "$dir"
case $hosts in
..*) login="--sshloginfile ${hosts#..}" ;;
*) login="-S $hosts" ;;
esac
# the match's arguments quoted for the hosts' shells
args=""
for a in "$@"; do
    args="$args '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
done
bin="'$(printf '%s' "$PLY_BIN" | sed "s/'/'\\\\''/g")'"
# Each job writes its shard's records to a temporary file on its host and
# prints them when the shard is complete; parallel hands a job's output
# over whole, so records.jsonl gets every shard's records once (a job that
# failed prints nothing, and --resume-failed runs only such jobs again).
# shellcheck disable=SC2086
seq 1 "$shards" | parallel $login --joblog joblog --resume-failed \
    --halt now,fail=1 \
    "f=\$(mktemp) && $bin match$args --shard {}/$shards --out \"\$f\" > /dev/null && cat \"\$f\"; rc=\$?; rm -f \"\$f\"; exit \$rc" \
    >> records.jsonl
"$LOCAL_PLY" match --merge records.jsonl > summary.txt
"$LOCAL_PLY" match --merge records.jsonl --json > summary.json
cat summary.txt
