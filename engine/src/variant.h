/* variant.h - loading and concluding a variant (finding it: searchpath.h). */
#ifndef TIERS_VARIANT_H
#define TIERS_VARIANT_H

#include <stddef.h>

#include "core.h"

/* Index of the face called name, or -1. */
int variant_face_index(const tiers_variant *v, const char *name);
/* Cross-key checks and derived tables; run after the loader. */
int variant_conclude(tiers_variant *v, tiers_error *err);

#endif
