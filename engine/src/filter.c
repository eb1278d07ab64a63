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

/* file_faces and file_heights: the file of m's destination, as it stands. */
static int file_test(const tiers_pos *p, const undo_rec *u, const tiers_move *m,
                     const hook_filter *f)
{
    const tiers_variant *v = p->v;
    int to = m->to != TIERS_NO_SQUARE ? m->to : m->from, side = move_side(p, u), n = 0, tall = 0;
    if (to == TIERS_NO_SQUARE)
        return 0;
    for (int r = 0; r < v->ranks; r++) {
        int sq = sq_make(sq_file(to), r);
        const tower *t = &p->board[sq];
        if (sq != to && (f->file_heights >> t->h & 1))
            tall = 1;
        for (int i = 0; f->file_faces && i < t->h; i++)
            n += pc_owner(t->p[i]) == side && (f->file_faces >> v->face_of[t->p[i]] & 1);
    }
    return (!f->file_faces || n >= 2) && (!f->file_heights || tall);
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

/* doubled: two pieces of one face and owner in the tower on sq. */
static int doubled_at(const tiers_pos *p, int sq)
{
    if (sq == TIERS_NO_SQUARE)
        return 0;
    const tower *t = &p->board[sq];
    for (int i = 0; i < t->h; i++)
        for (int j = i + 1; j < t->h; j++)
            if (p->v->face_of[t->p[i]] == p->v->face_of[t->p[j]] &&
                pc_owner(t->p[i]) == pc_owner(t->p[j]))
                return 1;
    return 0;
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

static int stuck_at(const filter_state *s, int face, int tier, int facing, int sq)
{
    return s->stuck[face][tier - 1][facing][sq >> 6] >> (sq & 63) & 1;
}

/* Could a piece of face `face` (MAX_FACES: none) be stuck on sq, by any
 * table it might use there (its own or the over-enemy face's)? */
int filter_stuck_anywhere(const filter_state *s, const tiers_variant *v, int face, int sq)
{
    int oe = v->over_enemy_face;
    return (s->stuck_any[face][sq >> 6] >> (sq & 63) & 1) ||
           (oe != NO_FACE && (s->stuck_any[oe][sq >> 6] >> (sq & 63) & 1));
}

/* expand_stuck, before the move (u NULL) or after it: could the acting
 * piece of m be left where no table it might use reaches a square of the
 * board?  The tables it might use: its face's at the tier it lands on,
 * that tier raised by a region, and the over-enemy face's; any tier if a
 * tier hook or a capture rule makes the landing tier uncertain. */
static int may_be_stuck(const tiers_pos *p, const undo_rec *u, const tiers_move *m,
                        const filter_state *s)
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
        if (stuck_at(s, face, tier, facing, to) ||
            (v->over_enemy_face != NO_FACE && stuck_at(s, v->over_enemy_face, tier, facing, to)))
            return 1;
    return 0;
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
    if (f->stuck && !may_be_stuck(p, u, m, fs))
        return 0;
    if ((f->file_faces || f->file_heights) && !file_test(p, u, m, f))
        return 0;
    if (f->doubled && !doubled_at(p, m->to != TIERS_NO_SQUARE ? m->to : m->from))
        return 0;
    if (f->check && !gives_check(p, u, m))
        return 0;
    if (f->checked && !(u ? filter_check_before((tiers_pos *)p, move_side(p, u), &fs->before)
                          : movegen_in_check(p, move_side(p, u))))
        return 0;
    return 1;
}

/* Does the board hold a tower of one of these heights (bit h)? */
static int towers_of_heights(const tiers_pos *p, unsigned heights)
{
    for (int h = 1; h <= TIERS_MAX_TIERS; h++)
        if ((heights >> h & 1) && p->st.towers_of[h - 1])
            return 1;
    return 0;
}

/* Does the tower on sq hold one of royal's pieces that are royal? */
static int royal_on(const tiers_pos *p, int sq, int side)
{
    const tower *t = &p->board[sq];
    for (int i = 0; i < t->h; i++)
        if (pc_owner(t->p[i]) == side && p->v->royal_code[t->p[i]])
            return 1;
    return 0;
}

/* Is sq orthogonally next to a royal piece of side? */
static int beside_royal(const tiers_pos *p, int sq, int side)
{
    static const int8_t step[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
    for (int d = 0; d < 4; d++) {
        int x = sq_file(sq) + step[d][0], y = sq_rank(sq) + step[d][1];
        if (x >= 0 && x < p->v->files && y >= 0 && y < p->v->ranks &&
            royal_on(p, sq_make(x, y), side))
            return 1;
    }
    return 0;
}

/* Does the tower on sq pass f's tower test for side (its height, its top,
 * an own piece, of a listed face at a listed tier if listed, next to the
 * royal)?  With no tower test (a pure hook without one) every tower passes. */
static int tower_passes(const tiers_pos *p, const hook_filter *f, int sq, int side)
{
    const tower *t = &p->board[sq];
    if (!t->h || (f->heights && !(f->heights >> t->h & 1)) ||
        (f->controlled && pc_owner(t->p[t->h - 1]) != side))
        return 0;
    int match = !(f->faces || f->heights || f->tiers || f->controlled || f->beside_royal);
    for (int i = 0; i < t->h && !match; i++)
        match = pc_owner(t->p[i]) == side &&
                (!f->faces || (f->faces >> p->v->face_of[t->p[i]] & 1)) &&
                (!f->tiers || (f->tiers >> (i + 1) & 1));
    return match && (!f->beside_royal || beside_royal(p, sq, side));
}

/* The squares a moves hook's tower test need look at: the neighbours of
 * a lone royal piece under beside_royal, else the whole board.  Returns
 * how many were written to sq. */
static int tower_squares(const tiers_pos *p, const hook_filter *f, int side,
                         uint8_t sq[TIERS_MAX_SQUARES])
{
    const tiers_variant *v = p->v;
    int n = 0, royal = p->st.royal_sq[side];
    if (f->beside_royal && p->st.royal_n[side] == 1 && royal != TIERS_NO_SQUARE) {
        static const int8_t step[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
        for (int d = 0; d < 4; d++) {
            int x = sq_file(royal) + step[d][0], y = sq_rank(royal) + step[d][1];
            if (x >= 0 && x < v->files && y >= 0 && y < v->ranks)
                sq[n++] = (uint8_t)sq_make(x, y);
        }
        return n;
    }
    for (int r = 0; r < v->ranks; r++)
        for (int x = 0; x < v->files; x++)
            sq[n++] = (uint8_t)sq_make(x, r);
    return n;
}

/* Does the moves or result hook (narrowed by f) concern the side to move
 * now?  Its phase, its being in check, and a tower of a listed height
 * (topped by its own piece if `controlled`, next to its royal piece if
 * `beside_royal`) holding an own piece of a listed face at a listed tier.
 * A pure hook's key (*key) is the state and every tower that passes. */
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
    int towers = f->faces || f->heights || f->tiers || f->controlled || f->beside_royal;
    if (f->heights && !towers_of_heights(p, f->heights))
        return 0; /* no tower the scan below could find */
    if (towers || f->pure) {
        uint8_t sq[TIERS_MAX_SQUARES];
        int n = tower_squares(p, f, side, sq), found = 0;
        if (f->pure)
            *key = zobrist_state(&p->st);
        for (int i = 0; i < n && (!found || f->pure); i++) {
            if (!tower_passes(p, f, sq[i], side))
                continue;
            found = 1;
            const tower *t = &p->board[sq[i]];
            for (int j = 0; f->pure && j < t->h; j++)
                *key ^= zobrist_piece(sq[i], j, t->p[j]);
        }
        if (towers && !found)
            return 0;
    }
    return !f->check || movegen_in_check(p, side);
}

/* The stuck tables (expand_stuck): for each face, tier and facing, the
 * squares from which that table reaches no square of the board. */
void filter_compute_stuck(filter_state *fs, const tiers_variant *v)
{
    for (int f = 0; f < v->nfaces; f++) {
        const face_def *fd = &v->faces[f];
        for (int t = 0; t < TIERS_MAX_TIERS; t++) {
            int ti = t < fd->ntiers ? t : fd->ntiers - 1;
            for (int d = 0; d < 4; d++)
                for (int r = 0; r < v->ranks; r++)
                    for (int x = 0; x < v->files; x++) {
                        const line_def *L = &v->wlines[d][fd->first[ti < 0 ? 0 : ti]];
                        int sq = sq_make(x, r), any = 0;
                        for (int i = 0; ti >= 0 && i < fd->count[ti] && !any; i++) {
                            int fx = x + L[i].fx, fy = r + L[i].fy;
                            any = fx >= 0 && fx < v->files && fy >= 0 && fy < v->ranks;
                        }
                        if (!any) {
                            fs->stuck[f][t][d][sq >> 6] |= 1ull << (sq & 63);
                            fs->stuck_any[f][sq >> 6] |= 1ull << (sq & 63);
                        }
                    }
        }
    }
}
