/* agent.c - agents that choose a move: random, greedy, alphabeta, mcts.
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
 * order they are played in.  The one exception is alphabeta's `time=`
 * budget, which depends on the machine's speed. */
#include "agent.h"

#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eval.h"
#include "movegen.h"
#include "rng.h"

enum agent_kind { AGENT_RANDOM, AGENT_GREEDY, AGENT_ALPHABETA, AGENT_MCTS };
enum { ROLLOUT_RANDOM, ROLLOUT_GREEDY, ROLLOUT_CAPTURE };

/* Scores: material differences stay far below AB_WIN; a win found `ply`
 * plies from the root scores AB_WIN - ply, so a shorter win is better. */
enum { AB_WIN = 1000000, AB_INF = 2000000, AB_MATE_ZONE = AB_WIN - 1000 };
enum { TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

/* Transposition-table entry, keyed on tiers_pos_hash. */
typedef struct agent_tt {
    uint64_t key;
    uint32_t gen;      /* the choice that wrote it (older = empty) */
    int32_t score;     /* mate scores relative to this node */
    uint8_t depth, flag, has_move, pad;
    tiers_move move;
} agent_tt;

/* A node of the UCT tree.  Children are added one per visit, in an order
 * drawn when the node's moves are first generated (offset + k * stride
 * modulo the count, stride coprime with it). */
typedef struct agent_node {
    tiers_move move;       /* the move leading here */
    int32_t child, sibling;/* first child, next sibling; -1 = none */
    int32_t nmoves;        /* legal moves here; -1 = not generated yet */
    int32_t nchildren;
    uint32_t offset, stride;
    uint32_t visits;
    float reward;          /* summed reward of `mover` */
    float terminal_reward; /* for side 0, when terminal */
    uint8_t mover;         /* side that made `move` */
    uint8_t terminal;
} agent_node;

struct tiers_agent {
    enum agent_kind kind;
    char spec[AGENT_SPEC_MAX];
    /* parameters */
    int depth;             /* alphabeta: deepest iteration */
    int64_t nodes;         /* alphabeta: node budget, 0 = none */
    int time_ms;           /* alphabeta, mcts: time budget, 0 = none */
    int tt_bits;
    int vary;              /* alphabeta: choice margin, hundredths */
    int contempt;          /* alphabeta: a draw's cost, hundredths */
    int setup_search;      /* search during setup (else random placements) */
    int mate;              /* greedy: a move that ends the game in the
                              mover's favour is best */
    int progress;          /* greedy: ties go to progress (agent_progress) */
    int iterations;        /* mcts */
    int rollout;           /* mcts: ROLLOUT_* */
    int rollout_plies;     /* mcts: rollout length, 0 = to the end */
    double explore;        /* mcts: UCT constant */
    /* buffers */
    tiers_move *moves;     /* move stack */
    int move_slots;        /* in units of TIERS_MAX_MOVES */
    agent_tt *tt;
    uint32_t tt_gen;
    int32_t *scores;       /* alphabeta: order keys beside `moves` */
    int32_t *root_scores;  /* alphabeta: root scores, last whole
                              iteration's, candidates */
    int32_t *hist;         /* alphabeta: history, by from << 8 | to */
    tiers_move killer[AGENT_AB_MAX_PLY][2];
    int root_side, royal;
    agent_node *pool;
    int32_t *path;         /* mcts: nodes from the root to a leaf */
    int pool_cap, pool_used;
    /* search state */
    int64_t searched;
    int abort, error;
    double deadline;
    atomic_int stop;       /* tiers_agent_stop: set from another thread */
};

/* ------------------------------------------------------------- random */

uint64_t agent_rng_next(uint64_t *state)
{
    if (!*state)
        *state = 0x9e3779b97f4a7c15ull;
    return rng_next(state);
}

uint32_t agent_rng_below(uint64_t *state, uint32_t n)
{
    return n <= 1 ? 0 : (uint32_t)((agent_rng_next(state) >> 11) % n);
}

static double agent_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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


/* ---------------------------------------------------------- shared */

/* Material balance for `side`, plus the variant's evaluate hooks. */
static int agent_eval(const tiers_pos *p, int side)
{
    return eval_score((tiers_pos *)p, side);
}

static int agent_random(tiers_pos *p, tiers_move *buf, uint64_t *rng,
                        tiers_move *out, tiers_stats *stats)
{
    int n = tiers_pos_legal_moves_stats(p, buf, TIERS_MAX_MOVES, stats);
    if (n > 0)
        *out = buf[agent_rng_below(rng, (uint32_t)n)];
    return n;
}

static int agent_repeated(const tiers_pos *p);

/* Greedy's tie-break among moves of equal material, 0..31, made at p by
 * the side `me`: a move that repeats a position since the last
 * irreversible move ranks last; a check ranks higher; then nearness of
 * the moved piece to the enemy's lone royal (so an equal game moves
 * toward an end instead of shuffling). */
static int agent_progress(tiers_pos *p, const tiers_move *m, int me)
{
    if (agent_repeated(p))
        return 0;
    int key = 8;
    if (tiers_pos_in_check(p, me ^ 1))
        key += 8;
    int sq = p->st.royal_sq[me ^ 1];
    if (p->st.royal_n[me ^ 1] == 1 && sq != TIERS_NO_SQUARE && m->to != TIERS_NO_SQUARE) {
        int df = abs((sq & 15) - (m->to & 15)), dr = abs((sq >> 4) - (m->to >> 4));
        int d = df > dr ? df : dr;
        key += d < 8 ? 8 - d : 0;
    }
    return key;
}

/* Greedy choice among buf[0..n-1] for the side to move: the best material
 * after the move, ties broken at random.  With `mate`, a move that ends
 * the game scores as a win, loss or draw: the ends decided without move
 * generation, and checkmate (the replies are generated only when the move
 * gives check).  `scratch` holds a move list. */
static int agent_greedy_pick(tiers_pos *p, tiers_move *buf, int n,
                             tiers_move *scratch, int mate, int progress, uint64_t *rng,
                             int *pick)
{
    int me = tiers_pos_side_to_move(p);
    long long best = LLONG_MIN;
    int ties = 0;
    *pick = 0;
    for (int i = 0; i < n; i++) {
        int rc = tiers_pos_make_unchecked(p, &buf[i], NULL);
        if (rc < 0)
            return rc;
        int score = agent_eval(p, me);
        if (mate) {
            tiers_result res;
            int over = tiers_pos_ended(p, &res);
            if (!over && tiers_pos_in_check(p, tiers_pos_side_to_move(p))) {
                int m = tiers_pos_legal_moves(p, scratch, TIERS_MAX_MOVES);
                if (m < 0) {
                    tiers_pos_unmake(p);
                    return m;
                }
                over = m == 0;
                if (over)
                    res = tiers_pos_status(p).result;
            }
            if (over)
                score = res == TIERS_DRAW || res == TIERS_ONGOING ? 0
                        : (res == TIERS_WIN_0) == (me == 0) ? AB_WIN - 1 : -(AB_WIN - 1);
        }
        /* where a royal may be left attacked, leaving it so loses */
        if (progress && score < AB_WIN - 1 && tiers_pos_in_check(p, me))
            score = -(AB_WIN - 2);
        long long key = (long long)score * 32 + (progress ? agent_progress(p, &buf[i], me) : 0);
        tiers_pos_unmake(p);
        if (key > best) {
            best = key;
            *pick = i;
            ties = 1;
        } else if (key == best && agent_rng_below(rng, (uint32_t)++ties) == 0) {
            *pick = i;
        }
    }
    return 0;
}

/* --------------------------------------------------------- alphabeta */

/* Search scores are in hundredths of a material point (AB_SCALE), so that
 * contempt and the `vary` margin can be smaller than the smallest value. */
enum { AB_SCALE = 100, AB_QMAX = AGENT_AB_QMAX, AB_HIST_MAX = 1 << 20 };

static agent_tt *agent_tt_slot(tiers_agent *a, uint64_t key)
{
    return &a->tt[key & (((uint64_t)1 << a->tt_bits) - 1)];
}

static int agent_tt_to(int score, int ply)
{
    return score >= AB_MATE_ZONE ? score + ply : score <= -AB_MATE_ZONE ? score - ply : score;
}

static int agent_tt_from(int score, int ply)
{
    return score >= AB_MATE_ZONE ? score - ply : score <= -AB_MATE_ZONE ? score + ply : score;
}

static int agent_same_move(const tiers_move *x, const tiers_move *y)
{
    return memcmp(x, y, sizeof *x) == 0;
}

/* Moves quiescence follows: captures, strikes, and moves off the board
 * (an exit may win the game). */
static int agent_is_tactical(const tiers_move *m)
{
    return m->kind == TIERS_MV_CAPTURE || m->kind == TIERS_MV_STRIKE ||
           (m->flags & TIERS_MF_EXIT);
}

/* The side to move's material balance in search units, kept clear of the
 * mate scores whatever an evaluate hook returns. */
static int agent_ab_eval(tiers_pos *p, int side)
{
    long long s = (long long)eval_score(p, side) * AB_SCALE;
    long long lim = AB_MATE_ZONE - 2 * AB_QMAX - 1000;
    return (int)(s > lim ? lim : s < -lim ? -lim : s);
}

/* A draw from `side`'s view: contempt makes it a little worse than an
 * equal position for the side the search is for, so that side does not
 * seek repetitions. */
static int agent_draw_score(const tiers_agent *a, int side)
{
    return side == a->root_side ? -a->contempt : a->contempt;
}

static int agent_result_score(const tiers_agent *a, tiers_result r, int side, int ply)
{
    if (r != TIERS_WIN_0 && r != TIERS_WIN_1)
        return agent_draw_score(a, side);
    return (r == TIERS_WIN_0) == (side == 0) ? AB_WIN - ply : -(AB_WIN - ply);
}

/* Whether the position occurred before in the game or on the search path
 * since the last irreversible move: the search scores a return as a draw,
 * so that a side ahead does not shuffle. */
static int agent_repeated(const tiers_pos *p)
{
    int stop = p->depth - p->st.clock;
    if (stop < 0)
        stop = 0;
    for (int i = p->depth - 2; i >= stop; i--)
        if (p->undo[i].st.hash == p->st.hash)
            return 1;
    return 0;
}

/* Moves to search at p: the pseudo-legal list where making a move and
 * testing it (movegen_make_checked) decides its legality exactly (strict
 * legality, and every setup), else the legal list (pseudo-legal variants,
 * where a position with no move escaping check ends the game: that needs
 * the whole list). */
static int agent_gen(tiers_pos *p, tiers_move *buf, int *lazy)
{
    *lazy = p->v->legality == LEGAL_STRICT || p->st.setup_left;
    return *lazy ? movegen_pseudo(p, buf, TIERS_MAX_MOVES) : movegen_legal(p, buf, TIERS_MAX_MOVES);
}

static int agent_hist_key(const tiers_move *m)
{
    /* squares are 0..255 and TIERS_NO_SQUARE is 0xffff: the low byte
       keeps the key inside the 64 K table (a sentinel shares a slot with
       the last square, which only blurs a heuristic) */
    int from = m->kind == TIERS_MV_DROP ? m->piece : m->from;
    return (from & 0xff) << 8 | (m->to & 0xff);
}

/* Order keys: the table's move, then tactical moves by the value taken
 * (most valuable victim first), then the killers of this ply, then quiet
 * moves by their history. */
static void agent_score_moves(const tiers_agent *a, const tiers_pos *p, const tiers_move *buf,
                              int n, const tiers_move *ttmove, int ply, int32_t *score)
{
    const tiers_move *k = a->killer[ply < AGENT_AB_MAX_PLY ? ply : AGENT_AB_MAX_PLY - 1];
    for (int i = 0; i < n; i++) {
        const tiers_move *m = &buf[i];
        if (ttmove && agent_same_move(m, ttmove))
            score[i] = 1 << 30;
        else if (agent_is_tactical(m))
            score[i] = (1 << 29) + eval_victim(p, m) * 64 + 32;
        else if (agent_same_move(m, &k[0]))
            score[i] = (1 << 28) + 1;
        else if (agent_same_move(m, &k[1]))
            score[i] = 1 << 28;
        else
            score[i] = a->hist[agent_hist_key(m)];
    }
}

/* Brings the best-keyed move of buf[i..n) to i (ties: the earlier). */
static void agent_pick(tiers_move *buf, int32_t *score, int i, int n)
{
    int b = i;
    for (int j = i + 1; j < n; j++)
        if (score[j] > score[b])
            b = j;
    if (b != i) {
        tiers_move m = buf[b];
        int32_t s = score[b];
        memmove(&buf[i + 1], &buf[i], (size_t)(b - i) * sizeof *buf);
        memmove(&score[i + 1], &score[i], (size_t)(b - i) * sizeof *score);
        buf[i] = m;
        score[i] = s;
    }
}

static int agent_stopped(tiers_agent *a)
{
    return atomic_load_explicit(&a->stop, memory_order_relaxed);
}

void tiers_agent_stop(tiers_agent *a)
{
    atomic_store_explicit(&a->stop, 1, memory_order_relaxed);
}

static int agent_out_of_budget(tiers_agent *a)
{
    if (agent_stopped(a))
        return 1;
    if (a->nodes && a->searched >= a->nodes)
        return 1;
    if (a->time_ms && (a->searched & 255) == 0 && agent_now() > a->deadline)
        return 1;
    return 0;
}

/* One node: makes m, testing its legality when the list was pseudo-legal.
 * 0 = made, 1 = illegal (not made), or sets abort and returns -1. */
static int agent_ab_make(tiers_agent *a, tiers_pos *p, const tiers_move *m, int lazy)
{
    if (agent_out_of_budget(a)) {
        a->abort = 1;
        return -1;
    }
    a->searched++;
    int rc = lazy ? movegen_make_checked(p, m) : tiers_pos_make_unchecked(p, m, NULL);
    if (rc == TIERS_EILLEGAL)
        return 1;
    if (rc == TIERS_EFULL) { /* history full: this line ends here */
        a->abort = 1;
        return -1;
    }
    if (rc < 0) {
        a->error = rc;
        a->abort = 1;
        return -1;
    }
    return 0;
}

/* No legal move: the game's own verdict (checkmate, stalemate rule). */
static int agent_no_moves(tiers_agent *a, tiers_pos *p, int side, int ply)
{
    tiers_status st = tiers_pos_status(p);
    return agent_result_score(a, st.result, side, ply);
}

static int agent_ab_node(tiers_agent *a, tiers_pos *p, int depth, int alpha, int beta, int ply,
                         tiers_move *buf, int q);

/* The score for `me` after a move made at p: a move after which the same
 * side moves again keeps the sign. */
static int agent_child(tiers_agent *a, tiers_pos *p, int me, int depth, int alpha, int beta,
                       int ply, tiers_move *buf, int q)
{
    if (tiers_pos_side_to_move(p) == me)
        return agent_ab_node(a, p, depth, alpha, beta, ply, buf, q);
    return -agent_ab_node(a, p, depth, -beta, -alpha, ply, buf, q);
}

/* Quiescence: the standing balance, or better by tactical moves; in check
 * every move is tried (so a mate at the horizon is seen). */
static int agent_quiesce(tiers_agent *a, tiers_pos *p, int alpha, int beta, int ply,
                         tiers_move *buf, int q)
{
    int me = tiers_pos_side_to_move(p);
    int check = a->royal && !p->st.setup_left && tiers_pos_in_check(p, me);
    int best = -AB_INF;
    if (!check || q >= AB_QMAX) {
        best = agent_ab_eval(p, me);
        if (best >= beta || q >= AB_QMAX)
            return best;
        if (best > alpha)
            alpha = best;
    }
    int lazy, n = agent_gen(p, buf, &lazy);
    if (n < 0) {
        a->error = n;
        a->abort = 1;
        return 0;
    }
    int32_t *score = a->scores + (buf - a->moves);
    int legal = 0;
    for (int i = 0; i < n; i++)
        score[i] = agent_is_tactical(&buf[i]) ? 1 + eval_victim(p, &buf[i]) : check ? 0 : -1;
    for (int i = 0; i < n; i++) {
        agent_pick(buf, score, i, n);
        if (score[i] < 0)
            break;
        int rc = agent_ab_make(a, p, &buf[i], lazy);
        if (rc < 0)
            return 0;
        if (rc)
            continue;
        legal++;
        int s = agent_child(a, p, me, 0, alpha, beta, ply + 1, buf + n, q + 1);
        tiers_pos_unmake(p);
        if (a->abort)
            return 0;
        if (s > best) {
            best = s;
            if (s > alpha)
                alpha = s;
            if (alpha >= beta)
                break;
        }
    }
    if (check && !legal)
        return agent_no_moves(a, p, me, ply);
    return best;
}

static void agent_ab_cutoff(tiers_agent *a, const tiers_move *m, int depth, int ply)
{
    if (agent_is_tactical(m))
        return;
    tiers_move *k = a->killer[ply < AGENT_AB_MAX_PLY ? ply : AGENT_AB_MAX_PLY - 1];
    if (!agent_same_move(m, &k[0])) {
        k[1] = k[0];
        k[0] = *m;
    }
    int32_t *h = &a->hist[agent_hist_key(m)];
    *h += depth * depth;
    if (*h > AB_HIST_MAX)
        for (int i = 0; i < 1 << 16; i++)
            a->hist[i] /= 2;
}

/* Negamax with alpha-beta at a node reached by a move (or the root):
 * game end, repetition, then quiescence at the horizon, else the moves in
 * order with the table's advice. */
static int agent_ab_node(tiers_agent *a, tiers_pos *p, int depth, int alpha, int beta, int ply,
                         tiers_move *buf, int q)
{
    int me = tiers_pos_side_to_move(p);
    tiers_result res;
    if (tiers_pos_ended(p, &res))
        return agent_result_score(a, res, me, ply);
    if (agent_repeated(p))
        return agent_draw_score(a, me);
    if (depth <= 0)
        return agent_quiesce(a, p, alpha, beta, ply, buf, q);

    uint64_t key = tiers_pos_hash(p);
    agent_tt *e = agent_tt_slot(a, key);
    tiers_move hint;
    const tiers_move *ttmove = NULL;
    if (e->gen == a->tt_gen && e->key == key) {
        if (e->has_move) {
            hint = e->move;
            ttmove = &hint;
        }
        if (e->depth >= depth) {
            int s = agent_tt_from(e->score, ply);
            if (e->flag == TT_EXACT || (e->flag == TT_LOWER && s >= beta) ||
                (e->flag == TT_UPPER && s <= alpha))
                return s;
        }
    }
    int lazy, n = agent_gen(p, buf, &lazy);
    if (n < 0) {
        a->error = n;
        a->abort = 1;
        return 0;
    }
    int32_t *score = a->scores + (buf - a->moves);
    agent_score_moves(a, p, buf, n, ttmove, ply, score);
    int alpha0 = alpha, best = -AB_INF, besti = -1;
    for (int i = 0; i < n; i++) {
        agent_pick(buf, score, i, n);
        int rc = agent_ab_make(a, p, &buf[i], lazy);
        if (rc < 0)
            return 0;
        if (rc)
            continue;
        int s = agent_child(a, p, me, depth - 1, alpha, beta, ply + 1, buf + n, q);
        tiers_pos_unmake(p);
        if (a->abort)
            return 0;
        if (s > best) {
            best = s;
            besti = i;
            if (s > alpha)
                alpha = s;
            if (alpha >= beta) {
                agent_ab_cutoff(a, &buf[i], depth, ply);
                break;
            }
        }
    }
    if (besti < 0)
        return agent_no_moves(a, p, me, ply);
    e = agent_tt_slot(a, key);
    e->key = key;
    e->gen = a->tt_gen;
    e->depth = (uint8_t)depth;
    e->score = agent_tt_to(best, ply);
    e->flag = best <= alpha0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
    e->has_move = 1;
    e->move = buf[besti];
    return best;
}

/* Sorts the root moves by the last iteration's scores, best first
 * (stable: equal moves keep the random order drawn at the start). */
static void agent_root_sort(tiers_move *moves, int32_t *score, int n)
{
    for (int i = 1; i < n; i++) {
        tiers_move m = moves[i];
        int32_t s = score[i];
        int j = i;
        for (; j > 0 && score[j - 1] < s; j--) {
            moves[j] = moves[j - 1];
            score[j] = score[j - 1];
        }
        moves[j] = m;
        score[j] = s;
    }
}

/* Iterative deepening at the root over moves[0..n-1] (legal, shuffled).
 * Each move after the first is searched with the window lowered by the
 * `vary` margin, so every move within the margin of the best gets an exact
 * score; the choice is drawn at random among them.  An iteration cut by
 * the budget counts only when it found a better move than the last. */
static int agent_alphabeta(tiers_agent *a, tiers_pos *p, tiers_move *moves, int n,
                           uint64_t *rng, tiers_move *out)
{
    int me = tiers_pos_side_to_move(p);
    tiers_move *below = moves + n;
    int32_t *root = a->root_scores, *done = a->root_scores + TIERS_MAX_MOVES;
    a->tt_gen++;
    a->abort = 0;
    a->error = 0;
    a->root_side = me;
    /* check evasions in quiescence where check must be answered; where a
       royal may be left attacked its capture is a capture like others */
    a->royal = p->v->has_royal && p->v->legality == LEGAL_STRICT;
    memset(a->killer, 0, sizeof a->killer);
    memset(a->hist, 0, (size_t)(1 << 16) * sizeof *a->hist);
    if (a->time_ms)
        a->deadline = agent_now() + a->time_ms / 1000.0;
    /* the first iteration tries captures first, the most valuable first */
    for (int i = 0; i < n; i++)
        done[i] = agent_is_tactical(&moves[i]) ? 1 + eval_victim(p, &moves[i]) : 0;
    agent_root_sort(moves, done, n);
    int have = 0, best_done = -AB_INF, cut = 0, cut_best = -AB_INF;
    for (int depth = 1; depth <= a->depth; depth++) {
        int best = -AB_INF;
        for (cut = 0; cut < n; cut++) {
            int lo = best == -AB_INF ? -AB_INF : best - a->vary - 1;
            if (agent_ab_make(a, p, &moves[cut], 0) < 0)
                break;
            int s = agent_child(a, p, me, depth - 1, lo, AB_INF, 1, below, 0);
            tiers_pos_unmake(p);
            if (a->abort)
                break;
            root[cut] = s;
            if (s > best)
                best = s;
        }
        if (a->error)
            return a->error;
        if (a->abort) {
            cut_best = best;
            break;
        }
        memcpy(done, root, (size_t)n * sizeof *done);
        agent_root_sort(moves, done, n);
        have = 1;
        best_done = best;
        if (best >= AB_MATE_ZONE || best <= -AB_MATE_ZONE)
            break;
    }
    /* candidates: the moves within the margin of the best, of the cut
       iteration when it found better, else of the last whole one */
    int k = 0;
    const int32_t *sc = done;
    int top = best_done, len = have ? n : 0;
    if (a->abort && cut > 0 && (!have || cut_best > best_done)) {
        sc = root;
        top = cut_best;
        len = cut;
    }
    int32_t *cand = a->root_scores + 2 * TIERS_MAX_MOVES;
    for (int i = 0; i < len; i++)
        if (sc[i] >= top - a->vary)
            cand[k++] = i;
    *out = k ? moves[cand[agent_rng_below(rng, (uint32_t)k)]] : moves[0];
    return n;
}

/* --------------------------------------------------------------- mcts */

static uint32_t agent_gcd(uint32_t x, uint32_t y)
{
    while (y) {
        uint32_t t = x % y;
        x = y;
        y = t;
    }
    return x;
}

/* Fills in what generating node's moves tells: the count, a visiting
 * order, and the result when the game is over there. */
static void agent_node_moves(tiers_pos *p, agent_node *nd, int n, uint64_t *rng)
{
    nd->nmoves = n;
    nd->offset = n > 1 ? agent_rng_below(rng, (uint32_t)n) : 0;
    nd->stride = 1;
    if (n > 2) {
        uint32_t s = 1 + agent_rng_below(rng, (uint32_t)n - 1);
        while (agent_gcd(s, (uint32_t)n) != 1)
            s = s % ((uint32_t)n - 1) + 1;
        nd->stride = s;
    }
    if (n == 0) {
        tiers_status st = tiers_pos_status(p);
        nd->terminal = 1;
        nd->terminal_reward = st.result == TIERS_WIN_0 ? 1.0f
                            : st.result == TIERS_WIN_1 ? 0.0f : 0.5f;
    }
}

/* Reward for side 0 of a rollout cut before the end: 0.5 moved toward 1
 * or 0 by the material balance relative to the material on the board, but
 * never as far as a won or lost game, so a real win is worth more than
 * any material lead. */
static float agent_material_reward(const tiers_pos *p)
{
    int m0 = eval_material(p, 0), m1 = eval_material(p, 1);
    int total = m0 + m1 > 0 ? m0 + m1 : 1;
    return (float)(0.5 + 0.35 * tanh(4.0 * agent_eval(p, 0) / total));
}

/* Tries candidates of the pseudo-legal list in random order, captures
 * and strikes first, and makes the first legal one: 1 made, 0 none (or
 * history full), or an error.  As movegen_random, a pseudo-legal variant
 * with no move escaping check has none. */
static int agent_capture_first(tiers_pos *p, uint64_t *rng, tiers_move *buf)
{
    if (p->depth >= p->cap)
        return 0;
    int n = movegen_pseudo(p, buf, TIERS_MAX_MOVES);
    if (n <= 0)
        return n;
    if (p->v->legality == LEGAL_PSEUDO && !p->st.setup_left && !movegen_escape_in(p, buf, n))
        return 0;
    int caps = 0;
    for (int i = 0; i < n; i++)
        if (buf[i].kind == TIERS_MV_CAPTURE || buf[i].kind == TIERS_MV_STRIKE) {
            tiers_move m = buf[i];
            buf[i] = buf[caps];
            buf[caps++] = m;
        }
    for (int k = 0; k < n; k++) {
        int end = k < caps ? caps : n; /* draw among the captures left first */
        int j = k + (int)agent_rng_below(rng, (uint32_t)(end - k));
        tiers_move m = buf[j];
        buf[j] = buf[k];
        buf[k] = m;
        int rc = movegen_make_checked(p, &m);
        if (rc == 0)
            return 1;
        if (rc != TIERS_EILLEGAL)
            return rc;
    }
    return 0;
}

/* Plays a rollout from p and returns the reward for side 0: 1, 0 or 0.5
 * for a finished game, agent_material_reward when it is cut after
 * `plies`.  Undoes its moves. */
static int agent_rollout(tiers_agent *a, tiers_pos *p, uint64_t *rng,
                         agent_node *leaf, float *reward)
{
    tiers_move *buf = a->moves, *scratch = a->moves + TIERS_MAX_MOVES;
    int made = 0, rc = 0;
    *reward = -1.0f;
    for (;;) {
        if (a->rollout != ROLLOUT_GREEDY && !(made == 0 && leaf && leaf->nmoves < 0)) {
            /* a random rollout needs no legal list: the engine's random
               move tests candidates until one is legal */
            rc = (a->rollout_plies && made >= a->rollout_plies) || tiers_pos_ended(p, NULL) ? 0
                 : a->rollout == ROLLOUT_CAPTURE ? agent_capture_first(p, rng, buf)
                                                 : movegen_random(p, rng, buf);
            if (rc < 0)
                break;
            if (rc == 0) { /* over, cut or history full: a result if any */
                tiers_status st = tiers_pos_status(p);
                if (st.result != TIERS_ONGOING)
                    *reward = st.result == TIERS_WIN_0 ? 1.0f
                            : st.result == TIERS_WIN_1 ? 0.0f : 0.5f;
                break;
            }
            made++;
            continue;
        }
        int n = tiers_pos_legal_moves(p, buf, TIERS_MAX_MOVES);
        if (n < 0) {
            rc = n;
            break;
        }
        if (made == 0 && leaf && leaf->nmoves < 0) {
            agent_node_moves(p, leaf, n, rng);
            if (leaf->terminal) {
                *reward = leaf->terminal_reward;
                break;
            }
        }
        if (n == 0) {
            tiers_status st = tiers_pos_status(p);
            *reward = st.result == TIERS_WIN_0 ? 1.0f : st.result == TIERS_WIN_1 ? 0.0f : 0.5f;
            break;
        }
        if (a->rollout_plies && made >= a->rollout_plies)
            break;
        int pick = (int)agent_rng_below(rng, (uint32_t)n);
        if (a->rollout == ROLLOUT_GREEDY && !tiers_pos_in_setup(p)) {
            rc = agent_greedy_pick(p, buf, n, scratch, 0, 0, rng, &pick);
            if (rc < 0)
                break;
        }
        rc = tiers_pos_make_unchecked(p, &buf[pick], NULL);
        if (rc == TIERS_EFULL) { /* history full: judge from here */
            rc = 0;
            break;
        }
        if (rc < 0)
            break;
        made++;
    }
    if (rc == 0 && *reward < 0)
        *reward = agent_material_reward(p);
    while (made--)
        tiers_pos_unmake(p);
    return rc;
}

static int32_t agent_new_node(tiers_agent *a, const tiers_move *m, int mover)
{
    if (a->pool_used >= a->pool_cap)
        return -1;
    agent_node *nd = &a->pool[a->pool_used];
    memset(nd, 0, sizeof *nd);
    if (m)
        nd->move = *m;
    nd->child = nd->sibling = -1;
    nd->nmoves = -1;
    nd->mover = (uint8_t)mover;
    return a->pool_used++;
}

/* One UCT iteration from the root: select, expand one child, roll out,
 * back up, and return p to the root.  `path` holds the node indices. */
static int agent_mcts_iter(tiers_agent *a, tiers_pos *p, uint64_t *rng,
                           int32_t *path)
{
    int len = 0, rc = 0;
    int32_t cur = 0;
    float reward = 0.5f;
    path[len++] = 0;
    for (;;) {
        agent_node *nd = &a->pool[cur];
        int listed = 0; /* a->moves holds this node's moves */
        if (nd->nmoves < 0) {
            int n = tiers_pos_legal_moves(p, a->moves, TIERS_MAX_MOVES);
            if (n < 0) {
                rc = n;
                break;
            }
            agent_node_moves(p, nd, n, rng);
            listed = 1;
        }
        if (nd->terminal) {
            reward = nd->terminal_reward;
            break;
        }
        if (nd->nchildren < nd->nmoves) {
            /* expand the next child in this node's order */
            int n = listed ? nd->nmoves : tiers_pos_legal_moves(p, a->moves, TIERS_MAX_MOVES);
            if (n != nd->nmoves) {
                rc = n < 0 ? n : TIERS_EINPUT; /* the tree went out of step */
                break;
            }
            uint32_t k = (nd->offset + (uint32_t)nd->nchildren * nd->stride) % (uint32_t)n;
            tiers_move m = a->moves[k];
            int32_t c = agent_new_node(a, &m, tiers_pos_side_to_move(p));
            if (c < 0)
                break; /* pool full: back up a neutral result */
            nd = &a->pool[cur];
            a->pool[c].sibling = nd->child;
            nd->child = c;
            nd->nchildren++;
            rc = tiers_pos_make_unchecked(p, &m, NULL);
            if (rc < 0)
                break;
            path[len++] = c;
            rc = agent_rollout(a, p, rng, &a->pool[c], &reward);
            break;
        }
        /* select: UCT over the children */
        double lnv = log((double)(nd->visits ? nd->visits : 1));
        int32_t best = -1;
        double bestv = -1.0;
        for (int32_t c = nd->child; c >= 0; c = a->pool[c].sibling) {
            const agent_node *ch = &a->pool[c];
            double v = ch->visits ? ch->reward / ch->visits +
                                    a->explore * sqrt(lnv / ch->visits)
                                  : 1e9;
            if (v > bestv) {
                bestv = v;
                best = c;
            }
        }
        rc = tiers_pos_make_unchecked(p, &a->pool[best].move, NULL);
        if (rc < 0)
            break;
        path[len++] = best;
        cur = best;
    }
    for (int i = len - 1; i >= 0; i--) {
        agent_node *nd = &a->pool[path[i]];
        nd->visits++;
        nd->reward += nd->mover == 0 ? reward : 1.0f - reward;
    }
    for (int i = 1; i < len; i++)
        tiers_pos_unmake(p);
    return rc;
}

static int agent_mcts(tiers_agent *a, tiers_pos *p, uint64_t *rng, int n,
                      tiers_move *out)
{
    a->pool_used = 0;
    a->searched = 0;
    agent_new_node(a, NULL, tiers_pos_side_to_move(p) ^ 1); /* the root */
    agent_node_moves(p, &a->pool[0], n, rng);
    double deadline = a->time_ms ? agent_now() + a->time_ms / 1000.0 : 0;
    for (int it = 0; it < a->iterations; it++) {
        if (deadline && it > 0 && (it & 15) == 0 && agent_now() > deadline)
            break;
        if (it > 0 && agent_stopped(a))
            break;
        int rc = agent_mcts_iter(a, p, rng, a->path);
        if (rc < 0)
            return rc;
        a->searched++;
    }
    int32_t best = -1;
    for (int32_t c = a->pool[0].child; c >= 0; c = a->pool[c].sibling) {
        const agent_node *ch = &a->pool[c];
        if (best < 0 || ch->visits > a->pool[best].visits ||
            (ch->visits == a->pool[best].visits && ch->reward > a->pool[best].reward))
            best = c;
    }
    if (best < 0)
        return TIERS_EINPUT;
    *out = a->pool[best].move;
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
        return agent_alphabeta(a, p, buf, n, rng, out);
    case AGENT_MCTS:
        return agent_mcts(a, p, rng, n, out);
    default:
        return TIERS_EUSAGE;
    }
}
