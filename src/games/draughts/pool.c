/* pool.c — American pool checkers on the shared draughts engine. */
#include "engine.h"

static const DRules RULES = {
    .g = &DGEOM_8,
    .man_move = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .man_cap = {DR_DIAG, DR_DIAG},
    .king_move = DR_DIAG,
    .king_cap = DR_DIAG,
    .flying = 1,
    .precedence = DR_FREE,
    .numbered = 1,
    /* APCA Tournament Rules of Play rule 26, a thirty-move rule (text not
     * seen; dctl pool.hpp encodes 30 reversible moves): 30 moves each */
    .quiet_limit = 60,
    .men_rows = {0, 2},
    .max_moves = 512,
    .man_value = 100,
    .king_value = 270,
    .colours = "WB",
};
#define DR_R (&RULES)
#include "hot.h"

static const char *const players[] = {"White", "Black"};

DR_DEFINE_GAME(game_draughts_pool, "draughts-pool", "Pool checkers",
    players, 512, DR_MAX_LENGTH(32, 8, 60), 60,
    "PDN square numbers 1..32 (1 = b8 at the top left, 32 = g1; the\n"
    "first player at the bottom); a1..h8 squares are accepted too. A\n"
    "quiet move is FROM-TO (22-18); a capture lists every landing square,\n"
    "FROMx...xTO; FROMxTO alone is enough when it is unambiguous. Setup\n"
    "(PDN FEN): W:W21-32:B1-12 (K before a king), optionally :H<n>, the\n"
    "plies played without progress.",
    "8x8 board, 12 men each on the three nearest rows; the first player\n"
    "(called White here, as in the perft references) starts at the\n"
    "bottom. Men step diagonally forward and capture forward and\n"
    "backward; kings fly and capture at a distance. Capturing is\n"
    "compulsory with free choice among captures (no majority rule), but a\n"
    "capture must be taken to its end. Captured pieces are removed after\n"
    "the move and cannot be jumped twice. A man that reaches the last row\n"
    "mid-capture and can go on capturing continues as a man and is not\n"
    "crowned; it is crowned when its move ends there. A player without a\n"
    "legal move loses. Draw: 30 moves by each side (60 plies) with only\n"
    "king moves and no capture, and threefold repetition. Source: the\n"
    "American Pool Checker Association's Tournament Rules of Play, rule\n"
    "26 (a thirty-move rule), whose text could not be read here; dctl\n"
    "encodes rule 26 as threefold repetition and 30 reversible moves,\n"
    "taken here as 30 moves by each side (if the rule counts plies, the\n"
    "limit is half). Not applied: the 13-move count for three kings\n"
    "against a lone king (rule 27).\n"
    DR_REPETITION_TEXT);
