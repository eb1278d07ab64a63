/* jsonw.h - the JSON the CLI writes: a streaming writer that places
 * commas itself and allocates nothing, for every --json output (the hot
 * `moves --batch` and `apply --json` included).  Reading is jsonin.h. */
#ifndef JSONW_H
#define JSONW_H

#include <stddef.h>
#include <stdio.h>

enum { JSONW_MAX_DEPTH = 32 };

typedef struct jsonw {
    FILE *out;
    int depth;
    int after_key;                       /* a key was written, value next */
    unsigned char used[JSONW_MAX_DEPTH];  /* container has an element */
} jsonw;

void jsonw_init(jsonw *w, FILE *out);
void jsonw_begin_object(jsonw *w);
void jsonw_end_object(jsonw *w);
void jsonw_begin_array(jsonw *w);
void jsonw_end_array(jsonw *w);
void jsonw_key(jsonw *w, const char *key);
void jsonw_string(jsonw *w, const char *s); /* NULL writes null */
void jsonw_int(jsonw *w, long long v);
void jsonw_double(jsonw *w, double v, int decimals);
/* v with 6 significant digits (exponent form for small p-values) */
void jsonw_double_g(jsonw *w, double v);
void jsonw_bool(jsonw *w, int b);
void jsonw_null(jsonw *w);

/* Writes s as a quoted JSON string (control characters, '"' and '\\'
 * escaped; other bytes copied). */
void jsonw_quoted(FILE *out, const char *s);

/* The most bytes jsonw_quote_mem writes for a string of len bytes. */
#define JSONW_QUOTED_MAX(len) (6 * (size_t)(len) + 2)
/* Writes s quoted as jsonw_quoted does into dst (at least
 * JSONW_QUOTED_MAX(strlen(s)) bytes); returns the bytes written (no NUL
 * is added).  For lines built in memory (movelist.c). */
size_t jsonw_quote_mem(char *dst, const char *s);
/* The same without the quotes. */
size_t jsonw_escape_mem(char *dst, const char *s);
/* As jsonw_quote_mem, eight bytes at a time: s must have 8 readable bytes
 * after its NUL, and dst room for 8 bytes more than
 * JSONW_QUOTED_MAX(strlen(s)). */
size_t jsonw_quote_padded(char *dst, const char *s);

#endif
