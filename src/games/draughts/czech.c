/* czech.c — Czech draughts (česká dáma) on the shared draughts engine:
 * Russian-like flying kings, men capturing forward only, and a capture by
 * a king taking precedence over one by a man. */
#include "engine.h"

static const DRules RULES = {
    .g = &DGEOM_8,
    .man_move = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .man_cap = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .king_move = DR_DIAG,
    .king_cap = DR_DIAG,
    .flying = 1,
    .precedence = DR_KING,
    /* no draw count in the sources seen: Russian draughts' 15 moves
     * each, chosen */
    .quiet_limit = 30,
    .men_rows = {0, 2},
    .max_moves = 512,
    .man_value = 100,
    .king_value = 300,
    .colours = "WB",
};
#define DR_R (&RULES)
#include "hot.h"

static const char *const players[] = {"White", "Black"};

DR_DEFINE_GAME(game_draughts_czech, "draughts-czech",
    "Czech draughts (česká dáma)", players, 512, DR_MAX_LENGTH(32, 8, 30), 30,
    "Squares a1..h8 (a1 is a playing square, White at the bottom), as the\n"
    "Czech rules write them; PDN numbers 1..32 are accepted too (1 = b8,\n"
    "32 = g1). A quiet move is FROM-TO (c3-d4); a capture lists every\n"
    "landing square, FROM:...:TO (c3:e5:g7); FROM:TO alone is enough when\n"
    "it is unambiguous. Setup (PDN FEN): W:Wa1,c1,Kd4:Bb8,h8 (K before a\n"
    "king), optionally :H<n>, the plies played without progress.",
    "8x8 board, 12 men each on the dark squares of the three nearest\n"
    "rows; White moves first. Men step and capture diagonally forward\n"
    "only. Kings fly: they move any distance along a free diagonal and\n"
    "capture a piece at any distance, landing on any free square behind\n"
    "it (where the capture can go on, if there is one). Capturing is\n"
    "compulsory; when a king can capture, a king must (Czech draughts\n"
    "federation rules, as on cs.wikipedia and dctl's czech.hpp); otherwise\n"
    "the player chooses freely, but a capture must be taken to its end.\n"
    "Captured pieces are removed after the move and cannot be jumped\n"
    "twice. A man reaching the last row is crowned. A player without a\n"
    "legal move loses. Draw: the federation's rule is a draw when no\n"
    "further capture is possible with careful play (an arbiter's\n"
    "judgement, not applied); chosen instead: 15 moves by each side (30\n"
    "plies) with only king moves and no capture, and threefold\n"
    "repetition.\n"
    DR_REPETITION_TEXT);
