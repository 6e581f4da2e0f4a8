/* lineedit.h — reading a person's commands: GNU readline (line editing,
 * history) when stdin and stdout are a terminal, plain lines otherwise
 * (pipes, scripts: the same behaviour as fgets). In a terminal, a read can
 * also be woken by another file descriptor, so a front end can wait for a
 * line and for a background search at once. */
#ifndef PLY_LINEEDIT_H
#define PLY_LINEEDIT_H

typedef struct LineEdit LineEdit;

LineEdit *lineedit_open(void);
void lineedit_close(LineEdit *le);
/* Whether line editing is on (a terminal). */
int lineedit_is_tty(const LineEdit *le);
/* Shows prompt and reads a line. Returns 1 with a malloc()ed line in
 * *out (no newline; free it), -1 at the end of input, or 0 when wake_fd
 * (>= 0, terminal only) became readable first; then the prompt and what
 * was typed so far stay for the next call. Lines typed are added to the
 * history. */
int lineedit_read(LineEdit *le, const char *prompt, int wake_fd, char **out);
/* Takes the prompt off the screen until the next read, which shows what
 * was typed so far again after its own prompt. */
void lineedit_pause(LineEdit *le);
/* printf() to stdout that keeps a prompt on screen intact. */
void lineedit_say(LineEdit *le, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
