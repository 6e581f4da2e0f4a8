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
    /* slider mobility: squares a lance, bishop, rook, horse, dragon
     * reaches (empty or enemy-occupied) */
    SW_MOB_LANCE, SW_MOB_BISHOP, SW_MOB_ROOK, SW_MOB_HORSE, SW_MOB_DRAGON,
    SW_ZONE_ATTACKS,        /* attacks on the 8 squares around the enemy
                               king */
    SW_ZONE_WEAK,           /* of those squares, the ones attacked and
                               defended by the enemy king alone */
    SW_ZONE_DANGER,         /* (attacks + weak squares) squared, capped at
                               24 before squaring */
    SW_KING_ESCAPE,         /* squares next to the own king it may step
                               to: empty or enemy, not attacked */
    /* safe checks by a drop from hand: empty squares from which a piece
     * in hand would give check, not defended by the enemy (next to the
     * king: supported, and defended by the king alone) */
    SW_DROP_CHECK_LANCE, SW_DROP_CHECK_KNIGHT, SW_DROP_CHECK_SILVER,
    SW_DROP_CHECK_BISHOP, SW_DROP_CHECK_ROOK, SW_DROP_CHECK_GOLD,
    /* pieces attacked and not defended, by size (pawn; lance, knight,
     * silver, gold and the promoted minors; bishop, rook, horse, dragon),
     * on the side's own turn and on the opponent's */
    SW_HANG_SMALL_STM, SW_HANG_SMALL_WAIT, SW_HANG_MID_STM,
    SW_HANG_MID_WAIT, SW_HANG_BIG_STM, SW_HANG_BIG_WAIT,
    /* pieces attacked by an enemy piece of lower value */
    SW_THREAT_LESSER_STM, SW_THREAT_LESSER_WAIT,
    /* piece tables relative to the kings, by kind (pawn lance knight
     * silver gold-like bishop rook horse dragon): the own king's 5 x 5
     * square (rows -2..2 ahead of it, columns -2..2 towards the centre),
     * and rows -2..3 ahead of the enemy king (from its view) x columns
     * -2..2 towards the centre */
    SW_KOWN,
    SW_KOPP = SW_KOWN + 9 * 25,
    /* 8 kinds (pawn lance knight silver gold bishop rook king) x the
     * board's squares, own view */
    SW_PST = SW_KOPP + 9 * 30,
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
