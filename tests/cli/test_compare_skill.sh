#!/usr/bin/env bash
# `tiers compare --skill SPEC --levels L` (issue 23, the skill trace): the
# budget doubles per level (the runs stored say which agents played), each
# level plays the one below --games games, half with each colour, and the
# figures per level agree with the same figures recomputed from the
# stored games by SQL (definitions: docs/metrics.md).
# Usage: bash test_compare_skill.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
db=$tmp/s.db
base=(compare "$variants/duel" --max-plies 40 --games 8 --db "$db")
q() { sqlite3 "$db" "$1"; }

expect "three levels of alphabeta" 0 "^level 3 against level 2: " - \
    -- "${base[@]}" --skill alphabeta:depth=2,nodes=20 --levels 3
# the runs of each level: both sides the same agent, nodes 20, 40, 80
same "budgets per level" "20 20 8
40 40 8
80 80 8" "$(q "select substr(agent0, instr(agent0, 'nodes=') + 6, 2),
                 substr(agent1, instr(agent1, 'nodes=') + 6, 2), count(*)
          from games where agent0 = agent1 group by agent0 order by length(agent0), agent0" |
          tr '|' ' ' | sed 's/,//g')"
# level k+1 against level k: two runs of 4 games (one per colour) per step
same "level against level: 4 runs of 4 games" "4 4 4 4" \
    "$(q "select count(*) from games where agent0 <> agent1 group by agent0, agent1" |
       tr '\n' ' ' | sed 's/ $//')"
same "no pair but neighbours" 0 \
    "$(q "select count(*) from games where agent0 <> agent1 and
          ((agent0 like '%nodes=20,%' and agent1 like '%nodes=80,%') or
           (agent0 like '%nodes=80,%' and agent1 like '%nodes=20,%'))")"

# a rerun plays nothing and gives the same JSON
expect "the JSON" 0 - - -- "${base[@]}" --skill alphabeta:depth=2,nodes=20 --levels 3 --json
cp "$tmp/out" "$tmp/s.json"
same "a rerun adds no game" 40 "$(q 'select count(*) from games')"
same "budgets in the JSON" "20 40 80" "$(jq -r '.skill.budgets | join(" ")' "$tmp/s.json")"
same "the parameter" nodes "$(jq -r .skill.parameter "$tmp/s.json")"
same "the table's column is the top level" "$(jq -r '.skill.rulesets[0].levels[2].run' "$tmp/s.json")" \
    "$(jq -r '.variants[0].run' "$tmp/s.json")"

# each level's figures from SQL: games, balance 1 - |w0 - w1| / (w0 + w1),
# first-mover wins among decisive games, draws, cut and mean length
for k in 0 1 2; do
    run=$(jq -r ".skill.rulesets[0].levels[$k].run" "$tmp/s.json")
    want=$(q "select count(*),
                 case when sum(winner is not null) = 0 then 'null' else printf('%.4f',
                   1.0 - abs(sum(winner = 0) - sum(winner = 1)) * 1.0 / sum(winner is not null)) end,
                 sum(winner = first_side), sum(winner is not null and first_side is not null),
                 sum(result = '1/2-1/2'), sum(cut), printf('%.3f', avg(plies - setup_plies))
              from games where run = '$run'" | tr '|' ' ')
    got=$(jq -r ".skill.rulesets[0].levels[$k] | \"\(.games) \(if .balance == null then \"null\" else (.balance * 10000 | round / 10000 | tostring) end)\"
          + \" \(.first_mover_win_rate_decisive.count) \(.first_mover_win_rate_decisive.of)\"
          + \" \(.draw_rate.count) \(.cut_rate.count) \(.length_mean)\"" "$tmp/s.json")
    # printf's rounding and jq's number printing differ in trailing zeros
    norm() { awk '{ for (i = 1; i <= NF; i++) if ($i != "null") $i = $i + 0; print }'; }
    same "level $((k + 1)) figures from SQL" "$(norm <<<"$want")" "$(norm <<<"$got")"
done
# level 2's score against level 1: a win 1, a draw or cut game 1/2
want=$(q "select sum(case when winner is null then 0.5
                         when (winner = 0 and agent0 like '%nodes=40,%') or
                              (winner = 1 and agent1 like '%nodes=40,%') then 1 else 0 end), count(*)
          from games where agent0 <> agent1 and agent0 like '%nodes=_0,%' and agent1 like '%nodes=_0,%'
            and (agent0 like '%nodes=20,%' or agent1 like '%nodes=20,%')" | tr '|' ' ')
got=$(jq -r '.skill.rulesets[0].steps[0] | "\(.score) \(.games)"' "$tmp/s.json")
same "level 2 against 1: score from SQL" "$(awk '{ print $1 + 0, $2 }' <<<"$want")" \
    "$(awk '{ print $1 + 0, $2 }' <<<"$got")"
same "steps name their levels" "2 1 3 2" \
    "$(jq -r '[.skill.rulesets[0].steps[] | .stronger, .weaker] | join(" ")' "$tmp/s.json")"

# the report draws a chart per figure, a line per ruleset with a point
# per level (duel's run above: 3 levels), and the level-against-level table
expect "the report" 0 "^report: " - -- "${base[@]}" --skill alphabeta:depth=2,nodes=20 --levels 3 \
    --report "$tmp/s.html"
same "five skill charts" 5 "$(grep -c '<svg id="chart-skill-' "$tmp/s.html")"
same "draws by level: three points" 3 \
    "$(sed -n '/<svg id="chart-skill-2"/,/<\/svg>/p' "$tmp/s.html" | grep -o 'points="[^"]*"' |
       grep -o '[0-9.]*,[0-9.]*' | wc -l)"
same "budgets on the x axis" "nodes=20 nodes=40 nodes=80" \
    "$(sed -n '/<svg id="chart-skill-0"/,/<\/svg>/p' "$tmp/s.html" | grep -o 'nodes=[0-9]*' | tr '\n' ' ' | sed 's/ $//')"
same "the depth table" "<th>2 vs 1</th><th>3 vs 2</th>" "$(grep -o "<th>[0-9] vs [0-9]</th>" "$tmp/s.html" | tr -d "\n")"
same "the report plays no more games" 40 "$(q 'select count(*) from games')"

# mcts doubles iterations; the other parameters are kept
expect "mcts" 0 - - -- compare "$variants/duel" --max-plies 10 --games 2 --db "$tmp/m.db" \
    --skill mcts:iterations=3,rollout=random --levels 2 --json
same "mcts budgets" "mcts:iterations=3,rollout=random mcts:iterations=6,rollout=random" \
    "$(sqlite3 "$tmp/m.db" "select distinct agent0 from games where agent0 = agent1 order by length(agent0), agent0" |
       sed 's/,plies=.*//' | tr '\n' ' ' | sed 's/ $//')"

# usage errors
expect "--levels without --skill" 1 - "--levels applies with --skill only" -- "${base[@]}" --levels 3
expect "random has no budget" 1 - "--skill 'random': the agent has no budget parameter" \
    -- "${base[@]}" --skill random
expect "greedy has no budget" 1 - "--skill 'greedy:mate=yes': the agent has no budget parameter" \
    -- "${base[@]}" --skill greedy:mate=yes
expect "no budget given" 1 - "give the budget as nodes=N with N >= 1" \
    -- "${base[@]}" --skill alphabeta:depth=2
expect "a budget of 0" 1 - "give the budget as iterations=N with N >= 1" \
    -- "${base[@]}" --skill mcts:iterations=0
expect "one level" 1 - "bad --levels '1': expected 2..8" -- "${base[@]}" --skill mcts:iterations=5 --levels 1
expect "nine levels" 1 - "bad --levels '9': expected 2..8" -- "${base[@]}" --skill mcts:iterations=5 --levels 9
expect "an overflowing budget" 1 - "overflows" \
    -- "${base[@]}" --skill alphabeta:nodes=4611686018427387904 --levels 3
expect "a budget past the agent's limit" 1 - "level 2: " \
    -- "${base[@]}" --skill mcts:iterations=600000 --levels 2
expect "with --until" 1 - "--skill and --until do not go together" \
    -- "${base[@]}" --skill mcts:iterations=5 --until draws=0.1
expect "with --side0" 1 - "--skill sets the agents of both sides" \
    -- "${base[@]}" --skill mcts:iterations=5 --side0 random
expect "an odd --games" 1 - "give an even number with --skill" \
    -- compare "$variants/duel" --games 7 --db "$tmp/o.db" --skill mcts:iterations=5
expect "--skill elsewhere" 1 - "option '--skill' does not apply here" \
    -- playout "$variants/duel" --skill mcts:iterations=5 --db "$tmp/u.db"
same "no game from a refused run" 0 "$([[ -e $tmp/o.db ]] && sqlite3 "$tmp/o.db" 'select count(*) from games' || echo 0)"

cli_end
