/* cmd_variants.c - `tiers variants`: the variants that can be loaded. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonw.h"

struct cmd_variants_entry {
    char *name, *dir, *desc;
};

struct cmd_variants_list {
    struct cmd_variants_entry *items;
    int n, cap;
    int failed; /* out of memory while collecting */
};

static char *cmd_variants_dup(const char *s)
{
    return strdup(s ? s : "");
}

static void cmd_variants_add(const char *name, const char *dir,
                             const char *desc, void *ud)
{
    struct cmd_variants_list *l = ud;
    if (l->failed)
        return;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 16;
        void *items = realloc(l->items, (size_t)cap * sizeof *l->items);
        if (!items) {
            l->failed = 1;
            return;
        }
        l->items = items;
        l->cap = cap;
    }
    struct cmd_variants_entry *e = &l->items[l->n];
    e->name = cmd_variants_dup(name);
    e->dir = cmd_variants_dup(dir);
    e->desc = cmd_variants_dup(desc);
    if (!e->name || !e->dir || !e->desc) {
        free(e->name);
        free(e->dir);
        free(e->desc);
        l->failed = 1;
        return;
    }
    l->n++;
}

int cmd_variants_run(struct cli *c)
{
    struct cmd_variants_list l = {NULL, 0, 0, 0};
    int count = tiers_variants_list(c->search, cmd_variants_add, &l);
    int code = CLI_OK;

    if (l.failed) {
        cli_error(c, "out of memory");
        code = CLI_INTERNAL;
    } else if (count < 0) {
        cli_error(c, "cannot list variants: %s", cli_code_text(count));
        code = cli_exit_for(count);
    } else if (c->json) {
        jsonw w;
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "variants");
        jsonw_begin_array(&w);
        for (int i = 0; i < l.n; i++) {
            jsonw_begin_object(&w);
            jsonw_key(&w, "name");
            jsonw_string(&w, l.items[i].name);
            jsonw_key(&w, "dir");
            jsonw_string(&w, l.items[i].dir);
            jsonw_key(&w, "description");
            jsonw_string(&w, l.items[i].desc);
            jsonw_end_object(&w);
        }
        jsonw_end_array(&w);
        jsonw_end_object(&w);
        fputc('\n', stdout);
    } else {
        int width = 0;
        for (int i = 0; i < l.n; i++) {
            int len = (int)strlen(l.items[i].name);
            if (len > width)
                width = len;
        }
        for (int i = 0; i < l.n; i++) {
            if (l.items[i].desc[0])
                printf("%-*s  %s\n", width, l.items[i].name, l.items[i].desc);
            else
                printf("%s\n", l.items[i].name);
        }
    }
    for (int i = 0; i < l.n; i++) {
        free(l.items[i].name);
        free(l.items[i].dir);
        free(l.items[i].desc);
    }
    free(l.items);
    return code;
}
