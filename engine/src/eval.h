/* eval.h - static evaluation for agents: material from the faces' `value:`
 * in the variant's YAML (plus its Lua evaluate hooks), and the small
 * position facts a search needs
 * without generating moves (side to move, setup phase). */
#ifndef TIERS_EVAL_H
#define TIERS_EVAL_H

#include "core.h"

/* Sum of the values of side's pieces: the faces they show on the board,
 * each at its tier's value, plus the faces showing of its tiles in hand
 * (at tier 1's value).  Shared pieces count for
 * nobody. */
int eval_material(const tiers_pos *p, int side);

/* Side 0's material minus side 1's changed by the last move made at p,
 * read from what its undo record saved (every tower and hand slot the
 * move changed, Lua effects included): the incremental evaluation. */
int eval_balance_delta(const tiers_pos *p);

/* eval_score given `balance`, side 0's material minus side 1's at p. */
int eval_score_balance(tiers_pos *p, int side, int balance);

/* What agents maximise: side's material minus the opponent's, plus the
 * variant's evaluate hooks (engine/src/lua/) when it has some.  A failing hook
 * counts 0 and is reported by the next move generation. */
int eval_score(tiers_pos *p, int side);

/* Value of the piece a capture or strike would take (the top of the
 * target tower, or the struck tier, at its tier's value), EVAL_ROYAL_VICTIM for a royal piece
 * (taking it may end the game), 0 for other moves: the search's ordering
 * key. */
enum { EVAL_ROYAL_VICTIM = 10000 };
int eval_victim(const tiers_pos *p, const tiers_move *m);

#endif
