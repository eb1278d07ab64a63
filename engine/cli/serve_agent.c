/* serve_agent.c - an agent's move for a `tiers serve` session, chosen in
 * a thread of its own so that the server keeps answering (serve_agent.h).
 * The thread loads the variant again (the library's thread rules: one
 * variant per thread) and replays the session's game on it; the move it
 * finds is made in the session under the server's lock, unless the job
 * was cancelled or the session closed meanwhile.  A cancel also stops
 * the search itself (tiers_agent_stop), so the thread ends soon. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "serve_agent.h"

struct serve_job {
    struct serve *S;
    struct serve_session *s;  /* NULL once cancelled (S->lock) */
    pthread_t thread;
    int done;                 /* the thread has finished (S->lock) */
    struct serve_job *next;
    tiers_agent *agent;
    char *vspec, *start;
    tiers_move *moves;
    int nmoves;
    uint64_t seed;
    /* the outcome, written by the thread */
    char move[128];
    char error[256];
};

static void serve_job_free(struct serve_job *j)
{
    tiers_agent_free(j->agent);
    free(j->vspec);
    free(j->start);
    free(j->moves);
    free(j);
}

/* The game of the job on a variant of its own, then the agent's choice
 * into j->move (tiers notation), or j->error. */
static void serve_job_think(struct serve_job *j)
{
    const struct cli *c = j->S->c;
    tiers_error err;
    char msg[1100];
    memset(&err, 0, sizeof err);
    tiers_variant *v = tiers_variant_load(j->vspec, c->search,
                                          (const char *const *)c->rules, &err);
    tiers_pos *p = v ? tiers_pos_new(v, 0, &err) : NULL;
    int rc = p ? 0 : TIERS_EINPUT;
    if (p && j->start)
        rc = tiers_pos_parse(p, j->start, "tiers", &err);
    for (int i = 0; rc >= 0 && i < j->nmoves; i++)
        rc = tiers_pos_make(p, &j->moves[i]);
    tiers_move m;
    if (rc >= 0)
        rc = tiers_agent_choose(j->agent, p, &j->seed, &m);
    if (rc > 0)
        rc = tiers_move_format(p, &m, "tiers", j->move, sizeof j->move);
    if (rc == 0)
        snprintf(j->error, sizeof j->error, "no legal move");
    else if (rc < 0)
        snprintf(j->error, sizeof j->error, "agent: %s",
                 err.msg[0] ? tiers_error_text(&err, msg, sizeof msg)
                            : (v ? cli_rc_text(v, rc) : cli_code_text(rc)));
    tiers_pos_free(p);
    tiers_variant_free(v);
}

static void *serve_job_main(void *arg)
{
    struct serve_job *j = arg;
    serve_job_think(j);
    pthread_mutex_lock(&j->S->lock);
    struct serve_session *s = j->s;
    if (s) {
        s->job = NULL;
        if (j->error[0]) {
            snprintf(s->agent_error, sizeof s->agent_error, "%s", j->error);
        } else {
            struct serve_reply r = {0, NULL};
            if (serve_session_play_text(s, j->S, j->move, "tiers", &r) != 200) {
                const char *e = json_string_value(json_object_get(r.json, "error"));
                snprintf(s->agent_error, sizeof s->agent_error, "%s", e ? e : "?");
            }
            json_decref(r.json);
        }
    }
    j->done = 1;
    pthread_mutex_unlock(&j->S->lock);
    return NULL;
}

int serve_agent_start(struct serve *S, struct serve_session *s, const char *spec,
                      struct serve_reply *r)
{
    tiers_error err;
    char msg[1100];
    memset(&err, 0, sizeof err);
    struct serve_job *j = calloc(1, sizeof *j);
    if (!j)
        return serve_fail(r, 500, "out of memory");
    j->agent = tiers_agent_new(spec, &err);
    if (!j->agent) {
        free(j);
        return serve_fail(r, 400, "%s", tiers_error_text(&err, msg, sizeof msg));
    }
    j->S = S;
    j->s = s;
    j->vspec = strdup(s->sv->spec);
    j->start = s->start ? strdup(s->start) : NULL;
    j->nmoves = s->nplies;
    j->moves = malloc((size_t)(s->nplies + 1) * sizeof *j->moves);
    uint64_t seed = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)(uintptr_t)j;
    j->seed = seed ? seed : 1;
    if (!j->vspec || (s->start && !j->start) || !j->moves) {
        serve_job_free(j);
        return serve_fail(r, 500, "out of memory");
    }
    for (int i = 0; i < s->nplies; i++)
        j->moves[i] = s->plies[i].move;
    if (pthread_create(&j->thread, NULL, serve_job_main, j) != 0) {
        serve_job_free(j);
        return serve_fail(r, 503, "cannot start a thread for the agent");
    }
    s->job = j;
    s->agent_error[0] = '\0';
    j->next = S->jobs;
    S->jobs = j;
    return 0;
}

void serve_agent_detach(struct serve_session *s)
{
    if (s->job) {
        tiers_agent_stop(s->job->agent);
        s->job->s = NULL;
        s->job = NULL;
    }
}

int serve_agent_running(const struct serve *S)
{
    int n = 0;
    for (const struct serve_job *j = S->jobs; j; j = j->next)
        n += !j->done;
    return n;
}

void serve_agent_reap(struct serve *S)
{
    struct serve_job **pp = &S->jobs;
    while (*pp) {
        struct serve_job *j = *pp;
        if (j->done) {
            *pp = j->next;
            pthread_join(j->thread, NULL);
            serve_job_free(j);
        } else {
            pp = &j->next;
        }
    }
}

void serve_agent_wait_all(struct serve *S, double seconds)
{
    double end = cli_now() + seconds;
    for (;;) {
        pthread_mutex_lock(&S->lock);
        serve_agent_reap(S);
        int left = S->jobs != NULL;
        pthread_mutex_unlock(&S->lock);
        if (!left || cli_now() > end)
            return;
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}
