/* netfeat.c — the inputs of a learned evaluation for chess, makruk and
 * shatranj (game.h NetFeatures): one feature per piece on the board,
 * (own or the opponent's, type, square), the board turned upside down
 * for Black so that each side sees itself play up the board. The three
 * games share the set; the types a game lacks are never active. */
#include "board.h"

enum { CB_NET_TYPES = CB_NTYPES - 1 };

static int cb_net_features(const void *st, int persp, uint16_t *out)
{
    const CBoard *b = st;
    int n = 0;
    int flip = persp ? 56 : 0;
    for (int c = 0; c < 2; c++) {
        int rel = c != persp;       /* 0 own, 1 the opponent's */
        uint64_t bb = b->col[c];
        while (bb) {
            int sq = cb_lsb(bb);
            bb &= bb - 1;
            int t = b->sq[sq] & 15;
            out[n++] = (uint16_t)(((rel * CB_NET_TYPES + t - 1) << 6)
                                  | (sq ^ flip));
        }
    }
    return n;
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
    .nfactors = 2 * CB_NET_TYPES,
    .factor = cb_net_factor,
};
