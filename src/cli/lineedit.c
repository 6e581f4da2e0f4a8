/* lineedit.c — line input for people (lineedit.h). GNU readline's
 * callback interface is used so that a read can be woken by a file
 * descriptor; readline keeps its own process-wide state and calls a plain
 * function with the line, so `pending` below is the one place that hands
 * it back. Only `ply` links readline (see the Makefile); the library and
 * the tests do not include this file's callers. */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "lineedit.h"

struct LineEdit {
    int tty;
    int installed;          /* readline's handler is on, prompt shown */
    char prompt[256];
    char *carry;            /* text typed before a pause, shown again */
};

/* What the readline callback delivered: the line (NULL at end of input). */
static struct {
    int done;
    char *line;
} pending;

static void on_line(char *line)
{
    pending.done = 1;
    pending.line = line;
    rl_callback_handler_remove();
}

LineEdit *lineedit_open(void)
{
    LineEdit *le = calloc(1, sizeof *le);
    if (!le)
        return NULL;
    le->tty = isatty(0) && isatty(1);
    if (le->tty)
        using_history();
    return le;
}

void lineedit_close(LineEdit *le)
{
    if (!le)
        return;
    if (le->installed) {
        rl_callback_handler_remove();
        putchar('\n');
    }
    free(le->carry);
    free(le);
}

int lineedit_is_tty(const LineEdit *le)
{
    return le->tty;
}

static int read_plain(const char *prompt, char **out)
{
    fputs(prompt, stdout);
    fflush(stdout);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, stdin);
    if (n < 0) {
        free(line);
        return -1;
    }
    line[strcspn(line, "\r\n")] = 0;
    *out = line;
    return 1;
}

int lineedit_read(LineEdit *le, const char *prompt, int wake_fd, char **out)
{
    *out = NULL;
    if (!le->tty)
        return read_plain(prompt, out);
    if (!le->installed) {
        snprintf(le->prompt, sizeof le->prompt, "%s", prompt);
        pending.done = 0;
        pending.line = NULL;
        rl_callback_handler_install(le->prompt, on_line);
        le->installed = 1;
        if (le->carry) {
            rl_insert_text(le->carry);
            rl_redisplay();
            free(le->carry);
            le->carry = NULL;
        }
    } else if (strcmp(le->prompt, prompt)) {
        snprintf(le->prompt, sizeof le->prompt, "%s", prompt);
        rl_set_prompt(le->prompt);
        rl_forced_update_display();
    }
    for (;;) {
        struct pollfd fds[2] = {{.fd = 0, .events = POLLIN},
                                {.fd = wake_fd, .events = POLLIN}};
        int n = poll(fds, wake_fd >= 0 ? 2 : 1, -1);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (wake_fd >= 0 && (fds[1].revents & (POLLIN | POLLHUP)))
            return 0;
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            rl_callback_read_char();
            if (pending.done) {
                le->installed = 0;
                pending.done = 0;
                if (!pending.line) {
                    putchar('\n');
                    return -1;
                }
                if (*pending.line)
                    add_history(pending.line);
                *out = pending.line;
                pending.line = NULL;
                return 1;
            }
        }
    }
    rl_callback_handler_remove();
    le->installed = 0;
    return -1;
}

void lineedit_pause(LineEdit *le)
{
    if (!le->tty || !le->installed)
        return;
    free(le->carry);
    le->carry = rl_end > 0 ? rl_copy_text(0, rl_end) : NULL;
    rl_set_prompt("");
    rl_replace_line("", 0);
    rl_redisplay();
    rl_callback_handler_remove();
    le->installed = 0;
}

void lineedit_say(LineEdit *le, const char *fmt, ...)
{
    if (le->tty && le->installed) {
        /* take the prompt and the typed text off the screen, print, and
         * show them again below */
        char *saved = rl_copy_text(0, rl_end);
        int point = rl_point;
        rl_set_prompt("");
        rl_replace_line("", 0);
        rl_redisplay();
        va_list ap;
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        fflush(stdout);
        rl_set_prompt(le->prompt);
        rl_replace_line(saved ? saved : "", 0);
        rl_point = point;
        rl_redisplay();
        free(saved);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}
