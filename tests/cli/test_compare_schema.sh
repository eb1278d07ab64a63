#!/usr/bin/env bash
# `tiers compare --json` against its documented schema,
# docs/compare.schema.json: real runs (rulesets with and without options,
# one whose games fail, one whose games all end in the setup or are cut,
# so the null figures show) are checked field by field with
# tests/cli/schema_check.jq, every field the schema declares must appear in
# them, and the checker must refuse broken copies.
# Usage: bash test_compare_schema.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
schema=$tests/../docs/compare.schema.json
checker=$tests/cli/schema_check.jq
duel=$variants/duel

# conform NAME FILE: a case passing when FILE conforms to the schema
conform() {
    local errors
    errors=$(jq -n -r --slurpfile s "$schema" --slurpfile d "$2" -f "$checker" 2>&1)
    check "$1" "$([[ -z $errors ]]; echo $?)" "$(head -n 5 <<<"$errors")"
}

mkdir -p "$tmp/bad"
printf 'name: duel-boom\ninherits: %s\nscripts: [boom.lua]\n' "$duel" >"$tmp/bad/variant.yaml"
cat >"$tmp/bad/boom.lua" <<'LUA'
-- fails on the first capture
effect{ name = "boom",
  after = function(pos, move)
    if move.kind == "capture" then error("boom") end
    return false
  end }
LUA
"$tiers" compare gungi-io blog:fouls=lose "mine=$duel:stalemate=loss" "$tmp/bad" \
    --games 4 --side0 random --side1 random --max-plies 300 --db "$tmp/a.db" --json \
    >"$tmp/a.json" 2>"$tmp/a.err"
same "a run with a failing ruleset exits 3" 3 $?
conform "rulesets with options, effects and a failure" "$tmp/a.json"
"$tiers" compare gungi-io "$duel" --games 3 --side0 random --side1 random --max-plies 10 \
    --db "$tmp/b.db" --json >"$tmp/b.json"
same "a run cut in the setup exits 0" 0 $?
conform "null figures (no play phase, no decisive game)" "$tmp/b.json"
same "the null case is there" "null null" \
    "$(jq -r '.variants[0] | "\(.first_mover) \(.balance)"' "$tmp/b.json")"

# issue 23: the skill trace (--skill), one ruleset whose games fail
"$tiers" compare "$duel" "$tmp/bad" --skill alphabeta:depth=1,nodes=10 --levels 2 --games 2 \
    --max-plies 40 --db "$tmp/c.db" --json >"$tmp/c.json" 2>"$tmp/c.err"
same "a skill trace with a failing ruleset exits 3" 3 $?
conform "a skill trace" "$tmp/c.json"

# issue 23: --until, one ruleset whose games fail
"$tiers" compare "$duel" "$tmp/bad" --until side0=0.2 --round 10 --games 20 --side0 random \
    --side1 random --max-plies 300 --db "$tmp/d.db" --json >"$tmp/d.json" 2>"$tmp/d.err"
same "an --until run with a failing ruleset exits 3" 3 $?
conform "an --until run" "$tmp/d.json"

# every field the schema declares appears in these runs
declared() { jq -r "$1 | keys[]" "$schema" | sort; }
seen() { jq -r "$1 | objects | keys[]" "$tmp/a.json" "$tmp/b.json" "$tmp/c.json" "$tmp/d.json" | sort -u; }
same "top-level fields" "$(declared .properties)" "$(seen .)"
same "fields of a ruleset" "$(declared '.["$defs"].ruleset_ok.properties')" \
    "$(seen '.variants[] | select(.status == "ok")')"
same "fields of a failed ruleset" "$(declared '.["$defs"].ruleset_failed.properties')" \
    "$(seen '.variants[] | select(.status == "failed")')"
same "fields of a rate" "$(declared '.["$defs"].rate.properties')" "$(seen '.variants[0].draw_rate')"
same "fields of an opening" "$(declared '.["$defs"].opening.properties')" "$(seen '.variants[0].openings[0]')"
same "fields of an ending" "$(declared '.["$defs"].ending.properties')" "$(seen '.variants[0].endings[0]')"
same "fields of an effect" "$(declared '.["$defs"].effect.properties')" "$(seen '.variants[1].effects[0]')"
# issue 23: the tests of the family, both kinds
same "fields of the tests" "$(declared .properties.tests.properties)" "$(seen .tests)"
same "fields of a difference test" "$(declared '.["$defs"].test_difference.properties')" \
    "$(seen '.tests.list[] | select(.kind == "difference")')"
same "fields of a first-mover test" "$(declared '.["$defs"].test_first_mover.properties')" \
    "$(seen '.tests.list[] | select(.kind == "first_mover")')"
same "fields of the skill trace" "$(declared .properties.skill.properties)" "$(seen .skill)"
same "fields of a skill ruleset" "$(declared '.["$defs"].skill_ok.properties')" \
    "$(seen '.skill.rulesets[]? | select(.status == "ok")')"
same "fields of a failed skill ruleset" "$(declared '.["$defs"].skill_failed.properties')" \
    "$(seen '.skill.rulesets[]? | select(.status == "failed")')"
same "fields of a level" "$(declared '.["$defs"].skill_level.properties')" "$(seen '.skill.rulesets[]?.levels[]?')"
same "fields of a step" "$(declared '.["$defs"].skill_step.properties')" "$(seen '.skill.rulesets[]?.steps[]?')"
same "fields of --until" "$(declared .properties.until.properties)" "$(seen .until)"
same "fields of a ruleset's stop" "$(declared '.["$defs"].until_ruleset.properties')" \
    "$(seen '.until.rulesets[]?')"
same "fields of a face" "$(declared '.["$defs"].face.properties')" "$(seen '.variants[0].faces[0]')"
same "effect kinds apart in a new database" "true" "$(jq -r '.variants[1].effects[0].kinds' "$tmp/a.json")"

# the checker refuses what the schema does not allow
broken() {
    jq "$2" "$tmp/a.json" >"$tmp/x.json"
    local errors
    errors=$(jq -n -r --slurpfile s "$schema" --slurpfile d "$tmp/x.json" -f "$checker" 2>&1)
    grep -q -- "$3" <<<"$errors"
    check "refused: $1" $? "expected /$3/, got: $(head -n 3 <<<"$errors")"
}
broken "an undeclared field" '.variants[0].extra = 1' "field 'extra' is not in the schema"
broken "a missing figure" 'del(.variants[1].balance)' "no field 'balance'"
broken "a string for a count" '.variants[0].games = "4"' 'games: string, expected integer'
broken "a rate above 1" '.variants[0].draw_rate.rate = 1.5' 'rate: above 1'
broken "a bad hash" '.variants[0].hash = "xyz"' 'does not match'
broken "an unknown phase" '.variants[0].endings[0].phase = "middle"' 'not in'
broken "a failed ruleset without its error" 'del(.variants[3].error)' "no field 'error'"
broken "an option value that is not text" '.variants[1].options.fouls = 1' 'expected string'
broken "a p-value above 1" '.tests.list[0].p = 2' 'p: above 1'
broken "a test without its adjusted p" 'del(.tests.list[0].p_adjusted)' "no field 'p_adjusted'"
jq 'del(.skill.rulesets[0].levels[0].budget)' "$tmp/c.json" >"$tmp/x.json"
grep -q "no field 'budget'" <<<"$(jq -n -r --slurpfile s "$schema" --slurpfile d "$tmp/x.json" -f "$checker")"
check "refused: a level without its budget" $?
jq '.skill.rulesets[0].steps[0].rate = 1.5' "$tmp/c.json" >"$tmp/x.json"
grep -q "rate: above 1" <<<"$(jq -n -r --slurpfile s "$schema" --slurpfile d "$tmp/x.json" -f "$checker")"
check "refused: a step's rate above 1" $?

# with python3's jsonschema (Debian python3-jsonschema) at hand, the same
# runs against the full draft 2020-12 validator
if python3 -c 'import jsonschema' 2>/dev/null; then
    for f in a b c; do
        python3 - "$schema" "$tmp/$f.json" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
jsonschema.validate(json.load(open(sys.argv[2])), schema)
PY
        same "jsonschema: run $f conforms" 0 $?
    done
fi

cli_end
