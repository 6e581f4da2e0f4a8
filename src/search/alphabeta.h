/* alphabeta.h — constants of the alpha-beta bot (bot_alphabeta) that
 * define the values it computes, so tests can rebuild them with a plain
 * minimax.
 *
 * The value of a position at depth d, from the point of view of a side
 * (the mover in two-player games; the root player or the coalition of the
 * others when there are more players):
 * - terminal: returns() r; two players x = (r[me] - r[other]) / 2, more
 *   players x = r[root] (negated for the coalition); x = +1 gives
 *   EVAL_WIN - ply, x = -1 gives -(EVAL_WIN - ply), anything else
 *   round(x * EVAL_WIN / 2), except that with two players and the bot's
 *   contempt=N a draw (x = 0) is -N for the root player and +N for the
 *   other;
 * - more players, a position where the game's eliminated() hook says the
 *   root player has left the game (terminal or not), with r[root] below
 *   1: for the root, -(EVAL_WIN - ply) when r[root] = -1, else
 *   -EVAL_WIN / 2 + round(r[root] * EVAL_WIN / 8) + ply (below any
 *   static value: leaving is never better than staying in), negated for
 *   the coalition;
 * - two players, a position at ply > 0 whose game's exact() hook knows
 *   its result (endgame databases; bot option egtb=1, the default): a
 *   win EVAL_WIN - AB_MAX_PLY - ply, a loss its negation, a draw as
 *   above (exact: nothing below it is cut);
 * - a position at ply > 0 outside quiescence that the game's repeated()
 *   hook reports (bot option rep=1, the default): a draw, as above (a
 *   leaf cut like one at the horizon: a subtree with one is not solved);
 * - ply >= AB_MAX_PLY: the static value (eval, clamped to +-EVAL_MAX;
 *   0 or a playout estimate without eval);
 * - chance node: the expectation over chance_outcomes() at the same depth
 *   (the static value when d <= 0), rounded to nearest (lround);
 * - d <= 0 (quiescence): the static value when qd >= AB_QS_PLIES or the
 *   game has no is_noisy hook or no noisy move; otherwise the best of the
 *   noisy moves (each at qd + 1; a chance node after one counts as its
 *   static value), and of the static value when a quiet move exists;
 * - d > 0: the best over all moves at depth d - 1, or at depth d when
 *   there is only one move, ply < AB_EXT_PLY and the bot's ext=1 (the
 *   single-reply extension; never at the root).
 * A move keeps the sign when the same side moves next and negates it
 * otherwise (several moves in a row by one player are normal).
 * With turnend=1, a node at d <= 0 whose player to move also made the
 * move into it (the turn goes on) is searched at d = 1, below ply
 * AB_MAX_PLY - 1.
 * mode=maxn (more than two players) computes a vector instead, one entry
 * per player: terminal r[p] * (EVAL_WIN - ply) rounded; at d <= 0 or the
 * ply bound eval(st, p) clamped to +-EVAL_MAX; for a player that has left
 * the game with r[p] below 1, the value above for the root (terminal or
 * not); chance nodes the rounded
 * expectation; otherwise the vector of the first child, in search order,
 * with the highest entry for the player to move. The reported value is
 * the root player's entry.
 */
#ifndef PLY_ALPHABETA_H
#define PLY_ALPHABETA_H

#include "../core/game.h"

enum {
    AB_MAX_PLY = 128,       /* hard bound on search ply, quiescence included */
    AB_QS_PLIES = 12,       /* quiescence plies beyond the horizon */
    AB_EXT_PLY = 64,        /* single-reply extensions only below this ply */
    AB_WIN_BOUND = EVAL_WIN - 2 * AB_MAX_PLY,  /* above: a proven win */
};

#endif
