/* cmd_check.c - `tiers check VARIANT`: load a variant, report errors. */
#include <string.h>

#include "cli.h"
#include "jsonw.h"

int cmd_check_run(struct cli *c)
{
    const char *spec = c->args[0];
    tiers_variant *v;
    tiers_pos *p;
    /* The start position and its moves run the variant's scripts once. */
    int code = cli_open(c, spec, 0, &v, &p);
    if (!p)
        return code;
    char **moves;
    int n;
    int rc = cli_sorted_moves(p, NULL, &moves, &n);
    if (rc < 0) {
        cli_error(c, "%s: start position: %s", spec, cli_rc_text(v, rc));
        code = cli_exit_for(rc);
    }
    cli_free_strings(moves, n);
    if (code == CLI_OK) {
        if (c->json) {
            jsonw w;
            jsonw_init(&w, stdout);
            jsonw_begin_object(&w);
            jsonw_key(&w, "ok");
            jsonw_bool(&w, 1);
            jsonw_key(&w, "name");
            jsonw_string(&w, tiers_variant_name(v));
            jsonw_key(&w, "path");
            jsonw_string(&w, tiers_variant_path(v));
            jsonw_key(&w, "hash");
            jsonw_string(&w, tiers_variant_hash(v));
            jsonw_key(&w, "files");
            jsonw_int(&w, tiers_variant_files(v));
            jsonw_key(&w, "ranks");
            jsonw_int(&w, tiers_variant_ranks(v));
            jsonw_key(&w, "tiers");
            jsonw_int(&w, tiers_variant_max_tiers(v));
            jsonw_key(&w, "warnings");
            jsonw_begin_array(&w);
            for (int i = 0; i < tiers_variant_warning_count(v); i++)
                jsonw_string(&w, tiers_variant_warning(v, i));
            jsonw_end_array(&w);
            jsonw_end_object(&w);
            fputc('\n', stdout);
        } else {
            for (int i = 0; i < tiers_variant_warning_count(v); i++)
                printf("warning: %s\n", tiers_variant_warning(v, i));
            printf("ok: %s (%dx%d, %d tiers)\n", tiers_variant_name(v),
                   tiers_variant_files(v), tiers_variant_ranks(v),
                   tiers_variant_max_tiers(v));
        }
    }
    cli_close(v, p);
    return code;
}
