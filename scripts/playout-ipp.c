/* scripts/playout-ipp.c - the deterministic workload of the blog effect
 * cost figures in docs/performance.md: G random playouts (the cheap random
 * playout of `tiers bench`, same seed, at most 400 plies) of one variant,
 * printing the plies played.  Run it under `valgrind --tool=callgrind
 * --toggle-collect=tiers_pos_random_playout` and divide the instructions
 * by the plies.  Build: see docs/performance.md. */
#include <stdio.h>
#include <stdlib.h>

#include "tiers.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: playout-ipp VARIANT [GAMES]\n");
        return 2;
    }
    int games = argc > 2 ? atoi(argv[2]) : 100;
    tiers_error err;
    tiers_variant *v = tiers_variant_load(argv[1], NULL, NULL, &err);
    if (!v) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    tiers_pos *p = tiers_pos_new(v, 0, &err);
    if (!p)
        return 1;
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    tiers_pos_seed(p, rng);
    long long plies = 0;
    for (int g = 0; g < games; g++) {
        int n = tiers_pos_random_playout(p, &rng, 400);
        if (n < 0) {
            fprintf(stderr, "playout failed: %d\n", n);
            return 1;
        }
        plies += n;
    }
    printf("%d games, %lld plies\n", games, plies);
    tiers_pos_free(p);
    tiers_variant_free(v);
    return 0;
}
