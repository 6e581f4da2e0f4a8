/* eval.c — evaluation, move ordering and quiescence hooks shared by the
 * 8x8 chess family, with game-specific weights.
 *
 * eval: material, piece-square tables (files folded: a-d = h-e),
 * passed pawns by rank (blocked, the kings' distances to the square in
 * front), pawn structure (doubled, isolated, backward, supported, side
 * by side), king shelter (own pawns next to the king, open files by
 * it), mobility (and the part of it enemy pawns guard), attacks on the
 * squares around the enemy king, safe checks, threats (pieces attacked
 * by pawns, majors by minors, queens by rooks, pieces left unguarded),
 * bishop (khon, alfil) pair and own pawns on the bishop's colour,
 * rooks on open and half-open files and the seventh rank, outposts, a
 * bare enemy king (a win in shatranj), a small tempo bonus; most terms
 * have a middlegame and an endgame weight blended by the non-pawn
 * material left. The evaluation is
 * linear in its weights (eval_core), which live in generated headers
 * (weights_GAME.h) fitted to game results by `ply tune` (docs/tuning.md);
 * cb_tuning[] gives the tuner the weights and each position's terms.
 * heuristic: captures by MVV-LVA and promotions first; quiet moves by
 * the centralisation gained, negative when a piece steps onto a square an
 * enemy pawn attacks. is_noisy: captures and promotions. */
#include <stdlib.h>

#include "../../core/see.h"
#include "board.h"

/* Hand-set piece values (centipawns) by variant and piece type
 * (CB_PAWN..CB_ALFIL): move ordering, score(), and the game phase. The
 * evaluation's own material values are tuned weights (below). */
static const int VALUE[3][CB_NTYPES] = {
    /*   -  P    N    B    R    Q    K  F/met S/khon alfil */
    {0, 100, 320, 330, 500, 900, 0, 0, 0, 0},     /* chess */
    {0, 100, 320, 0, 500, 0, 0, 180, 250, 0},     /* makruk */
    {0, 100, 300, 0, 500, 0, 0, 160, 0, 120},     /* shatranj */
};
/* Non-pawn material at the start (both sides), for the game phase. */
static const int START_MATERIAL[3] = {
    2 * (2 * 320 + 2 * 330 + 2 * 500 + 900),
    2 * (2 * 320 + 2 * 250 + 2 * 500 + 180),
    2 * (2 * 300 + 2 * 120 + 2 * 500 + 160),
};

static const uint64_t FILE_A = 0x0101010101010101ull;
static const uint64_t FILE_H = 0x8080808080808080ull;

/* ---- the evaluation as a linear form ----
 *
 * Every variant has six kinds of piece, in slots: pawn, knight, the
 * bishop-like piece (bishop, khon, alfil), rook, the queen-like piece
 * (queen, met, ferz), king. The weights share one layout, indexed by
 * slot; "mg"/"eg" weights are blended by the game phase (256 at the
 * start, 0 with no pieces left, from the fixed VALUE table so that the
 * evaluation stays linear in the weights). */
enum { S_PAWN, S_KNIGHT, S_BISHOP, S_ROOK, S_QUEEN, S_KING, NSLOTS };

static const int8_t SLOT[3][CB_NTYPES] = {
    /*  -  P  N  B  R  Q  K  F  S  A */
    {-1, 0, 1, 2, 3, 4, 5, -1, -1, -1},   /* chess */
    {-1, 0, 1, -1, 3, -1, 5, 4, 2, -1},   /* makruk: met 4, khon 2 */
    {-1, 0, 1, -1, 3, -1, 5, 4, -1, 2},   /* shatranj: ferz 4, alfil 2 */
};

/* Parameter indices: pairs are (mg, eg). */
enum {
    W_MAT = 0,                      /* slots 0..4, pairs */
    W_MOB = W_MAT + 2 * 5,          /* slots 1..4, pairs: per square */
    W_KATT = W_MOB + 2 * 4,         /* slots 1..4, mg only */
    W_PASSED = W_KATT + 4,          /* relative ranks 1..6, pairs */
    W_ROOK_OPEN = W_PASSED + 2 * 6, /* pair */
    W_PAIR = W_ROOK_OPEN + 2,       /* two bishop-like pieces, pair */
    W_SHELTER = W_PAIR + 2,         /* own pawn next to the king, pair */
    W_TEMPO = W_SHELTER + 2,
    W_BARE = W_TEMPO + 1,           /* the enemy king is bare */
    /* pawn structure, pairs: doubled, isolated, backward, supported,
     * phalanx */
    W_DOUBLED = W_BARE + 1,
    W_ISOLATED = W_DOUBLED + 2,
    W_BACKWARD = W_ISOLATED + 2,
    W_SUPPORTED = W_BACKWARD + 2,
    W_PHALANX = W_SUPPORTED + 2,
    W_PASSED_BLOCKED = W_PHALANX + 2, /* pair */
    W_PASSED_KOWN = W_PASSED_BLOCKED + 2,  /* eg only */
    W_PASSED_KTHEIR = W_PASSED_KOWN + 1,   /* eg only */
    W_MOB_UNSAFE = W_PASSED_KTHEIR + 1, /* slots 1..4, pairs */
    W_THREAT_PAWN = W_MOB_UNSAFE + 2 * 4, /* victim slots 1..4, pairs */
    W_THREAT_MINOR = W_THREAT_PAWN + 2 * 4, /* victims rook, queen, pairs */
    W_THREAT_ROOK = W_THREAT_MINOR + 2 * 2, /* victim queen, pair */
    W_HANGING = W_THREAT_ROOK + 2,  /* pair */
    W_KING_OPEN = W_HANGING + 2,    /* mg only */
    W_SAFE_CHECK = W_KING_OPEN + 1, /* checker slots 1..4, mg only */
    W_ROOK_SEMI = W_SAFE_CHECK + 4, /* pair */
    W_ROOK_7TH = W_ROOK_SEMI + 2,   /* pair */
    W_OUTPOST = W_ROOK_7TH + 2,     /* knight, bishop slot: pairs */
    W_BISHOP_PAWNS = W_OUTPOST + 4, /* pair */
    W_PST = W_BISHOP_PAWNS + 2,     /* slot x 32 squares (files a-d), pairs */
    W_N = W_PST + NSLOTS * 32 * 2
};

#include "weights_chess.h"
#include "weights_makruk.h"
#include "weights_shatranj.h"

#define W_NAME(name, value) name,
#define W_VALUE(name, value) value,
static const char *const CHESS_NAMES[] = {CHESS_WEIGHTS(W_NAME)};
static const int CHESS_W[] = {CHESS_WEIGHTS(W_VALUE)};
static const char *const MAKRUK_NAMES[] = {MAKRUK_WEIGHTS(W_NAME)};
static const int MAKRUK_W[] = {MAKRUK_WEIGHTS(W_VALUE)};
static const char *const SHATRANJ_NAMES[] = {SHATRANJ_WEIGHTS(W_NAME)};
static const int SHATRANJ_W[] = {SHATRANJ_WEIGHTS(W_VALUE)};
_Static_assert(sizeof CHESS_W / sizeof *CHESS_W == W_N, "chess weights");
_Static_assert(sizeof MAKRUK_W / sizeof *MAKRUK_W == W_N, "makruk weights");
_Static_assert(sizeof SHATRANJ_W / sizeof *SHATRANJ_W == W_N,
               "shatranj weights");
static const int *const WEIGHTS[3] = {CHESS_W, MAKRUK_W, SHATRANJ_W};

/* 0 (rim) .. 6 (the four centre squares) */
static int centrality(int s)
{
    int f = s & 7, r = s >> 3;
    int df = f < 4 ? f : 7 - f, dr = r < 4 ? r : 7 - r;
    return df + dr;
}

/* The files beside file f. */
static inline uint64_t next_files(int f)
{
    return (f > 0 ? FILE_A << (f - 1) : 0) | (f < 7 ? FILE_A << (f + 1) : 0);
}

/* The ranks ahead of rank r for colour c (up the board for White). */
static inline uint64_t ranks_ahead(int c, int r)
{
    return c ? (1ull << (r * 8)) - 1
             : r >= 7 ? 0 : ~((1ull << ((r + 1) * 8)) - 1);
}

/* Piece-square index (pair) of a piece of slot sl and colour c on s:
 * own view (rank mirrored for Black), files folded (a-d = h-e). */
static inline int pst_index(int sl, int c, int s)
{
    int r = c ? 7 - (s >> 3) : s >> 3, f = s & 7;
    return W_PST + 2 * (sl * 32 + r * 4 + (f < 4 ? f : 7 - f));
}

/* The evaluation from White's view, written once for both uses: with
 * sink NULL it returns the score under weights w; otherwise it adds each
 * weight's coefficient (blend and sign included) to sink[0..W_N-1] and
 * returns the part no weight scales (the base of the linear form). */
static inline __attribute__((always_inline)) int
eval_core(const CBoard *b, const int *w, double *sink)
{
    int v = b->variant;
    const int8_t *slot = SLOT[v];
    uint64_t occ = b->col[0] | b->col[1];
    int material = 0;
    for (int t = CB_KNIGHT; t < CB_NTYPES; t++)
        if (t != CB_KING)
            material += VALUE[v][t] * cb_popcount(b->pcs[t]);
    int mg = material * 256 / START_MATERIAL[v];
    if (mg > 256)
        mg = 256;
    int eg = 256 - mg;
    double pm = mg / 256.0, pe = eg / 256.0;
    /* base: terms no weight scales (endgame knowledge, endgame.c), left
     * out of the tuning */
    int sum_mg = 0, sum_eg = 0, sum = 0, base = 0, sg = 1;
    /* n times weight i, blended (MG, EG) or not (FLAT); PAIR: both */
#define MG(i, n)                                                        \
    (sink ? (void)(sink[i] += sg * (n) * pm)                            \
          : (void)(sum_mg += sg * (n) * w[i]))
#define EG(i, n)                                                        \
    (sink ? (void)(sink[i] += sg * (n) * pe)                            \
          : (void)(sum_eg += sg * (n) * w[i]))
#define FLAT(i, n)                                                      \
    (sink ? (void)(sink[i] += sg * (n)) : (void)(sum += sg * (n) * w[i]))
#define PAIR(i, n) (MG(i, n), EG((i) + 1, n))
    /* first pass, both colours: what each side attacks (by pawns, by
     * each slot, in all), for threats, safe mobility and safe checks */
    int kings[2];
    uint64_t zone[2], patt[2], attby[2][NSLOTS], all[2];
    int npc[2];
    CbPieceAtt pcs[2][32];
    for (int c = 0; c < 2; c++) {
        kings[c] = cb_lsb(b->pcs[CB_KING] & b->col[c]);
        zone[c] = cb_piece_attacks(CB_KING, c, kings[c], 0);
        uint64_t pw = b->pcs[CB_PAWN] & b->col[c];
        patt[c] = c ? ((pw & ~FILE_A) >> 9) | ((pw & ~FILE_H) >> 7)
                    : ((pw & ~FILE_A) << 7) | ((pw & ~FILE_H) << 9);
        all[c] = patt[c] | zone[c];
        for (int sl = 0; sl < NSLOTS; sl++)
            attby[c][sl] = 0;
        npc[c] = cb_piece_list(b, c, occ, pcs[c], 32);
        for (int i = 0; i < npc[c]; i++) {
            attby[c][slot[pcs[c][i].type]] |= pcs[c][i].att;
            all[c] |= pcs[c][i].att;
        }
    }
    for (int c = 0; c < 2; c++) {
        sg = c ? -1 : 1;
        uint64_t own = b->col[c], them = b->col[!c];
        int hits[NSLOTS] = {0}, attackers = 0;
        uint64_t my_pawns = b->pcs[CB_PAWN] & own;
        uint64_t their_pawns = b->pcs[CB_PAWN] & them;
        int up = c ? -8 : 8;
        for (uint64_t p = my_pawns; p; p &= p - 1) {
            int s = cb_lsb(p), f = s & 7;
            int rel = c ? 7 - (s >> 3) : s >> 3;
            PAIR(W_MAT + 2 * S_PAWN, 1);
            PAIR(pst_index(S_PAWN, c, s), 1);
            /* passed: no enemy pawn ahead on this or the next files */
            uint64_t side = next_files(f), files = side | FILE_A << f;
            int r = s >> 3;
            uint64_t ahead = ranks_ahead(c, r);
            int stop = s + up;
            if (my_pawns & (FILE_A << f) & ahead)
                PAIR(W_DOUBLED, 1);
            if (!(my_pawns & side))
                PAIR(W_ISOLATED, 1);
            else if (!(my_pawns & side & ~ahead) && stop >= 0 && stop < 64 &&
                     (patt[!c] >> stop & 1))
                PAIR(W_BACKWARD, 1);   /* no neighbour level or behind */
            if (patt[c] >> s & 1)
                PAIR(W_SUPPORTED, 1);
            if (my_pawns & side & (0xFFull << (r * 8)))
                PAIR(W_PHALANX, 1);
            if (!(their_pawns & files & ahead) && rel >= 1 && rel <= 6) {
                PAIR(W_PASSED + 2 * (rel - 1), 1);
                if (stop >= 0 && stop < 64) {
                    if (occ >> stop & 1)
                        PAIR(W_PASSED_BLOCKED, 1);
                    int rw = rel >= 3 ? rel - 2 : 0;
                    if (rw) {
                        int dx = abs((stop & 7) - (kings[c] & 7));
                        int dy = abs((stop >> 3) - (kings[c] >> 3));
                        int d_own = dx > dy ? dx : dy;
                        dx = abs((stop & 7) - (kings[!c] & 7));
                        dy = abs((stop >> 3) - (kings[!c] >> 3));
                        int d_their = dx > dy ? dx : dy;
                        if (d_own > 5) d_own = 5;
                        if (d_their > 5) d_their = 5;
                        EG(W_PASSED_KOWN, d_own * rw);
                        EG(W_PASSED_KTHEIR, d_their * rw);
                    }
                }
            }
        }
        for (int i = 0; i < npc[c]; i++) {
            int s = pcs[c][i].sq, sl = slot[pcs[c][i].type];
            uint64_t att = pcs[c][i].att;
            int rel = c ? 7 - (s >> 3) : s >> 3;
            PAIR(W_MAT + 2 * sl, 1);
            PAIR(W_MOB + 2 * (sl - 1), cb_popcount(att & ~own));
            PAIR(W_MOB_UNSAFE + 2 * (sl - 1),
                 cb_popcount(att & ~own & patt[!c]));
            PAIR(pst_index(sl, c, s), 1);
            if (sl == S_ROOK) {
                uint64_t file = FILE_A << (s & 7);
                if (!(b->pcs[CB_PAWN] & file))
                    PAIR(W_ROOK_OPEN, 1);
                else if (!(my_pawns & file))
                    PAIR(W_ROOK_SEMI, 1);
                if (rel == 6)
                    PAIR(W_ROOK_7TH, 1);
            } else if ((sl == S_KNIGHT || sl == S_BISHOP) && rel >= 3 &&
                       rel <= 5 && (patt[c] >> s & 1)) {
                /* an outpost: no enemy pawn can ever attack the square */
                if (!(their_pawns & next_files(s & 7) &
                      ranks_ahead(c, s >> 3)))
                    PAIR(W_OUTPOST + 2 * (sl == S_BISHOP), 1);
            }
            if (sl == S_BISHOP) {
                /* own pawns on the bishop's colour of square */
                const uint64_t DARK = 0xAA55AA55AA55AA55ull;
                uint64_t colour = (DARK >> s & 1) ? DARK : ~DARK;
                PAIR(W_BISHOP_PAWNS, cb_popcount(my_pawns & colour));
            }
            uint64_t hit = att & zone[!c];
            if (hit) {
                hits[sl] += cb_popcount(hit);
                attackers++;
            }
        }
        /* threats on the enemy's pieces (not pawns, not the king) */
        uint64_t their_pcs = them & ~b->pcs[CB_PAWN] & ~b->pcs[CB_KING];
        for (int t = CB_KNIGHT; t < CB_NTYPES; t++) {
            int sl = slot[t];
            if (t == CB_KING || sl < 0)
                continue;
            uint64_t vict = b->pcs[t] & them;
            if (!vict)
                continue;
            PAIR(W_THREAT_PAWN + 2 * (sl - 1), cb_popcount(vict & patt[c]));
            uint64_t minor = attby[c][S_KNIGHT] | attby[c][S_BISHOP];
            if (sl == S_ROOK)
                PAIR(W_THREAT_MINOR, cb_popcount(vict & minor));
            else if (sl == S_QUEEN) {
                PAIR(W_THREAT_MINOR + 2, cb_popcount(vict & minor));
                PAIR(W_THREAT_ROOK, cb_popcount(vict & attby[c][S_ROOK]));
            }
        }
        PAIR(W_HANGING, cb_popcount(their_pcs & all[c] & ~all[!c]));
        int pair_type = v == CB_CHESS ? CB_BISHOP
                      : v == CB_MAKRUK ? CB_SILVER : CB_ALFIL;
        if (cb_popcount(b->pcs[pair_type] & own) >= 2)
            PAIR(W_PAIR, 1);
        /* king: placement, and the own pawns around it */
        int k = kings[c];
        PAIR(pst_index(S_KING, c, k), 1);
        PAIR(W_SHELTER, cb_popcount(zone[c] & my_pawns));
        {
            int kf = k & 7, open = 0;
            for (int f = kf > 0 ? kf - 1 : 0; f <= kf + 1 && f < 8; f++)
                open += !(my_pawns & (FILE_A << f));
            MG(W_KING_OPEN, open);
        }
        /* the enemy's checks from squares we do not guard: a piece of
         * type t checks from the squares one of ours would attack from
         * the king */
        uint64_t to_king[CB_NTYPES];
        cb_attacks_to(c, k, occ, to_king);
        for (int t = CB_KNIGHT; t < CB_NTYPES; t++) {
            int sl = slot[t];
            if (t == CB_KING || sl < 0 || !(b->pcs[t] & them))
                continue;
            uint64_t from = to_king[t] & attby[!c][sl] & ~all[c] & ~them;
            if (from)
                MG(W_SAFE_CHECK + sl - 1, -cb_popcount(from));
        }
        /* attacks on the enemy king count more when several join in */
        if (attackers >= 2)
            for (int sl = S_KNIGHT; sl <= S_QUEEN; sl++)
                if (hits[sl])
                    MG(W_KATT + sl - 1, hits[sl] * attackers);
        /* a bare king loses in shatranj; elsewhere a weight to tune */
        if (b->col[!c] == (b->pcs[CB_KING] & b->col[!c]))
            FLAT(W_BARE, 1);
    }
    sg = 1;
    FLAT(W_TEMPO, b->side ? -1 : 1);
    base += cb_endgame(b);      /* shatranj endings (endgame.c), untuned */
#undef MG
#undef EG
#undef FLAT
#undef PAIR
    if (sink)
        return base;
    return base + sum + (sum_mg * mg + sum_eg * eg) / 256;
}

/* White's view, then signed by the caller. */
static int eval_white(const CBoard *b)
{
    return eval_core(b, WEIGHTS[b->variant], NULL);
}

int cb_hook_eval(const void *st, int player)
{
    const CBoard *b = st;
    if (b->over == CB_DRAW)
        return 0;
    int s = eval_white(b);
    if (s > EVAL_MAX - 1) s = EVAL_MAX - 1;
    if (s < -(EVAL_MAX - 1)) s = -(EVAL_MAX - 1);
    return player ? -s : s;
}

static int cb_terms(const void *st, EvalTerm *out, double *base)
{
    const CBoard *b = st;
    *base = 0;
    if (b->over == CB_DRAW)
        return 0;
    double coef[W_N] = {0};
    *base = eval_core(b, WEIGHTS[b->variant], coef);
    int n = 0;
    for (int i = 0; i < W_N; i++)
        if (coef[i] != 0)
            out[n++] = (EvalTerm){.index = i, .coef = (float)coef[i]};
    return n;
}

const EvalTuning cb_tuning[3] = {
    {W_N, CHESS_NAMES, CHESS_W, cb_terms, NULL},
    {W_N, MAKRUK_NAMES, MAKRUK_W, cb_terms, NULL},
    {W_N, SHATRANJ_NAMES, SHATRANJ_W, cb_terms, NULL},
};

int cb_hook_heuristic(const void *st, Move m)
{
    const CBoard *b = st;
    const int *val = VALUE[b->variant];
    int from = CB_FROM(m), to = CB_TO(m), promo = CB_PROMO(m);
    int type = b->sq[from] & 15;
    int h = 0;
    if (cb_is_capture(b, m)) {
        int victim = b->sq[to] ? b->sq[to] & 15 : CB_PAWN;
        int aval = type == CB_KING ? 50 : val[type];
        h = 1000 + val[victim] - aval / 10;
    }
    if (promo)
        h = (h ? h : 1000) + val[promo];
    if (h)
        return h;
    /* quiet: centralisation gained; stepping where an enemy pawn strikes
     * is what a sensible player avoids */
    uint64_t pawn_hits = cb_piece_attacks(CB_PAWN, b->side, to, 0) &
                         b->pcs[CB_PAWN] & b->col[!b->side];
    if (pawn_hits && type != CB_PAWN)
        return -1 - val[type] / 10;
    int gain = centrality(to) - centrality(from);
    return 100 + 10 * gain + (type == CB_PAWN ? 5 : 0);
}

int cb_hook_is_noisy(const void *st, Move m)
{
    return CB_PROMO(m) != 0 || cb_is_capture(st, m);
}

enum { KING_VALUE = 20000 };

/* Static exchange on the move's square: the swap list of captures by the
 * least valuable attacker, x-rays seen through the occupancy (pins and
 * checks ignored), each side stopping where going on would lose. */
int cb_see(const CBoard *b, Move m)
{
    static const int ORDER[] = {CB_PAWN, CB_FERZ, CB_ALFIL, CB_SILVER,
                                CB_KNIGHT, CB_BISHOP, CB_ROOK, CB_QUEEN,
                                CB_KING};
    const int *val = VALUE[b->variant];
    int from = CB_FROM(m), to = CB_TO(m), promo = CB_PROMO(m);
    int type = b->sq[from] & 15;
    uint64_t occ = (b->col[0] | b->col[1]) ^ (UINT64_C(1) << from);
    int gain[40], d = 0;
    if (b->sq[to]) {
        gain[0] = val[b->sq[to] & 15];
    } else if (type == CB_PAWN && to == b->ep) {
        gain[0] = val[CB_PAWN];
        occ ^= UINT64_C(1) << (b->side ? to + 8 : to - 8);
    } else {
        gain[0] = 0;
    }
    int on = type == CB_KING ? KING_VALUE : val[type];  /* on the square */
    if (promo) {
        gain[0] += val[promo] - val[CB_PAWN];
        on = val[promo];
    }
    int side = b->side;
    for (;;) {
        side ^= 1;
        uint64_t att = cb_attackers(b, to, occ, side) & occ;
        if (!att || d + 1 >= 40)
            break;
        int t = 0;
        uint64_t pick = 0;
        for (size_t i = 0; i < sizeof ORDER / sizeof ORDER[0] && !pick; i++)
            if ((pick = att & b->pcs[ORDER[i]]))
                t = ORDER[i];
        d++;
        gain[d] = on - gain[d - 1];     /* side's net if it stops here */
        occ ^= pick & -pick;
        on = t == CB_KING ? KING_VALUE : val[t];
    }
    /* each side takes back only when that beats stopping before */
    for (; d > 0; d--)
        gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
    return gain[0];
}

int cb_hook_see(const void *st, Move m, int threshold)
{
    const CBoard *b = st;
    const int *val = VALUE[b->variant];
    int from = CB_FROM(m), to = CB_TO(m), promo = CB_PROMO(m);
    int type = b->sq[from] & 15;
    int gain = b->sq[to] ? val[b->sq[to] & 15]
             : type == CB_PAWN && to == b->ep ? val[CB_PAWN] : 0;
    int on = type == CB_KING ? KING_VALUE : val[type];
    if (promo) {
        gain += val[promo] - val[CB_PAWN];
        on = val[promo];
    }
    int r = see_bounds(gain, on, threshold);
    return r >= 0 ? r : cb_see(b, m) >= threshold;
}

int cb_hook_score(const void *st, int player)
{
    const CBoard *b = st;
    const int *val = VALUE[b->variant];
    int sum = 0;
    for (int t = CB_PAWN; t < CB_NTYPES; t++)
        sum += val[t] * cb_popcount(b->pcs[t] & b->col[player]);
    return sum / 100;
}
