/* game.h - playing one game between two agents and recording it, for
 * `tiers playout` and `tiers compare`.  A worker owns its own variant (so
 * a variant's Lua state is never shared between threads), position,
 * agents and buffers, all allocated once; playing a game allocates
 * nothing unless a record outgrows its buffer. */
#ifndef GAME_H
#define GAME_H

#include <stdint.h>

#include "failrec.h"
#include "tiers.h"

enum { GAME_MAX_EFFECTS = 32, GAME_MAX_FACES = 64 };

/* What the pieces showing one face did in a game's play phase. */
struct game_face {
    uint32_t moves;      /* moves made (drops included) */
    uint32_t captures;   /* captures and strikes made */
    uint32_t captured;   /* times taken */
    uint32_t drops;      /* drops from hand */
    uint32_t mates;      /* the move that ended the game by checkmate */
};

/* What a run plays: everything that decides its games. */
struct game_config {
    const char *variant;          /* spec as given (name, folder, file) */
    const char *search;           /* --variants path, or NULL */
    const char *const *rules;     /* --rule list, NULL-terminated */
    const char *agents[2];        /* agent specs for side 0 and side 1 */
    uint64_t seed;
    int max_plies;                /* cut a game after this many plies */
};

/* One finished game.  Text buffers belong to the worker. */
struct game_record {
    int64_t index;
    uint64_t seed;                /* the game's own seed */
    tiers_result result;          /* TIERS_ONGOING when cut */
    char reason[64];              /* "checkmate", ..., "cut" */
    int cut;                      /* stopped at max_plies */
    int plies, setup_plies;       /* all plies; those made in setup */
    int first_side;               /* side of the first play move, -1 none */
    int captures, drops, placements, stacks;
    int64_t legal_sum;            /* legal moves summed over play plies */
    int legal_plies;
    double seconds;
    char *moves;                  /* move record, tiers notation, ' ' */
    char *legal;                  /* legal move count at each ply, ' ' */
    size_t moves_len, moves_cap, legal_len, legal_cap;
    int neffects;
    uint32_t effects[GAME_MAX_EFFECTS];     /* fired (docs/metrics.md) */
    uint32_t prevented[GAME_MAX_EFFECTS];   /* plies its veto narrowed the list */
    uint32_t ended[GAME_MAX_EFFECTS];       /* 1 when its result hook ended the game */
    int hook_ended;               /* a result hook ended the game */
    /* The positional figures (docs/metrics.md); < 0 when undefined. */
    double coverage, repetition, lead_change, drama, decision_point, stability;
    int nfaces;
    struct game_face face[GAME_MAX_FACES];
};

/* The worker's buffers for the positional figures, allocated once. */
struct game_track {
    int squares;                  /* files * ranks */
    uint8_t seen[256];            /* squares ever occupied (tiers_square) */
    int nseen;
    uint64_t *keys;               /* open-addressing set of position keys */
    uint32_t key_mask;
    uint32_t *used;               /* its filled slots, to clear them */
    int nused;
    float *v;                     /* the play-phase evaluations */
    int nv;
    int balance, total;           /* side 0's material minus 1's; at start of play */
};

struct game_worker {
    tiers_variant *v;
    tiers_pos *p;
    tiers_agent *agent[2];
    struct game_record g;
    char pending[64];             /* the move being made, "" before one is chosen */
    struct failrec fail;          /* the context of game_play's last failure */
    struct game_track track;
    int last_face;                /* the face of the last play move, -1 */
    tiers_move *list;             /* game_replay's legal moves, allocated then */
};

/* The seed of game `index` of a run: a function of the run's seed and
 * the index only, so games do not depend on threads, shards or order. */
uint64_t game_seed(uint64_t seed, int64_t index);
/* The seed of the variant's random numbers (tiers_pos_seed) in the game
 * whose own seed is game_seed: replaying its moves needs it too. */
uint64_t game_script_seed(uint64_t game_seed);

/* Loads the variant and creates position, agents (none when
 * cfg->agents[0] is NULL) and buffers.  Returns 0,
 * or a negative library code with a message in err. */
int game_worker_init(struct game_worker *w, const struct game_config *cfg,
                     tiers_error *err);
void game_worker_free(struct game_worker *w);

/* Plays game `index` into w->g.  Returns 0 or a negative library code
 * (a script failed); w->fail then holds the failure's context (game, ply,
 * move, position before it, hook, message: failrec.h). */
int game_play(struct game_worker *w, const struct game_config *cfg,
              int64_t index);

/* Replays game `index` of a stored run from its own seed (game_seed) and
 * its moves (tiers notation, ' ' between) into w->g, through the same ply
 * code as game_play: every figure, effect count (fired, prevented, ended)
 * and face count as if it were played now (seconds 0).  w needs no agents
 * (cfg->agents NULL).  Returns 0, or a negative library code: a move that
 * does not parse or is not legal (TIERS_EILLEGAL), a script failure. */
int game_replay(struct game_worker *w, int64_t index, uint64_t seed, const char *moves);

/* The figures of a game's evaluations v[0..n) (each in [-1, 1], side
 * 0's view; docs/metrics.md) for winner 0, 1 or -1 (no winner): lead
 * change, drama, decision point and stability, each < 0 when undefined
 * (lead change needs n >= 2; drama and decision point a winner). */
void game_figures(const float *v, int n, int winner, double *lead_change, double *drama,
                  double *decision_point, double *stability);

/* "1-0", "0-1", "1/2-1/2", "*". */
const char *game_result_text(tiers_result r);

#endif
