/* record.c - reading and replaying game records (docs/notation.md, "Game
 * records").
 *
 *   [Variant "gounki"]            tags: [Name "value"], before the moves
 *   [Result "0-1"]
 *   1. a1-a2+ a8-b7+ {comment}    moves, optional numbers 12. / 12...
 *   ...
 *   0-1                           optional result token, last
 *
 * Reading (tiers_record_read) only splits the text: tags, move words and
 * the result.  Replaying groups the words into moves (a dialect may need
 * the position for that: a spaced Gounki deployment reads as many squares
 * as its stack holds), matches each against the legal moves in the
 * record's notation, makes it, and checks numbers and the result. */
#include "record.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "notation.h"
#include "status.h"

/* ------------------------------------------------------------ look-alikes */

static const struct lookalike {
    uint16_t cp;
    char ascii;
} lookalikes[] = {
    /* Cyrillic small letters */
    {0x0430, 'a'}, {0x0435, 'e'}, {0x043e, 'o'}, {0x0440, 'p'}, {0x0441, 'c'},
    {0x0443, 'y'}, {0x0445, 'x'}, {0x0455, 's'}, {0x0456, 'i'}, {0x0458, 'j'},
    {0x04bb, 'h'}, {0x0501, 'd'},
    /* Cyrillic capitals */
    {0x0405, 'S'}, {0x0406, 'I'}, {0x0408, 'J'}, {0x0410, 'A'}, {0x0412, 'B'},
    {0x0415, 'E'}, {0x041a, 'K'}, {0x041c, 'M'}, {0x041d, 'H'}, {0x041e, 'O'},
    {0x0420, 'P'}, {0x0421, 'C'}, {0x0422, 'T'}, {0x0423, 'Y'}, {0x0425, 'X'},
    /* Greek */
    {0x0391, 'A'}, {0x0392, 'B'}, {0x0395, 'E'}, {0x0396, 'Z'}, {0x0397, 'H'},
    {0x0399, 'I'}, {0x039a, 'K'}, {0x039c, 'M'}, {0x039d, 'N'}, {0x039f, 'O'},
    {0x03a1, 'P'}, {0x03a4, 'T'}, {0x03a5, 'Y'}, {0x03a7, 'X'}, {0x03bf, 'o'},
    /* signs: multiplication, hyphens and dashes, minus, fraction slash */
    {0x00d7, 'x'}, {0x2010, '-'}, {0x2011, '-'}, {0x2012, '-'}, {0x2013, '-'},
    {0x2212, '-'}, {0x2044, '/'},
};

int record_lookalike(uint32_t cp)
{
    for (size_t i = 0; i < sizeof lookalikes / sizeof lookalikes[0]; i++)
        if (lookalikes[i].cp == cp)
            return lookalikes[i].ascii;
    return 0;
}

/* Decodes one UTF-8 sequence; returns its length, 0 if malformed. */
static int utf8_decode(const unsigned char *s, uint32_t *cp)
{
    int len = s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (s[0] >= 0xf5)
        len = 0;
    uint32_t c = len ? s[0] & (0x7f >> len) : 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3f);
    }
    *cp = c;
    return len;
}

int record_is_result(const char *w)
{
    return !strcmp(w, "1-0") || !strcmp(w, "0-1") || !strcmp(w, "1/2-1/2") || !strcmp(w, "*");
}

const char *record_word_problem(const char *w, int whole)
{
    if (strpbrk(w, "{}"))
        return "holds '{' or '}', which a record reads as a comment";
    if (!whole)
        return NULL;
    if (w[0] == '[')
        return "starts with '[', which a record reads as a tag";
    if (record_is_result(w))
        return "is a result, which a record reads as the end of the game";
    if (!strcmp(w, "..."))
        return "is '...', which a record reads as part of a move number";
    size_t digits = strspn(w, "0123456789");
    if (digits && w[digits] == '.')
        return "starts with a move number (digits and '.')";
    return NULL;
}

/* ------------------------------------------------------------ lexing */

typedef struct lexer {
    const char *c;
    int line, col;
    tiers_record *r;
    tiers_error *err;
    int number, dots;             /* a move number waiting for its move */
    int number_line, number_col;
    int last_number;              /* for messages */
} lexer;

static int lex_error(lexer *lx, int line, int col, const char *fmt, ...)
{
    va_list ap;
    memset(lx->err, 0, sizeof *lx->err);
    va_start(ap, fmt);
    vsnprintf(lx->err->msg, sizeof lx->err->msg, fmt, ap);
    va_end(ap);
    lx->err->line = line;
    lx->err->col = col;
    return TIERS_EINPUT;
}

static int no_memory(lexer *lx)
{
    lex_error(lx, lx->line, lx->col, "out of memory");
    return TIERS_ENOMEM;
}

static void advance(lexer *lx, size_t n)
{
    for (size_t i = 0; i < n && *lx->c; i++, lx->c++) {
        unsigned char b = (unsigned char)*lx->c;
        if (b == '\n') {
            lx->line++;
            lx->col = 1;
        } else if ((b & 0xc0) != 0x80) {
            lx->col++;
        }
    }
}

/* Bytes of white space at s: ASCII, no-break space, byte-order mark. */
static int space_len(const char *s)
{
    if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == '\v' || *s == '\f')
        return 1;
    if (!strncmp(s, "\xc2\xa0", 2))
        return 2;
    return !strncmp(s, "\xef\xbb\xbf", 3) ? 3 : 0;
}

static void skip_space(lexer *lx)
{
    for (int n; (n = space_len(lx->c)) > 0;)
        advance(lx, (size_t)n);
}

static void skip_blanks(lexer *lx)
{
    while (*lx->c == ' ' || *lx->c == '\t')
        advance(lx, 1);
}

static int skip_comment(lexer *lx)
{
    int line = lx->line, col = lx->col;
    const char *end = strchr(lx->c, '}');
    if (!end)
        return lex_error(lx, line, col, "comment not closed: '{' without '}'");
    advance(lx, (size_t)(end - lx->c) + 1);
    return 0;
}

/* ------------------------------------------------------------ tags */

static int bad_tag(lexer *lx)
{
    return lex_error(lx, lx->line, lx->col, "bad tag: expected [Name \"value\"]");
}

static int add_tag(lexer *lx, char *name, char *value, int line, int col)
{
    tiers_record *r = lx->r;
    if (r->ntags == TIERS_RECORD_MAX_TAGS) {
        lex_error(lx, line, col, "more than %d tags (the limit of a record)",
                  TIERS_RECORD_MAX_TAGS);
        goto fail;
    }
    for (int i = 0; i < r->ntags; i++) /* at most 256: linear enough */
        if (!strcmp(r->tags[i].name, name)) {
            lex_error(lx, line, col, "tag '%s' given twice", name);
            goto fail;
        }
    if (!strcmp(name, "Result") && !record_is_result(value)) {
        lex_error(lx, line, col, "bad Result tag '%s': expected 1-0, 0-1, 1/2-1/2 or *", value);
        goto fail;
    }
    record_tag *t = realloc(r->tags, (size_t)(r->ntags + 1) * sizeof *t);
    if (!t) {
        free(name);
        free(value);
        return no_memory(lx);
    }
    r->tags = t;
    r->tags[r->ntags++] = (record_tag){name, value, line, col};
    return 0;
fail:
    free(name);
    free(value);
    return TIERS_EINPUT;
}

static char *read_tag_name(lexer *lx)
{
    size_t n = 0;
    while (isalnum((unsigned char)lx->c[n]) || lx->c[n] == '_')
        n++;
    if (!n)
        return NULL;
    char *name = strndup(lx->c, n);
    advance(lx, n);
    return name;
}

/* The quoted value at lx->c, with \" and \\ unescaped; NULL if not closed
 * on its line. */
static char *read_tag_value(lexer *lx)
{
    size_t n = 1;
    while (lx->c[n] && lx->c[n] != '"' && lx->c[n] != '\n')
        n += lx->c[n] == '\\' && lx->c[n + 1] && lx->c[n + 1] != '\n' ? 2 : 1;
    if (lx->c[n] != '"' || n - 1 > TIERS_RECORD_MAX_TAG)
        return NULL;
    char *value = malloc(n), *o = value;
    for (size_t i = 1; value && i < n; i++)
        *o++ = lx->c[i] == '\\' ? lx->c[++i] : lx->c[i];
    if (value)
        *o = 0;
    advance(lx, n + 1);
    return value;
}

static int read_tag(lexer *lx)
{
    int line = lx->line, col = lx->col;
    if (lx->r->nwords || lx->number)
        return lex_error(lx, line, col, "tag after the moves");
    advance(lx, 1);
    skip_blanks(lx);
    char *name = read_tag_name(lx), *value = NULL;
    if (!name)
        return bad_tag(lx);
    skip_blanks(lx);
    if (*lx->c == '"')
        value = read_tag_value(lx);
    if (!value) {
        int vline = lx->line, vcol = lx->col;
        size_t len = *lx->c == '"' ? strcspn(lx->c + 1, "\"\n") : 0;
        free(name);
        if (len > TIERS_RECORD_MAX_TAG)
            return lex_error(lx, vline, vcol, "a tag value over %d bytes (the limit of a "
                             "record)", TIERS_RECORD_MAX_TAG);
        return bad_tag(lx);
    }
    skip_blanks(lx);
    if (*lx->c != ']') {
        free(name);
        free(value);
        return bad_tag(lx);
    }
    advance(lx, 1);
    return add_tag(lx, name, value, line, col);
}

/* ------------------------------------------------------------ words */

static size_t word_len(const char *s)
{
    size_t n = 0;
    while (s[n] && !space_len(s + n) && s[n] != '{' && s[n] != '}')
        n++;
    return n;
}

static int bad_letter(lexer *lx, int col, const char *raw, size_t n, const unsigned char *s,
                      int len, uint32_t cp)
{
    char where[32] = "";
    if (lx->last_number)
        snprintf(where, sizeof where, "move %d: ", lx->last_number);
    if (!len)
        return lex_error(lx, lx->line, col, "%s'%.*s': invalid UTF-8", where, (int)n, raw);
    return lex_error(lx, lx->line, col, "%s'%.*s': '%.*s' (U+%04X) is not a Latin letter and "
                     "looks like none", where, (int)n, raw, len, (const char *)s, (unsigned)cp);
}

/* ASCII copy of raw[0..n) with look-alikes mapped into *out; an error
 * names the word and the character that has no Latin look-alike. */
static int map_word(lexer *lx, const char *raw, size_t n, char **out)
{
    char *o = *out = malloc(n + 1);
    if (!o)
        return no_memory(lx);
    int col = lx->col;
    for (size_t i = 0; i < n; col++) {
        const unsigned char *s = (const unsigned char *)raw + i;
        uint32_t cp = *s;
        int len = *s < 0x80 ? 1 : utf8_decode(s, &cp);
        int ascii = len == 1 ? *s : len ? record_lookalike(cp) : 0;
        if (!ascii) {
            free(*out);
            *out = NULL;
            return bad_letter(lx, col, raw, n, s, len, cp);
        }
        *o++ = (char)ascii;
        i += (size_t)len;
    }
    *o = 0;
    return 0;
}

/* Copy of raw[0..n) as written, for a notation whose moves are UTF-8
 * (no look-alike mapping); an error names malformed UTF-8. */
static int copy_word(lexer *lx, const char *raw, size_t n, char **out)
{
    int col = lx->col;
    *out = NULL; /* the caller frees it, error or not */
    for (size_t i = 0; i < n; col++) {
        const unsigned char *s = (const unsigned char *)raw + i;
        uint32_t cp = *s;
        int len = *s < 0x80 ? 1 : utf8_decode(s, &cp);
        if (!len || i + (size_t)len > n)
            return bad_letter(lx, col, raw, n, s, 0, cp);
        i += (size_t)len;
    }
    *out = strndup(raw, n);
    return *out ? 0 : no_memory(lx);
}

int tiers_notation_utf8_moves(const char *notation)
{
    const dialect *d = notation ? notation_dialect(notation) : NULL;
    return d && d->utf8_moves;
}

/* Whether the record's Notation tag (tags come first) names a notation
 * whose moves are written in UTF-8 letters. */
static int words_as_written(const lexer *lx)
{
    return tiers_notation_utf8_moves(tiers_record_tag(lx->r, "Notation"));
}

/* A leading move number "12." / "12..." is taken off the word: returns the
 * rest (maybe ""), or the word itself when it has none. */
static const char *take_number(lexer *lx, const char *w)
{
    int n = 0, i = 0, dots = 0;
    while (isdigit((unsigned char)w[i]) && n < 100000)
        n = n * 10 + (w[i++] - '0');
    while (i && w[i + dots] == '.')
        dots++;
    if (!i || !dots)
        return w;
    lx->number = n;
    lx->dots = dots >= 3 ? 3 : 1;
    lx->number_line = lx->line;
    lx->number_col = lx->col;
    lx->last_number = n;
    return w + i + dots;
}

static int add_word(lexer *lx, char *text, char *raw)
{
    tiers_record *r = lx->r;
    if (r->nwords == TIERS_RECORD_MAX_MOVES + 1) /* one more: it may be the result */
        return lex_error(lx, lx->line, lx->col, "more than %d moves (the limit of a record)",
                         TIERS_RECORD_MAX_MOVES);
    if (r->nwords == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        record_word *w = realloc(r->words, (size_t)cap * sizeof *w);
        if (!w)
            return no_memory(lx);
        r->words = w;
        r->cap = cap;
    }
    r->words[r->nwords++] = (record_word){text, raw, lx->line, lx->col, lx->number, lx->dots};
    lx->number = lx->dots = 0;
    return 0;
}

/* The move part of a word, after its number: its text and raw copies. */
static int add_move_word(lexer *lx, const char *rest, size_t skip, size_t n)
{
    char *text = strdup(rest), *raw = strndup(lx->c + skip, n - skip);
    int rc = text && raw ? 0 : no_memory(lx);
    if (rc == 0) {
        advance(lx, skip); /* the word starts where its move does */
        rc = add_word(lx, text, raw);
    }
    if (rc < 0) {
        free(text);
        free(raw);
        return rc;
    }
    advance(lx, n - skip);
    return 0;
}

/* What a word is, once its move number is off. */
static int read_word_text(lexer *lx, const char *mapped, size_t n, int pending)
{
    if (pending && lx->dots == 1 && !strcmp(mapped, "...")) {
        lx->dots = 3; /* "12. ... b4*a3": the second side's move of round 12 */
        advance(lx, n);
        return 0;
    }
    const char *rest = take_number(lx, mapped);
    if (pending && rest != mapped)
        return lex_error(lx, lx->line, lx->col, "move number '%s' right after move number %d: "
                         "a move is missing", mapped, pending);
    if (*rest)
        return add_move_word(lx, rest, (size_t)(rest - mapped), n);
    advance(lx, n); /* a number alone */
    return 0;
}

static int read_word(lexer *lx)
{
    size_t n = word_len(lx->c);
    char *mapped;
    int rc = words_as_written(lx) ? copy_word(lx, lx->c, n, &mapped)
                                  : map_word(lx, lx->c, n, &mapped);
    if (rc == 0)
        rc = read_word_text(lx, mapped, n, lx->number);
    free(mapped);
    return rc;
}

/* ------------------------------------------------------------ reading */

/* The last word may be the result; no other word may be one (but '*',
 * the spaced deployment marker). */
static int take_result(lexer *lx)
{
    tiers_record *r = lx->r;
    if (lx->number)
        return lex_error(lx, lx->number_line, lx->number_col,
                         "move number %d%s without a move", lx->number,
                         lx->dots == 3 ? "..." : ".");
    if (r->nwords && record_is_result(r->words[r->nwords - 1].text)) {
        record_word *w = &r->words[--r->nwords];
        snprintf(r->result, sizeof r->result, "%s", w->text);
        r->result_line = w->line;
        r->result_col = w->col;
        free(w->text);
        free(w->raw);
    }
    for (int i = 0; i < r->nwords; i++)
        if (record_is_result(r->words[i].text) && strcmp(r->words[i].text, "*"))
            return lex_error(lx, r->words[i].line, r->words[i].col,
                             "result '%s' before the end of the moves", r->words[i].text);
    return 0;
}

static int lex_all(lexer *lx)
{
    for (;;) {
        skip_space(lx);
        int rc;
        switch (*lx->c) {
        case 0:
            return take_result(lx);
        case '[':
            rc = read_tag(lx);
            break;
        case '{':
            rc = skip_comment(lx);
            break;
        case '}':
            rc = lex_error(lx, lx->line, lx->col, "'}' without '{'");
            break;
        default:
            rc = read_word(lx);
        }
        if (rc < 0)
            return rc;
    }
}

/* The size limits of the whole text and of each line, checked before
 * anything is read (one pass). */
static int check_size(lexer *lx)
{
    const char *s = lx->c;
    int line = 1;
    size_t total = 0;
    for (;;) {
        size_t n = strcspn(s, "\n");
        if (n > TIERS_RECORD_MAX_LINE)
            return lex_error(lx, line, TIERS_RECORD_MAX_LINE + 1, "line %d is over %d bytes "
                             "(the limit of a record line)", line, TIERS_RECORD_MAX_LINE);
        total += n;
        if (total > TIERS_RECORD_MAX_BYTES)
            return lex_error(lx, line, 1, "the record is over %d bytes (the limit of a "
                             "record)", TIERS_RECORD_MAX_BYTES);
        if (!s[n])
            return 0;
        s += n + 1;
        total++;
        line++;
    }
}

tiers_record *tiers_record_read(const char *text, tiers_error *err)
{
    tiers_error tmp;
    if (!err)
        err = &tmp;
    memset(err, 0, sizeof *err);
    tiers_record *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    lexer lx = {.c = text, .line = 1, .col = 1, .r = r, .err = err};
    if (check_size(&lx) < 0 || lex_all(&lx) < 0) {
        tiers_record_free(r);
        return NULL;
    }
    return r;
}

void tiers_record_free(tiers_record *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->ntags; i++) {
        free(r->tags[i].name);
        free(r->tags[i].value);
    }
    for (int i = 0; i < r->nwords; i++) {
        free(r->words[i].text);
        free(r->words[i].raw);
    }
    free(r->tags);
    free(r->words);
    free(r);
}

int tiers_record_tag_count(const tiers_record *r) { return r->ntags; }

const char *tiers_record_tag_name(const tiers_record *r, int i)
{
    return i >= 0 && i < r->ntags ? r->tags[i].name : NULL;
}

const char *tiers_record_tag_value(const tiers_record *r, int i)
{
    return i >= 0 && i < r->ntags ? r->tags[i].value : NULL;
}

static const record_tag *find_tag(const tiers_record *r, const char *name)
{
    for (int i = 0; i < r->ntags; i++)
        if (!strcmp(r->tags[i].name, name))
            return &r->tags[i];
    return NULL;
}

const char *tiers_record_tag(const tiers_record *r, const char *name)
{
    const record_tag *t = find_tag(r, name);
    return t ? t->value : NULL;
}

int tiers_record_word_count(const tiers_record *r) { return r->nwords; }

const char *tiers_record_word(const tiers_record *r, int i)
{
    return i >= 0 && i < r->nwords ? r->words[i].text : NULL;
}

const char *tiers_record_result(const tiers_record *r)
{
    return r->result[0] ? r->result : NULL;
}

/* ------------------------------------------------------------ notations */

/* Words only the tiers notation writes: a stack `a1^a2`, a lowercase out. */
static int tiers_style(const char *w)
{
    return strchr(w, '^') || strstr(w, "-out") || strstr(w, ",out");
}

static const char *guess_notation(const tiers_record *r, const tiers_variant *v,
                                  tiers_error *err)
{
    const char *own = NULL, *other = NULL, *name = "tiers";
    for (int i = 0; i < r->nwords; i++) {
        const char *w = r->words[i].text;
        if (!own && tiers_style(w))
            own = w;
        for (int k = 0; !other && k < v->ndialects; k++) {
            const dialect *d = notation_dialect(v->dialects[k]);
            if (d && d->style && d->style(w)) {
                other = w;
                name = v->dialects[k];
            }
        }
    }
    if (own && other) {
        snprintf(err->msg, sizeof err->msg, "the moves mix notations ('%s' is tiers, '%s' is "
                 "%s): name one with a Notation tag or --notation", own, other, name);
        return NULL;
    }
    return other ? name : "tiers";
}

const char *tiers_record_notation(const tiers_record *r, const tiers_variant *v,
                                  tiers_error *err)
{
    tiers_error tmp;
    if (!err)
        err = &tmp;
    memset(err, 0, sizeof *err);
    const record_tag *t = find_tag(r, "Notation");
    if (!t)
        return guess_notation(r, v, err);
    const char *name = notation_offered(v, t->value);
    if (!name) {
        snprintf(err->msg, sizeof err->msg, "variant %s has no notation '%s' (Notation tag)",
                 v->name, t->value);
        err->line = t->line;
        err->col = t->col;
    }
    return name;
}

/* ------------------------------------------------------------ replaying */

typedef struct replay {
    const tiers_record *r;
    tiers_pos *p;
    const char *notation;
    const dialect *reader; /* the notation's, when it reads moves itself */
    const char **texts;  /* the words' ASCII texts, for readers */
    tiers_replay *out;
    tiers_error *err;
    int number, side;    /* of the move being read */
    char token[512];     /* the move as written */
    char text[256];      /* its normal form in the notation */
    tiers_move *legal;   /* the legal moves of the position (TIERS_MAX_MOVES) */
} replay;

static int replay_error(replay *rp, int rc, const record_word *at, const char *fmt, ...)
{
    va_list ap;
    memset(rp->err, 0, sizeof *rp->err);
    va_start(ap, fmt);
    vsnprintf(rp->err->msg, sizeof rp->err->msg, fmt, ap);
    va_end(ap);
    if (at) {
        rp->err->line = at->line;
        rp->err->col = at->col;
    }
    return rc;
}

/* "move 12 (black) 'e2-b5': " + the reason. */
static int move_error(replay *rp, int rc, const record_word *at, const char *why)
{
    rp->out->stopped_at = rp->out->plies + 1;
    return replay_error(rp, rc, at, "move %d (%s) '%s': %s", rp->number,
                        rp->p->v->side_name[rp->side], rp->token, why);
}

static void join_raw(replay *rp, int first, int n)
{
    sbuf s = {rp->token, sizeof rp->token, 0, 0};
    rp->token[0] = 0;
    for (int i = first; i < first + n && i < rp->r->nwords; i++) {
        if (i > first)
            sb_putc(&s, ' ');
        sb_puts(&s, rp->r->words[i].raw);
    }
    sb_done(&s);
}

static int check_number(replay *rp, const record_word *w)
{
    if (!w->number)
        return 0;
    int black = rp->side != rp->p->v->play_first_side;
    if (w->number == rp->number && (w->dots == 3) == black)
        return 0;
    char why[128];
    snprintf(why, sizeof why, "numbered %d%s, but it is move %d%s", w->number,
             w->dots == 3 ? "..." : ".", rp->number, black ? "..." : ".");
    return move_error(rp, TIERS_EINPUT, w, why);
}

/* Reads the move starting at word i into rp->text; returns its words. */
static int read_move_text(replay *rp, int i)
{
    const tiers_record *r = rp->r;
    int bad = 0, span = 1;
    if (!rp->reader) {
        snprintf(rp->text, sizeof rp->text, "%s", r->words[i].text);
        return 1;
    }
    tiers_error e = {0};
    int n = rp->reader->read_move(rp->p, rp->texts + i, r->nwords - i, rp->text, sizeof rp->text,
                             &bad, &span, &e);
    if (n < 0) {
        join_raw(rp, i, span);
        return move_error(rp, n, &r->words[i + bad], e.msg[0] ? e.msg : "unreadable move");
    }
    for (int k = 1; k < n; k++)
        if (r->words[i + k].number) {
            join_raw(rp, i, n);
            return move_error(rp, TIERS_EINPUT, &r->words[i + k],
                              "a move number stands inside the move");
        }
    return n;
}

/* Reads, checks and makes the move at word i; *used = its words.  Returns
 * 0, a negative error, or the callback's non-zero value. */
static int play_word(replay *rp, int i, int *used, tiers_record_fn fn, void *ud)
{
    const record_word *w = &rp->r->words[i];
    rp->number = rp->p->st.fullmove + 1;
    rp->side = rp->p->st.side;
    join_raw(rp, i, 1);
    tiers_status st; /* one list and one game-end test per move */
    int nlegal = status_moves(rp->p, rp->legal, TIERS_MAX_MOVES, &st);
    if (st.game_over) {
        char why[96];
        snprintf(why, sizeof why, "the game is already over (%s)", st.reason);
        return move_error(rp, TIERS_EILLEGAL, w, why);
    }
    int n = check_number(rp, w);
    if (n == 0)
        n = read_move_text(rp, i);
    if (n < 0)
        return n;
    join_raw(rp, i, n);
    tiers_move m;
    tiers_error e;
    int rc = tiers_move_find(rp->p, rp->text, rp->notation, rp->legal, nlegal, &m, &e);
    if (rc < 0)
        return move_error(rp, rc, w, rc == TIERS_EILLEGAL ? "not a legal move" : e.msg);
    rc = tiers_pos_make_unchecked(rp->p, &m, NULL); /* m is from the legal list */
    if (rc < 0)
        return move_error(rp, rc, w, "the move could not be made");
    tiers_record_ply ply = {rp->out->plies++, rp->number, rp->side, rp->token, rp->text, m};
    *used = n;
    return fn ? fn(rp->p, &ply, ud) : 0;
}

static const char *result_text(tiers_result res)
{
    static const char *const text[] = {"*", "1-0", "0-1", "1/2-1/2"};
    return text[res];
}

static tiers_result result_of(const char *text)
{
    for (int res = TIERS_ONGOING; res <= TIERS_DRAW; res++)
        if (!strcmp(text, result_text((tiers_result)res)))
            return (tiers_result)res;
    return TIERS_ONGOING;
}

/* Where the record states its result: the token, else the Result tag. */
static record_word result_place(const tiers_record *r)
{
    record_word at = {0};
    const record_tag *t = find_tag(r, "Result");
    at.line = r->result[0] ? r->result_line : t ? t->line : 0;
    at.col = r->result[0] ? r->result_col : t ? t->col : 0;
    return at;
}

static int check_result(replay *rp)
{
    const tiers_record *r = rp->r;
    const char *tag = tiers_record_tag(r, "Result"), *said = r->result[0] ? r->result : tag;
    const char *term = tiers_record_tag(r, "Termination");
    record_word at = result_place(r);
    if (tag && r->result[0] && strcmp(tag, r->result))
        return replay_error(rp, TIERS_EINPUT, &at, "the Result tag says %s but the moves end "
                            "with %s", tag, r->result);
    tiers_status st = tiers_pos_status(rp->p);
    rp->out->game_over = st.game_over;
    if (st.game_over) {
        rp->out->result = st.result;
        rp->out->reason = st.reason;
        if (said && strcmp(said, result_text(st.result)))
            return replay_error(rp, TIERS_EINPUT, &at, "the record says %s but the game ended "
                                "%s (%s)", said, result_text(st.result), st.reason);
        return 0;
    }
    if (said && strcmp(said, "*") && !term)
        return replay_error(rp, TIERS_EINPUT, &at, "the record says %s but the game is not "
                            "over after the last move (a Termination tag would say why)", said);
    rp->out->result = said ? result_of(said) : TIERS_ONGOING;
    rp->out->reason = term && said && strcmp(said, "*") ? term : "";
    return 0;
}

static int check_variant(replay *rp)
{
    const record_tag *t = find_tag(rp->r, "Variant");
    if (!t || !strcasecmp(t->value, rp->p->v->name))
        return 0;
    record_word at = {.line = t->line, .col = t->col};
    return replay_error(rp, TIERS_EINPUT, &at, "the record is for variant '%s', not '%s'",
                        t->value, rp->p->v->name);
}

static int set_start(replay *rp)
{
    const record_tag *t = find_tag(rp->r, "Position");
    int rc = tiers_pos_reset(rp->p);
    if (rc < 0 || !t)
        return rc < 0 ? replay_error(rp, rc, NULL, "cannot set up the start position") : 0;
    tiers_error e;
    rc = tiers_pos_parse(rp->p, t->value, NULL, &e);
    record_word at = {.line = t->line, .col = t->col};
    return rc < 0 ? replay_error(rp, rc, &at, "bad Position tag: %s", e.msg) : 0;
}

static int pick_notation(replay *rp, const char *notation)
{
    const tiers_variant *v = rp->p->v;
    tiers_error e = {0};
    rp->notation = notation ? notation_offered(v, notation) : tiers_record_notation(rp->r, v, &e);
    if (!rp->notation) {
        if (notation)
            snprintf(e.msg, sizeof e.msg, "variant %s has no notation '%s'", v->name, notation);
        *rp->err = e;
        return TIERS_EINPUT;
    }
    rp->reader = notation_dialect(rp->notation);
    if (rp->reader && !rp->reader->read_move)
        rp->reader = NULL;
    snprintf(rp->out->notation, sizeof rp->out->notation, "%s", rp->notation);
    return 0;
}

static int replay_all(replay *rp, tiers_record_fn fn, void *ud)
{
    int rc = check_variant(rp);
    if (rc == 0)
        rc = set_start(rp);
    for (int i = 0, used = 0; rc == 0 && i < rp->r->nwords; i += used)
        rc = play_word(rp, i, &used, fn, ud);
    return rc ? rc : check_result(rp);
}

int tiers_record_replay(const tiers_record *r, tiers_pos *p, const char *notation,
                        tiers_record_fn fn, void *ud, tiers_replay *out, tiers_error *err)
{
    tiers_replay tmp_out;
    tiers_error tmp_err;
    replay rp = {.r = r, .p = p, .out = out ? out : &tmp_out, .err = err ? err : &tmp_err};
    memset(rp.out, 0, sizeof *rp.out);
    memset(rp.err, 0, sizeof *rp.err);
    rp.out->reason = "";
    int rc = pick_notation(&rp, notation);
    if (rc < 0)
        return rc;
    rp.texts = malloc(((size_t)r->nwords + 1) * sizeof *rp.texts);
    rp.legal = malloc(TIERS_MAX_MOVES * sizeof *rp.legal);
    if (!rp.texts || !rp.legal) {
        free(rp.texts);
        free(rp.legal);
        return replay_error(&rp, TIERS_ENOMEM, NULL, "out of memory");
    }
    for (int i = 0; i < r->nwords; i++)
        rp.texts[i] = r->words[i].text;
    rc = replay_all(&rp, fn, ud);
    free(rp.texts);
    free(rp.legal);
    return rc;
}
