/* loader.h - reads a variant's YAML file (with `inherits:`) into a
 * tiers_variant: yamltree.c reads the files into one marked tree, the
 * schema walk of loader.c fills the variant, rules.c holds the rule and
 * option table. */
#ifndef TIERS_LOADER_H
#define TIERS_LOADER_H

#include "core.h"

/* Fills *v (zeroed by the caller) from the YAML file at `path`.  `search`
 * is the ':'-separated list of folders searched first for `inherits:`
 * names (then TIERS_VARIANT_PATH and the built-in folder: searchpath.h).
 * Applies `rules` ("key=value" overrides, NULL-terminated, may be NULL).
 * Collects script file names into v (see variant.h).  On error fills err
 * with file, line, column and a message, and returns TIERS_EINPUT. */
int loader_read(tiers_variant *v, const char *path, const char *search,
                const char *const *rules, tiers_error *err);

#endif
