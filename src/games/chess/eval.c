/* eval.c — evaluation, move ordering and quiescence hooks shared by the
 * 8x8 chess family, with game-specific piece values.
 *
 * eval: material, piece placement (piece-square tables for chess,
 * centralisation and pawn advance for makruk and shatranj; passed pawns;
 * king shelter in the middlegame and centralisation in the endgame,
 * blended by the non-pawn material left), mobility, attacks on
 * the squares around the enemy king, bishop pair, rook on open files, a
 * small tempo bonus. Shatranj adds a bonus for baring the enemy king,
 * which wins there. Weights are hand-set round numbers (not tuned yet).
 * heuristic: captures by MVV-LVA and promotions first; quiet moves by
 * the centralisation gained, negative when a piece steps onto a square an
 * enemy pawn attacks. is_noisy: captures and promotions. */
#include <stdlib.h>

#include "board.h"

/* Values in centipawns by variant and piece type (CB_PAWN..CB_ALFIL). */
static const int VALUE[3][CB_NTYPES] = {
    /*   -  P    N    B    R    Q    K  F/met S/khon alfil */
    {0, 100, 320, 330, 500, 900, 0, 0, 0, 0},     /* chess */
    {0, 100, 320, 0, 500, 0, 0, 180, 250, 0},     /* makruk */
    {0, 100, 300, 0, 500, 0, 0, 160, 0, 120},     /* shatranj */
};
/* Mobility per reachable square. */
static const int MOBILITY[CB_NTYPES] = {0, 0, 4, 4, 2, 1, 0, 3, 3, 2};
/* Weight of attacks on the squares next to the enemy king. */
static const int KING_ATTACK[CB_NTYPES] = {0, 0, 8, 8, 10, 14, 0, 5, 6, 3};
/* Non-pawn material at the start (both sides), for the game phase. */
static const int START_MATERIAL[3] = {
    2 * (2 * 320 + 2 * 330 + 2 * 500 + 900),
    2 * (2 * 320 + 2 * 250 + 2 * 500 + 180),
    2 * (2 * 300 + 2 * 120 + 2 * 500 + 160),
};

static const uint64_t FILE_A = 0x0101010101010101ull;

/* Chess piece-square tables, hand-set, White's view with a1 first (row 1
 * is rank 1); Black reads them with the rank mirrored (sq ^ 56). */
static const int8_t PST[7][64] = {
    {0},
    {   /* pawn */
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,  -8,  -8,   0,   0,   0,
      2,   0,   4,   6,   6,   4,   0,   2,
      2,   2,   8,  18,  18,   8,   2,   2,
      4,   6,  10,  20,  20,  10,   6,   4,
     10,  12,  16,  24,  24,  16,  12,  10,
     30,  30,  30,  30,  30,  30,  30,  30,
      0,   0,   0,   0,   0,   0,   0,   0},
    {   /* knight */
    -40, -25, -20, -20, -20, -20, -25, -40,
    -25, -10,   0,   4,   4,   0, -10, -25,
    -20,   4,  10,  12,  12,  10,   4, -20,
    -20,   2,  12,  18,  18,  12,   2, -20,
    -20,   4,  14,  20,  20,  14,   4, -20,
    -20,   6,  14,  16,  16,  14,   6, -20,
    -25, -10,   2,   6,   6,   2, -10, -25,
    -40, -25, -20, -20, -20, -20, -25, -40},
    {   /* bishop */
    -15,  -5, -10,  -5,  -5, -10,  -5, -15,
     -5,  10,   4,   6,   6,   4,  10,  -5,
     -5,   6,   8,   8,   8,   8,   6,  -5,
     -5,   4,  10,  12,  12,  10,   4,  -5,
     -5,   6,   8,  12,  12,   8,   6,  -5,
     -5,   4,   6,   8,   8,   6,   4,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
    -15,  -5,  -5,  -5,  -5,  -5,  -5, -15},
    {   /* rook */
      0,   0,   4,   8,   8,   4,   0,   0,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
      0,   0,   0,   0,   0,   0,   0,   0,
     15,  20,  20,  20,  20,  20,  20,  15,
      5,   5,   5,   5,   5,   5,   5,   5},
    {   /* queen */
    -10,  -5,  -5,   0,   0,  -5,  -5, -10,
     -5,   0,   4,   0,   0,   0,   0,  -5,
     -5,   4,   4,   4,   4,   4,   0,  -5,
      0,   0,   4,   4,   4,   4,   0,  -2,
     -2,   0,   4,   4,   4,   4,   0,  -2,
     -5,   0,   4,   4,   4,   4,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
    -10,  -5,  -5,  -2,  -2,  -5,  -5, -10},
    {   /* king, middlegame (the endgame uses centrality) */
     15,  25,   8,  -5,   0,   5,  25,  15,
     10,  10,  -5, -15, -15,  -5,  10,  10,
    -10, -20, -20, -25, -25, -20, -20, -10,
    -20, -30, -30, -40, -40, -30, -30, -20,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30},
};

/* 0 (rim) .. 6 (the four centre squares) */
static int centrality(int s)
{
    int f = s & 7, r = s >> 3;
    int df = f < 4 ? f : 7 - f, dr = r < 4 ? r : 7 - r;
    return df + dr;
}

/* White's view, then signed by the caller. */
static int eval_white(const CBoard *b)
{
    int v = b->variant;
    const int *val = VALUE[v];
    uint64_t occ = b->col[0] | b->col[1];
    int material = 0;
    for (int t = CB_KNIGHT; t < CB_NTYPES; t++)
        if (t != CB_KING)
            material += val[t] * cb_popcount(b->pcs[t]);
    /* mg: 256 at the start, 0 with no pieces left */
    int mg = material * 256 / START_MATERIAL[v];
    if (mg > 256)
        mg = 256;
    int eg = 256 - mg;
    int score[2] = {0, 0};
    int kings[2];
    uint64_t zone[2];
    for (int c = 0; c < 2; c++) {
        kings[c] = cb_lsb(b->pcs[CB_KING] & b->col[c]);
        zone[c] = cb_piece_attacks(CB_KING, c, kings[c], 0);
    }
    for (int c = 0; c < 2; c++) {
        uint64_t own = b->col[c];
        int sc = 0, attack = 0, attackers = 0;
        uint64_t my_pawns = b->pcs[CB_PAWN] & own;
        uint64_t their_pawns = b->pcs[CB_PAWN] & b->col[!c];
        for (uint64_t p = my_pawns; p; p &= p - 1) {
            int s = cb_lsb(p), f = s & 7;
            int rel = c ? 7 - (s >> 3) : s >> 3;
            if (v == CB_CHESS)
                sc += val[CB_PAWN] + PST[CB_PAWN][c ? s ^ 56 : s];
            else
                sc += val[CB_PAWN] + rel * 4 + (f >= 2 && f <= 5 ? 5 : 0);
            /* passed: no enemy pawn ahead on this or the next files */
            uint64_t files = FILE_A << f;
            if (f > 0) files |= FILE_A << (f - 1);
            if (f < 7) files |= FILE_A << (f + 1);
            int r = s >> 3;   /* pawns never stand on their last rank */
            uint64_t ahead = c ? (1ull << (r * 8)) - 1
                               : r >= 7 ? 0 : ~((1ull << ((r + 1) * 8)) - 1);
            if (!(their_pawns & files & ahead))
                sc += (rel * rel * 3 * (64 + eg)) / 256;
        }
        for (int t = CB_KNIGHT; t < CB_NTYPES; t++) {
            if (t == CB_KING)
                continue;
            for (uint64_t p = b->pcs[t] & own; p; p &= p - 1) {
                int s = cb_lsb(p);
                uint64_t att = cb_piece_attacks(t, c, s, occ);
                sc += val[t];
                sc += MOBILITY[t] * cb_popcount(att & ~own);
                if (v == CB_CHESS)
                    sc += PST[t][c ? s ^ 56 : s];
                else if (t == CB_KNIGHT || t >= CB_FERZ)
                    sc += 3 * centrality(s);
                if (t == CB_ROOK && !(b->pcs[CB_PAWN] & (FILE_A << (s & 7))))
                    sc += 15;
                uint64_t hit = att & zone[!c];
                if (hit) {
                    attack += KING_ATTACK[t] * cb_popcount(hit);
                    attackers++;
                }
            }
        }
        if (cb_popcount(b->pcs[CB_BISHOP] & own) >= 2)
            sc += 30;
        /* king: shelter in the middlegame, centre in the endgame */
        int k = kings[c], krel = c ? 7 - (k >> 3) : k >> 3;
        int shelter = v == CB_CHESS ? PST[CB_KING][c ? k ^ 56 : k]
                                    : -12 * krel;
        uint64_t front = cb_piece_attacks(CB_KING, c, k, 0) & my_pawns;
        shelter += 10 * cb_popcount(front);
        sc += (shelter * mg + 6 * centrality(k) * eg) / 256;
        /* attacks on the enemy king count more when several join in */
        if (attackers >= 2)
            sc += attack * attackers * mg / (2 * 256);
        score[c] = sc;
    }
    int s = score[0] - score[1];
    if (v == CB_SHATRANJ) {
        for (int c = 0; c < 2; c++)
            if (b->col[!c] == (b->pcs[CB_KING] & b->col[!c]))
                s += c ? -400 : 400;
    }
    s += cb_endgame(b);   /* shatranj endings (endgame.c) */
    s += b->side ? -10 : 10;
    return s;
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

int cb_hook_score(const void *st, int player)
{
    const CBoard *b = st;
    const int *val = VALUE[b->variant];
    int sum = 0;
    for (int t = CB_PAWN; t < CB_NTYPES; t++)
        sum += val[t] * cb_popcount(b->pcs[t] & b->col[player]);
    return sum / 100;
}
