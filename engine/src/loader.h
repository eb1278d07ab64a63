/* loader.h - reads a variant's YAML file (with `inherits:`) into a
 * tiers_variant.  Only this module includes yaml.h. */
#ifndef TIERS_LOADER_H
#define TIERS_LOADER_H

#include "core.h"

/* Fills *v (zeroed by the caller) from the YAML file at `path`.  `search`
 * is the ':'-separated variant search path used to resolve `inherits:`.
 * Applies `rules` ("key=value" overrides, NULL-terminated, may be NULL).
 * Collects script file names into v (see variant.h).  On error fills err
 * with file, line, column and a message, and returns TIERS_EINPUT. */
int loader_read(tiers_variant *v, const char *path, const char *search,
                const char *const *rules, tiers_error *err);

/* Sets one rules: key (engine rule or declared option) from text. */
int loader_set_rule(tiers_variant *v, const char *key, const char *value,
                    tiers_error *err);

#endif
