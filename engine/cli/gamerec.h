/* gamerec.h - writing game records (format in docs/notation.md, "Game
 * records"): `[Tag "value"]` lines, a blank line, the moves with their
 * numbers wrapped at 72 columns, and the result.  `tiers play` (save),
 * `tiers playout --records` and `tiers export` all write through here, so
 * `tiers replay` reads what any of them wrote. */
#ifndef GAMEREC_H
#define GAMEREC_H

#include <stdio.h>

#include "tiers.h"

/* Writes `[Name "value"]` with '"' and '\' escaped. */
void gamerec_tag(FILE *f, const char *name, const char *value);

/* The name of the tag that holds side's player: the side's name with its
 * first letter in upper case and anything but letters and digits as '_'
 * ("White"; "Side_0" for a side with no name). */
void gamerec_side_tag(const tiers_variant *v, int side, char buf[16]);

/* The move text, written one ply at a time after the tags. */
struct gamerec_moves {
    FILE *f;
    int first;          /* the side that moves first in play */
    int col;            /* column of the current line */
    int plies;
    int last_side, last_number;
};

/* Ends the tags with a blank line and starts the moves of a game of v. */
void gamerec_begin(struct gamerec_moves *w, FILE *f, const tiers_variant *v);
/* One ply: `number` and `side` as tiers_pos_move_number and
 * tiers_pos_side_to_move said before it was made, `text` the move in the
 * record's notation.  A move number is written before the first side's
 * moves and before a second side's move that does not follow its round's
 * first move ("12..."). */
void gamerec_move(struct gamerec_moves *w, int number, int side, const char *text);
/* The result token ("1-0", "0-1", "1/2-1/2", "*") and the final newline.
 * Returns 0, or -1 when the stream had a write error. */
int gamerec_end(struct gamerec_moves *w, const char *result);

#endif
