/* rules.c - the rule and option table: the engine rules a variant's
 * `rules:` key sets (rules.h), the options it declares, and setting either
 * from text, for the YAML walk (loader.c) and for `--rule KEY=VALUE`
 * overrides alike. */
#include "rules.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "yamltree.h"

#define F8(f) .off = offsetof(tiers_variant, f)
#define F16(f) .off = offsetof(tiers_variant, f), .wide = 1

static const rule_sym unit_syms[] = {{"top", UNIT_TOP}, {"stack", UNIT_STACK}, {0, 0}};
static const rule_sym cap_syms[] = {{"top", CAP_TOP}, {"enemies", CAP_ENEMIES},
                               {"tower", CAP_TOWER}, {"none", CAP_NONE}, {0, 0}};
static const rule_sym to_syms[] = {{"gone", CAPTURED_GONE}, {"hand", CAPTURED_HAND},
                              {0, 0}};
static const rule_sym via_syms[] = {{"empty", VIA_EMPTY}, {"no-enemy", VIA_NO_ENEMY},
                               {"free", VIA_FREE}, {"height", VIA_HEIGHT}, {0, 0}};
static const rule_sym legal_syms[] = {{"legal", LEGAL_STRICT},
                                 {"pseudo", LEGAL_PSEUDO}, {0, 0}};
static const rule_sym res_syms[] = {{"loss", RES_LOSS}, {"draw", RES_DRAW},
                               {"win", RES_WIN}, {0, 0}};
static const rule_sym rep_syms[] = {{"full", REPKEY_FULL}, {"board", REPKEY_BOARD},
                                    {"position", REPKEY_POSITION}, {0, 0}};
static const rule_sym repfrom_syms[] = {{"play", REPFROM_PLAY}, {"start", REPFROM_START},
                                        {0, 0}};
static const rule_sym represult_syms[] = {{"draw", REPRES_DRAW},
                                          {"replay", REPRES_REPLAY}, {0, 0}};
static const rule_sym region_syms[] = {{"replace", REGION_REPLACE},
                                  {"union", REGION_UNION}, {0, 0}};
static const rule_sym bare_syms[] = {{"play", BARE_PLAY}, {"draw", BARE_DRAW},
                                {"draw_apart", BARE_DRAW_APART}, {0, 0}};

static const rule_def rule_defs[] = {
    {"unit", R_ENUM, F8(unit), .syms = unit_syms},
    {"bounce", R_BOOL, F8(bounce)},
    {"deploy", R_BOOL, F8(deploy)},
    {"null_bounce", R_BOOL, F8(null_bounce)},
    {"stack_own", R_BOOL, F8(stack_own)},
    {"stack_enemy", R_BOOL, F8(stack_enemy)},
    {"capture", R_ENUM, F8(capture), .syms = cap_syms},
    {"capture_and_stack", R_BOOL, F8(capture_and_stack)},
    {"captured", R_ENUM, F8(captured_to), .syms = to_syms},
    {"capture_flips", R_BOOL, F8(capture_flips)},
    {"height_block", R_BOOL, F8(height_block)},
    {"via", R_ENUM, F8(via_rule), .syms = via_syms},
    {"same_face", R_BOOL, F8(same_face_rule)},
    {"immobile_strikes", R_BOOL, F8(immobile_strikes)},
    {"over_enemy_face", R_FACE, F8(over_enemy_face)},
    {"army_cap", R_INT, F8(army_cap), .max = 255},
    {"legality", R_ENUM, F8(legality), .syms = legal_syms},
    {"stalemate", R_ENUM, F8(stalemate), .syms = res_syms},
    {"royal_capture", R_BOOL, F8(royal_capture)},
    {"exit", R_BOOL, F8(exit_rank)},
    {"capture_all", R_BOOL, F8(capture_all)},
    {"repetition", R_INT, F8(repetition), .max = 255},
    {"repetition_key", R_ENUM, F8(repetition_key), .syms = rep_syms},
    {"repetition_from", R_ENUM, F8(repetition_from), .syms = repfrom_syms},
    {"repetition_result", R_ENUM, F8(repetition_result), .syms = represult_syms},
    {"halfmove_limit", R_INT, F16(halfmove_limit), .max = 65535},
    {"max_plies", R_INT, F16(max_plies), .max = 65535},
    {"bare_royals", R_ENUM, F8(bare_royals), .syms = bare_syms},
    {"turn_after_move", R_BOOL, F8(turn_after_move)},
    {"rotate", R_BOOL, F8(rotate)},
    {"region_bonus", R_INT, F8(region_bonus), .max = 7},
    {"region_mode", R_ENUM, F8(region_mode), .syms = region_syms},
    {"region_clip", R_BOOL, F8(region_clip)},
    {"region_shield", R_BOOL, F8(region_shield)},
    {"shield_all_via", R_BOOL, F8(shield_all_via)},
};
enum { NRULES = sizeof rule_defs / sizeof rule_defs[0] };

const rule_def *rules_at(int i)
{
    return i >= 0 && i < NRULES ? &rule_defs[i] : NULL;
}

const rule_def *rules_find(const char *key)
{
    for (int i = 0; i < NRULES; i++)
        if (!strcmp(rule_defs[i].key, key))
            return &rule_defs[i];
    return NULL;
}

option_def *rules_option_find(tiers_variant *v, const char *key)
{
    for (int i = 0; i < v->noptions; i++)
        if (!strcmp(v->options[i].key, key))
            return &v->options[i];
    return NULL;
}

static const char *sym_list(const rule_sym *s, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; s[i].name && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "|" : "", s[i].name);
    return buf;
}

/* Value of `text` for rule r, or -1 if it is not one. */
static long rule_value(const tiers_variant *v, const rule_def *r,
                       const char *text)
{
    long x;
    switch (r->type) {
    case R_BOOL:
        return yamltree_parse_bool(text);
    case R_ENUM:
        for (const rule_sym *s = r->syms; s->name; s++)
            if (!strcmp(s->name, text))
                return s->val;
        return -1;
    case R_INT:
        return !yamltree_parse_long(text, &x) && x >= 0 && x <= r->max ? x : -1;
    default:
        return !strcmp(text, "none") ? NO_FACE : face_find(v, text);
    }
}

static const char *rule_allowed(const rule_def *r, char *buf, size_t size)
{
    return r->type == R_BOOL ? "true|false"
         : r->type == R_ENUM ? sym_list(r->syms, buf, size)
         : r->type == R_FACE ? "a face name or none"
                             : (snprintf(buf, size, "0..%ld", r->max), buf);
}

/* On error: a message listing the allowed values in msg, and -1. */
int rules_parse(const tiers_variant *v, const rule_def *r, const char *text, long *out,
                char *msg, size_t size)
{
    char list[128];
    if ((*out = rule_value(v, r, text)) >= 0)
        return 0;
    snprintf(msg, size, "rules.%s must be %s, got '%.64s'", r->key,
             rule_allowed(r, list, sizeof list), text);
    return -1;
}

/* The rule value option value j stands for: the value of that name, or
 * for a two-valued option bound to a boolean rule, first = true (so
 * `values: [allow, forbid]` can drive a boolean rule). */
long rules_option_value(const tiers_variant *v, const option_def *o, const rule_def *r,
                        int j)
{
    long x = rule_value(v, r, o->values[j]);
    if (x < 0 && r->type == R_BOOL && o->nvalues == 2)
        x = j == 0;
    return x;
}

static const char *option_list(const option_def *o, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    if (!o->nvalues)
        return "an integer";
    for (int i = 0; i < o->nvalues && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "|" : "", o->values[i]);
    return buf;
}

/* Index of `text` among the option's values (or the integer); -1 if none. */
static int option_index(const option_def *o, const char *text, long *idx)
{
    for (int i = 0; i < o->nvalues; i++)
        if (!strcmp(o->values[i], text))
            return (int)(*idx = i);
    if (o->nvalues || yamltree_parse_long(text, idx) || *idx < INT32_MIN || *idx > INT32_MAX)
        return -1;
    return 0;
}

static void rule_store(tiers_variant *v, const rule_def *r, long val)
{
    char *p = (char *)v + r->off;
    if (r->wide)
        *(uint16_t *)(void *)p = (uint16_t)val;
    else
        *(uint8_t *)p = (uint8_t)val;
}

/* Stores a rule; options bound to it follow, so scripts see the same. */
void rules_bind(tiers_variant *v, const rule_def *r, long val)
{
    rule_store(v, r, val);
    for (int i = 0; i < v->noptions; i++) {
        option_def *o = &v->options[i];
        if (strcmp(o->sets, r->key))
            continue;
        if (!o->nvalues)
            o->value = (int32_t)val;
        for (int j = o->nvalues - 1; j >= 0; j--) /* the first match wins */
            if (rules_option_value(v, o, r, j) == val)
                o->value = j;
    }
}

static int set_engine(tiers_variant *v, const rule_def *r, const char *text,
                      char *msg, size_t size)
{
    long val;
    if (rules_parse(v, r, text, &val, msg, size))
        return -1;
    rules_bind(v, r, val);
    return 0;
}

static int set_option(tiers_variant *v, option_def *o, const char *text,
                      char *msg, size_t size)
{
    const rule_def *r = *o->sets ? rules_find(o->sets) : NULL;
    char buf[300];
    long idx = 0, val = 0;
    if (option_index(o, text, &idx) < 0) {
        snprintf(msg, size, "rules.%s must be %s, got '%.64s'", o->key,
                 option_list(o, buf, sizeof buf), text);
        return -1;
    }
    if (r && !o->nvalues && rules_parse(v, r, text, &val, msg, size))
        return -1;
    if (r)
        rules_bind(v, r, o->nvalues ? rules_option_value(v, o, r, (int)idx) : val);
    o->value = (int32_t)idx;
    return 0;
}

/* 0 = set, -1 = bad value (msg), -2 = no such rule or option.  An option
 * named like the rule it sets takes its own values and the rule's. */
int rules_set_text(tiers_variant *v, const char *key, const char *text, char *msg,
                   size_t size)
{
    const rule_def *r = rules_find(key);
    option_def *o = rules_option_find(v, key);
    char a[300], b[128];
    long idx;
    if (o && (!r || option_index(o, text, &idx) >= 0))
        return set_option(v, o, text, msg, size);
    if (o && r && rule_value(v, r, text) < 0) {
        snprintf(msg, size, "rules.%s must be %s or %s, got '%.64s'", key,
                 option_list(o, a, sizeof a), rule_allowed(r, b, sizeof b), text);
        return -1;
    }
    return r ? set_engine(v, r, text, msg, size) : -2;
}

/* Appends word to buf (used so far: *n) only when it fits whole. */
static int rules_append(char *buf, size_t size, size_t *n, const char *sep, const char *word)
{
    if (*n + strlen(sep) + strlen(word) + 1 > size)
        return -1;
    *n += (size_t)snprintf(buf + *n, size - *n, "%s%s", sep, word);
    return 0;
}

const char *rules_names(tiers_variant *v, char *buf, size_t size)
{
    size_t n = 0;
    int cut = 0;
    buf[0] = '\0';
    for (int i = 0; i < NRULES && !cut; i++)
        cut = rules_append(buf, size - 5, &n, i ? ", " : "", rule_defs[i].key);
    for (int i = 0; i < v->noptions && !cut; i++)
        cut = rules_append(buf, size - 5, &n, i ? ", " : "; options: ", v->options[i].key);
    if (cut) /* never a word cut in two: the rest is one "..." */
        snprintf(buf + n, size - n, ", ...");
    return buf;
}

const char *rules_unknown(tiers_variant *v, const char *key, char *buf, size_t size)
{
    const char *names[64 + MAX_OPTIONS];
    char near[160];
    int n = 0;
    for (; n < NRULES; n++)
        names[n] = rule_defs[n].key;
    for (int i = 0; i < v->noptions; i++)
        names[n++] = v->options[i].key;
    tiers_suggest(key, names, n, near, sizeof near);
    int k = snprintf(buf, size, "%s%s%srules: ", *near ? "did you mean " : "", near,
                     *near ? "? " : "");
    if (k > 0 && (size_t)k + 6 < size)
        rules_names(v, buf + k, size - (size_t)k);
    return buf;
}

int rules_apply(tiers_variant *v, const char *const *rules, tiers_error *err)
{
    for (; rules && *rules; rules++) {
        const char *eq = strchr(*rules, '=');
        char key[MAX_NAME + 1];
        size_t n = eq ? (size_t)(eq - *rules) : 0;
        if (!n || n >= sizeof key) {
            memset(err, 0, sizeof *err);
            snprintf(err->msg, sizeof err->msg,
                     "rule override '%.64s' must be KEY=VALUE", *rules);
            return TIERS_EUSAGE;
        }
        memcpy(key, *rules, n);
        key[n] = 0;
        int rc = rules_set(v, key, eq + 1, err);
        if (rc)
            return rc;
    }
    return 0;
}

int rules_set(tiers_variant *v, const char *key, const char *value, tiers_error *err)
{
    tiers_error dummy;
    char names[900], msg[sizeof err->msg];
    int r = key && value ? rules_set_text(v, key, value, msg, sizeof msg) : -1;
    if (!r)
        return 0;
    if (!key || !value)
        snprintf(msg, sizeof msg, "a rule needs a key and a value");
    if (r == -2)
        snprintf(msg, sizeof msg, "unknown rule '%.64s' (%s)", key,
                 rules_unknown(v, key, names, sizeof names));
    if (!err)
        err = &dummy;
    memset(err, 0, sizeof *err);
    memcpy(err->msg, msg, sizeof msg);
    return TIERS_EUSAGE;
}

int tiers_variant_options(const tiers_variant *v)
{
    return v->noptions;
}

const char *tiers_variant_option_name(const tiers_variant *v, int i)
{
    return i >= 0 && i < v->noptions ? v->options[i].key : "";
}

static long rule_load(const tiers_variant *v, const rule_def *r)
{
    const char *p = (const char *)v + r->off;
    return r->wide ? *(const uint16_t *)(const void *)p : *(const uint8_t *)p;
}

int tiers_variant_rule_value(const tiers_variant *v, const char *key, char *buf, size_t size)
{
    const option_def *o = rules_option_find((tiers_variant *)v, key);
    const rule_def *r = rules_find(key);
    if (o) {
        if (o->nvalues)
            snprintf(buf, size, "%s", o->values[o->value]);
        else
            snprintf(buf, size, "%ld", (long)o->value);
        return 0;
    }
    if (!r)
        return -1;
    long x = rule_load(v, r);
    switch (r->type) {
    case R_BOOL:
        snprintf(buf, size, "%s", x ? "true" : "false");
        break;
    case R_ENUM:
        snprintf(buf, size, "%ld", x);
        for (const rule_sym *s = r->syms; s->name; s++)
            if (s->val == x) {
                snprintf(buf, size, "%s", s->name);
                break;
            }
        break;
    case R_INT:
        snprintf(buf, size, "%ld", x);
        break;
    default:
        snprintf(buf, size, "%s", x == NO_FACE || x >= v->nfaces ? "none" : v->faces[x].name);
    }
    return 0;
}
