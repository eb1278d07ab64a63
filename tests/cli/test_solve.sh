#!/usr/bin/env bash
# CLI tests of `tiers solve` and `tiers moves --solved` on the standoff test
# variant (tests/data/variants/standoff, solved by hand in its YAML): the
# report, --json, --save and the file it writes, the same file on a second
# run, the --max-positions refusal, and moves marked from a saved file.
# Usage: bash test_solve.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
vdir="$tests/data/variants"

V=(--variants "$vdir")

expect "value" 0 '^value: black wins in 4 plies \(white to move: loss\)$' - -- \
    solve standoff "${V[@]}"
expect "counts" 0 '^positions: 5 \(0 in the setup, 1 with no move left\)$' - -- \
    solve standoff "${V[@]}"
expect "line" 0 '^line: a1-a2 a4-a3 a2-a1 a3-a2$' - -- solve standoff "${V[@]}"
expect "draw" 0 '^value: draw \(white to move: draw\)$' - -- \
    solve standoff "${V[@]}" --rule stalemate=draw
expect "json" 0 '"value":"loss".*"positions":5.*"line":\["a1-a2","a4-a3","a2-a1","a3-a2"\]' - \
    -- solve standoff "${V[@]}" --json
expect "from a position" 0 '^value: black wins in 1 ply \(black to move: win\)$' - -- \
    solve standoff "${V[@]}" --position "1/r/1/R - b - 0 0"
expect "limit" 2 - 'more than 4 positions are reachable: too many to solve' -- \
    solve standoff "${V[@]}" --max-positions 4
expect "bad limit" 1 - "bad --max-positions 'x'" -- solve standoff "${V[@]}" --max-positions x
expect "save" 0 - - -- solve standoff "${V[@]}" --save "$tmp/a.sol"
expect "save again" 0 - - -- solve standoff "${V[@]}" --save "$tmp/b.sol"
check_cmd "the same file on both runs" cmp -s "$tmp/a.sol" "$tmp/b.sol"
expect "threads" 0 '^time: .* \(3 threads\)$' - -- \
    solve standoff "${V[@]}" --threads 3 --save "$tmp/c.sol"
check_cmd "the same file on three threads" cmp -s "$tmp/a.sol" "$tmp/c.sol"
expect "threads, json" 0 '"threads":2' - -- solve standoff "${V[@]}" --threads 2 --json
expect "bad threads" 1 - "bad --threads '0': expected 1..256" -- \
    solve standoff "${V[@]}" --threads 0
expect "too many threads" 1 - "at most 64 threads" -- solve standoff "${V[@]}" --threads 65
check_cmd "file: header" grep -q '^tiers-solution 1$' "$tmp/a.sol"
check_cmd "file: start" grep -qx 'L 4 r/1/1/R - w - 0 0' "$tmp/a.sol"
check_cmd "file: 5 positions" test "$(grep -c '^[WDL] ' "$tmp/a.sol")" -eq 5

expect "moves --solved" 0 '^a1-a2 loss 4$' - -- \
    moves standoff "${V[@]}" --solved "$tmp/a.sol"
expect "moves --solved, black" 0 '^a3-a4 win 5$' - -- \
    moves standoff "${V[@]}" --solved "$tmp/a.sol" --position "1/r/1/R - b - 0 0"
expect "moves --solved, json" 0 '"move":"a3-a2","value":"win","plies":1' - -- \
    moves standoff "${V[@]}" --solved "$tmp/a.sol" --position "1/r/1/R - b - 0 0" --json
expect "moves --solved, other rules" 2 - 'made with other rules' -- \
    moves standoff "${V[@]}" --solved "$tmp/a.sol" --rule stalemate=draw
expect "moves --solved, missing file" 2 - "cannot read" -- \
    moves standoff "${V[@]}" --solved "$tmp/none.sol"
expect "moves --solved --count" 1 - 'cannot be combined' -- \
    moves standoff "${V[@]}" --solved "$tmp/a.sol" --count

cli_end
