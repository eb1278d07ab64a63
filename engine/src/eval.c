/* eval.c - material and search helpers for agents (agent*.c), and their
 * public tiers_* wrappers.  Reads the compiled variant's face values (by
 * tier on the board, tier 1's in hand) and
 * the position's towers and hands; changes nothing. */
#include "eval.h"

#include "hooks.h"
#include "position.h"
#include "status.h"

/* Value of one tile in hand slot s (the face it shows, tier 1's value). */
static int eval_hand_slot(const tiers_variant *v, int s)
{
    int kind = s & PC_KIND_MASK;
    if (kind == NO_KIND || kind >= v->nkinds)
        return 0;
    int face = v->kinds[kind].face[(s & PC_FLIP) ? 1 : 0];
    if (face == NO_FACE)
        face = v->kinds[kind].face[0];
    return face != NO_FACE ? v->faces[face].value : 0;
}

/* Side 0's pieces in tower t minus side 1's, each at its tier's value. */
static int eval_tower_balance(const tiers_variant *v, const tower *t)
{
    int d = 0;
    for (int i = 0; i < t->h; i++) {
        int o = pc_owner(t->p[i]);
        if (o == 0 || o == 1) {
            int x = v->faces[v->face_of[t->p[i]]].tier_value[i];
            d += o == 0 ? x : -x;
        }
    }
    return d;
}

int eval_material(const tiers_pos *p, int side)
{
    const tiers_variant *v = p->v;
    int total = 0;
    for (int r = 0; r < v->ranks; r++)
        for (int f = 0; f < v->files; f++) {
            const tower *t = &p->board[sq_make(f, r)];
            for (int i = 0; i < t->h; i++)
                if (pc_owner(t->p[i]) == side)
                    total += v->faces[v->face_of[t->p[i]]].tier_value[i];
        }
    for (int s = 0; s < HAND_SLOTS; s++)
        if (p->hand[side][s])
            total += p->hand[side][s] * eval_hand_slot(v, s);
    return total;
}

int eval_balance_delta(const tiers_pos *p)
{
    const tiers_variant *v = p->v;
    const undo_rec *u = &p->undo[p->depth - 1];
    int d = 0;
    for (int i = 0; i < u->ntowers; i++)
        d += eval_tower_balance(v, &p->board[u->tsq[i]]) - eval_tower_balance(v, &u->towers[i]);
    for (int i = 0; i < u->nhands; i++) {
        int owner = u->hcode[i] >> 8, slot = u->hcode[i] & 0xff;
        int x = (p->hand[owner][slot] - u->hcount[i]) * eval_hand_slot(v, slot);
        d += owner == 0 ? x : owner == 1 ? -x : 0;
    }
    return d;
}

int eval_score_balance(tiers_pos *p, int side, int balance)
{
    return (side == 0 ? balance : -balance) + hooks_evaluate(p, side);
}

int eval_score(tiers_pos *p, int side)
{
    int score = eval_material(p, side) - eval_material(p, side ^ 1);
    score += hooks_evaluate(p, side);
    return score;
}

int tiers_pos_material(const tiers_pos *p, int side)
{
    return side == 0 || side == 1 ? eval_material(p, side) : 0;
}

int tiers_pos_side_to_move(const tiers_pos *p) { return p->st.side; }

int tiers_pos_in_setup(const tiers_pos *p) { return p->st.setup_left != 0; }

int tiers_pos_ended(tiers_pos *p, tiers_result *result)
{
    tiers_result r = TIERS_ONGOING;
    const char *reason = NULL;
    int over = status_terminal(p, &r, &reason);
    if (result)
        *result = over ? r : TIERS_ONGOING;
    return over;
}

int eval_victim(const tiers_pos *p, const tiers_move *m)
{
    const tiers_variant *v = p->v;
    if (m->kind != TIERS_MV_CAPTURE && m->kind != TIERS_MV_STRIKE)
        return 0;
    const tower *t = &p->board[m->to];
    int i = m->kind == TIERS_MV_STRIKE ? m->arg - 1 : t->h - 1;
    if (i < 0 || i >= t->h)
        return 0;
    const face_def *f = &v->faces[v->face_of[t->p[i]]];
    return f->flags & FF_ROYAL ? EVAL_ROYAL_VICTIM : f->tier_value[i];
}

int tiers_pos_last_change(const tiers_pos *p, int *balance_delta, tiers_square *sq, int cap)
{
    if (p->depth <= 0) {
        if (balance_delta)
            *balance_delta = 0;
        return 0;
    }
    if (balance_delta)
        *balance_delta = eval_balance_delta(p);
    const undo_rec *u = &p->undo[p->depth - 1];
    int n = 0;
    for (int i = 0; i < u->ntowers && n < cap; i++)
        sq[n++] = u->tsq[i];
    return n;
}

int tiers_pos_evaluate_hook(tiers_pos *p, int side)
{
    return side == 0 || side == 1 ? hooks_evaluate(p, side) : 0;
}

/* The face shown by the piece at tier i (0-based) of the tower at sq, or -1. */
static int eval_face_at(const tiers_pos *p, int sq, int i)
{
    if (sq == TIERS_NO_SQUARE || sq < 0 || sq >= TIERS_MAX_SQUARES)
        return -1;
    const tower *t = &p->board[sq];
    if (i < 0 || i >= t->h)
        return -1;
    int f = p->v->face_of[t->p[i]];
    return f == NO_FACE ? -1 : f;
}

void tiers_move_faces(const tiers_pos *p, const tiers_move *m, int *mover, int *victim)
{
    int mv = -1, vi = -1;
    switch (m->kind) {
    case TIERS_MV_DROP:
        mv = m->piece < PC_CODES && p->v->face_of[m->piece] != NO_FACE ? p->v->face_of[m->piece]
                                                                      : -1;
        break;
    case TIERS_MV_STRIKE:
        mv = eval_face_at(p, m->from, m->tier - 1);
        vi = eval_face_at(p, m->to, m->arg - 1);
        break;
    case TIERS_MV_CAPTURE:
        vi = m->to < TIERS_MAX_SQUARES ? eval_face_at(p, m->to, p->board[m->to].h - 1) : -1;
        /* fall through */
    default:
        if (m->from < TIERS_MAX_SQUARES)
            mv = eval_face_at(p, m->from, p->board[m->from].h - 1);
        break;
    }
    *mover = mv;
    *victim = vi;
}
