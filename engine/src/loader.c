/* loader.c - the schema walk: a variant's merged YAML tree (yamltree.c)
 * becomes a tiers_variant (docs/variant-format.md).  One reader per
 * top-level key (board, sides, faces and their movement and diagrams,
 * tiles, zones, drops, setup, modes, regions, scripts, notations, start),
 * each checking its values and naming file:line:col when one is wrong;
 * rules and options go through the rule table (rules.c). */

#define _XOPEN_SOURCE 700 /* realpath */

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader.h"
#include "notation.h"
#include "rules.h"
#include "searchpath.h"
#include "yamltree.h"

#define PRINTF YAMLTREE_PRINTF

/* Limits of the format: offsets and rays of a move, diagram size, and the
 * longest "where" text of a message. */
enum { MAX_OFF = 15, MAX_RAY = 15, MAX_DIAGRAM = 31, WHERE = 160 };

typedef struct ctx {
    yamltree t;                    /* the tree's arena and the first error */
    tiers_variant *v;
    struct diagram *diag;          /* scratch for read_diagram, reused */
} ctx;

PRINTF(5, 6)
static int fail_at(ctx *c, const char *file, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = yamltree_failv(&c->t, file, line, col, fmt, ap);
    va_end(ap);
    return rc;
}

PRINTF(3, 4)
static int fail(ctx *c, const ynode *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = yamltree_failv(&c->t, n->file, n->line, n->col, fmt, ap);
    va_end(ap);
    return rc;
}

PRINTF(3, 4)
static int fail_key(ctx *c, const ynode *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = yamltree_failv(&c->t, n->file, n->key_line, n->key_col, fmt, ap);
    va_end(ap);
    return rc;
}

PRINTF(3, 4)
static const char *at(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return buf;
}

static const ynode *get(const ynode *map, const char *key) { return yamltree_get(map, key); }

/* ------------------------------------------------------------ values */

static const char *got(const ynode *n, char *buf, size_t size)
{
    if (n->type == Y_MAP)
        return "a mapping";
    if (n->type == Y_SEQ)
        return "a list";
    if (n->null)
        return "nothing";
    return at(buf, size, "'%.64s'", n->str);
}

static int want(ctx *c, const ynode *n, int type, const char *where)
{
    static const char *const names[] = {"a string", "a list", "a mapping"};
    char g[80];
    if (n->type == type || (n->null && type != Y_SCALAR))
        return 0; /* null stands for an empty list or mapping */
    return fail(c, n, "%s must be %s, got %s", where, names[type],
                got(n, g, sizeof g));
}

static int in_list(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], s))
            return i;
    return -1;
}

static const char *join(const char *const *list, const char *sep, char *buf,
                        size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; list[i] && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? sep : "", list[i]);
    return buf;
}

static int keys_ok(ctx *c, const ynode *map, const char *where,
                   const char *const *allowed)
{
    char list[256];
    for (const ynode *k = map->kids; k; k = k->next)
        if (in_list(allowed, k->key) < 0)
            return fail_key(c, k, "unknown key '%s' %s%s (expected %s)", k->key,
                            *where ? "in " : "at ", *where ? where : "top level",
                            join(allowed, ", ", list, sizeof list));
    return 0;
}

static const ynode *req(ctx *c, const ynode *map, const char *where,
                        const char *key)
{
    const ynode *n = get(map, key);
    if (!n)
        fail(c, map, "missing required key '%s' in %s", key, where);
    return n;
}

static int int_val(ctx *c, const ynode *n, const char *where, long lo, long hi,
                   long *out)
{
    char g[80];
    if (n->type != Y_SCALAR || n->null)
        return fail(c, n, "%s must be an integer, got %s", where,
                    got(n, g, sizeof g));
    int r = yamltree_parse_long(n->str, out);
    if (r < 0)
        return fail(c, n, "%s must be an integer, got '%.64s'", where, n->str);
    if (r > 0 || *out < lo || *out > hi)
        return fail(c, n, "%s must be %ld..%ld, got %.64s", where, lo, hi,
                    n->str);
    return 0;
}

static int bool_val(ctx *c, const ynode *n, const char *where, uint8_t *out)
{
    char g[80];
    int b = n->type == Y_SCALAR ? yamltree_parse_bool(n->str) : -1;
    if (b < 0)
        return fail(c, n, "%s must be true or false, got %s", where,
                    got(n, g, sizeof g));
    *out = (uint8_t)b;
    return 0;
}

static int str_val(ctx *c, const ynode *n, const char *where, char *buf,
                   size_t size)
{
    int rc = want(c, n, Y_SCALAR, where);
    const char *s = n->null ? "" : n->str;
    if (!rc && strlen(s) >= size)
        rc = fail(c, n, "%s is too long (max %zu characters)", where, size - 1);
    if (!rc)
        memcpy(buf, s, strlen(s) + 1);
    return rc;
}

static int enum_val(ctx *c, const ynode *n, const char *where,
                    const char *const *names, int *out)
{
    char list[256], g[80];
    int i = n->type == Y_SCALAR ? in_list(names, n->str) : -1;
    if (i < 0)
        return fail(c, n, "%s must be %s, got %s", where,
                    join(names, "|", list, sizeof list), got(n, g, sizeof g));
    *out = i;
    return 0;
}

/* Optional keys of a mapping, with `where` built as "prefix.key". */
static int opt_int(ctx *c, const ynode *map, const char *pre, const char *key,
                   long lo, long hi, long *out)
{
    char w[WHERE];
    const ynode *n = get(map, key);
    return n ? int_val(c, n, at(w, sizeof w, "%s%s%s", pre, *pre ? "." : "", key),
                       lo, hi, out)
             : 0;
}

static int opt_u8(ctx *c, const ynode *map, const char *pre, const char *key,
                  long lo, long hi, uint8_t *out)
{
    long x = *out;
    int rc = opt_int(c, map, pre, key, lo, hi, &x);
    *out = (uint8_t)x;
    return rc;
}

static int opt_bool(ctx *c, const ynode *map, const char *pre, const char *key,
                    uint8_t *out)
{
    char w[WHERE];
    const ynode *n = get(map, key);
    return n ? bool_val(c, n, at(w, sizeof w, "%s%s%s", pre, *pre ? "." : "", key),
                        out)
             : 0;
}

static int opt_enum(ctx *c, const ynode *map, const char *pre, const char *key,
                    const char *const *names, uint8_t *out)
{
    char w[WHERE];
    const ynode *n = get(map, key);
    int i = *out;
    int rc = n ? enum_val(c, n, at(w, sizeof w, "%s.%s", pre, key), names, &i) : 0;
    *out = (uint8_t)i;
    return rc;
}

static int face_ref(ctx *c, const ynode *n, const char *where, uint8_t *out)
{
    int rc = want(c, n, Y_SCALAR, where);
    int i = rc ? -1 : face_find(c->v, n->str);
    if (!rc && i < 0)
        rc = fail(c, n, "unknown face '%.64s' in %s", n->str, where);
    if (!rc)
        *out = (uint8_t)i;
    return rc;
}

static int side_ref(ctx *c, const ynode *n, const char *where, uint8_t *out)
{
    const tiers_variant *v = c->v;
    int rc = want(c, n, Y_SCALAR, where);
    for (int s = 0; !rc && s < 2; s++)
        if (!strcmp(n->str, v->side_name[s]) ||
            (n->str[0] == v->side_sym[s] && !n->str[1])) {
            *out = (uint8_t)s;
            return 0;
        }
    return rc ? rc : fail(c, n, "unknown side '%.64s' in %s (sides: %s, %s)",
                          n->str, where, v->side_name[0], v->side_name[1]);
}

/* ------------------------------------------------------------ rules */

static int read_rules(ctx *c, const ynode *root)
{
    const ynode *rs = get(root, "rules");
    char msg[512], names[400], w[WHERE];
    int rc = rs ? want(c, rs, Y_MAP, "rules") : 0;
    for (const ynode *k = rs ? rs->kids : NULL; k && !rc; k = k->next) {
        if (!rules_find(k->key) && !rules_option_find(c->v, k->key))
            return fail_key(c, k, "unknown key '%s' in rules (expected %s)",
                            k->key, rules_names(c->v, names, sizeof names));
        rc = want(c, k, Y_SCALAR, at(w, sizeof w, "rules.%s", k->key));
        if (!rc && rules_set_text(c->v, k->key, k->null ? "" : k->str, msg,
                                 sizeof msg))
            rc = fail(c, k, "%s", msg);
    }
    return rc;
}

/* ------------------------------------------------------------ options */

static const char *const option_keys[] = {"values", "default", "sets", NULL};

static int option_values(ctx *c, option_def *o, const ynode *n, const char *w)
{
    char iw[WHERE];
    int rc = want(c, n, Y_SEQ, at(iw, sizeof iw, "%s.values", w));
    int i = 0;
    for (const ynode *k = n->kids; k && !rc; k = k->next, i++) {
        at(iw, sizeof iw, "%s.values[%d]", w, i);
        if (i >= MAX_OPTION_VALUES)
            return fail(c, k, "%s: an option has at most %d values", iw,
                        MAX_OPTION_VALUES);
        rc = str_val(c, k, iw, o->values[i], MAX_NAME);
        if (!rc && !o->values[i][0])
            rc = fail(c, k, "%s must not be empty", iw);
        for (int j = 0; !rc && j < i; j++)
            if (!strcmp(o->values[i], o->values[j]))
                rc = fail(c, k, "%s repeats '%s'", iw, o->values[j]);
    }
    o->nvalues = (uint8_t)i;
    return rc;
}

static int option_default(ctx *c, option_def *o, const ynode *n, const char *w)
{
    char iw[WHERE];
    const char *names[MAX_OPTION_VALUES + 1] = {0};
    long x = 0;
    at(iw, sizeof iw, "%s.default", w);
    if (!o->nvalues) {
        int rc = int_val(c, n, iw, INT32_MIN, INT32_MAX, &x);
        o->def = (int32_t)x;
        return rc;
    }
    for (int i = 0; i < o->nvalues; i++)
        names[i] = o->values[i];
    int i = 0;
    if (enum_val(c, n, iw, names, &i))
        return c->t.rc;
    o->def = i;
    return 0;
}

/* Checks every value against the bound rule, then applies the default. */
static int option_bind(ctx *c, option_def *o, const ynode *n, const char *w)
{
    char iw[WHERE], msg[512], num[24];
    int rc = str_val(c, n, at(iw, sizeof iw, "%s.sets", w), o->sets, MAX_NAME);
    const rule_def *r = rc ? NULL : rules_find(o->sets);
    long x = o->def;
    if (!rc && !r)
        return fail(c, n, "unknown engine rule '%s' in %s", o->sets, iw);
    if (!rc && !o->nvalues && r->type != R_INT)
        return fail(c, n, "%s: rules.%s is not an integer rule; give the "
                    "option values", iw, r->key);
    for (int i = 0; !rc && i < o->nvalues; i++)
        if (rules_option_value(c->v, o, r, i) < 0 &&
            rules_parse(c->v, r, o->values[i], &x, msg, sizeof msg))
            rc = fail(c, n, "%s: %s", iw, msg);
    if (!rc && !o->nvalues &&
        rules_parse(c->v, r, at(num, sizeof num, "%ld", x), &x, msg, sizeof msg))
        rc = fail(c, n, "%s: %s", iw, msg);
    if (!rc)
        rules_bind(c->v, r, o->nvalues ? rules_option_value(c->v, o, r, o->def) : x);
    return rc;
}

static int read_option(ctx *c, const ynode *n)
{
    tiers_variant *v = c->v;
    char w[WHERE];
    if (v->noptions >= MAX_OPTIONS)
        return fail_key(c, n, "too many options (max %d)", MAX_OPTIONS);
    if (!*n->key || strlen(n->key) >= MAX_NAME)
        return fail_key(c, n, "option name '%.64s' must be 1..%d characters",
                        n->key, MAX_NAME - 1);
    const ynode *vals = get(n, "values"), *def = get(n, "default"),
                *sets = get(n, "sets");
    if (rules_find(n->key) && !(sets && sets->type == Y_SCALAR &&
                               !strcmp(sets->str, n->key)))
        return fail_key(c, n, "option '%s' has the name of an engine rule "
                        "(allowed only with sets: %s)", n->key, n->key);
    at(w, sizeof w, "options.%s", n->key);
    option_def *o = &v->options[v->noptions];
    memcpy(o->key, n->key, strlen(n->key) + 1);
    int rc = want(c, n, Y_MAP, w);
    if (!rc)
        rc = keys_ok(c, n, w, option_keys);
    if (!rc && vals)
        rc = option_values(c, o, vals, w);
    if (!rc && def)
        rc = option_default(c, o, def, w);
    o->value = o->def;
    v->noptions++;
    return !rc && sets ? option_bind(c, o, sets, w) : rc;
}

static int read_options(ctx *c, const ynode *root)
{
    const ynode *os = get(root, "options");
    int rc = os ? want(c, os, Y_MAP, "options") : 0;
    for (const ynode *k = os ? os->kids : NULL; k && !rc; k = k->next)
        rc = read_option(c, k);
    return rc;
}

/* ------------------------------------------------------------ movement */

enum { HOW_STEP, HOW_JUMP, HOW_LEAP, HOW_RAY };

typedef struct offset_set {
    const char *name;
    int n;
    int8_t d[8][2];
} offset_set;

/* Clockwise from forward, so tables list moves in a predictable order. */
static const offset_set offset_sets[] = {
    {"all8", 8, {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}},
    {"orth", 4, {{0, 1}, {1, 0}, {0, -1}, {-1, 0}}},
    {"diag", 4, {{1, 1}, {1, -1}, {-1, -1}, {-1, 1}}},
    {"forward", 1, {{0, 1}}},
    {"back", 1, {{0, -1}}},
    {"sideways", 2, {{1, 0}, {-1, 0}}},
    {"fdiag", 2, {{1, 1}, {-1, 1}}},
    {"bdiag", 2, {{1, -1}, {-1, -1}}},
    {"knight", 8, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}},
    {"fknight", 2, {{1, 2}, {-1, 2}}},
};
enum { NSETS = sizeof offset_sets / sizeof offset_sets[0] };

static int add_line(ctx *c, const ynode *at_node, const line_def *l)
{
    tiers_variant *v = c->v;
    if (v->nlines >= MAX_LINES)
        return fail(c, at_node, "too many movement lines (max %d)", MAX_LINES);
    v->lines[v->nlines++] = *l;
    return 0;
}

static int iabs(int x) { return x < 0 ? -x : x; }
static int sign(int x) { return (x > 0) - (x < 0); }
static int straight(int dx, int dy)
{
    return !dx || !dy || iabs(dx) == iabs(dy);
}

/* A leap's via squares: those between, on a straight line only. */
static int leap_via(ctx *c, const ynode *n, const char *where, line_def *l)
{
    if (!straight(l->dx, l->dy))
        return 0;
    int steps = iabs(l->dx) > iabs(l->dy) ? iabs(l->dx) : iabs(l->dy);
    if (steps - 1 > MAX_VIA)
        return fail(c, n, "leap [%d, %d] in %s has %d squares between, max %d",
                    l->dx, l->dy, where, steps - 1, MAX_VIA);
    for (int k = 1; k < steps; k++) {
        l->via[l->nvia][0] = (int8_t)(k * sign(l->dx));
        l->via[l->nvia++][1] = (int8_t)(k * sign(l->dy));
    }
    return 0;
}

static int add_move(ctx *c, const ynode *n, const char *where, int how,
                    int dx, int dy, int len)
{
    line_def l;
    memset(&l, 0, sizeof l);
    l.fx = l.dx = (int8_t)dx;
    l.fy = l.dy = (int8_t)dy;
    l.len = (uint8_t)len;
    int rc = how == HOW_LEAP ? leap_via(c, n, where, &l) : 0;
    return rc ? rc : add_line(c, n, &l);
}

static int is_int(const ynode *n)
{
    long x;
    return n->type == Y_SCALAR && !n->null && yamltree_parse_long(n->str, &x) >= 0;
}

static int is_pair(const ynode *n)
{
    return n->type == Y_SEQ && n->n == 2 && is_int(n->kids) && is_int(n->last);
}

static int read_pair(ctx *c, const ynode *n, const char *where, int *dx, int *dy)
{
    char g[80];
    long x = 0, y = 0;
    if (!is_pair(n))
        return fail(c, n, "%s must be an offset [dx, dy], got %s", where,
                    n->type == Y_SEQ ? "another list" : got(n, g, sizeof g));
    if (int_val(c, n->kids, where, -MAX_OFF, MAX_OFF, &x) ||
        int_val(c, n->last, where, -MAX_OFF, MAX_OFF, &y))
        return c->t.rc;
    if (!x && !y)
        return fail(c, n, "offset [0, 0] in %s is the piece's own square", where);
    *dx = (int)x;
    *dy = (int)y;
    return 0;
}

static int add_set(ctx *c, const ynode *n, const char *where, int how, int len)
{
    char list[128] = "";
    if (n->null)
        return 0;
    for (int i = 0; i < NSETS; i++) {
        const offset_set *s = &offset_sets[i];
        if (strcmp(s->name, n->str))
            continue;
        for (int j = 0; j < s->n; j++)
            if (add_move(c, n, where, how, s->d[j][0], s->d[j][1], len))
                return c->t.rc;
        return 0;
    }
    for (int i = 0, k = 0; i < NSETS; i++)
        k += snprintf(list + k, sizeof list - (size_t)k, "%s%s", i ? ", " : "",
                      offset_sets[i].name);
    return fail(c, n, "unknown offset set '%.64s' in %s (sets: %s)", n->str,
                where, list);
}

static int add_pair(ctx *c, const ynode *n, const char *where, int how, int len)
{
    int dx = 0, dy = 0;
    return read_pair(c, n, where, &dx, &dy) ? c->t.rc
                                           : add_move(c, n, where, how, dx, dy, len);
}

/* A value is a set name, one [dx, dy], or a list of names and offsets. */
static int add_offsets(ctx *c, const ynode *n, const char *where, int how, int len)
{
    if (n->type == Y_SCALAR)
        return add_set(c, n, where, how, len);
    if (n->type == Y_MAP)
        return fail(c, n, "%s must be offsets or set names, got a mapping", where);
    if (is_pair(n))
        return add_pair(c, n, where, how, len);
    int rc = 0;
    for (const ynode *k = n->kids; k && !rc; k = k->next)
        rc = k->type == Y_SCALAR ? add_set(c, k, where, how, len)
                                 : add_pair(c, k, where, how, len);
    return rc;
}

static int read_range(ctx *c, const ynode *n, const char *where)
{
    char w[WHERE];
    int rc = want(c, n, Y_MAP, where);
    for (const ynode *k = n->kids; k && !rc; k = k->next) {
        long len = 0;
        if (yamltree_parse_long(k->key, &len) || len < 1 || len > MAX_RAY)
            return fail_key(c, k, "%s: ray length must be 1..%d, got '%.64s'",
                            where, MAX_RAY, k->key);
        rc = add_offsets(c, k, at(w, sizeof w, "%s.%ld", where, len), HOW_RAY,
                         (int)len);
    }
    return rc;
}

static const char *const line_keys[] = {"first", "dir", "len", "leaping", "via",
                                        "capture", "mirror", NULL};
static const char *const capture_names[] = {"yes", "no", "only", NULL};

static int line_via(ctx *c, const ynode *n, const char *where, line_def *l)
{
    char w[WHERE];
    int dx = 0, dy = 0, rc = want(c, n, Y_SEQ, at(w, sizeof w, "%s.via", where));
    if (!rc && n->n > MAX_VIA)
        return fail(c, n, "%s has %d squares, max %d", w, n->n, MAX_VIA);
    for (const ynode *k = n->kids; k && !rc; k = k->next) {
        rc = read_pair(c, k, w, &dx, &dy);
        l->via[l->nvia][0] = (int8_t)dx;
        l->via[l->nvia++][1] = (int8_t)dy;
    }
    return rc;
}

static int add_mirrored(ctx *c, const ynode *n, const line_def *l)
{
    line_def m = *l;
    m.fx = (int8_t)-m.fx;
    m.dx = (int8_t)-m.dx;
    for (int i = 0; i < m.nvia; i++)
        m.via[i][0] = (int8_t)-m.via[i][0];
    /* A symmetric line would only give every move twice. */
    return memcmp(&m, l, sizeof m) ? add_line(c, n, &m) : 0;
}

/* first and dir; a line of len 1 has one candidate and needs no dir. */
static int line_geometry(ctx *c, const ynode *n, const char *where, long len,
                         line_def *l)
{
    const ynode *d = get(n, "dir"), *f = get(n, "first");
    char w[WHERE];
    int fx = 0, fy = 0, dx = 0, dy = 0;
    if ((d && read_pair(c, d, at(w, sizeof w, "%s.dir", where), &dx, &dy)) ||
        (f && read_pair(c, f, at(w, sizeof w, "%s.first", where), &fx, &fy)))
        return c->t.rc;
    if (!d && (!f || len != 1))
        return fail(c, n, "missing required key 'dir' in %s (only a line "
                    "with first and len 1 may omit it)", where);
    l->fx = (int8_t)(f ? fx : dx);
    l->fy = (int8_t)(f ? fy : dy);
    l->dx = (int8_t)(d ? dx : fx);
    l->dy = (int8_t)(d ? dy : fy);
    l->len = (uint8_t)len;
    return 0;
}

static int read_line(ctx *c, const ynode *n, const char *where)
{
    line_def l;
    memset(&l, 0, sizeof l);
    char w[WHERE];
    int cap = 0;
    uint8_t leaping = 0, mirror = 0;
    long len = 0;
    const ynode *via = get(n, "via"), *cp = get(n, "capture");
    if (want(c, n, Y_MAP, where) || keys_ok(c, n, where, line_keys) ||
        opt_int(c, n, where, "len", 0, MAX_RAY, &len) ||
        line_geometry(c, n, where, len, &l) ||
        opt_bool(c, n, where, "leaping", &leaping) ||
        opt_bool(c, n, where, "mirror", &mirror) ||
        (via && line_via(c, via, where, &l)) ||
        (cp && enum_val(c, cp, at(w, sizeof w, "%s.capture", where),
                        capture_names, &cap)))
        return c->t.rc;
    l.flags = (uint8_t)((leaping ? LN_LEAPING : 0) |
                        (cap == 1 ? LN_NO_CAPTURE : cap == 2 ? LN_ONLY_CAPTURE : 0));
    int rc = add_line(c, n, &l);
    return !rc && mirror ? add_mirrored(c, n, &l) : rc;
}

static int read_lines(ctx *c, const ynode *n, const char *where)
{
    char w[WHERE];
    int i = 0, rc = want(c, n, Y_SEQ, where);
    for (const ynode *k = n->kids; k && !rc; k = k->next, i++)
        rc = read_line(c, k, at(w, sizeof w, "%s[%d]", where, i));
    return rc;
}

/* ------------------------------------------------------------ diagrams */

typedef struct cell {
    const char *s;
    int len, vline, off, row, col;
} cell;

typedef struct diagram {
    cell cells[MAX_DIAGRAM * MAX_DIAGRAM];
    int ncells, rows, cols;
} diagram;

/* A stand-in node at a cell, so errors point at the cell itself. */
static ynode cell_node(const ynode *n, const cell *x)
{
    ynode at_cell = *n;
    if (n->body_line) {
        at_cell.line = n->body_line + x->vline;
        at_cell.col = n->body_col + x->off;
    }
    return at_cell;
}

static int diagram_row(ctx *c, const ynode *n, const char *where, diagram *d,
                       const char *line, int vline)
{
    int ncols = 0;
    const char *s = line;
    for (;;) {
        s += strspn(s, " \t");
        if (!*s || *s == '\n')
            break;
        if (ncols >= MAX_DIAGRAM || d->rows >= MAX_DIAGRAM)
            return fail(c, n, "%s is larger than %dx%d cells", where,
                        MAX_DIAGRAM, MAX_DIAGRAM);
        cell *x = &d->cells[d->ncells++];
        x->s = s;
        x->len = (int)strcspn(s, " \t\n");
        x->vline = vline;
        x->off = (int)(s - line);
        x->row = d->rows;
        x->col = ncols++;
        s += x->len;
    }
    if (!ncols)
        return 0;
    if (d->rows && ncols != d->cols) {
        ynode at_cell = cell_node(n, &d->cells[d->ncells - ncols]);
        return fail(c, &at_cell, "%s: row has %d cells, the first row has %d",
                    where, ncols, d->cols);
    }
    d->cols = ncols;
    d->rows++;
    return 0;
}

static int diagram_ray(ctx *c, const ynode *at_cell, const char *where,
                       int dx, int dy, unsigned *rays, int len)
{
    int sx = sign(dx), sy = sign(dy);
    unsigned bit = 1u << ((sx + 1) * 3 + sy + 1);
    if (!straight(dx, dy))
        return fail(c, at_cell, "%s: ray cell at [%d, %d] is not on a line "
                    "from P", where, dx, dy);
    if (*rays & bit)
        return fail(c, at_cell, "%s: second ray cell in direction [%d, %d]",
                    where, sx, sy);
    *rays |= bit;
    line_def l;
    memset(&l, 0, sizeof l);
    l.fx = l.dx = (int8_t)sx;
    l.fy = l.dy = (int8_t)sy;
    l.len = (uint8_t)len;
    return add_line(c, at_cell, &l);
}

static int diagram_cell(ctx *c, const ynode *n, const char *where,
                        const cell *x, int pr, int pc, unsigned *rays)
{
    ynode at_cell = cell_node(n, x);
    int dx = x->col - pc, dy = pr - x->row, ch = x->len == 1 ? x->s[0] : 0;
    if (ch == '.' || ch == 'P')
        return 0;
    if (ch == 'o' || ch == 'x' || ch == 'l')
        return add_move(c, &at_cell, where,
                        ch == 'o' ? HOW_STEP : ch == 'x' ? HOW_JUMP : HOW_LEAP,
                        dx, dy, 1);
    if (ch == '*' || (ch >= '1' && ch <= '9'))
        return diagram_ray(c, &at_cell, where, dx, dy, rays,
                           ch == '*' ? 0 : ch - '0');
    return fail(c, &at_cell, "%s: unknown cell '%.*s' (cells: . P o x l * 1-9)",
                where, x->len, x->s);
}

static int read_diagram(ctx *c, const ynode *n, const char *where)
{
    char g[80];
    if (n->type != Y_SCALAR || n->null)
        return fail(c, n, "%s must be a text block, got %s", where,
                    got(n, g, sizeof g));
    diagram *d = c->diag ? c->diag : (c->diag = yamltree_alloc(&c->t, sizeof *d));
    if (!d)
        return c->t.rc;
    d->ncells = d->rows = d->cols = 0;
    int vline = 0, pr = -1, pc = -1, rc = 0;
    for (const char *s = n->str; !rc; vline++) {
        rc = diagram_row(c, n, where, d, s, vline);
        if (!(s = strchr(s, '\n')))
            break;
        s++;
    }
    for (int i = 0; i < d->ncells && !rc; i++) {
        const cell *x = &d->cells[i];
        ynode at_cell = cell_node(n, x);
        if (x->len != 1 || x->s[0] != 'P')
            continue;
        if (pr >= 0)
            return fail(c, &at_cell, "%s has a second 'P' cell", where);
        pr = x->row;
        pc = x->col;
    }
    if (!rc && pr < 0)
        return fail(c, n, "%s has no 'P' cell (the piece)", where);
    unsigned rays = 0;
    for (int i = 0; i < d->ncells && !rc; i++)
        rc = diagram_cell(c, n, where, &d->cells[i], pr, pc, &rays);
    return rc;
}

/* ------------------------------------------------------------ faces */

static const char *const table_keys[] = {"step", "jump", "leap", "slide",
                                         "range", "lines", "diagram", NULL};

static int read_table(ctx *c, const ynode *t, const char *where)
{
    char w[WHERE], list[128];
    int rc = want(c, t, Y_MAP, where);
    for (const ynode *k = t->kids; k && !rc; k = k->next) {
        int i = in_list(table_keys, k->key);
        at(w, sizeof w, "%s.%s", where, k->key);
        if (i < 0)
            return fail_key(c, k, "unknown key '%s' in %s (expected %s)", k->key,
                            where, join(table_keys, ", ", list, sizeof list));
        rc = i < 4 ? add_offsets(c, k, w, i, i == HOW_RAY ? 0 : 1)
           : i == 4 ? read_range(c, k, w)
           : i == 5 ? read_lines(c, k, w)
                    : read_diagram(c, k, w);
    }
    return rc;
}

static int read_moves(ctx *c, face_def *f, const ynode *n, const char *where)
{
    tiers_variant *v = c->v;
    char w[WHERE];
    int t = 0, rc = n ? want(c, n, Y_SEQ, where) : 0;
    for (const ynode *k = n ? n->kids : NULL; k && !rc; k = k->next, t++) {
        at(w, sizeof w, "%s[%d]", where, t);
        if (t >= TIERS_MAX_TIERS)
            return fail(c, k, "%s: at most %d tiers", where, TIERS_MAX_TIERS);
        int same = k->type == Y_SCALAR && !strcmp(k->str, "same");
        if (same && !t)
            return fail(c, k, "%s: 'same' needs a table before it", w);
        if (k->type == Y_SCALAR && !same)
            return fail(c, k, "%s must be a table or 'same', got '%.64s'", w, k->str);
        f->first[t] = same ? f->first[t - 1] : v->nlines;
        rc = same ? 0 : read_table(c, k, w);
        f->count[t] = (uint16_t)(same ? f->count[t - 1] : v->nlines - f->first[t]);
    }
    if (!t)
        f->first[t++] = v->nlines; /* one empty table */
    f->ntiers = (uint8_t)t;
    for (; t < TIERS_MAX_TIERS; t++) {
        f->first[t] = f->first[t - 1];
        f->count[t] = f->count[t - 1];
    }
    return rc;
}

static const char *const face_keys[] = {"symbol", "flags", "value", "moves",
                                        "fallback", "notation", NULL};
static const char *const flag_names[] = {
    "royal", "immobile", "no_stack", "no_stack_on", "jumper", "copy_below",
    "not_copied", "no_hand", "one_per_file", "no_strike", "tier1_only",
    "drop_empty", "setup_first", "converts", "no_region", "uncapturable", NULL};

static int face_symbol(ctx *c, face_def *f, const ynode *s, const char *where)
{
    const tiers_variant *v = c->v;
    char w[WHERE];
    if (str_val(c, s, at(w, sizeof w, "%s.symbol", where), f->sym, MAX_SYM))
        return c->t.rc;
    static const char letters[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    if (!f->sym[0] || strspn(f->sym, letters) != strlen(f->sym))
        return fail(c, s, "%s must be ASCII letters, got '%s'", w, f->sym);
    for (char *p = f->sym; *p; p++)
        *p = (char)(*p & ~0x20); /* uppercase */
    for (const face_def *o = v->faces; o < f; o++)
        if (!strcmp(o->sym, f->sym))
            return fail(c, s, "duplicate symbol '%s' (faces '%s' and '%s')",
                        f->sym, o->name, f->name);
    return 0;
}

/* First pass: names and symbols, so faces may refer to later faces. */
static int face_head(ctx *c, const ynode *n)
{
    tiers_variant *v = c->v;
    char w[WHERE];
    if (v->nfaces >= MAX_FACES)
        return fail_key(c, n, "too many faces (max %d)", MAX_FACES);
    if (!*n->key || strlen(n->key) >= MAX_NAME || !strcmp(n->key, "none"))
        return fail_key(c, n, "face name '%.64s' must be 1..%d characters, "
                        "not 'none'", n->key, MAX_NAME - 1);
    at(w, sizeof w, "faces.%s", n->key);
    face_def *f = &v->faces[v->nfaces];
    memcpy(f->name, n->key, strlen(n->key) + 1);
    f->fallback = NO_FACE;
    const ynode *s;
    if (want(c, n, Y_MAP, w) || keys_ok(c, n, w, face_keys) ||
        !(s = req(c, n, w, "symbol")) || face_symbol(c, f, s, w))
        return c->t.rc;
    v->nfaces++;
    return 0;
}

static int face_flags(ctx *c, face_def *f, const ynode *n, const char *where)
{
    char w[WHERE];
    int i = 0;
    at(w, sizeof w, "%s.flags", where);
    if (n->type == Y_SCALAR && !n->null) {
        if (enum_val(c, n, w, flag_names, &i))
            return c->t.rc;
        f->flags |= 1u << i;
        return 0;
    }
    int rc = want(c, n, Y_SEQ, w);
    for (const ynode *k = n->kids; k && !rc; k = k->next)
        if (!(rc = enum_val(c, k, w, flag_names, &i)))
            f->flags |= 1u << i;
    return rc;
}

/* faces.X.notation: {dialect: symbol} for dialects named in `notations:`
 * (read before the faces); the symbol goes to face_def.alt[dialect]. */
static int face_notation(ctx *c, face_def *f, const ynode *n, const char *where)
{
    const tiers_variant *v = c->v;
    char w[WHERE], kw[WHERE], list[256];
    at(w, sizeof w, "%s.notation", where);
    if (want(c, n, Y_MAP, w))
        return c->t.rc;
    for (const ynode *k = n->kids; k; k = k->next) {
        int d = in_list(v->dialect_names, k->key);
        if (d < 0)
            return fail_key(c, k, "%s: '%s' is not a notation of this variant "
                            "(notations: %s)", w, k->key,
                            v->ndialects ? join(v->dialect_names, ", ", list, sizeof list)
                                         : "none");
        if (str_val(c, k, at(kw, sizeof kw, "%s.%s", w, k->key), f->alt[d], MAX_SYM))
            return c->t.rc;
        if (!f->alt[d][0] || strpbrk(f->alt[d], " \t"))
            return fail(c, k, "%s must be a non-empty symbol without spaces", kw);
    }
    return 0;
}

static int face_body(ctx *c, face_def *f, const ynode *n)
{
    char w[WHERE], fw[WHERE];
    long value = 0;
    const ynode *fl = get(n, "flags"), *fb = get(n, "fallback"), *nt = get(n, "notation");
    at(w, sizeof w, "faces.%s", f->name);
    if ((fl && face_flags(c, f, fl, w)) ||
        opt_int(c, n, w, "value", INT16_MIN, INT16_MAX, &value) ||
        read_moves(c, f, get(n, "moves"), at(fw, sizeof fw, "%s.moves", w)) ||
        (fb && face_ref(c, fb, at(fw, sizeof fw, "%s.fallback", w), &f->fallback)) ||
        (nt && face_notation(c, f, nt, w)))
        return c->t.rc;
    f->value = (int16_t)value;
    return 0;
}

static int read_faces(ctx *c, const ynode *root)
{
    const ynode *fs = get(root, "faces");
    int rc = fs ? want(c, fs, Y_MAP, "faces") : 0;
    if (!fs)
        return 0;
    for (const ynode *k = fs->kids; k && !rc; k = k->next)
        rc = face_head(c, k);
    face_def *f = c->v->faces;
    for (const ynode *k = fs->kids; k && !rc; k = k->next)
        rc = face_body(c, f++, k);
    return rc;
}

/* ------------------------------------------------------------ tiles */

static const char *const tile_keys[] = {"name", "front", "back", "count",
                                        "shared", NULL};

static int tile_name(ctx *c, kind_def *k, const ynode *n, const char *where)
{
    const tiers_variant *v = c->v;
    const ynode *nm = get(n, "name");
    char w[WHERE], def[2 * MAX_NAME + 2];
    if (nm && str_val(c, nm, at(w, sizeof w, "%s.name", where), k->name, MAX_NAME))
        return c->t.rc;
    if (!nm) { /* default: the face names */
        int one = k->face[1] == NO_FACE;
        at(def, sizeof def, "%s%s%s", v->faces[k->face[0]].name, one ? "" : "-",
           one ? "" : v->faces[k->face[1]].name);
        if (strlen(def) >= MAX_NAME)
            return fail(c, n, "%s needs a name ('%s' is too long)", where, def);
        memcpy(k->name, def, strlen(def) + 1);
    }
    if (!k->name[0])
        return fail(c, nm ? nm : n, "%s.name must not be empty", where);
    for (const kind_def *o = v->kinds + 1; o < k; o++) {
        if (!strcmp(o->name, k->name))
            return fail(c, nm ? nm : n, "duplicate tile name '%s'", k->name);
        if (o->face[0] == k->face[0] && o->face[1] == k->face[1])
            return fail(c, n, "%s has the faces of tile '%s'", where, o->name);
    }
    return 0;
}

static int read_tile(ctx *c, const ynode *n, const char *where)
{
    tiers_variant *v = c->v;
    char w[WHERE];
    if (v->nkinds >= MAX_KINDS)
        return fail(c, n, "too many tiles (max %d)", MAX_KINDS - 1);
    kind_def *k = &v->kinds[v->nkinds];
    const ynode *front, *back = get(n, "back");
    uint8_t count = get(n, "shared") ? 0 : 1, shared = 0;
    k->face[1] = NO_FACE;
    if (want(c, n, Y_MAP, where) || keys_ok(c, n, where, tile_keys) ||
        !(front = req(c, n, where, "front")) ||
        face_ref(c, front, at(w, sizeof w, "%s.front", where), &k->face[0]) ||
        (back && face_ref(c, back, at(w, sizeof w, "%s.back", where), &k->face[1])) ||
        opt_u8(c, n, where, "count", 0, 255, &count) ||
        opt_u8(c, n, where, "shared", 0, 255, &shared) ||
        tile_name(c, k, n, where))
        return c->t.rc;
    k->count[0] = k->count[1] = count;
    k->count[2] = shared;
    k->royal = (v->faces[k->face[0]].flags & FF_ROYAL) ||
               (k->face[1] != NO_FACE && (v->faces[k->face[1]].flags & FF_ROYAL));
    v->has_shared |= shared > 0;
    v->nkinds++;
    return 0;
}

static int read_tiles(ctx *c, const ynode *root)
{
    const ynode *ts = get(root, "tiles");
    char w[WHERE];
    int i = 0, rc = ts ? want(c, ts, Y_SEQ, "tiles") : 0;
    for (const ynode *k = ts ? ts->kids : NULL; k && !rc; k = k->next, i++)
        rc = read_tile(c, k, at(w, sizeof w, "tiles[%d]", i));
    return rc;
}

/* ------------------------------------------------------------ top level */

static int read_name(ctx *c, const ynode *root)
{
    tiers_variant *v = c->v;
    const ynode *n = get(root, "name");
    const ynode *d = get(root, "description");
    if (str_val(c, n, "name", v->name, sizeof v->name))
        return c->t.rc;
    if (!v->name[0] || strspn(v->name, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
                       strlen(v->name))
        return fail(c, n, "name must match [a-z0-9-]+, got '%s'", v->name);
    return d ? str_val(c, d, "description", v->description, sizeof v->description)
             : 0;
}

static const char *const board_keys[] = {"files", "ranks", "max_tiers", NULL};

static int read_board(ctx *c, const ynode *root)
{
    tiers_variant *v = c->v;
    const ynode *b = get(root, "board");
    if (!b)
        return 0;
    if (want(c, b, Y_MAP, "board") || keys_ok(c, b, "board", board_keys) ||
        opt_u8(c, b, "board", "files", 1, TIERS_MAX_FILES, &v->files) ||
        opt_u8(c, b, "board", "ranks", 1, TIERS_MAX_RANKS, &v->ranks) ||
        opt_u8(c, b, "board", "max_tiers", 1, TIERS_MAX_TIERS, &v->max_tiers))
        return c->t.rc;
    return 0;
}

static const char *const side_keys[] = {"name", "symbol", "forward", NULL};
static const char *const dir_names[] = {"north", "east", "south", "west", NULL};

static int read_side(ctx *c, const ynode *n, int s, const char *where)
{
    tiers_variant *v = c->v;
    const ynode *name, *sym = get(n, "symbol");
    char w[WHERE], letter[MAX_NAME];
    if (want(c, n, Y_MAP, where) || keys_ok(c, n, where, side_keys) ||
        !(name = req(c, n, where, "name")) ||
        str_val(c, name, at(w, sizeof w, "%s.name", where), v->side_name[s], MAX_NAME) ||
        (sym && str_val(c, sym, at(w, sizeof w, "%s.symbol", where), letter, sizeof letter)) ||
        opt_enum(c, n, where, "forward", dir_names, &v->forward[s]))
        return c->t.rc;
    if (!sym)
        at(letter, sizeof letter, "%c", v->side_name[s][0]);
    if (!v->side_name[s][0])
        return fail(c, name, "%s.name must not be empty", where);
    if (strlen(letter) != 1 || (letter[0] | 0x20) < 'a' || (letter[0] | 0x20) > 'z')
        return fail(c, sym ? sym : n, "%s.symbol must be one letter, got '%s'",
                    where, letter);
    v->side_sym[s] = letter[0];
    if (s && !strcmp(v->side_name[0], v->side_name[1]))
        return fail(c, name, "%s.name repeats '%s'", where, v->side_name[0]);
    if (s && v->side_sym[0] == v->side_sym[1])
        return fail(c, sym ? sym : n, "%s.symbol repeats '%c'", where, letter[0]);
    return 0;
}

static int read_sides(ctx *c, const ynode *root)
{
    const ynode *ss = get(root, "sides");
    char w[WHERE];
    int s = 0;
    if (!ss)
        return 0;
    if (want(c, ss, Y_SEQ, "sides"))
        return c->t.rc;
    if (ss->n != 2)
        return fail(c, ss, "sides must list exactly 2 sides, got %d", ss->n);
    for (const ynode *k = ss->kids; k; k = k->next, s++) {
        c->v->forward[s] = s ? DIR_S : DIR_N;
        if (read_side(c, k, s, at(w, sizeof w, "sides[%d]", s)))
            return c->t.rc;
    }
    return 0;
}

static int read_facing(ctx *c, const ynode *root)
{
    return opt_bool(c, root, "", "facing", &c->v->uses_facing);
}

static const char *const zone_names[] = {"none", "all", "ranks", "advanced", NULL};
static const char *const onto_names[] = {"empty", "own", "any", "script", NULL};

static int read_ranks(ctx *c, const ynode *n, const char *where, zone_def *z)
{
    const ynode *r;
    char w[WHERE], iw[WHERE], g[80];
    long lo = 0, hi = 0;
    static const char *const keys[] = {"ranks", NULL};
    if (keys_ok(c, n, where, keys) || !(r = req(c, n, where, "ranks")))
        return c->t.rc;
    at(w, sizeof w, "%s.ranks", where);
    if (r->type != Y_SEQ || r->n != 2)
        return fail(c, r, "%s must be [first, last], got %s", w,
                    r->type == Y_SEQ ? "another list" : got(r, g, sizeof g));
    if (int_val(c, r->kids, at(iw, sizeof iw, "%s[0]", w), 1, c->v->ranks, &lo) ||
        int_val(c, r->last, at(iw, sizeof iw, "%s[1]", w), 1, c->v->ranks, &hi))
        return c->t.rc;
    if (lo > hi)
        return fail(c, r, "%s must be [first, last] with first <= last, got "
                    "[%ld, %ld]", w, lo, hi);
    z->type = ZONE_RANKS;
    z->lo = (uint8_t)lo;
    z->hi = (uint8_t)hi;
    return 0;
}

static int read_zone(ctx *c, const ynode *n, const char *where, zone_def *z)
{
    static const char *const scalars[] = {"all", "advanced", "none", NULL};
    int i = 0;
    if (n->type == Y_MAP)
        return read_ranks(c, n, where, z);
    if (enum_val(c, n, where, scalars, &i))
        return c->t.rc;
    z->type = (uint8_t)in_list(zone_names, scalars[i]);
    return 0;
}

static const char *const drops_keys[] = {"enabled", "zone", "onto", NULL};

static int read_drops(ctx *c, const ynode *root)
{
    tiers_variant *v = c->v;
    const ynode *d = get(root, "drops"), *z = d ? get(d, "zone") : NULL;
    if (d && (want(c, d, Y_MAP, "drops") || keys_ok(c, d, "drops", drops_keys) ||
              opt_bool(c, d, "drops", "enabled", &v->drops) ||
              (z && read_zone(c, z, "drops.zone", &v->drop_zone)) ||
              opt_enum(c, d, "drops", "onto", onto_names, &v->drop_onto)))
        return c->t.rc;
    return 0;
}

static const char *const setup_keys[] = {"enabled", "zone", "onto", "ready",
                                         "first", "marker", "marker_ends_all", "order",
                                         NULL};

/* setup.marker_ends_all: the side whose final marker ends both setups, or
 * `none` (a child variant's way to undo its parent's). */
static int marker_sides(ctx *c, const ynode *s)
{
    const ynode *m = get(s, "marker_ends_all");
    uint8_t side;
    if (!m)
        return 0;
    if (m->type == Y_SCALAR && !m->null && !strcmp(m->str, "none")) {
        c->v->marker_ends_all = 0;
        return 0;
    }
    if (side_ref(c, m, "setup.marker_ends_all", &side))
        return c->t.rc;
    c->v->marker_ends_all = (uint8_t)(1u << side);
    return 0;
}

/* setup.order: a fixed sequence of [side, face] placements. */
static int setup_order(ctx *c, const ynode *s)
{
    tiers_variant *v = c->v;
    const ynode *o = get(s, "order");
    char w[WHERE];
    int i = 0;
    if (!o)
        return 0;
    if (want(c, o, Y_SEQ, "setup.order"))
        return c->t.rc;
    for (const ynode *k = o->kids; k; k = k->next, i++) {
        at(w, sizeof w, "setup.order[%d]", i);
        if (i >= 16)
            return fail(c, k, "too many entries in setup.order (max 16)");
        if (want(c, k, Y_SEQ, w))
            return c->t.rc;
        if (k->n != 2)
            return fail(c, k, "%s must be [side, face]", w);
        if (side_ref(c, k->kids, w, &v->setup_order[i][0]) ||
            face_ref(c, k->last, w, &v->setup_order[i][1]))
            return c->t.rc;
    }
    v->nsetup_order = (uint8_t)i;
    return 0;
}

static int read_setup(ctx *c, const ynode *root)
{
    tiers_variant *v = c->v;
    const ynode *s = get(root, "setup"), *z = s ? get(s, "zone") : NULL,
                *f = s ? get(s, "first") : NULL, *p = get(root, "play_first");
    if (s && (want(c, s, Y_MAP, "setup") || keys_ok(c, s, "setup", setup_keys) ||
              opt_bool(c, s, "setup", "enabled", &v->setup) ||
              (z && read_zone(c, z, "setup.zone", &v->setup_zone)) ||
              opt_enum(c, s, "setup", "onto", onto_names, &v->setup_onto) ||
              opt_bool(c, s, "setup", "ready", &v->setup_ready) ||
              opt_bool(c, s, "setup", "marker", &v->setup_marker) ||
              marker_sides(c, s) || setup_order(c, s) ||
              (f && side_ref(c, f, "setup.first", &v->setup_first_side))))
        return c->t.rc;
    /* Defaulting to "nowhere" would make an enabled setup unplayable. */
    if (v->setup && !z)
        return fail(c, s, "setup.zone is required when setup is enabled");
    return p ? side_ref(c, p, "play_first", &v->play_first_side) : 0;
}

static const char *const mode_keys[] = {"name", "max_tiers", "royal_may_stack",
                                        "start", NULL};

static int read_mode(ctx *c, const ynode *n, const char *where)
{
    tiers_variant *v = c->v;
    mode_def *m = &v->modes[v->nmodes];
    const ynode *name, *st = get(n, "start");
    char w[WHERE];
    m->max_tiers = v->max_tiers;
    m->royal_may_stack = v->royal_may_stack;
    if (want(c, n, Y_MAP, where) || keys_ok(c, n, where, mode_keys) ||
        !(name = req(c, n, where, "name")) ||
        str_val(c, name, at(w, sizeof w, "%s.name", where), m->name, MAX_NAME) ||
        opt_u8(c, n, where, "max_tiers", 1, v->max_tiers, &m->max_tiers) ||
        opt_bool(c, n, where, "royal_may_stack", &m->royal_may_stack) ||
        (st && str_val(c, st, at(w, sizeof w, "%s.start", where), m->start,
                       sizeof m->start)))
        return c->t.rc;
    if (!st && strlen(v->start) >= sizeof m->start)
        return fail(c, n, "%s needs its own start (the variant's is too long)",
                    where);
    if (!st)
        memcpy(m->start, v->start, strlen(v->start) + 1);
    if (!m->name[0])
        return fail(c, name, "%s.name must not be empty", where);
    for (int i = 0; i < v->nmodes; i++)
        if (!strcmp(v->modes[i].name, m->name))
            return fail(c, name, "duplicate mode name '%s'", m->name);
    v->nmodes++;
    return 0;
}

static const char *const region_keys[] = {"source", "self", "offsets", "rays",
                                          "clip", NULL};

static int region_pairs(ctx *c, const ynode *list, const char *where, int8_t (*out)[2],
                        uint8_t *n, int cap)
{
    if (want(c, list, Y_SEQ, where))
        return c->t.rc;
    for (const ynode *k = list->kids; k; k = k->next) {
        int dx = 0, dy = 0;
        if (*n >= cap)
            return fail(c, k, "too many entries in %s (max %d)", where, cap);
        if (read_pair(c, k, where, &dx, &dy))
            return c->t.rc;
        out[*n][0] = (int8_t)dx;
        out[*n][1] = (int8_t)dy;
        (*n)++;
    }
    return 0;
}

static int read_region(ctx *c, const ynode *n, const char *where)
{
    tiers_variant *v = c->v;
    region_def *r = &v->regions[v->nregions];
    const ynode *src, *o = get(n, "offsets"), *ry = get(n, "rays"), *cl = get(n, "clip");
    char w[WHERE];
    if (want(c, n, Y_MAP, where) || keys_ok(c, n, where, region_keys) ||
        !(src = req(c, n, where, "source")) ||
        face_ref(c, src, at(w, sizeof w, "%s.source", where), &r->face) ||
        opt_bool(c, n, where, "self", &r->self) ||
        (o && region_pairs(c, o, at(w, sizeof w, "%s.offsets", where), r->ofs, &r->nofs,
                           MAX_REGION_OFS)) ||
        (ry && region_pairs(c, ry, at(w, sizeof w, "%s.rays", where), r->rays, &r->nrays,
                            MAX_REGION_RAYS)) ||
        (cl && read_zone(c, cl, at(w, sizeof w, "%s.clip", where), &r->clip)))
        return c->t.rc;
    v->nregions++;
    return 0;
}

static int read_regions(ctx *c, const ynode *root)
{
    const ynode *rs = get(root, "regions");
    char w[WHERE];
    int i = 0, rc = rs ? want(c, rs, Y_SEQ, "regions") : 0;
    for (const ynode *k = rs ? rs->kids : NULL; k && !rc; k = k->next, i++)
        rc = i >= MAX_REGIONS ? fail(c, k, "too many regions (max %d)", MAX_REGIONS)
                              : read_region(c, k, at(w, sizeof w, "regions[%d]", i));
    return rc;
}

static int read_modes(ctx *c, const ynode *root)
{
    const ynode *ms = get(root, "modes");
    char w[WHERE];
    int i = 0, rc = ms ? want(c, ms, Y_SEQ, "modes") : 0;
    for (const ynode *k = ms ? ms->kids : NULL; k && !rc; k = k->next, i++)
        rc = i >= MAX_MODES ? fail(c, k, "too many modes (max %d)", MAX_MODES)
                            : read_mode(c, k, at(w, sizeof w, "modes[%d]", i));
    return rc;
}

/* Does the relative path name have a ".." component? */
static int has_dotdot(const char *name)
{
    for (const char *c = name; *c; c++)
        if ((c == name || c[-1] == '/') && c[0] == '.' && c[1] == '.' &&
            (c[2] == '/' || !c[2]))
            return 1;
    return 0;
}

/* Is the real path of file inside the real path of folder dir? */
static int real_inside(const char *dir, const char *file)
{
    char *rd = realpath(dir, NULL), *rf = realpath(file, NULL);
    size_t n = rd ? strlen(rd) : 0;
    int in = rd && rf && !strncmp(rf, rd, n) && (rf[n] == '/' || (n && rd[n - 1] == '/'));
    free(rd);
    free(rf);
    return in;
}

/* Each script resolves against the folder of the file that names it, so
 * a parent's scripts stay the parent's.  A variant is one folder that
 * designers share: a script must lie inside the folder of the file that
 * names it (or below), so a shared variant cannot make tiers read any
 * other file as Lua. */
static int read_script(ctx *c, const ynode *n, const char *where, char *out)
{
    char name[256], dir[1024], path[1300];
    if (str_val(c, n, where, name, sizeof name))
        return c->t.rc;
    if (!name[0])
        return fail(c, n, "%s must not be empty", where);
    if (name[0] == '/' || has_dotdot(name))
        return fail(c, n, "script path '%s' must be relative to this file's folder, "
                    "without '..'", name);
    searchpath_dir_of(n->file, dir, sizeof dir);
    at(path, sizeof path, "%s/%s", dir, name);
    if (searchpath_make_abs(path, out, 256))
        return fail(c, n, "path of script '%s' is too long", name);
    if (access(out, R_OK))
        return fail(c, n, "cannot read script '%s': %s", name, strerror(errno));
    /* A device or FIFO (/dev/zero, /dev/stdin) would be read forever. */
    if (!searchpath_is_file(out))
        return fail(c, n, "script '%s' is not a regular file", name);
    if (!real_inside(dir, out))
        return fail(c, n, "script '%s' is a link to a file outside this file's folder",
                    name);
    return 0;
}

static int read_scripts(ctx *c, const ynode *root)
{
    tiers_variant *v = c->v;
    const ynode *ss = get(root, "scripts");
    char w[WHERE];
    int rc = ss ? want(c, ss, Y_SEQ, "scripts") : 0;
    for (const ynode *k = ss ? ss->kids : NULL; k && !rc; k = k->next) {
        if (v->nscripts >= MAX_SCRIPTS)
            return fail(c, k, "too many scripts (max %d)", MAX_SCRIPTS);
        at(w, sizeof w, "scripts[%d]", v->nscripts);
        rc = read_script(c, k, w, v->scripts[v->nscripts]);
        v->nscripts += !rc;
    }
    return rc;
}

/* Dialects must exist in the registry; a typo would only fail later. */
static int read_notations(ctx *c, const ynode *root)
{
    tiers_variant *v = c->v;
    const ynode *ns = get(root, "notations");
    char w[WHERE];
    int rc = ns ? want(c, ns, Y_SEQ, "notations") : 0;
    for (const ynode *k = ns ? ns->kids : NULL; k && !rc; k = k->next) {
        char *name = v->dialects[v->ndialects];
        at(w, sizeof w, "notations[%d]", v->ndialects);
        if (v->ndialects >= MAX_DIALECTS)
            return fail(c, k, "too many notations (max %d)", MAX_DIALECTS);
        if (str_val(c, k, w, name, MAX_NAME))
            return c->t.rc;
        const dialect *d = notation_dialect(name);
        if (!d)
            return fail(c, k, "unknown notation '%s' in %s", name, w);
        if (d->max_files && v->files > d->max_files)
            return fail(c, k, "notation '%s' in %s writes boards of at most %d files, "
                        "this one has %d", name, w, d->max_files, v->files);
        for (int i = 0; i < v->ndialects; i++)
            if (!strcmp(v->dialects[i], name))
                return fail(c, k, "%s repeats '%s'", w, name);
        v->dialect_names[v->ndialects++] = name;
    }
    v->dialect_names[v->ndialects] = NULL;
    return rc;
}

static int read_start(ctx *c, const ynode *root)
{
    const ynode *s = get(root, "start");
    return s ? str_val(c, s, "start", c->v->start, sizeof c->v->start) : 0;
}

static const char *const top_keys[] = {
    "name", "description", "inherits", "board", "sides", "facing", "faces",
    "tiles", "rules", "options", "drops", "setup", "play_first", "modes",
    "scripts", "start", "notations", "regions", NULL};

static int read_top(ctx *c, const ynode *root)
{
    return keys_ok(c, root, "", top_keys);
}

/* In dependency order: notations before faces (their per-dialect symbols),
 * faces before tiles and rules, options before rules (rules: may set
 * options), start before modes (their default). */
static int (*const readers[])(ctx *, const ynode *) = {
    read_top, read_name, read_board, read_sides, read_facing, read_notations,
    read_faces, read_tiles, read_options, read_rules, read_drops, read_setup,
    read_start, read_modes, read_scripts, read_regions};

static void set_defaults(tiers_variant *v)
{
    v->files = v->ranks = 9;
    v->max_tiers = 3;
    memcpy(v->side_name[0], "white", sizeof "white");
    memcpy(v->side_name[1], "black", sizeof "black");
    v->side_sym[0] = 'w';
    v->side_sym[1] = 'b';
    v->forward[0] = DIR_N;
    v->forward[1] = DIR_S;
    v->nkinds = 1;
    v->kinds[0].face[0] = v->kinds[0].face[1] = NO_FACE;
    v->unit = UNIT_TOP;
    v->stack_own = v->stack_enemy = v->royal_may_stack = v->royal_capture = 1;
    v->region_bonus = v->region_clip = v->shield_all_via = 1;
    v->capture = CAP_TOP;
    v->capture_and_stack = 1;
    v->captured_to = CAPTURED_GONE;
    v->via_rule = VIA_EMPTY;
    v->over_enemy_face = NO_FACE;
    v->legality = LEGAL_STRICT;
    v->stalemate = RES_LOSS;
    v->repetition_key = REPKEY_FULL;
    v->drop_zone.type = ZONE_ALL;
    v->drop_onto = v->setup_onto = ONTO_EMPTY;
    v->setup_zone.type = ZONE_NONE;
    v->setup_first_side = v->play_first_side = 0;
}

static int set_paths(ctx *c, const char *path)
{
    tiers_variant *v = c->v;
    size_t n = strlen(path);
    if (n >= sizeof v->path)
        return fail_at(c, path, 0, 0, "path is too long");
    char dir[1024];
    memcpy(v->path, path, n + 1);
    searchpath_dir_of(path, dir, sizeof dir);
    if (searchpath_make_abs(dir, v->dir, sizeof v->dir))
        return fail_at(c, path, 0, 0, "cannot make the folder absolute: %s",
                       strerror(errno));
    return 0;
}

int loader_read(tiers_variant *v, const char *path, const char *search,
                const char *const *rules, tiers_error *err)
{
    tiers_error dummy;
    ctx c;
    memset(&c, 0, sizeof c);
    yamltree_init(&c.t, err ? err : &dummy, search);
    c.v = v;
    ynode *root = NULL;
    set_defaults(v);
    int rc = yamltree_load(&c.t, path, &root);
    v->yaml_hash = c.t.hash;
    for (size_t i = 0; !rc && i < sizeof readers / sizeof readers[0]; i++)
        rc = readers[i](&c, root);
    if (!rc)
        rc = set_paths(&c, path);
    yamltree_free(&c.t);
    return rc ? rc : rules_apply(v, rules, c.t.err);
}
