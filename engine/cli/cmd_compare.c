/* cmd_compare.c - `tiers compare V1 V2 ...`: the same playouts for each
 * variant (played now or found in the database), then a side-by-side
 * table of the metrics of docs/metrics.md, as text or JSON, and with
 * --report an HTML file with charts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare_diffs.h"
#include "compare_skill.h"
#include "compare_until.h"
#include "jsonw.h"
#include "playout.h"
#include "ruleset.h"

static void compare_json_rate(jsonw *w, const char *key, const struct stats_rate *r)
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

/* A figure that may not exist (-1): null then. */
static void compare_json_maybe(jsonw *w, const char *key, double x, int digits)
{
    jsonw_key(w, key);
    if (x < 0)
        jsonw_null(w);
    else
        jsonw_double(w, x, digits);
}

/* The run's options "K=V K=V" as the fields of an object. */
static void compare_json_options(jsonw *w, const char *options)
{
    char buf[sizeof ((struct db_run *)0)->options];
    const char *rules[RULESET_MAX_RULES + 1];
    snprintf(buf, sizeof buf, "%s", options);
    int n = gamerec_options_split(buf, rules, RULESET_MAX_RULES);
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(rules[i], '=');
        if (!eq)
            continue;
        char key[128];
        size_t len = (size_t)(eq - rules[i]) < sizeof key ? (size_t)(eq - rules[i])
                                                          : sizeof key - 1;
        memcpy(key, rules[i], len);
        key[len] = '\0';
        jsonw_key(w, key);
        jsonw_string(w, eq + 1);
    }
}

static void compare_json(const struct cli *c, const struct playout_variant *v, int n)
{
    jsonw w;
    jsonw_init(&w, stdout);
    jsonw_begin_object(&w);
    jsonw_key(&w, "games");
    jsonw_int(&w, c->until ? compare_until_cap(c) : c->games);
    jsonw_key(&w, "seed");
    jsonw_int(&w, (long long)c->seed);
    jsonw_key(&w, "max_plies");
    jsonw_int(&w, c->max_plies);
    jsonw_key(&w, "db");
    jsonw_string(&w, c->db);
    jsonw_key(&w, "variants");
    jsonw_begin_array(&w);
    for (int i = 0; i < n; i++) {
        const struct stats *s = &v[i].stats;
        const struct db_run *r = &v[i].run;
        jsonw_begin_object(&w);
        jsonw_key(&w, "label");
        jsonw_string(&w, v[i].label);
        jsonw_key(&w, "spec");
        jsonw_string(&w, v[i].spec);
        jsonw_key(&w, "variant");
        jsonw_string(&w, r->variant);
        jsonw_key(&w, "hash");
        jsonw_string(&w, r->hash);
        jsonw_key(&w, "options");
        jsonw_begin_object(&w);
        compare_json_options(&w, r->options);
        jsonw_end_object(&w);
        jsonw_key(&w, "run");
        jsonw_string(&w, r->key);
        jsonw_key(&w, "status");
        jsonw_string(&w, v[i].have_stats ? "ok" : "failed");
        if (!v[i].have_stats) {
            jsonw_key(&w, "error");
            jsonw_string(&w, v[i].failure);
            jsonw_end_object(&w);
            continue;
        }
        jsonw_key(&w, "sides");
        jsonw_begin_array(&w);
        jsonw_string(&w, r->side[0]);
        jsonw_string(&w, r->side[1]);
        jsonw_end_array(&w);
        jsonw_key(&w, "agents");
        jsonw_begin_array(&w);
        jsonw_string(&w, r->agent[0]);
        jsonw_string(&w, r->agent[1]);
        jsonw_end_array(&w);
        jsonw_key(&w, "games");
        jsonw_int(&w, s->games);
        jsonw_key(&w, "played_now");
        jsonw_int(&w, v[i].result.played);
        jsonw_key(&w, "wins");
        jsonw_begin_array(&w);
        jsonw_int(&w, s->wins[0]);
        jsonw_int(&w, s->wins[1]);
        jsonw_end_array(&w);
        jsonw_key(&w, "draws");
        jsonw_int(&w, s->draws);
        jsonw_key(&w, "cut");
        jsonw_int(&w, s->cut);
        jsonw_key(&w, "replayed");
        jsonw_int(&w, s->replayed);
        compare_json_rate(&w, "win_rate_0", &s->win[0]);
        compare_json_rate(&w, "win_rate_1", &s->win[1]);
        jsonw_key(&w, "first_mover");
        if (s->first_side < 0)
            jsonw_null(&w);
        else
            jsonw_string(&w, r->side[s->first_side]);
        compare_json_rate(&w, "first_mover_win_rate", &s->first);
        compare_json_rate(&w, "draw_rate", &s->draw);
        compare_json_rate(&w, "decisiveness", &s->decisive_rate);
        compare_json_rate(&w, "cut_rate", &s->cut_rate);
        jsonw_key(&w, "length_mean");
        jsonw_double(&w, s->length_mean, 3);
        jsonw_key(&w, "length_median");
        jsonw_double(&w, s->length_median, 1);
        jsonw_key(&w, "length_min");
        jsonw_int(&w, s->length_min);
        jsonw_key(&w, "length_max");
        jsonw_int(&w, s->length_max);
        jsonw_key(&w, "length_sd");
        jsonw_double(&w, s->length_sd, 3);
        compare_json_maybe(&w, "decisive_length_mean", s->decisive_length_mean, 3);
        compare_json_maybe(&w, "decisive_length_median", s->decisive_length_median, 1);
        compare_json_maybe(&w, "balance", s->balance, 4);
        compare_json_rate(&w, "first_mover_win_rate_decisive", &s->first_decisive);
        compare_json_rate(&w, "decision_moves", &s->decision);
        for (int k = 0; k < STATS_FIGS; k++)
            compare_json_maybe(&w, stats_fig_names[k], s->fig[k], 4);
        compare_json_rate(&w, "ended_by_hook", &s->hook_ended);
        jsonw_key(&w, "openings");
        jsonw_begin_array(&w);
        for (int k = 0; k < STATS_OPENING_KS; k++) {
            jsonw_begin_object(&w);
            jsonw_key(&w, "k");
            jsonw_int(&w, s->openings[k].k);
            jsonw_key(&w, "games");
            jsonw_int(&w, s->openings[k].games);
            jsonw_key(&w, "distinct");
            jsonw_int(&w, s->openings[k].distinct);
            jsonw_key(&w, "entropy");
            jsonw_double(&w, s->openings[k].entropy, 4);
            jsonw_end_object(&w);
        }
        jsonw_end_array(&w);
        jsonw_key(&w, "endings");
        jsonw_begin_array(&w);
        for (int e = 0; e < s->nendings; e++) {
            jsonw_begin_object(&w);
            jsonw_key(&w, "reason");
            jsonw_string(&w, s->endings[e].reason);
            jsonw_key(&w, "phase");
            jsonw_string(&w, s->endings[e].setup ? "setup" : "play");
            compare_json_rate(&w, "games", &s->endings[e].rate);
            jsonw_end_object(&w);
        }
        jsonw_end_array(&w);
        jsonw_key(&w, "setup_plies_mean");
        jsonw_double(&w, s->setup_mean, 3);
        jsonw_key(&w, "branching");
        jsonw_double(&w, s->branching, 3);
        jsonw_key(&w, "captures_per_game");
        jsonw_double(&w, s->captures, 4);
        jsonw_key(&w, "drops_per_game");
        jsonw_double(&w, s->drops, 4);
        jsonw_key(&w, "stacks_per_game");
        jsonw_double(&w, s->stacks, 4);
        jsonw_key(&w, "seconds_per_game");
        jsonw_double(&w, s->seconds_mean, 6);
        jsonw_key(&w, "effects");
        jsonw_begin_array(&w);
        for (int e = 0; e < r->neffects; e++) {
            jsonw_begin_object(&w);
            jsonw_key(&w, "name");
            jsonw_string(&w, r->effect[e]);
            jsonw_key(&w, "per_game");
            jsonw_double(&w, s->effect_rate[e], 4);
            jsonw_key(&w, "kinds");
            jsonw_bool(&w, s->effect_kinds);
            compare_json_maybe(&w, "prevented_per_game", s->prevented_rate[e], 4);
            compare_json_maybe(&w, "ended_per_game", s->ended_rate[e], 4);
            compare_json_rate(&w, "games_with", &s->effect_games[e]);
            jsonw_end_object(&w);
        }
        jsonw_end_array(&w);
        jsonw_key(&w, "faces");
        if (s->nfaces < 0)
            jsonw_null(&w);
        else {
            jsonw_begin_array(&w);
            for (int f = 0; f < s->nfaces; f++) {
                const struct db_face *x = &s->face[f];
                const uint64_t count[] = {x->moves, x->captures, x->captured, x->drops,
                                          x->mates};
                static const char *const key[] = {"moves", "captures", "captured", "drops",
                                                  "mates"};
                jsonw_begin_object(&w);
                jsonw_key(&w, "name");
                jsonw_string(&w, x->name);
                for (int k = 0; k < 5; k++) {
                    jsonw_key(&w, key[k]);
                    jsonw_int(&w, (int64_t)count[k]);
                }
                jsonw_end_object(&w);
            }
            jsonw_end_array(&w);
        }
        jsonw_end_object(&w);
    }
    jsonw_end_array(&w);
    compare_skill_json(&w, c, v, n); /* issue 23: the skill trace */
    compare_until_json(&w, c, v, n);
    struct diffs tests; /* issue 23: every p-value of the family */
    if (diffs_build(v, n, &tests) == 0)
        compare_diffs_json(&w, &tests, v);
    diffs_free(&tests);
    jsonw_end_object(&w);
    fputc('\n', stdout);
}

static int compare_text(const struct cli *c, const struct playout_variant *v, int n)
{
    struct report_row *rows = NULL;
    int nrows = report_rows(v, n, &rows);
    if (nrows < 0) {
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    int lw = 0;
    int *cw = calloc((size_t)n, sizeof *cw);
    struct diffs tests; /* issue 23: differences that hold, `*` in the table */
    if (diffs_build(v, n, &tests) != 0 || diffs_mark(rows, nrows, &tests) != 0) {
        free(cw);
        cw = NULL;
    }
    if (!cw) {
        diffs_free(&tests);
        report_rows_free(rows, nrows, n);
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    for (int i = 0; i < n; i++)
        cw[i] = (int)strlen(v[i].label);
    for (int row = 0; row < nrows; row++) {
        if ((int)strlen(rows[row].label) > lw)
            lw = (int)strlen(rows[row].label);
        for (int i = 0; i < n; i++)
            if ((int)strlen(rows[row].cells[i]) > cw[i])
                cw[i] = (int)strlen(rows[row].cells[i]);
    }
    printf("%-*s", lw, "");
    for (int i = 0; i < n; i++)
        printf("  %-*s", i == n - 1 ? 0 : cw[i], v[i].label);
    printf("\n");
    for (int row = 0; row < nrows; row++) {
        printf("%-*s", lw, rows[row].label);
        for (int i = 0; i < n; i++)
            printf("  %-*s", i == n - 1 ? 0 : cw[i], rows[row].cells[i]);
        printf("\n");
    }
    diffs_text(stdout, &tests, v);
    diffs_free(&tests);
    printf("\n");
    for (int i = 0; i < n; i++)
        printf("%s: %s, content hash %s, options %s, run %s\n", v[i].label,
               v[i].run.variant[0] ? v[i].run.variant : "-",
               v[i].run.hash[0] ? v[i].run.hash : "-",
               v[i].run.options[0] ? v[i].run.options : "(defaults)",
               v[i].run.key[0] ? v[i].run.key : "-");
    printf("agents: %s %s, %s %s\n", v[0].run.side[0], v[0].run.agent[0], v[0].run.side[1],
           v[0].run.agent[1]);
    if (c->until)
        printf("games per variant as --until decided (the games row), ");
    else
        printf("%ld games per variant, ", c->games);
    printf("seed %llu, cut after %d plies, database %s; "
           "rates with 95%% Wilson intervals; *: differs from the first column\n",
           (unsigned long long)c->seed, c->max_plies, c->db);
    compare_until_print(c, v, n);
    compare_skill_print(c, v, n);
    free(cw);
    report_rows_free(rows, nrows, n);
    return CLI_OK;
}

int cmd_compare_run(struct cli *c)
{
    playout_defaults(c);
    if ((c->given & CLI_O_ROUND) && !c->until) /* issue 23 */
        return cli_usage_error(c, "--round applies with --until only");
    if (compare_skill_check(c) != CLI_OK) /* issue 23: --skill, --levels */
        return CLI_USAGE;
    /* the report file, every variant, its rules and the agents are checked
       before the database is opened or any game is played */
    int code = cli_check_report(c);
    for (int i = 0; i < c->nargs && code == CLI_OK; i++)
        code = cli_playout_check(c, c->args[i]);
    if (code != CLI_OK)
        return code;
    db *d = playout_open_db(c, &code);
    if (!d)
        return code;
    int n = c->nargs;
    struct playout_variant *v = calloc((size_t)n, sizeof *v);
    c->skill_trace = c->skill ? calloc((size_t)n, sizeof *c->skill_trace) : NULL;
    if (!v || (c->skill && !c->skill_trace)) {
        free(v);
        free(c->skill_trace);
        db_close(d);
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    /* a ruleset whose games fail does not stop the others: its column
       says why, and the exit code tells (the worst one) */
    int worst = CLI_OK, refused = 0;
    for (int i = 0; i < n && !refused; i++) {
        code = c->until   ? compare_until_variant(c, d, c->args[i], &v[i]) /* issue 23 */
               : c->skill ? compare_skill_variant(c, d, c->args[i], &v[i], &c->skill_trace[i])
                          : playout_variant(c, d, c->args[i], 1, &v[i]);
        refused = code == CLI_INPUT;
        if (code != CLI_OK && !v[i].failure[0])
            snprintf(v[i].failure, sizeof v[i].failure, "see the error above");
        if (code > worst)
            worst = code;
    }
    /* a refused database row (bad input, exit 2) is the whole database's
       fault, not one ruleset's: nothing is written then */
    code = refused ? CLI_INPUT : CLI_OK;
    if (code == CLI_OK && c->json)
        compare_json(c, v, n);
    else if (code == CLI_OK)
        code = compare_text(c, v, n);
    if (code == CLI_OK && c->report) {
        char err[1024];
        struct skill_report skill = {c, v, n}; /* issue 23 */
        struct report_meta meta = {c->until ? 0 : c->games, c->seed, c->max_plies, c->db,
                                   c->skill ? compare_skill_report : NULL, &skill};
        if (report_write(c->report, &meta, v, n, err, sizeof err) != 0) {
            cli_error(c, "%s", err);
            code = CLI_INTERNAL;
        } else if (!c->json) {
            printf("report: %s\n", c->report);
        }
    }
    if (worst != CLI_OK && code == CLI_OK)
        code = worst; /* some figures are missing */
    for (int i = 0; i < n; i++)
        if (v[i].have_stats)
            stats_free(&v[i].stats);
    free(v);
    free(c->skill_trace);
    db_close(d);
    return code;
}
