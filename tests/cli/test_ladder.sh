#!/usr/bin/env bash
# tiers ladder: games between every pair of agents stored as runs, the
# Elo fit checked against the closed form for two players, resuming and
# sharding like playout, and the usage errors.  The fit itself is
# checked on hand-worked tables by tests/unit/test_ladder.c.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
duel=$variants/duel

expect "ladder" 0 '"players":\[\{"agent":"random","elo":0.0' - -- \
    ladder "$duel" random greedy --games 40 --db "$tmp/l.db" --json
json=$(cat "$tmp/out")
# two players: r = 400 log10((games - score) / score), score = random's points
score=$(sed -n 's/.*"score_a":\([0-9.]*\).*/\1/p' <<<"$json")
elo=$(sed -n 's/.*"agent":"greedy","elo":\(-\?[0-9.]*\).*/\1/p' <<<"$json")
want=$(awk -v s="$score" 'BEGIN { printf "%.1f", 400 * log((40 - s) / s) / log(10) }')
same "two-player Elo is the closed form" "$want" "$elo"
same "40 games stored, 20 a colour" "20 20" \
    "$(sqlite3 "$tmp/l.db" "select count(*) from games group by agent0 order by agent0" | tr '\n' ' ' | sed 's/ $//')"
expect "ladder again plays nothing new" 0 - - -- \
    ladder "$duel" random greedy --games 40 --db "$tmp/l.db" --json
same "resumed: the same answer" "$json" "$(cat "$tmp/out")"
same "resumed: no game added" 40 "$(sqlite3 "$tmp/l.db" 'select count(*) from games')"

# shards played apart and merged give the unsharded answer
for k in 1 2; do
    "$tiers" ladder "$duel" random greedy --games 40 --shard "$k/2" --db "$tmp/s$k.db" \
        --json >/dev/null 2>&1
done
"$tiers" merge "$tmp/s1.db" "$tmp/s2.db" -o "$tmp/s.db" >/dev/null
expect "ladder on merged shards" 0 - - -- \
    ladder "$duel" random greedy --games 40 --db "$tmp/s.db" --json
same "merged shards: the same answer" "$json" "$(cat "$tmp/out")"

expect "three agents" 0 "^greedy:mate=no +-?[0-9]+\.[0-9] " - -- \
    ladder "$duel" random greedy greedy:mate=no --games 20 --db "$tmp/t.db"
# --adjacent: only neighbours play (two pairs of three agents, not three)
expect "adjacent" 0 - - -- \
    ladder "$duel" random greedy:mate=no greedy --games 4 --adjacent --db "$tmp/a.db" --json \
    --report "$tmp/a.html"
same "adjacent: two pairs" 2 "$(grep -o '"a":' "$tmp/out" | wc -l | tr -d ' ')"
same "adjacent: 8 games stored" 8 "$(sqlite3 "$tmp/a.db" 'select count(*) from games')"
same "adjacent: random never meets greedy" 0 \
    "$(sqlite3 "$tmp/a.db" "select count(*) from games where agent0 = 'random' and agent1 like 'greedy:mate=yes%'")"
same "report: two charts" 2 "$(grep -o '<svg' "$tmp/a.html" | wc -l | tr -d ' ')"
same "report: three ratings and two pairs" 5 "$(grep -o '<circle' "$tmp/a.html" | wc -l | tr -d ' ')"
expect "report not writable: refused before any game" 3 - "cannot write the report" -- \
    ladder "$duel" random greedy --games 4 --db "$tmp/r.db" --report "$tmp/no/such/dir/r.html"
same "report not writable: no database made" no "$([[ -e $tmp/r.db ]] && echo yes || echo no)"
expect "odd games" 1 - "give an even number" -- ladder "$duel" random greedy --games 5
expect "agent twice" 1 - "given twice" -- ladder "$duel" random random --games 4
expect "one agent" 1 - "missing AGENT" -- ladder "$duel" random
expect "bad agent" 1 - "nosuch" -- ladder "$duel" random nosuch --games 4 --db "$tmp/x.db"
cli_end
