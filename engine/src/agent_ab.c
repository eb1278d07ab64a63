/* agent_ab.c - the alphabeta agent: iterative deepening negamax with a
 * transposition table, move ordering (table move, captures by victim,
 * killers, history), quiescence over tactical moves, legality tested
 * lazily when a move is searched, and budgets by nodes or time. */
#include "agent_ab.h"

#include <assert.h>
#include <string.h>

#include "eval.h"
#include "movegen.h"

/* Search scores are in hundredths of a material point (AB_SCALE), so that
 * contempt and the `vary` margin can be smaller than the smallest value. */
enum { AB_SCALE = 100, AB_QMAX = AGENT_AB_QMAX, AB_HIST_MAX = 1 << 20 };

static agent_tt *agent_ab_tt_slot(tiers_agent *a, uint64_t key)
{
    return &a->tt[key & (((uint64_t)1 << a->tt_bits) - 1)];
}

static int agent_ab_tt_to(int score, int ply)
{
    return score >= AB_MATE_ZONE ? score + ply : score <= -AB_MATE_ZONE ? score - ply : score;
}

static int agent_ab_tt_from(int score, int ply)
{
    return score >= AB_MATE_ZONE ? score - ply : score <= -AB_MATE_ZONE ? score + ply : score;
}

static int agent_ab_same_move(const tiers_move *x, const tiers_move *y)
{
    return memcmp(x, y, sizeof *x) == 0;
}

/* Moves quiescence follows: captures, strikes, and moves off the board
 * (an exit may win the game). */
static int agent_ab_is_tactical(const tiers_move *m)
{
    return m->kind == TIERS_MV_CAPTURE || m->kind == TIERS_MV_STRIKE ||
           (m->flags & TIERS_MF_EXIT);
}

/* Side 0's material minus side 1's at p, kept move by move from the
 * root's (agent_ab_make adds each move's change). */
static int agent_ab_balance(const tiers_agent *a, const tiers_pos *p)
{
    int b = a->balance[p->depth - a->root_depth];
    /* debug builds check the incremental sum against a full count */
    assert(b == eval_material(p, 0) - eval_material(p, 1));
    return b;
}

/* The side to move's material balance in search units, kept clear of the
 * mate scores whatever an evaluate hook returns. */
static int agent_ab_eval(const tiers_agent *a, tiers_pos *p, int side)
{
    long long s = (long long)eval_score_balance(p, side, agent_ab_balance(a, p)) * AB_SCALE;
    long long lim = AB_MATE_ZONE - 2 * AB_QMAX - 1000;
    return (int)(s > lim ? lim : s < -lim ? -lim : s);
}

/* A draw from `side`'s view: root_draw for the side the search is for,
 * its negation for the other. */
static int agent_ab_draw_score(const tiers_agent *a, int side)
{
    return side == a->root_side ? a->root_draw : -a->root_draw;
}

/* A draw's score for the side to move at the root p.  While the game
 * still moves, contempt makes a draw a little worse than an equal
 * position, so that a level side does not seek repetitions (and a side
 * behind still prefers a draw to its loss).  Once AGENT_STALE_PLIES quiet
 * plies have passed, or when the mover has nothing of value left, a side
 * not ahead takes a draw as a little better than an equal position: it
 * repeats or lets the quiet-ply limit come instead of spending a capture
 * or a drop to avoid it (two level searches otherwise trade on until the
 * cut); a side ahead still avoids it.  Greedy's tie-break does the same
 * (agent_progress). */
static int agent_ab_root_draw(const tiers_agent *a, tiers_pos *p, int me)
{
    int stale = p->st.clock >= AGENT_STALE_PLIES || eval_material(p, me) == 0;
    if (stale && agent_ab_eval(a, p, me) <= 0)
        return a->contempt;
    return -a->contempt;
}

static int agent_ab_result_score(const tiers_agent *a, tiers_result r, int side, int ply)
{
    if (r != TIERS_WIN_0 && r != TIERS_WIN_1)
        return agent_ab_draw_score(a, side);
    return (r == TIERS_WIN_0) == (side == 0) ? AB_WIN - ply : -(AB_WIN - ply);
}

/* Moves to search at p: the pseudo-legal list where making a move and
 * testing it (movegen_make_checked) decides its legality exactly (strict
 * legality, and every setup), else the legal list (pseudo-legal variants,
 * where a position with no move escaping check ends the game: that needs
 * the whole list). */
static int agent_ab_gen(tiers_pos *p, tiers_move *buf, int *lazy)
{
    *lazy = p->v->legality == LEGAL_STRICT || p->st.setup_left;
    return *lazy ? movegen_pseudo(p, buf, TIERS_MAX_MOVES) : movegen_legal(p, buf, TIERS_MAX_MOVES);
}

static int agent_ab_hist_key(const tiers_move *m)
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
static void agent_ab_score_moves(const tiers_agent *a, const tiers_pos *p, const tiers_move *buf,
                              int n, const tiers_move *ttmove, int ply, int32_t *score)
{
    const tiers_move *k = a->killer[ply < AGENT_AB_MAX_PLY ? ply : AGENT_AB_MAX_PLY - 1];
    for (int i = 0; i < n; i++) {
        const tiers_move *m = &buf[i];
        if (ttmove && agent_ab_same_move(m, ttmove))
            score[i] = 1 << 30;
        else if (agent_ab_is_tactical(m))
            score[i] = (1 << 29) + eval_victim(p, m) * 64 + 32;
        else if (agent_ab_same_move(m, &k[0]))
            score[i] = (1 << 28) + 1;
        else if (agent_ab_same_move(m, &k[1]))
            score[i] = 1 << 28;
        else
            score[i] = a->hist[agent_ab_hist_key(m)];
    }
}

/* Brings the best-keyed move of buf[i..n) to i (ties: the earlier). */
static void agent_ab_pick(tiers_move *buf, int32_t *score, int i, int n)
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

static int agent_ab_out_of_budget(tiers_agent *a)
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
    if (agent_ab_out_of_budget(a)) {
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
    int k = p->depth - a->root_depth;
    if (k >= AGENT_AB_MAX_LINE) { /* deeper than any search goes: stop here */
        tiers_pos_unmake(p);
        a->abort = 1;
        return -1;
    }
    a->balance[k] = a->balance[k - 1] + eval_balance_delta(p);
    return 0;
}

/* No legal move: the game's own verdict (checkmate, stalemate rule). */
static int agent_ab_no_moves(tiers_agent *a, tiers_pos *p, int side, int ply)
{
    tiers_status st = tiers_pos_status(p);
    return agent_ab_result_score(a, st.result, side, ply);
}

static int agent_ab_node(tiers_agent *a, tiers_pos *p, int depth, int alpha, int beta, int ply,
                         tiers_move *buf, int q);

/* The score for `me` after a move made at p: a move after which the same
 * side moves again keeps the sign. */
static int agent_ab_child(tiers_agent *a, tiers_pos *p, int me, int depth, int alpha, int beta,
                       int ply, tiers_move *buf, int q)
{
    if (tiers_pos_side_to_move(p) == me)
        return agent_ab_node(a, p, depth, alpha, beta, ply, buf, q);
    return -agent_ab_node(a, p, depth, -beta, -alpha, ply, buf, q);
}

/* Quiescence: the standing balance, or better by tactical moves; in check
 * every move is tried (so a mate at the horizon is seen). */
static int agent_ab_quiesce(tiers_agent *a, tiers_pos *p, int alpha, int beta, int ply,
                         tiers_move *buf, int q)
{
    int me = tiers_pos_side_to_move(p);
    int check = a->royal && !p->st.setup_left && tiers_pos_in_check(p, me);
    int best = -AB_INF;
    if (!check || q >= AB_QMAX) {
        best = agent_ab_eval(a, p, me);
        if (best >= beta || q >= AB_QMAX)
            return best;
        if (best > alpha)
            alpha = best;
    }
    int lazy, n = agent_ab_gen(p, buf, &lazy);
    if (n < 0) {
        a->error = n;
        a->abort = 1;
        return 0;
    }
    int32_t *score = a->scores + (buf - a->moves);
    int legal = 0;
    for (int i = 0; i < n; i++)
        score[i] = agent_ab_is_tactical(&buf[i]) ? 1 + eval_victim(p, &buf[i]) : check ? 0 : -1;
    for (int i = 0; i < n; i++) {
        agent_ab_pick(buf, score, i, n);
        if (score[i] < 0)
            break;
        int rc = agent_ab_make(a, p, &buf[i], lazy);
        if (rc < 0)
            return 0;
        if (rc)
            continue;
        legal++;
        int s = agent_ab_child(a, p, me, 0, alpha, beta, ply + 1, buf + n, q + 1);
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
        return agent_ab_no_moves(a, p, me, ply);
    return best;
}

static void agent_ab_cutoff(tiers_agent *a, const tiers_move *m, int depth, int ply)
{
    if (agent_ab_is_tactical(m))
        return;
    tiers_move *k = a->killer[ply < AGENT_AB_MAX_PLY ? ply : AGENT_AB_MAX_PLY - 1];
    if (!agent_ab_same_move(m, &k[0])) {
        k[1] = k[0];
        k[0] = *m;
    }
    int32_t *h = &a->hist[agent_ab_hist_key(m)];
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
        return agent_ab_result_score(a, res, me, ply);
    if (agent_repeated(p))
        return agent_ab_draw_score(a, me);
    if (depth <= 0)
        return agent_ab_quiesce(a, p, alpha, beta, ply, buf, q);

    uint64_t key = tiers_pos_hash(p);
    agent_tt *e = agent_ab_tt_slot(a, key);
    tiers_move hint;
    const tiers_move *ttmove = NULL;
    if (e->gen == a->tt_gen && e->key == key) {
        if (e->has_move) {
            hint = e->move;
            ttmove = &hint;
        }
        if (e->depth >= depth) {
            int s = agent_ab_tt_from(e->score, ply);
            if (e->flag == TT_EXACT || (e->flag == TT_LOWER && s >= beta) ||
                (e->flag == TT_UPPER && s <= alpha))
                return s;
        }
    }
    int lazy, n = agent_ab_gen(p, buf, &lazy);
    if (n < 0) {
        a->error = n;
        a->abort = 1;
        return 0;
    }
    int32_t *score = a->scores + (buf - a->moves);
    agent_ab_score_moves(a, p, buf, n, ttmove, ply, score);
    int alpha0 = alpha, best = -AB_INF, besti = -1;
    for (int i = 0; i < n; i++) {
        agent_ab_pick(buf, score, i, n);
        int rc = agent_ab_make(a, p, &buf[i], lazy);
        if (rc < 0)
            return 0;
        if (rc)
            continue;
        int s = agent_ab_child(a, p, me, depth - 1, alpha, beta, ply + 1, buf + n, q);
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
        return agent_ab_no_moves(a, p, me, ply);
    e = agent_ab_tt_slot(a, key);
    e->key = key;
    e->gen = a->tt_gen;
    e->depth = (uint8_t)depth;
    e->score = agent_ab_tt_to(best, ply);
    e->flag = best <= alpha0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
    e->has_move = 1;
    e->move = buf[besti];
    return best;
}

/* Sorts the root moves by the last iteration's scores, best first
 * (stable: equal moves keep the random order drawn at the start). */
static void agent_ab_root_sort(tiers_move *moves, int32_t *score, int n)
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
int agent_ab_choose(tiers_agent *a, tiers_pos *p, tiers_move *moves, int n,
                           uint64_t *rng, tiers_move *out)
{
    int me = tiers_pos_side_to_move(p);
    tiers_move *below = moves + n;
    int32_t *root = a->root_scores, *done = a->root_scores + TIERS_MAX_MOVES;
    a->tt_gen++;
    a->abort = 0;
    a->error = 0;
    a->root_side = me;
    a->root_depth = p->depth;
    a->balance[0] = eval_material(p, 0) - eval_material(p, 1);
    a->root_draw = agent_ab_root_draw(a, p, me);
    /* check evasions in quiescence where check must be answered; where a
       royal may be left attacked its capture is a capture like others */
    a->royal = p->v->has_royal && p->v->legality == LEGAL_STRICT;
    memset(a->killer, 0, sizeof a->killer);
    memset(a->hist, 0, (size_t)(1 << 16) * sizeof *a->hist);
    if (a->time_ms)
        a->deadline = agent_now() + a->time_ms / 1000.0;
    /* the first iteration tries captures first, the most valuable first */
    for (int i = 0; i < n; i++)
        done[i] = agent_ab_is_tactical(&moves[i]) ? 1 + eval_victim(p, &moves[i]) : 0;
    agent_ab_root_sort(moves, done, n);
    int have = 0, best_done = -AB_INF, cut = 0, cut_best = -AB_INF;
    for (int depth = 1; depth <= a->depth; depth++) {
        int best = -AB_INF;
        for (cut = 0; cut < n; cut++) {
            int lo = best == -AB_INF ? -AB_INF : best - a->vary - 1;
            if (agent_ab_make(a, p, &moves[cut], 0) < 0)
                break;
            int s = agent_ab_child(a, p, me, depth - 1, lo, AB_INF, 1, below, 0);
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
        agent_ab_root_sort(moves, done, n);
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
