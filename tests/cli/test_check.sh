#!/usr/bin/env bash
# tiers check and inheritance as a designer meets them: a child of blog
# that adds one effect with `scripts+:` keeps all of blog's (check and
# compare show them), a plain `scripts:` warns that it replaces the
# parent's list, and `replace:` silences the warning.  Then check's games
# (--games N): hooks that fail only in play (the three of issue 24: a typo,
# a tier hook answering 9, a drop_ok answering nil) fail check with the
# game, ply, hook, position and Lua stack, and the game's record; --games 0
# only loads; the lint warnings.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"

mkdir -p "$tmp/child" "$tmp/plain" "$tmp/meant"
cat >"$tmp/child/mine.lua" <<'LUA'
-- fires on every capture
effect{
  name = "mine",
  after = function(pos, move)
    return move.kind == "capture"
  end,
}
LUA
cp "$tmp/child/mine.lua" "$tmp/plain/mine.lua"
cp "$tmp/child/mine.lua" "$tmp/meant/mine.lua"
printf 'name: child\ninherits: blog\nscripts+: [mine.lua]\n' >"$tmp/child/variant.yaml"
printf 'name: plain\ninherits: blog\nscripts: [mine.lua]\n' >"$tmp/plain/variant.yaml"
printf 'name: meant\ninherits: blog\nreplace: [scripts]\nscripts: [mine.lua]\n' \
    >"$tmp/meant/variant.yaml"

expect "scripts+: check says ok, no warning" 0 '^ok: child ' - -- check "$tmp/child"
hasnt "$tmp/out" "scripts+: no warning" '^warning: .*replaces'
has "$tmp/out" "scripts+: blog's 14 effects and mine" \
    '^effects \(15\): land-link exchange substitution betrayal same-type forced-rearrangement forced-recovery commander-check arrangement arrangement-commander check-everywhere double-bronze bronze-checkmate pawn-drop-checkmate mine$'
expect "plain scripts: warns" 0 \
    "^warning: .*plain/variant.yaml:3:1: scripts: replaces the parent's 15 entries \\(write scripts\\+: to add, or list scripts in replace:\\)$" \
    - -- check "$tmp/plain"
expect "replace: [scripts] silences it" 0 '^ok: meant ' - -- check "$tmp/meant"
hasnt "$tmp/out" "replace: no warning" '^warning: .*replaces'
expect "check --json lists the warning" 0 '"warnings":\["[^"]*scripts: replaces' - -- \
    check --json "$tmp/plain"

# compare: every blog effect shows a count for the child too (none is
# "-"), and the child's own effect is "-" for blog alone.
expect "compare blog ./child" 0 '^effect mine +- +[0-9]' - -- \
    compare blog "$tmp/child" --games 2 --max-plies 120 --db "$tmp/c.db"
n=$(grep -c '^effect ' "$tmp/out")
check "compare lists blog's 14 effects and mine" $((n == 15 ? 0 : 1)) "got $n effect rows"
hasnt "$tmp/out" "no blog effect is missing in the child" '^effect [a-z-]+ .* -$'

# --- check's games
expect "check plays 2 random and 2 greedy games" 0 \
    '^played 2 random and 2 greedy games \(seed 1, at most 400 plies\): [0-9]+ plies, no script error$' \
    - -- check "$variants/duel"
expect "--games 0 only loads" 0 '^ok: duel ' - -- check "$variants/duel" --games 0
hasnt "$tmp/out" "--games 0: no games" '^played'
expect "--games 1" 0 '^played 1 random and 1 greedy games' - -- check "$variants/duel" --games 1

mk_blog_child() { # NAME LUA: a child of blog adding one effect
    mkdir -p "$tmp/$1"
    printf 'name: %s\ninherits: blog\nscripts+: [e.lua]\n' "$1" >"$tmp/$1/variant.yaml"
    printf '%s\n' "$2" >"$tmp/$1/e.lua"
}
mk_blog_child typo 'effect{name = "typo", after_kinds = {"capture"},
  after = function(pos, move) return rule.max_tiers == 3 end}'
mk_blog_child tall 'effect{name = "tall", tier = function(pos, sq, index, tier) return 9 end}'
mk_blog_child maybe 'effect{name = "maybe", drop_ok = function(pos, piece, sq) return nil end}'
for name in typo tall maybe; do
    expect "$name: loads (--games 0)" 0 "^ok: $name " - -- check "$tmp/$name" --games 0
done
expect "typo: fails in a game" 3 - \
    "^tiers: check: .*typo: typo \(random\), game 0, ply [0-9]+, hook after of effect typo: e.lua:2: attempt to index a nil value \(global 'rule'\)" \
    -- check "$tmp/typo" --records "$tmp/recs"
has "$tmp/err" "typo: the position" '^  position: [^ ]+ [^ ]+ [wb] '
has "$tmp/err" "typo: Lua's stack" '^  stack traceback:$'
has "$tmp/err" "typo: the stack names the file" 'e.lua:2: in function'
has "$tmp/err" "typo: the record" "^  record of the failed game: $tmp/recs/typo-random-0.txt$"
check_cmd "typo: the record exists with its hook" grep -q '^\[FailedHook "after of effect typo"\]$' \
    "$tmp/recs/typo-random-0.txt"
expect "tier 9: fails in a game" 3 - \
    'ply [0-9]+, hook tier of effect tall: e.lua:1: hook tier must return a tier 1..8 or nil, not 9' \
    -- check "$tmp/tall" --records "$tmp/recs"
expect "drop_ok nil: fails in a game" 3 - \
    'ply [0-9]+, hook drop_ok of effect maybe: e.lua:1: hook drop_ok must return a boolean, not nil' \
    -- check "$tmp/maybe" --records "$tmp/recs"

# --- lint: a child of duel with a face no tile shows, a tile at count 0,
# an option no script names, a veto that never runs, an expand hook that
# lists a move twice; a child of duel-setup whose moves hook gives a
# board move during the setup.
mkdir -p "$tmp/lint" "$tmp/early"
cat >"$tmp/lint/l.lua" <<'LUA'
effect{name = "never", veto_faces = {"spirit"}, veto = function(pos, move) return false end}
effect{name = "twice", expand_faces = {"rook"},
  expand = function(pos, move) return {{arg = 1}, {arg = 1}} end}
LUA
cat >"$tmp/lint/variant.yaml" <<YAML
name: lint
inherits: $variants/duel
scripts: [l.lua]
faces:
  ghost: {symbol: Q, moves: [{step: orth}]}
  spirit: {symbol: Z, moves: [{step: orth}]}
tiles+:
  - {front: spirit, count: 0}
options:
  unused_opt: {values: [a, b], default: a}
YAML
expect "lint: ok with warnings" 0 '^ok: lint ' - -- check "$tmp/lint"
has "$tmp/out" "lint: unused face" "^warning: face 'ghost' is shown by no tile$"
hasnt "$tmp/out" "lint: a face a tile shows is used" "face 'spirit'"
has "$tmp/out" "lint: tile never in play" "^warning: tile 'spirit' can never enter play"
hasnt "$tmp/out" "lint: duel's own tiles enter play" "tile '(king|rook|pawn)'"
has "$tmp/out" "lint: unread option" "^warning: option 'unused_opt' sets no engine rule and no script names it$"
has "$tmp/out" "lint: hook never ran" '^warning: hook veto of effect never \(l.lua:1\) never ran in 4 games$'
hasnt "$tmp/out" "lint: the expand hook ran" 'hook expand of effect twice'
has "$tmp/out" "lint: a move listed twice" '^warning: the legal list holds [^ ]+ twice \(random game 0, ply 1, position '
expect "lint: --json lists the warnings" 0 '"warnings":\[.*"face .ghost. is shown by no tile"' - -- \
    check --json "$tmp/lint"
cat >"$tmp/early/s.lua" <<'LUA'
effect{name = "early", moves = function(pos)
  if not pos:setup() then return nil end
  local out = {}
  for _, at in ipairs(pos:find("king", pos:side())) do
    local f, r = pos:coords(at.square)
    out[#out + 1] = {kind = "move", from = at.square, to = pos:square(f, r == 1 and 2 or 1)}
  end
  return out
end}
LUA
printf 'name: early\ninherits: %s\nscripts: [s.lua]\n' "$variants/duel-setup" >"$tmp/early/variant.yaml"
expect "setup board moves: refused and reported" 0 \
    '^warning: hook moves of effect early \(s.lua:1\) gave [1-9][0-9]* board moves? during a setup, not offered \(moves_setup = true offers them\)$' \
    - -- check "$tmp/early"

# --- move texts a record could not read back (issue 19): a format hook
# giving two effect moves one text, and one giving a result token.  check
# plays until such a move is listed; apply refuses the ambiguous text
# rather than taking the first move; a text that reads back is fine.
mk_duel_child() { # NAME LUA: a child of duel with one effect
    mkdir -p "$tmp/$1"
    printf 'name: %s\ninherits: %s\nscripts: [e.lua]\n' "$1" "$variants/duel" >"$tmp/$1/variant.yaml"
    printf '%s\n' "$2" >"$tmp/$1/e.lua"
}
mk_duel_child clash 'effect{name = "pass",
  moves = function(pos) return {{kind = "effect", arg = 1}, {kind = "effect", arg = 2}} end,
  apply = function(pos, move) return false end,
  format = function(pos, move) return "pass" end}'
mk_duel_child result 'effect{name = "pass",
  moves = function(pos) return {{kind = "effect"}} end,
  apply = function(pos, move) return false end,
  format = function(pos, move) return "1-0" end}'
mk_duel_child fine 'effect{name = "pass",
  moves = function(pos) return {{kind = "effect", arg = 1}, {kind = "effect", arg = 2}} end,
  apply = function(pos, move) return false end,
  format = function(pos, move) return "pass" .. move.arg end}'
expect "two moves, one text: check fails at the first ply" 3 - \
    "game 0, ply 1: effect 'pass', hook format: the text 'pass' names two moves of this position" \
    -- check "$tmp/clash" --records "$tmp/recs"
expect "two moves, one text: apply refuses it" 3 - "effect 'pass', hook format: the text 'pass' names two moves" \
    -- apply "$tmp/clash" pass
expect "a result token as a text: check fails" 3 - \
    "e.lua:4: hook format returned '1-0', which a game record could not read back: it is a result" \
    -- check "$tmp/result" --records "$tmp/recs"
expect "texts that read back: check passes" 0 'no script error$' - -- check "$tmp/fine"
expect "texts that read back: apply" 0 '' - -- apply "$tmp/fine" pass2

cli_end
