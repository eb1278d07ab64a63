/* serve_compare.c - `tiers serve`'s comparisons (serve_compare.h).  The
 * request is checked at once (served variants, options, agents: a 400
 * with the message `tiers compare` gives); then a thread plays each
 * ruleset's missing games into the database with the lab's run_games, a
 * few games at a time so that it can report progress and stop between
 * two calls (games already stored stay: a later run continues), reads the
 * metrics with stats_collect and writes the report with report_write, as
 * `tiers compare --report` does. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab.h"
#include "playout.h"
#include "ruleset.h"
#include "serve_compare.h"

enum { COMPARE_MAX_RULESETS = 8, COMPARE_MAX_OPTIONS = 32, COMPARE_MAX_GAMES = 100000 };

/* One ruleset: a served variant and its options, read as `tiers compare`
 * reads its arguments (ruleset.c), so both find the same runs. */
struct compare_set {
    struct ruleset rs;          /* rs.label names its column, rs.rules are
                                   the run's options */
    char *spec;                 /* the served variant's spec (a copy: the
                                   thread may outlive a server's variants) */
    struct game_config cfg;
    struct playout_variant pv;
};

struct serve_compare {
    struct serve *S;
    struct serve_session *s;    /* NULL once parted from it (S->lock) */
    pthread_t thread;
    int finished;               /* the thread has ended (S->lock) */
    atomic_int cancel;
    struct serve_compare *next;
    struct compare_set set[COMPARE_MAX_RULESETS];
    int n;
    char *options;              /* the request's "options", split in place */
    const char *common[2 * COMPARE_MAX_OPTIONS]; /* those, then --rule's */
    int ncommon;
    char agent[2][DB_SPEC];
    int64_t games;
    uint64_t seed;
    int max_plies;
    char db[1024];
    /* progress and outcome (S->lock) */
    int64_t done, played;
    double t0, t1;
    const char *state;          /* running, done, cancelled, failed */
    char error[1200];
    char *report;
};

static void compare_free(struct serve_compare *j)
{
    for (int i = 0; i < j->n; i++) {
        ruleset_free(&j->set[i].rs);
        free(j->set[i].spec);
        if (j->set[i].pv.have_stats)
            stats_free(&j->set[i].pv.stats);
    }
    free(j->options);
    free(j->report);
    free(j);
}

/* ------------------------------------------------------------ checking */

/* Reads "[LABEL=]NAME[:K=V,...]" into set: a served variant, its options
 * and the common ones (the request's "options", then the server's
 * --rule values), worked out against the variant's defaults.  0, or a 4xx
 * status with r filled. */
static int compare_parse_set(struct serve *S, const char *text, const char *const *common,
                             int ncommon, struct compare_set *set, struct serve_reply *r)
{
    struct ruleset *rs = &set->rs;
    int rc = ruleset_read(rs, text, common, ncommon, "\"options\"");
    if (rc)
        return serve_fail(r, rc == RULESET_ENOMEM ? 500 : 400, "%s", rs->why);
    const struct serve_variant *sv = NULL;
    for (int i = 0; i < S->nvariants; i++)
        if (!strcmp(S->variants[i].name, rs->variant))
            sv = &S->variants[i];
    if (!sv)
        return serve_fail(r, 404, "ruleset '%s': '%s' is not a served variant (see "
                          "/api/variants)", text, rs->variant);
    if (!(set->spec = strdup(sv->spec)))
        return serve_fail(r, 500, "out of memory");
    static const char *const no_rules[] = {NULL};
    tiers_error err;
    memset(&err, 0, sizeof err);
    tiers_variant *base = tiers_variant_load(sv->spec, S->c->search, no_rules, &err);
    if (!base) {
        char msg[1100];
        return serve_fail(r, 400, "ruleset '%s': %s", text,
                          tiers_error_text(&err, msg, sizeof msg));
    }
    rc = ruleset_canon(rs, sv->spec, S->c->search, base);
    tiers_variant_free(base);
    if (rc)
        return serve_fail(r, rc == RULESET_ENOMEM ? 500 : 400, "%s%s%s",
                          rc == RULESET_ELOAD ? text : "", rc == RULESET_ELOAD ? ": " : "",
                          rs->why);
    return 0;
}

/* Loads the ruleset and describes its run as `tiers compare` would (the
 * key that finds games already played).  0, or a status with r filled. */
static int compare_describe(struct serve *S, struct serve_compare *j, struct compare_set *set,
                            struct serve_reply *r)
{
    tiers_error err;
    char msg[1100];
    memset(&err, 0, sizeof err);
    tiers_variant *v = tiers_variant_load(set->spec, S->c->search, set->rs.rules, &err);
    if (!v)
        return serve_fail(r, 400, "ruleset '%s': %s", set->rs.label,
                          tiers_error_text(&err, msg, sizeof msg));
    struct game_config *cfg = &set->cfg;
    cfg->variant = set->spec;
    cfg->search = S->c->search;
    cfg->rules = set->rs.rules;
    cfg->agents[0] = j->agent[0];
    cfg->agents[1] = j->agent[1];
    cfg->seed = j->seed;
    cfg->max_plies = j->max_plies;
    set->pv.spec = set->rs.label; /* rs.arg is the request's, gone after it */
    int rc = run_describe(cfg, v, &set->pv.run, msg, sizeof msg);
    tiers_variant_free(v);
    if (rc)
        return serve_fail(r, rc == TIERS_ENOMEM ? 500 : 400, "ruleset '%s': %s", set->rs.label,
                          msg);
    return 0;
}

/* An integer field of in within [lo, hi], or dflt when absent. */
static int compare_int(json_t *in, const char *key, int64_t lo, int64_t hi, int64_t dflt,
                       int64_t *out, struct serve_reply *r)
{
    json_t *x = json_object_get(in, key);
    if (!x) {
        *out = dflt;
        return 0;
    }
    if (!json_is_integer(x) || json_integer_value(x) < lo || json_integer_value(x) > hi)
        return serve_fail(r, 400, "\"%s\" must be a whole number from %lld to %lld", key,
                          (long long)lo, (long long)hi);
    *out = json_integer_value(x);
    return 0;
}

static int compare_read_agents(json_t *in, struct serve_compare *j, struct serve_reply *r)
{
    json_t *a = json_object_get(in, "agents");
    for (int side = 0; side < 2; side++) {
        json_t *x = json_array_get(a, (size_t)side);
        const char *spec = a ? json_string_value(x) : PLAYOUT_DEFAULT_AGENT;
        if (!spec || (a && json_array_size(a) != 2))
            return serve_fail(r, 400, "\"agents\" must be two agent specs, side 0's and "
                              "side 1's");
        snprintf(j->agent[side], sizeof j->agent[side], "%s", spec);
    }
    return 0;
}

/* The options every ruleset takes: the request's "options" ("K=V,K=V"),
 * then the server's --rule values.  0, or a status with r filled. */
static int compare_read_common(struct serve *S, const char *options, struct serve_compare *j,
                               struct serve_reply *r)
{
    j->options = strdup(options ? options : "");
    if (!j->options)
        return serve_fail(r, 500, "out of memory");
    for (char *save = NULL, *o = strtok_r(j->options, ", ", &save); o;
         o = strtok_r(NULL, ", ", &save)) {
        const char *eq = strchr(o, '=');
        if (!eq || eq == o || !eq[1])
            return serve_fail(r, 400, "\"options\": '%s' is not KEY=VALUE", o);
        if (j->ncommon == COMPARE_MAX_OPTIONS)
            return serve_fail(r, 400, "\"options\": more than %d", COMPARE_MAX_OPTIONS);
        j->common[j->ncommon++] = o;
    }
    for (int i = 0; S->c->rules && S->c->rules[i] && j->ncommon < 2 * COMPARE_MAX_OPTIONS; i++)
        j->common[j->ncommon++] = S->c->rules[i];
    return 0;
}

/* The request into j: 0, or a status with r filled. */
static int compare_read(struct serve *S, json_t *in, struct serve_compare *j,
                        struct serve_reply *r)
{
    json_t *sets = json_object_get(in, "rulesets");
    if (!json_is_array(sets) || json_array_size(sets) < 1 ||
        json_array_size(sets) > COMPARE_MAX_RULESETS)
        return serve_fail(r, 400, "\"rulesets\" must list 1 to %d rulesets (NAME or "
                          "NAME:KEY=VALUE,...)", COMPARE_MAX_RULESETS);
    int64_t games = 0, seed = 0, plies = 0;
    int status = compare_int(in, "games", 1, COMPARE_MAX_GAMES, PLAYOUT_DEFAULT_GAMES,
                             &games, r);
    if (!status)
        status = compare_int(in, "seed", 0, 2147483647, PLAYOUT_DEFAULT_SEED, &seed, r);
    if (!status)
        status = compare_int(in, "max_plies", 1, 100000, PLAYOUT_DEFAULT_MAX_PLIES,
                             &plies, r);
    if (!status)
        status = compare_read_agents(in, j, r);
    if (!status)
        status = compare_read_common(S, serve_field(in, "options"), j, r);
    if (status)
        return status;
    j->games = games;
    j->seed = (uint64_t)seed;
    j->max_plies = (int)plies;
    for (size_t i = 0; i < json_array_size(sets); i++) {
        const char *text = json_string_value(json_array_get(sets, i));
        if (!text)
            return serve_fail(r, 400, "\"rulesets\" must be strings");
        j->n++;
        status = compare_parse_set(S, text, j->common, j->ncommon, &j->set[i], r);
        if (!status)
            status = compare_describe(S, j, &j->set[i], r);
        if (status)
            return status;
    }
    return 0;
}

/* ------------------------------------------------------------- the run */

static void compare_end(struct serve_compare *j, const char *state, const char *err)
{
    pthread_mutex_lock(&j->S->lock);
    j->state = state;
    if (err)
        snprintf(j->error, sizeof j->error, "%s", err);
    j->t1 = cli_now();
    pthread_mutex_unlock(&j->S->lock);
}

/* Plays set's games in steps; 0, 1 when cancelled, -1 with err. */
static int compare_play(struct serve_compare *j, db *d, struct compare_set *set, char *err,
                        size_t errsize)
{
    int64_t step = j->games / 50 > 1 ? j->games / 50 : 1;
    struct run_options o;
    memset(&o, 0, sizeof o);
    o.threads = 1;
    o.shard_k = o.shard_n = 1;
    o.label = set->pv.run.variant;
    int64_t before = j->done;
    for (int64_t upto = step;; upto += step) {
        if (atomic_load(&j->cancel))
            return 1;
        o.games = upto < j->games ? upto : j->games;
        struct run_result res;
        char msg[1024];
        if (run_games(d, &set->cfg, &set->pv.run, &o, &res, msg, sizeof msg) != 0) {
            snprintf(err, errsize, "%s: %s", set->rs.label, msg);
            return -1;
        }
        pthread_mutex_lock(&j->S->lock);
        j->done = before + o.games;
        j->played += res.played;
        pthread_mutex_unlock(&j->S->lock);
        set->pv.result.played += res.played;
        if (o.games == j->games)
            return 0;
    }
}

/* The metrics and the report, read back into j->report. */
static int compare_report(struct serve_compare *j, db *d, char *err, size_t errsize)
{
    struct playout_variant pv[COMPARE_MAX_RULESETS];
    for (int i = 0; i < j->n; i++) {
        struct compare_set *set = &j->set[i];
        if (stats_collect(d, &set->pv.run, j->games, &set->pv.stats, err, errsize) != 0) {
            stats_free(&set->pv.stats);
            return -1;
        }
        set->pv.have_stats = 1;
        pv[i] = set->pv;
        /* the column names the ruleset as compare does */
        snprintf(pv[i].label, sizeof pv[i].label, "%s", set->rs.label);
    }
    char path[] = "/tmp/tiers-serve-report-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(err, errsize, "cannot make a temporary file for the report");
        return -1;
    }
    close(fd);
    struct report_meta meta = {(long)j->games, j->seed, j->max_plies, j->db, NULL, NULL};
    int rc = report_write(path, &meta, pv, j->n, err, errsize);
    char *text = NULL;
    size_t len = 0;
    FILE *f = rc == 0 ? fopen(path, "r") : NULL;
    if (f) {
        FILE *out = open_memstream(&text, &len);
        char buf[8192];
        size_t k;
        while (out && (k = fread(buf, 1, sizeof buf, f)) > 0)
            fwrite(buf, 1, k, out);
        if (out)
            fclose(out);
        fclose(f);
    }
    unlink(path);
    if (rc != 0)
        return -1;
    if (!text) {
        snprintf(err, errsize, "cannot read the report back");
        return -1;
    }
    pthread_mutex_lock(&j->S->lock);
    j->report = text;
    pthread_mutex_unlock(&j->S->lock);
    return 0;
}

static void *compare_main(void *arg)
{
    struct serve_compare *j = arg;
    char err[1100] = "";
    int foreign;
    db *d = db_open_checked(j->db, 1, &foreign, err, sizeof err);
    int rc = d ? 0 : -1;
    for (int i = 0; rc == 0 && i < j->n; i++)
        rc = compare_play(j, d, &j->set[i], err, sizeof err);
    if (rc == 0)
        rc = compare_report(j, d, err, sizeof err);
    if (d)
        db_close(d);
    compare_end(j, rc == 0 ? "done" : rc > 0 ? "cancelled" : "failed", rc < 0 ? err : NULL);
    pthread_mutex_lock(&j->S->lock);
    j->finished = 1;
    pthread_mutex_unlock(&j->S->lock);
    return NULL;
}

/* ------------------------------------------------------------- the API */

int serve_api_compare(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find(S, in, r);
    if (!s)
        return r->status;
    if (s->compare && strcmp(s->compare->state, "running") == 0)
        return serve_fail(r, 409, "a comparison is running for this session: wait or "
                          "cancel it");
    struct serve_compare *j = calloc(1, sizeof *j);
    if (!j)
        return serve_fail(r, 500, "out of memory");
    j->S = S;
    snprintf(j->db, sizeof j->db, "%s", S->db);
    int status = compare_read(S, in, j, r);
    if (status) {
        compare_free(j);
        return status;
    }
    j->state = "running";
    j->t0 = cli_now();
    j->s = s;
    if (pthread_create(&j->thread, NULL, compare_main, j) != 0) {
        compare_free(j);
        return serve_fail(r, 503, "cannot start a thread for the comparison");
    }
    serve_compare_detach(s); /* the last one, finished */
    s->compare = j;
    j->next = S->compares;
    S->compares = j;
    json_t *out = json_pack("{s:o}", "compare", serve_compare_json(s));
    json_decref(r->json);
    r->json = out;
    r->status = 202;
    return 202;
}

int serve_api_compare_cancel(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find(S, in, r);
    if (!s)
        return r->status;
    if (!s->compare)
        return serve_fail(r, 409, "no comparison to cancel");
    atomic_store(&s->compare->cancel, 1);
    json_t *out = json_pack("{s:o}", "compare", serve_compare_json(s));
    json_decref(r->json);
    r->json = out;
    r->status = 200;
    return 200;
}

char *serve_api_compare_report(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find(S, in, r);
    if (!s)
        return NULL;
    if (!s->compare || !s->compare->report) {
        serve_fail(r, 409, "no report: %s", s->compare ? "the comparison is not done"
                                                         : "no comparison was run");
        return NULL;
    }
    char *text = strdup(s->compare->report);
    if (!text)
        serve_fail(r, 500, "out of memory");
    return text;
}

json_t *serve_compare_json(const struct serve_session *s)
{
    const struct serve_compare *j = s->compare;
    if (!j)
        return json_null();
    int64_t total = j->games * j->n;
    double end = strcmp(j->state, "running") == 0 ? cli_now() : j->t1;
    double secs = end - j->t0;
    double rate = secs > 0 ? j->played / secs : 0;
    json_t *sets = json_array();
    for (int i = 0; i < j->n; i++)
        json_array_append_new(sets, json_string(j->set[i].rs.label));
    json_t *out = json_pack("{s:s,s:o,s:[s,s],s:I,s:I,s:I,s:I,s:f,s:f,s:s,s:b}", "state",
                            j->state, "rulesets", sets, "agents", j->agent[0], j->agent[1],
                            "games", (json_int_t)j->games, "done", (json_int_t)j->done,
                            "played", (json_int_t)j->played, "total", (json_int_t)total,
                            "seconds", secs, "rate", rate, "error", j->error, "report",
                            j->report != NULL);
    if (out)
        json_object_set_new(out, "seconds_left",
                            rate > 0 && strcmp(j->state, "running") == 0
                                ? json_real((double)(total - j->done) / rate)
                                : json_null());
    return out;
}

void serve_compare_detach(struct serve_session *s)
{
    if (s->compare) {
        atomic_store(&s->compare->cancel, 1);
        s->compare->s = NULL;
        s->compare = NULL;
    }
}

void serve_compare_reap(struct serve *S)
{
    struct serve_compare **pp = &S->compares;
    while (*pp) {
        struct serve_compare *j = *pp;
        if (j->finished && !j->s) {
            *pp = j->next;
            pthread_join(j->thread, NULL);
            compare_free(j);
        } else {
            pp = &j->next;
        }
    }
}

void serve_compare_wait_all(struct serve *S, double seconds)
{
    double end = cli_now() + seconds;
    for (;;) {
        pthread_mutex_lock(&S->lock);
        serve_compare_reap(S);
        int left = S->compares != NULL;
        pthread_mutex_unlock(&S->lock);
        if (!left || cli_now() > end)
            return;
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}
