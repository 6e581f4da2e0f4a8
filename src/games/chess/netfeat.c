/* netfeat.c — the inputs of a learned evaluation for chess, makruk and
 * shatranj (game.h NetFeatures): one feature per piece on the board,
 * (own or the opponent's, type, square), the board turned upside down
 * for Black so that each side sees itself play up the board. The three
 * games share the set; the types a game lacks are never active. */
#include "board.h"

enum { CB_NET_TYPES = CB_NTYPES - 1 };

/* Written in ascending order (the net sorts them otherwise): by owner,
 * type, then square, Black's board byte-swapped (rank r to 7 - r). */
static int cb_net_features(const void *st, int persp, uint16_t *out)
{
    const CBoard *b = st;
    int n = 0;
    for (int rel = 0; rel < 2; rel++) {
        uint64_t mine = b->col[rel ? 1 - persp : persp];
        for (int t = 1; t <= CB_NET_TYPES; t++) {
            uint64_t bb = b->pcs[t] & mine;
            if (persp)
                bb = __builtin_bswap64(bb);
            int base = (rel * CB_NET_TYPES + t - 1) << 6;
            while (bb) {
                out[n++] = (uint16_t)(base | cb_lsb(bb));
                bb &= bb - 1;
            }
        }
    }
    return n;
}

/* The same as bit sets: each (owner, type) is one word, its bitboard. */
static void cb_net_feature_bits(const void *st, int persp, uint64_t *out)
{
    const CBoard *b = st;
    for (int rel = 0; rel < 2; rel++) {
        uint64_t mine = b->col[rel ? 1 - persp : persp];
        for (int t = 1; t <= CB_NET_TYPES; t++) {
            uint64_t bb = b->pcs[t] & mine;
            out[rel * CB_NET_TYPES + t - 1] =
                persp ? __builtin_bswap64(bb) : bb;
        }
    }
}

static int cb_net_factor(int feature)
{
    return feature >> 6;
}

const NetFeatures cb_net = {
    .name = "chess-family-ps1",
    .ninputs = 2 * CB_NET_TYPES * 64,
    .max_active = 64,
    .features = cb_net_features,
    .feature_bits = cb_net_feature_bits,
    .nfactors = 2 * CB_NET_TYPES,
    .factor = cb_net_factor,
};
