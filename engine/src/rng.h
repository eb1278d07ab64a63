/* rng.h - the engine's one pseudo-random generator: Marsaglia's xorshift64
 * (shifts 13, 7, 17).  Playouts, agents and the scripts' math.random all
 * draw from it, so a game replays exactly from its seed.  The state must
 * not be 0 (it would stay 0): callers that may hold 0 replace it first. */
#ifndef TIERS_RNG_H
#define TIERS_RNG_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

#endif
