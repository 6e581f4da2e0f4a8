/* netfeat.c — the inputs of a learned evaluation for shogi and minishogi
 * (game.h NetFeatures), set "shogi-pk1":
 *
 *   board: one feature per piece, (own or the opponent's, type, square):
 *          14 types (the 8 unpromoted, king included, and the 6 promoted)
 *          on 81 squares numbered row by row from the viewer's side, the
 *          board given a half turn for White (the start is symmetric so);
 *   hands: one feature per piece in hand, (own or the opponent's, type,
 *          its rank k among the pieces of that type in the hand): a hand
 *          of three pawns sets "pawn 1", "pawn 2" and "pawn 3" (a
 *          thermometer code, so the net can value the third pawn apart
 *          from the first);
 *   king windows: for each piece on the board but the kings, within two
 *          rows and two columns of a king, (whose king: the viewer's or
 *          the other's, own piece or the opponent's, type, its offset
 *          from that king in the viewer's frame): what stands around
 *          each king, which the square features alone can only learn
 *          king square by king square.
 *
 * A position has at most 40 + 2 x 38 features. Minishogi uses the same
 * set on the first 25 squares of each block. A move other than a king's
 * changes at most six features and adds at most four (feature_delta); a
 * king move moves its whole window, and is left to the scan. */
#include "shogi.h"
#include "net_shogi.h"

#define SHOGI_NET_BUILTIN shogi_net_builtin

enum {
    SN_TYPES = 14,                      /* PAWN..KING, then +P..+R */
    SN_SQ = 81,
    SN_BOARD = 2 * SN_TYPES * SN_SQ,    /* 2268 */
    SN_HAND = 38,                       /* 18 + 4 + 4 + 4 + 2 + 2 + 4 */
    SN_KW = 2,                          /* king windows: +-2 rows, cols */
    SN_KCELLS = (2 * SN_KW + 1) * (2 * SN_KW + 1),
    SN_KREL0 = SN_BOARD + 2 * SN_HAND,  /* 2344 */
    SN_KREL = 2 * 2 * SN_TYPES * SN_KCELLS,
    SN_INPUTS = SN_KREL0 + SN_KREL,
    SN_MAX_ACTIVE = 40 + 2 * 38,
};

/* Where each hand type's block starts within a side's 38, and its size
 * (shogi's counts: 18 pawns, 4 lances, knights, silvers and golds, 2
 * bishops and rooks). */
static const int hand_off[8] = {0, 0, 18, 22, 26, 30, 32, 34};
static const int hand_len[8] = {0, 18, 4, 4, 4, 2, 2, 4};

/* A piece code's type index 0..13 (promoted pieces after the king). */
static inline int sn_type(int p)
{
    static const int8_t type[16] = {0, 0, 1, 2, 3, 4, 5, 6, 7,
                                    8, 9, 10, 11, 12, 13, 0};
    return type[TYPE(p)];   /* EMPTY (and the unused 15) give 0 */
}

/* Board feature of piece code p on square q from persp's view. */
static inline int sn_board_feature(const Variant *v, int p, int q, int persp)
{
    int r = row_of(q), c = col_of(q);
    int idx = persp ? (v->h - 1 - r) * v->w + (v->w - 1 - c) : r * v->w + c;
    return ((COLOR(p) != persp) * SN_TYPES + sn_type(p)) * SN_SQ + idx;
}

/* The king-window features of piece code p (not a king) on square q from
 * persp's view: for the viewer's king (kk 0) and the other (kk 1), when q
 * is within SN_KW rows and columns of it, (kk, own or the opponent's,
 * type, offset in the viewer's frame). Written to out; their count. */
static int sn_krel(const Shogi *s, int p, int q, int persp, uint16_t *out)
{
    int n = 0, r = row_of(q), c = col_of(q);
    for (int kk = 0; kk < 2; kk++) {
        int ks = s->ksq[kk ? 1 - persp : persp];
        int dr = r - row_of(ks), dc = c - col_of(ks);
        if (persp) {
            dr = -dr;
            dc = -dc;
        }
        if (dr < -SN_KW || dr > SN_KW || dc < -SN_KW || dc > SN_KW)
            continue;
        out[n++] = (uint16_t)(SN_KREL0 +
                              ((kk * 2 + (COLOR(p) != persp)) * SN_TYPES +
                               sn_type(p)) * SN_KCELLS +
                              (dr + SN_KW) * (2 * SN_KW + 1) + dc + SN_KW);
    }
    return n;
}

/* The hand features of st from persp's view, written to out; their
 * count. */
static int sn_hand_features(const Shogi *s, int persp, uint16_t *out)
{
    int n = 0;
    for (int rel = 0; rel < 2; rel++) {
        int who = rel ? 1 - persp : persp;
        for (int t = PAWN; t <= GOLD; t++) {
            int k = s->hand[who][t];
            if (k > hand_len[t])
                k = hand_len[t];
            for (int i = 0; i < k; i++)
                out[n++] = (uint16_t)(SN_BOARD + rel * SN_HAND + hand_off[t] + i);
        }
    }
    return n;
}

static int sn_features(const void *st, int persp, uint16_t *out)
{
    const Shogi *s = st;
    const Variant *v = var_of(s);
    int n = 0;
    for (int r = 0; r < v->h; r++)
        for (int c = 0; c < v->w; c++) {
            int p = s->board[sq_of(r, c)];
            if (p != EMPTY) {
                out[n++] = (uint16_t)sn_board_feature(v, p, sq_of(r, c),
                                                      persp);
                if (TYPE(p) != KING)
                    n += sn_krel(s, p, sq_of(r, c), persp, out + n);
            }
        }
    return n + sn_hand_features(s, persp, out + n);
}

/* What move m changes: a board move takes the piece off its square and
 * its windows (and the captured one off the target and its windows,
 * adding it to the mover's hand at the next rank of the thermometer), a
 * drop takes the highest rank of that type off the hand. King moves and
 * micro shogi's hands (pieces that change face) are left to the scan. */
static int sn_feature_delta(const void *st, Move m, int persp, uint16_t *rem,
                            int *nrem, uint16_t *add, int *nadd)
{
    const Shogi *s = st;
    if (is_micro(s))
        return -1;
    const Variant *v = var_of(s);
    int us = s->side, to = mv_to(m), dt = mv_drop(m), nr = 0, na = 0;
    int rel_us = us != persp;
    if (dt) {
        int k = s->hand[us][dt];    /* >= 1: m is legal */
        int p = (us ? WHITE_BIT : 0) | dt;
        if (k <= hand_len[dt])
            rem[nr++] = (uint16_t)(SN_BOARD + rel_us * SN_HAND +
                                   hand_off[dt] + k - 1);
        add[na++] = (uint16_t)sn_board_feature(v, p, to, persp);
        na += sn_krel(s, p, to, persp, add + na);
    } else {
        int from = mv_from(m), p = s->board[from], cap = s->board[to];
        if (TYPE(p) == KING)
            return -1;      /* every window feature moves: scan */
        int np = mv_prom(m) ? p + PROM : p;
        rem[nr++] = (uint16_t)sn_board_feature(v, p, from, persp);
        nr += sn_krel(s, p, from, persp, rem + nr);
        add[na++] = (uint16_t)sn_board_feature(v, np, to, persp);
        na += sn_krel(s, np, to, persp, add + na);
        if (cap != EMPTY) {
            int ct = BASE(TYPE(cap)), k = s->hand[us][ct];
            rem[nr++] = (uint16_t)sn_board_feature(v, cap, to, persp);
            nr += sn_krel(s, cap, to, persp, rem + nr);
            if (k < hand_len[ct])
                add[na++] = (uint16_t)(SN_BOARD + rel_us * SN_HAND +
                                       hand_off[ct] + k);
        }
    }
    *nrem = nr;
    *nadd = na;
    return 0;
}

/* Factors: a board feature's (owner, type), a hand feature's (owner,
 * type) in hand, a window feature's (whose king, owner, type): 28 + 14 +
 * 56. */
static int sn_factor(int f)
{
    if (f >= SN_KREL0)
        return 2 * SN_TYPES + 2 * 7 + (f - SN_KREL0) / SN_KCELLS;
    if (f < SN_BOARD)
        return f / SN_SQ;
    int rel = (f - SN_BOARD) / SN_HAND, o = (f - SN_BOARD) % SN_HAND, t = 1;
    while (t < GOLD && o >= hand_off[t + 1])
        t++;
    return 2 * SN_TYPES + rel * 7 + t - 1;
}

/* One set for both games; shogi's carries its built-in net when
 * SHOGI_NET_BUILTIN names one (a net is trained for one game). */
#define SN_NET_COMMON                                                       \
    .name = "shogi-pk1", .ninputs = SN_INPUTS,                              \
    .max_active = SN_MAX_ACTIVE, .features = sn_features,                   \
    .feature_delta = sn_feature_delta,                                      \
    .nfactors = 2 * SN_TYPES + 2 * 7 + 2 * 2 * SN_TYPES, .factor = sn_factor

const NetFeatures shogi_net = {
    SN_NET_COMMON,
#ifdef SHOGI_NET_BUILTIN
    .builtin = SHOGI_NET_BUILTIN,
    .builtin_len = sizeof SHOGI_NET_BUILTIN,
#endif
};

const NetFeatures minishogi_net = {
    SN_NET_COMMON,
};
