/* stackmove.h - whole-stack movement, bounces, deployments and exits
 * (variants with `unit: stack`). */
#ifndef TIERS_STACKMOVE_H
#define TIERS_STACKMOVE_H

#include "core.h"

/* Appends the moves of the stack on sq (owned by the side to move) to
 * buf[n..cap); returns the new count or TIERS_EFULL. */
int stackmove_gen(const tiers_pos *p, int sq, tiers_move *buf, int n, int cap);
/* Performs a TIERS_MV_DEPLOY move with the edit primitives. */
void stackmove_apply_deploy(tiers_pos *p, const tiers_move *m, int side);

#endif
