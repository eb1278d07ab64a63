/* schema.c - the checked reading of a variant's YAML tree shared by the
 * loader's readers (loader.c, faces.c): errors that name file, line and
 * column, and values read with their type and range checked. */
#include "schema.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

YAMLTREE_PRINTF(5, 6)
int schema_fail_at(schema_ctx *c, const char *file, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = yamltree_failv(&c->t, file, line, col, fmt, ap);
    va_end(ap);
    return rc;
}

YAMLTREE_PRINTF(3, 4)
int schema_fail(schema_ctx *c, const ynode *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = yamltree_failv(&c->t, n->file, n->line, n->col, fmt, ap);
    va_end(ap);
    return rc;
}

YAMLTREE_PRINTF(3, 4)
int schema_fail_key(schema_ctx *c, const ynode *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = yamltree_failv(&c->t, n->file, n->key_line, n->key_col, fmt, ap);
    va_end(ap);
    return rc;
}

YAMLTREE_PRINTF(3, 4)
const char *schema_at(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return buf;
}

const ynode *schema_get(const ynode *map, const char *key) { return yamltree_get(map, key); }

const char *schema_got(const ynode *n, char *buf, size_t size)
{
    if (n->type == Y_MAP)
        return "a mapping";
    if (n->type == Y_SEQ)
        return "a list";
    if (n->null)
        return "nothing";
    return schema_at(buf, size, "'%.64s'", n->str);
}

int schema_want(schema_ctx *c, const ynode *n, int type, const char *where)
{
    static const char *const names[] = {"a string", "a list", "a mapping"};
    char g[80];
    if (n->type == type || (n->null && type != Y_SCALAR))
        return 0; /* null stands for an empty list or mapping */
    return schema_fail(c, n, "%s must be %s, got %s", where, names[type],
                       schema_got(n, g, sizeof g));
}

int schema_in_list(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], s))
            return i;
    return -1;
}

const char *schema_join(const char *const *list, const char *sep, char *buf,
                        size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; list[i] && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? sep : "", list[i]);
    return buf;
}

const char *schema_did_you_mean(const char *word, const char *const *names, int n,
                                char *buf, size_t size)
{
    char near[128];
    buf[0] = '\0';
    if (tiers_suggest(word, names, n, near, sizeof near) > 0)
        snprintf(buf, size, "did you mean %s", near);
    return buf;
}

int schema_keys_ok(schema_ctx *c, const ynode *map, const char *where,
                   const char *const *allowed)
{
    char list[512], near[160];
    for (const ynode *k = map->kids; k; k = k->next)
        if (schema_in_list(allowed, k->key) < 0) {
            schema_did_you_mean(k->key, allowed, -1, near, sizeof near);
            return schema_fail_key(c, k, "unknown key '%s' %s%s (%s%sexpected %s)", k->key,
                                   *where ? "in " : "at ", *where ? where : "top level",
                                   near, *near ? "?; " : "",
                                   schema_join(allowed, ", ", list, sizeof list));
        }
    return 0;
}

const ynode *schema_req(schema_ctx *c, const ynode *map, const char *where,
                        const char *key)
{
    const ynode *n = schema_get(map, key);
    if (!n)
        schema_fail(c, map, "missing required key '%s' in %s", key, where);
    return n;
}

int schema_int_val(schema_ctx *c, const ynode *n, const char *where, long lo, long hi,
                   long *out)
{
    char g[80];
    if (n->type != Y_SCALAR || n->null)
        return schema_fail(c, n, "%s must be an integer, got %s", where,
                           schema_got(n, g, sizeof g));
    int r = yamltree_parse_long(n->str, out);
    if (r < 0)
        return schema_fail(c, n, "%s must be an integer, got '%.64s'", where, n->str);
    if (r > 0 || *out < lo || *out > hi)
        return schema_fail(c, n, "%s must be %ld..%ld, got %.64s", where, lo, hi,
                           n->str);
    return 0;
}

int schema_bool_val(schema_ctx *c, const ynode *n, const char *where, uint8_t *out)
{
    char g[80];
    int b = n->type == Y_SCALAR ? yamltree_parse_bool(n->str) : -1;
    if (b < 0)
        return schema_fail(c, n, "%s must be true or false, got %s", where,
                           schema_got(n, g, sizeof g));
    *out = (uint8_t)b;
    return 0;
}

int schema_str_val(schema_ctx *c, const ynode *n, const char *where, char *buf,
                   size_t size)
{
    int rc = schema_want(c, n, Y_SCALAR, where);
    const char *s = n->null ? "" : n->str;
    if (!rc && strlen(s) >= size)
        rc = schema_fail(c, n, "%s is too long (max %zu characters)", where, size - 1);
    if (!rc)
        memcpy(buf, s, strlen(s) + 1);
    return rc;
}

int schema_enum_val(schema_ctx *c, const ynode *n, const char *where,
                    const char *const *names, int *out)
{
    char list[256], g[80];
    int i = n->type == Y_SCALAR ? schema_in_list(names, n->str) : -1;
    if (i < 0)
        return schema_fail(c, n, "%s must be %s, got %s", where,
                           schema_join(names, "|", list, sizeof list), schema_got(n, g, sizeof g));
    *out = i;
    return 0;
}

/* Optional keys of a mapping, with `where` built as "prefix.key". */
int schema_opt_int(schema_ctx *c, const ynode *map, const char *pre, const char *key,
                   long lo, long hi, long *out)
{
    char w[SCHEMA_WHERE];
    const ynode *n = schema_get(map, key);
    return n ? schema_int_val(c, n, schema_at(w, sizeof w, "%s%s%s", pre, *pre ? "." : "", key),
                              lo, hi, out)
             : 0;
}

int schema_opt_u8(schema_ctx *c, const ynode *map, const char *pre, const char *key,
                  long lo, long hi, uint8_t *out)
{
    long x = *out;
    int rc = schema_opt_int(c, map, pre, key, lo, hi, &x);
    *out = (uint8_t)x;
    return rc;
}

int schema_opt_bool(schema_ctx *c, const ynode *map, const char *pre, const char *key,
                    uint8_t *out)
{
    char w[SCHEMA_WHERE];
    const ynode *n = schema_get(map, key);
    return n ? schema_bool_val(c, n, schema_at(w, sizeof w, "%s%s%s", pre, *pre ? "." : "", key),
                               out)
             : 0;
}

int schema_opt_enum(schema_ctx *c, const ynode *map, const char *pre, const char *key,
                    const char *const *names, uint8_t *out)
{
    char w[SCHEMA_WHERE];
    const ynode *n = schema_get(map, key);
    int i = *out;
    int rc = n ? schema_enum_val(c, n, schema_at(w, sizeof w, "%s.%s", pre, key), names, &i) : 0;
    *out = (uint8_t)i;
    return rc;
}

int schema_face_ref(schema_ctx *c, const ynode *n, const char *where, uint8_t *out)
{
    int rc = schema_want(c, n, Y_SCALAR, where);
    int i = rc ? -1 : face_find(c->v, n->str);
    const char *names[MAX_FACES];
    char near[160];
    for (int f = 0; f < c->v->nfaces; f++)
        names[f] = c->v->faces[f].name;
    if (!rc && i < 0) {
        schema_did_you_mean(n->str, names, c->v->nfaces, near, sizeof near);
        rc = schema_fail(c, n, "unknown face '%.64s' in %s%s%s%s", n->str, where,
                         *near ? " (" : "", near, *near ? "?)" : "");
    }
    if (!rc)
        *out = (uint8_t)i;
    return rc;
}

int schema_side_ref(schema_ctx *c, const ynode *n, const char *where, uint8_t *out)
{
    const tiers_variant *v = c->v;
    int rc = schema_want(c, n, Y_SCALAR, where);
    for (int s = 0; !rc && s < 2; s++)
        if (!strcmp(n->str, v->side_name[s]) ||
            (n->str[0] == v->side_sym[s] && !n->str[1])) {
            *out = (uint8_t)s;
            return 0;
        }
    return rc ? rc : schema_fail(c, n, "unknown side '%.64s' in %s (sides: %s, %s)",
                                 n->str, where, v->side_name[0], v->side_name[1]);
}
