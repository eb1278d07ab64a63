/* suggest.c - "did you mean": the names close to a mistyped one (edit
 * distance at most 2, transpositions counting 1), for every error that
 * names an unknown variant, face, key, option, command or agent. */
#include <stdio.h>
#include <string.h>

#include "tiers.h"

enum { SUGGEST_MAX = 3, SUGGEST_DIST = 2, SUGGEST_LEN = 64 };

/* Optimal string alignment distance, or SUGGEST_DIST + 1 when it is
 * larger (or a word is too long to be a typo of a name). */
static int suggest_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > SUGGEST_LEN || lb > SUGGEST_LEN ||
        (la > lb ? la - lb : lb - la) > SUGGEST_DIST)
        return SUGGEST_DIST + 1;
    int d[SUGGEST_LEN + 1][SUGGEST_LEN + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int best = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

int tiers_suggest(const char *word, const char *const *names, int n, char *buf, size_t size)
{
    const char *pick[SUGGEST_MAX];
    int dist[SUGGEST_MAX], npick = 0;
    size_t len = word ? strlen(word) : 0;
    if (buf && size)
        buf[0] = '\0';
    if (!word || !names || !buf || !size)
        return 0;
    for (int i = 0; n < 0 ? names[i] != NULL : i < n; i++) {
        const char *name = names[i];
        if (!name || !*name || !strcmp(name, word))
            continue;
        int d = suggest_distance(word, name);
        /* a one- or two-letter word is within 2 of every short name */
        if (d > SUGGEST_DIST || (size_t)d >= len)
            continue;
        int dup = 0;
        for (int k = 0; k < npick; k++)
            dup |= !strcmp(pick[k], name);
        if (dup)
            continue;
        int at = npick < SUGGEST_MAX ? npick++ : SUGGEST_MAX;
        while (at > 0 && dist[at - 1] > d) { /* keep the closest, stable */
            if (at < SUGGEST_MAX) {
                pick[at] = pick[at - 1];
                dist[at] = dist[at - 1];
            }
            at--;
        }
        if (at < SUGGEST_MAX) {
            pick[at] = name;
            dist[at] = d;
        }
    }
    size_t used = 0;
    for (int k = 0; k < npick && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s",
                                 k == 0 ? "" : k == npick - 1 ? " or " : ", ", pick[k]);
    return npick;
}
