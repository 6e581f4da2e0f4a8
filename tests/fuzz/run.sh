#!/bin/sh
# run.sh — a short libFuzzer run per game and parser, seeded with the
# game's start setup string. Needs $FUZZ and $PLY. FUZZ_SECONDS per game.
set -u
secs=${FUZZ_SECONDS:-4}
games=$($PLY list | awk '/^games:/{f=1;next} /^bots:/{f=0} f{print $1}')
i=0
for g in $games; do
    dir=$(mktemp -d)
    setup=$($PLY info "$g" | awk '/start position setup string/{getline; sub(/^  /,""); print; exit}')
    # corpus entries: byte 0 picks the game (overridden), byte 1 the parser
    printf '\000\000%s' "$setup" > "$dir/setup"
    printf '\000\001%s' "$($PLY show "$g" | sed -n 's/^legal moves ([0-9]*): \([^ ]*\).*/\1/p')" > "$dir/move"
    echo "fuzzing $g for ${secs}s"
    if ! PLY_FUZZ_GAME=$g "$FUZZ" -max_total_time="$secs" -max_len=512 \
            -print_final_stats=0 "$dir" > "$dir/log" 2>&1; then
        tail -n 40 "$dir/log"
        echo "fuzz: $g failed"
        exit 1
    fi
    rm -rf "$dir"
    i=$((i + 1))
done
echo "fuzz: $i games passed"
