/* pieces.h - a face's movement table at one tier as a grid in the
 * diagram notation of docs/variant-format.md (`.` nothing, `P` the piece,
 * `o` step, `x` jump, `l` leap, `*` slide, `2`-`9` a ray of at most N),
 * built only through the public tiers.h.  `tiers pieces`, `render
 * --piece` and the studio (tiers serve) draw the same grid. */
#ifndef PIECES_H
#define PIECES_H

#include <stddef.h>

#include "tiers.h"

enum { PIECES_MAX_RADIUS = 15, PIECES_SIDE = 2 * PIECES_MAX_RADIUS + 1 };

typedef struct pieces_grid {
    int radius;     /* the grid is 2r+1 cells square, P at its centre */
    char cell[PIECES_SIDE][PIECES_SIDE]; /* [row][col]; row 0 = forward */
    int nlines;     /* lines in the table */
    int general;    /* some cell is '+': a line the notation cannot draw
                       (a general `lines:` entry) */
    int copies;     /* the face moves like the piece beneath it */
} pieces_grid;

/* The grid of face (0..count-1) at tier (1..).  0, or a negative
 * library code (TIERS_EUSAGE for a face or tier out of range). */
int pieces_grid_make(const tiers_variant *v, int face, int tier, pieces_grid *g);
/* The same grids (two tiers alike). */
int pieces_grid_same(const pieces_grid *a, const pieces_grid *b);
/* Row r (0..2*radius) as text, cells joined by spaces, into buf. */
const char *pieces_grid_row(const pieces_grid *g, int r, char *buf, size_t size);

#endif
