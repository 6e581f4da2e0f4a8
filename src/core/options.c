/* options.c — see options.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bot.h"
#include "options.h"
#include "util.h"

enum { KIB = 1024, MIB = 1024 * 1024 };

int option_count(const Option *t)
{
    int n = 0;
    while (t && t[n].key)
        n++;
    return n;
}

const Option *option_find(const Option *t, const char *key)
{
    for (; t && t->key; t++)
        if (!strcmp(t->key, key))
            return t;
    return NULL;
}

const Option *option_find_engine(const Option *t, const char *engine)
{
    for (; t && t->key; t++)
        if (t->engine && !strcasecmp(t->engine, engine))
            return t;
    return NULL;
}

static void *field_at(const Option *o, void *base)
{
    return (unsigned char *)base + o->offset;
}

static size_t field_size(OptionType t)
{
    switch (t) {
    case OPT_INT:
    case OPT_BOOL:
    case OPT_CHOICE:
        return sizeof(int);
    case OPT_DOUBLE:
        return sizeof(double);
    case OPT_SIZE:
        return sizeof(size_t);
    case OPT_DURATION:
        return sizeof(int64_t);
    case OPT_COUNT:
        return sizeof(uint64_t);
    case OPT_STRING:
    case OPT_FILE:
        return OPT_TEXT_MAX;
    }
    return 0;
}

static void set_default(const Option *o, void *f)
{
    switch (o->type) {
    case OPT_INT:
    case OPT_BOOL:
    case OPT_CHOICE:
        *(int *)f = (int)o->def;
        break;
    case OPT_DOUBLE:
        *(double *)f = o->def;
        break;
    case OPT_SIZE:
        *(size_t *)f = (size_t)o->def;
        break;
    case OPT_DURATION:
        *(int64_t *)f = (int64_t)o->def;
        break;
    case OPT_COUNT:
        *(uint64_t *)f = (uint64_t)o->def;
        break;
    case OPT_STRING:
    case OPT_FILE:
        snprintf(f, OPT_TEXT_MAX, "%s", o->def_text ? o->def_text : "");
        break;
    }
}

void option_defaults(const Option *t, void *base)
{
    for (; t && t->key; t++)
        if (!(t->flags & OPTF_ALIAS))
            set_default(t, field_at(t, base));
}

/* A size in bytes as the shortest text the parser reads back exactly. */
static void size_text(double bytes, char *buf, size_t n)
{
    if (bytes >= (double)MIB * KIB && fmod(bytes, (double)MIB * KIB) == 0)
        snprintf(buf, n, "%.0fG", bytes / ((double)MIB * KIB));
    else if (fmod(bytes, MIB) == 0)
        snprintf(buf, n, "%.0fM", bytes / MIB);
    else if (fmod(bytes, KIB) == 0)
        snprintf(buf, n, "%.0fk", bytes / KIB);
    else
        snprintf(buf, n, "%.17gk", bytes / KIB);
}

/* A duration in ms as text: "1s", "150ms". */
static void duration_text(double ms, char *buf, size_t n)
{
    if (ms >= 1000 && fmod(ms, 1000) == 0)
        snprintf(buf, n, "%.0fs", ms / 1000);
    else
        snprintf(buf, n, "%.0fms", ms);
}

static int bad(PlyError *err, const Option *o, const char *val,
               const char *why)
{
    return ply_fail(err, "bad value '%.60s' for %s: %s", val, o->key, why);
}

/* The range of a numeric row as text, "1..32", for messages. */
static void range_text(const Option *o, char *buf, size_t n)
{
    char a[32], b[32];
    switch (o->type) {
    case OPT_SIZE:
        size_text(o->min, a, sizeof a);
        size_text(o->max, b, sizeof b);
        break;
    case OPT_DURATION:
        duration_text(o->min, a, sizeof a);
        duration_text(o->max, b, sizeof b);
        break;
    default:
        snprintf(a, sizeof a, "%.15g", o->min);
        snprintf(b, sizeof b, "%.15g", o->max);
        break;
    }
    if (o->type == OPT_SIZE && o->min <= 1)
        snprintf(buf, n, "more than 0, at most %s", b);
    else if (o->type == OPT_DOUBLE && (o->flags & OPTF_MIN_EXCLUSIVE))
        snprintf(buf, n, "above %s, at most %s", a, b);
    else if ((o->type == OPT_COUNT || o->type == OPT_DURATION) &&
             o->max <= 0)
        snprintf(buf, n, "%s or more", a);
    else
        snprintf(buf, n, "%s..%s", a, b);
}

static int out_of_range(PlyError *err, const Option *o, const char *val)
{
    char r[96], why[128];
    range_text(o, r, sizeof r);
    snprintf(why, sizeof why, "out of range %s", r);
    return bad(err, o, val, why);
}

static int in_range(const Option *o, double x)
{
    if (o->type == OPT_DOUBLE && (o->flags & OPTF_MIN_EXCLUSIVE))
        return x > o->min && x <= o->max;
    if ((o->type == OPT_COUNT || o->type == OPT_DURATION) && o->max <= 0)
        return x >= o->min;
    return x >= o->min && x <= o->max;
}

/* "123", "100k" (x1000), "2M" (x1000000); no sign. */
static int parse_count(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*v < '0' || *v > '9')
        return -1;
    unsigned long long x = strtoull(v, &end, 10);
    unsigned long long mul = 1;
    if (*end == 'k' || *end == 'K') {
        mul = 1000;
        end++;
    } else if (*end == 'M') {
        mul = 1000000;
        end++;
    }
    if (*end || errno || x > UINT64_MAX / mul)
        return -1;
    *out = x * mul;
    return 0;
}

int option_parse_value(const Option *o, const char *v, void *f,
                       PlyError *err)
{
    switch (o->type) {
    case OPT_INT: {
        char *end;
        errno = 0;
        long long x = strtoll(v, &end, 10);
        if (!*v || *end || errno)
            return bad(err, o, v, "not a whole number");
        if (!in_range(o, (double)x))
            return out_of_range(err, o, v);
        *(int *)f = (int)x;
        return 0;
    }
    case OPT_BOOL:
        if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes") ||
            !strcmp(v, "on")) {
            *(int *)f = 1;
            return 0;
        }
        if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no") ||
            !strcmp(v, "off")) {
            *(int *)f = 0;
            return 0;
        }
        return bad(err, o, v, "true or false (1 or 0)");
    case OPT_CHOICE: {
        for (int i = 0; o->choices[i]; i++)
            if (!strcmp(v, o->choices[i])) {
                *(int *)f = i;
                return 0;
            }
        char list[160] = "";
        for (int i = 0; o->choices[i]; i++) {
            if (i)
                strncat(list, o->choices[i + 1] ? ", " : " or ",
                        sizeof list - strlen(list) - 1);
            strncat(list, o->choices[i], sizeof list - strlen(list) - 1);
        }
        return ply_fail(err, "%s must be %s, not '%.60s'", o->key, list, v);
    }
    case OPT_DOUBLE: {
        char *end;
        errno = 0;
        double x = strtod(v, &end);
        if (end == v || *end || !isfinite(x))
            return bad(err, o, v, "not a number");
        if (!in_range(o, x))
            return out_of_range(err, o, v);
        *(double *)f = x;
        return 0;
    }
    case OPT_SIZE: {
        char *end;
        errno = 0;
        double x = strtod(v, &end), unit = MIB;
        if (end != v && (*end == 'k' || *end == 'K')) {
            unit = KIB;
            end++;
        } else if (end != v && (*end == 'M' || *end == 'm')) {
            end++;
        } else if (end != v && (*end == 'G' || *end == 'g')) {
            unit = (double)MIB * KIB;
            end++;
        }
        if (end == v || *end || !isfinite(x) || x < 0)
            return bad(err, o, v, "a size: MiB, or with a suffix k, M, G "
                       "(64k, 256M)");
        if (!in_range(o, x * unit))
            return out_of_range(err, o, v);
        *(size_t *)f = (size_t)(x * unit);
        return 0;
    }
    case OPT_DURATION: {
        int64_t ms;
        if (parse_duration_ms(v, &ms))
            return bad(err, o, v, "a duration: 150ms, 2s, 1.5s, 3m or "
                       "plain milliseconds");
        if (!in_range(o, (double)ms))
            return out_of_range(err, o, v);
        *(int64_t *)f = ms;
        return 0;
    }
    case OPT_COUNT: {
        uint64_t x;
        if (parse_count(v, &x))
            return bad(err, o, v, "a count: 5000, 100k, 2M");
        if (!in_range(o, (double)x))
            return out_of_range(err, o, v);
        *(uint64_t *)f = x;
        return 0;
    }
    case OPT_STRING:
    case OPT_FILE:
        if (strlen(v) >= OPT_TEXT_MAX)
            return bad(err, o, v, "too long");
        snprintf(f, OPT_TEXT_MAX, "%s", v);
        return 0;
    }
    return ply_fail(err, "option %s has a bad type", o->key);
}

/* "time, nodes, ..." of every set, for the unknown-key message. */
static void key_list(const OptionSet *sets, int n, char *buf, size_t len)
{
    buf[0] = 0;
    for (int s = 0; s < n; s++)
        for (const Option *o = sets[s].table; o && o->key; o++) {
            if (buf[0])
                strncat(buf, ", ", len - strlen(buf) - 1);
            strncat(buf, o->key, len - strlen(buf) - 1);
        }
}

int option_parse(OptionSet *sets, int n, const char *s, PlyError *err)
{
    for (int i = 0; i < n; i++)
        sets[i].given = 0;
    if (!s || !*s)
        return 0;
    while (*s) {
        size_t len = strcspn(s, ",");
        const char *eq = memchr(s, '=', len);
        if (len == 0) {
            s++;
            continue;
        }
        if (!eq || eq == s)
            return ply_fail(err, "option '%.*s' needs the form key=value",
                            (int)(len > 60 ? 60 : len), s);
        char key[64], val[OPT_TEXT_MAX];
        size_t kl = (size_t)(eq - s), vl = len - kl - 1;
        if (kl >= sizeof key)
            return ply_fail(err, "option '%.60s...' is too long", s);
        memcpy(key, s, kl);
        key[kl] = 0;
        if (vl >= sizeof val)
            return ply_fail(err, "value of option %s is too long", key);
        memcpy(val, eq + 1, vl);
        val[vl] = 0;
        const Option *o = NULL;
        int si = 0;
        for (; si < n && !o; si++)
            o = option_find(sets[si].table, key);
        if (!o) {
            char list[512];
            key_list(sets, n, list, sizeof list);
            if (!list[0])
                return ply_fail(err, "unknown option '%s' (there are no "
                                "options)", key);
            return ply_fail(err, "unknown option '%s' (options: %s)", key,
                            list);
        }
        OptionSet *set = &sets[si - 1];
        if (option_parse_value(o, val, field_at(o, set->base), err))
            return -1;
        long row = o - set->table;
        if (row < 64)
            set->given |= 1ull << row;
        s += len;
    }
    return 0;
}

int option_value_text(const Option *o, const void *f, char *buf, size_t n)
{
    int w = -1;
    switch (o->type) {
    case OPT_INT:
    case OPT_BOOL:
        w = snprintf(buf, n, "%d", *(const int *)f);
        break;
    case OPT_CHOICE:
        w = snprintf(buf, n, "%s", o->choices[*(const int *)f]);
        break;
    case OPT_DOUBLE:
        w = snprintf(buf, n, "%.17g", *(const double *)f);
        break;
    case OPT_SIZE: {
        char t[64];
        size_text((double)*(const size_t *)f, t, sizeof t);
        w = snprintf(buf, n, "%s", t);
        break;
    }
    case OPT_DURATION:
        w = snprintf(buf, n, "%" PRId64 "ms", *(const int64_t *)f);
        break;
    case OPT_COUNT:
        w = snprintf(buf, n, "%" PRIu64, *(const uint64_t *)f);
        break;
    case OPT_STRING:
    case OPT_FILE:
        w = snprintf(buf, n, "%s", (const char *)f);
        break;
    }
    return w < 0 || (size_t)w >= n ? -1 : w;
}

/* The numeric value of a field (0 for text). */
static double field_number(const Option *o, const void *f)
{
    switch (o->type) {
    case OPT_INT:
    case OPT_BOOL:
    case OPT_CHOICE:
        return *(const int *)f;
    case OPT_DOUBLE:
        return *(const double *)f;
    case OPT_SIZE:
        return (double)*(const size_t *)f;
    case OPT_DURATION:
        return (double)*(const int64_t *)f;
    case OPT_COUNT:
        return (double)*(const uint64_t *)f;
    case OPT_STRING:
    case OPT_FILE:
        break;
    }
    return 0;
}

static int is_default(const Option *o, const void *f)
{
    unsigned char d[OPT_TEXT_MAX];
    set_default(o, d);
    if (o->type == OPT_STRING || o->type == OPT_FILE)
        return !strcmp((const char *)d, f);
    return !memcmp(d, f, field_size(o->type));
}

int option_guard(const OptionSet *sets, int n, PlyError *err)
{
    /* by value, not by the given bits: every row, and a row set to its
     * default (inner=alphabeta) costs nothing more */
    for (int k = 0; k < n; k++) {
        const Option *t = sets[k].table;
        for (int i = 0; t && t[i].key; i++) {
            const Option *o = &t[i];
            const void *f = field_at(o, sets[k].base);
            if (is_default(o, f))
                continue;
            if (o->type == OPT_FILE || o->type == OPT_STRING)
                return ply_fail(err, "option '%s' is not open to clients "
                                "of this server (%s)", o->key,
                                o->type == OPT_FILE ? "a file on the host"
                                : "a nested setting");
            if ((o->flags & OPTF_COSTLY) && field_number(o, f) > o->def) {
                char v[64], d[64];
                option_value_text(o, f, v, sizeof v);
                unsigned char def[OPT_TEXT_MAX];
                set_default(o, def);
                option_value_text(o, def, d, sizeof d);
                return ply_fail(err, "%s=%s is more than this server "
                                "allows its clients (at most %s)", o->key, v,
                                d);
            }
        }
    }
    return 0;
}

int option_to_spec(const Option *t, const void *base, char *buf, size_t n)
{
    size_t len = 0;
    if (n)
        buf[0] = 0;
    for (; t && t->key; t++) {
        const void *f = (const unsigned char *)base + t->offset;
        if ((t->flags & OPTF_ALIAS) || is_default(t, f))
            continue;
        char v[OPT_TEXT_MAX + 8];
        if (option_value_text(t, f, v, sizeof v) < 0)
            return -1;
        PLY_OUT("%s%s=%s", len ? "," : "",
                t->key, v);
    }
    return (int)len;
}

int option_describe(const Option *o, char *buf, size_t n)
{
    char form[192], def[96] = "", range[96] = "";
    switch (o->type) {
    case OPT_INT:
        snprintf(form, sizeof form, "%s=N", o->key);
        range_text(o, range, sizeof range);
        snprintf(def, sizeof def, "%.0f", o->def);
        break;
    case OPT_BOOL:
        snprintf(form, sizeof form, "%s=true|false", o->key);
        snprintf(def, sizeof def, "%s", o->def ? "true" : "false");
        break;
    case OPT_CHOICE: {
        size_t l = (size_t)snprintf(form, sizeof form, "%s=", o->key);
        for (int i = 0; o->choices[i] && l < sizeof form; i++)
            l += (size_t)snprintf(form + l, sizeof form - l, "%s%s",
                                  i ? "|" : "", o->choices[i]);
        snprintf(def, sizeof def, "%s", o->choices[(int)o->def]);
        break;
    }
    case OPT_DOUBLE:
        snprintf(form, sizeof form, "%s=X", o->key);
        range_text(o, range, sizeof range);
        snprintf(def, sizeof def, "%g", o->def);
        break;
    case OPT_SIZE:
        snprintf(form, sizeof form, "%s=SIZE", o->key);
        if (o->min <= 1) {
            char mx[40];
            size_text(o->max, mx, sizeof mx);
            snprintf(range, sizeof range, "MiB or 64k, 256M; up to %s", mx);
        } else {
            range_text(o, range, sizeof range);
        }
        size_text(o->def, def, sizeof def);
        break;
    case OPT_DURATION:
        snprintf(form, sizeof form, "%s=TIME", o->key);
        snprintf(range, sizeof range, "150ms, 2s, 1.5s, 3m");
        if (o->def > 0)
            duration_text(o->def, def, sizeof def);
        else
            snprintf(def, sizeof def, "none");
        break;
    case OPT_COUNT:
        snprintf(form, sizeof form, "%s=N", o->key);
        if (o->max > 0 || o->min > 0)
            range_text(o, range, sizeof range);
        else
            snprintf(range, sizeof range, "100k = 100000");
        if (o->def > 0)
            snprintf(def, sizeof def, "%.0f", o->def);
        else
            snprintf(def, sizeof def, "none");
        break;
    case OPT_STRING:
    case OPT_FILE:
        snprintf(form, sizeof form, "%s=%s", o->key,
                 o->type == OPT_FILE ? "FILE" : "TEXT");
        /* "unset", not "none": a value may be the word none (net=none) */
        snprintf(def, sizeof def, "%s",
                 o->def_text && *o->def_text ? o->def_text : "unset");
        break;
    }
    char eng[64] = "";
    if (o->engine)
        snprintf(eng, sizeof eng, "; engine option %s", o->engine);
    int w;
    if (o->flags & OPTF_ALIAS)
        w = snprintf(buf, n, "%s: %s", form, o->help);
    else
        w = snprintf(buf, n, "%s (%s%sdefault %s%s): %s", form, range,
                     range[0] ? ", " : "", def, eng, o->help);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

int option_table_check(const Option *t, size_t size, PlyError *err)
{
    for (const Option *o = t; o && o->key; o++) {
        size_t fs = field_size(o->type);
        if (!fs)
            return ply_fail(err, "option %s: bad type", o->key);
        if (o->offset + fs > size)
            return ply_fail(err, "option %s: offset beyond the options "
                            "struct", o->key);
        if (o->type == OPT_CHOICE && (!o->choices || o->def < 0))
            return ply_fail(err, "option %s: no choices", o->key);
        if (o->type == OPT_CHOICE) {
            int k = 0;
            while (o->choices[k])
                k++;
            if (o->def >= k)
                return ply_fail(err, "option %s: default beyond the "
                                "choices", o->key);
        }
        if (!o->help)
            return ply_fail(err, "option %s: no help", o->key);
        if ((o->flags & OPTF_ALIAS) &&
            (o == t || o[-1].offset != o->offset || o[-1].type != o->type))
            return ply_fail(err, "option %s: an alias must follow its row",
                            o->key);
        for (const Option *p = t; p < o; p++)
            if (!strcmp(p->key, o->key))
                return ply_fail(err, "option %s declared twice", o->key);
    }
    return 0;
}
