/* frisian.c — Frisian draughts on the shared draughts engine. */
#include "engine.h"

static const DRules RULES = {
    .g = &DGEOM_10,
    .man_move = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .man_cap = {DR_DIAG | DR_ORTH, DR_DIAG | DR_ORTH},
    .king_move = DR_DIAG,
    .king_cap = DR_DIAG | DR_ORTH,
    .flying = 1,
    .precedence = DR_VALUE,
    .king_limit = 3,
    .numbered = 1,
    .quiet_limit = 50,
    .small_draw = DR_SMALL_FRISIAN,
    .men_rows = {0, 3},
    .max_moves = 1024,
    .man_value = 100,
    .king_value = 290,
    .colours = "WB",
};
#define DR_R (&RULES)
#include "hot.h"

static const char *const players[] = {"White", "Black"};

DR_DEFINE_GAME(game_draughts_frisian, "draughts-frisian",
    "Frisian draughts", players, 1024, DR_MAX_LENGTH(50, 10, 50), 50,
    "PDN square numbers 1..50 as in International draughts (46 = a1,\n"
    "White at the bottom); a1..j10 accepted too. A quiet move is FROM-TO;\n"
    "a capture lists every landing square, FROMx...xTO; FROMxTO alone is\n"
    "enough when unambiguous. Setup (PDN FEN): W:W31-50:B1-20 (K before a\n"
    "king), optionally :H<n> (plies without progress) and :R<colour><sq>/<n>\n"
    "(that side's king on sq has made n quiet moves in a row).",
    "10x10 board and start as International draughts; White first. Men\n"
    "step diagonally forward; kings fly along diagonals. Captures go in\n"
    "eight directions, diagonal and orthogonal (an orthogonal neighbour\n"
    "is the next dark square, two squares away), by men (forward and\n"
    "backward, short) and kings (at a distance). The capture of the\n"
    "greatest value is compulsory, a king worth just under two men (n\n"
    "kings between 2n-1 and 2n men); on equal value a capture by a king\n"
    "goes first. Captured pieces are removed after the move and cannot be\n"
    "jumped twice. A man is crowned only if its move ends on the last\n"
    "row. While a side has men, one king may make at most three quiet\n"
    "moves in a row. A player without a legal move loses. Draw: 25 moves\n"
    "by each side (50 plies) with only king moves and no capture; a lone\n"
    "king against two kings, 7 moves each; king against king, 2 moves\n"
    "each; threefold repetition (as in International draughts; no\n"
    "Frisian source seen says otherwise). The count of a king's quiet\n"
    "moves in a row is not part of the position.\n"
    DR_REPETITION_TEXT);
