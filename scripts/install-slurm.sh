#!/bin/sh
# install-slurm.sh — the Debian packages tests/slurm.sh needs (a one-node
# Slurm cluster: munge, slurmctld, slurmd, the client commands) and GNU
# parallel for scripts/parallel-match.sh. Separate from install-deps.sh:
# plain `make test` does not need them. Idempotent; as root it runs
# apt-get, otherwise it prints the command. The packages' own services
# are not used (tests/slurm.sh starts its daemons in a temporary
# directory).
set -e
PKGS="munge slurmctld slurmd slurm-client parallel"
missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "install-slurm: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends $missing
else
    echo "install-slurm: missing Debian packages:$missing" >&2
    echo "run: sudo apt-get update && sudo apt-get install -y --no-install-recommends$missing" >&2
    exit 1
fi
