/* stackmove.c - whole-stack movement (rules `unit: stack`).
 *
 * A stack moves as one unit with the lines of the faces it contains, each
 * step line reaching as many squares as the stack holds pieces of that
 * face (two rounds: up to two diagonal steps).  Every square passed must
 * be empty (the start square counts as empty); the last may hold own
 * pieces (merge up to max_tiers) or enemy ones (capture).  With `bounce`
 * a step off a side edge reflects (never the first step of a line); with
 * `exit` a step past the far rank leaves the board and wins.  With
 * `deploy` a stack may instead split: one face's pieces first, all along
 * one direction, leaving one piece per step, then the other face's from
 * where the first group ended. */
#include "stackmove.h"

#include <string.h>

#include "position.h"

enum { STEP_OK, STEP_EXIT, STEP_OFF };

typedef struct walk {
    int f, r, dx, dy;
} walk;

/* Far rank for the side: a step beyond it is an exit. */
static int beyond_far_rank(const tiers_variant *v, int side, int r)
{
    return v->forward[side] == DIR_N ? r >= v->ranks : r < 0;
}

static int step(const tiers_variant *v, int side, walk *w, int first)
{
    int nf = w->f + w->dx, nr = w->r + w->dy;
    if ((unsigned)nf >= v->files) {
        if (first || !v->bounce)
            return STEP_OFF;
        w->dx = -w->dx; /* reflect, then step from the edge square */
        nf = w->f + w->dx;
    }
    if ((unsigned)nr >= v->ranks)
        return v->exit_rank && beyond_far_rank(v, side, nr) ? STEP_EXIT : STEP_OFF;
    w->f = nf;
    w->r = nr;
    return STEP_OK;
}

typedef struct stack_faces {
    int n;
    int face[2], count[2];
} stack_faces;

/* The faces in the tower with their counts; -1 if more than two. */
static int faces_of(const tiers_variant *v, const tower *t, stack_faces *sf)
{
    sf->n = 0;
    for (int i = 0; i < t->h; i++) {
        int f = v->face_of[t->p[i]], k;
        for (k = 0; k < sf->n && sf->face[k] != f; k++)
            ;
        if (k == sf->n) {
            if (sf->n == 2)
                return -1;
            sf->face[sf->n] = f;
            sf->count[sf->n++] = 0;
        }
        sf->count[k]++;
    }
    return 0;
}

typedef struct out {
    tiers_move *buf;
    int n, cap, first; /* first: index of this origin's first move */
    int err;
    uint8_t seen[TIERS_MAX_SQUARES];
    int exit_seen;
} out;

static tiers_move *emit(out *o, int kind, int from, int to)
{
    if (o->n >= o->cap) {
        o->err = TIERS_EFULL;
        return NULL;
    }
    tiers_move *m = &o->buf[o->n++];
    *m = (tiers_move){0};
    m->kind = (uint8_t)kind;
    m->from = (tiers_square)from;
    m->to = (tiers_square)to;
    return m;
}

static void emit_exit(out *o, int from)
{
    if (o->exit_seen++)
        return;
    tiers_move *m = emit(o, TIERS_MV_MOVE, from, TIERS_NO_SQUARE);
    if (m)
        m->flags |= TIERS_MF_EXIT;
}

/* ------------------------------------------------------------ movement */

/* Pieces a capture leaves on the tower t, by the variant's capture rule:
 * the stack lands on them and must fit. */
static int left_after_capture(const tiers_pos *p, const tower *t)
{
    int own = 0;
    switch (p->v->capture) {
    case CAP_TOP:
        return t->h - 1;
    case CAP_ENEMIES:
        for (int i = 0; i < t->h; i++)
            own += pc_owner(t->p[i]) == p->st.side;
        return own;
    default:
        return 0;
    }
}

static void move_line(const tiers_pos *p, out *o, int sq, const line_def *L, int reach,
                      int height)
{
    const tiers_variant *v = p->v;
    int side = p->st.side;
    walk w = {sq_file(sq), sq_rank(sq), L->dx, L->dy};
    for (int n = 0; (!reach || n < reach) && !o->err; n++) {
        int s = step(v, side, &w, n == 0);
        if (s == STEP_EXIT) {
            emit_exit(o, sq);
            return;
        }
        if (s == STEP_OFF)
            return;
        int to = sq_make(w.f, w.r);
        const tower *t = &p->board[to];
        if (to == sq) { /* back on the start square: a null bounce */
            if (v->null_bounce && !o->seen[to]++)
                emit(o, TIERS_MV_MOVE, sq, to);
            continue;
        }
        if (!t->h) {
            if (!o->seen[to]++)
                emit(o, TIERS_MV_MOVE, sq, to);
            continue;
        }
        int own = pc_owner(t->p[t->h - 1]) == side;
        if (own && v->stack_own && t->h + height <= v->max_tiers && !o->seen[to]++)
            emit(o, TIERS_MV_STACK, sq, to);
        else if (!own && v->capture != CAP_NONE &&
                 left_after_capture(p, t) + height <= v->max_tiers && !o->seen[to]++)
            emit(o, TIERS_MV_CAPTURE, sq, to);
        return;
    }
}

static void gen_movement(const tiers_pos *p, out *o, int sq, const stack_faces *sf, int height)
{
    const tiers_variant *v = p->v;
    int facing = pc_facing(p->board[sq].p[0]);
    for (int k = 0; k < sf->n; k++) {
        const face_def *fd = &v->faces[sf->face[k]];
        if ((fd->flags & FF_IMMOBILE) || !fd->ntiers)
            continue;
        const line_def *L = &v->wlines[facing][fd->first[0]];
        for (int i = 0; i < fd->count[0]; i++)
            move_line(p, o, sq, &L[i], L[i].len ? L[i].len * sf->count[k] : 0, height);
    }
}

/* ------------------------------------------------------------ deploy */

typedef struct deploy {
    int origin, order;     /* order: face index of the first group */
    tiers_square path[4];   /* squares, TIERS_NO_SQUARE = off the board */
    int npath;
    uint8_t placed[TIERS_MAX_SQUARES];
} deploy;

static int same_deploy(const out *o, int from, const deploy *d)
{
    for (int i = o->first; i < o->n; i++) {
        const tiers_move *m = &o->buf[i];
        if (m->kind == TIERS_MV_DEPLOY && m->from == from && m->npath == d->npath &&
            !memcmp(m->path, d->path, (size_t)d->npath * sizeof d->path[0]))
            return 1;
    }
    return 0;
}

static void emit_deploy(out *o, const deploy *d)
{
    if (same_deploy(o, d->origin, d))
        return;
    tiers_move *m = emit(o, TIERS_MV_DEPLOY, d->origin, d->path[0]);
    if (!m)
        return;
    m->npath = (uint8_t)d->npath;
    memcpy(m->path, d->path, (size_t)d->npath * sizeof d->path[0]);
    m->arg = (uint8_t)d->order;
    if (d->path[d->npath - 1] == TIERS_NO_SQUARE)
        m->flags |= TIERS_MF_EXIT;
}

/* May one more own piece be left on `to`?  Enemy squares never. */
static int can_leave(const tiers_pos *p, const deploy *d, int to)
{
    const tower *t = &p->board[to];
    int existing = to == d->origin ? 0 : t->h;
    if (existing && pc_owner(t->p[t->h - 1]) != p->st.side)
        return 0;
    return existing + d->placed[to] + 1 <= p->v->max_tiers;
}

static void deploy_groups(const tiers_pos *p, out *o, deploy *d, const stack_faces *sf,
                          int group, int from);

/* Walks `count` steps of face `face` in direction L from `from`. */
static void deploy_dir(const tiers_pos *p, out *o, deploy *d, const stack_faces *sf, int group,
                       int from, const line_def *L, int count)
{
    walk w = {sq_file(from), sq_rank(from), L->dx, L->dy};
    int saved = d->npath, to = from, i;
    for (i = 0; i < count; i++) {
        int s = step(p->v, p->st.side, &w, i == 0);
        if (s == STEP_OFF)
            break;
        if (s == STEP_EXIT) {
            if (d->npath == 0) { /* exiting at once is the plain exit move */
                emit_exit(o, d->origin);
                break;
            }
            d->path[d->npath++] = TIERS_NO_SQUARE;
            emit_deploy(o, d);
            d->npath--;
            break;
        }
        to = sq_make(w.f, w.r);
        if (!can_leave(p, d, to))
            break;
        d->placed[to]++;
        d->path[d->npath++] = (tiers_square)to;
    }
    if (i == count)
        deploy_groups(p, o, d, sf, group + 1, to);
    while (d->npath > saved) {
        int s = d->path[--d->npath];
        if (s != TIERS_NO_SQUARE)
            d->placed[s]--;
    }
}

static void deploy_groups(const tiers_pos *p, out *o, deploy *d, const stack_faces *sf,
                          int group, int from)
{
    if (group == sf->n) {
        emit_deploy(o, d);
        return;
    }
    int k = group == 0 ? d->order : 1 - d->order;
    const face_def *fd = &p->v->faces[sf->face[k]];
    int facing = pc_facing(p->board[d->origin].p[0]);
    const line_def *L = &p->v->wlines[facing][fd->first[0]];
    for (int i = 0; i < fd->count[0] && !o->err; i++)
        deploy_dir(p, o, d, sf, group, from, &L[i], sf->count[k]);
}

static void gen_deploys(const tiers_pos *p, out *o, int sq, const stack_faces *sf)
{
    deploy d = {.origin = sq};
    memset(d.placed, 0, sizeof d.placed);
    for (int order = 0; order < sf->n && !o->err; order++) {
        d.order = order;
        d.npath = 0;
        deploy_groups(p, o, &d, sf, 0, sq);
    }
}

int stackmove_gen(const tiers_pos *p, int sq, tiers_move *buf, int n, int cap)
{
    const tiers_variant *v = p->v;
    const tower *t = &p->board[sq];
    stack_faces sf;
    out o = {.buf = buf, .n = n, .cap = cap, .first = n};
    memset(o.seen, 0, sizeof o.seen);
    if (faces_of(v, t, &sf) < 0)
        return n; /* stacks of three faces neither move nor deploy */
    gen_movement(p, &o, sq, &sf, t->h);
    if (v->deploy && t->h > 1 && !o.err)
        gen_deploys(p, &o, sq, &sf);
    return o.err ? o.err : o.n;
}

/* Deployment: the first group's face (m->arg orders the two faces as
 * faces_of found them) leaves its pieces first. */
void stackmove_apply_deploy(tiers_pos *p, const tiers_move *m, int side)
{
    const tiers_variant *v = p->v;
    tower t = p->board[m->from];
    stack_faces sf;
    faces_of(v, &t, &sf);
    piece_t order[TIERS_MAX_TIERS];
    int n = 0;
    for (int g = 0; g < sf.n; g++) {
        int face = sf.face[g == 0 ? m->arg : 1 - m->arg];
        for (int i = 0; i < t.h; i++)
            if (v->face_of[t.p[i]] == face)
                order[n++] = t.p[i];
    }
    while (p->board[m->from].h)
        pos_pop(p, m->from);
    for (int i = 0; i < m->npath; i++) {
        if (m->path[i] == TIERS_NO_SQUARE) {
            p->st.winner_flag = (uint8_t)(1 + side);
            p->st.win_by_exit = 1;
            return;
        }
        pos_push(p, m->path[i], order[i]);
    }
}
