/* shogi_weights.h — the weights of the shogi and minishogi evaluation
 * (shogi.c): one name per parameter in the order of the SW_ indices, and
 * one value array per variant. `ply tune` fits a variant's values to game
 * results and rewrites its array; the names and indices stay. Values are
 * in EVAL units (pawn on the board = 100); shogi and minishogi hand-set,
 * micro-shogi fitted (below). */
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
    SW_N
};

static const char *const SHOGI_WEIGHT_NAMES[SW_N] = {
    "board.pawn", "board.lance", "board.knight", "board.silver",
    "board.bishop", "board.rook", "board.gold",
    "board.tokin", "board.promoted_lance", "board.promoted_knight",
    "board.promoted_silver", "board.horse", "board.dragon",
    "hand.pawn", "hand.lance", "hand.knight", "hand.silver", "hand.bishop",
    "hand.rook", "hand.gold",
    "king.attack", "king.attack_x_hand", "king.defender", "tempo",
};

static const int SHOGI_WEIGHTS[SW_N] = {
    100,    /* board.pawn */
    300,    /* board.lance */
    350,    /* board.knight */
    500,    /* board.silver */
    800,    /* board.bishop */
    950,    /* board.rook */
    550,    /* board.gold */
    520,    /* board.tokin */
    520,    /* board.promoted_lance */
    520,    /* board.promoted_knight */
    550,    /* board.promoted_silver */
    1050,   /* board.horse */
    1250,   /* board.dragon */
    115,    /* hand.pawn */
    330,    /* hand.lance */
    390,    /* hand.knight */
    560,    /* hand.silver */
    900,    /* hand.bishop */
    1060,   /* hand.rook */
    610,    /* hand.gold */
    12,     /* king.attack */
    3,      /* king.attack_x_hand */
    25,     /* king.defender */
    20,     /* tempo */
};

/* Minishogi has no lances or knights; their weights stay unused. */
static const int MINISHOGI_WEIGHTS[SW_N] = {
    100,    /* board.pawn */
    300,    /* board.lance */
    350,    /* board.knight */
    500,    /* board.silver */
    800,    /* board.bishop */
    950,    /* board.rook */
    550,    /* board.gold */
    520,    /* board.tokin */
    520,    /* board.promoted_lance */
    520,    /* board.promoted_knight */
    550,    /* board.promoted_silver */
    1050,   /* board.horse */
    1250,   /* board.dragon */
    115,    /* hand.pawn */
    330,    /* hand.lance */
    390,    /* hand.knight */
    560,    /* hand.silver */
    900,    /* hand.bishop */
    1060,   /* hand.rook */
    610,    /* hand.gold */
    12,     /* king.attack */
    3,      /* king.attack_x_hand */
    25,     /* king.defender */
    20,     /* tempo */
};

/* Micro shogi (4x5): pieces stored by how they move (tokin = the
 * bishop's reverse); hand slots are pairs of faces, dropped either side
 * up: hand.pawn = P/N, hand.lance = L/S, hand.bishop = B/tokin,
 * hand.rook = R/G; the other rows stay unused. Fitted by `ply tune` on
 * 2,000 self-play games (docs/tuning.md); hand-set before: board 100 250
 * 220 450 550 700 500 480, hand 280 560 . . 640 780, king 15 4 20,
 * tempo 20. */
static const int MICRO_WEIGHTS[SW_N] = {
    157,    /* board.pawn */
    194,    /* board.lance */
    106,    /* board.knight */
    587,    /* board.silver */
    495,    /* board.bishop */
    799,    /* board.rook */
    725,    /* board.gold */
    690,    /* board.tokin */
    520,    /* board.promoted_lance */
    520,    /* board.promoted_knight */
    550,    /* board.promoted_silver */
    1050,   /* board.horse */
    1250,   /* board.dragon */
    279,    /* hand.pawn */
    418,    /* hand.lance */
    390,    /* hand.knight */
    560,    /* hand.silver */
    600,    /* hand.bishop */
    699,    /* hand.rook */
    610,    /* hand.gold */
    4,      /* king.attack */
    10,     /* king.attack_x_hand */
    50,     /* king.defender */
    77,     /* tempo */
};

#endif
