/* agent.c - agents that choose a move: the spec parser, random and
 * greedy, and the entry point that hands a choice to alpha-beta
 * (agent_ab.c) or MCTS (agent_mcts.c).
 *
 * Built on the public API only (tiers_pos_legal_moves,
 * tiers_pos_make_unchecked on moves of those lists, tiers_pos_unmake,
 * tiers_pos_status) plus the material count of eval.c, so an
 * agent plays exactly the moves a client could list, in any variant.  All
 * memory (move stacks, transposition table, tree node pool) is allocated
 * by tiers_agent_new; choosing a move never allocates.
 *
 * A choice is a function of the position (with its history), the agent's
 * parameters and the caller's random state only: no state carries over
 * from one call to the next (the transposition table is invalidated by a
 * generation counter), so games replay identically whichever thread or
 * order they are played in.  The exception is the `time=` budget, which
 * depends on the machine's speed. */
#include "agent.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent_ab.h"
#include "agent_mcts.h"
#include "eval.h"
#include "movegen.h"
#include "rng.h"

/* ------------------------------------------------------------ parsing */

static void agent_fail(tiers_error *err, const char *spec, const char *fmt,
                       const char *what)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    char msg[512];
    snprintf(msg, sizeof msg, fmt, what);
    snprintf(err->msg, sizeof err->msg, "agent '%s': %s", spec, msg);
}

static int agent_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int agent_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

/* Sets one KEY=VALUE; returns 0, or -1 with err filled. */
static int agent_param(tiers_agent *a, const char *spec, const char *key,
                       const char *val, tiers_error *err)
{
    long n;
    double d;
    int bad = 0, unknown = 0;
    if (!strcmp(key, "setup") && a->kind != AGENT_RANDOM) {
        if (!strcmp(val, "random"))
            a->setup_search = 0;
        else if (!strcmp(val, "search"))
            a->setup_search = 1;
        else
            bad = 1;
    } else if (a->kind == AGENT_GREEDY) {
        if (!strcmp(key, "mate") || !strcmp(key, "progress")) {
            int *flag = !strcmp(key, "mate") ? &a->mate : &a->progress;
            if (!strcmp(val, "yes") || !strcmp(val, "1"))
                *flag = 1;
            else if (!strcmp(val, "no") || !strcmp(val, "0"))
                *flag = 0;
            else
                bad = 1;
        } else {
            unknown = 1;
        }
    } else if (a->kind == AGENT_ALPHABETA) {
        if (!strcmp(key, "depth")) {
            if (!(bad = agent_int(val, 1, AGENT_AB_MAX_DEPTH, &n)))
                a->depth = (int)n;
        } else if (!strcmp(key, "nodes")) {
            if (!(bad = agent_int(val, 0, 1000000000000L, &n)))
                a->nodes = n;
        } else if (!strcmp(key, "time")) {
            if (!(bad = agent_int(val, 0, 86400000L, &n)))
                a->time_ms = (int)n;
        } else if (!strcmp(key, "vary")) {
            if (!(bad = agent_int(val, 0, 100000, &n)))
                a->vary = (int)n;
        } else if (!strcmp(key, "contempt")) {
            if (!(bad = agent_int(val, 0, 100000, &n)))
                a->contempt = (int)n;
        } else if (!strcmp(key, "tt")) {
            if (!(bad = agent_int(val, AGENT_AB_TT_MIN_BITS, AGENT_AB_TT_MAX_BITS, &n)))
                a->tt_bits = (int)n;
        } else {
            unknown = 1;
        }
    } else if (a->kind == AGENT_MCTS) {
        if (!strcmp(key, "iterations")) {
            if (!(bad = agent_int(val, 1, AGENT_MCTS_MAX_ITERATIONS, &n)))
                a->iterations = (int)n;
        } else if (!strcmp(key, "rollout")) {
            if (!strcmp(val, "random"))
                a->rollout = ROLLOUT_RANDOM;
            else if (!strcmp(val, "greedy"))
                a->rollout = ROLLOUT_GREEDY;
            else if (!strcmp(val, "capture"))
                a->rollout = ROLLOUT_CAPTURE;
            else
                bad = 1;
        } else if (!strcmp(key, "time")) {
            if (!(bad = agent_int(val, 0, 86400000L, &n)))
                a->time_ms = (int)n;
        } else if (!strcmp(key, "plies")) {
            if (!(bad = agent_int(val, 0, 100000, &n)))
                a->rollout_plies = (int)n;
        } else if (!strcmp(key, "c")) {
            if (!(bad = agent_double(val, 0.0, 100.0, &d)))
                a->explore = d;
        } else {
            unknown = 1;
        }
    } else {
        unknown = 1;
    }
    if (unknown) {
        static const char *const known[] = {
            "none", "mate, progress, setup", "depth, nodes, time, tt, vary, contempt, setup",
            "iterations, time, rollout, plies, c, setup"};
        char what[160];
        snprintf(what, sizeof what, "unknown parameter '%s' (known: %s)", key,
                 known[a->kind]);
        agent_fail(err, spec, "%s", what);
        return -1;
    }
    if (bad) {
        char what[160];
        snprintf(what, sizeof what, "bad value '%s' for '%s'", val, key);
        agent_fail(err, spec, "%s", what);
        return -1;
    }
    return 0;
}

/* The first parameter may be a bare value: `mcts:2000` is
 * `mcts:iterations=2000`, `alphabeta:4` is `alphabeta:depth=4`. */
static const char *agent_bare_key(enum agent_kind kind)
{
    return kind == AGENT_ALPHABETA ? "depth" : kind == AGENT_MCTS ? "iterations" : NULL;
}

static void agent_canonical(tiers_agent *a)
{
    switch (a->kind) {
    case AGENT_RANDOM:
        snprintf(a->spec, sizeof a->spec, "random");
        break;
    case AGENT_GREEDY:
        /* progress is written when off (specs before it read the same) */
        snprintf(a->spec, sizeof a->spec, "greedy:mate=%s,%ssetup=%s", a->mate ? "yes" : "no",
                 a->progress ? "" : "progress=no,", a->setup_search ? "search" : "random");
        break;
    case AGENT_ALPHABETA: {
        int n = snprintf(a->spec, sizeof a->spec, "alphabeta:depth=%d,nodes=%lld,tt=%d,setup=%s",
                         a->depth, (long long)a->nodes, a->tt_bits,
                         a->setup_search ? "search" : "random");
        /* vary and contempt are written when not the default (specs
           recorded before they existed read the same) */
        if (a->vary != AGENT_AB_VARY && n > 0 && (size_t)n < sizeof a->spec)
            n += snprintf(a->spec + n, sizeof a->spec - (size_t)n, ",vary=%d", a->vary);
        if (a->contempt != AGENT_AB_CONTEMPT && n > 0 && (size_t)n < sizeof a->spec)
            n += snprintf(a->spec + n, sizeof a->spec - (size_t)n, ",contempt=%d", a->contempt);
        if (a->time_ms && n > 0 && (size_t)n < sizeof a->spec)
            snprintf(a->spec + n, sizeof a->spec - (size_t)n, ",time=%d", a->time_ms);
        break;
    }
    case AGENT_MCTS: {
        static const char *const rollouts[] = {"random", "greedy", "capture"};
        int n = snprintf(a->spec, sizeof a->spec,
                         "mcts:iterations=%d,rollout=%s,plies=%d,c=%g,setup=%s", a->iterations,
                         rollouts[a->rollout], a->rollout_plies, a->explore,
                         a->setup_search ? "search" : "random");
        if (a->time_ms && n > 0 && (size_t)n < sizeof a->spec)
            snprintf(a->spec + n, sizeof a->spec - (size_t)n, ",time=%d", a->time_ms);
        break;
    }
    }
}

static int agent_alloc(tiers_agent *a)
{
    switch (a->kind) {
    case AGENT_RANDOM:
        a->move_slots = 1;
        break;
    case AGENT_GREEDY:
    case AGENT_MCTS:
        a->move_slots = 2;
        break;
    case AGENT_ALPHABETA:
        a->move_slots = a->depth + AGENT_AB_QMAX + 3;
        break;
    }
    a->moves = malloc((size_t)a->move_slots * TIERS_MAX_MOVES * sizeof *a->moves);
    if (!a->moves)
        return -1;
    if (a->kind == AGENT_ALPHABETA) {
        a->tt = calloc((size_t)1 << a->tt_bits, sizeof *a->tt);
        a->scores = malloc((size_t)a->move_slots * TIERS_MAX_MOVES * sizeof *a->scores);
        a->root_scores = malloc(3 * TIERS_MAX_MOVES * sizeof *a->root_scores);
        a->hist = calloc((size_t)1 << 16, sizeof *a->hist);
        if (!a->tt || !a->scores || !a->root_scores || !a->hist)
            return -1;
    }
    if (a->kind == AGENT_MCTS) {
        a->pool_cap = a->iterations + 1;
        a->pool = malloc((size_t)a->pool_cap * sizeof *a->pool);
        a->path = malloc((size_t)(a->pool_cap + 1) * sizeof *a->path);
        if (!a->pool || !a->path)
            return -1;
    }
    return 0;
}

tiers_agent *tiers_agent_new(const char *spec, tiers_error *err)
{
    if (!spec)
        spec = "";
    char text[AGENT_SPEC_MAX * 2];
    if (strlen(spec) >= sizeof text) {
        agent_fail(err, "...", "%s", "spec too long");
        return NULL;
    }
    strcpy(text, spec);
    char *params = strchr(text, ':');
    if (params)
        *params++ = '\0';
    tiers_agent *a = calloc(1, sizeof *a);
    if (!a) {
        agent_fail(err, spec, "%s", "out of memory");
        return NULL;
    }
    if (!strcmp(text, "random"))
        a->kind = AGENT_RANDOM;
    else if (!strcmp(text, "greedy"))
        a->kind = AGENT_GREEDY;
    else if (!strcmp(text, "alphabeta") || !strcmp(text, "ab"))
        a->kind = AGENT_ALPHABETA;
    else if (!strcmp(text, "mcts"))
        a->kind = AGENT_MCTS;
    else {
        agent_fail(err, spec, "%s", "unknown agent (known: random, greedy, alphabeta, mcts)");
        free(a);
        return NULL;
    }
    a->mate = 1;
    a->progress = 1;
    a->depth = 3;
    a->nodes = 100000;
    a->tt_bits = 16;
    a->vary = AGENT_AB_VARY;
    a->contempt = AGENT_AB_CONTEMPT;
    a->iterations = 1000;
    a->rollout = ROLLOUT_RANDOM;
    a->rollout_plies = 20;
    a->explore = 1.4;

    int first = 1;
    for (char *tok = params; tok && *tok; first = 0) {
        char *next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        char *eq = strchr(tok, '=');
        const char *key = tok, *val;
        if (eq) {
            *eq = '\0';
            val = eq + 1;
        } else if (first && agent_bare_key(a->kind)) {
            key = agent_bare_key(a->kind);
            val = tok;
        } else {
            agent_fail(err, spec, "expected KEY=VALUE, not '%s'", tok);
            free(a);
            return NULL;
        }
        if (agent_param(a, spec, key, val, err) != 0) {
            free(a);
            return NULL;
        }
        tok = next;
        if (next && !*next) {
            agent_fail(err, spec, "%s", "empty parameter after ','");
            free(a);
            return NULL;
        }
    }
    if (params && !*params) {
        agent_fail(err, spec, "%s", "nothing after ':'");
        free(a);
        return NULL;
    }
    agent_canonical(a);
    if (agent_alloc(a) != 0) {
        tiers_agent_free(a);
        agent_fail(err, spec, "%s", "out of memory");
        return NULL;
    }
    return a;
}

void tiers_agent_free(tiers_agent *a)
{
    if (!a)
        return;
    free(a->moves);
    free(a->tt);
    free(a->scores);
    free(a->root_scores);
    free(a->hist);
    free(a->pool);
    free(a->path);
    free(a);
}

const char *tiers_agent_spec(const tiers_agent *a) { return a->spec; }

int64_t tiers_agent_work(const tiers_agent *a) { return a->searched; }

int tiers_agent_reproducible(const tiers_agent *a)
{
    return !((a->kind == AGENT_ALPHABETA || a->kind == AGENT_MCTS) && a->time_ms > 0);
}

static int agent_random(tiers_pos *p, tiers_move *buf, uint64_t *rng,
                        tiers_move *out, tiers_stats *stats)
{
    int n = tiers_pos_legal_moves_stats(p, buf, TIERS_MAX_MOVES, stats);
    if (n > 0)
        *out = buf[agent_rng_below(rng, (uint32_t)n)];
    return n;
}


/* ------------------------------------------------------------- choose */

int tiers_agent_choose(tiers_agent *a, tiers_pos *p, uint64_t *rng, tiers_move *out)
{
    return tiers_agent_choose_stats(a, p, rng, out, NULL);
}

/* The root list is p's own legal list: its vetoes go to stats. */
int tiers_agent_choose_stats(tiers_agent *a, tiers_pos *p, uint64_t *rng, tiers_move *out,
                             tiers_stats *stats)
{
    uint64_t zero = 0;
    if (!rng)
        rng = &zero;
    tiers_move *buf = a->moves;
    a->searched = 0;
    if (a->kind == AGENT_RANDOM ||
        (tiers_pos_in_setup(p) && !a->setup_search))
        return agent_random(p, buf, rng, out, stats);
    int n = tiers_pos_legal_moves_stats(p, buf, TIERS_MAX_MOVES, stats);
    if (n <= 1) {
        if (n == 1)
            *out = buf[0];
        return n;
    }
    switch (a->kind) {
    case AGENT_GREEDY: {
        int pick;
        int rc = agent_greedy_pick(p, buf, n, a->moves + TIERS_MAX_MOVES, a->mate,
                                   a->progress, rng, &pick);
        if (rc < 0)
            return rc;
        *out = buf[pick];
        return n;
    }
    case AGENT_ALPHABETA:
        /* a random order first: equal moves are then chosen at random */
        for (int i = n - 1; i > 0; i--) {
            int j = (int)agent_rng_below(rng, (uint32_t)i + 1);
            tiers_move m = buf[i];
            buf[i] = buf[j];
            buf[j] = m;
        }
        return agent_ab_choose(a, p, buf, n, rng, out);
    case AGENT_MCTS:
        return agent_mcts_choose(a, p, rng, n, out);
    default:
        return TIERS_EUSAGE;
    }
}

void tiers_agent_stop(tiers_agent *a)
{
    atomic_store_explicit(&a->stop, 1, memory_order_relaxed);
}
