/* russian.c — Russian draughts (shashki) on the shared draughts engine. */
#include "engine.h"

static const DRules RULES = {
    .g = &DGEOM_8,
    .man_move = {(1u << DR_NE) | (1u << DR_NW), (1u << DR_SE) | (1u << DR_SW)},
    .man_cap = {DR_DIAG, DR_DIAG},
    .king_move = DR_DIAG,
    .king_cap = DR_DIAG,
    .flying = 1,
    .precedence = DR_FREE,
    .passing_promo = 1,
    .quiet_limit = 30,
    .men_rows = {0, 2},
    .max_moves = 512,
    .man_value = 100,
    .king_value = 280,
    .colours = "WB",
};
#define DR_R (&RULES)
#include "net_russian.h"
#define DR_NET_BUILTIN dr_net_russian
#include "hot.h"

static const char *const players[] = {"White", "Black"};

DR_DEFINE_GAME(game_draughts_russian, "draughts-russian",
    "Russian draughts (shashki)", players, 512,
    DR_MAX_LENGTH(32, 8, 30), 30,
    "Squares a1..h8 (a1 is a playing square, White at the bottom); PDN\n"
    "numbers 1..32 are accepted too (1 = b8, 32 = g1). A quiet move is\n"
    "FROM-TO (c3-d4); a capture lists every landing square, FROM:...:TO\n"
    "(c3:e5:c7); 'x' may replace ':' and FROM:TO alone is enough when it\n"
    "is unambiguous. Setup (PDN FEN): side to move, then White's and\n"
    "Black's pieces, K before a king: W:Wa1,c1,Kd4:Bb8,h8 (numbers and\n"
    "ranges such as B1-12 are accepted). An optional :H<n> gives the\n"
    "plies played without progress (see the draw rule).",
    "8x8 board, 12 men each on the dark squares of the three nearest\n"
    "rows; White moves first. Men step diagonally forward and capture\n"
    "forward and backward by jumping an adjacent enemy piece. Kings fly:\n"
    "they move any distance along a free diagonal and capture a piece at\n"
    "any distance, landing on any free square behind it. Capturing is\n"
    "compulsory and the player chooses freely among the captures (no\n"
    "majority rule), but a capture must be taken to its end. Captured\n"
    "pieces are removed after the move and cannot be jumped twice\n"
    "(Turkish strike). A man reaching the last row mid-capture becomes a\n"
    "king and goes on capturing as a king. A player without a legal move\n"
    "loses. Draw (Russian draughts federation rules, as summarised by\n"
    "shashky.in.ua): threefold repetition, and 15 moves by each side (30\n"
    "plies) with only king moves and no capture. Not applied: three\n"
    "kings that fail to take a lone king by their 15th move, and the 5,\n"
    "30 and 60 moves without a capture or crowning in endings of 2-3,\n"
    "4-5 and 6-7 pieces where both sides have kings.\n"
    DR_REPETITION_TEXT);
