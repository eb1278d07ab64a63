#!/usr/bin/env bash
# A runtime error in a variant's script names its context everywhere
# (playout, compare, ladder through the same runs; perft, replay, play):
# the ruleset, game, ply, hook and the position text, exit 3; the failed
# game's record goes to DB-failed/RUN-GAME.txt (or --records DIR) and
# the game is not stored.  The variant is duel with a result hook that
# fails once 7 plies were made.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"

mkdir -p "$tmp/rf"
cat >"$tmp/rf/boom.lua" <<'LUA'
effect{
  name = "boom",
  result = function(pos)
    if pos:ply() >= 7 then
      error("boom at " .. pos:ply())
    end
  end,
}
LUA
printf 'name: rf\ninherits: %s\nscripts: [boom.lua]\n' "$variants/duel" >"$tmp/rf/variant.yaml"
agents=(--side0 random --side1 random)

expect "playout: exit 3 with the context" 3 - \
    "^tiers: playout: .*rf: rf, game 0, ply 8, hook result of effect boom: boom.lua:5: boom at 7 \\(in hook result of effect boom\\)$" \
    -- playout "$tmp/rf" --games 3 --db "$tmp/p.db" "${agents[@]}"
has "$tmp/err" "the position" '^  position: [^ ]+ - [wb] - [0-9]+ 7 '
has "$tmp/err" "Lua's stack" '^  stack traceback:$'
has "$tmp/err" "Lua's stack names the line" 'boom.lua:5: in function'

has "$tmp/err" "where the record went" "^  record of the failed game: $tmp/p.db-failed/[0-9a-f]{16}-0.txt$"
rec=$(ls "$tmp"/p.db-failed/*-0.txt 2>/dev/null | head -n 1)
check "the record exists" $([[ -f $rec ]] && echo 0 || echo 1) "no record in $tmp/p.db-failed"
if [[ -f $rec ]]; then
    has "$rec" "record: variant" '^\[Variant "rf"\]$'
    has "$rec" "record: ply" '^\[FailedPly "8"\]$'
    has "$rec" "record: hook" '^\[FailedHook "result of effect boom"\]$'
    # the position it names is the one the 7 moves reach in duel itself
    moves=$(grep -v '^\[' "$rec" | tr '\n' ' ' | sed 's/ \*.*//')
    pos=$(sed -n 's/^\[FailedPosition "\(.*\)"\]$/\1/p' "$rec")
    expect "duel replays the 7 moves" 0 - - -- apply "$variants/duel" $moves
    same "the record's position is where the moves lead" \
        "$(sed -n 's/^position: //p' "$tmp/out")" "$pos"
    check_cmd "the failed game is not stored" \
        bash -c "[[ \$(sqlite3 '$tmp/p.db' 'select count(*) from games') == 0 ]]"
fi

expect "--records DIR takes the failed game's record" 3 - \
    "record of the failed game: $tmp/recs/[0-9a-f]{16}-0.txt" \
    -- playout "$tmp/rf" --games 1 --db "$tmp/q.db" --records "$tmp/recs" "${agents[@]}"

expect "compare: exit 3 naming the failing ruleset" 3 - \
    "^tiers: compare: .*rf: rf, game 0, ply 8, hook result of effect boom: " \
    -- compare "$variants/duel" "$tmp/rf" --games 2 --db "$tmp/c.db" "${agents[@]}"
has "$tmp/err" "compare: record" "record of the failed game: $tmp/c.db-failed/"

expect "ladder: exit 3 with the context" 3 - \
    "rf, game 0, ply [0-9]+, hook result of effect boom: " \
    -- ladder "$tmp/rf" random greedy --games 2 --db "$tmp/l.db"
has "$tmp/err" "ladder: record" "record of the failed game: $tmp/l.db-failed/"

if [[ -f $rec ]]; then
    expect "perft: the hook and the position" 3 - '^  at ply 8, hook result of effect boom$' \
        -- perft "$tmp/rf" 1 --position "$pos"
    has "$tmp/err" "perft: position" "^  position: "
    expect "duel's moves at that position" 0 - - -- moves "$variants/duel" --position "$pos"
    m8=$(head -n 1 "$tmp/out")
    printf '[Variant "rf"]\n%s %s *\n' "$moves" "$m8" >"$tmp/r.txt"
    expect "replay: the hook and the position" 3 - '^  at ply 8, hook result of effect boom$' \
        -- replay "$tmp/rf" "$tmp/r.txt"
    has "$tmp/err" "replay: position" "^  position: $(sed 's/[][~]/./g' <<<"$pos")\$"
fi

cli_end
