/* variant.c - loading and concluding variants, and listing those on the
 * search path (searchpath.c finds them).  The loader fills
 * the flat struct; variant_conclude checks what spans several keys and
 * precomputes the tables move generation reads. */
#include "variant.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "hooks.h"
#include "loader.h"
#include "searchpath.h"

static const char *const no_dialects[] = {NULL};

/* FNV-1a over the YAML files (read by the loader, inherited ones
 * included) and the script files: identifies the rules a playout ran
 * with. */
static uint64_t hash_file(uint64_t h, const char *path)
{
    size_t len = 0;
    char *buf = fileio_read(path, SIZE_MAX, &len, NULL, 0, NULL);
    for (size_t i = 0; buf && i < len; i++)
        h = (h ^ (uint8_t)buf[i]) * 0x100000001b3ull;
    free(buf);
    return h;
}

static void compute_hash(tiers_variant *v)
{
    uint64_t h = v->yaml_hash;
    for (int i = 0; i < v->nscripts; i++)
        h = hash_file(h, v->scripts[i]);
    snprintf(v->hash, sizeof v->hash, "%016llx", (unsigned long long)h);
}

/* The variant's YAML read, checked and concluded, its scripts not run:
 * all that listing needs.  NULL with err on failure. */
static tiers_variant *variant_read(const char *spec, const char *search,
                                   const char *const *rules, tiers_error *err)
{
    char path[1024];
    memset(err, 0, sizeof *err);
    if (!spec || !*spec) {
        snprintf(err->msg, sizeof err->msg, "no variant given");
        return NULL;
    }
    if (searchpath_resolve(spec, search, path, sizeof path) < 0) {
        snprintf(err->msg, sizeof err->msg, "variant '%s' not found (no such file, folder "
                 "or name on the variant path)", spec);
        return NULL;
    }
    tiers_variant *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    if (loader_read(v, path, search, rules, err) < 0 || variant_conclude(v, err) < 0) {
        tiers_variant_free(v);
        return NULL;
    }
    compute_hash(v);
    return v;
}

tiers_variant *tiers_variant_load(const char *spec, const char *search,
                                  const char *const *rules, tiers_error *err)
{
    tiers_variant *v = variant_read(spec, search, rules, err);
    if (v && v->nscripts) {
        const char *files[MAX_SCRIPTS];
        for (int i = 0; i < v->nscripts; i++)
            files[i] = v->scripts[i];
        if (hooks_load_lua(v, files, v->nscripts, err) < 0) {
            tiers_variant_free(v);
            return NULL;
        }
    }
    return v;
}

void tiers_variant_free(tiers_variant *v)
{
    if (!v)
        return;
    hooks_free(v);
    free(v);
}

/* Turns a piece-frame offset to a facing: N keeps it, E maps forward to
 * +file, S reverses it, W maps forward to -file. */
static void turn(int dir, int dx, int dy, int8_t *ox, int8_t *oy)
{
    static const int m[4][4] = {{1, 0, 0, 1}, {0, 1, -1, 0}, {-1, 0, 0, -1}, {0, -1, 1, 0}};
    *ox = (int8_t)(m[dir][0] * dx + m[dir][1] * dy);
    *oy = (int8_t)(m[dir][2] * dx + m[dir][3] * dy);
}

static void conclude_lines(tiers_variant *v)
{
    for (int d = 0; d < 4; d++)
        for (int i = 0; i < v->nlines; i++) {
            const line_def *a = &v->lines[i];
            line_def *b = &v->wlines[d][i];
            *b = *a;
            turn(d, a->fx, a->fy, &b->fx, &b->fy);
            turn(d, a->dx, a->dy, &b->dx, &b->dy);
            for (int k = 0; k < a->nvia; k++)
                turn(d, a->via[k][0], a->via[k][1], &b->via[k][0], &b->via[k][1]);
        }
}

static int add_offset(int8_t (*list)[2], uint8_t *n, int cap, int dx, int dy)
{
    for (int i = 0; i < *n; i++)
        if (list[i][0] == dx && list[i][1] == dy)
            return 0;
    if (*n == cap)
        return -1;
    list[*n][0] = (int8_t)dx;
    list[*n][1] = (int8_t)dy;
    (*n)++;
    return 0;
}

/* Where a removed piece could open a line onto a square: along the
 * reverse of every ray that can be blocked, and on the via squares of
 * leaps.  A via square of a multi-square line has no fixed offset from
 * the target: then give up (nrays = 0xff) and always test legality. */
static void conclude_blockers(tiers_variant *v)
{
    v->nrays = v->nvia_off = 0;
    for (int d = 0; d < 4; d++)
        for (int i = 0; i < v->nlines; i++) {
            const line_def *L = &v->wlines[d][i];
            int fail = 0;
            if (L->len != 1 && !(L->flags & LN_LEAPING))
                fail |= add_offset(v->rays, &v->nrays, 64, -L->dx, -L->dy);
            if (L->nvia && L->len != 1)
                fail = 1;
            for (int k = 0; k < L->nvia && !fail; k++)
                fail |= add_offset(v->via_off, &v->nvia_off, 128, L->via[k][0] - L->fx,
                                   L->via[k][1] - L->fy);
            if (fail || (L->flags & LN_LEAPING) || v->height_block) {
                v->nrays = 0xff;
                return;
            }
        }
}

static void conclude_reach(tiers_variant *v)
{
    for (int f = 0; f < v->nfaces; f++)
        for (int t = 0; t < v->faces[f].ntiers && t < TIERS_MAX_TIERS; t++)
            for (int d = 0; d < 4; d++) {
                uint64_t *bits = v->reach[f][t][d];
                const line_def *L = &v->wlines[d][v->faces[f].first[t]];
                for (int i = 0; i < v->faces[f].count[t]; i++) {
                    int x = L[i].fx, y = L[i].fy;
                    for (int k = 0; (!L[i].len || k < L[i].len) && abs(x) <= 15 && abs(y) <= 15;
                         k++, x += L[i].dx, y += L[i].dy) {
                        int bit = (y + 15) * 31 + x + 15;
                        bits[bit >> 6] |= 1ull << (bit & 63);
                        if (!L[i].dx && !L[i].dy)
                            break;
                    }
                }
            }
}

/* The union over tiers, plus the over-enemy face's table; copiers may
 * move like anything, so they reach everywhere. */
static void conclude_reach_any(tiers_variant *v)
{
    for (int f = 0; f < v->nfaces; f++)
        for (int d = 0; d < 4; d++) {
            uint64_t *bits = v->reach_any[f][d];
            int copier = (v->faces[f].flags & FF_COPY_BELOW) != 0;
            for (int w = 0; w < 16; w++) {
                uint64_t b = copier ? ~0ull : 0;
                for (int t = 0; t < TIERS_MAX_TIERS; t++)
                    b |= v->reach[f][t][d][w];
                if (v->over_enemy_face != NO_FACE)
                    for (int t = 0; t < TIERS_MAX_TIERS; t++)
                        b |= v->reach[v->over_enemy_face][t][d][w];
                bits[w] = b;
            }
        }
}

/* stuck_any[f][d]: stuck[f][.][d] over the tiers, with the over-enemy
 * face's (a piece on an enemy moves by that table). */
static void stuck_any_tables(tiers_variant *v)
{
    int oe = v->over_enemy_face;
    for (int f = 0; f < v->nfaces; f++)
        for (int d = 0; d < 4; d++)
            for (int w = 0; w < 4; w++) {
                uint64_t any = 0;
                for (int t = 0; t < TIERS_MAX_TIERS; t++)
                    any |= v->stuck[f][t][d][w] | (oe != NO_FACE ? v->stuck[oe][t][d][w] : 0);
                v->stuck_any[f][d][w] = any;
            }
}

/* Marks in near the squares from which an offset of reach lands on x, y. */
static void stuck_near_from(const tiers_variant *v, const uint64_t *reach, int x, int y,
                            uint64_t *near)
{
    for (int w = 0; w < 16; w++)
        for (uint64_t bits = reach[w]; bits; bits &= bits - 1) {
            int bit = w * 64 + __builtin_ctzll(bits);
            int fx = x - (bit % 31 - 15), fy = y - (bit / 31 - 15);
            if (fx >= 0 && fx < v->files && fy >= 0 && fy < v->ranks) {
                int from = sq_make(fx, fy);
                near[from >> 6] |= 1ull << (from & 63);
            }
        }
}

/* stuck_near[f][d]: the squares from which some offset of reach_any[f][d]
 * lands on stuck_any[f][d]: each such square less each offset.  Only the
 * few faces with stuck squares and their few offsets are walked. */
static void stuck_near_tables(tiers_variant *v)
{
    memset(v->stuck_near, 0, sizeof v->stuck_near);
    for (int f = 0; f < v->nfaces; f++)
        for (int d = 0; d < 4; d++)
            for (int w = 0; w < 4; w++)
                for (uint64_t at = v->stuck_any[f][d][w]; at; at &= at - 1) {
                    int sq = w * 64 + __builtin_ctzll(at);
                    stuck_near_from(v, v->reach_any[f][d], sq_file(sq), sq_rank(sq),
                                    v->stuck_near[f][d]);
                }
}

/* The stuck tables: for each face, tier and facing, the squares from
 * which that table reaches no square of the board, whatever stands there
 * (a face with fewer tiers than the board uses its last table higher up);
 * then stuck_any and stuck_near (core.h). */
void variant_stuck_tables(tiers_variant *v)
{
    if (v->stuck_ready)
        return;
    memset(v->stuck, 0, sizeof v->stuck);
    for (int f = 0; f < v->nfaces; f++) {
        const face_def *fd = &v->faces[f];
        for (int t = 0; t < fd->ntiers && t < TIERS_MAX_TIERS; t++)
            for (int d = 0; d < 4; d++)
                for (int r = 0; r < v->ranks; r++)
                    for (int x = 0; x < v->files; x++) {
                        const line_def *L = &v->wlines[d][fd->first[t]];
                        int sq = sq_make(x, r), any = 0;
                        for (int i = 0; i < fd->count[t] && !any; i++) {
                            int fx = x + L[i].fx, fy = r + L[i].fy;
                            any = fx >= 0 && fx < v->files && fy >= 0 && fy < v->ranks;
                        }
                        if (!any)
                            v->stuck[f][t][d][sq >> 6] |= 1ull << (sq & 63);
                    }
        /* the tiers above the last table use it; a face without a table
           (immobile) is stuck everywhere */
        int last = fd->ntiers - 1;
        for (int t = fd->ntiers > 0 ? fd->ntiers : 0; t < TIERS_MAX_TIERS; t++)
            for (int d = 0; d < 4; d++)
                for (int w = 0; w < 4; w++) {
                    uint64_t all = 0;
                    for (int r = 0; last < 0 && r < v->ranks; r++)
                        for (int x = 0; x < v->files; x++)
                            if (sq_make(x, r) >> 6 == w)
                                all |= 1ull << (sq_make(x, r) & 63);
                    v->stuck[f][t][d][w] = last >= 0 ? v->stuck[f][last][d][w] : all;
                }
    }
    stuck_any_tables(v);
    stuck_near_tables(v);
    v->stuck_ready = 1;
}

static void conclude_zone(tiers_variant *v, int setup, const zone_def *z)
{
    for (int side = 0; side < 2; side++)
        for (int sq = 0; sq < TIERS_MAX_SQUARES; sq++) {
            int f = sq_file(sq), r = sq_rank(sq), ok = 0;
            if (f < v->files && r < v->ranks) {
                int own = v->forward[side] == DIR_S ? v->ranks - r : r + 1;
                ok = z->type == ZONE_ALL || (z->type == ZONE_RANKS && own >= z->lo && own <= z->hi);
            }
            v->zone_ok[setup][side][sq] = (uint8_t)ok;
        }
}

static int fail(tiers_error *err, const char *path, const char *fmt, const char *what)
{
    snprintf(err->file, sizeof err->file, "%s", path);
    snprintf(err->msg, sizeof err->msg, fmt, what);
    return TIERS_EINPUT;
}

int variant_conclude(tiers_variant *v, tiers_error *err)
{
    if (v->nkinds < 2)
        return fail(err, v->path, "%s: the variant defines no tiles", v->name);
    for (int c = 0; c < PC_CODES; c++) {
        int k = pc_kind((piece_t)c);
        v->face_of[c] = k && k < v->nkinds ? v->kinds[k].face[pc_flipped((piece_t)c)] : 0;
        if (v->face_of[c] == NO_FACE)
            v->face_of[c] = v->kinds[k].face[0];
    }
    for (int k = 1; k < v->nkinds; k++) {
        kind_def *kd = &v->kinds[k];
        kd->royal = (v->faces[kd->face[0]].flags & FF_ROYAL) ||
                    (kd->face[1] != NO_FACE && (v->faces[kd->face[1]].flags & FF_ROYAL));
    }
    for (int f = 0; f < v->nfaces; f++)
        if (v->faces[f].ntiers == 0 && !(v->faces[f].flags & FF_IMMOBILE))
            return fail(err, v->path, "face '%s' has no movement table (give moves or "
                        "flag it immobile)", v->faces[f].name);
    for (int m = 0; m < v->nmodes; m++)
        if (v->modes[m].max_tiers == 0)
            v->modes[m].max_tiers = v->max_tiers;
    conclude_lines(v);
    conclude_blockers(v);
    conclude_reach(v);
    conclude_reach_any(v);
    v->stuck_ready = 0; /* made on demand: variant_stuck_tables */
    v->has_royal = 0;
    for (int f = 0; f < v->nfaces; f++)
        v->has_royal |= (v->faces[f].flags & FF_ROYAL) != 0;
    for (int c = 0; c < PC_CODES; c++)
        v->royal_code[c] = pc_kind((piece_t)c) && (v->faces[v->face_of[c]].flags & FF_ROYAL);
    for (int c = 0; c < PC_CODES; c++)
        for (int k = 0; k < v->nregions; k++)
            v->region_code[c] |= pc_kind((piece_t)c) && pc_owner((piece_t)c) < 2 &&
                                 v->face_of[c] == v->regions[k].face;
    conclude_zone(v, 0, &v->drop_zone);
    conclude_zone(v, 1, &v->setup_zone);
    return 0;
}

/* ------------------------------------------------------------ listing */

typedef struct list_ctx {
    void (*fn)(const char *, const char *, const char *, void *);
    void *ud;
    int n;
    char seen[256][MAX_NAME];
} list_ctx;

static int list_in(const char *dir, void *ud)
{
    list_ctx *c = ud;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    char names[256][MAX_NAME];
    int k = 0;
    for (struct dirent *e; (e = readdir(d)) && k < 256;) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s/variant.yaml", dir, e->d_name);
        if (e->d_name[0] != '.' && strlen(e->d_name) < MAX_NAME && searchpath_is_file(path))
            snprintf(names[k++], MAX_NAME, "%.31s", e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)k, MAX_NAME, (int (*)(const void *, const void *))strcmp);
    for (int i = 0; i < k; i++) {
        int dup = 0;
        for (int j = 0; j < c->n && !dup; j++)
            dup = !strcmp(c->seen[j], names[i]);
        if (dup || c->n == 256)
            continue;
        snprintf(c->seen[c->n++], MAX_NAME, "%s", names[i]);
        char sub[2048], desc[256] = "";
        snprintf(sub, sizeof sub, "%s/%s", dir, names[i]);
        tiers_error err;
        /* the scripts are not run: listing is for finding, `check` tests */
        tiers_variant *v = variant_read(sub, NULL, NULL, &err);
        if (v)
            snprintf(desc, sizeof desc, "%s", v->description);
        else
            snprintf(desc, sizeof desc, "(does not load: %.200s)", err.msg);
        tiers_variant_free(v);
        if (c->fn)
            c->fn(names[i], sub, desc, c->ud);
    }
    return 0;
}

int tiers_variants_list(const char *search,
                        void (*fn)(const char *, const char *, const char *, void *), void *ud)
{
    list_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return TIERS_ENOMEM;
    c->fn = fn;
    c->ud = ud;
    searchpath_each(search, list_in, c);
    int n = c->n;
    free(c);
    return n;
}

const char *tiers_variant_name(const tiers_variant *v) { return v->name; }
const char *tiers_variant_description(const tiers_variant *v) { return v->description; }
const char *tiers_variant_path(const tiers_variant *v) { return v->path; }
const char *tiers_variant_hash(const tiers_variant *v) { return v->hash; }
int tiers_variant_files(const tiers_variant *v) { return v->files; }
int tiers_variant_ranks(const tiers_variant *v) { return v->ranks; }
int tiers_variant_max_tiers(const tiers_variant *v) { return v->max_tiers; }
const char *tiers_variant_side_name(const tiers_variant *v, int side)
{
    return side == 0 || side == 1 ? v->side_name[side] : "shared";
}
const char *const *tiers_variant_notations(const tiers_variant *v)
{
    return v->ndialects ? (const char *const *)v->dialect_names : no_dialects;
}

int tiers_variant_effects(const tiers_variant *v) { return v->neffects; }
const char *tiers_variant_effect_name(const tiers_variant *v, int i)
{
    return i >= 0 && i < v->neffects ? v->effect_name[i] : "";
}
const char *tiers_variant_script_error(const tiers_variant *v)
{
    return hooks_last_error(v);
}

int tiers_variant_warning_count(const tiers_variant *v) { return v->nwarnings; }
const char *tiers_variant_warning(const tiers_variant *v, int i)
{
    return i >= 0 && i < v->nwarnings ? v->warnings[i] : NULL;
}

/* ------------------------------------------------------------ lint */

static int lint_face_used(const tiers_variant *v, int f)
{
    for (int k = 1; k < v->nkinds; k++)
        if (v->kinds[k].face[0] == f || v->kinds[k].face[1] == f)
            return 1;
    for (int g = 0; g < v->nfaces; g++)
        if (v->faces[g].fallback == f)
            return 1;
    return v->over_enemy_face == f;
}

/* The tiles (by name) on the start position's board, and those in its
 * hands. */
static void lint_start(const tiers_variant *v, char (*board)[MAX_NAME], int *nb,
                       char (*hand)[MAX_NAME], int *nh)
{
    tiers_error err;
    tiers_piece_info pi;
    tiers_pos *p = tiers_pos_new(v, 0, &err);
    *nb = *nh = 0;
    for (int r = 0; p && r < v->ranks; r++)
        for (int f = 0; f < v->files; f++)
            for (int t = 1; t <= tiers_pos_height(p, f, r) && *nb < MAX_KINDS * 4; t++)
                if (tiers_pos_piece_info(p, f, r, t, &pi) >= 0)
                    snprintf(board[(*nb)++], MAX_NAME, "%s", pi.tile);
    for (int o = 0; p && o < 3; o++)
        for (int i = 0; tiers_pos_hand_entry(p, o, i, &pi) > 0 && *nh < MAX_KINDS * 4; i++)
            snprintf(hand[(*nh)++], MAX_NAME, "%s", pi.tile);
    tiers_pos_free(p);
}

static int lint_named(char (*list)[MAX_NAME], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(list[i], name))
            return 1;
    return 0;
}

/* Does some script's text hold the name?  (What a script reads is not
 * tracked: a name in no file is surely unread.) */
static int lint_in_scripts(const tiers_variant *v, const char *name)
{
    for (int i = 0; i < v->nscripts; i++) {
        size_t len = 0;
        char *buf = fileio_read(v->scripts[i], SIZE_MAX, &len, NULL, 0, NULL);
        int in = buf && strstr(buf, name);
        free(buf);
        if (in)
            return 1;
    }
    return 0;
}

int tiers_variant_lint(const tiers_variant *v, void (*fn)(const char *, void *), void *ud)
{
    char text[400], (*board)[MAX_NAME] = calloc(MAX_KINDS * 8, MAX_NAME),
                    (*hand)[MAX_NAME] = board ? board + MAX_KINDS * 4 : NULL;
    int n = 0, nb = 0, nh = 0;
    if (!board)
        return TIERS_ENOMEM;
    for (int f = 0; f < v->nfaces; f++) {
        if (lint_face_used(v, f))
            continue;
        n++;
        snprintf(text, sizeof text, "face '%s' is shown by no tile", v->faces[f].name);
        if (fn)
            fn(text, ud);
    }
    lint_start(v, board, &nb, hand, &nh);
    for (int k = 1; k < v->nkinds; k++) {
        const char *name = v->kinds[k].name;
        if (lint_named(board, nb, name) || (lint_named(hand, nh, name) && (v->drops || v->setup)))
            continue;
        n++;
        snprintf(text, sizeof text, "tile '%s' can never enter play: it is not on the start "
                 "position's board, %s", name, lint_named(hand, nh, name)
                 ? "and the variant has no drops nor setup to take it from a hand"
                 : "nor in a hand");
        if (fn)
            fn(text, ud);
    }
    for (int i = 0; i < v->noptions; i++) {
        const option_def *o = &v->options[i];
        if (o->sets[0] || (v->nmodes && !strcmp(o->key, "mode")) || lint_in_scripts(v, o->key))
            continue;
        n++;
        snprintf(text, sizeof text, "option '%s' sets no engine rule and no script names it",
                 o->key);
        if (fn)
            fn(text, ud);
    }
    free(board);
    return n;
}
