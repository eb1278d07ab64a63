/* eval.c - material and search helpers for agents (agent*.c), and their
 * public tiers_* wrappers.  Reads the compiled variant's face values (by
 * tier on the board, tier 1's in hand) and
 * the position's towers and hands; changes nothing. */
#include "eval.h"

#include "hooks.h"
#include "position.h"
#include "status.h"

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
    for (int s = 0; s < HAND_SLOTS; s++) {
        int n = p->hand[side][s];
        if (!n)
            continue;
        int kind = s & PC_KIND_MASK;
        if (kind == NO_KIND || kind >= v->nkinds)
            continue;
        int face = v->kinds[kind].face[(s & PC_FLIP) ? 1 : 0];
        if (face == NO_FACE)
            face = v->kinds[kind].face[0];
        if (face != NO_FACE)
            total += n * v->faces[face].value;
    }
    return total;
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
