/* engine.h — an external program talked to line by line over pipes: ply
 * match's UGI and CodeCup participants. Every read and write has a
 * deadline (poll on non-blocking pipes), so a hung program never hangs
 * the referee; stop() kills the program's whole process group. The caller
 * ignores SIGPIPE (ply match does) so a dead program gives EPIPE. */
#ifndef PLY_ENGINE_H
#define PLY_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../core/game.h"

enum { ENGINE_LINE_MAX = 8192 };   /* longest line read (longer: cut) */

typedef struct Engine {
    pid_t pid;
    int to_fd;          /* the program's stdin */
    int from_fd;        /* the program's stdout */
    char buf[ENGINE_LINE_MAX];
    size_t len;         /* bytes in buf not yet returned as lines */
    int eof;
} Engine;

/* Starts `sh -c cmd` in its own process group; its stderr is inherited,
 * or sent to /dev/null when quiet. */
int engine_start(Engine *e, const char *cmd, int quiet, PlyError *err);
/* Writes one line (a newline is added). 0, or -1 if the program is gone or
 * does not read before the deadline (now_ms() clock). */
int engine_send(Engine *e, int64_t deadline_ms, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reads one line (without its newline; a \r is dropped too; longer lines
 * are cut). 1: a line; 0: deadline passed; -1: end of output. */
int engine_read_line(Engine *e, char *line, size_t n, int64_t deadline_ms);
/* Whether the program has exited (non-blocking). */
int engine_exited(Engine *e);
/* Closes its stdin, waits up to wait_ms for it to exit, then kills the
 * process group and reaps it. Safe to call twice. */
void engine_stop(Engine *e, int64_t wait_ms);

#endif
