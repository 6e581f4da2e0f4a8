/* engine.h — an external program talked to line by line over pipes: ply
 * match's UGI, UCI, USI, CECP and CodeCup participants. Every read and
 * write has a deadline (poll on non-blocking pipes), so a hung program
 * never hangs the referee. Each program runs in its own process group,
 * and the whole group (helpers it started included) is killed when it
 * stops: SIGTERM, then SIGKILL after a short grace. Its exit is seen at
 * once (a pidfd), even when a helper still holds its output pipe. An
 * EngineWatch (one per match) kills the groups that are still registered
 * when ply itself dies, even by SIGKILL. The caller ignores SIGPIPE (ply
 * match does) so a dead program gives EPIPE. */
#ifndef PLY_ENGINE_H
#define PLY_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../core/game.h"

enum {
    ENGINE_LINE_MAX = 8192,     /* longest line read (longer: cut) */
    ENGINE_GRACE_MS = 200,      /* SIGTERM to SIGKILL */
    ENGINE_WATCH_MAX = 1024,    /* process groups one watchdog tracks */
};

/* The watchdog: a small forked process that holds the read end of a pipe
 * whose only write end is this process's. Engines register their process
 * group on it (from the child, before exec, so no window is left) and
 * unregister when stopped; on end of file (ply exited or was killed) it
 * kills every group still registered. */
typedef struct EngineWatch {
    pid_t pid;
    int fd;             /* write end; -1 when not running */
} EngineWatch;

typedef struct Engine {
    pid_t pid;          /* also the process group id */
    int pidfd;          /* readable when the program exits; -1: none */
    int exited;         /* the program (group leader) has exited */
    int reaped;
    int watch_fd;       /* the watchdog's pipe, or -1 */
    int to_fd;          /* the program's stdin */
    int from_fd;        /* the program's stdout */
    char buf[ENGINE_LINE_MAX];
    size_t len;         /* bytes in buf not yet returned as lines */
    int eof;
    /* a scripted engine (engine_start_script): no process */
    const char *script;
    size_t script_len, script_pos;
    void (*on_send)(void *ctx, const char *line);
    void *on_send_ctx;
} Engine;

/* Starts the watchdog. Call before threads are started. */
int engine_watch_start(EngineWatch *w, PlyError *err);
/* Stops it after every engine has been stopped. Safe on a zeroed or
 * stopped watch. */
void engine_watch_stop(EngineWatch *w);

/* Starts `sh -c cmd` in its own process group, registered with w (may be
 * NULL); its stderr is inherited, or sent to /dev/null when quiet. */
int engine_start_watched(Engine *e, const char *cmd, int quiet,
                         const EngineWatch *w, PlyError *err);
int engine_start(Engine *e, const char *cmd, int quiet, PlyError *err);
/* Whether cmd's program can be run, checked before a match starts: its
 * first word, when that is a plain path or name (not quoting, variables,
 * assignments or a word of the shell's own, which only the shell can
 * read), must be an executable file, directly or on PATH. 0, or -1 with
 * the reason in err. */
int engine_check_cmd(const char *cmd, PlyError *err);
/* A scripted engine without a process, for tests and fuzzing: its output
 * is the n bytes of text (not copied: they must outlive e), read as a
 * program's would be (the same line cutting), then end of output; every
 * line sent to it is accepted and, if on_send is set, passed to it
 * (without the newline). engine_stop() and the rest work as for a
 * program that exits when its output ends. */
void engine_start_script(Engine *e, const char *text, size_t n,
                         void (*on_send)(void *ctx, const char *line),
                         void *ctx);
/* Writes one line (a newline is added). 0, or -1 if the program is gone or
 * does not read before the deadline (now_ms() clock). */
int engine_send(Engine *e, int64_t deadline_ms, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reads one line (without its newline; a \r is dropped too; longer lines
 * are cut). 1: a line; 0: deadline passed; -1: end of output, or the
 * program exited (what it wrote before is still returned first). */
int engine_read_line(Engine *e, char *line, size_t n, int64_t deadline_ms);
/* Whether the program has exited (non-blocking). */
int engine_exited(Engine *e);
/* Closes its stdin, waits up to wait_ms for it to exit, then kills the
 * process group (SIGTERM, SIGKILL after ENGINE_GRACE_MS) and reaps it.
 * Safe to call twice. */
void engine_stop(Engine *e, int64_t wait_ms);

#endif
