/* failrec.h - the context of a game that a runtime error stopped: the
 * game, ply, move, position text and hook, for one message and for the
 * failed game's record (`DB-failed/RUN-GAME.txt`, or the --records
 * folder), so a designer can replay the failure (docs/cli.md, "When a
 * script fails"). */
#ifndef FAILREC_H
#define FAILREC_H

#include <stddef.h>
#include <stdint.h>

#include "tiers.h"

struct failrec {
    int rc;                  /* the library code, 0 = no failure noted */
    int64_t game;            /* index in the run, -1 when not a run's game */
    uint64_t seed;           /* the game's own seed (game_seed) */
    int ply;                 /* 0-based ply being played */
    char move[64];           /* the move being made, "" before one was chosen */
    char position[1024];     /* the position before that ply */
    char hook[128];          /* "veto of effect x", "" when no hook is named */
    char message[1024];      /* the script's (or the engine's) message */
    char traceback[1024];    /* Lua's stack at the error, "" if unknown */
};

/* Notes a failure of game `game` with seed `seed` at its ply `ply`:
 * copies the script error of p's variant, then rebuilds the position
 * before that ply by replaying `moves` (tiers notation, ' '-separated)
 * from the start with the game's script seed, leaving p there.  `move`
 * is the move being made, or NULL. */
void failrec_note(struct failrec *f, tiers_pos *p, int rc, int64_t game, uint64_t seed,
                  uint64_t script_seed, const char *moves, int ply, const char *move);
/* The same for a position at hand (play, replay, perft): its text and
 * ply are p's own. */
void failrec_note_pos(struct failrec *f, const tiers_pos *p, int rc, const char *move);

/* For a command that already printed the message (play, replay, perft):
 * "at ply P[, move M][, hook H]\n  position: TEXT" of p as it is now,
 * then Lua's stack at the error. */
const char *failrec_context(const tiers_pos *p, int rc, const char *move, char *buf,
                            size_t size);

/* "ruleset R, game G, ply P, move M, hook H: MESSAGE\n  position: TEXT"
 * and Lua's stack on the lines below (the parts that are known) into buf;
 * returns buf. */
const char *failrec_text(const struct failrec *f, const char *ruleset, char *buf,
                         size_t size);

/* The folder for failed games' records: `records` when given, else the
 * database path with "-failed" added. */
void failrec_dir(const char *db_path, const char *records, char *out, size_t size);

/* Writes DIR/RUN-GAME.txt: a game record (tags Variant, Rules, Agents,
 * Seed, Game, Ply, Hook, Failed, Position of the failing ply, the moves
 * played, result `*`), creating DIR.  0, or -1 with err. */
int failrec_write(const struct failrec *f, const char *dir, const char *run_key,
                  const char *variant, const char *rules, const char *agents,
                  const char *moves, char *path, size_t path_size, char *err,
                  size_t errsize);

/* For a run's game (run.c): the message (the text above, then where the
 * record went) into msg, and the record written into `dir` (NULL: none)
 * as RUN-GAME.txt with the run's variant, options and agents. */
struct db_run;
void failrec_report(const struct failrec *f, const struct db_run *run, const char *dir,
                    const char *moves, char *msg, size_t size);

#endif
