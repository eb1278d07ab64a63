/* filter.h - narrowing: whether a move or position concerns a script's
 * hook, tested in C from the fields the hook declared (filter.c). */
#ifndef TIERS_FILTER_H
#define TIERS_FILTER_H

#include "core.h"

typedef struct hook_filter {
    uint8_t on;               /* some field given: the hook is narrowed */
    uint8_t move_test;        /* a field besides vars given */
    uint8_t never;            /* an empty list given: the move test never passes */
    uint8_t lo, hi;           /* own ranks of the destination, 0 = any */
    uint8_t setup;            /* 0 any phase, 1 setup moves only, 2 play only */
    uint8_t check;            /* moves: the side to move is in check; veto, after:
                                 the move leaves its player's opponent in check */
    uint8_t checked;          /* veto, expand: the mover was in check before the move */
    uint8_t stuck;            /* expand: the actor may be stuck where it lands */
    uint8_t doubled;          /* veto, after: the move's tower holds two pieces
                                 of one face and owner */
    uint16_t file_heights;    /* veto, after: another tower of the destination's file
                                 has one of these heights */
    uint64_t file_faces;      /* veto, after: the destination's file holds two or more
                                 of the mover's pieces showing one of these faces */
    uint8_t pure;             /* drop_ok, moves: answers cached (script_drop_ok,
                                 script_moves) */
    uint8_t to_move;          /* check: asked only about the side to move */
    uint8_t vars;             /* bit per position variable */
    uint16_t kinds;           /* bit per move kind, 0 = any */
    uint16_t heights;         /* bit per tower height, 0 = any */
    uint16_t tiers;           /* moves: bit per tier the listed face stands at */
    uint8_t controlled;       /* moves: that tower's top is the side's own */
    uint8_t beside_royal;     /* moves: that tower is orthogonally next to one
                                 of the side's royal pieces */
    uint64_t faces, taken;    /* bit per face of the acting / taken piece */
} hook_filter;

/* The faces of a move's acting and taken pieces (MAX_FACES: none). */
typedef struct move_faces {
    int actor, taken;
} move_faces;

/* A check hook answer, by what the hook can read of the position: its full
 * hash, ply and clock, and the side asked about (used = 0: empty). */
typedef struct check_memo {
    uint64_t hash;
    uint16_t ply, clock;
    uint8_t side, used, answer;
} check_memo;

/* What the tests keep between calls, per variant's script state. */
typedef struct filter_state {
    /* stuck[face][tier-1][facing]: squares from which that table of the
       face reaches no square of the board (expand_stuck) */
    uint64_t stuck[MAX_FACES][TIERS_MAX_TIERS][4][4];
    /* stuck_any[face]: the union of stuck[face] over tiers and facings
       (MAX_FACES: no piece, empty) */
    uint64_t stuck_any[MAX_FACES + 1][4];
    check_memo before;        /* the last filter_check_before answer: every
                                 move of a legal list asks about the same
                                 position */
} filter_state;

/* The piece that acts in m (moved, striking or dropped) and the piece it
 * takes, as they were before m (0 = none); u is m's undo record when m is
 * made on p, else NULL. */
void filter_actors(const tiers_pos *p, const undo_rec *u, const tiers_move *m,
                   piece_t *actor, piece_t *taken);
/* Whether m's player was still in its setup (inline: filter_pass asks it
 * of most moves). */
static inline int filter_in_setup(const tiers_pos *p, const undo_rec *u)
{
    const pos_state *st = u ? &u->st : &p->st;
    return (st->setup_left >> st->side) & 1;
}
/* The faces of m's acting and taken pieces (inline: asked for nearly every
 * move a narrowed hook might concern). */
static inline move_faces filter_faces(const tiers_pos *p, const undo_rec *u,
                                      const tiers_move *m)
{
    piece_t a, t;
    filter_actors(p, u, m, &a, &t);
    move_faces mf = {a ? p->v->face_of[a] : MAX_FACES, t ? p->v->face_of[t] : MAX_FACES};
    return mf;
}
/* Does the hook narrowed by f concern m (mf: its faces)?  m NULL: a hook
 * without a move, where only the variables count.  A move tagged with the
 * hook's own effect concerns it whatever f says: callers test that first
 * (filter_own). */
int filter_pass(const tiers_pos *p, const undo_rec *u, const tiers_move *m,
                const move_faces *mf, const hook_filter *f, filter_state *fs);
/* Is m a move of the effect (0-based) itself? */
static inline int filter_own(const tiers_move *m, int effect)
{
    return m->effect == effect + 1;
}
/* Does the moves or result hook narrowed by f concern the position?  A
 * pure hook's memo key goes to *key. */
int filter_moves_pass(const tiers_pos *p, const hook_filter *f, uint64_t *key);
/* Was side in check before the last (complete) move?  Remembered in *memo. */
int filter_check_before(tiers_pos *p, int side, check_memo *memo);
/* Could a piece of face `face` be stuck on sq, by any table it might use? */
int filter_stuck_anywhere(const filter_state *fs, const tiers_variant *v, int face, int sq);
void filter_compute_stuck(filter_state *fs, const tiers_variant *v);

#endif
