/* test_jsonw.c - the CLI's streaming JSON writer (engine/cli/jsonw.c):
 * what it writes parses back with jansson to the values written, strings
 * with quotes, control characters and UTF-8 included; and writing the
 * lines of `moves --batch` allocates nothing (malloc, calloc and realloc
 * are wrapped by the linker and counted).  Also the move lists those
 * lines are made of (engine/cli/movelist.c): sorted as strcmp sorts the
 * texts tiers_move_format writes, the line as jansson reads it, and no
 * allocation per position once the buffers exist. */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "jsonw.h"
#include "movelist.h"

/* ------------------------------------------------ allocation counting */

/* volatile: the compiler takes malloc for the C library's, which touches
 * no variable of ours, and would otherwise fold the counts away */
static volatile int counting;
static volatile long allocations;

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);

void *__wrap_malloc(size_t n)
{
    allocations += counting;
    return __real_malloc(n);
}

void *__wrap_calloc(size_t k, size_t n)
{
    allocations += counting;
    return __real_calloc(k, n);
}

void *__wrap_realloc(void *p, size_t n)
{
    allocations += counting;
    return __real_realloc(p, n);
}

/* ------------------------------------------------------------ helpers */

enum { OUT_SIZE = 1 << 20 };

/* A stream into a fixed buffer with a fixed stdio buffer of its own, so
 * that stdio itself allocates nothing while the writer writes. */
struct sink {
    char *text;
    char iobuf[4096];
    FILE *f;
};

static void sink_open(struct sink *s)
{
    s->text = calloc(OUT_SIZE, 1);
    assert_non_null(s->text);
    s->f = fmemopen(s->text, OUT_SIZE, "w");
    assert_non_null(s->f);
    assert_int_equal(setvbuf(s->f, s->iobuf, _IOFBF, sizeof s->iobuf), 0);
}

/* Closes the stream; the text stays in s->text (free it). */
static void sink_close(struct sink *s)
{
    assert_int_equal(fclose(s->f), 0);
}

static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    if (!j)
        fail_msg("jansson refused the writer's output at column %d: %s\n%s", e.column,
                 e.text, text);
    return j;
}

/* ------------------------------------------------------------- tests */

static const char *const nasty[] = {
    "plain",
    "",
    "quote \" and backslash \\ and slash /",
    "tab\tnewline\ncarriage\rbackspace\bformfeed\f",
    "\x01\x1f control and \x7f delete",
    "caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x82\xa1", /* é, a CJK sign, a card */
    "[S:S:R]4 - w - 0 0",
};
enum { NNASTY = (int)(sizeof nasty / sizeof nasty[0]) };

/* Every kind of value, nested, reads back as written. */
static void test_values_parse_back(void **state)
{
    (void)state;
    struct sink s;
    sink_open(&s);
    jsonw w;
    jsonw_init(&w, s.f);
    jsonw_begin_object(&w);
    jsonw_key(&w, "strings");
    jsonw_begin_array(&w);
    for (int i = 0; i < NNASTY; i++)
        jsonw_string(&w, nasty[i]);
    jsonw_end_array(&w);
    jsonw_key(&w, "min");
    jsonw_int(&w, LLONG_MIN);
    jsonw_key(&w, "max");
    jsonw_int(&w, LLONG_MAX);
    jsonw_key(&w, "rate");
    jsonw_double(&w, 0.25, 4);
    jsonw_key(&w, "nan");
    jsonw_double(&w, NAN, 2);
    jsonw_key(&w, "yes");
    jsonw_bool(&w, 1);
    jsonw_key(&w, "no");
    jsonw_bool(&w, 0);
    jsonw_key(&w, "none");
    jsonw_string(&w, NULL);
    jsonw_key(&w, "\"odd\nkey\"");
    jsonw_begin_object(&w);
    jsonw_key(&w, "empty");
    jsonw_begin_array(&w);
    jsonw_end_array(&w);
    jsonw_end_object(&w);
    jsonw_end_object(&w);
    sink_close(&s);

    assert_non_null(strstr(s.text, "\"rate\":0.2500"));
    json_t *j = parse(s.text);
    json_t *arr = json_object_get(j, "strings");
    assert_int_equal(json_array_size(arr), NNASTY);
    for (int i = 0; i < NNASTY; i++)
        assert_string_equal(json_string_value(json_array_get(arr, (size_t)i)), nasty[i]);
    assert_true(json_integer_value(json_object_get(j, "min")) == LLONG_MIN);
    assert_true(json_integer_value(json_object_get(j, "max")) == LLONG_MAX);
    assert_true(json_real_value(json_object_get(j, "rate")) == 0.25);
    assert_true(json_is_null(json_object_get(j, "nan")));
    assert_true(json_is_true(json_object_get(j, "yes")));
    assert_true(json_is_false(json_object_get(j, "no")));
    assert_true(json_is_null(json_object_get(j, "none")));
    json_t *odd = json_object_get(j, "\"odd\nkey\"");
    assert_true(json_is_object(odd));
    assert_int_equal(json_array_size(json_object_get(odd, "empty")), 0);
    json_decref(j);
    free(s.text);
}

enum { LINES = 500, MOVES = 60 };

/* One `moves --batch` line: the shape cmd_moves.c writes. */
static void write_moves_line(jsonw *w, FILE *f, const char *position,
                             char moves[][8], int n)
{
    jsonw_init(w, f);
    jsonw_begin_object(w);
    jsonw_key(w, "position");
    jsonw_string(w, position);
    jsonw_key(w, "moves");
    jsonw_begin_array(w);
    for (int i = 0; i < n; i++)
        jsonw_string(w, moves[i]);
    jsonw_end_array(w);
    jsonw_key(w, "in_check");
    jsonw_bool(w, n % 2);
    jsonw_key(w, "game_over");
    jsonw_bool(w, 0);
    jsonw_key(w, "result");
    jsonw_string(w, NULL);
    jsonw_key(w, "reason");
    jsonw_string(w, "");
    jsonw_end_object(w);
    fputc('\n', f);
}

/* Hundreds of batch lines cost no allocation, and each parses back. */
static void test_batch_lines_allocate_nothing(void **state)
{
    (void)state;
    static char moves[MOVES][8];
    for (int i = 0; i < MOVES; i++)
        snprintf(moves[i], sizeof moves[i], "%c%d-%c%d", 'a' + i % 9, 1 + i / 9,
                 'a' + (i + 1) % 9, 2 + i / 9);
    struct sink s;
    sink_open(&s);
    jsonw w;
    counting = 1;
    allocations = 0;
    for (int line = 0; line < LINES; line++)
        write_moves_line(&w, s.f, "9/9/9/9/9/9/9/9/9 - w - 0 0", moves, line % MOVES);
    counting = 0;
    assert_int_equal(allocations, 0);
    sink_close(&s);

    int line = 0;
    for (char *at = s.text, *nl; (nl = strchr(at, '\n')); at = nl + 1, line++) {
        *nl = '\0';
        json_t *j = parse(at);
        json_t *arr = json_object_get(j, "moves");
        assert_int_equal(json_array_size(arr), line % MOVES);
        for (int i = 0; i < line % MOVES; i++)
            assert_string_equal(json_string_value(json_array_get(arr, (size_t)i)), moves[i]);
        assert_true(json_is_null(json_object_get(j, "result")));
        json_decref(j);
    }
    assert_int_equal(line, LINES);
    free(s.text);
}

/* The counter counts: an allocation while counting is seen. */
static void test_counter_sees_allocations(void **state)
{
    (void)state;
    counting = 1;
    allocations = 0;
    void *volatile p = malloc(16);
    counting = 0;
    free(p);
    assert_int_equal(allocations, 1);
}

/* jsonw_quote_mem writes what jsonw_quoted writes: the nasty strings
 * and one holding every byte from 1 to 255. */
static void test_quote_mem_as_quoted(void **state)
{
    (void)state;
    char every[256], mem[6 * 256 + 2];
    for (int i = 1; i < 256; i++)
        every[i - 1] = (char)i;
    every[255] = 0;
    for (int i = 0; i <= NNASTY; i++) {
        const char *str = i < NNASTY ? nasty[i] : every;
        struct sink s;
        sink_open(&s);
        jsonw_quoted(s.f, str);
        sink_close(&s);
        size_t len = jsonw_quote_mem(mem, str);
        assert_true(len <= JSONW_QUOTED_MAX(strlen(str)));
        assert_int_equal(len, strlen(s.text));
        assert_memory_equal(mem, s.text, len);
        free(s.text);
    }
}

/* jsonw_quote_padded writes what jsonw_quote_mem writes, whatever byte
 * needs escaping at whatever place, and whatever follows the NUL. */
static void test_quote_padded_as_mem(void **state)
{
    (void)state;
    char src[64], want[6 * 64 + 2], got[6 * 64 + 2 + 8];
    for (int ch = 1; ch < 256; ch++)
        for (int at = 0; at < 20; at++)
            for (int len = at + 1; len < 24; len += 5) {
                memset(src, 'a', sizeof src); /* bytes past the NUL: not read as text */
                for (int i = 0; i < len; i++)
                    src[i] = (char)('b' + i % 20);
                src[at] = (char)ch;
                src[len] = 0;
                size_t n = jsonw_quote_mem(want, src);
                assert_int_equal(jsonw_quote_padded(got, src), n);
                assert_memory_equal(got, want, n);
            }
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The reference list: every legal move through tiers_move_format, sorted
 * by qsort and strcmp (what the CLI did before movelist.c). */
static int reference_list(tiers_pos *p, const char *notation, char ***out)
{
    tiers_move *moves = malloc(TIERS_MAX_MOVES * sizeof *moves);
    int n = tiers_pos_legal_moves(p, moves, TIERS_MAX_MOVES);
    assert_true(n >= 0);
    *out = calloc((size_t)n + 1, sizeof **out);
    for (int i = 0; i < n; i++) {
        char text[256];
        assert_true(tiers_move_format(p, &moves[i], notation, text, sizeof text) > 0);
        (*out)[i] = strdup(text);
    }
    qsort(*out, (size_t)n, sizeof **out, cmp_text);
    free(moves);
    return n;
}

/* The first `max` positions of an oracle file, parsed in `notation`. */
static int oracle_positions(const tiers_variant *v, const char *file, const char *notation,
                            tiers_pos **pos, int max)
{
    char **lines;
    int nl = tu_lines(tu_path(file), &lines), n = 0;
    for (int i = 0; i < nl; i++) {
        char *text = tu_json_string(lines[i], "position");
        if (n < max && text)
            pos[n++] = tu_pos(v, text, notation);
        free(text);
    }
    tu_free_strings(lines, nl);
    assert_true(n > 0);
    return n;
}

enum { ORACLE_MAX = 300 };

/* The lists of every oracle position (gungi-io, official) in the
 * dialect and in tiers text: the same texts in the same order as the
 * reference.  The official drops share their first 8 bytes ("新帥(1-"),
 * so the sort's tie-break is used, not only its keys. */
static void test_movelist_sorted_as_strcmp(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *file, *notation;
    } sets[] = {
        {"gungi-io", "data/oracle/gungi-io/positions.jsonl", "gungijs"},
        {"official", "data/oracle/official/positions.jsonl", "gungijs3"},
    };
    static tiers_pos *pos[ORACLE_MAX];
    movelist l;
    assert_int_equal(movelist_init(&l), 0);
    long lists = 0, moves = 0;
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
        tiers_variant *v = tu_variant(sets[k].variant);
        int n = oracle_positions(v, sets[k].file, sets[k].notation, pos, ORACLE_MAX);
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < 2; t++) {
                const char *notation = t ? "tiers" : sets[k].notation;
                char **want;
                int nw = reference_list(pos[i], notation, &want);
                assert_int_equal(movelist_make(&l, pos[i], notation, NULL), nw);
                for (int m = 0; m < nw; m++)
                    assert_string_equal(l.texts[m], want[m]);
                tu_free_strings(want, nw);
                lists++;
                moves += nw;
            }
            tiers_pos_free(pos[i]);
        }
        tiers_variant_free(v);
    }
    movelist_free(&l);
    assert_true(lists == 1200 && moves > 100000);
}

/* The JSON line of a position reads back as its status and its list. */
static void test_movelist_line_parses_back(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("official");
    static tiers_pos *pos[ORACLE_MAX];
    int n = oracle_positions(v, "data/oracle/official/positions.jsonl", "gungijs3", pos, 40);
    movelist l;
    assert_int_equal(movelist_init(&l), 0);
    for (int i = 0; i < n; i++) {
        tiers_status st;
        char text[1024];
        assert_true(tiers_pos_format(pos[i], "gungijs3", text, sizeof text) > 0);
        int nm = movelist_make(&l, pos[i], "gungijs3", &st);
        assert_true(nm >= 0);
        assert_int_equal(movelist_json(&l, text, &st), 0);
        assert_true(l.line_len > 0 && l.line[l.line_len - 1] == '\n');
        l.line[l.line_len - 1] = 0;
        json_t *j = parse(l.line);
        assert_string_equal(json_string_value(json_object_get(j, "position")), text);
        json_t *arr = json_object_get(j, "moves");
        assert_int_equal(json_array_size(arr), nm);
        for (int m = 0; m < nm; m++)
            assert_string_equal(json_string_value(json_array_get(arr, (size_t)m)),
                                l.texts[m]);
        assert_true(json_is_boolean(json_object_get(j, "in_check")));
        assert_int_equal(json_is_true(json_object_get(j, "in_check")), st.in_check);
        assert_int_equal(json_is_true(json_object_get(j, "game_over")), st.game_over);
        json_decref(j);
        tiers_pos_free(pos[i]);
    }
    movelist_free(&l);
    tiers_variant_free(v);
}

/* After a first list has grown the buffers, listing every oracle
 * position and building its line allocates nothing. */
static void test_movelist_allocates_nothing(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("gungi-io");
    static tiers_pos *pos[ORACLE_MAX];
    int n = oracle_positions(v, "data/oracle/gungi-io/positions.jsonl", "gungijs", pos,
                             ORACLE_MAX);
    movelist l;
    assert_int_equal(movelist_init(&l), 0);
    tiers_status st;
    long total = 0;
    for (int round = 0; round < 2; round++) {
        counting = round; /* round 0 grows the line buffer */
        allocations = 0;
        for (int i = 0; i < n; i++) {
            int nm = movelist_make(&l, pos[i], "gungijs", &st);
            assert_true(nm >= 0);
            assert_int_equal(movelist_json(&l, "a position", &st), 0);
            total += nm;
        }
        counting = 0;
    }
    assert_int_equal(allocations, 0);
    assert_true(total > 2 * 60000);
    for (int i = 0; i < n; i++)
        tiers_pos_free(pos[i]);
    movelist_free(&l);
    tiers_variant_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_parse_back),
        cmocka_unit_test(test_batch_lines_allocate_nothing),
        cmocka_unit_test(test_counter_sees_allocations),
        cmocka_unit_test(test_quote_mem_as_quoted),
        cmocka_unit_test(test_quote_padded_as_mem),
        cmocka_unit_test(test_movelist_sorted_as_strcmp),
        cmocka_unit_test(test_movelist_line_parses_back),
        cmocka_unit_test(test_movelist_allocates_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
