/* filter.h - narrowing: whether a move or position concerns a script's
 * hook, tested in C from the fields the hook declared (filter.c). */
#ifndef TIERS_FILTER_H
#define TIERS_FILTER_H

#include "core.h"

/* Where a count test looks (count_test.on). */
enum { COUNT_TOWER, COUNT_FILE, COUNT_RANK, COUNT_BOARD, COUNT_ROYAL, COUNT_ONS };
/* Whose pieces or towers a count test takes (count_test.owner, .top). */
enum { WHOSE_ANY, WHOSE_MOVER, WHOSE_OPPONENT };
enum { MAX_COUNTS = 4 };      /* count tests per hook */

/* A count test (<hook>_count, docs/lua-api.md): the pieces, or the towers
 * holding one, that match, counted over a set of squares; it passes with
 * at least `min` of them.  The old single-rule fields (file_faces,
 * file_heights, doubled; a moves hook's faces, heights, tiers, controlled,
 * beside_royal) are written as count tests when a script is read. */
typedef struct count_test {
    uint8_t on;               /* COUNT_*: the move's tower (its destination,
                                 else its origin), that square's file or
                                 rank, the board, or the squares next to
                                 the side's royal pieces */
    uint8_t others;           /* leave the move's own square out */
    uint8_t owner;            /* WHOSE_*: pieces of that side */
    uint8_t top;              /* WHOSE_*: towers topped by that side */
    uint8_t towers;           /* count towers holding a match, not pieces;
                                 without a piece test, every tower (empty
                                 squares too) of the listed heights */
    uint8_t each;             /* count each face of each owner apart and
                                 take the largest count */
    uint8_t min;              /* 1.. */
    uint16_t heights;         /* bit per tower height 0..8, 0 = any */
    uint16_t tiers;           /* bit per tier 1..8 of the piece, 0 = any */
    uint64_t faces;           /* bit per face the piece shows, 0 = any */
} count_test;

typedef struct hook_filter {
    uint8_t on;               /* some field given: the hook is narrowed */
    uint8_t move_test;        /* a field besides vars given */
    uint8_t never;            /* an empty list given: the move test never passes */
    uint8_t lo, hi;           /* own ranks of the destination, 0 = any */
    uint8_t setup;            /* 0 any phase, 1 setup moves only, 2 play only */
    uint8_t check;            /* moves: the side to move is in check; veto, after:
                                 the move leaves its player's opponent in check */
    uint8_t checked;          /* veto, expand: the mover was in check before the move */
    uint8_t reach;            /* expand: the acting piece's squares in reach where
                                 it lands are tested (reach_lo..reach_hi) */
    uint8_t reach_lo, reach_hi;
    uint8_t before;           /* expand: the hook sees the position before the
                                 move (no make, no unmake) */
    uint8_t ncount;           /* count tests, all of which must pass */
    uint8_t towers_test;      /* moves: 1 + the count test made from faces,
                                 heights, tiers, controlled, beside_royal */
    uint8_t pure;             /* drop_ok, moves: answers cached (script_drop_ok,
                                 script_moves) */
    uint8_t to_move;          /* check: asked only about the side to move */
    uint8_t vars;             /* bit per position variable */
    uint16_t kinds;           /* bit per move kind, 0 = any */
    uint16_t heights;         /* bit per tower height, 0 = any */
    uint32_t given;           /* bit per field given (the script module's FL_*) */
    uint64_t faces, taken;    /* bit per face of the acting / taken piece */
    count_test count[MAX_COUNTS];
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
/* expand_reach {0, 0}: could m's acting piece be left stuck where it
 * lands, by the tables it might use there (u as in filter_actors)? */
int filter_may_be_stuck(const tiers_pos *p, const undo_rec *u, const tiers_move *m);
/* The same for a known acting piece a (not 0) and the height h of the
 * tower on m->to before m (m->to a square). */
int filter_stuck_landing(const tiers_pos *p, const tiers_move *m, piece_t a, int h);
/* The facing piece a will show after m: in the variants where a moved
 * piece turns clockwise (turn_after_move, make.c), the next one. */
static inline int filter_facing_after(const tiers_variant *v, const tiers_move *m, piece_t a)
{
    int turns = v->turn_after_move && !(m->flags & TIERS_MF_EXIT) &&
                (m->kind == TIERS_MV_MOVE || m->kind == TIERS_MV_STACK ||
                 m->kind == TIERS_MV_CAPTURE);
    return (pc_facing(a) + turns) & 3;
}

/* Could a piece of face `face` and facing `facing` be stuck on sq, by
 * any table it might use there (the variant's stuck tables)? */
static inline int filter_stuck_anywhere(const tiers_variant *v, int face, int facing, int sq)
{
    return v->stuck_any[face][facing][sq >> 6] >> (sq & 63) & 1;
}

#endif
