#!/usr/bin/env bash
# make.sh - rebuilds duel-effects.sql, the text dump of the schema-1 playout
# database of
# tests/cli/test_db_migrate.sh: 12 random-against-random games of the
# test variant duel-effects (seed 7), played by this build (schema 2),
# then copied into a file of schema 1 (schema1.sql) as a schema-1 build
# would have stored them.  Usage: tests/data/schema1/make.sh [TIERS-BINARY]
# (default build/tiers).  Rebuild it only when the stored games must
# change (the test then checks the migration against a fresh playout of
# the same games).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
tiers=${1:-$root/build/tiers}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$tiers" playout duel-effects --variants "$root/tests/data/variants" --games 12 --seed 7 \
    --side0 random --side1 random --db "$tmp/new.db" >/dev/null
sqlite3 "$tmp/new.db" "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;" >/dev/null
sqlite3 "$tmp/old.db" "ATTACH '$tmp/new.db' AS new;" ".read $here/schema1.sql"
sqlite3 "$tmp/old.db" .dump >"$here/duel-effects.sql"
echo "wrote $here/duel-effects.sql: $(sqlite3 "$tmp/old.db" "SELECT count(*) FROM games") games"
