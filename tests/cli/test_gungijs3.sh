#!/usr/bin/env bash
# CLI tests of official's gungijs3 notation as gungi.js reads it: towers
# side by side sharing one bar, positions without a Marshal, and game
# records written in it.  Usage: bash test_gungijs3.sh TIERS TESTS-DIR
set -u

tiers=${1:?usage: test_gungijs3.sh TIERS-BINARY TESTS-DIR}
tests=${2:?usage: test_gungijs3.sh TIERS-BINARY TESTS-DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failures=0
cases=0

# check NAME COMMAND...: passes when the command succeeds.
check() {
    local name=$1
    shift
    cases=$((cases + 1))
    if ! "$@"; then
        echo "FAIL: $name"
        failures=$((failures + 1))
    fi
}

# show_pos POSITION: `tiers show --json` of it in gungijs3, exit code in $rc.
show_pos() {
    "$tiers" show official --notation gungijs3 --json --position "$1" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# --- towers sharing a bar (gungi.js's own tests parse this) ---------------
shared='3img3/1sa|a:g:s|d:w|k:n|r:w|2/9/9/9/9/9/9/9 M1N3/d2 w 3 w 3'
double='3img3/1sa|a:g:s||d:w||k:n||r:w|2/9/9/9/9/9/9/9 M1N3/d2 w 3 w 3'
show_pos "$shared"
check "shared bars: read" test "$rc" -eq 0
check "shared bars: written back with a bar each side of every tower" \
    test "$(jq -r .position "$tmp/out")" = "$double"
show_pos "$double"
check "double bars: read, the same position" test "$(jq -r .position "$tmp/out")" = "$double"
show_pos '9/2|a:g|d:w|5/9/9/9/9/9/9/9 M1/m1 w 3 - 3'
check "two two-piece towers sharing a bar" \
    test "$rc" -eq 0 -a "$(jq -r .position "$tmp/out")" = '9/2|a:g||d:w|5/9/9/9/9/9/9/9 M1/m1 w 3 - 3'
show_pos '9/2|a:g|d5/9/9/9/9/9/9/9 M1/m1 w 3 - 3'
check "... a lone piece after a tower" \
    test "$rc" -eq 0 -a "$(jq -r .position "$tmp/out")" = '9/2|a:g|d5/9/9/9/9/9/9/9 M1/m1 w 3 - 3'
show_pos '9/2|a:g|d:5/9/9/9/9/9/9/9 M1/m1 w 3 - 3'
check "a shared-bar tower still needs its closing bar" \
    test "$rc" -eq 2 -a -n "$(grep "column 11: bad piece letter '5'" "$tmp/err")"

# --- a position without a Marshal -------------------------------------------
show_pos '9/9/9/9/9/9/9/9/4G4 -/- w 3 - 10'
check "no Marshal on the board or in hand: bad input, exit 2" test "$rc" -eq 2
check "... saying so" grep -q "no Marshal for either side" "$tmp/err"
show_pos '9/9/9/9/9/9/9/9/4G4 M1/- w 3 w 10'
check "a Marshal in hand is enough" test "$rc" -eq 0
show_pos '4m4/9/9/9/9/9/9/9/4G4 -/- w 3 - 10'
check "one side's Marshal: a game the other has lost, not bad input" \
    test "$rc" -eq 0 -a "$(jq -r .reason "$tmp/out")" = "royal captured"
"$tiers" show blog --position '9/9/9/9/9/9/9/9/4G4 - b - 0 30' >/dev/null 2>"$tmp/err"
check "any variant with royal faces: blog names its Commander" \
    grep -q "no Commander for either side" "$tmp/err"
"$tiers" show gounki --position "$("$tiers" show gounki --json | jq -r .position)" >/dev/null
check "a variant without royal faces is not concerned" test $? -eq 0

echo "$cases cases, $failures failed"
[[ $failures -eq 0 ]]
