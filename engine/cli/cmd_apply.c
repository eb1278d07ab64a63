/* cmd_apply.c - `tiers apply VARIANT MOVE...`: make moves in order and
 * print the resulting position and status. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"

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
            tiers_error_text(&err, text, sizeof text);
            cli_error(c, "move %d '%s': %s", i, tok,
                      text[0] ? text : cli_rc_text(tiers_pos_variant(p), rc));
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
    int code = CLI_OK;
    tiers_variant *v = cli_load_variant(c, c->args[0], &code);
    if (!v)
        return code;
    tiers_pos *p = NULL;
    code = cli_check_notation(c, v);
    if (code == CLI_OK) {
        /* Room in the history for every move given (0 = the default). */
        int history = c->nargs > 4000 ? c->nargs + 64 : 0;
        p = cli_open_pos(c, v, history, &code);
    }
    if (p)
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
                json_writer w;
                json_init(&w, stdout);
                json_begin_object(&w);
                json_key(&w, "position");
                json_string(&w, text);
                json_key(&w, "ply");
                json_int(&w, tiers_pos_ply(p));
                cli_json_status(&w, v, &st);
                json_end_object(&w);
                fputc('\n', stdout);
            } else {
                printf("position: %s\n", text);
                cli_print_status(v, &st);
            }
            free(text);
        }
    }
    if (p)
        tiers_pos_free(p);
    tiers_variant_free(v);
    return code;
}
