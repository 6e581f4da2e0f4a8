/* brazilian.c — Brazilian draughts (International rules on 8x8) on the
 * shared draughts engine. */
#include "engine.h"

static const DRules RULES = {
    .g = &DGEOM_8,
    .man_move = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .man_cap = {DR_DIAG, DR_DIAG},
    .king_move = DR_DIAG,
    .king_cap = DR_DIAG,
    .flying = 1,
    .precedence = DR_MAJORITY,
    /* 20 successive king moves without a capture or man move (CBD
     * Regras Oficiais, rule 16, as Brazilian clubs publish it) */
    .quiet_limit = 40,
    .men_rows = {0, 2},
    .max_moves = 512,
    .man_value = 100,
    .king_value = 280,
    .colours = "WB",
};
#define DR_R (&RULES)
#include "hot.h"

static const char *const players[] = {"White", "Black"};

DR_DEFINE_GAME(game_draughts_brazilian, "draughts-brazilian",
    "Brazilian draughts", players, 512, DR_MAX_LENGTH(32, 8, 40), 40,
    "Squares a1..h8 (a1 is a playing square, White at the bottom); PDN\n"
    "numbers 1..32 are accepted too (1 = b8, 32 = g1). A quiet move is\n"
    "FROM-TO (c3-d4); a capture lists every landing square, FROM:...:TO\n"
    "(c3:e5:c7); FROM:TO alone is enough when it is unambiguous. Setup\n"
    "(PDN FEN): W:Wa1,c1,Kd4:Bb8,h8 (K before a king; numbers accepted),\n"
    "optionally :H<n>, the plies played without progress.",
    "International draughts on an 8x8 board: 12 men each on the three\n"
    "nearest rows, White first. Men step diagonally forward and capture\n"
    "forward and backward; kings fly and capture at a distance. The\n"
    "capture taking the most pieces is compulsory (kings count as men).\n"
    "Captured pieces are removed after the move and cannot be jumped\n"
    "twice. A man is crowned only if its move ends on the last row. A\n"
    "player without a legal move loses. Draw (Brazilian confederation's\n"
    "Regras Oficiais do Jogo de Damas, rule 16 as published by Brazilian\n"
    "clubs: on 64 squares, 20 successive king moves without a capture or\n"
    "a man move draw): 20 moves by each side (40 plies) with only king\n"
    "moves and no capture, and threefold repetition. Not applied: the\n"
    "5-move rule for small endings with kings (two kings against one or\n"
    "two pieces, king against king or king and man).\n"
    DR_REPETITION_TEXT);
