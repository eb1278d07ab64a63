/* api.c - the public tiers_* functions over the internal modules. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hooks.h"
#include "make.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "status.h"

const char *tiers_error_text(const tiers_error *err, char *buf, size_t size)
{
    if (err->file[0] && err->line && err->col)
        snprintf(buf, size, "%s:%d:%d: %s", err->file, err->line, err->col, err->msg);
    else if (err->file[0] && err->line)
        snprintf(buf, size, "%s:%d: %s", err->file, err->line, err->msg);
    else if (err->file[0])
        snprintf(buf, size, "%s: %s", err->file, err->msg);
    else if (err->col)
        snprintf(buf, size, "column %d: %s", err->col, err->msg);
    else
        snprintf(buf, size, "%s", err->msg);
    return buf;
}

static void set_error(tiers_error *err, const char *msg)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    snprintf(err->msg, sizeof err->msg, "%s", msg);
}

/* Sets up the variant's start: its start text, or an empty board with the
 * tiles in hand and the setup phase when the variant has one. */
/* The mode a game starts in: the `mode` option when the variant declares
 * one (its values name the modes), else the first mode. */
static int start_mode(const tiers_variant *v)
{
    for (int i = 0; i < v->noptions; i++) {
        const option_def *o = &v->options[i];
        if (strcmp(o->key, "mode") || !o->nvalues)
            continue;
        for (int m = 0; m < v->nmodes; m++)
            if (!strcmp(v->modes[m].name, o->values[o->value]))
                return m;
    }
    return 0;
}

static int load_start(tiers_pos *p, tiers_error *err)
{
    const tiers_variant *v = p->v;
    int mode = v->nmodes ? start_mode(v) : 0;
    int own = v->nmodes && v->modes[mode].start[0];
    const char *start = own ? v->modes[mode].start : v->start;
    if (start[0]) {
        int rc = tiers_pos_parse(p, start, NULL, err);
        const text_at *at = own ? &v->modes[mode].start_at : &v->start_at;
        if (rc < 0 && at->line) { /* the error is the YAML's, at the text */
            snprintf(err->file, sizeof err->file, "%s", at->file);
            err->line = at->line;
            err->col = at->col;
        }
        if (rc == 0 && v->nmodes && !strstr(start, "mode=")) {
            p->st.mode = (uint8_t)mode;
            pos_rehash(p);
        }
        return rc;
    }
    pos_clear(p);
    for (int k = 1; k < v->nkinds; k++) {
        for (int side = 0; side < 2; side++)
            p->hand[side][k] = v->kinds[k].count[side];
        p->hand[OWNER_SHARED][k] = v->kinds[k].count[2];
    }
    p->st.setup_left = v->setup ? 3 : 0;
    p->st.mode = (uint8_t)mode;
    p->st.side = v->setup ? v->setup_first_side : v->play_first_side;
    if (v->setup && v->nsetup_order)
        p->st.side = v->setup_order[0][0];
    pos_rehash(p);
    return 0;
}

tiers_pos *tiers_pos_new(const tiers_variant *v, int history, tiers_error *err)
{
    tiers_pos *p = calloc(1, sizeof *p);
    if (!p) {
        set_error(err, "out of memory");
        return NULL;
    }
    p->v = v;
    p->cap = history > 0 ? history : 4096;
    p->undo = calloc((size_t)p->cap, sizeof *p->undo);
    p->rng = 0x9e3779b97f4a7c15ull;
    p->veto_root = -1;
    tiers_error tmp;
    if (!p->undo || load_start(p, err ? err : &tmp) < 0) {
        if (!p->undo)
            set_error(err, "out of memory");
        tiers_pos_free(p);
        return NULL;
    }
    return p;
}

void tiers_pos_free(tiers_pos *p)
{
    if (!p)
        return;
    free(p->undo);
    free(p);
}

int tiers_pos_copy(tiers_pos *dst, const tiers_pos *src)
{
    if (dst->v != src->v || dst->cap < src->depth)
        return TIERS_EUSAGE;
    undo_rec *u = dst->undo;
    int cap = dst->cap;
    *dst = *src;
    dst->undo = u;
    dst->cap = cap;
    dst->frame = NULL;
    memcpy(dst->undo, src->undo, (size_t)src->depth * sizeof *u);
    return 0;
}

int tiers_pos_reset(tiers_pos *p)
{
    tiers_error err;
    return load_start(p, &err);
}

/* Whether a royal piece stands on the board or waits in a hand (after
 * pos_rehash, which counts the board's). */
static int royal_present(const tiers_pos *p)
{
    if (p->st.royal_n[0] || p->st.royal_n[1])
        return 1;
    for (int o = 0; o < 3; o++)
        for (int s = 0; s < HAND_SLOTS; s++)
            if (p->hand[o][s] && p->v->royal_code[s])
                return 1;
    return 0;
}

/* In a variant with royal faces a position where neither side has one is
 * no game: refused, naming the first royal face ("no Marshal for either
 * side"). */
static int check_royals(const tiers_pos *p, tiers_error *err)
{
    const tiers_variant *v = p->v;
    if (!v->has_royal || royal_present(p))
        return 0;
    int f = 0;
    while (!(v->faces[f].flags & FF_ROYAL))
        f++;
    const char *name = v->faces[f].name;
    snprintf(err->msg, sizeof err->msg, "no %c%s for either side",
             toupper((unsigned char)name[0]), name + 1);
    return TIERS_EINPUT;
}

int tiers_pos_parse(tiers_pos *p, const char *text, const char *notation, tiers_error *err)
{
    const dialect *d;
    int idx;
    tiers_error tmp;
    if (!err)
        err = &tmp;
    memset(err, 0, sizeof *err);
    if (notation_find(p->v, notation, &d, &idx) < 0) {
        snprintf(err->msg, sizeof err->msg, "variant %s has no notation '%s'", p->v->name,
                 notation);
        return TIERS_EUSAGE;
    }
    tiers_pos *q = malloc(sizeof *q); /* parse into a scratch copy: a bad
                                         text leaves p untouched */
    if (!q) {
        set_error(err, "out of memory");
        return TIERS_ENOMEM;
    }
    *q = *p;
    pos_clear(q);
    int rc = d ? d->parse_pos(q, text, err) : notation_parse_pos(q, text, err);
    if (rc == 0) {
        pos_rehash(q);
        rc = check_royals(q, err);
    }
    if (rc == 0) {
        undo_rec *u = p->undo;
        int cap = p->cap;
        q->script_failed = 0;
        *p = *q;
        p->undo = u;
        p->cap = cap;
    }
    free(q);
    return rc < 0 ? rc : 0;
}

int tiers_pos_format(const tiers_pos *p, const char *notation, char *buf, size_t size)
{
    const dialect *d;
    int idx;
    if (notation_find(p->v, notation, &d, &idx) < 0)
        return TIERS_EUSAGE;
    return d ? d->format_pos(p, buf, size) : notation_format_pos(p, buf, size);
}

uint64_t tiers_pos_hash(const tiers_pos *p) { return p->st.hash ^ zobrist_state(&p->st); }
int tiers_pos_ply(const tiers_pos *p) { return p->st.ply; }
const tiers_variant *tiers_pos_variant(const tiers_pos *p) { return p->v; }

int tiers_pos_height(const tiers_pos *p, int file, int rank)
{
    return pos_on_board(p, file, rank) ? p->board[sq_make(file, rank)].h : 0;
}

int tiers_pos_piece(const tiers_pos *p, int file, int rank, int tier, char *buf, size_t size)
{
    if (!pos_on_board(p, file, rank))
        return -1;
    const tower *t = &p->board[sq_make(file, rank)];
    if (tier < 1 || tier > t->h)
        return -1;
    notation_piece(p->v, t->p[tier - 1], 1, buf, size);
    return pc_owner(t->p[tier - 1]);
}

int tiers_pos_legal_moves(tiers_pos *p, tiers_move *buf, int cap)
{
    return status_legal(p, buf, cap);
}

int tiers_pos_pseudo_moves(tiers_pos *p, tiers_move *buf, int cap)
{
    return movegen_pseudo(p, buf, cap);
}

int tiers_pos_legal_moves_stats(tiers_pos *p, tiers_move *buf, int cap, tiers_stats *stats)
{
    p->vetoed = 0; /* a finished game generates nothing */
    int n = status_legal(p, buf, cap);
    if (stats) /* movegen_legal gathers the vetoes while it runs */
        stats->vetoed = n >= 0 && (p->v->hooks & HOOK_VETO) ? p->vetoed : 0;
    return n;
}

uint32_t tiers_pos_check_effects(tiers_pos *p)
{
    return hooks_check_effects(p);
}

int tiers_pos_in_check(const tiers_pos *p, int side)
{
    return side == 0 || side == 1 ? movegen_in_check(p, side) : 0;
}

_Static_assert((int)MAX_EFFECTS == (int)TIERS_MAX_EFFECTS, "tiers_stats holds every effect");

int tiers_pos_make_unchecked(tiers_pos *p, const tiers_move *m, tiers_stats *stats)
{
    int rc = make_move(p, m);
    for (int i = 0; stats && rc == 0 && i < MAX_EFFECTS; i++)
        stats->fired[i] += p->fired >> i & 1; /* make_move's record of this move */
    return rc;
}

/* The fields that mean something in a move (path beyond npath does not),
 * so a hand-built move matches its generated twin. */
static int same_move(const tiers_move *a, const tiers_move *b)
{
    if (a->kind != b->kind || a->from != b->from || a->to != b->to || a->tier != b->tier ||
        a->piece != b->piece || a->effect != b->effect || a->flags != b->flags ||
        a->npath != b->npath || a->arg != b->arg || a->npath > 4)
        return 0;
    return memcmp(a->path, b->path, a->npath * sizeof a->path[0]) == 0;
}

int tiers_pos_make(tiers_pos *p, const tiers_move *m)
{
    /* The legal list is generated on the heap: a caller's stack may be
     * small, and the hot paths use tiers_pos_make_unchecked anyway. */
    tiers_move *buf = malloc(TIERS_MAX_MOVES * sizeof *buf);
    if (!buf)
        return TIERS_ENOMEM;
    int n = movegen_legal(p, buf, TIERS_MAX_MOVES), rc = n < 0 ? n : TIERS_EILLEGAL;
    for (int i = 0; i < n && rc == TIERS_EILLEGAL; i++)
        if (same_move(&buf[i], m))
            rc = make_move(p, &buf[i]);
    free(buf);
    return rc;
}

int tiers_pos_unmake(tiers_pos *p)
{
    if (p->depth == 0)
        return TIERS_EUSAGE;
    unmake_move(p);
    return 0;
}

/* m in dialect d (NULL: tiers) at the variant's index idx. */
static int write_move(const tiers_pos *p, const dialect *d, int idx, const tiers_move *m,
                      char *buf, size_t size)
{
    /* a dialect knows the engine's kinds only: an effect's move is
       written by the effect's format hook in every notation */
    if (!d || m->kind == TIERS_MV_EFFECT)
        return notation_format_move(p, m, buf, size);
    return d->format_move(p, m, idx, buf, size);
}

int tiers_move_format(const tiers_pos *p, const tiers_move *m, const char *notation,
                      char *buf, size_t size)
{
    const dialect *d;
    int idx;
    if (notation_find(p->v, notation, &d, &idx) < 0)
        return TIERS_EUSAGE;
    return write_move(p, d, idx, m, buf, size);
}

/* Is m's tiers text (or part of it) written by a format hook? */
static int hook_written(const tiers_pos *p, const tiers_move *m)
{
    return m->kind == TIERS_MV_EFFECT || (m->effect && (p->v->hooks & HOOK_AFTER));
}

/* Two moves of one text in tiers notation: a record would read the text
 * as the first of them, so it is the format hook's error (docs/lua-api.md). */
static int text_clash(const tiers_pos *p, const tiers_move *m, const char *text)
{
    char msg[400];
    int e = m->effect ? m->effect - 1 : 0;
    snprintf(msg, sizeof msg, "effect '%s', hook format: the text '%s' names two moves of "
             "this position (a move's text must be unique among the position's moves)",
             e < p->v->neffects ? p->v->effect_name[e] : "?", text);
    hooks_set_error(p->v, msg);
    return TIERS_ESCRIPT;
}

/* Every text in tiers notation that a format hook wrote differs from the
 * others?  (Dialects may repeat a text: docs/notation.md.) */
static int check_unique(const tiers_pos *p, const tiers_move *moves, char **texts, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; hook_written(p, &moves[i]) && j < n; j++)
            if (j != i && !strcmp(texts[i], texts[j]))
                return text_clash(p, &moves[i], texts[i]);
    return 0;
}

int tiers_moves_format(const tiers_pos *p, const tiers_move *moves, int n,
                       const char *notation, char *buf, size_t size, char **texts)
{
    const dialect *d;
    int idx;
    if (notation_find(p->v, notation, &d, &idx) < 0)
        return TIERS_EUSAGE;
    size_t used = 0;
    for (int i = 0; i < n; i++) {
        int len = write_move(p, d, idx, &moves[i], buf + used, size - used);
        if (len < 0)
            return len;
        texts[i] = buf + used;
        used += (size_t)len + 1;
    }
    if (!d && p->v->hook_fns) {
        int rc = check_unique(p, moves, texts, n);
        if (rc < 0)
            return rc;
    }
    return (int)used;
}

/* In tiers notation, a move after list[i] whose text is also s, where a
 * format hook wrote one of the two: the hook's error (text_clash). */
static int find_second(const tiers_pos *p, const char *s, const tiers_move *list, int i, int n)
{
    if (!p->v->hook_fns)
        return 0;
    char t[256];
    for (int j = i + 1; j < n; j++)
        if ((hook_written(p, &list[i]) || hook_written(p, &list[j])) &&
            notation_format_move(p, &list[j], t, sizeof t) > 0 && !strcmp(s, t))
            return text_clash(p, hook_written(p, &list[j]) ? &list[j] : &list[i], s);
    return 0;
}

/* A move is read by formatting every legal move and comparing: one
 * formatter per dialect then serves both directions. */
/* Matches text against list[0..n) (n < 0: the generation's error). */
static int find_in(tiers_pos *p, const char *text, const dialect *d, int idx,
                   const char *notation, const tiers_move *list, int n, tiers_move *out,
                   tiers_error *err)
{
    int rc = TIERS_EILLEGAL;
    char s[256];
    /* Records may end a move with a mate or draw mark ('#', '='): a text
       that matches nothing is tried again without it. */
    size_t len_text = strlen(text), strip = 0;
    for (int pass = 0; pass < 2 && rc == TIERS_EILLEGAL; pass++) {
        if (pass == 1 && !(len_text > 1 && strchr("#=", text[len_text - 1])))
            break;
        strip = (size_t)pass;
        for (int i = 0; i < n; i++) {
            /* a move the writer cannot write (TIERS_EUSAGE) is one no
               text of the notation can name */
            int len = write_move(p, d, idx, &list[i], s, sizeof s);
            if (len == TIERS_EUSAGE)
                continue;
            if (len == TIERS_ESCRIPT) {
                rc = len;
                break;
            }
            if (len > 0 && strlen(s) == len_text - strip &&
                !memcmp(s, text, len_text - strip)) {
                *out = list[i];
                rc = d ? 0 : find_second(p, s, list, i, n);
                break;
            }
        }
    }
    if (n < 0)
        rc = n;
    if (rc == TIERS_EILLEGAL)
        snprintf(err->msg, sizeof err->msg, "'%s' is not a legal move here", text);
    else if (rc == TIERS_EUSAGE)
        snprintf(err->msg, sizeof err->msg, "unknown notation '%s'", notation);
    else if (rc < 0)
        snprintf(err->msg, sizeof err->msg, "%s%s", n < 0 ? "move generation failed: " : "",
                 tiers_variant_script_error(p->v));
    return rc;
}

/* The notation is known?  (Else the message, TIERS_EUSAGE.) */
static int check_notation(const tiers_pos *p, const char *notation, const dialect **d,
                          int *idx, tiers_error *err)
{
    memset(err, 0, sizeof *err);
    if (notation_find(p->v, notation, d, idx) < 0) {
        snprintf(err->msg, sizeof err->msg, "unknown notation '%s'", notation);
        return TIERS_EUSAGE;
    }
    return 0;
}

int tiers_move_parse(tiers_pos *p, const char *text, const char *notation, tiers_move *out,
                     tiers_error *err)
{
    tiers_error tmp;
    const dialect *d;
    int idx;
    if (!err)
        err = &tmp;
    if (check_notation(p, notation, &d, &idx, err) < 0)
        return TIERS_EUSAGE;
    tiers_move *buf = malloc(TIERS_MAX_MOVES * sizeof *buf);
    if (!buf) {
        set_error(err, "out of memory");
        return TIERS_ENOMEM;
    }
    int rc = find_in(p, text, d, idx, notation, buf, status_legal(p, buf, TIERS_MAX_MOVES),
                     out, err);
    free(buf);
    return rc;
}

int tiers_move_find(tiers_pos *p, const char *text, const char *notation, const tiers_move *list,
                    int n, tiers_move *out, tiers_error *err)
{
    tiers_error tmp;
    const dialect *d;
    int idx;
    if (!err)
        err = &tmp;
    if (check_notation(p, notation, &d, &idx, err) < 0)
        return TIERS_EUSAGE;
    return find_in(p, text, d, idx, notation, list, n, out, err);
}

static int64_t perft(tiers_pos *p, int depth, tiers_move *stack)
{
    int n = status_legal(p, stack, TIERS_MAX_MOVES);
    if (n < 0 || depth == 1)
        return n;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        if (make_move(p, &stack[i]) < 0)
            return TIERS_ESCRIPT;
        int64_t sub = perft(p, depth - 1, stack + n);
        unmake_move(p);
        if (sub < 0)
            return sub;
        total += sub;
    }
    return total;
}

int64_t tiers_pos_perft(tiers_pos *p, int depth)
{
    if (depth <= 0)
        return 1;
    if (depth > 64)
        return TIERS_EUSAGE;
    /* One buffer for the whole tree: each ply uses the part after its
     * parent's moves, so the search allocates once. */
    tiers_move *stack = malloc((size_t)(depth + 1) * TIERS_MAX_MOVES * sizeof *stack);
    if (!stack)
        return TIERS_ENOMEM;
    int64_t n = perft(p, depth, stack);
    free(stack);
    return n;
}

int tiers_pos_random_playout(tiers_pos *p, uint64_t *rng, int max_plies)
{
    tiers_move buf[TIERS_MAX_MOVES];
    int plies = 0, rc = 0;
    while (plies < max_plies && p->depth < p->cap && !status_terminal(p, NULL, NULL)) {
        rc = movegen_random(p, rng, buf);
        if (rc <= 0)
            break;
        plies++;
    }
    for (int i = 0; i < plies; i++)
        unmake_move(p);
    return rc < 0 ? rc : plies;
}

void tiers_pos_seed(tiers_pos *p, uint64_t seed) { p->rng = seed ? seed : 1; }

/* The names before 0.2, kept for one release as aliases of the same code
 * (tiers.h, "Renamed calls"). */
#define TIERS_ALIAS(old, cur) __typeof__(cur) old __attribute__((alias(#cur)))
TIERS_ALIAS(tiers_make, tiers_pos_make);
TIERS_ALIAS(tiers_unmake, tiers_pos_unmake);
TIERS_ALIAS(tiers_legal_moves, tiers_pos_legal_moves);
TIERS_ALIAS(tiers_pseudo_moves, tiers_pos_pseudo_moves);
TIERS_ALIAS(tiers_side_in_check, tiers_pos_in_check);
TIERS_ALIAS(tiers_perft, tiers_pos_perft);
TIERS_ALIAS(tiers_random_playout, tiers_pos_random_playout);
