/* cli.h — the `ply` subcommands and the helpers they share. */
#ifndef PLY_CLI_H
#define PLY_CLI_H

#include <stdio.h>

#include "../core/bot.h"
#include "../core/game.h"

typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv);  /* argv[0] is the command name */
    const char *summary;
    const char *usage;                  /* full --help text */
} Command;

extern const Command cli_commands[];    /* NULL-terminated, in main.c */

/* Prints usage and returns 0 if argv has --help/-h; otherwise -1. */
int cli_wants_help(int argc, char **argv, const char *name);
/* Error to stderr, prefixed with "ply <cmd>: ", returns the exit code 2. */
int cli_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Looks a game up by name, with a message listing the games when unknown. */
const GameVtbl *cli_game(const char *cmd, const char *name);

/* A position from the common options --options, --setup, --moves, --seed.
 * Returns a malloc()ed state, or NULL after printing the error. */
void *cli_position(const char *cmd, const GameVtbl *g, const char *options,
                   const char *setup, const char *moves, uint64_t seed);

/* Text helpers: a move, the setup string, the board, the legal moves. */
const char *cli_move_text(const GameVtbl *g, const void *st, Move m,
                          char *buf, size_t n);
/* What player `seat` sees in a game with hidden information: his
 * observation drawn, its view string, his moves when he is to move.
 * -1 when out of memory. */
int cli_print_view(FILE *f, const GameVtbl *g, const void *st, int seat);
void cli_print_position(FILE *f, const GameVtbl *g, const void *st);
void cli_print_result(FILE *f, const GameVtbl *g, const void *st);
/* "--time 2s"-style number parsing with a clear error. */
int cli_parse_uint(const char *cmd, const char *what, const char *s,
                   unsigned long long *out);

#endif
