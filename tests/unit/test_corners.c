/* test_corners.c - the four corners of the largest board (16x16), whose
 * last square p16 is square 255: that was also TIERS_NO_SQUARE once, so Lua
 * hooks saw move.to == nil there, the gungijs3 writer dereferenced NULL on
 * a drop there and the gounki dialect failed.  Every notation a variant
 * offers and the Lua API (tests/data/variants/corners16/corners.lua, whose
 * hooks fail on any square that is not a name) are tried at each corner of
 * corners16 (16x16), corners16-moves (no drops: gounki) and of
 * corners9x16 (9 files, the most the gungi.js dialects take; the loader refuses them on wider boards, see
 * tests/data/bad_yaml/notation_too_wide*.yaml).  The gungi.js move writers
 * are also run on the 16x16 board directly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#include "core.h"
#include "notation.h"

/* The moves each notation writes (the others are TIERS_EUSAGE).  An
 * effect's move is written by its format hook in every notation; gounki
 * has no drops (and is refused for a variant that has them). */
static int writes_kind(const char *notation, int kind)
{
    if (!strcmp(notation, "gounki"))
        return kind == TIERS_MV_MOVE || kind == TIERS_MV_STACK || kind == TIERS_MV_CAPTURE ||
               kind == TIERS_MV_DEPLOY || kind == TIERS_MV_EFFECT;
    return 1;
}

static int same_move(const tiers_move *a, const tiers_move *b)
{
    return a->kind == b->kind && a->from == b->from && a->to == b->to && a->piece == b->piece &&
           a->effect == b->effect && a->flags == b->flags && a->npath == b->npath;
}

/* Position text of a files x ranks board with tok[sq] on the squares that
 * hold something (a token or a [tower]), then `rest` (hands and the rest). */
static void board_text(char *buf, size_t size, int files, int ranks,
                       const char *const tok[TIERS_MAX_SQUARES], const char *rest)
{
    size_t n = 0;
    for (int r = ranks - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < files; f++) {
            const char *t = tok[r * 16 + f];
            if (!t) {
                empty++;
                continue;
            }
            if (empty)
                n += (size_t)snprintf(buf + n, size - n, "%d", empty);
            empty = 0;
            n += (size_t)snprintf(buf + n, size - n, "%s", t);
        }
        if (empty)
            n += (size_t)snprintf(buf + n, size - n, "%d", empty);
        n += (size_t)snprintf(buf + n, size - n, "%s", r ? "/" : " ");
    }
    snprintf(buf + n, size - n, "%s", rest);
    assert_true(n < size);
}

static void corners_of(const tiers_variant *v, int c[4])
{
    int f = tiers_variant_files(v) - 1, r = tiers_variant_ranks(v) - 1;
    c[0] = 0;
    c[1] = f;
    c[2] = r * 16;
    c[3] = r * 16 + f;
}

static int opposite(const int c[4], int sq)
{
    return sq == c[0] ? c[3] : sq == c[3] ? c[0] : sq == c[1] ? c[2] : c[1];
}

static const char *sqname(int sq, char buf[8])
{
    return tiers_square_name(sq_file(sq), sq_rank(sq), buf);
}

/* m written in notation and read back is m again (or the notation has no
 * way to write that kind of move). */
static void round_trip(tiers_pos *p, const tiers_move *m, const char *notation)
{
    char text[256], msg[1024];
    tiers_move back;
    tiers_error err;
    int rc = tiers_move_format(p, m, notation, text, sizeof text);
    if (!writes_kind(notation, m->kind)) {
        assert_int_equal(rc, TIERS_EUSAGE);
        return;
    }
    if (rc < 0)
        fail_msg("%s: kind %d from %d to %d: rc %d", notation, m->kind, m->from, m->to, rc);
    rc = tiers_move_parse(p, text, notation, &back, &err);
    if (rc != 0)
        fail_msg("%s: '%s' does not read back: %s", notation, text,
                 tiers_error_text(&err, msg, sizeof msg));
    if (!same_move(m, &back))
        fail_msg("%s: '%s' reads back as another move (to %d, not %d)", notation, text,
                 back.to, m->to);
}

static const tiers_move *find(const tiers_move *buf, int n, int kind, int from, int to)
{
    for (int i = 0; i < n; i++)
        if (buf[i].kind == kind && buf[i].from == from && buf[i].to == to)
            return &buf[i];
    return NULL;
}

/* Every legal move: made, its target seen by the `after` hook (var 1 =
 * 1 + the square), unmade to the same position; written in every notation
 * the variant offers and read back. */
static void check_every_move(tiers_pos *p, const tiers_move *buf, int n)
{
    const char *const *notations = tiers_variant_notations(tiers_pos_variant(p));
    uint64_t before = tiers_pos_hash(p);
    for (int i = 0; i < n; i++) {
        assert_int_equal(tiers_pos_make(p, &buf[i]), 0);
        assert_int_equal(p->st.vars[0], buf[i].to + 1);
        assert_int_equal(tiers_pos_unmake(p), 0);
        assert_true(tiers_pos_hash(p) == before);
        round_trip(p, &buf[i], "tiers");
        for (int k = 0; notations[k]; k++)
            round_trip(p, &buf[i], notations[k]);
    }
}

/* A king on each corner in turn (the other king in the middle, a rook in
 * each hand).  By hand: the king's 3 steps, the hop to the opposite
 * corner, and with drops a drop on every square (onto the two kings too):
 * files x ranks + 4 moves. */
static void moves_from_corners(const char *variant, int drops)
{
    tiers_variant *v = tu_variant(variant);
    int files = tiers_variant_files(v), ranks = tiers_variant_ranks(v), c[4];
    corners_of(v, c);
    tiers_move *buf = malloc(TIERS_MAX_MOVES * sizeof *buf);
    for (int k = 0; k < 4; k++) {
        const char *tok[TIERS_MAX_SQUARES] = {0};
        char text[512], name[8], hop[32], got[32];
        tok[c[k]] = "K";
        tok[(ranks / 2) * 16 + files / 2] = "k";
        board_text(text, sizeof text, files, ranks, tok, "Rr w - 0 0");
        tiers_pos *p = tu_pos(v, text, NULL);
        int n = tiers_pos_legal_moves(p, buf, TIERS_MAX_MOVES);
        assert_int_equal(n, (drops ? files * ranks : 0) + 4);
        int df = sq_file(c[k]) ? -1 : 1, dr = sq_rank(c[k]) ? -1 : 1;
        assert_non_null(find(buf, n, TIERS_MV_MOVE, c[k], c[k] + df));
        assert_non_null(find(buf, n, TIERS_MV_MOVE, c[k], c[k] + 16 * dr));
        assert_non_null(find(buf, n, TIERS_MV_MOVE, c[k], c[k] + 16 * dr + df));
        for (int j = 0; drops && j < 4; j++)
            assert_non_null(find(buf, n, TIERS_MV_DROP, TIERS_NO_SQUARE, c[j]));
        const tiers_move *m = find(buf, n, TIERS_MV_EFFECT, c[k], opposite(c, c[k]));
        assert_non_null(m);
        snprintf(hop, sizeof hop, "hop:%s>", sqname(c[k], name));
        strcat(hop, sqname(opposite(c, c[k]), name));
        assert_true(tiers_move_format(p, m, NULL, got, sizeof got) > 0);
        assert_string_equal(got, hop);
        check_every_move(p, buf, n);
        /* the hop lands: the king is on the opposite corner */
        assert_int_equal(tiers_pos_make(p, m), 0);
        int o = opposite(c, c[k]);
        assert_int_equal(tiers_pos_height(p, sq_file(o), sq_rank(o)), 1);
        assert_int_equal(tiers_pos_height(p, sq_file(c[k]), sq_rank(c[k])), 0);
        tiers_pos_free(p);
    }
    free(buf);
    tiers_variant_free(v);
}

static void test_moves_from_corners_16(void **state)
{
    (void)state;
    moves_from_corners("corners16", 1);
}

static void test_moves_from_corners_gounki(void **state)
{
    (void)state;
    moves_from_corners("corners16-moves", 0);
}

static void test_moves_from_corners_9x16(void **state)
{
    (void)state;
    moves_from_corners("corners9x16", 1);
}

/* Into each corner: a king next to it captures the enemy rook there, or
 * stacks on it, and (with drops) a rook dropped on it lands on the tower. */
static void moves_into_corners(const char *variant, int drops)
{
    tiers_variant *v = tu_variant(variant);
    int files = tiers_variant_files(v), ranks = tiers_variant_ranks(v), c[4];
    corners_of(v, c);
    tiers_move *buf = malloc(TIERS_MAX_MOVES * sizeof *buf);
    for (int k = 0; k < 4; k++) {
        const char *tok[TIERS_MAX_SQUARES] = {0};
        char text[512];
        int df = sq_file(c[k]) ? -1 : 1, dr = sq_rank(c[k]) ? -1 : 1;
        int next = c[k] + 16 * dr + df;
        tok[c[k]] = "r";
        tok[next] = "K";
        tok[(ranks / 2) * 16 + files / 2] = "k";
        board_text(text, sizeof text, files, ranks, tok, "R w - 0 0");
        tiers_pos *p = tu_pos(v, text, NULL);
        int n = tiers_pos_legal_moves(p, buf, TIERS_MAX_MOVES);
        assert_true(n > 0);
        const tiers_move *cap = find(buf, n, TIERS_MV_CAPTURE, next, c[k]);
        assert_non_null(cap);
        assert_non_null(find(buf, n, TIERS_MV_STACK, next, c[k]));
        assert_true(!drops || find(buf, n, TIERS_MV_DROP, TIERS_NO_SQUARE, c[k]));
        check_every_move(p, buf, n);
        assert_int_equal(tiers_pos_make(p, cap), 0);
        assert_int_equal(p->st.vars[0], c[k] + 1);
        assert_int_equal(tiers_pos_height(p, sq_file(c[k]), sq_rank(c[k])), 1);
        tiers_pos_free(p);
    }
    free(buf);
    tiers_variant_free(v);
}

static void test_moves_into_corners_16(void **state)
{
    (void)state;
    moves_into_corners("corners16", 1);
}

static void test_moves_into_corners_gounki(void **state)
{
    (void)state;
    moves_into_corners("corners16-moves", 0);
}

static void test_moves_into_corners_9x16(void **state)
{
    (void)state;
    moves_into_corners("corners9x16", 1);
}

/* A position with towers on the four corners reads back from its text in
 * every notation the variant offers. */
static void positions_at_corners(const char *variant)
{
    tiers_variant *v = tu_variant(variant);
    int files = tiers_variant_files(v), ranks = tiers_variant_ranks(v), c[4];
    corners_of(v, c);
    const char *tok[TIERS_MAX_SQUARES] = {0};
    char text[512], again[512], msg[1024];
    tok[c[0]] = "K";
    tok[c[1]] = "r";
    tok[c[2]] = "[R:k]";
    tok[c[3]] = "[r:R:r]";
    board_text(text, sizeof text, files, ranks, tok, "- b - 3 9");
    tiers_pos *p = tu_pos(v, text, NULL), *q = tu_pos(v, NULL, NULL);
    const char *const *notations = tiers_variant_notations(v);
    for (int k = -1; k < 0 || notations[k]; k++) {
        const char *nt = k < 0 ? "tiers" : notations[k];
        tiers_error err;
        assert_true(tiers_pos_format(p, nt, text, sizeof text) > 0);
        if (tiers_pos_parse(q, text, nt, &err) != 0)
            fail_msg("%s: '%s' does not read back: %s", nt, text,
                     tiers_error_text(&err, msg, sizeof msg));
        assert_true(tiers_pos_format(q, nt, again, sizeof again) > 0);
        assert_string_equal(again, text);
        assert_int_equal(tiers_pos_height(q, sq_file(c[3]), sq_rank(c[3])), 3);
    }
    tiers_pos_free(p);
    tiers_pos_free(q);
    tiers_variant_free(v);
}

static void test_positions_16(void **state)
{
    (void)state;
    positions_at_corners("corners16");
}

static void test_positions_9x16(void **state)
{
    (void)state;
    positions_at_corners("corners9x16");
}

/* The gungi.js move writers on the 16x16 board (which no variant may
 * enable them on, for their positions, but their moves have no limit):
 * texts worked out from the formats at the head of dialect_gungijs.c and
 * dialect_gungijs3.c. */
static void test_gungijs_writers_16(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("corners16");
    tiers_pos *p = tu_pos(v, "15K/16/16/16/16/16/16/7k8/16/16/16/16/16/16/16/16 Rr w - 0 0",
                          NULL);
    const dialect *js = notation_dialect("gungijs"), *js3 = notation_dialect("gungijs3");
    tiers_move buf[TIERS_MAX_MOVES];
    char text[128];
    int n = tiers_pos_legal_moves(p, buf, TIERS_MAX_MOVES);
    static const struct {
        int kind, from, to;
        const char *js, *js3;
    } want[] = {
        {TIERS_MV_DROP, TIERS_NO_SQUARE, 0, "r*1-1", "新R(1-1-1)"},
        {TIERS_MV_DROP, TIERS_NO_SQUARE, 15, "r*1-16", "新R(1-16-1)"},
        {TIERS_MV_DROP, TIERS_NO_SQUARE, 240, "r*16-1", "新R(16-1-1)"},
        {TIERS_MV_DROP, TIERS_NO_SQUARE, 255, "r*16-16", "新R(16-16-2)付"},
        {TIERS_MV_MOVE, 255, 254, "16-16>16-15", "K(16-16-1)(16-15-1)"},
        {TIERS_MV_MOVE, 255, 239, "16-16>15-16", "K(16-16-1)(15-16-1)"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const tiers_move *m = find(buf, n, want[i].kind, want[i].from, want[i].to);
        assert_non_null(m);
        /* -1: corners16 does not list the dialects, so its own symbols */
        assert_true(js->format_move(p, m, -1, text, sizeof text) > 0);
        assert_string_equal(text, want[i].js);
        assert_true(js3->format_move(p, m, -1, text, sizeof text) > 0);
        assert_string_equal(text, want[i].js3);
    }
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* The other dialects' texts at p16 and a1, by hand: gounki squares are
 * tiers squares; gufuu numbers files from the right and letters ranks
 * from the top (p16 = 1a, a1 = 16p). */
static void test_dialect_texts_16(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("corners16");
    tiers_pos *p = tu_pos(v, "15K/16/16/16/16/16/16/7k8/16/16/16/16/16/16/16/K15 Rr w - 0 0",
                          NULL);
    static const char *const want[][2] = {
        {"gufuu", "1a-2b"},
        {"gufuu", "16p-15o"}, {"gufuu", "R*1a"}, {"gufuu", "R*16p"},
        {"tiers", "R*p16"}, {"tiers", "hop:p16>a1"}, {"tiers", "hop:a1>p16"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!tu_has_move(p, want[i][1], want[i][0]))
            fail_msg("%s: no move '%s' in %s", want[i][0], want[i][1], tu_moves(p, want[i][0]));
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* Gounki squares are tiers squares; the hop, an effect's move, is written
 * by its format hook in gounki too. */
static void test_dialect_texts_gounki(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("corners16-moves");
    tiers_pos *p = tu_pos(v, "15K/16/16/16/16/16/16/7k8/16/16/16/16/16/16/16/K15 Rr w - 0 0",
                          NULL);
    static const char *const want[] = {"p16-o15", "a1-b2", "hop:p16>a1", "hop:a1>p16"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!tu_has_move(p, want[i], "gounki"))
            fail_msg("gounki: no move '%s' in %s", want[i], tu_moves(p, "gounki"));
    assert_false(tu_has_move(p, "R*p16", "tiers")); /* no drops */
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* A dialect that cannot write a drop is refused for a variant with drops,
 * at the notations entry; without drops the same list loads. */
static void test_gounki_refused_with_drops(void **state)
{
    (void)state;
    char dir[] = "/tmp/tiers_corners_XXXXXX", path[256], msg[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "name: g\ninherits: %s\nnotations: [gufuu, gounki]\n",
            tu_path("data/variants/corners16"));
    fclose(f);
    tiers_error err;
    tiers_variant *v = tiers_variant_load(path, NULL, NULL, &err);
    assert_null(v);
    tiers_error_text(&err, msg, sizeof msg);
    assert_non_null(strstr(msg, "variant.yaml:3:20: notation 'gounki' in notations[1] has no "
                                "way to write a drop"));
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "name: g\ninherits: %s\nnotations: [gufuu, gounki]\n"
            "drops: {enabled: false}\n", tu_path("data/variants/corners16"));
    fclose(f);
    v = tiers_variant_load(path, NULL, NULL, &err);
    assert_non_null(v);
    tiers_variant_free(v);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_from_corners_16),
        cmocka_unit_test(test_moves_from_corners_9x16),
        cmocka_unit_test(test_moves_from_corners_gounki),
        cmocka_unit_test(test_moves_into_corners_gounki),
        cmocka_unit_test(test_dialect_texts_gounki),
        cmocka_unit_test(test_gounki_refused_with_drops),
        cmocka_unit_test(test_moves_into_corners_16),
        cmocka_unit_test(test_moves_into_corners_9x16),
        cmocka_unit_test(test_positions_16),
        cmocka_unit_test(test_positions_9x16),
        cmocka_unit_test(test_gungijs_writers_16),
        cmocka_unit_test(test_dialect_texts_16),
    };
    return tu_run_tests(tests, NULL, NULL);
}
