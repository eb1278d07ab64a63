/* cmd_bench.c - `tiers bench VARIANT|all`: perft to about a second from
 * the start, then random playouts for --seconds, as a table or JSON.
 * Each figure is the best of CMD_BENCH_ROUNDS rounds taken in turn over
 * the variants given, so that a moment of load on a shared machine lowers
 * one round, not the comparison between variants. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonw.h"

enum {
    CMD_BENCH_MAX_DEPTH = 16,
    CMD_BENCH_MAX_PLIES = 400,
    CMD_BENCH_ROUNDS = 3
};

static const uint64_t cmd_bench_seed = 0x9e3779b97f4a7c15ull;

struct cmd_bench_row {
    const char *name; /* shown */
    const char *spec; /* loaded */
    tiers_variant *v;
    tiers_pos *p;
    int ok;
    int depth;
    int64_t leaves;
    double perft_secs;
    long long games, plies;
    double play_secs;
};

/* Names and folders of the variants to run, two strings per variant. */
struct cmd_bench_names {
    char **names; /* name, folder, name, folder, ... */
    int n, cap, failed;
};

static int cmd_bench_push(struct cmd_bench_names *l, const char *s)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        char **names = realloc(l->names, (size_t)cap * sizeof *names);
        if (!names)
            return -1;
        l->names = names;
        l->cap = cap;
    }
    if (!(l->names[l->n] = strdup(s)))
        return -1;
    l->n++;
    return 0;
}

static void cmd_bench_collect(const char *name, const char *dir,
                              const char *desc, void *ud)
{
    struct cmd_bench_names *l = ud;
    (void)desc;
    if (l->failed)
        return;
    if (cmd_bench_push(l, name) != 0 ||
        cmd_bench_push(l, dir && dir[0] ? dir : name) != 0)
        l->failed = 1;
}

/* Deepens perft until one depth takes about a second (or the next one
 * would clearly take too long).  Returns 0 or a negative library code. */
static int cmd_bench_perft(tiers_pos *p, struct cmd_bench_row *row)
{
    double prev = 0;
    for (int d = 1; d <= CMD_BENCH_MAX_DEPTH; d++) {
        double t0 = cli_now();
        int64_t leaves = tiers_pos_perft(p, d);
        double t = cli_now() - t0;
        if (leaves < 0)
            return (int)leaves;
        if (leaves == 0 && d > 1)
            break; /* the tree ended: keep the last depth that counted */
        row->depth = d;
        row->leaves = leaves;
        row->perft_secs = t;
        if (leaves == 0 || t >= 0.5)
            break;
        /* Estimate the next depth from the growth of the last one. */
        double growth = prev > 0.002 ? t / prev : 0;
        if (growth > 0 && t * growth > 3.0)
            break;
        prev = t;
    }
    return TIERS_OK;
}

/* One round of playouts for `seconds`; the row keeps the best round. */
static int cmd_bench_playouts(tiers_pos *p, double seconds,
                              struct cmd_bench_row *row)
{
    uint64_t rng = cmd_bench_seed;
    tiers_pos_seed(p, cmd_bench_seed);
    long long games = 0, plies = 0;
    double t0 = cli_now(), t;
    do {
        int n = tiers_pos_random_playout(p, &rng, CMD_BENCH_MAX_PLIES);
        if (n < 0)
            return n;
        games++;
        plies += n;
        t = cli_now() - t0;
    } while (t < seconds);
    if (!row->play_secs || plies / t > row->plies / row->play_secs) {
        row->games = games;
        row->plies = plies;
        row->play_secs = t;
    }
    return TIERS_OK;
}

/* Perft again at the depth the first round chose; keeps the best time. */
static int cmd_bench_perft_again(tiers_pos *p, struct cmd_bench_row *row)
{
    double t0 = cli_now();
    int64_t leaves = tiers_pos_perft(p, row->depth);
    double t = cli_now() - t0;
    if (leaves < 0)
        return (int)leaves;
    if (t < row->perft_secs)
        row->perft_secs = t;
    return TIERS_OK;
}

/* Loads a row's variant and start; returns an exit code (messages printed). */
static int cmd_bench_open(const struct cli *c, struct cmd_bench_row *row)
{
    int code = cli_open(c, row->spec, 0, &row->v, &row->p);
    row->ok = row->p != NULL;
    return code;
}

/* Round `round` of a row; returns an exit code (messages printed). */
static int cmd_bench_round(const struct cli *c, struct cmd_bench_row *row, int round)
{
    if (!row->ok)
        return CLI_OK;
    int rc = round == 0 ? cmd_bench_perft(row->p, row) : cmd_bench_perft_again(row->p, row);
    if (rc == TIERS_OK)
        rc = cmd_bench_playouts(row->p, c->seconds, row);
    if (rc == TIERS_OK)
        return CLI_OK;
    cli_error(c, "%s: %s", row->name, cli_rc_text(row->v, rc));
    row->ok = 0;
    return cli_exit_for(rc);
}

static void cmd_bench_close(struct cmd_bench_row *row)
{
    tiers_pos_free(row->p);
    tiers_variant_free(row->v);
}

static double cmd_bench_rate(double n, double secs)
{
    return secs > 0 ? n / secs : 0;
}

static void cmd_bench_print(const struct cli *c, struct cmd_bench_row *rows,
                            int n)
{
    if (c->json) {
        jsonw w;
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "seconds");
        jsonw_double(&w, c->seconds, 3);
        char seed[24];
        snprintf(seed, sizeof seed, "0x%016llx",
                 (unsigned long long)cmd_bench_seed);
        jsonw_key(&w, "seed");
        jsonw_string(&w, seed);
        jsonw_key(&w, "max_plies");
        jsonw_int(&w, CMD_BENCH_MAX_PLIES);
        jsonw_key(&w, "rounds");
        jsonw_int(&w, CMD_BENCH_ROUNDS);
        jsonw_key(&w, "results");
        jsonw_begin_array(&w);
        for (int i = 0; i < n; i++) {
            struct cmd_bench_row *r = &rows[i];
            jsonw_begin_object(&w);
            jsonw_key(&w, "variant");
            jsonw_string(&w, r->name);
            jsonw_key(&w, "ok");
            jsonw_bool(&w, r->ok);
            if (r->ok) {
                jsonw_key(&w, "perft_depth");
                jsonw_int(&w, r->depth);
                jsonw_key(&w, "leaves");
                jsonw_int(&w, r->leaves);
                jsonw_key(&w, "perft_seconds");
                jsonw_double(&w, r->perft_secs, 6);
                jsonw_key(&w, "leaves_per_second");
                jsonw_double(&w, cmd_bench_rate((double)r->leaves,
                                               r->perft_secs), 0);
                jsonw_key(&w, "games");
                jsonw_int(&w, r->games);
                jsonw_key(&w, "plies");
                jsonw_int(&w, r->plies);
                jsonw_key(&w, "playout_seconds");
                jsonw_double(&w, r->play_secs, 6);
                jsonw_key(&w, "plies_per_second");
                jsonw_double(&w, cmd_bench_rate((double)r->plies,
                                               r->play_secs), 0);
            }
            jsonw_end_object(&w);
        }
        jsonw_end_array(&w);
        jsonw_end_object(&w);
        fputc('\n', stdout);
        return;
    }
    int width = 7;
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(rows[i].name);
        if (len > width)
            width = len;
    }
    printf("%-*s %5s %12s %12s %8s %10s %10s\n", width, "variant", "depth",
           "leaves", "leaves/s", "games", "plies", "plies/s");
    for (int i = 0; i < n; i++) {
        struct cmd_bench_row *r = &rows[i];
        if (!r->ok) {
            printf("%-*s %5s\n", width, r->name, "error");
            continue;
        }
        printf("%-*s %5d %12lld %12.0f %8lld %10lld %10.0f\n", width,
               r->name, r->depth, (long long)r->leaves,
               cmd_bench_rate((double)r->leaves, r->perft_secs), r->games,
               r->plies, cmd_bench_rate((double)r->plies, r->play_secs));
    }
    printf("\nperft counting: legal moves, last ply from the full legal "
           "list, stops at game over\n");
    printf("playouts: seed 0x%016llx, at most %d plies, %g s per variant and round\n",
           (unsigned long long)cmd_bench_seed, CMD_BENCH_MAX_PLIES,
           c->seconds);
    printf("each rate: the best of %d rounds, taken in turn over the variants\n",
           CMD_BENCH_ROUNDS);
}

int cmd_bench_run(struct cli *c)
{
    struct cmd_bench_names l = {NULL, 0, 0, 0};
    int code = CLI_OK;

    if (c->nargs == 1 && strcmp(c->args[0], "all") == 0) {
        int count = tiers_variants_list(c->search, cmd_bench_collect, &l);
        if (l.failed || count < 0) {
            cli_error(c, "cannot list variants: %s",
                      cli_code_text(l.failed ? TIERS_ENOMEM : count));
            cli_free_strings(l.names, l.n);
            return l.failed ? CLI_INTERNAL : cli_exit_for(count);
        }
        if (l.n == 0) {
            cli_error(c, "no variants found for 'all'");
            free(l.names);
            return CLI_INPUT;
        }
    } else {
        for (int i = 0; i < c->nargs; i++)
            if (cmd_bench_push(&l, c->args[i]) != 0 || cmd_bench_push(&l, c->args[i]) != 0) {
                cli_free_strings(l.names, l.n);
                cli_error(c, "out of memory");
                return CLI_INTERNAL;
            }
    }

    int n = l.n / 2;
    struct cmd_bench_row *rows = calloc((size_t)n, sizeof *rows);
    if (!rows) {
        cli_free_strings(l.names, l.n);
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    for (int i = 0; i < n; i++) {
        rows[i].name = l.names[2 * i];
        rows[i].spec = l.names[2 * i + 1];
        int r = cmd_bench_open(c, &rows[i]);
        if (r > code)
            code = r;
    }
    for (int round = 0; round < CMD_BENCH_ROUNDS; round++)
        for (int i = 0; i < n; i++) {
            int r = cmd_bench_round(c, &rows[i], round);
            if (r > code)
                code = r;
        }
    cmd_bench_print(c, rows, n);
    for (int i = 0; i < n; i++)
        cmd_bench_close(&rows[i]);
    free(rows);
    cli_free_strings(l.names, l.n);
    return code;
}
