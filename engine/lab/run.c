/* run.c - the games of a run on worker threads (pthreads).
 *
 * Each worker loads its own copy of the variant (a variant's Lua state is
 * not shared between threads), position and agents, then takes the next
 * missing game index from a shared list, plays it, and hands a copy of the
 * record to the main thread.  The main thread alone writes the database:
 * whatever has finished since its last write goes into one transaction, so
 * workers never wait for the disk, and a kill loses only the games being
 * played or handed over at that moment.  Game i depends on the run's seed
 * and i only, so the thread count and order change nothing but speed. */
#include "run.h"

#include "gamerec.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Finished games waiting for the writer, at most RUN_QUEUE_PER_THREAD
 * per worker (then workers wait: the writer is behind). */
enum { RUN_QUEUE_PER_THREAD = 8 };

struct run_shared {
    const struct game_config *cfg;
    const struct db_run *run;
    int64_t *todo;
    int64_t ntodo, next;
    struct game_record *queue;  /* copies, text buffers malloc'd */
    int qlen, qcap;
    int running;                /* workers not yet finished */
    int failed;                 /* first error code, 0 = none */
    char err[4096];
    const char *failed_dir;     /* run_options.failed_dir */
    pthread_mutex_t lock;
    pthread_cond_t wake;        /* to the writer: a game, or a worker ended */
    pthread_cond_t space;       /* to the workers: the queue has room */
};

static double run_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Records the first error; called with the lock held. */
static void run_fail_locked(struct run_shared *sh, int code, const char *msg)
{
    if (!sh->failed) {
        sh->failed = code ? code : -1;
        snprintf(sh->err, sizeof sh->err, "%s", msg);
    }
    pthread_cond_broadcast(&sh->space);
    pthread_cond_signal(&sh->wake);
}

static void run_fail(struct run_shared *sh, int code, const char *msg)
{
    pthread_mutex_lock(&sh->lock);
    run_fail_locked(sh, code, msg);
    pthread_mutex_unlock(&sh->lock);
}

/* A copy of g whose text buffers are its own. */
static int run_copy(struct game_record *dst, const struct game_record *g)
{
    *dst = *g;
    dst->moves = malloc(g->moves_len + 1);
    dst->legal = malloc(g->legal_len + 1);
    if (!dst->moves || !dst->legal) {
        free(dst->moves);
        free(dst->legal);
        return -1;
    }
    memcpy(dst->moves, g->moves, g->moves_len + 1);
    memcpy(dst->legal, g->legal, g->legal_len + 1);
    return 0;
}

static void *run_worker(void *arg)
{
    struct run_shared *sh = arg;
    struct game_worker w;
    tiers_error err;
    memset(&err, 0, sizeof err);
    /* loading touches the library's few process-wide paths (the variant
       folder found beside the program): one worker at a time */
    pthread_mutex_lock(&sh->lock);
    int rc = game_worker_init(&w, sh->cfg, &err);
    pthread_mutex_unlock(&sh->lock);
    if (rc < 0) {
        char text[1100];
        run_fail(sh, rc, tiers_error_text(&err, text, sizeof text));
    } else if (strcmp(tiers_variant_hash(w.v), sh->run->hash) != 0) {
        run_fail(sh, TIERS_EINPUT, "the variant's files changed during the run");
    }
    for (;;) {
        pthread_mutex_lock(&sh->lock);
        int64_t i = sh->failed || sh->next >= sh->ntodo ? -1 : sh->todo[sh->next++];
        pthread_mutex_unlock(&sh->lock);
        if (i < 0)
            break;
        rc = game_play(&w, sh->cfg, i);
        if (rc < 0) {
            char msg[4096];
            failrec_report(&w.fail, sh->run, sh->failed_dir, w.g.moves, msg, sizeof msg);
            run_fail(sh, rc, msg);
            break;
        }
        struct game_record copy;
        if (run_copy(&copy, &w.g) != 0) {
            run_fail(sh, TIERS_ENOMEM, "out of memory");
            break;
        }
        pthread_mutex_lock(&sh->lock);
        while (sh->qlen == sh->qcap && !sh->failed)
            pthread_cond_wait(&sh->space, &sh->lock);
        int stored = !sh->failed;
        if (stored) {
            sh->queue[sh->qlen++] = copy;
            pthread_cond_signal(&sh->wake);
        }
        pthread_mutex_unlock(&sh->lock);
        if (!stored) {
            free(copy.moves);
            free(copy.legal);
            break;
        }
    }
    if (w.v)
        game_worker_free(&w);
    pthread_mutex_lock(&sh->lock);
    sh->running--;
    pthread_cond_signal(&sh->wake);
    pthread_mutex_unlock(&sh->lock);
    return NULL;
}

int run_describe(const struct game_config *cfg, const tiers_variant *v, struct db_run *run,
                 char *err, size_t errsize)
{
    memset(run, 0, sizeof *run);
    snprintf(run->variant, sizeof run->variant, "%s", tiers_variant_name(v));
    snprintf(run->hash, sizeof run->hash, "%s", tiers_variant_hash(v));
    /* the records' Options tag holds the same text (gamerec.c) */
    char *options = gamerec_options_join(cfg->rules);
    if (!options) {
        snprintf(err, errsize, "out of memory");
        return TIERS_ENOMEM;
    }
    if (strlen(options) >= sizeof run->options) {
        snprintf(err, errsize, "too many --rule options");
        free(options);
        return -1;
    }
    snprintf(run->options, sizeof run->options, "%s", options);
    free(options);
    for (int s = 0; s < 2; s++) {
        tiers_error e;
        memset(&e, 0, sizeof e);
        tiers_agent *a = tiers_agent_new(cfg->agents[s], &e);
        if (!a) {
            snprintf(err, errsize, "%s", e.msg);
            return -1;
        }
        snprintf(run->agent[s], sizeof run->agent[s], "%s", tiers_agent_spec(a));
        tiers_agent_free(a);
        const char *name = tiers_variant_side_name(v, s);
        if (name && name[0])
            snprintf(run->side[s], sizeof run->side[s], "%s", name);
        else
            snprintf(run->side[s], sizeof run->side[s], "side %d", s);
    }
    run->seed = cfg->seed;
    run->max_plies = cfg->max_plies;
    run->neffects = tiers_variant_effects(v);
    if (run->neffects > GAME_MAX_EFFECTS)
        run->neffects = GAME_MAX_EFFECTS;
    for (int i = 0; i < run->neffects; i++)
        snprintf(run->effect[i], sizeof run->effect[i], "%s", tiers_variant_effect_name(v, i));
    run->nfaces = tiers_variant_face_count(v);
    if (run->nfaces > GAME_MAX_FACES)
        run->nfaces = GAME_MAX_FACES;
    for (int i = 0; i < run->nfaces; i++)
        snprintf(run->face[i], sizeof run->face[i], "%s", tiers_variant_face_name(v, i));
    db_run_key(run);
    return 0;
}

static void run_bar(const struct run_options *o, int64_t done, int64_t total, double secs,
                    int final)
{
    enum { WIDTH = 24 };
    char bar[WIDTH + 1];
    int fill = total > 0 ? (int)(WIDTH * done / total) : WIDTH;
    for (int i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = '\0';
    double rate = secs > 0 ? (double)done / secs : 0;
    fprintf(stderr, "\r%s [%s] %lld/%lld games  %.1f games/s", o->label ? o->label : "", bar,
            (long long)done, (long long)total, rate);
    if (!final && rate > 0 && done < total) {
        long eta = (long)((double)(total - done) / rate + 0.5);
        fprintf(stderr, "  ETA %ld:%02ld:%02ld ", eta / 3600, eta / 60 % 60, eta % 60);
    } else {
        fputs("                ", stderr);
    }
    if (final)
        fputc('\n', stderr);
    fflush(stderr);
}

/* The writer: stores what the workers hand over, until they are all done.
 * Runs in the calling thread with sh->lock held on entry and exit. */
static void run_write(db *d, struct run_shared *sh, const struct run_options *o,
                      struct run_result *r, double t0)
{
    struct game_record *batch = malloc((size_t)sh->qcap * sizeof *batch);
    double last_bar = 0;
    if (!batch)
        run_fail_locked(sh, TIERS_ENOMEM, "out of memory");
    while (sh->running || sh->qlen) {
        if (o->progress && run_now() - last_bar > 0.2) {
            int64_t done = r->found + r->played;
            pthread_mutex_unlock(&sh->lock);
            run_bar(o, done, r->wanted, run_now() - t0, 0);
            pthread_mutex_lock(&sh->lock);
            last_bar = run_now();
        }
        if (!sh->qlen || !batch) {
            if (!sh->running)
                break;
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 200 * 1000 * 1000;
            if (until.tv_nsec >= 1000000000L) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&sh->wake, &sh->lock, &until);
            continue;
        }
        int n = sh->qlen;
        memcpy(batch, sh->queue, (size_t)n * sizeof *batch);
        sh->qlen = 0;
        pthread_cond_broadcast(&sh->space);
        int failed = sh->failed;
        pthread_mutex_unlock(&sh->lock);

        char err[512];
        int ok = !failed && db_begin(d, err, sizeof err) == 0;
        if (ok) {
            for (int k = 0; k < n && ok; k++)
                ok = db_add_game(d, sh->run, &batch[k], err, sizeof err) == 0;
            ok = db_commit(d, ok, err, sizeof err) == 0;
        }
        for (int k = 0; k < n; k++) {
            free(batch[k].moves);
            free(batch[k].legal);
        }
        pthread_mutex_lock(&sh->lock);
        if (ok)
            r->played += n;
        else if (!failed)
            run_fail_locked(sh, -1, err);
    }
    free(batch);
}

int run_games(db *d, const struct game_config *cfg, const struct db_run *run,
              const struct run_options *o, struct run_result *r, char *err, size_t errsize)
{
    memset(r, 0, sizeof *r);
    if (db_put_run(d, run, err, errsize) != 0)
        return -1;
    uint8_t *done = calloc((size_t)o->games + 1, 1);
    int64_t *todo = malloc(((size_t)o->games / (size_t)o->shard_n + 2) * sizeof *todo);
    if (!done || !todo) {
        free(done);
        free(todo);
        snprintf(err, errsize, "out of memory");
        return TIERS_ENOMEM;
    }
    int64_t found = db_done(d, run->key, o->games, done, err, errsize);
    if (found < 0) {
        free(done);
        free(todo);
        return found == DB_BAD ? TIERS_EINPUT : -1;
    }
    int64_t ntodo = 0;
    for (int64_t i = o->shard_k - 1; i < o->games; i += o->shard_n) {
        r->wanted++;
        if (done[i])
            r->found++;
        else
            todo[ntodo++] = i;
    }
    free(done);

    int threads = o->threads < 1 ? 1 : o->threads;
    if (threads > ntodo)
        threads = (int)ntodo;
    struct run_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.cfg = cfg;
    sh.run = run;
    sh.failed_dir = o->failed_dir;
    sh.todo = todo;
    sh.ntodo = ntodo;
    sh.qcap = RUN_QUEUE_PER_THREAD * (threads > 0 ? threads : 1);
    sh.queue = malloc((size_t)sh.qcap * sizeof *sh.queue);
    if (!sh.queue) {
        free(todo);
        snprintf(err, errsize, "out of memory");
        return TIERS_ENOMEM;
    }
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.wake, NULL);
    pthread_cond_init(&sh.space, NULL);
    pthread_t tid[RUN_MAX_THREADS];
    double t0 = run_now();
    int started = 0;
    pthread_mutex_lock(&sh.lock);
    for (; started < threads; started++) {
        sh.running++;
        if (pthread_create(&tid[started], NULL, run_worker, &sh) != 0) {
            sh.running--;
            run_fail_locked(&sh, -1, "cannot start a thread");
            break;
        }
    }
    r->threads = started;
    run_write(d, &sh, o, r, t0);
    pthread_mutex_unlock(&sh.lock);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    r->seconds = run_now() - t0;
    if (o->progress)
        run_bar(o, r->found + r->played, r->wanted, r->seconds, 1);
    for (int k = 0; k < sh.qlen; k++) { /* left over after a failure */
        free(sh.queue[k].moves);
        free(sh.queue[k].legal);
    }
    free(sh.queue);
    pthread_cond_destroy(&sh.space);
    pthread_cond_destroy(&sh.wake);
    pthread_mutex_destroy(&sh.lock);
    free(todo);
    if (sh.failed) {
        snprintf(err, errsize, "%s", sh.err);
        return sh.failed;
    }
    return 0;
}
