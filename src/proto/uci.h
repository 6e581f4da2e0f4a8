/* uci.h — UCI engine mode for chess, makruk, shatranj and xiangqi
 * (`ply uci`), and UCCI for xiangqi (`ply ucci`).
 * Reads commands from `in`, answers on `out`; a search runs in its own
 * thread so that `stop`, `isready` and `quit` are answered at once. */
#ifndef PLY_UCI_H
#define PLY_UCI_H

#include <stdint.h>
#include <stdio.h>

/* Runs the protocol until `quit` or end of input. bot_spec may be NULL
 * (the game's default bot, game_default_bot()). Returns 0, or 2 when the bot spec is bad. */
int uci_run(FILE *in, FILE *out, const char *bot_spec, uint64_t seed);
/* The same for UCCI and xiangqi (`ply ucci`). */
int ucci_run(FILE *in, FILE *out, const char *bot_spec, uint64_t seed);

#endif
