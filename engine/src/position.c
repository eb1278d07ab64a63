/* position.c - edit primitives, Zobrist keys, undo frames, and the
 * whole-position check. */
#include "position.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t zobrist_vars(const pos_state *st)
{
    uint64_t k = 0;
    for (int i = 0; i < MAX_VARS; i++)
        if (st->vars[i])
            k ^= zobrist_mix(0x3000000000ull | ((uint64_t)i << 20) | (uint16_t)st->vars[i]);
    return k;
}

static void snap_tower(tiers_pos *p, int sq)
{
    undo_rec *u = p->frame;
    if (!u)
        return;
    for (int i = 0; i < u->ntowers; i++)
        if (u->tsq[i] == sq)
            return;
    if (u->ntowers == MAX_UNDO_TOWERS) {
        p->frame_overflow = 1;
        return;
    }
    u->tsq[u->ntowers] = (uint8_t)sq;
    u->towers[u->ntowers++] = p->board[sq];
}

static void snap_hand(tiers_pos *p, int owner, int slot)
{
    undo_rec *u = p->frame;
    if (!u)
        return;
    uint16_t code = (uint16_t)(owner << 8 | slot);
    for (int i = 0; i < u->nhands; i++)
        if (u->hcode[i] == code)
            return;
    if (u->nhands == MAX_UNDO_HANDS) {
        p->frame_overflow = 1;
        return;
    }
    u->hcode[u->nhands] = code;
    u->hcount[u->nhands++] = p->hand[owner][slot];
}

/* Keeps the per-side counts, and where a lone royal piece stands (a
 * second royal makes the square unknown: callers then scan). */
static void count_piece(tiers_pos *p, int sq, piece_t pc, int delta)
{
    int o = pc_owner(pc);
    if (o >= 2)
        return;
    p->st.onboard[o] = (uint16_t)(p->st.onboard[o] + delta);
    if (!p->v->royal_code[pc])
        return;
    p->st.royal_n[o] = (uint8_t)(p->st.royal_n[o] + delta);
    p->st.royal_sq[o] = delta > 0 && p->st.royal_n[o] == 1 ? (tiers_square)sq : TIERS_NO_SQUARE;
}

static void hash_piece(tiers_pos *p, int sq, int idx, piece_t pc)
{
    uint64_t k = zobrist_piece(sq, idx, pc);
    p->st.board_hash ^= k;
    p->st.hash ^= k;
    if (p->v->region_code[pc])
        p->st.region_hash ^= k;
}

/* A tower's height goes from h by delta (+-1): the count of towers by
 * height follows. */
static void count_height(tiers_pos *p, int h, int delta)
{
    if (h)
        p->st.towers_of[h - 1]--;
    if (h + delta)
        p->st.towers_of[h + delta - 1]++;
}

void pos_push(tiers_pos *p, int sq, piece_t pc)
{
    tower *t = &p->board[sq];
    snap_tower(p, sq);
    hash_piece(p, sq, t->h, pc);
    count_height(p, t->h, 1);
    t->p[t->h++] = pc;
    count_piece(p, sq, pc, 1);
}

piece_t pos_pop(tiers_pos *p, int sq)
{
    tower *t = &p->board[sq];
    snap_tower(p, sq);
    count_height(p, t->h, -1);
    piece_t pc = t->p[--t->h];
    hash_piece(p, sq, t->h, pc);
    count_piece(p, sq, pc, -1);
    return pc;
}

/* Inserting or removing inside a tower shifts the pieces above it, whose
 * keys depend on their tier: rehash the changed part. */
static void hash_range(tiers_pos *p, int sq, int from)
{
    const tower *t = &p->board[sq];
    for (int i = from; i < t->h; i++)
        hash_piece(p, sq, i, t->p[i]);
}

void pos_insert(tiers_pos *p, int sq, int idx, piece_t pc)
{
    tower *t = &p->board[sq];
    snap_tower(p, sq);
    hash_range(p, sq, idx);
    memmove(&t->p[idx + 1], &t->p[idx], (size_t)(t->h - idx) * sizeof t->p[0]);
    t->p[idx] = pc;
    count_height(p, t->h, 1);
    t->h++;
    hash_range(p, sq, idx);
    count_piece(p, sq, pc, 1);
}

piece_t pos_remove(tiers_pos *p, int sq, int idx)
{
    tower *t = &p->board[sq];
    snap_tower(p, sq);
    hash_range(p, sq, idx);
    piece_t pc = t->p[idx];
    memmove(&t->p[idx], &t->p[idx + 1], (size_t)(t->h - idx - 1) * sizeof t->p[0]);
    count_height(p, t->h, -1);
    t->h--;
    hash_range(p, sq, idx);
    count_piece(p, sq, pc, -1);
    return pc;
}

void pos_replace(tiers_pos *p, int sq, int idx, piece_t pc)
{
    tower *t = &p->board[sq];
    snap_tower(p, sq);
    hash_piece(p, sq, idx, t->p[idx]);
    count_piece(p, sq, t->p[idx], -1);
    t->p[idx] = pc;
    hash_piece(p, sq, idx, pc);
    count_piece(p, sq, pc, 1);
}

void pos_hand_add(tiers_pos *p, int owner, int slot, int delta)
{
    uint8_t *c = &p->hand[owner][slot];
    snap_hand(p, owner, slot);
    p->st.hash ^= zobrist_hand(owner, slot, *c);
    *c = (uint8_t)(*c + delta);
    p->st.hash ^= zobrist_hand(owner, slot, *c);
}

void pos_set_var(tiers_pos *p, int i, int value)
{
    p->st.vars[i] = (int16_t)value; /* in pos_state: restored wholesale */
}

void pos_clear(tiers_pos *p)
{
    memset(p->board, 0, sizeof p->board);
    memset(p->hand, 0, sizeof p->hand);
    memset(&p->st, 0, sizeof p->st);
    p->depth = 0;
    p->frame = NULL;
    p->frame_overflow = 0;
}

/* Adds the keys and counts of the tower on sq (pos_rehash). */
static void rehash_square(tiers_pos *p, int sq)
{
    const tower *t = &p->board[sq];
    if (t->h)
        p->st.towers_of[t->h - 1]++;
    for (int i = 0; i < t->h; i++) {
        uint64_t k = zobrist_piece(sq, i, t->p[i]);
        p->st.board_hash ^= k;
        if (p->v->region_code[t->p[i]])
            p->st.region_hash ^= k;
        count_piece(p, sq, t->p[i], 1);
    }
}

void pos_rehash(tiers_pos *p)
{
    p->st.board_hash = p->st.region_hash = 0;
    p->st.onboard[0] = p->st.onboard[1] = 0;
    p->st.royal_n[0] = p->st.royal_n[1] = 0;
    memset(p->st.towers_of, 0, sizeof p->st.towers_of);
    /* squares off the board stay empty, so only the board's are read */
    for (int r = 0; r < p->v->ranks; r++)
        for (int f = 0; f < p->v->files; f++)
            rehash_square(p, sq_make(f, r));
    p->st.hash = p->st.board_hash;
    for (int o = 0; o < 3; o++)
        for (int s = 0; s < HAND_SLOTS; s++)
            if (p->hand[o][s])
                p->st.hash ^= zobrist_hand(o, s, p->hand[o][s]);
    p->st.rep_key = pos_rep_key(p->v, &p->st);
}

/* Hand slots are kind | PC_FLIP: only kinds 0..nkinds-1, face up or
 * flipped, can be non-zero; they are read eight at a time. */
static int hand_words_end(const tiers_variant *v) { return (v->nkinds + 7) & ~7; }

/* The word of a hand's eight slots from `at` on. */
static inline uint64_t hand_word(const uint8_t *hand, int at)
{
    uint64_t w;
    memcpy(&w, hand + at, sizeof w);
    return w;
}

/* The entries (owner, slot, count) of the non-empty slots among the
 * eight of hand from `at` on; returns the end of what it wrote. */
static uint8_t *pack_word(const uint8_t *hand, int owner, int at, uint8_t *o, int *n)
{
    uint64_t w = hand_word(hand, at);
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (w) { /* straight to the non-zero bytes, in slot order */
        int b = __builtin_ctzll(w) >> 3;
        *o++ = (uint8_t)owner;
        *o++ = (uint8_t)(at + b);
        *o++ = hand[at + b];
        w &= ~(0xffull << 8 * b);
        ++*n;
    }
#else
    for (int s = at; w && s < at + 8; s++)
        if (hand[s]) {
            *o++ = (uint8_t)owner;
            *o++ = (uint8_t)s;
            *o++ = hand[s];
            ++*n;
        }
#endif
    return o;
}

/* The hand entries of pos_pack, by owner and slot; returns the end of
 * what it wrote.  Reads the hands eight slots at a time, only the words
 * that can hold the variant's kinds, and an empty hand's once. */
static uint8_t *pack_hands(const tiers_pos *p, uint8_t *o, int *n)
{
    _Static_assert(PC_FLIP % 8 == 0 && 2 * PC_FLIP == HAND_SLOTS, "hand words by kind");
    int end = hand_words_end(p->v);
    for (int ow = 0; ow < 3; ow++) {
        const uint8_t *hand = p->hand[ow];
        int k = 0;
        while (k < end && !(hand_word(hand, k) | hand_word(hand, PC_FLIP + k)))
            k += 8;
        if (k == end) /* an empty hand */
            continue;
        for (int half = 0; half < HAND_SLOTS; half += PC_FLIP)
            for (int k = half; k < half + end; k += 8)
                o = pack_word(hand, ow, k, o, n);
    }
    return o;
}

/* A tower: its height, then its pieces bottom up, two bytes each (low
 * byte first); returns the end of what it wrote.  Where the pieces are
 * kept in that order (little-endian) all the slots are copied at once:
 * the bytes past the tower's are written over by what follows (pos_pack
 * writes at least eight bytes more, and reads none of them). */
static inline uint8_t *pack_tower(const tower *t, uint8_t *o)
{
    int h = t->h;
    *o++ = (uint8_t)h;
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(o, t->p, sizeof t->p);
    return o + 2 * h;
#else
    for (int i = 0; i < h; i++) {
        *o++ = (uint8_t)t->p[i];
        *o++ = (uint8_t)(t->p[i] >> 8);
    }
    return o;
#endif
}

/* A byte of which variables are set, then their values; returns the end. */
static uint8_t *pack_vars(const pos_state *st, uint8_t *o)
{
    _Static_assert(MAX_VARS <= 8, "one byte of variables set");
    uint8_t *mask = o++;
    *mask = 0;
    if (!pos_vars_set(st)) /* (most positions have none) */
        return o;
    for (int i = 0; i < MAX_VARS; i++)
        if (st->vars[i]) {
            *mask |= (uint8_t)(1u << i);
            *o++ = (uint8_t)st->vars[i];
            *o++ = (uint8_t)((uint16_t)st->vars[i] >> 8);
        }
    return o;
}

size_t pos_pack(const tiers_pos *p, int ply, uint8_t *out)
{
    /* (in locals: the byte stores could otherwise change them, for all
       the compiler knows) */
    int files = p->v->files, ranks = p->v->ranks;
    uint8_t *o = out;
    for (int r = 0; r < ranks; r++) {
        const tower *t = &p->board[sq_make(0, r)];
        for (int f = 0; f < files; f++, t++) /* (a rank's squares in a row) */
            o = pack_tower(t, o);
    }
    uint8_t *count = o;
    int n = 0;
    o = pack_hands(p, o + 2, &n);
    count[0] = (uint8_t)n;
    count[1] = (uint8_t)(n >> 8);
    *o++ = p->st.side;
    *o++ = p->st.setup_left;
    *o++ = p->st.mode;
    *o++ = (uint8_t)ply;
    *o++ = (uint8_t)(ply >> 8);
    o = pack_vars(&p->st, o);
    size_t len = (size_t)(o - out);
    _Static_assert(POS_PACK_MAX >= TIERS_MAX_SQUARES * (1 + 2 * TIERS_MAX_TIERS) + 2 +
                                       3 * HAND_SLOTS * 3 + 6 + 2 * MAX_VARS + 8,
                   "room for the fill");
    memset(o, 0, 8); /* the fill up to a multiple of 8 */
    return len;
}

void pos_unpack(tiers_pos *p, const uint8_t *in)
{
    const tiers_variant *v = p->v;
    memset(p->hand, 0, sizeof p->hand);
    memset(&p->st, 0, sizeof p->st);
    p->depth = 0;
    p->frame = NULL;
    p->frame_overflow = 0;
    int files = v->files, ranks = v->ranks; /* (the stores below could alias them) */
    for (int r = 0; r < ranks; r++)
        for (int f = 0; f < files; f++) {
            int sq = sq_make(f, r), h = *in++;
            tower *t = &p->board[sq];
            memset(t, 0, sizeof *t);
            t->h = (uint8_t)h;
            for (int i = 0; i < h; i++, in += 2)
                t->p[i] = (piece_t)(in[0] | in[1] << 8);
            if (h) /* (an empty square adds no key and no count) */
                rehash_square(p, sq);
        }
    p->st.hash = p->st.board_hash;
    int n = in[0] | in[1] << 8;
    in += 2;
    for (int i = 0; i < n; i++, in += 3) {
        p->hand[in[0]][in[1]] = in[2];
        p->st.hash ^= zobrist_hand(in[0], in[1], in[2]);
    }
    p->st.side = in[0];
    p->st.setup_left = in[1];
    p->st.mode = in[2];
    p->st.ply = (uint16_t)(in[3] | in[4] << 8);
    int mask = in[5];
    in += 6;
    for (int i = 0; i < MAX_VARS; i++)
        if (mask & (1 << i)) {
            p->st.vars[i] = (int16_t)(uint16_t)(in[0] | in[1] << 8);
            in += 2;
        }
    p->st.rep_key = pos_rep_key(p->v, &p->st);
}

int pos_frame_begin(tiers_pos *p, const tiers_move *m)
{
    if (p->depth >= p->cap)
        return TIERS_EFULL;
    undo_rec *u = &p->undo[p->depth++];
    u->st = p->st;
    u->move = *m;
    u->ntowers = u->nhands = 0;
    p->frame = u;
    p->frame_overflow = 0;
    return 0;
}

void pos_frame_undo(tiers_pos *p)
{
    undo_rec *u = &p->undo[--p->depth];
    for (int i = u->ntowers - 1; i >= 0; i--)
        p->board[u->tsq[i]] = u->towers[i];
    for (int i = u->nhands - 1; i >= 0; i--)
        p->hand[u->hcode[i] >> 8][u->hcode[i] & 0xff] = u->hcount[i];
    p->st = u->st;
    p->frame = NULL;
}

void pos_peek_before(tiers_pos *p, pos_peek *saved)
{
    const undo_rec *u = &p->undo[p->depth - 1];
    for (int i = 0; i < u->ntowers; i++)
        saved->towers[i] = p->board[u->tsq[i]];
    for (int i = 0; i < u->nhands; i++)
        saved->hands[i] = p->hand[u->hcode[i] >> 8][u->hcode[i] & 0xff];
    saved->st = p->st;
    pos_frame_undo(p);
}

void pos_peek_after(tiers_pos *p, const pos_peek *saved)
{
    const undo_rec *u = &p->undo[p->depth++];
    for (int i = 0; i < u->ntowers; i++)
        p->board[u->tsq[i]] = saved->towers[i];
    for (int i = 0; i < u->nhands; i++)
        p->hand[u->hcode[i] >> 8][u->hcode[i] & 0xff] = saved->hands[i];
    p->st = saved->st;
}

/* ------------------------------------------------------------ the check */

static int check_failed(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return -1;
}

/* A piece code the variant can hold: a kind it has, an owner, a back face
 * only on a two-faced tile, no bits above the facing. */
static int piece_ok(const tiers_variant *v, piece_t pc)
{
    int k = pc_kind(pc);
    return pc < PC_CODES && k >= 1 && k < v->nkinds && pc_owner(pc) <= OWNER_SHARED &&
           (!pc_flipped(pc) || v->kinds[k].face[1] != NO_FACE);
}

/* What the incremental state must equal, recomputed from the board. */
typedef struct recount {
    uint64_t board, region;
    uint16_t onboard[2], towers_of[TIERS_MAX_TIERS];
    uint8_t royal_n[2];
} recount;

static const char *name_of(int sq, char name[8])
{
    return tiers_square_name(sq_file(sq), sq_rank(sq), name);
}

static int check_board(const tiers_pos *p, recount *r, char *why, size_t size)
{
    const tiers_variant *v = p->v;
    char name[8];
    memset(r, 0, sizeof *r);
    for (int sq = 0; sq < TIERS_MAX_SQUARES; sq++) {
        const tower *t = &p->board[sq];
        if (!t->h)
            continue;
        if (!pos_on_board(p, sq_file(sq), sq_rank(sq)))
            return check_failed(why, size, "a tower on %s, off the %dx%d board",
                                name_of(sq, name), v->files, v->ranks);
        if (t->h > v->max_tiers)
            return check_failed(why, size, "the tower on %s is %d high (max %d)",
                                name_of(sq, name), t->h, v->max_tiers);
        r->towers_of[t->h - 1]++;
        for (int i = 0; i < t->h; i++) {
            piece_t pc = t->p[i];
            if (!piece_ok(v, pc))
                return check_failed(why, size, "bad piece code %#x at tier %d of %s", pc,
                                    i + 1, name_of(sq, name));
            uint64_t k = zobrist_piece(sq, i, pc);
            r->board ^= k;
            if (v->region_code[pc])
                r->region ^= k;
            if (pc_owner(pc) < 2) {
                r->onboard[pc_owner(pc)]++;
                r->royal_n[pc_owner(pc)] += v->royal_code[pc] != 0;
            }
        }
    }
    return 0;
}

static int check_hands(const tiers_pos *p, uint64_t *key, char *why, size_t size)
{
    *key = 0;
    for (int o = 0; o < 3; o++)
        for (int s = 0; s < HAND_SLOTS; s++) {
            int n = p->hand[o][s];
            if (!n)
                continue;
            if ((s & PC_KIND_MASK) >= p->v->nkinds)
                return check_failed(why, size, "hand %d holds %d of kind %d, which the variant "
                                    "has not", o, n, s & PC_KIND_MASK);
            *key ^= zobrist_hand(o, s, n);
        }
    return 0;
}

/* A lone royal piece's recorded square holds a royal piece of its side. */
static int royal_at(const tiers_pos *p, int side)
{
    int sq = p->st.royal_sq[side];
    if (p->st.royal_n[side] != 1 || sq == TIERS_NO_SQUARE)
        return 1;
    if (sq >= TIERS_MAX_SQUARES)
        return 0;
    const tower *t = &p->board[sq];
    for (int i = 0; i < t->h; i++)
        if (p->v->royal_code[t->p[i]] && pc_owner(t->p[i]) == side)
            return 1;
    return 0;
}

int pos_check(const tiers_pos *p, char *why, size_t size)
{
    const tiers_variant *v = p->v;
    const pos_state *st = &p->st;
    recount r;
    uint64_t hands;
    if (check_board(p, &r, why, size) < 0 || check_hands(p, &hands, why, size) < 0)
        return -1;
    if (st->board_hash != r.board || st->region_hash != r.region)
        return check_failed(why, size, "the %s key differs from the board's",
                            st->board_hash != r.board ? "board" : "region");
    if (st->hash != (r.board ^ hands))
        return check_failed(why, size, "the position key differs from the board and hands'");
    for (int o = 0; o < 2; o++) {
        if (st->onboard[o] != r.onboard[o] || st->royal_n[o] != r.royal_n[o])
            return check_failed(why, size, "side %d: %d pieces, %d royal counted; the board "
                                "has %d, %d", o, st->onboard[o], st->royal_n[o], r.onboard[o],
                                r.royal_n[o]);
        if (!royal_at(p, o))
            return check_failed(why, size, "side %d: no royal piece on its recorded square %d",
                                o, st->royal_sq[o]);
    }
    if (memcmp(st->towers_of, r.towers_of, sizeof r.towers_of))
        return check_failed(why, size, "the towers counted by height differ from the board's");
    if (st->side > 1 || st->setup_left > 3 || st->mode >= (v->nmodes ? v->nmodes : 1) ||
        st->winner_flag > 2 || (st->win_by_exit && !st->winner_flag))
        return check_failed(why, size, "bad state: side %d, setup %d, mode %d, winner %d",
                            st->side, st->setup_left, st->mode, st->winner_flag);
    if (v->repetition && st->rep_key != pos_rep_key(v, st))
        return check_failed(why, size, "the repetition key is stale");
    if (p->depth < 0 || p->depth > p->cap)
        return check_failed(why, size, "history depth %d of %d", p->depth, p->cap);
    return 0;
}

#ifdef TIERS_POS_CHECK
#ifndef TIERS_POS_CHECK_EVERY
#define TIERS_POS_CHECK_EVERY 1
#endif
void pos_assert_ok(const tiers_pos *p, const char *after)
{
    static _Thread_local unsigned calls; /* the sanitizer builds check one in 16 */
    char why[256];
    if (++calls % TIERS_POS_CHECK_EVERY == 0 && pos_check(p, why, sizeof why) < 0) {
        fprintf(stderr, "tiers: the position is inconsistent after %s: %s\n", after, why);
        abort();
    }
}
#endif
