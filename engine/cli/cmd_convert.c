/* cmd_convert.c - `tiers convert VARIANT [MOVE...]`: a position and moves
 * read in one notation (--notation) and written in another (--to). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Reads each move in c->notation, prints it in c->to, plays it. */
static int convert_moves(const struct cli *c, tiers_pos *p)
{
    for (int i = 1; i < c->nargs; i++) {
        tiers_move m;
        tiers_error err;
        char text[1024];
        int rc = tiers_move_parse(p, c->args[i], c->notation, &m, &err);
        if (rc < 0) {
            cli_error(c, "move %d '%s': %s", i, c->args[i],
                      tiers_error_text(&err, text, sizeof text));
            return cli_exit_for(rc) == CLI_INTERNAL ? CLI_INTERNAL : CLI_INPUT;
        }
        char *out = cli_move_text(p, &m, c->to, &rc);
        if (!out) {
            cli_error(c, "move %d '%s' cannot be written in %s: %s", i, c->args[i],
                      c->to ? c->to : "tiers", cli_code_text(rc));
            return CLI_INPUT;
        }
        printf("%s\n", out);
        free(out);
        if ((rc = tiers_pos_make_unchecked(p, &m, NULL)) < 0) {
            cli_error(c, "move %d '%s': %s", i, c->args[i],
                      cli_rc_text(tiers_pos_variant(p), rc));
            return cli_exit_for(rc);
        }
    }
    return CLI_OK;
}

int cmd_convert_run(struct cli *c)
{
    tiers_variant *v;
    tiers_pos *p;
    int code = cli_open(c, c->args[0], c->nargs + 64, &v, &p);
    if (!p)
        return code;
    struct cli out = *c;
    out.notation = c->to;
    code = cli_check_notation(&out, v);
    if (code == CLI_OK) {
        int rc;
        char *text = cli_pos_text(p, c->to, &rc);
        if (!text) {
            cli_error(c, "the position cannot be written in %s: %s",
                      c->to ? c->to : "tiers", cli_code_text(rc));
            code = CLI_INPUT;
        } else {
            printf("%s\n", text);
            free(text);
            code = convert_moves(c, p);
        }
    }
    cli_close(v, p);
    return code;
}
