/* test_loader.c - the YAML loader: a variant using every key, inheritance
 * (search path, shipped folder, relative path), diagrams, aliases, rule
 * setting, and one bad file per error case listed with its expected
 * position and message in tests/data/bad_yaml/expected.txt. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader.h"
#include "rules.h"

#define YAML_DIR TIERS_TEST_DIR "/data/yaml"
#define BAD_DIR TIERS_TEST_DIR "/data/bad_yaml"

static tiers_variant *load(const char *path, const char *search,
                           const char *const *rules, int want_rc)
{
    tiers_variant *v = calloc(1, sizeof *v);
    tiers_error err;
    memset(&err, 0, sizeof err);
    assert_non_null(v);
    int rc = loader_read(v, path, search, rules, &err);
    if (rc != want_rc)
        fail_msg("%s: rc %d, want %d (%s:%d:%d: %s)", path, rc, want_rc,
                 err.file, err.line, err.col, err.msg);
    return v;
}

static const face_def *face(const tiers_variant *v, const char *name)
{
    for (int i = 0; i < v->nfaces; i++)
        if (!strcmp(v->faces[i].name, name))
            return &v->faces[i];
    fail_msg("no face %s", name);
    return NULL;
}

static void assert_line(const line_def *l, int fx, int fy, int dx, int dy,
                        int len, int flags, int nvia)
{
    assert_int_equal(l->fx, fx);
    assert_int_equal(l->fy, fy);
    assert_int_equal(l->dx, dx);
    assert_int_equal(l->dy, dy);
    assert_int_equal(l->len, len);
    assert_int_equal(l->flags, flags);
    assert_int_equal(l->nvia, nvia);
}

static void assert_table(const face_def *f, int tier, int first, int count)
{
    assert_int_equal(f->first[tier], first);
    assert_int_equal(f->count[tier], count);
}

/* ------------------------------------------------------------ good files */

static void test_defaults(void **state)
{
    (void)state;
    tiers_variant *v = load(YAML_DIR "/minimal.yaml", NULL, NULL, 0);
    assert_string_equal(v->name, "minimal");
    assert_int_equal(v->files, 9);
    assert_int_equal(v->ranks, 9);
    assert_int_equal(v->max_tiers, 3);
    assert_string_equal(v->side_name[0], "white");
    assert_string_equal(v->side_name[1], "black");
    assert_int_equal(v->side_sym[0], 'w');
    assert_int_equal(v->forward[0], DIR_N);
    assert_int_equal(v->forward[1], DIR_S);
    assert_int_equal(v->nfaces, 0);
    assert_int_equal(v->nkinds, 1);
    assert_int_equal(v->kinds[0].face[0], NO_FACE);
    assert_int_equal(v->unit, UNIT_TOP);
    assert_int_equal(v->stack_own, 1);
    assert_int_equal(v->stack_enemy, 1);
    assert_int_equal(v->royal_may_stack, 1);
    assert_int_equal(v->capture, CAP_TOP);
    assert_int_equal(v->capture_and_stack, 1);
    assert_int_equal(v->captured_to, CAPTURED_GONE);
    assert_int_equal(v->via_rule, VIA_EMPTY);
    assert_int_equal(v->over_enemy_face, NO_FACE);
    assert_int_equal(v->legality, LEGAL_STRICT);
    assert_int_equal(v->stalemate, RES_LOSS);
    assert_int_equal(v->drops, 0);
    assert_int_equal(v->drop_zone.type, ZONE_ALL);
    assert_int_equal(v->drop_onto, ONTO_EMPTY);
    assert_int_equal(v->setup_zone.type, ZONE_NONE);
    assert_int_equal(v->nmodes, 0);
    assert_int_equal(v->nscripts, 0);
    assert_string_equal(v->start, "");
    assert_string_equal(v->path, YAML_DIR "/minimal.yaml");
    assert_string_equal(v->dir, YAML_DIR);
    free(v);
}

static void check_mini_faces(const tiers_variant *v)
{
    assert_int_equal(v->nfaces, 7);
    const face_def *k = face(v, "king"), *g = face(v, "guard"),
                   *r = face(v, "rook"), *s = face(v, "spy"),
                   *p = face(v, "pawn");
    assert_string_equal(k->sym, "K");
    assert_string_equal(r->sym, "R");
    assert_string_equal(s->sym, "SP");
    assert_int_equal(k->flags, FF_ROYAL | FF_NO_STACK_ON);
    assert_int_equal(g->flags, FF_NOT_COPIED | FF_NO_HAND | FF_ONE_PER_FILE);
    assert_int_equal(r->flags, FF_IMMOBILE);
    assert_int_equal(s->flags, FF_COPY_BELOW | FF_JUMPER | FF_NO_STACK |
                     FF_NO_STRIKE | FF_TIER1_ONLY | FF_DROP_EMPTY | FF_SETUP_FIRST);
    assert_int_equal(k->value, 1000);
    assert_int_equal(r->value, -3);
    assert_int_equal(s->fallback, 1);
    assert_int_equal(k->fallback, NO_FACE);
    assert_int_equal(k->ntiers, 2);
    assert_table(k, 0, 0, 8);
    assert_table(k, 1, 0, 8);  /* same */
    assert_table(k, 7, 0, 8);  /* above the last: the last */
    assert_int_equal(g->ntiers, 3);
    assert_table(g, 0, 8, 6);
    assert_table(g, 1, 14, 4);
    assert_table(g, 2, 18, 5);
    assert_table(r, 0, 23, 4);
    assert_table(s, 0, 27, 5);
    assert_int_equal(p->ntiers, 1); /* no moves: one empty table */
    assert_table(p, 0, 32, 0);
    assert_table(p, 5, 32, 0);
    assert_table(face(v, "hopper"), 0, 32, 1);
}

static void check_mini_lines(const tiers_variant *v)
{
    const line_def *l = v->lines;
    assert_int_equal(v->nlines, 33);
    assert_line(&l[0], 0, 1, 0, 1, 1, 0, 0);     /* all8 from forward, */
    assert_line(&l[1], 1, 1, 1, 1, 1, 0, 0);     /* clockwise */
    assert_line(&l[7], -1, 1, -1, 1, 1, 0, 0);
    assert_line(&l[12], 1, 1, 1, 1, 1, 0, 0);    /* step [1, 1] */
    assert_line(&l[13], 0, 2, 0, 2, 1, 0, 0);    /* jump [0, 2] */
    assert_line(&l[14], 0, 3, 0, 3, 1, 0, 2);    /* leap: via between */
    assert_int_equal(l[14].via[0][1], 1);
    assert_int_equal(l[14].via[1][1], 2);
    assert_line(&l[15], 1, 2, 1, 2, 1, 0, 0);    /* knight leap: none */
    assert_line(&l[16], 1, 1, 1, 1, 0, 0, 0);    /* slide fdiag */
    assert_line(&l[17], -1, 1, -1, 1, 0, 0, 0);
    assert_line(&l[18], 0, 1, 0, 1, 2, 0, 0);    /* range 2 */
    assert_line(&l[22], 0, -1, 0, -1, 3, 0, 0);  /* range 3 */
    assert_line(&l[23], 1, 2, 1, 1, 3, LN_LEAPING | LN_ONLY_CAPTURE, 2);
    assert_line(&l[24], -1, 2, -1, 1, 3, LN_LEAPING | LN_ONLY_CAPTURE, 2);
    assert_int_equal(l[24].via[1][0], -1);       /* mirrored */
    assert_line(&l[25], 0, 1, 0, 1, 0, LN_NO_CAPTURE, 0); /* no mirror twin */
    assert_line(&l[26], -1, 0, -1, 0, 2, 0, 0);
    assert_line(&l[27], 0, 1, 0, 1, 0, 0, 0);    /* diagram '*' */
    assert_line(&l[28], -1, 0, -1, 0, 1, 0, 0);  /* 'o' */
    assert_line(&l[29], 1, 0, 1, 0, 1, 0, 0);    /* 'x' */
    assert_line(&l[30], -1, -1, -1, -1, 1, 0, 0);/* 'l' */
    assert_line(&l[31], 1, -1, 1, -1, 2, 0, 0);  /* '2' */
    assert_line(&l[32], 2, 1, 2, 1, 1, 0, 1);    /* no dir: first */
    assert_int_equal(l[32].via[0][0], 1);
}

static void check_mini_tiles(const tiers_variant *v)
{
    const kind_def *k = v->kinds;
    assert_int_equal(v->nkinds, 6);
    assert_string_equal(k[1].name, "king");
    assert_int_equal(k[1].face[0], 0);
    assert_int_equal(k[1].face[1], NO_FACE);
    assert_int_equal(k[1].royal, 1);
    assert_int_equal(k[2].face[1], 2);
    assert_int_equal(k[2].count[0], 2);
    assert_int_equal(k[2].count[1], 2);
    assert_int_equal(k[3].count[0], 0); /* shared only */
    assert_int_equal(k[3].count[2], 1);
    assert_string_equal(k[4].name, "pawn-bronze");
    assert_int_equal(k[4].count[0], 1);
    assert_string_equal(k[5].name, "rook");
    assert_int_equal(v->has_shared, 1);
}

static void check_mini_rules(const tiers_variant *v)
{
    assert_int_equal(v->unit, UNIT_STACK);
    assert_int_equal(v->bounce, 1);
    assert_int_equal(v->deploy, 1);
    assert_int_equal(v->null_bounce, 1);
    assert_int_equal(v->stack_own, 0);
    assert_int_equal(v->stack_enemy, 0);
    assert_int_equal(v->capture, CAP_ENEMIES);
    assert_int_equal(v->capture_and_stack, 0);
    assert_int_equal(v->captured_to, CAPTURED_HAND);
    assert_int_equal(v->capture_flips, 1);
    assert_int_equal(v->height_block, 1);
    assert_int_equal(v->via_rule, VIA_FREE);
    assert_int_equal(v->same_face_rule, 1);
    assert_int_equal(v->immobile_strikes, 1);
    assert_int_equal(v->over_enemy_face, 1);
    assert_int_equal(v->army_cap, 20);
    assert_int_equal(v->legality, LEGAL_PSEUDO);
    assert_int_equal(v->stalemate, RES_DRAW);
    assert_int_equal(v->royal_capture, 1);
    assert_int_equal(v->exit_rank, 1);
    assert_int_equal(v->capture_all, 1);
    assert_int_equal(v->repetition, 3);
    assert_int_equal(v->repetition_key, REPKEY_BOARD);
    assert_int_equal(v->halfmove_limit, 100);
    assert_int_equal(v->max_plies, 500);
}

static void check_mini_options(const tiers_variant *v)
{
    const option_def *o = v->options;
    assert_int_equal(v->noptions, 5);
    assert_string_equal(o[0].key, "stalemate_result");
    assert_int_equal(o[0].nvalues, 2);
    assert_int_equal(o[0].def, 0);
    assert_int_equal(o[0].value, 1);      /* set in rules: */
    assert_string_equal(o[1].sets, "via");
    assert_int_equal(o[1].def, 1);
    assert_int_equal(o[1].value, 2);      /* follows rules.via: free */
    assert_int_equal(o[2].nvalues, 0);
    assert_int_equal(o[2].def, 4);
    assert_int_equal(o[2].value, 3);      /* follows rules.repetition */
    assert_string_equal(o[3].key, "plain");
    assert_string_equal(o[3].sets, "");
    assert_string_equal(o[4].key, "null_bounce");
    assert_int_equal(o[4].def, 1);        /* forbid */
    assert_int_equal(o[4].value, 0);      /* rules: null_bounce: true */
}

static void check_mini_rest(const tiers_variant *v)
{
    assert_string_equal(v->description, "every key of the variant format");
    assert_int_equal(v->files, 5);
    assert_int_equal(v->ranks, 6);
    assert_int_equal(v->max_tiers, 3);
    assert_int_equal(v->forward[1], DIR_E);
    assert_int_equal(v->uses_facing, 1);
    assert_int_equal(v->drops, 1);
    assert_int_equal(v->drop_zone.type, ZONE_RANKS);
    assert_int_equal(v->drop_zone.lo, 1);
    assert_int_equal(v->drop_zone.hi, 4);
    assert_int_equal(v->drop_onto, ONTO_OWN);
    assert_int_equal(v->setup, 1);
    assert_int_equal(v->setup_zone.type, ZONE_ADVANCED);
    assert_int_equal(v->setup_onto, ONTO_ANY);
    assert_int_equal(v->setup_ready, 1);
    assert_int_equal(v->setup_first_side, 1);
    assert_int_equal(v->play_first_side, 1); /* by symbol */
    assert_int_equal(v->nmodes, 2);
    assert_string_equal(v->modes[0].name, "intro");
    assert_int_equal(v->modes[0].max_tiers, 2);
    assert_int_equal(v->modes[0].royal_may_stack, 0);
    assert_string_equal(v->modes[0].start, "intro-start");
    assert_int_equal(v->modes[1].max_tiers, 3);
    assert_int_equal(v->modes[1].royal_may_stack, 1);
    assert_string_equal(v->modes[1].start, "full-start");
    assert_string_equal(v->start, "full-start");
    assert_int_equal(v->nscripts, 1);
    assert_string_equal(v->scripts[0], YAML_DIR "/mini/effect.lua");
    assert_int_equal(v->ndialects, 1);
    assert_string_equal(v->dialects[0], "gungijs");
    assert_ptr_equal(v->dialect_names[0], v->dialects[0]);
    assert_null(v->dialect_names[1]);
}

static void test_every_key(void **state)
{
    (void)state;
    tiers_variant *v = load(YAML_DIR "/mini/variant.yaml", NULL, NULL, 0);
    assert_string_equal(v->name, "mini");
    assert_string_equal(v->dir, YAML_DIR "/mini");
    check_mini_faces(v);
    check_mini_lines(v);
    check_mini_tiles(v);
    check_mini_rules(v);
    check_mini_options(v);
    check_mini_rest(v);
    free(v);
}

static void test_inherits_by_name(void **state)
{
    (void)state;
    tiers_variant *v = load(YAML_DIR "/child.yaml", "/nonexistent:" YAML_DIR,
                            NULL, 0);
    assert_string_equal(v->name, "mini-child");
    assert_string_equal(v->description, "every key of the variant format");
    assert_int_equal(v->files, 7);            /* merged into board */
    assert_int_equal(v->ranks, 6);
    assert_int_equal(face(v, "king")->value, 900);
    assert_int_equal(face(v, "king")->flags, FF_ROYAL | FF_NO_STACK_ON);
    assert_int_equal(face(v, "pawn")->count[0], 1);
    assert_int_equal(v->nfaces, 8);           /* lance appended */
    assert_string_equal(v->faces[7].sym, "L");
    assert_int_equal(v->nkinds, 3);           /* the list replaced */
    assert_int_equal(v->kinds[2].count[0], 3);
    assert_int_equal(v->has_shared, 0);
    assert_int_equal(v->unit, UNIT_TOP);
    assert_int_equal(v->capture, CAP_ENEMIES); /* the parent's rules stay */
    assert_int_equal(v->via_rule, VIA_EMPTY);  /* via the option */
    assert_int_equal(v->options[1].value, 0);
    assert_int_equal(v->drop_onto, ONTO_SCRIPT);
    assert_int_equal(v->drop_zone.type, ZONE_RANKS); /* merged drops */
    assert_string_equal(v->dir, YAML_DIR);
    assert_string_equal(v->scripts[0], YAML_DIR "/mini/effect.lua");
    free(v);
}

/* Every merge operator against mini, by hand from mini/variant.yaml:
 * tiles king, spy, rook stay and lance is added; faces lose hopper and
 * gain lance; scripts keep mini's (from mini's folder) and add the
 * child's (from its own). */
static void test_inherits_operators(void **state)
{
    (void)state;
    tiers_variant *v = load(YAML_DIR "/mergekid/variant.yaml", NULL, NULL, 0);
    assert_int_equal(v->nkinds, 5);
    assert_string_equal(v->kinds[1].name, "king");
    assert_string_equal(v->kinds[2].name, "spy");
    assert_string_equal(v->kinds[3].name, "rook");
    assert_string_equal(v->kinds[4].name, "lance");
    assert_int_equal(v->kinds[4].count[0], 2);
    assert_int_equal(v->nfaces, 7); /* 7 of mini, hopper out, lance in */
    assert_int_equal(face_find(v, "hopper"), -1);
    assert_int_equal(face(v, "king")->flags, FF_ROYAL | FF_NO_STACK_ON | FF_NO_HAND);
    assert_int_equal(face(v, "lance")->flags, FF_JUMPER);
    assert_int_equal(v->nscripts, 2);
    assert_string_equal(v->scripts[0], YAML_DIR "/mergekid/../mini/effect.lua");
    assert_string_equal(v->scripts[1], YAML_DIR "/mergekid/mine.lua");
    assert_int_equal(v->nmodes, 1);
    assert_string_equal(v->modes[0].name, "full");
    assert_int_equal(v->ndialects, 0);
    assert_int_equal(v->nwarnings, 0);
    free(v);
}

/* A plain list replacing the parent's is a warning naming its place;
 * `replace:` silences it, and replaces a mapping whole. */
static void test_inherits_replace(void **state)
{
    (void)state;
    tiers_variant *v = load(YAML_DIR "/child.yaml", YAML_DIR, NULL, 0);
    assert_int_equal(v->nwarnings, 1);
    assert_non_null(strstr(v->warnings[0], "child.yaml:11:1: tiles: replaces the parent's "
                           "5 entries (write tiles+: to add, or list tiles in replace:)"));
    free(v);
    v = load(YAML_DIR "/replacekid.yaml", NULL, NULL, 0);
    assert_int_equal(v->nwarnings, 0);
    assert_int_equal(v->nfaces, 2);
    assert_int_equal(v->nkinds, 2);
    free(v);
    v = load(YAML_DIR "/mini/variant.yaml", NULL, NULL, 0);
    assert_int_equal(v->nwarnings, 0);
    free(v);
}

static void test_inherits_relative(void **state)
{
    (void)state;
    tiers_variant *v = load(YAML_DIR "/relchild.yaml", NULL, NULL, 0);
    assert_string_equal(v->name, "relchild");
    assert_string_equal(v->description, "relative");
    assert_int_equal(v->nlines, 33);
    free(v);
}

/* A relative path keeps v->path as given; dir and scripts are absolute. */
static void test_relative_path(void **state)
{
    (void)state;
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(YAML_DIR), 0);
    tiers_variant *v = load("./child.yaml", ".", NULL, 0);
    assert_int_equal(chdir(cwd), 0);
    assert_string_equal(v->path, "./child.yaml");
    assert_string_equal(v->dir, YAML_DIR);
    assert_string_equal(v->scripts[0], YAML_DIR "/mini/effect.lua");
    free(v);
}

/* main() points TIERS_VARIANT_DIR at tests/data/yaml. */
static void test_inherits_shipped(void **state)
{
    (void)state;
    tiers_variant *v = load(YAML_DIR "/sub/builtin_child.yaml", NULL, NULL, 0);
    assert_string_equal(v->name, "builtin-child");
    assert_string_equal(v->start, "");
    assert_string_equal(v->dir, YAML_DIR "/sub");
    assert_string_equal(v->scripts[0], YAML_DIR "/mini/effect.lua");
    free(v);
}

static void test_diagram(void **state)
{
    (void)state;
    tiers_variant *v = load(YAML_DIR "/diagram.yaml", NULL, NULL, 0);
    const line_def *l = v->lines;
    assert_int_equal(v->nlines, 9);
    assert_line(&l[0], -2, 2, -2, 2, 1, 0, 1);   /* l: via between */
    assert_int_equal(l[0].via[0][0], -1);
    assert_int_equal(l[0].via[0][1], 1);
    assert_line(&l[1], 0, 1, 0, 1, 0, 0, 0);     /* '*' two squares away */
    assert_line(&l[2], 2, 2, 2, 2, 1, 0, 1);
    assert_line(&l[3], -1, 1, -1, 1, 1, 0, 0);   /* o */
    assert_line(&l[4], 1, 1, 1, 1, 1, 0, 0);     /* x */
    assert_line(&l[5], -1, 0, -1, 0, 3, 0, 0);   /* 3 */
    assert_line(&l[6], 1, 0, 1, 0, 0, 0, 0);     /* * */
    assert_line(&l[7], 0, -1, 0, -1, 4, 0, 0);   /* 4 below */
    assert_line(&l[8], -1, 2, -1, 2, 1, 0, 0);   /* knight leap, no via */
    assert_table(&v->faces[1], 0, 8, 1);
    free(v);
}

static void test_aliases(void **state)
{
    (void)state;
    tiers_variant *v = load(YAML_DIR "/aliases.yaml", NULL, NULL, 0);
    assert_int_equal(v->nlines, 6);
    assert_table(&v->faces[0], 1, 2, 2);
    assert_table(&v->faces[1], 0, 4, 2);
    assert_int_equal(v->lines[5].dy, -1);
    free(v);
}

/* ------------------------------------------------------------ rules */

static void set_ok(tiers_variant *v, const char *key, const char *value)
{
    tiers_error err;
    int rc = rules_set(v, key, value, &err);
    if (rc)
        fail_msg("%s=%s: %s", key, value, err.msg);
}

static void set_bad(tiers_variant *v, const char *key, const char *value,
                    const char *msg)
{
    tiers_error err;
    assert_int_equal(rules_set(v, key, value, &err), TIERS_EUSAGE);
    if (!strstr(err.msg, msg))
        fail_msg("%s=%s: message '%s' lacks '%s'", key, value, err.msg, msg);
    assert_string_equal(err.file, "");
    assert_int_equal(err.line, 0);
}

static void test_set_rule(void **state)
{
    (void)state;
    tiers_variant *v = load(YAML_DIR "/mini/variant.yaml", NULL, NULL, 0);
    set_ok(v, "via", "height");
    assert_int_equal(v->via_rule, VIA_HEIGHT);
    assert_int_equal(v->options[1].value, 2); /* no such option value */
    set_ok(v, "leap_midpoint", "empty");
    assert_int_equal(v->via_rule, VIA_EMPTY);
    assert_int_equal(v->options[1].value, 0);
    set_ok(v, "via", "no-enemy");
    assert_int_equal(v->options[1].value, 1);
    set_ok(v, "repetition_count", "5");
    assert_int_equal(v->repetition, 5);
    set_ok(v, "repetition", "6");
    assert_int_equal(v->options[2].value, 6);
    set_ok(v, "over_enemy_face", "rook");
    assert_int_equal(v->over_enemy_face, 2);
    set_ok(v, "over_enemy_face", "none");
    assert_int_equal(v->over_enemy_face, NO_FACE);
    set_ok(v, "halfmove_limit", "65535");
    assert_int_equal(v->halfmove_limit, 65535);
    set_ok(v, "exit", "false");
    assert_int_equal(v->exit_rank, 0);
    set_ok(v, "capture", "none");
    assert_int_equal(v->capture, CAP_NONE);
    set_ok(v, "plain", "-12");
    assert_int_equal(v->options[3].value, -12);
    set_ok(v, "null_bounce", "forbid");       /* the option's values */
    assert_int_equal(v->null_bounce, 0);
    assert_int_equal(v->options[4].value, 1);
    set_ok(v, "null_bounce", "true");         /* or the rule's */
    assert_int_equal(v->null_bounce, 1);
    assert_int_equal(v->options[4].value, 0);
    set_bad(v, "null_bounce", "maybe",
            "rules.null_bounce must be allow|forbid or true|false, got 'maybe'");
    set_bad(v, "via", "bogus",
            "rules.via must be empty|no-enemy|free|height, got 'bogus'");
    set_bad(v, "exit", "yes", "rules.exit must be true|false");
    set_bad(v, "halfmove_limit", "65536", "must be 0..65535");
    set_bad(v, "repetition_count", "300", "rules.repetition must be 0..255");
    set_bad(v, "over_enemy_face", "queen", "a face name or none");
    set_bad(v, "stalemate_result", "win", "must be loss|draw, got 'win'");
    set_bad(v, "plain", "x", "rules.plain must be an integer");
    set_bad(v, "nonsense", "1", "unknown rule 'nonsense'");
    set_bad(v, "nonsense", "1", "options: stalemate_result");
    assert_int_equal(v->halfmove_limit, 65535); /* failures change nothing */
    assert_int_equal(v->repetition, 6);
    free(v);
}

static void test_overrides(void **state)
{
    (void)state;
    const char *const good[] = {"unit=top", "leap_midpoint=empty",
                                "max_plies=0", NULL};
    tiers_variant *v = load(YAML_DIR "/mini/variant.yaml", NULL, good, 0);
    assert_int_equal(v->unit, UNIT_TOP);
    assert_int_equal(v->via_rule, VIA_EMPTY);
    assert_int_equal(v->max_plies, 0);
    free(v);
    const char *const no_eq[] = {"unit", NULL}, *const bad[] = {"unit=up", NULL};
    free(load(YAML_DIR "/mini/variant.yaml", NULL, no_eq, TIERS_EUSAGE));
    free(load(YAML_DIR "/mini/variant.yaml", NULL, bad, TIERS_EUSAGE));
}

/* ------------------------------------------------------------ bad files */

static void check_bad(const char *file, int line, int col, const char *msg,
                      const char *in)
{
    char path[1024];
    tiers_variant *v = calloc(1, sizeof *v);
    tiers_error err;
    memset(&err, 0, sizeof err);
    snprintf(path, sizeof path, "%s/%s", BAD_DIR, file);
    int rc = loader_read(v, path, "", NULL, &err);
    free(v);
    const char *base = strrchr(err.file, '/');
    base = base ? base + 1 : err.file;
    if (rc != TIERS_EINPUT || strcmp(base, in) || err.line != line ||
        err.col != col || !strstr(err.msg, msg))
        fail_msg("%s: got rc %d %s:%d:%d: %s\n  want %s:%d:%d: ...%s...", file,
                 rc, base, err.line, err.col, err.msg, in, line, col, msg);
}

static int read_expected(char names[][64], int max)
{
    FILE *f = fopen(BAD_DIR "/expected.txt", "r");
    char buf[512];
    int n = 0;
    assert_non_null(f);
    while (fgets(buf, sizeof buf, f)) {
        char *field[5] = {0};
        int nf = 0;
        if (buf[0] == '#' || buf[0] == '\n')
            continue;
        buf[strcspn(buf, "\n")] = 0;
        for (char *s = buf; s && nf < 5; nf++) {
            field[nf] = s;
            if ((s = strchr(s, '\t')))
                *s++ = 0;
        }
        assert_true(nf >= 4 && n < max);
        check_bad(field[0], atoi(field[1]), atoi(field[2]), field[3],
                  field[4] ? field[4] : field[0]);
        snprintf(names[n++], 64, "%s", field[0]);
    }
    fclose(f);
    return n;
}

static void test_bad_files(void **state)
{
    (void)state;
    static char names[256][64];
    int n = read_expected(names, 256);
    assert_true(n >= 20);
    DIR *d = opendir(BAD_DIR);
    struct dirent *e;
    assert_non_null(d);
    while ((e = readdir(d))) { /* every bad file is listed */
        size_t len = strlen(e->d_name);
        int i = 0;
        if (len < 5 || strcmp(e->d_name + len - 5, ".yaml"))
            continue;
        while (i < n && strcmp(names[i], e->d_name))
            i++;
        if (i == n)
            fail_msg("%s is not in expected.txt", e->d_name);
    }
    closedir(d);
}

static void test_missing_file(void **state)
{
    (void)state;
    tiers_variant *v = calloc(1, sizeof *v);
    tiers_error err;
    assert_int_equal(loader_read(v, YAML_DIR "/nope.yaml", NULL, NULL, &err),
                     TIERS_EINPUT);
    assert_string_equal(err.file, YAML_DIR "/nope.yaml");
    assert_int_equal(err.line, 0);
    assert_non_null(strstr(err.msg, "cannot open"));
    free(v);
}

static void test_big_file(void **state)
{
    (void)state;
    char path[] = "/tmp/tiers_big_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("name: big\n", f);
    for (int i = 0; i < (1 << 20) / 64 + 1; i++)
        fprintf(f, "# %61d\n", i);
    fclose(f);
    tiers_variant *v = calloc(1, sizeof *v);
    tiers_error err;
    assert_int_equal(loader_read(v, path, NULL, NULL, &err), TIERS_EINPUT);
    assert_non_null(strstr(err.msg, "over the 1 MiB limit"));
    unlink(path);
    free(v);
}

/* Writes text to dir/name. */
static void put_file(const char *dir, const char *name, const char *text)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* dir/variant.yaml inheriting the hostile suite's base, naming `script`;
 * loads it and checks the result (msg NULL: it loads). */
static void check_script_path(const char *dir, const char *script, const char *msg)
{
    char yaml[PATH_MAX + 200], path[PATH_MAX];
    snprintf(yaml, sizeof yaml, "name: paths\ninherits: %s\nscripts: [\"%s\"]\n",
             TIERS_TEST_DIR "/hostile/base.yaml", script);
    put_file(dir, "variant.yaml", yaml);
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    tiers_variant *v = calloc(1, sizeof *v);
    tiers_error err;
    memset(&err, 0, sizeof err);
    int rc = loader_read(v, path, "", NULL, &err);
    free(v);
    if (!msg && rc != 0)
        fail_msg("%s: %s", script, err.msg);
    if (msg && (rc != TIERS_EINPUT || err.line != 3 || err.col != 11 || !strstr(err.msg, msg)))
        fail_msg("%s: got rc %d %d:%d: %s\n  want 3:11: ...%s...", script, rc, err.line,
                 err.col, err.msg, msg);
}

/* A variant is one folder: scripts must lie inside the folder of the file
 * naming them (a parent's scripts inside the parent's). */
static void test_script_paths(void **state)
{
    (void)state;
    char root[] = "/tmp/tiers_paths_XXXXXX", dir[PATH_MAX], other[PATH_MAX],
         sub[PATH_MAX], child[PATH_MAX], link[PATH_MAX];
    assert_non_null(mkdtemp(root));
    snprintf(dir, sizeof dir, "%s/v", root);
    snprintf(sub, sizeof sub, "%s/v/sub", root);
    snprintf(other, sizeof other, "%s/other", root);
    snprintf(child, sizeof child, "%s/child", root);
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(mkdir(sub, 0700), 0);
    assert_int_equal(mkdir(other, 0700), 0);
    assert_int_equal(mkdir(child, 0700), 0);
    put_file(dir, "e.lua", "effect{name = \"e\"}\n");
    put_file(sub, "e.lua", "effect{name = \"e\"}\n");
    put_file(other, "e.lua", "effect{name = \"e\"}\n");
    snprintf(link, sizeof link, "%s/link.lua", dir);
    assert_int_equal(symlink("../other/e.lua", link), 0);

    check_script_path(dir, "e.lua", NULL);
    check_script_path(dir, "sub/e.lua", NULL);
    check_script_path(dir, "./sub/e.lua", NULL);
    const char *why = "must be relative to this file's folder, without '..'";
    check_script_path(dir, "../other/e.lua", why);
    check_script_path(dir, "sub/../e.lua", why);
    check_script_path(dir, "..", why);
    char abs[PATH_MAX + 8];
    snprintf(abs, sizeof abs, "%s/e.lua", dir); /* inside, but not relative */
    check_script_path(dir, abs, why);
    check_script_path(dir, "/dev/zero", why);
    check_script_path(dir, "link.lua", "is a link to a file outside this file's folder");
    /* a parent's scripts resolve in the parent's folder */
    put_file(child, "variant.yaml", "name: child\ninherits: ../v/variant.yaml\n");
    check_script_path(dir, "sub/e.lua", NULL);
    char path[PATH_MAX + 16], want[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/variant.yaml", child);
    tiers_variant *v = load(path, "", NULL, 0);
    snprintf(want, sizeof want, "%s/child/../v/sub/e.lua", root);
    assert_int_equal(v->nscripts, 1);
    assert_string_equal(v->scripts[0], want);
    free(v);

    const char *files[] = {"v/e.lua", "v/sub/e.lua", "v/link.lua", "v/variant.yaml",
                           "other/e.lua", "child/variant.yaml", "v/sub", "v", "other",
                           "child"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", root, files[i]);
        assert_int_equal(remove(path), 0);
    }
    assert_int_equal(rmdir(root), 0);
}

/* The content hash (what a playout database keys its games by) covers
 * every YAML file read: a change in the inherited file changes it. */
static void test_content_hash(void **state)
{
    (void)state;
    char root[] = "/tmp/tiers_hash_XXXXXX", path[PATH_MAX], hashes[3][17];
    assert_non_null(mkdtemp(root));
    static const char *const parents[] = {
        "name: p\nboard: {files: 3, ranks: 3, max_tiers: 2}\n",
        "name: p\nboard: {files: 4, ranks: 3, max_tiers: 2}\n"};
    for (int i = 0; i < 3; i++) {
        put_file(root, "parent.yaml", parents[i == 1]);
        put_file(root, "child.yaml", i < 2 ? "name: c\ninherits: parent.yaml\n"
                                           : "name: c2\ninherits: parent.yaml\n");
        snprintf(path, sizeof path, "%s/child.yaml", root);
        tiers_variant *v = load(path, "", NULL, 0);
        snprintf(hashes[i], sizeof hashes[i], "%016llx", (unsigned long long)v->yaml_hash);
        free(v);
    }
    assert_string_not_equal(hashes[0], hashes[1]); /* the parent changed */
    assert_string_not_equal(hashes[0], hashes[2]); /* the child changed */
    /* a file that inherits nothing: the hash of its bytes (FNV-1a) */
    put_file(root, "alone.yaml", "name: a\n");
    snprintf(path, sizeof path, "%s/alone.yaml", root);
    tiers_variant *v = load(path, "", NULL, 0);
    uint64_t h = 0xcbf29ce484222325ull;
    for (const char *c = "name: a\n"; *c; c++)
        h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
    assert_true(v->yaml_hash == h);
    free(v);
    const char *files[] = {"parent.yaml", "child.yaml", "alone.yaml"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", root, files[i]);
        assert_int_equal(remove(path), 0);
    }
    assert_int_equal(rmdir(root), 0);
}

/* `inherits: NAME` searches the same path as a name on the command line:
 * the caller's folders, TIERS_VARIANT_PATH, the built-in folder. */
static void test_inherits_variant_path(void **state)
{
    (void)state;
    char root[] = "/tmp/tiers_vpath_XXXXXX", dir[PATH_MAX], kids[PATH_MAX],
         path[PATH_MAX + 16];
    assert_non_null(mkdtemp(root));
    snprintf(dir, sizeof dir, "%s/parentx", root);
    snprintf(kids, sizeof kids, "%s/kids", root); /* not beside the parent */
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(mkdir(kids, 0700), 0);
    put_file(dir, "variant.yaml", "name: parentx\nboard: {files: 5, ranks: 4, max_tiers: 2}\n");
    put_file(kids, "child.yaml", "name: childx\ninherits: parentx\n");
    snprintf(path, sizeof path, "%s/child.yaml", kids);

    unsetenv("TIERS_VARIANT_PATH"); /* not on the path: refused */
    tiers_variant *v = calloc(1, sizeof *v);
    tiers_error err;
    assert_int_equal(loader_read(v, path, NULL, NULL, &err), TIERS_EINPUT);
    assert_non_null(strstr(err.msg, "cannot find parent variant 'parentx'"));
    free(v);

    setenv("TIERS_VARIANT_PATH", root, 1); /* found through the environment */
    v = load(path, NULL, NULL, 0);
    assert_string_equal(v->name, "childx");
    assert_int_equal(v->files, 5);
    assert_int_equal(v->ranks, 4);
    free(v);
    unsetenv("TIERS_VARIANT_PATH");

    v = load(path, root, NULL, 0); /* and through the caller's folders */
    assert_int_equal(v->files, 5);
    free(v);

    assert_int_equal(remove(path), 0);
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    assert_int_equal(remove(path), 0);
    assert_int_equal(rmdir(dir), 0);
    assert_int_equal(rmdir(kids), 0);
    assert_int_equal(rmdir(root), 0);
}

int main(void)
{
    /* The shipped-variants folder for test_inherits_shipped. */
    setenv("TIERS_VARIANT_DIR", YAML_DIR, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_every_key),
        cmocka_unit_test(test_inherits_by_name),
        cmocka_unit_test(test_inherits_relative),
        cmocka_unit_test(test_inherits_operators),
        cmocka_unit_test(test_inherits_replace),
        cmocka_unit_test(test_inherits_shipped),
        cmocka_unit_test(test_inherits_variant_path),
        cmocka_unit_test(test_relative_path),
        cmocka_unit_test(test_diagram),
        cmocka_unit_test(test_aliases),
        cmocka_unit_test(test_set_rule),
        cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_big_file),
        cmocka_unit_test(test_script_paths),
        cmocka_unit_test(test_content_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
