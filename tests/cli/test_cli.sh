#!/usr/bin/env bash
# End-to-end tests of the tiers CLI on shipped variants and on the test
# variant (tests/data/variants/features): show, moves (sorted, --count,
# --json), apply (good and bad moves, exit codes 0 and 2), perft --divide
# (the divide sums to the total), moves --batch (plain lines, JSON lines,
# a bad line, '-' for stdin), --rule, --variants DIR and
# TIERS_VARIANT_PATH, and check of a bad YAML file (exit 2, file:line:col).
# Usage: bash test_cli.sh TIERS-BINARY TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
export LC_ALL=C
variants=$tests/data/variants
features=$variants/features

# ------------------------------------------------------------ show

run show gounki
expect_rc "show" 0 &&
    expect_grep "show board" out '^ 8  r s r s r s r s$' &&
    expect_grep "show files" out '^    a b c d e f g h$' &&
    expect_grep "show position" out '^position: rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR - w - 0 0$' &&
    expect_grep "show side" out '^side to move: white$' &&
    expect_grep "show phase" out '^phase: play$' &&
    expect_grep "show over" out '^game over: no$'

# A tower is drawn bottom to top with ':' (features: white stone under a
# black gold on c3).
run show "$features" --position "5/5/2[S:g]2/5/K4 - b - 3 9"
expect_rc "show tower" 0 &&
    expect_grep "show tower cell" out '^ 3  \. +\. +S:g +\. +\.' &&
    expect_grep "show tower side" out '^side to move: black$' &&
    expect_grep "show tower ply" out '^features, ply 9$'

run show gounki --json
expect_rc "show json" 0 &&
    expect_grep "show json variant" out '"variant": ?"gounki"' &&
    expect_grep "show json files" out '"files": ?8'

run show "$features" --position "5/5/2X2/5/5 - w - 0 0"
expect_rc "show bad position" 2 && expect_grep "show bad position message" err "bad piece token"

# ------------------------------------------------------------ moves

# The features start, listed by hand (see test_position.c: 26 moves).
start_moves="a1^a2 a1^b1 a1^b2 b1-d3 b2-a3 b2-b3 b2-c2 b2-c3 b2^a2 b2^b1 c1-c3 d1-d3 d1^d4
d1xd4 d2-d3 d2-e3 d2^b2 d2^d4 d2^e2 d2xd4 e1^d1 e1^e2 e2-d3 e2-e3 e2^d2 e2^e1"
run moves "$features"
expect_rc "moves" 0 && expect_out "moves features start" "$(tr ' \n' '\n\n' <<<"$start_moves")"

run moves "$features" --count
expect_rc "moves count" 0 && expect_out "moves count" "26"

# Sorted by byte order, one per line, the count agrees: gounki's start.
run moves gounki
expect_rc "moves gounki" 0
cp "$tmp/out" "$tmp/gounki_moves"
if ! sort -c "$tmp/gounki_moves" 2>/dev/null; then fail "moves gounki: not sorted"; fi
run moves gounki --count
expect_rc "moves gounki count" 0 && expect_out "moves gounki count" "$(wc -l <"$tmp/gounki_moves" | tr -d ' ')"

run moves "$features" --json --position "5/5/5/5/R4 - w - 0 0"
expect_rc "moves json" 0 &&
    expect_grep "moves json list" out '"moves": ?\["a1-a2", ?"a1-a3", ?"a1-b1", ?"a1-c1"\]' &&
    expect_grep "moves json over" out '"game_over": ?false'

# A finished game: no moves; checkmate in the royal sibling.
run moves "$variants/features-royal" --json --position "4k/5/2g2/1g3/K4 - w - 0 0"
expect_rc "moves mate" 0 &&
    expect_grep "moves mate list" out '"moves": ?\[\]' &&
    expect_grep "moves mate check" out '"in_check": ?true' &&
    expect_grep "moves mate result" out '"result": ?"0-1"' &&
    expect_grep "moves mate reason" out '"reason": ?"checkmate"'

# A dialect the variant offers, and one it does not.
run moves gungi-io --notation gungijs --count
expect_rc "moves dialect" 0 && expect_grep "moves dialect count" out '^[0-9]+$'
run moves gounki --notation nosuch
expect_rc "moves unknown notation" 2 && expect_grep "moves unknown notation message" err "nosuch"

# ------------------------------------------------------------ apply

run apply "$features" b2-c3
expect_rc "apply" 0 &&
    expect_grep "apply position" out '^position: rnhlk/cd1gs/2G2/S2DC/KLHNR - b - 1 1$' &&
    expect_grep "apply side" out '^side to move: black$'

# Black's hopper jumps onto the gold: a stack (quiet: clock 2), black
# passed the turn once (move=1).
run apply "$features" b2-c3 'c5^c3'
expect_rc "apply two" 0 &&
    expect_grep "apply two position" out '^position: rn1lk/cd1gs/2\[G:h\]2/S2DC/KLHNR - w - 2 2 move=1$'
# ... never a plain move.
run apply "$features" b2-c3 c5-c3
expect_rc "apply two bad" 2 && expect_grep "apply two bad message" err "move 2 'c5-c3'"

run apply "$features" b2-c4
expect_rc "apply illegal" 2 && expect_grep "apply illegal message" err "move 1 'b2-c4'"
run apply "$features" b2-c3 zz
expect_rc "apply second bad" 2 && expect_grep "apply second bad message" err "move 2 'zz'"
run apply "$features" --json b2-c3
expect_rc "apply json" 0 &&
    expect_grep "apply json" out '"position": ?"rnhlk/cd1gs/2G2/S2DC/KLHNR - b - 1 1"' &&
    expect_grep "apply json ply" out '"ply": ?1'
# After the game ended (an exit), no move is legal.
run apply "$variants/features-stack" --position "2G2/5/5/5/g4 - w - 0 0" c5-out a1-a2
expect_rc "apply after end" 2 && expect_grep "apply after end message" err "move 2 'a1-a2'"
run apply "$variants/features-stack" --position "2G2/5/5/5/g4 - w - 0 0" c5-out
expect_rc "apply exit" 0 &&
    expect_grep "apply exit over" out '^game over: yes$' &&
    expect_grep "apply exit result" out '^result: 1-0$' &&
    expect_grep "apply exit reason" out '^reason: exit$'

# ------------------------------------------------------------ perft

# perft --divide: one line per root move, each count summing to the total.
for spec in gounki "$features"; do
    run perft "$spec" 3 --divide
    if expect_rc "perft divide $spec" 0; then
        total=$(sed -nE 's/^perft 3: ([0-9]+) leaves$/\1/p' "$tmp/out")
        sum=$(awk 'NF == 2 && $2 ~ /^[0-9]+$/ && $1 != "moves:" { s += $2 } END { print s + 0 }' "$tmp/out")
        roots=$(awk 'NF == 2 && $2 ~ /^[0-9]+$/ && $1 != "moves:" { n++ } END { print n + 0 }' "$tmp/out")
        [[ -n $total && $total -eq $sum ]] || fail "perft divide $spec: divide sums to $sum, total '$total'"
        grep -q "^moves: $roots\$" "$tmp/out" || fail "perft divide $spec: 'moves: $roots' missing"
        run perft "$spec" 3
        grep -q "^perft 3: $total leaves\$" "$tmp/out" || fail "perft $spec: without --divide not $total"
    fi
done
# Depth 1 of the features start is the 26 moves above.
run perft "$features" 1
expect_rc "perft 1" 0 && expect_grep "perft 1 count" out '^perft 1: 26 leaves$'

# ------------------------------------------------------------ batch

# Plain lines, a JSON object (other fields ignored), a blank line
# (skipped), a bad line (an error object, and the batch carries on),
# another plain line; exit 2 because one line failed.
cat >"$tmp/batch" <<'EOF'
5/5/5/5/R4 - w - 0 0
{"position": "5/5/5/5/[S:S:R]4 - w - 0 0", "id": 7}

5/5/2X2/5/5 - w - 0 0
4k/5/2g2/1g3/K4 - w - 0 0
EOF
run moves "$features" --batch "$tmp/batch"
expect_rc "batch file" 2
if [[ $(wc -l <"$tmp/out") -ne 4 ]]; then fail "batch file: $(wc -l <"$tmp/out") lines, expected 4"; fi
sed -n 1p "$tmp/out" >"$tmp/l1"; sed -n 2p "$tmp/out" >"$tmp/l2"
sed -n 3p "$tmp/out" >"$tmp/l3"; sed -n 4p "$tmp/out" >"$tmp/l4"
grep -Eq '"position": ?"5/5/5/5/R4 - w - 0 0"' "$tmp/l1" &&
    grep -Eq '"moves": ?\["a1-a2", ?"a1-a3", ?"a1-b1", ?"a1-c1"\]' "$tmp/l1" ||
    fail "batch line 1: $(cat "$tmp/l1")"
grep -Eq '"moves": ?\["a1-a2", ?"a1-a3", ?"a1-a4", ?"a1-a5", ?"a1-b1", ?"a1-c1", ?"a1-d1", ?"a1-e1"\]' "$tmp/l2" ||
    fail "batch line 2 (JSON input): $(cat "$tmp/l2")"
grep -Eq '"error": ?"line 4: .*bad piece token' "$tmp/l3" &&
    grep -Eq '"position": ?"5/5/2X2/5/5 - w - 0 0"' "$tmp/l3" ||
    fail "batch line 3 (bad line): $(cat "$tmp/l3")"
# (in features the king is not royal: no check, it may take or climb)
grep -Eq '"moves": ?\["a1-a2", ?"a1-b1", ?"a1\^b2", ?"a1xb2"\]' "$tmp/l4" &&
    grep -Eq '"in_check": ?false' "$tmp/l4" ||
    fail "batch line 4 (after the bad one): $(cat "$tmp/l4")"

# The same from standard input with '-': the same output.
cp "$tmp/out" "$tmp/batch_out"
cp "$tmp/batch" "$tmp/in"
run moves "$features" --batch -
expect_rc "batch stdin" 2
cmp -s "$tmp/out" "$tmp/batch_out" || fail "batch stdin: output differs from the file's"

# All lines good: exit 0; the royal variant reports check.
printf '%s\n' '4k/5/5/1g3/K4 - w - 0 0' >"$tmp/in"
run moves "$variants/features-royal" --batch -
expect_rc "batch good" 0 &&
    expect_grep "batch good moves" out '"moves": ?\["a1\^b2", ?"a1xb2"\]' &&
    expect_grep "batch good check" out '"in_check": ?true'

# ------------------------------------------------------------ --rule

stackpos="5/5/1S[S:S:S]W1/1[s:s]G[s:s:s]1/5 - w - 0 0"
run moves "$features" --position "$stackpos"
expect_rc "rule default" 0 && expect_out "rule default" "$(printf '%s\n' c2-c1 'c2^b2' 'c2^b3' c2xb2 c2xd2)"
run moves "$features" --position "$stackpos" --rule capture=none
expect_rc "rule capture=none" 0 && expect_out "rule capture=none" "$(printf '%s\n' c2-c1 'c2^b2' 'c2^b3')"
run moves "$features" --position "$stackpos" --rule stack_own=false --rule stack_enemy=false
expect_rc "rule twice" 0 && expect_out "rule twice" "$(printf '%s\n' c2-c1 c2xb2 c2xd2)"
run moves "$features" --rule capture=sideways
expect_rc "rule bad value" 2 && expect_grep "rule bad value message" err "capture"
run moves "$features" --rule nosuchrule=1
expect_rc "rule unknown" 2 && expect_grep "rule unknown message" err "nosuchrule"

# ------------------------------------------------------------ search path

run moves features --count
expect_rc "name not on the path" 2 && expect_grep "name not on the path message" err "features"
run moves features --count --variants "$variants"
expect_rc "--variants" 0 && expect_out "--variants" "26"
cases=$((cases + 1))
TIERS_VARIANT_PATH="$tmp/none:$variants" "$tiers" moves features --count >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc "TIERS_VARIANT_PATH" 0 && expect_out "TIERS_VARIANT_PATH" "26"
run variants --variants "$variants"
expect_rc "variants --variants" 0 &&
    expect_grep "variants lists features" out '^features +test variant: every generic engine feature' &&
    expect_grep "variants lists gounki" out '^gounki '
# Listing reads the YAML and runs no script: a variant whose script fails
# is listed with its description; check loads it whole and reports it.
mkdir -p "$tmp/lst/broken" "$tmp/lst/badyaml"
printf 'inherits: %s\nname: broken\ndescription: broken script\nscripts: [boom.lua]\n' \
    "$features/variant.yaml" >"$tmp/lst/broken/variant.yaml"
echo 'error("boom at load")' >"$tmp/lst/broken/boom.lua"
printf 'board: [\n' >"$tmp/lst/badyaml/variant.yaml"
run variants --variants "$tmp/lst"
expect_rc "variants with a broken script" 0 &&
    expect_grep "variants lists the broken script's variant" out '^broken +broken script' &&
    expect_grep "variants reports bad YAML" out '^badyaml +\(does not load: '
run check broken --variants "$tmp/lst"
expect_rc "check runs the scripts" 2 &&
    expect_grep "check names the script error" err 'boom.lua:1: boom at load'
# A child found by name inherits its parent by a relative path.
run check features-pseudo --variants "$variants" --games 0 # load only
expect_rc "check by name" 0 && expect_out "check by name" "ok: features-pseudo (5x5, 3 tiers)"

# ------------------------------------------------------------ check

run check "$features" --games 0
expect_rc "check good" 0 && expect_out "check good" "ok: features (5x5, 3 tiers)"
run check gounki --games 0
expect_rc "check shipped" 0 && expect_out "check shipped" "ok: gounki (8x8, 3 tiers)"

# A misspelt key on line 3, column 1.
cat >"$tmp/bad.yaml" <<'EOF'
name: bad
board: {files: 3, ranks: 3, max_tiers: 2}
bord: {files: 3}
faces:
  king: {symbol: K, moves: [{step: all8}]}
tiles:
  - {name: king, front: king, count: 1}
EOF
run check "$tmp/bad.yaml"
expect_rc "check bad yaml" 2 &&
    expect_grep "check bad yaml message" err "bad\.yaml:3:1: unknown key 'bord' at top level"
# An unknown offset set: line 5, column 36 ('all9').
sed -i 's/bord: {files: 3}/description: "x"/; s/all8/all9/' "$tmp/bad.yaml"
run check "$tmp/bad.yaml"
expect_rc "check bad set" 2 &&
    expect_grep "check bad set message" err "bad\.yaml:5:36: unknown offset set 'all9'"
# The shipped bad-YAML corpus: one of its files.
run check "$tests/data/bad_yaml/unknown_key.yaml"
expect_rc "check corpus" 2 && expect_grep "check corpus message" err "unknown_key\.yaml:8:3: unknown key 'stak_own' in rules"
# A start position that does not read: found when the first position is
# made, told at the start: text's line and column (an inherited start, or
# a mode's own, at the file it came from).
mkdir -p "$tmp/badstart"
printf 'name: badstart\ninherits: %s\nstart: "zz/5 w"\n' "$tests/data/variants/duel" \
    >"$tmp/badstart/variant.yaml"
for cmd in check moves; do
    run "$cmd" "$tmp/badstart"
    expect_rc "$cmd: bad start" 2 &&
        expect_grep "$cmd: bad start at its line and column" err \
            "badstart/variant\.yaml:3:8: start: the start position of badstart does not read"
done
mkdir -p "$tmp/badstart2"
printf 'name: badstart2\ninherits: ../badstart/variant.yaml\n' >"$tmp/badstart2/variant.yaml"
run check "$tmp/badstart2"
expect_rc "inherited bad start" 2 &&
    expect_grep "inherited bad start: the parent's line" err "badstart/variant\.yaml:3:8: start:"

cli_end
