/* agent_base.h - what the agents (agent.c, agent_ab.c, agent_mcts.c)
 * share: the agent's state, the spec parser's limits, the random-number
 * step, the clock, the repetition test and the greedy choice
 * (agent_base.c).  The public entry points are the tiers_agent_* functions
 * of tiers.h (agent.c). */
#ifndef TIERS_AGENT_BASE_H
#define TIERS_AGENT_BASE_H

#include <stdatomic.h>
#include <stdint.h>

#include "core.h"

enum {
    AGENT_SPEC_MAX = 160,        /* canonical spec text, with its NUL */
    AGENT_AB_MAX_DEPTH = 32,     /* alphabeta: deepest iteration */
    AGENT_AB_TT_MIN_BITS = 10,   /* transposition table: 2^bits entries */
    AGENT_AB_TT_MAX_BITS = 24,
    AGENT_AB_MAX_PLY = 64,       /* killer moves kept for plies below this */
    AGENT_AB_QMAX = 8,           /* quiescence: deepest capture sequence */
    AGENT_AB_VARY = 0,           /* default choice margin (hundredths) */
    AGENT_AB_CONTEMPT = 10,      /* default cost of a draw (hundredths) */
    AGENT_STALE_PLIES = 30,      /* quiet plies after which a side not
                                    ahead seeks a repetition (a draw) */
    AGENT_MCTS_MAX_ITERATIONS = 1000000,
    AGENT_AB_MAX_LINE = AGENT_AB_MAX_DEPTH + AGENT_AB_QMAX + 4 /* plies a line holds */
};

enum agent_kind { AGENT_RANDOM, AGENT_GREEDY, AGENT_ALPHABETA, AGENT_MCTS };
enum { ROLLOUT_RANDOM, ROLLOUT_GREEDY, ROLLOUT_CAPTURE };

/* Scores: material differences stay far below AB_WIN; a win found `ply`
 * plies from the root scores AB_WIN - ply, so a shorter win is better. */
enum { AB_WIN = 1000000, AB_INF = 2000000, AB_MATE_ZONE = AB_WIN - 1000 };
enum { TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

/* Transposition-table entry, keyed on tiers_pos_hash. */
typedef struct agent_tt {
    uint64_t key;
    uint32_t gen;      /* the choice that wrote it (older = empty) */
    int32_t score;     /* mate scores relative to this node */
    uint8_t depth, flag, has_move, pad;
    tiers_move move;
} agent_tt;

/* A node of the UCT tree.  Children are added one per visit, in an order
 * drawn when the node's moves are first generated (offset + k * stride
 * modulo the count, stride coprime with it). */
typedef struct agent_node {
    tiers_move move;       /* the move leading here */
    int32_t child, sibling;/* first child, next sibling; -1 = none */
    int32_t nmoves;        /* legal moves here; -1 = not generated yet */
    int32_t nchildren;
    uint32_t offset, stride;
    uint32_t visits;
    float reward;          /* summed reward of `mover` */
    float terminal_reward; /* for side 0, when terminal */
    uint8_t mover;         /* side that made `move` */
    uint8_t terminal;
} agent_node;

struct tiers_agent {
    enum agent_kind kind;
    char spec[AGENT_SPEC_MAX];
    /* parameters */
    int depth;             /* alphabeta: deepest iteration */
    int64_t nodes;         /* alphabeta: node budget, 0 = none */
    int time_ms;           /* alphabeta, mcts: time budget, 0 = none */
    int tt_bits;
    int vary;              /* alphabeta: choice margin, hundredths */
    int contempt;          /* alphabeta: a draw's cost, hundredths */
    int setup_search;      /* search during setup (else random placements) */
    int mate;              /* greedy: a move that ends the game in the
                              mover's favour is best */
    int progress;          /* greedy: ties go to progress (agent_progress) */
    int iterations;        /* mcts */
    int rollout;           /* mcts: ROLLOUT_* */
    int rollout_plies;     /* mcts: rollout length, 0 = to the end */
    double explore;        /* mcts: UCT constant */
    /* buffers */
    tiers_move *moves;     /* move stack */
    int move_slots;        /* in units of TIERS_MAX_MOVES */
    agent_tt *tt;
    uint32_t tt_gen;
    int32_t *scores;       /* alphabeta: order keys beside `moves` */
    int32_t *root_scores;  /* alphabeta: root scores, last whole
                              iteration's, candidates */
    int32_t *hist;         /* alphabeta: history, by from << 8 | to */
    tiers_move killer[AGENT_AB_MAX_PLY][2];
    int root_side, royal;
    int root_depth;        /* alphabeta: p->depth at the root */
    int root_draw;         /* alphabeta: a draw's score for the root side
                              (agent_ab_root_draw) */
    int balance[AGENT_AB_MAX_LINE]; /* alphabeta: material, side 0 minus
                              side 1, at each ply of the line searched */
    agent_node *pool;
    int32_t *path;         /* mcts: nodes from the root to a leaf */
    int pool_cap, pool_used;
    /* search state */
    int64_t searched;
    int abort, error;
    double deadline;
    atomic_int stop;       /* tiers_agent_stop: set from another thread */
};

/* One step of the xorshift64 generator every agent draws from (the state
 * must be non-zero; agent_rng_below fixes a zero state). */
uint64_t agent_rng_next(uint64_t *state);
/* A number in 0..n-1 (n >= 1). */
uint32_t agent_rng_below(uint64_t *state, uint32_t n);
/* Monotonic seconds, for the time budgets. */
double agent_now(void);

/* Material balance for `side`, plus the variant's evaluate hooks. */
int agent_eval(const tiers_pos *p, int side);
/* Whether the position occurred before in the game or on the search path
 * since the last irreversible move. */
int agent_repeated(const tiers_pos *p);
/* Greedy choice among buf[0..n-1] for the side to move (agent.c); sets
 * *pick, returns 0 or an error.  `scratch` holds a move list. */
int agent_greedy_pick(tiers_pos *p, tiers_move *buf, int n, tiers_move *scratch, int mate,
                      int progress, uint64_t *rng, int *pick);

/* Whether tiers_agent_stop was called (from any thread). */
static inline int agent_stopped(tiers_agent *a)
{
    return atomic_load_explicit(&a->stop, memory_order_relaxed);
}

#endif
