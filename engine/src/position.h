/* position.h - board edits, hashing, make/unmake.
 *
 * Every change to a position goes through the pos_* edit primitives below.
 * Inside a make (between pos_frame_begin and the end of tiers_make) each
 * primitive first snapshots the tower or hand entry it touches into the
 * current undo record, then updates the Zobrist keys, so unmake restores
 * the position exactly whatever mix of primitives a move (or a script)
 * used. */
#ifndef TIERS_POSITION_H
#define TIERS_POSITION_H

#include <string.h>

#include "core.h"

static inline int hand_slot(piece_t pc) { return pc & (PC_KIND_MASK | PC_FLIP); }
/* The next hand slot after s that can hold tiles, HAND_SLOTS after the
 * last: slots are kind | PC_FLIP and a variant's kinds are 1..nkinds-1,
 * so the face-up ones, then the flipped ones (loops start at slot 1). */
static inline int hand_slot_next(const tiers_variant *v, int s)
{
    s++;
    if ((s & PC_KIND_MASK) < v->nkinds)
        return s;
    return s & PC_FLIP ? HAND_SLOTS : PC_FLIP + 1;
}

static inline const tower *pos_tower(const tiers_pos *p, int sq) { return &p->board[sq]; }
static inline piece_t pos_top(const tiers_pos *p, int sq)
{
    const tower *t = &p->board[sq];
    return t->h ? t->p[t->h - 1] : 0;
}
static inline int pos_on_board(const tiers_pos *p, int file, int rank)
{
    return (unsigned)file < p->v->files && (unsigned)rank < p->v->ranks;
}

/* Hash keys (no tables: a mixing function of the coordinates).  Inline:
 * they are asked for after every make and by every remembered answer. */

/* splitmix64 finaliser: a table-free Zobrist key, so 16x16 boards with
 * 8 tiers and 2048 piece codes need no 32 MiB table. */
static inline uint64_t zobrist_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
static inline uint64_t zobrist_piece(int sq, int tier, piece_t pc)
{
    return zobrist_mix(((uint64_t)sq << 24) | ((uint64_t)tier << 16) | pc);
}
static inline uint64_t zobrist_hand(int owner, int slot, int count)
{
    if (count == 0)
        return 0;
    return zobrist_mix(0x1000000000ull | ((uint64_t)owner << 24) | ((uint64_t)slot << 12) |
                       (uint64_t)count);
}
/* Side to move, setup phase and mode; zobrist_state adds the script
 * variables to it. */
static inline uint64_t zobrist_turn(const pos_state *st)
{
    return zobrist_mix(0x2000000000ull | ((uint64_t)st->side << 16) |
                       ((uint64_t)st->setup_left << 8) | st->mode);
}
/* Has some script variable a value other than 0?  (Most positions have
 * none: the keys then skip them.) */
static inline int pos_vars_set(const pos_state *st)
{
    uint64_t w[2];
    _Static_assert(sizeof st->vars == sizeof w, "the variables in two words");
    memcpy(w, st->vars, sizeof w);
    return (w[0] | w[1]) != 0;
}
/* The keys of the variables that are set. */
uint64_t zobrist_vars(const pos_state *st);
static inline uint64_t zobrist_state(const pos_state *st)
{
    uint64_t k = zobrist_turn(st);
    return pos_vars_set(st) ? k ^ zobrist_vars(st) : k;
}
/* The whole position's key with its ply: what remembered answers about a
 * position are checked against. */
static inline uint64_t pos_key(const tiers_pos *p)
{
    return (p->st.hash ^ zobrist_state(&p->st) ^ p->st.ply * 0x9e3779b97f4a7c15ull) | 1;
}

/* The key repetition compares, by the variant's repetition_key. */
static inline uint64_t pos_rep_key(const tiers_variant *v, const pos_state *st)
{
    switch (v->repetition_key) {
    case REPKEY_BOARD:
        return st->board_hash;
    case REPKEY_POSITION: /* board and hands (st->hash), whose turn */
        return st->hash ^ zobrist_turn(st);
    default:
        return st->hash ^ zobrist_state(st);
    }
}

/* Edit primitives.  idx is 0-based from the bottom. */
void pos_push(tiers_pos *p, int sq, piece_t pc);
piece_t pos_pop(tiers_pos *p, int sq);
void pos_insert(tiers_pos *p, int sq, int idx, piece_t pc);
piece_t pos_remove(tiers_pos *p, int sq, int idx);
void pos_replace(tiers_pos *p, int sq, int idx, piece_t pc);
void pos_hand_add(tiers_pos *p, int owner, int slot, int delta);
void pos_set_var(tiers_pos *p, int i, int value);

/* Empties the board and hands, state to defaults (no frame). */
void pos_clear(tiers_pos *p);
/* Recomputes hashes and counters from scratch (after parsing). */
void pos_rehash(tiers_pos *p);

/* A compact copy of a position's content, for tables of many positions
 * (the solver's): the towers of the board's squares, the hands, the side,
 * setup phase, mode, the ply given and the variables; not the clock, the
 * move number, a winner flag nor the history.  Equal content gives equal
 * bytes.  pos_pack writes at most POS_PACK_MAX bytes, zero-filled up to a
 * multiple of 8 (the length returned does not count the fill).
 * pos_unpack sets p to that content as pos_clear, a parse and pos_rehash
 * would, counters and keys included; it leaves the squares off the board
 * as they are (empty in every position of p's variant). */
enum { POS_PACK_MAX = TIERS_MAX_SQUARES * (1 + 2 * TIERS_MAX_TIERS) + 3 * HAND_SLOTS * 3 + 32 };
size_t pos_pack(const tiers_pos *p, int ply, uint8_t *out);
void pos_unpack(tiers_pos *p, const uint8_t *in);

/* Frames: make = begin + edits + end; unmake restores a frame. */
int pos_frame_begin(tiers_pos *p, const tiers_move *m);
void pos_frame_undo(tiers_pos *p);

/* A look at the position before its last (complete) move: pos_peek_before
 * rolls the last undo record back and keeps what the move had changed in
 * *saved; pos_peek_after puts the position after the move back exactly.
 * Between the two the position may only be read (hooks may run: they see
 * the earlier position). */
typedef struct pos_peek {
    tower towers[MAX_UNDO_TOWERS];
    uint8_t hands[MAX_UNDO_HANDS];
    pos_state st;
} pos_peek;
void pos_peek_before(tiers_pos *p, pos_peek *saved);
void pos_peek_after(tiers_pos *p, const pos_peek *saved);

/* The whole position against its invariants (as Stockfish's pos_is_ok):
 * keys and counters recomputed from the board and hands equal the ones
 * kept move by move, every piece code is the variant's, no tower is off
 * the board or too tall, a lone royal piece stands where it is recorded.
 * Returns 0, or -1 with the first broken one in why.  POS_ASSERT_OK runs
 * it after every make and unmake when TIERS_POS_CHECK is defined: in
 * builds without NDEBUG (Debug) and in the sanitizer and fuzz builds (the
 * top CMakeLists.txt), so every test and fuzz run checks; it aborts on a
 * failure.  The sanitizer builds check one make or unmake in 16
 * (TIERS_POS_CHECK_EVERY), for time.  Release compiles it out. */
int pos_check(const tiers_pos *p, char *why, size_t size);
#if !defined(NDEBUG) && !defined(TIERS_POS_CHECK)
#define TIERS_POS_CHECK 1
#endif
#ifdef TIERS_POS_CHECK
void pos_assert_ok(const tiers_pos *p, const char *after);
#define POS_ASSERT_OK(p, after) pos_assert_ok(p, after)
#else
#define POS_ASSERT_OK(p, after) ((void)0)
#endif

/* Side-to-move helpers. */
static inline int pos_owner_is(const tiers_pos *p, piece_t pc, int side)
{
    int o = pc_owner(pc);
    return o == side || (o == OWNER_SHARED && side == p->st.side);
}

#endif
