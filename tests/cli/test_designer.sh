#!/usr/bin/env bash
# CLI tests of what a designer reads off a variant (issue 25): "did you
# mean" on mistyped names, the full rule key list, `tiers options`,
# `tiers pieces` and the small traps.  Usage: bash test_designer.sh TIERS
# TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
src=$(cd "$tests/.." && pwd)/variants

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
expect "agent typo (play)" 1 - "did you mean alphabeta\?" -- play gounki --black alphabta
expect "agent typo with parameters (playout)" 1 - "did you mean mcts\?" \
    -- playout gounki --black mtcs:iterations=3 --games 1 --db "$tmp/a.db"
expect "agent far" 1 - "unknown agent" -- play gounki --black zzzzz
hasnt "$tmp/err" "agent far: no suggestion" "did you mean"
expect "option typo" 1 - "did you mean --variants or --variant\?" -- moves gounki --varaints x
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

# ---- tiers pieces: the grid is the diagram notation ----
# A face written as a diagram comes back as the same diagram (the rays
# may sit on any cell of their line; these sit where the grid puts them).
mkdir -p probe
cat >probe/variant.yaml <<'YAML'
name: probe
inherits: official
faces:
  probe:
    symbol: Z
    moves:
      - diagram: |
          . x . . . . .
          . * . . . . .
          . . o 3 . . .
          . . o P . l .
          . . . . . . .
          . . . . . . .
          . . . . . . .
      - lines:
          - {first: [0, 2], dir: [0, 1], len: 2, leaping: true}
      - same
YAML
run pieces ./probe probe --tier 1
expect_rc "pieces diagram" 0 && expect_out "pieces diagram" "probe: forward is up; P the piece, o step, x jump, l leap (via the squares between),
* slide to the edge, 2-9 a ray of at most N squares

probe (Z)
  tier 1:
    . x . . . . .
    . * . . . . .
    . . o 3 . . .
    . . o P . l .
    . . . . . . .
    . . . . . . .
    . . . . . . ."
# tier 2: a general line (first [0,2], then [0,3]) is marked '+'
run pieces ./probe probe
expect_rc "pieces general line" 0 && {
    expect_grep "pieces general line" out '^    \. \. \. \+ \. \. \.$'
    expect_grep "pieces general legend" out '^  \+ = a line'
    expect_grep "pieces same tier" out '^  tier 3: as tier 2$'
}
# The official General: a Shogi dragon at tier 1 (steps diagonally,
# slides orthogonally; docs/rules/official.md), ranges of 2 and 3 on the
# diagonals above.
run pieces official general --json
expect_rc "pieces json" 0 && expect_out "pieces json" '{"variant":"official","faces":[{"face":"general","symbol":"G","copies_below":false,"tiers":[{"tier":1,"lines":8,"grid":["o * o","* P *","o * o"]},{"tier":2,"lines":8,"grid":["2 * 2","* P *","2 * 2"]},{"tier":3,"lines":8,"grid":["3 * 3","* P *","3 * 3"]}]}]}'
# Gounki's round piece: one square diagonally forward at every height.
run pieces gounki round --tier 3
expect_rc "pieces gounki" 0 && expect_out "pieces gounki" "gounki: forward is up; P the piece, o step, x jump, l leap (via the squares between),
* slide to the edge, 2-9 a ray of at most N squares

round (R)
  tier 3:
    o . o
    . P .
    . . ."
expect "pieces face typo" 2 - "did you mean general\?" -- pieces official genral
expect "pieces tier too high" 2 - "--tier 4: official has towers of at most 3" -- pieces official general --tier 4
expect "pieces tier 0" 1 - "--tier: '0'" -- pieces official general --tier 0
expect "pieces all faces" 0 "^tactician \(T\)$" - -- pieces official

# ---- render --piece ----
expect "render piece" 0 - - -- render official --piece general -o "$tmp/g.svg"
check_sh "render piece svg" "grep -q '<svg' '$tmp/g.svg' && grep -c 'tier [123]<' '$tmp/g.svg' | grep -qx 3"
check_sh "render piece cells" "grep -q '>P</text>' '$tmp/g.svg' && grep -q '>\*</text>' '$tmp/g.svg'"
expect "render piece typo" 2 - "did you mean general\?" -- render official --piece genral
expect "render piece and position" 1 - "--piece draws a face" -- render official --piece general --position x

# ---- tiers options ----
run options blog
expect_rc "options blog" 0 && {
    expect_grep "options blog rule" out '^  stack_own +bool +default true +true\|false$'
    expect_grep "options blog option" out '^  fouls +choice default illegal +illegal\|lose$'
    expect_grep "options blog doc" out '^ +a foul is refused, or may be played and its player loses$'
    expect_grep "options blog sets" out '^ +\(also sets the engine rule via\)$'
}
run options gufuu --json
expect_rc "options json" 0 && expect_grep "options json" out '\{"key":"repetition","kind":"option","type":"int","default":"4","value":"4","allowed":"an integer","sets":"repetition","doc":"N-fold repetition ends the game \(0 = off\)"\}'
# every shipped option has a doc
for v in blog gounki gufuu gungi-io official seed-25; do
    run options "$v" --json
    expect_rc "options $v" 0 && hasnt "$tmp/out" "options $v docs" '"kind":"option"[^}]*"doc":""'
done
mkvariant $'options:\n  newopt: {values: [a, b], default: a, doc: [not, text]}'
expect "option doc not text" 2 - "options\.newopt\.doc" -- check ./mine
mkvariant ''

# ---- the traps ----
# a bare P in a hand: three tiles show a Pawn (blog: P~B, P~V, P~G)
expect "hand hint" 2 - "several tiles show this face, write P~B, P~V or P~G" \
    -- show blog --position "9/9/9/9/9/9/9/9/9 KPk b bw 0 0"
expect "hand hint black" 2 - "write p~B, p~V or p~G" \
    -- show blog --position "9/9/9/9/9/9/9/9/9 Kkp b bw 0 0"
expect "hand with back face" 0 - - -- show blog --position "9/9/9/9/9/9/9/9/9 KkP~B b bw 0 0"
expect "hand unknown letter: no hint" 2 - "bad hand entry at 'Q" \
    -- show blog --position "9/9/9/9/9/9/9/9/9 KkQ b bw 0 0"
hasnt "$tmp/err" "hand unknown letter: no hint" "several tiles"

# why a move is illegal (apply and play).  Gounki's start: white's square
# on a1 steps forward or sideways (a2 empty... b1 square): a1^a2, a1^b1.
expect "apply why: out of reach" 2 - "'a1-a3' is not a legal move here: the square on a1 cannot go there; it can go to a2, b1" \
    -- apply gounki a1-a3
expect "apply why: empty square" 2 - "a1-a2' is not a legal move here: a1 is empty" -- apply official a1-a2
expect "apply why: not yours" 2 - "the top piece on a7 is not yours" -- apply gounki a7-a6
# official's setup: white places on its own ranks 1-3 only
expect "apply why: outside the zone" 2 - "no piece may be dropped on e5 now \(outside the zone" \
    -- apply official 'M*e5'
# a move into check under chess-like legality: the white Marshal on e9,
# a black General on a8 sliding along rank 8 (and a black Marshal on e1)
pos="4M4/g8/9/9/9/9/9/9/4m4 - w - 0 0 mode=advanced"
expect "apply why: into check" 2 - "'e9-e8' is not a legal move here: it would leave your royal piece attacked" \
    -- apply official --position "$pos" --rule check_rule=legal e9-e8
expect "apply why: into check, piece letter" 2 - "the marshal on e9 cannot go there; it can go to d9, f9" \
    -- apply official --position "$pos" --rule check_rule=legal Me9-e7
printf 'a1-a3\n' >"$tmp/in"
expect "play why" 2 - "line 1: 'a1-a3' is not a legal move here: the square on a1 cannot go there" -- play gounki

# moves SQUARE in play, moves --from on the command line
printf 'moves a1\nmoves b2\nmoves e5\n' >"$tmp/in"
run play gounki
expect_rc "play moves SQUARE" 0 && {
    expect_grep "play moves SQUARE" out "^2 legal moves from a1:$"
    expect_grep "play moves SQUARE list" out "^  a1\^a2 a1\^b1$"
    expect_grep "play moves SQUARE b2" out "^  b2-b3 b2\^a2 b2\^c2$"
    expect_grep "play moves empty SQUARE" out "^no legal moves from or onto e5$"
    hasnt "$tmp/out" "play moves SQUARE: no other move" "a2-b3"
}
printf 'moves z9\n' >"$tmp/in"
expect "play moves bad square" 2 - "'z9' is not a square" -- play gounki
run moves gounki --from a2
expect_rc "moves --from" 0 && expect_out "moves --from" "a2-b3"
# official's setup: white places on ranks 7-9, the Marshal first (with or
# without ending its setup: M*e8 and M*e8!)
run moves official --from e8
expect_rc "moves --from empty: drops onto it" 0 && expect_out "moves --from empty: drops onto it" "M*e8
M*e8!"
run moves official --from e2 --count
expect_rc "moves --from outside the zone" 0 && expect_out "moves --from outside the zone" "0"
expect "moves --from bad" 2 - "--from 'z9' is not a square of official \(a1\.\.i9\)" -- moves official --from z9
expect "moves --from with --batch" 1 - "--from cannot be combined with --batch" -- moves official --from a1 --batch -

# replay --variant: a parent's record on a child
mkdir -p kid
printf 'name: kid\ninherits: gounki\n' >kid/variant.yaml
cat >"$tmp/hm.txt" <<'REC'
[Variant "gounki"]
[Options "halfmove_limit=4"]
[Result "1/2-1/2"]

1. a1^a2 b7-a6 2. b2-b3 e8^d7 3. d2-d3 1/2-1/2
REC
expect "replay on a child: refused" 2 - "the record is for variant 'gounki', not 'kid'.*--variant" -- replay ./kid "$tmp/hm.txt"
expect "replay --variant" 0 '^reason: move limit$' - -- replay "$tmp/hm.txt" --variant ./kid
expect "replay --variant and VARIANT" 1 - "with --variant, give only the FILE" -- replay gounki "$tmp/hm.txt" --variant ./kid
expect "replay without FILE" 1 - "missing FILE" -- replay gounki

# ---- show --merged ----
printf 'name: mine\ninherits: gounki\ndescription: "a test: child"\nrules:\n  repetition: 4\n' >mine/variant.yaml
start_line=$(grep -n '^start:' "$src/gounki/variant.yaml" | cut -d: -f1)
stalemate_line=$(grep -n '^  stalemate:' "$src/gounki/variant.yaml" | cut -d: -f1)
run show ./mine --merged
expect_rc "merged" 0 && {
    expect_grep "merged: own key bare" out '^description: "a test: child"$'
    expect_grep "merged: own rule bare" out '^  repetition: 4$'
    expect_grep "merged: parent key marked" out "^start: .*  # .*gounki/variant\.yaml:$start_line\$"
    expect_grep "merged: parent rule marked" out "^  stalemate: loss  # .*gounki/variant\.yaml:$stalemate_line\$"
    hasnt "$tmp/out" "merged: own keys unmarked" '^(name|description): .*#'
}
run show ./mine --merged --rule exit=true --rule no_moves=draw --rule max_plies=300
expect_rc "merged --rule" 0 && {
    expect_grep "merged: rule override" out '^  exit: true  # --rule$'
    expect_grep "merged: option override" out '^    default: draw  # --rule$'
    expect_grep "merged: rule added" out '^  max_plies: 300  # --rule$'
    hasnt "$tmp/out" "merged: overridden value gone" '^  exit: false'
}
expect "merged bad rule" 2 - "did you mean exit\?" -- show ./mine --merged --rule exi=true
run show ./mine --merged --json
expect_rc "merged json" 0 && {
    expect_grep "merged json parent" out "\"start\":\{\"value\":\"rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR - w - 0 0\",\"file\":\"[^\"]*gounki/variant\.yaml\",\"line\":$start_line\}"
    expect_grep "merged json own" out '"description":\{"value":"a test: child","file":"\./mine/variant\.yaml","line":3\}'
}
# The merged YAML is the variant: without its inherits line it loads as
# the same game (same perft, same pieces), diagrams included.
for v in seed-25 ./probe; do
    mkdir -p flat
    "$tiers" show "$v" --merged | grep -v '^inherits:' >flat/variant.yaml
    check_sh "merged $v loads" "'$tiers' check ./flat >/dev/null"
    same "merged $v perft" "$("$tiers" perft "$v" 2 | head -1)" "$("$tiers" perft ./flat 2 | head -1)"
    same "merged $v pieces" "$("$tiers" pieces "$v" | tail -n +2)" "$("$tiers" pieces ./flat | tail -n +2)"
done
expect "merged with --position" 1 - "--merged shows the variant" -- show gounki --merged --position x

cli_end
