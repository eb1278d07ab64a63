/* gamerec.c - writing game records (docs/notation.md, "Game records"). */
#include "gamerec.h"

#include <ctype.h>
#include <string.h>

enum { GAMEREC_WRAP = 72 };

void gamerec_tag(FILE *f, const char *name, const char *value)
{
    fprintf(f, "[%s \"", name);
    for (const char *s = value; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fprintf(f, "\"]\n");
}

void gamerec_side_tag(const tiers_variant *v, int side, char buf[16])
{
    const char *name = tiers_variant_side_name(v, side);
    if (name && name[0])
        snprintf(buf, 16, "%s", name);
    else
        snprintf(buf, 16, "side %d", side);
    buf[0] = (char)toupper((unsigned char)buf[0]);
    for (char *t = buf; *t; t++)
        if (!isalnum((unsigned char)*t))
            *t = '_';
}

void gamerec_begin(struct gamerec_moves *w, FILE *f, const tiers_variant *v)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->first = tiers_variant_first_side(v);
    w->last_side = -1;
    fputc('\n', f);
}

/* Writes one word (prefix and text, either may be ""), starting a new
 * line when it would pass the margin. */
static void gamerec_word(struct gamerec_moves *w, const char *prefix, const char *text)
{
    int len = (int)(strlen(prefix) + strlen(text));
    if (w->col && w->col + 1 + len > GAMEREC_WRAP) {
        fputc('\n', w->f);
        w->col = 0;
    }
    w->col += fprintf(w->f, "%s%s%s", w->col ? " " : "", prefix, text);
}

void gamerec_move(struct gamerec_moves *w, int number, int side, const char *text)
{
    char prefix[32] = "";
    if (side == w->first || w->plies == 0 || w->last_side != w->first ||
        w->last_number != number)
        snprintf(prefix, sizeof prefix, "%d%s ", number, side == w->first ? "." : "...");
    gamerec_word(w, prefix, text);
    w->plies++;
    w->last_side = side;
    w->last_number = number;
}

int gamerec_end(struct gamerec_moves *w, const char *result)
{
    gamerec_word(w, "", result);
    fputc('\n', w->f);
    return ferror(w->f) ? -1 : 0;
}
