#!/usr/bin/env bash
# tiers values: the command around the regression (tests/unit/test_values.c
# checks the fit itself against a model with known coefficients): a value
# per face with an interval, royal faces apart, the unit face at 1, --yaml,
# determinism, and its errors.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
duel=$variants/duel

expect "values" 0 "^piece values of duel from 200 games \\([0-9]+ decisive\\), [0-9]+ samples" - -- \
    values "$duel" --games 200
check_cmd "king is royal" grep -Eq '^king +royal$' "$tmp/out"
check_cmd "pawn has a value and an interval" \
    grep -Eq '^pawn +[0-9]+\.[0-9]{2} +\[ *-?[0-9.]+, +[0-9.]+\] +-?[0-9.]+$' "$tmp/out"
check_cmd "the unit face is 1.00" grep -Eq '^(pawn|rook) +1\.00 ' "$tmp/out"
cp "$tmp/out" "$tmp/first"
expect "values again" 0 - - -- values "$duel" --games 200
same "the same games give the same values" "$(cat "$tmp/first")" "$(cat "$tmp/out")"
expect "values --yaml" 0 "^faces:$" - -- values "$duel" --games 200 --yaml
check_cmd "yaml: a value per non-royal face" grep -Eq '^    value: [0-9]+$' "$tmp/out"
check_cmd "yaml: no royal face" bash -c "! grep -q '^  king:' '$tmp/out'"
expect "values: too few games" 2 - "too few|no decisive" -- values "$duel" --games 1
expect "values: bad agent" 1 - "nosuch" -- values "$duel" --side0 nosuch
expect "values: no variant" 2 - "not found" -- values "$tmp/nowhere"
cli_end
