#!/usr/bin/env bash
# CLI tests of the repetition rules: repetition_from (official counts the
# draft's positions too) and repetition_result (a replayed game: result
# '*', reason repetition-replay, not cut) through apply, playout,
# compare, records and replay.  Usage: bash test_repetition.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
standoff="$tests/data/variants/standoff"

# json_is FILE JQ-FILTER: the filter yields true on the file.
json_is() { [[ $(jq -r "$2" "$1") == true ]]; }

# The issue's game from official's advanced start: after White's last
# draft drop (ply 4) the position recurs after plies 12, 18 and 22, the
# 4th time counting the one from the draft.  Ply 23 adds nothing new.
draft=('新帥(9-5-1)' '新帥(1-5-1)' '新兵(7-5-1)終' '新兵(3-5-1)終')
play=('帥(9-5-1)(9-4-1)' '兵(3-5-1)(4-5-1)' '帥(9-4-1)(9-5-1)' '兵(4-5-1)(5-5-1)'
      '帥(9-5-1)(9-4-1)' '兵(5-5-1)(6-5-1)' '帥(9-4-1)(9-5-1)' '帥(1-5-1)(1-4-1)'
      '兵(7-5-1)取(6-5-1)' '帥(1-4-1)(1-5-1)' '兵(6-5-1)(7-5-1)' '帥(1-5-1)(1-4-1)'
      '兵(7-5-1)(6-5-1)' '帥(1-4-1)(1-5-1)' '兵(6-5-1)(7-5-1)' '帥(1-5-1)(1-4-1)'
      '兵(7-5-1)(6-5-1)' '帥(1-4-1)(1-5-1)' '兵(6-5-1)(7-5-1)')
apply_official() {
    "$tiers" apply official --notation gungijs3 --json "$@" -- "${draft[@]}" "${play[@]}" \
        >"$tmp/apply.json" 2>"$tmp/apply.err"
}

apply_official
check_cmd "official: the 4th occurrence counts the draft's position" \
    json_is "$tmp/apply.json" '.game_over and .result == "1/2-1/2" and .reason == "repetition"'
apply_official --rule repetition_from=play
check_cmd "repetition_from=play: three occurrences since play began, the game goes on" \
    json_is "$tmp/apply.json" '.game_over == false'
apply_official --rule repetition_result=replay
check_cmd "repetition_result=replay: over, no result, reason repetition-replay" \
    json_is "$tmp/apply.json" '.game_over and .result == null and .reason == "repetition-replay"'
"$tiers" show official --rule repetition_from=bogus >/dev/null 2>"$tmp/err"
check_cmd "repetition_from: a bad value is refused" grep -q "must be play|start, got 'bogus'" "$tmp/err"
"$tiers" show official --rule repetition_result=lost >/dev/null 2>"$tmp/err"
check_cmd "repetition_result: a bad value is refused" grep -q "must be draw|replay, got 'lost'" "$tmp/err"

# standoff: random runners step back and forth, so a 2-fold repetition
# ends many games; under replay they are stored without a result.
rules=(--rule repetition=2 --rule repetition_result=replay)
run=(--games 20 --side0 random --side1 random --db "$tmp/r.db" "${rules[@]}")
"$tiers" playout "$standoff" "${run[@]}" --records "$tmp/recs" --json >"$tmp/playout.json"
check_cmd "playout: replayed games counted apart from draws and cut games" \
    json_is "$tmp/playout.json" '.replayed > 0 and .draws == 0 and .cut == 0'
check_cmd "database: a replayed game is '*', repetition-replay, not cut, no winner" \
    test "$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM games WHERE reason = 'repetition-replay'
        AND result = '*' AND cut = 0 AND winner IS NULL")" -eq \
    "$(jq .replayed "$tmp/playout.json")"
"$tiers" compare "$standoff" "${run[@]}" >"$tmp/compare.txt"
check_cmd "compare: a row of its own for replayed games" \
    grep -Eq '^replayed \(repetition\) +[1-9][0-9.]*%' "$tmp/compare.txt"
"$tiers" compare "$standoff" "${run[@]}" --json >"$tmp/compare.json"
check_cmd "compare --json: the replayed count" \
    json_is "$tmp/compare.json" "[.. | objects | select(has(\"replayed\")) | .replayed][0] == $(jq .replayed "$tmp/playout.json")"
"$tiers" compare "$standoff" --games 20 --side0 random --side1 random --db "$tmp/d.db" \
    --rule repetition=2 >"$tmp/draws.txt"
check_cmd "compare: no replayed row when no game was replayed" \
    bash -c "! grep -q '^replayed' '$tmp/draws.txt'"

rec=$(grep -l 'repetition-replay' "$tmp"/recs/*.txt | head -n 1)
check_cmd "records: a replayed game's record says Result '*'" grep -q '^\[Result "\*"\]' "$rec"
"$tiers" replay "$standoff" "${rules[@]}" "$rec" >"$tmp/replay.txt"
check_cmd "replay: the record reaches the replayed end" \
    grep -q '^reason: repetition-replay$' "$tmp/replay.txt"
sed 's/^\[Result "\*"\]/[Result "1\/2-1\/2"]/; s/ \*$/ 1\/2-1\/2/' "$rec" >"$tmp/draw.txt"
"$tiers" replay "$standoff" "${rules[@]}" "$tmp/draw.txt" >/dev/null 2>"$tmp/err"
check_cmd "replay: a replayed game recorded as a draw is refused" \
    grep -q 'the game ended \* (repetition-replay)' "$tmp/err"

cli_end
