/* inspect.c - read-only accessors for renderers and front ends: what a
 * piece is beyond its token (faces, facing, owner, royalty), the hands
 * entry by entry, and a few facts of the variant (tiers.h, "inspecting
 * pieces").  Nothing here changes a position. */
#include <stdio.h>
#include <string.h>

#include "notation.h"
#include "position.h"

/* Fills *out for piece code pc; facing is kept only when on_board. */
static void inspect_piece(const tiers_variant *v, piece_t pc, int on_board,
                          tiers_piece_info *out)
{
    const kind_def *k = &v->kinds[pc_kind(pc)];
    int shown = v->face_of[pc];
    int hidden = k->face[!pc_flipped(pc)];
    const face_def *f = &v->faces[shown];

    memset(out, 0, sizeof *out);
    out->owner = pc_owner(pc);
    out->facing = on_board && v->uses_facing ? pc_facing(pc) : -1;
    out->back = pc_flipped(pc);
    out->two_sided = k->face[1] != NO_FACE;
    out->royal = (f->flags & FF_ROYAL) != 0;
    out->letter = f->sym[0];
    snprintf(out->face, sizeof out->face, "%s", f->name);
    if (hidden != NO_FACE)
        snprintf(out->hidden, sizeof out->hidden, "%s", v->faces[hidden].name);
    snprintf(out->tile, sizeof out->tile, "%s", k->name);
    if (notation_piece(v, pc, 1, out->token, sizeof out->token) < 0)
        out->token[0] = '\0';
    if (!on_board) { /* hands keep no facing */
        char *at = strchr(out->token, '@');
        if (at)
            *at = '\0';
    }
}

int tiers_pos_piece_info(const tiers_pos *p, int file, int rank, int tier,
                         tiers_piece_info *out)
{
    if (!p || !out || !pos_on_board(p, file, rank))
        return -1;
    const tower *t = pos_tower(p, sq_make(file, rank));
    if (tier < 1 || tier > t->h)
        return -1;
    inspect_piece(p->v, t->p[tier - 1], 1, out);
    return out->owner;
}

int tiers_pos_hand_entry(const tiers_pos *p, int owner, int i,
                         tiers_piece_info *out)
{
    if (!p || !out || owner < 0 || owner > 2 || i < 0)
        return 0;
    for (int slot = 0; slot < HAND_SLOTS; slot++) {
        int n = p->hand[owner][slot];
        if (!n || i-- > 0)
            continue;
        inspect_piece(p->v, pc_make(slot & PC_KIND_MASK, slot & PC_FLIP, owner, 0),
                      0, out);
        return n;
    }
    return 0;
}

int tiers_pos_move_number(const tiers_pos *p)
{
    return p ? p->st.fullmove + 1 : 0;
}

int tiers_variant_uses_facing(const tiers_variant *v)
{
    return v ? v->uses_facing != 0 : 0;
}

int tiers_variant_side_forward(const tiers_variant *v, int side)
{
    return v && (side == 0 || side == 1) ? v->forward[side] : -1;
}

int tiers_variant_first_side(const tiers_variant *v)
{
    return v ? v->play_first_side : 0;
}
