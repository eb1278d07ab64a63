-- A small fixed playout database for tests/unit/test_stats.c: ten games
-- of run '00000000000000a1' (plus one game past --games 10 and one of another run, both
-- to be left out).  Every play ply of game g has g + 1 legal moves; the two
-- setup plies have 9.  tests/unit/test_stats.c lists the expected metrics
-- worked out by hand from this table.  Run keys are 16 hex digits and each
-- game's moves hold as many words as its plies, as the database checks
-- (engine/lab/dbcheck.c) require.
--
-- game winner cut draw length first captures drops stacks  a  b
--   0      0  0    0     10     0      4       1     0     1  0
--   1      0  0    0      8     0      2       0     1     0  2
--   2      1  0    0     12     0      5       2     2     2  0
--   3      -  0    1     20     0      0       0     0     0  0
--   4      0  0    0      6     0      1       0     0     1  1
--   5      1  0    0     14     0      3       1     1     0  0
--   6      -  1    0     18     0      2       0     3     3  0
--   7      0  0    0      9     0      1       1     0     0  0
--   8      1  0    0     11     0      0       0     0     0  1
--   9      0  0    0      7     1      2       0     0     1  0

PRAGMA journal_mode=WAL;
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
INSERT INTO meta VALUES('schema', '1');
CREATE TABLE runs(run TEXT PRIMARY KEY, variant TEXT NOT NULL, variant_hash TEXT NOT NULL,
  options TEXT NOT NULL, agent0 TEXT NOT NULL, agent1 TEXT NOT NULL, side0 TEXT NOT NULL,
  side1 TEXT NOT NULL, seed INTEGER NOT NULL, max_plies INTEGER NOT NULL,
  effects TEXT NOT NULL, tiers_version TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE games(run TEXT NOT NULL, game INTEGER NOT NULL, variant TEXT NOT NULL,
  variant_hash TEXT NOT NULL, options TEXT NOT NULL, agent0 TEXT NOT NULL,
  agent1 TEXT NOT NULL, seed INTEGER NOT NULL, game_seed TEXT NOT NULL, result TEXT NOT NULL,
  winner INTEGER, reason TEXT NOT NULL, cut INTEGER NOT NULL, plies INTEGER NOT NULL,
  setup_plies INTEGER NOT NULL, first_side INTEGER, captures INTEGER NOT NULL,
  drops INTEGER NOT NULL, placements INTEGER NOT NULL, stacks INTEGER NOT NULL,
  legal_sum INTEGER NOT NULL, legal_plies INTEGER NOT NULL, seconds REAL NOT NULL,
  moves TEXT NOT NULL, legal TEXT NOT NULL, finished TEXT NOT NULL, PRIMARY KEY(run, game));
CREATE TABLE effects(run TEXT NOT NULL, game INTEGER NOT NULL, name TEXT NOT NULL,
  count INTEGER NOT NULL, PRIMARY KEY(run, game, name));
INSERT INTO runs VALUES('00000000000000a1', 'test', '0000000000000000', '', 'random', 'random', 'white',
  'black', 1, 22, 'a,b', '0.1.0', '2024-01-01 00:00:00');
INSERT INTO runs VALUES('00000000000000a2', 'other', '0000000000000001', '', 'random', 'random', 'white',
  'black', 1, 22, '', '0.1.0', '2024-01-01 00:00:00');
INSERT INTO games VALUES('00000000000000a1', 0, 'test', '0000000000000000', '', 'random', 'random', 1, '0000000000000000', '1-0', 0, 'checkmate', 0, 12, 2, 0, 4, 1, 2, 0, 10, 10, 0.5, 'm1 m2 m3 m4 m5 m6 m7 m8 m9 m10 m11 m12', '9 9 1 1 1 1 1 1 1 1 1 1', '2024-01-01 00:00:00');
INSERT INTO effects VALUES('00000000000000a1', 0, 'a', 1), ('00000000000000a1', 0, 'b', 0);
INSERT INTO games VALUES('00000000000000a1', 1, 'test', '0000000000000000', '', 'random', 'random', 1, '0000000000000001', '1-0', 0, 'checkmate', 0, 10, 2, 0, 2, 0, 2, 1, 16, 8, 0.5, 'm1 m2 m3 m4 m5 m6 m7 m8 m9 m10', '9 9 2 2 2 2 2 2 2 2', '2024-01-01 00:00:00');
INSERT INTO effects VALUES('00000000000000a1', 1, 'a', 0), ('00000000000000a1', 1, 'b', 2);
INSERT INTO games VALUES('00000000000000a1', 2, 'test', '0000000000000000', '', 'random', 'random', 1, '0000000000000002', '0-1', 1, 'checkmate', 0, 14, 2, 0, 5, 2, 2, 2, 36, 12, 0.5, 'm1 m2 m3 m4 m5 m6 m7 m8 m9 m10 m11 m12 m13 m14', '9 9 3 3 3 3 3 3 3 3 3 3 3 3', '2024-01-01 00:00:00');
INSERT INTO effects VALUES('00000000000000a1', 2, 'a', 2), ('00000000000000a1', 2, 'b', 0);
INSERT INTO games VALUES('00000000000000a1', 3, 'test', '0000000000000000', '', 'random', 'random', 1, '0000000000000003', '1/2-1/2', NULL, 'stalemate', 0, 22, 2, 0, 0, 0, 2, 0, 80, 20, 0.5, 'm1 m2 m3 m4 m5 m6 m7 m8 m9 m10 m11 m12 m13 m14 m15 m16 m17 m18 m19 m20 m21 m22', '9 9 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4', '2024-01-01 00:00:00');
INSERT INTO effects VALUES('00000000000000a1', 3, 'a', 0), ('00000000000000a1', 3, 'b', 0);
INSERT INTO games VALUES('00000000000000a1', 4, 'test', '0000000000000000', '', 'random', 'random', 1, '0000000000000004', '1-0', 0, 'checkmate', 0, 8, 2, 0, 1, 0, 2, 0, 30, 6, 0.5, 'm1 m2 m3 m4 m5 m6 m7 m8', '9 9 5 5 5 5 5 5', '2024-01-01 00:00:00');
INSERT INTO effects VALUES('00000000000000a1', 4, 'a', 1), ('00000000000000a1', 4, 'b', 1);
INSERT INTO games VALUES('00000000000000a1', 5, 'test', '0000000000000000', '', 'random', 'random', 1, '0000000000000005', '0-1', 1, 'checkmate', 0, 16, 2, 0, 3, 1, 2, 1, 84, 14, 0.5, 'm1 m2 m3 m4 m5 m6 m7 m8 m9 m10 m11 m12 m13 m14 m15 m16', '9 9 6 6 6 6 6 6 6 6 6 6 6 6 6 6', '2024-01-01 00:00:00');
INSERT INTO effects VALUES('00000000000000a1', 5, 'a', 0), ('00000000000000a1', 5, 'b', 0);
INSERT INTO games VALUES('00000000000000a1', 6, 'test', '0000000000000000', '', 'random', 'random', 1, '0000000000000006', '*', NULL, 'cut', 1, 20, 2, 0, 2, 0, 2, 3, 126, 18, 0.5, 'm1 m2 m3 m4 m5 m6 m7 m8 m9 m10 m11 m12 m13 m14 m15 m16 m17 m18 m19 m20', '9 9 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7', '2024-01-01 00:00:00');
INSERT INTO effects VALUES('00000000000000a1', 6, 'a', 3), ('00000000000000a1', 6, 'b', 0);
INSERT INTO games VALUES('00000000000000a1', 7, 'test', '0000000000000000', '', 'random', 'random', 1, '0000000000000007', '1-0', 0, 'checkmate', 0, 11, 2, 0, 1, 1, 2, 0, 72, 9, 0.5, 'm1 m2 m3 m4 m5 m6 m7 m8 m9 m10 m11', '9 9 8 8 8 8 8 8 8 8 8', '2024-01-01 00:00:00');
INSERT INTO effects VALUES('00000000000000a1', 7, 'a', 0), ('00000000000000a1', 7, 'b', 0);
INSERT INTO games VALUES('00000000000000a1', 8, 'test', '0000000000000000', '', 'random', 'random', 1, '0000000000000008', '0-1', 1, 'checkmate', 0, 13, 2, 0, 0, 0, 2, 0, 99, 11, 0.5, 'm1 m2 m3 m4 m5 m6 m7 m8 m9 m10 m11 m12 m13', '9 9 9 9 9 9 9 9 9 9 9 9 9', '2024-01-01 00:00:00');
INSERT INTO effects VALUES('00000000000000a1', 8, 'a', 0), ('00000000000000a1', 8, 'b', 1);
INSERT INTO games VALUES('00000000000000a1', 9, 'test', '0000000000000000', '', 'random', 'random', 1, '0000000000000009', '1-0', 0, 'checkmate', 0, 9, 2, 1, 2, 0, 2, 0, 70, 7, 0.5, 'm1 m2 m3 m4 m5 m6 m7 m8 m9', '9 9 10 10 10 10 10 10 10', '2024-01-01 00:00:00');
INSERT INTO effects VALUES('00000000000000a1', 9, 'a', 1), ('00000000000000a1', 9, 'b', 0);
INSERT INTO games VALUES('00000000000000a1', 10, 'test', '0000000000000000', '', 'random', 'random', 1, '000000000000000a', '0-1', 1, 'checkmate', 0, 5, 2, 0, 1, 1, 2, 1, 33, 3, 0.5, 'm1 m2 m3 m4 m5', '9 9 11 11 11', '2024-01-01 00:00:00');
INSERT INTO effects VALUES('00000000000000a1', 10, 'a', 9), ('00000000000000a1', 10, 'b', 9);
INSERT INTO games VALUES('00000000000000a2', 0, 'test', '0000000000000000', '', 'random', 'random', 1, '0000000000000000', '0-1', 1, 'checkmate', 0, 5, 2, 0, 1, 1, 2, 1, 3, 3, 0.5, 'm1 m2 m3 m4 m5', '9 9 1 1 1', '2024-01-01 00:00:00');
