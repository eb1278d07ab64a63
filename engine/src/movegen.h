/* movegen.h - move generation, attacks, legality.  All functions write
 * into caller-owned buffers and never allocate. */
#ifndef TIERS_MOVEGEN_H
#define TIERS_MOVEGEN_H

#include "core.h"

/* Every move of the side to move before the royal-safety filter (game-over
 * conditions not applied).  Returns the count or a negative error. */
int movegen_pseudo(tiers_pos *p, tiers_move *buf, int cap);
/* Legal moves.  Generation only: the game-end conditions decided without
 * generation (status_terminal) are the caller's (status_legal). */
int movegen_legal(tiers_pos *p, tiers_move *buf, int cap);
/* A look at the position a legal move leads to: m is buf[index] of the
 * list being made, and it is made on p (the visit may read p, not change
 * it).  Returns 0, or a negative error that ends the generation. */
typedef int (*movegen_visit)(tiers_pos *p, const tiers_move *m, int index, void *ctx);
/* movegen_legal, calling visit once for each move of the list it returns,
 * in order, with that move made: where the legality filter has made the
 * move already, it is not made again.  When it returns an error, some
 * moves may have been visited. */
int movegen_legal_visit(tiers_pos *p, tiers_move *buf, int cap, movegen_visit visit, void *ctx);
/* Whether the side `side`'s royal piece is attacked (0 if it has none). */
int movegen_in_check(const tiers_pos *p, int side);
/* Whether `by` could capture the piece at sq (top) or strike it. */
int movegen_attacks(const tiers_pos *p, int sq, int by);
/* Is there a move in buf[0..n) after which the mover is not in check? */
int movegen_escape_in(tiers_pos *p, const tiers_move *buf, int n);
/* Has the side to move a legal move (game-over conditions not applied)?
 * 1 or 0, or an error; spend (if not NULL) is asked before each move is
 * tried and ends the search with its answer when that is negative. */
int movegen_has_legal(tiers_pos *p, tiers_move *buf, int cap, int (*spend)(void *ctx), void *ctx);
/* Marks (in mark[TIERS_MAX_SQUARES]) the squares the top piece of sq could
 * move to with the table it now uses, were the board empty (no blocking,
 * no via test); returns how many. */
int movegen_reach(const tiers_pos *p, int sq, uint8_t *mark);
/* movegen_reach's answer at m->to once m is made, told before: 1 when the
 * piece will reach no square, 0 when it will reach some, -1 when that
 * needs the move made.  m is a plain move, stack or capture of the piece
 * a onto a tower of height h, which nothing but the engine's own rules
 * changes (the caller makes sure no after hook concerns m). */
int movegen_stuck_after(const tiers_pos *p, const tiers_move *m, piece_t a, int h);
/* Makes a uniformly random legal move, drawing from the xorshift state
 * *rng; buf holds TIERS_MAX_MOVES.  Returns 1 if a move was made, 0 if
 * there is none (or the history is full), or an error.  The caller tests
 * status_terminal first. */
int movegen_random(tiers_pos *p, uint64_t *rng, tiers_move *buf);
/* The tier whose table the top piece at sq uses, and its face. */
int movegen_face_tier(const tiers_pos *p, int sq, int idx, int *tier);
/* Makes m; returns 0, or TIERS_EILLEGAL when a veto or the royal-safety
 * test rejects it (the move is then already unmade), or an error. */
int movegen_make_checked(tiers_pos *p, const tiers_move *m);

#endif
