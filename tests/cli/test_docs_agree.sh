#!/usr/bin/env bash
# The docs say what the program does (issue 25): each command of `tiers
# --help` has its section in docs/cli.md, and each doc error the issue
# found stays fixed.  Usage: bash test_docs_agree.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
docs=$(cd "$tests/../docs" && pwd)

# Every command `tiers --help` lists has a section and a row in cli.md.
run --help
for cmd in $(sed -n '/^commands:/,/^$/p' "$tmp/out" | awk 'NR > 1 && NF {print $1}'); do
    check_sh "cli.md has ## $cmd" "grep -q '^## $cmd\$' '$docs/cli.md'"
    check_sh "cli.md lists $cmd" "grep -q '^| \[\`$cmd' '$docs/cli.md'"
done
check_sh "commands found in --help" "grep -q '^  convert ' '$tmp/out'"

# convert --json: refused (it writes text only), as cli.md says
expect "convert --json refused" 1 - "option '--json' does not apply here" -- convert gounki --json
check_sh "cli.md: convert has no --json" "grep -q 'There is no \`--json\`' '$docs/cli.md'"

# compare --help must not offer human (compare refuses it); play's does
run compare --help
hasnt "$tmp/out" "compare --help offers no human" "human"
run play --help
expect_grep "play --help offers human" out "who plays white: human \(the default\) or an agent spec"
expect "compare refuses human" 1 - - -- compare gounki --white human --games 2 --db "$tmp/c.db"

# blog: stalemate takes win too (the engine rule's value), and blog.md says so
expect "blog stalemate=win" 0 - - -- check blog --rule stalemate=win
check_sh "blog.md names stalemate: win" "grep -q 'stalemate: win' '$docs/rules/blog.md'"

# variant-format.md: ray cells 1-9 (1 is accepted) and the message says 1-9
mkdir -p "$tmp/ray"
cat >"$tmp/ray/variant.yaml" <<'YAML'
name: ray
inherits: gounki
faces:
  round:
    moves:
      - diagram: |
          . 1 .
          . P .
          . . .
YAML
expect "diagram ray cell 1 loads" 0 - - -- check "$tmp/ray"
sed -i 's/\. 1 \./. 0 ./' "$tmp/ray/variant.yaml"
expect "diagram cell 0 refused" 2 - "cells: \. P o x l \* 1-9" -- check "$tmp/ray"
check_sh "variant-format.md: ray cells 1-9" "grep -q '^| \`1\`-\`9\` | a ray of at most N' '$docs/variant-format.md'"
hasnt "$docs/variant-format.md" "variant-format.md: no tier1_only leftover" 'empty squares\.\.\. tier 1'

# lua-api.md's list of hooks is the one the engine accepts (evaluate too)
mkdir -p "$tmp/ev"
printf 'name: ev\ninherits: gounki\nscripts: [e.lua]\n' >"$tmp/ev/variant.yaml"
printf 'effect{name="x", aftr=function() end}\n' >"$tmp/ev/e.lua"
run check "$tmp/ev"
hooks=$(grep -o '(hooks: [^)]*)' "$tmp/err" | sed 's/(hooks: //; s/)//; s/,//g')
check_sh "engine names its hooks" "[[ -n '$hooks' ]]"
list=$(sed -n '/^- Hooks: any of/,/function\./p' "$docs/lua-api.md" | tr '\n' ' ')
for h in $hooks; do
    check_sh "lua-api.md lists hook $h" "grep -q '\`$h\`' <<<'$list'"
done

# metrics.md: the agents row shows for a one-variant compare
run compare gounki --games 2 --db "$tmp/one.db"
expect_rc "one-variant compare" 0 && expect_grep "agents row, one variant" out '^agents \(0 / 1\) '
check_sh "metrics.md: agents row for one variant" "grep -q 'always when there is one variant' '$docs/metrics.md'"
check_sh "metrics.md: cut games and setup" "grep -q 'only in a variant without a setup phase' '$docs/metrics.md'"

cli_end
