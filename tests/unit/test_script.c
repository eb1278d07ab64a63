/* test_script.c - the Lua effects layer (engine/src/lua/): effects
 * that edit, add, veto and format moves, the position API, and hostile
 * scripts (tests/data/lua), each of which must end in TIERS_ESCRIPT with
 * an exact message and leave the engine usable.
 *
 * The variant is built in C (a 5x5 board, kings, pawn/gold tiles) so the
 * tests do not depend on the YAML loader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "core.h"
#include "lua/script.h"
#include "variant.h"

#define assert_contains(hay, needle)                                          \
    do {                                                                      \
        const char *h_ = (hay), *n_ = (needle);                               \
        if (!strstr(h_, n_))                                                  \
            fail_msg("'%s'\n  does not contain '%s'", h_, n_);                \
    } while (0)

/* Kings (all 8 steps); pawn (tier 1: forward; tier 2: forward and
 * sideways) with gold (orthogonal steps) on the back. */
static void add_steps(tiers_variant *v, face_def *f, int tier, const int (*d)[2], int n)
{
    f->first[tier] = v->nlines;
    f->count[tier] = (uint16_t)n;
    for (int i = 0; i < n; i++)
        v->lines[v->nlines++] = (line_def){.fx = (int8_t)d[i][0], .fy = (int8_t)d[i][1],
                                           .dx = (int8_t)d[i][0], .dy = (int8_t)d[i][1],
                                           .len = 1};
    if (f->ntiers < tier + 1)
        f->ntiers = (uint8_t)(tier + 1);
}

static void add_face(tiers_variant *v, const char *name, const char *sym, uint32_t flags)
{
    face_def *f = &v->faces[v->nfaces++];
    snprintf(f->name, sizeof f->name, "%s", name);
    snprintf(f->sym, sizeof f->sym, "%s", sym);
    f->flags = flags;
    f->fallback = NO_FACE;
}

static tiers_variant *new_variant(int onto)
{
    static const int all8[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0},
                                   {1, 0},   {-1, 1}, {0, 1},  {1, 1}};
    static const int fwd[1][2] = {{0, 1}};
    static const int fwd_sides[3][2] = {{0, 1}, {-1, 0}, {1, 0}};
    static const int orth[4][2] = {{0, 1}, {0, -1}, {-1, 0}, {1, 0}};
    tiers_variant *v = calloc(1, sizeof *v);
    snprintf(v->name, sizeof v->name, "scripttest");
    snprintf(v->dir, sizeof v->dir, "%s", tu_path("data/lua"));
    v->files = 5;
    v->ranks = 5;
    v->max_tiers = 3;
    snprintf(v->side_name[0], MAX_NAME, "white");
    snprintf(v->side_name[1], MAX_NAME, "black");
    v->side_sym[0] = 'w';
    v->side_sym[1] = 'b';
    v->forward[0] = DIR_N;
    v->forward[1] = DIR_S;
    add_face(v, "king", "K", FF_ROYAL);
    add_steps(v, &v->faces[0], 0, all8, 8);
    add_face(v, "pawn", "P", 0);
    add_steps(v, &v->faces[1], 0, fwd, 1);
    add_steps(v, &v->faces[1], 1, fwd_sides, 3);
    add_face(v, "gold", "G", 0);
    add_steps(v, &v->faces[2], 0, orth, 4);
    v->nkinds = 3;
    v->kinds[1] = (kind_def){.name = "king", .face = {0, NO_FACE}, .count = {1, 1, 0}};
    v->kinds[2] = (kind_def){.name = "pawn", .face = {1, 2}, .count = {2, 2, 0}};
    v->unit = UNIT_TOP;
    v->stack_own = v->stack_enemy = 1;
    v->capture = CAP_TOP;
    v->capture_and_stack = 1;
    v->captured_to = CAPTURED_HAND;
    v->over_enemy_face = NO_FACE;
    v->legality = LEGAL_STRICT;
    v->drops = 1;
    v->drop_zone.type = ZONE_ALL;
    v->drop_onto = (uint8_t)onto;
    option_def *o = &v->options[v->noptions++];
    snprintf(o->key, sizeof o->key, "style");
    snprintf(o->values[0], MAX_NAME, "calm");
    snprintf(o->values[1], MAX_NAME, "wild");
    o->nvalues = 2;
    o->value = 1;
    o = &v->options[v->noptions++];
    snprintf(o->key, sizeof o->key, "limit");
    o->value = 7;
    tiers_error err;
    assert_int_equal(variant_conclude(v, &err), 0);
    return v;
}

/* Loads tests/data/lua/<file> into v; returns script_load's code. */
static int load(tiers_variant *v, const char *file, tiers_error *err)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", tu_path("data/lua"), file);
    const char *files[1] = {path};
    return script_load(v, files, 1, err);
}

static tiers_variant *scripted(const char *file, int onto)
{
    tiers_variant *v = new_variant(onto);
    tiers_error err;
    char msg[1024];
    if (load(v, file, &err) < 0)
        fail_msg("loading %s: %s", file, tiers_error_text(&err, msg, sizeof msg));
    return v;
}

/* tests/hostile/lua/<file> (the hostile suite's scripts) loaded into v. */
static int load_hostile(tiers_variant *v, const char *file, tiers_error *err)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", tu_path("hostile/lua"), file);
    const char *files[1] = {path};
    return script_load(v, files, 1, err);
}

static tiers_variant *hostile(const char *file)
{
    tiers_variant *v = new_variant(ONTO_ANY);
    tiers_error err;
    char msg[1024];
    if (load_hostile(v, file, &err) < 0)
        fail_msg("loading %s: %s", file, tiers_error_text(&err, msg, sizeof msg));
    return v;
}

static tiers_pos *pos_at(const tiers_variant *v, const char *fmt, int var)
{
    char text[256];
    snprintf(text, sizeof text, fmt, var);
    return tu_pos(v, text, NULL);
}

static void set_pos(tiers_pos *p, const char *fmt, int var)
{
    char text[256];
    tiers_error err;
    snprintf(text, sizeof text, fmt, var);
    if (tiers_pos_parse(p, text, NULL, &err) < 0)
        fail_msg("parsing '%s': %s", text, err.msg);
}

/* A pseudo-legal move by its text (the legal list would run the hooks
 * that a test wants to fail on a make). */
static tiers_move pseudo(tiers_pos *p, const char *text)
{
    static tiers_move buf[TIERS_MAX_MOVES];
    char s[256];
    int n = tiers_pseudo_moves(p, buf, TIERS_MAX_MOVES);
    if (n < 0)
        fail_msg("pseudo moves failed: %s", tiers_variant_script_error(tiers_pos_variant(p)));
    for (int i = 0; i < n; i++)
        if (tiers_move_format(p, &buf[i], NULL, s, sizeof s) > 0 && !strcmp(s, text))
            return buf[i];
    fail_msg("no pseudo move '%s'", text);
    return buf[0];
}

static int legal_count(tiers_pos *p)
{
    static tiers_move buf[TIERS_MAX_MOVES];
    return tiers_legal_moves(p, buf, TIERS_MAX_MOVES);
}

/* The effects whose veto refused a move of p's legal list. */
static uint32_t vetoed(tiers_pos *p)
{
    static tiers_move buf[TIERS_MAX_MOVES];
    tiers_stats st = {.vetoed = 99};
    assert_true(tiers_pos_legal_moves_stats(p, buf, TIERS_MAX_MOVES, &st) >= 0);
    return st.vetoed;
}

static const char *script_error(const tiers_variant *v) { return tiers_variant_script_error(v); }

/* ------------------------------------------------------------ loading */

static void test_load_records_effects(void **state)
{
    (void)state;
    tiers_variant *v = new_variant(ONTO_ANY);
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/promote.lua", tu_path("data/lua"));
    snprintf(b, sizeof b, "%s/betrayal.lua", tu_path("data/lua"));
    const char *files[2] = {a, b};
    tiers_error err;
    assert_int_equal(script_load(v, files, 2, &err), 0);
    assert_int_equal(tiers_variant_effects(v), 3);
    assert_string_equal(tiers_variant_effect_name(v, 0), "promote");
    assert_string_equal(tiers_variant_effect_name(v, 1), "rest");
    assert_string_equal(tiers_variant_effect_name(v, 2), "betrayal");
    assert_int_equal(v->hooks, HOOK_MOVES | HOOK_APPLY | HOOK_AFTER);
    assert_string_equal(script_error(v), "");
    tiers_variant_free(v);
}

/* Relative names resolve against v->dir and name the file in messages. */
static void test_load_relative_name(void **state)
{
    (void)state;
    tiers_variant *v = new_variant(ONTO_ANY);
    const char *files[1] = {"veto.lua"};
    tiers_error err;
    assert_int_equal(script_load(v, files, 1, &err), 0);
    assert_int_equal(v->hooks, HOOK_VETO);
    tiers_variant_free(v);
}

static void expect_load_error(const char *file, int line, const char *msg)
{
    tiers_variant *v = new_variant(ONTO_ANY);
    tiers_error err;
    assert_int_equal(load(v, file, &err), TIERS_ESCRIPT);
    assert_contains(err.file, file);
    assert_int_equal(err.line, line);
    assert_contains(err.msg, msg);
    assert_null(v->script);
    assert_int_equal(v->neffects, 0);
    assert_int_equal(v->hooks, 0);
    /* The variant still works without its scripts. */
    tiers_pos *p = tu_pos(v, "1k3/5/5/P4/4K - w - 0 1", NULL);
    assert_true(legal_count(p) > 0);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

static void test_load_errors(void **state)
{
    (void)state;
    expect_load_error("syntax.lua", 3, "unexpected symbol near '='");
    expect_load_error("badfield.lua", 2, "effect 'typo': unknown field 'aftr' (hooks: moves, "
                      "veto, after, tier, drop_ok, result, apply, format, expand, check, "
                      "evaluate)");
    expect_load_error("dupname.lua", 3, "effect 'twice' is defined twice");
    expect_load_error("noname.lua", 2, "effect{} needs name = \"...\" (a string)");
    expect_load_error("load_loop.lua", 2, "instruction budget exceeded (10000000 instructions)");
    expect_load_error("load_os.lua", 2, "'os' is not available in tiers scripts");
    expect_load_error("bytecode.luac", 0, "attempt to load a binary chunk (mode is 't')");
    expect_load_error("missing.lua", 0, "cannot read script: cannot open: No such file or directory");
}

/* ------------------------------------------------------------ effects */

/* An after hook that flips and takes over the piece beneath; unmake must
 * restore the position and its hash exactly. */
static void test_after_flip_unmake(void **state)
{
    (void)state;
    tiers_variant *v = scripted("betrayal.lua", ONTO_ANY);
    tiers_pos *p = tu_pos(v, "2k2/5/2p2/2P2/2K2 - w - 3 4", NULL);
    char before[256];
    snprintf(before, sizeof before, "%s", tu_fen(p, NULL));
    uint64_t hash = tiers_pos_hash(p);
    tiers_move m;
    tiers_error err;
    assert_int_equal(tiers_move_parse(p, "c2^c3", NULL, &m, &err), 0);
    tiers_stats st = {.vetoed = 0}; /* the parse's trial makes count nowhere */
    assert_int_equal(tiers_pos_make_unchecked(p, &m, &st), 0);
    assert_string_equal(tu_fen(p, NULL), "2k2/5/2[G:P]2/5/2K2 - b - 0 5");
    assert_int_equal(st.fired[0], 1);
    assert_int_equal(st.fired[1], 0);
    /* The incremental hash equals a hash computed from scratch. */
    tiers_pos *q = tu_pos(v, tu_fen(p, NULL), NULL);
    assert_true(tiers_pos_hash(q) == tiers_pos_hash(p));
    tiers_pos_free(q);
    assert_int_equal(tiers_unmake(p), 0);
    assert_string_equal(tu_fen(p, NULL), before);
    assert_true(tiers_pos_hash(p) == hash);
    /* A capture is no stack: the effect does not fire. */
    tu_play(p, "c2xc3", NULL);
    assert_string_equal(tu_fen(p, NULL), "2k2/5/2P2/5/2K2 P b - 0 5");
    assert_int_equal(tiers_unmake(p), 0);
    assert_true(tiers_pos_hash(p) == hash);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* A moves hook adds effect moves that apply performs; one with a format
 * hook, one with the default notation. */
static void test_effect_moves(void **state)
{
    (void)state;
    tiers_variant *v = scripted("promote.lua", ONTO_ANY);
    tiers_pos *p = tu_pos(v, "2k2/5/P1p2/5/2K2 - w - 0 1", NULL);
    char *all = tu_moves(p, NULL);
    assert_contains(all, "a3=G");
    assert_contains(all, "rest");
    free(all);
    char before[256];
    snprintf(before, sizeof before, "%s", tu_fen(p, NULL));
    uint64_t hash = tiers_pos_hash(p);
    tu_play(p, "a3=G", NULL);
    assert_string_equal(tu_fen(p, NULL), "2k2/5/G1p2/5/2K2 - b - 1 2");
    assert_int_equal(tiers_unmake(p), 0);
    assert_string_equal(tu_fen(p, NULL), before);
    assert_true(tiers_pos_hash(p) == hash);
    tu_play(p, "rest", NULL);
    tu_play(p, "rest", NULL);
    assert_string_equal(tu_fen(p, NULL), "2k2/5/P1p2/5/2K2 - w - 2 3 move=1 vars=2");
    tiers_unmake(p);
    tiers_unmake(p);
    assert_true(tiers_pos_hash(p) == hash);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* An ordinary move tagged with an effect: the format hook adds a suffix,
 * the after hook fires (and resets the quiet-ply clock).  The moves hook
 * respects the capacity of the generation buffer. */
static void test_tagged_move_and_capacity(void **state)
{
    (void)state;
    tiers_variant *v = scripted("charge.lua", ONTO_ANY);
    tiers_pos *p = tu_pos(v, "2k2/5/5/5/2K2 - w - 4 1", NULL);
    assert_true(tu_has_move(p, "c1-c3+", NULL));
    assert_true(tu_has_move(p, "c1-c2", NULL));
    tu_play(p, "c1-c3+", NULL);
    assert_string_equal(tu_fen(p, NULL), "2k2/5/2K2/5/5 - b - 0 2");
    tiers_unmake(p);
    static tiers_move buf[TIERS_MAX_MOVES];
    int n = tiers_pseudo_moves(p, buf, TIERS_MAX_MOVES);
    assert_int_equal(n, 6); /* five king steps and the charge */
    assert_int_equal(tiers_pseudo_moves(p, buf, 5), TIERS_EFULL);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* A veto removes moves from the legal list. */
static void test_veto(void **state)
{
    (void)state;
    const char *at = "2k2/5/2p2/2P2/2K2 - w - 0 1";
    tiers_variant *plain = new_variant(ONTO_ANY);
    tiers_variant *v = scripted("veto.lua", ONTO_ANY);
    tiers_pos *p0 = tu_pos(plain, at, NULL), *p = tu_pos(v, at, NULL);
    char *with = tu_moves(p0, NULL), *without = tu_moves(p, NULL);
    assert_contains(with, "c2xc3");
    assert_null(strstr(without, "c2xc3"));
    assert_contains(without, "c2^c3");
    assert_int_equal(legal_count(p), legal_count(p0) - 1);
    free(with);
    free(without);
    tiers_pos_free(p0);
    tiers_pos_free(p);
    tiers_variant_free(plain);
    tiers_variant_free(v);
}

/* The effect counts of playouts: a veto that refused a move of the legal
 * list is reported with that list; check hooks are asked about the side
 * to move (gufuu's contact check). */
static void test_vetoed_and_check_effects(void **state)
{
    (void)state;
    const char *at = "2k2/5/2p2/2P2/2K2 - w - 0 1";
    tiers_variant *plain = new_variant(ONTO_ANY), *v = scripted("veto.lua", ONTO_ANY);
    tiers_pos *p0 = tu_pos(plain, at, NULL), *p = tu_pos(v, at, NULL);
    assert_int_equal(vetoed(p0), 0); /* no vetoes */
    assert_int_equal(vetoed(p), 1);  /* effect 0 refused c2xc3 */
    tu_play(p, "c1-b1", NULL);
    assert_int_equal(vetoed(p), 1);  /* Black's c3xc2 is refused too */
    tiers_pos_free(p);
    p = tu_pos(v, "2k2/5/5/2P2/2K2 - w - 0 1", NULL); /* no capture to refuse */
    assert_int_equal(vetoed(p), 0);
    tiers_pos_free(p0);
    tiers_pos_free(p);
    tiers_variant_free(plain);
    tiers_variant_free(v);

    tiers_variant *g = tu_variant("gufuu");
    int contact = 0;
    while (strcmp(tiers_variant_effect_name(g, contact), "contact-check"))
        contact++;
    p = tu_pos(g, "k@s1/*Z@n1/1K@n *A w - 0 10", NULL); /* the Kaze touches b1 */
    assert_int_equal(tiers_pos_check_effects(p), 1u << contact);
    tiers_pos_free(p);
    p = tu_pos(g, "k@s1/*Z@n1/K@n1 *A w - 0 10", NULL); /* no contact */
    assert_int_equal(tiers_pos_check_effects(p), 0);
    tiers_pos_free(p);
    tiers_variant_free(g);
}

/* A tier hook lifts a-file pieces to their tier-2 table. */
static void test_tier_hook(void **state)
{
    (void)state;
    tiers_variant *v = scripted("tier.lua", ONTO_ANY);
    tiers_pos *p = tu_pos(v, "2k2/5/5/P1P2/2K2 - w - 0 1", NULL);
    assert_true(tu_has_move(p, "a2-b2", NULL));
    assert_false(tu_has_move(p, "c2-d2", NULL));
    assert_true(tu_has_move(p, "c2-c3", NULL));
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* drop_onto: script asks drop_ok for drops onto towers. */
static void test_drop_ok(void **state)
{
    (void)state;
    tiers_variant *v = scripted("drop.lua", ONTO_SCRIPT);
    tiers_pos *p = tu_pos(v, "2k2/5/2p2/1[P:P]P2/4K PG w - 0 1", NULL);
    assert_true(tu_has_move(p, "P*c2", NULL));   /* onto one piece */
    assert_true(tu_has_move(p, "P*c3", NULL));   /* onto an enemy piece */
    assert_false(tu_has_move(p, "P*b2", NULL));  /* onto two pieces */
    assert_false(tu_has_move(p, "G*c2", NULL));  /* not a pawn */
    assert_true(tu_has_move(p, "G*a1", NULL));   /* empty squares are not asked */
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* The rules table and the result hook. */
static void test_rules_and_result(void **state)
{
    (void)state;
    tiers_variant *v = scripted("info.lua", ONTO_ANY);
    tiers_pos *p = tu_pos(v, "2k2/5/5/2P2/2K2 - w - 0 1 vars=1", NULL);
    tiers_status st = tiers_pos_status(p);
    assert_true(st.game_over);
    assert_int_equal(st.result, TIERS_DRAW);
    assert_string_equal(st.reason, "scripttest 5 5 3 wild 7 top black true");
    assert_int_equal(legal_count(p), 0);
    set_pos(p, "2k2/5/5/2P2/2K2 - w - 0 1 vars=%d", 2);
    st = tiers_pos_status(p);
    assert_int_equal(st.result, TIERS_WIN_1);
    assert_string_equal(st.reason, "info");
    set_pos(p, "2k2/5/5/2P2/2K2 - w - 0 1 vars=%d", 0);
    st = tiers_pos_status(p);
    assert_false(st.game_over);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* The read functions of the position handle. */
static void test_pos_read_api(void **state)
{
    (void)state;
    tiers_variant *v = scripted("api.lua", ONTO_ANY);
    tiers_pos *p = tu_pos(v, "2k2/2P2/2[p:P]2/5/4K PPG w - 3 7 vars=1,0,0,0,0,0,0,5", NULL);
    tiers_status st = tiers_pos_status(p);
    assert_string_equal(st.reason, "0 5x5 2 pawn/pawn/1/false/s/1 pawn/pawn/0/false/n/2 nil "
                                   "king/king/0/false/n/1 2,0 2,1,0 false,true true,false 1,5 "
                                   "false 7,3 nil a1,e5 3,1");
    static const char *const errors[] = {
        "api.lua:41: bad argument #1 to 'height' (square 'f1' is off the board (5x5))",
        "api.lua:42: bad argument #1 to 'height' (bad square 'zz' (a name like \"e5\"))",
        "api.lua:43: bad argument #2 to 'piece' (tier must be 1..8)",
        "api.lua:44: square (5, 0) is off the board (files 0..4, ranks 0..4)",
        "api.lua:45: bad argument #1 to 'hand' (owner must be 0, 1 or 2)",
        "api.lua:46: bad argument #1 to 'var' (variable index must be 1..8)",
        "api.lua:47: bad argument #2 to 'attacked' (side must be 0 or 1)",
        "api.lua:48: bad argument #1 to 'coords' (square name expected, got number)",
    };
    for (int i = 0; i < (int)(sizeof errors / sizeof errors[0]); i++) {
        set_pos(p, "2k2/2P2/2[p:P]2/5/4K PPG w - 3 7 vars=%d", i + 2);
        st = tiers_pos_status(p);
        assert_string_equal(st.reason, errors[i]);
    }
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* Edits from an after hook: each primitive, then an exact unmake. */
static void test_pos_edits(void **state)
{
    (void)state;
    tiers_variant *v = scripted("edits.lua", ONTO_ANY);
    tiers_pos *p = pos_at(v, "1k3/5/2[p:P]2/P4/4K - w - 0 1 vars=%d", 9);
    char before[256];
    snprintf(before, sizeof before, "%s", tu_fen(p, NULL));
    uint64_t hash = tiers_pos_hash(p);
    tiers_move m = pseudo(p, "a2-a3");
    assert_int_equal(tiers_pos_make_unchecked(p, &m, NULL), 0);
    assert_string_equal(tu_fen(p, NULL), "1k3/5/P1[g:P]2/5/1p2K p*G2 b - 0 2 vars=9,-7");
    tiers_pos *q = tu_pos(v, tu_fen(p, NULL), NULL);
    assert_true(tiers_pos_hash(q) == tiers_pos_hash(p));
    tiers_pos_free(q);
    assert_int_equal(tiers_unmake(p), 0);
    assert_string_equal(tu_fen(p, NULL), before);
    assert_true(tiers_pos_hash(p) == hash);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* math.random follows the position's seed. */
static void test_random_seeded(void **state)
{
    (void)state;
    tiers_variant *v = scripted("dice.lua", ONTO_ANY);
    tiers_pos *p = tu_pos(v, "1k3/5/5/P4/4K - w - 0 1", NULL);
    tiers_move m = pseudo(p, "a2-a3");
    char first[256], again[256], other[256];
    tiers_pos_seed(p, 42);
    assert_int_equal(tiers_pos_make_unchecked(p, &m, NULL), 0);
    snprintf(first, sizeof first, "%s", tu_fen(p, NULL));
    tiers_unmake(p);
    tiers_pos_seed(p, 42);
    assert_int_equal(tiers_pos_make_unchecked(p, &m, NULL), 0);
    snprintf(again, sizeof again, "%s", tu_fen(p, NULL));
    tiers_unmake(p);
    tiers_pos_seed(p, 43);
    assert_int_equal(tiers_pos_make_unchecked(p, &m, NULL), 0);
    snprintf(other, sizeof other, "%s", tu_fen(p, NULL));
    tiers_unmake(p);
    assert_string_equal(first, again);
    assert_string_not_equal(first, other);
    assert_contains(first, "vars=0,");
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* A hook's math.random depends on the game's seed, the position and the
 * call only: kings-dice's veto refuses one move in ten at random, and
 * asking again (a second list, a list after trying every move) gives the
 * same answer along a game.  Before, each draw advanced the position's
 * state, so a replay saw other refusals than the game it replayed. */
static void test_random_per_call(void **state)
{
    (void)state;
    tiers_variant *v = tu_variant("kings-dice");
    tiers_pos *p = tu_pos(v, NULL, NULL);
    tiers_pos_seed(p, 7);
    static tiers_move a[TIERS_MAX_MOVES], b[TIERS_MAX_MOVES];
    int refused = 0;
    for (int ply = 0; ply < 60; ply++) {
        int n = tiers_pos_legal_moves(p, a, TIERS_MAX_MOVES);
        assert_true(n > 0);
        for (int i = 0; i < n; i++) {
            assert_int_equal(tiers_pos_make_unchecked(p, &a[i], NULL), 0);
            assert_int_equal(tiers_pos_unmake(p), 0);
        }
        assert_int_equal(tiers_pos_legal_moves(p, b, TIERS_MAX_MOVES), n);
        assert_memory_equal(a, b, (size_t)n * sizeof *a);
        refused += tiers_pos_pseudo_moves(p, b, TIERS_MAX_MOVES) - n;
        assert_int_equal(tiers_pos_make_unchecked(p, &a[ply % n], NULL), 0);
    }
    assert_true(refused > 0); /* the dice did refuse moves */
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* ------------------------------------------------------------ hostile */

#define HOSTILE_AT "1k3/5/5/P4/4K - w - 0 1 vars=%d"

/* The after hook of `file` fails on a2-a3 with vars=var: the make returns
 * TIERS_ESCRIPT with `msg`, leaves the position as it was, and the same
 * script still works once the variable is 0. */
static void after_fails(tiers_variant *v, int var, const char *msg)
{
    tiers_pos *p = pos_at(v, HOSTILE_AT, var);
    char before[256];
    snprintf(before, sizeof before, "%s", tu_fen(p, NULL));
    uint64_t hash = tiers_pos_hash(p);
    tiers_move m = pseudo(p, "a2-a3");
    assert_int_equal(tiers_pos_make_unchecked(p, &m, NULL), TIERS_ESCRIPT);
    assert_contains(script_error(v), msg);
    assert_string_equal(tu_fen(p, NULL), before);
    assert_true(tiers_pos_hash(p) == hash);
    set_pos(p, HOSTILE_AT, 0);
    assert_int_equal(tiers_pos_make_unchecked(p, &m, NULL), 0);
    assert_int_equal(tiers_unmake(p), 0);
    assert_true(legal_count(p) > 0);
    tiers_pos_free(p);
}

static void expect_after_failure(const char *file, int var, const char *msg)
{
    tiers_variant *v = scripted(file, ONTO_ANY);
    after_fails(v, var, msg);
    tiers_variant_free(v);
}

/* The after hook of v succeeds on a2-a3 with vars=var. */
static void after_succeeds(tiers_variant *v, int var)
{
    tiers_pos *p = pos_at(v, HOSTILE_AT, var);
    tiers_move m = pseudo(p, "a2-a3");
    if (tiers_pos_make_unchecked(p, &m, NULL) != 0)
        fail_msg("vars=%d: %s", var, script_error(v));
    assert_int_equal(tiers_unmake(p), 0);
    tiers_pos_free(p);
}

static void test_hostile_loop(void **state)
{
    (void)state;
    expect_after_failure("loop.lua", 1, "loop.lua:6: instruction budget exceeded (10000000 "
                         "instructions) (in hook after of effect loop)");
}

static void test_hostile_memory(void **state)
{
    (void)state;
    expect_after_failure("membomb.lua", 1, "membomb.lua:4: memory limit of 64 MiB exceeded "
                         "(in hook after of effect membomb)");
    expect_after_failure("strrep.lua", 1, "strrep.lua:4: memory limit of 64 MiB exceeded "
                         "(in hook after of effect strrep)");
    expect_after_failure("strrep.lua", 2, "strrep.lua:4: memory limit of 64 MiB exceeded "
                         "(in hook after of effect strrep)");
    expect_after_failure("strrep.lua", 3, "strrep.lua:4: memory limit of 64 MiB exceeded "
                         "(in hook after of effect strrep)");
}

static void test_hostile_recursion(void **state)
{
    (void)state;
    expect_after_failure("recursion.lua", 1, "recursion.lua:3: stack overflow");
    assert_true(1);
}

static void test_hostile_libraries(void **state)
{
    (void)state;
    expect_after_failure("os.lua", 1, "os.lua:5: 'os' is not available in tiers scripts "
                         "(in hook after of effect shell)");
    expect_after_failure("io.lua", 1, "io.lua:5: 'io' is not available in tiers scripts "
                         "(in hook after of effect reader)");
    expect_after_failure("require.lua", 1, "require.lua:5: 'require' is not available in "
                         "tiers scripts (in hook after of effect requirer)");
    expect_after_failure("dofile.lua", 1, "dofile.lua:5: 'dofile' is not available in tiers "
                         "scripts (in hook after of effect dofiler)");
    expect_after_failure("dofile.lua", 2, "dofile.lua:6: 'loadfile' is not available in tiers "
                         "scripts (in hook after of effect dofiler)");
    expect_after_failure("bytecode.lua", 1, "bytecode.lua:6: attempt to load a binary chunk "
                         "(mode is 't') (in hook after of effect bytecode)");
    expect_after_failure("bytecode.lua", 2, "bytecode.lua:8: 'string.dump' is not available "
                         "in tiers scripts (in hook after of effect bytecode)");
    expect_after_failure("bytecode.lua", 3, "bytecode.lua:10: cannot change a protected "
                         "metatable (in hook after of effect bytecode)");
    expect_after_failure("late.lua", 1, "late.lua:5: effect{} may only be called while a "
                         "script file loads (in hook after of effect late)");
}

#define ERRORS_AT "1k3/5/5/P4/4K P w - 0 1 vars=%d"

static void still_usable(tiers_pos *p)
{
    set_pos(p, ERRORS_AT, 0);
    assert_true(legal_count(p) > 0);
}

static const tiers_move *effect_move(tiers_pos *p)
{
    static tiers_move buf[TIERS_MAX_MOVES];
    int n = tiers_pseudo_moves(p, buf, TIERS_MAX_MOVES);
    for (int i = 0; i < n; i++)
        if (buf[i].kind == TIERS_MV_EFFECT)
            return &buf[i];
    fail_msg("no effect move");
    return NULL;
}

/* error() inside every hook kind. */
static void test_hostile_error_in_each_hook(void **state)
{
    (void)state;
    tiers_variant *v = scripted("errors.lua", ONTO_ANY);
    tiers_pos *p = pos_at(v, ERRORS_AT, 1);
    static tiers_move buf[TIERS_MAX_MOVES];
    char text[64];

    assert_int_equal(tiers_pseudo_moves(p, buf, TIERS_MAX_MOVES), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "errors.lua:4: boom in moves (in hook moves of "
                                         "effect errors)");
    still_usable(p);

    set_pos(p, ERRORS_AT, 2);
    assert_int_equal(legal_count(p), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "errors.lua:4: boom in veto (in hook veto of "
                                         "effect errors)");
    still_usable(p);

    set_pos(p, ERRORS_AT, 3);
    assert_int_equal(legal_count(p), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "errors.lua:4: boom in after (in hook after of "
                                         "effect errors)");
    still_usable(p);

    /* The tier hook keeps the tier; the next generation reports it. */
    set_pos(p, ERRORS_AT, 4);
    assert_int_equal(script_tier(p, sq_make(0, 1), 0, 1), 1);
    assert_string_equal(script_error(v), "errors.lua:4: boom in tier (in hook tier of "
                                         "effect errors)");
    assert_int_equal(legal_count(p), TIERS_ESCRIPT);
    still_usable(p);

    set_pos(p, ERRORS_AT, 5);
    assert_int_equal(script_drop_ok(p, pc_make(2, 0, 0, DIR_N), sq_make(0, 1)), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "errors.lua:4: boom in drop_ok (in hook drop_ok of "
                                         "effect errors)");
    still_usable(p);

    set_pos(p, ERRORS_AT, 6);
    tiers_status st = {0};
    assert_int_equal(script_result(p, &st), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "errors.lua:4: boom in result (in hook result of "
                                         "effect errors)");
    st = tiers_pos_status(p);
    assert_false(st.game_over);
    still_usable(p);

    set_pos(p, ERRORS_AT, 7);
    assert_int_equal(legal_count(p), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "errors.lua:4: boom in apply (in hook apply of "
                                         "effect errors)");
    still_usable(p);

    set_pos(p, ERRORS_AT, 8);
    assert_int_equal(tiers_move_format(p, effect_move(p), NULL, text, sizeof text),
                     TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "errors.lua:4: boom in format (in hook format of "
                                         "effect errors)");
    still_usable(p);
    assert_int_equal(tiers_move_format(p, effect_move(p), NULL, text, sizeof text), 7);
    assert_string_equal(text, "boom@a1");

    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* Hooks returning the wrong types. */
static void test_hostile_return_types(void **state)
{
    (void)state;
    static const struct {
        int var;
        const char *msg;
    } moves_cases[] = {
        {1, "rettype.lua:6: hook moves must return a list of moves or nil, not string"},
        {9, "rettype.lua:6: move 1 returned by hook moves: kind must be one of drop, move, "
            "stack, capture, strike, ready, rotate, deploy, effect"},
        {10, "rettype.lua:6: move 1 returned by hook moves: from 'e9' is off the board"},
        {11, "rettype.lua:6: move 1 returned by hook moves: no gold in hand 0 to drop"},
        {12, "rettype.lua:6: move 1 returned by hook moves: unknown effect 'nosuch'"},
        {13, "rettype.lua:6: move 1 returned by hook moves: is a number, not a move table"},
        {16, "rettype.lua:6: unknown face 'dragon'"},
        {17, "rettype.lua:6: move 1 returned by hook moves: from 'a2\\0' is not a square "
             "name (it holds a NUL byte)"},
        {18, "rettype.lua:6: move 1 returned by hook moves: kind must be one of drop, move, "
             "stack, capture, strike, ready, rotate, deploy, effect"},
        {19, "rettype.lua:6: move 1 returned by hook moves: unknown effect 'rettype\\0x'"},
        {20, "rettype.lua:6: move 1 returned by hook moves: path square 'b2\\0' is not a "
             "square name (it holds a NUL byte)"},
        {21, "rettype.lua:6: move 1 returned by hook moves: to 'a3\\0zz' is not a square "
             "name (it holds a NUL byte)"},
        {22, "rettype.lua:40: bad argument #1 to 'top' (bad square 'a2\\0' (it holds a NUL "
             "byte))"},
    };
    tiers_variant *v = scripted("rettype.lua", ONTO_ANY);
    tiers_pos *p = pos_at(v, ERRORS_AT, 0);
    static tiers_move buf[TIERS_MAX_MOVES];
    char text[64];
    for (size_t i = 0; i < sizeof moves_cases / sizeof moves_cases[0]; i++) {
        set_pos(p, ERRORS_AT, moves_cases[i].var);
        assert_int_equal(tiers_pseudo_moves(p, buf, TIERS_MAX_MOVES), TIERS_ESCRIPT);
        assert_contains(script_error(v), moves_cases[i].msg);
        assert_contains(script_error(v), "(in hook moves of effect rettype)");
        still_usable(p);
    }

    set_pos(p, ERRORS_AT, 2);
    assert_int_equal(legal_count(p), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "rettype.lua:17: hook veto must return a boolean or "
                        "nil, not number (in hook veto of effect rettype)");
    still_usable(p);

    set_pos(p, ERRORS_AT, 3);
    assert_int_equal(legal_count(p), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "rettype.lua:18: hook after must return a boolean or "
                        "nil, not table (in hook after of effect rettype)");
    still_usable(p);

    set_pos(p, ERRORS_AT, 4);
    assert_int_equal(script_tier(p, sq_make(0, 1), 0, 1), 1);
    assert_string_equal(script_error(v), "rettype.lua:19: hook tier must return a tier 1..8 "
                        "or nil, not string (in hook tier of effect rettype)");
    set_pos(p, ERRORS_AT, 14);
    assert_int_equal(script_tier(p, sq_make(0, 1), 0, 1), 1);
    assert_string_equal(script_error(v), "rettype.lua:19: hook tier must return a tier 1..8 "
                        "or nil, not 9 (in hook tier of effect rettype)");

    set_pos(p, ERRORS_AT, 5);
    assert_int_equal(script_drop_ok(p, pc_make(2, 0, 0, DIR_N), sq_make(0, 1)), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "rettype.lua:23: hook drop_ok must return a boolean, "
                        "not nil (in hook drop_ok of effect rettype)");

    tiers_status st = {0};
    set_pos(p, ERRORS_AT, 6);
    assert_int_equal(script_result(p, &st), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "rettype.lua:24: hook result must return nil or "
                        "\"0\", \"1\" or \"draw\", not number (in hook result of effect "
                        "rettype)");
    set_pos(p, ERRORS_AT, 15);
    assert_int_equal(script_result(p, &st), TIERS_ESCRIPT);
    assert_contains(script_error(v), "not \"win\" (in hook result of effect rettype)");

    set_pos(p, ERRORS_AT, 7);
    assert_int_equal(tiers_pos_make_unchecked(p, effect_move(p), NULL), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "rettype.lua:28: hook apply must return a boolean or "
                        "nil, not string (in hook apply of effect rettype)");

    set_pos(p, ERRORS_AT, 8);
    assert_int_equal(tiers_move_format(p, effect_move(p), NULL, text, sizeof text),
                     TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "rettype.lua:29: hook format must return a string, "
                        "not number (in hook format of effect rettype)");
    still_usable(p);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* The texts of p's legal moves in tiers notation through
 * tiers_moves_format: its result (bytes or an error, which making the
 * list may already find: it asks for effect moves' texts). */
static int format_all(tiers_pos *p)
{
    static tiers_move buf[TIERS_MAX_MOVES];
    static char text[65536];
    static char *texts[TIERS_MAX_MOVES];
    int n = tiers_legal_moves(p, buf, TIERS_MAX_MOVES);
    assert_int_not_equal(n, 0);
    return n < 0 ? n : tiers_moves_format(p, buf, n, NULL, text, sizeof text, texts);
}

/* Texts a game record would read as something else (a result, a
 * comment, a tag, a move number), one too long, and texts that two moves
 * share: each an error naming the format hook, where the text is written
 * and where it is read.  A dialect's own repeated texts are left alone
 * (test_official's oracle lists keep gungijs3's duplicates). */
static void test_format_texts(void **state)
{
    (void)state;
    static const char *const why[] = {
        NULL, "is a result", "as a comment", "as a tag", "move number", "move number",
        "part of a move number", "is a result", "is a result", "is a result",
        "as a comment", "as a comment", "a text of 128 bytes"};
    tiers_variant *v = scripted("badtext.lua", ONTO_ANY);
    tiers_pos *p = pos_at(v, "1k3/5/5/P4/4K - w - 0 1 vars=%d", 15);
    char text[256];
    tiers_move m;
    tiers_error err;
    assert_int_equal(tiers_move_format(p, effect_move(p), NULL, text, sizeof text), 4);
    assert_string_equal(text, "fine");
    assert_true(format_all(p) > 0);
    assert_int_equal(tiers_move_parse(p, "fine", NULL, &m, &err), 0);
    assert_int_equal(m.kind, TIERS_MV_EFFECT);
    for (int c = 1; c <= 12; c++) {
        set_pos(p, "1k3/5/5/P4/4K - w - 0 1 vars=%d", c);
        assert_int_equal(tiers_move_format(p, effect_move(p), NULL, text, sizeof text),
                         TIERS_ESCRIPT);
        assert_contains(script_error(v), "hook format");
        assert_contains(script_error(v), why[c]);
        assert_int_equal(format_all(p), TIERS_ESCRIPT);
    }
    /* 13: two effect moves named "same"; 14: one named like the king's
       step e1-e2.  Listing them fails, and so does reading the text,
       rather than taking the first of the two. */
    for (int c = 13; c <= 14; c++) {
        set_pos(p, "1k3/5/5/P4/4K - w - 0 1 vars=%d", c);
        assert_int_equal(format_all(p), TIERS_ESCRIPT);
        assert_contains(script_error(v), "effect 'label', hook format: the text");
        assert_contains(script_error(v), "names two moves of this position");
        assert_int_equal(tiers_move_parse(p, c == 13 ? "same" : "e1-e2", NULL, &m, &err),
                         TIERS_ESCRIPT);
        assert_contains(err.msg, "names two moves");
    }
    /* Suffixes: "+" reads back; "{x" and 128 bytes cannot; no suffix
       makes the tagged step e1-d1 read like the untagged one. */
    set_pos(p, "1k3/5/5/P4/4K - w - 0 1 vars=0,1", 0);
    assert_int_equal(tiers_move_parse(p, "e1-d1+", NULL, &m, &err), 0);
    assert_int_equal(tiers_move_parse(p, "e1-d1", NULL, &m, &err), 0);
    assert_int_equal(m.effect, 0);
    assert_true(format_all(p) > 0);
    for (int c = 2; c <= 4; c++) {
        set_pos(p, "1k3/5/5/P4/4K - w - 0 1 vars=0,%d", c);
        assert_int_equal(format_all(p), TIERS_ESCRIPT);
        assert_contains(script_error(v), c == 2 ? "as a comment"
                                         : c == 3 ? "a text of 128 bytes" : "names two moves");
        assert_true(tiers_move_parse(p, "e1-d1", NULL, &m, &err) == TIERS_ESCRIPT);
    }
    /* A result's reason with a newline. */
    tiers_status st = {0};
    set_pos(p, "1k3/5/5/P4/4K - w - 0 1 vars=0,0,%d", 1);
    assert_int_equal(script_result(p, &st), TIERS_ESCRIPT);
    assert_contains(script_error(v), "hook result must return a reason without control");
    set_pos(p, "1k3/5/5/P4/4K - w - 0 1 vars=0,0,%d", 0);
    assert_int_equal(script_result(p, &st), 0);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* A position handle kept past its hook. */
static void test_hostile_kept_handle(void **state)
{
    (void)state;
    tiers_variant *v = scripted("handle.lua", ONTO_ANY);
    tiers_pos *p = pos_at(v, ERRORS_AT, 0);
    assert_true(legal_count(p) > 0); /* the veto keeps its handle */
    set_pos(p, ERRORS_AT, 1);
    tiers_status st = {0};
    assert_int_equal(script_result(p, &st), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "handle.lua:12: position handle used outside its "
                        "hook (in hook result of effect handle)");
    set_pos(p, ERRORS_AT, 2);
    st = tiers_pos_status(p);
    assert_string_equal(st.reason, "tiers.pos (expired)");
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* Edits from hooks that may only read. */
static void test_hostile_read_only(void **state)
{
    (void)state;
    tiers_variant *v = scripted("readonly.lua", ONTO_ANY);
    tiers_pos *p = pos_at(v, ERRORS_AT, 1);
    static tiers_move buf[TIERS_MAX_MOVES];
    assert_int_equal(legal_count(p), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "readonly.lua:5: pos:flip: the position is read-only "
                        "in hook veto (only after and apply may edit it) (in hook veto of "
                        "effect readonly)");
    set_pos(p, ERRORS_AT, 2);
    assert_int_equal(tiers_pseudo_moves(p, buf, TIERS_MAX_MOVES), TIERS_ESCRIPT);
    assert_contains(script_error(v), "readonly.lua:9: pos:set_var: the position is read-only "
                    "in hook moves");
    set_pos(p, ERRORS_AT, 3);
    tiers_status st = {0};
    assert_int_equal(script_result(p, &st), TIERS_ESCRIPT);
    assert_contains(script_error(v), "readonly.lua:12: pos:push: the position is read-only "
                    "in hook result");
    set_pos(p, ERRORS_AT, 4);
    assert_int_equal(script_tier(p, sq_make(0, 1), 0, 1), 1);
    assert_contains(script_error(v), "readonly.lua:15: pos:pop: the position is read-only "
                    "in hook tier");
    still_usable(p);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* Bad arguments to the edit functions. */
static void test_hostile_bad_edits(void **state)
{
    (void)state;
    static const struct {
        int var;
        const char *msg;
    } cases[] = {
        {1, "edits.lua:6: bad argument #1 to 'push' (square 'f1' is off the board (5x5))"},
        {2, "edits.lua:7: bad argument #2 to 'remove' (tier 2 out of range 1..1 on e1)"},
        {3, "edits.lua:8: the tower on c3 is full (3 tiers)"},
        {4, "edits.lua:9: unknown face 'dragon'"},
        {5, "edits.lua:10: tile 'king' has no back face to flip to"},
        {6, "edits.lua:11: piece has no owner (give owner 0, 1 or 2)"},
        {7, "edits.lua:12: hand 0 would hold -5 pawn (0..255)"},
        {8, "edits.lua:13: bad argument #1 to 'set_var' (variable index must be 1..8)"},
    };
    tiers_variant *v = scripted("edits.lua", ONTO_ANY);
    tiers_pos *p = pos_at(v, "1k3/5/2[p:P:p]2/P4/4K - w - 0 1 vars=%d", 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        set_pos(p, "1k3/5/2[p:P:p]2/P4/4K - w - 0 1 vars=%d", cases[i].var);
        char before[256];
        snprintf(before, sizeof before, "%s", tu_fen(p, NULL));
        tiers_move m = pseudo(p, "a2-a3");
        assert_int_equal(tiers_pos_make_unchecked(p, &m, NULL), TIERS_ESCRIPT);
        assert_contains(script_error(v), cases[i].msg);
        assert_contains(script_error(v), "(in hook after of effect edits)");
        assert_string_equal(tu_fen(p, NULL), before);
    }
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* Finalizers would run with the debug hooks off, out of the budget's
 * reach: setmetatable refuses a metatable with __gc. */
static void test_finalizers_refused(void **state)
{
    (void)state;
    tiers_variant *v = hostile("finalizer.lua");
    after_fails(v, 6, "finalizer.lua:29: '__gc' (a finalizer) is not available in tiers "
                "scripts (in hook after of effect finalizer)");
    after_fails(v, 1, "finalizer.lua:16: '__gc' (a finalizer) is not available");
    after_fails(v, 2, "finalizer.lua:18: '__gc' (a finalizer) is not available");
    after_fails(v, 3, "finalizer.lua:20: '__gc' (a finalizer) is not available");
    after_succeeds(v, 4); /* __gc added later: never called */
    after_succeeds(v, 5); /* on the strings' metatable: never called */
    tiers_variant_free(v);

    v = new_variant(ONTO_ANY);
    tiers_error err;
    assert_int_equal(load_hostile(v, "gc_at_load.lua", &err), TIERS_ESCRIPT);
    assert_contains(err.file, "gc_at_load.lua");
    assert_int_equal(err.line, 4);
    assert_string_equal(err.msg, "'__gc' (a finalizer) is not available in tiers scripts");
    assert_null(v->script);
    tiers_variant_free(v);
}

/* find, match, gmatch and gsub count their steps: a backtracking pattern
 * ends with the budget, and the results are the stock library's. */
static void test_pattern_budget(void **state)
{
    (void)state;
    tiers_variant *v = hostile("library.lua");
    after_succeeds(v, 1); /* 2^16 ways to fail: within the budget */
    /* 2^20: about a second for Lua's matcher, which the count hook never
       interrupts; more than 10 million steps here */
    after_fails(v, 20, "library.lua:54: instruction budget exceeded (10000000 instructions) "
                "while matching a pattern (in hook after of effect library)");
    after_fails(v, 40, "library.lua:54: instruction budget exceeded");
    after_fails(v, 7, "library.lua:24: instruction budget exceeded");  /* a*b */
    after_fails(v, 8, "library.lua:26: instruction budget exceeded");  /* plain */
    after_fails(v, 9, "library.lua:28: instruction budget exceeded");  /* gsub */
    after_fails(v, 10, "library.lua:30: instruction budget exceeded"); /* gmatch */
    /* caught with pcall: the hook fails all the same */
    after_fails(v, 11, "library.lua:33: instruction budget exceeded (10000000 instructions) "
                "(in hook after of effect library)");
    tiers_variant_free(v);

    v = new_variant(ONTO_ANY);
    tiers_error err;
    char msg[1024];
    if (load_hostile(v, "patterns.lua", &err) < 0) /* its cases check themselves */
        fail_msg("%s", tiers_error_text(&err, msg, sizeof msg));
    tiers_variant_free(v);
}

/* Recursion through to-be-closed variables whose __close handlers recurse
 * again (hostile/lua/close_recursion.lua): once escaped the budget until
 * the 20 s time guard (the emergency collections of a heap at its limit,
 * and the call-chain walk of each error pcall caught a hundred thousand
 * levels deep, were not counted).  It must end with the budget's error,
 * not the guard's, and leave the engine usable. */
static void test_close_recursion(void **state)
{
    (void)state;
    tiers_variant *v = hostile("close_recursion.lua");
    static const struct {
        int var;
        const char *msg;
    } cases[] = {
        {1, "close_recursion.lua:7: instruction budget exceeded (10000000 instructions) "
            "(in hook moves of effect close-recursion)"},
        {2, "close_recursion.lua:13: instruction budget exceeded (10000000 instructions) "
            "(in hook moves of effect close-recursion)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tiers_pos *p = pos_at(v, HOSTILE_AT, cases[i].var);
        assert_int_equal(legal_count(p), TIERS_ESCRIPT);
        assert_contains(script_error(v), cases[i].msg);
        set_pos(p, HOSTILE_AT, 0);
        assert_true(legal_count(p) > 0);
        tiers_pos_free(p);
    }
    tiers_variant_free(v);
}

/* Work in C that the count hook cannot see: move generations and hooks
 * run from hooks count against the budget, and a budget error caught
 * with pcall still fails the hook. */
static void test_budget_counts_c_work(void **state)
{
    (void)state;
    tiers_variant *v = hostile("budget.lua");
    after_fails(v, 1, "budget.lua:10: instruction budget exceeded (10000000 instructions) "
                "(in hook after of effect budget)");
    /* 100,000 reaches cost 3 M without the tier hooks' 100 each: the
       budget is spent only if they count.  Whether the nested call or the
       generation after it crosses the line depends on a few instructions. */
    after_fails(v, 2, "instruction budget exceeded (10000000 instructions) ");
    assert_true(strstr(script_error(v), "budget.lua:6: ") ||
                strstr(script_error(v), "budget.lua:12: "));
    assert_contains(script_error(v), "(in hook after of effect budget)");
    after_fails(v, 3, "budget.lua:7: instruction budget exceeded (10000000 instructions) "
                "(in hook after of effect budget)");
    tiers_variant_free(v);
}

/* Hooks that run hooks (fanout.lua): the budget ends the whole tree. */
static void test_nested_fanout(void **state)
{
    (void)state;
    tiers_variant *v = hostile("fanout.lua");
    tiers_pos *p = tu_pos(v, "1k3/5/2[p:P:p]2/PG3/2G1K PPg w - 0 1 vars=4", NULL);
    assert_int_equal(legal_count(p), 35);
    /* v = 5: 5^8 calls, 35 moves after 1.6 s uncounted; 12: hours */
    set_pos(p, "1k3/5/2[p:P:p]2/PG3/2G1K PPg w - 0 1 vars=%d", 5);
    assert_int_equal(legal_count(p), TIERS_ESCRIPT);
    set_pos(p, "1k3/5/2[p:P:p]2/PG3/2G1K PPg w - 0 1 vars=%d", 12);
    assert_int_equal(legal_count(p), TIERS_ESCRIPT);
    assert_contains(script_error(v), "instruction budget exceeded (10000000 instructions) "
                    "(in hook veto of effect fanout)");
    set_pos(p, "1k3/5/2[p:P:p]2/PG3/2G1K PPg w - 0 1 vars=%d", 0);
    assert_true(legal_count(p) > 0);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* A hook run from inside another (pos:reach runs the tier hook). */
static void test_nested_hooks(void **state)
{
    (void)state;
    tiers_variant *v = scripted("nested.lua", ONTO_ANY);
    tiers_pos *p = pos_at(v, ERRORS_AT, 0);
    assert_true(legal_count(p) > 0);
    set_pos(p, ERRORS_AT, 1);
    assert_int_equal(legal_count(p), TIERS_ESCRIPT);
    assert_string_equal(script_error(v), "nested.lua:5: tier trouble (in hook tier of effect "
                        "nested) (in hook veto of effect nested)");
    set_pos(p, ERRORS_AT, 2);
    assert_int_equal(legal_count(p), TIERS_ESCRIPT);
    assert_contains(script_error(v), "hooks nested too deeply (in hook tier of effect nested)");
    still_usable(p);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_records_effects),
        cmocka_unit_test(test_load_relative_name),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_after_flip_unmake),
        cmocka_unit_test(test_effect_moves),
        cmocka_unit_test(test_format_texts),
        cmocka_unit_test(test_tagged_move_and_capacity),
        cmocka_unit_test(test_veto),
        cmocka_unit_test(test_tier_hook),
        cmocka_unit_test(test_drop_ok),
        cmocka_unit_test(test_rules_and_result),
        cmocka_unit_test(test_pos_read_api),
        cmocka_unit_test(test_pos_edits),
        cmocka_unit_test(test_random_seeded),
        cmocka_unit_test(test_random_per_call),
        cmocka_unit_test(test_hostile_loop),
        cmocka_unit_test(test_hostile_memory),
        cmocka_unit_test(test_hostile_recursion),
        cmocka_unit_test(test_hostile_libraries),
        cmocka_unit_test(test_hostile_error_in_each_hook),
        cmocka_unit_test(test_hostile_return_types),
        cmocka_unit_test(test_hostile_kept_handle),
        cmocka_unit_test(test_hostile_read_only),
        cmocka_unit_test(test_hostile_bad_edits),
        cmocka_unit_test(test_nested_hooks),
        cmocka_unit_test(test_finalizers_refused),
        cmocka_unit_test(test_pattern_budget),
        cmocka_unit_test(test_budget_counts_c_work),
        cmocka_unit_test(test_close_recursion),
        cmocka_unit_test(test_nested_fanout),
        cmocka_unit_test(test_vetoed_and_check_effects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
