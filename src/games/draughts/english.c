/* english.c — English draughts / American checkers on the shared
 * draughts engine. Internally the first player (Black) starts at the
 * bottom; text and pictures turn the board so Black sits at the top on
 * squares 1-12, as in checkers literature. */
#include "engine.h"

static const DRules RULES = {
    .g = &DGEOM_8,
    .man_move = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .man_cap = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .king_move = DR_DIAG,
    .king_cap = DR_DIAG,
    .flying = 0,
    .precedence = DR_FREE,
    .numbered = 1,
    .flip = 1,
    .quiet_limit = 80,
    .men_rows = {0, 2},
    .max_moves = 512,
    .man_value = 100,
    .king_value = 160,
    .colours = "BW",
};
#define DR_R (&RULES)
#include "hot.h"

static const char *const players[] = {"Black", "White"};

DR_DEFINE_GAME(game_draughts_english, "draughts-english",
    "English draughts (American checkers)", players, 512,
    DR_MAX_LENGTH(32, 8, 80), 80,
    "PDN square numbers 1..32: Black starts on 1-12 (top), White on\n"
    "21-32 (bottom); a1..h8 squares are accepted too (a1 is a playing\n"
    "square at White's left). A quiet move is FROM-TO (11-15); a capture\n"
    "lists every landing square, FROMx...xTO (22x15x8); FROMxTO alone is\n"
    "enough when it is unambiguous. Setup (PDN FEN): B:W21-32:B1-12 (K\n"
    "before a king), optionally :H<n>, the plies played without progress.",
    "8x8 board, 12 men each on the three nearest rows; Black moves first.\n"
    "Men step diagonally forward and capture forward only, by jumping an\n"
    "adjacent piece. Kings step one square in any diagonal direction and\n"
    "capture short in all four. Capturing is compulsory with free choice\n"
    "among captures, but a capture must be taken to its end. A man that\n"
    "reaches the last row is crowned and its move ends. A player without\n"
    "a legal move loses. Draw (usacheckers.com rules 1.32, as dctl\n"
    "encodes them): threefold repetition, and 40 moves by each side (80\n"
    "plies) without a man move or a capture. The rules make repetition a\n"
    "draw to be claimed; Ply ends the game at once.\n"
    DR_REPETITION_TEXT);
