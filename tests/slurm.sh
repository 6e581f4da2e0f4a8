#!/bin/sh
# slurm.sh — a one-node Slurm cluster in a temporary directory (munged,
# slurmctld and slurmd from Debian's packages, started here without
# systemd, on loopback ports), a 4-shard match submitted through the
# scripts ply match --slurm writes (a job array and a dependent merge job),
# and its merged summary and records compared with the same match played
# at once. Every daemon started here is stopped by its pid at the end.
# Needs $PLY; the packages from scripts/install-slurm.sh. Run as root or
# as the user the daemons may run as (SlurmUser is the current user).
set -u
P=$(cd "$(dirname "$PLY")" && pwd)/$(basename "$PLY")
for x in munged slurmctld slurmd sbatch squeue scontrol; do
    command -v $x > /dev/null 2>&1 || [ -x /usr/sbin/$x ] || {
        echo "slurm.sh: $x is missing: run scripts/install-slurm.sh"; exit 1; }
done
PATH=$PATH:/usr/sbin
T=$(mktemp -d /tmp/ply-slurm.XXXXXX)
chmod 755 "$T"
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    sleep 1
    for p in $pids; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; for f in "$T"/*.log; do echo "--- $f"; tail -n 15 "$f"; done; exit 1; }
user=$(id -un)
host=$(hostname -s)
# free-looking ports from the pid, within 20000..59999
base=$((20000 + ($$ % 20000) * 2))
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/work"
chmod 711 "$T/munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge/munge.key"
munged --foreground --force --socket="$T/munge/sock" \
    --key-file="$T/munge/munge.key" --log-file="$T/munged.log" \
    --pid-file="$T/munge/munged.pid" --seed-file="$T/munge/seed" \
    > "$T/munged.out.log" 2>&1 &
pids="$pids $!"
cat > "$T/slurm.conf" <<EOC
ClusterName=plytest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
AuthInfo=socket=$T/munge/sock
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOC
export SLURM_CONF="$T/slurm.conf"
i=0
until [ -S "$T/munge/sock" ]; do
    i=$((i + 1)); [ $i -le 50 ] || fail "munged did not start"; sleep 0.1
done
slurmctld -D -i -f "$SLURM_CONF" > "$T/slurmctld.out.log" 2>&1 &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" -N "$host" > "$T/slurmd.out.log" 2>&1 &
pids="$pids $!"
i=0
until sinfo -h -o %T 2>/dev/null | grep -q '^idle'; do
    i=$((i + 1)); [ $i -le 60 ] || fail "the node did not come up: $(sinfo 2>&1)"
    sleep 0.5
done

# the same match at once and through Slurm in 4 shards
M="kalah random greedy mcts:iterations=40 -n 6 --seed 11 --openings random:2"
cd "$T/work" || exit 1
$P match $M --out whole.jsonl > whole.txt 2>/dev/null || fail "the whole match failed"
$P match $M --slurm 4 --out "$T/work/sl" > /dev/null || fail "ply match --slurm failed"
sh sl/submit.sh > submit.out 2>&1 || fail "submit: $(cat submit.out)"
cat submit.out
i=0
until [ -s sl/summary.txt ] && ! squeue -h 2>/dev/null | grep -q .; do
    i=$((i + 1)); [ $i -le 240 ] || fail "jobs did not finish: $(squeue 2>&1)"
    sleep 0.5
done
for k in 1 2 3 4; do
    [ -s sl/shard-$k.jsonl ] || fail "shard $k wrote no records: $(cat sl/shard-$k.log)"
done
cmp whole.txt sl/summary.txt || { diff whole.txt sl/summary.txt; fail "the merged summary differs"; }
sort whole.jsonl > a
sed 's/,"shard":\[.*$/}/' sl/shard-*.jsonl | sort > b
cmp a b || fail "the shards' records differ from the whole match's"
grep '^random vs greedy' sl/summary.txt
echo "slurm: 4 shards through sbatch, merged: same summary and records as the match at once"
