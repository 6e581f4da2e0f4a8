#!/bin/sh
# codecup-fake.sh MODE — a misbehaving CodeCup program for tests/match.sh.
# MODE: crash (exits instead of moving), garbage (an unreadable move),
# hang (never moves).
mode=$1
while IFS= read -r line; do
    [ "$line" = Quit ] && exit 0
    case $mode in
    crash) exit 1 ;;
    garbage) echo 'xx@@!' ;;
    hang) sleep 1000 ;;
    esac
done
