/* util.h — small helpers shared by every component: clock, errors, text
 * appended to a caller's buffer. */
#ifndef PLY_UTIL_H
#define PLY_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Monotonic clock in milliseconds, microseconds and seconds. */
int64_t now_ms(void);
int64_t now_us(void);
double now_seconds(void);

/* Appends printf-style text at buf + *len in a buffer of n bytes. When the
 * whole text fits (with its terminating zero): 0, *len advanced. Else -1
 * with *len unchanged and buf still terminated within n (a cut prefix may
 * follow the old end). */
int ply_append(char *buf, size_t n, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The writers' idiom over ply_append: in a function returning int, with
 * `char *buf`, `size_t n` (its size) and `size_t len` (the text so far) in
 * scope, appends or returns -1 from that function. */
#define PLY_OUT(...)                                                    \
    do {                                                                \
        if (ply_append(buf, n, &len, __VA_ARGS__))                      \
            return -1;                                                  \
    } while (0)

#endif
