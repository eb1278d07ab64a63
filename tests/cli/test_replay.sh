#!/usr/bin/env bash
# CLI tests of `tiers replay`: the 2004 Gounki example game in each record
# form (compact, spaced, tiers' own format, Cyrillic look-alikes), the
# --notation and --verbose options, and records that must stop with an
# error naming the move.  Usage: bash test_replay.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
games="$tests/data/games/gounki"

# The plies of a replay: "number side hash", the notation's text aside.
plies() {
    "$tiers" replay gounki "$@" 2>&1 | awk '/^[0-9]+\./ { print $1, $2, $4 }'
}

# ---------------------------------------------------------------- the game
game="$games/walraet-2004.txt"
expect "compact game" 0 '^reason: exit$' - -- replay gounki "$game"
expect "compact result" 0 '^result: 0-1$' - -- replay gounki "$game"
expect "compact notation detected" 0 '^notation: gounki$' - -- replay gounki "$game"
expect "deployment with a bounce" 0 '^9\.\.\. black b4\*a3,b2,a2 [0-9a-f]{16}$' - \
    -- replay gounki "$game"
expect "first ply" 0 '^1\. white a1-a2\+ [0-9a-f]{16}$' - -- replay gounki "$game"
expect "last ply" 0 '^12\.\.\. black a1-Out [0-9a-f]{16}$' - -- replay gounki "$game"
"$tiers" replay gounki "$game" >"$tmp/game.out" 2>&1
check_cmd "24 plies" test "$(grep -Ec '^[0-9]+\.' "$tmp/game.out")" -eq 24

plies "$game" >"$tmp/compact.plies"
for form in spaced tiers cyrillic; do
    plies "$games/walraet-2004-$form.txt" >"$tmp/$form.plies"
    check_cmd "$form form replays identically" cmp -s "$tmp/compact.plies" "$tmp/$form.plies"
done
expect "spaced notation detected" 0 '^notation: gounki$' - \
    -- replay gounki "$games/walraet-2004-spaced.txt"
expect "tiers format from the Notation tag" 0 '^notation: tiers$' - \
    -- replay gounki "$games/walraet-2004-tiers.txt"
expect "tiers format writes tiers moves" 0 '^1\. white a1\^a2 ' - \
    -- replay gounki "$games/walraet-2004-tiers.txt"
expect "spaced read, compact written" 0 '^5\. white c5\*d5,e5,f6 ' - \
    -- replay gounki "$games/walraet-2004-spaced.txt"

# Options.
expect "--notation gounki" 0 '^reason: exit$' - -- replay gounki "$game" --notation gounki
expect "--verbose prints positions" 0 \
    '^1\. white a1-a2\+ rsrsrsrs/srsrsrsr/8/8/8/8/\[R:S\]SRSRSRS/1RSRSRSR - b - 1 1$' - \
    -- replay gounki "$game" --verbose
cases=$((cases + 1))
if ! "$tiers" replay gounki - <"$game" | grep -q '^reason: exit$'; then
    echo "FAIL: record from stdin"
    failures=$((failures + 1))
fi
expect "help" 0 '^usage: tiers replay VARIANT FILE' - -- replay --help

# ---------------------------------------------------------------- errors
expect "wrong notation" 2 - \
    "move 1 \(white\) 'a1-a2\+': not a legal move; legal: a1\^a2 a1\^b1 " \
    -- replay gounki "$game" --notation tiers
expect "unknown notation" 2 - "unknown notation 'pgn'" -- replay gounki "$game" --notation pgn

sed 's/^12\. e2-b5 a1-Out$/12. e2-b6 a1-Out/' "$game" >"$tmp/illegal.txt"
expect "illegal move" 2 - \
    "illegal.txt:18:5: move 12 \(white\) 'e2-b6': not a legal move; legal: .* e2-b5 e2-c4 " \
    -- replay gounki "$tmp/illegal.txt"
"$tiers" replay gounki "$tmp/illegal.txt" >"$tmp/illegal.out" 2>/dev/null
check_cmd "22 plies before the illegal move" test "$(grep -Ec '^[0-9]+\.' "$tmp/illegal.out")" -eq 22

sed 's/^6\. f6-e7 f7xe7$/6. f6-e7 f7-e7/' "$game" >"$tmp/marker.txt"
expect "false marker" 2 - \
    "marker.txt:12:10: move 6 \(black\) 'f7-e7': marker '-' is false: e7 holds enemy pieces \(a capture is 'x'\)" \
    -- replay gounki "$tmp/marker.txt"

sed 's/^\[Date "2004.03.08"\]$/[Date 2004.03.08]/' "$game" >"$tmp/tag.txt"
expect "bad tag" 2 - 'tag.txt:2:7: bad tag: expected \[Name "value"\]' \
    -- replay gounki "$tmp/tag.txt"

sed 's/^0-1$/1-0/' "$game" >"$tmp/result.txt"
expect "result token against tag" 2 - \
    'result.txt:19:1: the Result tag says 0-1 but the moves end with 1-0' \
    -- replay gounki "$tmp/result.txt"
sed 's/"0-1"/"1-0"/; s/^0-1$/1-0/' "$game" >"$tmp/result2.txt"
expect "result against the game" 2 - \
    'result2.txt:19:1: the record says 1-0 but the game ended 0-1 \(exit\)' \
    -- replay gounki "$tmp/result2.txt"

sed 's/^12\. e2-b5 a1-Out$/12. e2-bб a1-Out/' "$game" >"$tmp/cyrillic.txt"
expect "letter without a look-alike" 2 - \
    "move 12: 'e2-bб': 'б' \(U\+0431\) is not a Latin letter and looks like none" \
    -- replay gounki "$tmp/cyrillic.txt"

# ---------------------------------------------------------- Options tag
# The rules a game was played with: replay applies the tag, and --rule on
# the command line wins for the same key.
cat >"$tmp/hm.txt" <<'REC'
[Variant "gounki"]
[Options "halfmove_limit=4"]
[Result "1/2-1/2"]

1. a1^a2 b7-a6 2. b2-b3 e8^d7 3. d2-d3 1/2-1/2
REC
expect "Options tag applied" 0 '^reason: move limit$' - -- replay gounki "$tmp/hm.txt"
expect "Options tag and another --rule" 0 '^reason: move limit$' - \
    -- replay gounki "$tmp/hm.txt" --rule repetition=3
expect "--rule wins over the tag" 2 - "hm.txt:5:40: the record says 1/2-1/2 but the game is not over" \
    -- replay gounki "$tmp/hm.txt" --rule halfmove_limit=0
expect "--rule wins: an earlier end" 2 - "move 3 \(white\) 'd2-d3': the game is already over \(move limit\)" \
    -- replay gounki "$tmp/hm.txt" --rule halfmove_limit=3
sed 's/^\[Options .*/[Options ""]/' "$tmp/hm.txt" >"$tmp/hm-none.txt"
expect "empty Options tag: the variant's rules" 2 - "the game is not over" \
    -- replay gounki "$tmp/hm-none.txt"
expect "empty Options tag and --rule" 0 '^reason: move limit$' - \
    -- replay gounki "$tmp/hm-none.txt" --rule halfmove_limit=4
sed 's/^\[Options .*/[Options "halfmove_limit=4 nosuch=3"]/' "$tmp/hm.txt" >"$tmp/opt-key.txt"
expect "Options: unknown rule" 2 - \
    "^tiers: replay: .*opt-key.txt:2:28: Options tag: 'nosuch=3': unknown rule 'nosuch'" \
    -- replay gounki "$tmp/opt-key.txt"
sed 's/^\[Options .*/[Options "halfmove_limit=lots"]/' "$tmp/hm.txt" >"$tmp/opt-value.txt"
expect "Options: bad value" 2 - \
    "^tiers: replay: .*opt-value.txt:2:11: Options tag: 'halfmove_limit=lots': .*halfmove_limit.*'lots'" \
    -- replay gounki "$tmp/opt-value.txt"
expect "Options: a bad value the command line replaces" 0 '^reason: move limit$' - \
    -- replay gounki "$tmp/opt-value.txt" --rule halfmove_limit=4
sed 's/^\[Options .*/[Options "oops halfmove_limit=4"]/' "$tmp/hm.txt" >"$tmp/opt-word.txt"
expect "Options: not KEY=VALUE" 2 - \
    "^tiers: replay: .*opt-word.txt:2:11: Options tag: 'oops': expected KEY=VALUE" \
    -- replay gounki "$tmp/opt-word.txt"

# Seed and Game tags: a hook drawing math.random (kings-dice's veto)
# answers as in the game, so the record replays; with another seed it
# stops at a move the dice now refuse; a tag that is no number is an error.
dice=$variants/kings-dice
expect "kings-dice playout" 0 - - -- playout "$dice" --games 4 --max-plies 80 \
    --side0 random --side1 random --db "$tmp/dice.db" --records "$tmp/dice"
for f in "$tmp"/dice/*.txt; do
    expect "kings-dice: ${f##*/} replays" 0 '^result: ' - -- replay "$dice" "$f"
done
refused=0
for g in 0 1 2 3; do
    for f in "$tmp"/dice/*.txt; do
        sed "s/^\[Game .*/[Game \"$((g + 10))\"]/" "$f" >"$tmp/reseeded.txt"
        "$tiers" replay "$dice" "$tmp/reseeded.txt" >/dev/null 2>&1 || refused=$((refused + 1))
    done
done
check "other Game tags make the dice refuse some move" "$([[ $refused -gt 0 ]]; echo $?)"
f=$(ls "$tmp"/dice/*.txt | head -n 1)
sed 's/^\[Seed .*/[Seed "x1"]/' "$f" >"$tmp/badseed.txt"
expect "Seed tag: not a number" 2 - "badseed.txt: Seed tag: not a number" \
    -- replay "$dice" "$tmp/badseed.txt"
sed 's/^\[Game .*/[Game "-3"]/' "$f" >"$tmp/badgame.txt"
expect "Game tag: not a number" 2 - "badgame.txt: Game tag: not a number" \
    -- replay "$dice" "$tmp/badgame.txt"
expect "render --record: Game tag" 2 - "Game tag: not a number" \
    -- render "$dice" --record "$tmp/badgame.txt" -o "$tmp/x.svg"

expect "missing record" 2 - "$tmp/none.txt" -- replay gounki "$tmp/none.txt"
expect "missing file argument" 1 - "missing FILE" -- replay gounki

cli_end
