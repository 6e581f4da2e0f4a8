/* engine.c — external programs over pipes, with deadlines. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/util.h"
#include "engine.h"

int engine_start(Engine *e, const char *cmd, int quiet, PlyError *err)
{
    memset(e, 0, sizeof *e);
    e->pid = -1;
    e->to_fd = e->from_fd = -1;
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
        signal(SIGPIPE, SIG_DFL);
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
    e->to_fd = in[1];
    e->from_fd = out[0];
    fcntl(e->to_fd, F_SETFL, fcntl(e->to_fd, F_GETFL) | O_NONBLOCK);
    fcntl(e->from_fd, F_SETFL, fcntl(e->from_fd, F_GETFL) | O_NONBLOCK);
    return 0;
}

static int wait_fd(int fd, short events, int64_t deadline_ms)
{
    for (;;) {
        int64_t left = deadline_ms - now_ms();
        if (left < 0)
            left = 0;
        struct pollfd p = {fd, events, 0};
        int r = poll(&p, 1, left > 1000000 ? 1000000 : (int)left);
        if (r > 0)
            return 1;
        if (r < 0 && errno != EINTR)
            return -1;
        if (r == 0 && now_ms() >= deadline_ms)
            return 0;
    }
}

int engine_send(Engine *e, int64_t deadline_ms, const char *fmt, ...)
{
    if (e->to_fd < 0)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    char *line = NULL;
    int n = vasprintf(&line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
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
            wait_fd(e->to_fd, POLLOUT, deadline_ms) > 0)
            continue;
        rc = -1;    /* EPIPE (the program is gone) or the deadline */
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
        if (errno != EAGAIN) {
            e->eof = 1;
            continue;
        }
        int w = wait_fd(e->from_fd, POLLIN, deadline_ms);
        if (w == 0)
            return 0;
        if (w < 0)
            e->eof = 1;
    }
}

int engine_exited(Engine *e)
{
    if (e->pid <= 0)
        return 1;
    int status;
    pid_t r = waitpid(e->pid, &status, WNOHANG);
    if (r == e->pid) {
        e->pid = -1;
        return 1;
    }
    return 0;
}

void engine_stop(Engine *e, int64_t wait_ms)
{
    if (e->to_fd >= 0) {
        close(e->to_fd);
        e->to_fd = -1;
    }
    if (e->pid > 0) {
        int64_t end = now_ms() + wait_ms;
        while (!engine_exited(e) && now_ms() < end)
            usleep(2000);
        if (e->pid > 0) {
            kill(-e->pid, SIGKILL);
            kill(e->pid, SIGKILL);
            waitpid(e->pid, NULL, 0);
            e->pid = -1;
        }
    }
    if (e->from_fd >= 0) {
        close(e->from_fd);
        e->from_fd = -1;
    }
}
