#!/usr/bin/env bash
# `tiers compare --until RATE=W --round R` (issue 23): rounds of R games
# until the 95% Wilson half-width of RATE is at most W, --games the cap,
# resumable.  duel cut after 1 ply never has a winner, so side 0's wins
# are 0 of n, whose Wilson half-width is z^2 / (2n + 2z^2), z^2 = 3.841459:
# n = 10: 0.1388, 20: 0.0806, 30: 0.0568, 40: 0.0438, 50: 0.0357,
# 100: 0.0185.  Hence the expected stops below.
# Usage: bash test_compare_until.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
base=(compare "$variants/duel" --max-plies 1 --side0 random --side1 random --db "$tmp/u.db")

games() { jq -r '.variants[0] | "\(.games) \(.played_now)"' "$tmp/out"; }

# W = 0.05 in rounds of 10: 0.0568 > 0.05 at 30, 0.0438 <= 0.05 at 40
expect "side0=0.05 stops" 0 "duel stopped at 40 games, half-width 0.0438$" - \
    -- "${base[@]}" --until side0=0.05 --round 10
expect "the same run again" 0 - - -- "${base[@]}" --until side0=0.05 --round 10 --json
same "a rerun finds its 40 games and plays none" "40 0" "$(games)"
same "the JSON says what --until watched, the cap and where it stopped" \
    "side0 0.05 10 100000 100000 duel 40 0.0438 true" \
    "$(jq -r '"\(.until.rate) \(.until.half_width) \(.until.round) \(.until.cap) \(.games) " +
        (.until.rulesets[0] | "\(.label) \(.games) \(.half_width * 10000 | round / 10000) \(.reached)")' \
        "$tmp/out")"
expect "the footer names no fixed game count" 0 "games per variant as --until decided" - \
    -- "${base[@]}" --until side0=0.05 --round 10 --report "$tmp/r.html"
grep -q "100 games per variant" "$tmp/out" "$tmp/r.html"
check "neither the footer nor the report claims --games' default" "$((! $?))"
grep -q "games per variant as --until decided" "$tmp/r.html"
check "the report says --until decided the games" $?
# W = 0.02 in rounds of 50: 0.0357 at 50, 0.0185 <= 0.02 at 100; the 40
# games stored are reused, 60 are played
expect "side0=0.02 resumes" 0 - - -- "${base[@]}" --until side0=0.02 --round 50 --json
same "stops at 100, playing 60 more" "100 60" "$(games)"
# no decisive game: the first-mover rate never narrows, the cap stops it
expect "first-mover runs to the cap" 0 "duel stopped at 70 games, half-width 1.0000 \(the cap: --games\)" - \
    -- "${base[@]}" --until first-mover=0.1 --round 30 --games 70
expect "the cap in JSON" 0 - - -- "${base[@]}" --until first-mover=0.1 --round 30 --games 70 --json
same "a ruleset stopped by the cap has not reached the width" "70 70 1 false" \
    "$(jq -r '"\(.until.cap) " + (.until.rulesets[0] | "\(.games) \(.half_width) \(.reached)")' "$tmp/out")"
# draws: 0 of n too (a cut game is no draw): W = 0.04 -> 0.0438 at 40 is
# too wide, 0.0357 at 50 is not
expect "draws=0.04 stops at 50" 0 "duel stopped at 50 games, half-width 0.0357$" - \
    -- "${base[@]}" --until draws=0.04 --round 10

# usage errors
expect "--round without --until" 1 - "--round applies with --until only" -- "${base[@]}" --round 5
expect "an unknown rate" 1 - "bad --until 'cut=0.1': expected first-mover=W, side0=W or draws=W" \
    -- "${base[@]}" --until cut=0.1
expect "a width of 0" 1 - "the half-width W must be a number from 0.000001 to 0.5" \
    -- "${base[@]}" --until draws=0
expect "a width above 1/2" 1 - "the half-width W must be" -- "${base[@]}" --until draws=0.6
expect "a round of 0" 1 - "bad --round '0'" -- "${base[@]}" --until draws=0.1 --round 0
expect "--until elsewhere" 1 - "option '--until' does not apply here" \
    -- playout "$variants/duel" --until draws=0.1 --db "$tmp/u.db"

cli_end
