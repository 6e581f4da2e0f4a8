#!/bin/sh
# run.sh — a short run of every libFuzzer target in $FUZZ (a directory of
# fuzz_* binaries, see tests/fuzz/fuzz.h): each writes its seed corpus at
# run time (PLY_FUZZ_SEEDS), then fuzzes for FUZZ_SECONDS (default 7).
# Prints one line per target with its executions and coverage; a crash
# keeps its input and the run's whole logs under $FUZZ/artifacts and
# fails the run.
# FUZZ_TARGETS="moves text" limits the run to those targets;
# FUZZ_TIMEOUT=S is libFuzzer's limit for one input (300);
# FUZZ_CORPUS=DIR keeps each target's corpus in DIR/NAME across runs (long
# runs, docs/fuzzing.md); FUZZ_JOBS=N runs N fuzzing processes per target.
# Each target fuzzes in a scratch directory of its own: inputs may name
# files (GTP's printsgf writes one), which must not land in the tree.
set -u
secs=${FUZZ_SECONDS:-7}
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
FUZZ=$(abs "$FUZZ")
art=$FUZZ/artifacts
mkdir -p "$art"
n=0
for bin in "$FUZZ"/fuzz_*; do
    [ -x "$bin" ] || continue
    name=${bin##*/fuzz_}
    if [ -n "${FUZZ_TARGETS:-}" ]; then
        case " $FUZZ_TARGETS " in *" $name "*) ;; *) continue ;; esac
    fi
    if [ -n "${FUZZ_CORPUS:-}" ]; then
        dir=$(abs "$FUZZ_CORPUS")/$name; mkdir -p "$dir"; keep=1
    else
        dir=$(mktemp -d); keep=0
    fi
    log=$(mktemp)
    # the seeds are written from the tree (zrf reads tests/zrf/*.zrf)
    if ! PLY_FUZZ_SEEDS="$dir" "$bin" > "$log" 2>&1; then
        cat "$log"; echo "fuzz: $name: writing seeds failed"
        rm -f "$log"; [ $keep = 1 ] || rm -rf "$dir"; exit 1
    fi
    work=$(mktemp -d)
    seeds=$(ls "$dir" | wc -l)
    jobs=${FUZZ_JOBS:-1}
    par=
    [ "$jobs" -gt 1 ] && par="-jobs=$jobs -workers=$jobs"
    # -close_fd_mask=3: the targets' own messages (rejected input) are
    # noise; libFuzzer and sanitizer reports still reach the log.
    # -timeout (FUZZ_TIMEOUT, default 300 s): an input that builds a game's
    # endgame databases (kalah and oware when set up, the oware bot when
    # made: 0.4-9 s in a release build) takes 40 times as long under the
    # fuzzer's instrumentation, once per process: oware set up, 16 s of
    # CPU, which on a loaded machine passed 60 s of wall time and failed
    # a short run; long runs use 600
    if ! (cd "$work" && "$bin" -max_total_time="$secs" \
            -timeout="${FUZZ_TIMEOUT:-300}" -close_fd_mask=3 \
            -artifact_prefix="$art/$name-" -print_final_stats=1 $par \
            "$dir") > "$log" 2>&1; then
        tail -n 60 "$log"; cat "$work"/fuzz-*.log 2>/dev/null | tail -n 60
        # the whole logs too: with several jobs the report may be in any
        # worker's log, far from its end
        full=$art/$name-$(date +%Y%m%d-%H%M%S)-$$.log
        cat "$log" "$work"/fuzz-*.log > "$full" 2>/dev/null
        echo "fuzz: $name failed; input kept in $art, the logs in $full"
        rm -f "$log"; rm -rf "$work"; [ $keep = 1 ] || rm -rf "$dir"; exit 1
    fi
    [ "$jobs" -gt 1 ] && cat "$work"/fuzz-*.log >> "$log"
    rm -rf "$work"
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" |
           awk '{s += $1} END {print s + 0}')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    echo "fuzz: $name: $seeds seeds, $runs runs in ${secs}s, $cov, no crash"
    rm -f "$log"; [ $keep = 1 ] || rm -rf "$dir"
    n=$((n + 1))
done
[ $n -gt 0 ] || { echo "fuzz: no targets in $FUZZ"; exit 1; }
echo "fuzz: $n targets passed"
