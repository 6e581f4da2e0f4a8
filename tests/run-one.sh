#!/bin/sh
# run-one.sh NAME CMD [ARG...] — one test of run-all.sh: runs CMD with its
# output in $BUILD/test-NAME.log, writes PASS or FAIL to
# $BUILD/test-NAME.result and prints one line with the seconds it took
# (the log's last 30 lines after a failure).
set -u
name=$1; shift
log=$BUILD/test-$name.log
start=$(date +%s)
if "$@" > "$log" 2>&1; then r=PASS; else r=FAIL; fi
secs=$(( $(date +%s) - start ))
echo "$r" > "$BUILD/test-$name.result"
if [ "$r" = PASS ]; then
    echo "PASS $name (${secs}s)"
else
    echo "FAIL $name (${secs}s, log: $log)"; tail -n 30 "$log"
fi
