/* testutil.h - helpers shared by the cmocka test programs. */
#ifndef TIERS_TESTUTIL_H
#define TIERS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tiers.h"

/* Loads a variant (a shipped name, or a path under tests/) or fails. */
tiers_variant *tu_variant(const char *spec);
/* New position of v at `text` (NULL = start) in `notation`, or fails. */
tiers_pos *tu_pos(const tiers_variant *v, const char *text, const char *notation);
/* Legal moves formatted in `notation`, sorted, joined by ' '.  Caller frees. */
char *tu_moves(tiers_pos *p, const char *notation);
/* Whether the formatted legal list holds `move` (a whole token). */
int tu_has_move(tiers_pos *p, const char *move, const char *notation);
/* Plays a move given as text; fails the test if it is not legal. */
void tu_play(tiers_pos *p, const char *move, const char *notation);
/* The position as text in `notation` (static buffer). */
const char *tu_fen(const tiers_pos *p, const char *notation);
/* Path of a file under tests/ (static buffer). */
const char *tu_path(const char *rel);
/* Reads a whole file, NUL-terminated; caller frees.  NULL if missing. */
char *tu_read_file(const char *path, size_t *len);

/* Top-level fields of the oracle's one-object-per-line files, parsed by
 * jansson (a line that is not JSON fails the test): the string value of
 * "key" (decoded, caller frees; NULL if absent or not a string), a boolean
 * (-1 if absent), or the strings of an array (count returned, 0 if absent;
 * *out freed with tu_free_strings). */
char *tu_json_string(const char *line, const char *key);
int tu_json_bool(const char *line, const char *key);
int tu_json_strings(const char *line, const char *key, char ***out);
void tu_free_strings(char **s, int n);
/* Lines of a file (caller frees with tu_free_strings). */
int tu_lines(const char *path, char ***out);

/* Runs the group of n tests as cmocka_run_group_tests does, or one part
 * of it: with TIERS_TEST_PART=K/N only the tests i with i mod N = K-1, so
 * that ctest can run the N parts of a slow program side by side (each
 * test in exactly one part).  TIERS_TEST_FILTER=GLOB runs the tests whose
 * names match, while working on one. */
int tu_run_group(const char *name, const struct CMUnitTest *tests, size_t n,
                 CMFixtureFunction setup, CMFixtureFunction teardown);
#define tu_run_tests(tests, setup, teardown) \
    tu_run_group(#tests, tests, sizeof(tests) / sizeof((tests)[0]), setup, teardown)

#endif
