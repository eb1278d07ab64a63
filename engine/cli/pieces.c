/* pieces.c - a face's movement table at one tier as a grid in the
 * diagram notation (pieces.h).  Each line becomes the cell the notation
 * would write for it; a line it has no cell for (a general line: another
 * first square, a capture limit, a long step) marks its squares '+'. */
#include "pieces.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pieces_abs(int x) { return x < 0 ? -x : x; }
static int pieces_max(int a, int b) { return a > b ? a : b; }

/* The notation's cell for line l, or 0 when it has none. */
static char pieces_cell_of(const tiers_line *l)
{
    int unit = pieces_abs(l->dx) <= 1 && pieces_abs(l->dy) <= 1;
    if (l->capture || l->fx != l->dx || l->fy != l->dy)
        return 0;
    if (l->len == 1)
        return l->nvia ? 'l' : unit ? 'o' : 'x';
    if (!unit || l->leaping || l->nvia || l->len > 9)
        return 0;
    return l->len == 0 ? '*' : (char)('0' + l->len);
}

/* Puts ch at offset dx, dy (forward = up); a cell two lines claim with
 * different letters becomes '+'. */
static void pieces_put(pieces_grid *g, int dx, int dy, char ch)
{
    if (pieces_abs(dx) > g->radius || pieces_abs(dy) > g->radius || (!dx && !dy))
        return;
    char *at = &g->cell[g->radius - dy][g->radius + dx];
    if (*at != '.' && *at != ch)
        ch = '+';
    *at = ch;
    g->general |= ch == '+';
}

/* The squares a general line reaches on the grid. */
static void pieces_put_general(pieces_grid *g, const tiers_line *l)
{
    int n = l->len ? l->len : PIECES_SIDE;
    for (int k = 0; k < n; k++) {
        int x = l->fx + k * l->dx, y = l->fy + k * l->dy;
        if (pieces_abs(x) > g->radius || pieces_abs(y) > g->radius)
            break;
        pieces_put(g, x, y, '+');
    }
}

/* The smallest radius that shows every line's own cell (at least 1, at
 * least 2 when a ray or general line goes on beyond it). */
static int pieces_radius(const tiers_line *ls, int n)
{
    int r = 1;
    for (int i = 0; i < n; i++) {
        const tiers_line *l = &ls[i];
        int far = pieces_max(pieces_abs(l->fx), pieces_abs(l->fy));
        if (!pieces_cell_of(l) && l->len != 1)
            far = pieces_max(far, pieces_max(pieces_abs(l->fx + (l->len ? l->len - 1 : 1) * l->dx),
                                             pieces_abs(l->fy + (l->len ? l->len - 1 : 1) * l->dy)));
        r = pieces_max(r, far);
    }
    return r > PIECES_MAX_RADIUS ? PIECES_MAX_RADIUS : r;
}

int pieces_grid_make(const tiers_variant *v, int face, int tier, pieces_grid *g)
{
    memset(g, 0, sizeof *g);
    if (tier < 1 || tier > tiers_variant_max_tiers(v))
        return TIERS_EUSAGE;
    int n = tiers_variant_face_lines(v, face, tier, NULL, 0);
    if (n < 0)
        return n;
    tiers_line *ls = malloc(sizeof *ls * (size_t)(n ? n : 1));
    if (!ls)
        return TIERS_ENOMEM;
    tiers_variant_face_lines(v, face, tier, ls, n);
    g->nlines = n;
    g->copies = tiers_variant_face_copies(v, face);
    g->radius = pieces_radius(ls, n);
    memset(g->cell, '.', sizeof g->cell);
    g->cell[g->radius][g->radius] = 'P';
    /* single squares first; then each ray takes the first free cell on
       its line (the notation allows any), so a step beside it stays */
    for (int i = 0; i < n; i++) {
        char ch = pieces_cell_of(&ls[i]);
        if (!ch)
            pieces_put_general(g, &ls[i]);
        else if (ls[i].len == 1)
            pieces_put(g, ls[i].dx, ls[i].dy, ch);
    }
    for (int i = 0; i < n; i++) {
        char ch = pieces_cell_of(&ls[i]);
        int k = 1;
        if (!ch || ls[i].len == 1)
            continue;
        while (k < g->radius && g->cell[g->radius - k * ls[i].dy][g->radius + k * ls[i].dx] != '.')
            k++;
        pieces_put(g, k * ls[i].dx, k * ls[i].dy, ch);
    }
    free(ls);
    return 0;
}

int pieces_grid_same(const pieces_grid *a, const pieces_grid *b)
{
    if (a->radius != b->radius || a->copies != b->copies)
        return 0;
    for (int r = 0; r <= 2 * a->radius; r++)
        if (memcmp(a->cell[r], b->cell[r], (size_t)(2 * a->radius + 1)))
            return 0;
    return 1;
}

const char *pieces_grid_row(const pieces_grid *g, int r, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int col = 0; col <= 2 * g->radius && used + 2 < size; col++) {
        if (col)
            buf[used++] = ' ';
        buf[used++] = g->cell[r][col];
    }
    buf[used] = '\0';
    return buf;
}
