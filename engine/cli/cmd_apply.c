/* cmd_apply.c - `tiers apply VARIANT MOVE...`: make moves in order and
 * print the resulting position and status. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonw.h"

/* Makes c->args[1..] with `legal` (TIERS_MAX_MOVES) for the legal moves:
 * one list and one game-end test per move.  Returns an exit code (message
 * printed). */
static int cmd_apply_list(const struct cli *c, tiers_pos *p, tiers_move *legal)
{
    for (int i = 1; i < c->nargs; i++) {
        const char *tok = c->args[i];
        tiers_status st;
        int n = tiers_pos_status_moves(p, legal, TIERS_MAX_MOVES, &st);
        if (st.game_over) {
            cli_error(c, "move %d '%s': the game is over (%s)", i, tok,
                      st.reason && st.reason[0] ? st.reason : "no reason");
            return CLI_INPUT;
        }
        tiers_move m;
        tiers_error err;
        char text[1024];
        memset(&err, 0, sizeof err);
        int rc = tiers_move_find(p, tok, c->notation, legal, n, &m, &err);
        if (rc < 0) {
            char why[512] = "";
            tiers_error_text(&err, text, sizeof text);
            if (rc == TIERS_EILLEGAL)
                cli_why_illegal(p, tok, c->notation, why, sizeof why);
            cli_error(c, "move %d '%s': %s%s%s", i, tok,
                      text[0] ? text : cli_rc_text(tiers_pos_variant(p), rc), why[0] ? ": " : "",
                      why);
            return cli_exit_for(rc) == CLI_INTERNAL ? CLI_INTERNAL
                                                    : CLI_INPUT;
        }
        rc = tiers_pos_make_unchecked(p, &m, NULL); /* m is from the legal list */
        if (rc < 0) {
            cli_error(c, "move %d '%s': %s", i, tok,
                      cli_rc_text(tiers_pos_variant(p), rc));
            return cli_exit_for(rc);
        }
    }
    return CLI_OK;
}

static int cmd_apply_moves(const struct cli *c, tiers_pos *p)
{
    tiers_move *legal = malloc(TIERS_MAX_MOVES * sizeof *legal);
    if (!legal) {
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    int code = cmd_apply_list(c, p, legal);
    free(legal);
    return code;
}

int cmd_apply_run(struct cli *c)
{
    tiers_variant *v;
    tiers_pos *p;
    /* Room in the history for every move given (0 = the default). */
    int history = c->nargs > 4000 ? c->nargs + 64 : 0;
    int code = cli_open(c, c->args[0], history, &v, &p);
    if (!p)
        return code;
    code = cmd_apply_moves(c, p);
    if (code == CLI_OK) {
        int rc;
        char *text = cli_pos_text(p, c->notation, &rc);
        if (!text) {
            cli_error(c, "cannot format the position: %s", cli_code_text(rc));
            code = CLI_INTERNAL;
        } else {
            tiers_status st = tiers_pos_status(p);
            if (c->json) {
                jsonw w;
                jsonw_init(&w, stdout);
                jsonw_begin_object(&w);
                jsonw_key(&w, "position");
                jsonw_string(&w, text);
                jsonw_key(&w, "ply");
                jsonw_int(&w, tiers_pos_ply(p));
                cli_json_status(&w, v, &st);
                jsonw_end_object(&w);
                fputc('\n', stdout);
            } else {
                printf("position: %s\n", text);
                cli_print_status(v, &st);
            }
            free(text);
        }
    }
    cli_close(v, p);
    return code;
}
