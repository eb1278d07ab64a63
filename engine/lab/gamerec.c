/* gamerec.c - writing game records (docs/notation.md, "Game records"). */
#include "gamerec.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

enum { GAMEREC_WRAP = 72 };

void gamerec_tag(FILE *f, const char *name, const char *value)
{
    fprintf(f, "[%s \"", name);
    for (const char *s = value; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch < 0x20 || ch == 0x7f) { /* a tag stands on one line */
            fputc(' ', f);
            continue;
        }
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fprintf(f, "\"]\n");
}

void gamerec_side_tag(const tiers_variant *v, int side, char buf[16])
{
    const char *name = tiers_variant_side_name(v, side);
    if (name && name[0])
        snprintf(buf, 16, "%s", name);
    else
        snprintf(buf, 16, "side %d", side);
    buf[0] = (char)toupper((unsigned char)buf[0]);
    for (char *t = buf; *t; t++)
        if (!isalnum((unsigned char)*t))
            *t = '_';
}

char *gamerec_options_join(const char *const *rules)
{
    size_t len = 1;
    for (int i = 0; rules && rules[i]; i++)
        len += strlen(rules[i]) + 1;
    char *out = malloc(len);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (int i = 0; rules && rules[i]; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, rules[i]);
    }
    return out;
}

/* Whether s starts like "KEY=" (a rule's key: letters, digits, _ . -). */
static int gamerec_starts_rule(const char *s)
{
    size_t key = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                           "0123456789_.-");
    return key && s[key] == '=';
}

int gamerec_options_split(char *buf, const char **rules, int max)
{
    int n = 0;
    char *s = buf + strspn(buf, " ");
    while (*s) {
        if (n == max) {
            rules[n] = NULL;
            return -1;
        }
        rules[n++] = s;
        /* the rule ends before the next space that starts a KEY= word */
        char *next = strchr(s, ' ');
        while (next && !gamerec_starts_rule(next + strspn(next, " ")))
            next = strchr(next + 1, ' ');
        if (!next)
            break;
        s = next + strspn(next, " ");
        *next = '\0';
    }
    if (n) { /* spaces after the last value are no part of it */
        char *last = (char *)rules[n - 1];
        for (size_t len = strlen(last); len && last[len - 1] == ' ';)
            last[--len] = '\0';
    }
    rules[n] = NULL;
    return n;
}

/* Whether rules a and b ("KEY=VALUE") set the same key. */
static int gamerec_same_key(const char *a, const char *b)
{
    size_t ka = strcspn(a, "="), kb = strcspn(b, "=");
    return ka == kb && !strncmp(a, b, ka);
}

void gamerec_rules_free(struct gamerec_rules *r)
{
    free(r->buf);
    free(r->rule);
    free(r->tag_offset);
    memset(r, 0, sizeof *r);
}

/* Appends rule to r unless one of `over` (the command line's) sets its
 * key. */
static void gamerec_rules_add(struct gamerec_rules *r, const char *rule, int offset,
                              const char *const *over)
{
    for (int i = 0; over && over[i]; i++)
        if (gamerec_same_key(rule, over[i]))
            return;
    r->rule[r->n] = rule;
    r->tag_offset[r->n++] = offset;
}

int gamerec_rules_merge(struct gamerec_rules *r, const char *options,
                        const char *const *cli_rules)
{
    memset(r, 0, sizeof *r);
    size_t len = options ? strlen(options) : 0;
    int ncli = 0;
    while (cli_rules && cli_rules[ncli])
        ncli++;
    /* at most one rule per word of the tag */
    int max = (int)(len / 2) + 1;
    r->buf = malloc(len + 1);
    r->rule = malloc((size_t)(max + ncli + 1) * sizeof *r->rule);
    r->tag_offset = malloc((size_t)(max + ncli + 1) * sizeof *r->tag_offset);
    if (!r->buf || !r->rule || !r->tag_offset) {
        gamerec_rules_free(r);
        return -1;
    }
    memcpy(r->buf, options ? options : "", len + 1);
    int ntag = gamerec_options_split(r->buf, r->rule, max);
    for (int i = 0; i < ntag; i++) /* (rule[] is rewritten in place) */
        gamerec_rules_add(r, r->rule[i], (int)(r->rule[i] - r->buf), cli_rules);
    for (int i = 0; i < ncli; i++)
        gamerec_rules_add(r, cli_rules[i], -1, NULL); /* in order, as given */
    r->rule[r->n] = NULL;
    return 0;
}

void gamerec_begin(struct gamerec_moves *w, FILE *f, const tiers_variant *v)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->first = tiers_variant_first_side(v);
    w->last_side = -1;
    fputc('\n', f);
}

/* Writes one word (prefix and text, either may be ""), starting a new
 * line when it would pass the margin. */
static void gamerec_word(struct gamerec_moves *w, const char *prefix, const char *text)
{
    int len = (int)(strlen(prefix) + strlen(text));
    if (w->col && w->col + 1 + len > GAMEREC_WRAP) {
        fputc('\n', w->f);
        w->col = 0;
    }
    w->col += fprintf(w->f, "%s%s%s", w->col ? " " : "", prefix, text);
}

int gamerec_move_readable(const char *text)
{
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
    if (!text[0] || text[0] == '[')
        return 0;
    for (int k = 0; k < 4; k++)
        if (!strcmp(text, results[k]))
            return 0;
    for (const unsigned char *s = (const unsigned char *)text; *s; s++)
        if (*s <= ' ' || *s == 0x7f || *s == '{' || *s == '}' ||
            (s[0] == 0xc2 && s[1] == 0xa0) || (s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf))
            return 0;
    size_t digits = strspn(text, "0123456789");
    return !(digits && text[digits] == '.'); /* not a move number */
}

void gamerec_move(struct gamerec_moves *w, int number, int side, const char *text)
{
    char prefix[32] = "";
    if (side == w->first || w->plies == 0 || w->last_side != w->first ||
        w->last_number != number)
        snprintf(prefix, sizeof prefix, "%d%s ", number, side == w->first ? "." : "...");
    gamerec_word(w, prefix, text);
    w->plies++;
    w->last_side = side;
    w->last_number = number;
}

int gamerec_end(struct gamerec_moves *w, const char *result)
{
    gamerec_word(w, "", result);
    fputc('\n', w->f);
    return ferror(w->f) ? -1 : 0;
}

/* A tag's value as a decimal number (no sign, no spaces). */
static int gamerec_tag_number(const char *text, unsigned long long *out)
{
    char *end;
    if (!text || !isdigit((unsigned char)text[0]))
        return -1;
    errno = 0;
    *out = strtoull(text, &end, 10);
    return errno || *end ? -1 : 0;
}

int gamerec_seed_pos(tiers_pos *p, const tiers_record *r, const char **bad)
{
    const char *seed = tiers_record_tag(r, "Seed"), *game = tiers_record_tag(r, "Game");
    unsigned long long s, g;
    if (!seed && !game)
        return 0;
    if (gamerec_tag_number(seed, &s) < 0) {
        *bad = "Seed";
        return -1;
    }
    if (gamerec_tag_number(game, &g) < 0 || g > INT64_MAX) {
        *bad = "Game";
        return -1;
    }
    tiers_pos_seed(p, game_script_seed(game_seed(s, (int64_t)g)));
    return 1;
}
