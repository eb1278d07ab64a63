/* attack.h - the squares an attack on a square depends on (attack.c): what
 * the legality shortcuts of movegen.c read to skip make-and-test. */
#ifndef TIERS_ATTACK_H
#define TIERS_ATTACK_H

#include "core.h"

/* Can the shortcuts be trusted in v: one piece moves at a time, no script
 * hook, strike, region or shared piece that could change what attacks
 * what behind the lines' backs? */
int attack_lines_trackable(const tiers_variant *v);
/* Marks in mark[] every square the attack test of the top piece on `from`
 * (showing face f at tier `tier`: movegen_face_tier) against square sq
 * reads (the via squares and the squares before sq of
 * each line of its table that could land on sq, whatever stands there).
 * While none of them, from, and sq changes, that piece attacks sq or not
 * as it did. */
void attack_mark_piece(const tiers_pos *p, int from, int sq, int f, int tier, uint8_t *mark);

#endif
