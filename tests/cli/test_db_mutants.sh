#!/usr/bin/env bash
# test_db_mutants.sh - a playout database is untrusted input (issue 19,
# docs/robustness.md).  Starting from a valid database (two runs: one with
# setup plies, one whose Lua effect fires), every column of every table is
# changed in turn to NULL, a blob, a negative number, an overflowing
# integer, text, a huge real, text with a newline and a 100 KB text, and
# compare --report, export and merge run on each copy.  Each must exit 0
# or 2 (never crash: the sanitized build runs this too); the mutants that
# break a column's type or range must be refused with exit 2 and a message
# naming the database, the table, the row and the column.  Then the
# whole-file cases: views, triggers, a merge into itself (also through a
# link), a database in a folder the user cannot write.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
command -v sqlite3 >/dev/null || { echo "test_db_mutants: sqlite3 not installed (scripts/setup)"; exit 1; }

opts=(--games 4 --max-plies 60)
base=$tmp/base.db
"$tiers" playout "$variants/kings-dice" "${opts[@]}" --db "$base" >/dev/null &&
    "$tiers" playout "$variants/duel-setup" "${opts[@]}" --db "$base" >/dev/null ||
    { echo "FAIL: cannot make the base database"; exit 1; }
q() { sqlite3 "$1" "$2"; }
setup_run=$(q "$base" "SELECT run FROM runs WHERE variant = 'duel-setup'")
# the rows changed: the duel-setup run; its game with setup and play plies
# that ended (not cut); a kings-dice effect row
run_row=$(q "$base" "SELECT rowid FROM runs WHERE run = '$setup_run'")
game_row=$(q "$base" "SELECT rowid FROM games WHERE run = '$setup_run' AND setup_plies > 0
                      AND plies > setup_plies ORDER BY game LIMIT 1")
effect_row=$(q "$base" "SELECT rowid FROM effects WHERE count > 0 OR prevented > 0 LIMIT 1")
face_row=$(q "$base" "SELECT rowid FROM faces WHERE run = '$setup_run' AND moves > 0 LIMIT 1")
same "base database has a game with setup plies" 1 "$([[ -n $game_row ]] && echo 1)"
same "base database has an effect row" 1 "$([[ -n $effect_row ]] && echo 1)"
same "base database has a face row" 1 "$([[ -n $face_row ]] && echo 1)"

columns() { q "$base" "SELECT name FROM pragma_table_info('$1') ORDER BY cid"; }

# kind -> SQL value
declare -A value=(
    [null]="NULL" [blob]="X'00ff'" [negative]="-1" [overflow]="9223372036854775807"
    [text]="'x'" [real]="1e300" [newline]="'a' || char(10) || 'b'"
    [long]="replace(hex(zeroblob(50000)), '00', 'ab')")
kinds=(null blob negative overflow text real newline long)

# runs CMD... on db $m, leaving $tmp/err; prints the exit code
run_on() {
    "$tiers" "$@" >/dev/null 2>"$tmp/err"
    echo $?
}

# The suite runs as MUTANT_PART=K/N parts side by side (tests/CMakeLists.txt):
# mutant i in part i mod N + 1, the whole-file cases in part 1.
part=${MUTANT_PART:-1/1}
part_k=${part%/*} part_n=${part#*/} mutant_i=0

# mutant TABLE ROWID COLUMN KIND: checks every command on the mutant
mutant() {
    mutant_i=$((mutant_i + 1))
    (((mutant_i - 1) % part_n + 1 == part_k)) || return 0
    local table=$1 row=$2 col=$3 kind=$4 m=$tmp/m.db name="$1.$3=$4"
    rm -f "$tmp"/m.db* "$tmp"/out.db* "$tmp/r.html"; rm -rf "$tmp/x"
    cp "$base" "$m"
    if [[ $table == meta ]]; then
        q "$m" "UPDATE meta SET value = ${value[$kind]} WHERE key = 'schema'" || return
    else
        q "$m" "UPDATE $table SET $col = ${value[$kind]} WHERE rowid = $row" 2>/dev/null ||
            return # refused by a constraint: nothing to test
    fi
    # which commands must refuse it: a type or range break on a column the
    # command reads (strict); any other change may be accepted
    local strict=0 int=0
    case $kind in null | blob) strict=1 ;; esac
    # NULL is a valid winner (a draw) and may be a valid first_side
    [[ $kind == null && $table.$col =~ ^games\.(winner|first_side)$ ]] && strict=0
    # schema 2's figures and effect kinds are NULL in rows of schema 1
    [[ $kind == null && $table.$col =~ ^(games\.(coverage|repetition|lead_change|drama|decision_point|stability|hook_ended)|effects\.(prevented|ended))$ ]] &&
        strict=0
    # a figure is a number in [0, 1]
    [[ $table.$col =~ ^games\.(coverage|repetition|lead_change|drama|decision_point|stability)$ &&
        $kind =~ ^(negative|overflow|text|real)$ ]] && strict=1
    is_int "$table.$col" && int=1
    [[ $int == 1 && $kind =~ ^(negative|overflow|text|real)$ ]] && strict=1
    # a seed is any 64-bit integer
    [[ $col == seed && $kind =~ ^(negative|overflow)$ ]] && strict=0
    [[ $table.$col == games.seconds && $kind =~ ^(text|real|negative)$ ]] && strict=1
    [[ $table.$col =~ ^(games|runs)\.(variant|reason|options|agent0|agent1|side0|side1|finished)$ &&
        $kind =~ ^(newline|long)$ ]] && strict=1
    [[ $table == meta && $kind != text ]] && strict=1
    local cmd rc want pattern="database '$m'"
    [[ $table != meta ]] && pattern="database '$m', table $table, row $row.*column $col"
    [[ $table == meta ]] && pattern="'$m'.*(schema|meta)"
    for cmd in merge export compare; do
        case $cmd in
            merge) rc=$(run_on merge -o "$tmp/out.db" "$m") ;;
            export) rc=$(run_on export duel-setup --db "$m" --variants "$variants" -o "$tmp/x") ;;
            compare) rc=$(run_on compare "$variants/duel-setup" "$variants/kings-dice" "${opts[@]}" \
                            --db "$m" --report "$tmp/r.html") ;;
        esac
        # whether this command reads the changed value at all
        local reads=1
        case $cmd.$table.$col in
            export.effects.*) reads=0 ;;
            compare.runs.*) reads=0 ;;
            export.games.run | export.games.game | compare.games.run | compare.games.game) reads=0 ;;
            compare.effects.run | compare.effects.game) reads=0 ;;
            export.faces.*) reads=0 ;;
            compare.faces.run | compare.faces.game) reads=0 ;;
        esac
        [[ $cmd == export && $table == games && $row != "$game_row" ]] && reads=0
        case_begin
        if grep -Eq 'Sanitizer|runtime error' "$tmp/err" || [[ $rc != 0 && $rc != 2 ]]; then
            fail "$name: $cmd exits $rc"
            head -n 3 "$tmp/err" | sed 's/^/    /'
        elif [[ $strict == 1 && $reads == 1 ]]; then
            if [[ $rc != 2 ]] || ! grep -Eq -- "$pattern" "$tmp/err"; then
                fail "$name: $cmd exits $rc, expected 2 and /$pattern/"
                head -n 3 "$tmp/err" | sed 's/^/    /'
            fi
        fi
        case_end
    done
}

# the kinds that matter for a column: NULL and a blob for every one,
# numbers and text for integer columns, control characters and length for
# text columns (TIERS_QUICK: one of each)
is_int() {
    case $1 in
        runs.seed | games.seed | games.game | games.winner | games.cut | games.plies | \
        games.setup_plies | games.first_side | games.captures | games.drops | \
        games.placements | games.stacks | games.legal_sum | games.legal_plies | \
        games.seconds | effects.game | effects.count | runs.max_plies | games.hook_ended | \
        effects.prevented | effects.ended | faces.game | faces.moves | faces.captures | \
        faces.captured | faces.drops | faces.mates | \
        games.coverage | games.repetition | games.lead_change | games.drama | \
        games.decision_point | games.stability) return 0 ;;
    esac
    return 1
}
kinds_for() {
    if [[ -n ${TIERS_QUICK:-} ]]; then
        is_int "$1" && echo null blob overflow || echo null blob newline
    else
        is_int "$1" && echo null blob negative overflow text real || echo null blob newline long
    fi
}
for table in runs games effects faces; do
    case $table in
        runs) row=$run_row ;;
        games) row=$game_row ;;
        effects) row=$effect_row ;;
        faces) row=$face_row ;;
    esac
    for col in $(columns $table); do
        for kind in $(kinds_for "$table.$col"); do
            mutant "$table" "$row" "$col" "$kind"
        done
    done
done
for kind in $(kinds_for meta.value); do
    mutant meta 0 value "$kind"
done

((part_k == 1)) || cli_end

# ---- agreements within a row (each value alone is in range)
agree() { # NAME SQL PATTERN: every reader refuses the game row
    local name=$1 sql=$2 pattern=$3 m=$tmp/m.db
    rm -f "$tmp"/m.db* "$tmp"/out.db* "$tmp/r.html"; rm -rf "$tmp/x"
    cp "$base" "$m"
    q "$m" "UPDATE games SET $sql WHERE rowid = $game_row"
    expect "$name (merge)" 2 - "table games, row $game_row.*$pattern" -- merge -o "$tmp/out.db" "$m"
    expect "$name (export)" 2 - "table games, row $game_row.*$pattern" -- \
        export duel-setup --db "$m" --variants "$variants" -o "$tmp/x"
    expect "$name (compare --report)" 2 - "table games, row $game_row.*$pattern" -- \
        compare "$variants/duel-setup" "${opts[@]}" --db "$m" --report "$tmp/r.html"
}
agree "setup_plies over plies" "setup_plies = plies + 1" "setup_plies"
agree "plies over the run's max_plies" "plies = 61" "max_plies"
agree "the repro of issue 19" "setup_plies = 2000000000" "setup_plies"
agree "legal_plies not plies - setup_plies" "legal_plies = legal_plies + 1" "legal_plies"
agree "winner against the result" "winner = 0, result = '0-1'" "winner|result"
agree "a move too many" "moves = moves || ' a1-a2'" "moves"
agree "legal counts too few" "legal = '1'" "legal"
agree "legal count out of range" "legal = replace(legal, ' ', ' 99999 ')" "legal"
agree "legal_sum over legal_plies times the move limit" "legal_sum = 4097 * legal_plies" "legal_sum"
agree "a NUL byte in the moves" "moves = CAST(moves || char(0) || 'x' AS TEXT)" "moves"
agree "result not a result" "result = '2-0'" "result"
agree "cut with a result" "cut = 1, result = '1-0', winner = 0" "cut|result"
agree "captures over legal_plies" "captures = legal_plies + 1" "captures"
[[ ! -f $tmp/r.html ]]
check "no report left after a refused database" $? "r.html exists"

# ---- whole-file cases
fresh() { rm -f "$tmp"/m.db* "$tmp"/out.db*; cp "$base" "$tmp/m.db"; }
fresh
q "$tmp/m.db" "ALTER TABLE games RENAME TO g2;
               CREATE VIEW games AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
               SELECT g2.* FROM g2, r"
expect "a recursive view as games: export" 2 - "view 'games'" -- \
    export --db "$tmp/m.db" --variants "$variants" -o "$tmp/x"
expect "a recursive view as games: merge" 2 - "view 'games'" -- merge -o "$tmp/out.db" "$tmp/m.db"
expect "a recursive view as games: compare" 2 - "view 'games'" -- \
    compare "$variants/duel-setup" "${opts[@]}" --db "$tmp/m.db"
fresh
q "$tmp/m.db" "CREATE TRIGGER t AFTER INSERT ON games BEGIN DELETE FROM runs; END"
expect "a trigger: playout refuses to write" 2 - "trigger 't'" -- \
    playout "$variants/duel-setup" --games 5 --max-plies 60 --db "$tmp/m.db"
expect "a trigger: merge refuses to read" 2 - "trigger 't'" -- merge -o "$tmp/out.db" "$tmp/m.db"
fresh
q "$tmp/m.db" "DROP TABLE effects"
expect "no table effects" 2 - "not a tiers playout database \\(no table 'effects'\\)" -- \
    export --db "$tmp/m.db" --variants "$variants" -o "$tmp/x"
fresh
cp "$base" "$tmp/o.db"
ln -s "$tmp/o.db" "$tmp/link.db"
SECONDS=0
expect "merge a file into itself through a link" 1 - "is both an input and the output" -- \
    merge -o "$tmp/o.db" "$tmp/link.db"
ln "$tmp/o.db" "$tmp/hard.db"
expect "merge a file into itself through a hard link" 1 - "is both an input and the output" -- \
    merge -o "$tmp/o.db" "$tmp/hard.db"
[[ $SECONDS -lt 20 ]]
check "self-merges end at once (no wait on the file's own lock)" $? "took ${SECONDS}s"
expect "merge -o onto a planted link is refused" 2 - "cannot open database" -- \
    merge -o "$tmp/link.db" "$tmp/m.db"

# ---- a database in a folder the user cannot write, read by another user
# (root ignores permissions: the check runs as nobody when we are root)
if [[ $(id -u) == 0 ]] && command -v runuser >/dev/null && runuser -u nobody -- true 2>/dev/null; then
    ro=$(mktemp -d /tmp/tiers-ro.XXXXXX)
    cp "$base" "$ro/p.db"
    chmod 755 "$ro"; chmod 644 "$ro/p.db"
    out=$(mktemp -d /tmp/tiers-rw.XXXXXX); chmod 777 "$out"
    before=$(ls -A "$ro" | tr '\n' ' ')
    runuser -u nobody -- "$tiers" export duel-setup --db "$ro/p.db" --variants "$variants" \
        -o "$out/x" >/dev/null 2>"$tmp/err"
    check "export by another user from a read-only folder" $? "$(head -n 2 "$tmp/err")"
    same "export as nobody wrote all the records" 4 "$(ls "$out/x" 2>/dev/null | wc -l)"
    runuser -u nobody -- "$tiers" merge -o "$out/m.db" "$ro/p.db" >/dev/null 2>"$tmp/err"
    check "merge by another user from a read-only folder" $? "$(head -n 2 "$tmp/err")"
    same "read-only reading left the folder as it was" "$before" "$(ls -A "$ro" | tr '\n' ' ')"
    rm -rf "$ro" "$out"
fi
cli_end
