#!/usr/bin/env bash
# test_serve.sh - `tiers serve`: the printed address, the security checks
# (token, Host, Origin, body size, session limit and idle drop) and every
# endpoint of the JSON API (docs/serve.md) through curl, with expected
# values from the CLI (`tiers moves`, `tiers apply`, its messages) or the
# rules (duel-promote: a pawn reaching the far rank fires `promote`).
# The servers run in the background and are stopped by PID.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

pids=()
cli_cleanup() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null
    done
}
cli_begin "$@"

promote=$variants/duel-promote

# start NAME ARGS...: starts `tiers serve ARGS` and waits for its first
# line; sets $pid, $url, $host (ADDR:PORT), $token, $base.
start() {
    local name=$1
    shift
    "$tiers" serve "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
    pid=$!
    pids+=("$pid")
    for _ in $(seq 1 200); do
        [[ -s $tmp/$name.out ]] && break
        sleep 0.05
    done
    url=$(head -n 1 "$tmp/$name.out")
    token=${url#*token=}
    host=${url#http://}
    host=${host%%/*}
    base=http://$host
}

# api METHOD PATH [BODY] [CURL-ARGS...]: the request with the token;
# leaves the status in $code and the body in $tmp/body.
api() {
    local method=$1 path=$2 body=${3:-}
    shift 3 2>/dev/null || shift $#
    local args=(-s -o "$tmp/body" -w '%{http_code}' -H "X-Tiers-Token: $token")
    if [[ $method == POST ]]; then
        args+=(-H 'Content-Type: application/json' --data-binary "$body")
    fi
    code=$(curl "${args[@]}" "$@" "$base$path")
}

jq_body() { jq -r "$1" "$tmp/body"; }

# status NAME EXPECTED: the last request's status.
status() {
    check "$1" "$([[ $code == "$2" ]] && echo 0 || echo 1)" \
        "status $code, expected $2: $(head -c 300 "$tmp/body")"
}

# check NAME RC MESSAGE: a case that passes when RC is 0.
check() {
    case_begin
    [[ $2 -eq 0 ]] || fail "$1: $3"
    case_end
}

# same NAME GOT WANT
same() {
    check "$1" "$([[ $2 == "$3" ]] && echo 0 || echo 1)" "got '$2', want '$3'"
}

# ------------------------------------------------------------ start
# Only `serve` opens libmicrohttpd (and GnuTLS behind it): every other
# command starts without them (issue 20's start-up target).
LD_DEBUG=libs "$tiers" --version >/dev/null 2>"$tmp/libs"
grep -q 'libc\.so' "$tmp/libs"
check "LD_DEBUG=libs lists the libraries" $? "no libc in LD_DEBUG=libs"
grep -qE 'libmicrohttpd|libgnutls' "$tmp/libs"
check "--version loads no HTTP library" $((!$?)) "$(grep -m 1 -E 'microhttpd|gnutls' "$tmp/libs")"
LD_DEBUG=libs "$tiers" serve --port 0 official >"$tmp/libs.out" 2>"$tmp/libs" &
libs_pid=$!
pids+=("$libs_pid")
for _ in $(seq 1 200); do
    [[ -s $tmp/libs.out ]] && break
    sleep 0.05
done
kill "$libs_pid" 2>/dev/null
wait "$libs_pid" 2>/dev/null
grep -q 'libmicrohttpd' "$tmp/libs"
check "serve loads libmicrohttpd" $? "no libmicrohttpd in LD_DEBUG=libs"
grep -q '^http://' "$tmp/libs.out"
check "serve started" $? "no address printed: $(head -c 300 "$tmp/libs.out")"

start main official "$promote"
[[ $url =~ ^http://127\.0\.0\.1:[0-9]+/\?token=[0-9a-f]{32}$ ]]
check "first line is the address with the token" $? "got '$url'"
main_pid=$pid

# ------------------------------------------------------------ security
code=$(curl -s -o "$tmp/body" -w '%{http_code}' "$url")
status "the page with the token" 200
grep -q '<html' "$tmp/body"
check "the page is HTML" $? "no <html in the page"
code=$(curl -s -o "$tmp/body" -w '%{http_code}' "$base/")
status "the page without the token" 403
code=$(curl -s -o "$tmp/body" -w '%{http_code}' "$base/api/variants")
status "an API call without the token" 403
code=$(curl -s -o "$tmp/body" -w '%{http_code}' -H "X-Tiers-Token: 0$token" \
    "$base/api/variants")
status "a wrong token" 403
code=$(curl -s -o "$tmp/body" -w '%{http_code}' "$base/api/variants?token=$token")
status "the token in the query" 200
api GET /api/variants "" -H "Host: evil.example:${host#*:}"
status "a foreign Host" 403
api GET /api/variants "" -H "Host: localhost:${host#*:}"
status "localhost is not the bound address" 403
api POST /api/session '{"variant":"official"}' -H "Origin: http://evil.example"
status "a foreign Origin on a POST" 403
api POST /api/session '{"variant":"official"}' -H "Origin: $base"
status "the server's own Origin" 201
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' >"$tmp/big"
code=$(curl -s -o "$tmp/body" -w '%{http_code}' -H "X-Tiers-Token: $token" \
    --data-binary @"$tmp/big" "$base/api/session")
status "a body over 1 MiB" 413
api POST /api/session '{"variant":'
status "a bad JSON body" 400
api POST /api/session '[1]'
status "a body that is no object" 400
api GET /api/nothing
status "an unknown endpoint" 404
api POST /api/variants '{}'
status "a POST to a GET endpoint" 405
code=$(curl -s -o "$tmp/body" -w '%{http_code}' -X DELETE -H "X-Tiers-Token: $token" \
    "$base/api/variants")
status "DELETE" 405

# ------------------------------------------------------------ variants
api GET /api/variants
same "the served variants" "$(jq_body '[.variants[].name] | join(",")')" \
    "official,duel-promote"

# ------------------------------------------------------------ sessions
api POST /api/session '{"variant":"nope"}'
status "an unknown variant" 404
grep -q "unknown variant 'nope'" "$tmp/body"
check "its message" $? "$(cat "$tmp/body")"
api POST /api/session '{"variant":"official","position":"9/9 zz"}'
status "a bad position" 400
cli_msg=$("$tiers" show official --position '9/9 zz' 2>&1 >/dev/null)
cli_msg=${cli_msg#tiers: show: }
same "the bad position's message is the CLI's" "$(jq_body .error)" "$cli_msg"

api POST /api/session '{"variant":"official"}'
status "new session" 201
s=$(jq_body .session)
start_pos=$("$tiers" show official | sed -n 's/^position: //p')
same "the state's position is the start" "$(jq_body .position)" "$start_pos"
same "side to move" "$(jq_body .side_name)/$(jq_body .setup)" "white/true"

# moves of a hand piece: the drops of M that `tiers moves` lists
api GET "/api/moves?session=$s&hand=M"
status "moves of a hand piece" 200
same "drops of M are the CLI's" "$(jq_body '[.moves[].text] | sort | join(" ")')" \
    "$("$tiers" moves official | grep '^M\*' | sort | tr '\n' ' ' | sed 's/ $//')"
same "grouped as drops" "$(jq_body '.groups | keys | join(",")')" "drop"
# the hand piece's movement per tier: the grids `tiers pieces` draws
grids() { # FACE TIER: the rows of `tiers pieces official FACE --tier TIER`
    "$tiers" pieces official "$1" --tier "$2" | sed -n 's/^    //p'
}
same "movement: the hand piece's face" "$(jq_body .movement.face)/$(jq_body .movement.tier)" \
    "marshal/0"
same "movement: a table per tier" "$(jq_body '.movement.tiers | length')" \
    "$("$tiers" pieces official marshal | grep -c '^  tier ')"
same "movement: tier 1 as tiers pieces" "$(jq_body '.movement.tiers[0].rows | join("\n")')" \
    "$(grids marshal 1)"
api GET "/api/moves?session=$s"
same "all the moves" "$(jq_body '.moves | length')" "$("$tiers" moves official --count)"
same "no selection, no movement" "$(jq_body .movement)" null
api GET "/api/moves"
status "moves without a session" 400
api GET "/api/moves?session=0000"
status "moves of an unknown session" 404

# a bad move: 400 with the CLI's words
api POST /api/move "{\"session\":\"$s\",\"move\":\"M*e5\"}"
status "an illegal move" 400
cli_msg=$("$tiers" apply official 'M*e5' 2>&1 >/dev/null)
cli_msg=${cli_msg#tiers: apply: move 1 }
same "its message is the CLI's" "$(jq_body .error)" "move $cli_msg"
api POST /api/move "{\"session\":\"$s\",\"move\":\"%%\"}"
status "an unreadable move" 400

api POST /api/move "{\"session\":\"$s\",\"move\":\"M*a7\"}"
status "a move" 200
after=$("$tiers" apply official M*a7 | sed -n 's/^position: //p')
same "the position after it is apply's" "$(jq_body .position)" "$after"
same "last move" "$(jq_body .last_move.text)/$(jq_body .last_move.to)" "M*a7/a7"
api GET "/api/moves?session=$s&square=a7"
same "moves of a square (none in setup)" "$(jq_body '.moves | length')" 0
same "movement of the piece on a7" "$(jq_body .movement.face)/$(jq_body .movement.tier)" \
    "marshal/1"
api GET "/api/moves?session=$s&square=e5"
same "an empty square has no movement" "$(jq_body .movement)" null

api POST /api/undo "{\"session\":\"$s\"}"
same "undo" "$(jq_body .position)/$(jq_body .redo)" "$start_pos/1"
api POST /api/undo "{\"session\":\"$s\"}"
status "nothing to undo" 409
api POST /api/redo "{\"session\":\"$s\"}"
same "redo" "$(jq_body .position)/$(jq_body .undo)" "$after/1"
api POST /api/redo "{\"session\":\"$s\"}"
status "nothing to redo" 409

# ------------------------------------------------------------ agents
api POST /api/agent "{\"session\":\"$s\",\"agent\":\"nosuch\"}"
status "a bad agent spec" 400
grep -q "nosuch" "$tmp/body"
check "its message names it" $? "$(cat "$tmp/body")"
api POST /api/agent "{\"session\":\"$s\",\"agent\":\"greedy\"}"
status "an agent starts" 202
for _ in $(seq 1 200); do
    api GET "/api/state?session=$s"
    [[ $(jq_body .agent.state) == idle ]] && break
    sleep 0.05
done
same "the agent moved" "$(jq_body .ply)/$(jq_body .agent.error)" "2/"
reply=$(jq_body .last_move.text)
same "its move is legal (apply agrees)" "$(jq_body .position)" \
    "$("$tiers" apply official M*a7 "$reply" | sed -n 's/^position: //p')"

api GET "/api/moves?session=$s&hand=G"
g=$(jq_body '.moves[0].text')
api POST /api/move "{\"session\":\"$s\",\"move\":\"$g\"}"
status "a third move" 200

# ------------------------------------------------------------ text out and in
api GET "/api/position?session=$s"
pos3=$(jq_body .position)
same "position out" "$pos3" "$("$tiers" apply official M*a7 "$reply" "$g" |
    sed -n 's/^position: //p')"
api GET "/api/record?session=$s"
jq_body .record >"$tmp/game.txt"
"$tiers" replay official "$tmp/game.txt" >"$tmp/replay.out" 2>&1
check "the record replays" $? "$(cat "$tmp/replay.out")"
api POST /api/position "{\"session\":\"$s\",\"position\":\"$start_pos\"}"
same "paste a position" "$(jq_body .position)/$(jq_body .undo)" "$start_pos/0"
api POST /api/position "{\"session\":\"$s\",\"position\":\"x\"}"
status "paste a bad position" 400
api GET "/api/state?session=$s"
same "a bad paste keeps the game" "$(jq_body .position)" "$start_pos"
jq -n --arg s "$s" --rawfile r "$tmp/game.txt" '{session: $s, record: $r}' >"$tmp/rec.json"
api POST /api/record "$(cat "$tmp/rec.json")"
same "load a record" "$(jq_body .position)/$(jq_body .undo)" "$pos3/3"
api POST /api/record "{\"session\":\"$s\",\"record\":\"1. M*a7 zz9 *\"}"
status "a bad record" 400
api GET "/api/state?session=$s"
same "a bad record keeps the game" "$(jq_body .position)" "$pos3"
api GET "/api/svg?session=$s"
grep -q '<svg' "$tmp/body"
check "the picture" $? "$(head -c 200 "$tmp/body")"

# ------------------------------------------------------------ effects
api POST /api/session '{"variant":"duel-promote","position":"k4/2P2/5/5/4K - w - 0 0"}'
p=$(jq_body .session)
api POST /api/move "{\"session\":\"$p\",\"move\":\"c4-c5\"}"
same "a promotion fires promote" "$(jq_body '.effects | join(",")')" "promote"
api POST /api/move "{\"session\":\"$p\",\"move\":\"a5-a4\"}"
same "a king's move fires nothing" "$(jq_body '.effects | length')" 0
api GET "/api/moves?session=$p&square=e1"
same "moves of a square" "$(jq_body '[.moves[].text] | sort | join(" ")')" \
    "$("$tiers" moves "$promote" -p "$("$tiers" apply "$promote" \
        -p 'k4/2P2/5/5/4K - w - 0 0' c4-c5 a5-a4 | sed -n 's/^position: //p')" |
        grep '^e1' | sort | tr '\n' ' ' | sed 's/ $//')"
# an agent cancelled: its move never comes (a 3-second mcts is still thinking)
api POST /api/agent "{\"session\":\"$p\",\"agent\":\"mcts:iterations=1000000,time=3000\"}"
status "a longer agent starts" 202
api POST /api/move "{\"session\":\"$p\",\"move\":\"e1-e2\"}"
status "a move while it thinks" 409
api POST /api/agent/cancel "{\"session\":\"$p\"}"
same "cancel" "$(jq_body .agent.state)/$(jq_body .ply)" "idle/2"
sleep 2
api GET "/api/state?session=$p"
same "the cancelled agent's move is dropped" "$(jq_body .ply)" 2
api POST /api/move "{\"session\":\"$p\",\"move\":\"e1-e2\"}"
status "a move after the cancel" 200
api POST /api/close "{\"session\":\"$p\"}"
status "close" 200
api GET "/api/state?session=$p"
status "a closed session is gone" 404

# ------------------------------------------------------------ live reload, editor, compare
# a server of its own on copies of duel and duel-promote, which the tests
# edit; duel-flip's effect moves have no target
mkdir -p "$tmp/v" "$tmp/cwd"
cp -r "$variants/duel" "$variants/duel-promote" "$tmp/v/"
live_promote=$tmp/v/duel-promote
flip_dir=$(cd "$tests/data/serve/duel-flip" && pwd)
duel_yaml=$tmp/v/duel/variant.yaml
lua=$live_promote/promote.lua
cp "$duel_yaml" "$tmp/duel.yaml.orig"
cp "$lua" "$tmp/promote.lua.orig"
main_base=$base main_token=$token
(cd "$tmp/cwd" && exec "$tiers" serve "$live_promote" "$flip_dir" \
    >"$tmp/live.out" 2>"$tmp/live.err") &
live_pid=$!
pids+=("$live_pid")
for _ in $(seq 1 200); do [[ -s $tmp/live.out ]] && break; sleep 0.05; done
url=$(head -n 1 "$tmp/live.out"); token=${url#*token=}; host=${url#http://}
host=${host%%/*}; base=http://$host

# save FILE: the text on stdin written to a temporary file renamed over FILE
save() {
    cat >"$1.tmp" && mv "$1.tmp" "$1"
}
# wait_state SESSION JQ-CONDITION: polls the state (5 s at most)
wait_state() {
    for _ in $(seq 1 100); do
        api GET "/api/state?session=$1"
        [[ $(jq_body "$2") == true ]] && return 0
        sleep 0.05
    done
    return 1
}

# a cancelled search stops: alphabeta without a node budget would search
# depth 32 for hours
api POST /api/session '{"variant":"duel-promote"}'
a=$(jq_body .session)
api POST /api/agent "{\"session\":\"$a\",\"agent\":\"alphabeta:depth=32,nodes=0\"}"
status "an endless search starts" 202
sleep 0.3
api GET "/api/state?session=$a"
same "it is searching" "$(jq_body .agent.running)" 1
api POST /api/agent/cancel "{\"session\":\"$a\"}"
wait_state "$a" '.agent.running == 0'
check "the cancel stops the search itself" $? "still running: $(head -c 300 "$tmp/body")"
# and mcts: a million iterations with rollouts to the end take minutes
api POST /api/agent "{\"session\":\"$a\",\"agent\":\"mcts:iterations=1000000,plies=0\"}"
status "a long mcts starts" 202
sleep 0.3
api POST /api/agent/cancel "{\"session\":\"$a\"}"
wait_state "$a" '.agent.running == 0'
check "the cancel stops mcts too" $? "still running: $(head -c 300 "$tmp/body")"

# a move that stays legal: the game is kept
api POST /api/move "{\"session\":\"$a\",\"move\":\"b2-a3\"}"
status "b2-a3" 200
r0=$(jq_body .reloads)
save "$duel_yaml" <"$tmp/duel.yaml.orig"
wait_state "$a" ".reloads == $((r0 + 1))"
check "saving a file of the parent reloads the child" $? "$(head -c 300 "$tmp/body")"
same "a game still legal is kept" "$(jq_body .ply)/$(jq_body .reload)" "1/null"

# several writes within 200 ms are one reload (written in place by the
# shell itself, so that they come microseconds apart even on a busy machine)
r0=$(jq_body .reloads)
yaml_text=$(cat "$tmp/duel.yaml.orig")
for _ in 1 2 3 4 5; do printf '%s\n' "$yaml_text" >"$duel_yaml"; done
sleep 1
api GET "/api/state?session=$a"
same "five quick saves, one reload" "$(jq_body .reloads)" $((r0 + 1))

# pawns that move straight on only: b2-a3 breaks the game at ply 1
sed 's/      - {step: \[\[-1, 1\], \[0, 1\], \[1, 1\]\]}/      - {step: [[0, 1]]}/' \
    "$tmp/duel.yaml.orig" | save "$duel_yaml"
wait_state "$a" '.reload != null'
check "a game the new rules break is reported" $? "$(head -c 300 "$tmp/body")"
same "at ply 1, move b2-a3, the position before it kept" \
    "$(jq_body '[.reload.ply, .reload.move, .reload.kept, .ply] | join(",")')" "1,b2-a3,0,0"
cli_msg=$("$tiers" apply "$live_promote" b2-a3 2>&1 >/dev/null)
case_begin
[[ $cli_msg == *"$(jq_body .reload.error)"* ]] ||
    fail "the reason is apply's: '$(jq_body .reload.error)' vs '$cli_msg'"
case_end
api GET "/api/moves?session=$a&square=b2"
same "b2's moves under the new files are tiers moves'" \
    "$(jq_body '[.moves[].text] | sort | join(" ")')" \
    "$("$tiers" moves "$live_promote" | grep '^b2' | sort | tr '\n' ' ' | sed 's/ $//')"
api POST /api/reload "{\"session\":\"$a\",\"action\":\"maybe\"}"
status "a bad reload action" 400
api POST /api/reload "{\"session\":\"$a\",\"action\":\"keep\"}"
same "keep" "$(jq_body .reload)/$(jq_body .ply)" "null/0"
api POST /api/move "{\"session\":\"$a\",\"move\":\"b2-b3\"}"
api POST /api/reload "{\"session\":\"$a\",\"action\":\"new\"}"
same "new game" "$(jq_body .ply)/$(jq_body .undo)" "0/0"

# a YAML error: tiers check's text (file:line:col), then fixed
{ cat "$tmp/duel.yaml.orig"; printf 'rules: [\n'; } | save "$duel_yaml"
wait_state "$a" '.files_error != null'
check "a broken variant.yaml is reported" $? "$(head -c 300 "$tmp/body")"
cli_msg=$("$tiers" check "$live_promote" 2>&1 >/dev/null)
same "the text is tiers check's" "$(jq_body .files_error)" "$cli_msg"
case_begin
[[ $cli_msg =~ variant\.yaml:[0-9]+:[0-9]+ ]] || fail "no file:line:col in '$cli_msg'"
case_end
r0=$(jq_body .reloads)
api POST /api/session '{"variant":"duel-promote"}'
status "no new session while the files do not load" 500
save "$duel_yaml" <"$tmp/duel.yaml.orig"
wait_state "$a" '.files_error == null'
check "fixing the file clears the error" $? "$(head -c 300 "$tmp/body")"
same "and reloads" "$(jq_body .reloads)" $((r0 + 1))

# a Lua error, a deleted and a re-created script
sed 's/return true/return true +/' "$tmp/promote.lua.orig" | save "$lua"
wait_state "$a" '.files_error != null'
cli_msg=$("$tiers" check "$live_promote" 2>&1 >/dev/null)
same "a Lua error is tiers check's text" "$(jq_body .files_error)" "$cli_msg"
case_begin
[[ $cli_msg == *promote.lua:14:* ]] || fail "no promote.lua:14 in '$cli_msg'"
case_end
rm "$lua"
sleep 0.6
api GET "/api/state?session=$a"
cli_msg=$("$tiers" check "$live_promote" 2>&1 >/dev/null)
same "a deleted script is reported" "$(jq_body .files_error)" "$cli_msg"
cp "$tmp/promote.lua.orig" "$lua"
wait_state "$a" '.files_error == null'
check "creating it again clears the error" $? "$(head -c 300 "$tmp/body")"

# the editor: the limits of duel (by hand from its tiles: one king, one
# rook, three pawns a side; two tiers)
api GET "/api/editor?session=$a"
same "the editor's limits" \
    "$(jq_body '[.max_tiers, (.counts | to_entries | sort_by(.key) | map("\(.key)\(.value)") | join(" ")), (.sides | map(.symbol) | join(""))] | join(",")')" \
    "2,K1 P3 R1 k1 p3 r1,wb"
api POST /api/position/check "{\"session\":\"$a\",\"position\":\"1rk2/1ppp1/4[K:R]/1PPP1/5 - w - 0 0\"}"
same "a position that reads" "$(jq_body .ok)/$(jq_body .position)" \
    "true/1rk2/1ppp1/4[K:R]/1PPP1/5 - w - 0 0"
api POST /api/position/check "{\"session\":\"$a\",\"position\":\"1r3/1ppp1/5/1PPP1/5 R b - 0 0\"}"
status "a position that does not read" 400
cli_msg=$("$tiers" show "$live_promote" --position '1r3/1ppp1/5/1PPP1/5 R b - 0 0' 2>&1 >/dev/null)
same "says why, as the CLI" "$(jq_body .error)" "${cli_msg#tiers: show: }"
api POST /api/position/check "{\"session\":\"$a\",\"position\":\"1r1/1ppp1/5/1PPP1/5 R b - 0 0\"}"
status "a rank too short" 400
api GET "/api/state?session=$a"
same "checking leaves the game alone" "$(jq_body .position)" "1rk2/1ppp1/5/1PPP1/2KR1 - w - 0 0"

# an effect move with no target is among the moves of its square
api POST /api/session '{"variant":"duel-flip"}'
f=$(jq_body .session)
api GET "/api/moves?session=$f&square=c2"
same "flip:c2 has no target" "$(jq_body '[.moves[] | select(.to == null) | .text] | join(",")')" \
    "flip:c2"

# comparisons: the run goes into tiers.db in the working folder (no --db)
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote\",\"duel-promote:max_plies=30\"],\"games\":10}"
status "a comparison starts" 202
wait_state "$a" '.compare.state == "done"'
check "it ends" $? "$(head -c 400 "$tmp/body")"
same "20 games of 20" "$(jq_body '[.compare.done, .compare.total, .compare.report] | join(",")')" \
    "20,20,true"
case_begin
[[ -s $tmp/cwd/tiers.db ]] || fail "no tiers.db in the server's working folder"
case_end
api GET "/api/compare/report?session=$a"
grep -q 'duel-promote:max_plies=30' "$tmp/body"
check "the report names the rulesets" $? "$(head -c 300 "$tmp/body")"
(cd "$tmp/cwd" && "$tiers" compare "$live_promote" --games 10 --rule max_plies=30 --json) \
    >"$tmp/cmp.json"
same "the CLI finds the page's run of NAME:K=V (the same key)" \
    "$(jq -r '.variants[0].played_now' "$tmp/cmp.json")" 0
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote\"],\"games\":10}"
wait_state "$a" '.compare.state == "done"'
same "a run already in the database: found, none played" \
    "$(jq_body '[.compare.done, .compare.played] | join(",")')" "10,0"
# a ruleset is read as `tiers compare` reads it (ruleset.c): a default
# stated is the run without it, and the same usage errors
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote:stack_own=true\"],\"games\":10}"
wait_state "$a" '.compare.state == "done"'
same "NAME:KEY=DEFAULT is the run of NAME: found, none played, named NAME" \
    "$(jq_body '[.compare.done, .compare.played, .compare.rulesets[0]] | join(",")')" \
    "10,0,duel-promote"
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote:\"]}"
status "no option after ':'" 400
grep -q "no option after ':'" "$tmp/body"
check "says so" $? "$(cat "$tmp/body")"
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote:max_plies=30,max_plies=40\"]}"
status "a key given twice" 400
grep -q "'max_plies' is given twice" "$tmp/body"
check "names the key" $? "$(cat "$tmp/body")"
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote:max_plies=30\"],\"options\":\"max_plies=40\"}"
status "a key in the ruleset and in options" 400
grep -q "give it once" "$tmp/body"
check "asks for it once" $? "$(cat "$tmp/body")"
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote\"],\"options\":\"max_plies\"}"
status "an option in options without =" 400
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote\"],\"options\":\"nosuch=1\"}"
status "an unknown rule in options" 400
grep -q "applies to every ruleset: to set it on one, write RULESET:nosuch=1" "$tmp/body"
check "suggests RULESET:K=V" $? "$(cat "$tmp/body")"
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"nope\"]}"
status "an unknown ruleset" 404
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote:max_plies\"]}"
status "an option without =" 400
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote:nosuch=1\"]}"
status "an unknown rule" 400
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote\"],\"agents\":[\"greedy\",\"zz\"]}"
status "a bad agent" 400
grep -q "zz" "$tmp/body"
check "named in the message" $? "$(cat "$tmp/body")"
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote\"],\"games\":0}"
status "zero games" 400
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote\"],\"games\":5000,\"seed\":7}"
status "a long comparison" 202
api POST /api/compare "{\"session\":\"$a\",\"rulesets\":[\"duel-promote\"],\"games\":10}"
status "one comparison per session" 409
api POST /api/compare/cancel "{\"session\":\"$a\"}"
wait_state "$a" '.compare.state == "cancelled"'
check "cancel stops it" $? "$(head -c 300 "$tmp/body")"
case_begin
[[ $(jq_body .compare.done) -lt 5000 ]] || fail "all 5000 games were played"
case_end
api GET "/api/compare/report?session=$a"
status "no report for a cancelled run" 409
kill -TERM "$live_pid"
wait "$live_pid"
same "the live server stops cleanly" $? 0
base=$main_base token=$main_token

# ------------------------------------------------------------ limits
opened=0
for _ in $(seq 1 40); do
    api POST /api/session '{"variant":"duel-promote"}'
    [[ $code == 201 ]] && opened=$((opened + 1))
done
same "at most 32 sessions (two were open)" "$opened" 30
status "the 33rd is refused" 503

TIERS_SERVE_IDLE_SECONDS=1 "$tiers" serve "$promote" >"$tmp/idle.out" 2>&1 &
pids+=("$!")
idle_pid=$!
for _ in $(seq 1 200); do [[ -s $tmp/idle.out ]] && break; sleep 0.05; done
url=$(head -n 1 "$tmp/idle.out"); token=${url#*token=}; host=${url#http://}
host=${host%%/*}; base=http://$host
api POST /api/session '{"variant":"duel-promote"}'
q=$(jq_body .session)
sleep 1.5
api GET "/api/state?session=$q"
status "an idle session is dropped" 404

# ------------------------------------------------------------ start and stop
port=${host#*:}
# a server that starts by mistake must not hang the test: 20 s at most
real_tiers=$tiers
printf '#!/bin/sh\nexec timeout 20 "%s" "$@"\n' "$real_tiers" >"$tmp/tiers-limited"
chmod +x "$tmp/tiers-limited"
tiers=$tmp/tiers-limited
expect "a busy port exits 2 naming it" 2 - "port $port is busy" -- serve "$promote" \
    --port "$port"
expect "a bad port" 1 - "--port" -- serve --port 70000
expect "a bad --bind" 1 - "--bind" -- serve "$promote" --bind nowhere
expect "a bad variant" 2 - "nope" -- serve nope
expect "a notation the variant lacks" 2 - "unknown notation 'nope'" -- serve "$promote" \
    --notation nope
tiers=$real_tiers
kill -INT "$idle_pid"
wait "$idle_pid"
same "SIGINT stops it cleanly" $? 0
kill -TERM "$main_pid"
wait "$main_pid"
same "SIGTERM stops it cleanly" $? 0

cli_end
