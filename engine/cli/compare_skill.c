/* compare_skill.c - the skill trace (issue 23): each ruleset of a
 * comparison played by one agent at budgets doubling level by level, its
 * main figures per level, and each level's score against the level below
 * (docs/metrics.md, "The skill trace"). */
#include "compare_skill.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ladder.h"

/* The budget parameter of the agent kind SPEC names, NULL when it has
 * none (random, greedy). */
static const char *skill_key(const char *spec)
{
    size_t kind = strcspn(spec, ":");
    if (kind == 4 && !strncmp(spec, "mcts", 4))
        return "iterations";
    if (kind == 9 && !strncmp(spec, "alphabeta", 9))
        return "nodes";
    return NULL;
}

/* Where "KEY=" starts a parameter of spec, or NULL. */
static const char *skill_find(const char *spec, const char *key)
{
    size_t len = strlen(key);
    for (const char *p = strchr(spec, ':'); p; p = strchr(p + 1, ',')) {
        if (!strncmp(p + 1, key, len) && p[1 + len] == '=')
            return p + 1;
    }
    return NULL;
}

/* The budget SPEC gives, or -1 when it gives none or a bad one. */
static long long skill_budget(const char *spec)
{
    const char *at = skill_find(spec, skill_key(spec));
    if (!at)
        return -1;
    const char *val = strchr(at, '=') + 1;
    char *end;
    long long b = strtoll(val, &end, 10);
    if (end == val || (*end && *end != ',') || b < 1 || b == LLONG_MAX)
        return -1;
    return b;
}

static int skill_levels(const struct cli *c)
{
    return c->levels > 0 ? (int)c->levels : SKILL_DEFAULT_LEVELS;
}

void compare_skill_spec(const struct cli *c, int k, char *buf, size_t size)
{
    const char *at = skill_find(c->skill, skill_key(c->skill));
    const char *rest = strchr(at, ',');
    snprintf(buf, size, "%.*s%s=%lld%s", (int)(at - c->skill), c->skill,
             skill_key(c->skill), skill_budget(c->skill) << k, rest ? rest : "");
}

int compare_skill_check(const struct cli *c)
{
    if (!c->skill) {
        if (c->given & CLI_O_LEVELS)
            return cli_usage_error(c, "--levels applies with --skill only");
        return CLI_OK;
    }
    if (c->until)
        return cli_usage_error(c, "--skill and --until do not go together");
    if (c->side0 || c->side1 || c->white || c->black)
        return cli_usage_error(c, "--skill sets the agents of both sides: drop --side0, "
                               "--side1, --white and --black");
    const char *key = skill_key(c->skill);
    if (!key)
        return cli_usage_error(c, "--skill '%s': the agent has no budget parameter to "
                               "double (use mcts:iterations=N or alphabeta:nodes=N)",
                               c->skill);
    long long b = skill_budget(c->skill);
    if (b < 1)
        return cli_usage_error(c, "--skill '%s': give the budget as %s=N with N >= 1",
                               c->skill, key);
    int levels = skill_levels(c);
    if (b > LLONG_MAX >> (levels - 1))
        return cli_usage_error(c, "--skill '%s' --levels %d: the top budget %s=%lld x 2^%d "
                               "overflows", c->skill, levels, key, b, levels - 1);
    if (c->games % 2)
        return cli_usage_error(c, "--games %ld: give an even number with --skill (the "
                               "levels play each other half with each colour)", c->games);
    for (int k = 0; k < levels; k++) {
        char spec[512];
        compare_skill_spec(c, k, spec, sizeof spec);
        tiers_error err;
        tiers_agent *a = tiers_agent_new(spec, &err);
        if (!a) {
            char msg[512];
            return cli_usage_error(c, "--skill '%s' --levels %d: level %d: %s", c->skill,
                                   levels, k + 1, tiers_error_text(&err, msg, sizeof msg));
        }
        tiers_agent_free(a);
    }
    return CLI_OK;
}

int cli_skill_option(struct cli *c, cli_opts bit, const char *arg)
{
    if (bit == CLI_O_SKILL) {
        c->skill = arg;
        return -1;
    }
    if (cli_parse_int(arg, SKILL_MIN_LEVELS, SKILL_MAX_LEVELS, &c->levels) != 0)
        return cli_usage_error(c, "bad --levels '%s': expected %d..%d", arg, SKILL_MIN_LEVELS,
                               SKILL_MAX_LEVELS);
    return -1;
}

static void skill_keep(const struct playout_variant *pv, long long budget,
                       struct skill_level *l)
{
    const struct stats *s = &pv->stats;
    l->budget = budget;
    snprintf(l->agent, sizeof l->agent, "%s", pv->run.agent[0]);
    snprintf(l->run, sizeof l->run, "%s", pv->run.key);
    l->games = s->games;
    l->balance = s->balance;
    l->first_decisive = s->first_decisive;
    l->draw = s->draw;
    l->cut = s->cut_rate;
    l->length_mean = s->length_mean;
}

/* Agent a as side 0 against b, games/2 of them: a's points added. */
static int skill_half(const struct cli *c, db *d, const char *spec, const char *a,
                      const char *b, struct skill_step *st, int a_first)
{
    struct cli half = *c;
    half.side0 = a_first ? a : b;
    half.side1 = a_first ? b : a;
    half.games = c->games / 2;
    struct playout_variant pv;
    memset(&pv, 0, sizeof pv);
    int code = playout_variant(&half, d, spec, 1, &pv);
    if (code == CLI_OK) {
        const struct stats *s = &pv.stats;
        double even = 0.5 * (double)(s->games - s->wins[0] - s->wins[1]);
        st->score += (double)s->wins[a_first ? 0 : 1] + even;
        st->games += (double)s->games;
    }
    if (pv.have_stats)
        stats_free(&pv.stats);
    return code;
}

/* Level by level Bradley-Terry on the adjacent pairs (ladder.c). */
static void skill_fit(int levels, struct compare_skill_trace *t)
{
    double score[SKILL_MAX_LEVELS * SKILL_MAX_LEVELS] = {0};
    double games[SKILL_MAX_LEVELS * SKILL_MAX_LEVELS] = {0};
    for (int k = 0; k + 1 < levels; k++) {
        score[(k + 1) * levels + k] = t->step[k].score;
        score[k * levels + k + 1] = t->step[k].games - t->step[k].score;
        games[(k + 1) * levels + k] = games[k * levels + k + 1] = t->step[k].games;
    }
    struct ladder_fit fit;
    char err[256];
    t->have_elo = ladder_fit(&(struct ladder_table){score, games, levels}, &fit, err,
                             sizeof err) == 0;
    for (int k = 0; k < levels && t->have_elo; k++) {
        t->elo[k] = fit.elo[k];
        t->elo_sd[k] = fit.sd[k];
    }
}

int compare_skill_variant(const struct cli *c, db *d, const char *spec,
                          struct playout_variant *out, struct compare_skill_trace *trace)
{
    int levels = skill_levels(c);
    char agent[SKILL_MAX_LEVELS][512];
    memset(trace, 0, sizeof *trace);
    for (int k = 0; k < levels; k++)
        compare_skill_spec(c, k, agent[k], sizeof agent[k]);
    for (int k = 0; k < levels; k++) {
        struct cli at = *c;
        at.side0 = at.side1 = agent[k];
        int code = playout_variant(&at, d, spec, 1, out);
        if (code != CLI_OK)
            return code;
        skill_keep(out, skill_budget(c->skill) << k, &trace->level[k]);
        if (k + 1 < levels) {
            stats_free(&out->stats);
            out->have_stats = 0;
        }
    }
    /* out now holds the top level, the table's column */
    for (int k = 0; k + 1 < levels; k++) {
        struct skill_step *st = &trace->step[k];
        int code = skill_half(c, d, spec, agent[k + 1], agent[k], st, 1);
        if (code == CLI_OK)
            code = skill_half(c, d, spec, agent[k + 1], agent[k], st, 0);
        if (code != CLI_OK) {
            snprintf(out->failure, sizeof out->failure,
                     "the games of level %d against level %d failed", k + 2, k + 1);
            return code;
        }
        ladder_wilson(st->score, st->games, &st->lo, &st->hi);
    }
    skill_fit(levels, trace);
    trace->ok = 1;
    return CLI_OK;
}

static void skill_json_rate(jsonw *w, const char *key, const struct stats_rate *r)
{
    jsonw_key(w, key);
    jsonw_begin_object(w);
    jsonw_key(w, "count");
    jsonw_int(w, r->k);
    jsonw_key(w, "of");
    jsonw_int(w, r->n);
    jsonw_key(w, "rate");
    jsonw_double(w, r->rate, 4);
    jsonw_key(w, "low");
    jsonw_double(w, r->lo, 4);
    jsonw_key(w, "high");
    jsonw_double(w, r->hi, 4);
    jsonw_end_object(w);
}

static void skill_json_level(jsonw *w, const struct compare_skill_trace *t, int k)
{
    const struct skill_level *l = &t->level[k];
    jsonw_begin_object(w);
    jsonw_key(w, "level");
    jsonw_int(w, k + 1);
    jsonw_key(w, "budget");
    jsonw_int(w, l->budget);
    jsonw_key(w, "agent");
    jsonw_string(w, l->agent);
    jsonw_key(w, "run");
    jsonw_string(w, l->run);
    jsonw_key(w, "games");
    jsonw_int(w, l->games);
    jsonw_key(w, "balance");
    if (l->balance < 0)
        jsonw_null(w);
    else
        jsonw_double(w, l->balance, 4);
    skill_json_rate(w, "first_mover_win_rate_decisive", &l->first_decisive);
    skill_json_rate(w, "draw_rate", &l->draw);
    skill_json_rate(w, "cut_rate", &l->cut);
    jsonw_key(w, "length_mean");
    jsonw_double(w, l->length_mean, 3);
    jsonw_key(w, "elo");
    if (t->have_elo)
        jsonw_double(w, t->elo[k], 1);
    else
        jsonw_null(w);
    jsonw_end_object(w);
}

static void skill_json_step(jsonw *w, const struct skill_step *st, int k)
{
    jsonw_begin_object(w);
    jsonw_key(w, "stronger");
    jsonw_int(w, k + 2);
    jsonw_key(w, "weaker");
    jsonw_int(w, k + 1);
    jsonw_key(w, "games");
    jsonw_int(w, (long long)st->games);
    jsonw_key(w, "score");
    jsonw_double(w, st->score, 1);
    jsonw_key(w, "rate");
    jsonw_double(w, st->games > 0 ? st->score / st->games : 0, 4);
    jsonw_key(w, "low");
    jsonw_double(w, st->lo, 4);
    jsonw_key(w, "high");
    jsonw_double(w, st->hi, 4);
    jsonw_end_object(w);
}

void compare_skill_json(jsonw *w, const struct cli *c, const struct playout_variant *v, int n)
{
    if (!c->skill)
        return;
    int levels = skill_levels(c);
    jsonw_key(w, "skill");
    jsonw_begin_object(w);
    jsonw_key(w, "spec");
    jsonw_string(w, c->skill);
    jsonw_key(w, "parameter");
    jsonw_string(w, skill_key(c->skill));
    jsonw_key(w, "budgets");
    jsonw_begin_array(w);
    for (int k = 0; k < levels; k++)
        jsonw_int(w, skill_budget(c->skill) << k);
    jsonw_end_array(w);
    jsonw_key(w, "rulesets");
    jsonw_begin_array(w);
    for (int i = 0; i < n; i++) {
        const struct compare_skill_trace *t = &c->skill_trace[i];
        jsonw_begin_object(w);
        jsonw_key(w, "label");
        jsonw_string(w, v[i].label);
        jsonw_key(w, "status");
        jsonw_string(w, t->ok ? "ok" : "failed");
        if (t->ok) {
            jsonw_key(w, "levels");
            jsonw_begin_array(w);
            for (int k = 0; k < levels; k++)
                skill_json_level(w, t, k);
            jsonw_end_array(w);
            jsonw_key(w, "steps");
            jsonw_begin_array(w);
            for (int k = 0; k + 1 < levels; k++)
                skill_json_step(w, &t->step[k], k);
            jsonw_end_array(w);
        }
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
    jsonw_end_object(w);
}

static void skill_print_ruleset(const struct playout_variant *v,
                                const struct compare_skill_trace *t, int levels)
{
    printf("\n%s\n%5s %12s %7s %8s %22s %22s %22s %8s\n", v->label, "level", "budget",
           "games", "balance", "first mover (decisive)", "draws", "cut", "length");
    for (int k = 0; k < levels; k++) {
        const struct skill_level *l = &t->level[k];
        char bal[16], cell[3][48];
        const struct stats_rate *r[3] = {&l->first_decisive, &l->draw, &l->cut};
        snprintf(bal, sizeof bal, l->balance < 0 ? "-" : "%.3f", l->balance);
        for (int j = 0; j < 3; j++)
            snprintf(cell[j], sizeof cell[j], "%.1f%% [%.1f, %.1f]", 100 * r[j]->rate,
                     100 * r[j]->lo, 100 * r[j]->hi);
        printf("%5d %12lld %7lld %8s %22s %22s %22s %8.1f\n", k + 1, l->budget,
               (long long)l->games, bal, cell[0], cell[1], cell[2], l->length_mean);
    }
    for (int k = 0; k + 1 < levels; k++) {
        const struct skill_step *st = &t->step[k];
        printf("level %d against level %d: %.1f of %.0f games, %.1f%% [%.1f%%, %.1f%%]\n",
               k + 2, k + 1, st->score, st->games,
               st->games > 0 ? 100 * st->score / st->games : 0, 100 * st->lo, 100 * st->hi);
    }
}

void compare_skill_print(const struct cli *c, const struct playout_variant *v, int n)
{
    if (!c->skill)
        return;
    int levels = skill_levels(c);
    printf("\nskill trace: %s, %s doubling over %d levels (the table above is level %d)\n",
           c->skill, skill_key(c->skill), levels, levels);
    for (int i = 0; i < n; i++) {
        if (c->skill_trace[i].ok)
            skill_print_ruleset(&v[i], &c->skill_trace[i], levels);
        else
            printf("\n%s: failed\n", v[i].label);
    }
    printf("\nrates with 95%% Wilson intervals; level k+1 against level k: %ld games, half "
           "with each colour, a draw or cut game half a point\n", c->games);
}

/* --------------------------------------------------------- the report */

/* The report's series colours (report.c's palette), so a ruleset keeps
 * its colour from the charts above to the lines here. */
static const char *const skill_palette[] = {
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f",
};
enum { SKILL_W = 760, SKILL_NPALETTE = 8 };

static void skill_esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

/* The figures the lines show: -1 where there is none. */
enum { SKILL_BALANCE, SKILL_FIRST, SKILL_DRAWS, SKILL_CUT, SKILL_LENGTH, SKILL_NFIGURES };
static const char *const skill_titles[SKILL_NFIGURES] = {
    "balance (decisive)", "first mover wins (decisive)", "draws", "cut at max plies",
    "length, mean (plies)"};

static double skill_figure(const struct skill_level *l, int fig)
{
    switch (fig) {
    case SKILL_BALANCE: return l->balance;
    case SKILL_FIRST: return l->first_decisive.n > 0 ? l->first_decisive.rate : -1;
    case SKILL_DRAWS: return l->draw.rate;
    case SKILL_CUT: return l->cut.rate;
    default: return l->length_mean;
    }
}

/* One chart: x = level, a line per ruleset. */
static void skill_chart(FILE *f, const struct skill_report *r, int fig)
{
    const struct cli *c = r->c;
    int levels = skill_levels(c), n = r->n;
    const int left = 60, right = 20, top = 20, plot_h = 200;
    const int plot = SKILL_W - left - right, base = top + plot_h;
    double peak = 1;
    for (int i = 0; fig == SKILL_LENGTH && i < n; i++)
        for (int k = 0; c->skill_trace[i].ok && k < levels; k++)
            if (c->skill_trace[i].level[k].length_mean > peak)
                peak = c->skill_trace[i].level[k].length_mean;
    int height = base + 40 + 18 * n;
    fprintf(f, "<svg id=\"chart-skill-%d\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
               "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n<title>",
            fig, SKILL_W, height, SKILL_W, height);
    skill_esc(f, skill_titles[fig]);
    fputs(" by level</title>\n", f);
    for (int t = 0; t <= 4; t++) {
        double y = base - plot_h * t / 4.0;
        fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
                   "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
                left, y, left + plot, y, left - 6, y + 4);
        if (fig == SKILL_LENGTH)
            fprintf(f, "%.0f</text>\n", peak * t / 4.0);
        else if (fig == SKILL_BALANCE)
            fprintf(f, "%.2f</text>\n", t / 4.0);
        else
            fprintf(f, "%d%%</text>\n", 25 * t);
    }
    for (int k = 0; k < levels; k++)
        fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s=%lld"
                   "</text>\n", left + plot * (k + 0.5) / levels, base + 14,
                skill_key(c->skill), skill_budget(c->skill) << k);
    for (int i = 0; i < n; i++) {
        const struct compare_skill_trace *t = &c->skill_trace[i];
        const char *colour = skill_palette[i % SKILL_NPALETTE];
        fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" points=\"", colour);
        for (int k = 0; t->ok && k < levels; k++) {
            double x = skill_figure(&t->level[k], fig);
            if (x >= 0)
                fprintf(f, "%.1f,%.1f ", left + plot * (k + 0.5) / levels,
                        base - plot_h * x / peak);
        }
        fputs("\"><title>", f);
        skill_esc(f, r->v[i].label);
        fputs("</title></polyline>\n", f);
        int ly = base + 34 + 18 * i;
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>"
                   "<text class=\"label\" x=\"%d\" y=\"%d\">", left, ly - 4, colour, left + 20,
                ly);
        skill_esc(f, r->v[i].label);
        fputs(t->ok ? "</text>\n" : " (failed)</text>\n", f);
    }
    fputs("</svg>\n", f);
}

void compare_skill_report(FILE *f, const void *ctx)
{
    const struct skill_report *r = ctx;
    const struct cli *c = r->c;
    if (!c->skill)
        return;
    int levels = skill_levels(c);
    fputs("<h2>Skill trace</h2>\n<p>Every ruleset played by ", f);
    skill_esc(f, c->skill);
    fprintf(f, " on both sides at %d levels, its %s doubling from one level to the next "
               "(the tables and charts above are the top level). A line that stays flat: the "
               "figure does not depend on the players' strength.</p>\n", levels,
            skill_key(c->skill));
    for (int fig = 0; fig < SKILL_NFIGURES; fig++) {
        fputs("<h3>", f);
        skill_esc(f, skill_titles[fig]);
        fputs("</h3>\n", f);
        skill_chart(f, r, fig);
    }
    fprintf(f, "<h3>Skill depth: level k+1 against level k</h3>\n<p>%ld games per pair of "
               "levels, half with each colour; a draw or cut game is half a point. A score "
               "above 50%% whose interval excludes 50%%: strength tells in this ruleset.</p>\n"
               "<table id=\"skill-depth\">\n<tr><th>ruleset</th>", c->games);
    for (int k = 0; k + 1 < levels; k++)
        fprintf(f, "<th>%d vs %d</th>", k + 2, k + 1);
    fputs("</tr>\n", f);
    for (int i = 0; i < r->n; i++) {
        const struct compare_skill_trace *t = &c->skill_trace[i];
        fputs("<tr><td class=\"label\">", f);
        skill_esc(f, r->v[i].label);
        fputs("</td>", f);
        for (int k = 0; k + 1 < levels; k++) {
            if (!t->ok) {
                fputs("<td>failed</td>", f);
                continue;
            }
            const struct skill_step *st = &t->step[k];
            fprintf(f, "<td>%.1f%% [%.1f, %.1f]</td>",
                    st->games > 0 ? 100 * st->score / st->games : 0, 100 * st->lo,
                    100 * st->hi);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}
