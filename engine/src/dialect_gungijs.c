/* dialect_gungijs.c - the position strings and move tokens of gungi.js
 * 1.0.20 (the gungi.io site's 38-piece engine), as its test harness wrote
 * them:
 *
 *   <placement> <stock> <turn> <drafting> <clock> <ply>
 *
 * placement: ranks 1..N split by '/', files N..1 inside a rank; a digit run
 * = empty squares; a letter = one piece; "|a:b:c|" = a tower bottom to
 * top; uppercase = the first side.  Letters are the faces' `notation:
 * {gungijs: x}` symbols (their own symbol when not given).  stock: first
 * side '/' second side, letter+count pairs or '-'.  Squares are
 * "rank-file"; moves d*8-5, 8-5>7-5 (move), 8-5^7-5 (stack), 8-5x7-5
 * (capture), ready. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "fen.h"
#include "notation.h"
#include "position.h"

static char face_letter(const tiers_variant *v, int face)
{
    return (char)tolower((unsigned char)fen_face_symbol(v, face, "gungijs")[0]);
}

/* gungi.js pieces have one face: a letter names the tile showing it. */
static piece_t letter_piece(const tiers_variant *v, char c)
{
    return fen_letter_piece(v, c, face_letter);
}

static int parse_stock(tiers_pos *p, const char *text, const char *c, tiers_error *err)
{
    const tiers_variant *v = p->v;
    for (int side = 0; side < 2; side++) {
        if (*c == '-')
            c++;
        else
            while (*c && *c != '/' && *c != ' ') {
                const char *at = c;
                piece_t pc = letter_piece(v, *c++);
                int n = 0;
                while (isdigit((unsigned char)*c) && n < 1000)
                    n = n * 10 + (*c++ - '0');
                if (!pc || n == 0 || n > 255) {
                    notation_error(err, text, at, "bad stock entry '%.4s'", at);
                    return TIERS_EINPUT;
                }
                p->hand[side][hand_slot(pc)] = (uint8_t)n;
            }
        if (side == 0 && *c++ != '/') {
            notation_error(err, text, c - 1, "expected '/' between the two stocks");
            return TIERS_EINPUT;
        }
    }
    if (*c && *c != ' ') {
        notation_error(err, text, c, "unexpected text after the stocks");
        return TIERS_EINPUT;
    }
    return 0;
}

static int parse_tail(tiers_pos *p, const char *text, const char *c, tiers_error *err)
{
    const tiers_variant *v = p->v;
    char turn[4], draft[4], extra[2];
    unsigned clock, ply;
    if (sscanf(c, " %3s %3s %u %u %1s", turn, draft, &clock, &ply, extra) != 4 ||
        strlen(turn) != 1 || fen_side_of(v, turn[0]) < 0 || clock > 65535 || ply > 65535) {
        notation_error(err, text, c, "expected '<turn> <drafting> <clock> <ply>' after the stocks");
        return TIERS_EINPUT;
    }
    p->st.side = (uint8_t)fen_side_of(v, turn[0]);
    if (strcmp(draft, "-"))
        for (const char *s = draft; *s; s++) {
            int sd = fen_side_of(v, *s);
            if (sd < 0) {
                notation_error(err, text, c, "bad drafting field '%s'", draft);
                return TIERS_EINPUT;
            }
            p->st.setup_left |= (uint8_t)(1u << sd);
        }
    p->st.clock = (uint16_t)clock;
    p->st.ply = (uint16_t)ply;
    return 0;
}

static int gj_parse_pos(tiers_pos *p, const char *text, tiers_error *err)
{
    const char *c = text;
    if (fen_parse_board(p, text, &c, letter_piece, err) < 0)
        return TIERS_EINPUT;
    const char *end = strchr(c, ' ');
    if (!end) {
        notation_error(err, text, c, "missing fields after the stocks");
        return TIERS_EINPUT;
    }
    if (parse_stock(p, text, c, err) < 0)
        return TIERS_EINPUT;
    return parse_tail(p, text, end, err);
}

static int gj_format_pos(const tiers_pos *p, char *buf, size_t size)
{
    const tiers_variant *v = p->v;
    sbuf s = {buf, size, 0, 0};
    fen_put_board(p, &s, face_letter);
    sb_putc(&s, ' ');
    for (int side = 0; side < 2; side++) {
        size_t start = s.len;
        if (side)
            sb_putc(&s, '/'), start++;
        for (int k = 1; k < v->nkinds; k++) {
            int n = p->hand[side][k];
            if (n) {
                fen_put_piece(v, &s, pc_make(k, 0, side, 0), face_letter);
                sb_putint(&s, n);
            }
        }
        if (s.len == start)
            sb_putc(&s, '-');
    }
    sb_putc(&s, ' ');
    sb_putc(&s, v->side_sym[p->st.side]);
    sb_putc(&s, ' ');
    fen_put_drafting(p, &s);
    sb_putc(&s, ' ');
    sb_putint(&s, p->st.clock);
    sb_putc(&s, ' ');
    sb_putint(&s, p->st.ply);
    return sb_done(&s);
}

/* "rank-file", numbers up to 16 (a move's text is at most 11 bytes). */
static char *put_square(char *d, int sq)
{
    int rank = sq_rank(sq) + 1, file = sq_file(sq) + 1;
    if (rank >= 10)
        *d++ = (char)('0' + rank / 10);
    *d++ = (char)('0' + rank % 10);
    *d++ = '-';
    if (file >= 10)
        *d++ = (char)('0' + file / 10);
    *d++ = (char)('0' + file % 10);
    return d;
}

/* Written straight into buf when it holds the longest text (the move
 * lists of `moves --batch` are mostly these), else through tmp. */
static int gj_format_move(const tiers_pos *p, const tiers_move *m, int index, char *buf,
                          size_t size)
{
    char tmp[16], *start = size >= sizeof tmp ? buf : tmp, *d = start;
    switch (m->kind) {
    case TIERS_MV_DROP:
        *d++ = (char)tolower((unsigned char)notation_face_symbol(
                                 p->v, p->v->face_of[m->piece], index)[0]);
        *d++ = '*';
        d = put_square(d, m->to);
        break;
    case TIERS_MV_MOVE:
    case TIERS_MV_STACK:
    case TIERS_MV_CAPTURE:
        d = put_square(d, m->from);
        *d++ = m->kind == TIERS_MV_MOVE ? '>' : m->kind == TIERS_MV_STACK ? '^' : 'x';
        d = put_square(d, m->to);
        break;
    case TIERS_MV_READY:
        memcpy(d, "ready", 5);
        d += 5;
        break;
    default:
        return TIERS_EUSAGE; /* gungi.js has no other kind of move */
    }
    *d = 0;
    size_t len = (size_t)(d - start);
    if (start == tmp) { /* as sbuf does: what fits, ended */
        if (len < size) {
            memcpy(buf, tmp, len + 1);
        } else {
            if (size) {
                memcpy(buf, tmp, size - 1);
                buf[size - 1] = 0;
            }
            return TIERS_EFULL;
        }
    }
    return (int)len;
}

const dialect dialect_gungijs = {"gungijs", gj_parse_pos, gj_format_pos, gj_format_move,
                                 NULL, NULL, 0, 9, 0};
