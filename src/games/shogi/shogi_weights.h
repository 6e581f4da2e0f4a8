/* shogi_weights.h — the layout of the shogi family's evaluation
 * (eval.c): one index per weight, the same for shogi, minishogi and micro
 * shogi up to the piece-square tables, which have as many squares as the
 * variant's board (so a variant has SW_PST + 8 * w * h weights). Names
 * and values are in weights_shogi.h, weights_minishogi.h and
 * weights_micro_shogi.h, which `ply tune --out` writes. Values are in
 * EVAL units (pawn on the board = 100). */
#ifndef PLY_SHOGI_WEIGHTS_H
#define PLY_SHOGI_WEIGHTS_H

enum {
    /* on the board, by piece type PAWN..ROOK, GOLD, then promoted
     * PAWN..ROOK (the king has no value) */
    SW_BOARD_PAWN, SW_BOARD_LANCE, SW_BOARD_KNIGHT, SW_BOARD_SILVER,
    SW_BOARD_BISHOP, SW_BOARD_ROOK, SW_BOARD_GOLD,
    SW_BOARD_TOKIN, SW_BOARD_PLANCE, SW_BOARD_PKNIGHT, SW_BOARD_PSILVER,
    SW_BOARD_HORSE, SW_BOARD_DRAGON,
    /* in hand, PAWN..ROOK, GOLD */
    SW_HAND_PAWN, SW_HAND_LANCE, SW_HAND_KNIGHT, SW_HAND_SILVER,
    SW_HAND_BISHOP, SW_HAND_ROOK, SW_HAND_GOLD,
    SW_KING_ATTACK,         /* per attack unit: a piece within two squares
                               of the enemy king (pawn 1, others 2) */
    SW_KING_ATTACK_HAND,    /* per attack unit times the pieces in hand
                               (pawn 1, others 2; at most 6) */
    SW_KING_DEFENDER,       /* gold, silver or promoted piece next to the
                               own king */
    SW_TEMPO,
    SW_PST,                 /* 8 kinds (pawn lance knight silver gold
                               bishop rook king) x the board's squares,
                               own view */
    SW_N_MAX = SW_PST + 8 * 81
};

/* The table kind of piece type t: gold also for the promoted pawn,
 * lance, knight and silver (micro shogi's tokin included), bishop for
 * the horse, rook for the dragon. */
static inline int sw_kind(int t)
{
    static const signed char kind[16] = {
        -1, 0, 1, 2, 3, 5, 6, 4, 7,   /* - P L N S B R G K */
        4, 4, 4, 4, 5, 6, -1};        /* +P +L +N +S +B +R */
    return kind[t & 15];
}

/* The table weight of piece type t of colour col on row r, column c of a
 * w x h board: White's squares turned round. */
static inline int sw_pst(int t, int col, int r, int c, int w, int h)
{
    if (col) {
        r = h - 1 - r;
        c = w - 1 - c;
    }
    return SW_PST + sw_kind(t) * w * h + r * w + c;
}

#endif
