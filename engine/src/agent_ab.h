/* agent_ab.h - the alphabeta agent's search (agent_ab.c). */
#ifndef TIERS_AGENT_AB_H
#define TIERS_AGENT_AB_H

#include "agent_base.h"

/* Chooses *out among moves[0..n-1] (p's legal list, shuffled by the
 * caller) by iterative deepening within a's budgets; returns n or an
 * error.  moves + n onwards is the search's move stack. */
int agent_ab_choose(tiers_agent *a, tiers_pos *p, tiers_move *moves, int n, uint64_t *rng,
                    tiers_move *out);

#endif
