/* ruleset.c - reading a ruleset spec [LABEL=]VARIANT[:KEY=VALUE,...] of
 * `compare` and `playout`, and the run options it stands for. */
#include "ruleset.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int ruleset_key_is(const char *rule, const char *key)
{
    size_t n = strlen(key);
    return strncmp(rule, key, n) == 0 && rule[n] == '=';
}

/* The key of rule text "KEY=VALUE" into buf ("" when there is no '='). */
static const char *ruleset_key(const char *rule, char *buf, size_t size)
{
    const char *eq = strchr(rule, '=');
    size_t n = eq ? (size_t)(eq - rule) : 0;
    if (n >= size)
        n = size - 1;
    memcpy(buf, rule, n);
    buf[n] = '\0';
    return buf;
}

/* Where the LABEL= prefix ends (after its '='), or NULL: a label is a
 * first word up to '=' holding no ':' or '/' (so a path or an option is
 * never taken for one). */
static char *ruleset_label_end(char *s)
{
    size_t n = strcspn(s, "=:/");
    return s[n] == '=' && n > 0 ? s + n + 1 : NULL;
}

/* Sets rs->why from fmt; returns code. */
static int ruleset_fail(struct ruleset *rs, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int ruleset_fail(struct ruleset *rs, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rs->why, sizeof rs->why, fmt, ap);
    va_end(ap);
    return code;
}

/* Splits the option list "K=V,K=V" in place into rs->given. */
static int ruleset_split_options(struct ruleset *rs, char *list)
{
    if (!*list)
        return ruleset_fail(rs, RULESET_EUSAGE, "ruleset '%s': no option after ':' (write "
                            "%s:KEY=VALUE)", rs->arg, rs->variant);
    for (char *item = list; item;) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        char *eq = strchr(item, '=');
        if (!eq || eq == item || !eq[1])
            return ruleset_fail(rs, RULESET_EUSAGE, "ruleset '%s': option '%s' is not "
                                "KEY=VALUE", rs->arg, item);
        if (rs->ngiven == RULESET_MAX_RULES)
            return ruleset_fail(rs, RULESET_EUSAGE, "ruleset '%s': more than %d options",
                                rs->arg, RULESET_MAX_RULES);
        rs->given[rs->ngiven++] = item;
        item = comma ? comma + 1 : NULL;
    }
    return 0;
}

/* A key given twice (among the spec's or the common ones), or in both. */
static int ruleset_check_keys(struct ruleset *rs)
{
    char a[128], b[128];
    for (int i = 0; i < rs->ngiven; i++)
        for (int j = 0; j < i; j++) {
            if (strcmp(ruleset_key(rs->given[i], a, sizeof a),
                       ruleset_key(rs->given[j], b, sizeof b)))
                continue;
            if (j < rs->nspec && i >= rs->nspec)
                return ruleset_fail(rs, RULESET_EUSAGE, "ruleset '%s' sets '%s' and so does "
                                    "%s %s: give it once", rs->arg, a, rs->common_name,
                                    rs->given[i]);
            return ruleset_fail(rs, RULESET_EUSAGE, "%s '%s' is given twice (%s, %s)",
                                i < rs->nspec ? "ruleset option" : rs->common_name, a,
                                rs->given[j], rs->given[i]);
        }
    return 0;
}

int ruleset_read(struct ruleset *rs, const char *arg, const char *const *common, int ncommon,
                 const char *common_name)
{
    memset(rs, 0, sizeof *rs);
    rs->arg = arg;
    rs->common_name = common_name;
    rs->buf = malloc(strlen(arg) + 1);
    if (!rs->buf)
        return ruleset_fail(rs, RULESET_ENOMEM, "out of memory");
    strcpy(rs->buf, arg);
    char *spec = rs->buf;
    struct stat sb;
    /* a path that exists is a variant, whatever it holds */
    char *end = stat(spec, &sb) == 0 ? NULL : ruleset_label_end(spec);
    if (end) {
        end[-1] = '\0';
        snprintf(rs->label, sizeof rs->label, "%s", spec);
        rs->has_label = 1;
        spec = end;
    }
    if (!*spec)
        return ruleset_fail(rs, RULESET_EUSAGE, "ruleset '%s' names no variant", arg);
    rs->variant = spec;
    /* the options start at the first ':' after the last '/', unless the
       whole spec is a path that exists */
    const char *slash = strrchr(spec, '/');
    char *colon = strchr(slash ? slash : spec, ':');
    if (colon && stat(spec, &sb) != 0) {
        *colon = '\0';
        if (!*spec)
            return ruleset_fail(rs, RULESET_EUSAGE, "ruleset '%s' names no variant", arg);
        int code = ruleset_split_options(rs, colon + 1);
        if (code)
            return code;
    }
    rs->nspec = rs->ngiven;
    for (int i = 0; i < ncommon; i++) {
        if (rs->ngiven == 2 * RULESET_MAX_RULES)
            return ruleset_fail(rs, RULESET_EUSAGE, "more than %d %s values", RULESET_MAX_RULES,
                                common_name);
        rs->given[rs->ngiven++] = common[i];
    }
    rs->given[rs->ngiven] = NULL;
    return ruleset_check_keys(rs);
}

int ruleset_parse(const struct cli *c, const char *arg, struct ruleset *rs)
{
    int rc = ruleset_read(rs, arg, (const char *const *)c->rules, c->nrules, "--rule");
    if (rc == RULESET_ENOMEM) {
        cli_error(c, "%s", rs->why);
        return CLI_INTERNAL;
    }
    return rc ? cli_usage_error(c, "%s", rs->why) : CLI_OK;
}

/* The options v declares, ", "-joined, into buf. */
static const char *ruleset_option_list(const tiers_variant *v, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < tiers_variant_options(v) && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
                              tiers_variant_option_name(v, i));
    return buf;
}

/* A key the variant has neither as an option nor as an engine rule. */
static int ruleset_unknown(struct ruleset *rs, const tiers_variant *base, int i)
{
    char key[128], list[900];
    ruleset_key(rs->given[i], key, sizeof key);
    const char *name = rs->has_label ? rs->label : rs->arg;
    ruleset_option_list(base, list, sizeof list);
    char declared[1000];
    if (list[0])
        snprintf(declared, sizeof declared, "its options: %s", list);
    else
        snprintf(declared, sizeof declared, "it declares no options");
    if (i < rs->nspec)
        return ruleset_fail(rs, RULESET_EUNKNOWN, "ruleset '%s': unknown rule '%s' for %s "
                            "(%s; the engine rules are listed in docs/variant-format.md)",
                            name, key, tiers_variant_name(base), declared);
    return ruleset_fail(rs, RULESET_EUNKNOWN, "%s %s: unknown rule '%s' for ruleset '%s' (%s; "
                        "the engine rules are listed in docs/variant-format.md); %s applies "
                        "to every ruleset: to set it on one, write RULESET:%s",
                        rs->common_name, rs->given[i], key, name, declared, rs->common_name,
                        rs->given[i]);
}

static int ruleset_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Fills the run options: each given key whose value in v differs from
 * its value in base, as "KEY=VALUE" with v's text, sorted. */
static int ruleset_effective(struct ruleset *rs, const tiers_variant *base,
                             const tiers_variant *v)
{
    char key[128], was[256], now[256];
    size_t used = 0;
    rs->nrules = 0;
    for (int i = 0; i < rs->ngiven; i++) {
        ruleset_key(rs->given[i], key, sizeof key);
        if (tiers_variant_rule_value(base, key, was, sizeof was) != 0 ||
            tiers_variant_rule_value(v, key, now, sizeof now) != 0 || !strcmp(was, now))
            continue;
        size_t need = strlen(key) + strlen(now) + 2;
        if (used + need > sizeof rs->canon_buf || rs->nrules == RULESET_MAX_RULES)
            return ruleset_fail(rs, RULESET_EUSAGE, "ruleset '%s': too many options", rs->arg);
        char *at = rs->canon_buf + used;
        snprintf(at, need, "%s=%s", key, now);
        rs->rules[rs->nrules++] = at;
        used += need;
    }
    rs->rules[rs->nrules] = NULL;
    qsort(rs->rules, (size_t)rs->nrules, sizeof rs->rules[0], ruleset_cmp);
    size_t n = 0;
    rs->options[0] = '\0';
    for (int i = 0; i < rs->nrules; i++)
        n += (size_t)snprintf(rs->options + n, sizeof rs->options - n, "%s%s", i ? " " : "",
                              rs->rules[i]);
    if (!rs->has_label) {
        n = (size_t)snprintf(rs->label, sizeof rs->label, "%s", tiers_variant_name(base));
        for (int i = 0; i < rs->nrules && n < sizeof rs->label; i++)
            n += (size_t)snprintf(rs->label + n, sizeof rs->label - n, "%c%s", i ? ',' : ':',
                                  rs->rules[i]);
    }
    return 0;
}

int ruleset_canon(struct ruleset *rs, const char *spec, const char *search,
                  const tiers_variant *base)
{
    char value[256], key[128];
    for (int i = 0; i < rs->ngiven; i++)
        if (tiers_variant_rule_value(base, ruleset_key(rs->given[i], key, sizeof key), value,
                                     sizeof value) != 0)
            return ruleset_unknown(rs, base, i);
    memset(&rs->load_error, 0, sizeof rs->load_error);
    tiers_variant *v = tiers_variant_load(spec, search, rs->given, &rs->load_error);
    if (!v) {
        tiers_error_text(&rs->load_error, rs->why, sizeof rs->why);
        return RULESET_ELOAD;
    }
    int code = ruleset_effective(rs, base, v);
    tiers_variant_free(v);
    return code;
}

int ruleset_resolve(const struct cli *c, struct ruleset *rs, const tiers_variant *base)
{
    switch (ruleset_canon(rs, rs->variant, c->search, base)) {
    case 0:
        return CLI_OK;
    case RULESET_ELOAD:
        cli_load_error(c, rs->arg, &rs->load_error);
        return CLI_INPUT;
    case RULESET_EUNKNOWN:
        cli_error(c, "%s", rs->why);
        return CLI_INPUT;
    default:
        cli_error(c, "%s", rs->why);
        return CLI_USAGE;
    }
}

void ruleset_free(struct ruleset *rs)
{
    free(rs->buf);
    rs->buf = NULL;
}
