/* notation.c - the tiers position and move notation (docs/notation.md).
 *
 *   <board> <hands> <side> <setup> <clock> <ply> [mode=NAME] [vars=a,b,..]
 *
 * board: ranks from the highest down, '/' between; in a rank, files from
 * a: a number = that many empty squares, a piece token, or a tower
 * "[t1:t2:..]" bottom to top.  Token: ['*'] LETTER ['~' LETTER|'-']
 * ['@' n|e|s|w]; uppercase = first side, lowercase = second, '*' = shared,
 * '~' names the hidden face where the shown one is ambiguous. */
#include "notation.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hooks.h"
#include "position.h"

void sb_printf(sbuf *s, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    sb_puts(s, tmp);
}

void notation_error(tiers_error *err, const char *text, const char *at, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    err->line = 1;
    err->col = at ? (int)(at - text) + 1 : 0;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
}

static const char facing_chars[] = "nesw";

/* ------------------------------------------------------------ tokens */

/* Does the shown face identify the tile kind without a hint? */
static int face_unique(const tiers_variant *v, int face)
{
    int n = 0;
    for (int k = 1; k < v->nkinds; k++)
        n += (v->kinds[k].face[0] == face) + (v->kinds[k].face[1] == face);
    return n == 1;
}

int notation_piece(const tiers_variant *v, piece_t pc, int with_owner, char *buf, size_t size)
{
    sbuf s = {buf, size, 0, 0};
    const kind_def *k = &v->kinds[pc_kind(pc)];
    int shown = v->face_of[pc], hidden = k->face[!pc_flipped(pc)];
    int owner = pc_owner(pc);
    if (with_owner && owner == OWNER_SHARED)
        sb_putc(&s, '*');
    char c = v->faces[shown].sym[0];
    sb_putc(&s, with_owner && owner == 1 ? (char)tolower((unsigned char)c) : c);
    if (!face_unique(v, shown)) {
        sb_putc(&s, '~');
        sb_putc(&s, hidden == NO_FACE ? '-' : v->faces[hidden].sym[0]);
    }
    if (v->uses_facing) {
        sb_putc(&s, '@');
        sb_putc(&s, facing_chars[pc_facing(pc)]);
    }
    return sb_done(&s);
}

static int face_by_sym(const tiers_variant *v, char c)
{
    c = (char)toupper((unsigned char)c);
    for (int f = 0; f < v->nfaces; f++)
        if (v->faces[f].sym[0] == c)
            return f;
    return -1;
}

/* Reads one token at *s; owner from case unless `owner` >= 0.  Hands keep
 * no facing, so there `@dir` is optional (in_hand). */
static int parse_token(const tiers_variant *v, const char **s, int owner, int in_hand,
                       piece_t *out)
{
    const char *c = *s;
    int shared = *c == '*';
    c += shared;
    if (!isalpha((unsigned char)*c))
        return -1;
    int face = face_by_sym(v, *c);
    if (face < 0)
        return -1;
    if (owner < 0)
        owner = shared ? OWNER_SHARED : islower((unsigned char)*c) ? 1 : 0;
    c++;
    int hidden = -2; /* -2: not given */
    if (*c == '~') {
        c++;
        hidden = *c == '-' ? NO_FACE : face_by_sym(v, *c);
        if (hidden == -1)
            return -1;
        c++;
    }
    int facing = v->forward[owner == OWNER_SHARED ? 0 : owner];
    if (*c == '@' && v->uses_facing) { /* elsewhere '@' is no part of a token */
        const char *f = c[1] ? strchr(facing_chars, c[1]) : NULL;
        if (!f)
            return -1;
        facing = (int)(f - facing_chars);
        c += 2;
    } else if (v->uses_facing && !in_hand) {
        return -1;
    }
    for (int k = 1; k < v->nkinds; k++)
        for (int flip = 0; flip < 2; flip++) {
            const kind_def *kd = &v->kinds[k];
            if (kd->face[flip] != face || (flip && kd->face[1] == NO_FACE))
                continue;
            if (hidden != -2 && kd->face[!flip] != hidden)
                continue;
            if (hidden == -2 && !face_unique(v, face))
                return -1;
            *out = pc_make(k, flip, owner, facing);
            *s = c;
            return 0;
        }
    return -1;
}

/* ------------------------------------------------------------ positions */

static int parse_piece(const tiers_variant *v, const char **s, int owner, piece_t *out)
{
    return parse_token(v, s, owner, 0, out);
}

static void format_board(const tiers_pos *p, sbuf *s)
{
    const tiers_variant *v = p->v;
    char tok[32];
    for (int r = v->ranks - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < v->files; f++) {
            const tower *t = &p->board[sq_make(f, r)];
            if (!t->h) {
                empty++;
                continue;
            }
            if (empty)
                sb_putint(s, empty);
            empty = 0;
            if (t->h > 1)
                sb_putc(s, '[');
            for (int i = 0; i < t->h; i++) {
                notation_piece(v, t->p[i], 1, tok, sizeof tok);
                if (i)
                    sb_putc(s, ':');
                sb_puts(s, tok);
            }
            if (t->h > 1)
                sb_putc(s, ']');
        }
        if (empty)
            sb_putint(s, empty);
        if (r)
            sb_putc(s, '/');
    }
}

_Static_assert(HAND_SLOTS % 8 == 0, "format_hands reads hands eight slots at a time");

static void format_hands(const tiers_pos *p, sbuf *s)
{
    const tiers_variant *v = p->v;
    char tok[32];
    size_t start = s->len;
    for (int o = 0; o < 3; o++)
        for (int slot = 1; slot < HAND_SLOTS; slot = hand_slot_next(v, slot)) {
            int n = p->hand[o][slot];
            if (!n)
                continue;
            notation_piece(v, pc_make(slot & PC_KIND_MASK, slot & PC_FLIP, o, 0) , 1, tok,
                           sizeof tok);
            char *at = strchr(tok, '@'); /* hands keep no facing */
            if (at)
                *at = 0;
            sb_puts(s, tok);
            if (n > 1)
                sb_putint(s, n);
        }
    if (s->len == start)
        sb_putc(s, '-');
}

int tiers_pos_hands(const tiers_pos *p, char *buf, size_t size)
{
    sbuf s = {buf, size, 0, 0};
    format_hands(p, &s);
    return sb_done(&s);
}

int notation_format_pos(const tiers_pos *p, char *buf, size_t size)
{
    const tiers_variant *v = p->v;
    sbuf s = {buf, size, 0, 0};
    format_board(p, &s);
    sb_putc(&s, ' ');
    format_hands(p, &s);
    sb_putc(&s, ' ');
    sb_putc(&s, v->side_sym[p->st.side]);
    sb_putc(&s, ' ');
    if (!p->st.setup_left)
        sb_putc(&s, '-');
    for (int side = 0; side < 2; side++)
        if (p->st.setup_left & (1u << side))
            sb_putc(&s, v->side_sym[side]);
    sb_putc(&s, ' ');
    sb_putint(&s, p->st.clock);
    sb_putc(&s, ' ');
    sb_putint(&s, p->st.ply);
    if (v->nmodes) {
        sb_puts(&s, " mode=");
        sb_puts(&s, v->modes[p->st.mode].name);
    }
    if (p->st.fullmove) {
        sb_puts(&s, " move=");
        sb_putint(&s, p->st.fullmove);
    }
    int last = -1;
    for (int i = 0; i < MAX_VARS; i++)
        if (p->st.vars[i])
            last = i;
    if (last >= 0) {
        sb_puts(&s, " vars=");
        for (int i = 0; i <= last; i++) {
            if (i)
                sb_putc(&s, ',');
            sb_putint(&s, p->st.vars[i]);
        }
    }
    return sb_done(&s);
}

static int parse_tower(tiers_pos *p, const char *text, const char **c, int sq,
                       tiers_error *err)
{
    const tiers_variant *v = p->v;
    int bracket = **c == '[';
    *c += bracket;
    for (;;) {
        piece_t pc;
        const char *at = *c;
        if (parse_piece(v, c, -1, &pc) < 0) {
            notation_error(err, text, at, "bad piece token at '%.8s'", at);
            return TIERS_EINPUT;
        }
        if (p->board[sq].h >= v->max_tiers) {
            notation_error(err, text, at, "tower taller than %d tiers", v->max_tiers);
            return TIERS_EINPUT;
        }
        p->board[sq].p[p->board[sq].h++] = pc;
        if (!bracket)
            return 0;
        if (**c == ':') {
            (*c)++;
            continue;
        }
        if (**c == ']') {
            (*c)++;
            return 0;
        }
        notation_error(err, text, *c, "expected ':' or ']' in a tower");
        return TIERS_EINPUT;
    }
}

static int parse_board(tiers_pos *p, const char *text, const char **c, tiers_error *err)
{
    const tiers_variant *v = p->v;
    for (int r = v->ranks - 1; r >= 0; r--) {
        int f = 0;
        while (**c && **c != '/' && !isspace((unsigned char)**c)) {
            const char *at = *c;
            if (isdigit((unsigned char)**c)) {
                int n = 0;
                while (isdigit((unsigned char)**c) && n < 100)
                    n = n * 10 + (*(*c)++ - '0');
                f += n;
            } else if (f >= v->files) {
                notation_error(err, text, at, "rank %d has more than %d files", r + 1, v->files);
                return TIERS_EINPUT;
            } else if (parse_tower(p, text, c, sq_make(f, r), err) < 0) {
                return TIERS_EINPUT;
            } else {
                f++;
            }
            if (f > v->files) {
                notation_error(err, text, at, "rank %d has more than %d files", r + 1, v->files);
                return TIERS_EINPUT;
            }
        }
        if (f != v->files) {
            notation_error(err, text, *c, "rank %d has %d files, expected %d", r + 1, f, v->files);
            return TIERS_EINPUT;
        }
        if (r && *(*c)++ != '/') {
            notation_error(err, text, *c - 1, "expected '/' after rank %d", r + 1);
            return TIERS_EINPUT;
        }
    }
    return 0;
}

/* For a face letter at `at` that several tiles show (so the token needs
 * its hidden face): "P~B, P~V or P~G" into buf, else "". */
static const char *hand_hint(const tiers_variant *v, const char *at, char *buf, size_t size)
{
    const char *c = at + (*at == '*');
    int face = isalpha((unsigned char)*c) ? face_by_sym(v, *c) : -1;
    size_t used = 0;
    int n = 0, total = 0;
    buf[0] = '\0';
    if (face < 0 || c[1] == '~' || face_unique(v, face))
        return buf;
    for (int k = 1; k < v->nkinds; k++)
        for (int flip = 0; flip < 2; flip++)
            total += v->kinds[k].face[flip] == face && v->kinds[k].face[1] != NO_FACE;
    for (int k = 1; k < v->nkinds && used < size; k++)
        for (int flip = 0; flip < 2 && used < size; flip++) {
            const kind_def *kd = &v->kinds[k];
            if (kd->face[flip] != face || kd->face[1] == NO_FACE)
                continue;
            char hid = v->faces[kd->face[!flip]].sym[0];
            n++;
            used += (size_t)snprintf(buf + used, size - used, "%s%c~%c",
                                     n == 1 ? "" : n == total ? " or " : ", ", *c, hid);
        }
    return buf;
}

static int parse_hands(tiers_pos *p, const char *text, const char *field, tiers_error *err)
{
    const char *c = field; /* inside `text`: the field ends at a blank */
    if (*c == '-' && (!c[1] || isspace((unsigned char)c[1])))
        return 0;
    while (*c && !isspace((unsigned char)*c)) {
        piece_t pc;
        const char *at = c;
        if (parse_token(p->v, &c, -1, 1, &pc) < 0) {
            char hint[128];
            if (*hand_hint(p->v, at, hint, sizeof hint))
                notation_error(err, text, at, "bad hand entry at '%.8s': several tiles show "
                               "this face, write %s", at, hint);
            else
                notation_error(err, text, at, "bad hand entry at '%.8s'", at);
            return TIERS_EINPUT;
        }
        int n = 0;
        while (isdigit((unsigned char)*c) && n < 1000)
            n = n * 10 + (*c++ - '0');
        if (n > 255 || (n == 0 && isdigit((unsigned char)c[-1]))) {
            notation_error(err, text, at, "bad hand count");
            return TIERS_EINPUT;
        }
        int slot = hand_slot(pc), o = pc_owner(pc);
        if (p->hand[o][slot] + (n ? n : 1) > 255) {
            notation_error(err, text, at, "hand count too large");
            return TIERS_EINPUT;
        }
        p->hand[o][slot] = (uint8_t)(p->hand[o][slot] + (n ? n : 1));
    }
    return 0;
}

static int side_by_sym(const tiers_variant *v, char c)
{
    for (int s = 0; s < 2; s++)
        if (v->side_sym[s] == c)
            return s;
    return -1;
}

static int parse_number(const char *s, int max, int *out)
{
    long n = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s) || (n = n * 10 + (*s - '0')) > max)
            return -1;
    }
    *out = (int)n;
    return 0;
}

/* f is the field in a scratch copy, orig the same field inside text (for
 * error columns). */
static int parse_extra(tiers_pos *p, const char *text, const char *f, const char *orig,
                       tiers_error *err)
{
#define AT(ptr) (orig + ((ptr) - f))
    const tiers_variant *v = p->v;
    if (!strncmp(f, "mode=", 5)) {
        for (int m = 0; m < v->nmodes; m++)
            if (!strcmp(v->modes[m].name, f + 5)) {
                p->st.mode = (uint8_t)m;
                return 0;
            }
        notation_error(err, text, AT(f), "unknown mode '%s'", f + 5);
        return TIERS_EINPUT;
    }
    if (!strncmp(f, "move=", 5)) {
        int n;
        if (parse_number(f + 5, 65535, &n) < 0) {
            notation_error(err, text, AT(f), "bad move number '%s'", f + 5);
            return TIERS_EINPUT;
        }
        p->st.fullmove = (uint16_t)n;
        return 0;
    }
    if (!strncmp(f, "vars=", 5)) {
        const char *c = f + 5;
        for (int i = 0;; i++) { /* every value is read: none is dropped */
            char *end;
            long n = strtol(c, &end, 10);
            if (end == c || n < -32768 || n > 32767 || (*end && *end != ',')) {
                notation_error(err, text, AT(c), "bad vars entry");
                return TIERS_EINPUT;
            }
            if (i == MAX_VARS) {
                notation_error(err, text, AT(c), "vars= holds more than %d values", MAX_VARS);
                return TIERS_EINPUT;
            }
            p->st.vars[i] = (int16_t)n;
            if (!*end)
                return 0;
            c = end + 1;
        }
    }
    notation_error(err, text, AT(f), "unknown field '%s'", f);
    return TIERS_EINPUT;
}
#undef AT

/* A mode may allow fewer tiers than the board holds. */
static int check_mode_height(const tiers_pos *p, const char *text, tiers_error *err)
{
    const tiers_variant *v = p->v;
    int max = v->nmodes ? v->modes[p->st.mode].max_tiers : v->max_tiers;
    char sq[8];
    for (int r = 0; r < v->ranks; r++)
        for (int f = 0; f < v->files; f++)
            if (p->board[sq_make(f, r)].h > max) {
                notation_error(err, text, NULL, "the tower on %s is taller than the %d tiers "
                               "of mode %s", tiers_square_name(f, r, sq), max,
                               v->modes[p->st.mode].name);
                return TIERS_EINPUT;
            }
    return 0;
}

/* Splits text into at most 8 space-separated fields in a copy. */
static int split(const char *text, char *copy, size_t size, char **fields)
{
    snprintf(copy, size, "%s", text);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(copy, " \t\r\n", &save); t && n < 10;
         t = strtok_r(NULL, " \t\r\n", &save))
        fields[n++] = t;
    return n;
}

int notation_parse_pos(tiers_pos *p, const char *text, tiers_error *err)
{
    const tiers_variant *v = p->v;
    char copy[4096], *fld[10];
    if (strlen(text) >= sizeof copy) {
        notation_error(err, text, NULL, "position text longer than %zu bytes", sizeof copy - 1);
        return TIERS_EINPUT;
    }
    int n = split(text, copy, sizeof copy, fld);
    if (n < 6 || n > 9) {
        notation_error(err, text, NULL, "a position has 6 to 9 fields, got %d", n);
        return TIERS_EINPUT;
    }
    const char *c = text + (fld[0] - copy);
    if (parse_board(p, text, &c, err) < 0)
        return TIERS_EINPUT;
    if (*c && !isspace((unsigned char)*c)) {
        notation_error(err, text, c, "unexpected '%c' after the board", *c);
        return TIERS_EINPUT;
    }
    if (parse_hands(p, text, text + (fld[1] - copy), err) < 0)
        return TIERS_EINPUT;
    int side = strlen(fld[2]) == 1 ? side_by_sym(v, fld[2][0]) : -1;
    if (side < 0) {
        notation_error(err, text, text + (fld[2] - copy), "bad side to move '%s'", fld[2]);
        return TIERS_EINPUT;
    }
    p->st.side = (uint8_t)side;
    if (strcmp(fld[3], "-"))
        for (const char *s = fld[3]; *s; s++) {
            int sd = side_by_sym(v, *s);
            if (sd < 0 || !v->setup) {
                notation_error(err, text, text + (s - copy), "bad setup field '%s'", fld[3]);
                return TIERS_EINPUT;
            }
            p->st.setup_left |= (uint8_t)(1u << sd);
        }
    int clock, ply;
    if (parse_number(fld[4], 65535, &clock) < 0 || parse_number(fld[5], 65535, &ply) < 0) {
        notation_error(err, text, text + (fld[4] - copy), "bad clock or ply");
        return TIERS_EINPUT;
    }
    p->st.clock = (uint16_t)clock;
    p->st.ply = (uint16_t)ply;
    for (int i = 6; i < n; i++)
        if (parse_extra(p, text, fld[i], text + (fld[i] - copy), err) < 0)
            return TIERS_EINPUT;
    return check_mode_height(p, text, err);
}

/* ------------------------------------------------------------ moves */

const char *tiers_square_name(int file, int rank, char buf[8])
{
    snprintf(buf, 8, "%c%u", 'a' + (file & 15), (unsigned)(rank & 15) + 1);
    return buf;
}

/* a1, p16: the file's letter and the rank's number (tiers_square_name's
 * form, without printf). */
static void put_sq(sbuf *s, int sq)
{
    sb_putc(s, (char)('a' + (sq_file(sq) & 15)));
    sb_putsmall(s, (sq_rank(sq) & 15) + 1);
}

/* A drop's piece: its token without owner or facing. */
static void put_drop_piece(const tiers_variant *v, sbuf *s, piece_t pc)
{
    char tok[32];
    notation_piece(v, pc_with_facing(pc, 0), 0, tok, sizeof tok);
    for (const char *c = tok; *c && *c != '@'; c++)
        sb_putc(s, *c);
}

int notation_format_move(const tiers_pos *p, const tiers_move *m, char *buf, size_t size)
{
    sbuf s = {buf, size, 0, 0};
    if (m->kind == TIERS_MV_EFFECT)
        return hooks_format(p, m, buf, size);
    switch (m->kind) {
    case TIERS_MV_DROP:
        /* From the shared pool, of a tile the mover also holds: marked
           '*' so that the two drops read differently. */
        if (pc_owner(m->piece) == OWNER_SHARED && p->st.side < 2 &&
            p->hand[p->st.side][m->piece & (PC_KIND_MASK | PC_FLIP)])
            sb_putc(&s, '*');
        put_drop_piece(p->v, &s, m->piece);
        sb_putc(&s, '*');
        put_sq(&s, m->to);
        if (m->flags & TIERS_MF_FACING) {
            sb_putc(&s, '@');
            sb_putc(&s, facing_chars[m->arg & 3]);
        }
        break;
    case TIERS_MV_MOVE:
    case TIERS_MV_STACK:
    case TIERS_MV_CAPTURE:
        put_sq(&s, m->from);
        sb_putc(&s, m->kind == TIERS_MV_MOVE ? '-' : m->kind == TIERS_MV_STACK ? '^' : 'x');
        if (m->flags & TIERS_MF_EXIT)
            sb_puts(&s, "out");
        else
            put_sq(&s, m->to);
        break;
    case TIERS_MV_STRIKE:
        put_sq(&s, m->from);
        sb_putc(&s, ':');
        sb_putint(&s, m->tier);
        sb_putc(&s, 'x');
        sb_putint(&s, m->arg);
        break;
    case TIERS_MV_READY:
        sb_puts(&s, "ready");
        break;
    case TIERS_MV_ROTATE:
        put_sq(&s, m->from);
        sb_putc(&s, '@');
        break;
    case TIERS_MV_DEPLOY:
        put_sq(&s, m->from);
        sb_putc(&s, '*');
        for (int i = 0; i < m->npath; i++) {
            if (i)
                sb_putc(&s, ',');
            if (m->path[i] == TIERS_NO_SQUARE)
                sb_puts(&s, "out");
            else
                put_sq(&s, m->path[i]);
        }
        break;
    default:
        return TIERS_EUSAGE;
    }
    if (m->flags & TIERS_MF_CONVERT) { /* "=1,2": the tiers converted */
        for (int i = 0, first = 1; i < TIERS_MAX_TIERS; i++)
            if (m->arg >> i & 1) {
                sb_putc(&s, first ? '=' : ',');
                sb_putint(&s, i + 1);
                first = 0;
            }
    }
    if (m->flags & TIERS_MF_FINAL)
        sb_putc(&s, '!');
    if (m->effect && (p->v->hooks & (HOOK_AFTER | HOOK_EXPAND))) { /* a tagged variant */
        char suffix[FORMAT_TEXT_MAX + 1];
        int len = hooks_format(p, m, suffix, sizeof suffix);
        if (len < 0)
            return len;
        sb_puts(&s, suffix);
    }
    return sb_done(&s);
}
