/* cmd_options.c - `tiers options`: every engine rule and variant option
 * of a variant with its type, default, allowed values and one-line
 * meaning (an option's from its `doc:` in the YAML), the list a --rule
 * error points to. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static void cmd_options_json(const tiers_rule_info *r, jsonw *w)
{
    jsonw_begin_object(w);
    jsonw_key(w, "key");
    jsonw_string(w, r->key);
    jsonw_key(w, "kind");
    jsonw_string(w, r->option ? "option" : "rule");
    jsonw_key(w, "type");
    jsonw_string(w, r->type);
    jsonw_key(w, "default");
    jsonw_string(w, r->def);
    jsonw_key(w, "value");
    jsonw_string(w, r->value);
    jsonw_key(w, "allowed");
    jsonw_string(w, r->allowed);
    jsonw_key(w, "sets");
    jsonw_string(w, r->sets[0] ? r->sets : NULL);
    jsonw_key(w, "doc");
    jsonw_string(w, r->doc);
    jsonw_end_object(w);
}

static void cmd_options_text(const tiers_rule_info *r)
{
    printf("  %-22s %-6s default %-10s %s\n", r->key, r->type, r->def, r->allowed);
    if (r->doc[0])
        printf("  %-22s %s\n", "", r->doc);
    if (r->sets[0])
        printf("  %-22s (also sets the engine rule %s)\n", "", r->sets);
}

int cmd_options_run(struct cli *c)
{
    tiers_variant *v;
    int code = cli_open(c, c->args[0], 0, &v, NULL);
    if (!v)
        return code;
    int n = tiers_variant_rule_count(v);
    tiers_rule_info r;
    jsonw w;
    if (c->json) {
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "variant");
        jsonw_string(&w, tiers_variant_name(v));
        jsonw_key(&w, "rules");
        jsonw_begin_array(&w);
    } else {
        printf("%s: set any of these with --rule KEY=VALUE\n", tiers_variant_name(v));
    }
    int options_seen = 0;
    for (int i = 0; i < n; i++) {
        if (tiers_variant_rule_info(v, i, &r) < 0)
            continue;
        if (c->json) {
            cmd_options_json(&r, &w);
            continue;
        }
        if (i == 0)
            printf("\nengine rules:\n");
        if (r.option && !options_seen++)
            printf("\noptions of %s:\n", tiers_variant_name(v));
        cmd_options_text(&r);
    }
    if (c->json) {
        jsonw_end_array(&w);
        jsonw_end_object(&w);
        fputc('\n', stdout);
    } else if (!options_seen) {
        printf("\n%s declares no options of its own.\n", tiers_variant_name(v));
    }
    cli_close(v, NULL);
    return CLI_OK;
}
