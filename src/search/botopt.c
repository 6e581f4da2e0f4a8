/* botopt.c — see botopt.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "botopt.h"

int botopt_next(const char **p, char *key, size_t kn,
                char *val, size_t vn, PlyError *err)
{
    const char *s = *p;
    while (*s == ',')
        s++;
    if (!*s)
        return 0;
    size_t len = strcspn(s, ",");
    const char *eq = memchr(s, '=', len);
    if (!eq || eq == s)
        return ply_fail(err, "option '%.*s' needs the form key=value",
                        (int)len, s);
    size_t kl = (size_t)(eq - s), vl = len - kl - 1;
    if (kl >= kn || vl >= vn)
        return ply_fail(err, "option '%.*s' is too long", (int)len, s);
    memcpy(key, s, kl);
    key[kl] = 0;
    memcpy(val, eq + 1, vl);
    val[vl] = 0;
    *p = s + len;
    return 1;
}

int botopt_int(const char *key, const char *val, long lo,
               long hi, long *out, PlyError *err)
{
    char *end;
    errno = 0;
    long x = strtol(val, &end, 10);
    if (end == val || *end || errno || x < lo || x > hi)
        return ply_fail(err, "%s must be a whole number in %ld..%ld, not "
                        "'%s'", key, lo, hi, val);
    *out = x;
    return 0;
}
