/* ruleset.h - a ruleset as `compare` and `playout` take it on the command
 * line: [LABEL=]VARIANT[:KEY=VALUE[,KEY=VALUE...]] (docs/cli.md), with the
 * --rule values added, and the run options it stands for: its effective
 * non-default options sorted by key. */
#ifndef RULESET_H
#define RULESET_H

#include "cli.h"

enum { RULESET_MAX_RULES = 64, RULESET_LABEL = 96 };

/* What ruleset_read and ruleset_canon return besides 0 (rs->why says
 * more): a spec or option list that does not parse, a key the variant
 * lacks, a variant that does not load with the options (load_error too),
 * no memory. */
enum { RULESET_EUSAGE = -1, RULESET_EUNKNOWN = -2, RULESET_ELOAD = -3, RULESET_ENOMEM = -4 };

struct ruleset {
    const char *arg;              /* as given */
    char *buf;                    /* arg split in place (malloc'd) */
    const char *variant;          /* the VARIANT part: a name or a path */
    char label[RULESET_LABEL];    /* LABEL=, else VARIANT[:K=V,...] as
                                     the effective options make it */
    int has_label;
    /* the spec's KEY=VALUE then the --rule values, NULL-terminated */
    const char *given[2 * RULESET_MAX_RULES + 1];
    int ngiven, nspec;
    /* the effective non-default options, sorted by key: the run's
       options, joined by ' ' (options) and as a list (rules) */
    char options[1024];
    char canon_buf[1024];
    const char *rules[RULESET_MAX_RULES + 1];
    int nrules;
    const char *common_name;      /* what the common options are called in
                                     messages ("--rule") */
    char why[1400];               /* the last failure */
    tiers_error load_error;       /* with RULESET_ELOAD */
};

/* The parts of ruleset_parse and ruleset_resolve that print nothing, for
 * callers with their own channel for errors (`tiers serve`): common[0..
 * ncommon-1] are the options every ruleset takes (--rule), called
 * common_name in messages; the variant is loaded from spec on search. */
int ruleset_read(struct ruleset *rs, const char *arg, const char *const *common, int ncommon,
                 const char *common_name);
int ruleset_canon(struct ruleset *rs, const char *spec, const char *search,
                  const tiers_variant *base);

/* Splits arg into label, variant and the spec's rules, adds c's --rule
 * values, and refuses (usage error, exit 1) an empty option list
 * (`blog:`), an option without a value (`blog:fouls`), a key given twice
 * and a key both in the spec and in --rule.  Returns an exit code. */
int ruleset_parse(const struct cli *c, const char *arg, struct ruleset *rs);

/* Works out the run options of rs against the loaded variant v (loaded
 * with rs->given) and its defaults `base` (loaded with no rule): a key v
 * lacks is an error naming the ruleset, its options and, for a --rule
 * key, the RULESET:KEY=VALUE form (exit 2).  Fills options, rules and the
 * default label.  Returns an exit code. */
int ruleset_resolve(const struct cli *c, struct ruleset *rs, const tiers_variant *base);

/* Whether rule text "KEY=VALUE" names key. */
int ruleset_key_is(const char *rule, const char *key);

void ruleset_free(struct ruleset *rs);

#endif
