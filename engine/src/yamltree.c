/* yamltree.c - libyaml events into a marked tree (yamltree.h), and the
 * `inherits:` chain merged into one.  The only file that includes yaml.h:
 * the schema walk (loader.c) sees ynodes alone. */

#include "yamltree.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <yaml.h>

#include "fileio.h"
#include "searchpath.h"

#define PRINTF YAMLTREE_PRINTF

/* Limits against hostile files: size, node count (alias expansion), depth;
 * keys per mapping and anchors keep the quadratic merge and alias lookup
 * fast. */
enum {
    MAX_FILE_BYTES = 1 << 20, MAX_NODES = 100000, MAX_DEPTH = 64,
    MAX_KEYS = 1024, MAX_ANCHORS = 256
};

typedef yamltree ctx;

struct yamltree_blk {
    struct yamltree_blk *next;
    size_t used, cap;
    max_align_t mem[];
};
typedef struct yamltree_blk blk;

int yamltree_failv(yamltree *c, const char *file, int line, int col, const char *fmt,
                   va_list ap)
{
    if (c->rc)
        return c->rc;
    snprintf(c->err->file, sizeof c->err->file, "%s", file ? file : "");
    c->err->line = line;
    c->err->col = col;
    vsnprintf(c->err->msg, sizeof c->err->msg, fmt, ap);
    return c->rc = TIERS_EINPUT;
}

int yamltree_fail_at(yamltree *c, const char *file, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = yamltree_failv(c, file, line, col, fmt, ap);
    va_end(ap);
    return rc;
}

static int oom(ctx *c)
{
    if (!c->rc) {
        yamltree_fail_at(c, NULL, 0, 0, "out of memory");
        c->rc = TIERS_ENOMEM;
    }
    return c->rc;
}

void *yamltree_alloc(yamltree *c, size_t n)
{
    blk *b = c->arena;
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        if (!(b = malloc(sizeof *b + cap))) {
            oom(c);
            return NULL;
        }
        b->next = c->arena;
        b->used = 0;
        b->cap = cap;
        c->arena = b;
    }
    void *p = (char *)b->mem + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

static char *sdup(ctx *c, const char *s, size_t n)
{
    char *d = yamltree_alloc(c, n + 1);
    if (d)
        memcpy(d, s, n);
    return d;
}

static void arena_free(ctx *c)
{
    while (c->arena) {
        blk *b = c->arena;
        c->arena = b->next;
        free(b);
    }
}

/* ------------------------------------------------------------ tree */

PRINTF(3, 4)
static int fail(ctx *c, const ynode *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = yamltree_failv(c, n->file, n->line, n->col, fmt, ap);
    va_end(ap);
    return rc;
}

PRINTF(3, 4)
static int fail_key(ctx *c, const ynode *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = yamltree_failv(c, n->file, n->key_line, n->key_col, fmt, ap);
    va_end(ap);
    return rc;
}

static void append(ynode *p, ynode *n)
{
    n->next = NULL;
    if (p->last)
        p->last->next = n;
    else
        p->kids = n;
    p->last = n;
    p->n++;
}

const ynode *yamltree_get(const ynode *map, const char *key)
{
    if (map->type != Y_MAP)
        return NULL;
    for (const ynode *k = map->kids; k; k = k->next)
        if (!strcmp(k->key, key))
            return k;
    return NULL;
}

/* ------------------------------------------------------------ merging
 * A child's keys against its parent's (docs/variant-format.md): `KEY-`
 * removes by name, `KEY+` appends, mappings merge key by key, anything
 * else replaces; `replace: [KEY...]` names the top-level replacements
 * that are meant. */

static int merge(ctx *c, ynode *base, ynode *over, int top);

/* The operator a key ends with ('+', '-') or 0; *len is the bare key's. */
static int key_op(const char *key, size_t *len)
{
    size_t n = strlen(key);
    int op = n > 1 && (key[n - 1] == '+' || key[n - 1] == '-') ? key[n - 1] : 0;
    *len = n - (op != 0);
    return op;
}

/* The entry of base called key[0..len), and the link that points to it. */
static ynode *find_key(ynode *base, const char *key, size_t len, ynode ***link,
                       ynode **prev)
{
    *link = &base->kids;
    *prev = NULL;
    for (ynode *b = base->kids; b; *prev = b, *link = &b->next, b = b->next)
        if (strlen(b->key) == len && !strncmp(b->key, key, len))
            return b;
    return NULL;
}

static void unlink_kid(ynode *base, ynode **link, ynode *prev, ynode *b)
{
    *link = b->next;
    if (base->last == b)
        base->last = prev;
    base->n--;
}

static void replace_kid(ynode *base, ynode **link, ynode *b, ynode *o)
{
    o->next = b->next;
    *link = o;
    if (base->last == b)
        base->last = o;
}

/* The name a list entry goes by: a scalar's text, or a mapping's `name`,
 * else its `source` (regions), else front[-back] (a tile's default). */
static const char *entry_name(const ynode *e, char *buf, size_t size)
{
    static const char *const keys[] = {"name", "source"};
    if (e->type == Y_SCALAR)
        return e->str;
    for (int i = 0; i < 2; i++) {
        const ynode *k = yamltree_get(e, keys[i]);
        if (k && k->type == Y_SCALAR)
            return k->str;
    }
    const ynode *f = yamltree_get(e, "front"), *b = yamltree_get(e, "back");
    if (!f || f->type != Y_SCALAR)
        return "";
    snprintf(buf, size, "%s%s%s", f->str, b && b->type == Y_SCALAR ? "-" : "",
             b && b->type == Y_SCALAR ? b->str : "");
    return buf;
}

/* Removes the entries (or a mapping's keys) named by one name node. */
static int remove_name(ctx *c, ynode *b, const ynode *name, const char *key)
{
    char buf[160];
    int found = 0;
    ynode **link = &b->kids, *prev = NULL;
    for (ynode *e = b->kids, *next; e; e = next) {
        next = e->next;
        const char *nm = b->type == Y_MAP ? e->key : entry_name(e, buf, sizeof buf);
        if (strcmp(nm, name->str)) {
            prev = e;
            link = &e->next;
            continue;
        }
        unlink_kid(b, link, prev, e);
        found = 1;
    }
    return found ? 0 : fail(c, name, "%s-: the parent's %s has no entry '%s'", key, key,
                            name->str);
}

/* KEY-: [names] */
static int merge_remove(ctx *c, ynode *base, const ynode *o, size_t len)
{
    char key[128];
    snprintf(key, sizeof key, "%.*s", (int)len, o->key);
    ynode **link, *prev, *b = find_key(base, o->key, len, &link, &prev);
    if (o->type != Y_SEQ)
        return fail(c, o, "%s-: must be a list of names to remove", key);
    if (!b || b->type == Y_SCALAR)
        return fail_key(c, o, "%s-: the parent has no %s list to remove from", key, key);
    for (const ynode *k = o->kids; k; k = k->next) {
        if (k->type != Y_SCALAR || k->null)
            return fail(c, k, "%s-: entries must be names", key);
        if (remove_name(c, b, k, key))
            return c->rc;
    }
    return 0;
}

/* A new mapping of over's: its own KEY+ and KEY- applied against nothing. */
static ynode *fresh(ctx *c, ynode *o)
{
    ynode *n = yamltree_alloc(c, sizeof *n);
    if (!n)
        return NULL;
    *n = *o;
    n->kids = n->last = n->next = NULL;
    n->n = 0;
    return merge(c, n, o, 0) ? NULL : n;
}

/* KEY+: [entries] */
static int merge_append(ctx *c, ynode *base, ynode *o, size_t len)
{
    char key[128];
    snprintf(key, sizeof key, "%.*s", (int)len, o->key);
    ynode **link, *prev, *b = find_key(base, o->key, len, &link, &prev);
    if (o->type != Y_SEQ)
        return fail(c, o, "%s+: must be a list of entries to add", key);
    if (b && b->type == Y_MAP)
        return fail_key(c, o, "%s+: %s is a mapping, whose keys merge without '+'", key,
                        key);
    if (b && b->type == Y_SEQ) {
        ynode *next;
        for (ynode *k = o->kids; k; k = next) {
            next = k->next;
            append(b, k);
        }
        return 0;
    }
    if (!(o->key = sdup(c, o->key, len)))
        return c->rc;
    if (b)
        replace_kid(base, link, b, o); /* a null value: nothing to keep */
    else
        append(base, o);
    return 0;
}

static int listed(const ynode *list, const char *key)
{
    for (const ynode *k = list ? list->kids : NULL; k; k = k->next)
        if (k->type == Y_SCALAR && !strcmp(k->str, key))
            return 1;
    return 0;
}

/* `replace:` lists top-level keys this very file sets. */
static int check_replace(ctx *c, const ynode *over, const ynode *r)
{
    if (r->type != Y_SEQ)
        return fail(c, r, "replace must be a list of keys, e.g. replace: [scripts]");
    for (const ynode *k = r->kids; k; k = k->next)
        if (k->type != Y_SCALAR || !yamltree_get(over, k->str) || !strcmp(k->str, "replace"))
            return fail(c, k, "replace: '%s' is not a key this file sets",
                        k->type == Y_SCALAR ? k->str : "?");
    return 0;
}

static void warn(ctx *c, const ynode *o, const ynode *b)
{
    if (c->nwarnings >= YAMLTREE_MAX_WARNINGS)
        return;
    snprintf(c->warnings[c->nwarnings++], YAMLTREE_WARNING,
             "%s:%d:%d: %s: replaces the parent's %d entr%s (write %s+: to add, or list "
             "%s in replace:)", o->file, o->key_line, o->key_col, o->key, b->n,
             b->n == 1 ? "y" : "ies", o->key, o->key);
}

/* A plain key: mappings merge (unless replaced on purpose), the rest
 * replaces. */
static int merge_plain(ctx *c, ynode *base, ynode *o, int top, const ynode *repl)
{
    ynode **link, *prev, *b = find_key(base, o->key, strlen(o->key), &link, &prev);
    int meant = top && listed(repl, o->key);
    if (!b) {
        ynode *n = o->type == Y_MAP ? fresh(c, o) : o;
        if (!n)
            return c->rc;
        append(base, n);
        return 0;
    }
    if (b->type == Y_MAP && o->type == Y_MAP && !meant)
        return merge(c, b, o, 0);
    if (top && !meant && b->type == Y_SEQ && b->n && o->type == Y_SEQ)
        warn(c, o, b);
    ynode *n = o->type == Y_MAP ? fresh(c, o) : o;
    if (!n)
        return c->rc;
    replace_kid(base, link, b, n);
    return 0;
}

/* Merges over into base: removals first, so `tiles-` and `tiles+` in one
 * file replace an entry whatever their order. */
static int merge(ctx *c, ynode *base, ynode *over, int top)
{
    const ynode *repl = top ? yamltree_get(over, "replace") : NULL;
    size_t len;
    if (repl && check_replace(c, over, repl))
        return c->rc;
    for (ynode *o = over->kids; o; o = o->next) {
        int op = key_op(o->key, &len);
        ynode **link, *prev;
        if (op == '+' && find_key(over, o->key, len, &link, &prev))
            return fail_key(c, o, "%s and %.*s in one mapping: write one or the other",
                            o->key, (int)len, o->key);
        if (op == '-' && merge_remove(c, base, o, len))
            return c->rc;
    }
    ynode *next;
    for (ynode *o = over->kids; o; o = next) {
        next = o->next;
        int op = key_op(o->key, &len);
        if (o == repl || op == '-')
            continue;
        if (op == '+' ? merge_append(c, base, o, len) : merge_plain(c, base, o, top, repl))
            return c->rc;
    }
    return 0;
}

/* Does a tile of the tree show a royal face?  (flags: royal, or a list
 * holding it.) */
static int tree_royal(const ynode *root)
{
    const ynode *tiles = yamltree_get(root, "tiles"), *faces = yamltree_get(root, "faces");
    for (const ynode *t = tiles && faces && tiles->type == Y_SEQ ? tiles->kids : NULL; t;
         t = t->next)
        for (int side = 0; side < 2; side++) {
            const ynode *f = yamltree_get(t, side ? "back" : "front");
            const ynode *fd = f && f->type == Y_SCALAR ? yamltree_get(faces, f->str) : NULL;
            const ynode *fl = fd ? yamltree_get(fd, "flags") : NULL;
            if (fl && fl->type == Y_SCALAR && !strcmp(fl->str, "royal"))
                return 1;
            for (const ynode *k = fl && fl->type == Y_SEQ ? fl->kids : NULL; k; k = k->next)
                if (k->type == Y_SCALAR && !strcmp(k->str, "royal"))
                    return 1;
        }
    return 0;
}

/* ------------------------------------------------------------ parsing */

typedef struct anchor {
    struct anchor *next;
    const char *name;
    const ynode *node;
} anchor;

typedef struct pstate {
    ctx *c;
    const char *file, *buf;        /* buf is NUL-terminated */
    size_t len;
    ynode *open[MAX_DEPTH];        /* open collections, innermost last */
    ynode *key[MAX_DEPTH];         /* a mapping's key awaiting its value */
    const char *anch[MAX_DEPTH];   /* anchor of an open collection */
    int depth, docs, nanchors;
    anchor *anchors;               /* latest first */
    ynode *root;
} pstate;

static const char *src_line(const pstate *ps, size_t idx)
{
    const char *s = ps->buf, *end = ps->buf + ps->len;
    for (; idx; idx--) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        if (!nl)
            return NULL;
        s = nl + 1;
    }
    return s;
}

/* The character at a mark (columns count UTF-8 characters). */
static int char_at(const pstate *ps, yaml_mark_t m)
{
    const char *s = src_line(ps, m.line);
    if (!s)
        return 0;
    for (size_t i = 0; i < m.column && *s && *s != '\n'; i++)
        while (*++s && ((unsigned char)*s & 0xc0) == 0x80)
            ;
    return *s;
}

/* A literal block's lines map 1:1 to source lines after the `|` line, so
 * diagram cells can be located exactly: find the block's indentation by
 * comparing its first content line with the source. */
static void literal_body(const pstate *ps, ynode *n, yaml_mark_t m)
{
    size_t k = 0;
    const char *s = n->str;
    while (*s) {
        size_t len = strcspn(s, "\n"), lead = strspn(s, " ");
        if (lead < len) {
            const char *src = src_line(ps, m.line + 1 + k);
            size_t slead = src ? strspn(src, " ") : 0;
            if (src && slead >= lead) {
                n->body_line = (int)m.line + 2;
                n->body_col = (int)(slead - lead) + 1;
            }
            return;
        }
        if (!s[len])
            return;
        s += len + 1;
        k++;
    }
}

PRINTF(3, 4)
static int fail_mark(pstate *ps, yaml_mark_t m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = yamltree_failv(ps->c, ps->file, (int)m.line + 1, (int)m.column + 1, fmt, ap);
    va_end(ap);
    return rc;
}

static ynode *new_node(pstate *ps, int type, yaml_mark_t m)
{
    ctx *c = ps->c;
    if (++c->nodes > MAX_NODES) {
        fail_mark(ps, m, "more than %d YAML nodes (aliases expanding too far?)",
                  MAX_NODES);
        return NULL;
    }
    ynode *n = yamltree_alloc(c, sizeof *n);
    if (!n)
        return NULL;
    n->type = (uint8_t)type;
    n->file = ps->file;
    n->line = (int)m.line + 1;
    n->col = (int)m.column + 1;
    return n;
}

static int attach(pstate *ps, ynode *n)
{
    if (!ps->depth) {
        ps->root = n;
        return 0;
    }
    ynode *p = ps->open[ps->depth - 1], **k = &ps->key[ps->depth - 1];
    if (p->type == Y_SEQ) {
        append(p, n);
    } else if (!*k) {
        if (n->type != Y_SCALAR)
            return fail(ps->c, n, "mapping keys must be plain strings");
        if (p->n >= MAX_KEYS)
            return fail(ps->c, n, "more than %d keys in one mapping", MAX_KEYS);
        *k = n;
    } else {
        n->key = (*k)->str;
        n->key_line = (*k)->line;
        n->key_col = (*k)->col;
        *k = NULL;
        append(p, n);
    }
    return 0;
}

static int add_anchor(pstate *ps, const char *name, const ynode *n)
{
    if (++ps->nanchors > MAX_ANCHORS)
        return fail(ps->c, n, "more than %d anchors in one file", MAX_ANCHORS);
    anchor *a = yamltree_alloc(ps->c, sizeof *a);
    if (!a)
        return ps->c->rc;
    a->name = name;
    a->node = n;
    a->next = ps->anchors;
    ps->anchors = a;
    return 0;
}

static int is_null_text(const char *s)
{
    return !*s || !strcmp(s, "~") || !strcmp(s, "null") ||
           !strcmp(s, "Null") || !strcmp(s, "NULL");
}

static int on_scalar(pstate *ps, const yaml_event_t *e)
{
    const char *s = (const char *)e->data.scalar.value;
    size_t len = e->data.scalar.length;
    ynode *n = new_node(ps, Y_SCALAR, e->start_mark);
    if (!n)
        return ps->c->rc;
    if (memchr(s, 0, len))
        return fail(ps->c, n, "NUL character in a string");
    if (!(n->str = sdup(ps->c, s, len)))
        return ps->c->rc;
    n->null = e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
              is_null_text(n->str);
    if (e->data.scalar.style == YAML_LITERAL_SCALAR_STYLE)
        literal_body(ps, n, e->start_mark);
    int rc = attach(ps, n);
    const char *a = (const char *)e->data.scalar.anchor;
    if (!rc && a) {
        const char *name = sdup(ps->c, a, strlen(a));
        rc = name ? add_anchor(ps, name, n) : ps->c->rc;
    }
    return rc;
}

static int on_open(pstate *ps, const yaml_event_t *e, int type,
                   const yaml_char_t *anchor_name)
{
    if (ps->depth >= MAX_DEPTH)
        return fail_mark(ps, e->start_mark, "more than %d levels of nesting",
                         MAX_DEPTH);
    ynode *n = new_node(ps, type, e->start_mark);
    if (!n)
        return ps->c->rc;
    int rc = attach(ps, n);
    if (rc)
        return rc;
    const char *a = (const char *)anchor_name, *name = NULL;
    if (a && !(name = sdup(ps->c, a, strlen(a))))
        return ps->c->rc;
    ps->open[ps->depth] = n;
    ps->key[ps->depth] = NULL;
    ps->anch[ps->depth] = name;
    ps->depth++;
    return 0;
}

typedef struct kref {
    const ynode *n;
    int i;
} kref;

static int cmp_kref(const void *a, const void *b)
{
    const kref *x = a, *y = b;
    int d = strcmp(x->n->key, y->n->key);
    return d ? d : (x->i > y->i) - (x->i < y->i);
}

/* Sorting keeps this O(n log n) even for a hostile mapping. */
static int check_dups(ctx *c, const ynode *map)
{
    if (map->n < 2)
        return 0;
    kref *r = yamltree_alloc(c, (size_t)map->n * sizeof *r);
    if (!r)
        return c->rc;
    int i = 0, first = INT_MAX;
    for (const ynode *k = map->kids; k; k = k->next, i++)
        r[i] = (kref){k, i};
    qsort(r, (size_t)map->n, sizeof *r, cmp_kref);
    const ynode *dup = NULL;
    for (i = 1; i < map->n; i++)
        if (!strcmp(r[i].n->key, r[i - 1].n->key) && r[i].i < first) {
            first = r[i].i;
            dup = r[i].n;
        }
    return dup ? fail_key(c, dup, "duplicate key '%s'", dup->key) : 0;
}

static int on_close(pstate *ps)
{
    ynode *n = ps->open[--ps->depth];
    int rc = n->type == Y_MAP ? check_dups(ps->c, n) : 0;
    if (!rc && ps->anch[ps->depth])
        rc = add_anchor(ps, ps->anch[ps->depth], n);
    return rc;
}

static ynode *copy_tree(pstate *ps, const ynode *src, int depth,
                        yaml_mark_t m)
{
    if (src->type != Y_SCALAR && depth > MAX_DEPTH) {
        fail_mark(ps, m, "alias nests deeper than %d levels", MAX_DEPTH);
        return NULL;
    }
    ynode *n = new_node(ps, src->type, m);
    if (!n)
        return NULL;
    *n = *src;
    n->kids = n->last = n->next = NULL;
    n->n = 0;
    for (const ynode *k = src->kids; k; k = k->next) {
        ynode *d = copy_tree(ps, k, depth + 1, m);
        if (!d)
            return NULL;
        append(n, d);
    }
    return n;
}

/* Aliases are expanded by copying; the node cap stops billion laughs. */
static int on_alias(pstate *ps, const yaml_event_t *e)
{
    const char *name = (const char *)e->data.alias.anchor;
    const anchor *a = ps->anchors;
    while (a && strcmp(a->name, name))
        a = a->next;
    if (!a)
        return fail_mark(ps, e->start_mark,
                         "unknown alias '*%s' (anchors must be complete "
                         "before use)", name);
    ynode *n = copy_tree(ps, a->node, ps->depth + 1, e->start_mark);
    if (!n)
        return ps->c->rc;
    n->line = (int)e->start_mark.line + 1;
    n->col = (int)e->start_mark.column + 1;
    return attach(ps, n);
}

static int on_event(pstate *ps, const yaml_event_t *e)
{
    switch (e->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (ps->docs++)
            return fail_mark(ps, e->start_mark,
                             "only one YAML document is allowed per file");
        return 0;
    case YAML_SCALAR_EVENT:
        return on_scalar(ps, e);
    case YAML_SEQUENCE_START_EVENT:
        return on_open(ps, e, Y_SEQ, e->data.sequence_start.anchor);
    case YAML_MAPPING_START_EVENT:
        return on_open(ps, e, Y_MAP, e->data.mapping_start.anchor);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        return on_close(ps);
    case YAML_ALIAS_EVENT:
        return on_alias(ps, e);
    default:
        return 0;
    }
}

static int syntax_error(pstate *ps, const yaml_parser_t *p)
{
    ctx *c = ps->c;
    if (p->error == YAML_MEMORY_ERROR)
        return oom(c);
    if (p->error == YAML_READER_ERROR)
        return yamltree_fail_at(c, ps->file, 0, 0, "invalid text at byte %zu: %s",
                       p->problem_offset, p->problem ? p->problem : "?");
    int line = (int)p->problem_mark.line + 1, col = (int)p->problem_mark.column + 1;
    if (char_at(ps, p->problem_mark) == '\t')
        return yamltree_fail_at(c, ps->file, line, col,
                       "tab character where YAML needs spaces (indentation)");
    return yamltree_fail_at(c, ps->file, line, col, "YAML syntax error: %s%s%s%s",
                   p->problem ? p->problem : "unknown problem",
                   p->context ? " (" : "", p->context ? p->context : "",
                   p->context ? ")" : "");
}

static int parse_tree(ctx *c, const char *file, const char *buf, size_t len,
                      ynode **root)
{
    pstate ps;
    memset(&ps, 0, sizeof ps);
    ps.c = c;
    ps.file = file;
    ps.buf = buf;
    ps.len = len;
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        return oom(c);
    yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
    int rc = 0, done = 0;
    while (!rc && !done) {
        yaml_event_t e;
        if (!yaml_parser_parse(&p, &e)) {
            rc = syntax_error(&ps, &p);
            break;
        }
        rc = on_event(&ps, &e);
        done = e.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&e);
    }
    yaml_parser_delete(&p);
    if (!rc && !ps.root)
        rc = yamltree_fail_at(c, file, 1, 1, "empty file: expected the variant's keys");
    *root = ps.root;
    return rc;
}

/* ------------------------------------------------------------ files */

static int read_file(ctx *c, const char *path, char **out, size_t *len)
{
    char why[300];
    int oom_hit;
    if ((*out = fileio_read(path, MAX_FILE_BYTES, len, why, sizeof why, &oom_hit)))
        return 0;
    return oom_hit ? oom(c) : yamltree_fail_at(c, path, 0, 0, "%s", why);
}

/* Formats a candidate; a folder stands for its variant.yaml. */
PRINTF(3, 4)
static int try_path(char *out, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, size, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= size)
        return 0;
    if (searchpath_is_dir(out)) {
        size_t len = (size_t)n;
        if (len + sizeof "/variant.yaml" > size)
            return 0;
        memcpy(out + len, "/variant.yaml", sizeof "/variant.yaml");
    }
    return searchpath_is_file(out);
}

/* A parent is found like a name on the command line (searchpath.c), else
 * as a path relative to the inheriting file, or absolute. */
static int find_parent(ctx *c, const ynode *ref, char *out, size_t size)
{
    const char *name = ref->str;
    if (!searchpath_find(c->search, name, out, size))
        return 0;
    char dir[1024];
    searchpath_dir_of(ref->file, dir, sizeof dir);
    if (name[0] == '/' ? try_path(out, size, "%s", name)
                       : try_path(out, size, "%s/%s", dir, name))
        return 0;
    return fail(c, ref, "cannot find parent variant '%s' (not on the search "
                "path, not shipped, not relative to this file)", name);
}

static int load_tree(ctx *c, const char *path, const ynode *ref, ynode **out);

static int load_one(ctx *c, const char *path, ynode **out)
{
    const char *file = sdup(c, path, strlen(path));
    char *buf = NULL;
    size_t len = 0;
    ynode *root = NULL, *base = NULL;
    if (!file || read_file(c, file, &buf, &len))
        return c->rc;
    for (size_t i = 0; i < len; i++) /* the content hash covers every file */
        c->hash = (c->hash ^ (uint8_t)buf[i]) * 0x100000001b3ull;
    int rc = parse_tree(c, file, buf, len, &root);
    free(buf);
    if (rc)
        return rc;
    if (root->type != Y_MAP)
        return fail(c, root, "a variant file must be a mapping of keys");
    if (!yamltree_get(root, "name"))
        return fail(c, root, "missing required key 'name'");
    const ynode *inh = yamltree_get(root, "inherits");
    if (!inh) { /* its own KEY+ and KEY- apply against nothing */
        *out = yamltree_alloc(c, sizeof **out);
        if (!*out)
            return c->rc;
        **out = *root;
        (*out)->kids = (*out)->last = NULL;
        (*out)->n = 0;
        return merge(c, *out, root, 1);
    }
    if (inh->type != Y_SCALAR || inh->null || !*inh->str)
        return fail(c, inh, "inherits must be a variant name or a path");
    char ppath[1024];
    if ((rc = find_parent(c, inh, ppath, sizeof ppath)) ||
        (rc = load_tree(c, ppath, inh, &base)))
        return rc;
    c->parent_royal = tree_royal(base);
    c->inherits = inh;
    *out = base;
    return merge(c, base, root, 1);
}

static int load_tree(ctx *c, const char *path, const ynode *ref, ynode **out)
{
    struct stat st;
    if (stat(path, &st))
        return yamltree_fail_at(c, path, 0, 0, "cannot open: %s", strerror(errno));
    for (int i = 0; i < c->nchain; i++)
        if (c->dev[i] == st.st_dev && c->ino[i] == st.st_ino)
            return fail(c, ref, "inherits cycle: '%s' is already being loaded",
                        ref->str);
    if (c->nchain >= YAMLTREE_MAX_INHERIT)
        return fail(c, ref, "inherits chain longer than %d files", YAMLTREE_MAX_INHERIT);
    c->dev[c->nchain] = st.st_dev;
    c->ino[c->nchain++] = st.st_ino;
    int rc = load_one(c, path, out);
    c->nchain--;
    return rc;
}


/* ------------------------------------------------------------ reading */

void yamltree_init(yamltree *t, tiers_error *err, const char *search)
{
    memset(t, 0, sizeof *t);
    t->err = err;
    t->search = search;
    t->parent_royal = -1;
    t->hash = 0xcbf29ce484222325ull; /* FNV-1a offset basis */
}

int yamltree_load(yamltree *t, const char *path, ynode **root)
{
    return load_tree(t, path, NULL, root);
}

void yamltree_free(yamltree *t) { arena_free(t); }

/* 0 = ok, -1 = not an integer, 1 = out of long range. */
int yamltree_parse_long(const char *s, long *out)
{
    const char *d = s + (*s == '-' || *s == '+');
    if (!*d || strspn(d, "0123456789") != strlen(d))
        return -1;
    errno = 0;
    *out = strtol(s, NULL, 10);
    return errno == ERANGE;
}

int yamltree_parse_bool(const char *s)
{
    static const char *const t[] = {"true", "True", "TRUE"};
    static const char *const f[] = {"false", "False", "FALSE"};
    for (int i = 0; i < 3; i++) {
        if (!strcmp(s, t[i]))
            return 1;
        if (!strcmp(s, f[i]))
            return 0;
    }
    return -1;
}
