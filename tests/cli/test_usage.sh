#!/usr/bin/env bash
# CLI tests that need no working variant: help, version, usage errors and
# a missing variant file.  Usage: bash test_usage.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"

# Help and version.
expect "help" 0 '^usage: tiers COMMAND' - -- --help
expect "help lists commands" 0 '^  perft ' - -- --help
expect "short help" 0 '^usage: tiers' - -- -h
expect "version" 0 '^tiers [0-9]+\.[0-9]+\.[0-9]+$' - -- --version
for cmd in variants check show moves apply perft bench; do
    expect "$cmd --help" 0 "^usage: tiers $cmd" - -- "$cmd" --help
done
expect "help after arguments" 0 '^usage: tiers moves' - -- moves x --help

# Usage errors: exit 1, one-line message naming the token, then a hint.
expect "no command" 1 - "try 'tiers --help'" --
expect "unknown command" 1 - "unknown command 'frobnicate'" -- frobnicate
expect "unknown command hint" 1 - "^try 'tiers --help'$" -- frobnicate
expect "unknown top option" 1 - "'--frob'" -- --frob
expect "missing variant" 1 - "missing VARIANT" -- check
expect "missing depth" 1 - "missing DEPTH" -- perft some-variant
expect "missing move" 1 - "missing MOVE" -- apply some-variant
expect "bad long option" 1 - "unknown option '--frob'" -- show x --frob
expect "bad short option" 1 - "unknown option '-Z'" -- show x -Z
expect "option not for command" 1 - "'--divide'" -- show x --divide
expect "option without value" 1 - "'--position'" -- show x --position
expect "value for a flag" 1 - "'--count=2'" -- moves x --count=2
expect "bad rule" 1 - "'nokey'" -- check x --rule nokey
expect "bad depth" 1 - "'deep'" -- perft x deep
expect "negative depth" 1 - "'-1'" -- perft x -- -1
expect "bad seconds" 1 - "'soon'" -- bench x --seconds soon
expect "extra argument" 1 - "unexpected argument 'extra'" -- check x extra
expect "batch with position" 1 - "--batch" -- moves x --batch - --position p
expect "variants takes no variant" 1 - "'x'" -- variants x
expect "seed out of range" 1 - "--seed: '99999999999' is not a number from 0 to 2147483647" \
    -- play x --seed 99999999999
expect "negative seed" 1 - "--seed: '-1' is not a number from 0 to 2147483647" \
    -- playout x --seed -1

# A variant that does not exist: bad input, and the message names it.
missing="$tmp/no/such/variant.yaml"
expect "check missing file" 2 - "$missing" -- check "$missing"
expect "check missing folder" 2 - "$tmp/nowhere" -- check "$tmp/nowhere"
expect "show missing file" 2 - "$missing" -- show "$missing"
# A variant name that is nowhere: the error has the usual prefix (and
# playout creates no tiers.db for it: run where one would land).
pushd "$tmp" >/dev/null || exit 1
for cmd in check playout play; do
    expect "$cmd unknown variant" 2 - "^tiers: $cmd: variant 'no-such-variant' not found" \
        -- "$cmd" no-such-variant
done
[[ ! -e tiers.db ]] || { fail "playout of an unknown variant created tiers.db"; failures=$((failures + 1)); }
popd >/dev/null || exit 1

# bench with several variants: a row each; a missing one fails alone
expect "bench two variants" 0 '^duel +[0-9].*' - -- bench duel standoff --seconds 0.05 \
    --variants "$2/data/variants"
grep -Eq '^standoff +[0-9]' "$tmp/out" ||
    { fail "bench two variants: no standoff row"; failures=$((failures + 1)); }
expect "bench one missing" 2 '^nowhere +error' "nowhere" -- bench duel nowhere \
    --seconds 0.05 --variants "$2/data/variants"

# bench --batch: a pass counts every position's legal moves, as many as
# `moves --count` finds for each; bad lines are named by file and line.
duel=$2/data/variants/duel
printf '%s\n' '2k2/5/5/5/2K2 R3P w - 0 1' '' '{"position": "r1k2/p4/5/5/2K1R - b - 0 1"}' \
    'r1k2/p4/5/4P/2K1R - w - 0 1' >"$tmp/batch.txt"
want=0
for pos in '2k2/5/5/5/2K2 R3P w - 0 1' 'r1k2/p4/5/5/2K1R - b - 0 1' 'r1k2/p4/5/4P/2K1R - w - 0 1'; do
    want=$((want + $("$tiers" moves "$duel" --count --position "$pos")))
done
expect "bench --batch" 0 "\"positions\":3,\"moves_per_pass\":$want," - -- \
    bench "$duel" --batch "$tmp/batch.txt" --seconds 0.05 --json
expect "bench --batch text" 0 "3 positions, $want legal moves a pass" - -- \
    bench "$duel" --batch "$tmp/batch.txt" --seconds 0.05
printf '%s\n' '2k2/5/5/5/2K2 - w - 0 1' 'zz' >"$tmp/badbatch.txt"
expect "bench --batch bad line" 2 - "badbatch.txt:2: bad position" -- \
    bench "$duel" --batch "$tmp/badbatch.txt" --seconds 0.05
expect "bench --batch two variants" 1 - "--batch takes one variant" -- \
    bench "$duel" "$duel" --batch "$tmp/batch.txt"
expect "bench --batch no file" 2 - "nothere" -- bench "$duel" --batch "$tmp/nothere"

# bench --agents: a row of three non-zero rates per variant (positions by
# random play, or those of --batch), the work counted in JSON
expect "bench --agents" 0 '^duel +[1-8] +[1-9][0-9]* +[1-9][0-9]* +[1-9][0-9]*$' - -- \
    bench duel --agents --variants "$2/data/variants"
expect "bench --agents --batch" 0 \
    '"positions":3,"alphabeta":\{"agent":"alphabeta:depth=32,nodes=20000","nodes":[1-9]' - -- \
    bench "$duel" --agents --batch "$tmp/batch.txt" --json
grep -Eq '"mcts":\{"agent":"mcts:iterations=300","simulations":[1-9][0-9]*,' "$tmp/out" &&
    grep -Eq '"greedy":\{"agent":"greedy","plies":[1-9][0-9]*,' "$tmp/out" ||
    { fail "bench --agents --batch: no mcts or greedy work"; failures=$((failures + 1)); }
expect "bench --agents one missing" 2 '^nowhere +error' "nowhere" -- \
    bench duel nowhere --agents --variants "$2/data/variants"
expect "bench --agents --batch two variants" 1 - "--agents --batch takes one variant" -- \
    bench "$duel" "$duel" --agents --batch "$tmp/batch.txt"

cli_end
