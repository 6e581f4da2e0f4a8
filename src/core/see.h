/* see.h — the swap list of a static exchange, shared by the games' see
 * hooks (game.h): the games find and lift attackers, this header scores
 * the sequence. Header-only so that each game's attacker function is
 * inlined into its own copy. */
#ifndef PLY_SEE_H
#define PLY_SEE_H

enum { SEE_MAX_SWAPS = 40 };

/* The mover's net material from an exchange on one square: the move
 * gains gain0 and leaves a piece worth `on` there; then the sides take
 * turns, starting with the opponent of `mover`, each taking back with
 * the piece next(ctx, side) lifts onto the square (its value returned, 0
 * when side has no attacker left) while that pays. */
static inline int see_swap(int gain0, int on, int mover,
                           int (*next)(void *ctx, int side), void *ctx)
{
    int gain[SEE_MAX_SWAPS], d = 0;
    gain[0] = gain0;
    for (int side = mover;;) {
        side ^= 1;
        int v = d + 1 < SEE_MAX_SWAPS ? next(ctx, side) : 0;
        if (!v)
            break;
        d++;
        gain[d] = on - gain[d - 1];   /* side's net if it stops here */
        on = v;
    }
    for (; d > 0; d--)   /* each side takes back only when that pays */
        gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
    return gain[0];
}

/* Most captures are settled without a swap list: the exchange gives the
 * mover at most gain (nothing takes back) and at least gain - on, where
 * on is the value of the piece left on the square (the mover stops after
 * one recapture). 1 or 0 when those bounds answer "at least threshold",
 * -1 when the swap list must. */
static inline int see_bounds(int gain, int on, int threshold)
{
    if (gain < threshold)
        return 0;
    if (gain - on >= threshold)
        return 1;
    return -1;
}

#endif
