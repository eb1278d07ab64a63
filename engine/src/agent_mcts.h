/* agent_mcts.h - the mcts agent's search (agent_mcts.c). */
#ifndef TIERS_AGENT_MCTS_H
#define TIERS_AGENT_MCTS_H

#include "agent_base.h"

/* Chooses *out at p, which has n legal moves (n >= 2), by a's iterations
 * or time; returns n or an error. */
int agent_mcts_choose(tiers_agent *a, tiers_pos *p, uint64_t *rng, int n, tiers_move *out);

#endif
