#!/bin/sh
# run.sh — a short run of every libFuzzer target in $FUZZ (a directory of
# fuzz_* binaries, see tests/fuzz/fuzz.h): each writes its seed corpus at
# run time (PLY_FUZZ_SEEDS), then fuzzes for FUZZ_SECONDS (default 7).
# Prints one line per target with its executions and coverage; a crash
# keeps its input under $FUZZ/artifacts and fails the run.
# FUZZ_TARGETS="moves text" limits the run to those targets.
set -u
secs=${FUZZ_SECONDS:-7}
art=$FUZZ/artifacts
mkdir -p "$art"
n=0
for bin in "$FUZZ"/fuzz_*; do
    [ -x "$bin" ] || continue
    name=${bin##*/fuzz_}
    if [ -n "${FUZZ_TARGETS:-}" ]; then
        case " $FUZZ_TARGETS " in *" $name "*) ;; *) continue ;; esac
    fi
    dir=$(mktemp -d)
    if ! PLY_FUZZ_SEEDS="$dir" "$bin" > "$dir.log" 2>&1; then
        cat "$dir.log"; echo "fuzz: $name: writing seeds failed"
        rm -rf "$dir" "$dir.log"; exit 1
    fi
    seeds=$(ls "$dir" | wc -l)
    # -close_fd_mask=3: the targets' own messages (rejected input) are
    # noise; libFuzzer and sanitizer reports still reach the log
    if ! "$bin" -max_total_time="$secs" -timeout=20 -close_fd_mask=3 \
            -artifact_prefix="$art/$name-" -print_final_stats=1 \
            "$dir" > "$dir.log" 2>&1; then
        tail -n 60 "$dir.log"
        echo "fuzz: $name failed; input kept in $art"
        rm -rf "$dir" "$dir.log"; exit 1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir.log")
    cov=$(grep -o 'cov: [0-9]*' "$dir.log" | tail -n 1)
    echo "fuzz: $name: $seeds seeds, $runs runs in ${secs}s, $cov, no crash"
    rm -rf "$dir" "$dir.log"
    n=$((n + 1))
done
[ $n -gt 0 ] || { echo "fuzz: no targets in $FUZZ"; exit 1; }
echo "fuzz: $n targets passed"
