#!/usr/bin/env bash
# test_db_migrate.sh - a schema-1 playout database opened for writing is
# migrated once by replaying every stored game (issue 22, docs/cli.md "The
# database").  tests/data/schema1/duel-effects.sql (an SQL text dump, so
# that it can be read and diffed) holds 12 random games of duel-effects in
# schema 1 (made by tests/data/schema1/make.sh): after
# `playout` opens it, each game's figures, effect counts (fired,
# prevented, ended) and face rows must equal those of the same games
# played fresh under schema 2.  A variant that changed since, moves that
# no longer replay and a failing migration (left schema 1) are checked
# too, and `ended` goes to the effect whose result hook ended the game
# though its reason ("king crowned") is not the effect's name.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
command -v sqlite3 >/dev/null || { echo "test_db_migrate: sqlite3 not installed (scripts/setup)"; exit 1; }

old=$tmp/old.db
sqlite3 "$old" <"$tests/data/schema1/duel-effects.sql" ||
    { echo "FAIL: cannot build the schema-1 file from its dump"; exit 1; }
args=(duel-effects --games 12 --seed 7 --side0 random --side1 random)
q() { sqlite3 "$1" "$2"; }
key=$(q "$old" "SELECT run FROM runs")

# the fresh games, schema 2
"$tiers" playout "${args[@]}" --variants "$variants" --db "$tmp/new.db" >/dev/null ||
    { echo "FAIL: cannot play the fresh games"; exit 1; }
same "the stored file is schema 1" 1 "$(q "$old" "SELECT value FROM meta WHERE key = 'schema'")"
same "fresh: the games stored are the schema-1 file's, move for move" 12 \
    "$(q "$tmp/new.db" "ATTACH '$old' AS o; SELECT count(*) FROM games n JOIN o.games g
                        ON n.game = g.game AND n.moves = g.moves AND n.result = g.result")"

# `ended`: the effect whose result hook ended the game, whatever its reason
crowned=$(q "$tmp/new.db" "SELECT count(*) FROM games WHERE reason = 'king crowned'")
check "fresh: some games end by the crown hook" "$((crowned > 0 ? 0 : 1))" "none did"
same "fresh: ended counts the crown effect (reason 'king crowned')" "$crowned" \
    "$(q "$tmp/new.db" "SELECT sum(ended) FROM effects WHERE name = 'crown'")"
same "fresh: no other effect ended a game" 0 \
    "$(q "$tmp/new.db" "SELECT sum(ended) FROM effects WHERE name <> 'crown'")"
same "fresh: hook_ended on exactly the crowned games" "$crowned" \
    "$(q "$tmp/new.db" "SELECT count(*) FROM games WHERE hook_ended = 1")"

# migrating a copy: playout finds the 12 games stored and plays none
cp "$old" "$tmp/m.db"
expect "playout migrates a schema-1 file" 0 "0 played now, 12 already stored" \
    "migrated '.*m\.db' to schema 2: 12 of 12 games replayed$" -- \
    playout "${args[@]}" --variants "$variants" --db "$tmp/m.db"
same "migrated: schema 2" 2 "$(q "$tmp/m.db" "SELECT value FROM meta WHERE key = 'schema'")"
agree() {
    q "$tmp/m.db" "ATTACH '$tmp/new.db' AS n; $1"
}
same "migrated: every figure equals the fresh game's" 12 "$(agree "
    SELECT count(*) FROM games m JOIN n.games g ON m.game = g.game
    WHERE m.coverage IS g.coverage AND m.repetition IS g.repetition
      AND m.lead_change IS g.lead_change AND m.drama IS g.drama
      AND m.decision_point IS g.decision_point AND m.stability IS g.stability
      AND m.hook_ended IS g.hook_ended AND m.coverage IS NOT NULL
      AND m.hook_ended IS NOT NULL")"
same "migrated: effects fired, prevented, ended equal the fresh game's" \
    "$(q "$tmp/new.db" "SELECT count(*) FROM effects")" "$(agree "
    SELECT count(*) FROM effects m JOIN n.effects g ON m.game = g.game AND m.name = g.name
    WHERE m.count IS g.count AND m.prevented IS g.prevented AND m.ended IS g.ended")"
same "migrated: some plies were prevented, some effects fired and ended" 1 "$(q "$tmp/m.db" "
    SELECT sum(prevented) > 0 AND sum(count) > 0 AND sum(ended) = $crowned FROM effects")"
same "migrated: the face rows equal the fresh game's" \
    "$(q "$tmp/new.db" "SELECT count(*) FROM faces") $(q "$tmp/new.db" "SELECT count(*) FROM faces")" \
    "$(q "$tmp/m.db" "SELECT count(*) FROM faces") $(agree "
    SELECT count(*) FROM faces m JOIN n.faces g ON m.game = g.game AND m.face = g.face
    WHERE m.moves = g.moves AND m.captures = g.captures AND m.captured = g.captured
      AND m.drops = g.drops AND m.mates = g.mates")"
expect "migrated once: the next open says nothing" 0 "12 already stored" - -- \
    playout "${args[@]}" --variants "$variants" --db "$tmp/m.db"
check "migrated once: no second migration line" "$(grep -c migrated "$tmp/err")" \
    "$(cat "$tmp/err")"

# a variant changed since the games were played: its games stay unknown
mkdir -p "$tmp/v"
cp -r "$variants/duel" "$variants/duel-effects" "$tmp/v/"
echo "-- changed" >>"$tmp/v/duel-effects/effects.lua"
cp "$old" "$tmp/c.db"
expect "changed variant: the games stay unknown, one line says why" 0 - \
    "migrated .* 0 of 12 games replayed; 12 left unknown \(12 variant changed since \(content hash differs\): duel-effects: hash [0-9a-f]{16} now, [0-9a-f]{16} when played\)$" -- \
    playout "${args[@]}" --variants "$tmp/v" --db "$tmp/c.db" 
same "changed variant: schema 2, the stored games' figures NULL" "2 12 0 0" "$(q "$tmp/c.db" "
    SELECT (SELECT value FROM meta WHERE key = 'schema') || ' ' ||
           (SELECT count(*) FROM games WHERE run = '$key' AND coverage IS NULL
                                         AND hook_ended IS NULL) || ' ' ||
           (SELECT count(*) FROM effects WHERE run = '$key' AND prevented IS NOT NULL) || ' ' ||
           (SELECT count(*) FROM faces WHERE run = '$key')")"
same "changed variant: one message line" 1 "$(wc -l <"$tmp/err")"

# a variant that is not found: its games stay unknown
mkdir -p "$tmp/none"
cp "$old" "$tmp/n.db"
expect "variant not found: the games stay unknown, one line says why" 0 - \
    "migrated .* 0 of 12 games replayed; 12 left unknown \(12 variant not loaded: .*duel-effects.*not found" -- \
    playout "$variants/duel" --games 1 --db "$tmp/n.db" --variants "$tmp/none"
same "variant not found: schema 2, the stored games' figures NULL" "2 12" "$(q "$tmp/n.db" "
    SELECT (SELECT value FROM meta WHERE key = 'schema') || ' ' ||
           (SELECT count(*) FROM games WHERE run = '$key' AND hook_ended IS NULL)")"

# a game whose moves no longer replay: game 0's first two moves swapped
# (Black's reply made by White: illegal; the row itself stays valid)
cp "$old" "$tmp/b.db"
swapped=$(q "$old" "SELECT moves FROM games WHERE game = 0" | awk '{t = $1; $1 = $2; $2 = t} 1')
q "$tmp/b.db" "UPDATE games SET moves = '$swapped' WHERE game = 0"
expect "moves that do not replay: that game stays unknown" 0 - \
    "11 of 12 games replayed; 1 left unknown \(1 moves no longer replay: duel-effects game 0\)$" -- \
    playout "${args[@]}" --variants "$variants" --db "$tmp/b.db" 
same "moves that do not replay: game 0 NULL, the others filled" "0 11" "$(q "$tmp/b.db" "
    SELECT group_concat(game) || ' ' ||
           (SELECT count(*) FROM games WHERE coverage IS NOT NULL)
    FROM games WHERE hook_ended IS NULL")"

# a migration that fails half way rolls back: the file is schema 1 still
cp "$old" "$tmp/f.db"
q "$tmp/f.db" "INSERT INTO runs SELECT 'ffffffffffffffff', variant, variant_hash, options,
               agent0, agent1, side0, side1, seed, -5, effects, tiers_version, created
               FROM runs"
expect "a failing migration exits 2" 2 - "f\.db.*table runs.*max_plies" -- \
    playout "${args[@]}" --variants "$variants" --db "$tmp/f.db" 
same "a failing migration leaves schema 1, no new column or table" "1 0 0" "$(q "$tmp/f.db" "
    SELECT (SELECT value FROM meta WHERE key = 'schema') || ' ' ||
           (SELECT count(*) FROM pragma_table_info('games') WHERE name = 'coverage') || ' ' ||
           (SELECT count(*) FROM sqlite_master WHERE name = 'faces')")"

# read-only opens of a schema-1 file still work (figures unknown)
expect "export reads a schema-1 file unchanged" 0 - - -- \
    export --db "$old" --variants "$variants" -o "$tmp/rec"
same "export: the schema-1 file is unchanged" 1 "$(q "$old" "SELECT value FROM meta WHERE key = 'schema'")"

cli_end
