/* cmd_playout.c - `tiers playout VARIANT`: games between two agents into
 * the SQLite database, on several threads, resumable, shardable.  Also the
 * options and the per-variant run that `tiers compare` shares. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonw.h"
#include "export.h"
#include "playout.h"
#include "ruleset.h"

int cli_playout_option(struct cli *c, cli_opts bit, const char *arg)
{
    long n;
    switch (bit) {
    case CLI_O_GAMES: /* check plays none with --games 0 */
        if (cli_parse_int(arg, !strcmp(c->cmd->name, "check") ? 0 : 1, RUN_MAX_GAMES, &n))
            return cli_usage_error(c, "bad --games '%s': expected %d..%lld", arg,
                                   !strcmp(c->cmd->name, "check") ? 0 : 1,
                                   (long long)RUN_MAX_GAMES);
        c->games = n;
        return -1;
    case CLI_O_THREADS:
        if (cli_parse_int(arg, 1, RUN_MAX_THREADS, &n) != 0)
            return cli_usage_error(c, "bad --threads '%s': expected 1..%d", arg,
                                   RUN_MAX_THREADS);
        c->threads = (int)n;
        return -1;
    case CLI_O_SIDE0: c->side0 = arg; return -1;
    case CLI_O_SIDE1: c->side1 = arg; return -1;
    case CLI_O_DB:
        if (!arg[0])
            return cli_usage_error(c, "empty --db file name");
        c->db = arg;
        return -1;
    case CLI_O_REPORT:
        if (!arg[0])
            return cli_usage_error(c, "empty --report file name");
        c->report = arg;
        return -1;
    case CLI_O_RECORDS:
        if (!arg[0])
            return cli_usage_error(c, "empty --records folder name");
        c->records = arg;
        return -1;
    case CLI_O_RUN:
        if (strlen(arg) != 16 || arg[strspn(arg, "0123456789abcdef")])
            return cli_usage_error(c, "bad --run '%s': a run key is 16 hex digits", arg);
        c->run = arg;
        return -1;
    case CLI_O_MAX_PLIES:
        if (cli_parse_int(arg, 1, 60000, &n) != 0)
            return cli_usage_error(c, "bad --max-plies '%s': expected 1..60000", arg);
        c->max_plies = (int)n;
        return -1;
    case CLI_O_SHARD: {
        const char *slash = strchr(arg, '/');
        long k, total;
        char head[32];
        if (!slash || (size_t)(slash - arg) >= sizeof head)
            return cli_usage_error(c, "bad --shard '%s': expected K/N", arg);
        memcpy(head, arg, (size_t)(slash - arg));
        head[slash - arg] = '\0';
        if (cli_parse_int(slash + 1, 1, 1000000, &total) != 0 ||
            cli_parse_int(head, 1, total, &k) != 0)
            return cli_usage_error(c, "bad --shard '%s': expected K/N with 1 <= K <= N",
                                   arg);
        c->shard_k = (int)k;
        c->shard_n = (int)total;
        return -1;
    }
    default:
        return -1;
    }
}

void playout_defaults(struct cli *c)
{
    if (!(c->given & CLI_O_GAMES))
        c->games = PLAYOUT_DEFAULT_GAMES;
    if (!(c->given & CLI_O_THREADS))
        c->threads = 1;
    if (!(c->given & CLI_O_SEED))
        c->seed = PLAYOUT_DEFAULT_SEED;
    if (!c->db)
        c->db = PLAYOUT_DEFAULT_DB;
    if (!(c->given & CLI_O_SHARD))
        c->shard_k = c->shard_n = 1;
    if (!(c->given & CLI_O_MAX_PLIES))
        c->max_plies = PLAYOUT_DEFAULT_MAX_PLIES;
}

/* Agents of the two sides of v: --side0/--side1 by order, --white/--black
 * by the variant's side names (the first and second side when it has no
 * side of that name). */
static int playout_agents(const struct cli *c, const tiers_variant *v, const char *out[2])
{
    out[0] = c->side0;
    out[1] = c->side1;
    const char *named[2][2] = {{"white", c->white}, {"black", c->black}};
    for (int i = 0; i < 2; i++) {
        if (!named[i][1])
            continue;
        int side = -1;
        for (int s = 0; s < 2; s++) {
            const char *name = tiers_variant_side_name(v, s);
            if (name && !strcmp(name, named[i][0]))
                side = s;
        }
        if (side < 0)
            side = i; /* sides named otherwise: white = the first, black =
                         the second (as `tiers play` reads them) */
        if (out[side])
            return cli_usage_error(c, "two agents for %s's side %d", tiers_variant_name(v),
                                   side);
        out[side] = named[i][1];
    }
    for (int s = 0; s < 2; s++)
        if (!out[s])
            out[s] = PLAYOUT_DEFAULT_AGENT;
    return CLI_OK;
}

db *playout_open_db(const struct cli *c, int *code)
{
    char err[1024];
    int foreign;
    struct db_migration m;
    db *d = db_open_migrating(c->db, 1, c->search, &m, &foreign, err, sizeof err);
    if (!d) {
        cli_error(c, "%s", err);
        *code = foreign ? CLI_INPUT : CLI_INTERNAL;
    } else if (m.migrated) { /* once per file: a note, not an error */
        char line[1024];
        db_migration_summary(&m, c->db, line, sizeof line);
        fprintf(stderr, "tiers: %s\n", line);
    }
    return d;
}

/* The run of spec (loaded as v) with c's options: the agents of its
 * sides, their full specs, the key.  Returns an exit code (after a
 * message): a bad agent spec is a usage error. */
static int playout_describe(const struct cli *c, const tiers_variant *v,
                            const struct ruleset *rs, struct game_config *cfg,
                            struct db_run *run)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->variant = rs->variant;
    cfg->search = c->search;
    cfg->rules = rs->rules; /* the run's options: what its games load */
    cfg->seed = c->seed;
    cfg->max_plies = c->max_plies;
    int code = playout_agents(c, v, cfg->agents);
    if (code != CLI_OK)
        return code;
    char err[1024];
    int rc = run_describe(cfg, v, run, err, sizeof err);
    if (rc == TIERS_ENOMEM) {
        cli_error(c, "%s", err);
        return CLI_INTERNAL;
    }
    return rc ? cli_usage_error(c, "%s", err) : CLI_OK;
}

/* What playout_loaded fills in. */
struct playout_opened {
    struct ruleset *rs;
    struct game_config *cfg;
    struct db_run *run;
};

/* cli_open_how's hook: the variant loaded with no rule (its defaults),
 * then the ruleset's options worked out against it. */
static int playout_base_loaded(const struct cli *c, const char *spec, const tiers_variant *v,
                               const tiers_error *err, void *ud)
{
    struct playout_opened *o = ud;
    if (!v) {
        cli_load_error(c, o->rs->arg, err);
        (void)spec;
        return CLI_INPUT;
    }
    return ruleset_resolve(c, o->rs, v);
}

/* cli_open_how's hook: the run of the variant loaded with its options. */
static int playout_loaded(const struct cli *c, const char *spec, const tiers_variant *v,
                          const tiers_error *err, void *ud)
{
    struct playout_opened *o = ud;
    if (!v) {
        cli_load_error(c, o->rs->arg, err);
        (void)spec;
        return CLI_INPUT;
    }
    return playout_describe(c, v, o->rs, o->cfg, o->run);
}

/* Reads the ruleset arg into rs, loads its variant and describes its run
 * with c's options (cfg, run); with `records` also checks that records
 * can hold the moves of --notation.  Returns an exit code (after a
 * message); rs needs ruleset_free whatever it returns. */
static int playout_open(const struct cli *c, const char *arg, int records,
                        struct ruleset *rs, struct game_config *cfg, struct db_run *run)
{
    int code = ruleset_parse(c, arg, rs);
    if (code != CLI_OK)
        return code;
    static const char *const no_rules[] = {NULL};
    struct playout_opened o = {rs, cfg, run};
    struct cli_open_how base = {.rules = no_rules, .loaded = playout_base_loaded, .ud = &o};
    tiers_variant *v;
    tiers_pos *p = NULL;
    code = cli_open_how(c, rs->variant, &base, &v, NULL);
    cli_close(v, NULL);
    if (code != CLI_OK)
        return code;
    struct cli_open_how how = {.rules = rs->rules, .loaded = playout_loaded, .ud = &o};
    code = cli_open_how(c, rs->variant, &how, &v, records ? &p : NULL);
    if (code == CLI_OK && records)
        code = export_check_notation(c, p);
    cli_close(v, p);
    return code;
}

int cli_playout_describe(const struct cli *c, const char *spec, struct db_run *run)
{
    struct game_config cfg;
    struct ruleset rs;
    int code = playout_open(c, spec, 0, &rs, &cfg, run);
    ruleset_free(&rs);
    return code;
}

int cli_playout_check(const struct cli *c, const char *spec)
{
    struct db_run run;
    return cli_playout_describe(c, spec, &run);
}

/* A run stored before run options were made canonical (sorted, defaults
 * left out) has its options as they were given: when the database lacks
 * the canonical run but holds that one, its games are the same games, so
 * the run goes on under its old key. */
static void playout_legacy_run(db *d, const struct ruleset *rs, struct db_run *run)
{
    char err[256];
    struct db_run old;
    if (db_get_run(d, run->key, &old, err, sizeof err) != 1)
        return; /* there (or unreadable: run_games will say) */
    char *given = gamerec_options_join(rs->given);
    if (!given)
        return;
    struct db_run legacy = *run;
    int fits = strlen(given) < sizeof legacy.options && strcmp(given, run->options);
    if (fits) {
        snprintf(legacy.options, sizeof legacy.options, "%s", given);
        db_run_key(&legacy);
    }
    free(given);
    if (fits && db_get_run(d, legacy.key, &old, err, sizeof err) == 0)
        *run = legacy;
}

int playout_variant(const struct cli *c, db *d, const char *spec, int with_stats,
                    struct playout_variant *out)
{
    memset(out, 0, sizeof *out);
    out->spec = spec;
    struct game_config cfg;
    struct ruleset rs;
    char err[4096];
    int code = playout_open(c, spec, 0, &rs, &cfg, &out->run);
    snprintf(out->label, sizeof out->label, "%s", rs.label);
    if (code != CLI_OK) {
        ruleset_free(&rs);
        return code;
    }
    for (int s = 0; s < 2; s++)
        if (strstr(out->run.agent[s], ",time="))
            cli_error(c, "warning: %s has a time budget: its games depend on the machine's "
                      "speed, so this run is not reproducible",
                      out->run.agent[s]);

    playout_legacy_run(d, &rs, &out->run);

    struct run_options o;
    memset(&o, 0, sizeof o);
    o.games = c->games;
    o.threads = c->threads;
    o.shard_k = c->shard_k;
    o.shard_n = c->shard_n;
    o.progress = isatty(STDERR_FILENO);
    o.label = out->label;
    char failed[1100]; /* a failed game's record: --records, else DB-failed */
    failrec_dir(c->db ? c->db : PLAYOUT_DEFAULT_DB, c->records, failed, sizeof failed);
    o.failed_dir = failed;
    int rc = run_games(d, &cfg, &out->run, &o, &out->result, err, sizeof err);
    ruleset_free(&rs);
    if (rc != 0) {
        cli_error(c, "%s: %s", spec, err);
        snprintf(out->failure, sizeof out->failure, "%s", err);
        return rc == TIERS_EINPUT ? CLI_INPUT : CLI_INTERNAL;
    }
    if (with_stats) {
        int bad = stats_collect(d, &out->run, c->games, &out->stats, err, sizeof err);
        if (bad != 0) {
            stats_free(&out->stats);
            cli_error(c, "%s: %s", spec, err);
            snprintf(out->failure, sizeof out->failure, "%s", err);
            return bad == DB_BAD ? CLI_INPUT : CLI_INTERNAL;
        }
        out->have_stats = 1;
    }
    return CLI_OK;
}

static void playout_print(const struct cli *c, const struct playout_variant *pv,
                          int64_t written)
{
    const struct db_run *run = &pv->run;
    const struct run_result *r = &pv->result;
    const struct stats *s = &pv->stats;
    double rate = r->seconds > 0 ? (double)r->played / r->seconds : 0;
    if (c->json) {
        jsonw w;
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "variant");
        jsonw_string(&w, run->variant);
        jsonw_key(&w, "hash");
        jsonw_string(&w, run->hash);
        jsonw_key(&w, "run");
        jsonw_string(&w, run->key);
        jsonw_key(&w, "db");
        jsonw_string(&w, c->db);
        jsonw_key(&w, "options");
        jsonw_string(&w, run->options);
        jsonw_key(&w, "sides");
        jsonw_begin_array(&w);
        for (int side = 0; side < 2; side++)
            jsonw_string(&w, run->side[side]);
        jsonw_end_array(&w);
        jsonw_key(&w, "agents");
        jsonw_begin_array(&w);
        for (int side = 0; side < 2; side++)
            jsonw_string(&w, run->agent[side]);
        jsonw_end_array(&w);
        jsonw_key(&w, "seed");
        jsonw_int(&w, (long long)run->seed);
        jsonw_key(&w, "max_plies");
        jsonw_int(&w, run->max_plies);
        jsonw_key(&w, "games");
        jsonw_int(&w, c->games);
        jsonw_key(&w, "shard");
        char shard[32];
        snprintf(shard, sizeof shard, "%d/%d", c->shard_k, c->shard_n);
        jsonw_string(&w, shard);
        jsonw_key(&w, "wanted");
        jsonw_int(&w, r->wanted);
        jsonw_key(&w, "found");
        jsonw_int(&w, r->found);
        jsonw_key(&w, "played");
        jsonw_int(&w, r->played);
        jsonw_key(&w, "threads");
        jsonw_int(&w, r->threads);
        jsonw_key(&w, "seconds");
        jsonw_double(&w, r->seconds, 3);
        jsonw_key(&w, "games_per_second");
        jsonw_double(&w, rate, 2);
        jsonw_key(&w, "stored");
        jsonw_int(&w, s->games);
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
        if (c->records) {
            jsonw_key(&w, "records");
            jsonw_string(&w, c->records);
            jsonw_key(&w, "records_written");
            jsonw_int(&w, written);
        }
        jsonw_end_object(&w);
        fputc('\n', stdout);
        return;
    }
    printf("%s (hash %s, options %s): run %s in %s\n", run->variant, run->hash,
           run->options[0] ? run->options : "(defaults)", run->key, c->db);
    printf("agents: %s %s, %s %s\n", run->side[0], run->agent[0], run->side[1],
           run->agent[1]);
    if (c->shard_n > 1)
        printf("shard %d/%d: ", c->shard_k, c->shard_n);
    /* the threads that ran: no more than there were games to play */
    printf("%lld games: %lld played now, %lld already stored; %d thread%s, %.2f s, "
           "%.1f games/s\n",
           (long long)r->wanted, (long long)r->played, (long long)r->found, r->threads,
           r->threads == 1 ? "" : "s", r->seconds, rate);
    printf("stored games 0..%ld: %lld; %s %lld, %s %lld, draws %lld, cut %lld; "
           "mean length %.1f plies\n",
           c->games - 1, (long long)s->games, run->side[0], (long long)s->wins[0],
           run->side[1], (long long)s->wins[1], (long long)s->draws, (long long)s->cut,
           s->length_mean);
    if (s->replayed)
        printf("ended by repetition, to be replayed: %lld\n", (long long)s->replayed);
    if (c->records)
        printf("records: %lld game%s written to %s\n", (long long)written,
               written == 1 ? "" : "s", c->records);
}

/* Everything the command line says, checked before the database is
 * opened (so a bad argument leaves no file behind) or a game is played:
 * the variant and its rules, the agents, and with --records the notation
 * and the folder (created here). */
static int playout_check(const struct cli *c, struct ruleset *rs)
{
    struct game_config cfg;
    struct db_run run;
    int code = playout_open(c, c->args[0], c->records != NULL, rs, &cfg, &run);
    if (code == CLI_OK && c->run && strcmp(c->run, run.key)) {
        cli_error(c, "this command makes run %s (%s, content hash %s, options '%s', %s "
                  "against %s, seed %llu, at most %d plies), not run %s: the variant, its "
                  "options or the agents changed since the scripts were written",
                  run.key, run.variant, run.hash, run.options, run.agent[0], run.agent[1],
                  (unsigned long long)run.seed, run.max_plies, c->run);
        code = CLI_INPUT;
    }
    if (code == CLI_OK && c->records)
        code = export_prepare_dir(c, c->records);
    return code;
}

int cmd_playout_run(struct cli *c)
{
    playout_defaults(c);
    if (c->notation && !c->records)
        return cli_usage_error(c, "--notation is the notation of --records: give both");
    struct ruleset rs;
    int code = playout_check(c, &rs);
    db *d = code == CLI_OK ? playout_open_db(c, &code) : NULL;
    if (!d) {
        ruleset_free(&rs);
        return code;
    }
    struct playout_variant pv;
    int64_t written = 0;
    code = playout_variant(c, d, c->args[0], 1, &pv);
    int played = code == CLI_OK;
    if (played && c->records)
        code = export_run(c, d, &pv.run, rs.variant, rs.rules, c->records, c->games, c->shard_k, c->shard_n, &written);
    if (played)
        playout_print(c, &pv, written);
    if (pv.have_stats)
        stats_free(&pv.stats);
    ruleset_free(&rs);
    db_close(d);
    return code;
}
