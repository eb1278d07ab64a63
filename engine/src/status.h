/* status.h - end of game: the conditions decided without move generation
 * (royal captured, exit, clocks, repetition, scripts) and the full status. */
#ifndef TIERS_STATUS_H
#define TIERS_STATUS_H

#include "core.h"

/* 1 if the game is over before any move is generated; fills *res and
 * *reason when not NULL. */
int status_terminal(tiers_pos *p, tiers_result *res, const char **reason);
/* Legal moves, none when the game is over (status_terminal first). */
int status_legal(tiers_pos *p, tiers_move *buf, int cap);
/* The status of the position and its legal moves, with one game-end test
 * and one generation: returns the count of buf (0 when the game is over)
 * or a negative error; *st as tiers_pos_status gives it. */
int status_moves(tiers_pos *p, tiers_move *buf, int cap, tiers_status *st);
/* How many times the current position occurred (this one included). */
int status_repetitions(const tiers_pos *p);

#endif
