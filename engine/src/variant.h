/* variant.h - loading and concluding a variant (finding it: searchpath.h). */
#ifndef TIERS_VARIANT_H
#define TIERS_VARIANT_H

#include <stddef.h>

#include "core.h"

/* Cross-key checks and derived tables; run after the loader. */
int variant_conclude(tiers_variant *v, tiers_error *err);
/* The stuck tables (v->stuck, v->stuck_any), made once, when a script
 * first narrows a hook by them (expand_reach = {0, 0}). */
void variant_stuck_tables(tiers_variant *v);

#endif
