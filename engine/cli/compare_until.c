/* compare_until.c - playing each ruleset of a comparison in rounds until a
 * rate is known to a given precision (--until, --round); the rule looks
 * at the interval's width only, never at a p-value (docs/metrics.md,
 * "Stopping when the answer is known"). */
#include "compare_until.h"

#include <string.h>

#include "htest.h"

static const char *const until_names[] = {NULL, "first-mover", "side0", "draws"};

int cli_until_option(struct cli *c, cli_opts bit, const char *arg)
{
    if (bit == CLI_O_ROUND) {
        if (cli_parse_int(arg, 1, RUN_MAX_GAMES, &c->round) != 0)
            return cli_usage_error(c, "bad --round '%s': expected 1..%lld games", arg,
                                   (long long)RUN_MAX_GAMES);
        return -1;
    }
    const char *eq = strchr(arg, '=');
    int which = UNTIL_NONE;
    for (int i = UNTIL_FIRST_MOVER; eq && i <= UNTIL_DRAWS; i++)
        if (strlen(until_names[i]) == (size_t)(eq - arg) &&
            !strncmp(arg, until_names[i], (size_t)(eq - arg)))
            which = i;
    if (which == UNTIL_NONE)
        return cli_usage_error(c, "bad --until '%s': expected first-mover=W, side0=W or "
                               "draws=W", arg);
    if (cli_parse_double(eq + 1, 1e-6, 0.5, &c->until_width) != 0)
        return cli_usage_error(c, "bad --until '%s': the half-width W must be a number "
                               "from 0.000001 to 0.5", arg);
    c->until = which;
    return -1;
}

long compare_until_cap(const struct cli *c)
{
    return c->given & CLI_O_GAMES ? c->games : UNTIL_DEFAULT_CAP;
}

const struct stats_rate *compare_until_rate(const struct stats *s, int until)
{
    switch (until) {
    case UNTIL_FIRST_MOVER: return &s->first_decisive;
    case UNTIL_SIDE0: return &s->win[0];
    default: return &s->draw;
    }
}

int compare_until_done(const struct stats *s, int until, double width, long games, long cap)
{
    const struct stats_rate *r = compare_until_rate(s, until);
    return games >= cap || htest_stop(r->k, r->n, width);
}

int compare_until_variant(const struct cli *c, db *d, const char *spec,
                          struct playout_variant *out)
{
    long cap = compare_until_cap(c);
    long round = c->round > 0 ? c->round : UNTIL_DEFAULT_ROUND;
    int64_t played = 0;
    double seconds = 0;
    struct cli at = *c;
    at.games = round < cap ? round : cap;
    for (;;) {
        /* the games of a round already stored (an earlier, interrupted
           run) are found, not played again: a rerun resumes */
        int code = playout_variant(&at, d, spec, 1, out);
        played += out->result.played;
        seconds += out->result.seconds;
        out->result.played = played;
        out->result.seconds = seconds;
        if (code != CLI_OK)
            return code;
        if (compare_until_done(&out->stats, c->until, c->until_width, at.games, cap))
            return CLI_OK;
        stats_free(&out->stats);
        at.games = at.games + round < cap ? at.games + round : cap;
    }
}

static long until_round(const struct cli *c)
{
    return c->round > 0 ? c->round : (long)UNTIL_DEFAULT_ROUND;
}

/* The watched rate's half-width (1 with no games to count) and whether it
   reached the target. */
static double until_half(const struct cli *c, const struct stats *s, int *reached)
{
    const struct stats_rate *r = compare_until_rate(s, c->until);
    *reached = htest_stop(r->k, r->n, c->until_width);
    return r->n > 0 ? htest_wilson_half(r->k, r->n) : 1.0;
}

void compare_until_print(const struct cli *c, const struct playout_variant *v, int n)
{
    if (c->until == UNTIL_NONE)
        return;
    printf("--until %s=%g, rounds of %ld, at most %ld games:", until_names[c->until],
           c->until_width, until_round(c), compare_until_cap(c));
    for (int i = 0; i < n; i++) {
        if (!v[i].have_stats) {
            printf("%s %s failed", i ? ";" : "", v[i].label);
            continue;
        }
        int reached;
        double half = until_half(c, &v[i].stats, &reached);
        printf("%s %s stopped at %lld games, half-width %.4f%s", i ? ";" : "", v[i].label,
               (long long)v[i].stats.games, half, reached ? "" : " (the cap: --games)");
    }
    printf("\n");
}

void compare_until_json(jsonw *w, const struct cli *c, const struct playout_variant *v, int n)
{
    if (c->until == UNTIL_NONE)
        return;
    jsonw_key(w, "until");
    jsonw_begin_object(w);
    jsonw_key(w, "rate");
    jsonw_string(w, until_names[c->until]);
    jsonw_key(w, "half_width");
    jsonw_double_g(w, c->until_width);
    jsonw_key(w, "round");
    jsonw_int(w, until_round(c));
    jsonw_key(w, "cap");
    jsonw_int(w, compare_until_cap(c));
    jsonw_key(w, "rulesets");
    jsonw_begin_array(w);
    for (int i = 0; i < n; i++) {
        jsonw_begin_object(w);
        jsonw_key(w, "label");
        jsonw_string(w, v[i].label);
        if (v[i].have_stats) { /* a failed ruleset says why in "variants" */
            int reached;
            double half = until_half(c, &v[i].stats, &reached);
            jsonw_key(w, "games");
            jsonw_int(w, v[i].stats.games);
            jsonw_key(w, "half_width");
            jsonw_double(w, half, 6);
            jsonw_key(w, "reached");
            jsonw_bool(w, reached);
        }
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
    jsonw_end_object(w);
}
