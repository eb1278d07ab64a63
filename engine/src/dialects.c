/* dialects.c - the registry of notation dialects.  A variant enables the
 * ones it speaks with `notations:` in its YAML. */
#include <string.h>

#include "notation.h"

extern const dialect dialect_gungijs;
extern const dialect dialect_gounki;
extern const dialect dialect_gungijs3;
extern const dialect dialect_gufuu;

static const dialect *const registry[] = {
    &dialect_gungijs,
    &dialect_gounki,
    &dialect_gungijs3,
    &dialect_gufuu,
    NULL
};

const char *notation_offered(const tiers_variant *v, const char *name)
{
    if (!strcmp(name, "tiers"))
        return "tiers";
    for (int i = 0; i < v->ndialects; i++)
        if (!strcmp(v->dialects[i], name))
            return v->dialects[i];
    return NULL;
}

const dialect *notation_dialect(const char *name)
{
    for (int i = 0; registry[i]; i++)
        if (!strcmp(registry[i]->name, name))
            return registry[i];
    return NULL;
}

int notation_find(const tiers_variant *v, const char *name, const dialect **d, int *index)
{
    *d = NULL;
    *index = -1;
    if (!name || !*name || !strcmp(name, "tiers"))
        return 0;
    for (int i = 0; i < v->ndialects; i++)
        if (!strcmp(v->dialects[i], name)) {
            *d = notation_dialect(name);
            *index = i;
            return *d ? 0 : -1;
        }
    return -1;
}
