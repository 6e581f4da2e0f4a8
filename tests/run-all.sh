#!/bin/sh
# run-all.sh — runs every test: the cmocka unit binaries, the CLI checks
# and a short run of every fuzz target. Prints one summary line
# "N passed, N failed" and exits non-zero on any failure.
# Environment: PLY (the ply binary), BUILD (build dir), FUZZ (the fuzz
# targets' directory, may be empty), PLY_SLOW=1 for the deep tests,
# PLY_SERVER=0 for a build without the Vindinium server and client (their
# tests are skipped, and said so).
# PLY_TEST_JOBS=N runs N tests at a time (default: the number of cores);
# the slowest tests start first. Each line is printed when its
# test ends, with the seconds it took.
set -u
jobs=${PLY_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
list=$(mktemp)
trap 'rm -f "$list"' EXIT
# words single-quoted; no trailing blank (xargs -L would join the lines)
q() { printf "'%s'" "$1"; shift; printf " '%s'" "$@"; }
run() {
    name=$1; shift
    rm -f "$BUILD/test-$name.result"
    echo "$(q "$name" "$@")" >> "$list"
}
# the longest first (unit binaries and shell tests alike), so that the
# last tests to end are short ones
first="test_alphabeta test_mcts test_conformance test_hidden test_bench test_perft"
for t in $first; do
    [ -x "$BUILD/tests/$t" ] && run "$t" "$BUILD/tests/$t"
done
run match env PLY="$PLY" sh tests/match.sh
if [ -n "${FUZZ:-}" ] && [ -d "$FUZZ" ]; then
    run fuzz env FUZZ="$FUZZ" PLY="$PLY" sh tests/fuzz/run.sh
else
    echo "SKIP fuzz: no fuzz targets (make test TEST_FUZZ=0)"
fi
if [ "${PLY_SERVER:-1}" = 1 ]; then
    run browser env PLY="$PLY" BUILD="$BUILD" sh tests/browser.sh
fi
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    case " $first " in *" $(basename "$t") "*) continue ;; esac
    run "$(basename "$t")" "$t"
done
run cli env PLY="$PLY" sh tests/cli.sh
run codecup-zuniq env PLY="$PLY" sh tests/codecup-zuniq.sh
run shards env PLY="$PLY" sh tests/shards.sh
run train env PLY="$PLY" sh tests/train.sh
run usi env PLY="$PLY" sh tests/usi.sh
run engines env PLY="$PLY" sh tests/engines.sh
run gtp env PLY="$PLY" sh tests/gtp.sh
run gomocup env PLY="$PLY" sh tests/gomocup.sh
if [ -n "${PLY_SLOW:-}" ] && [ "$PLY_SLOW" != 0 ]; then
    # other programs' KIF readers, when installed (skips itself if not)
    run kif-readers env PLY="$PLY" sh scripts/kif-readers.sh
fi
if [ -n "${PLY_SLOW:-}" ] && [ "$PLY_SLOW" != 0 ] && [ -n "${ZRF_CORPUS:-}" ]; then
    # native and interpreted ZRF move generation agree over a corpus
    run zrf-cc sh scripts/zrf-cc-check.sh "$ZRF_CORPUS" 3 "$PLY"
fi
run play-tty env PLY="$PLY" python3 tests/play_tty.py
run libply env BUILD="$BUILD" MODE="${MODE:-release}" PLY_SERVER="${PLY_SERVER:-1}" sh tests/libply.sh
run python env BUILD="$BUILD" PLY="$PLY" sh tests/python.sh
if [ "${PLY_SERVER:-1}" = 1 ]; then
    run vdrestart env PLY="$PLY" sh tests/vdrestart.sh
    run web env PLY="$PLY" sh tests/web.sh
else
    echo "SKIP test_vdserver test_vdclient vdrestart: built with SERVER=0"
    echo "SKIP test_web web browser: built with SERVER=0"
fi
run procs env PLY="$PLY" sh tests/procs.sh
# one test a line, its words single-quoted for xargs
xargs -P "$jobs" -L 1 env BUILD="$BUILD" sh tests/run-one.sh < "$list"
passed=0
failed=0
failures=""
while IFS= read -r line; do
    name=$(eval "set -- $line"; echo "$1")
    if [ "$(cat "$BUILD/test-$name.result" 2>/dev/null)" = PASS ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); failures="$failures $name"
    fi
done < "$list"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || { echo "failed:$failures"; exit 1; }
