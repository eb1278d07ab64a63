/* notation.h - text positions and moves: the project's own "tiers"
 * notation (docs/notation.md) and the table of dialects variants may
 * enable with `notations:` in their YAML. */
#ifndef TIERS_NOTATION_H
#define TIERS_NOTATION_H

#include <stddef.h>

#include "core.h"

/* A dialect: a named codec.  parse_pos fills a cleared position (the
 * caller rehashes); the format functions return the length written or a
 * negative error.  The registry of dialects is dialects.c, the only one:
 * the game-record reader (record.c) finds its readers there too. */
typedef struct dialect {
    const char *name;
    int (*parse_pos)(tiers_pos *p, const char *text, tiers_error *err);
    int (*format_pos)(const tiers_pos *p, char *buf, size_t size);
    /* index: the dialect's place in the variant's `notations:` (-1 when
       the variant does not list it), for face_def.alt. */
    int (*format_move)(const tiers_pos *p, const tiers_move *m, int index, char *buf,
                       size_t size);
    /* Game records, for a dialect whose moves are not "one word, compared
     * as written" (NULL otherwise).  read_move reads the move that starts
     * at words[0] (n words) in p, writes the form format_move writes to
     * buf and returns the words it spans; TIERS_EINPUT with err->msg,
     * *bad_word (the word at fault) and *span (the words read so far).
     * style: whether a word can only be this notation (to guess a
     * record's notation). */
    int (*read_move)(const tiers_pos *p, const char *const *words, int n, char *buf,
                     size_t size, int *bad_word, int *span, tiers_error *err);
    int (*style)(const char *word);
    int utf8_moves; /* moves are written in letters other than Latin ones:
                       a game record keeps them as written (no look-alikes) */
    int max_files;  /* the widest board its positions can be read back
                       from (a run of empty squares is one digit); 0 = any */
    int no_drops;   /* it has no way to write a drop: refused for a variant
                       that drops pieces (in play or in a setup) */
} dialect;

/* The dialect called `name`, NULL for "tiers" / NULL; *index = its place in
 * the variant's dialects (for face_def.alt).  Returns -1 if the variant
 * does not offer it. */
int notation_find(const tiers_variant *v, const char *name, const dialect **d, int *index);
const dialect *notation_dialect(const char *name);
/* The variant's own spelling of a notation it offers ("tiers" for the
 * project's own), NULL when it does not offer it. */
const char *notation_offered(const tiers_variant *v, const char *name);

/* A face's symbol in the dialect at `index` of the variant's notations
 * (its own symbol when the dialect gives none, or index < 0). */
static inline const char *notation_face_symbol(const tiers_variant *v, int face, int index)
{
    return index >= 0 && v->faces[face].alt[index][0] ? v->faces[face].alt[index]
                                                       : v->faces[face].sym;
}

/* tiers notation */
int notation_parse_pos(tiers_pos *p, const char *text, tiers_error *err);
int notation_format_pos(const tiers_pos *p, char *buf, size_t size);
int notation_format_move(const tiers_pos *p, const tiers_move *m, char *buf, size_t size);
int notation_piece(const tiers_variant *v, piece_t pc, int with_owner, char *buf, size_t size);

/* Small helpers shared by dialects.  The writers are inline and write no
 * terminator per character (the move lists of `tiers moves --batch` are
 * written with them): sb_done ends the text, and must be called before
 * the buffer is read.  On overflow the text stops at size - 1 bytes. */
typedef struct sbuf {
    char *buf;
    size_t size, len;
    int overflow;
} sbuf;

static inline void sb_putc(sbuf *s, char c)
{
    if (s->len + 1 < s->size)
        s->buf[s->len++] = c;
    else
        s->overflow = 1;
}

static inline void sb_puts(sbuf *s, const char *str)
{
    while (*str)
        sb_putc(s, *str++);
}

/* n in decimal, without printf. */
static inline void sb_putint(sbuf *s, long n)
{
    char tmp[24], *c = tmp + sizeof tmp;
    unsigned long u = n < 0 ? 0ul - (unsigned long)n : (unsigned long)n;
    do
        *--c = (char)('0' + u % 10);
    while (u /= 10);
    if (n < 0)
        *--c = '-';
    while (c < tmp + sizeof tmp)
        sb_putc(s, *c++);
}

/* A number below 100 (board coordinates, tiers), the common case. */
static inline void sb_putsmall(sbuf *s, int n)
{
    if (n >= 10 && n < 100)
        sb_putc(s, (char)('0' + n / 10)), sb_putc(s, (char)('0' + n % 10));
    else if (n >= 0 && n < 10)
        sb_putc(s, (char)('0' + n));
    else
        sb_putint(s, n);
}

/* Ends the text: its length, or TIERS_EFULL if it did not fit. */
static inline int sb_done(sbuf *s)
{
    if (s->size)
        s->buf[s->len] = 0; /* len < size always */
    return s->overflow ? TIERS_EFULL : (int)s->len;
}

void sb_printf(sbuf *s, const char *fmt, ...);
void notation_error(tiers_error *err, const char *text, const char *at, const char *fmt, ...);

#endif
