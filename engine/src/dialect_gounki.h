/* dialect_gounki.h - reading Gounki moves as players write them (compact
 * `a1-a2+` and spaced `c1 b1+`, see dialect_gounki.c) for the game-record
 * reader.  The dialect itself (writing the compact form) is the
 * `dialect_gounki` entry of the registry in dialects.c. */
#ifndef TIERS_DIALECT_GOUNKI_H
#define TIERS_DIALECT_GOUNKI_H

#include <stddef.h>

#include "core.h"

/* Reads the move that starts at words[0] (ASCII words of a record's move
 * text, n of them) in position p.  Writes its compact form, with every
 * marker taken from the board, to buf, and returns how many words the move
 * spans.  Unreadable text, a marker that is false, or a deployment with
 * the wrong number of squares give TIERS_EINPUT with err->msg set,
 * *bad_word the index of the word at fault and *span the number of words
 * the move was read from so far (to show it). */
int dialect_gounki_read(const tiers_pos *p, const char *const *words, int n, char *buf,
                        size_t size, int *bad_word, int *span, tiers_error *err);

/* Whether a word can only be Gounki notation (a '+', "Out", a lone square
 * or marker): used to guess a record's notation. */
int dialect_gounki_style(const char *word);

#endif
