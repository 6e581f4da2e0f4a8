/* records.h — reading `ply match --out` records (JSON lines) for the
 * converters `ply pdn`, `ply pgn` and `ply kif`. */
#ifndef PLY_RECORDS_H
#define PLY_RECORDS_H

#include <stdio.h>

#include <jansson.h>

/* Writes one record as text to out. Returns 0 when written, 1 when the
 * record is of a game this converter skips, -1 after printing an error
 * that names the line. */
typedef int (*RecordConverter)(json_t *rec, long line, int round, FILE *out);

/* The body of a converter command: reads FILE (argv[1]) or standard input
 * and prints every converted game; a bad record stops with exit code 2 and
 * prints nothing of that game. `skipped_what` names the games it skips. */
int cli_convert_records(const char *cmd, int argc, char **argv,
                        RecordConverter convert, const char *skipped_what);

/* Where a converted game goes when not simply to standard output (game
 * counts from 1); returns 0, or -1 after printing an error. */
typedef int (*RecordEmitter)(const char *text, size_t len, int game,
                             void *ctx);

/* The same loop over FILE (NULL or "-": standard input), each game handed
 * to emit (NULL: standard output). */
int cli_convert_record_file(const char *cmd, const char *file,
                            RecordConverter convert, RecordEmitter emit,
                            void *ctx, const char *skipped_what);

#endif
