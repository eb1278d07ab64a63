/* yamlview.c - a variant's YAML as tiers reads it, after its inherits
 * chain is merged (yamltree.c), open to callers of the public API: each
 * node with the file and line it came from (`tiers show --merged`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yamltree.h"

struct tiers_yaml {
    yamltree t;
    tiers_error err;
    ynode *root;
};

tiers_yaml *tiers_yaml_read(const char *path, const char *search, tiers_error *err)
{
    tiers_yaml *y = calloc(1, sizeof *y);
    if (err)
        memset(err, 0, sizeof *err);
    if (!y || !path) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s", y ? "no file given" : "out of memory");
        free(y);
        return NULL;
    }
    yamltree_init(&y->t, &y->err, search);
    if (yamltree_load(&y->t, path, &y->root) != 0) {
        if (err)
            *err = y->err;
        tiers_yaml_free(y);
        return NULL;
    }
    return y;
}

void tiers_yaml_free(tiers_yaml *y)
{
    if (!y)
        return;
    yamltree_free(&y->t);
    free(y);
}

const tiers_yaml_node *tiers_yaml_root(const tiers_yaml *y)
{
    return y ? (const tiers_yaml_node *)y->root : NULL;
}

void tiers_yaml_info(const tiers_yaml_node *node, tiers_yaml_node_info *out)
{
    const ynode *n = (const ynode *)node;
    memset(out, 0, sizeof *out);
    if (!n)
        return;
    out->kind = n->type == Y_MAP ? TIERS_YAML_MAP : n->type == Y_SEQ ? TIERS_YAML_SEQ
                                                                     : TIERS_YAML_SCALAR;
    out->key = n->key;
    out->value = n->type == Y_SCALAR && !n->null ? n->str : NULL;
    out->file = n->file;
    out->line = n->key ? n->key_line : n->line;
    out->kids = (const tiers_yaml_node *)n->kids;
    out->next = (const tiers_yaml_node *)n->next;
}
