#!/usr/bin/env bash
# CLI tests of playout, compare and merge: usage errors, resuming, the
# same games whatever the thread count or sharding, a real kill -9 in the
# middle of a run, effect counts, and the HTML report (rendered in headless
# Chromium when /usr/bin/chromium exists).
# Usage: bash test_playout.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bg_pid=
# the game run killed in the middle, if it is still there
cli_cleanup() {
    [[ -n $bg_pid ]] && kill -9 "$bg_pid" 2>/dev/null
}
cli_begin "$@"
duel=$variants/duel

# JSON field (number or string) of a one-line object: a plain grep will do
# for the flat fields used here.
field() {
    grep -o "\"$1\":\"\\?[^,}\"]*" "$2" | head -n 1 | sed 's/.*:"\{0,1\}//'
}

# ------------------------------------------------------------ usage
for cmd in playout compare merge; do
    expect "$cmd --help" 0 "^usage: tiers $cmd" - -- "$cmd" --help
done
expect "compare needs a variant" 1 - "missing VARIANT" -- compare
expect "merge needs a file" 1 - "missing FILE" -- merge
expect "bad shard" 1 - "bad --shard '3/2'" -- playout "$duel" --shard 3/2 --db "$tmp/u.db"
expect "bad shard form" 1 - "bad --shard 'x'" -- playout "$duel" --shard x --db "$tmp/u.db"
expect "bad games" 1 - "bad --games '0'" -- playout "$duel" --games 0
expect "bad threads" 1 - "bad --threads 'many'" -- playout "$duel" --threads many
expect "bad max plies" 1 - "bad --max-plies '-3'" -- playout "$duel" --max-plies -3
expect "bad agent" 1 - "agent 'minimax': unknown agent" \
    -- playout "$duel" --white minimax --db "$tmp/u.db"
expect "bad agent parameter" 1 - "unknown parameter 'dept'" \
    -- playout "$duel" --side1 alphabeta:dept=2 --db "$tmp/u.db"
expect "two agents for a side" 1 - "two agents" \
    -- playout "$duel" --white random --side0 greedy --db "$tmp/u.db"
mkdir -p "$tmp/ns"
cat >"$tmp/ns/variant.yaml" <<EOF
name: duel-ns
inherits: $duel
sides:
  - {name: south, symbol: s, forward: north}
  - {name: north, symbol: n, forward: south}
start: "1rk2/1ppp1/5/1PPP1/2KR1 - s - 0 0"
EOF
expect "side names of the variant" 0 "agents: south random, north greedy" - \
    -- playout "$tmp/ns" --side0 random --games 3 --db "$tmp/u.db"
expect "no side named black: the second" 0 "agents: south greedy.*, north random" - \
    -- playout "$tmp/ns" --black random --games 3 --db "$tmp/u.db"
expect "black by name" 0 "agents: white greedy.*, black random" - \
    -- playout "$duel" --black random --games 3 --db "$tmp/u.db"
expect "bad variant" 2 - "nope" -- playout "$tmp/nope" --db "$tmp/u.db"
expect "compare checks every variant first" 2 - "nope" \
    -- compare "$duel" "$tmp/nope" --db "$tmp/none.db"
[[ ! -e $tmp/none.db ]]
check "nothing played before a bad variant" $? "$tmp/none.db was created"
# Every argument is checked before the database is opened: a failing
# command leaves no file behind.
expect "bad agent, no database" 1 - "agent 'foo': unknown agent" \
    -- playout gounki --black foo --db "$tmp/z.db"
[[ ! -e $tmp/z.db ]]
check "no database after a bad agent" $? "$tmp/z.db was created"
expect "bad agent parameter, no database" 1 - "unknown parameter 'dept'" \
    -- playout gounki --side1 alphabeta:dept=2 --db "$tmp/z.db"
expect "bad --rule, no database" 2 - "unknown rule 'nosuch'" \
    -- playout gounki --rule nosuch=1 --db "$tmp/z.db"
expect "compare: bad agent, no database" 1 - "agent 'foo': unknown agent" \
    -- compare "$duel" gounki --white foo --db "$tmp/z.db"
[[ ! -e $tmp/z.db ]]
check "no database after bad arguments" $? "$tmp/z.db was created"
expect "compare: unwritable report, found first" 3 - \
    "^tiers: compare: cannot write the report '$tmp/no/such/dir/r.html'" \
    -- compare "$duel" --games 3 --db "$tmp/z.db" --report "$tmp/no/such/dir/r.html"
[[ ! -e $tmp/z.db ]]
check "no game played before an unwritable report" $? "$tmp/z.db was created"
mkdir "$tmp/rdir"
expect "compare: a folder as the report" 3 - "cannot write the report '$tmp/rdir'" \
    -- compare "$duel" --games 3 --db "$tmp/z.db" --report "$tmp/rdir"
expect "compare: a new report file is written" 0 "^report: $tmp/r.html$" - \
    -- compare "$duel" --games 3 --db "$tmp/r.db" --report "$tmp/r.html"
expect "unknown variant: the usual prefix" 2 - \
    "^tiers: playout: variant 'nosuch' not found" -- playout nosuch --db "$tmp/z.db"
[[ ! -e $tmp/z.db ]]
check "no database after an unknown variant" $? "$tmp/z.db was created"
expect "seed out of range" 1 - "--seed: '99999999999' is not a number from 0 to 2147483647" \
    -- playout "$duel" --seed 99999999999 --db "$tmp/z.db"
# The threads that ran: no more than the games to play.
expect "more threads than games" 0 "^3 games: 3 played now, 0 already stored; 3 threads," - \
    -- playout "$duel" --games 3 --threads 8 --db "$tmp/th.db"
expect "more threads than games, json" 0 '"played":2,"threads":2,' - \
    -- playout "$duel" --games 5 --threads 8 --db "$tmp/th.db" --json
expect "no game to play, no thread" 0 "^5 games: 0 played now, 5 already stored; 0 threads," - \
    -- playout "$duel" --games 5 --threads 8 --db "$tmp/th.db"
expect "unwritable database" 2 - "cannot open database" \
    -- playout "$duel" --db "$tmp/no/such/dir/x.db"
expect "merge without -o" 1 - "missing -o" -- merge "$tmp/u.db"
expect "merge into an input" 1 - "both an input and the output" \
    -- merge "$tmp/u.db" -o "$tmp/u.db"
expect "merge a missing file" 2 - "cannot open database .*none.db" \
    -- merge "$tmp/none.db" -o "$tmp/m0.db"
expect "merge a non-database" 2 - "is not a tiers playout database" \
    -- merge "$duel/variant.yaml" -o "$tmp/m0.db"

# ----------------------------------------------------------- resume
agents=(--side0 mcts:iterations=30,plies=6 --side1 greedy)
expect "first run" 0 '"played":30,"threads":1' - \
    -- playout "$duel" "${agents[@]}" --games 30 --db "$tmp/a.db" --json
expect "same run again plays nothing" 0 '"found":30,"played":0' - \
    -- playout "$duel" "${agents[@]}" --games 30 --db "$tmp/a.db" --json
expect "more games continue the run" 0 '"found":30,"played":20' - \
    -- playout "$duel" "${agents[@]}" --games 50 --db "$tmp/a.db" --json
expect "another seed is another run" 0 '"found":0,"played":10' - \
    -- playout "$duel" "${agents[@]}" --games 10 --seed 2 --db "$tmp/a.db" --json
expect "more games, text" 0 '^55 games: 5 played now, 50 already stored' - \
    -- playout "$duel" "${agents[@]}" --games 55 --db "$tmp/a.db"
[[ ! -s $tmp/err ]]
check "quiet when stderr is not a terminal" $? "stderr: $(head -c 200 "$tmp/err")"
if command -v script >/dev/null 2>&1; then
    script -qec "'$tiers' playout '$duel' --games 60 --db '$tmp/a.db' ${agents[*]} >/dev/null" \
        /dev/null >"$tmp/tty" 2>&1
    grep -q 'games/s' "$tmp/tty"
    check "progress bar on a terminal" $? "no progress bar: $(head -c 200 "$tmp/tty")"
fi

# --------------------------------------- same games, any thread count
expect "one thread" 0 '"played":50' - \
    -- playout "$duel" "${agents[@]}" --games 50 --threads 1 --db "$tmp/t1.db" --json
expect "three threads" 0 '"played":50' - \
    -- playout "$duel" "${agents[@]}" --games 50 --threads 3 --db "$tmp/t3.db" --json
expect "threads give the same games" 0 '"added":0,"duplicates":50,"different":0' - \
    -- merge "$tmp/t1.db" -o "$tmp/t3.db" --json

# ----------------------------------------------------------- shards
for k in 1 2 3; do
    expect "shard $k/3" 0 "\"wanted\":$(( (50 - k) / 3 + 1 ))" - \
        -- playout "$duel" "${agents[@]}" --games 50 --shard "$k/3" --db "$tmp/s$k.db" --json
done
expect "merge shards" 0 '"added":50' - \
    -- merge "$tmp/s1.db" "$tmp/s2.db" "$tmp/s3.db" -o "$tmp/shards.db" --json
expect "shards give the same games" 0 '"added":0,"duplicates":50,"different":0' - \
    -- merge "$tmp/t1.db" -o "$tmp/shards.db" --json
expect "merged shards complete the run" 0 '"found":50,"played":0' - \
    -- playout "$duel" "${agents[@]}" --games 50 --db "$tmp/shards.db" --json

# ------------------------------------------------------ kill -9 + resume
# A long run is killed once some games are committed; the rerun of the
# same command finishes it, and its games match a clean run's.  The run
# must outlast the wait below on an idle machine: 1,500 greedy duel games
# take 0.25 s there, 15,000 about 2.5 s.
kill_games=15000
kill_agents=(--side0 greedy:mate=yes --side1 greedy:mate=yes)
kill_args=(playout "$duel" "${kill_agents[@]}" --games $kill_games --threads 2 --db "$tmp/k.db")
"$tiers" "${kill_args[@]}" >/dev/null 2>&1 &
bg_pid=$!
for _ in $(seq 1 600); do
    [[ -s $tmp/k.db-wal ]] && break
    sleep 0.05
done
sleep 0.1
kill -9 "$bg_pid" 2>/dev/null
wait "$bg_pid" 2>/dev/null
rc=$?
bg_pid=
check "the run was killed" $(( rc == 137 ? 0 : 1 )) "exit $rc, expected 137 (it ended before the kill?)"
"$tiers" "${kill_args[@]}" --json >"$tmp/resume" 2>"$tmp/err"
check "rerun after kill -9" $? "$(cat "$tmp/err")"
found=$(field found "$tmp/resume")
played=$(field played "$tmp/resume")
check "the killed run kept its games" $(( found > 0 && found < kill_games ? 0 : 1 )) \
    "found $found of $kill_games"
check "the rerun played the rest" $(( found + played == kill_games ? 0 : 1 )) \
    "found $found + played $played != $kill_games"
expect "a clean run of every 150th game" 0 '"played":100' - \
    -- playout "$duel" "${kill_agents[@]}" --games $kill_games --shard 7/150 --db "$tmp/clean.db" \
    --json
expect "killed and resumed games match" 0 '"added":0,"duplicates":100,"different":0' - \
    -- merge "$tmp/clean.db" -o "$tmp/k.db" --json

# ----------------------------------------------- effects and compare
expect "effects are counted" 0 '"name":"promote","per_game":[0-9.]*[1-9]' - \
    -- compare "$variants/duel-promote" --games 20 --db "$tmp/c.db" --json
expect "compare table" 0 '^side 0 wins +[0-9.]+% \[' - \
    -- compare "$duel" "$variants/duel-promote" --games 20 --db "$tmp/c.db" \
    --report "$tmp/report.html"
grep -Eq '^effect promote +- +[0-9.]+ fired, [0-9.]+ prevented, [0-9.]+ ended / game' "$tmp/out"
check "effect row" $? "no effect row: $(grep effect "$tmp/out")"
grep -q '^games  *20  *20$' "$tmp/out"
check "games row" $? "$(grep '^games' "$tmp/out")"
expect "compare json" 0 '"variant":"duel","hash":"[0-9a-f]{16}"' - \
    -- compare "$duel" --games 20 --db "$tmp/c.db" --json
grep -q '"played_now":0' "$tmp/out"
check "compare reuses stored games" $? "$(head -c 300 "$tmp/out")"

report=$tmp/report.html
for id in chart-winrates chart-lengths chart-branching chart-effects summary; do
    grep -q "id=\"$id\"" "$report"
    check "report has $id" $? "missing in $report"
done
! grep -Eiq '<script|<link|src=|href=|@import|url\(' "$report"
check "report is self-contained" $? "external reference in the report"

if [[ -x /usr/bin/chromium ]]; then
    # offline: no first-run, sync or update connections, a fresh profile
    browser=(timeout 120 /usr/bin/chromium --headless --no-sandbox --disable-gpu
             --disable-quic --no-first-run --disable-background-networking
             --disable-component-update --disable-sync
             --user-data-dir="$tmp/chromium-profile")
    "${browser[@]}" --dump-dom "file://$report" >"$tmp/dom.html" 2>"$tmp/chromium.err"
    check "chromium renders the report" $? "$(tail -n 3 "$tmp/chromium.err")"
    # a picture of the page: the charts make it far larger than a blank page
    (cd "$tmp" && "${browser[@]}" --window-size=1200,2400 --screenshot="$tmp/report.png" \
        "file://$report" >/dev/null 2>>"$tmp/chromium.err")
    size=$(stat -c %s "$tmp/report.png" 2>/dev/null || echo 0)
    check "chromium draws the charts ($size bytes of PNG)" $(( size > 40000 ? 0 : 1 )) \
        "$(tail -n 3 "$tmp/chromium.err")"
    for id in chart-winrates chart-lengths chart-branching chart-effects; do
        grep -Eq "<svg[^>]*id=\"$id\"" "$tmp/dom.html"
        check "rendered $id" $? "no <svg id=$id> in the DOM"
    done
    n=$(grep -o '<rect' "$tmp/dom.html" | wc -l)
    check "rendered bars" $(( n > 20 ? 0 : 1 )) "only $n <rect> elements"
    grep -q '<polyline' "$tmp/dom.html"
    check "rendered branching lines" $? "no <polyline> in the DOM"
elif [[ -n ${TIERS_REQUIRE_CHROMIUM:-} ]]; then
    check "chromium is installed (TIERS_REQUIRE_CHROMIUM)" 1 "no /usr/bin/chromium"
else
    echo "skip: /usr/bin/chromium not found; the report was not rendered" \
         "(scripts/setup --browser, then rerun this test)"
fi

cli_end
