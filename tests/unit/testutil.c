/* testutil.c - helpers shared by the cmocka test programs. */
#include "testutil.h"

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

static const char *json_find(const char *line, const char *key)
{
    char pat[128];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *at = strstr(line, pat);
    if (!at)
        return NULL;
    at += strlen(pat);
    while (*at == ' ')
        at++;
    return at;
}

/* Reads a JSON string at *s (which points at the opening quote). */
static char *json_read_string(const char **s)
{
    const char *c = *s + 1;
    char *out = malloc(strlen(c) + 1), *o = out;
    while (*c && *c != '"') {
        if (*c == '\\' && c[1]) {
            c++;
            if (*c == 'u') {
                unsigned cp = 0;
                sscanf(c + 1, "%4x", &cp);
                c += 5;
                if (cp < 0x80)
                    *o++ = (char)cp;
                else if (cp < 0x800) {
                    *o++ = (char)(0xc0 | cp >> 6);
                    *o++ = (char)(0x80 | (cp & 0x3f));
                } else {
                    *o++ = (char)(0xe0 | cp >> 12);
                    *o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
                    *o++ = (char)(0x80 | (cp & 0x3f));
                }
                continue;
            }
            *o++ = *c == 'n' ? '\n' : *c == 't' ? '\t' : *c;
            c++;
            continue;
        }
        *o++ = *c++;
    }
    *o = 0;
    *s = *c ? c + 1 : c;
    return out;
}

char *tu_json_string(const char *line, const char *key)
{
    const char *at = json_find(line, key);
    return at && *at == '"' ? json_read_string(&at) : NULL;
}

int tu_json_bool(const char *line, const char *key)
{
    const char *at = json_find(line, key);
    if (!at)
        return -1;
    return !strncmp(at, "true", 4) ? 1 : !strncmp(at, "false", 5) ? 0 : -1;
}

int tu_json_strings(const char *line, const char *key, char ***out)
{
    const char *at = json_find(line, key);
    int n = 0, cap = 16;
    *out = malloc((size_t)cap * sizeof **out);
    if (!at || *at != '[')
        return 0;
    at++;
    for (;;) {
        while (*at == ' ' || *at == ',')
            at++;
        if (*at != '"')
            break;
        if (n == cap)
            *out = realloc(*out, (size_t)(cap *= 2) * sizeof **out);
        (*out)[n++] = json_read_string(&at);
    }
    return n;
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
