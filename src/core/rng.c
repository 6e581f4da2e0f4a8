/* rng.c — seeding for the xoshiro256** generator of rng.h. */
#include "rng.h"

void rng_seed(Rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        seed += 0x9e3779b97f4a7c15ull;
        r->s[i] = ply_mix64(seed);
    }
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
        r->s[0] = 1;
}
