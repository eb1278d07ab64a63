#!/usr/bin/env bash
# CLI tests of what a designer reads off a variant (issue 25): "did you
# mean" on mistyped names, the full rule key list, `tiers options`,
# `tiers pieces` and the small traps.  Usage: bash test_designer.sh TIERS
# TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"

# A child of blog in a folder of the current directory.
mkdir -p "$tmp/work/mine"
cd "$tmp/work" || exit 1
mkvariant() { printf 'name: mine\ninherits: blog\n%s\n' "$1" >mine/variant.yaml; }
mkvariant ''

# ---- did you mean (edit distance <= 2, at most 3) ----
expect "command typo" 1 - "did you mean moves\?" -- mvoes
expect "command swap" 1 - "did you mean check\?" -- chekc
expect "command far" 1 - - -- frobnicate
hasnt "$tmp/err" "command far: no suggestion" "did you mean"
expect "help command typo" 1 - "did you mean render\?" -- help rendr
expect "variant typo" 2 - "did you mean blog\?" -- moves blgo
expect "variant folder here" 2 - "did you mean \./mine\?" -- moves mine
expect "variant folder ./ works" 0 - - -- moves ./mine --count
mkvariant $'faces:\n  bronz: {moves: [{step: all8}]}'
expect "face typo" 2 - "faces\.bronz: a new face needs a symbol; did you mean bronze\?" -- check ./mine
mkvariant $'faces:\n  newface: {moves: [{step: all8}]}'
expect "new face without symbol" 2 - "missing required key 'symbol' in faces\.newface" -- check ./mine
mkvariant $'tiles:\n  - {name: x, front: bronzee, count: 1}'
expect "face ref typo" 2 - "unknown face 'bronzee' in tiles\[0\]\.front \(did you mean bronze\?\)" -- check ./mine
mkvariant $'drops: {enabled: true, zoen: all}'
expect "key typo" 2 - "unknown key 'zoen' in drops \(did you mean zone\?; expected" -- check ./mine

# ---- the rule key list: whole, with the variant's options ----
mkvariant 'rules: {stak_own: false}'
expect "yaml rule typo" 2 - "did you mean stack_own\?" -- check ./mine
expect_grep "yaml rule list ends with the options" err "options: leap_midpoint, .*captured_front\)$"
expect_grep "yaml rule list has the last rule whole" err "shield_all_via; options:"
expect_grep "yaml rule error points to options" err "tiers options \./mine"
mkvariant ''
expect "--rule typo" 2 - "unknown rule 'stak_own' \(did you mean stack_own\?" -- check blog --rule stak_own=0
expect_grep "--rule list whole" err "shield_all_via; options: leap_midpoint, mre, catapult_region, knight_passes, stalemate, fouls, landlink_owner, exchange_second_clause, captured_front\)$"
expect_grep "--rule points to options" err "'tiers options blog' lists every rule and option"
expect "--rule option typo" 2 - "did you mean fouls\?" -- check blog --rule foul=lose
expect "--rule bad value" 2 - "rules\.via must be" -- check blog --rule via=nope
expect_grep "--rule bad value points to options" err "'tiers options blog'"

cli_end
