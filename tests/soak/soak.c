/* soak.c - the invariant soak (scripts/soak; not run by ctest): random
 * games over every variant, checking at every ply
 *
 *   - hashing: the position written in tiers notation and read back has
 *     the same text and the same hash as the one reached by making moves
 *     (incremental keys = keys computed from scratch), and so does a copy;
 *   - notation: the position written in each dialect reads back and is
 *     written the same; the legal moves, written in each notation, are all
 *     different (moves are read by comparing texts), and a sample of them
 *     read back with tiers_move_parse gives the same move;
 *   - make/unmake: every legal move made and unmade restores the text and
 *     the hash; the child of a sample of them also passes the hashing
 *     check; and unmaking a whole game returns to its start.
 *
 *   tiers_soak [--plies N] [--seed S] [--variants DIR] [--game-plies G]
 *              [--keep-going] [VARIANT...]
 *
 * N plies per variant (default 20000), played as games of at most G plies
 * (default 300) from the variant's start.  Without VARIANT: every variant
 * tiers_variants_list finds (the shipped ones, and --variants DIR).
 * Prints the plies checked per variant; on the first broken invariant it
 * prints the variant, the position, the move and what differs, and exits
 * 1.  With --keep-going it counts the broken invariants instead (at most
 * 20 per variant, each ending its game) and goes on; the exit code is 1
 * if there was any. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tiers.h"

enum { TEXT = 8192, SAMPLE = 8 };

typedef struct soak {
    const tiers_variant *v;
    tiers_pos *p, *q;
    const char *notations[8];
    int nnot;
    uint64_t rng;
    long plies, moves_checked, children_checked, parses_checked, games, broken;
    char where[TEXT]; /* the position being checked, for messages */
} soak;

static uint64_t next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static int keep_going;
static jmp_buf broken;

static void fail(const soak *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(const soak *s, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "soak: %s: invariant broken at ply %d of game %ld\n  position: %s\n  ",
            tiers_variant_name(s->v), tiers_pos_ply(s->p), s->games + 1, s->where);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (!keep_going)
        exit(1);
    longjmp(broken, 1); /* soak_variant counts it and starts a new game */
}

static const char *fen(soak *s, const tiers_pos *p, const char *notation, char *buf)
{
    int n = tiers_pos_format(p, notation, buf, TEXT);
    if (n < 0)
        fail(s, "the position cannot be written in %s (%d)", notation, n);
    return buf;
}

static int same_move(const tiers_move *a, const tiers_move *b)
{
    if (a->kind != b->kind || a->from != b->from || a->to != b->to || a->tier != b->tier ||
        a->piece != b->piece || a->effect != b->effect || a->flags != b->flags ||
        a->npath != b->npath || a->arg != b->arg)
        return 0;
    for (int i = 0; i < a->npath && i < 4; i++)
        if (a->path[i] != b->path[i])
            return 0;
    return 1;
}

/* Hashing and position round trips of p (s->p or a child of it). */
static void check_position(soak *s, tiers_pos *p)
{
    static char a[TEXT], b[TEXT];
    tiers_error err;
    fen(s, p, "tiers", a);
    if (tiers_pos_parse(s->q, a, "tiers", &err) < 0)
        fail(s, "its own text '%s' does not read: %s", a, err.msg);
    if (strcmp(fen(s, s->q, "tiers", b), a))
        fail(s, "'%s' reads back as '%s'", a, b);
    if (tiers_pos_hash(s->q) != tiers_pos_hash(p))
        fail(s, "hash %016" PRIx64 " after the moves, %016" PRIx64 " from the text '%s'",
             tiers_pos_hash(p), tiers_pos_hash(s->q), a);
    if (tiers_pos_copy(s->q, p) < 0 || tiers_pos_hash(s->q) != tiers_pos_hash(p) ||
        strcmp(fen(s, s->q, "tiers", b), a))
        fail(s, "a copy differs: '%s'", b);
    for (int k = 1; k < s->nnot; k++) {
        const char *n = s->notations[k];
        static char c[TEXT];
        if (tiers_pos_format(p, n, a, TEXT) < 0)
            continue; /* a dialect that cannot write this position */
        if (tiers_pos_parse(s->q, a, n, &err) < 0)
            fail(s, "%s text '%s' does not read back: %s", n, a, err.msg);
        if (strcmp(fen(s, s->q, n, c), a))
            fail(s, "%s text '%s' reads back as '%s'", n, a, c);
    }
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every legal move in every notation: written, all different; a sample
 * read back. */
static void check_notation(soak *s, tiers_move *moves, int n)
{
    static char texts[TIERS_MAX_MOVES][128];
    static char *sorted[TIERS_MAX_MOVES];
    tiers_error err;
    for (int k = 0; k < s->nnot; k++) {
        const char *nt = s->notations[k];
        for (int i = 0; i < n; i++) {
            int len = tiers_move_format(s->p, &moves[i], nt, texts[i], sizeof texts[i]);
            if (len <= 0)
                fail(s, "move %d of %d cannot be written in %s (%d)", i, n, nt, len);
            sorted[i] = texts[i];
        }
        qsort(sorted, (size_t)n, sizeof sorted[0], cmp_text);
        for (int i = 1; i < n; i++)
            if (!strcmp(sorted[i - 1], sorted[i]))
                fail(s, "two legal moves are written '%s' in %s", sorted[i], nt);
        for (int j = 0; j < SAMPLE && j < n; j++) {
            int i = n <= SAMPLE ? j : (int)(next(&s->rng) % (uint64_t)n);
            tiers_move m;
            if (tiers_move_parse(s->p, texts[i], nt, &m, &err) < 0)
                fail(s, "'%s' (%s) does not read back: %s", texts[i], nt, err.msg);
            if (!same_move(&m, &moves[i]))
                fail(s, "'%s' (%s) reads back as another move", texts[i], nt);
            s->parses_checked++;
        }
    }
}

/* Every legal move made and unmade; the children of a sample checked. */
static void check_moves(soak *s, tiers_move *moves, int n)
{
    static char before[TEXT], after[TEXT], text[128];
    uint64_t hash = tiers_pos_hash(s->p);
    fen(s, s->p, "tiers", before);
    for (int i = 0; i < n; i++) {
        tiers_move_format(s->p, &moves[i], NULL, text, sizeof text);
        int rc = tiers_make(s->p, &moves[i]);
        if (rc < 0)
            fail(s, "legal move '%s' does not make (%d)", text, rc);
        if (n <= SAMPLE || next(&s->rng) % (uint64_t)n < SAMPLE) {
            check_position(s, s->p);
            tiers_pos_status(s->p);
            s->children_checked++;
        }
        tiers_unmake(s->p);
        if (strcmp(fen(s, s->p, "tiers", after), before) || tiers_pos_hash(s->p) != hash)
            fail(s, "'%s' then unmake gives '%s'%s", text, after,
                 tiers_pos_hash(s->p) != hash ? " (hash differs)" : "");
        s->moves_checked++;
    }
}

/* One game from the start; returns the plies played. */
static long game(soak *s, long plies_left, int game_plies)
{
    static tiers_move moves[TIERS_MAX_MOVES];
    static char start[TEXT], end[TEXT];
    tiers_pos_reset(s->p);
    tiers_pos_seed(s->p, next(&s->rng));
    fen(s, s->p, "tiers", start);
    long played = 0;
    while (played < plies_left && played < game_plies) {
        fen(s, s->p, "tiers", s->where);
        check_position(s, s->p);
        tiers_status st = tiers_pos_status(s->p);
        int n = tiers_legal_moves(s->p, moves, TIERS_MAX_MOVES);
        if (n < 0)
            fail(s, "legal moves failed (%d): %s", n,
                 tiers_variant_script_error(s->v));
        if (st.game_over || n == 0)
            break;
        check_notation(s, moves, n);
        check_moves(s, moves, n);
        int rc = tiers_make(s->p, &moves[next(&s->rng) % (uint64_t)n]);
        if (rc < 0)
            fail(s, "the chosen move does not make (%d)", rc);
        played++;
        s->plies++;
    }
    for (long i = 0; i < played; i++)
        tiers_unmake(s->p);
    if (strcmp(fen(s, s->p, "tiers", end), start))
        fail(s, "unmaking the whole game (%ld plies) gives '%s', not '%s'", played, end, start);
    s->games++;
    return played;
}

static int soak_variant(const char *spec, const char *search, long plies, int game_plies,
                        uint64_t seed)
{
    tiers_error err;
    char msg[1400];
    tiers_variant *v = tiers_variant_load(spec, search, NULL, &err);
    if (!v) {
        fprintf(stderr, "soak: %s does not load: %s\n", spec,
                tiers_error_text(&err, msg, sizeof msg));
        return 1;
    }
    static soak s; /* static: it lives across the longjmp of --keep-going */
    s = (soak){.v = v, .rng = seed ? seed : 1};
    s.p = tiers_pos_new(v, game_plies + 8, &err);
    s.q = tiers_pos_new(v, game_plies + 8, &err);
    if (!s.p || !s.q) {
        fprintf(stderr, "soak: %s: no start position: %s\n", spec, err.msg);
        tiers_variant_free(v);
        return 1;
    }
    s.notations[s.nnot++] = "tiers";
    for (const char *const *d = tiers_variant_notations(v); d && *d && s.nnot < 8; d++)
        s.notations[s.nnot++] = *d;
    clock_t t0 = clock();
    if (setjmp(broken)) {
        /* --keep-going: the game is abandoned in a fresh position */
        tiers_pos_free(s.p);
        s.p = tiers_pos_new(v, game_plies + 8, &err);
        if (!s.p || ++s.broken >= 20)
            goto done;
        s.games++;
    }
    while (s.plies < plies) {
        long before = s.plies;
        game(&s, plies - s.plies, game_plies);
        if (s.plies == before)
            break; /* the start is already over */
    }
done:;
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("%-20s %9ld plies %6ld games %10ld moves made/unmade %8ld children %8ld "
           "parses  %.1f s%s\n", tiers_variant_name(v), s.plies, s.games, s.moves_checked,
           s.children_checked, s.parses_checked, secs, s.broken ? "  BROKEN INVARIANTS" : "");
    fflush(stdout);
    tiers_pos_free(s.q);
    tiers_pos_free(s.p);
    tiers_variant_free(v);
    return s.broken > 0;
}

typedef struct list {
    char dirs[64][1024];
    int n;
} list;

static void add(const char *name, const char *dir, const char *desc, void *ud)
{
    (void)name;
    list *l = ud;
    if (l->n < 64 && strncmp(desc, "(does not load", 14))
        snprintf(l->dirs[l->n++], sizeof l->dirs[0], "%s", dir);
    else if (l->n < 64)
        fprintf(stderr, "soak: skipping %s %s\n", dir, desc);
}

int main(int argc, char **argv)
{
    long plies = 20000;
    int game_plies = 300;
    uint64_t seed = 1;
    const char *search = NULL;
    int first = argc;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--plies") && i + 1 < argc)
            plies = atol(argv[++i]);
        else if (!strcmp(argv[i], "--game-plies") && i + 1 < argc)
            game_plies = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--variants") && i + 1 < argc)
            search = argv[++i];
        else if (!strcmp(argv[i], "--keep-going"))
            keep_going = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: tiers_soak [--plies N] [--seed S] [--game-plies G] "
                            "[--variants DIR] [--keep-going] [VARIANT...]\n");
            return 2;
        } else {
            first = i;
            break;
        }
    }
    if (plies <= 0 || game_plies <= 0)
        return 2;
    int bad = 0;
    if (first < argc) {
        for (int i = first; i < argc; i++)
            bad |= soak_variant(argv[i], search, plies, game_plies, seed + (uint64_t)i);
    } else {
        static list l;
        tiers_variants_list(search, add, &l);
        for (int i = 0; i < l.n; i++)
            bad |= soak_variant(l.dirs[i], search, plies, game_plies, seed + (uint64_t)i);
    }
    return bad;
}
