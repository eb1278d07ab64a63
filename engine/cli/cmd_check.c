/* cmd_check.c - `tiers check VARIANT`: load a variant, report errors. */
#include <string.h>

#include "cli.h"
#include "json.h"

int cmd_check_run(struct cli *c)
{
    const char *spec = c->args[0];
    int code = CLI_OK;
    tiers_variant *v = cli_load_variant(c, spec, &code);
    if (!v)
        return code;

    /* The start position and its moves run the variant's scripts once. */
    tiers_pos *p = cli_open_pos(c, v, 0, &code);
    if (p) {
        char **moves;
        int n;
        int rc = cli_sorted_moves(p, NULL, &moves, &n);
        if (rc < 0) {
            cli_error(c, "%s: start position: %s", spec, cli_rc_text(v, rc));
            code = cli_exit_for(rc);
        }
        cli_free_strings(moves, n);
        tiers_pos_free(p);
    }
    if (code == CLI_OK) {
        if (c->json) {
            json_writer w;
            json_init(&w, stdout);
            json_begin_object(&w);
            json_key(&w, "ok");
            json_bool(&w, 1);
            json_key(&w, "name");
            json_string(&w, tiers_variant_name(v));
            json_key(&w, "path");
            json_string(&w, tiers_variant_path(v));
            json_key(&w, "hash");
            json_string(&w, tiers_variant_hash(v));
            json_key(&w, "files");
            json_int(&w, tiers_variant_files(v));
            json_key(&w, "ranks");
            json_int(&w, tiers_variant_ranks(v));
            json_key(&w, "tiers");
            json_int(&w, tiers_variant_max_tiers(v));
            json_end_object(&w);
            fputc('\n', stdout);
        } else {
            printf("ok: %s (%dx%d, %d tiers)\n", tiers_variant_name(v),
                   tiers_variant_files(v), tiers_variant_ranks(v),
                   tiers_variant_max_tiers(v));
        }
    }
    tiers_variant_free(v);
    return code;
}
