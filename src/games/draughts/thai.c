/* thai.c — Thai draughts (mak-hot) on the shared draughts engine: 8 men
 * a side, men capturing forward only, flying kings that land right behind
 * the piece they take.
 *
 * Jumped pieces leave the board at once, so between two jumps a king may
 * also turn straight back, flying over the square of the piece it has
 * just taken (and over its own start square) to take a piece beyond: no
 * piece is left there to stop it. This is dctl's reading (thai.hpp sets
 * is_passing_capture, and dctl's generator scans all four directions,
 * reverse included, when captures are passing). Forbidding the turn
 * instead matches dctl only through depth 11 from the 12-man start
 * (385713687 at depth 12 against 385713660); with it every published
 * depth (1-13, with and without duplicate paths) matches. */
#include "engine.h"

static const DRules RULES = {
    .g = &DGEOM_8,
    .man_move = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .man_cap = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .king_move = DR_DIAG,
    .king_cap = DR_DIAG,
    .flying = 1,
    .land_next = 1,
    .immediate = 1,
    .king_reverse = 1,
    .precedence = DR_FREE,
    .numbered = 1,
    /* no draw count in the sources seen: Russian draughts' 15 moves
     * each, chosen */
    .quiet_limit = 30,
    .men_rows = {0, 1},
    .max_moves = 512,
    .man_value = 100,
    .king_value = 250,
    .colours = "WB",
};
#define DR_R (&RULES)
#include "hot.h"

static const char *const players[] = {"White", "Black"};

DR_DEFINE_GAME(game_draughts_thai, "draughts-thai", "Thai draughts (mak-hot)",
    players, 512, DR_MAX_LENGTH(32, 8, 30), 30,
    "PDN square numbers 1..32 (1 = b8 at the top left, 32 = g1, White at\n"
    "the bottom); a1..h8 squares are accepted too. A quiet move is\n"
    "FROM-TO (22-18); a capture lists every landing square, FROMx...xTO;\n"
    "FROMxTO alone is enough when it is unambiguous. Setup (PDN FEN):\n"
    "W:W25-32:B1-8 (K before a king), optionally :H<n>, the plies played\n"
    "without progress. The published perft counts (dctl) start from 12\n"
    "men a side: --setup W:W21-32:B1-12 --options repetition=false.",
    "8x8 board, 8 men each on the dark squares of the two nearest rows;\n"
    "White moves first. Men step and capture diagonally forward only.\n"
    "Kings fly: they move any distance along a free diagonal and capture\n"
    "a piece at any distance, but land on the square right behind it.\n"
    "Capturing is compulsory with free choice among captures, but a\n"
    "capture must be taken to its end. A jumped piece leaves the board at\n"
    "once (its square may be crossed again; dctl's thai.hpp), a piece is\n"
    "never jumped twice, and between two jumps a king may turn any way,\n"
    "even straight back over the square it has just emptied. A man\n"
    "reaching the last row is crowned. A player without a legal move\n"
    "loses. Draw: no draw count was found in the sources\n"
    "seen; chosen: 15 moves by each side (30 plies) with only king moves\n"
    "and no capture, and threefold repetition.\n"
    DR_REPETITION_TEXT);
