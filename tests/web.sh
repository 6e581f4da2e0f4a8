#!/bin/sh
# web.sh — `ply serve` as a user meets it: it prints its URL, serves the
# page and the JSON API on a free loopback port (curl), answers bad
# requests with 4xx and a message, a bot replies, SIGTERM ends it; also
# its command-line errors, and `ply serve vindinium` still parsed as
# before. Every wait is bounded; the server is killed on exit.
set -u
PLY=${PLY:-./ply}
dir=$(mktemp -d /tmp/ply-web-XXXXXX)
spid=
cleanup() {
    [ -n "$spid" ] && kill -9 "$spid" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; cat "$dir"/*.out "$dir"/*.err 2>/dev/null; exit 1; }
command -v curl >/dev/null || fail "curl is not installed"

# command-line errors: exit 2 with a message, no server left behind
for bad in "--port 70000" "--port x" "--max-games 0" "--bogus" \
           "--host not-an-address --port 0" "extra-word" \
           "--web-dir /no/such/dir --port 0"; do
    # shellcheck disable=SC2086
    timeout 10 "$PLY" serve $bad >"$dir/bad.out" 2>"$dir/bad.err"
    rc=$?
    [ $rc = 2 ] || fail "ply serve $bad: exit $rc, wanted 2"
    grep -q "serve" "$dir/bad.err" || fail "ply serve $bad: no message"
done

"$PLY" serve --port 0 --seed 7 >"$dir/server.out" 2>"$dir/server.err" &
spid=$!
i=0
while ! grep -q "Ply: open http://" "$dir/server.out" 2>/dev/null; do
    i=$((i + 1)); [ $i -le 100 ] || fail "the server did not start"
    sleep 0.1
done
url=$(sed -n 's|^Ply: open \(http://127.0.0.1:[0-9]*/\)$|\1|p' "$dir/server.out")
[ -n "$url" ] || fail "no URL in: $(cat "$dir/server.out")"

get() {   # $1 method, $2 path, $3 body (or ""); prints "STATUS BODY"
    if [ -n "$3" ]; then
        curl -s -m 10 -o "$dir/body" -w '%{http_code}' -X "$1" \
            --data-binary "$3" "$url$2"
    else
        curl -s -m 10 -o "$dir/body" -w '%{http_code}' -X "$1" "$url$2"
    fi
}
expect() {   # $1 status, then get's arguments
    want=$1; shift
    got=$(get "$@")
    [ "$got" = "$want" ] || fail "$1 $2 $3: status $got, wanted $want: $(cat "$dir/body")"
}
field() {   # a top-level string field of the last body
    python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print(v)' "$dir/body" "$1"
}

expect 200 GET "" ""
grep -qi "<html\|<!doctype" "$dir/body" || fail "/ is not a page"
expect 200 GET api/games ""
grep -q '"draughts-russian"' "$dir/body" || fail "no games listed"
expect 404 GET api/nothing ""
expect 405 DELETE api/games ""
expect 400 POST api/games '{"game": '
grep -q '"error"' "$dir/body" || fail "no error message"
expect 404 POST api/games '{"game": "no-such-game"}'
expect 201 POST api/games '{"game": "draughts-russian", "seats": ["human", "alphabeta:time=100ms"]}'
id=$(field id)
[ ${#id} = 32 ] || fail "id '$id'"
expect 200 GET "api/games/$id" ""
expect 200 GET "api/games/$id/legal" ""
grep -q '"cells":\[' "$dir/body" || fail "legal moves without cells"
expect 400 POST "api/games/$id/move" '{"move": "a1-h8"}'
expect 200 POST "api/games/$id/move" '{"move": "c3-d4"}'
expect 202 POST "api/games/$id/go" '{}'
i=0
while :; do
    expect 200 GET "api/games/$id/think" ""
    [ "$(field state)" = done ] && break
    i=$((i + 1)); [ $i -le 100 ] || fail "the bot did not answer"
    sleep 0.1
done
expect 200 GET "api/games/$id" ""
[ "$(field ply)" = 2 ] || fail "the bot's move was not played"
expect 200 POST "api/games/$id/undo" '{"n": 1}'
[ "$(field ply)" = 1 ] || fail "undo"
expect 200 POST "api/games/$id/redo" ''
[ "$(field ply)" = 2 ] || fail "redo"
expect 200 GET "api/games/$id/record?format=pdn" ""
grep -q "1. " "$dir/body" || fail "no PDN moves"
expect 404 GET "api/games/$id/record?format=kif" ""
# players from options: splut players=2 seats South and North only
expect 200 GET "api/players?game=splut&options=players%3D2" ""
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["players"]; sys.exit(p != ["South", "North"])' "$dir/body" || fail "players=2: $(cat "$dir/body")"
expect 400 GET "api/players?game=splut&options=players%3D5" ""
expect 404 GET "api/players?game=no-such-game" ""
expect 201 POST api/games '{"game": "splut", "options": "players=2", "seats": ["human", "random", "random", "random"]}'
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["players"] != ["South", "North"] or d["seats"] != ["human", "random"])' "$dir/body" || fail "splut players=2 state: $(cat "$dir/body")"
big=$(head -c 70000 /dev/zero | tr '\0' ' ')
expect 413 POST api/games "{$big}"
expect 200 DELETE "api/games/$id" ""
expect 404 GET "api/games/$id" ""

kill -TERM "$spid"
i=0
while kill -0 "$spid" 2>/dev/null; do
    i=$((i + 1)); [ $i -le 50 ] || fail "the server ignored SIGTERM"
    sleep 0.1
done
wait "$spid"
rc=$?
spid=
[ $rc = 0 ] || fail "the server exited $rc after SIGTERM"

# the Vindinium server is still `ply serve vindinium`
timeout 10 "$PLY" serve vindinium --port 70000 >"$dir/vd.out" 2>"$dir/vd.err"
[ $? = 2 ] && grep -q "port" "$dir/vd.err" || fail "ply serve vindinium --port 70000"
echo "web.sh: ok"
