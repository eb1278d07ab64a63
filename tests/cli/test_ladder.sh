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
expect "odd games" 1 - "give an even number" -- ladder "$duel" random greedy --games 5
expect "agent twice" 1 - "given twice" -- ladder "$duel" random random --games 4
expect "one agent" 1 - "missing AGENT" -- ladder "$duel" random
expect "bad agent" 1 - "nosuch" -- ladder "$duel" random nosuch --games 4 --db "$tmp/x.db"
cli_end
