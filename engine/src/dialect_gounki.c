/* dialect_gounki.c - Gounki move notation (docs/rules/gounki.md).
 *
 * Written (compact, as in the 2004 example game):
 *
 *   a1-a2      movement to an empty square (a3-a3: a null bounce)
 *   a1-a2+     movement onto own pieces (they merge)
 *   f7xe7      movement capturing the stack on e7
 *   a1-Out     a movement leaving the board past the far rank
 *   c5*d5,e5,f6   deployment: the squares where pieces are left, in order;
 *              a square already holding own pieces (also from earlier in
 *              the same deployment) carries '+'; the list may end in Out
 *
 * Read (by the record reader, through read_move): the compact form and
 * the spaced one of the official site (`c1 b1+`, `d6 x c5`,
 * `b2 * c3 c4 c5`, `e6 * d7 c8 OUT`).  The markers '-', 'x', '*' and '+'
 * may be left out; one that is present must be true.  A deployment reads
 * as many squares as its stack holds, or up to Out.  Positions are the
 * tiers position format. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "notation.h"

enum { OUT = -1, OFF_BOARD = -2 };

/* ------------------------------------------------------------ writing */

static void put_square(sbuf *s, int sq)
{
    sb_putc(s, (char)('a' + sq_file(sq)));
    sb_putsmall(s, sq_rank(sq) + 1);
}

/* Whether a piece left on `to` by a deployment from `from` joins own
 * pieces: ones already there, or ones left earlier in the same move. */
static int deploy_joins(const tiers_pos *p, int from, const tiers_square *path, int i)
{
    int to = path[i];
    if (to != from && p->board[to].h)
        return 1;
    for (int j = 0; j < i; j++)
        if (path[j] == to)
            return 1;
    return 0;
}

static void put_deploy(const tiers_pos *p, const tiers_move *m, sbuf *s)
{
    put_square(s, m->from);
    sb_putc(s, '*');
    for (int i = 0; i < m->npath; i++) {
        if (i)
            sb_putc(s, ',');
        if (m->path[i] == TIERS_NO_SQUARE) {
            sb_puts(s, "Out");
            continue;
        }
        put_square(s, m->path[i]);
        if (deploy_joins(p, m->from, m->path, i))
            sb_putc(s, '+');
    }
}

static int gk_format_move(const tiers_pos *p, const tiers_move *m, int index, char *buf,
                          size_t size)
{
    (void)index; /* no piece letters in Gounki moves */
    sbuf s = {buf, size, 0, 0};
    switch (m->kind) {
    case TIERS_MV_MOVE:
    case TIERS_MV_STACK:
    case TIERS_MV_CAPTURE:
        put_square(&s, m->from);
        sb_putc(&s, m->kind == TIERS_MV_CAPTURE ? 'x' : '-');
        if (m->flags & TIERS_MF_EXIT)
            sb_puts(&s, "Out");
        else
            put_square(&s, m->to);
        if (m->kind == TIERS_MV_STACK)
            sb_putc(&s, '+');
        break;
    case TIERS_MV_DEPLOY:
        put_deploy(p, m, &s);
        break;
    default:
        return TIERS_EUSAGE; /* Gounki has no other kind of move */
    }
    return sb_done(&s);
}

/* Defined below: records spell Gounki moves more freely than tiers writes
 * them. */
static int gk_read_move(const tiers_pos *p, const char *const *words, int n, char *buf,
                        size_t size, int *bad_word, int *span, tiers_error *err);
static int gk_style(const char *word);

const dialect dialect_gounki = {"gounki", notation_parse_pos, notation_format_pos,
                                gk_format_move, gk_read_move, gk_style, 0, 0, 1};

/* ------------------------------------------------------------ lexing */

enum item_type { IT_END, IT_SQUARE, IT_SEP, IT_PLUS, IT_COMMA, IT_OUT, IT_BAD };

typedef struct item {
    int type;
    int sq;    /* IT_SQUARE: the square, or OFF_BOARD */
    char sep;  /* IT_SEP: '-', 'x' or '*' */
    int word;  /* index of its word */
    int off;   /* offset in the word */
    int len;
    int fresh; /* first item of its word */
} item;

/* One square: a file letter and a rank number (lowercase or uppercase). */
static int lex_square(const tiers_variant *v, const char *s, item *it)
{
    int file = tolower((unsigned char)s[0]) - 'a';
    if (file < 0 || file >= TIERS_MAX_FILES || !isdigit((unsigned char)s[1]))
        return 0;
    int rank = s[1] - '0', len = 2;
    if (isdigit((unsigned char)s[2]) && rank * 10 + (s[2] - '0') <= TIERS_MAX_RANKS)
        rank = rank * 10 + (s[len++] - '0');
    it->type = IT_SQUARE;
    it->len = len;
    it->sq = file < v->files && rank >= 1 && rank <= v->ranks ? sq_make(file, rank - 1)
                                                              : OFF_BOARD;
    return 1;
}

static void lex_item(const tiers_variant *v, const char *s, item *it)
{
    it->len = 1;
    if (!strncasecmp(s, "out", 3)) {
        it->type = IT_OUT;
        it->len = 3;
    } else if (lex_square(v, s, it)) {
        return;
    } else if (*s == '-' || *s == 'x' || *s == 'X' || *s == '*') {
        it->type = IT_SEP;
        it->sep = (char)tolower((unsigned char)*s);
    } else {
        it->type = *s == '+' ? IT_PLUS : *s == ',' ? IT_COMMA : IT_BAD;
    }
}

typedef struct reader {
    const tiers_pos *p;
    const char *const *words;
    int n, w, off; /* where the next item starts */
    int bad_word;
    tiers_error *err;
} reader;

static item peek(const reader *r)
{
    item it = {.word = r->w, .off = r->off, .fresh = r->off == 0};
    if (it.word < r->n && !r->words[it.word][it.off]) {
        it.word++;
        it.off = 0;
        it.fresh = 1;
    }
    if (it.word >= r->n)
        it.type = IT_END;
    else
        lex_item(r->p->v, r->words[it.word] + it.off, &it);
    return it;
}

static void take(reader *r, const item *it)
{
    r->w = it->word;
    r->off = it->off + it->len;
}

static int fail(reader *r, int word, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err->msg, sizeof r->err->msg, fmt, ap);
    va_end(ap);
    r->bad_word = word < r->n ? word : r->n - 1; /* "the end": the last word */
    return TIERS_EINPUT;
}

/* Text of an item for messages: the rest of its word. */
static const char *item_text(const reader *r, const item *it)
{
    return it->type == IT_END ? "the end" : r->words[it->word] + it->off;
}

/* ------------------------------------------------------------ parsing */

typedef struct dest {
    int sq; /* or OUT */
    int plus;
    int word;
} dest;

typedef struct parsed {
    int from, from_word;
    char sep; /* 0 when not written */
    int ndest, compact;
    dest d[TIERS_MAX_TIERS];
} parsed;

/* Reads a square; returns the index of its word. */
static int read_square(reader *r, int *sq, const char *what)
{
    item it = peek(r);
    if (it.type != IT_SQUARE)
        return fail(r, it.word, "expected %s, not '%s'", what, item_text(r, &it));
    if (it.sq == OFF_BOARD)
        return fail(r, it.word, "'%.*s' is not a square of the board", it.len,
                    r->words[it.word] + it.off);
    take(r, &it);
    *sq = it.sq;
    return it.word;
}

static int read_dest(reader *r, parsed *m)
{
    item it = peek(r);
    dest *d = &m->d[m->ndest];
    if (it.type == IT_OUT) {
        take(r, &it);
        d->sq = OUT;
    } else if (read_square(r, &d->sq, "a square or Out") < 0) {
        return TIERS_EINPUT;
    }
    d->word = it.word;
    d->plus = 0;
    item plus = peek(r);
    if (d->sq != OUT && plus.type == IT_PLUS && !plus.fresh) {
        take(r, &plus);
        d->plus = 1;
    }
    m->ndest++;
    return 0;
}

/* Whether the list of squares goes on after the last one read. */
static int wants_more(const parsed *m, int height, const item *next)
{
    if (m->d[m->ndest - 1].sq == OUT || m->sep == '-' || m->sep == 'x' ||
        m->ndest == TIERS_MAX_TIERS)
        return 0;
    if (next->type == IT_COMMA)
        return !next->fresh;
    if (m->sep != '*' || m->ndest >= height || m->compact)
        return 0;
    return next->fresh && (next->type == IT_SQUARE || next->type == IT_OUT);
}

static int parse_move(reader *r, parsed *m)
{
    m->from_word = read_square(r, &m->from, "a square to start the move");
    if (m->from_word < 0)
        return TIERS_EINPUT;
    item it = peek(r);
    m->sep = 0;
    if (it.type == IT_SEP) {
        take(r, &it);
        m->sep = it.sep;
    }
    m->ndest = 0;
    if (read_dest(r, m) < 0)
        return TIERS_EINPUT;
    m->compact = m->d[0].word == m->from_word;
    int height = r->p->board[m->from].h;
    for (it = peek(r); wants_more(m, height, &it); it = peek(r)) {
        if (it.type == IT_COMMA)
            take(r, &it);
        if (read_dest(r, m) < 0)
            return TIERS_EINPUT;
    }
    if (it.type != IT_END && !it.fresh)
        return fail(r, it.word, "unexpected '%s' after the move", item_text(r, &it));
    return 0;
}

/* ------------------------------------------------------------ checking */

static const char *square_name(int sq, char buf[8])
{
    return tiers_square_name(sq_file(sq), sq_rank(sq), buf);
}

/* Owner of the pieces on sq as a deployment or movement from `from` sees
 * them: -1 when empty (the start square always is). */
static int owner_at(const tiers_pos *p, int from, int sq)
{
    const tower *t = &p->board[sq];
    return sq == from || !t->h ? -1 : pc_owner(t->p[t->h - 1]);
}

/* "is empty", "holds black pieces" (for messages). */
static const char *holding(const tiers_pos *p, int owner, char *buf, size_t size)
{
    if (owner < 0)
        return "is empty";
    snprintf(buf, size, "holds %s pieces", p->v->side_name[owner]);
    return buf;
}

static int false_marker(reader *r, int word, char marker, int sq, const char *why)
{
    char name[8];
    return fail(r, word, "marker '%c' is false: %s %s", marker,
                sq == OUT ? "Out" : square_name(sq, name), why);
}

static int check_movement(reader *r, const parsed *m)
{
    const tiers_pos *p = r->p;
    const dest *d = &m->d[0];
    int owner = d->sq == OUT ? -1 : owner_at(p, m->from, d->sq), me = p->st.side;
    char why[64];
    if (m->sep == 'x' && owner != (me ^ 1))
        return false_marker(r, d->word, 'x', d->sq,
                            d->sq == OUT ? "captures nothing"
                                         : owner == me ? "holds own pieces"
                                                       : holding(p, owner, why, sizeof why));
    if (m->sep == '-' && owner == (me ^ 1))
        return false_marker(r, d->word, '-', d->sq, "holds enemy pieces (a capture is 'x')");
    if (d->plus && owner != me)
        return false_marker(r, d->word, '+', d->sq,
                            d->sq == m->from ? "is the start square"
                                             : holding(p, owner, why, sizeof why));
    return 0;
}

static int placed_before(const uint8_t *path, int i)
{
    for (int j = 0; j < i; j++)
        if (path[j] == path[i])
            return 1;
    return 0;
}

static int check_deploy_count(reader *r, const parsed *m, int height)
{
    char name[8];
    int exits = m->d[m->ndest - 1].sq == OUT;
    if (height < 2)
        return fail(r, m->from_word, "marker '*' is false: %s holds no stack",
                    square_name(m->from, name));
    if (m->ndest > height || (!exits && m->ndest < height))
        return fail(r, m->from_word,
                    "the deployment from %s leaves %d piece%s, the stack there holds %d",
                    square_name(m->from, name), m->ndest, m->ndest == 1 ? "" : "s", height);
    return 0;
}

static int check_deploy(reader *r, const parsed *m)
{
    const tiers_pos *p = r->p;
    int me = p->st.side;
    char why[64];
    if (m->sep == 'x')
        return false_marker(r, m->from_word, 'x', m->from, "starts a deployment, which never captures");
    if (check_deploy_count(r, m, p->board[m->from].h) < 0)
        return TIERS_EINPUT;
    uint8_t path[TIERS_MAX_TIERS];
    for (int i = 0; i < m->ndest && m->d[i].sq != OUT; i++) {
        path[i] = (uint8_t)m->d[i].sq;
        int owner = owner_at(p, m->from, m->d[i].sq);
        if (m->d[i].plus && owner != me && !placed_before(path, i))
            return false_marker(r, m->d[i].word, '+', m->d[i].sq,
                                holding(p, owner, why, sizeof why));
    }
    return 0;
}

/* ------------------------------------------------------------ normal form */

static int is_deploy(const parsed *m)
{
    if (m->d[0].sq == OUT)
        return 0; /* a deployment whose first step exits is the exit move */
    return m->sep == '*' || m->ndest > 1;
}

static void put_normal(const tiers_pos *p, const parsed *m, sbuf *s)
{
    if (is_deploy(m)) {
        tiers_move mv = {.kind = TIERS_MV_DEPLOY, .from = (tiers_square)m->from};
        for (int i = 0; i < m->ndest; i++)
            mv.path[mv.npath++] = m->d[i].sq == OUT ? TIERS_NO_SQUARE : (tiers_square)m->d[i].sq;
        put_deploy(p, &mv, s);
        return;
    }
    int to = m->d[0].sq, owner = to == OUT ? -1 : owner_at(p, m->from, to);
    put_square(s, m->from);
    sb_putc(s, owner >= 0 && owner != p->st.side ? 'x' : '-');
    if (to == OUT)
        sb_puts(s, "Out");
    else
        put_square(s, to);
    if (owner == p->st.side)
        sb_putc(s, '+');
}

/* read_move: the move that starts at words[0], written to buf in the
 * compact form with every marker taken from the board; TIERS_EINPUT for
 * unreadable text, a false marker or a deployment with the wrong number of
 * squares. */
static int gk_read_move(const tiers_pos *p, const char *const *words, int n, char *buf,
                        size_t size, int *bad_word, int *span, tiers_error *err)
{
    reader r = {.p = p, .words = words, .n = n, .err = err};
    parsed m;
    int rc = parse_move(&r, &m);
    if (rc == 0)
        rc = is_deploy(&m) || m.sep == '*' ? check_deploy(&r, &m) : check_movement(&r, &m);
    if (rc < 0) {
        *bad_word = r.bad_word;
        *span = (r.bad_word > r.w ? r.bad_word : r.w) + 1;
        return rc;
    }
    sbuf s = {buf, size, 0, 0};
    put_normal(p, &m, &s);
    if (sb_done(&s) < 0)
        return TIERS_EFULL;
    return r.w + 1;
}

/* style: a '+', "Out", a lone square or marker is Gounki alone. */
static int gk_style(const char *word)
{
    if (strchr(word, '+') || strstr(word, "Out") || strstr(word, "OUT"))
        return 1;
    if (!strcmp(word, "x") || !strcmp(word, "X") || !strcmp(word, "-") || !strcmp(word, "*"))
        return 1;
    /* a lone square: the spaced form */
    return isalpha((unsigned char)word[0]) && isdigit((unsigned char)word[1]) &&
           (!word[2] || (isdigit((unsigned char)word[2]) && !word[3]));
}
