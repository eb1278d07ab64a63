/* agent_mcts.c - the mcts agent: UCT with one child added per visit and
 * rollouts (random through movegen_random, capture-first, or greedy) cut
 * after a number of plies and judged by material. */
#include "agent_mcts.h"

#include <math.h>
#include <string.h>

#include "eval.h"
#include "movegen.h"

static uint32_t agent_mcts_gcd(uint32_t x, uint32_t y)
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
static void agent_mcts_node_moves(tiers_pos *p, agent_node *nd, int n, uint64_t *rng)
{
    nd->nmoves = n;
    nd->offset = n > 1 ? agent_rng_below(rng, (uint32_t)n) : 0;
    nd->stride = 1;
    if (n > 2) {
        uint32_t s = 1 + agent_rng_below(rng, (uint32_t)n - 1);
        while (agent_mcts_gcd(s, (uint32_t)n) != 1)
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
static float agent_mcts_material_reward(const tiers_pos *p)
{
    int m0 = eval_material(p, 0), m1 = eval_material(p, 1);
    int total = m0 + m1 > 0 ? m0 + m1 : 1;
    return (float)(0.5 + 0.35 * tanh(4.0 * agent_eval(p, 0) / total));
}

/* The capture-first rollout move: a legal capture or strike drawn at
 * random, else the engine's random move (movegen_random, which the
 * random rollout uses too): 1 made, 0 none (or history full), or an
 * error.  As movegen_random, a pseudo-legal variant with no move escaping
 * check has none. */
static int agent_mcts_capture_first(tiers_pos *p, uint64_t *rng, tiers_move *buf)
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
    for (int k = 0; k < caps; k++) {
        int j = k + (int)agent_rng_below(rng, (uint32_t)(caps - k));
        tiers_move m = buf[j];
        buf[j] = buf[k];
        buf[k] = m;
        int rc = movegen_make_checked(p, &m);
        if (rc != TIERS_EILLEGAL)
            return rc == 0 ? 1 : rc;
    }
    return movegen_random(p, rng, buf);
}

/* Plays a rollout from p and returns the reward for side 0: 1, 0 or 0.5
 * for a finished game, agent_mcts_material_reward when it is cut after
 * `plies`.  Undoes its moves. */
static int agent_mcts_rollout(tiers_agent *a, tiers_pos *p, uint64_t *rng,
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
                 : a->rollout == ROLLOUT_CAPTURE ? agent_mcts_capture_first(p, rng, buf)
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
            agent_mcts_node_moves(p, leaf, n, rng);
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
        *reward = agent_mcts_material_reward(p);
    while (made--)
        tiers_pos_unmake(p);
    return rc;
}

static int32_t agent_mcts_new_node(tiers_agent *a, const tiers_move *m, int mover)
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
            agent_mcts_node_moves(p, nd, n, rng);
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
            int32_t c = agent_mcts_new_node(a, &m, tiers_pos_side_to_move(p));
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
            rc = agent_mcts_rollout(a, p, rng, &a->pool[c], &reward);
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

int agent_mcts_choose(tiers_agent *a, tiers_pos *p, uint64_t *rng, int n,
                      tiers_move *out)
{
    a->pool_used = 0;
    a->searched = 0;
    agent_mcts_new_node(a, NULL, tiers_pos_side_to_move(p) ^ 1); /* the root */
    agent_mcts_node_moves(p, &a->pool[0], n, rng);
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
