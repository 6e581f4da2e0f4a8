/* international.c — International draughts (FMJD, 10x10) on the shared
 * draughts engine. */
#include "engine.h"

static const DRules RULES = {
    .g = &DGEOM_10,
    .man_move = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .man_cap = {DR_DIAG, DR_DIAG},
    .king_move = DR_DIAG,
    .king_cap = DR_DIAG,
    .flying = 1,
    .precedence = DR_MAJORITY,
    .numbered = 1,
    .quiet_limit = 50,
    .small_draw = DR_SMALL_FMJD,
    .men_rows = {0, 3},
    .max_moves = 1024,
    .man_value = 100,
    .king_value = 320,
    .colours = "WB",
};
#define DR_R (&RULES)
#include "net_international.h"
#define DR_NET_BUILTIN dr_net_international
#include "hot.h"

static const char *const players[] = {"White", "Black"};

DR_DEFINE_GAME(game_draughts_international, "draughts-international",
    "International draughts (FMJD, 10x10)", players, 1024,
    DR_MAX_LENGTH(50, 10, 50), 50,
    "PDN square numbers 1..50 (1 = b10 at the top left, 46 = a1 at the\n"
    "bottom left, White at the bottom); a1..j10 squares are accepted too.\n"
    "A quiet move is FROM-TO (32-28); a capture lists every landing\n"
    "square, FROMx...xTO (19x28x37); FROMxTO alone is enough when it is\n"
    "unambiguous. Setup (PDN FEN): side to move, then White's and Black's\n"
    "pieces, K before a king: W:W31-50:B1-20 or W:WK47,33:B3,K12. An\n"
    "optional :H<n> gives the plies played without progress.",
    "10x10 board, 20 men each on the dark squares of the four nearest\n"
    "rows; White moves first. Men step diagonally forward and capture\n"
    "forward and backward. Kings fly: they move any distance along a free\n"
    "diagonal and capture a piece at any distance, landing on any free\n"
    "square behind it (where the capture can go on, if there is one).\n"
    "Capturing is compulsory and the sequence taking the most pieces must\n"
    "be played (kings count as men); among equals the player chooses.\n"
    "Captured pieces are removed after the move and cannot be jumped\n"
    "twice. A man is crowned only if its move ends on the last row (not\n"
    "when it passes it mid-capture). A player without a legal move loses.\n"
    "Draw: 25 moves by each side (50 plies) with only king moves and no\n"
    "capture. A lone king against three pieces with a king: 16 moves\n"
    "each; against one or two pieces with a king: 5 moves each (counted\n"
    "like the 25-move rule, so a man move restarts them). Threefold\n"
    "repetition (FMJD rules, art. 6).\n"
    DR_REPETITION_TEXT);
