/* test_jsonw.c - the CLI's streaming JSON writer (engine/cli/jsonw.c):
 * what it writes parses back with jansson to the values written, strings
 * with quotes, control characters and UTF-8 included; and writing the
 * lines of `moves --batch` allocates nothing (malloc, calloc and realloc
 * are wrapped by the linker and counted). */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "jsonw.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_parse_back),
        cmocka_unit_test(test_batch_lines_allocate_nothing),
        cmocka_unit_test(test_counter_sees_allocations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
