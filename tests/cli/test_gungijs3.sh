#!/usr/bin/env bash
# CLI tests of official's gungijs3 notation as gungi.js reads it: towers
# side by side sharing one bar, positions without a Marshal, and game
# records written in it.  Usage: bash test_gungijs3.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"

# show_pos POSITION: `tiers show --json` of it in gungijs3, exit code in $rc.
show_pos() {
    "$tiers" show official --notation gungijs3 --json --position "$1" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# --- towers sharing a bar (gungi.js's own tests parse this) ---------------
shared='3img3/1sa|a:g:s|d:w|k:n|r:w|2/9/9/9/9/9/9/9 M1N3/d2 w 3 w 3'
double='3img3/1sa|a:g:s||d:w||k:n||r:w|2/9/9/9/9/9/9/9 M1N3/d2 w 3 w 3'
show_pos "$shared"
check_cmd "shared bars: read" test "$rc" -eq 0
check_cmd "shared bars: written back with a bar each side of every tower" \
    test "$(jq -r .position "$tmp/out")" = "$double"
show_pos "$double"
check_cmd "double bars: read, the same position" test "$(jq -r .position "$tmp/out")" = "$double"
show_pos '9/2|a:g|d:w|5/9/9/9/9/9/9/9 M1/m1 w 3 - 3'
check_cmd "two two-piece towers sharing a bar" \
    test "$rc" -eq 0 -a "$(jq -r .position "$tmp/out")" = '9/2|a:g||d:w|5/9/9/9/9/9/9/9 M1/m1 w 3 - 3'
show_pos '9/2|a:g|d5/9/9/9/9/9/9/9 M1/m1 w 3 - 3'
check_cmd "... a lone piece after a tower" \
    test "$rc" -eq 0 -a "$(jq -r .position "$tmp/out")" = '9/2|a:g|d5/9/9/9/9/9/9/9 M1/m1 w 3 - 3'
show_pos '9/2|a:g|d:5/9/9/9/9/9/9/9 M1/m1 w 3 - 3'
check_cmd "a shared-bar tower still needs its closing bar" \
    test "$rc" -eq 2 -a -n "$(grep "column 11: bad piece letter '5'" "$tmp/err")"

# --- a position without a Marshal -------------------------------------------
show_pos '9/9/9/9/9/9/9/9/4G4 -/- w 3 - 10'
check_cmd "no Marshal on the board or in hand: bad input, exit 2" test "$rc" -eq 2
check_cmd "... saying so" grep -q "no Marshal for either side" "$tmp/err"
show_pos '9/9/9/9/9/9/9/9/4G4 M1/- w 3 w 10'
check_cmd "a Marshal in hand is enough" test "$rc" -eq 0
show_pos '4m4/9/9/9/9/9/9/9/4G4 -/- w 3 - 10'
check_cmd "one side's Marshal: a game the other has lost, not bad input" \
    test "$rc" -eq 0 -a "$(jq -r .reason "$tmp/out")" = "royal captured"
"$tiers" show blog --position '9/9/9/9/9/9/9/9/4G4 - b - 0 30' >/dev/null 2>"$tmp/err"
check_cmd "any variant with royal faces: blog names its Commander" \
    grep -q "no Commander for either side" "$tmp/err"
"$tiers" show gounki --position "$("$tiers" show gounki --json | jq -r .position)" >/dev/null
check_cmd "a variant without royal faces is not concerned" test $? -eq 0

# --- game records in gungijs3 -------------------------------------------------
# The 30 gungi.js games of the oracle, each written as a record under
# Notation "gungijs3" (no move numbers; the SAN as gungi.js wrote it, '#'
# included), replay to their end: every ply made, the game over as the
# oracle says (29 by a Marshal's capture, one by mate), won by the side
# that made the last move, and the Result tag agreeing with the board.
games="$tests/data/oracle/official/games.jsonl"
ngames=$(jq -s length "$games")
check_cmd "the oracle holds 30 games" test "$ngames" -eq 30
for ((i = 0; i < ngames; i++)); do
    jq -r --argjson i "$i" 'select(.game == $i) | .moves | join(" ")' "$games" >"$tmp/moves"
    plies=$(jq -r --argjson i "$i" 'select(.game == $i) | .plies' "$games")
    want=$(jq -r --argjson i "$i" 'select(.game == $i) | .result' "$games")
    reason=$([[ $want == checkmate ]] && echo checkmate || echo "royal captured")
    # a first pass with no result stated tells whose move was last
    printf '[Variant "official"]\n[Notation "gungijs3"]\n\n%s\n' "$(cat "$tmp/moves")" \
        >"$tmp/game.txt"
    "$tiers" replay official "$tmp/game.txt" >"$tmp/first.txt" 2>"$tmp/err"
    last=$(grep -E '^[0-9]+\.' "$tmp/first.txt" | tail -n 1 | awk '{print $2}')
    result=$([[ $last == white ]] && echo 1-0 || echo 0-1)
    printf '[Variant "official"]\n[Notation "gungijs3"]\n[Result "%s"]\n\n%s %s\n' \
        "$result" "$(cat "$tmp/moves")" "$result" >"$tmp/game.txt"
    "$tiers" replay official "$tmp/game.txt" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    made=$(grep -cE '^[0-9]+\.' "$tmp/out")
    got=$(sed -n 's/^reason: //p' "$tmp/out")
    check_cmd "oracle game $i: replayed ($plies plies, $reason, $result)" \
        test "$rc" -eq 0 -a "$made" -eq "$plies" -a "$got" = "$reason"
    [[ $rc -eq 0 ]] || sed 's/^/    /' "$tmp/err"
done
sed '/^\[Notation/d' "$tmp/game.txt" >"$tmp/latin.txt"
"$tiers" replay official "$tmp/latin.txt" >/dev/null 2>"$tmp/err"
check_cmd "without the Notation tag the kanji are read as Latin letters: refused" \
    grep -q "is not a Latin letter and looks like none" "$tmp/err"
printf '[Variant "official"]\n[Notation "gungijs3"]\n\n\xe6\x96 *\n' >"$tmp/bad.txt"
"$tiers" replay official "$tmp/bad.txt" >/dev/null 2>"$tmp/err"
check_cmd "malformed UTF-8 in a gungijs3 record: refused, naming the place" \
    env LC_ALL=C grep -q "bad.txt:4:1: .*invalid UTF-8" "$tmp/err"

# playout --records and export write gungijs3 records that replay
replays_quietly() { "$tiers" replay official "$1" >/dev/null 2>&1; }
run=(--games 3 --max-plies 80 --side0 random --side1 greedy --db "$tmp/p.db")
"$tiers" playout official "${run[@]}" --records "$tmp/recs" --notation gungijs3 >/dev/null
check_cmd "playout --records --notation gungijs3: three records" \
    test "$(find "$tmp/recs" -name '*.txt' | wc -l)" -eq 3
"$tiers" export official --db "$tmp/p.db" -o "$tmp/exp" --notation gungijs3 >/dev/null
for f in "$tmp"/recs/*.txt "$tmp"/exp/*.txt; do
    check_cmd "$(basename "$(dirname "$f")")/$(basename "$f"): Notation tag and kanji moves" \
        grep -q '^\[Notation "gungijs3"\]' "$f"
    check_cmd "$(basename "$(dirname "$f")")/$(basename "$f"): replays" \
        replays_quietly "$f"
done
check_cmd "playout and export write the same records" \
    diff -r -I '^\[Date' "$tmp/recs" "$tmp/exp"

cli_end
