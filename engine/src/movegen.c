/* movegen.c - generation of every kind of move from the compiled variant,
 * attack tests and the royal-safety filter. */
#include "movegen.h"

#include <string.h>

#include "attack.h"
#include "hooks.h"
#include "make.h"
#include "position.h"
#include "rng.h"
#include "stackmove.h"

/* One generation pass.  With probe >= 0 nothing is written: the walk only
 * asks whether some line of the piece can capture on square `probe`. */
typedef struct gen {
    tiers_pos *p;
    const tiers_variant *v;
    tiers_move *buf;
    int n, cap;
    int side;      /* side whose moves these are */
    int max_tiers;
    int probe, hit;
    int err;
    int piece_start; /* first move of the piece being generated */
} gen;

static int mode_max_tiers(const tiers_pos *p)
{
    const tiers_variant *v = p->v;
    return v->nmodes ? v->modes[p->st.mode].max_tiers : v->max_tiers;
}

static int mode_royal_may_stack(const tiers_pos *p)
{
    const tiers_variant *v = p->v;
    return v->nmodes ? v->modes[p->st.mode].royal_may_stack : v->royal_may_stack;
}

static inline int owner_of(const gen *g, piece_t pc)
{
    int o = pc_owner(pc);
    return o == OWNER_SHARED ? g->p->st.side : o;
}

/* The facing a piece's table turns to: its own, except a shared piece in
 * a variant without facings, which moves the way of the side using it. */
static inline int piece_facing(const gen *g, piece_t pc)
{
    if (pc_owner(pc) == OWNER_SHARED && !g->v->uses_facing)
        return g->v->forward[g->side];
    return pc_facing(pc);
}

static inline void add(gen *g, int kind, int from, int to)
{
    if (g->n >= g->cap) {
        g->err = TIERS_EFULL;
        return;
    }
    tiers_move *m = &g->buf[g->n++];
    *m = (tiers_move){0};
    m->kind = (uint8_t)kind;
    m->from = (tiers_square)from;
    m->to = (tiers_square)to;
}

/* ------------------------------------------------------------ regions */

static void region_mark(const tiers_pos *p, const region_def *r, int sq, int owner,
                        uint64_t *bits)
{
    const tiers_variant *v = p->v;
    int dir = pc_facing(pc_make(1, 0, owner, v->forward[owner]));
    int f0 = sq_file(sq), r0 = sq_rank(sq);
    static const int m[4][4] = {{1, 0, 0, 1}, {0, 1, -1, 0}, {-1, 0, 0, -1}, {0, -1, 1, 0}};
    for (int k = -1; k < r->nofs + r->nrays; k++) {
        int dx = 0, dy = 0, ray = k >= r->nofs;
        if (k < 0 && !r->self)
            continue;
        if (k >= 0) {
            const int8_t *o = ray ? r->rays[k - r->nofs] : r->ofs[k];
            dx = m[dir][0] * o[0] + m[dir][1] * o[1];
            dy = m[dir][2] * o[0] + m[dir][3] * o[1];
        }
        for (int f = f0 + dx, rk = r0 + dy; pos_on_board(p, f, rk); f += dx, rk += dy) {
            /* (k < 0: the source square itself, visited once) */
            int s = sq_make(f, rk);
            int own = v->forward[owner] == DIR_S ? v->ranks - rk : rk + 1;
            if (!v->region_clip || r->clip.type != ZONE_RANKS ||
                (own >= r->clip.lo && own <= r->clip.hi))
                bits[s >> 6] |= 1ull << (s & 63);
            if (!ray)
                break;
        }
    }
}

/* The squares of each side's regions.  They depend only on where the
 * pieces that project regions stand, so the maps are kept until one of
 * those moves (st.region_hash), not recomputed for every board. */
static const uint64_t *regions_of(const tiers_pos *p, int side)
{
    tiers_pos *q = (tiers_pos *)p;
    if (q->region_key != p->st.region_hash || !q->region_ok) {
        const tiers_variant *v = p->v;
        memset(q->region, 0, sizeof q->region);
        for (int r = 0; r < v->ranks; r++)
            for (int f = 0; f < v->files; f++) {
                int sq = sq_make(f, r);
                const tower *t = &p->board[sq];
                for (int i = 0; i < t->h; i++)
                    for (int k = 0; k < v->nregions; k++)
                        if (v->face_of[t->p[i]] == v->regions[k].face && pc_owner(t->p[i]) < 2)
                            region_mark(p, &v->regions[k], sq, pc_owner(t->p[i]),
                                        q->region[pc_owner(t->p[i])]);
            }
        q->region_key = p->st.region_hash;
        q->region_ok = 1;
    }
    return p->region[side];
}

static int in_region(const tiers_pos *p, int side, int sq)
{
    return regions_of(p, side)[sq >> 6] >> (sq & 63) & 1;
}

/* Does a region raise the tier of piece pc standing on sq? */
static int region_boosts(const tiers_pos *p, int sq, piece_t pc)
{
    const tiers_variant *v = p->v;
    return v->nregions && !(v->faces[v->face_of[pc]].flags & FF_NO_REGION) &&
           pc_owner(pc) < 2 && in_region(p, pc_owner(pc), sq);
}

/* Does pc, standing on the piece below, move by the over-enemy face's
 * table (the Gold rule: on an enemy piece, shared pieces aside)? */
static inline int on_enemy(const tiers_variant *v, piece_t pc, piece_t below)
{
    int under = pc_owner(below), me = pc_owner(pc);
    return v->over_enemy_face != NO_FACE && under != me && under != OWNER_SHARED &&
           me != OWNER_SHARED;
}

/* Face whose table the piece at idx of the tower moves with: the variant's
 * over-enemy face, the face copied from below, or its own. */
int movegen_face_tier(const tiers_pos *p, int sq, int idx, int *tier)
{
    const tiers_variant *v = p->v;
    const tower *t = &p->board[sq];
    piece_t pc = t->p[idx];
    int f = v->face_of[pc];
    uint32_t fl = v->faces[f].flags;

    *tier = idx + 1;
    if (region_boosts(p, sq, pc))
        *tier = *tier + v->region_bonus < v->max_tiers ? *tier + v->region_bonus : v->max_tiers;
    *tier = hooks_tier((tiers_pos *)p, sq, idx, *tier);
    if (fl & FF_IMMOBILE)
        return f;
    if (idx > 0 && on_enemy(v, pc, t->p[idx - 1]))
        return v->over_enemy_face;
    if (fl & FF_COPY_BELOW) {
        int j = idx - 1, g = f;
        while (j >= 0 && (v->faces[g = v->face_of[t->p[j]]].flags & FF_COPY_BELOW))
            j--;
        if (j < 0 || (v->faces[g].flags & FF_NOT_COPIED))
            return v->faces[f].fallback == NO_FACE ? f : v->faces[f].fallback;
        return g;
    }
    return f;
}

/* Whether the piece pc (face f) may land on top of the tower at `to`. */
static int can_stack(const gen *g, piece_t pc, int to, int own_top)
{
    const tiers_variant *v = g->v;
    const tower *t = &g->p->board[to];
    int f = v->face_of[pc];
    uint32_t fl = v->faces[f].flags;

    if (t->h >= g->max_tiers || (fl & (FF_NO_STACK | FF_TIER1_ONLY | FF_DROP_EMPTY)))
        return 0;
    if (!(own_top ? v->stack_own : v->stack_enemy))
        return 0;
    if (v->faces[v->face_of[t->p[t->h - 1]]].flags & FF_NO_STACK_ON)
        return 0;
    if ((fl & FF_ROYAL) && !mode_royal_may_stack(g->p))
        return 0;
    if (v->same_face_rule)
        for (int i = 0; i < t->h; i++)
            if (v->face_of[t->p[i]] == f && owner_of(g, t->p[i]) == owner_of(g, pc))
                return 0;
    return 1;
}

/* Stacking a converting face on a tower with enemy pieces also offers one
 * move per non-empty subset of the eligible ones: a piece is eligible when
 * the mover's hand holds at least as many tiles of its kind as the tower
 * holds enemy pieces of that kind. */
static void add_converts(gen *g, int kind, int from, int to, piece_t pc)
{
    const tiers_pos *p = g->p;
    const tower *t = &p->board[to];
    if (!(g->v->faces[g->v->face_of[pc]].flags & FF_CONVERTS))
        return;
    unsigned eligible = 0;
    for (int i = 0; i < t->h; i++) {
        if (owner_of(g, t->p[i]) == g->side)
            continue;
        int slot = hand_slot(t->p[i]), same = 0;
        for (int j = 0; j < t->h; j++)
            same += owner_of(g, t->p[j]) != g->side && hand_slot(t->p[j]) == slot;
        if (p->hand[g->side][slot] >= same)
            eligible |= 1u << i;
    }
    /* ascending subsets: with two same-kind pieces the lower one's single
       conversion comes first (the notation of both is the same) */
    for (unsigned s = eligible & -eligible; s && !g->err; s = (s - eligible) & eligible) {
        add(g, kind, from, to);
        if (g->err)
            return;
        tiers_move *m = &g->buf[g->n - 1];
        m->flags |= TIERS_MF_CONVERT;
        m->arg = (uint8_t)s;
        m->piece = kind == TIERS_MV_DROP ? pc : 0;
    }
}

/* With the same-face rule the capturer may not land on a piece of its own
 * face and side left in the tower (the rule plays no part in checks). */
static int same_face_after_capture(const gen *g, piece_t pc, int to)
{
    const tiers_variant *v = g->v;
    const tower *t = &g->p->board[to];
    if (!v->same_face_rule || v->capture == CAP_TOWER)
        return 0;
    int keep = v->capture == CAP_TOP ? t->h - 1 : t->h;
    for (int i = 0; i < keep; i++)
        if (v->face_of[t->p[i]] == v->face_of[pc] && owner_of(g, t->p[i]) == g->side)
            return 1;
    return 0;
}

static void target(gen *g, int from, int to, piece_t pc, int lflags)
{
    const tower *t = &g->p->board[to];
    if (t->h == 0) {
        if (g->probe < 0 && !(lflags & LN_ONLY_CAPTURE))
            add(g, TIERS_MV_MOVE, from, to);
        return;
    }
    int own = owner_of(g, t->p[t->h - 1]) == g->side;
    int capture = !own && g->v->capture != CAP_NONE && !(lflags & LN_NO_CAPTURE) &&
                  !(g->v->faces[g->v->face_of[t->p[t->h - 1]]].flags & FF_UNCAPTURABLE);
    if (g->probe >= 0) {
        if (to == g->probe && capture)
            g->hit = 1;
        return;
    }
    if (!(lflags & LN_ONLY_CAPTURE) && (own || g->v->capture_and_stack || !capture) &&
        can_stack(g, pc, to, own)) {
        add(g, TIERS_MV_STACK, from, to);
        add_converts(g, TIERS_MV_STACK, from, to, pc);
    }
    if (capture && !same_face_after_capture(g, pc, to))
        add(g, TIERS_MV_CAPTURE, from, to);
}

static int via_ok(const gen *g, int file, int rank, const line_def *L, int tier)
{
    const tiers_pos *p = g->p;
    for (int i = 0; i < L->nvia; i++) {
        int f = file + L->via[i][0], r = rank + L->via[i][1];
        if (!pos_on_board(p, f, r))
            return 0;
        const tower *t = &p->board[sq_make(f, r)];
        switch (g->v->via_rule) {
        case VIA_EMPTY:
            if (t->h)
                return 0;
            break;
        case VIA_NO_ENEMY:
            if (t->h && owner_of(g, t->p[t->h - 1]) != g->side)
                return 0;
            break;
        case VIA_HEIGHT:
            if (t->h > tier)
                return 0;
            break;
        default:
            break;
        }
    }
    return 1;
}

/* A jumper may not pass over an enemy-topped square inside the enemy's own
 * region (its via squares are the squares it passes). */
static int shielded(const gen *g, int file, int rank, const line_def *L)
{
    const tiers_pos *p = g->p;
    int enemy = g->side ^ 1, n = g->v->shield_all_via ? L->nvia : 1;
    for (int i = 0; i < n; i++) {
        int f = file + L->via[i][0], r = rank + L->via[i][1];
        if (!pos_on_board(p, f, r))
            continue;
        int sq = sq_make(f, r);
        piece_t top = pos_top(p, sq);
        if (top && pc_owner(top) == enemy && in_region(p, enemy, sq))
            return 1;
    }
    return 0;
}

/* Is rank r beyond the far edge for the side moving? */
static int off_far_rank(const gen *g, int r)
{
    return g->v->forward[g->side] == DIR_N ? r >= g->v->ranks
         : g->v->forward[g->side] == DIR_S ? r < 0 : 0;
}

/* Leaving the board past the far rank: one move per piece, however many
 * lines lead out (`exit` rule). */
static void add_exit(gen *g, int sq)
{
    if (g->probe >= 0)
        return;
    for (int i = g->piece_start; i < g->n; i++)
        if (g->buf[i].flags & TIERS_MF_EXIT)
            return;
    add(g, TIERS_MV_MOVE, sq, TIERS_NO_SQUARE);
    if (!g->err)
        g->buf[g->n - 1].flags |= TIERS_MF_EXIT;
}

static inline void walk_line(gen *g, int sq, piece_t pc, const line_def *L, int tier, int jumper)
{
    const tiers_pos *p = g->p;
    int file = sq_file(sq), rank = sq_rank(sq);
    if (L->nvia && !jumper && !via_ok(g, file, rank, L, tier))
        return;
    if (L->nvia && jumper && g->v->region_shield && shielded(g, file, rank, L))
        return;
    int f = file + L->fx, r = rank + L->fy;
    for (int n = 0; pos_on_board(p, f, r); f += L->dx, r += L->dy) {
        int to = sq_make(f, r), h = p->board[to].h;
        if (g->v->height_block && h > tier)
            return;
        target(g, sq, to, pc, L->flags);
        if (g->hit || (h && !(L->flags & LN_LEAPING)))
            return;
        if (L->len && ++n >= L->len)
            return;
    }
    if (g->v->exit_rank && (unsigned)f < g->v->files && off_far_rank(g, r))
        add_exit(g, sq);
}

/* Removes the moves in [mid, n) that repeat one in [start, mid). */
static void drop_repeats(gen *g, int start, int mid)
{
    int k = mid;
    for (int i = mid; i < g->n; i++) {
        int dup = 0;
        for (int j = start; j < mid && !dup; j++)
            dup = g->buf[j].kind == g->buf[i].kind && g->buf[j].to == g->buf[i].to;
        if (!dup)
            g->buf[k++] = g->buf[i];
    }
    g->n = k;
}

static void gen_piece(gen *g, int sq)
{
    const tiers_variant *v = g->v;
    const tower *t = &g->p->board[sq];
    piece_t pc = t->p[t->h - 1];
    int tier, f = movegen_face_tier(g->p, sq, t->h - 1, &tier);
    const face_def *fd = &v->faces[f];

    if (fd->flags & FF_IMMOBILE)
        return;
    int ti = (tier <= fd->ntiers ? tier : fd->ntiers) - 1;
    if (g->probe >= 0) { /* can no line of this table land there? */
        int bit = (sq_rank(g->probe) - sq_rank(sq) + 15) * 31 + sq_file(g->probe) - sq_file(sq) + 15;
        if (!(v->reach[f][ti][piece_facing(g, pc)][bit >> 6] >> (bit & 63) & 1))
            return;
    }
    const line_def *L = &v->wlines[piece_facing(g, pc)][fd->first[ti]];
    int jumper = (fd->flags & FF_JUMPER) != 0, start = g->n;
    g->piece_start = start;
    for (int i = 0; i < fd->count[ti] && !g->hit; i++)
        walk_line(g, sq, pc, &L[i], tier, jumper);
    if (v->region_mode == REGION_UNION && ti > 0 && region_boosts(g->p, sq, pc) &&
        f == v->face_of[pc]) {
        /* union: the own tier's table too, without repeating a move */
        int base = tier - v->region_bonus;
        int bi = (base <= fd->ntiers ? base : fd->ntiers) - 1;
        const line_def *B = &v->wlines[piece_facing(g, pc)][fd->first[bi]];
        int mid = g->n;
        for (int i = 0; i < fd->count[bi] && !g->hit; i++)
            walk_line(g, sq, pc, &B[i], base, jumper);
        if (g->probe < 0)
            drop_repeats(g, start, mid);
    }
}

/* Immobile strikes: an own piece takes the enemy piece directly above or
 * below it in its own tower. */
static void gen_strikes(gen *g, int sq)
{
    const tiers_variant *v = g->v;
    const tower *t = &g->p->board[sq];
    for (int i = 0; i < t->h; i++) {
        if (owner_of(g, t->p[i]) != g->side ||
            (v->faces[v->face_of[t->p[i]]].flags & FF_NO_STRIKE))
            continue;
        for (int j = i - 1; j <= i + 1; j += 2) {
            if (j < 0 || j >= t->h || owner_of(g, t->p[j]) == g->side)
                continue;
            add(g, TIERS_MV_STRIKE, sq, sq);
            if (g->err)
                return;
            g->buf[g->n - 1].tier = (uint8_t)(i + 1);
            g->buf[g->n - 1].arg = (uint8_t)(j + 1);
        }
    }
}

/* ------------------------------------------------------------ drops */

/* The squares of the drop (or setup) zone, ascending: written once per
 * generation, then read by every piece in hand.  Returns their count. */
static int zone_squares(const tiers_pos *p, int side, int setup, uint8_t *list)
{
    const tiers_variant *v = p->v;
    const zone_def *z = setup ? &v->setup_zone : &v->drop_zone;
    int n = 0;
    if (z->type != ZONE_ADVANCED) {
        const uint8_t *ok = v->zone_ok[setup][side];
        for (int r = 0; r < v->ranks; r++)
            for (int f = 0; f < v->files; f++)
                if (ok[sq_make(f, r)])
                    list[n++] = (uint8_t)sq_make(f, r);
        return n;
    }
    /* From the own back rank through the most advanced own-topped rank. */
    int north = v->forward[side] == DIR_N, far = north ? 0 : v->ranks - 1;
    for (int r = 0; r < v->ranks; r++)
        for (int f = 0; f < v->files; f++) {
            piece_t top = pos_top(p, sq_make(f, r));
            if (top && pc_owner(top) == side && (north ? r > far : r < far))
                far = r;
        }
    for (int r = 0; r < v->ranks; r++)
        if (north ? r <= far : r >= far)
            for (int f = 0; f < v->files; f++)
                list[n++] = (uint8_t)sq_make(f, r);
    return n;
}

static int file_has_face(const tiers_pos *p, int file, int face, int side)
{
    const tiers_variant *v = p->v;
    for (int r = 0; r < v->ranks; r++) {
        const tower *t = &p->board[sq_make(file, r)];
        for (int i = 0; i < t->h; i++)
            if (v->face_of[t->p[i]] == face && pc_owner(t->p[i]) == side)
                return 1;
    }
    return 0;
}

static int drop_target_ok(gen *g, piece_t pc, int sq, int onto)
{
    const tower *t = &g->p->board[sq];
    if (t->h == 0)
        return 1;
    if (onto == ONTO_EMPTY)
        return 0;
    int own = owner_of(g, t->p[t->h - 1]) == g->side;
    if (onto == ONTO_OWN && !own)
        return 0;
    /* the scripts' face test (script_drop_ok's first) refuses most towers
       and costs less than can_stack; neither has side effects */
    if (onto == ONTO_SCRIPT && (g->v->drop_faces_refused >> g->v->face_of[t->p[t->h - 1]] & 1))
        return 0;
    if (!can_stack(g, pc, sq, own))
        return 0;
    if (onto == ONTO_SCRIPT) {
        int ok = hooks_drop_ok(g->p, pc, sq);
        if (ok < 0)
            g->err = ok;
        return ok > 0;
    }
    return 1;
}

static int hand_total(const tiers_pos *p, int side)
{
    int n = 0;
    for (int s = 1; s < HAND_SLOTS; s = hand_slot_next(p->v, s))
        n += p->hand[side][s];
    return n;
}

/* A drop; during a setup with markers also (or, with the last piece in
 * hand, only) the drop that ends the mover's setup. */
static void add_drop(gen *g, piece_t pc, int sq, int setup)
{
    int marker = setup && g->v->setup_marker;
    int last = marker && hand_total(g->p, g->side) == 1;
    for (int final = last; final <= marker && !g->err; final++) {
        add(g, TIERS_MV_DROP, TIERS_NO_SQUARE, sq);
        if (g->err)
            return;
        tiers_move *m = &g->buf[g->n - 1];
        m->piece = pc;
        if (final)
            m->flags |= TIERS_MF_FINAL;
        if (g->v->uses_facing) {
            m->flags |= TIERS_MF_FACING;
            m->arg = (uint8_t)pc_facing(pc);
        }
    }
}

static void gen_drop_piece(gen *g, piece_t pc, const uint8_t *zone, int nzone, int setup)
{
    const tiers_variant *v = g->v;
    const tower *board = g->p->board;
    int f = v->face_of[pc], onto = setup ? v->setup_onto : v->drop_onto;
    int per_file = v->faces[f].flags & FF_ONE_PER_FILE;
    uint8_t file_ok[TIERS_MAX_FILES];
    for (int x = 0; per_file && x < v->files; x++)
        file_ok[x] = !file_has_face(g->p, x, f, g->side);
    /* a drop on an empty square is one plain move (no facings, markers
       or conversions): written from a template, the common case */
    int plain = !v->uses_facing && !(setup && v->setup_marker);
    tiers_move one = {0};
    one.kind = TIERS_MV_DROP;
    one.from = TIERS_NO_SQUARE;
    one.piece = pc;
    for (int i = 0; i < nzone && !g->err; i++) {
        int sq = zone[i];
        if (per_file && !file_ok[sq_file(sq)])
            continue;
        if (plain && !board[sq].h) {
            if (g->n >= g->cap) {
                g->err = TIERS_EFULL;
                return;
            }
            one.to = (tiers_square)sq;
            g->buf[g->n++] = one;
            continue;
        }
        if (!drop_target_ok(g, pc, sq, onto))
            continue;
        int facings = v->uses_facing ? 4 : 1;
        for (int d = 0; d < facings; d++)
            add_drop(g, v->uses_facing ? pc_with_facing(pc, d) : pc, sq, setup);
        if (!setup && board[sq].h)
            add_converts(g, TIERS_MV_DROP, TIERS_NO_SQUARE, sq, pc);
    }
}

/* A side that still holds a setup_first piece may place only that. */
static int pending_first(const tiers_pos *p, int side)
{
    const tiers_variant *v = p->v;
    for (int s = 1; s < HAND_SLOTS; s = hand_slot_next(v, s))
        if (p->hand[side][s] && (v->faces[v->face_of[s]].flags & FF_SETUP_FIRST))
            return 1;
    return 0;
}

static void gen_drops(gen *g, int setup)
{
    const tiers_variant *v = g->v;
    tiers_pos *p = g->p;
    uint8_t zone[TIERS_MAX_SQUARES];

    if (v->army_cap && p->st.onboard[g->side] >= v->army_cap)
        return;
    int nzone = zone_squares(p, g->side, setup, zone);
    int first_only = setup && pending_first(p, g->side);
    const int owners[2] = {g->side, OWNER_SHARED};
    for (int k = 0; k < (v->has_shared ? 2 : 1); k++) {
        int owner = owners[k];
        for (int s = 1; s < HAND_SLOTS && !g->err; s = hand_slot_next(v, s)) {
            if (!p->hand[owner][s])
                continue;
            /* a shared piece without a facing of its own faces the way of
               whoever moves it (see piece_facing); stored facing the first
               side's way so the position text reads back the same */
            int facing = owner == OWNER_SHARED && !v->uses_facing ? v->forward[0]
                                                                   : v->forward[g->side];
            piece_t pc = pc_make(s & PC_KIND_MASK, s & PC_FLIP, owner, facing);
            if (first_only && !(v->faces[v->face_of[pc]].flags & FF_SETUP_FIRST))
                continue;
            if (setup && v->nsetup_order && p->st.ply < v->nsetup_order &&
                v->face_of[pc] != v->setup_order[p->st.ply][1])
                continue; /* a fixed opening: only the piece due now */
            gen_drop_piece(g, pc, zone, nzone, setup);
        }
    }
}

/* ------------------------------------------------------------ passes */

/* buf[lo..hi) needs the expand pre-pass: a run, joined to the last one
 * when they meet, or when no room is left (GEN_MAX_RUNS). */
static void note_run(gen_layout *gl, move_run *runs, int lo, int hi)
{
    if (hi <= lo)
        return;
    if (gl->nruns && (runs[gl->nruns - 1].hi == lo || gl->nruns == GEN_MAX_RUNS))
        runs[gl->nruns - 1].hi = (uint16_t)hi;
    else
        runs[gl->nruns++] = (move_run){(uint16_t)lo, (uint16_t)hi};
}

/* The moves buf[lo..n) of the piece pc (EXPAND_STUCK) that need the
 * pre-pass: those landing where it may be stuck (stuck_any) and any other
 * than a fresh plain move, stack or capture. */
static void note_stuck(gen_layout *gl, move_run *runs, const gen *g, int lo, piece_t pc)
{
    const uint64_t *any = g->v->stuck_any[g->v->face_of[pc]][pc_facing(pc)];
    for (int i = lo; i < g->n; i++) {
        const tiers_move *m = &g->buf[i];
        /* k 0, 1, 2: a move, stack, capture */
        unsigned k = (unsigned)m->kind - TIERS_MV_MOVE, to = m->to;
        if (k > 2 || m->effect || to >= TIERS_MAX_SQUARES || (any[to >> 6] >> (to & 63) & 1))
            note_run(gl, runs, i, i + 1);
    }
}

/* Could the piece pc on sq (EXPAND_STUCK) land where it may be stuck? */
static int may_land_stuck(const gen *g, piece_t pc, int sq)
{
    int facing = pc_facing(pc);
    return piece_facing(g, pc) != facing || /* the tables disagree: look */
           (g->v->stuck_near[g->v->face_of[pc]][facing][sq >> 6] >> (sq & 63) & 1);
}

/* The pieces' moves, rotations and strikes, in board order; with gl (a
 * variant with expand hooks), where they lie.  Returns 0 or an error. */
__attribute__((always_inline)) static inline int gen_board(gen *g, gen_layout *gl,
                                                          move_run *runs)
{
    const tiers_variant *v = g->v;
    const tiers_pos *p = g->p;
    for (int r = 0; r < v->ranks; r++)
        for (int f = 0; f < v->files; f++) {
            int sq = sq_make(f, r);
            const tower *t = &p->board[sq];
            if (!t->h)
                continue;
            piece_t top = t->p[t->h - 1];
            int lo = g->n;
            if (owner_of(g, top) == g->side) {
                if (v->unit == UNIT_STACK)
                    g->n = stackmove_gen(g->p, sq, g->buf, g->n, g->cap);
                else
                    gen_piece(g, sq);
                if (v->rotate && g->n >= 0)
                    add(g, TIERS_MV_ROTATE, sq, sq);
                if (g->n < 0)
                    return g->n;
                /* a piece some expand hook may concern: its moves need a
                   look; a rotation always does */
                int role = gl ? v->expand_role[v->face_of[top]] : 0;
                if (role & EXPAND_ACTOR)
                    note_run(gl, runs, lo, g->n);
                else if ((role & EXPAND_STUCK) && may_land_stuck(g, top, sq))
                    note_stuck(gl, runs, g, lo, top);
                else if (gl && v->rotate)
                    note_run(gl, runs, g->n - 1, g->n);
            } else if (gl) {
                gl->takes_noted |= v->expand_role[v->face_of[top]] & EXPAND_TAKEN;
            }
            if (v->immobile_strikes && t->h > 1) {
                lo = g->n;
                gen_strikes(g, sq);
                if (gl && g->n > lo)
                    note_run(gl, runs, lo, g->n);
            }
        }
    return 0;
}

static int gen_all(tiers_pos *p, tiers_move *buf, int cap)
{
    const tiers_variant *v = p->v;
    gen g = {.p = p, .v = v, .buf = buf, .cap = cap, .side = p->st.side,
             .max_tiers = mode_max_tiers(p), .probe = -1};
    move_run runs[GEN_MAX_RUNS];
    gen_layout gl = {.runs = runs}; /* for the expand hooks */

    if (p->st.setup_left & (1u << g.side)) {
        gen_drops(&g, 1);
        gl.drops_hi = g.n;
        if (v->setup_ready && !pending_first(p, g.side))
            add(&g, TIERS_MV_READY, TIERS_NO_SQUARE, TIERS_NO_SQUARE);
    } else {
        int rc = v->hooks & HOOK_EXPAND ? gen_board(&g, &gl, runs) : gen_board(&g, NULL, NULL);
        if (rc < 0)
            return rc;
        gl.board_hi = gl.drops_lo = g.n;
        if (v->drops)
            gen_drops(&g, 0);
        gl.drops_hi = g.n;
    }
    int n = g.err ? g.err : g.n;
    if (n >= 0)
        n = hooks_moves(p, buf, n, cap);
    if (n > 0) /* follow-up choices, made and unmade */
        n = hooks_expand(p, buf, n, cap, &gl);
    return n;
}

/* A hook that failed where it could not return an error (a tier or an
 * attack test inside another hook) is reported here. */
static int script_check(tiers_pos *p, int n)
{
    if (!p->script_failed)
        return n;
    p->script_failed = 0;
    return TIERS_ESCRIPT;
}

int movegen_pseudo(tiers_pos *p, tiers_move *buf, int cap)
{
    return script_check(p, gen_all(p, buf, cap));
}

/* Does `by` attack the piece on top of sq (or, with immobile strikes, the
 * piece at tier `tier` of sq)?  Lines are walked from every piece of `by`
 * that could move; the walk stops at the first hit. */
static int attacks_piece(const tiers_pos *p, int sq, int idx, int by)
{
    const tiers_variant *v = p->v;
    gen g = {.p = (tiers_pos *)p, .v = v, .side = by, .max_tiers = mode_max_tiers(p),
             .probe = sq};
    const tower *target_t = &p->board[sq];

    if (v->immobile_strikes && target_t->h > 1) {
        for (int j = idx - 1; j <= idx + 1; j += 2)
            if (j >= 0 && j < target_t->h && owner_of(&g, target_t->p[j]) == by &&
                !(v->faces[v->face_of[target_t->p[j]]].flags & FF_NO_STRIKE))
                return 1;
    }
    /* A buried piece is taken by a capture only if captures take more
     * than the top. */
    if (idx != target_t->h - 1 && v->capture == CAP_TOP)
        return 0;
    int f0 = sq_file(sq), r0 = sq_rank(sq);
    for (int r = 0; r < v->ranks; r++)
        for (int f = 0; f < v->files; f++) {
            int s = sq_make(f, r);
            const tower *t = &p->board[s];
            if (!t->h || s == sq || owner_of(&g, t->p[t->h - 1]) != by)
                continue;
            /* cheap test first: could this face ever land there? */
            piece_t pc = t->p[t->h - 1];
            int bit = (r0 - r + 15) * 31 + f0 - f + 15;
            if (!(v->reach_any[v->face_of[pc]][piece_facing(&g, pc)][bit >> 6] >> (bit & 63) & 1))
                continue;
            gen_piece(&g, s);
            if (g.hit)
                return 1;
        }
    return 0;
}

/* attack_mark_piece for the top piece on `from`, with the face and tier
 * it moves by. */
static void mark_piece(const tiers_pos *p, int from, int sq, uint8_t *mark)
{
    int tier, f = movegen_face_tier(p, from, p->board[from].h - 1, &tier);
    attack_mark_piece(p, from, sq, f, tier, mark);
}

/* The same for every top piece of side `by` (mark is cleared first). */
static void mark_side(const tiers_pos *p, int sq, int by, uint8_t *mark)
{
    const tiers_variant *v = p->v;
    memset(mark, 0, TIERS_MAX_SQUARES);
    for (int r = 0; r < v->ranks; r++)
        for (int f = 0; f < v->files; f++) {
            int s = sq_make(f, r);
            const tower *t = &p->board[s];
            if (t->h && s != sq && pc_owner(t->p[t->h - 1]) == by)
                mark_piece(p, s, sq, mark);
        }
}

/* The squares of by's top pieces that attack the top of sq (immobile
 * strikes aside), in board order; returns their count.  mark non-NULL:
 * the squares their attack tests read are marked there too
 * (mark_side, in the same pass). */
static int attackers_of(const tiers_pos *p, int sq, int by, uint8_t *list, uint8_t *mark)
{
    const tiers_variant *v = p->v;
    gen g = {.p = (tiers_pos *)p, .v = v, .side = by, .max_tiers = mode_max_tiers(p),
             .probe = sq};
    int n = 0, f0 = sq_file(sq), r0 = sq_rank(sq);
    if (mark)
        memset(mark, 0, TIERS_MAX_SQUARES);
    for (int r = 0; r < v->ranks; r++)
        for (int f = 0; f < v->files; f++) {
            int s = sq_make(f, r);
            const tower *t = &p->board[s];
            if (!t->h || s == sq || owner_of(&g, t->p[t->h - 1]) != by)
                continue;
            piece_t pc = t->p[t->h - 1];
            int bit = (r0 - r + 15) * 31 + f0 - f + 15;
            if (!(v->reach_any[v->face_of[pc]][piece_facing(&g, pc)][bit >> 6] >> (bit & 63) & 1))
                continue; /* (as attacks_piece) */
            if (mark)
                mark_piece(p, s, sq, mark);
            g.hit = 0;
            gen_piece(&g, s);
            if (g.hit)
                list[n++] = (uint8_t)s;
        }
    return n;
}

/* After a drop made while the royal on sq was in check: does one of the
 * pieces that gave the check (list) still attack it?  A dropped piece
 * adds to the board and takes nothing away, so it can end attacks (by
 * blocking a line, or covering the attacker) but never start one. */
static int still_attacked(const tiers_pos *p, int sq, int by, const uint8_t *list, int n)
{
    gen g = {.p = (tiers_pos *)p, .v = p->v, .side = by, .max_tiers = mode_max_tiers(p),
             .probe = sq};
    for (int i = 0; i < n && !g.hit; i++) {
        const tower *t = &p->board[list[i]];
        if (owner_of(&g, t->p[t->h - 1]) == by)
            gen_piece(&g, list[i]);
    }
    return g.hit;
}

int movegen_attacks(const tiers_pos *p, int sq, int by)
{
    const tower *t = &p->board[sq];
    return t->h ? attacks_piece(p, sq, t->h - 1, by) : 0;
}

static int royal_attacked_at(const tiers_pos *p, int sq, int side)
{
    const tower *t = &p->board[sq];
    for (int i = 0; i < t->h; i++)
        if (pc_owner(t->p[i]) == side && p->v->royal_code[t->p[i]] &&
            attacks_piece(p, sq, i, side ^ 1))
            return 1;
    return 0;
}

int movegen_in_check(const tiers_pos *p, int side)
{
    const tiers_variant *v = p->v;
    if (v->hooks & HOOK_CHECK) /* the variant's own test; an error counts as no
                                  check and is reported by the next generation */
        return hooks_check((tiers_pos *)p, side) > 0;
    if (!p->st.royal_n[side])
        return 0;
    if (p->st.royal_sq[side] != TIERS_NO_SQUARE)
        return royal_attacked_at(p, p->st.royal_sq[side], side);
    for (int r = 0; r < v->ranks; r++)
        for (int f = 0; f < v->files; f++)
            if (royal_attacked_at(p, sq_make(f, r), side))
                return 1;
    return 0;
}

int movegen_make_checked(tiers_pos *p, const tiers_move *m)
{
    int mover = p->st.side, rc = make_move(p, m);
    if (rc < 0)
        return rc;
    int bad = 0;
    if (p->v->legality == LEGAL_STRICT && movegen_in_check(p, mover))
        bad = 1;
    else if (p->v->hooks & HOOK_VETO) {
        bad = hooks_veto(p, m);
        if (bad < 0) {
            unmake_move(p);
            return bad;
        }
    }
    if (bad) {
        unmake_move(p);
        return TIERS_EILLEGAL;
    }
    return 0;
}

/* Could piece pc on `from` ever land on `to` (at any tier, by any table
 * it might borrow: the test attacks_piece makes first)? */
static int can_reach(const tiers_pos *p, piece_t pc, int from, int to)
{
    int bit = (sq_rank(to) - sq_rank(from) + 15) * 31 + sq_file(to) - sq_file(from) + 15;
    return p->v->reach_any[p->v->face_of[pc]][pc_facing(pc)][bit >> 6] >> (bit & 63) & 1;
}

/* Could the enemy top piece on `from` ever land on `to`? */
static int may_reach(const tiers_pos *p, int from, int to)
{
    piece_t pc = pos_top(p, from);
    int bit = (sq_rank(to) - sq_rank(from) + 15) * 31 + sq_file(to) - sq_file(from) + 15;
    return p->v->reach_any[p->v->face_of[pc]][pc_facing(pc)][bit >> 6] >> (bit & 63) & 1;
}

/* Along one blockable ray from the royal on sq: the first piece is a
 * possible pin when the next one is an enemy that could reach the royal. */
static void mark_pin(const tiers_pos *p, int sq, int dx, int dy, uint8_t *mark)
{
    int blocker = -1, side = p->st.side;
    for (int f = sq_file(sq) + dx, r = sq_rank(sq) + dy; pos_on_board(p, f, r); f += dx, r += dy) {
        int s = sq_make(f, r);
        piece_t top = pos_top(p, s);
        if (!top)
            continue;
        int own = pc_owner(top) == side || pc_owner(top) == OWNER_SHARED;
        if (blocker < 0 && !own)
            return; /* an enemy first: nothing of ours hides it */
        if (blocker < 0) {
            blocker = s;
            continue;
        }
        if (!own && may_reach(p, s, sq))
            mark[blocker] = 1;
        return;
    }
}

/* Squares whose emptying could open an enemy line onto the royal on sq:
 * pinned pieces on the blockable rays, and the via squares of leaps. */
static void mark_sensitive(const tiers_pos *p, int sq, uint8_t *mark)
{
    const tiers_variant *v = p->v;
    int f0 = sq_file(sq), r0 = sq_rank(sq);
    memset(mark, 0, TIERS_MAX_SQUARES);
    mark[sq] = 1;
    for (int i = 0; i < v->nrays; i++)
        mark_pin(p, sq, v->rays[i][0], v->rays[i][1], mark);
    for (int i = 0; i < v->nvia_off; i++) {
        int f = f0 + v->via_off[i][0], r = r0 + v->via_off[i][1];
        if (pos_on_board(p, f, r))
            mark[sq_make(f, r)] = 1;
    }
}

/* The only royal square of side, or -1 (none, several, or buried). */
static int lone_royal(const tiers_pos *p, int side)
{
    int sq = p->st.royal_sq[side];
    if (p->st.royal_n[side] != 1 || sq == TIERS_NO_SQUARE)
        return -1;
    const tower *t = &p->board[sq];
    return p->v->royal_code[t->p[t->h - 1]] && pc_owner(t->p[t->h - 1]) == side ? sq : -1;
}

/* Can this move leave the mover's lone royal (on `royal`, not in check)
 * attacked?  Adding own pieces never opens an enemy line; taking one away
 * can only along the marked squares or by uncovering an enemy piece. */
static int needs_test(const tiers_pos *p, const tiers_move *m, int royal, const uint8_t *mark)
{
    const tiers_variant *v = p->v;
    switch (m->kind) {
    case TIERS_MV_DROP:
        return (v->faces[v->face_of[m->piece]].flags & FF_ROYAL) || m->to == royal;
    case TIERS_MV_MOVE:
    case TIERS_MV_STACK:
    case TIERS_MV_CAPTURE: {
        const tower *t = &p->board[m->from];
        if (m->from == royal || m->to == royal || mark[m->from])
            return 1;
        return t->h > 1 && pc_owner(t->p[t->h - 2]) != p->st.side;
    }
    case TIERS_MV_READY:
        return 0;
    default:
        return 1;
    }
}

/* A drop of a piece that is not royal, away from the royal's square. */
static int plain_drop(const tiers_pos *p, const tiers_move *m, int royal)
{
    return m->kind == TIERS_MV_DROP && m->to != royal &&
           !(p->v->faces[p->v->face_of[m->piece]].flags & FF_ROYAL) && !p->v->royal_code[m->piece];
}

/* A move of one top piece from m->from to m->to (not off the board). */
static int piece_move(const tiers_move *m)
{
    return (m->kind == TIERS_MV_MOVE || m->kind == TIERS_MV_STACK ||
            m->kind == TIERS_MV_CAPTURE) && !(m->flags & TIERS_MF_EXIT);
}

/* The lines' shortcut (attack.c), the royal on `royal` not attacked and
 * mark[] the squares its attack tests read: can m leave it attacked?  A
 * drop only adds (it can block or cover, never open a line); a move
 * changes its two squares, so it matters only if one is marked, or if it
 * uncovers an enemy piece that could reach the royal (a new attacker). */
static int needs_test_lines(const tiers_pos *p, const tiers_move *m, int royal,
                            const uint8_t *mark)
{
    if (m->kind == TIERS_MV_DROP)
        return !plain_drop(p, m, royal);
    if (m->kind == TIERS_MV_READY)
        return 0;
    if (!piece_move(m) || m->from == royal || m->to == royal || mark[m->from] || mark[m->to])
        return 1;
    const tower *t = &p->board[m->from];
    return t->h > 1 && pc_owner(t->p[t->h - 2]) != p->st.side &&
           can_reach(p, t->p[t->h - 2], m->from, royal);
}

/* The lines' shortcut, the royal on `royal` in check and cmark[] the
 * checking pieces' squares and the squares their tests read: does m
 * surely leave it in check?  Yes when m changes none of those squares
 * (and does not move or cover the royal): every checker still checks. */
static int stays_checked(const tiers_pos *p, const tiers_move *m, int royal,
                         const uint8_t *cmark)
{
    if (m->kind == TIERS_MV_DROP)
        return plain_drop(p, m, royal) && !cmark[m->to];
    return piece_move(m) && m->from != royal && m->to != royal && !cmark[m->from] &&
           !cmark[m->to];
}

/* What a legal filter knows of the mover's lone royal before the moves:
 * royal >= 0, not in check (mark: the squares that matter); checked >= 0,
 * in check by the nchecks pieces on checkers (cmark: their squares and
 * what their tests read, when lines says so). */
typedef struct royal_watch {
    int royal, checked, nchecks, lines;
    uint8_t mark[TIERS_MAX_SQUARES], checkers[TIERS_MAX_SQUARES], cmark[TIERS_MAX_SQUARES];
} royal_watch;

/* Fills w for the side to move; lazy: the caller marks w->mark itself
 * when it needs it (the lines' shortcut, not in check). */
static void watch_royal(tiers_pos *p, royal_watch *w, int lazy)
{
    const tiers_variant *v = p->v;
    int side = p->st.side;
    w->royal = w->checked = -1;
    w->nchecks = 0;
    w->lines = attack_lines_trackable(v);
    int pins = !w->lines && v->legality == LEGAL_STRICT && v->nrays != 0xff &&
               v->unit == UNIT_TOP &&
               !(v->hooks & (HOOK_VETO | HOOK_AFTER | HOOK_TIER | HOOK_CHECK)) &&
               !v->immobile_strikes;
    if (!pins && !w->lines)
        return;
    w->royal = lone_royal(p, side);
    if (w->royal < 0)
        return;
    /* (a lone royal on top, no strikes or check hook: attacked exactly
       when some enemy top piece attacks its square) */
    int mark_now = w->lines && !lazy;
    w->nchecks = attackers_of(p, w->royal, side ^ 1, w->checkers, mark_now ? w->mark : NULL);
    if (w->nchecks) {
        /* in check: a drop is tested against the checking pieces only */
        w->checked = w->royal;
        w->royal = -1;
        if (w->lines) {
            memset(w->cmark, 0, sizeof w->cmark);
            for (int i = 0; i < w->nchecks; i++) {
                w->cmark[w->checkers[i]] = 1;
                mark_piece(p, w->checkers[i], w->checked, w->cmark);
            }
        }
    } else if (!w->lines)
        mark_sensitive(p, w->royal, w->mark);
}

/* Is the mover's royal attacked after m?  1, 0, or an error (m unmade).
 * Uses what w knows to answer without making m where it can. */
static int exposes(tiers_pos *p, const royal_watch *w, const tiers_move *m)
{
    if (w->checked >= 0 && w->lines && w->nchecks && stays_checked(p, m, w->checked, w->cmark))
        return 1;
    if (w->checked >= 0 && plain_drop(p, m, w->checked)) {
        int mover = p->st.side, mode = p->st.mode, rc = make_move(p, m);
        if (rc < 0)
            return rc;
        int bad = p->st.mode == mode
                      ? still_attacked(p, w->checked, mover ^ 1, w->checkers, w->nchecks)
                      : movegen_in_check(p, mover); /* (other rules now) */
        unmake_move(p);
        return bad;
    }
    if (w->royal >= 0 && !(w->lines ? needs_test_lines(p, m, w->royal, w->mark)
                                     : needs_test(p, m, w->royal, w->mark)))
        return 0;
    int mover = p->st.side, rc = make_move(p, m);
    if (rc < 0)
        return rc;
    int bad = movegen_in_check(p, mover);
    unmake_move(p);
    return bad;
}

/* Who looks at each legal move's position (movegen_legal_visit). */
typedef struct visitor {
    movegen_visit fn;
    void *ctx;
} visitor;

/* Makes buf[k], lets vis look, unmakes it: 0 or an error. */
static int visit_made(tiers_pos *p, tiers_move *buf, int k, const visitor *vis)
{
    int rc = make_move(p, &buf[k]);
    if (rc < 0)
        return rc;
    rc = vis->fn(p, &buf[k], k, vis->ctx);
    unmake_move(p);
    return rc;
}

/* Keeps the moves that pass movegen_make_checked, in place, each shown
 * to vis (if any) as it is kept.  Without scripts that could change what
 * attacks what, moves that cannot expose the royal skip the
 * make/test/unmake (and are made for vis alone). */
static int filter_legal(tiers_pos *p, tiers_move *buf, int n, const visitor *vis)
{
    royal_watch w;
    int k = 0;
    watch_royal(p, &w, 0);
    int watched = w.royal >= 0 || w.checked >= 0;
    for (int i = 0; i < n; i++) {
        int rc;
        if (watched) {
            int bad = exposes(p, &w, &buf[i]);
            if (bad < 0)
                return bad;
            if (bad)
                continue;
            buf[k] = buf[i];
            rc = vis ? visit_made(p, buf, k, vis) : 0;
        } else {
            rc = movegen_make_checked(p, &buf[i]);
            if (rc == TIERS_EILLEGAL)
                continue;
            if (rc < 0)
                return rc;
            buf[k] = buf[i];
            rc = vis ? vis->fn(p, &buf[k], k, vis->ctx) : 0;
            unmake_move(p);
        }
        if (rc < 0)
            return rc;
        k++;
    }
    return k;
}

/* Is there a move in buf after which the mover's royal is safe? */
int movegen_escape_in(tiers_pos *p, const tiers_move *buf, int n)
{
    int mover = p->st.side;
    if (n > 0 && attack_lines_trackable(p->v) && lone_royal(p, mover) >= 0) {
        royal_watch w;
        watch_royal(p, &w, 1);
        if (w.royal >= 0) { /* not in check: a drop is safe, asked first */
            for (int i = 0; i < n; i++)
                if (plain_drop(p, &buf[i], w.royal))
                    return 1;
            mark_side(p, w.royal, mover ^ 1, w.mark);
        }
        for (int i = 0; i < n; i++) {
            int bad = exposes(p, &w, &buf[i]);
            if (bad < 0)
                return 0;
            if (!bad)
                return 1;
        }
        return 0;
    }
    for (int i = 0; i < n; i++) {
        if (make_move(p, &buf[i]) < 0)
            return 0;
        int safe = !movegen_in_check(p, mover);
        unmake_move(p);
        if (safe)
            return 1;
    }
    return 0;
}

static int legal_list(tiers_pos *p, tiers_move *buf, int cap, const visitor *vis);

/* A list made outside any hook also records which vetoes refused a move
 * (the effect counts of playouts: a foul that shaped a player's choice). */
static int legal_moves(tiers_pos *p, tiers_move *buf, int cap, const visitor *vis)
{
    if (!(p->v->hooks & HOOK_VETO) || hooks_nested(p))
        return legal_list(p, buf, cap, vis);
    p->vetoed = 0;
    p->veto_root = p->depth;
    int n = legal_list(p, buf, cap, vis);
    p->veto_root = -1;
    return n;
}

int movegen_legal(tiers_pos *p, tiers_move *buf, int cap)
{
    return legal_moves(p, buf, cap, NULL);
}

int movegen_legal_visit(tiers_pos *p, tiers_move *buf, int cap, movegen_visit visit, void *ctx)
{
    const visitor vis = {visit, ctx};
    return legal_moves(p, buf, cap, &vis);
}

static int legal_list(tiers_pos *p, tiers_move *buf, int cap, const visitor *vis)
{
    int n = gen_all(p, buf, cap);
    int strict = p->v->legality == LEGAL_STRICT && p->v->has_royal;
    int filter = n > 0 && (strict || (p->v->hooks & HOOK_VETO));
    /* Pseudo-legal variants end the game when no move escapes check: the
       filtered list is known only then, so its moves are shown after. */
    int escape = p->v->legality == LEGAL_PSEUDO && !p->st.setup_left;
    if (filter)
        n = filter_legal(p, buf, n, escape ? NULL : vis);
    if (n > 0 && escape && !movegen_escape_in(p, buf, n))
        return script_check(p, 0);
    for (int k = 0; vis && (escape || !filter) && k < n; k++) {
        int rc = visit_made(p, buf, k, vis);
        if (rc < 0)
            return rc;
    }
    return script_check(p, n);
}

/* Is some move of the side to move legal?  The moves are tried in their
 * order until one passes; before each try `spend` (if given) may end the
 * search with its negative answer. */
int movegen_has_legal(tiers_pos *p, tiers_move *buf, int cap, int (*spend)(void *ctx), void *ctx)
{
    int n = movegen_pseudo(p, buf, cap);
    for (int i = 0; i < n; i++) {
        int rc = spend ? spend(ctx) : 0;
        if (rc < 0)
            return rc;
        rc = movegen_make_checked(p, &buf[i]);
        if (rc == 0) {
            unmake_move(p);
            return 1;
        }
        if (rc != TIERS_EILLEGAL)
            return rc;
    }
    return n < 0 ? n : 0;
}

/* ------------------------------------------------------------ reach */

/* Marks the squares the lines of table `tier` of face fd reach from sq,
 * whatever stands on them or between. */
static void reach_table(const tiers_pos *p, int sq, const face_def *fd, int facing, int tier,
                        uint8_t *mark)
{
    const tiers_variant *v = p->v;
    if (!fd->ntiers)
        return;
    int ti = (tier <= fd->ntiers ? tier : fd->ntiers) - 1;
    const line_def *L = &v->wlines[facing][fd->first[ti]];
    for (int i = 0; i < fd->count[ti]; i++) {
        int f = sq_file(sq) + L[i].fx, r = sq_rank(sq) + L[i].fy;
        for (int n = 0; pos_on_board(p, f, r); f += L[i].dx, r += L[i].dy) {
            mark[sq_make(f, r)] = 1;
            if ((L[i].len && ++n >= L[i].len) || (!L[i].dx && !L[i].dy))
                break;
        }
    }
}

int movegen_reach(const tiers_pos *p, int sq, uint8_t *mark)
{
    const tiers_variant *v = p->v;
    const tower *t = &p->board[sq];
    memset(mark, 0, TIERS_MAX_SQUARES);
    if (!t->h)
        return 0;
    piece_t pc = t->p[t->h - 1];
    int tier, f = movegen_face_tier(p, sq, t->h - 1, &tier), n = 0;
    const face_def *fd = &v->faces[f];
    if (!(fd->flags & FF_IMMOBILE) && v->unit == UNIT_TOP) {
        reach_table(p, sq, fd, pc_facing(pc), tier, mark);
        /* union regions: the piece's own tier's table too */
        if (v->region_mode == REGION_UNION && tier != t->h && f == v->face_of[pc])
            reach_table(p, sq, fd, pc_facing(pc), t->h, mark);
    }
    for (int s = 0; s < TIERS_MAX_SQUARES; s++)
        n += mark[s];
    return n;
}

/* The face whose table a, landing on `below` (0: nothing), moves with
 * there, as movegen_face_tier reads it: the over-enemy face on an enemy. */
static int landing_face(const tiers_variant *v, piece_t a, piece_t below)
{
    if (below && !(v->faces[v->face_of[a]].flags & FF_IMMOBILE) && on_enemy(v, a, below))
        return v->over_enemy_face;
    return v->face_of[a];
}

static int stuck_table(const tiers_variant *v, int face, int tier, int facing, int sq)
{
    return v->stuck[face][tier - 1][facing][sq >> 6] >> (sq & 63) & 1;
}

int movegen_stuck_after(const tiers_pos *p, const tiers_move *m, piece_t a, int h)
{
    const tiers_variant *v = p->v;
    int own = v->face_of[a], lo;
    if (!v->stuck_ready || (v->hooks & HOOK_TIER) || v->unit != UNIT_TOP ||
        v->turn_after_move || m->flags || (v->faces[own].flags & FF_COPY_BELOW) ||
        v->region_code[a])
        return -1; /* its table or tier on landing is not the one read here */
    if (m->kind == TIERS_MV_MOVE || m->kind == TIERS_MV_STACK)
        lo = h + 1;
    else if (m->kind == TIERS_MV_CAPTURE && v->capture == CAP_TOP)
        lo = h;
    else
        return -1;
    if (lo < 1 || lo > TIERS_MAX_TIERS)
        return -1;
    /* movegen_face_tier after the move: the regions are those of now, as
       no piece that projects one moves (the opponent's may be taken) */
    int tier = lo;
    if (region_boosts(p, m->to, a))
        tier = lo + v->region_bonus < v->max_tiers ? lo + v->region_bonus : v->max_tiers;
    int face = landing_face(v, a, lo > 1 ? p->board[m->to].p[lo - 2] : 0);
    if (v->faces[face].flags & FF_IMMOBILE)
        return 1;
    int facing = pc_facing(a);
    if (!stuck_table(v, face, tier, facing, m->to))
        return 0;
    /* union regions: the table of its own tier too (movegen_reach) */
    if (v->region_mode == REGION_UNION && tier != lo && face == own)
        return stuck_table(v, own, lo, facing, m->to);
    return 1;
}

/* ------------------------------------------------------------ random */

/* Candidates are tried in a random order and the first legal one is
 * kept: uniform over the legal moves without testing all of them. */
int movegen_random(tiers_pos *p, uint64_t *rng, tiers_move *buf)
{
    if (p->depth >= p->cap)
        return 0;
    int n = movegen_pseudo(p, buf, TIERS_MAX_MOVES);
    if (n <= 0)
        return n;
    if (p->v->legality == LEGAL_PSEUDO && !p->st.setup_left && !movegen_escape_in(p, buf, n))
        return 0;
    for (int k = 0; k < n; k++) {
        int j = k + (int)(rng_next(rng) % (uint64_t)(n - k));
        tiers_move m = buf[j];
        buf[j] = buf[k];
        buf[k] = m;
        int rc = movegen_make_checked(p, &m);
        if (rc == 0)
            return 1;
        if (rc != TIERS_EILLEGAL)
            return rc;
    }
    return 0;
}
