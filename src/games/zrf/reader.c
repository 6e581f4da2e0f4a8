/* reader.c — ZRF text to s-expression trees: comments, strings, atoms
 * (compared case-insensitively), includes next to the including file,
 * `define` macros with $n parameters (inside atoms and strings too, so
 * `$1$2` pastes tokens), nested expansion. Every allocation comes from one
 * arena with a byte bound; nesting, node count and expansion depth are
 * bounded, so hostile text fails with a message instead of exhausting the
 * machine. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zrf.h"

struct ZArenaBlock {
    ZArenaBlock *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
};

void zr_init(ZReader *r, ZReadFile rf, PlyError *err)
{
    memset(r, 0, sizeof *r);
    r->read_file = rf ? rf : zr_read_path;
    r->err = err;
}

void zr_free(ZReader *r)
{
    ZArenaBlock *b = r->blocks;
    while (b) {
        ZArenaBlock *n = b->next;
        free(b);
        b = n;
    }
    r->blocks = NULL;
}

void *zr_alloc(ZReader *r, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (r->arena_used + n > ZRF_MAX_ARENA)
        return NULL;
    ZArenaBlock *b = r->blocks;
    if (!b || b->used + n > b->size) {
        size_t sz = n > (1u << 20) ? n : (1u << 20);
        b = malloc(sizeof *b + sz);
        if (!b)
            return NULL;
        b->size = sz;
        b->used = 0;
        b->next = r->blocks;
        r->blocks = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    r->arena_used += n;
    return p;
}

const char *zr_where(const ZReader *r, const ZNode *n, char *buf, size_t sz)
{
    snprintf(buf, sz, "%s:%d", n && n->file < r->nfiles ? r->files[n->file]
             : "?", n ? n->line : 0);
    return buf;
}

int zr_len(const ZNode *list)
{
    int k = 0;
    for (const ZNode *c = list ? list->kids : NULL; c; c = c->next)
        k++;
    return k;
}

const ZNode *zr_nth(const ZNode *list, int i)
{
    const ZNode *c = list ? list->kids : NULL;
    while (c && i-- > 0)
        c = c->next;
    return c;
}

int zr_is(const ZNode *n, const char *word)
{
    return n && n->type == ZN_ATOM && !strcmp(n->text, word);
}

const char *zr_head(const ZNode *n)
{
    if (!n || n->type != ZN_LIST || !n->kids || n->kids->type != ZN_ATOM)
        return NULL;
    return n->kids->text;
}

char *zr_read_path(const char *path, size_t *len, PlyError *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        ply_fail(err, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = malloc(ZRF_MAX_BYTES + 1);
    if (!buf) {
        fclose(f);
        ply_fail(err, "%s: out of memory", path);
        return NULL;
    }
    size_t n = fread(buf, 1, ZRF_MAX_BYTES + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        ply_fail(err, "%s: read error", path);
        return NULL;
    }
    if (n > ZRF_MAX_BYTES) {
        free(buf);
        ply_fail(err, "%s: larger than %d bytes", path, ZRF_MAX_BYTES);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* ---- nodes and text ---- */

static char *zstrndup(ZReader *r, const char *s, size_t n)
{
    char *p = zr_alloc(r, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

static ZNode *new_node(ZReader *r, int type, int line, int file)
{
    if (++r->nodes > ZRF_MAX_NODES) {
        ply_fail(r->err, "%s: more than %d nodes (macro expansion too "
                 "large?)", r->files[file], ZRF_MAX_NODES);
        return NULL;
    }
    ZNode *n = zr_alloc(r, sizeof *n);
    if (!n) {
        ply_fail(r->err, "%s: out of reader memory", r->files[file]);
        return NULL;
    }
    memset(n, 0, sizeof *n);
    n->text = n->orig = "";     /* lists too: never NULL */
    n->type = type;
    n->line = line;
    n->file = file;
    return n;
}

static int set_atom(ZReader *r, ZNode *n, const char *s, size_t len)
{
    char *o = zstrndup(r, s, len), *l = zstrndup(r, s, len);
    if (!o || !l)
        return ply_fail(r->err, "out of reader memory");
    for (char *p = l; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    n->orig = o;
    n->text = l;
    return 0;
}

/* ---- the lexer and parser ---- */

typedef struct Lex {
    const char *s, *end;
    int line, file;
} Lex;

static void skip_space(Lex *x)
{
    while (x->s < x->end) {
        char c = *x->s;
        if (c == '\n') {
            x->line++;
            x->s++;
        } else if (isspace((unsigned char)c) || c == 0) {
            x->s++;
        } else if (c == ';') {
            while (x->s < x->end && *x->s != '\n')
                x->s++;
        } else {
            break;
        }
    }
}

static int is_delim(char c)
{
    return isspace((unsigned char)c) || c == '(' || c == ')' || c == '"' ||
           c == ';' || c == 0;
}

/* Parses the elements up to ')' (or the end at depth 0) as a chain. */
static int parse_seq(ZReader *r, Lex *x, int depth, ZNode **out,
                     int open_line)
{
    ZNode *head = NULL, **tail = &head;
    if (depth > ZRF_MAX_DEPTH)
        return ply_fail(r->err, "%s:%d: lists nested deeper than %d",
                        r->files[x->file], x->line, ZRF_MAX_DEPTH);
    for (;;) {
        skip_space(x);
        if (x->s >= x->end) {
            if (depth > 0)
                return ply_fail(r->err, "%s:%d: '(' never closed (opened "
                                "at line %d)", r->files[x->file], x->line,
                                open_line);
            break;
        }
        char c = *x->s;
        ZNode *n;
        if (c == ')') {
            if (depth == 0)
                return ply_fail(r->err, "%s:%d: unexpected ')'",
                                r->files[x->file], x->line);
            x->s++;
            break;
        } else if (c == '(') {
            int l = x->line;
            x->s++;
            if (!(n = new_node(r, ZN_LIST, l, x->file)) ||
                parse_seq(r, x, depth + 1, &n->kids, l))
                return -1;
        } else if (c == '"') {
            int l = x->line;
            const char *st = ++x->s;
            while (x->s < x->end && *x->s != '"') {
                if (*x->s == '\n')
                    x->line++;
                x->s++;
            }
            if (x->s >= x->end)
                return ply_fail(r->err, "%s:%d: string never closed",
                                r->files[x->file], l);
            if (!(n = new_node(r, ZN_STRING, l, x->file)))
                return -1;
            if (!(n->text = n->orig = zstrndup(r, st, (size_t)(x->s - st))))
                return ply_fail(r->err, "out of reader memory");
            x->s++;
        } else {
            const char *st = x->s;
            while (x->s < x->end && !is_delim(*x->s))
                x->s++;
            if (!(n = new_node(r, ZN_ATOM, x->line, x->file)) ||
                set_atom(r, n, st, (size_t)(x->s - st)))
                return -1;
        }
        *tail = n;
        tail = &n->next;
    }
    *out = head;
    return 0;
}

/* ---- includes ---- */

static int add_file(ZReader *r, const char *path)
{
    if (r->nfiles > ZRF_MAX_INCLUDES)
        return ply_fail(r->err, "%s: more than %d included files", path,
                        ZRF_MAX_INCLUDES);
    char *p = zstrndup(r, path, strlen(path));
    if (!p)
        return ply_fail(r->err, "out of reader memory");
    r->files[r->nfiles] = p;
    return r->nfiles++;
}

static int parse_text(ZReader *r, int file, const char *text, size_t len,
                      ZNode **out)
{
    Lex x = {text, text + len, 1, file};
    return parse_seq(r, &x, 0, out, 1);
}

/* Replaces top-level (include "f") forms by the forms of f, read next to
 * the including file. */
static int splice_includes(ZReader *r, ZNode **chain, int depth)
{
    for (ZNode **pp = chain; *pp;) {
        ZNode *n = *pp;
        const char *h = zr_head(n);
        if (!h || strcmp(h, "include")) {
            pp = &n->next;
            continue;
        }
        const ZNode *a = zr_nth(n, 1);
        char w[300];
        if (!a || a->type == ZN_LIST)
            return ply_fail(r->err, "%s: (include) needs a file name",
                            zr_where(r, n, w, sizeof w));
        if (depth >= 8)
            return ply_fail(r->err, "%s: includes nested too deep",
                            zr_where(r, n, w, sizeof w));
        const char *base = r->files[n->file];
        const char *slash = strrchr(base, '/');
        char path[1024];
        if (a->orig[0] == '/' || !slash)
            snprintf(path, sizeof path, "%s", a->orig);
        else
            snprintf(path, sizeof path, "%.*s/%s", (int)(slash - base), base,
                     a->orig);
        int fi = add_file(r, path);
        if (fi < 0)
            return -1;
        size_t len = 0;
        PlyError e2 = {{0}};
        char *text = r->read_file(path, &len, &e2);
        if (!text)
            return ply_fail(r->err, "%s: include: %s",
                            zr_where(r, n, w, sizeof w), e2.msg);
        ZNode *forms = NULL;
        int rc = parse_text(r, fi, text, len, &forms);
        free(text);
        if (rc || splice_includes(r, &forms, depth + 1))
            return -1;
        ZNode *after = n->next;
        *pp = forms;
        while (*pp)
            pp = &(*pp)->next;
        *pp = after;
    }
    return 0;
}

/* ---- macros ---- */

typedef struct Macro {
    const char *name;
    const ZNode *body;      /* chain of forms */
} Macro;

static const ZNode *find_macro(const ZReader *r, const char *name)
{
    for (const ZNode *d = r->macros; d; d = d->next)
        if (!strcmp(zr_nth(d, 1)->text, name))
            return d;
    return NULL;
}

/* Text with every $n replaced by the text of argument n ("" if absent). */
static int subst_text(ZReader *r, const char *s, const ZNode **args,
                      int nargs, const char **out, const ZNode *where)
{
    if (!strchr(s, '$')) {
        *out = s;
        return 0;
    }
    size_t cap = 256, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return ply_fail(r->err, "out of memory");
    for (const char *p = s; *p;) {
        const char *ins = NULL;
        size_t inslen = 0;
        if (p[0] == '$' && isdigit((unsigned char)p[1])) {
            int k = 0;
            p++;
            while (isdigit((unsigned char)*p) && k < 1000)
                k = k * 10 + (*p++ - '0');
            if (k >= 1 && k <= nargs) {
                const ZNode *a = args[k - 1];
                if (a->type == ZN_LIST) {
                    char w[300];
                    free(buf);
                    return ply_fail(r->err, "%s: macro argument $%d is a "
                                    "list pasted into '%s'",
                                    zr_where(r, where, w, sizeof w), k, s);
                }
                ins = a->orig;
                inslen = strlen(ins);
            }
        } else {
            ins = p++;
            inslen = 1;
        }
        if (len + inslen + 1 > cap) {
            while (len + inslen + 1 > cap)
                cap *= 2;
            if (cap > (1u << 20)) {
                free(buf);
                return ply_fail(r->err, "macro text too long");
            }
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                return ply_fail(r->err, "out of memory");
            }
            buf = nb;
        }
        if (inslen)
            memcpy(buf + len, ins, inslen);
        len += inslen;
    }
    buf[len] = 0;
    char *o = zstrndup(r, buf, len);
    free(buf);
    if (!o)
        return ply_fail(r->err, "out of reader memory");
    *out = o;
    return 0;
}

/* Copies a chain with parameters substituted (no expansion). */
static int subst_chain(ZReader *r, const ZNode *c, const ZNode **args,
                       int nargs, ZNode **out, int depth)
{
    ZNode *head = NULL, **tail = &head;
    for (; c; c = c->next) {
        ZNode *n;
        if (c->type == ZN_ATOM && c->text[0] == '$' &&
            isdigit((unsigned char)c->text[1]) &&
            strspn(c->text + 1, "0123456789") == strlen(c->text + 1)) {
            int k = atoi(c->text + 1);
            if (k < 1 || k > nargs)
                continue;       /* a missing argument vanishes */
            if (subst_chain(r, args[k - 1], NULL, 0, &n, depth + 1))
                return -1;
            /* subst_chain copied the whole rest: keep only the first */
            if (n)
                n->next = NULL;
            if (!n)
                continue;
        } else {
            if (!(n = new_node(r, c->type, c->line, c->file)))
                return -1;
            if (c->type == ZN_LIST) {
                if (depth > ZRF_MAX_DEPTH)
                    return ply_fail(r->err, "macro body nested too deep");
                if (subst_chain(r, c->kids, args, nargs, &n->kids,
                                depth + 1))
                    return -1;
            } else if (c->type == ZN_ATOM) {
                const char *t;
                if (subst_text(r, c->orig, args, nargs, &t, c))
                    return -1;
                if (t == c->orig) {
                    n->orig = c->orig;
                    n->text = c->text;
                } else if (set_atom(r, n, t, strlen(t))) {
                    return -1;
                }
            } else {
                if (subst_text(r, c->text, args, nargs, &n->text, c))
                    return -1;
                n->orig = n->text;
            }
        }
        *tail = n;
        tail = &n->next;
        if (!args && nargs == 0 && depth > 0 && c == NULL)
            break;
    }
    *out = head;
    return 0;
}

/* Copies one node (not its siblings). */
static ZNode *copy_one(ZReader *r, const ZNode *c)
{
    ZNode *n;
    if (!(n = new_node(r, c->type, c->line, c->file)))
        return NULL;
    if (c->type != ZN_LIST) {
        n->text = c->text;
        n->orig = c->orig;
    }
    if (c->type == ZN_LIST && subst_chain(r, c->kids, NULL, 0, &n->kids, 0))
        return NULL;
    return n;
}

static int expand_chain(ZReader *r, const ZNode *c, ZNode **out, int depth,
                        int level);

/* Expands a macro call: body with args, then expanded again. */
static int expand_call(ZReader *r, const ZNode *def, const ZNode *call,
                       ZNode **out, int depth, int level)
{
    char w[300];
    if (depth >= ZRF_MAX_EXPAND_DEPTH)
        return ply_fail(r->err, "%s: macro '%s' expands more than %d levels "
                        "deep (recursive?)", zr_where(r, call, w, sizeof w),
                        zr_nth(def, 1)->orig, ZRF_MAX_EXPAND_DEPTH);
    const ZNode *args[64];
    int nargs = 0;
    if (call->type == ZN_LIST)
        for (const ZNode *a = call->kids->next; a; a = a->next) {
            if (nargs == 64)
                return ply_fail(r->err, "%s: more than 64 macro arguments",
                                zr_where(r, call, w, sizeof w));
            args[nargs++] = a;
        }
    /* one-node copies of the arguments, so $n takes just that node */
    const ZNode *one[64];
    for (int i = 0; i < nargs; i++) {
        ZNode *cp = copy_one(r, args[i]);
        if (!cp)
            return -1;
        one[i] = cp;
    }
    ZNode *body = NULL;
    if (subst_chain(r, zr_nth(def, 2), one, nargs, &body, 0))
        return -1;
    return expand_chain(r, body, out, depth + 1, level);
}

static int expand_chain(ZReader *r, const ZNode *c, ZNode **out, int depth,
                        int level)
{
    ZNode *head = NULL, **tail = &head;
    if (level > ZRF_MAX_DEPTH)
        return ply_fail(r->err, "lists nested deeper than %d after macro "
                        "expansion", ZRF_MAX_DEPTH);
    for (; c; c = c->next) {
        const ZNode *def = NULL;
        if (c->type == ZN_ATOM)
            def = find_macro(r, c->text);
        else if (c->type == ZN_LIST && c->kids && c->kids->type == ZN_ATOM)
            def = find_macro(r, c->kids->text);
        if (def) {
            ZNode *sp = NULL;
            if (expand_call(r, def, c, &sp, depth, level))
                return -1;
            *tail = sp;
            while (*tail)
                tail = &(*tail)->next;
            continue;
        }
        ZNode *n = new_node(r, c->type, c->line, c->file);
        if (!n)
            return -1;
        if (c->type != ZN_LIST) {
            n->text = c->text;
            n->orig = c->orig;
        }
        if (c->type == ZN_LIST &&
            expand_chain(r, c->kids, &n->kids, depth, level + 1))
            return -1;
        *tail = n;
        tail = &n->next;
    }
    *out = head;
    return 0;
}

int zr_read(ZReader *r, const char *path, const char *text, size_t len)
{
    if (len > ZRF_MAX_BYTES)
        return ply_fail(r->err, "%s: larger than %d bytes", path,
                        ZRF_MAX_BYTES);
    int fi = add_file(r, path);
    if (fi < 0)
        return -1;
    ZNode *forms = NULL;
    if (parse_text(r, fi, text, len, &forms) ||
        splice_includes(r, &forms, 0))
        return -1;
    /* take the defines out */
    ZNode *rest = NULL, **rt = &rest;
    for (ZNode *n = forms, *next; n; n = next) {
        next = n->next;
        const char *h = zr_head(n);
        if (h && !strcmp(h, "define")) {
            const ZNode *nm = zr_nth(n, 1);
            char w[300];
            if (!nm || nm->type != ZN_ATOM)
                return ply_fail(r->err, "%s: (define) needs a name",
                                zr_where(r, n, w, sizeof w));
            n->next = r->macros;    /* later defines win */
            r->macros = n;
            r->ndefines++;
        } else {
            n->next = NULL;
            *rt = n;
            rt = &n->next;
        }
    }
    return expand_chain(r, rest, &r->top, 0, 0);
}
