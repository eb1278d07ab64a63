/* faces.c - the `faces:` key of a variant (docs/variant-format.md): each
 * face's symbol, flags, value and notation, and its movement tables,
 * written as steps, jumps, leaps, slides, ranges, lines or a diagram,
 * turned into the variant's movement lines. */
#include "faces.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Limits of the format: offsets and rays of a move, and diagram size. */
enum { MAX_OFF = 15, MAX_RAY = 15, MAX_DIAGRAM = 31 };

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

static int add_line(schema_ctx *c, const ynode *at_node, const line_def *l)
{
    tiers_variant *v = c->v;
    if (v->nlines >= MAX_LINES)
        return schema_fail(c, at_node, "too many movement lines (max %d)", MAX_LINES);
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
static int leap_via(schema_ctx *c, const ynode *n, const char *where, line_def *l)
{
    if (!straight(l->dx, l->dy))
        return 0;
    int steps = iabs(l->dx) > iabs(l->dy) ? iabs(l->dx) : iabs(l->dy);
    if (steps - 1 > MAX_VIA)
        return schema_fail(c, n, "leap [%d, %d] in %s has %d squares between, max %d",
                           l->dx, l->dy, where, steps - 1, MAX_VIA);
    for (int k = 1; k < steps; k++) {
        l->via[l->nvia][0] = (int8_t)(k * sign(l->dx));
        l->via[l->nvia++][1] = (int8_t)(k * sign(l->dy));
    }
    return 0;
}

static int add_move(schema_ctx *c, const ynode *n, const char *where, int how,
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

int faces_offset(schema_ctx *c, const ynode *n, const char *where, int *dx, int *dy)
{
    char g[80];
    long x = 0, y = 0;
    if (!is_pair(n))
        return schema_fail(c, n, "%s must be an offset [dx, dy], got %s", where,
                           n->type == Y_SEQ ? "another list" : schema_got(n, g, sizeof g));
    if (schema_int_val(c, n->kids, where, -MAX_OFF, MAX_OFF, &x) ||
        schema_int_val(c, n->last, where, -MAX_OFF, MAX_OFF, &y))
        return c->t.rc;
    if (!x && !y)
        return schema_fail(c, n, "offset [0, 0] in %s is the piece's own square", where);
    *dx = (int)x;
    *dy = (int)y;
    return 0;
}

static int add_set(schema_ctx *c, const ynode *n, const char *where, int how, int len)
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
    return schema_fail(c, n, "unknown offset set '%.64s' in %s (sets: %s)", n->str,
                       where, list);
}

static int add_pair(schema_ctx *c, const ynode *n, const char *where, int how, int len)
{
    int dx = 0, dy = 0;
    return faces_offset(c, n, where, &dx, &dy) ? c->t.rc
                                           : add_move(c, n, where, how, dx, dy, len);
}

/* A value is a set name, one [dx, dy], or a list of names and offsets. */
static int add_offsets(schema_ctx *c, const ynode *n, const char *where, int how, int len)
{
    if (n->type == Y_SCALAR)
        return add_set(c, n, where, how, len);
    if (n->type == Y_MAP)
        return schema_fail(c, n, "%s must be offsets or set names, got a mapping", where);
    if (is_pair(n))
        return add_pair(c, n, where, how, len);
    int rc = 0;
    for (const ynode *k = n->kids; k && !rc; k = k->next)
        rc = k->type == Y_SCALAR ? add_set(c, k, where, how, len)
                                 : add_pair(c, k, where, how, len);
    return rc;
}

static int read_range(schema_ctx *c, const ynode *n, const char *where)
{
    char w[SCHEMA_WHERE];
    int rc = schema_want(c, n, Y_MAP, where);
    for (const ynode *k = n->kids; k && !rc; k = k->next) {
        long len = 0;
        if (yamltree_parse_long(k->key, &len) || len < 1 || len > MAX_RAY)
            return schema_fail_key(c, k, "%s: ray length must be 1..%d, got '%.64s'",
                                   where, MAX_RAY, k->key);
        rc = add_offsets(c, k, schema_at(w, sizeof w, "%s.%ld", where, len), HOW_RAY,
                         (int)len);
    }
    return rc;
}

static const char *const line_keys[] = {"first", "dir", "len", "leaping", "via",
                                        "capture", "mirror", NULL};
static const char *const capture_names[] = {"yes", "no", "only", NULL};

static int line_via(schema_ctx *c, const ynode *n, const char *where, line_def *l)
{
    char w[SCHEMA_WHERE];
    int dx = 0, dy = 0, rc = schema_want(c, n, Y_SEQ, schema_at(w, sizeof w, "%s.via", where));
    if (!rc && n->n > MAX_VIA)
        return schema_fail(c, n, "%s has %d squares, max %d", w, n->n, MAX_VIA);
    for (const ynode *k = n->kids; k && !rc; k = k->next) {
        rc = faces_offset(c, k, w, &dx, &dy);
        l->via[l->nvia][0] = (int8_t)dx;
        l->via[l->nvia++][1] = (int8_t)dy;
    }
    return rc;
}

static int add_mirrored(schema_ctx *c, const ynode *n, const line_def *l)
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
static int line_geometry(schema_ctx *c, const ynode *n, const char *where, long len,
                         line_def *l)
{
    const ynode *d = schema_get(n, "dir"), *f = schema_get(n, "first");
    char w[SCHEMA_WHERE];
    int fx = 0, fy = 0, dx = 0, dy = 0;
    if ((d && faces_offset(c, d, schema_at(w, sizeof w, "%s.dir", where), &dx, &dy)) ||
        (f && faces_offset(c, f, schema_at(w, sizeof w, "%s.first", where), &fx, &fy)))
        return c->t.rc;
    if (!d && (!f || len != 1))
        return schema_fail(c, n, "missing required key 'dir' in %s (only a line "
                           "with first and len 1 may omit it)", where);
    l->fx = (int8_t)(f ? fx : dx);
    l->fy = (int8_t)(f ? fy : dy);
    l->dx = (int8_t)(d ? dx : fx);
    l->dy = (int8_t)(d ? dy : fy);
    l->len = (uint8_t)len;
    return 0;
}

static int read_line(schema_ctx *c, const ynode *n, const char *where)
{
    line_def l;
    memset(&l, 0, sizeof l);
    char w[SCHEMA_WHERE];
    int cap = 0;
    uint8_t leaping = 0, mirror = 0;
    long len = 0;
    const ynode *via = schema_get(n, "via"), *cp = schema_get(n, "capture");
    if (schema_want(c, n, Y_MAP, where) || schema_keys_ok(c, n, where, line_keys) ||
        schema_opt_int(c, n, where, "len", 0, MAX_RAY, &len) ||
        line_geometry(c, n, where, len, &l) ||
        schema_opt_bool(c, n, where, "leaping", &leaping) ||
        schema_opt_bool(c, n, where, "mirror", &mirror) ||
        (via && line_via(c, via, where, &l)) ||
        (cp && schema_enum_val(c, cp, schema_at(w, sizeof w, "%s.capture", where),
                               capture_names, &cap)))
        return c->t.rc;
    l.flags = (uint8_t)((leaping ? LN_LEAPING : 0) |
                        (cap == 1 ? LN_NO_CAPTURE : cap == 2 ? LN_ONLY_CAPTURE : 0));
    int rc = add_line(c, n, &l);
    return !rc && mirror ? add_mirrored(c, n, &l) : rc;
}

static int read_lines(schema_ctx *c, const ynode *n, const char *where)
{
    char w[SCHEMA_WHERE];
    int i = 0, rc = schema_want(c, n, Y_SEQ, where);
    for (const ynode *k = n->kids; k && !rc; k = k->next, i++)
        rc = read_line(c, k, schema_at(w, sizeof w, "%s[%d]", where, i));
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

static int diagram_row(schema_ctx *c, const ynode *n, const char *where, diagram *d,
                       const char *line, int vline)
{
    int ncols = 0;
    const char *s = line;
    for (;;) {
        s += strspn(s, " \t");
        if (!*s || *s == '\n')
            break;
        if (ncols >= MAX_DIAGRAM || d->rows >= MAX_DIAGRAM)
            return schema_fail(c, n, "%s is larger than %dx%d cells", where,
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
        return schema_fail(c, &at_cell, "%s: row has %d cells, the first row has %d",
                           where, ncols, d->cols);
    }
    d->cols = ncols;
    d->rows++;
    return 0;
}

static int diagram_ray(schema_ctx *c, const ynode *at_cell, const char *where,
                       int dx, int dy, unsigned *rays, int len)
{
    int sx = sign(dx), sy = sign(dy);
    unsigned bit = 1u << ((sx + 1) * 3 + sy + 1);
    if (!straight(dx, dy))
        return schema_fail(c, at_cell, "%s: ray cell at [%d, %d] is not on a line "
                           "from P", where, dx, dy);
    if (*rays & bit)
        return schema_fail(c, at_cell, "%s: second ray cell in direction [%d, %d]",
                           where, sx, sy);
    *rays |= bit;
    line_def l;
    memset(&l, 0, sizeof l);
    l.fx = l.dx = (int8_t)sx;
    l.fy = l.dy = (int8_t)sy;
    l.len = (uint8_t)len;
    return add_line(c, at_cell, &l);
}

static int diagram_cell(schema_ctx *c, const ynode *n, const char *where,
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
    return schema_fail(c, &at_cell, "%s: unknown cell '%.*s' (cells: . P o x l * 1-9)",
                       where, x->len, x->s);
}

static int read_diagram(schema_ctx *c, const ynode *n, const char *where)
{
    char g[80];
    if (n->type != Y_SCALAR || n->null)
        return schema_fail(c, n, "%s must be a text block, got %s", where,
                           schema_got(n, g, sizeof g));
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
            return schema_fail(c, &at_cell, "%s has a second 'P' cell", where);
        pr = x->row;
        pc = x->col;
    }
    if (!rc && pr < 0)
        return schema_fail(c, n, "%s has no 'P' cell (the piece)", where);
    unsigned rays = 0;
    for (int i = 0; i < d->ncells && !rc; i++)
        rc = diagram_cell(c, n, where, &d->cells[i], pr, pc, &rays);
    return rc;
}

/* ------------------------------------------------------------ faces */

static const char *const table_keys[] = {"step", "jump", "leap", "slide",
                                         "range", "lines", "diagram", NULL};

static int read_table(schema_ctx *c, const ynode *t, const char *where)
{
    char w[SCHEMA_WHERE], list[128];
    int rc = schema_want(c, t, Y_MAP, where);
    for (const ynode *k = t->kids; k && !rc; k = k->next) {
        int i = schema_in_list(table_keys, k->key);
        schema_at(w, sizeof w, "%s.%s", where, k->key);
        if (i < 0)
            return schema_fail_key(c, k, "unknown key '%s' in %s (expected %s)", k->key,
                                   where, schema_join(table_keys, ", ", list, sizeof list));
        rc = i < 4 ? add_offsets(c, k, w, i, i == HOW_RAY ? 0 : 1)
           : i == 4 ? read_range(c, k, w)
           : i == 5 ? read_lines(c, k, w)
                    : read_diagram(c, k, w);
    }
    return rc;
}

static int read_moves(schema_ctx *c, face_def *f, const ynode *n, const char *where)
{
    tiers_variant *v = c->v;
    char w[SCHEMA_WHERE];
    int t = 0, rc = n ? schema_want(c, n, Y_SEQ, where) : 0;
    for (const ynode *k = n ? n->kids : NULL; k && !rc; k = k->next, t++) {
        schema_at(w, sizeof w, "%s[%d]", where, t);
        if (t >= TIERS_MAX_TIERS)
            return schema_fail(c, k, "%s: at most %d tiers", where, TIERS_MAX_TIERS);
        int same = k->type == Y_SCALAR && !strcmp(k->str, "same");
        if (same && !t)
            return schema_fail(c, k, "%s: 'same' needs a table before it", w);
        if (k->type == Y_SCALAR && !same)
            return schema_fail(c, k, "%s must be a table or 'same', got '%.64s'", w, k->str);
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

static int face_symbol(schema_ctx *c, face_def *f, const ynode *s, const char *where)
{
    const tiers_variant *v = c->v;
    char w[SCHEMA_WHERE];
    if (schema_str_val(c, s, schema_at(w, sizeof w, "%s.symbol", where), f->sym, MAX_SYM))
        return c->t.rc;
    static const char letters[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    if (!f->sym[0] || strspn(f->sym, letters) != strlen(f->sym))
        return schema_fail(c, s, "%s must be ASCII letters, got '%s'", w, f->sym);
    for (char *p = f->sym; *p; p++)
        *p = (char)(*p & ~0x20); /* uppercase */
    for (const face_def *o = v->faces; o < f; o++)
        if (!strcmp(o->sym, f->sym))
            return schema_fail(c, s, "duplicate symbol '%s' (faces '%s' and '%s')",
                               f->sym, o->name, f->name);
    return 0;
}

/* A face without a symbol is most often a mistyped name of another (an
 * inherited one): name the faces it is close to. */
static int face_no_symbol(schema_ctx *c, const ynode *faces, const ynode *n, const char *w)
{
    const char *names[MAX_FACES];
    char near[160];
    int k = 0;
    for (const ynode *f = faces->kids; f && k < MAX_FACES; f = f->next)
        names[k++] = f->key;
    if (!*schema_did_you_mean(n->key, names, k, near, sizeof near))
        return schema_fail(c, n, "missing required key 'symbol' in %s", w);
    return schema_fail_key(c, n, "%s: a new face needs a symbol; %s?", w, near);
}

/* First pass: names and symbols, so faces may refer to later faces. */
static int face_head(schema_ctx *c, const ynode *faces, const ynode *n)
{
    tiers_variant *v = c->v;
    char w[SCHEMA_WHERE];
    if (v->nfaces >= MAX_FACES)
        return schema_fail_key(c, n, "too many faces (max %d)", MAX_FACES);
    if (!*n->key || strlen(n->key) >= MAX_NAME || !strcmp(n->key, "none"))
        return schema_fail_key(c, n, "face name '%.64s' must be 1..%d characters, "
                               "not 'none'", n->key, MAX_NAME - 1);
    schema_at(w, sizeof w, "faces.%s", n->key);
    face_def *f = &v->faces[v->nfaces];
    memcpy(f->name, n->key, strlen(n->key) + 1);
    f->fallback = NO_FACE;
    const ynode *s;
    if (schema_want(c, n, Y_MAP, w) || schema_keys_ok(c, n, w, face_keys))
        return c->t.rc;
    if (!(s = schema_get(n, "symbol")))
        return face_no_symbol(c, faces, n, w);
    if (face_symbol(c, f, s, w))
        return c->t.rc;
    v->nfaces++;
    return 0;
}

static int face_flags(schema_ctx *c, face_def *f, const ynode *n, const char *where)
{
    char w[SCHEMA_WHERE];
    int i = 0;
    schema_at(w, sizeof w, "%s.flags", where);
    if (n->type == Y_SCALAR && !n->null) {
        if (schema_enum_val(c, n, w, flag_names, &i))
            return c->t.rc;
        f->flags |= 1u << i;
        return 0;
    }
    int rc = schema_want(c, n, Y_SEQ, w);
    for (const ynode *k = n->kids; k && !rc; k = k->next)
        if (!(rc = schema_enum_val(c, k, w, flag_names, &i)))
            f->flags |= 1u << i;
    return rc;
}

/* faces.X.notation: {dialect: symbol} for dialects named in `notations:`
 * (read before the faces); the symbol goes to face_def.alt[dialect]. */
static int face_notation(schema_ctx *c, face_def *f, const ynode *n, const char *where)
{
    const tiers_variant *v = c->v;
    char w[SCHEMA_WHERE], kw[SCHEMA_WHERE], list[256];
    schema_at(w, sizeof w, "%s.notation", where);
    if (schema_want(c, n, Y_MAP, w))
        return c->t.rc;
    for (const ynode *k = n->kids; k; k = k->next) {
        int d = schema_in_list(v->dialect_names, k->key);
        if (d < 0)
            return schema_fail_key(c, k, "%s: '%s' is not a notation of this variant "
                                   "(notations: %s)", w, k->key,
                                   v->ndialects
                                       ? schema_join(v->dialect_names, ", ", list, sizeof list)
                                       : "none");
        if (schema_str_val(c, k, schema_at(kw, sizeof kw, "%s.%s", w, k->key), f->alt[d], MAX_SYM))
            return c->t.rc;
        if (!f->alt[d][0] || strpbrk(f->alt[d], " \t"))
            return schema_fail(c, k, "%s must be a non-empty symbol without spaces", kw);
    }
    return 0;
}

/* `value: N`, or `value: [t1, t2, ...]` by tier (at most the board's
 * max_tiers; the last holds above).  A piece in hand counts tier 1's. */
static int face_value(schema_ctx *c, face_def *f, const ynode *n, const char *w)
{
    char vw[SCHEMA_WHERE];
    long value = 0;
    const ynode *vn = schema_get(n, "value");
    int k = 0;
    if (!vn || vn->type != Y_SEQ) {
        if (schema_opt_int(c, n, w, "value", INT16_MIN, INT16_MAX, &value))
            return c->t.rc;
        f->tier_value[k++] = (int16_t)value;
    } else {
        int most = c->v->max_tiers ? c->v->max_tiers : TIERS_MAX_TIERS;
        for (const ynode *e = vn->kids; e; e = e->next, k++) {
            if (k >= most)
                return schema_fail(c, e, "%s.value: at most %d values, one per tier (the "
                                   "board's max_tiers)", w, most);
            if (schema_int_val(c, e, schema_at(vw, sizeof vw, "%s.value[%d]", w, k), INT16_MIN,
                               INT16_MAX, &value))
                return c->t.rc;
            f->tier_value[k] = (int16_t)value;
        }
        if (!k)
            return schema_fail(c, vn, "%s.value: give a number or one value per tier, "
                               "not an empty list", w);
    }
    for (; k < TIERS_MAX_TIERS; k++)
        f->tier_value[k] = f->tier_value[k - 1];
    f->value = f->tier_value[0];
    return 0;
}

static int face_body(schema_ctx *c, face_def *f, const ynode *n)
{
    char w[SCHEMA_WHERE], fw[SCHEMA_WHERE];
    const ynode *fl = schema_get(n, "flags"), *fb = schema_get(n, "fallback"),
                *nt = schema_get(n, "notation");
    schema_at(w, sizeof w, "faces.%s", f->name);
    if ((fl && face_flags(c, f, fl, w)) ||
        face_value(c, f, n, w) ||
        read_moves(c, f, schema_get(n, "moves"), schema_at(fw, sizeof fw, "%s.moves", w)) ||
        (fb && schema_face_ref(c, fb, schema_at(fw, sizeof fw, "%s.fallback", w), &f->fallback)) ||
        (nt && face_notation(c, f, nt, w)))
        return c->t.rc;
    return 0;
}

int faces_read(schema_ctx *c, const ynode *root)
{
    const ynode *fs = schema_get(root, "faces");
    int rc = fs ? schema_want(c, fs, Y_MAP, "faces") : 0;
    if (!fs)
        return 0;
    for (const ynode *k = fs->kids; k && !rc; k = k->next)
        rc = face_head(c, fs, k);
    face_def *f = c->v->faces;
    for (const ynode *k = fs->kids; k && !rc; k = k->next)
        rc = face_body(c, f++, k);
    return rc;
}
