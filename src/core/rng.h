/* rng.h — the explicit, seeded random number generator every game and bot
 * uses (xoshiro256**, seeded through splitmix64). No global state: each
 * user owns its Rng, so a fixed seed reproduces a game exactly. */
#ifndef PLY_RNG_H
#define PLY_RNG_H

#include <stdint.h>

typedef struct Rng {
    uint64_t s[4];
} Rng;

/* splitmix64 step: also a good 64-bit mixer for hashing and Zobrist keys. */
static inline uint64_t ply_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void rng_seed(Rng *r, uint64_t seed);

static inline uint64_t rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(Rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), n >= 1, without modulo bias worth mentioning
 * (Lemire's multiply-shift; bias below 2^-32 for n < 2^32). */
static inline uint32_t rng_below(Rng *r, uint32_t n)
{
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform double in [0, 1). */
static inline double rng_double(Rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

#endif
