/* cmd_bench.c - `tiers bench VARIANT|all`: perft to about a second from
 * the start, then random playouts for --seconds, as a table or JSON;
 * `tiers bench VARIANT --batch FILE`: legal moves written as text for
 * every position of FILE; and `tiers bench --agents`: the agents' search
 * speed (alpha-beta nodes, MCTS simulations, greedy plies per CPU
 * second).  Times are CPU seconds of the process (what a
 * shared machine does not inflate), with wall seconds beside them.  Each
 * figure is the best of CMD_BENCH_ROUNDS rounds taken in turn over the
 * variants given, so that a moment of load lowers one round, not the
 * comparison between variants. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "jsonin.h"
#include "jsonw.h"
#include "movelist.h"

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
    double perft_secs, perft_wall;
    long long games, plies;
    double play_secs, play_wall;
};

/* CPU seconds used by the process so far. */
static double cmd_bench_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A span measured both ways. */
struct cmd_bench_span {
    double cpu, wall;
};

static struct cmd_bench_span cmd_bench_start(void)
{
    return (struct cmd_bench_span){cmd_bench_cpu(), cli_now()};
}

static struct cmd_bench_span cmd_bench_since(struct cmd_bench_span t0)
{
    return (struct cmd_bench_span){cmd_bench_cpu() - t0.cpu, cli_now() - t0.wall};
}

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
        struct cmd_bench_span t0 = cmd_bench_start();
        int64_t leaves = tiers_pos_perft(p, d);
        struct cmd_bench_span span = cmd_bench_since(t0);
        double t = span.cpu;
        if (leaves < 0)
            return (int)leaves;
        if (leaves == 0 && d > 1)
            break; /* the tree ended: keep the last depth that counted */
        row->depth = d;
        row->leaves = leaves;
        row->perft_secs = t;
        row->perft_wall = span.wall;
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
    struct cmd_bench_span t0 = cmd_bench_start(), t;
    do {
        int n = tiers_pos_random_playout(p, &rng, CMD_BENCH_MAX_PLIES);
        if (n < 0)
            return n;
        games++;
        plies += n;
        t = cmd_bench_since(t0);
    } while (t.cpu < seconds);
    if (!row->play_secs || plies / t.cpu > row->plies / row->play_secs) {
        row->games = games;
        row->plies = plies;
        row->play_secs = t.cpu;
        row->play_wall = t.wall;
    }
    return TIERS_OK;
}

/* Perft again at the depth the first round chose; keeps the best time. */
static int cmd_bench_perft_again(tiers_pos *p, struct cmd_bench_row *row)
{
    struct cmd_bench_span t0 = cmd_bench_start();
    int64_t leaves = tiers_pos_perft(p, row->depth);
    struct cmd_bench_span t = cmd_bench_since(t0);
    if (leaves < 0)
        return (int)leaves;
    if (t.cpu < row->perft_secs) {
        row->perft_secs = t.cpu;
        row->perft_wall = t.wall;
    }
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
                jsonw_key(&w, "perft_cpu_seconds");
                jsonw_double(&w, r->perft_secs, 6);
                jsonw_key(&w, "perft_seconds");
                jsonw_double(&w, r->perft_wall, 6);
                jsonw_key(&w, "leaves_per_cpu_second");
                jsonw_double(&w, cmd_bench_rate((double)r->leaves, r->perft_secs), 0);
                jsonw_key(&w, "leaves_per_second");
                jsonw_double(&w, cmd_bench_rate((double)r->leaves, r->perft_wall), 0);
                jsonw_key(&w, "games");
                jsonw_int(&w, r->games);
                jsonw_key(&w, "plies");
                jsonw_int(&w, r->plies);
                jsonw_key(&w, "playout_cpu_seconds");
                jsonw_double(&w, r->play_secs, 6);
                jsonw_key(&w, "playout_seconds");
                jsonw_double(&w, r->play_wall, 6);
                jsonw_key(&w, "plies_per_cpu_second");
                jsonw_double(&w, cmd_bench_rate((double)r->plies, r->play_secs), 0);
                jsonw_key(&w, "plies_per_second");
                jsonw_double(&w, cmd_bench_rate((double)r->plies, r->play_wall), 0);
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
    printf("%-*s %5s %12s %12s %12s %8s %10s %10s %10s\n", width, "variant", "depth",
           "leaves", "leaves/cpu-s", "leaves/s", "games", "plies", "plies/cpu-s", "plies/s");
    for (int i = 0; i < n; i++) {
        struct cmd_bench_row *r = &rows[i];
        if (!r->ok) {
            printf("%-*s %5s\n", width, r->name, "error");
            continue;
        }
        printf("%-*s %5d %12lld %12.0f %12.0f %8lld %10lld %10.0f %10.0f\n", width, r->name,
               r->depth, (long long)r->leaves, cmd_bench_rate((double)r->leaves, r->perft_secs),
               cmd_bench_rate((double)r->leaves, r->perft_wall), r->games, r->plies,
               cmd_bench_rate((double)r->plies, r->play_secs),
               cmd_bench_rate((double)r->plies, r->play_wall));
    }
    printf("\nperft counting: legal moves, last ply from the full legal "
           "list, stops at game over\n");
    printf("playouts: seed 0x%016llx, at most %d plies, %g CPU s per variant and round\n",
           (unsigned long long)cmd_bench_seed, CMD_BENCH_MAX_PLIES,
           c->seconds);
    printf("each rate: the best of %d rounds by CPU time, taken in turn over the variants; "
           "/cpu-s: per CPU second of the process, /s: per wall second of the same round\n",
           CMD_BENCH_ROUNDS);
}

/* ------------------------------------------------------------ --batch */

/* The positions of a batch file, each parsed once into a position of its
 * own, so that a pass times generation and text alone. */
struct cmd_bench_batch {
    tiers_pos **pos;
    char **text;               /* each position as the file gives it */
    int n;
    long long moves;           /* in one pass */
    struct cmd_bench_span best; /* the fastest pass round, per move */
    long long passes;
};

/* Parses line `lineno` (a position, or a JSON object with "position", as
 * `moves --batch` reads it) into a new position; an exit code. */
static int cmd_bench_batch_line(const struct cli *c, const tiers_variant *v, char *line,
                                long lineno, tiers_pos **out, char **out_text)
{
    char jerr[200], text[1024];
    char *decoded = NULL;
    const char *position = line;
    if (line[0] == '{') {
        if (jsonin_string(line, "position", &decoded, jerr, sizeof jerr) != JSONIN_FOUND) {
            cli_error(c, "%s:%ld: no readable \"position\" field", c->batch, lineno);
            free(decoded);
            return CLI_INPUT;
        }
        position = decoded;
    }
    tiers_error err;
    *out = tiers_pos_new(v, 4, &err);
    int rc = *out ? tiers_pos_parse(*out, position, c->notation, &err) : TIERS_ENOMEM;
    if (rc >= 0) {
        *out_text = decoded ? decoded : strdup(line);
        if (*out_text)
            return CLI_OK;
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    free(decoded);
    tiers_error_text(&err, text, sizeof text);
    cli_error(c, "%s:%ld: bad position: %s", c->batch, lineno,
              text[0] ? text : cli_rc_text(v, rc));
    return cli_exit_for(rc) == CLI_INTERNAL ? CLI_INTERNAL : CLI_INPUT;
}

static void cmd_bench_batch_free(struct cmd_bench_batch *b)
{
    for (int i = 0; i < b->n; i++) {
        tiers_pos_free(b->pos[i]);
        free(b->text[i]);
    }
    free(b->pos);
    free(b->text);
}

/* Reads every non-empty line of --batch; an exit code. */
static int cmd_bench_batch_load(const struct cli *c, const tiers_variant *v,
                                struct cmd_bench_batch *b)
{
    int code;
    char *text = cli_slurp(c, c->batch, &code);
    if (!text)
        return code;
    int cap = 0;
    long lineno = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line && code == CLI_OK;
         line = strtok_r(NULL, "\n", &save)) {
        lineno++; /* blank lines are skipped by strtok_r: numbers count the others */
        line[strcspn(line, "\r")] = '\0';
        if (!line[0])
            continue;
        if (b->n == cap) {
            cap = cap ? 2 * cap : 256;
            tiers_pos **more = realloc(b->pos, (size_t)cap * sizeof *more);
            if (more)
                b->pos = more;
            char **texts = more ? realloc(b->text, (size_t)cap * sizeof *texts) : NULL;
            if (!texts) {
                cli_error(c, "out of memory");
                code = CLI_INTERNAL;
                break;
            }
            b->text = texts;
        }
        b->text[b->n] = NULL;
        code = cmd_bench_batch_line(c, v, line, lineno, &b->pos[b->n], &b->text[b->n]);
        if (b->pos[b->n])
            b->n++;
    }
    free(text);
    if (code == CLI_OK && b->n == 0) {
        cli_error(c, "%s: no positions", c->batch);
        code = CLI_INPUT;
    }
    return code;
}

/* One pass: what `moves --batch` does for every position once it is read
 * (movelist.c: the status and the legal moves, their texts sorted, the
 * JSON line built in memory), without writing the line out.  The moves
 * of the pass, or an error. */
static long long cmd_bench_batch_pass(const struct cli *c, struct cmd_bench_batch *b,
                                      movelist *l)
{
    long long total = 0;
    for (int i = 0; i < b->n; i++) {
        tiers_status st;
        int n = movelist_make(l, b->pos[i], c->notation, &st);
        if (n < 0)
            return n;
        int rc = movelist_json(l, b->text[i], &st); /* the position as given */
        if (rc < 0)
            return rc;
        total += n;
    }
    return total;
}

/* Passes until --seconds of CPU, CMD_BENCH_ROUNDS times; keeps the best
 * round (moves per CPU second).  An exit code. */
static int cmd_bench_batch_time(const struct cli *c, const tiers_variant *v,
                                struct cmd_bench_batch *b)
{
    movelist l;
    int code = CLI_OK;
    if (movelist_init(&l) < 0) {
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    for (int round = 0; round < CMD_BENCH_ROUNDS && code == CLI_OK; round++) {
        long long passes = 0;
        struct cmd_bench_span t0 = cmd_bench_start(), t;
        do {
            long long n = cmd_bench_batch_pass(c, b, &l);
            if (n < 0) {
                cli_error(c, "%s: %s", c->batch, cli_rc_text(v, (int)n));
                code = cli_exit_for((int)n);
                break;
            }
            b->moves = n;
            passes++;
            t = cmd_bench_since(t0);
        } while (t.cpu < c->seconds);
        if (code == CLI_OK && (!b->passes || passes / t.cpu > b->passes / b->best.cpu)) {
            b->passes = passes;
            b->best = t;
        }
    }
    movelist_free(&l);
    return code;
}

static void cmd_bench_batch_print(const struct cli *c, const tiers_variant *v,
                                  const struct cmd_bench_batch *b)
{
    double moves = (double)b->moves * (double)b->passes;
    const char *notation = c->notation ? c->notation : "tiers";
    if (c->json) {
        jsonw w;
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "variant");
        jsonw_string(&w, tiers_variant_name(v));
        jsonw_key(&w, "batch");
        jsonw_string(&w, c->batch);
        jsonw_key(&w, "notation");
        jsonw_string(&w, notation);
        jsonw_key(&w, "positions");
        jsonw_int(&w, b->n);
        jsonw_key(&w, "moves_per_pass");
        jsonw_int(&w, b->moves);
        jsonw_key(&w, "passes");
        jsonw_int(&w, b->passes);
        jsonw_key(&w, "cpu_seconds");
        jsonw_double(&w, b->best.cpu, 6);
        jsonw_key(&w, "seconds");
        jsonw_double(&w, b->best.wall, 6);
        jsonw_key(&w, "moves_per_cpu_second");
        jsonw_double(&w, cmd_bench_rate(moves, b->best.cpu), 0);
        jsonw_key(&w, "moves_per_second");
        jsonw_double(&w, cmd_bench_rate(moves, b->best.wall), 0);
        jsonw_key(&w, "rounds");
        jsonw_int(&w, CMD_BENCH_ROUNDS);
        jsonw_end_object(&w);
        fputc('\n', stdout);
        return;
    }
    printf("%s, %s: %d positions, %lld legal moves a pass (notation %s)\n",
           tiers_variant_name(v), c->batch, b->n, b->moves, notation);
    printf("%lld passes in %.3f CPU s (%.3f s): %.0f moves/cpu-s, %.0f moves/s\n", b->passes,
           b->best.cpu, b->best.wall, cmd_bench_rate(moves, b->best.cpu),
           cmd_bench_rate(moves, b->best.wall));
    printf("a pass: each position's status and legal moves, their texts sorted and its "
           "JSON line of moves --batch written into a buffer; the best of %d rounds by CPU "
           "time\n", CMD_BENCH_ROUNDS);
}

static int cmd_bench_batch_run(struct cli *c)
{
    if (c->nargs != 1 || !strcmp(c->args[0], "all"))
        return cli_usage_error(c, "--batch takes one variant");
    int code;
    tiers_variant *v = cli_load_variant(c, c->args[0], &code);
    if (!v)
        return code;
    struct cmd_bench_batch b = {0};
    code = cli_check_notation(c, v);
    if (code == CLI_OK)
        code = cmd_bench_batch_load(c, v, &b);
    if (code == CLI_OK)
        code = cmd_bench_batch_time(c, v, &b);
    if (code == CLI_OK)
        cmd_bench_batch_print(c, v, &b);
    cmd_bench_batch_free(&b);
    tiers_variant_free(v);
    return code;
}

/* ------------------------------------------------------------ --agents */

/* The agents timed, one ply budget each: what a figure counts is
 * tiers_agent_work (nodes, simulations), or the plies for greedy. */
static const struct {
    const char *label, *spec, *unit;
    int plies; /* plies played from each position, both sides the agent */
} cmd_bench_agents[] = {
    {"alphabeta", "alphabeta:depth=32,nodes=20000", "nodes", 2},
    {"mcts", "mcts:iterations=300", "simulations", 2},
    {"greedy", "greedy", "plies", 20},
};
enum {
    CMD_BENCH_NAGENTS = (int)(sizeof cmd_bench_agents / sizeof cmd_bench_agents[0]),
    CMD_BENCH_AGENT_POSITIONS = 8,
    CMD_BENCH_TEXT = 4096
};

struct cmd_bench_agent_row {
    const char *name, *spec;
    tiers_variant *v;
    tiers_pos *p;                   /* the position searched (full history) */
    char (*texts)[CMD_BENCH_TEXT];  /* the positions, tiers notation */
    int npos, ok;
    double rate[CMD_BENCH_NAGENTS]; /* best round */
    long long work[CMD_BENCH_NAGENTS];
    double cpu[CMD_BENCH_NAGENTS];
};

/* Positions from the start by random play: past any setup, then 10, 15,
 * ... plies more (fixed seeds), each kept if the game goes on. */
static int cmd_bench_agent_positions(struct cmd_bench_agent_row *r)
{
    tiers_error err;
    tiers_agent *rnd = tiers_agent_new("random", &err);
    if (!rnd)
        return TIERS_ENOMEM;
    tiers_move m;
    int rc = 0;
    for (int k = 0; k < CMD_BENCH_AGENT_POSITIONS && rc >= 0; k++) {
        uint64_t rng = cmd_bench_seed + (uint64_t)k;
        rc = tiers_pos_reset(r->p);
        int left = 10 + 5 * k;
        while (rc >= 0 && left > 0) {
            rc = tiers_agent_choose(rnd, r->p, &rng, &m);
            if (rc <= 0)
                break;
            rc = tiers_pos_make_unchecked(r->p, &m, NULL);
            left -= !tiers_pos_in_setup(r->p);
        }
        if (rc > 0 || (rc == 0 && left == 0)) {
            rc = tiers_pos_format(r->p, NULL, r->texts[r->npos], CMD_BENCH_TEXT);
            if (rc >= 0 && rc < CMD_BENCH_TEXT)
                r->npos++;
        }
    }
    tiers_agent_free(rnd);
    return rc < 0 ? rc : 0;
}

/* One round of agent `i` over the row's positions: the work per CPU
 * second of the choices and makes.  0 or a library code. */
static int cmd_bench_agent_round(struct cmd_bench_agent_row *r, int i)
{
    tiers_error err;
    tiers_agent *a = tiers_agent_new(cmd_bench_agents[i].spec, &err);
    if (!a)
        return TIERS_ENOMEM;
    long long work = 0;
    double cpu = 0;
    int rc = 0;
    for (int k = 0; k < r->npos && rc >= 0; k++) {
        rc = tiers_pos_parse(r->p, r->texts[k], NULL, &err);
        uint64_t rng = cmd_bench_seed ^ (uint64_t)(k + 1);
        for (int ply = 0; rc >= 0 && ply < cmd_bench_agents[i].plies; ply++) {
            tiers_move m;
            struct cmd_bench_span t0 = cmd_bench_start();
            rc = tiers_agent_choose(a, r->p, &rng, &m);
            if (rc > 0)
                rc = tiers_pos_make_unchecked(r->p, &m, NULL);
            cpu += cmd_bench_since(t0).cpu;
            if (rc != 0)
                break;
            work += i == CMD_BENCH_NAGENTS - 1 ? 1 : tiers_agent_work(a);
        }
        if (rc > 0 || rc == TIERS_EFULL)
            rc = 0;
    }
    tiers_agent_free(a);
    if (rc < 0)
        return rc;
    double rate = cmd_bench_rate((double)work, cpu);
    if (rate > r->rate[i]) {
        r->rate[i] = rate;
        r->work[i] = work;
        r->cpu[i] = cpu;
    }
    return 0;
}

static void cmd_bench_agents_print(const struct cli *c, struct cmd_bench_agent_row *rows, int n)
{
    if (c->json) {
        jsonw w;
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "rounds");
        jsonw_int(&w, CMD_BENCH_ROUNDS);
        jsonw_key(&w, "results");
        jsonw_begin_array(&w);
        for (int i = 0; i < n; i++) {
            jsonw_begin_object(&w);
            jsonw_key(&w, "variant");
            jsonw_string(&w, rows[i].name);
            jsonw_key(&w, "ok");
            jsonw_bool(&w, rows[i].ok);
            jsonw_key(&w, "positions");
            jsonw_int(&w, rows[i].npos);
            for (int k = 0; rows[i].ok && k < CMD_BENCH_NAGENTS; k++) {
                jsonw_key(&w, cmd_bench_agents[k].label);
                jsonw_begin_object(&w);
                jsonw_key(&w, "agent");
                jsonw_string(&w, cmd_bench_agents[k].spec);
                jsonw_key(&w, cmd_bench_agents[k].unit);
                jsonw_int(&w, rows[i].work[k]);
                jsonw_key(&w, "cpu_seconds");
                jsonw_double(&w, rows[i].cpu[k], 6);
                jsonw_key(&w, "per_cpu_second");
                jsonw_double(&w, rows[i].rate[k], 0);
                jsonw_end_object(&w);
            }
            jsonw_end_object(&w);
        }
        jsonw_end_array(&w);
        jsonw_end_object(&w);
        fputc('\n', stdout);
        return;
    }
    int width = 7;
    for (int i = 0; i < n; i++)
        if ((int)strlen(rows[i].name) > width)
            width = (int)strlen(rows[i].name);
    printf("%-*s %9s %14s %16s %14s\n", width, "variant", "positions", "ab nodes/cpu-s",
           "mcts sims/cpu-s", "greedy plies/cpu-s");
    for (int i = 0; i < n; i++) {
        if (!rows[i].ok) {
            printf("%-*s %9s\n", width, rows[i].name, "error");
            continue;
        }
        printf("%-*s %9d %14.0f %16.0f %14.0f\n", width, rows[i].name, rows[i].npos,
               rows[i].rate[0], rows[i].rate[1], rows[i].rate[2]);
    }
    printf("\nagents:");
    for (int k = 0; k < CMD_BENCH_NAGENTS; k++)
        printf(" %s (%d plies from each position)%s", cmd_bench_agents[k].spec,
               cmd_bench_agents[k].plies, k + 1 < CMD_BENCH_NAGENTS ? "," : "\n");
    printf("positions: %s; each rate: the best of %d rounds by CPU time of the choices "
           "and moves, taken in turn over the variants\n",
           c->batch ? c->batch : "by random play from the start (fixed seeds)",
           CMD_BENCH_ROUNDS);
}

/* Opens a row: the variant, a position with the full history, and the
 * positions (from --batch, else by random play).  An exit code. */
static int cmd_bench_agent_open(const struct cli *c, struct cmd_bench_agent_row *r)
{
    int code = cli_open(c, r->spec, 0, &r->v, &r->p);
    if (!r->p)
        return code;
    int cap = CMD_BENCH_AGENT_POSITIONS;
    struct cmd_bench_batch b = {0};
    if (c->batch && (code = cmd_bench_batch_load(c, r->v, &b)) != CLI_OK)
        return code;
    if (c->batch)
        cap = b.n;
    r->texts = calloc((size_t)cap, sizeof *r->texts);
    int rc = r->texts ? 0 : TIERS_ENOMEM;
    for (int i = 0; rc >= 0 && i < b.n; i++) {
        rc = tiers_pos_format(b.pos[i], NULL, r->texts[r->npos], CMD_BENCH_TEXT);
        if (rc >= 0 && rc < CMD_BENCH_TEXT)
            r->npos++;
    }
    cmd_bench_batch_free(&b);
    if (rc >= 0 && !c->batch)
        rc = cmd_bench_agent_positions(r);
    if (rc < 0) {
        cli_error(c, "%s: %s", r->name, cli_rc_text(r->v, rc));
        return cli_exit_for(rc);
    }
    r->ok = 1;
    return CLI_OK;
}

static int cmd_bench_agents_run(struct cli *c, struct cmd_bench_names *l)
{
    int n = l->n / 2, code = CLI_OK;
    if (c->batch && n != 1)
        return cli_usage_error(c, "--agents --batch takes one variant");
    struct cmd_bench_agent_row *rows = calloc((size_t)n, sizeof *rows);
    if (!rows) {
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    for (int i = 0; i < n; i++) {
        rows[i].name = l->names[2 * i];
        rows[i].spec = l->names[2 * i + 1];
        int r = cmd_bench_agent_open(c, &rows[i]);
        if (r > code)
            code = r;
    }
    for (int round = 0; round < CMD_BENCH_ROUNDS; round++)
        for (int i = 0; i < n; i++)
            for (int k = 0; rows[i].ok && k < CMD_BENCH_NAGENTS; k++) {
                int rc = cmd_bench_agent_round(&rows[i], k);
                if (rc < 0) {
                    cli_error(c, "%s: %s: %s", rows[i].name, cmd_bench_agents[k].spec,
                              cli_rc_text(rows[i].v, rc));
                    rows[i].ok = 0;
                    if (cli_exit_for(rc) > code)
                        code = cli_exit_for(rc);
                }
            }
    cmd_bench_agents_print(c, rows, n);
    for (int i = 0; i < n; i++) {
        free(rows[i].texts);
        tiers_pos_free(rows[i].p);
        tiers_variant_free(rows[i].v);
    }
    free(rows);
    return code;
}

int cmd_bench_run(struct cli *c)
{
    struct cmd_bench_names l = {NULL, 0, 0, 0};
    int code = CLI_OK;

    if (c->batch && !(c->given & CLI_O_AGENTS))
        return cmd_bench_batch_run(c);

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

    if (c->given & CLI_O_AGENTS) {
        code = cmd_bench_agents_run(c, &l);
        cli_free_strings(l.names, l.n);
        return code;
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
