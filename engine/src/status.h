/* status.h - end of game: the conditions decided without move generation
 * (royal captured, exit, clocks, repetition, scripts) and the full status. */
#ifndef TIERS_STATUS_H
#define TIERS_STATUS_H

#include "core.h"

/* 1 if the game is over before any move is generated; fills *res and
 * *reason when not NULL. */
int status_terminal(tiers_pos *p, tiers_result *res, const char **reason);
/* The key repetition compares, by the variant's repetition_key. */
uint64_t status_rep_key(const tiers_variant *v, const pos_state *st);
/* How many times the current position occurred (this one included). */
int status_repetitions(const tiers_pos *p);

#endif
