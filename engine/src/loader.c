/* loader.c - the schema walk: a variant's merged YAML tree (yamltree.c)
 * becomes a tiers_variant (docs/variant-format.md).  One reader per
 * top-level key (board, sides, tiles, zones, drops, setup, modes, regions,
 * scripts, notations, start; faces and their movement in faces.c), each
 * checking its values (schema.c) and naming file:line:col when one is
 * wrong; rules and options go through the rule table (rules.c). */

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
#include "faces.h"
#include "notation.h"
#include "rules.h"
#include "schema.h"
#include "searchpath.h"
#include "yamltree.h"

/* ------------------------------------------------------------ rules */

/* Where n stands, kept for an error found after loading. */
static void note_place(text_at *at, const ynode *n)
{
    snprintf(at->file, sizeof at->file, "%s", n->file ? n->file : "");
    at->line = n->line;
    at->col = n->col;
}

static int read_rules(schema_ctx *c, const ynode *root)
{
    const ynode *rs = schema_get(root, "rules");
    char msg[512], names[900], w[SCHEMA_WHERE];
    int rc = rs ? schema_want(c, rs, Y_MAP, "rules") : 0;
    for (const ynode *k = rs ? rs->kids : NULL; k && !rc; k = k->next) {
        if (!rules_find(k->key) && !rules_option_find(c->v, k->key))
            return schema_fail_key(c, k, "unknown key '%s' in rules (%s)", k->key,
                                   rules_unknown(c->v, k->key, names, sizeof names));
        rc = schema_want(c, k, Y_SCALAR, schema_at(w, sizeof w, "rules.%s", k->key));
        if (!rc && rules_set_text(c->v, k->key, k->null ? "" : k->str, msg,
                                 sizeof msg))
            rc = schema_fail(c, k, "%s", msg);
    }
    return rc;
}

/* ------------------------------------------------------------ options */

static const char *const option_keys[] = {"values", "default", "sets", "doc", NULL};

static int option_values(schema_ctx *c, option_def *o, const ynode *n, const char *w)
{
    char iw[SCHEMA_WHERE];
    int rc = schema_want(c, n, Y_SEQ, schema_at(iw, sizeof iw, "%s.values", w));
    int i = 0;
    for (const ynode *k = n->kids; k && !rc; k = k->next, i++) {
        schema_at(iw, sizeof iw, "%s.values[%d]", w, i);
        if (i >= MAX_OPTION_VALUES)
            return schema_fail(c, k, "%s: an option has at most %d values", iw,
                               MAX_OPTION_VALUES);
        rc = schema_str_val(c, k, iw, o->values[i], MAX_NAME);
        if (!rc && !o->values[i][0])
            rc = schema_fail(c, k, "%s must not be empty", iw);
        for (int j = 0; !rc && j < i; j++)
            if (!strcmp(o->values[i], o->values[j]))
                rc = schema_fail(c, k, "%s repeats '%s'", iw, o->values[j]);
    }
    o->nvalues = (uint8_t)i;
    return rc;
}

static int option_default(schema_ctx *c, option_def *o, const ynode *n, const char *w)
{
    char iw[SCHEMA_WHERE];
    const char *names[MAX_OPTION_VALUES + 1] = {0};
    long x = 0;
    schema_at(iw, sizeof iw, "%s.default", w);
    if (!o->nvalues) {
        int rc = schema_int_val(c, n, iw, INT32_MIN, INT32_MAX, &x);
        o->def = (int32_t)x;
        return rc;
    }
    for (int i = 0; i < o->nvalues; i++)
        names[i] = o->values[i];
    int i = 0;
    if (schema_enum_val(c, n, iw, names, &i))
        return c->t.rc;
    o->def = i;
    return 0;
}

/* Checks every value against the bound rule, then applies the default. */
static int option_bind(schema_ctx *c, option_def *o, const ynode *n, const char *w)
{
    char iw[SCHEMA_WHERE], msg[512], num[24];
    int rc = schema_str_val(c, n, schema_at(iw, sizeof iw, "%s.sets", w), o->sets, MAX_NAME);
    const rule_def *r = rc ? NULL : rules_find(o->sets);
    long x = o->def;
    if (!rc && !r)
        return schema_fail(c, n, "unknown engine rule '%s' in %s", o->sets, iw);
    if (!rc && !o->nvalues && r->type != R_INT)
        return schema_fail(c, n, "%s: rules.%s is not an integer rule; give the "
                           "option values", iw, r->key);
    for (int i = 0; !rc && i < o->nvalues; i++)
        if (rules_option_value(c->v, o, r, i) < 0 &&
            rules_parse(c->v, r, o->values[i], &x, msg, sizeof msg))
            rc = schema_fail(c, n, "%s: %s", iw, msg);
    if (!rc && !o->nvalues &&
        rules_parse(c->v, r, schema_at(num, sizeof num, "%ld", x), &x, msg, sizeof msg))
        rc = schema_fail(c, n, "%s: %s", iw, msg);
    if (!rc)
        rules_bind(c->v, r, o->nvalues ? rules_option_value(c->v, o, r, o->def) : x);
    return rc;
}

static int read_option(schema_ctx *c, const ynode *n)
{
    tiers_variant *v = c->v;
    char w[SCHEMA_WHERE];
    if (v->noptions >= MAX_OPTIONS)
        return schema_fail_key(c, n, "too many options (max %d)", MAX_OPTIONS);
    if (!*n->key || strlen(n->key) >= MAX_NAME)
        return schema_fail_key(c, n, "option name '%.64s' must be 1..%d characters",
                               n->key, MAX_NAME - 1);
    const ynode *vals = schema_get(n, "values"), *def = schema_get(n, "default"),
                *sets = schema_get(n, "sets");
    if (rules_find(n->key) && !(sets && sets->type == Y_SCALAR &&
                               !strcmp(sets->str, n->key)))
        return schema_fail_key(c, n, "option '%s' has the name of an engine rule "
                               "(allowed only with sets: %s)", n->key, n->key);
    schema_at(w, sizeof w, "options.%s", n->key);
    option_def *o = &v->options[v->noptions];
    memcpy(o->key, n->key, strlen(n->key) + 1);
    int rc = schema_want(c, n, Y_MAP, w);
    if (!rc)
        rc = schema_keys_ok(c, n, w, option_keys);
    if (!rc && vals)
        rc = option_values(c, o, vals, w);
    if (!rc && def)
        rc = option_default(c, o, def, w);
    const ynode *doc = schema_get(n, "doc");
    char dw[SCHEMA_WHERE];
    if (!rc && doc)
        rc = schema_str_val(c, doc, schema_at(dw, sizeof dw, "%s.doc", w), o->doc,
                            sizeof o->doc);
    o->value = o->def;
    v->noptions++;
    return !rc && sets ? option_bind(c, o, sets, w) : rc;
}

static int read_options(schema_ctx *c, const ynode *root)
{
    const ynode *os = schema_get(root, "options");
    int rc = os ? schema_want(c, os, Y_MAP, "options") : 0;
    for (const ynode *k = os ? os->kids : NULL; k && !rc; k = k->next)
        rc = read_option(c, k);
    return rc;
}

/* ------------------------------------------------------------ tiles */

static const char *const tile_keys[] = {"name", "front", "back", "count",
                                        "shared", NULL};

static int tile_name(schema_ctx *c, kind_def *k, const ynode *n, const char *where)
{
    const tiers_variant *v = c->v;
    const ynode *nm = schema_get(n, "name");
    char w[SCHEMA_WHERE], def[2 * MAX_NAME + 2];
    if (nm && schema_str_val(c, nm, schema_at(w, sizeof w, "%s.name", where), k->name, MAX_NAME))
        return c->t.rc;
    if (!nm) { /* default: the face names */
        int one = k->face[1] == NO_FACE;
        schema_at(def, sizeof def, "%s%s%s", v->faces[k->face[0]].name, one ? "" : "-",
                  one ? "" : v->faces[k->face[1]].name);
        if (strlen(def) >= MAX_NAME)
            return schema_fail(c, n, "%s needs a name ('%s' is too long)", where, def);
        memcpy(k->name, def, strlen(def) + 1);
    }
    if (!k->name[0])
        return schema_fail(c, nm ? nm : n, "%s.name must not be empty", where);
    for (const kind_def *o = v->kinds + 1; o < k; o++) {
        if (!strcmp(o->name, k->name))
            return schema_fail(c, nm ? nm : n, "duplicate tile name '%s'", k->name);
        if (o->face[0] == k->face[0] && o->face[1] == k->face[1])
            return schema_fail(c, n, "%s has the faces of tile '%s'", where, o->name);
    }
    return 0;
}

static int read_tile(schema_ctx *c, const ynode *n, const char *where)
{
    tiers_variant *v = c->v;
    char w[SCHEMA_WHERE];
    if (v->nkinds >= MAX_KINDS)
        return schema_fail(c, n, "too many tiles (max %d)", MAX_KINDS - 1);
    kind_def *k = &v->kinds[v->nkinds];
    const ynode *front, *back = schema_get(n, "back");
    uint8_t count = schema_get(n, "shared") ? 0 : 1, shared = 0;
    k->face[1] = NO_FACE;
    if (schema_want(c, n, Y_MAP, where) || schema_keys_ok(c, n, where, tile_keys) ||
        !(front = schema_req(c, n, where, "front")) ||
        schema_face_ref(c, front, schema_at(w, sizeof w, "%s.front", where), &k->face[0]) ||
        (back && schema_face_ref(c, back, schema_at(w, sizeof w, "%s.back", where), &k->face[1])) ||
        schema_opt_u8(c, n, where, "count", 0, 255, &count) ||
        schema_opt_u8(c, n, where, "shared", 0, 255, &shared) ||
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

static int read_tiles(schema_ctx *c, const ynode *root)
{
    const ynode *ts = schema_get(root, "tiles");
    char w[SCHEMA_WHERE];
    int i = 0, rc = ts ? schema_want(c, ts, Y_SEQ, "tiles") : 0;
    for (const ynode *k = ts ? ts->kids : NULL; k && !rc; k = k->next, i++)
        rc = read_tile(c, k, schema_at(w, sizeof w, "tiles[%d]", i));
    return rc;
}

/* ------------------------------------------------------------ top level */

static int read_name(schema_ctx *c, const ynode *root)
{
    tiers_variant *v = c->v;
    const ynode *n = schema_get(root, "name");
    const ynode *d = schema_get(root, "description");
    if (schema_str_val(c, n, "name", v->name, sizeof v->name))
        return c->t.rc;
    if (!v->name[0] || strspn(v->name, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
                       strlen(v->name))
        return schema_fail(c, n, "name must match [a-z0-9-]+, got '%s'", v->name);
    return d ? schema_str_val(c, d, "description", v->description, sizeof v->description)
             : 0;
}

static const char *const board_keys[] = {"files", "ranks", "max_tiers", NULL};

static int read_board(schema_ctx *c, const ynode *root)
{
    tiers_variant *v = c->v;
    const ynode *b = schema_get(root, "board");
    if (!b)
        return 0;
    if (schema_want(c, b, Y_MAP, "board") || schema_keys_ok(c, b, "board", board_keys) ||
        schema_opt_u8(c, b, "board", "files", 1, TIERS_MAX_FILES, &v->files) ||
        schema_opt_u8(c, b, "board", "ranks", 1, TIERS_MAX_RANKS, &v->ranks) ||
        schema_opt_u8(c, b, "board", "max_tiers", 1, TIERS_MAX_TIERS, &v->max_tiers))
        return c->t.rc;
    return 0;
}

static const char *const side_keys[] = {"name", "symbol", "forward", NULL};
static const char *const dir_names[] = {"north", "east", "south", "west", NULL};

static int read_side(schema_ctx *c, const ynode *n, int s, const char *where)
{
    tiers_variant *v = c->v;
    const ynode *name, *sym = schema_get(n, "symbol");
    char w[SCHEMA_WHERE], letter[MAX_NAME];
    if (schema_want(c, n, Y_MAP, where) || schema_keys_ok(c, n, where, side_keys) ||
        !(name = schema_req(c, n, where, "name")) ||
        schema_str_val(c, name, schema_at(w, sizeof w, "%s.name", where), v->side_name[s],
                       MAX_NAME) ||
        (sym && schema_str_val(c, sym, schema_at(w, sizeof w, "%s.symbol", where), letter,
                               sizeof letter)) ||
        schema_opt_enum(c, n, where, "forward", dir_names, &v->forward[s]))
        return c->t.rc;
    if (!sym)
        schema_at(letter, sizeof letter, "%c", v->side_name[s][0]);
    if (!v->side_name[s][0])
        return schema_fail(c, name, "%s.name must not be empty", where);
    if (strlen(letter) != 1 || (letter[0] | 0x20) < 'a' || (letter[0] | 0x20) > 'z')
        return schema_fail(c, sym ? sym : n, "%s.symbol must be one letter, got '%s'",
                           where, letter);
    v->side_sym[s] = letter[0];
    if (s && !strcmp(v->side_name[0], v->side_name[1]))
        return schema_fail(c, name, "%s.name repeats '%s'", where, v->side_name[0]);
    if (s && v->side_sym[0] == v->side_sym[1])
        return schema_fail(c, sym ? sym : n, "%s.symbol repeats '%c'", where, letter[0]);
    return 0;
}

static int read_sides(schema_ctx *c, const ynode *root)
{
    const ynode *ss = schema_get(root, "sides");
    char w[SCHEMA_WHERE];
    int s = 0;
    if (!ss)
        return 0;
    if (schema_want(c, ss, Y_SEQ, "sides"))
        return c->t.rc;
    if (ss->n != 2)
        return schema_fail(c, ss, "sides must list exactly 2 sides, got %d", ss->n);
    for (const ynode *k = ss->kids; k; k = k->next, s++) {
        c->v->forward[s] = s ? DIR_S : DIR_N;
        if (read_side(c, k, s, schema_at(w, sizeof w, "sides[%d]", s)))
            return c->t.rc;
    }
    return 0;
}

static int read_facing(schema_ctx *c, const ynode *root)
{
    return schema_opt_bool(c, root, "", "facing", &c->v->uses_facing);
}

static const char *const zone_names[] = {"none", "all", "ranks", "advanced", NULL};
static const char *const onto_names[] = {"empty", "own", "any", "script", NULL};

static int read_ranks(schema_ctx *c, const ynode *n, const char *where, zone_def *z)
{
    const ynode *r;
    char w[SCHEMA_WHERE], iw[SCHEMA_WHERE], g[80];
    long lo = 0, hi = 0;
    static const char *const keys[] = {"ranks", NULL};
    if (schema_keys_ok(c, n, where, keys) || !(r = schema_req(c, n, where, "ranks")))
        return c->t.rc;
    schema_at(w, sizeof w, "%s.ranks", where);
    if (r->type != Y_SEQ || r->n != 2)
        return schema_fail(c, r, "%s must be [first, last], got %s", w,
                           r->type == Y_SEQ ? "another list" : schema_got(r, g, sizeof g));
    if (schema_int_val(c, r->kids, schema_at(iw, sizeof iw, "%s[0]", w), 1, c->v->ranks, &lo) ||
        schema_int_val(c, r->last, schema_at(iw, sizeof iw, "%s[1]", w), 1, c->v->ranks, &hi))
        return c->t.rc;
    if (lo > hi)
        return schema_fail(c, r, "%s must be [first, last] with first <= last, got "
                           "[%ld, %ld]", w, lo, hi);
    z->type = ZONE_RANKS;
    z->lo = (uint8_t)lo;
    z->hi = (uint8_t)hi;
    return 0;
}

static int read_zone(schema_ctx *c, const ynode *n, const char *where, zone_def *z)
{
    static const char *const scalars[] = {"all", "advanced", "none", NULL};
    int i = 0;
    if (n->type == Y_MAP)
        return read_ranks(c, n, where, z);
    if (schema_enum_val(c, n, where, scalars, &i))
        return c->t.rc;
    z->type = (uint8_t)schema_in_list(zone_names, scalars[i]);
    return 0;
}

static const char *const drops_keys[] = {"enabled", "zone", "onto", NULL};

static int read_drops(schema_ctx *c, const ynode *root)
{
    tiers_variant *v = c->v;
    const ynode *d = schema_get(root, "drops"), *z = d ? schema_get(d, "zone") : NULL;
    if (d && (schema_want(c, d, Y_MAP, "drops") || schema_keys_ok(c, d, "drops", drops_keys) ||
              schema_opt_bool(c, d, "drops", "enabled", &v->drops) ||
              (z && read_zone(c, z, "drops.zone", &v->drop_zone)) ||
              schema_opt_enum(c, d, "drops", "onto", onto_names, &v->drop_onto)))
        return c->t.rc;
    return 0;
}

static const char *const setup_keys[] = {"enabled", "zone", "onto", "ready",
                                         "first", "marker", "marker_ends_all", "order",
                                         NULL};

/* setup.marker_ends_all: the side whose final marker ends both setups, or
 * `none` (a child variant's way to undo its parent's). */
static int marker_sides(schema_ctx *c, const ynode *s)
{
    const ynode *m = schema_get(s, "marker_ends_all");
    uint8_t side;
    if (!m)
        return 0;
    if (m->type == Y_SCALAR && !m->null && !strcmp(m->str, "none")) {
        c->v->marker_ends_all = 0;
        return 0;
    }
    if (schema_side_ref(c, m, "setup.marker_ends_all", &side))
        return c->t.rc;
    c->v->marker_ends_all = (uint8_t)(1u << side);
    return 0;
}

/* setup.order: a fixed sequence of [side, face] placements. */
static int setup_order(schema_ctx *c, const ynode *s)
{
    tiers_variant *v = c->v;
    const ynode *o = schema_get(s, "order");
    char w[SCHEMA_WHERE];
    int i = 0;
    if (!o)
        return 0;
    if (schema_want(c, o, Y_SEQ, "setup.order"))
        return c->t.rc;
    for (const ynode *k = o->kids; k; k = k->next, i++) {
        schema_at(w, sizeof w, "setup.order[%d]", i);
        if (i >= 16)
            return schema_fail(c, k, "too many entries in setup.order (max 16)");
        if (schema_want(c, k, Y_SEQ, w))
            return c->t.rc;
        if (k->n != 2)
            return schema_fail(c, k, "%s must be [side, face]", w);
        if (schema_side_ref(c, k->kids, w, &v->setup_order[i][0]) ||
            schema_face_ref(c, k->last, w, &v->setup_order[i][1]))
            return c->t.rc;
    }
    v->nsetup_order = (uint8_t)i;
    return 0;
}

static int read_setup(schema_ctx *c, const ynode *root)
{
    tiers_variant *v = c->v;
    const ynode *s = schema_get(root, "setup"), *z = s ? schema_get(s, "zone") : NULL,
                *f = s ? schema_get(s, "first") : NULL, *p = schema_get(root, "play_first");
    if (s && (schema_want(c, s, Y_MAP, "setup") || schema_keys_ok(c, s, "setup", setup_keys) ||
              schema_opt_bool(c, s, "setup", "enabled", &v->setup) ||
              (z && read_zone(c, z, "setup.zone", &v->setup_zone)) ||
              schema_opt_enum(c, s, "setup", "onto", onto_names, &v->setup_onto) ||
              schema_opt_bool(c, s, "setup", "ready", &v->setup_ready) ||
              schema_opt_bool(c, s, "setup", "marker", &v->setup_marker) ||
              marker_sides(c, s) || setup_order(c, s) ||
              (f && schema_side_ref(c, f, "setup.first", &v->setup_first_side))))
        return c->t.rc;
    /* Defaulting to "nowhere" would make an enabled setup unplayable. */
    if (v->setup && !z)
        return schema_fail(c, s, "setup.zone is required when setup is enabled");
    return p ? schema_side_ref(c, p, "play_first", &v->play_first_side) : 0;
}

static const char *const mode_keys[] = {"name", "max_tiers", "royal_may_stack",
                                        "start", NULL};

static int read_mode(schema_ctx *c, const ynode *n, const char *where)
{
    tiers_variant *v = c->v;
    mode_def *m = &v->modes[v->nmodes];
    const ynode *name, *st = schema_get(n, "start");
    char w[SCHEMA_WHERE];
    m->max_tiers = v->max_tiers;
    m->royal_may_stack = v->royal_may_stack;
    if (schema_want(c, n, Y_MAP, where) || schema_keys_ok(c, n, where, mode_keys) ||
        !(name = schema_req(c, n, where, "name")) ||
        schema_str_val(c, name, schema_at(w, sizeof w, "%s.name", where), m->name, MAX_NAME) ||
        schema_opt_u8(c, n, where, "max_tiers", 1, v->max_tiers, &m->max_tiers) ||
        schema_opt_bool(c, n, where, "royal_may_stack", &m->royal_may_stack) ||
        (st && schema_str_val(c, st, schema_at(w, sizeof w, "%s.start", where), m->start,
                              sizeof m->start)))
        return c->t.rc;
    if (!st && strlen(v->start) >= sizeof m->start)
        return schema_fail(c, n, "%s needs its own start (the variant's is too long)",
                           where);
    if (!st)
        memcpy(m->start, v->start, strlen(v->start) + 1);
    if (st)
        note_place(&m->start_at, st);
    else
        m->start_at = v->start_at;
    if (!m->name[0])
        return schema_fail(c, name, "%s.name must not be empty", where);
    for (int i = 0; i < v->nmodes; i++)
        if (!strcmp(v->modes[i].name, m->name))
            return schema_fail(c, name, "duplicate mode name '%s'", m->name);
    v->nmodes++;
    return 0;
}

static const char *const region_keys[] = {"source", "self", "offsets", "rays",
                                          "clip", NULL};

static int region_pairs(schema_ctx *c, const ynode *list, const char *where, int8_t (*out)[2],
                        uint8_t *n, int cap)
{
    if (schema_want(c, list, Y_SEQ, where))
        return c->t.rc;
    for (const ynode *k = list->kids; k; k = k->next) {
        int dx = 0, dy = 0;
        if (*n >= cap)
            return schema_fail(c, k, "too many entries in %s (max %d)", where, cap);
        if (faces_offset(c, k, where, &dx, &dy))
            return c->t.rc;
        out[*n][0] = (int8_t)dx;
        out[*n][1] = (int8_t)dy;
        (*n)++;
    }
    return 0;
}

static int read_region(schema_ctx *c, const ynode *n, const char *where)
{
    tiers_variant *v = c->v;
    region_def *r = &v->regions[v->nregions];
    const ynode *src, *o = schema_get(n, "offsets"), *ry = schema_get(n, "rays"),
                      *cl = schema_get(n, "clip");
    char w[SCHEMA_WHERE];
    if (schema_want(c, n, Y_MAP, where) || schema_keys_ok(c, n, where, region_keys) ||
        !(src = schema_req(c, n, where, "source")) ||
        schema_face_ref(c, src, schema_at(w, sizeof w, "%s.source", where), &r->face) ||
        schema_opt_bool(c, n, where, "self", &r->self) ||
        (o && region_pairs(c, o, schema_at(w, sizeof w, "%s.offsets", where), r->ofs, &r->nofs,
                           MAX_REGION_OFS)) ||
        (ry && region_pairs(c, ry, schema_at(w, sizeof w, "%s.rays", where), r->rays, &r->nrays,
                            MAX_REGION_RAYS)) ||
        (cl && read_zone(c, cl, schema_at(w, sizeof w, "%s.clip", where), &r->clip)))
        return c->t.rc;
    v->nregions++;
    return 0;
}

static int read_regions(schema_ctx *c, const ynode *root)
{
    const ynode *rs = schema_get(root, "regions");
    char w[SCHEMA_WHERE];
    int i = 0, rc = rs ? schema_want(c, rs, Y_SEQ, "regions") : 0;
    for (const ynode *k = rs ? rs->kids : NULL; k && !rc; k = k->next, i++)
        rc = i >= MAX_REGIONS ? schema_fail(c, k, "too many regions (max %d)", MAX_REGIONS)
                              : read_region(c, k, schema_at(w, sizeof w, "regions[%d]", i));
    return rc;
}

static int read_modes(schema_ctx *c, const ynode *root)
{
    const ynode *ms = schema_get(root, "modes");
    char w[SCHEMA_WHERE];
    int i = 0, rc = ms ? schema_want(c, ms, Y_SEQ, "modes") : 0;
    for (const ynode *k = ms ? ms->kids : NULL; k && !rc; k = k->next, i++)
        rc = i >= MAX_MODES ? schema_fail(c, k, "too many modes (max %d)", MAX_MODES)
                            : read_mode(c, k, schema_at(w, sizeof w, "modes[%d]", i));
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
static int read_script(schema_ctx *c, const ynode *n, const char *where, char *out)
{
    char name[256], dir[1024], path[1300];
    if (schema_str_val(c, n, where, name, sizeof name))
        return c->t.rc;
    if (!name[0])
        return schema_fail(c, n, "%s must not be empty", where);
    if (name[0] == '/' || has_dotdot(name))
        return schema_fail(c, n, "script path '%s' must be relative to this file's folder, "
                           "without '..'", name);
    searchpath_dir_of(n->file, dir, sizeof dir);
    schema_at(path, sizeof path, "%s/%s", dir, name);
    if (searchpath_make_abs(path, out, 256))
        return schema_fail(c, n, "path of script '%s' is too long", name);
    if (access(out, R_OK))
        return schema_fail(c, n, "cannot read script '%s': %s", name, strerror(errno));
    /* A device or FIFO (/dev/zero, /dev/stdin) would be read forever. */
    if (!searchpath_is_file(out))
        return schema_fail(c, n, "script '%s' is not a regular file", name);
    if (!real_inside(dir, out))
        return schema_fail(c, n, "script '%s' is a link to a file outside this file's folder",
                           name);
    return 0;
}

static int read_scripts(schema_ctx *c, const ynode *root)
{
    tiers_variant *v = c->v;
    const ynode *ss = schema_get(root, "scripts");
    char w[SCHEMA_WHERE];
    int rc = ss ? schema_want(c, ss, Y_SEQ, "scripts") : 0;
    for (const ynode *k = ss ? ss->kids : NULL; k && !rc; k = k->next) {
        if (v->nscripts >= MAX_SCRIPTS)
            return schema_fail(c, k, "too many scripts (max %d)", MAX_SCRIPTS);
        schema_at(w, sizeof w, "scripts[%d]", v->nscripts);
        rc = read_script(c, k, w, v->scripts[v->nscripts]);
        v->nscripts += !rc;
    }
    return rc;
}

/* Dialects must exist in the registry; a typo would only fail later. */
static int read_notations(schema_ctx *c, const ynode *root)
{
    tiers_variant *v = c->v;
    const ynode *ns = schema_get(root, "notations");
    char w[SCHEMA_WHERE];
    int rc = ns ? schema_want(c, ns, Y_SEQ, "notations") : 0;
    for (const ynode *k = ns ? ns->kids : NULL; k && !rc; k = k->next) {
        char *name = v->dialects[v->ndialects];
        schema_at(w, sizeof w, "notations[%d]", v->ndialects);
        if (v->ndialects >= MAX_DIALECTS)
            return schema_fail(c, k, "too many notations (max %d)", MAX_DIALECTS);
        if (schema_str_val(c, k, w, name, MAX_NAME))
            return c->t.rc;
        const dialect *d = notation_dialect(name);
        if (!d)
            return schema_fail(c, k, "unknown notation '%s' in %s", name, w);
        if (d->max_files && v->files > d->max_files)
            return schema_fail(c, k, "notation '%s' in %s writes boards of at most %d files, "
                        "this one has %d", name, w, d->max_files, v->files);
        for (int i = 0; i < v->ndialects; i++)
            if (!strcmp(v->dialects[i], name))
                return schema_fail(c, k, "%s repeats '%s'", w, name);
        v->dialect_names[v->ndialects++] = name;
    }
    v->dialect_names[v->ndialects] = NULL;
    return rc;
}

/* A dialect must be able to write every kind of move the variant makes
 * (an effect's move is written by its format hook in every notation). */
static int check_notation_kinds(schema_ctx *c, const ynode *root)
{
    const tiers_variant *v = c->v;
    const ynode *ns = schema_get(root, "notations");
    int i = 0;
    for (const ynode *k = ns ? ns->kids : NULL; k; k = k->next, i++) {
        const dialect *d = notation_dialect(v->dialects[i]);
        if (d && d->no_drops && (v->drops || v->setup))
            return schema_fail(c, k, "notation '%s' in notations[%d] has no way to write a "
                               "drop, and this variant drops pieces (%s)", d->name, i,
                               v->drops ? "drops.enabled" : "its setup");
    }
    return 0;
}

static int read_start(schema_ctx *c, const ynode *root)
{
    const ynode *s = schema_get(root, "start");
    if (s)
        note_place(&c->v->start_at, s);
    return s ? schema_str_val(c, s, "start", c->v->start, sizeof c->v->start) : 0;
}

static const char *const top_keys[] = {
    "name", "description", "inherits", "board", "sides", "facing", "faces",
    "tiles", "rules", "options", "drops", "setup", "play_first", "modes",
    "scripts", "start", "notations", "regions", NULL};

static int read_top(schema_ctx *c, const ynode *root)
{
    return schema_keys_ok(c, root, "", top_keys);
}

/* In dependency order: notations before faces (their per-dialect symbols),
 * faces before tiles and rules, options before rules (rules: may set
 * options), start before modes (their default). */
static int (*const readers[])(schema_ctx *, const ynode *) = {
    read_top, read_name, read_board, read_sides, read_facing, read_notations,
    faces_read, read_tiles, read_options, read_rules, read_drops, read_setup,
    check_notation_kinds, read_start, read_modes, read_scripts, read_regions};

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

/* What only the merged whole can tell: a child that lost its parent's
 * royal piece, or every tile at count 0 (no side has a piece to play). */
static int check_merged(schema_ctx *c, const ynode *root)
{
    tiers_variant *v = c->v;
    int royal = 0, pieces = 0;
    for (int k = 1; k < v->nkinds; k++) {
        royal |= v->kinds[k].royal;
        pieces += v->kinds[k].count[0] + v->kinds[k].count[2];
    }
    if (c->t.parent_royal == 1 && !royal)
        return schema_fail(c, c->t.inherits, "no tile of the merged variant shows a royal "
                           "face, and the parent's did (check tiles and the faces' flags)");
    const ynode *ts = schema_get(root, "tiles");
    if (v->nkinds > 1 && !pieces)
        return schema_fail(c, ts ? ts : root, "side '%s' has no tile: every tile has "
                           "count 0", v->side_name[0]);
    for (int i = 0; i < c->t.nwarnings && i < (int)(sizeof v->warnings / sizeof v->warnings[0]);
         i++) {
        memcpy(v->warnings[i], c->t.warnings[i], sizeof v->warnings[i]);
        v->nwarnings = (uint8_t)(i + 1);
    }
    return 0;
}

static int set_paths(schema_ctx *c, const char *path)
{
    tiers_variant *v = c->v;
    size_t n = strlen(path);
    if (n >= sizeof v->path)
        return schema_fail_at(c, path, 0, 0, "path is too long");
    char dir[1024];
    memcpy(v->path, path, n + 1);
    searchpath_dir_of(path, dir, sizeof dir);
    if (searchpath_make_abs(dir, v->dir, sizeof v->dir))
        return schema_fail_at(c, path, 0, 0, "cannot make the folder absolute: %s",
                              strerror(errno));
    return 0;
}

int loader_read(tiers_variant *v, const char *path, const char *search,
                const char *const *rules, tiers_error *err)
{
    tiers_error dummy;
    schema_ctx c;
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
        rc = check_merged(&c, root);
    if (!rc)
        rc = set_paths(&c, path);
    yamltree_free(&c.t);
    return rc ? rc : rules_apply(v, rules, c.t.err);
}
