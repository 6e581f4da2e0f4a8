/* evalfile.c — see evalfile.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evalfile.h"

static int find_name(const EvalTuning *t, const char *name, size_t len)
{
    for (int i = 0; i < t->nparams; i++)
        if (strlen(t->names[i]) == len && !memcmp(t->names[i], name, len))
            return i;
    return -1;
}

/* One X("name", value) entry of line s; 1 when found, 0 when the line
 * has none, -1 on a malformed one. */
static int parse_entry(const char *s, const char **name, size_t *len,
                       long *value)
{
    const char *x = strstr(s, "X(\"");
    if (!x)
        return 0;
    *name = x + 3;
    const char *q = strchr(*name, '"');
    if (!q)
        return -1;
    *len = (size_t)(q - *name);
    const char *p = q + 1;
    while (isspace((unsigned char)*p))
        p++;
    if (*p++ != ',')
        return -1;
    char *end;
    errno = 0;
    *value = strtol(p, &end, 10);
    if (end == p || errno || *value < -EVAL_MAX || *value > EVAL_MAX)
        return -1;
    while (isspace((unsigned char)*end))
        end++;
    return *end == ')' ? 1 : -1;
}

int evalfile_read(const EvalTuning *t, const char *path, int *w,
                  PlyError *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return ply_fail(err, "cannot open weights file '%s'", path);
    char *seen = calloc((size_t)t->nparams, 1);
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int rc = 0, count = 0;
    while (!rc && getline(&line, &cap, f) >= 0) {
        lineno++;
        const char *name;
        size_t len;
        long value;
        int r = parse_entry(line, &name, &len, &value);
        if (r == 0)
            continue;
        if (r < 0) {
            rc = ply_fail(err, "%s:%ld: expected X(\"name\", integer in "
                          "%d..%d)", path, lineno, -EVAL_MAX, EVAL_MAX);
            break;
        }
        int i = find_name(t, name, len);
        if (i < 0)
            rc = ply_fail(err, "%s:%ld: unknown parameter '%.*s'", path,
                          lineno, (int)(len > 80 ? 80 : len), name);
        else if (seen[i])
            rc = ply_fail(err, "%s:%ld: parameter '%s' given twice", path,
                          lineno, t->names[i]);
        else {
            seen[i] = 1;
            w[i] = (int)value;
            count++;
        }
    }
    if (!rc && count < t->nparams) {
        int i = 0;
        while (seen[i])
            i++;
        rc = ply_fail(err, "%s: %d of %d parameters missing (the first: "
                      "'%s')", path, t->nparams - count, t->nparams,
                      t->names[i]);
    }
    free(line);
    free(seen);
    fclose(f);
    return rc;
}

void evalfile_write(FILE *f, const char *game, const EvalTuning *t,
                    const int *w, const char *comment)
{
    char macro[64];
    size_t n = 0;
    for (const char *s = game; *s && n < sizeof macro - 1; s++)
        macro[n++] = isalnum((unsigned char)*s)
                   ? (char)toupper((unsigned char)*s) : '_';
    macro[n] = 0;
    fprintf(f, "/* weights_%s.h — %s evaluation weights, written by `ply "
               "tune`\n * (see docs/tuning.md): one X(name, value) per "
               "parameter, in the\n * order of the game's EvalTuning.\n",
            game, game);
    if (comment && *comment) {
        fputs(" *\n", f);
        for (const char *s = comment; *s;) {
            size_t len = strcspn(s, "\n");
            fprintf(f, " * %.*s\n", (int)len, s);
            s += len;
            if (*s)
                s++;
        }
    }
    fprintf(f, " */\n#define %s_WEIGHTS(X) \\\n", macro);
    for (int i = 0; i < t->nparams; i++)
        fprintf(f, "    X(\"%s\", %d)%s\n", t->names[i], w[i],
                i + 1 < t->nparams ? " \\" : "");
}

static int linear(const int *w, const EvalTerm *terms, int n, double v)
{
    for (int i = 0; i < n; i++)
        v += (double)terms[i].coef * w[terms[i].index];
    v = round(v);
    return v > EVAL_MAX - 1 ? EVAL_MAX - 1
         : v < -(EVAL_MAX - 1) ? -(EVAL_MAX - 1) : (int)v;
}

int evalfile_eval(const EvalTuning *t, const int *w, const void *st,
                  EvalTerm *terms)
{
    double v = 0;
    int n = t->terms(st, terms, &v);
    return linear(w, terms, n, v);
}

int evalfile_eval_of(const EvalTuning *t, const int *w, const void *st,
                     int player, EvalTerm *terms)
{
    double v = 0;
    int n = t->terms_of(st, player, terms, &v);
    return linear(w, terms, n, v);
}
