/* agent.h - move-choosing agents (random, greedy, alphabeta, mcts) over
 * the public position API.  The public entry points are the tiers_agent_*
 * functions of tiers.h; this header holds what agent.c shares with tests:
 * the spec parser's limits and the random-number step. */
#ifndef TIERS_AGENT_H
#define TIERS_AGENT_H

#include <stdint.h>

#include "tiers.h"

enum {
    AGENT_SPEC_MAX = 160,        /* canonical spec text, with its NUL */
    AGENT_AB_MAX_DEPTH = 32,     /* alphabeta: deepest iteration */
    AGENT_AB_TT_MIN_BITS = 10,   /* transposition table: 2^bits entries */
    AGENT_AB_TT_MAX_BITS = 24,
    AGENT_AB_MAX_PLY = 64,       /* killer moves kept for plies below this */
    AGENT_AB_QMAX = 8,           /* quiescence: deepest capture sequence */
    AGENT_AB_VARY = 0,           /* default choice margin (hundredths) */
    AGENT_AB_CONTEMPT = 10,      /* default cost of a draw (hundredths) */
    AGENT_MCTS_MAX_ITERATIONS = 1000000
};

/* One step of the xorshift64 generator every agent draws from (the state
 * must be non-zero; agent_rng_below fixes a zero state). */
uint64_t agent_rng_next(uint64_t *state);
/* A number in 0..n-1 (n >= 1). */
uint32_t agent_rng_below(uint64_t *state, uint32_t n);

#endif
