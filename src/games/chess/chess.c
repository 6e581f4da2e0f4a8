/* chess.c — FIDE chess on the shared board (board.c): game-end rules.
 *
 * The game ends at once, without a claim, on checkmate, stalemate, the
 * fifty-move rule (100 plies without a capture or pawn move), threefold
 * repetition (positions counted since the last capture or pawn move; the
 * setup string does not carry earlier positions, so a game drawn by
 * repetition is written with a trailing "3fold"), and dead positions by
 * material (K v K, K+minor v K, kings and bishops all on one colour). */
#include <string.h>

#include "board.h"

enum { CHESS_MAX_PLIES = 13000 };   /* 126 irreversible moves x 100 + 100 */

static const uint64_t DARK = 0xAA55AA55AA55AA55ull;

static int dead_material(const CBoard *b)
{
    const uint64_t *p = b->pcs;
    if (p[CB_PAWN] | p[CB_ROOK] | p[CB_QUEEN])
        return 0;
    uint64_t minors = p[CB_KNIGHT] | p[CB_BISHOP];
    if (cb_popcount(minors) <= 1)
        return 1;
    return !p[CB_KNIGHT] &&
           (!(p[CB_BISHOP] & DARK) || !(p[CB_BISHOP] & ~DARK));
}

static void chess_status(CBoard *b, int rep3)
{
    Move one[1];
    b->over = CB_PLAYING;
    b->reason = CB_R_NONE;
    if (!cb_gen(b, one, 1)) {
        if (cb_in_check(b)) {
            b->over = b->side ? CB_WIN_WHITE : CB_WIN_BLACK;
            b->reason = CB_R_MATE;
        } else {
            b->over = CB_DRAW;
            b->reason = CB_R_STALEMATE;
        }
        return;
    }
    b->over = CB_DRAW;
    if (b->halfmove >= 100)
        b->reason = CB_R_NMOVE;
    else if (rep3 || cb_repetitions(b, 3) >= 3)
        b->reason = CB_R_REPETITION;
    else if (dead_material(b))
        b->reason = CB_R_MATERIAL;
    else
        b->over = CB_PLAYING;
}

CB_VARIANT_HOOKS(chess, CB_CHESS, chess_status)

static const char *const chess_players[] = {"White", "Black"};

const GameVtbl game_chess = {
    .info = {
        .name = "chess",
        .title = "Chess (FIDE rules)",
        .num_players = 2,
        .max_moves = CB_MAX_MOVES,
        .max_game_length = CHESS_MAX_PLIES,
        .state_size = sizeof(CBoard),
        .flags = GAME_ZERO_SUM,
        .player_names = chess_players,
        .options = NULL,
        .notation =
            "Moves in long algebraic notation as UCI writes them: e2e4,\n"
            "e1g1 (castling is the king's two-square move), e7e8q (promotion:\n"
            "q, r, b or n). SAN is accepted on input too: Nf3, exd5, O-O,\n"
            "e8=Q+. Setup string: FEN (6 fields; the last two may be left\n"
            "out), e.g. rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n"
            "0 1. An en passant square is kept only when a pawn can take\n"
            "there. A game drawn by threefold repetition ends in \" 3fold\".",
        .rules =
            "FIDE chess: castling on both sides (not out of, through or into\n"
            "check), en passant, promotion to queen, rook, bishop or knight.\n"
            "Checkmate wins; stalemate is a draw. Ply ends the game as a draw\n"
            "without a claim after 50 moves (100 plies) without a capture or\n"
            "pawn move, on the third occurrence of a position (counted since\n"
            "the last capture or pawn move, and from the setup position on),\n"
            "and when neither side can mate (K v K, K+B or K+N v K, kings and\n"
            "bishops all on squares of one colour). Perft stops at these draws\n"
            "too, where Fairy-Stockfish's counts on; the two agree wherever\n"
            "none is within reach (all the oracle rows: repetition needs 8\n"
            "plies, the fifty-move rule 100).",
    },
    CB_SHARED_HOOKS(chess, CB_CHESS),
    .formats = cb_formats_chess,
};
