#!/usr/bin/env bash
# tiers check and inheritance as a designer meets them: a child of blog
# that adds one effect with `scripts+:` keeps all of blog's (check and
# compare show them), a plain `scripts:` warns that it replaces the
# parent's list, and `replace:` silences the warning.
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
hasnt "$tmp/out" "scripts+: no warning" '^warning'
expect "plain scripts: warns" 0 \
    "^warning: .*plain/variant.yaml:3:1: scripts: replaces the parent's 15 entries \\(write scripts\\+: to add, or list scripts in replace:\\)$" \
    - -- check "$tmp/plain"
expect "replace: [scripts] silences it" 0 '^ok: meant ' - -- check "$tmp/meant"
hasnt "$tmp/out" "replace: no warning" '^warning'
expect "check --json lists the warning" 0 '"warnings":\["[^"]*scripts: replaces' - -- \
    check --json "$tmp/plain"

# compare: every blog effect shows a count for the child too (none is
# "-"), and the child's own effect is "-" for blog alone.
expect "compare blog ./child" 0 '^effect mine +- +[0-9]' - -- \
    compare blog "$tmp/child" --games 2 --max-plies 120 --db "$tmp/c.db"
n=$(grep -c '^effect ' "$tmp/out")
check "compare lists blog's 14 effects and mine" $((n == 15 ? 0 : 1)) "got $n effect rows"
hasnt "$tmp/out" "no blog effect is missing in the child" '^effect [a-z-]+ .* -$'

cli_end
