/* scripts/perft-mid.c - the deterministic perft workload of the
 * instructions-per-leaf figures in docs/performance.md: perft DEPTH from
 * each `"stage":"mid"` record of an oracle positions.jsonl, printing the
 * leaves.  Run it under `valgrind --tool=callgrind
 * --toggle-collect=tiers_perft` and divide the instructions by the
 * leaves.  Build: see docs/performance.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiers.h"

/* Copies the string value of "position" in line to out. */
static int position_of(const char *line, char *out, size_t size)
{
    const char *p = strstr(line, "\"position\":\"");
    if (!p)
        return -1;
    p += strlen("\"position\":\"");
    const char *e = strchr(p, '"');
    if (!e || (size_t)(e - p) >= size)
        return -1;
    memcpy(out, p, (size_t)(e - p));
    out[e - p] = 0;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: perft-mid VARIANT NOTATION FILE [DEPTH]\n");
        return 2;
    }
    int depth = argc > 4 ? atoi(argv[4]) : 2;
    tiers_error err;
    tiers_variant *v = tiers_variant_load(argv[1], NULL, NULL, &err);
    FILE *f = fopen(argv[3], "r");
    if (!v || !f) {
        fprintf(stderr, "cannot load %s or open %s\n", argv[1], argv[3]);
        return 1;
    }
    tiers_pos *p = tiers_pos_new(v, 0, &err);
    static char line[1 << 16];
    char pos[4096];
    long long leaves = 0;
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strstr(line, "\"stage\":\"mid\"") || position_of(line, pos, sizeof pos))
            continue;
        if (tiers_pos_parse(p, pos, argv[2], &err) < 0) {
            fprintf(stderr, "%s: %s\n", pos, err.msg);
            return 1;
        }
        int64_t r = tiers_perft(p, depth);
        if (r < 0)
            return 1;
        leaves += r;
        n++;
    }
    printf("%d positions, %lld leaves\n", n, leaves);
    fclose(f);
    tiers_pos_free(p);
    tiers_variant_free(v);
    return 0;
}
