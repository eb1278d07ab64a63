/* solve.c - retrograde analysis of variants small enough to enumerate
 * (tiers_solve and tiers_solution_* in tiers.h; `tiers solve` in
 * docs/cli.md).  Nothing here knows a variant: positions come from the
 * engine's own legal moves, hooks included.
 *
 * 1. Enumerate.  Breadth first from the start: each position is set up
 *    from its packed form (pos_pack: the content of its key text, so no
 *    parse and no full rehash), its legal moves are generated, and each
 *    target position is looked up or added while the legality filter has
 *    the move made (movegen_legal_visit: no move is made twice).  A
 *    position is what its key text says (solve_key_text: the tiers text
 *    without clock, ply and move number).  An open-addressing table on
 *    tiers_pos_hash finds candidates, and a second key computed
 *    independently from the same content (pack_key: a hash of the packed
 *    bytes) confirms them: two positions merge only if both 64-bit keys
 *    agree.  The text and the packed form are kept once per new position
 *    (the text for --save and the readers; the packed forms are dropped
 *    after the enumeration).  The moves are kept as edges, row by row
 *    (positions are expanded in index order).
 * 2. Label.  A position without legal moves takes the result
 *    tiers_pos_status gives it (final_result, without generating its
 *    moves again): won, lost or drawn for its side to move, at
 *    distance 0.  Values then flow back along the reversed edges in order
 *    of distance: a position is won as soon as one move reaches a position
 *    good for its side to move (lost for the opponent, or won when the
 *    same side moves again), at that distance + 1; it is lost when its
 *    last move that was not yet known bad turns out bad, at that distance
 *    + 1 (the largest, since values arrive in order of distance).  The
 *    positions never labelled are draws: from them neither side can force
 *    a decided end, so the game can go on for ever.
 *
 * History.  The game graph is solved without history: repetition,
 * max_plies and halfmove_limit are not applied (the key text leaves out
 * what they read).  A won or lost value holds under an N-fold repetition
 * draw rule too: along the winner's shortest line the distance falls at
 * every ply, so no position repeats; a cycle no side can be forced out of
 * is exactly what the rule calls a draw.  A move limit can turn a long win
 * into a draw; the solver ignores it. */
#include "solve.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hooks.h"
#include "make.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "status.h"

#define SOLVE_FORMAT "tiers-solution 1"
enum { KEY_TEXT_MAX = 4096 };

struct tiers_solution {
    const tiers_variant *v;
    char fingerprint[17];
    int64_t n, cap;           /* positions; index 0 is the start */
    uint64_t *key;            /* tiers_pos_hash */
    uint64_t *key2;           /* pack_key */
    uint64_t *text;           /* offset of the key text in arena */
    uint64_t *pack;           /* offset of the packed position in parena
                                 (while solving only) */
    uint8_t *side;            /* side to move */
    uint8_t *value;           /* TIERS_VALUE_* for the side to move */
    int32_t *dist;            /* plies to the end under perfect play */
    char *arena;
    size_t alen, acap;
    uint8_t *parena;          /* pos_pack of each position, to expand it */
    size_t plen, pcap;
    int64_t *slot;            /* index + 1, 0 = empty */
    uint64_t mask;            /* slots - 1 (a power of two minus one) */
    tiers_solve_info info;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void set_err(tiers_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------ keys */

static inline uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 29);
}

/* A function of what solve_key_text writes: the towers square by square,
 * the hands byte by byte, the side, phase, mode, variables, and the ply
 * while a setup phase lasts.  It seeds math.random for the hooks run on
 * a position being expanded. */
uint64_t solve_key2(const tiers_pos *p)
{
    const tiers_variant *v = p->v;
    uint64_t h = 0x243f6a8885a308d3ull;
    for (int r = 0; r < v->ranks; r++)
        for (int f = 0; f < v->files; f++) {
            const tower *t = &p->board[sq_make(f, r)];
            uint64_t w = t->h;
            for (int i = 0; i < t->h; i++)
                w = w * 65599 + t->p[i] + 1;
            h = mix(h, w);
        }
    /* Hand slots are kind | PC_FLIP: only the words holding kinds
       0..nkinds-1, face up or flipped, can be non-zero, and a zero word
       adds nothing to the key, so the others are not read. */
    _Static_assert(PC_FLIP % 8 == 0 && 2 * PC_FLIP == HAND_SLOTS, "hand words by kind");
    int kinds_end = (v->nkinds + 7) & ~7;
    for (int o = 0; o < 3; o++)
        for (int k = 0; k < HAND_SLOTS; k += 8) {
            if (k >= kinds_end && k < PC_FLIP) {
                k = PC_FLIP - 8;
                continue;
            }
            if (k >= PC_FLIP + kinds_end)
                break;
            uint64_t w;
            memcpy(&w, &p->hand[o][k], sizeof w);
            if (w)
                h = mix(h, w ^ ((uint64_t)(o * HAND_SLOTS + k) << 56));
        }
    h = mix(h, (uint64_t)p->st.side | (uint64_t)p->st.setup_left << 8 |
                   (uint64_t)p->st.mode << 16 |
                   (uint64_t)(p->st.setup_left ? p->st.ply : 0) << 32);
    for (int i = 0; i < MAX_VARS; i++)
        h = mix(h, (uint16_t)p->st.vars[i]);
    return h;
}

int solve_key_text(tiers_pos *p, char *buf, size_t size)
{
    /* the text of p with the clock at 0, the ply at 0 after the setup
       and no move number (a move number of 0 is not written) */
    pos_state st = p->st;
    p->st.clock = 0;
    p->st.fullmove = 0;
    if (!p->st.setup_left)
        p->st.ply = 0;
    int len = notation_format_pos(p, buf, size);
    p->st = st;
    return len;
}

/* The ply a position's key keeps: only while a setup phase lasts. */
static int key_ply(const tiers_pos *p) { return p->st.setup_left ? p->st.ply : 0; }

/* The second key: a hash of the packed form (pos_pack, with key_ply), so
 * of the same content as the key text, computed independently of the
 * Zobrist keys of position.c.  buf holds POS_PACK_MAX bytes. */
static uint64_t pack_key(const tiers_pos *p, uint8_t *buf, size_t *len)
{
    *len = pos_pack(p, key_ply(p), buf);
    uint64_t h = 0x243f6a8885a308d3ull ^ *len;
    for (size_t i = 0; i < *len; i += 8) { /* zero-filled to a multiple of 8 */
        uint64_t w;
        memcpy(&w, buf + i, sizeof w);
        h = mix(h, w);
    }
    return h;
}

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *c = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 0x100000001b3ull;
    return h;
}

void solve_fingerprint(const tiers_variant *v, char out[17])
{
    /* The engine rules that change moves or results; repetition,
       max_plies and halfmove_limit are left out on purpose. */
    const uint8_t rules[] = {
        v->unit, v->bounce, v->deploy, v->null_bounce, v->turn_after_move, v->rotate,
        v->stack_own, v->stack_enemy, v->royal_may_stack, v->capture,
        v->capture_and_stack, v->captured_to, v->capture_flips, v->height_block,
        v->via_rule, v->same_face_rule, v->immobile_strikes, v->over_enemy_face,
        v->army_cap, v->region_bonus, v->region_mode, v->region_clip, v->region_shield,
        v->shield_all_via, v->drops, v->drop_onto, v->setup, v->setup_onto, v->legality,
        v->stalemate, v->royal_capture, v->exit_rank, v->capture_all, v->bare_royals,
        v->max_tiers, v->files, v->ranks};
    uint64_t h = fnv(0xcbf29ce484222325ull, v->hash, strlen(v->hash));
    h = fnv(h, v->name, strlen(v->name));
    h = fnv(h, rules, sizeof rules);
    for (int i = 0; i < v->noptions; i++) {
        const option_def *o = &v->options[i];
        if (!strcmp(o->sets, "repetition") || !strcmp(o->sets, "max_plies") ||
            !strcmp(o->sets, "halfmove_limit"))
            continue;
        char kv[2 * MAX_NAME + 16];
        int n = snprintf(kv, sizeof kv, "%s=%s;", o->key,
                         o->nvalues ? o->values[o->value] : "");
        if (!o->nvalues)
            n += snprintf(kv + n, sizeof kv - (size_t)n, "%ld;", (long)o->value);
        h = fnv(h, kv, strlen(kv));
    }
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* ------------------------------------------------------------ the table */

static tiers_solution *sol_new(const tiers_variant *v)
{
    tiers_solution *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->v = v;
    solve_fingerprint(v, s->fingerprint);
    s->mask = (1u << 12) - 1;
    s->slot = calloc(s->mask + 1, sizeof *s->slot);
    if (!s->slot) {
        free(s);
        return NULL;
    }
    return s;
}

void tiers_solution_free(tiers_solution *s)
{
    if (!s)
        return;
    free(s->key);
    free(s->key2);
    free(s->text);
    free(s->side);
    free(s->value);
    free(s->dist);
    free(s->arena);
    free(s->pack);
    free(s->parena);
    free(s->slot);
    free(s);
}

static const char *sol_text(const tiers_solution *s, int64_t i) { return s->arena + s->text[i]; }

/* Index of the position with these keys, or -1. */
static int64_t sol_find(const tiers_solution *s, uint64_t key, uint64_t key2)
{
    for (uint64_t j = key & s->mask;; j = (j + 1) & s->mask) {
        int64_t e = s->slot[j];
        if (!e)
            return -1;
        if (s->key[e - 1] == key && s->key2[e - 1] == key2)
            return e - 1;
    }
}

static void sol_place(tiers_solution *s, int64_t i)
{
    uint64_t j = s->key[i] & s->mask;
    while (s->slot[j])
        j = (j + 1) & s->mask;
    s->slot[j] = i + 1;
}

static int grow(void **a, int64_t cap, size_t elem)
{
    void *q = realloc(*a, (size_t)cap * elem);
    if (!q)
        return -1;
    *a = q;
    return 0;
}

/* Appends len bytes to an arena; their offset, or -1 when out of memory. */
static int64_t arena_put(void **arena, size_t *alen, size_t *acap, const void *data,
                         size_t len)
{
    if (*alen + len > *acap) {
        size_t cap = *acap ? *acap * 2 : 65536;
        while (cap < *alen + len)
            cap *= 2;
        if (grow(arena, (int64_t)cap, 1))
            return -1;
        *acap = cap;
    }
    memcpy((char *)*arena + *alen, data, len);
    *alen += len;
    return (int64_t)(*alen - len);
}

/* Adds a position (not yet present) with its text and, while solving,
 * its packed form (plen bytes, none when loading a file); returns its
 * index or TIERS_ENOMEM. */
static int64_t sol_add(tiers_solution *s, uint64_t key, uint64_t key2, const char *text,
                       const uint8_t *packed, size_t plen, int side)
{
    if (s->n == s->cap) {
        int64_t cap = s->cap ? s->cap * 2 : 1024;
        if (grow((void **)&s->key, cap, sizeof *s->key) ||
            grow((void **)&s->key2, cap, sizeof *s->key2) ||
            grow((void **)&s->text, cap, sizeof *s->text) ||
            (packed && grow((void **)&s->pack, cap, sizeof *s->pack)) ||
            grow((void **)&s->side, cap, sizeof *s->side) ||
            grow((void **)&s->value, cap, sizeof *s->value) ||
            grow((void **)&s->dist, cap, sizeof *s->dist))
            return TIERS_ENOMEM;
        s->cap = cap;
    }
    int64_t at = arena_put((void **)&s->arena, &s->alen, &s->acap, text, strlen(text) + 1);
    int64_t pat = packed ? arena_put((void **)&s->parena, &s->plen, &s->pcap, packed, plen) : 0;
    if (at < 0 || pat < 0)
        return TIERS_ENOMEM;
    int64_t i = s->n++;
    s->text[i] = (uint64_t)at;
    if (packed)
        s->pack[i] = (uint64_t)pat;
    s->key[i] = key;
    s->key2[i] = key2;
    s->side[i] = (uint8_t)side;
    s->value[i] = TIERS_VALUE_UNKNOWN;
    s->dist[i] = 0;
    if ((uint64_t)s->n * 2 > s->mask + 1) { /* keep the table at most half full */
        uint64_t slots = (s->mask + 1) * 2;
        int64_t *t = calloc(slots, sizeof *t);
        if (!t)
            return TIERS_ENOMEM;
        free(s->slot);
        s->slot = t;
        s->mask = slots - 1;
        for (int64_t k = 0; k < s->n; k++)
            sol_place(s, k);
    } else {
        sol_place(s, i);
    }
    return i;
}

/* The index of p's position, -1 if the solution does not hold it, or a
 * negative error below -1. */
static int64_t sol_lookup(const tiers_solution *s, tiers_pos *p)
{
    uint8_t buf[POS_PACK_MAX];
    size_t len;
    return sol_find(s, tiers_pos_hash(p), pack_key(p, buf, &len));
}

/* ------------------------------------------------------------ solving */

typedef struct edges {
    int64_t *first;           /* row starts, n + 1 of them */
    uint32_t *to;
    int64_t m, cap;
} edges;

static int edge_add(edges *e, int64_t to)
{
    if (e->m == e->cap) {
        int64_t cap = e->cap ? e->cap * 2 : 4096;
        if (grow((void **)&e->to, cap, sizeof *e->to))
            return TIERS_ENOMEM;
        e->cap = cap;
    }
    e->to[e->m++] = (uint32_t)to;
    return 0;
}

static int value_of_result(tiers_result r, int side)
{
    if (r == TIERS_DRAW)
        return TIERS_VALUE_DRAW;
    return (r == TIERS_WIN_0) == (side == 0) ? TIERS_VALUE_WIN : TIERS_VALUE_LOSS;
}

/* The result of p, which no game-end rule ended but which has no legal
 * move, as tiers_pos_status gives it, without generating the moves again
 * to find that out (in a variant whose legality filter runs hooks, that
 * costs as much as the rest of the position's work): checkmate or
 * stalemate. */
static tiers_result final_result(tiers_pos *p)
{
    const tiers_variant *v = p->v;
    int side = p->st.side, in_check = 0;
    if (!p->st.setup_left || v->legality == LEGAL_STRICT)
        in_check = movegen_in_check(p, side);
    if (in_check || v->stalemate == RES_LOSS)
        return side == 0 ? TIERS_WIN_1 : TIERS_WIN_0;
    if (v->stalemate == RES_WIN)
        return side == 0 ? TIERS_WIN_0 : TIERS_WIN_1;
    return TIERS_DRAW;
}

/* Sets p to position i of the table from its packed form (what its key
 * text holds, so what a parse of that text gives). */
static void load_packed(tiers_pos *p, const tiers_solution *s, int64_t i)
{
    pos_unpack(p, s->parena + s->pack[i]);
    p->script_failed = 0;
    /* math.random in a hook follows the position, not the positions this
       worker happened to expand before it */
    p->rng = solve_key2(p) | 1;
}

/* The enumeration goes in rounds.  In each, the positions not yet
 * expanded (up to ROUND_MAX of them, in index order) are shared out among
 * the workers, one variant each (a variant's scripts run in one thread
 * at a time).  A worker generates its positions' moves and keys, reading
 * the table but not changing it, and writes the text of each position the
 * table lacks.  Then one thread adds the new positions and the edges,
 * position by position and move by move: the order, hence every index,
 * is the one a single worker gives. */
enum { ROUND_MAX = 16384, ROUND_SHARE = 16, IN_SETUP = 0x80 };

typedef struct child {
    uint64_t key, key2;
    int64_t known;            /* index in the table, or -1 */
    size_t text;              /* offsets in the worker's arenas when unknown */
    size_t pack;
    uint32_t plen;            /* bytes of the packed form */
    uint8_t side;
} child;

typedef struct worker {
    const tiers_solution *s;
    tiers_pos *p;             /* on the worker's own variant */
    tiers_move *buf;
    int64_t lo, hi;           /* the positions it expands this round */
    int32_t *nchild;          /* legal moves of each (hi - lo) */
    uint8_t *final;           /* value of a position without moves (or 0),
                                 | IN_SETUP for one in a setup phase */
    int64_t ncap;
    child *c;
    int64_t nc, ccap;
    char *arena;
    size_t alen, acap;
    uint8_t *parena;
    size_t plen, pcap;
    int64_t *seen;            /* this round's unknown children by key: index
                                 + 1 in c, 0 = empty (one text for each) */
    int64_t nseen, smask;
    int rc;
    pthread_t tid;
} worker;

/* The slot of w->seen for the keys of c: the child with the same keys,
 * or an empty slot. */
static int64_t *seen_slot(const worker *w, const child *c)
{
    for (uint64_t j = c->key & (uint64_t)w->smask;; j = (j + 1) & (uint64_t)w->smask) {
        int64_t *e = &w->seen[j];
        if (!*e || (w->c[*e - 1].key == c->key && w->c[*e - 1].key2 == c->key2))
            return e;
    }
}

/* Has an earlier child of this round the same keys?  Then c shares its
 * text; else c is remembered.  0 or TIERS_ENOMEM. */
static int seen_before(worker *w, child *c, int *dup)
{
    if ((w->nseen + 1) * 2 > w->smask + 1) { /* at most half full */
        int64_t slots = w->smask ? (w->smask + 1) * 2 : 4096;
        int64_t *t = calloc((size_t)slots, sizeof *t);
        if (!t)
            return TIERS_ENOMEM;
        free(w->seen);
        w->seen = t;
        w->smask = slots - 1;
        for (int64_t i = 0; i < w->nc - 1; i++)
            if (w->c[i].known < 0)
                *seen_slot(w, &w->c[i]) = i + 1;
    }
    int64_t *e = seen_slot(w, c);
    *dup = *e != 0;
    if (*dup) {
        c->text = w->c[*e - 1].text;
        c->pack = w->c[*e - 1].pack;
    } else {
        *e = (c - w->c) + 1;
        w->nseen++;
    }
    return 0;
}

/* Keeps the text and packed form (packed) of a child the table lacks,
 * once a round. */
static int worker_text(worker *w, tiers_pos *p, child *c, const uint8_t *packed)
{
    int dup;
    if (seen_before(w, c, &dup) < 0)
        return TIERS_ENOMEM;
    if (dup)
        return 0;
    char text[KEY_TEXT_MAX];
    int len = solve_key_text(p, text, sizeof text);
    if (len < 0)
        return len;
    int64_t at = arena_put((void **)&w->arena, &w->alen, &w->acap, text, (size_t)len + 1);
    int64_t pat = arena_put((void **)&w->parena, &w->plen, &w->pcap, packed, c->plen);
    if (at < 0 || pat < 0)
        return TIERS_ENOMEM;
    c->text = (size_t)at;
    c->pack = (size_t)pat;
    return 0;
}

/* Room in w->c for one more child: 0 or TIERS_ENOMEM. */
static int child_room(worker *w)
{
    if (w->nc < w->ccap)
        return 0;
    int64_t cap = w->ccap ? w->ccap * 2 : 4096;
    if (grow((void **)&w->c, cap, sizeof *w->c))
        return TIERS_ENOMEM;
    w->ccap = cap;
    return 0;
}

/* The position a legal move leads to (movegen_legal_visit: the move is
 * made on p): its keys, its index if the table holds it, else its text. */
static int visit_child(tiers_pos *p, const tiers_move *m, int index, void *ctx)
{
    worker *w = ctx;
    (void)m;
    (void)index;
    if (child_room(w) < 0)
        return TIERS_ENOMEM;
    child *c = &w->c[w->nc++];
    uint8_t packed[POS_PACK_MAX];
    size_t plen;
    c->key = tiers_pos_hash(p);
    c->key2 = pack_key(p, packed, &plen);
    c->plen = (uint32_t)plen;
    c->side = p->st.side;
    c->known = sol_find(w->s, c->key, c->key2);
    return c->known < 0 ? worker_text(w, p, c, packed) : 0;
}

/* One position's moves: their target positions, appended to w->c. */
static int expand_one(worker *w, int64_t i)
{
    tiers_pos *p = w->p;
    load_packed(p, w->s, i);
    tiers_result end = TIERS_ONGOING;
    int over = status_terminal(p, &end, NULL);
    int n = over ? 0 : movegen_legal_visit(p, w->buf, TIERS_MAX_MOVES, visit_child, w);
    if (n < 0)
        return n;
    w->nchild[i - w->lo] = n;
    int value = n ? 0 : value_of_result(over ? end : final_result(p), p->st.side);
    w->final[i - w->lo] = (uint8_t)(value | (p->st.setup_left ? IN_SETUP : 0));
    return 0;
}

static void *expand_range(void *arg)
{
    worker *w = arg;
    w->nc = 0;
    w->alen = 0;
    w->plen = 0;
    w->rc = 0;
    w->nseen = 0;
    if (w->seen)
        memset(w->seen, 0, (size_t)(w->smask + 1) * sizeof *w->seen);
    int64_t n = w->hi - w->lo;
    if (n > w->ncap && (grow((void **)&w->nchild, n, sizeof *w->nchild) ||
                        grow((void **)&w->final, n, sizeof *w->final)))
        w->rc = TIERS_ENOMEM;
    else if (n > w->ncap)
        w->ncap = n;
    for (int64_t i = w->lo; i < w->hi && w->rc >= 0; i++)
        w->rc = expand_one(w, i);
    return NULL;
}

/* Adds worker w's positions and edges to the table, in order. */
static int merge(tiers_solution *s, worker *w, int64_t max, edges *e, tiers_error *err)
{
    const child *c = w->c;
    for (int64_t i = w->lo; i < w->hi; i++, e->first[i] = e->m) {
        int n = w->nchild[i - w->lo], flags = w->final[i - w->lo];
        if (!n) {
            s->value[i] = (uint8_t)(flags & ~IN_SETUP);
            s->info.terminal++;
        }
        if (flags & IN_SETUP)
            s->info.setup++;
        for (int k = 0; k < n; k++, c++) {
            int64_t j = c->known >= 0 ? c->known : sol_find(s, c->key, c->key2);
            if (j < 0 && s->n >= max) {
                set_err(err, "more than %lld positions are reachable: too many to solve "
                        "(raise the limit, --max-positions)", (long long)max);
                return TIERS_EFULL;
            }
            if (j < 0 && (j = sol_add(s, c->key, c->key2, w->arena + c->text,
                                      w->parena + c->pack, c->plen, c->side)) < 0)
                return (int)j;
            if (edge_add(e, j) < 0)
                return TIERS_ENOMEM;
        }
    }
    return 0;
}

/* Workers 1..used-1 expand their shares on threads of their own, worker 0
 * on this one (and any worker whose thread could not start). */
static void run_round(worker *w, int used)
{
    int started = 0;
    for (int k = 1; k < used; k++, started++)
        if (pthread_create(&w[k].tid, NULL, expand_range, &w[k]) != 0)
            break;
    for (int k = 1 + started; k < used; k++)
        expand_range(&w[k]);
    expand_range(&w[0]);
    for (int k = 1; k <= started; k++)
        pthread_join(w[k].tid, NULL);
}

static void free_workers(worker *w, int n)
{
    for (int k = 0; w && k < n; k++) {
        free(w[k].buf);
        free(w[k].nchild);
        free(w[k].final);
        free(w[k].c);
        free(w[k].arena);
        free(w[k].parena);
        free(w[k].seen);
    }
    free(w);
}

/* Breadth-first enumeration from the position p stands on, with one
 * worker per position of ps (ps[0] = p; the others on copies of its
 * variant). */
static int enumerate(tiers_solution *s, tiers_pos *const *ps, int nworkers, int64_t max,
                     edges *e, tiers_error *err)
{
    char text[KEY_TEXT_MAX];
    uint8_t packed[POS_PACK_MAX];
    worker *w = calloc((size_t)nworkers, sizeof *w);
    int rc = w ? 0 : TIERS_ENOMEM;
    for (int k = 0; k < nworkers && !rc; k++) {
        w[k] = (worker){.s = s, .p = ps[k]};
        if (!(w[k].buf = malloc(TIERS_MAX_MOVES * sizeof *w[k].buf)))
            rc = TIERS_ENOMEM;
    }
    if (!rc && (rc = solve_key_text(ps[0], text, sizeof text)) >= 0) {
        size_t plen;
        uint64_t key2 = pack_key(ps[0], packed, &plen);
        rc = (int)sol_add(s, tiers_pos_hash(ps[0]), key2, text, packed, plen, ps[0]->st.side);
    }
    if (!rc && grow((void **)&e->first, 1, sizeof *e->first))
        rc = TIERS_ENOMEM;
    if (!rc)
        e->first[0] = 0;
    for (int64_t done = 0; rc >= 0 && done < s->n;) {
        int64_t round = s->n - done < ROUND_MAX ? s->n - done : ROUND_MAX;
        if (grow((void **)&e->first, s->n + 1, sizeof *e->first)) {
            rc = TIERS_ENOMEM;
            break;
        }
        /* at least ROUND_SHARE positions a worker: a thread costs more
           than a few positions */
        int64_t used = round / ROUND_SHARE;
        used = used < 1 ? 1 : used > nworkers ? nworkers : used;
        for (int k = 0; k < used; k++) {
            w[k].lo = done + round * k / used;
            w[k].hi = done + round * (k + 1) / used;
        }
        run_round(w, (int)used);
        /* the first worker that failed failed first in index order: its
           error is the one a single worker meets */
        for (int k = 0; k < used && rc >= 0; k++) {
            if ((rc = w[k].rc) < 0) {
                if (rc == TIERS_ESCRIPT)
                    set_err(err, "%s", hooks_last_error(ps[k]->v));
                break;
            }
            rc = merge(s, &w[k], max, e, err);
        }
        done += round;
    }
    free_workers(w, nworkers);
    if (rc == TIERS_ENOMEM)
        set_err(err, "out of memory after %lld positions", (long long)s->n);
    return rc < 0 ? rc : 0;
}

/* Retrograde labelling over the reversed edges. */
static int label(tiers_solution *s, const edges *e)
{
    int64_t n = s->n, m = e->m;
    int64_t *pfirst = calloc((size_t)n + 1, sizeof *pfirst);
    uint32_t *pred = malloc((size_t)(m ? m : 1) * sizeof *pred);
    uint32_t *left = malloc((size_t)n * sizeof *left);
    int64_t *queue = malloc((size_t)n * sizeof *queue);
    int rc = pfirst && pred && left && queue ? 0 : TIERS_ENOMEM;
    if (!rc) {
        for (int64_t k = 0; k < m; k++)
            pfirst[e->to[k] + 1]++;
        for (int64_t i = 0; i < n; i++)
            pfirst[i + 1] += pfirst[i];
        int64_t *fill = calloc((size_t)n, sizeof *fill);
        if (!fill) {
            rc = TIERS_ENOMEM;
        } else {
            for (int64_t i = 0; i < n; i++)
                for (int64_t k = e->first[i]; k < e->first[i + 1]; k++) {
                    int64_t c = e->to[k];
                    pred[pfirst[c] + fill[c]++] = (uint32_t)i;
                }
            free(fill);
        }
    }
    if (!rc) {
        int64_t head = 0, tail = 0;
        for (int64_t i = 0; i < n; i++) {
            left[i] = (uint32_t)(e->first[i + 1] - e->first[i]);
            if (s->value[i] != TIERS_VALUE_UNKNOWN)
                queue[tail++] = i;
        }
        while (head < tail) {
            int64_t c = queue[head++];
            int vc = s->value[c];
            if (vc == TIERS_VALUE_DRAW)
                continue; /* a decided draw helps no one win or lose */
            for (int64_t k = pfirst[c]; k < pfirst[c + 1]; k++) {
                int64_t q = pred[k];
                if (s->value[q] != TIERS_VALUE_UNKNOWN)
                    continue;
                int same = s->side[q] == s->side[c];
                int good = same ? vc == TIERS_VALUE_WIN : vc == TIERS_VALUE_LOSS;
                if (good || --left[q] == 0) {
                    s->value[q] = good ? TIERS_VALUE_WIN : TIERS_VALUE_LOSS;
                    s->dist[q] = s->dist[c] + 1;
                    queue[tail++] = q;
                }
            }
        }
        for (int64_t i = 0; i < n; i++) {
            if (s->value[i] == TIERS_VALUE_UNKNOWN)
                s->value[i] = TIERS_VALUE_DRAW;
            s->info.wins += s->value[i] == TIERS_VALUE_WIN;
            s->info.draws += s->value[i] == TIERS_VALUE_DRAW;
            s->info.losses += s->value[i] == TIERS_VALUE_LOSS;
        }
    }
    free(pfirst);
    free(pred);
    free(left);
    free(queue);
    return rc;
}

static void finish_info(tiers_solution *s)
{
    s->info.positions = s->n;
    s->info.start_side = s->n ? s->side[0] : 0;
    s->info.start_value = s->n ? s->value[0] : TIERS_VALUE_UNKNOWN;
    s->info.start_dist = s->n ? s->dist[0] : 0;
}

int tiers_solve(tiers_pos *p, int64_t max_positions, tiers_solution **out, tiers_error *err)
{
    return tiers_solve_threads(p, NULL, 0, max_positions, out, err);
}

/* A worker's position on helper variant h, which must be p's variant
 * loaded again in the same way. */
/* Worker k's position, on helpers[k - 1], which must be another copy of
 * v loaded in the same way: never v itself, nor a helper given twice (two
 * threads would share one Lua state). */
static int helper_pos(const tiers_variant *v, tiers_variant *const *helpers, int k,
                      tiers_pos **out, tiers_error *err)
{
    const tiers_variant *h = helpers[k - 1];
    int shared = h == v;
    for (int i = 0; h && i < k - 1; i++)
        shared |= helpers[i] == h;
    if (!h || shared) {
        set_err(err, "helper variant %d is %s", k, h ? "not a copy of its own" : "missing");
        return TIERS_EUSAGE;
    }
    char mine[17], theirs[17];
    solve_fingerprint(v, mine);
    solve_fingerprint(h, theirs);
    if (strcmp(mine, theirs) || strcmp(v->hash, h->hash)) {
        set_err(err, "a helper variant is not %s loaded with the same rules", v->name);
        return TIERS_EUSAGE;
    }
    return (*out = tiers_pos_new(h, 16, NULL)) ? 0 : TIERS_ENOMEM;
}

int tiers_solve_threads(tiers_pos *p, tiers_variant *const *helpers, int nhelpers,
                        int64_t max_positions, tiers_solution **out, tiers_error *err)
{
    tiers_error tmp;
    if (!err)
        err = &tmp;
    memset(err, 0, sizeof *err);
    *out = NULL;
    if (max_positions < 1 || max_positions > UINT32_MAX) {
        set_err(err, "the position limit must be 1..%lu", (unsigned long)UINT32_MAX);
        return TIERS_EUSAGE;
    }
    if (nhelpers < 0 || nhelpers > TIERS_SOLVE_MAX_HELPERS || (nhelpers && !helpers)) {
        set_err(err, "the helper count must be 0..%d", TIERS_SOLVE_MAX_HELPERS);
        return TIERS_EUSAGE;
    }
    tiers_solution *s = sol_new(p->v);
    tiers_pos *ps[TIERS_SOLVE_MAX_HELPERS + 1] = {0};
    edges e = {0};
    int rc = s && (ps[0] = tiers_pos_new(p->v, 16, NULL)) ? 0 : TIERS_ENOMEM;
    for (int k = 1; k <= nhelpers && !rc; k++)
        rc = helper_pos(p->v, helpers, k, &ps[k], err);
    /* Many moves lead to each position, and the check hooks are asked
       about it after each: remember a million answers (16 MiB), not 256,
       while solving. */
    for (int k = 0; k <= nhelpers && !rc; k++)
        if (hooks_remember(ps[k]->v, 20) < 0)
            rc = TIERS_ENOMEM;
    if (!rc) { /* the start, from p's text (its history does not matter) */
        char text[KEY_TEXT_MAX];
        rc = notation_format_pos(p, text, sizeof text);
        if (rc >= 0)
            rc = tiers_pos_parse(ps[0], text, NULL, err);
    }
    if (!rc)
        rc = enumerate(s, ps, nhelpers + 1, max_positions, &e, err);
    if (s) { /* the packed forms serve the enumeration only */
        free(s->pack);
        free(s->parena);
        s->pack = NULL;
        s->parena = NULL;
    }
    if (!rc) {
        s->info.moves = e.m;
        rc = label(s, &e);
    }
    if (rc == TIERS_ENOMEM)
        set_err(err, "out of memory");
    free(e.first);
    free(e.to);
    for (int k = 0; k <= nhelpers; k++)
        if (ps[k]) {
            hooks_remember(ps[k]->v, 0);
            tiers_pos_free(ps[k]);
        }
    if (rc < 0) {
        tiers_solution_free(s);
        return rc;
    }
    finish_info(s);
    *out = s;
    return 0;
}

/* ------------------------------------------------------------ reading */

void tiers_solution_info(const tiers_solution *s, tiers_solve_info *out) { *out = s->info; }

int64_t tiers_solution_count(const tiers_solution *s) { return s->n; }

const char *tiers_solution_text(const tiers_solution *s, int64_t i, int *value, int *dist)
{
    if (i < 0 || i >= s->n)
        return NULL;
    if (value)
        *value = s->value[i];
    if (dist)
        *dist = s->dist[i];
    return sol_text(s, i);
}

int tiers_solution_value(const tiers_solution *s, tiers_pos *p, int *dist)
{
    int64_t i = sol_lookup(s, p);
    if (dist)
        *dist = i >= 0 ? s->dist[i] : 0;
    return i >= 0 ? s->value[i] : TIERS_VALUE_UNKNOWN;
}

int tiers_solution_move_value(const tiers_solution *s, tiers_pos *p, const tiers_move *m,
                              int *dist)
{
    int mover = p->st.side, rc = make_move(p, m);
    if (rc < 0)
        return rc;
    int d, v = tiers_solution_value(s, p, &d), same = p->st.side == mover;
    unmake_move(p);
    if (!same && v == TIERS_VALUE_WIN)
        v = TIERS_VALUE_LOSS;
    else if (!same && v == TIERS_VALUE_LOSS)
        v = TIERS_VALUE_WIN;
    if (dist)
        *dist = v == TIERS_VALUE_WIN || v == TIERS_VALUE_LOSS ? d + 1 : 0;
    return v;
}

int tiers_solution_best(const tiers_solution *s, tiers_pos *p, tiers_move *out, int *dist)
{
    tiers_move *buf = malloc(TIERS_MAX_MOVES * sizeof *buf);
    if (!buf)
        return TIERS_ENOMEM;
    int n = status_legal(p, buf, TIERS_MAX_MOVES), best = -1, bv = 0, bd = 0;
    /* rank: a win (sooner is better), a draw, a loss (later is better),
       then unknown */
    for (int i = 0; i < n; i++) {
        int d, v = tiers_solution_move_value(s, p, &buf[i], &d);
        if (v < 0) {
            n = v;
            break;
        }
        int better;
        if (best < 0)
            better = 1;
        else if (v != bv) {
            static const int rank[] = {3, 0, 1, 2}; /* unknown, win, draw, loss */
            better = rank[v] < rank[bv];
        } else
            better = (v == TIERS_VALUE_WIN && d < bd) || (v == TIERS_VALUE_LOSS && d > bd);
        if (better) {
            best = i;
            bv = v;
            bd = d;
        }
    }
    if (n > 0 && best >= 0) {
        *out = buf[best];
        if (dist)
            *dist = bd;
    }
    free(buf);
    return n < 0 ? n : best < 0 ? 0 : bv;
}

/* ------------------------------------------------------------ files */

static const char value_letter[] = "?WDL";

/* One position's line, "V DIST TEXT": written with one fwrite where it
 * fits a buffer (fprintf would parse its format again for each of the
 * many lines). */
static void write_line(FILE *f, int value, int32_t dist, const char *text)
{
    char line[KEY_TEXT_MAX + 16];
    sbuf s = {line, sizeof line, 0, 0};
    sb_putc(&s, value_letter[value]);
    sb_putc(&s, ' ');
    sb_putint(&s, dist);
    sb_putc(&s, ' ');
    size_t head = s.len;
    sb_puts(&s, text);
    sb_putc(&s, '\n');
    if (!s.overflow) {
        fwrite(line, 1, s.len, f);
        return;
    }
    fwrite(line, 1, head, f); /* (a long text read from a file) */
    fputs(text, f);
    putc('\n', f);
}

int tiers_solution_write(const tiers_solution *s, FILE *f, tiers_error *err)
{
    fprintf(f, "%s\nvariant %s\nrules %s\npositions %lld\n", SOLVE_FORMAT, s->v->name,
            s->fingerprint, (long long)s->n);
    fprintf(f, "# value for the side to move (W win, D draw, L loss), plies to the end, "
               "position (tiers notation; clock and ply 0 outside a setup)\n");
    for (int64_t i = 0; i < s->n; i++)
        write_line(f, s->value[i], s->dist[i], sol_text(s, i));
    if (fflush(f) || ferror(f)) {
        set_err(err, "%s", strerror(errno));
        return TIERS_EINPUT;
    }
    return 0;
}

int tiers_solution_save(const tiers_solution *s, const char *path, tiers_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        set_err(err, "cannot write '%s': %s", path, strerror(errno));
        return TIERS_EINPUT;
    }
    int bad = tiers_solution_write(s, f, err) < 0;
    if (fclose(f) || bad) {
        set_err(err, "cannot write '%s': %s", path, strerror(errno));
        return TIERS_EINPUT;
    }
    return 0;
}

/* The longest line of a solution file (a position's text is far
 * shorter): a longer one is an error, never an allocation. */
enum { SOLVE_MAX_LINE = 64 << 10 };

/* Reads one line (without its newline) into *line, which it allocates
 * (SOLVE_MAX_LINE + 1 bytes); 1, 0 at the end, or -1 for a line over the
 * limit, holding a NUL byte or unreadable (*why says which). */
static int read_line(FILE *f, char **line, size_t *cap, const char **why)
{
    if (!*line) {
        *line = malloc(SOLVE_MAX_LINE + 1);
        if (!*line) {
            *why = "out of memory";
            return -1;
        }
        *cap = SOLVE_MAX_LINE + 1;
    }
    size_t n = 0;
    int ch;
    while ((ch = getc(f)) != EOF && ch != '\n') {
        if (n == SOLVE_MAX_LINE) {
            *why = "line over 65536 bytes (64 KiB, the limit of a line)";
            return -1;
        }
        if (ch == 0) {
            *why = "a NUL byte";
            return -1;
        }
        (*line)[n++] = (char)ch;
    }
    if (ch == EOF && ferror(f)) {
        *why = "read error";
        return -1;
    }
    if (ch == EOF && n == 0)
        return 0;
    while (n > 0 && (*line)[n - 1] == '\r')
        n--;
    (*line)[n] = 0;
    return 1;
}

int tiers_solution_load(const tiers_variant *v, const char *path, tiers_solution **out,
                        tiers_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f) {
        set_err(err, "cannot read '%s': %s", path, strerror(errno));
        return TIERS_EINPUT;
    }
    tiers_solution *s = sol_new(v);
    tiers_pos *p = s ? tiers_pos_new(v, 4, err) : NULL;
    char *line = NULL, name[MAX_NAME + 1] = "", rules[17] = "";
    uint8_t *packed = malloc(POS_PACK_MAX);
    size_t cap = 0;
    long long count = -1;
    int rc = p && packed ? 0 : TIERS_ENOMEM, lineno = 0;
    const char *why = NULL;
    lineno = 1;
    const char *bad = NULL; /* a line that cannot be read */
    if (!rc && (read_line(f, &line, &cap, &bad) <= 0 || strcmp(line, SOLVE_FORMAT)))
        why = bad ? bad : "not a tiers solution file (first line '" SOLVE_FORMAT "')";
    if (!rc && !why) {
        lineno = 2;
        int ok = read_line(f, &line, &cap, &bad) > 0 && sscanf(line, "variant %32s", name) == 1;
        if (ok) {
            lineno = 3;
            ok = read_line(f, &line, &cap, &bad) > 0 && sscanf(line, "rules %16s", rules) == 1;
        }
        if (ok) {
            lineno = 4;
            ok = read_line(f, &line, &cap, &bad) > 0 &&
                 sscanf(line, "positions %lld", &count) == 1;
        }
        if (!ok)
            why = bad ? bad : "bad header (variant, rules, positions)";
    }
    if (!rc && !why && strcmp(name, v->name)) {
        set_err(err, "%s: the solution is for variant %s, not %s", path, name, v->name);
        rc = TIERS_EINPUT;
    } else if (!rc && !why && strcmp(rules, s->fingerprint)) {
        set_err(err, "%s: the solution was made with other rules or options of %s "
                "(or other sources)", path, v->name);
        rc = TIERS_EINPUT;
    }
    int got;
    while (!rc && !why && (got = read_line(f, &line, &cap, &bad)) != 0) {
        lineno++;
        if (got < 0) {
            why = bad;
            break;
        }
        if (line[0] == '#' || !line[0])
            continue;
        const char *at = line[0] ? strchr(value_letter + 1, line[0]) : NULL;
        char *end;
        long d = at && line[1] == ' ' ? strtol(line + 2, &end, 10) : -1;
        if (!at || d < 0 || *end != ' ') {
            why = "expected 'W|D|L DISTANCE POSITION'";
            break;
        }
        tiers_error perr;
        if (tiers_pos_parse(p, end + 1, NULL, &perr) < 0) {
            set_err(err, "%s:%d: bad position: %s", path, lineno, perr.msg);
            rc = TIERS_EINPUT;
            break;
        }
        size_t plen;
        uint64_t key2 = pack_key(p, packed, &plen);
        int64_t i = sol_add(s, tiers_pos_hash(p), key2, end + 1, NULL, 0, p->st.side);
        if (i < 0) {
            rc = (int)i;
            break;
        }
        s->value[i] = (uint8_t)(at - value_letter);
        s->dist[i] = (int32_t)d;
    }
    if (!rc && !why && s->n != count)
        why = "the file holds fewer positions than its header says";
    if (why) {
        set_err(err, "%s:%d: %s", path, lineno, why);
        rc = TIERS_EINPUT;
    }
    if (rc == TIERS_ENOMEM)
        set_err(err, "out of memory");
    free(line);
    free(packed);
    fclose(f);
    tiers_pos_free(p);
    if (rc < 0) {
        tiers_solution_free(s);
        return rc;
    }
    for (int64_t i = 0; i < s->n; i++) {
        s->info.wins += s->value[i] == TIERS_VALUE_WIN;
        s->info.draws += s->value[i] == TIERS_VALUE_DRAW;
        s->info.losses += s->value[i] == TIERS_VALUE_LOSS;
    }
    finish_info(s);
    *out = s;
    return 0;
}
