/* svg.h - a picture of a position as SVG, drawn only through the public
 * tiers.h: the board with its coordinates, towers as stacked tiles, the
 * hands beside the board and the last move highlighted.  No variant is
 * named here; sizes follow the board and the highest tower. */
#ifndef SVG_H
#define SVG_H

#include <stdio.h>

#include "tiers.h"

typedef struct svg_view {
    const tiers_pos *p;
    const tiers_move *last; /* the move that led to p, or NULL */
    const char *last_text;  /* that move as text (for the caption), or NULL */
    const char *desc;       /* p as text (the picture's <desc>), or NULL */
} svg_view;

/* Writes the whole SVG document to out.  Returns 0, or -1 when writing
 * failed (see ferror(out)). */
int svg_position(FILE *out, const svg_view *view);

#endif
