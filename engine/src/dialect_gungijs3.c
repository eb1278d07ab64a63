/* dialect_gungijs3.c - the FEN and SAN of gungi.js 3.4.11 (the 25-piece
 * official ruleset; docs/rules/official.md):
 *
 *   <placement> <hands> <turn> <mode> <drafting> <fullmove>
 *
 * placement: ranks 1..N split by '/', files N..1 inside a rank; a digit =
 * that many empty squares; a letter = one piece (the face's own symbol,
 * lowercase for the second side); "|a:b:c|" = a tower bottom to top.
 * hands: first side '/' second side, letter + count pairs, or '-'.  turn:
 * a side letter.  mode: the index of the variant's mode.  drafting: the
 * sides still in the setup phase ('-' for none).  fullmove: 1 + the rounds
 * played (pos_state.fullmove counts the completed ones).
 *
 * Hand order.  The library lists a hand in the order its FEN listed it and
 * never adds a kind (captured pieces leave the game), so every position it
 * reaches from a start lists its hands in that start's order.  A position
 * keeps no order of its own here, so this dialect writes each side's hand
 * in the order of its mode's start position (the hands field of the
 * mode's `start:` in the YAML, read letter by letter) and then any kind
 * the start does not list, in the order of `tiles:`.  Positions loaded
 * with another order (e.g. "T1D1") are read, but written in this one
 * ("D1T1"); keeping theirs would need an order stored in the position.
 *
 * Moves (SAN): [新]<kanji>[(r-f-t)][取](r-f-t)[付|返<kanji..>][終][#]
 * 新 = a drop (no source square); squares are (rank-file-tier) with the
 * mover's tier before the move at the source and its tier after the move
 * at the destination; 取 = a capture; 付 = landing on a tower (tsuke, and
 * drops on tier >= 2) unless it converts, when 返 is followed by the kanji
 * of the converted pieces from the bottom up; 終 = the drop that ends the
 * mover's draft (alone: the setup declared finished without a drop, a
 * move of variants with `ready:` that the library does not have); # = the
 * capture takes a royal piece.  Kanji are the faces' `notation:
 * {gungijs3: ...}` symbols (their own symbol if none).
 * The library's readers also accept a trailing '#' (mate) or '=' (draw)
 * that game records may add; moves are read by comparing with the legal
 * list, so callers strip those marks (see tests/unit/test_official.c). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "fen.h"
#include "notation.h"
#include "position.h"

static const char dialect_name[] = "gungijs3";

/* ------------------------------------------------------------ pieces */

/* The FEN letter of a face: the first letter of its symbol, lowercase. */
static char face_letter(const tiers_variant *v, int face)
{
    return (char)tolower((unsigned char)v->faces[face].sym[0]);
}

static piece_t letter_piece(const tiers_variant *v, char c)
{
    return fen_letter_piece(v, c, face_letter);
}

/* ------------------------------------------------------------ hand order */

/* Kinds in the order a side's hand is written: the letters of the mode's
 * start hands field for that side (uppercase = first side), then the rest
 * in kind order.  Returns the number of kinds written to order[]. */
static int hand_order(const tiers_pos *p, int side, uint8_t *order)
{
    const tiers_variant *v = p->v;
    uint8_t seen[MAX_KINDS] = {0};
    int n = 0;
    const char *start = v->nmodes ? v->modes[p->st.mode].start : v->start;
    const char *c = strchr(start, ' ');
    while (c && *c == ' ')
        c++;
    for (; c && *c && *c != ' '; c++) {
        if (*c == '~' || *c == '@') { /* a hidden face or a facing: skip it */
            c += c[1] != 0;
            continue;
        }
        int k = fen_kind_of_letter(v, *c, face_letter);
        if (k && !seen[k] && (isupper((unsigned char)*c) ? 0 : 1) == side) {
            seen[k] = 1;
            order[n++] = (uint8_t)k;
        }
    }
    for (int k = 1; k < v->nkinds; k++)
        if (!seen[k])
            order[n++] = (uint8_t)k;
    return n;
}

/* ------------------------------------------------------------ positions */

static int parse_hands(tiers_pos *p, const char *text, const char *c, tiers_error *err)
{
    const tiers_variant *v = p->v;
    for (int side = 0; side < 2; side++) {
        if (*c == '-')
            c++;
        else
            do {
                const char *at = c;
                piece_t pc = letter_piece(v, *c++);
                int n = 0;
                while (isdigit((unsigned char)*c) && n < 1000)
                    n = n * 10 + (*c++ - '0');
                if (!pc || pc_owner(pc) != side || n == 0 || n > 255 ||
                    p->hand[side][hand_slot(pc)]) {
                    notation_error(err, text, at, "bad hand entry '%.4s'", at);
                    return TIERS_EINPUT;
                }
                p->hand[side][hand_slot(pc)] = (uint8_t)n;
            } while (*c && *c != '/' && *c != ' ');
        if (side == 0 && *c++ != '/') {
            notation_error(err, text, c - 1, "expected '/' between the two hands");
            return TIERS_EINPUT;
        }
    }
    if (*c != ' ') {
        notation_error(err, text, c, "unexpected text after the hands");
        return TIERS_EINPUT;
    }
    return 0;
}

static int parse_tail(tiers_pos *p, const char *text, const char *c, tiers_error *err)
{
    const tiers_variant *v = p->v;
    char turn[4], draft[4], extra[2];
    unsigned mode, fullmove;
    if (sscanf(c, " %3s %u %3s %u %1s", turn, &mode, draft, &fullmove, extra) != 4 ||
        strlen(turn) != 1 || fen_side_of(v, turn[0]) < 0) {
        notation_error(err, text, c, "expected '<turn> <mode> <drafting> <fullmove>' after "
                       "the hands");
        return TIERS_EINPUT;
    }
    if (mode >= (v->nmodes ? v->nmodes : 1u)) {
        notation_error(err, text, c, "mode %u: the variant has %d modes", mode,
                       v->nmodes ? v->nmodes : 1);
        return TIERS_EINPUT;
    }
    if (fullmove < 1 || fullmove > 65536) {
        notation_error(err, text, c, "fullmove must be 1..65536, got %u", fullmove);
        return TIERS_EINPUT;
    }
    p->st.side = (uint8_t)fen_side_of(v, turn[0]);
    p->st.mode = (uint8_t)mode;
    /* A mode may allow fewer tiers than the board holds (as in tiers text). */
    int max = v->nmodes ? v->modes[mode].max_tiers : v->max_tiers;
    for (int sq = 0; sq < TIERS_MAX_SQUARES; sq++)
        if (p->board[sq].h > max) {
            char name[8];
            notation_error(err, text, c, "the tower on %s is taller than the %d tiers of "
                           "mode %u", tiers_square_name(sq & 15, sq >> 4, name), max, mode);
            return TIERS_EINPUT;
        }
    if (strcmp(draft, "-"))
        for (const char *s = draft; *s; s++) {
            int sd = fen_side_of(v, *s);
            if (sd < 0 || !v->setup || (p->st.setup_left & (1u << sd))) {
                notation_error(err, text, c, "bad drafting field '%s'", draft);
                return TIERS_EINPUT;
            }
            p->st.setup_left |= (uint8_t)(1u << sd);
        }
    p->st.fullmove = (uint16_t)(fullmove - 1);
    /* The FEN has no ply count: the plies of the rounds played, a good
       guess outside the draft. */
    p->st.ply = (uint16_t)(2 * p->st.fullmove + (p->st.side != v->play_first_side));
    return 0;
}

static int gj3_parse_pos(tiers_pos *p, const char *text, tiers_error *err)
{
    const char *c = text;
    if (fen_parse_board(p, text, &c, letter_piece, err) < 0)
        return TIERS_EINPUT;
    while (*c == ' ')
        c++;
    const char *end = strchr(c, ' ');
    if (!end) {
        notation_error(err, text, c, "missing fields after the hands");
        return TIERS_EINPUT;
    }
    if (parse_hands(p, text, c, err) < 0)
        return TIERS_EINPUT;
    return parse_tail(p, text, end, err);
}

static int gj3_format_pos(const tiers_pos *p, char *buf, size_t size)
{
    const tiers_variant *v = p->v;
    sbuf s = {buf, size, 0, 0};
    uint8_t order[MAX_KINDS];
    fen_put_board(p, &s, face_letter);
    sb_putc(&s, ' ');
    for (int side = 0; side < 2; side++) {
        if (side)
            sb_putc(&s, '/');
        size_t start = s.len;
        int n = hand_order(p, side, order);
        for (int i = 0; i < n; i++) {
            int count = p->hand[side][order[i]];
            if (count) {
                fen_put_piece(v, &s, pc_make(order[i], 0, side, 0), face_letter);
                sb_putint(&s, count);
            }
        }
        if (s.len == start)
            sb_putc(&s, '-');
    }
    sb_putc(&s, ' ');
    sb_putc(&s, v->side_sym[p->st.side]);
    sb_putc(&s, ' ');
    sb_putint(&s, p->st.mode);
    sb_putc(&s, ' ');
    fen_put_drafting(p, &s);
    sb_putc(&s, ' ');
    sb_putint(&s, p->st.fullmove + 1);
    return sb_done(&s);
}

/* ------------------------------------------------------------ moves */

static void put_square(sbuf *s, int sq, int tier)
{
    sb_putc(s, '(');
    sb_putsmall(s, sq_rank(sq) + 1);
    sb_putc(s, '-');
    sb_putsmall(s, sq_file(sq) + 1);
    sb_putc(s, '-');
    sb_putsmall(s, tier);
    sb_putc(s, ')');
}

/* index: the dialect's place in the variant's notations. */
static void put_kanji(const tiers_pos *p, int index, sbuf *s, piece_t pc)
{
    sb_puts(s, notation_face_symbol(p->v, p->v->face_of[pc], index));
}

/* 返 and the converted pieces bottom to top, or 付. */
static void put_landing(const tiers_pos *p, int index, sbuf *s, const tiers_move *m)
{
    const tower *t = &p->board[m->to];
    if (!(m->flags & TIERS_MF_CONVERT)) {
        sb_puts(s, "付");
        return;
    }
    sb_puts(s, "返");
    for (int i = 0; i < t->h; i++)
        if (m->arg >> i & 1)
            put_kanji(p, index, s, t->p[i]);
}

static int gj3_format_move(const tiers_pos *p, const tiers_move *m, int index, char *buf,
                           size_t size)
{
    const tiers_variant *v = p->v;
    sbuf s = {buf, size, 0, 0};
    const tower *to = m->to != TIERS_NO_SQUARE ? &p->board[m->to] : NULL;
    int side = p->st.side;
    switch (m->kind) {
    case TIERS_MV_DROP:
        sb_puts(&s, "新");
        put_kanji(p, index, &s, m->piece);
        put_square(&s, m->to, to->h + 1);
        if (to->h)
            put_landing(p, index, &s, m);
        break;
    case TIERS_MV_MOVE:
    case TIERS_MV_STACK: {
        const tower *from = &p->board[m->from];
        put_kanji(p, index, &s, from->p[from->h - 1]);
        put_square(&s, m->from, from->h);
        put_square(&s, m->to, m->kind == TIERS_MV_MOVE ? 1 : to->h + 1);
        if (m->kind == TIERS_MV_STACK)
            put_landing(p, index, &s, m);
        break;
    }
    case TIERS_MV_CAPTURE: {
        /* What stays under the capturer, by the variant's capture rule,
           and whether a royal piece goes. */
        const tower *from = &p->board[m->from];
        int stay = 0, royal = 0;
        for (int i = 0; i < to->h; i++) {
            int taken = v->capture == CAP_TOWER ||
                        (v->capture == CAP_TOP ? i == to->h - 1 : pc_owner(to->p[i]) != side);
            stay += !taken;
            royal |= taken && v->royal_code[to->p[i]];
        }
        put_kanji(p, index, &s, from->p[from->h - 1]);
        put_square(&s, m->from, from->h);
        sb_puts(&s, "取");
        put_square(&s, m->to, stay + 1);
        if (royal)
            sb_putc(&s, '#');
        break;
    }
    case TIERS_MV_READY: /* not in the library: variants whose setup ends
                            by a declaration of its own (seed-25) */
        break;
    default:
        return TIERS_EUSAGE; /* the library has no other kind of move */
    }
    if ((m->flags & TIERS_MF_FINAL) || m->kind == TIERS_MV_READY)
        sb_puts(&s, "終");
    return sb_done(&s);
}

const dialect dialect_gungijs3 = {dialect_name, gj3_parse_pos, gj3_format_pos,
                                  gj3_format_move, NULL, NULL, 1, 9, 0};
