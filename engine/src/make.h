/* make.h - applying a move to a position and taking it back. */
#ifndef TIERS_MAKE_H
#define TIERS_MAKE_H

#include "core.h"

/* Applies m (assumed generated for this position) with its after-move
 * effects; returns 0 or a negative error (the position is then
 * unchanged). */
int make_move(tiers_pos *p, const tiers_move *m);
void unmake_move(tiers_pos *p);

/* Sends a captured piece to the capturer's hand or out of the game. */
void make_capture_piece(tiers_pos *p, piece_t pc, int capturer);

#endif
