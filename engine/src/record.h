/* record.h - game records (docs/notation.md, "Game records"): PGN-like
 * tags, move numbers, {comments} and a result around the moves; read into
 * a struct tiers_record, then replayed move by move (the public
 * tiers_record_* functions). */
#ifndef TIERS_RECORD_H
#define TIERS_RECORD_H

#include <stdint.h>

#include "core.h"

/* One word of move text: a move, or part of one in the spaced Gounki form
 * (`b2 * c3 c4 c5`). */
typedef struct record_word {
    char *text;      /* ASCII: look-alike letters mapped to Latin */
    char *raw;       /* as written */
    int line, col;   /* where it starts, 1-based */
    int number;      /* move number written just before it, 0 if none */
    int dots;        /* 1 for "12.", 3 for "12..." */
} record_word;

typedef struct record_tag {
    char *name, *value;
    int line, col;
} record_tag;

struct tiers_record {
    record_tag *tags;
    int ntags;
    record_word *words;
    int nwords, cap;
    char result[8];  /* final result token, "" if none */
    int result_line, result_col;
};

/* The ASCII letter a look-alike code point stands for (Cyrillic а е о р с
 * х ..., Greek capitals, dashes, the multiplication sign), or 0. */
int record_lookalike(uint32_t cp);

/* Whether `word` is a result token: 1-0, 0-1, 1/2-1/2 or *. */
int record_is_result(const char *word);

/* Why a move text a script wrote could not be read back from a record as
 * that move, or NULL when it can: a record reads such a word as a
 * comment, a tag, a result or a move number.  `whole`: the text is a
 * whole word (an effect move), not a suffix after a move's own text. */
const char *record_word_problem(const char *word, int whole);

#endif
