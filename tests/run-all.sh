#!/bin/sh
# run-all.sh — runs every test: the cmocka unit binaries, the CLI checks
# and a short run of every fuzz target. Prints one summary line
# "N passed, N failed" and exits non-zero on any failure.
# Environment: PLY (the ply binary), BUILD (build dir), FUZZ (the fuzz
# targets' directory, may be empty), PLY_SLOW=1 for the deep tests.
set -u
passed=0
failed=0
failures=""
run() {
    name=$1; shift
    if "$@" > "$BUILD/test-$name.log" 2>&1; then
        passed=$((passed + 1)); echo "PASS $name"
    else
        failed=$((failed + 1)); failures="$failures $name"
        echo "FAIL $name (log: $BUILD/test-$name.log)"; tail -n 30 "$BUILD/test-$name.log"
    fi
}
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    run "$(basename "$t")" "$t"
done
run cli env PLY="$PLY" sh tests/cli.sh
run match env PLY="$PLY" sh tests/match.sh
run usi env PLY="$PLY" sh tests/usi.sh
run engines env PLY="$PLY" sh tests/engines.sh
run procs env PLY="$PLY" sh tests/procs.sh
if [ -n "${FUZZ:-}" ] && [ -d "$FUZZ" ]; then
    run fuzz env FUZZ="$FUZZ" PLY="$PLY" sh tests/fuzz/run.sh
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || { echo "failed:$failures"; exit 1; }
