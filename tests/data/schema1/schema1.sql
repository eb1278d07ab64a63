-- schema1.sql - the playout database's schema 1, as a schema-1 build of
-- tiers (engine/lab/db.c before commit 2260f0e) created it, and the copy
-- of a schema-2 database's rows into it (make.sh).  Run with the schema-2
-- file attached as `new`.
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE runs(
  run TEXT PRIMARY KEY,
  variant TEXT NOT NULL, variant_hash TEXT NOT NULL, options TEXT NOT NULL,
  agent0 TEXT NOT NULL, agent1 TEXT NOT NULL,
  side0 TEXT NOT NULL, side1 TEXT NOT NULL,
  seed INTEGER NOT NULL, max_plies INTEGER NOT NULL,
  effects TEXT NOT NULL,
  tiers_version TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE games(
  run TEXT NOT NULL, game INTEGER NOT NULL,
  variant TEXT NOT NULL, variant_hash TEXT NOT NULL, options TEXT NOT NULL,
  agent0 TEXT NOT NULL, agent1 TEXT NOT NULL,
  seed INTEGER NOT NULL, game_seed TEXT NOT NULL,
  result TEXT NOT NULL,
  winner INTEGER,
  reason TEXT NOT NULL, cut INTEGER NOT NULL,
  plies INTEGER NOT NULL, setup_plies INTEGER NOT NULL,
  first_side INTEGER,
  captures INTEGER NOT NULL, drops INTEGER NOT NULL,
  placements INTEGER NOT NULL, stacks INTEGER NOT NULL,
  legal_sum INTEGER NOT NULL, legal_plies INTEGER NOT NULL,
  seconds REAL NOT NULL,
  moves TEXT NOT NULL,
  legal TEXT NOT NULL,
  finished TEXT NOT NULL,
  PRIMARY KEY(run, game));
CREATE TABLE effects(
  run TEXT NOT NULL, game INTEGER NOT NULL, name TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY(run, game, name));
INSERT INTO meta VALUES('schema', '1');
INSERT INTO runs SELECT * FROM new.runs;
INSERT INTO games SELECT run, game, variant, variant_hash, options, agent0, agent1, seed,
  game_seed, result, winner, reason, cut, plies, setup_plies, first_side, captures, drops,
  placements, stacks, legal_sum, legal_plies, seconds, moves, legal, finished FROM new.games;
-- schema 1 counted a ply whose veto narrowed the list as a firing (and
-- a result hook not at all); duel-effects has no check hook
INSERT INTO effects SELECT run, game, name, count + prevented FROM new.effects;
