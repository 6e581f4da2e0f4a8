/* engine.c — external programs over pipes, with deadlines; their process
 * groups, and the watchdog that kills them when ply dies. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/util.h"
#include "engine.h"

enum { POLL_SLICE_MS = 20 };    /* exit checks when there is no pidfd */

/* ------------------------------------------------------------------ */
/* the watchdog                                                        */

/* "+123\n" or "-123\n" into buf (async-signal-safe: used after fork). */
static size_t watch_msg(char *buf, char sign, pid_t pid)
{
    char digits[24];
    size_t n = 0, len = 0;
    unsigned long v = (unsigned long)pid;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    buf[len++] = sign;
    while (n)
        buf[len++] = digits[--n];
    buf[len++] = '\n';
    return len;
}

static void watch_send(int fd, char sign, pid_t pid)
{
    if (fd < 0 || pid <= 0)
        return;
    char buf[32];
    size_t len = watch_msg(buf, sign, pid);
    /* shorter than PIPE_BUF: one atomic write, whichever thread sends */
    while (write(fd, buf, len) < 0 && errno == EINTR)
        ;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* The watchdog process: only async-signal-safe calls (it may be forked
 * from a threaded program) and no allocation. */
static void watch_main(int rfd)
{
    /* its own process group: a signal to ply's job (Ctrl-C, timeout(1))
     * must not take it down with ply */
    setpgid(0, 0);
    prctl(PR_SET_NAME, "ply-watchdog", 0, 0, 0);
    static const int ignored[] = {SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGPIPE,
                                  SIGTSTP, SIGTTIN, SIGTTOU, SIGUSR1,
                                  SIGUSR2};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++)
        sigaction(ignored[i], &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* hold nothing of ply's but the pipe: no terminal, no output file */
    if (rfd != 3) {
        dup2(rfd, 3);
        rfd = 3;
    }
    close_range(4, ~0U, 0);
    int nul = open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3; fd++)
        if (nul >= 0 && nul != fd)
            dup2(nul, fd);
    if (nul > 3)
        close(nul);

    pid_t groups[ENGINE_WATCH_MAX];
    int ngroups = 0;
    char buf[512];
    size_t len = 0;
    for (;;) {
        ssize_t r = read(rfd, buf + len, sizeof buf - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;      /* end of file: ply is gone */
        len += (size_t)r;
        size_t start = 0;
        for (size_t i = 0; i < len; i++) {
            if (buf[i] != '\n')
                continue;
            long v = 0;
            for (size_t k = start + 1; k < i && v < 1L << 40; k++)
                v = v * 10 + (buf[k] - '0');
            pid_t pg = (pid_t)v;
            if (buf[start] == '+' && pg > 1 && ngroups < ENGINE_WATCH_MAX) {
                groups[ngroups++] = pg;
            } else if (buf[start] == '-') {
                for (int k = 0; k < ngroups; k++)
                    if (groups[k] == pg) {
                        groups[k] = groups[--ngroups];
                        break;
                    }
            }
            start = i + 1;
        }
        memmove(buf, buf + start, len - start);
        len -= start;
        if (len == sizeof buf)
            len = 0;    /* cannot happen: messages are short */
    }
    if (ngroups) {
        for (int k = 0; k < ngroups; k++)
            kill(-groups[k], SIGTERM);
        sleep_ms(ENGINE_GRACE_MS);
        for (int k = 0; k < ngroups; k++)
            kill(-groups[k], SIGKILL);
    }
    _exit(0);
}

int engine_watch_start(EngineWatch *w, PlyError *err)
{
    w->pid = -1;
    w->fd = -1;
    int p[2];
    if (pipe2(p, O_CLOEXEC))
        return ply_fail(err, "pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return ply_fail(err, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(p[1]);
        watch_main(p[0]);
    }
    close(p[0]);
    w->pid = pid;
    w->fd = p[1];
    return 0;
}

void engine_watch_stop(EngineWatch *w)
{
    if (w->fd >= 0) {
        close(w->fd);   /* end of file: it exits (nothing is registered) */
        w->fd = -1;
    }
    if (w->pid > 0) {
        while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        w->pid = -1;
    }
}

/* ------------------------------------------------------------------ */
/* one program                                                         */

int engine_start_watched(Engine *e, const char *cmd, int quiet,
                         const EngineWatch *w, PlyError *err)
{
    memset(e, 0, sizeof *e);
    e->pid = -1;
    e->pidfd = -1;
    e->to_fd = e->from_fd = -1;
    e->watch_fd = w ? w->fd : -1;
    int in[2], out[2];
    /* O_CLOEXEC: engines started by other threads must not inherit these
     * ends, or they would keep a pipe open after this program died */
    if (pipe2(in, O_CLOEXEC))
        return ply_fail(err, "pipe: %s", strerror(errno));
    if (pipe2(out, O_CLOEXEC)) {
        close(in[0]);
        close(in[1]);
        return ply_fail(err, "pipe: %s", strerror(errno));
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(in[0]); close(in[1]); close(out[0]); close(out[1]);
        return ply_fail(err, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        setpgid(0, 0);
        /* registered before exec: if ply is killed at any point from now
         * on, the watchdog reads this line before its end of file */
        if (e->watch_fd >= 0) {
            char msg[32];
            size_t len = watch_msg(msg, '+', getpid());
            if (write(e->watch_fd, msg, len) < 0)
                _exit(127);
        }
        signal(SIGPIPE, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        dup2(in[0], 0);
        dup2(out[1], 1);
        if (quiet) {
            int nul = open("/dev/null", O_WRONLY);
            if (nul >= 0)
                dup2(nul, 2);
        }
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);  /* also here, so kill(-pid) works at once */
    close(in[0]);
    close(out[1]);
    e->pid = pid;
#ifdef SYS_pidfd_open
    e->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);  /* close-on-exec */
    if (e->pidfd < 0)
        e->pidfd = -1;  /* old kernel: exits are checked every slice */
#endif
    e->to_fd = in[1];
    e->from_fd = out[0];
    fcntl(e->to_fd, F_SETFL, fcntl(e->to_fd, F_GETFL) | O_NONBLOCK);
    fcntl(e->from_fd, F_SETFL, fcntl(e->from_fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

int engine_check_cmd(const char *cmd, PlyError *err)
{
    while (*cmd == ' ' || *cmd == '\t')
        cmd++;
    size_t n = strcspn(cmd, " \t");
    if (n == 0)
        return ply_fail(err, "empty engine command");
    char prog[1024];
    if (n >= sizeof prog)
        return 0;
    memcpy(prog, cmd, n);
    prog[n] = 0;
    /* words only the shell can read: leave them to it */
    if (strpbrk(prog, "\"'`$=\\~*?[(){}<>|&;!"))
        return 0;
    static const char *const SHELL_WORDS[] = {
        "if", "case", "for", "while", "until", "do", "time", "exec",
        "eval", "command", "cd", "set", "export", "read", "echo",
        "printf", "test", ".", ":", "true", "false", "trap", "ulimit",
        "umask", "wait", "exit",
    };
    for (size_t i = 0; i < sizeof SHELL_WORDS / sizeof *SHELL_WORDS; i++)
        if (!strcmp(prog, SHELL_WORDS[i]))
            return 0;
    struct stat sb;
    if (strchr(prog, '/')) {
        if (access(prog, X_OK))
            return ply_fail(err, "cannot run '%s': %s", prog,
                            strerror(errno));
        if (stat(prog, &sb) || !S_ISREG(sb.st_mode))
            return ply_fail(err, "cannot run '%s': not a file", prog);
        return 0;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *d = path;; d += strcspn(d, ":") + 1) {
        size_t len = strcspn(d, ":");
        char full[2048];
        if (len + n + 2 <= sizeof full) {
            snprintf(full, sizeof full, "%.*s/%s", (int)len,
                     len ? d : ".", prog);
            if (!access(full, X_OK) && !stat(full, &sb) &&
                S_ISREG(sb.st_mode))
                return 0;
        }
        if (!d[len])
            break;
    }
    return ply_fail(err, "cannot run '%s': not found on PATH", prog);
}

int engine_start(Engine *e, const char *cmd, int quiet, PlyError *err)
{
    return engine_start_watched(e, cmd, quiet, NULL, err);
}

void engine_start_script(Engine *e, const char *text, size_t n,
                         void (*on_send)(void *ctx, const char *line),
                         void *ctx)
{
    memset(e, 0, sizeof *e);
    e->pid = -1;
    e->pidfd = -1;
    e->to_fd = e->from_fd = e->watch_fd = -1;
    e->script = text ? text : "";
    e->script_len = text ? n : 0;
    e->on_send = on_send;
    e->on_send_ctx = ctx;
}

int engine_exited(Engine *e)
{
    if (e->script)
        return e->script_pos == e->script_len && !e->len;
    if (e->exited || e->pid <= 0)
        return 1;
    /* WNOWAIT: the zombie keeps the process group id reserved until
     * engine_stop() has killed the rest of the group */
    siginfo_t si;
    memset(&si, 0, sizeof si);
    int r = waitid(P_PID, (id_t)e->pid, &si, WEXITED | WNOHANG | WNOWAIT);
    if ((r == 0 && si.si_pid == e->pid) || (r < 0 && errno == ECHILD))
        e->exited = 1;
    return e->exited;
}

/* Waits for fd to be ready. 1: ready; 2: the program exited; 0: the
 * deadline passed; -1: error. */
static int wait_fd(Engine *e, int fd, short events, int64_t deadline_ms)
{
    for (;;) {
        if (engine_exited(e))
            return 2;
        int64_t left = deadline_ms - now_ms();
        if (left < 0)
            left = 0;
        struct pollfd p[2] = {{fd, events, 0}, {e->pidfd, POLLIN, 0}};
        int np = e->pidfd >= 0 ? 2 : 1;
        int64_t slice = e->pidfd >= 0 ? 1000000 : POLL_SLICE_MS;
        int r = poll(p, (nfds_t)np, left > slice ? (int)slice : (int)left);
        if (r > 0 && (p[0].revents & (events | POLLERR | POLLHUP)))
            return 1;
        if (r > 0 && np == 2 && p[1].revents)
            continue;   /* engine_exited() says */
        if (r < 0 && errno != EINTR)
            return -1;
        if (r == 0 && now_ms() >= deadline_ms)
            return engine_exited(e) ? 2 : 0;
    }
}

int engine_send(Engine *e, int64_t deadline_ms, const char *fmt, ...)
{
    if (!e->script && (e->to_fd < 0 || e->exited))
        return -1;
    va_list ap;
    va_start(ap, fmt);
    char *line = NULL;
    int n = vasprintf(&line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    if (e->script) {
        if (e->on_send)
            e->on_send(e->on_send_ctx, line);
        free(line);
        return 0;
    }
    /* the newline goes in the same write: replace the terminator */
    char *l2 = realloc(line, (size_t)n + 2);
    if (!l2) {
        free(line);
        return -1;
    }
    line = l2;
    line[n++] = '\n';
    size_t off = 0;
    int rc = 0;
    while (off < (size_t)n) {
        ssize_t w = write(e->to_fd, line + off, (size_t)n - off);
        if (w > 0) {
            off += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno == EAGAIN &&
            wait_fd(e, e->to_fd, POLLOUT, deadline_ms) == 1)
            continue;
        rc = -1;    /* EPIPE or exited (the program is gone), deadline */
        break;
    }
    free(line);
    return rc;
}

/* Moves one line out of e->buf if there is one. */
static int take_line(Engine *e, char *line, size_t n, int force)
{
    char *nl = memchr(e->buf, '\n', e->len);
    size_t len;
    if (nl)
        len = (size_t)(nl - e->buf);
    else if (force && e->len)
        len = e->len;
    else
        return 0;
    size_t copy = len < n - 1 ? len : n - 1;
    memcpy(line, e->buf, copy);
    line[copy] = 0;
    if (copy && line[copy - 1] == '\r')
        line[copy - 1] = 0;
    size_t used = nl ? len + 1 : len;
    memmove(e->buf, e->buf + used, e->len - used);
    e->len -= used;
    return 1;
}

int engine_read_line(Engine *e, char *line, size_t n, int64_t deadline_ms)
{
    for (;;) {
        if (take_line(e, line, n, e->len == sizeof e->buf))
            return 1;
        if (e->script && !e->eof) {
            size_t k = e->script_len - e->script_pos;
            if (k > sizeof e->buf - e->len)
                k = sizeof e->buf - e->len;
            memcpy(e->buf + e->len, e->script + e->script_pos, k);
            e->len += k;
            e->script_pos += k;
            if (e->script_pos == e->script_len)
                e->eof = 1;
            continue;
        }
        if (e->eof || e->from_fd < 0)
            return take_line(e, line, n, 1) ? 1 : -1;
        ssize_t r = read(e->from_fd, e->buf + e->len, sizeof e->buf - e->len);
        if (r > 0) {
            e->len += (size_t)r;
            continue;
        }
        if (r == 0) {
            e->eof = 1;
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN || e->exited) {
            /* an exited program's output is drained: a helper it left
             * behind may hold the pipe open, but it has nothing to say */
            e->eof = 1;
            continue;
        }
        int w = wait_fd(e, e->from_fd, POLLIN, deadline_ms);
        if (w == 0)
            return 0;
        if (w < 0)
            e->eof = 1;
        /* 1: data; 2: exited, so drain what it wrote and stop */
    }
}

/* Whether the process group has no live member left (the leader reaped). */
static int group_gone(Engine *e)
{
    if (!e->reaped) {
        pid_t r = waitpid(e->pid, NULL, WNOHANG);
        if (r == e->pid || (r < 0 && errno == ECHILD))
            e->reaped = e->exited = 1;
    }
    return e->reaped && kill(-e->pid, 0) < 0 && errno == ESRCH;
}

void engine_stop(Engine *e, int64_t wait_ms)
{
    if (e->script) {    /* a script stops like a program that has exited */
        e->script = NULL;
        e->eof = 1;
        return;
    }
    if (e->to_fd >= 0) {
        close(e->to_fd);
        e->to_fd = -1;
    }
    if (e->pid > 0) {
        int64_t end = now_ms() + wait_ms;
        while (!engine_exited(e) && now_ms() < end) {
            if (e->pidfd >= 0) {
                struct pollfd p = {e->pidfd, POLLIN, 0};
                int64_t left = end - now_ms();
                poll(&p, 1, left < 0 ? 0 : (int)left);
            } else {
                usleep(2000);
            }
        }
        /* the program and whatever it started: asked, then forced */
        if (!group_gone(e)) {
            kill(-e->pid, SIGTERM);
            if (!e->reaped)
                kill(e->pid, SIGTERM);
            int64_t grace = now_ms() + ENGINE_GRACE_MS;
            while (!group_gone(e) && now_ms() < grace)
                usleep(2000);
            if (!group_gone(e)) {
                kill(-e->pid, SIGKILL);
                if (!e->reaped) {
                    kill(e->pid, SIGKILL);
                    while (waitpid(e->pid, NULL, 0) < 0 && errno == EINTR)
                        ;
                    e->reaped = 1;
                }
            }
        }
        watch_send(e->watch_fd, '-', e->pid);
        e->pid = -1;
    }
    if (e->pidfd >= 0) {
        close(e->pidfd);
        e->pidfd = -1;
    }
    if (e->from_fd >= 0) {
        close(e->from_fd);
        e->from_fd = -1;
    }
}
