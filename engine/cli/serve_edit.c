/* serve_edit.c - what the position editor of `tiers serve`'s page asks
 * the server: the variant's limits (tower height, the pieces of each
 * token its start holds, the side symbols) and whether a position text
 * it built reads, with the library's reason when it does not.  The text
 * is read in a scratch position: the session's game is not touched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

/* The token without what tells tiles apart (~X, @facing): the piece kind
 * and owner the counts are kept by. */
static void edit_base_token(const char *token, char *out, size_t size)
{
    size_t n = strcspn(token, "~@");
    snprintf(out, size, "%.*s", (int)n, token);
}

static void edit_count(json_t *counts, const char *token, int n)
{
    char base[32];
    edit_base_token(token, base, sizeof base);
    json_int_t have = json_integer_value(json_object_get(counts, base));
    json_object_set_new(counts, base, json_integer(have + n));
}

/* The field (0-based) of a position text, into out ("" when absent). */
static void edit_field(const char *text, int k, char *out, size_t size)
{
    out[0] = '\0';
    for (int i = 0; *text; i++) {
        text += strspn(text, " ");
        size_t n = strcspn(text, " ");
        if (i == k) {
            snprintf(out, size, "%.*s", (int)n, text);
            return;
        }
        text += n;
    }
}

/* The pieces of each token in the variant's start (board and hands), the
 * tower height and the two side symbols (the second found by making the
 * start's first legal move). */
int serve_api_editor(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find(S, in, r);
    if (!s)
        return r->status;
    tiers_error err;
    memset(&err, 0, sizeof err);
    tiers_pos *p = tiers_pos_new(s->v, 0, &err);
    if (!p)
        return serve_fail(r, 500, "cannot make the start position");
    json_t *counts = json_object();
    for (int rank = 0; rank < tiers_variant_ranks(s->v); rank++)
        for (int f = 0; f < tiers_variant_files(s->v); f++)
            for (int t = 1; t <= tiers_pos_height(p, f, rank); t++) {
                tiers_piece_info pi;
                if (tiers_pos_piece_info(p, f, rank, t, &pi) >= 0)
                    edit_count(counts, pi.token, 1);
            }
    for (int owner = 0; owner < 3; owner++) {
        tiers_piece_info pi;
        int n;
        for (int i = 0; (n = tiers_pos_hand_entry(p, owner, i, &pi)) > 0; i++)
            edit_count(counts, pi.token, n);
    }
    char text[8192], sym[2][16];
    tiers_pos_format(p, "tiers", text, sizeof text);
    edit_field(text, 2, sym[0], sizeof sym[0]);
    snprintf(sym[1], sizeof sym[1], "%s", sym[0]);
    tiers_move *list = malloc(TIERS_MAX_MOVES * sizeof *list);
    if (list && tiers_pos_legal_moves(p, list, TIERS_MAX_MOVES) > 0 &&
        tiers_pos_make_unchecked(p, &list[0], NULL) >= 0 &&
        tiers_pos_format(p, "tiers", text, sizeof text) >= 0)
        edit_field(text, 2, sym[1], sizeof sym[1]);
    free(list);
    tiers_pos_free(p);
    json_t *sides = json_array();
    for (int i = 0; i < 2; i++) {
        char name[16];
        json_array_append_new(sides, json_pack("{s:s,s:s}", "symbol", sym[i], "name",
                                               cli_side_name(s->v, i, name)));
    }
    json_t *j = json_pack("{s:i,s:i,s:i,s:o,s:o}", "max_tiers",
                          tiers_variant_max_tiers(s->v), "files", tiers_variant_files(s->v),
                          "ranks", tiers_variant_ranks(s->v), "counts", counts, "sides",
                          sides);
    json_decref(r->json);
    r->json = j;
    r->status = j ? 200 : 500;
    return r->status;
}

/* {"ok": true, "position": the text as the library writes it} or 400 with
 * the reason it does not read. */
int serve_api_position_check(struct serve *S, json_t *in, struct serve_reply *r)
{
    struct serve_session *s = serve_find(S, in, r);
    if (!s)
        return r->status;
    const char *text = serve_field(in, "position");
    if (!text)
        return serve_fail(r, 400, "no \"position\" given");
    const char *notation = serve_field(in, "notation");
    tiers_error err;
    char msg[1024];
    memset(&err, 0, sizeof err);
    tiers_pos *p = tiers_pos_new(s->v, 0, &err);
    if (!p)
        return serve_fail(r, 500, "cannot make a position");
    memset(&err, 0, sizeof err);
    int rc = tiers_pos_parse(p, text, notation ? notation : "tiers", &err);
    if (rc < 0) {
        tiers_error_text(&err, msg, sizeof msg);
        tiers_pos_free(p);
        return serve_fail(r, cli_exit_for(rc) == CLI_INTERNAL ? 500 : 400,
                          "bad position '%s': %s", text,
                          msg[0] ? msg : cli_rc_text(s->v, rc));
    }
    char *out = cli_pos_text(p, "tiers", &rc);
    tiers_status st = tiers_pos_status(p);
    json_t *j = json_pack("{s:b,s:s,s:b,s:s}", "ok", 1, "position", out ? out : "",
                          "game_over", st.game_over, "reason", st.reason ? st.reason : "");
    free(out);
    tiers_pos_free(p);
    json_decref(r->json);
    r->json = j;
    r->status = j ? 200 : 500;
    return r->status;
}
