/* cmd_ladder.c - `tiers ladder VARIANT A1 A2 ...`: every pair of agents
 * (with --adjacent, each agent and the next) plays N games (N/2 with
 * each colour) into the playout database, then
 * the Bradley-Terry fit puts them on the Elo scale with A1 at 0
 * (engine/lab/ladder.c; docs/metrics.md "The strength ladder").  Each
 * half is an ordinary run: resumable, shardable, merged like playouts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ladder.h"
#include "playout.h"

/* Plays (or finds) the games of agent a as side 0 against agent b and
 * adds them to the table; an exit code. */
static int ladder_half(const struct cli *c, db *d, int a, int b, double *score, double *games)
{
    struct cli half = *c;
    int n = c->nargs - 1;
    half.side0 = c->args[1 + a];
    half.side1 = c->args[1 + b];
    half.white = half.black = NULL;
    half.games = c->games / 2;
    struct playout_variant pv;
    int code = playout_variant(&half, d, c->args[0], 1, &pv);
    if (code == CLI_OK) {
        const struct stats *s = &pv.stats;
        double even = 0.5 * (double)(s->games - s->wins[0] - s->wins[1]);
        score[a * n + b] += (double)s->wins[0] + even;
        score[b * n + a] += (double)s->wins[1] + even;
        games[a * n + b] += (double)s->games;
        games[b * n + a] += (double)s->games;
    }
    if (pv.have_stats)
        stats_free(&pv.stats);
    return code;
}

static void ladder_print(const struct cli *c, const double *score, const double *games,
                         const struct ladder_fit *fit)
{
    int n = c->nargs - 1;
    if (c->json) {
        jsonw w;
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "variant");
        jsonw_string(&w, c->args[0]);
        jsonw_key(&w, "games_per_pair");
        jsonw_int(&w, c->games);
        jsonw_key(&w, "players");
        jsonw_begin_array(&w);
        for (int i = 0; i < n; i++) {
            jsonw_begin_object(&w);
            jsonw_key(&w, "agent");
            jsonw_string(&w, c->args[1 + i]);
            jsonw_key(&w, "elo");
            jsonw_double(&w, fit->elo[i], 1);
            jsonw_key(&w, "low");
            jsonw_double(&w, fit->elo[i] - 1.96 * fit->sd[i], 1);
            jsonw_key(&w, "high");
            jsonw_double(&w, fit->elo[i] + 1.96 * fit->sd[i], 1);
            jsonw_end_object(&w);
        }
        jsonw_end_array(&w);
        jsonw_key(&w, "pairs");
        jsonw_begin_array(&w);
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                double lo, hi, g = games[i * n + j];
                if (g <= 0) /* not a pair of --adjacent */
                    continue;
                ladder_wilson(score[i * n + j], g, &lo, &hi);
                jsonw_begin_object(&w);
                jsonw_key(&w, "a");
                jsonw_string(&w, c->args[1 + i]);
                jsonw_key(&w, "b");
                jsonw_string(&w, c->args[1 + j]);
                jsonw_key(&w, "games");
                jsonw_int(&w, (int64_t)g);
                jsonw_key(&w, "score_a");
                jsonw_double(&w, score[i * n + j], 1);
                jsonw_key(&w, "rate_a");
                jsonw_double(&w, g > 0 ? score[i * n + j] / g : 0, 4);
                jsonw_key(&w, "low");
                jsonw_double(&w, lo, 4);
                jsonw_key(&w, "high");
                jsonw_double(&w, hi, 4);
                jsonw_end_object(&w);
            }
        jsonw_end_array(&w);
        jsonw_end_object(&w);
        fputc('\n', stdout);
        return;
    }
    printf("%-32s %8s %20s\n", "agent", "Elo", "95% interval");
    for (int i = 0; i < n; i++)
        printf("%-32s %8.1f   [%7.1f, %7.1f]\n", c->args[1 + i], fit->elo[i],
               fit->elo[i] - 1.96 * fit->sd[i], fit->elo[i] + 1.96 * fit->sd[i]);
    printf("\n%-24s %-24s %7s %8s %18s\n", "a", "b", "games", "a's score", "95% interval");
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double lo, hi, g = games[i * n + j];
            if (g <= 0)
                continue;
            ladder_wilson(score[i * n + j], g, &lo, &hi);
            printf("%-24s %-24s %7.0f %7.1f%% [%5.1f%%, %5.1f%%]\n", c->args[1 + i],
                   c->args[1 + j], g, g > 0 ? 100 * score[i * n + j] / g : 0, 100 * lo,
                   100 * hi);
        }
    printf("\n%ld games per pair, half with each colour; a draw or a cut game is half a "
           "point each; Bradley-Terry by maximum likelihood, %s at 0\n", c->games, c->args[1]);
}

static int ladder_write_report(const struct cli *c, const double *score, const double *games,
                               const struct ladder_fit *fit)
{
    int n = c->nargs - 1;
    FILE *f = fopen(c->report, "w");
    int bad = !f || ladder_report(f, c->args[0], (const char *const *)c->args + 1,
                                  &(struct ladder_table){score, games, n}, fit, c->games) < 0;
    if (f && fclose(f) != 0)
        bad = 1;
    if (bad) {
        cli_error(c, "cannot write the report '%s': %s", c->report, strerror(errno));
        return CLI_INTERNAL;
    }
    return CLI_OK;
}

int cmd_ladder_run(struct cli *c)
{
    playout_defaults(c);
    int n = c->nargs - 1;
    if (n > LADDER_MAX_PLAYERS)
        return cli_usage_error(c, "at most %d agents", LADDER_MAX_PLAYERS);
    if (c->games % 2)
        return cli_usage_error(c, "--games %ld: give an even number (half with each colour)",
                               c->games);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(c->args[1 + i], c->args[1 + j]))
                return cli_usage_error(c, "agent '%s' given twice", c->args[1 + i]);
    int code = cli_check_report(c);
    if (code != CLI_OK)
        return code;
    db *d = playout_open_db(c, &code);
    if (!d)
        return code;
    double *score = calloc((size_t)n * (size_t)n, sizeof *score);
    double *games = calloc((size_t)n * (size_t)n, sizeof *games);
    if (!score || !games) {
        cli_error(c, "out of memory");
        code = CLI_INTERNAL;
    }
    for (int i = 0; i < n && code == CLI_OK; i++)
        for (int j = i + 1; j < (c->adjacent ? i + 2 : n) && j < n && code == CLI_OK; j++) {
            code = ladder_half(c, d, i, j, score, games);
            if (code == CLI_OK)
                code = ladder_half(c, d, j, i, score, games);
        }
    struct ladder_fit fit;
    char err[256];
    if (code == CLI_OK && ladder_fit(&(struct ladder_table){score, games, n}, &fit, err,
                                     sizeof err) < 0) {
        cli_error(c, "%s", err);
        code = CLI_INPUT;
    }
    if (code == CLI_OK)
        ladder_print(c, score, games, &fit);
    if (code == CLI_OK && c->report)
        code = ladder_write_report(c, score, games, &fit);
    free(score);
    free(games);
    db_close(d);
    return code;
}
