/* variant.h - locating variant files and concluding a loaded variant. */
#ifndef TIERS_VARIANT_H
#define TIERS_VARIANT_H

#include <stddef.h>

#include "core.h"

/* Path of the YAML file for a name, folder or file; TIERS_EINPUT if none. */
int variant_resolve(const char *spec, const char *search, char *out, size_t size);
/* Cross-key checks and derived tables; run after the loader. */
int variant_conclude(tiers_variant *v, tiers_error *err);

#endif
