/* status.c - game end and the public status. */
#include "status.h"

#include "hooks.h"
#include "movegen.h"
#include "position.h"

int status_repetitions(const tiers_pos *p)
{
    uint64_t key = p->st.rep_key;
    int n = 1;
    for (int i = p->depth - 1; i >= 0; i--) {
        const pos_state *st = &p->undo[i].st;
        if (st->setup_left && p->v->repetition_from == REPFROM_PLAY)
            break; /* counted from the first play position */
        n += st->rep_key == key;
    }
    return n;
}

static int has_material(const tiers_pos *p, int side)
{
    if (p->st.onboard[side])
        return 1;
    for (int s = 0; s < HAND_SLOTS; s++)
        if (p->hand[side][s])
            return 1;
    return 0;
}

/* Only the two royal pieces left, nothing in hand (and, for draw_apart,
 * not adjacent): neither side can win. */
static int bare_royals(const tiers_pos *p)
{
    const tiers_variant *v = p->v;
    const pos_state *st = &p->st;
    if (v->bare_royals == BARE_PLAY || st->onboard[0] != 1 || st->onboard[1] != 1 ||
        st->royal_n[0] != 1 || st->royal_n[1] != 1)
        return 0;
    for (int o = 0; o < 3; o++)
        for (int s = 0; s < HAND_SLOTS; s++)
            if (p->hand[o][s])
                return 0;
    if (v->bare_royals == BARE_DRAW)
        return 1;
    int a = st->royal_sq[0], b = st->royal_sq[1];
    int df = sq_file(a) - sq_file(b), dr = sq_rank(a) - sq_rank(b);
    return df * df > 1 || dr * dr > 1;
}

static int set(tiers_result *res, const char **reason, tiers_result r, const char *why)
{
    if (res)
        *res = r;
    if (reason)
        *reason = why;
    return 1;
}

static tiers_result win_for(int side) { return side == 0 ? TIERS_WIN_0 : TIERS_WIN_1; }

/* A repeated position is a draw, or ends the game without a result: the
 * game is to be replayed. */
static int repetition_end(const tiers_variant *v, tiers_result *res, const char **reason)
{
    if (v->repetition_result == REPRES_REPLAY)
        return set(res, reason, TIERS_ONGOING, "repetition-replay");
    return set(res, reason, TIERS_DRAW, "repetition");
}

int status_terminal(tiers_pos *p, tiers_result *res, const char **reason)
{
    const tiers_variant *v = p->v;
    if (p->st.winner_flag)
        return set(res, reason, win_for(p->st.winner_flag - 1),
                   p->st.win_by_exit ? "exit" : "royal captured");
    if (v->hooks & HOOK_RESULT) {
        tiers_status st = {0};
        if (hooks_result(p, &st) > 0)
            return set(res, reason, st.result, st.reason);
    }
    if (p->st.setup_left)
        return 0;
    if (v->has_royal)
        for (int s = 0; s < 2; s++)
            if (!p->st.royal_n[s])
                return set(res, reason, win_for(s ^ 1), "royal captured");
    if (v->capture_all)
        for (int s = 0; s < 2; s++)
            if (!has_material(p, s))
                return set(res, reason, win_for(s ^ 1), "all captured");
    if (bare_royals(p))
        return set(res, reason, TIERS_DRAW, "insufficient material");
    if (v->halfmove_limit && p->st.clock > v->halfmove_limit)
        return set(res, reason, TIERS_DRAW, "move limit");
    if (v->max_plies && p->st.ply >= v->max_plies)
        return set(res, reason, TIERS_DRAW, "max plies");
    if (v->repetition && status_repetitions(p) >= v->repetition)
        return repetition_end(v, res, reason);
    return 0;
}

int tiers_pos_hook_ended(tiers_pos *p)
{
    tiers_status st = {0};
    if (p->st.winner_flag || !(p->v->hooks & HOOK_RESULT))
        return 0;
    int rc = hooks_result(p, &st); /* 1 + the effect whose hook answered */
    return rc > 0 ? rc : 0;
}

int status_legal(tiers_pos *p, tiers_move *buf, int cap)
{
    return status_terminal(p, NULL, NULL) ? 0 : movegen_legal(p, buf, cap);
}

int status_moves(tiers_pos *p, tiers_move *buf, int cap, tiers_status *out)
{
    tiers_status st = {.side_to_move = p->st.side, .setup = p->st.setup_left != 0,
                       .reason = ""};
    /* During a setup check matters only where it restricts placements
     * (strict legality); pseudo-legal variants evaluate none there. */
    if (!st.setup || p->v->legality == LEGAL_STRICT)
        st.in_check = movegen_in_check(p, p->st.side);
    if (status_terminal(p, &st.result, &st.reason)) {
        st.game_over = 1;
        *out = st;
        return 0;
    }
    int n = movegen_legal(p, buf, cap);
    if (n == 0) {
        const tiers_variant *v = p->v;
        st.game_over = 1;
        int loser = p->st.side;
        if (st.in_check) {
            st.result = win_for(loser ^ 1);
            st.reason = "checkmate";
        } else {
            st.result = v->stalemate == RES_DRAW ? TIERS_DRAW
                      : v->stalemate == RES_WIN ? win_for(loser) : win_for(loser ^ 1);
            st.reason = "stalemate";
        }
    }
    *out = st;
    return n;
}

tiers_status tiers_pos_status(tiers_pos *p)
{
    tiers_move buf[TIERS_MAX_MOVES];
    tiers_status st;
    status_moves(p, buf, TIERS_MAX_MOVES, &st);
    return st;
}

int tiers_pos_status_moves(tiers_pos *p, tiers_move *buf, int cap, tiers_status *st)
{
    return status_moves(p, buf, cap, st);
}
