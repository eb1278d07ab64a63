/* serve_game.c - the games behind `tiers serve`'s JSON API: sessions (a
 * variant loaded for each, so no two share Lua state), their moves, undo
 * and redo, pasted positions and records, and the state the page draws.
 * Every function here runs with the server's lock held. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gamerec.h"
#include "pieces.h"
#include "serve.h"
#include "serve_agent.h"
#include "serve_compare.h"
#include "svg.h"

int serve_fail(struct serve_reply *r, int status, const char *fmt, ...)
{
    char msg[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_decref(r->json);
    r->json = json_pack("{s:s}", "error", msg);
    r->status = status;
    return status;
}

static int serve_ok(struct serve_reply *r, int status, json_t *j)
{
    if (!j)
        return serve_fail(r, 500, "out of memory");
    json_decref(r->json);
    r->json = j;
    r->status = status;
    return status;
}

static const char *serve_notation(const struct serve *S)
{
    return S->c->notation ? S->c->notation : "tiers";
}

/* ------------------------------------------------------------ lookups */

const char *serve_field(json_t *in, const char *key)
{
    json_t *j = json_object_get(in, key);
    return json_is_string(j) ? json_string_value(j) : NULL;
}

struct serve_session *serve_find(struct serve *S, json_t *in,
                                        struct serve_reply *r)
{
    const char *id = serve_field(in, "session");
    if (!id) {
        serve_fail(r, 400, "no \"session\" given");
        return NULL;
    }
    for (int i = 0; i < SERVE_MAX_SESSIONS; i++) {
        struct serve_session *s = S->sessions[i];
        if (s && strcmp(s->id, id) == 0) {
            s->last_used = cli_now();
            return s;
        }
    }
    serve_fail(r, 404, "no session '%s' (closed, or dropped after %.0f s idle)",
               id, S->idle_seconds);
    return NULL;
}

/* The session, and refused (409) while an agent thinks for it. */
static struct serve_session *serve_find_idle(struct serve *S, json_t *in,
                                             struct serve_reply *r)
{
    struct serve_session *s = serve_find(S, in, r);
    if (s && s->job) {
        serve_fail(r, 409, "an agent is choosing a move: wait or cancel it");
        return NULL;
    }
    return s;
}

/* ------------------------------------------------------------ sessions */

static void serve_session_free(struct serve_session *s)
{
    if (!s)
        return;
    serve_agent_detach(s);
    serve_compare_detach(s);
    json_decref(s->reload);
    tiers_pos_free(s->p);
    tiers_variant_free(s->v);
    free(s->start);
    free(s->plies);
    free(s);
}

/* Sets the position back to the start, then makes the first n plies,
 * which all came from legal lists of these very positions. */
static int serve_session_replay(struct serve_session *s, int n)
{
    int rc;
    if (s->start) {
        tiers_error err;
        memset(&err, 0, sizeof err);
        rc = tiers_pos_parse(s->p, s->start, "tiers", &err);
    } else {
        rc = tiers_pos_reset(s->p);
    }
    for (int i = 0; rc >= 0 && i < n; i++)
        rc = tiers_pos_make_unchecked(s->p, &s->plies[i].move, NULL);
    if (rc >= 0)
        s->nplies = n;
    return rc;
}

/* Makes m (from p's legal list) as ply nplies, dropping what undo kept. */
static int serve_session_play(struct serve_session *s, const struct serve *S,
                              const tiers_move *m)
{
    if (s->nplies == s->cap) {
        int cap = s->cap ? s->cap * 2 : 64;
        void *pl = realloc(s->plies, (size_t)cap * sizeof *s->plies);
        if (!pl)
            return TIERS_ENOMEM;
        s->plies = pl;
        s->cap = cap;
    }
    struct serve_ply *ply = &s->plies[s->nplies];
    int rc;
    char *text = cli_move_text(s->p, m, serve_notation(S), &rc);
    if (!text)
        return rc;
    snprintf(ply->text, sizeof ply->text, "%s", text);
    free(text);
    ply->move = *m;
    ply->number = tiers_pos_move_number(s->p);
    ply->side = tiers_pos_side_to_move(s->p);
    tiers_stats st;
    memset(&st, 0, sizeof st);
    rc = tiers_pos_make_unchecked(s->p, m, &st);
    if (rc < 0)
        return rc;
    ply->fired = 0;
    for (int i = 0; i < TIERS_MAX_EFFECTS; i++)
        if (st.fired[i])
            ply->fired |= 1u << i;
    s->nplies++;
    s->ntotal = s->nplies;
    return 0;
}

int serve_session_play_text(struct serve_session *s, const struct serve *S,
                            const char *text, const char *notation,
                            struct serve_reply *r)
{
    tiers_status st = tiers_pos_status(s->p);
    if (st.game_over)
        return serve_fail(r, 409, "move '%s': the game is over (%s)", text,
                          st.reason && st.reason[0] ? st.reason : "no reason");
    tiers_move m;
    tiers_error err;
    char msg[1024];
    memset(&err, 0, sizeof err);
    int rc = tiers_move_parse(s->p, text, notation, &m, &err);
    if (rc < 0) {
        char why[512] = ""; /* as `apply` says it */
        tiers_error_text(&err, msg, sizeof msg);
        if (rc == TIERS_EILLEGAL)
            cli_why_illegal(s->p, text, notation, why, sizeof why);
        return serve_fail(r, cli_exit_for(rc) == CLI_INTERNAL ? 500 : 400,
                          "move '%s': %s%s%s", text, msg[0] ? msg : cli_rc_text(s->v, rc),
                          why[0] ? ": " : "", why);
    }
    rc = serve_session_play(s, S, &m);
    if (rc < 0)
        return serve_fail(r, rc == TIERS_EFULL ? 409 : 500, "move '%s': %s", text,
                          rc == TIERS_EFULL ? "the game's history is full"
                                            : cli_rc_text(s->v, rc));
    return 200;
}

/* A free slot, dropping idle sessions first; -1 when all are taken. */
static int serve_slot(struct serve *S)
{
    serve_sweep(S);
    for (int i = 0; i < SERVE_MAX_SESSIONS; i++)
        if (!S->sessions[i])
            return i;
    return -1;
}

void serve_sweep(struct serve *S)
{
    double now = cli_now();
    for (int i = 0; i < SERVE_MAX_SESSIONS; i++) {
        struct serve_session *s = S->sessions[i];
        if (s && now - s->last_used > S->idle_seconds) {
            serve_session_free(s);
            S->sessions[i] = NULL;
        }
    }
    serve_agent_reap(S);
    serve_compare_reap(S);
}

void serve_shutdown(struct serve *S)
{
    pthread_mutex_lock(&S->lock);
    for (int i = 0; i < SERVE_MAX_SESSIONS; i++) {
        serve_session_free(S->sessions[i]);
        S->sessions[i] = NULL;
    }
    pthread_mutex_unlock(&S->lock);
    serve_agent_wait_all(S, 3.0);
    serve_compare_wait_all(S, 3.0);
}

/* ---------------------------------------------------------------- state */

static const char *const serve_kind_names[TIERS_MV_KINDS] = {
    "none", "drop", "move", "stack", "capture", "strike",
    "ready", "rotate", "deploy", "effect"};

static json_t *serve_square_json(int sq)
{
    if (sq == TIERS_NO_SQUARE)
        return json_null();
    char buf[8];
    return json_string(tiers_square_name(sq % 16, sq / 16, buf));
}

static json_t *serve_piece_json(const tiers_piece_info *pi)
{
    return json_pack("{s:s,s:i,s:s,s:b,s:b,s:i}", "token", pi->token, "owner",
                     pi->owner, "face", pi->face, "royal", pi->royal, "back",
                     pi->back, "facing", pi->facing);
}

static json_t *serve_board_json(const tiers_pos *p, const tiers_variant *v)
{
    json_t *board = json_array();
    for (int r = 0; r < tiers_variant_ranks(v); r++)
        for (int f = 0; f < tiers_variant_files(v); f++) {
            int h = tiers_pos_height(p, f, r);
            if (h <= 0)
                continue;
            json_t *tiers = json_array();
            for (int t = 1; t <= h; t++) {
                tiers_piece_info pi;
                if (tiers_pos_piece_info(p, f, r, t, &pi) >= 0)
                    json_array_append_new(tiers, serve_piece_json(&pi));
            }
            char sq[8];
            json_array_append_new(board, json_pack("{s:s,s:o}", "square",
                                                   tiers_square_name(f, r, sq),
                                                   "tiers", tiers));
        }
    return board;
}

static json_t *serve_hands_json(const tiers_pos *p)
{
    json_t *hands = json_array();
    for (int owner = 0; owner < 3; owner++) {
        tiers_piece_info pi;
        int n;
        for (int i = 0; (n = tiers_pos_hand_entry(p, owner, i, &pi)) > 0; i++) {
            json_t *e = serve_piece_json(&pi);
            json_object_set_new(e, "count", json_integer(n));
            json_object_set_new(e, "owner", json_integer(owner));
            json_array_append_new(hands, e);
        }
    }
    return hands;
}

static json_t *serve_effects_json(const tiers_variant *v, uint32_t fired)
{
    json_t *a = json_array();
    for (int i = 0; i < tiers_variant_effects(v) && i < TIERS_MAX_EFFECTS; i++)
        if (fired & (1u << i))
            json_array_append_new(a, json_string(tiers_variant_effect_name(v, i)));
    return a;
}

static json_t *serve_state_json(struct serve *S, struct serve_session *s)
{
    tiers_status st = tiers_pos_status(s->p);
    char side[16];
    int rc;
    char *pos = cli_pos_text(s->p, serve_notation(S), &rc);
    const struct serve_ply *last = s->nplies ? &s->plies[s->nplies - 1] : NULL;
    json_t *lastj = last ? json_pack("{s:s,s:o,s:o,s:s}", "text", last->text, "from",
                                     serve_square_json(last->move.from), "to",
                                     serve_square_json(last->move.to), "kind",
                                     serve_kind_names[last->move.kind % TIERS_MV_KINDS])
                         : json_null();
    json_t *agent = json_pack("{s:s,s:s,s:i}", "state", s->job ? "thinking" : "idle",
                              "error", s->agent_error, "running", serve_agent_running(S));
    json_t *j = json_pack(
        "{s:s,s:s,s:i,s:i,s:i,s:s,s:i,s:i,s:i,s:s,s:b,s:b,s:b,s:s,s:s,"
        "s:o,s:o,s:o,s:o,s:i,s:i,s:o}",
        "session", s->id, "variant", tiers_variant_name(s->v), "files",
        tiers_variant_files(s->v), "ranks", tiers_variant_ranks(s->v), "max_tiers",
        tiers_variant_max_tiers(s->v), "position", pos ? pos : "", "ply",
        tiers_pos_ply(s->p), "move_number", tiers_pos_move_number(s->p),
        "side_to_move", st.side_to_move, "side_name",
        cli_side_name(s->v, st.side_to_move, side), "setup", st.setup, "in_check",
        st.in_check, "game_over", st.game_over, "result",
        cli_result_text(st.result) ? cli_result_text(st.result) : "*", "reason",
        st.reason ? st.reason : "", "board", serve_board_json(s->p, s->v), "hands",
        serve_hands_json(s->p), "last_move", lastj, "effects",
        serve_effects_json(s->v, last ? last->fired : 0), "undo", s->nplies, "redo",
        s->ntotal - s->nplies, "agent", agent);
    free(pos);
    if (j) {
        json_object_set_new(j, "files_error", s->sv->error ? json_string(s->sv->error)
                                                           : json_null());
        json_object_set_new(j, "reloads", json_integer(s->sv->reloads));
        char *tp = cli_pos_text(s->p, "tiers", &rc);
        json_object_set_new(j, "tiers_position", json_string(tp ? tp : ""));
        free(tp);
        json_object_set(j, "reload", s->reload ? s->reload : json_null());
        json_object_set_new(j, "compare", serve_compare_json(s));
    }
    return j;
}

static int serve_state_reply(struct serve *S, struct serve_session *s,
                             struct serve_reply *r, int status)
{
    return serve_ok(r, status, serve_state_json(S, s));
}

/* ------------------------------------------------------------ the API */

int serve_api_variants(struct serve *S, struct serve_reply *r)
{
    json_t *a = json_array();
    for (int i = 0; i < S->nvariants; i++)
        json_array_append_new(a, json_pack("{s:s,s:s}", "name", S->variants[i].name,
                                           "description", S->variants[i].desc));
    return serve_ok(r, 200, json_pack("{s:o,s:s}", "variants", a, "notation",
                                      serve_notation(S)));
}

static const struct serve_variant *serve_variant_named(struct serve *S,
                                                       const char *name)
{
    for (int i = 0; i < S->nvariants; i++)
        if (strcmp(S->variants[i].name, name) == 0)
            return &S->variants[i];
    return NULL;
}

/* A new session of sv; NULL with r filled. */
static struct serve_session *serve_session_new(struct serve *S,
                                               const struct serve_variant *sv,
                                               struct serve_reply *r)
{
    struct serve_session *s = calloc(1, sizeof *s);
    if (!s || serve_random_hex(s->id, SERVE_ID_CHARS) != 0) {
        free(s);
        serve_fail(r, 500, "out of memory or no random source");
        return NULL;
    }
    tiers_error err;
    char msg[1200];
    memset(&err, 0, sizeof err);
    s->sv = sv;
    s->v = tiers_variant_load(sv->spec, S->c->search,
                              (const char *const *)S->c->rules, &err);
    if (s->v) {
        memset(&err, 0, sizeof err);
        s->p = tiers_pos_new(s->v, 0, &err);
    }
    if (!s->p) {
        tiers_error_text(&err, msg, sizeof msg);
        serve_fail(r, 500, "%s: %s", sv->spec, msg[0] ? msg : "cannot load");
        serve_session_free(s);
        return NULL;
    }
    s->last_used = cli_now();
    s->reloads = sv->reloads;
    return s;
}

/* Parses text as the session's new start (plies dropped); 0, or a 4xx/5xx
 * status with r filled and the game as it was. */
static int serve_session_paste(struct serve_session *s, const char *text, const char *notation,
                               struct serve_reply *r)
{
    tiers_error err;
    char msg[1024];
    memset(&err, 0, sizeof err);
    int rc = tiers_pos_parse(s->p, text, notation, &err);
    if (rc < 0) {
        tiers_error_text(&err, msg, sizeof msg);
        return serve_fail(r, cli_exit_for(rc) == CLI_INTERNAL ? 500 : 400,
                          "bad position '%s': %s", text,
                          msg[0] ? msg : cli_rc_text(s->v, rc));
    }
    char *start = cli_pos_text(s->p, "tiers", &rc);
    if (!start) {
        serve_session_replay(s, s->nplies);
        return serve_fail(r, 500, "cannot format the position: %s", cli_code_text(rc));
    }
    free(s->start);
    s->start = start;
    s->nplies = s->ntotal = 0;
    return 0;
}

int serve_api_new(struct serve *S, json_t *in, struct serve_reply *r)
{
    const char *name = serve_field(in, "variant");
    if (!name)
        return serve_fail(r, 400, "no \"variant\" given");
    const struct serve_variant *sv = serve_variant_named(S, name);
    if (!sv)
        return serve_fail(r, 404, "unknown variant '%s' (see /api/variants)", name);
    int slot = serve_slot(S);
    if (slot < 0)
        return serve_fail(r, 503, "too many sessions (at most %d): close one",
                          SERVE_MAX_SESSIONS);
    struct serve_session *s = serve_session_new(S, sv, r);
    if (!s)
        return r->status;
    const char *position = serve_field(in, "position");
    if (position && position[0]) {
        const char *notation = serve_field(in, "notation");
        int status = serve_session_paste(s, position,
                                         notation ? notation : serve_notation(S), r);
        if (status) {
            serve_session_free(s);
            return status;
        }
    }
    S->sessions[slot] = s;
    return serve_state_reply(S, s, r, 201);
}

int serve_api_close(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find(S, in, r);
    if (!s)
        return r->status;
    for (int i = 0; i < SERVE_MAX_SESSIONS; i++)
        if (S->sessions[i] == s)
            S->sessions[i] = NULL;
    serve_session_free(s);
    return serve_ok(r, 200, json_pack("{s:b}", "closed", 1));
}

int serve_api_state(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find(S, in, r);
    return s ? serve_state_reply(S, s, r, 200) : r->status;
}

/* The piece a drop puts down, as the move's text in tiers notation
 * writes it before the '*' (the hand token). */
static int serve_drop_is(const tiers_pos *p, const tiers_move *m, const char *token)
{
    char buf[128];
    if (m->kind != TIERS_MV_DROP ||
        tiers_move_format(p, m, "tiers", buf, sizeof buf) < 0)
        return 0;
    size_t n = strcspn(buf, "*");
    return buf[n] == '*' && strlen(token) == n && strncmp(buf, token, n) == 0;
}

/* The selected piece's movement table per tier, as `tiers pieces` draws
 * it (the same pieces_grid): {"face", "tier" (the one it stands on, 0 in
 * a hand), "tiers": [{"tier", "rows", "same_as_below"}]}; NULL when no
 * face has that name. */
static json_t *serve_movement_json(const tiers_variant *v, const char *face, int tier)
{
    int idx = tiers_variant_face_find(v, face);
    if (idx < 0)
        return NULL;
    json_t *tiers = json_array();
    pieces_grid g, below;
    for (int t = 1; t <= tiers_variant_max_tiers(v); t++) {
        if (pieces_grid_make(v, idx, t, &g) < 0)
            break;
        json_t *rows = json_array();
        char row[4 * PIECES_SIDE];
        for (int i = 0; i <= 2 * g.radius; i++)
            json_array_append_new(rows, json_string(pieces_grid_row(&g, i, row, sizeof row)));
        json_array_append_new(tiers, json_pack("{s:i,s:o,s:b}", "tier", t, "rows", rows,
                                               "same_as_below",
                                               t > 1 && pieces_grid_same(&g, &below)));
        below = g;
    }
    return json_pack("{s:s,s:i,s:o}", "face", face, "tier", tier, "tiers", tiers);
}

/* The face of the selection: the top of the square's tower, or the hand
 * entry whose token is `hand`. */
static json_t *serve_selection_movement(const tiers_pos *p, const tiers_variant *v,
                                        const char *square, const char *hand)
{
    tiers_piece_info pi;
    if (square) {
        int sq = cli_parse_square(v, square);
        int h = sq < 0 ? 0 : tiers_pos_height(p, sq % 16, sq / 16);
        if (h > 0 && tiers_pos_piece_info(p, sq % 16, sq / 16, h, &pi) >= 0)
            return serve_movement_json(v, pi.face, h);
    } else if (hand) {
        for (int owner = 0; owner < 3; owner++)
            for (int i = 0; tiers_pos_hand_entry(p, owner, i, &pi) > 0; i++)
                if (!strcmp(pi.token, hand))
                    return serve_movement_json(v, pi.face, 0);
    }
    return NULL;
}

int serve_api_moves(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find(S, in, r);
    if (!s)
        return r->status;
    const char *square = serve_field(in, "square");
    const char *hand = serve_field(in, "hand");
    tiers_move *list = malloc(TIERS_MAX_MOVES * sizeof *list);
    if (!list)
        return serve_fail(r, 500, "out of memory");
    int n = tiers_pos_legal_moves(s->p, list, TIERS_MAX_MOVES);
    if (n < 0) {
        free(list);
        return serve_fail(r, 500, "cannot list moves: %s", cli_rc_text(s->v, n));
    }
    json_t *moves = json_array(), *groups = json_object();
    for (int i = 0; i < n; i++) {
        const tiers_move *m = &list[i];
        json_t *from = serve_square_json(m->from);
        int keep = 1;
        if (square)
            keep = json_is_string(from) && strcmp(json_string_value(from), square) == 0;
        else if (hand)
            keep = serve_drop_is(s->p, m, hand);
        if (!keep) {
            json_decref(from);
            continue;
        }
        int rc;
        char *text = cli_move_text(s->p, m, serve_notation(S), &rc);
        const char *group = m->effect && m->effect <= tiers_variant_effects(s->v)
                                ? tiers_variant_effect_name(s->v, m->effect - 1)
                                : serve_kind_names[m->kind % TIERS_MV_KINDS];
        json_array_append_new(moves, json_pack("{s:s,s:s,s:s,s:o,s:o}", "text",
                                               text ? text : "?", "kind",
                                               serve_kind_names[m->kind % TIERS_MV_KINDS],
                                               "group", group, "from", from, "to",
                                               serve_square_json(m->to)));
        json_t *g = json_object_get(groups, group);
        if (!g) {
            g = json_array();
            json_object_set_new(groups, group, g);
        }
        json_array_append_new(g, json_string(text ? text : "?"));
        free(text);
    }
    free(list);
    json_t *movement = serve_selection_movement(s->p, s->v, square, hand);
    return serve_ok(r, 200, json_pack("{s:o,s:o,s:o}", "moves", moves, "groups", groups,
                                      "movement", movement ? movement : json_null()));
}

int serve_api_move(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find_idle(S, in, r);
    if (!s)
        return r->status;
    const char *text = serve_field(in, "move");
    if (!text)
        return serve_fail(r, 400, "no \"move\" given");
    int status = serve_session_play_text(s, S, text, serve_notation(S), r);
    return status == 200 ? serve_state_reply(S, s, r, 200) : status;
}

int serve_api_undo(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find_idle(S, in, r);
    if (!s)
        return r->status;
    if (s->nplies == 0)
        return serve_fail(r, 409, "nothing to undo");
    int rc = tiers_pos_unmake(s->p);
    if (rc < 0)
        return serve_fail(r, 500, "undo: %s", cli_rc_text(s->v, rc));
    s->nplies--;
    return serve_state_reply(S, s, r, 200);
}

int serve_api_redo(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find_idle(S, in, r);
    if (!s)
        return r->status;
    if (s->nplies == s->ntotal)
        return serve_fail(r, 409, "nothing to redo");
    int rc = tiers_pos_make_unchecked(s->p, &s->plies[s->nplies].move, NULL);
    if (rc < 0)
        return serve_fail(r, 500, "redo: %s", cli_rc_text(s->v, rc));
    s->nplies++;
    return serve_state_reply(S, s, r, 200);
}

int serve_api_agent(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find_idle(S, in, r);
    if (!s)
        return r->status;
    const char *spec = serve_field(in, "agent");
    if (!spec)
        return serve_fail(r, 400, "no \"agent\" given");
    tiers_status st = tiers_pos_status(s->p);
    if (st.game_over)
        return serve_fail(r, 409, "the game is over (%s)",
                          st.reason && st.reason[0] ? st.reason : "no reason");
    int status = serve_agent_start(S, s, spec, r);
    return status ? status : serve_state_reply(S, s, r, 202);
}

int serve_api_cancel(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find(S, in, r);
    if (!s)
        return r->status;
    serve_agent_detach(s);
    return serve_state_reply(S, s, r, 200);
}

int serve_api_get_position(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find(S, in, r);
    if (!s)
        return r->status;
    int rc;
    char *text = cli_pos_text(s->p, serve_notation(S), &rc);
    if (!text)
        return serve_fail(r, 500, "cannot format the position: %s", cli_code_text(rc));
    json_t *j = json_pack("{s:s,s:s}", "position", text, "notation", serve_notation(S));
    free(text);
    return serve_ok(r, 200, j);
}

int serve_api_set_position(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find_idle(S, in, r);
    if (!s)
        return r->status;
    const char *text = serve_field(in, "position");
    if (!text)
        return serve_fail(r, 400, "no \"position\" given");
    const char *notation = serve_field(in, "notation");
    int status = serve_session_paste(s, text, notation ? notation : serve_notation(S), r);
    return status ? status : serve_state_reply(S, s, r, 200);
}

/* The game record of the session (as `tiers play` saves it). */
static char *serve_record_text(struct serve *S, struct serve_session *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    tiers_status st = tiers_pos_status(s->p);
    const char *result = st.game_over ? cli_result_text(st.result) : NULL;
    if (!result)
        result = "*";
    gamerec_tag(f, "Variant", tiers_variant_name(s->v));
    char *options = gamerec_options_join((const char *const *)S->c->rules);
    gamerec_tag(f, "Options", options ? options : "");
    free(options);
    if (s->start)
        gamerec_tag(f, "Position", s->start);
    if (strcmp(serve_notation(S), "tiers") != 0)
        gamerec_tag(f, "Notation", serve_notation(S));
    gamerec_tag(f, "Result", result);
    struct gamerec_moves w;
    gamerec_begin(&w, f, s->v);
    for (int i = 0; i < s->nplies; i++)
        gamerec_move(&w, s->plies[i].number, s->plies[i].side, s->plies[i].text);
    int bad = gamerec_end(&w, result) < 0;
    bad |= fclose(f) != 0;
    if (bad) {
        free(buf);
        return NULL;
    }
    return buf;
}

int serve_api_get_record(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find(S, in, r);
    if (!s)
        return r->status;
    char *text = serve_record_text(S, s);
    if (!text)
        return serve_fail(r, 500, "out of memory");
    json_t *j = json_pack("{s:s}", "record", text);
    free(text);
    return serve_ok(r, 200, j);
}

/* Collects the moves of a replayed record. */
struct serve_collect {
    tiers_move *moves;
    int n, cap, failed;
};

static int serve_collect_ply(tiers_pos *p, const tiers_record_ply *ply, void *ud)
{
    (void)p;
    struct serve_collect *c = ud;
    if (c->n == c->cap) {
        int cap = c->cap ? c->cap * 2 : 64;
        void *m = realloc(c->moves, (size_t)cap * sizeof *c->moves);
        if (!m) {
            c->failed = 1;
            return 1;
        }
        c->moves = m;
        c->cap = cap;
    }
    c->moves[c->n++] = ply->move;
    return 0;
}

/* Plays the collected moves again from the record's start, so that each
 * ply gets its text, number and effects. */
static int serve_record_adopt(struct serve *S, struct serve_session *s,
                              const tiers_record *rec, const struct serve_collect *col,
                              struct serve_reply *r)
{
    const char *tag = tiers_record_tag(rec, "Position");
    char *start = tag ? strdup(tag) : NULL;
    if (tag && !start)
        return serve_fail(r, 500, "out of memory");
    free(s->start);
    s->start = start;
    int rc = serve_session_replay(s, 0);
    for (int i = 0; rc >= 0 && i < col->n; i++)
        rc = serve_session_play(s, S, &col->moves[i]);
    if (rc < 0)
        return serve_fail(r, 500, "record: %s", cli_rc_text(s->v, rc));
    return 0;
}

int serve_api_set_record(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find_idle(S, in, r);
    if (!s)
        return r->status;
    const char *text = serve_field(in, "record");
    if (!text)
        return serve_fail(r, 400, "no \"record\" given");
    tiers_error err;
    char msg[1200];
    memset(&err, 0, sizeof err);
    tiers_record *rec = tiers_record_read(text, &err);
    if (!rec)
        return serve_fail(r, 400, "record: %s", tiers_error_text(&err, msg, sizeof msg));
    struct serve_collect col = {0};
    memset(&err, 0, sizeof err);
    int rc = tiers_record_replay(rec, s->p, NULL, serve_collect_ply, &col, NULL, &err);
    int status = 0;
    if (rc < 0 || col.failed) {
        tiers_error_text(&err, msg, sizeof msg);
        status = serve_fail(r, col.failed || cli_exit_for(rc) == CLI_INTERNAL ? 500 : 400,
                            "record: %s", msg[0] ? msg : cli_rc_text(s->v, rc));
        serve_session_replay(s, s->nplies); /* the game as it was */
    } else {
        status = serve_record_adopt(S, s, rec, &col, r);
    }
    free(col.moves);
    tiers_record_free(rec);
    return status ? status : serve_state_reply(S, s, r, 200);
}

char *serve_api_svg(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find(S, in, r);
    if (!s)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        serve_fail(r, 500, "out of memory");
        return NULL;
    }
    const struct serve_ply *last = s->nplies ? &s->plies[s->nplies - 1] : NULL;
    int rc;
    char *desc = cli_pos_text(s->p, NULL, &rc);
    svg_view view = {s->p, last ? &last->move : NULL, last ? last->text : NULL, desc};
    int bad = svg_position(f, &view) < 0;
    bad |= fclose(f) != 0;
    free(desc);
    if (bad) {
        free(buf);
        serve_fail(r, 500, "cannot draw the position");
        return NULL;
    }
    return buf;
}

/* ------------------------------------------------------------ reloads */

/* The game of s on a new copy of its variant: the start again, then each
 * ply by its text.  A start or move that no longer reads ends the game
 * there: s->reload tells where and why. */
static void serve_session_rebuild(struct serve *S, struct serve_session *s,
                                  tiers_variant *v, tiers_pos *p)
{
    struct serve_ply *old = s->plies;
    int nold = s->ntotal, played = s->nplies;
    tiers_variant_free(s->v);
    tiers_pos_free(s->p);
    s->v = v;
    s->p = p;
    s->plies = NULL;
    s->nplies = s->ntotal = s->cap = 0;
    json_decref(s->reload);
    s->reload = NULL;
    tiers_error err;
    char msg[1024];
    memset(&err, 0, sizeof err);
    if (s->start && tiers_pos_parse(p, s->start, "tiers", &err) < 0) {
        tiers_error_text(&err, msg, sizeof msg);
        s->reload = json_pack("{s:i,s:s,s:s,s:i,s:i}", "ply", 0, "move", "",
                              "error", msg, "kept", 0, "plies", played);
        free(s->start);
        s->start = NULL;
        tiers_pos_reset(p);
        free(old);
        return;
    }
    for (int i = 0; i < nold; i++) {
        tiers_move m;
        memset(&err, 0, sizeof err);
        int rc = tiers_move_parse(p, old[i].text, serve_notation(S), &m, &err);
        if (rc >= 0)
            rc = serve_session_play(s, S, &m);
        if (rc < 0) {
            tiers_error_text(&err, msg, sizeof msg);
            if (i < played)
                s->reload = json_pack("{s:i,s:s,s:s,s:i,s:i}", "ply", i + 1, "move",
                                      old[i].text, "error",
                                      msg[0] ? msg : cli_rc_text(v, rc), "kept", i,
                                      "plies", played);
            break;
        }
    }
    /* undo what redo may walk again */
    int back = s->nplies - (played < s->nplies ? played : s->nplies);
    for (int i = 0; i < back; i++)
        tiers_pos_unmake(s->p);
    s->nplies -= back;
    free(old);
}

void serve_reload_sessions(struct serve *S, struct serve_variant *sv)
{
    for (int i = 0; i < SERVE_MAX_SESSIONS; i++) {
        struct serve_session *s = S->sessions[i];
        if (!s || s->sv != sv || s->reloads == sv->reloads)
            continue;
        tiers_error err;
        memset(&err, 0, sizeof err);
        tiers_variant *v = tiers_variant_load(sv->spec, S->c->search,
                                              (const char *const *)S->c->rules, &err);
        tiers_pos *p = v ? tiers_pos_new(v, 0, &err) : NULL;
        if (!p) { /* the files changed again: the next reload will do */
            tiers_variant_free(v);
            continue;
        }
        s->reloads = sv->reloads;
        serve_session_rebuild(S, s, v, p);
    }
}

int serve_api_reload_ack(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find_idle(S, in, r);
    if (!s)
        return r->status;
    const char *action = serve_field(in, "action");
    if (!action || (strcmp(action, "keep") != 0 && strcmp(action, "new") != 0))
        return serve_fail(r, 400, "\"action\" must be \"keep\" or \"new\"");
    if (strcmp(action, "new") == 0) {
        free(s->start);
        s->start = NULL;
        s->ntotal = 0;
        int rc = serve_session_replay(s, 0);
        if (rc < 0)
            return serve_fail(r, 500, "new game: %s", cli_rc_text(s->v, rc));
    }
    json_decref(s->reload);
    s->reload = NULL;
    return serve_state_reply(S, s, r, 200);
}
