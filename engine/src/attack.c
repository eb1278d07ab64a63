/* attack.c - the squares an attack on a square depends on.  The legality
 * shortcuts of movegen.c mark, once per position, every square the attack
 * tests against the mover's royal piece would read; a move that changes
 * none of them (and brings no new enemy piece to the top) cannot change
 * whether the royal piece is attacked, so it needs no make-and-test. */
#include "attack.h"

#include <string.h>

#include "position.h"

int attack_lines_trackable(const tiers_variant *v)
{
    return v->unit == UNIT_TOP && !v->hooks && !v->immobile_strikes && !v->has_shared &&
           !v->nregions && v->drop_onto != ONTO_SCRIPT && v->setup_onto != ONTO_SCRIPT;
}

/* One line of a piece on `from`: if it could land on sq (its squares
 * walked as if the board were empty), marks its via squares and the
 * squares it passes before sq: the only squares its walk reads on the
 * way (the walk stops on sq or earlier). */
static void mark_line(const tiers_pos *p, int from, int sq, const line_def *L, uint8_t *mark)
{
    uint8_t path[TIERS_MAX_FILES + TIERS_MAX_RANKS];
    int n = 0, hit = 0, f = sq_file(from) + L->fx, r = sq_rank(from) + L->fy;
    for (int k = 0; pos_on_board(p, f, r) && n < (int)sizeof path; f += L->dx, r += L->dy) {
        int s = sq_make(f, r);
        if (s == sq) {
            hit = 1;
            break;
        }
        path[n++] = (uint8_t)s;
        if ((L->len && ++k >= L->len) || (!L->dx && !L->dy))
            break;
    }
    if (!hit)
        return;
    for (int i = 0; i < n; i++)
        mark[path[i]] = 1;
    for (int i = 0; i < L->nvia; i++) {
        int vf = sq_file(from) + L->via[i][0], vr = sq_rank(from) + L->via[i][1];
        if (pos_on_board(p, vf, vr))
            mark[sq_make(vf, vr)] = 1;
    }
}

void attack_mark_piece(const tiers_pos *p, int from, int sq, int f, int tier, uint8_t *mark)
{
    const tiers_variant *v = p->v;
    const tower *t = &p->board[from];
    piece_t pc = t->p[t->h - 1];
    int bit = (sq_rank(sq) - sq_rank(from) + 15) * 31 + sq_file(sq) - sq_file(from) + 15;
    if (!(v->reach_any[v->face_of[pc]][pc_facing(pc)][bit >> 6] >> (bit & 63) & 1))
        return; /* no table of this piece ever lands there */
    const face_def *fd = &v->faces[f];
    if (fd->flags & FF_IMMOBILE)
        return;
    if (!fd->ntiers) { /* (no table: trust nothing) */
        memset(mark, 1, TIERS_MAX_SQUARES);
        return;
    }
    int ti = (tier <= fd->ntiers ? tier : fd->ntiers) - 1;
    if (!(v->reach[f][ti][pc_facing(pc)][bit >> 6] >> (bit & 63) & 1))
        return;
    const line_def *L = &v->wlines[pc_facing(pc)][fd->first[ti]];
    for (int i = 0; i < fd->count[ti]; i++)
        mark_line(p, from, sq, &L[i], mark);
}
