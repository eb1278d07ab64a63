/* cmd_compare.c - `tiers compare V1 V2 ...`: the same playouts for each
 * variant (played now or found in the database), then a side-by-side
 * table of the metrics of docs/metrics.md, as text or JSON, and with
 * --report an HTML file with charts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "playout.h"
#include "report.h"

static void compare_json_rate(json_writer *w, const char *key, const struct stats_rate *r)
{
    json_key(w, key);
    json_begin_object(w);
    json_key(w, "count");
    json_int(w, r->k);
    json_key(w, "of");
    json_int(w, r->n);
    json_key(w, "rate");
    json_double(w, r->rate, 4);
    json_key(w, "low");
    json_double(w, r->lo, 4);
    json_key(w, "high");
    json_double(w, r->hi, 4);
    json_end_object(w);
}

static void compare_json(const struct cli *c, const struct playout_variant *v, int n)
{
    json_writer w;
    json_init(&w, stdout);
    json_begin_object(&w);
    json_key(&w, "games");
    json_int(&w, c->games);
    json_key(&w, "seed");
    json_int(&w, (long long)c->seed);
    json_key(&w, "max_plies");
    json_int(&w, c->max_plies);
    json_key(&w, "db");
    json_string(&w, c->db);
    json_key(&w, "variants");
    json_begin_array(&w);
    for (int i = 0; i < n; i++) {
        const struct stats *s = &v[i].stats;
        const struct db_run *r = &v[i].run;
        json_begin_object(&w);
        json_key(&w, "variant");
        json_string(&w, r->variant);
        json_key(&w, "hash");
        json_string(&w, r->hash);
        json_key(&w, "run");
        json_string(&w, r->key);
        json_key(&w, "sides");
        json_begin_array(&w);
        json_string(&w, r->side[0]);
        json_string(&w, r->side[1]);
        json_end_array(&w);
        json_key(&w, "agents");
        json_begin_array(&w);
        json_string(&w, r->agent[0]);
        json_string(&w, r->agent[1]);
        json_end_array(&w);
        json_key(&w, "games");
        json_int(&w, s->games);
        json_key(&w, "played_now");
        json_int(&w, v[i].result.played);
        json_key(&w, "wins");
        json_begin_array(&w);
        json_int(&w, s->wins[0]);
        json_int(&w, s->wins[1]);
        json_end_array(&w);
        json_key(&w, "draws");
        json_int(&w, s->draws);
        json_key(&w, "cut");
        json_int(&w, s->cut);
        json_key(&w, "replayed");
        json_int(&w, s->replayed);
        compare_json_rate(&w, "win_rate_0", &s->win[0]);
        compare_json_rate(&w, "win_rate_1", &s->win[1]);
        json_key(&w, "first_mover");
        if (s->first_side < 0)
            json_null(&w);
        else
            json_string(&w, r->side[s->first_side]);
        compare_json_rate(&w, "first_mover_win_rate", &s->first);
        compare_json_rate(&w, "draw_rate", &s->draw);
        compare_json_rate(&w, "decisiveness", &s->decisive_rate);
        compare_json_rate(&w, "cut_rate", &s->cut_rate);
        json_key(&w, "length_mean");
        json_double(&w, s->length_mean, 3);
        json_key(&w, "length_median");
        json_double(&w, s->length_median, 1);
        json_key(&w, "length_min");
        json_int(&w, s->length_min);
        json_key(&w, "length_max");
        json_int(&w, s->length_max);
        json_key(&w, "setup_plies_mean");
        json_double(&w, s->setup_mean, 3);
        json_key(&w, "branching");
        json_double(&w, s->branching, 3);
        json_key(&w, "captures_per_game");
        json_double(&w, s->captures, 4);
        json_key(&w, "drops_per_game");
        json_double(&w, s->drops, 4);
        json_key(&w, "stacks_per_game");
        json_double(&w, s->stacks, 4);
        json_key(&w, "seconds_per_game");
        json_double(&w, s->seconds_mean, 6);
        json_key(&w, "effects");
        json_begin_array(&w);
        for (int e = 0; e < r->neffects; e++) {
            json_begin_object(&w);
            json_key(&w, "name");
            json_string(&w, r->effect[e]);
            json_key(&w, "per_game");
            json_double(&w, s->effect_rate[e], 4);
            compare_json_rate(&w, "games_with", &s->effect_games[e]);
            json_end_object(&w);
        }
        json_end_array(&w);
        json_end_object(&w);
    }
    json_end_array(&w);
    json_end_object(&w);
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
    if (!cw) {
        report_rows_free(rows, nrows, n);
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    for (int i = 0; i < n; i++)
        cw[i] = (int)strlen(v[i].run.variant);
    for (int row = 0; row < nrows; row++) {
        if ((int)strlen(rows[row].label) > lw)
            lw = (int)strlen(rows[row].label);
        for (int i = 0; i < n; i++)
            if ((int)strlen(rows[row].cells[i]) > cw[i])
                cw[i] = (int)strlen(rows[row].cells[i]);
    }
    printf("%-*s", lw, "");
    for (int i = 0; i < n; i++)
        printf("  %-*s", i == n - 1 ? 0 : cw[i], v[i].run.variant);
    printf("\n");
    for (int row = 0; row < nrows; row++) {
        printf("%-*s", lw, rows[row].label);
        for (int i = 0; i < n; i++)
            printf("  %-*s", i == n - 1 ? 0 : cw[i], rows[row].cells[i]);
        printf("\n");
    }
    printf("\nagents: %s %s, %s %s\n", v[0].run.side[0], v[0].run.agent[0], v[0].run.side[1],
           v[0].run.agent[1]);
    printf("%ld games per variant, seed %llu, cut after %d plies, database %s; "
           "rates with 95%% Wilson intervals\n",
           c->games, (unsigned long long)c->seed, c->max_plies, c->db);
    free(cw);
    report_rows_free(rows, nrows, n);
    return CLI_OK;
}

/* Whether the --report file can be written, found out before any game is
 * played: it is opened for appending (what it holds stays), and removed
 * again when it did not exist. */
static int compare_check_report(const struct cli *c)
{
    if (!c->report)
        return CLI_OK;
    struct stat sb;
    int existed = stat(c->report, &sb) == 0;
    FILE *f = fopen(c->report, "a");
    if (!f) {
        cli_error(c, "cannot write the report '%s': %s", c->report, strerror(errno));
        return CLI_INTERNAL;
    }
    fclose(f);
    if (!existed)
        unlink(c->report);
    return CLI_OK;
}

int cmd_compare_run(struct cli *c)
{
    playout_defaults(c);
    /* the report file, every variant, its rules and the agents are checked
       before the database is opened or any game is played */
    int code = compare_check_report(c);
    for (int i = 0; i < c->nargs && code == CLI_OK; i++)
        code = cli_playout_check(c, c->args[i]);
    if (code != CLI_OK)
        return code;
    db *d = playout_open_db(c, &code);
    if (!d)
        return code;
    int n = c->nargs;
    struct playout_variant *v = calloc((size_t)n, sizeof *v);
    if (!v) {
        db_close(d);
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    int done = 0;
    for (; done < n && code == CLI_OK; done++)
        code = playout_variant(c, d, c->args[done], 1, &v[done]);
    if (code == CLI_OK) {
        if (c->json)
            compare_json(c, v, n);
        else
            code = compare_text(c, v, n);
    }
    if (code == CLI_OK && c->report) {
        char err[1024];
        if (report_write(c->report, c, v, n, err, sizeof err) != 0) {
            cli_error(c, "%s", err);
            code = CLI_INTERNAL;
        } else if (!c->json) {
            printf("report: %s\n", c->report);
        }
    }
    for (int i = 0; i < done; i++)
        if (v[i].have_stats)
            stats_free(&v[i].stats);
    free(v);
    db_close(d);
    return code;
}
