/* filter.c - narrowing (docs/lua-api.md, "Narrowing"): the tests in C
 * that decide whether a move or a position concerns a script's hook at
 * all, from the hook's declared fields (<hook>_faces, _kinds, _ranks,
 * _heights, _setup, _check, ...), so that most moves never reach the
 * script.  Engine logic only: no script is called from here.  The Lua
 * module reads the fields into hook_filter records and asks these tests
 * before each call. */
#include "filter.h"

#include "movegen.h"
#include "position.h"

/* The tower on sq before the move whose undo record is u (the record's
 * first snapshot of a square is its state before the move); with u NULL,
 * the tower as it stands. */
static const tower *old_tower(const tiers_pos *p, const undo_rec *u, int sq)
{
    for (int i = 0; u && i < u->ntowers; i++)
        if (u->tsq[i] == sq)
            return &u->towers[i];
    return &p->board[sq];
}

/* The piece that acts in m (the piece moved, striking or dropped) and the
 * piece it takes, as they were before m (0 = none).  u as in old_tower. */
void filter_actors(const tiers_pos *p, const undo_rec *u, const tiers_move *m,
                        piece_t *actor, piece_t *taken)
{
    *actor = *taken = 0;
    const tower *t;
    switch (m->kind) {
    case TIERS_MV_DROP:
        *actor = m->piece;
        break;
    case TIERS_MV_MOVE:
    case TIERS_MV_STACK:
    case TIERS_MV_CAPTURE:
    case TIERS_MV_ROTATE: /* the piece turned in place acts too */
        if (m->from != TIERS_NO_SQUARE && (t = old_tower(p, u, m->from))->h)
            *actor = t->p[t->h - 1];
        if (m->kind == TIERS_MV_CAPTURE && m->to != TIERS_NO_SQUARE &&
            (t = old_tower(p, u, m->to))->h)
            *taken = t->p[t->h - 1];
        break;
    case TIERS_MV_STRIKE:
        if (m->from == TIERS_NO_SQUARE)
            break;
        t = old_tower(p, u, m->from);
        if (m->tier >= 1 && m->tier <= t->h)
            *actor = t->p[m->tier - 1];
        if (m->arg >= 1 && m->arg <= t->h)
            *taken = t->p[m->arg - 1];
        break;
    default:
        break;
    }
}

/* The side that plays m, and whether it was still in its setup. */
static int move_side(const tiers_pos *p, const undo_rec *u)
{
    return u ? u->st.side : p->st.side;
}

/* A square's rank counted from side's own back rank, 1-based. */
static int own_rank(const tiers_variant *v, int side, int sq)
{
    return v->forward[side] == DIR_S ? v->ranks - sq_rank(sq) : sq_rank(sq) + 1;
}

/* check, for a move already made: does it leave its player's opponent in
 * check?  A drop onto an empty square only adds a piece that projects no
 * region, so it can give check only by reaching the royal piece itself:
 * the reach mask of its face (any tier, any borrowed table) answers that
 * at once for most drops.  (Not when a check hook decides what check is.) */
static int gives_check(const tiers_pos *p, const undo_rec *u, const tiers_move *m)
{
    const tiers_variant *v = p->v;
    int them = move_side(p, u) ^ 1, royal = p->st.royal_sq[them];
    if (m->kind == TIERS_MV_DROP && !(v->hooks & HOOK_CHECK) && royal != TIERS_NO_SQUARE &&
        p->st.royal_n[them] == 1 &&
        m->to != TIERS_NO_SQUARE && p->board[m->to].h == 1 &&
        pc_owner(p->board[m->to].p[0]) != OWNER_SHARED) {
        piece_t pc = p->board[m->to].p[0];
        int face = v->face_of[pc], source = 0;
        for (int i = 0; i < v->nregions; i++)
            source |= v->regions[i].face == face;
        int bit = (sq_rank(royal) - sq_rank(m->to) + 15) * 31 + sq_file(royal) -
                  sq_file(m->to) + 15;
        if (!source && !(v->reach_any[face][pc_facing(pc)][bit >> 6] >> (bit & 63) & 1))
            return 0;
    }
    return movegen_in_check(p, them);
}

/* Was `side` in check before the move whose undo record is the last one
 * (a move made and complete, as in veto and expand)?  The record is rolled
 * back, the test made (check hooks may run), and the position after the
 * move put back as it was.  The answer is kept for the next move of the
 * same position, by its 64-bit key, ply and clock as script_in_check keeps
 * its answers (a collision of both keys is not guarded against), unless a
 * hook failed: the failure reads as "not in check" and must not stay. */
int filter_check_before(tiers_pos *p, int side, check_memo *memo)
{
    const undo_rec *u = &p->undo[p->depth - 1];
    uint64_t key = u->st.hash ^ zobrist_state(&u->st);
    if (memo->used && memo->hash == key && memo->ply == u->st.ply &&
        memo->clock == u->st.clock && memo->side == side)
        return memo->answer;
    pos_peek after;
    pos_peek_before(p, &after);
    int r = movegen_in_check(p, side);
    pos_peek_after(p, &after);
    if (r >= 0 && !p->script_failed)
        *memo = (check_memo){key, u->st.ply, u->st.clock, (uint8_t)side, 1, (uint8_t)r};
    return r;
}

/* expand_reach {0, 0} (stuck), before the move (u NULL) or after it:
 * could the acting piece of m be left where no table it might use reaches
 * a square of the board?  The tables it might use: its face's at the tier it lands on,
 * that tier raised by a region, and the over-enemy face's; any tier if a
 * tier hook or a capture rule makes the landing tier uncertain. */
int filter_may_be_stuck(const tiers_pos *p, const undo_rec *u, const tiers_move *m)
{
    piece_t a, t;
    filter_actors(p, u, m, &a, &t);
    if (!a || m->to == TIERS_NO_SQUARE)
        return 0;
    return filter_stuck_landing(p, m, a, old_tower(p, u, m->to)->h);
}

int filter_stuck_landing(const tiers_pos *p, const tiers_move *m, piece_t a, int h)
{
    const tiers_variant *v = p->v;
    int face = v->face_of[a], facing = filter_facing_after(v, m, a), to = m->to, lo = 1,
        hi = v->max_tiers;
    if (!(v->hooks & HOOK_TIER) && v->unit == UNIT_TOP) {
        if (m->kind == TIERS_MV_MOVE || m->kind == TIERS_MV_STACK || m->kind == TIERS_MV_DROP)
            lo = h + 1;
        else if (m->kind == TIERS_MV_CAPTURE && v->capture == CAP_TOP)
            lo = h;
        else if (m->kind == TIERS_MV_CAPTURE && v->capture == CAP_TOWER)
            lo = 1;
        else
            lo = 0;
        if (lo > 0) {
            hi = v->nregions ? lo + v->region_bonus : lo;
            if (hi > v->max_tiers)
                hi = v->max_tiers;
        } else {
            lo = 1;
        }
    }
    if (hi > TIERS_MAX_TIERS)
        hi = TIERS_MAX_TIERS;
    /* the word of `to` in each tier's table, one tier's tables apart */
    const uint64_t *own = &v->stuck[face][0][facing][to >> 6], bit = 1ull << (to & 63);
    const uint64_t *oe = v->over_enemy_face != NO_FACE
                             ? &v->stuck[v->over_enemy_face][0][facing][to >> 6]
                             : own;
    enum { TIER_WORDS = sizeof v->stuck[0][0] / sizeof(uint64_t) };
    for (int tier = lo; tier <= hi; tier++)
        if ((own[(tier - 1) * TIER_WORDS] | oe[(tier - 1) * TIER_WORDS]) & bit)
            return 1;
    return 0;
}

/* The side a WHOSE_* code names when `side` moves; -1: either. */
static int whose(int code, int side)
{
    return code == WHOSE_ANY ? -1 : code == WHOSE_MOVER ? side : side ^ 1;
}

/* Does the tower on sq hold one of side's royal pieces? */
static int royal_on(const tiers_pos *p, int sq, int side)
{
    const tower *t = &p->board[sq];
    for (int i = 0; i < t->h; i++)
        if (pc_owner(t->p[i]) == side && p->v->royal_code[t->p[i]])
            return 1;
    return 0;
}

static const int8_t orthogonal[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};

/* Is sq orthogonally next to a royal piece of side? */
static int beside_royal(const tiers_pos *p, int sq, int side)
{
    for (int d = 0; d < 4; d++) {
        int x = sq_file(sq) + orthogonal[d][0], y = sq_rank(sq) + orthogonal[d][1];
        if (x >= 0 && x < p->v->files && y >= 0 && y < p->v->ranks &&
            royal_on(p, sq_make(x, y), side))
            return 1;
    }
    return 0;
}

/* A count in progress: what it takes (the test's fields made into masks,
 * so that an absent field lets everything through without a branch),
 * what it has found, and (under `each`) the face and owner of each piece
 * found. */
typedef struct counting {
    uint64_t faces;           /* bit per face a piece may show */
    unsigned heights;         /* bit per height a tower may have */
    unsigned tiers;           /* bit per tier index (0-based) a piece may stand at */
    int top, owner, piece_test, total, most, nfound;
    uint8_t *found;           /* face * 4 + owner of each piece found */
} counting;

static void counting_start(counting *k, const count_test *ct, int side, uint8_t *found)
{
    k->faces = ct->faces ? ct->faces : ~0ull;
    k->heights = ct->heights ? ct->heights : ~0u;
    k->tiers = ct->tiers ? ct->tiers >> 1 : ~0u;
    k->top = whose(ct->top, side);
    k->owner = whose(ct->owner, side);
    k->piece_test = ct->faces || ct->tiers || k->owner >= 0 || ct->each;
    k->total = k->most = k->nfound = 0;
    k->found = found;
}

/* Under `each`: notes a piece found, and the most of one face and owner. */
static void count_each(counting *k, int face, piece_t pc)
{
    uint8_t id = (uint8_t)(face * 4 + pc_owner(pc));
    int same = 1;
    for (int j = 0; j < k->nfound; j++)
        same += k->found[j] == id;
    k->found[k->nfound++] = id;
    if (same > k->most)
        k->most = same;
}

/* The matches of ct in the tower on sq: its matching pieces (without a
 * piece test, all of them, or 1 under `towers`, even for an empty
 * square), 0 if the tower fails the height or top test.  Only the tiers
 * the test allows are looked at. */
static inline int tower_matches(const tiers_pos *p, const count_test *ct, counting *k,
                                const tower *t, int each)
{
    int h = t->h;
    if (!(k->heights >> h & 1) || (k->top >= 0 && (!h || pc_owner(t->p[h - 1]) != k->top)))
        return 0;
    if (!k->piece_test)
        return ct->towers ? 1 : h;
    int n = 0;
    for (unsigned at = k->tiers & ((1u << h) - 1); at; at &= at - 1) {
        piece_t pc = t->p[__builtin_ctz(at)];
        int face = p->v->face_of[pc];
        if ((k->owner >= 0 && pc_owner(pc) != k->owner) || !(k->faces >> face & 1))
            continue;
        n++;
        if (each)
            count_each(k, face, pc);
    }
    return n;
}

/* Counts the tower on sq into k, and hashes it into *key if it holds a
 * match (key non-NULL).  Returns whether the count has reached ct->min. */
static inline int count_at(const tiers_pos *p, const count_test *ct, counting *k, int sq,
                           uint64_t *key, int each)
{
    const tower *t = &p->board[sq];
    int n = tower_matches(p, ct, k, t, each);
    if (!n)
        return 0;
    k->total += ct->towers ? 1 : n;
    if (key)
        for (int j = 0; j < t->h; j++)
            *key ^= zobrist_piece(sq, j, t->p[j]);
    return (each ? k->most : k->total) >= ct->min;
}

/* Where the towers of each height stand on one board, for the board
 * counts of moves hooks over towers of given heights (blog's exchange:
 * three-tier towers), which are asked once a position: such a count reads
 * the few squares it needs here instead of passing over the board.  The
 * index is the board's whose key it keeps; it follows the board to the
 * next position by the towers the last move changed (its undo record: the
 * board differs from the record's only there, as unmake relies on), and
 * is made again from the board otherwise.  A collision of 64-bit board
 * keys is not guarded against, as in the memos.  One per thread, so the
 * positions of every variant share it in turn. */
typedef struct tower_index {
    const tiers_variant *v;   /* NULL: empty */
    uint64_t board_hash;
    uint8_t h[TIERS_MAX_SQUARES];                               /* heights */
    uint64_t at[TIERS_MAX_TIERS + 1][TIERS_MAX_SQUARES / 64]; /* squares by height */
} tower_index;

static _Thread_local tower_index by_height;

static void index_height(tower_index *x, int sq, int h)
{
    uint64_t bit = 1ull << (sq & 63); /* toggled twice when h is unchanged */
    x->at[x->h[sq]][sq >> 6] ^= bit;
    x->at[h][sq >> 6] ^= bit;
    x->h[sq] = (uint8_t)h;
}

/* How many moves back the index follows the board by their undo records
 * (a hook asked only while some tower of its heights stands skips the
 * positions between, and making the index again costs a pass over the
 * board). */
enum { INDEX_FOLLOW = 64 };

/* The index of p's board, brought up to date: from the last record whose
 * board is the index's, by the towers that record and the later ones
 * changed (the board differs from that record's only there). */
static const tower_index *index_of(const tiers_pos *p)
{
    tower_index *x = &by_height;
    if (x->v == p->v && x->board_hash == p->st.board_hash)
        return x;
    int from = -1;
    for (int d = p->depth - 1; x->v == p->v && d >= 0 && d >= p->depth - INDEX_FOLLOW; d--)
        if (p->undo[d].st.board_hash == x->board_hash) {
            from = d;
            break;
        }
    if (from >= 0) {
        for (int d = from; d < p->depth; d++)
            for (int i = 0; i < p->undo[d].ntowers; i++) {
                int sq = p->undo[d].tsq[i];
                index_height(x, sq, p->board[sq].h);
            }
    } else {
        memset(x, 0, sizeof *x);
        for (int r = 0; r < p->v->ranks; r++)
            for (int sq = sq_make(0, r), f = 0; f < p->v->files; f++, sq++) {
                x->h[sq] = p->board[sq].h;
                x->at[x->h[sq]][sq >> 6] |= 1ull << (sq & 63);
            }
    }
    x->v = p->v;
    x->board_hash = p->st.board_hash;
    return x;
}

/* The matches of ct (without `each`) in tower t when `side` moves, as
 * tower_matches counts them, reading the test's fields only as far as
 * the tower gets: most fail the height or top test. */
static inline int plain_matches(const tiers_variant *v, const count_test *ct, int side,
                                const tower *t)
{
    int h = t->h;
    if ((ct->heights && !(ct->heights >> h & 1)) ||
        (ct->top != WHOSE_ANY && (!h || pc_owner(t->p[h - 1]) != whose(ct->top, side))))
        return 0;
    int owner = whose(ct->owner, side);
    if (!ct->faces && !ct->tiers && owner < 0)
        return ct->towers ? 1 : h;
    int n = 0;
    unsigned tiers = ct->tiers ? ct->tiers >> 1 : ~0u;
    for (unsigned at = tiers & ((1u << h) - 1); at; at &= at - 1) {
        piece_t pc = t->p[__builtin_ctz(at)];
        n += (owner < 0 || pc_owner(pc) == owner) &&
             (!ct->faces || (ct->faces >> v->face_of[pc] & 1));
    }
    return n && ct->towers ? 1 : n;
}

/* Counts the tower on sq by ct into *total; whether it has reached
 * ct->min (key non-NULL: the tower hashed into it if it holds a match,
 * and 0, so that every tower is looked at). */
static inline int plain_at(const tiers_pos *p, const count_test *ct, int side, int sq,
                           int *total, uint64_t *key)
{
    const tower *t = &p->board[sq];
    int found = plain_matches(p->v, ct, side, t);
    if (!found)
        return 0;
    *total += found;
    if (!key)
        return *total >= ct->min;
    for (int j = 0; j < t->h; j++)
        *key ^= zobrist_piece(sq, j, t->p[j]);
    return 0;
}

/* count_passes next to a lone royal piece on `royal` (without `each`):
 * its orthogonal neighbours on the board but `skip`, those of a height
 * the test takes found first, as most often none is. */
static int count_near_royal(const tiers_pos *p, const count_test *ct, int royal, int side,
                            int skip, uint64_t *key)
{
    const tiers_variant *v = p->v;
    unsigned heights = ct->heights ? ct->heights : ~0u, near = 0;
    int x = sq_file(royal), y = sq_rank(royal);
    int sqs[4] = {royal + 16, royal + 1, royal - 16, royal - 1}; /* as `orthogonal` */
    int on[4] = {y + 1 < v->ranks, x + 1 < v->files, y > 0, x > 0};
    for (int d = 0; d < 4; d++)
        if (on[d] && sqs[d] != skip && (heights >> p->board[sqs[d]].h & 1))
            near |= 1u << d;
    int total = 0;
    for (; near; near &= near - 1)
        if (plain_at(p, ct, side, sqs[__builtin_ctz(near)], &total, key))
            return 1;
    return total >= ct->min;
}

/* count_passes for a moves hook's board count over towers of the listed
 * heights only (without `each`): those towers, from the index of the
 * board, in board order. */
static int count_by_height(const tiers_pos *p, const count_test *ct, int side, uint64_t *key)
{
    const tower_index *x = index_of(p);
    int last = sq_make(p->v->files - 1, p->v->ranks - 1) >> 6; /* the board's last word */
    unsigned hs = ct->heights >> 1 & 0xff;
    uint64_t set[TIERS_MAX_SQUARES / 64] = {0};
    for (; hs; hs &= hs - 1) {
        const uint64_t *at = x->at[1 + __builtin_ctz(hs)];
        for (int w = 0; w <= last; w++)
            set[w] |= at[w];
    }
    int total = 0;
    for (int w = 0; w <= last; w++)
        for (; set[w]; set[w] &= set[w] - 1)
            if (plain_at(p, ct, side, w * 64 + __builtin_ctzll(set[w]), &total, key))
                return 1;
    return total >= ct->min;
}

/* count_passes for the tests that look at a known short list of squares
 * without `each` (no record of the pieces found): next to a lone royal
 * piece, or a moves hook's board count over towers of listed heights.
 * -1: not such a test. */
static inline int count_listed(const tiers_pos *p, const count_test *ct, int at, int side,
                               uint64_t *key)
{
    if (ct->each)
        return -1;
    if (ct->on == COUNT_ROYAL && p->st.royal_n[side] == 1 &&
        p->st.royal_sq[side] != TIERS_NO_SQUARE)
        return count_near_royal(p, ct, p->st.royal_sq[side], side, ct->others ? at : -1, key);
    if (ct->on == COUNT_BOARD && at == TIERS_NO_SQUARE && ct->heights && !(ct->heights & 1))
        return count_by_height(p, ct, side, key);
    return -1;
}

/* count_passes over the squares of ct->on, each tower counted into a
 * `counting`; `each` is ct->each, a constant where this is inlined, so
 * that the usual count keeps no record of the pieces it finds. */
static inline int count_scan(const tiers_pos *p, const count_test *ct, int at, int side,
                             uint64_t *key, int each)
{
    const tiers_variant *v = p->v;
    uint8_t found[TIERS_MAX_SQUARES * TIERS_MAX_TIERS];
    counting k;
    counting_start(&k, ct, side, found);
    int royal = p->st.royal_sq[side], skip = ct->others ? at : -1;
    switch (ct->on) {
    case COUNT_TOWER:
        return !ct->others && count_at(p, ct, &k, at, key, each);
    case COUNT_FILE:
        for (int sq = sq_file(at), r = 0; r < v->ranks; r++, sq += 16)
            if (sq != skip && count_at(p, ct, &k, sq, key, each) && !key)
                return 1;
        break;
    case COUNT_RANK:
        for (int sq = sq_make(0, sq_rank(at)), x = 0; x < v->files; x++, sq++)
            if (sq != skip && count_at(p, ct, &k, sq, key, each) && !key)
                return 1;
        break;
    case COUNT_ROYAL:
        if (p->st.royal_n[side] == 1 && royal != TIERS_NO_SQUARE) {
            /* a lone royal piece: its neighbours only */
            for (int d = 0; d < 4; d++) {
                int x = sq_file(royal) + orthogonal[d][0], y = sq_rank(royal) + orthogonal[d][1];
                if (x >= 0 && x < v->files && y >= 0 && y < v->ranks &&
                    sq_make(x, y) != skip &&
                    count_at(p, ct, &k, sq_make(x, y), key, each) && !key)
                    return 1;
            }
            break;
        }
        goto every_square; /* several or none: every square next to one */
    case COUNT_BOARD:
        if (k.heights & 1)
            goto every_square;
        {
            /* only towers of the listed heights can match, and the
               position counts those: the scan ends at the last one */
            int left = 0;
            for (int h = 1; h <= TIERS_MAX_TIERS; h++)
                if (k.heights >> h & 1)
                    left += p->st.towers_of[h - 1];
            for (int r = 0; left > 0 && r < v->ranks; r++)
                for (int sq = sq_make(0, r), x = 0; x < v->files; x++, sq++) {
                    if (!(k.heights >> p->board[sq].h & 1))
                        continue;
                    left--;
                    if (sq != skip && count_at(p, ct, &k, sq, key, each) && !key)
                        return 1;
                    if (!left)
                        break;
                }
        }
        break;
    default:
    every_square: /* COUNT_ROYAL with several royal pieces or none too */
        for (int r = 0; r < v->ranks; r++)
            for (int sq = sq_make(0, r), x = 0; x < v->files; x++, sq++)
                if (sq != skip && (ct->on != COUNT_ROYAL || beside_royal(p, sq, side)) &&
                    count_at(p, ct, &k, sq, key, each) && !key)
                    return 1;
        break;
    }
    return (each ? k.most : k.total) >= ct->min;
}

/* Does count test ct pass, from the move's square `at` (none for a moves
 * hook) when `side` moves?  key non-NULL: every tower with a match is
 * hashed into *key (a pure moves hook's memo), so all are looked at. */
static int count_passes(const tiers_pos *p, const count_test *ct, int at, int side,
                        uint64_t *key)
{
    int r = count_listed(p, ct, at, side, key);
    if (r >= 0)
        return r;
    return ct->each ? count_scan(p, ct, at, side, key, 1) : count_scan(p, ct, at, side, key, 0);
}

/* The square a veto or after hook's count tests start from: the move's
 * destination, else (a strike) its origin. */
static int move_square(const tiers_move *m)
{
    return m->to != TIERS_NO_SQUARE ? m->to : m->from;
}

/* Is one of the position variables in `vars` (bit per variable) set? */
static inline int vars_set(const pos_state *st, unsigned vars)
{
    for (; vars; vars &= vars - 1)
        if (st->vars[__builtin_ctz(vars)])
            return 1;
    return 0;
}

/* Does the hook (narrowed by f) concern m?  m NULL: a hook without a move
 * (result), where only the variables count.  mf: m's faces.  (A move of
 * the hook's own effect always concerns it: the caller tests that.) */
int filter_pass(const tiers_pos *p, const undo_rec *u, const tiers_move *m,
                const move_faces *mf, const hook_filter *f, filter_state *fs)
{
    if (!f->on || vars_set(&p->st, f->vars))
        return 1;
    if (!f->move_test || f->never || !m)
        return 0;
    if (f->kinds && !(f->kinds >> m->kind & 1))
        return 0;
    if (f->setup && filter_in_setup(p, u) != (f->setup == 1))
        return 0;
    if ((f->faces || f->taken) && !(f->faces >> mf->actor & 1) && !(f->taken >> mf->taken & 1))
        return 0;
    if (f->lo) {
        if (m->to == TIERS_NO_SQUARE)
            return 0;
        int r = own_rank(p->v, move_side(p, u), m->to);
        if (r < f->lo || r > f->hi)
            return 0;
    }
    if (f->heights && (m->to == TIERS_NO_SQUARE || !(f->heights >> p->board[m->to].h & 1)))
        return 0;
    if (f->reach && !f->reach_hi && !filter_may_be_stuck(p, u, m))
        return 0;
    for (int i = 0; i < f->ncount; i++)
        if (move_square(m) == TIERS_NO_SQUARE ||
            !count_passes(p, &f->count[i], move_square(m), move_side(p, u), NULL))
            return 0;
    if (f->check && !gives_check(p, u, m))
        return 0;
    if (f->checked && !(u ? filter_check_before((tiers_pos *)p, move_side(p, u), &fs->before)
                          : movegen_in_check(p, move_side(p, u))))
        return 0;
    return 1;
}

/* Does the board hold a tower of one of these heights (bit h, h >= 1)? */
static int towers_of_heights(const tiers_pos *p, unsigned heights)
{
    for (unsigned hs = heights >> 1 & 0xff; hs; hs &= hs - 1)
        if (p->st.towers_of[__builtin_ctz(hs)])
            return 1;
    return 0;
}

/* filter_moves_pass past its phase test: the count tests, the key, check.
 * Apart (not inlined) so that the many calls the phase answers stay
 * short.  The key is made only once the counts have passed: most fail. */
__attribute__((noinline)) static int moves_counts_pass(const tiers_pos *p,
                                                       const hook_filter *f, int side,
                                                       uint64_t *key)
{
    for (int i = 0; i < f->ncount; i++) /* no tower a board count could find */
        if (f->count[i].on == COUNT_BOARD && f->count[i].heights > 1 &&
            !(f->count[i].heights & 1) && !towers_of_heights(p, f->count[i].heights))
            return 0;
    uint64_t matched = 0;
    for (int i = 0; i < f->ncount; i++) {
        /* each test's towers apart (times an odd number per test): a
           tower that two tests match would otherwise cancel out */
        uint64_t towers = 0;
        if (!count_passes(p, &f->count[i], TIERS_NO_SQUARE, side, f->pure ? &towers : NULL))
            return 0;
        matched ^= towers * (2 * (uint64_t)i + 1);
    }
    if (f->pure && !f->ncount)
        for (int sq = 0; sq < TIERS_MAX_SQUARES; sq++) {
            const tower *t = &p->board[sq];
            for (int j = 0; j < t->h; j++)
                matched ^= zobrist_piece(sq, j, t->p[j]);
        }
    if (f->pure)
        *key = zobrist_state(&p->st) ^ matched;
    return !f->check || movegen_in_check(p, side);
}

/* Does the moves or result hook (narrowed by f) concern the side to move
 * now?  Its phase, its count tests (the towers of the board, or next to
 * its royal piece, with its pieces of the listed faces at the listed
 * tiers, ...), its being in check.  A pure hook's key (*key) is the state
 * and every tower with a match (without count tests, every tower).  The
 * variables and the phase are tested here, the rest apart, so that the
 * many calls these answer stay short. */
int filter_moves_pass(const tiers_pos *p, const hook_filter *f, uint64_t *key)
{
    if (!f->on || vars_set(&p->st, f->vars))
        return 1;
    if (!f->move_test || f->never)
        return 0;
    int side = p->st.side;
    if (f->setup && ((p->st.setup_left >> side) & 1) != (f->setup == 1))
        return 0;
    return moves_counts_pass(p, f, side, key);
}
