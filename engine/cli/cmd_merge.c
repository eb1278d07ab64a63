/* cmd_merge.c - `tiers merge A.db B.db ... -o OUT.db`: joins playout
 * databases, typically the shards of one run played on several machines.
 * A game is identified by its run and index, so merging the shards of a
 * run gives the database a single unsharded run would have written. */
#include <string.h>

#include "lab.h"
#include "jsonw.h"
#include "playout.h"

int cmd_merge_run(struct cli *c)
{
    if (!c->output)
        return cli_usage_error(c, "missing -o OUT (the database to write)");
    for (int i = 0; i < c->nargs; i++)
        if (!strcmp(c->args[i], c->output))
            return cli_usage_error(c, "'%s' is both an input and the output", c->output);
    char err[1024];
    db *d = db_open(c->output, 1, err, sizeof err);
    if (!d) {
        cli_error(c, "%s", err);
        return CLI_INPUT;
    }
    int code = CLI_OK;
    jsonw w;
    if (c->json) {
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "output");
        jsonw_string(&w, c->output);
        jsonw_key(&w, "inputs");
        jsonw_begin_array(&w);
    }
    int64_t total_added = 0;
    for (int i = 0; i < c->nargs; i++) {
        int64_t added, skipped, differ;
        if (db_merge(d, c->args[i], &added, &skipped, &differ, err, sizeof err) != 0) {
            cli_error(c, "%s", err);
            code = CLI_INPUT;
            break;
        }
        total_added += added;
        if (differ)
            cli_error(c, "warning: %lld games of '%s' are already in '%s' with other moves "
                      "(kept the ones there)",
                      (long long)differ, c->args[i], c->output);
        if (c->json) {
            jsonw_begin_object(&w);
            jsonw_key(&w, "file");
            jsonw_string(&w, c->args[i]);
            jsonw_key(&w, "added");
            jsonw_int(&w, added);
            jsonw_key(&w, "duplicates");
            jsonw_int(&w, skipped);
            jsonw_key(&w, "different");
            jsonw_int(&w, differ);
            jsonw_end_object(&w);
        } else {
            printf("%s: %lld games added, %lld already there\n", c->args[i],
                   (long long)added, (long long)skipped);
        }
    }
    if (c->json) {
        jsonw_end_array(&w);
        jsonw_key(&w, "added");
        jsonw_int(&w, total_added);
        jsonw_end_object(&w);
        fputc('\n', stdout);
    } else if (code == CLI_OK) {
        printf("%s: %lld games added in all\n", c->output, (long long)total_added);
    }
    db_close(d);
    return code;
}
