/* movelist.h - the legal moves of a position as sorted texts, and the
 * JSON line of `tiers moves`: one generation (the status with it), every
 * text written into one buffer, sorted, the line built in memory and
 * written with one fwrite.  Its buffers are allocated once, so a batch of
 * positions allocates nothing per position or move.  `moves` (one
 * position or --batch) and `bench --batch` (which times it) use it. */
#ifndef MOVELIST_H
#define MOVELIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tiers.h"

typedef struct movelist_key movelist_key;

typedef struct movelist {
    tiers_move *moves;     /* TIERS_MAX_MOVES */
    char *text;            /* the texts, NUL after each */
    size_t text_size, text_used;
    char **texts;          /* TIERS_MAX_MOVES, sorted by movelist_make */
    movelist_key *keys, *scratch;
    int n;
    int from;              /* a square: only the moves from it (the drops
                              onto it when empty); -1, all (the default) */
    char *line;            /* the JSON line of movelist_json */
    size_t line_len, line_size;
} movelist;

/* 0, or TIERS_ENOMEM (l is then freed). */
int movelist_init(movelist *l);
void movelist_free(movelist *l);

/* The legal moves of p as texts in `notation`, sorted by their bytes
 * (as strcmp orders them): l->texts[0..l->n).  With st, the status too
 * (one game-end test and one generation).  Returns l->n or a negative
 * error (TIERS_EUSAGE: a move the notation cannot write). */
int movelist_make(movelist *l, tiers_pos *p, const char *notation, tiers_status *st);

/* The line of `moves --json` / `moves --batch` into l->line (l->line_len
 * bytes, newline included): {"position", "moves", "in_check",
 * "game_over", "result", "reason"}.  0 or TIERS_ENOMEM. */
int movelist_json(movelist *l, const char *position, const tiers_status *st);

#endif
