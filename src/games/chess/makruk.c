/* makruk.c — Thai chess on the shared board (board.c): game-end rules.
 *
 * Pieces: khun (king, K), met (M: one step diagonally), khon (S: one step
 * diagonally or straight forward), ma (knight, N), rua (rook, R), bia
 * (pawn, P: one step forward, captures diagonally forward, no double
 * step). Pawns start on the third rank and become mets on reaching the
 * sixth. No castling, no en passant. Checkmate wins, stalemate draws.
 *
 * Counting rules, as Ply applies them (automatically, for both sides):
 * - Board's honour: while no bia remains on the board, the game is drawn
 *   after 64 moves (128 plies) without a capture. Ply applies the same
 *   64-move limit while bias remain too (so every game ends); real play
 *   has no limit then.
 * - Pieces' honour: when one side has only its khun, the count starts at
 *   (pieces on the board + 1) and the stronger side must mate before the
 *   count passes the limit set by its material: 2 rua 8, 1 rua 16,
 *   2 khon 22, 2 ma 32, 1 khon 44, otherwise 64 (counted in moves of the
 *   stronger side, i.e. plies since the last capture / 2). A capture
 *   restarts the count from the new number of pieces. The real rules start
 *   a count when the weaker side claims it and keep the limit fixed at the
 *   start; Ply recomputes it from the position so that the FEN halfmove
 *   field alone carries the count.
 * Both khuns alone: draw. Threefold repetition: draw. */
#include <string.h>

#include "board.h"

enum { MAKRUK_MAX_PLIES = 13000 };   /* 78 irreversible moves x 128 + 128 */

static int honour_limit(const CBoard *b, int strong)
{
    uint64_t own = b->col[strong];
    int rooks = cb_popcount(b->pcs[CB_ROOK] & own);
    int khons = cb_popcount(b->pcs[CB_SILVER] & own);
    int knights = cb_popcount(b->pcs[CB_KNIGHT] & own);
    if (rooks >= 2) return 8;
    if (rooks == 1) return 16;
    if (khons >= 2) return 22;
    if (knights >= 2) return 32;
    if (khons == 1) return 44;
    return 64;
}

static void makruk_status(CBoard *b, int rep3)
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
    uint64_t kings = b->pcs[CB_KING];
    int bare0 = b->col[0] == (kings & b->col[0]);
    int bare1 = b->col[1] == (kings & b->col[1]);
    b->over = CB_DRAW;
    if (bare0 && bare1) {
        b->reason = CB_R_MATERIAL;
    } else if (!b->pcs[CB_PAWN] && (bare0 || bare1)) {
        int pieces = cb_popcount(b->col[0] | b->col[1]);
        int count = pieces + 1 + b->halfmove / 2;
        if (count > honour_limit(b, bare0 ? 1 : 0))
            b->reason = CB_R_COUNTING;
        else if (rep3 || cb_repetitions(b, 3) >= 3)
            b->reason = CB_R_REPETITION;
        else
            b->over = CB_PLAYING;
    } else if (b->halfmove >= 128) {
        b->reason = CB_R_COUNTING;
    } else if (rep3 || cb_repetitions(b, 3) >= 3) {
        b->reason = CB_R_REPETITION;
    } else {
        b->over = CB_PLAYING;
    }
}

CB_VARIANT_HOOKS(makruk, CB_MAKRUK, makruk_status)

static const char *const makruk_players[] = {"White", "Black"};

const GameVtbl game_makruk = {
    .info = {
        .name = "makruk",
        .title = "Makruk (Thai chess)",
        .num_players = 2,
        .max_moves = CB_MAX_MOVES,
        .max_game_length = MAKRUK_MAX_PLIES,
        .state_size = sizeof(CBoard),
        .flags = GAME_ZERO_SUM,
        .player_names = makruk_players,
        .options = NULL,
        .notation =
            "Moves in long algebraic notation as Fairy-Stockfish writes them:\n"
            "e3e4, a5a6m (a bia reaching the sixth rank becomes a met; the\n"
            "'m' may be left out on input). SAN accepted on input (Sd2, Mxe4).\n"
            "Letters: K khun, M met, S khon, N ma, R rua, P bia. Setup string:\n"
            "FEN as Fairy-Stockfish, e.g. rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/\n"
            "RNSKMSNR w - - 0 1; the halfmove field is the plies since the\n"
            "last capture or bia move and carries the counting rules. A game\n"
            "drawn by threefold repetition ends in \" 3fold\".",
        .rules =
            "Makruk (Thai chess). Khun moves like a king; met one step\n"
            "diagonally; khon one step diagonally or straight forward; ma like\n"
            "a knight; rua like a rook; bia one step forward, capturing one\n"
            "step diagonally forward, and becomes a met on the sixth rank. No\n"
            "castling, no double step, no en passant. Checkmate wins;\n"
            "stalemate and two bare khuns draw; threefold repetition draws.\n"
            "Counting (applied automatically): 64 moves without a capture or\n"
            "bia move draw (the board's honour count; Ply applies it even\n"
            "while bias remain, real play only once they are gone). When one\n"
            "side has only its khun and no bia is left, the count starts at\n"
            "the number of pieces + 1 and the game is drawn once it passes\n"
            "8 (2 rua), 16 (1 rua), 22 (2 khon), 32 (2 ma), 44 (1 khon) or 64\n"
            "moves; a capture restarts it. Perft stops at these draws too,\n"
            "where Fairy-Stockfish's counts on (they agree on the oracle rows).",
    },
    CB_SHARED_HOOKS(makruk, CB_MAKRUK),
    .formats = cb_formats_variant,
};
