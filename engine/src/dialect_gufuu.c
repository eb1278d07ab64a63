/* dialect_gufuu.c - shogi coordinates for small boards, as the Gufuu
 * shogi rules name the squares: files are numbered from the right (the
 * rightmost file is 1), ranks are lettered from the top (the top rank is
 * `a`), the file first: on a 2x3 board the top left square is `2a` and the
 * bottom right `1c` (tiers a3 and b1).
 *
 * Positions are written in the tiers format (whose board text already runs
 * from the top rank, left to right).  Moves are the tiers moves with these
 * square names: drops `K*2a@n`, steps `2a-1b`, captures `2ax1b`, turns in
 * place `2a@`.  Facing n points to the top rank (rank a). */
#include <string.h>

#include "notation.h"

static void put_square(const tiers_variant *v, sbuf *s, int sq)
{
    sb_putsmall(s, v->files - sq_file(sq));
    sb_putc(s, (char)('a' + (v->ranks - 1 - sq_rank(sq))));
}

static int gf_format_move(const tiers_pos *p, const tiers_move *m, int index, char *buf,
                          size_t size)
{
    static const char facing_chars[] = "nesw";
    (void)index; /* tiers tokens: no symbols of its own */
    const tiers_variant *v = p->v;
    sbuf s = {buf, size, 0, 0};
    char tok[32];
    switch (m->kind) {
    case TIERS_MV_DROP: {
        notation_piece(v, pc_with_facing(m->piece, 0), 0, tok, sizeof tok);
        char *at = strchr(tok, '@');
        if (at)
            *at = 0;
        sb_puts(&s, tok);
        sb_putc(&s, '*');
        put_square(v, &s, m->to);
        if (m->flags & TIERS_MF_FACING) {
            sb_putc(&s, '@');
            sb_putc(&s, facing_chars[m->arg & 3]);
        }
        break;
    }
    case TIERS_MV_MOVE:
    case TIERS_MV_STACK:
    case TIERS_MV_CAPTURE:
        if (m->flags & TIERS_MF_EXIT)
            return TIERS_EUSAGE;
        put_square(v, &s, m->from);
        sb_putc(&s, m->kind == TIERS_MV_MOVE ? '-' : m->kind == TIERS_MV_STACK ? '^' : 'x');
        put_square(v, &s, m->to);
        break;
    case TIERS_MV_ROTATE:
        put_square(v, &s, m->from);
        sb_putc(&s, '@');
        break;
    case TIERS_MV_READY:
        sb_puts(&s, "ready");
        break;
    default:
        return TIERS_EUSAGE; /* no other kind of move in shogi coordinates */
    }
    if (m->flags & (TIERS_MF_FINAL | TIERS_MF_CONVERT))
        return TIERS_EUSAGE;
    return sb_done(&s);
}

const dialect dialect_gufuu = {"gufuu", notation_parse_pos, notation_format_pos,
                               gf_format_move, NULL, NULL, 0, 0, 0};
