/* test_blog.c - the reference variant `blog` (variants/blog, spec in
 * shared/rules/blog.md): movement of every face and tier against a table
 * written by hand from the spec (tests/rules/blog/movement.txt), scenario
 * files for every effect, foul, option and the arrangement
 * (tests/rules/blog/, format in its README.md), perft
 * from the start and from play positions, and a random-playout soak with
 * make/unmake invariants (1000 games; 100 when TIERS_QUICK is set, as
 * scripts/test does for the sanitizer build). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ------------------------------------------------------------ variants */

/* Variants by their rule overrides ("" = as shipped), loaded once. */
enum { MAX_LOADED = 32 };
static struct {
    char rules[256];
    tiers_variant *v;
} loaded[MAX_LOADED];
static int nloaded;

static tiers_variant *blog_with(const char *rules)
{
    for (int i = 0; i < nloaded; i++)
        if (!strcmp(loaded[i].rules, rules))
            return loaded[i].v;
    char copy[256], *list[16];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", rules);
    for (char *save = NULL, *t = strtok_r(copy, " ", &save); t && n < 15;
         t = strtok_r(NULL, " ", &save))
        list[n++] = t;
    list[n] = NULL;
    tiers_error err;
    char msg[1024];
    tiers_variant *v = tiers_variant_load("blog", NULL, (const char *const *)list, &err);
    if (!v)
        fail_msg("loading blog with '%s': %s", rules, tiers_error_text(&err, msg, sizeof msg));
    assert_true(nloaded < MAX_LOADED);
    snprintf(loaded[nloaded].rules, sizeof loaded[nloaded].rules, "%s", rules);
    loaded[nloaded++].v = v;
    return v;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < nloaded; i++)
        tiers_variant_free(loaded[i].v);
    nloaded = 0;
    return 0;
}

/* ------------------------------------------------------------ movement */

/* Target squares (as a 81-char map) of the piece on e5 of p. */
static void targets_from(tiers_pos *p, const char *from, char *map)
{
    tiers_move buf[TIERS_MAX_MOVES];
    int n = tiers_legal_moves(p, buf, TIERS_MAX_MOVES);
    assert_true(n >= 0);
    memset(map, '.', 81);
    map[81] = 0;
    for (int i = 0; i < n; i++) {
        char text[64], sq[8];
        tiers_move_format(p, &buf[i], NULL, text, sizeof text);
        size_t fl = strlen(from);
        if (strncmp(text, from, fl) || (text[fl] != '-' && text[fl] != 'x' && text[fl] != '^'))
            continue;
        snprintf(sq, sizeof sq, "%s", text + fl + 1);
        sq[strspn(sq, "abcdefghi0123456789")] = 0;
        int file = sq[0] - 'a', rank = atoi(sq + 1) - 1;
        assert_true(file >= 0 && file < 9 && rank >= 0 && rank < 9);
        map[rank * 9 + file] = '*';
    }
}

/* The expected map of one line of movement.txt: offsets "dx,dy" or
 * slides "*dx,dy" in the mover's frame, from e5, for side 0 (facing
 * north) or side 1 (facing south: both offsets turn). */
static void expected_map(const char *spec, int side, char *map)
{
    memset(map, '.', 81);
    map[81] = 0;
    char copy[512];
    snprintf(copy, sizeof copy, "%s", spec);
    for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t;
         t = strtok_r(NULL, " \t", &save)) {
        int slide = *t == '*', dx, dy;
        if (sscanf(t + slide, "%d,%d", &dx, &dy) != 2)
            fail_msg("movement.txt: bad offset '%s'", t);
        if (side)
            dx = -dx, dy = -dy;
        for (int f = 4 + dx, r = 4 + dy; f >= 0 && f < 9 && r >= 0 && r < 9;
             f += dx, r += dy) {
            map[r * 9 + f] = '*';
            if (!slide)
                break;
        }
    }
}

/* Fillers under the piece at tiers 2 and 3: own pieces of other faces
 * that project no region. */
static const char *filler(const char *sym, int i, int side)
{
    static const char *const a[] = {"I", "E"}, *const b[] = {"V", "O"};
    static char buf[8];
    const char *f = sym[0] == 'I' || sym[0] == 'E' ? b[i] : a[i];
    snprintf(buf, sizeof buf, "%s", f);
    if (side)
        buf[0] = (char)(buf[0] - 'A' + 'a');
    return buf;
}

static void test_movement(void **state)
{
    (void)state;
    tiers_variant *v = blog_with("");
    char **lines;
    int n = tu_lines(tu_path("rules/blog/movement.txt"), &lines), checked = 0;
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        char face[32], sym[8];
        int tier, off;
        if (lines[i][0] == '#' ||
            sscanf(lines[i], "%31s %7s %d :%n", face, sym, &tier, &off) != 3)
            continue;
        for (int side = 0; side < 2; side++) {
            /* Black's Commander on a2, White's on i8: on no line of e5. */
            char tower[64] = "", fen[256], piece[8];
            snprintf(piece, sizeof piece, "%s", sym);
            if (side)
                piece[0] = (char)(piece[0] - 'A' + 'a');
            for (int k = 0; k < tier - 1; k++) {
                strcat(tower, filler(sym, k, side));
                strcat(tower, ":");
            }
            strcat(tower, piece);
            snprintf(fen, sizeof fen, "9/8k/9/9/4%s%s%s4/9/9/K8/9 - %c - 0 40",
                     tier > 1 ? "[" : "", tower, tier > 1 ? "]" : "", side ? 'w' : 'b');
            tiers_pos *p = tu_pos(v, fen, NULL);
            char got[82], want[82];
            targets_from(p, "e5", got);
            expected_map(lines[i] + off, side, want);
            if (strcmp(got, want)) {
                printf("%s tier %d (%s): %s\n  want %s\n  got  %s\n", face, tier,
                       side ? "white" : "black", fen, want, got);
                fail();
            }
            tiers_pos_free(p);
            checked++;
        }
    }
    tu_free_strings(lines, n);
    assert_int_equal(checked, 2 * 20 * 3); /* 20 faces, 3 tiers, 2 sides */
}

/* ------------------------------------------------------------ scenarios */

typedef struct scen {
    const char *file;
    int line;
    char name[200];
    tiers_variant *v;
    tiers_pos *p;
    uint32_t fired;  /* effects that fired in the last `play` */
    int failures;
} scen;

/* The names of the effects in mask, sorted as the variant lists them, or
 * "none". */
static void effect_names(const tiers_variant *v, uint32_t mask, char *out, size_t size)
{
    out[0] = 0;
    for (int e = 0; e < tiers_variant_effects(v) && e < 32; e++)
        if (mask >> e & 1) {
            if (out[0])
                strncat(out, " ", size - strlen(out) - 1);
            strncat(out, tiers_variant_effect_name(v, e), size - strlen(out) - 1);
        }
    if (!out[0])
        snprintf(out, size, "none");
}

/* The effects named in text ("none": no effect), as a mask; -1 if a name
 * is unknown. */
static int64_t effect_mask(const tiers_variant *v, char *text)
{
    int64_t mask = 0;
    for (char *save = NULL, *t = strtok_r(text, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (!strcmp(t, "none"))
            continue;
        int e = 0, ne = tiers_variant_effects(v);
        while (e < ne && strcmp(tiers_variant_effect_name(v, e), t))
            e++;
        if (e == ne)
            return -1;
        mask |= 1ll << e;
    }
    return mask;
}

static void scen_fail(scen *s, const char *fmt, const char *a, const char *b)
{
    printf("%s:%d: [%s] ", s->file, s->line, s->name);
    printf(fmt, a, b);
    printf("\n  position: %s\n", s->p ? tu_fen(s->p, NULL) : "(none)");
    s->failures++;
}

/* Legal moves joined by spaces (sorted), for messages. */
static char *all_moves(tiers_pos *p) { return tu_moves(p, NULL); }

static int legal(tiers_pos *p, const char *move)
{
    tiers_move m;
    tiers_error err;
    return tiers_move_parse(p, move, NULL, &m, &err) == 0;
}

/* The legal moves written with `prefix` (a square and then not a digit). */
static void moves_from(tiers_pos *p, const char *prefix, char *out, size_t size)
{
    char *all = all_moves(p);
    size_t pl = strlen(prefix);
    out[0] = 0;
    for (char *save = NULL, *t = strtok_r(all, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (!strncmp(t, prefix, pl) && !(t[pl] >= '0' && t[pl] <= '9')) {
            if (out[0])
                strncat(out, " ", size - strlen(out) - 1);
            strncat(out, t, size - strlen(out) - 1);
        }
    free(all);
}

static const char *result_name(const tiers_status *st)
{
    if (!st->game_over)
        return "none";
    return st->result == TIERS_WIN_0 ? "black" : st->result == TIERS_WIN_1 ? "white" : "draw";
}

static void scen_line(scen *s, char *cmd, char *arg)
{
    if (!strcmp(cmd, "rules")) {
        s->v = blog_with(arg);
        return;
    }
    if (!strcmp(cmd, "pos")) {
        tiers_error err;
        if (!s->v)
            s->v = blog_with("");
        tiers_pos_free(s->p);
        s->p = tiers_pos_new(s->v, 0, &err);
        if (tiers_pos_parse(s->p, arg, NULL, &err) < 0) {
            scen_fail(s, "bad position: %s%s", err.msg, "");
            tiers_pos_free(s->p);
            s->p = NULL;
        }
        return;
    }
    if (!s->p) {
        scen_fail(s, "'%s' before any position%s", cmd, "");
        return;
    }
    if (!strcmp(cmd, "has") || !strcmp(cmd, "lacks")) {
        int want = cmd[0] == 'h';
        for (char *save = NULL, *t = strtok_r(arg, " ", &save); t; t = strtok_r(NULL, " ", &save))
            if (legal(s->p, t) != want) {
                char *all = all_moves(s->p);
                scen_fail(s, want ? "'%s' is not legal; legal: %s" : "'%s' is legal%s", t,
                          want ? all : "");
                free(all);
            }
    } else if (!strcmp(cmd, "play")) {
        tiers_move m;
        tiers_error err;
        if (tiers_move_parse(s->p, arg, NULL, &m, &err) < 0) {
            char *all = all_moves(s->p);
            scen_fail(s, "cannot play '%s'; legal: %s", arg, all);
            free(all);
        } else {
            uint32_t before[32];
            int ne = tiers_variant_effects(s->v);
            for (int e = 0; e < ne && e < 32; e++)
                before[e] = tiers_pos_effect_count(s->p, e);
            if (tiers_make(s->p, &m) < 0)
                scen_fail(s, "make '%s' failed: %s", arg, tiers_variant_script_error(s->v));
            s->fired = 0;
            for (int e = 0; e < ne && e < 32; e++)
                s->fired |= (uint32_t)(tiers_pos_effect_count(s->p, e) != before[e]) << e;
        }
    } else if (!strcmp(cmd, "fired") || !strcmp(cmd, "vetoed")) {
        /* fired EFFECT...|none: what the last play fired; vetoed: the
           effects whose veto refused a move of this position */
        uint32_t got = s->fired;
        if (cmd[0] == 'v') {
            tiers_move buf[TIERS_MAX_MOVES];
            if (tiers_legal_moves(s->p, buf, TIERS_MAX_MOVES) < 0 ||
                !tiers_pos_vetoed(s->p, &got))
                scen_fail(s, "no veto record for this position%s%s", "", "");
        }
        char want_text[512], got_text[512];
        snprintf(want_text, sizeof want_text, "%s", arg);
        int64_t want = effect_mask(s->v, want_text);
        if (want < 0)
            scen_fail(s, "unknown effect in '%s'%s", arg, "");
        else if ((uint32_t)want != got) {
            effect_names(s->v, got, got_text, sizeof got_text);
            scen_fail(s, "effects are '%s', want '%s'", got_text, arg);
        }
    } else if (!strcmp(cmd, "fen")) {
        const char *got = tu_fen(s->p, NULL);
        if (strcmp(got, arg))
            scen_fail(s, "position is %s, want %s", got, arg);
    } else if (!strcmp(cmd, "from")) {
        /* from SQ = MOVES: exactly these legal moves start at SQ */
        char *eq = strstr(arg, "=");
        char got[4096], sq[8];
        if (!eq || sscanf(arg, "%7s", sq) != 1) {
            scen_fail(s, "bad 'from' line: %s%s", arg, "");
            return;
        }
        char *want = eq + 1;
        while (*want == ' ')
            want++;
        moves_from(s->p, sq, got, sizeof got);
        if (strcmp(got, want))
            scen_fail(s, "moves from here: %s\n  want: %s", got, want);
    } else if (!strcmp(cmd, "count")) {
        tiers_move buf[TIERS_MAX_MOVES];
        int n = tiers_legal_moves(s->p, buf, TIERS_MAX_MOVES);
        char got[32];
        snprintf(got, sizeof got, "%d", n);
        if (strcmp(got, arg))
            scen_fail(s, "%s legal moves, want %s", got, arg);
    } else if (!strcmp(cmd, "status")) {
        /* status RESULT [REASON]; "check" as the first word: in check */
        tiers_status st = tiers_pos_status(s->p);
        char got[256];
        snprintf(got, sizeof got, "%s%s%s%s", st.in_check ? "check " : "", result_name(&st),
                 st.game_over ? " " : "", st.game_over ? st.reason : "");
        if (strcmp(got, arg))
            scen_fail(s, "status is '%s', want '%s'", got, arg);
    } else {
        scen_fail(s, "unknown command '%s'%s", cmd, "");
    }
}

static int run_scenarios(const char *rel)
{
    char **lines;
    int n = tu_lines(tu_path(rel), &lines), count = 0;
    scen s = {.file = rel};
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        char *l = lines[i];
        s.line = i + 1; /* tu_lines drops empty lines: numbers are approximate */
        while (*l == ' ')
            l++;
        if (!*l || *l == '#')
            continue;
        if (!strncmp(l, "== ", 3)) {
            snprintf(s.name, sizeof s.name, "%s", l + 3);
            s.v = NULL;
            tiers_pos_free(s.p);
            s.p = NULL;
            count++;
            continue;
        }
        char *sp = strchr(l, ' ');
        char *arg = sp ? sp + 1 : l + strlen(l);
        if (sp)
            *sp = 0;
        while (*arg == ' ')
            arg++;
        scen_line(&s, l, arg);
    }
    tiers_pos_free(s.p);
    tu_free_strings(lines, n);
    if (s.failures)
        fail_msg("%s: %d failed checks", rel, s.failures);
    return count;
}

#define SCENARIO_TEST(fn, file, min)                                                    \
    static void fn(void **state)                                                        \
    {                                                                                   \
        (void)state;                                                                    \
        assert_true(run_scenarios("rules/blog/" file) >= (min));                        \
    }

SCENARIO_TEST(test_board, "board.txt", 4)
SCENARIO_TEST(test_regions, "regions.txt", 8)
SCENARIO_TEST(test_landlink, "landlink.txt", 4)
SCENARIO_TEST(test_exchange, "exchange.txt", 4)
SCENARIO_TEST(test_substitution, "substitution.txt", 4)
SCENARIO_TEST(test_betrayal, "betrayal.txt", 4)
SCENARIO_TEST(test_recovery, "recovery.txt", 4)
SCENARIO_TEST(test_rearrangement, "rearrangement.txt", 4)
SCENARIO_TEST(test_check, "check.txt", 4)
SCENARIO_TEST(test_fouls, "fouls.txt", 14)
SCENARIO_TEST(test_arrangement, "arrangement.txt", 6)
SCENARIO_TEST(test_options, "options.txt", 8)

/* ------------------------------------------------------------ perft */

static void test_perft_start(void **state)
{
    (void)state;
    tiers_pos *p = tu_pos(blog_with(""), NULL, NULL);
    assert_int_equal(tiers_perft(p, 1), 324);
    /* 324 * 324 less the 135 White Commander placements attacked by
       Black's first piece (a Hidden Dragon's file, a Prodigy's diagonals) */
    assert_int_equal(tiers_perft(p, 2), 104841);
    tiers_pos_free(p);
}

/* tests/rules/blog/perft.txt: "name | position | d1 d2 ..." */
static void test_perft_positions(void **state)
{
    (void)state;
    char **lines;
    int n = tu_lines(tu_path("rules/blog/perft.txt"), &lines), checked = 0;
    int quick = getenv("TIERS_QUICK") != NULL;
    for (int i = 0; i < n; i++) {
        if (lines[i][0] == '#')
            continue;
        char *name = strtok(lines[i], "|"), *fen = strtok(NULL, "|"), *counts = strtok(NULL, "|");
        assert_non_null(counts);
        while (*fen == ' ')
            fen++;
        fen[strcspn(fen, "|")] = 0;
        for (size_t k = strlen(fen); k && fen[k - 1] == ' '; k--)
            fen[k - 1] = 0;
        tiers_pos *p = tu_pos(blog_with(""), fen, NULL);
        int depth = 1;
        for (char *save = NULL, *t = strtok_r(counts, " ", &save); t;
             t = strtok_r(NULL, " ", &save), depth++) {
            if (quick && depth > 2)
                break;
            long long want = atoll(t), got = tiers_perft(p, depth);
            if (got != want) {
                printf("perft %s depth %d: got %lld, want %lld\n", name, depth, got, want);
                fail();
            }
            checked++;
        }
        tiers_pos_free(p);
    }
    tu_free_strings(lines, n);
    assert_true(checked >= 10);
}

/* ------------------------------------------------------------ soak */

static uint64_t next_rand(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* Random complete games from the empty start (arrangement included,
 * capped at 400 plies).  Every ply: unmake restores the position's text
 * and hash exactly, and making the move again gives the same position.
 * Every 8th ply also: the incremental hash equals the hash of the
 * position read afresh from its text, and the move's text reads back as
 * the same move (reading runs the whole generator). */
static void test_soak(void **state)
{
    (void)state;
    const char *q = getenv("TIERS_QUICK");
    int games = q && *q && strcmp(q, "0") ? 100 : 1000;
    tiers_variant *v = blog_with("");
    tiers_pos *p = tu_pos(v, NULL, NULL), *fresh = tu_pos(v, NULL, NULL);
    tiers_move *buf = malloc(TIERS_MAX_MOVES * sizeof *buf);
    uint64_t rng = 0x2545f4914f6cdd1dull;
    long long plies = 0, setup_plies = 0, ended = 0, reasons[4] = {0};
    const char *reason_names[4] = {"checkmate", "stalemate", "repetition", "royal captured"};
    uint32_t fired0[32];
    int ne = tiers_variant_effects(v);
    for (int e = 0; e < ne && e < 32; e++)
        fired0[e] = tiers_pos_effect_count(p, e);
    tiers_pos_seed(p, 7);
    for (int g = 0; g < games; g++) {
        tiers_pos_reset(p);
        int ply = 0;
        for (; ply < 400; ply++) {
            int n = tiers_legal_moves(p, buf, TIERS_MAX_MOVES);
            if (n < 0)
                fail_msg("game %d ply %d: generation failed: %s", g, ply,
                         tiers_variant_script_error(v));
            if (n == 0) {
                tiers_status st = tiers_pos_status(p);
                assert_true(st.game_over);
                ended++;
                for (int r = 0; r < 4; r++)
                    reasons[r] += !strcmp(st.reason, reason_names[r]);
                break;
            }
            const tiers_move *m = &buf[next_rand(&rng) % (uint64_t)n];
            char before[2048], after[2048], text[128];
            uint64_t h0 = tiers_pos_hash(p);
            snprintf(before, sizeof before, "%s", tu_fen(p, NULL));
            setup_plies += strstr(before, " - ") == NULL; /* setup field "-": play */
            tiers_move_format(p, m, NULL, text, sizeof text);
            if (ply % 8 == 0) {
                tiers_move back;
                tiers_error err;
                if (tiers_move_parse(p, text, NULL, &back, &err) < 0 ||
                    memcmp(&back, m, sizeof back))
                    fail_msg("game %d ply %d: '%s' does not read back (%s)", g, ply, text,
                             before);
            }
            assert_int_equal(tiers_make(p, m), 0);
            uint64_t h1 = tiers_pos_hash(p);
            snprintf(after, sizeof after, "%s", tu_fen(p, NULL));
            assert_int_equal(tiers_unmake(p), 0);
            if (tiers_pos_hash(p) != h0 || strcmp(before, tu_fen(p, NULL)))
                fail_msg("game %d ply %d: unmake of %s from %s gave %s", g, ply, text, before,
                         tu_fen(p, NULL));
            assert_int_equal(tiers_make(p, m), 0);
            if (tiers_pos_hash(p) != h1)
                fail_msg("game %d ply %d: %s made twice differs: %s", g, ply, text, after);
            if (ply % 8 == 0) {
                tiers_error err;
                if (tiers_pos_parse(fresh, after, NULL, &err) < 0)
                    fail_msg("game %d ply %d: text does not read back: %s", g, ply, after);
                if (tiers_pos_hash(fresh) != h1)
                    fail_msg("game %d ply %d: incremental hash differs after %s: %s", g, ply,
                             text, after);
            }
        }
        plies += ply;
    }
    printf("blog soak: %d games, %lld plies (%lld in the arrangement), %lld ended "
           "(checkmate %lld, stalemate %lld, repetition %lld, royal captured %lld)\n",
           games, plies, setup_plies, ended, reasons[0], reasons[1], reasons[2], reasons[3]);
    printf("  effects that fired (each move is made twice):");
    for (int e = 0; e < ne && e < 32; e++)
        printf(" %s %u", tiers_variant_effect_name(v, e), tiers_pos_effect_count(p, e) - fired0[e]);
    printf("\n");
    assert_true(plies > (long long)games * 46); /* the arrangement alone is 46 plies */
    free(buf);
    tiers_pos_free(fresh);
    tiers_pos_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_movement),
        cmocka_unit_test(test_board),
        cmocka_unit_test(test_regions),
        cmocka_unit_test(test_landlink),
        cmocka_unit_test(test_exchange),
        cmocka_unit_test(test_substitution),
        cmocka_unit_test(test_betrayal),
        cmocka_unit_test(test_recovery),
        cmocka_unit_test(test_rearrangement),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_fouls),
        cmocka_unit_test(test_arrangement),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_perft_positions),
        cmocka_unit_test(test_soak),
    };
    /* TIERS_TEST_FILTER=test_fouls runs one while working (testutil.h) */
    return tu_run_tests(tests, NULL, teardown);
}
