/* shatranj.c — medieval Persian chess on the shared board (board.c):
 * game-end rules as Fairy-Stockfish's "shatranj".
 *
 * Pieces: shah (king, K), ferz (Q: one step diagonally), alfil (B: jumps
 * exactly two squares diagonally), faras (knight, N), rukh (rook, R),
 * baidaq (pawn, P: no double step, becomes a ferz on the last rank).
 * Checkmate wins and so does stalemate (the stalemated side loses). A
 * side left with its shah alone (bare king) loses, unless it can take the
 * opponent's last piece at once, leaving two bare kings: a draw. 70 moves
 * (140 plies) without a capture or pawn move, or threefold repetition,
 * draw. */
#include <string.h>

#include "board.h"

enum { SHATRANJ_MAX_PLIES = 18000 };  /* 126 irreversible moves x 140 */

/* Whether the side to move, bare, can capture the opponent's last
 * non-king piece right now. */
static int can_bare_back(const CBoard *b)
{
    uint64_t rest = b->col[!b->side] & ~b->pcs[CB_KING];
    if (cb_popcount(rest) != 1)
        return 0;
    Move mv[CB_MAX_MOVES];
    int n = cb_gen(b, mv, CB_MAX_MOVES);
    int target = cb_lsb(rest);
    for (int i = 0; i < n; i++)
        if (CB_TO(mv[i]) == target)
            return 1;
    return 0;
}

static void shatranj_status(CBoard *b, int rep3)
{
    Move one[1];
    int us = b->side;
    b->over = CB_PLAYING;
    b->reason = CB_R_NONE;
    if (!cb_gen(b, one, 1)) {
        /* checkmate or stalemate: the side to move loses either way */
        b->over = us ? CB_WIN_WHITE : CB_WIN_BLACK;
        b->reason = cb_in_check(b) ? CB_R_MATE : CB_R_STALEMATE;
        return;
    }
    uint64_t kings = b->pcs[CB_KING];
    int bare_us = b->col[us] == (kings & b->col[us]);
    int bare_them = b->col[!us] == (kings & b->col[!us]);
    if (bare_us && bare_them) {
        b->over = CB_DRAW;
        b->reason = CB_R_MATERIAL;
        return;
    }
    if (bare_them || (bare_us && !can_bare_back(b))) {
        int loser = bare_them ? !us : us;
        b->over = loser ? CB_WIN_WHITE : CB_WIN_BLACK;
        b->reason = CB_R_BARE_KING;
        return;
    }
    b->over = CB_DRAW;
    if (b->halfmove >= 140)
        b->reason = CB_R_NMOVE;
    else if (rep3 || cb_repetitions(b, 3) >= 3)
        b->reason = CB_R_REPETITION;
    else
        b->over = CB_PLAYING;
}

CB_VARIANT_HOOKS(shatranj, CB_SHATRANJ, shatranj_status)

static const char *const shatranj_players[] = {"White", "Black"};

const GameVtbl game_shatranj = {
    .info = {
        .name = "shatranj",
        .title = "Shatranj (medieval chess)",
        .num_players = 2,
        .max_moves = CB_MAX_MOVES,
        .max_game_length = SHATRANJ_MAX_PLIES,
        .state_size = sizeof(CBoard),
        .flags = GAME_ZERO_SUM,
        .player_names = shatranj_players,
        .options = NULL,
        .notation =
            "Moves in long algebraic notation as Fairy-Stockfish writes them:\n"
            "e2e3, a7a8q (promotion to ferz; the 'q' may be left out on\n"
            "input). SAN accepted on input. Letters as Fairy-Stockfish: K shah,\n"
            "Q ferz, B alfil, N faras, R rukh, P baidaq. Setup string: FEN,\n"
            "e.g. rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1. A game\n"
            "drawn by threefold repetition ends in \" 3fold\".",
        .rules =
            "Shatranj, as Fairy-Stockfish plays it. Shah moves like a king;\n"
            "ferz one step diagonally; alfil jumps two squares diagonally\n"
            "(over anything); faras like a knight; rukh like a rook; baidaq\n"
            "one step forward (no double step), captures diagonally forward,\n"
            "becomes a ferz on the last rank. No castling, no en passant.\n"
            "Checkmate wins; stalemate also wins (for the side that gave it).\n"
            "Bare king: a side left with only its shah loses, unless it can\n"
            "at once take the opponent's last piece, which leaves two bare\n"
            "shahs: a draw. 70 moves without a capture or pawn move, or\n"
            "threefold repetition, draw. Perft stops at these endings too,\n"
            "where Fairy-Stockfish's counts on (they agree on the oracle rows).",
    },
    CB_SHARED_HOOKS(shatranj, CB_SHATRANJ),
    .formats = cb_formats_variant,
};
