/* turkish.c — Turkish draughts (Dama) on the shared draughts engine:
 * all 64 squares, orthogonal moves, captured pieces removed at once. */
#include "engine.h"

static const DRules RULES = {
    .g = &DGEOM_FULL8,
    .man_move = {(1u << DR_N) | (1u << DR_E) | (1u << DR_W),
                 (1u << DR_S) | (1u << DR_E) | (1u << DR_W)},
    .man_cap = {(1u << DR_N) | (1u << DR_E) | (1u << DR_W),
                (1u << DR_S) | (1u << DR_E) | (1u << DR_W)},
    .king_move = DR_ORTH,
    .king_cap = DR_ORTH,
    .flying = 1,
    .precedence = DR_MAJORITY,
    .immediate = 1,
    .quiet_limit = 50,
    .small_draw = DR_SMALL_TURKISH,
    .men_rows = {1, 2},
    .max_moves = 1024,
    .man_value = 100,
    .king_value = 350,
    .colours = "WB",
};
#define DR_R (&RULES)
#include "hot.h"

static const char *const players[] = {"White", "Black"};

DR_DEFINE_GAME(game_draughts_turkish, "draughts-turkish",
    "Turkish draughts (Dama)", players, 1024, DR_MAX_LENGTH(64, 8, 50), 50,
    "Squares a1..h8, White at the bottom. A quiet move is FROM-TO (d3-d4);\n"
    "a capture lists every landing square, FROM:...:TO (d3:d5:f5); FROM:TO\n"
    "alone is enough when unambiguous. Setup (PDN FEN style):\n"
    "W:Wa2,b2,Kd4:Ba7,h6 (K before a king), optionally :H<n>, the plies\n"
    "played without progress.",
    "8x8 board, all 64 squares; 16 men each on the second and third rows\n"
    "(White a2-h3, Black a6-h7); White moves first. Men move one square\n"
    "forward or sideways and capture forward or sideways by jumping an\n"
    "adjacent piece. Kings move any distance along a rank or file and\n"
    "capture a piece at any distance, landing on any free square behind.\n"
    "Capturing is compulsory and the sequence taking the most pieces must\n"
    "be played (kings count as men). Captured pieces are removed at once,\n"
    "so squares may be crossed again; a king may not turn back 180\n"
    "degrees between two captures. A man is crowned when its move ends on\n"
    "the last row (mid-capture it goes on as a man). A player without a\n"
    "legal move loses. Draw: threefold repetition and one piece against\n"
    "one piece (kish RULES.md, from Wikipedia, the FMJD page and\n"
    "others); 50 plies without a capture or a forward man move (kish's\n"
    "optional rule, not authoritative). A man's sideways step is quiet:\n"
    "it does not reset the 50 plies and positions may repeat through it.\n"
    DR_REPETITION_TEXT);
