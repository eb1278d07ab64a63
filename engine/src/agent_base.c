/* agent_base.c - what every agent shares (agent_base.h): the random
 * numbers, the clock of the time budgets, the evaluation call, the
 * repetition test and greedy's choice (also the greedy rollout's). */
#include "agent_base.h"

#include <limits.h>
#include <stdlib.h>
#include <time.h>

#include "eval.h"
#include "movegen.h"
#include "rng.h"

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

double agent_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Material balance for `side`, plus the variant's evaluate hooks. */
int agent_eval(const tiers_pos *p, int side)
{
    return eval_score((tiers_pos *)p, side);
}

/* Whether the position occurred before in the game or on the search path
 * since the last irreversible move: the search scores a return as a draw,
 * so that a side ahead does not shuffle. */
int agent_repeated(const tiers_pos *p)
{
    int stop = p->depth - p->st.clock;
    if (stop < 0)
        stop = 0;
    for (int i = p->depth - 2; i >= stop; i--)
        if (p->undo[i].st.hash == p->st.hash)
            return 1;
    return 0;
}

/* Greedy's tie-break among moves of equal material, 0..31, made at p by
 * the side `me`, whose material balance after it is `score` (`check`:
 * whether the opponent is in check, or -1 when not yet asked).  A move
 * that repeats a position since the last irreversible move ranks last
 * while the game still moves (a side ahead, or level, does not shuffle);
 * once AGENT_STALE_PLIES quiet plies have passed, or when the mover has
 * nothing of value left, a side not ahead ranks a repetition first (a
 * draw it can reach: two lone royals otherwise wander until the cut) and
 * a side ahead no longer avoids one.  Else a
 * check ranks higher, then nearness of the moved piece to the enemy's
 * lone royal (so an equal game moves toward an end). */
static int agent_progress(tiers_pos *p, const tiers_move *m, int me, int score, int check)
{
    if (agent_repeated(p)) {
        /* stale: the quiet plies ran out, or the mover has nothing of
           value left (a lone royal makes no material progress) */
        int stale = p->st.clock >= AGENT_STALE_PLIES || eval_material(p, me) == 0;
        if (!stale)
            return 0;
        if (score <= 0)
            return 31;
    }
    int key = 8;
    if (check < 0)
        check = tiers_pos_in_check(p, me ^ 1);
    if (check)
        key += 8;
    int sq = p->st.royal_sq[me ^ 1];
    if (p->st.royal_n[me ^ 1] == 1 && sq != TIERS_NO_SQUARE && m->to != TIERS_NO_SQUARE) {
        int df = abs((sq & 15) - (m->to & 15)), dr = abs((sq >> 4) - (m->to >> 4));
        int d = df > dr ? df : dr;
        key += d < 8 ? 8 - d : 0;
    }
    return key;
}

/* Whether the side to move at p (in check, the game not over by the
 * rules decided without generation) has no legal move.  Where legality
 * is strict, making a pseudo-legal move and testing it decides exactly,
 * so the first legal reply ends the test: the royal's own moves are tried
 * first (a step out of check is the likeliest escape), then the rest.  A
 * pseudo-legal variant needs the legal list (there no move escaping check
 * ends the game). */
static int agent_no_reply(tiers_pos *p, tiers_move *scratch)
{
    if (p->v->legality != LEGAL_STRICT) {
        int m = tiers_pos_legal_moves(p, scratch, TIERS_MAX_MOVES);
        return m < 0 ? m : m == 0;
    }
    int n = movegen_pseudo(p, scratch, TIERS_MAX_MOVES);
    if (n < 0)
        return n;
    int royal = p->st.royal_sq[p->st.side];
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            int from_royal = scratch[i].kind != TIERS_MV_DROP && scratch[i].from == royal;
            if (from_royal != (pass == 0))
                continue;
            int rc = movegen_make_checked(p, &scratch[i]);
            if (rc == 0) {
                tiers_pos_unmake(p);
                return 0;
            }
            if (rc != TIERS_EILLEGAL)
                return rc;
        }
    return 1;
}

/* Greedy choice among buf[0..n-1] for the side to move: the best material
 * after the move, ties broken at random.  With `mate`, a move that ends
 * the game scores as a win, loss or draw: the ends decided without move
 * generation, and checkmate (the replies are looked at only when the
 * move gives check).  The material is counted once and updated by each
 * move's change (eval_balance_delta); where legality is strict a legal
 * move never leaves the mover in check, so that is not tested.
 * `scratch` holds a move list. */
int agent_greedy_pick(tiers_pos *p, tiers_move *buf, int n,
                             tiers_move *scratch, int mate, int progress, uint64_t *rng,
                             int *pick)
{
    int me = tiers_pos_side_to_move(p);
    int balance = eval_material(p, 0) - eval_material(p, 1);
    int strict = p->v->legality == LEGAL_STRICT;
    long long best = LLONG_MIN;
    int ties = 0;
    *pick = 0;
    for (int i = 0; i < n; i++) {
        int rc = tiers_pos_make_unchecked(p, &buf[i], NULL);
        if (rc < 0)
            return rc;
        int score = eval_score_balance(p, me, balance + eval_balance_delta(p));
        int check = -1; /* whether the opponent is in check, -1 = not asked */
        if (mate) {
            tiers_result res;
            int over = tiers_pos_ended(p, &res);
            int stm = tiers_pos_side_to_move(p);
            if (!over) {
                int c = tiers_pos_in_check(p, stm);
                if (stm != me)
                    check = c;
                if (c) {
                    over = agent_no_reply(p, scratch);
                    if (over < 0) {
                        tiers_pos_unmake(p);
                        return over;
                    }
                    if (over)
                        res = tiers_pos_status(p).result;
                }
            }
            if (over)
                score = res == TIERS_DRAW || res == TIERS_ONGOING ? 0
                        : (res == TIERS_WIN_0) == (me == 0) ? AB_WIN - 1 : -(AB_WIN - 1);
        }
        /* where a royal may be left attacked, leaving it so loses */
        if (progress && !strict && score < AB_WIN - 1 && tiers_pos_in_check(p, me))
            score = -(AB_WIN - 2);
        long long key = (long long)score * 32 +
                        (progress ? agent_progress(p, &buf[i], me, score, check) : 0);
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
