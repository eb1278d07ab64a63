/* fen.c - the board field of the gungi.js position strings (fen.h). */
#include "fen.h"

#include <ctype.h>

/* Whether the text at c opens a tower: a bar, or -- right after a tower's
 * closing bar, which gungi.js also reads as the next one's opening
 * ("|a:b|c:d|") -- a piece letter and ':'. */
static int opens_tower(const char *c, int after_bar)
{
    return *c == '|' || (after_bar && c[0] && c[1] == ':');
}

static int parse_tower(tiers_pos *p, const char *text, const char **c, int sq, int after_bar,
                       fen_piece_of piece_of, tiers_error *err)
{
    const tiers_variant *v = p->v;
    tower *t = &p->board[sq];
    int bar = opens_tower(*c, after_bar);
    *c += **c == '|';
    do {
        piece_t pc = piece_of(v, **c);
        if (!pc || t->h >= v->max_tiers) {
            notation_error(err, text, *c, pc ? "tower taller than %d tiers" : "bad piece letter '%c'",
                           pc ? v->max_tiers : **c ? **c : '?');
            return TIERS_EINPUT;
        }
        t->p[t->h++] = pc;
        (*c)++;
    } while (bar && **c == ':' && (*c)++);
    if (bar && (t->h < 2 || *(*c)++ != '|')) {
        notation_error(err, text, *c - 1, t->h < 2 ? "a |tower| needs two pieces or more"
                                                   : "expected '|' closing a tower");
        return TIERS_EINPUT;
    }
    return 0;
}

static int parse_rank(tiers_pos *p, const char *text, const char **c, int r,
                      fen_piece_of piece_of, tiers_error *err)
{
    const tiers_variant *v = p->v;
    int f = v->files - 1; /* files are written from the highest */
    int after_bar = 0;
    while (**c && **c != '/' && **c != ' ') {
        const char *at = *c;
        if (isdigit((unsigned char)**c))
            f -= *(*c)++ - '0';
        else if (f >= 0 && parse_tower(p, text, c, sq_make(f--, r), after_bar, piece_of, err) < 0)
            return TIERS_EINPUT;
        after_bar = *c > at && (*c)[-1] == '|';
        if (f < -1 || (f == -1 && at == *c)) {
            notation_error(err, text, at, "rank %d is longer than %d files", r + 1, v->files);
            return TIERS_EINPUT;
        }
    }
    if (f != -1) {
        notation_error(err, text, *c, "rank %d has %d files, expected %d", r + 1,
                       v->files - 1 - f, v->files);
        return TIERS_EINPUT;
    }
    return 0;
}

int fen_parse_board(tiers_pos *p, const char *text, const char **c, fen_piece_of piece_of,
                    tiers_error *err)
{
    while (**c == ' ')
        (*c)++;
    for (int r = 0; r < p->v->ranks; r++) {
        if (parse_rank(p, text, c, r, piece_of, err) < 0)
            return TIERS_EINPUT;
        char want = r + 1 < p->v->ranks ? '/' : ' ';
        if (*(*c)++ != want) {
            notation_error(err, text, *c - 1, "expected '%c' after rank %d", want, r + 1);
            return TIERS_EINPUT;
        }
    }
    return 0;
}

void fen_put_piece(const tiers_variant *v, sbuf *s, piece_t pc, fen_letter_of letter_of)
{
    char c = letter_of(v, v->face_of[pc]);
    sb_putc(s, pc_owner(pc) == 0 ? (char)toupper((unsigned char)c) : c);
}

static void put_rank(const tiers_pos *p, sbuf *s, int r, fen_letter_of letter_of)
{
    int empty = 0;
    for (int f = p->v->files - 1; f >= 0; f--) {
        const tower *t = &p->board[sq_make(f, r)];
        if (!t->h) {
            empty++;
            continue;
        }
        if (empty)
            sb_printf(s, "%d", empty);
        empty = 0;
        if (t->h > 1)
            sb_putc(s, '|');
        for (int i = 0; i < t->h; i++) {
            if (i)
                sb_putc(s, ':');
            fen_put_piece(p->v, s, t->p[i], letter_of);
        }
        if (t->h > 1)
            sb_putc(s, '|');
    }
    if (empty)
        sb_printf(s, "%d", empty);
}

void fen_put_board(const tiers_pos *p, sbuf *s, fen_letter_of letter_of)
{
    for (int r = 0; r < p->v->ranks; r++) {
        if (r)
            sb_putc(s, '/');
        put_rank(p, s, r, letter_of);
    }
}

/* ------------------------------------------------------------ shared */

const char *fen_face_symbol(const tiers_variant *v, int face, const char *name)
{
    const dialect *d;
    int i;
    notation_find(v, name, &d, &i);
    return i >= 0 && v->faces[face].alt[i][0] ? v->faces[face].alt[i] : v->faces[face].sym;
}

int fen_kind_of_letter(const tiers_variant *v, char c, fen_letter_of letter_of)
{
    if (!isalpha((unsigned char)c))
        return 0;
    c = (char)tolower((unsigned char)c);
    for (int k = 1; k < v->nkinds; k++)
        if (letter_of(v, v->kinds[k].face[0]) == c)
            return k;
    return 0;
}

piece_t fen_letter_piece(const tiers_variant *v, char c, fen_letter_of letter_of)
{
    int k = fen_kind_of_letter(v, c, letter_of);
    if (!k)
        return 0;
    int owner = isupper((unsigned char)c) ? 0 : 1;
    return pc_make(k, 0, owner, v->forward[owner]);
}

int fen_side_of(const tiers_variant *v, char c)
{
    return c == v->side_sym[0] ? 0 : c == v->side_sym[1] ? 1 : -1;
}

void fen_put_drafting(const tiers_pos *p, sbuf *s)
{
    if (!p->st.setup_left)
        sb_putc(s, '-');
    for (int side = 0; side < 2; side++)
        if (p->st.setup_left & (1u << side))
            sb_putc(s, p->v->side_sym[side]);
}
