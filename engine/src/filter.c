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

static int stuck_at(const tiers_variant *v, int face, int tier, int facing, int sq)
{
    return v->stuck[face][tier - 1][facing][sq >> 6] >> (sq & 63) & 1;
}

/* expand_reach {0, 0} (stuck), before the move (u NULL) or after it:
 * could the acting piece of m be left where no table it might use reaches
 * a square of the board?  The tables it might use: its face's at the tier it lands on,
 * that tier raised by a region, and the over-enemy face's; any tier if a
 * tier hook or a capture rule makes the landing tier uncertain. */
static int may_be_stuck(const tiers_pos *p, const undo_rec *u, const tiers_move *m)
{
    const tiers_variant *v = p->v;
    piece_t a, t;
    filter_actors(p, u, m, &a, &t);
    if (!a || m->to == TIERS_NO_SQUARE)
        return 0;
    int face = v->face_of[a], facing = pc_facing(a), to = m->to, lo = 1, hi = v->max_tiers;
    int h = old_tower(p, u, to)->h;
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
    for (int tier = lo; tier <= hi && tier <= TIERS_MAX_TIERS; tier++)
        if (stuck_at(v, face, tier, facing, to) ||
            (v->over_enemy_face != NO_FACE && stuck_at(v, v->over_enemy_face, tier, facing, to)))
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

/* The squares count test ct looks at, from the move's square `at` (none
 * for a moves hook), when `side` moves: written to sq, their number
 * returned.  *sift: each must still pass beside_royal (COUNT_ROYAL when
 * the side has not exactly one royal piece; else only the neighbours of
 * that piece are listed). */
static int count_squares(const tiers_pos *p, const count_test *ct, int at, int side,
                         uint8_t sq[TIERS_MAX_SQUARES], int *sift)
{
    const tiers_variant *v = p->v;
    int n = 0, royal = p->st.royal_sq[side];
    *sift = 0;
    if (ct->on == COUNT_TOWER) {
        sq[n++] = (uint8_t)at;
    } else if (ct->on == COUNT_FILE) {
        for (int r = 0; r < v->ranks; r++)
            sq[n++] = (uint8_t)sq_make(sq_file(at), r);
    } else if (ct->on == COUNT_RANK) {
        for (int x = 0; x < v->files; x++)
            sq[n++] = (uint8_t)sq_make(x, sq_rank(at));
    } else if (ct->on == COUNT_ROYAL && p->st.royal_n[side] == 1 && royal != TIERS_NO_SQUARE) {
        for (int d = 0; d < 4; d++) {
            int x = sq_file(royal) + orthogonal[d][0], y = sq_rank(royal) + orthogonal[d][1];
            if (x >= 0 && x < v->files && y >= 0 && y < v->ranks)
                sq[n++] = (uint8_t)sq_make(x, y);
        }
    } else {
        *sift = ct->on == COUNT_ROYAL;
        for (int r = 0; r < v->ranks; r++)
            for (int x = 0; x < v->files; x++)
                sq[n++] = (uint8_t)sq_make(x, r);
    }
    return n;
}

/* The matches of ct in the tower on sq when `side` moves: its matching
 * pieces, 1 or 0 under `towers`, 0 for a tower that fails the tower
 * tests.  Under `each`, each piece found is also tallied by face and
 * owner in tally, and the largest tally kept in *most. */
static int tower_matches(const tiers_pos *p, const count_test *ct, int sq, int side,
                         uint8_t *tally, int *most)
{
    const tower *t = &p->board[sq];
    int top = whose(ct->top, side), owner = whose(ct->owner, side), n = 0;
    if ((ct->heights && !(ct->heights >> t->h & 1)) ||
        (top >= 0 && (!t->h || pc_owner(t->p[t->h - 1]) != top)))
        return 0;
    if (!ct->faces && !ct->tiers && owner < 0 && !ct->each)
        return ct->towers ? 1 : t->h; /* no piece test */
    for (int i = 0; i < t->h; i++) {
        piece_t pc = t->p[i];
        int face = p->v->face_of[pc];
        if ((owner >= 0 && pc_owner(pc) != owner) || (ct->faces && !(ct->faces >> face & 1)) ||
            (ct->tiers && !(ct->tiers >> (i + 1) & 1)))
            continue;
        n++;
        if (ct->each) {
            int k = ++tally[face * 4 + pc_owner(pc)];
            if (k > *most)
                *most = k;
        }
    }
    return ct->towers ? n > 0 : n;
}

/* Does count test ct pass, from the move's square `at` (none for a moves
 * hook) when `side` moves?  key non-NULL: every tower with a match is
 * hashed into *key (a pure moves hook's memo), so all are looked at. */
static int count_passes(const tiers_pos *p, const count_test *ct, int at, int side,
                        uint64_t *key)
{
    uint8_t sq[TIERS_MAX_SQUARES], tally[MAX_FACES * 4];
    int sift, n = count_squares(p, ct, at, side, sq, &sift), total = 0, most = 0;
    if (ct->each)
        memset(tally, 0, sizeof tally);
    for (int i = 0; i < n && (key || (ct->each ? most : total) < ct->min); i++) {
        if ((ct->others && sq[i] == at) || (sift && !beside_royal(p, sq[i], side)))
            continue;
        int k = tower_matches(p, ct, sq[i], side, tally, &most);
        total += k;
        const tower *t = &p->board[sq[i]];
        for (int j = 0; key && k && j < t->h; j++)
            *key ^= zobrist_piece(sq[i], j, t->p[j]);
    }
    return (ct->each ? most : total) >= ct->min;
}

/* The square a veto or after hook's count tests start from: the move's
 * destination, else (a strike) its origin. */
static int move_square(const tiers_move *m)
{
    return m->to != TIERS_NO_SQUARE ? m->to : m->from;
}

/* Does the hook (narrowed by f) concern m?  m NULL: a hook without a move
 * (result), where only the variables count.  mf: m's faces.  (A move of
 * the hook's own effect always concerns it: the caller tests that.) */
int filter_pass(const tiers_pos *p, const undo_rec *u, const tiers_move *m,
                const move_faces *mf, const hook_filter *f, filter_state *fs)
{
    if (!f->on)
        return 1;
    for (int i = 0; f->vars && i < MAX_VARS; i++)
        if ((f->vars >> i & 1) && p->st.vars[i])
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
    if (f->reach && !f->reach_hi && !may_be_stuck(p, u, m))
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
    for (int h = 1; h <= TIERS_MAX_TIERS; h++)
        if ((heights >> h & 1) && p->st.towers_of[h - 1])
            return 1;
    return 0;
}

/* Does the moves or result hook (narrowed by f) concern the side to move
 * now?  Its phase, its count tests (the towers of the board, or next to
 * its royal piece, with its pieces of the listed faces at the listed
 * tiers, ...), its being in check.  A pure hook's key (*key) is the state
 * and every tower with a match (without count tests, every tower). */
int filter_moves_pass(const tiers_pos *p, const hook_filter *f, uint64_t *key)
{
    if (!f->on)
        return 1;
    for (int i = 0; f->vars && i < MAX_VARS; i++)
        if ((f->vars >> i & 1) && p->st.vars[i])
            return 1;
    if (!f->move_test || f->never)
        return 0;
    int side = p->st.side;
    if (f->setup && ((p->st.setup_left >> side) & 1) != (f->setup == 1))
        return 0;
    for (int i = 0; i < f->ncount; i++) /* no tower a count could find */
        if (f->count[i].heights > 1 && !(f->count[i].heights & 1) &&
            !towers_of_heights(p, f->count[i].heights))
            return 0;
    if (f->pure)
        *key = zobrist_state(&p->st);
    for (int i = 0; i < f->ncount; i++)
        if (!count_passes(p, &f->count[i], TIERS_NO_SQUARE, side, f->pure ? key : NULL))
            return 0;
    if (f->pure && !f->ncount)
        for (int sq = 0; sq < TIERS_MAX_SQUARES; sq++) {
            const tower *t = &p->board[sq];
            for (int j = 0; j < t->h; j++)
                *key ^= zobrist_piece(sq, j, t->p[j]);
        }
    return !f->check || movegen_in_check(p, side);
}
