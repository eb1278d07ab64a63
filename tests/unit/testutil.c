/* testutil.c - helpers shared by the cmocka test programs. */
#include "testutil.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tu_path(const char *rel)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", TIERS_TEST_DIR, rel);
    return buf;
}

tiers_variant *tu_variant(const char *spec)
{
    tiers_error err;
    char msg[1024];
    tiers_variant *v = tiers_variant_load(spec, TIERS_TEST_DIR "/data/variants", NULL, &err);
    if (!v)
        fail_msg("loading %s: %s", spec, tiers_error_text(&err, msg, sizeof msg));
    return v;
}

tiers_pos *tu_pos(const tiers_variant *v, const char *text, const char *notation)
{
    tiers_error err;
    char msg[1024];
    tiers_pos *p = tiers_pos_new(v, 0, &err);
    if (!p)
        fail_msg("new position: %s", tiers_error_text(&err, msg, sizeof msg));
    if (text && tiers_pos_parse(p, text, notation, &err) < 0)
        fail_msg("parsing '%s': %s", text, tiers_error_text(&err, msg, sizeof msg));
    return p;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *tu_moves(tiers_pos *p, const char *notation)
{
    tiers_move *buf = malloc(TIERS_MAX_MOVES * sizeof *buf);
    int n = tiers_legal_moves(p, buf, TIERS_MAX_MOVES);
    if (n < 0) {
        fail_msg("move generation failed: %d %s", n,
                 tiers_variant_script_error(tiers_pos_variant(p)));
        n = 0;
    }
    char **s = calloc((size_t)n + 1, sizeof *s);
    size_t total = 1;
    for (int i = 0; i < n; i++) {
        char tmp[256];
        tiers_move_format(p, &buf[i], notation, tmp, sizeof tmp);
        s[i] = strdup(tmp);
        total += strlen(tmp) + 1;
    }
    qsort(s, (size_t)n, sizeof *s, cmp_str);
    char *out = calloc(total, 1);
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, s[i]);
        free(s[i]);
    }
    free(s);
    free(buf);
    return out;
}

int tu_has_move(tiers_pos *p, const char *move, const char *notation)
{
    tiers_move m;
    tiers_error err;
    return tiers_move_parse(p, move, notation, &m, &err) == 0;
}

void tu_play(tiers_pos *p, const char *move, const char *notation)
{
    tiers_move m;
    tiers_error err;
    if (tiers_move_parse(p, move, notation, &m, &err) < 0) {
        char *all = tu_moves(p, notation);
        fail_msg("move '%s' rejected: %s; legal: %s", move, err.msg, all);
    }
    assert_int_equal(tiers_make(p, &m), 0);
}

const char *tu_fen(const tiers_pos *p, const char *notation)
{
    static char buf[4096];
    if (tiers_pos_format(p, notation, buf, sizeof buf) < 0)
        fail_msg("formatting the position failed");
    return buf;
}

char *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    buf[n] = 0;
    if (len)
        *len = (size_t)n;
    return buf;
}

/* ------------------------------------------------------------ JSON */

/* The last line parsed: the oracle tests read several fields of a line in
 * turn, and parsing it once keeps them as fast as before jansson. */
static char *parsed_text;
static json_t *parsed_root;

/* The value of the top-level field `key` of the JSON object on line (NULL
 * if there is none); *root is the parsed line, for json_decref.  A line
 * that is not JSON fails the test. */
static json_t *json_field(const char *line, const char *key, json_t **root)
{
    if (!parsed_text || strcmp(parsed_text, line)) {
        json_error_t e;
        json_t *fresh = json_loads(line, 0, &e);
        if (!fresh)
            fail_msg("not JSON at column %d: %s\n%s", e.column, e.text, line);
        json_decref(parsed_root);
        free(parsed_text);
        parsed_root = fresh;
        parsed_text = strdup(line);
    }
    *root = json_incref(parsed_root);
    return json_object_get(*root, key);
}

char *tu_json_string(const char *line, const char *key)
{
    json_t *root, *v = json_field(line, key, &root);
    char *out = json_is_string(v) ? strdup(json_string_value(v)) : NULL;
    json_decref(root);
    return out;
}

int tu_json_bool(const char *line, const char *key)
{
    json_t *root, *v = json_field(line, key, &root);
    int out = json_is_boolean(v) ? json_is_true(v) : -1;
    json_decref(root);
    return out;
}

int tu_json_strings(const char *line, const char *key, char ***out)
{
    json_t *root, *v = json_field(line, key, &root);
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    int got = 0;
    *out = malloc((n + 1) * sizeof **out);
    for (size_t i = 0; i < n; i++) {
        json_t *item = json_array_get(v, i);
        if (!json_is_string(item))
            fail_msg("field \"%s\": item %zu is not a string\n%s", key, i, line);
        (*out)[got++] = strdup(json_string_value(item));
    }
    json_decref(root);
    return got;
}

void tu_free_strings(char **s, int n)
{
    for (int i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

int tu_lines(const char *path, char ***out)
{
    char *text = tu_read_file(path, NULL);
    int n = 0, cap = 64;
    *out = malloc((size_t)cap * sizeof **out);
    if (!text)
        return 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (n == cap)
            *out = realloc(*out, (size_t)(cap *= 2) * sizeof **out);
        (*out)[n++] = strdup(l);
    }
    free(text);
    return n;
}

int tu_run_group(const char *name, const struct CMUnitTest *tests, size_t n,
                 CMFixtureFunction setup, CMFixtureFunction teardown)
{
    const char *only = getenv("TIERS_TEST_FILTER");
    if (only && *only)
        cmocka_set_test_filter(only);
    const char *part = getenv("TIERS_TEST_PART");
    unsigned k = 1, parts = 1;
    if (part && *part && (sscanf(part, "%u/%u", &k, &parts) != 2 || parts == 0 || k < 1 ||
                          k > parts)) {
        fprintf(stderr, "TIERS_TEST_PART='%s': expected K/N with 1 <= K <= N\n", part);
        return 1;
    }
    struct CMUnitTest *mine = calloc(n ? n : 1, sizeof *mine);
    assert_non_null(mine);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (i % parts == k - 1)
            mine[m++] = tests[i];
    int rc = _cmocka_run_group_tests(name, mine, m, setup, teardown);
    free(mine);
    return rc;
}
