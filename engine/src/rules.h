/* rules.h - the rule and option table: the engine rules a variant's
 * `rules:` key may set (unit, capture, via, ...: fields of tiers_variant),
 * the options the variant declares (`options:`, each bound to a rule or
 * read by its scripts), and setting either from text.  The YAML walk
 * (loader.c) and `--rule KEY=VALUE` overrides (tiers_variant_load's
 * `rules`) go through the same table, so both accept the same values. */
#ifndef TIERS_RULES_H
#define TIERS_RULES_H

#include <stddef.h>

#include "core.h"

enum { R_BOOL, R_ENUM, R_INT, R_FACE };

typedef struct rule_sym {
    const char *name;
    uint8_t val;
} rule_sym;

/* One engine rule: its key, type and the variant field it sets. */
typedef struct rule_def {
    const char *key;
    uint8_t type, wide;  /* wide: a uint16_t field */
    size_t off;
    const rule_sym *syms; /* R_ENUM, default first */
    long max;            /* R_INT */
} rule_def;

/* The i-th engine rule (0..), or NULL past the last. */
const rule_def *rules_at(int i);
/* The engine rule called key, or NULL. */
const rule_def *rules_find(const char *key);
/* The variant's option called key, or NULL. */
option_def *rules_option_find(tiers_variant *v, const char *key);
/* The value of text for rule r into *out: 0, or -1 with a message listing
 * the allowed values in msg. */
int rules_parse(const tiers_variant *v, const rule_def *r, const char *text, long *out,
                char *msg, size_t size);
/* The rule value option value j stands for (-1 if none): the value of
 * that name, or for a two-valued option bound to a boolean rule, first =
 * true (so `values: [allow, forbid]` can drive a boolean rule). */
long rules_option_value(const tiers_variant *v, const option_def *o, const rule_def *r,
                        int j);
/* Stores a rule's value; the options bound to it follow. */
void rules_bind(tiers_variant *v, const rule_def *r, long val);
/* Sets a rule or option from text: 0 = set, -1 = bad value (msg), -2 = no
 * such rule or option.  An option named like the rule it sets takes its
 * own values and the rule's. */
int rules_set_text(tiers_variant *v, const char *key, const char *text, char *msg,
                   size_t size);
/* "unit, bounce, ...; options: a, b" for messages (never a name cut in
 * two: "..." ends a list that does not fit). */
const char *rules_names(tiers_variant *v, char *buf, size_t size);
/* Why key is no rule: "did you mean x? rules: ...; options: ...". */
const char *rules_unknown(tiers_variant *v, const char *key, char *buf, size_t size);

/* Sets one rule or option: TIERS_EUSAGE with err for an unknown key or a
 * bad value. */
int rules_set(tiers_variant *v, const char *key, const char *value, tiers_error *err);
/* Applies "key=value" overrides (NULL-terminated list, may be NULL). */
int rules_apply(tiers_variant *v, const char *const *rules, tiers_error *err);

#endif
