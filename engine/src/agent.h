/* agent.h - move-choosing agents (random, greedy, alphabeta, mcts) over
 * the public position API: the tiers_agent_* functions of tiers.h, built
 * on agent_base.h (shared state and helpers), agent_ab.c and
 * agent_mcts.c. */
#ifndef TIERS_AGENT_H
#define TIERS_AGENT_H

#include "agent_base.h"

#endif
