/* solve.h - retrograde analysis of variants small enough to enumerate
 * (solve.c).  The public functions are tiers_solve* / tiers_solution* in
 * tiers.h; these are the helpers they share. */
#ifndef TIERS_SOLVE_H
#define TIERS_SOLVE_H

#include <stddef.h>

#include "core.h"

/* The text that identifies p for the solver: the tiers position text with
 * the clock, the ply and the move number written as 0 (the ply is kept
 * while a setup phase lasts: a fixed placement order reads it).  Returns
 * the length, or a negative error. */
int solve_key_text(tiers_pos *p, char *buf, size_t size);

/* A second 64-bit key of the same content, computed independently of
 * tiers_pos_hash: the solver merges two positions only when both agree. */
uint64_t solve_key2(const tiers_pos *p);

/* A fingerprint (16 hex digits) of what decides the solved values: the
 * variant's sources and every rule and option, except those the solver
 * does not apply (repetition, max_plies, halfmove_limit). */
void solve_fingerprint(const tiers_variant *v, char out[17]);

#endif
