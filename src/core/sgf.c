/* sgf.c — the generic part of SGF (FF[4]) records shared by the games
 * that write them (go's GM[1], gomoku's GM[4]): values escaped on
 * writing; game trees read into the properties of their main line (the
 * first variation at each branch), the other variations only checked;
 * values unescaped. The games interpret the properties. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "setup.h"
#include "sgf.h"

void sgf_put_value(FILE *out, const char *v)
{
    for (; *v; v++) {
        if (*v == ']' || *v == '\\')
            fputc('\\', out);
        fputc(*v, out);
    }
}

enum { SGF_MAX_DEPTH = 4000, SGF_MAX_PROPS = 1 << 20 };

int sgf_line_of(const SgfParser *ps, size_t at)
{
    int line = 1;
    for (size_t i = 0; i < at && i < ps->len; i++)
        line += ps->s[i] == '\n';
    return line;
}

static void skip_ws(SgfParser *ps)
{
    while (ps->pos < ps->len && isspace((unsigned char)ps->s[ps->pos]))
        ps->pos++;
}

int sgf_peek(SgfParser *ps)
{
    skip_ws(ps);
    return ps->pos < ps->len ? (unsigned char)ps->s[ps->pos] : -1;
}

/* One value "[...]": start and length of its raw text. */
static int read_value(SgfParser *ps, const char **v, size_t *n)
{
    size_t start = ++ps->pos;
    while (ps->pos < ps->len && ps->s[ps->pos] != ']') {
        if (ps->s[ps->pos] == '\\')
            ps->pos++;
        ps->pos++;
    }
    if (ps->pos >= ps->len)
        return ply_fail(ps->err, "sgf line %d: a value '[' is never closed",
                        sgf_line_of(ps, start));
    *v = ps->s + start;
    *n = ps->pos - start;
    ps->pos++;
    return 0;
}

/* A node ";" and its properties; keep says whether to store them. */
static int read_node(SgfParser *ps, int keep)
{
    ps->pos++;      /* ';' */
    int node = ps->nodes;
    if (keep)
        ps->nodes++;
    for (;;) {
        int c = sgf_peek(ps);
        if (c < 0 || !isalpha(c))
            return 0;
        size_t at = ps->pos;
        char id[16];
        size_t k = 0;
        while (ps->pos < ps->len && isalpha((unsigned char)ps->s[ps->pos])) {
            char ch = ps->s[ps->pos++];
            if (isupper((unsigned char)ch)) {   /* FF[3] lower case: dropped */
                if (k + 1 >= sizeof id)
                    return ply_fail(ps->err, "sgf line %d: property name too "
                                    "long", sgf_line_of(ps, at));
                id[k++] = ch;
            }
        }
        id[k] = 0;
        if (sgf_peek(ps) != '[')
            return ply_fail(ps->err, "sgf line %d: property %s has no value",
                            sgf_line_of(ps, at), id);
        while (sgf_peek(ps) == '[') {
            const char *v = NULL;
            size_t n = 0;
            if (read_value(ps, &v, &n))
                return -1;
            if (!keep)
                continue;
            if (ps->nprops >= SGF_MAX_PROPS)
                return ply_fail(ps->err, "sgf: too many properties");
            if (ps->nprops == ps->cap) {
                int nc = ps->cap ? 2 * ps->cap : 256;
                SgfProp *np = realloc(ps->props, sizeof *np * (size_t)nc);
                if (!np)
                    return ply_fail(ps->err, "out of memory");
                ps->props = np;
                ps->cap = nc;
            }
            SgfProp *p = &ps->props[ps->nprops++];
            memcpy(p->id, id, k + 1);
            p->val = v;
            p->len = n;
            p->node = node;
            p->at = at;
        }
    }
}

/* "(" nodes, variations ")": the first variation continues the main line
 * when keep is set, the others are only checked. */
int sgf_read_tree(SgfParser *ps, int keep, int depth)
{
    if (depth > SGF_MAX_DEPTH)
        return ply_fail(ps->err, "sgf: variations nested too deep");
    size_t at = ps->pos;
    ps->pos++;      /* '(' */
    if (sgf_peek(ps) != ';')
        return ply_fail(ps->err, "sgf line %d: a game tree must start with "
                        "';'", sgf_line_of(ps, ps->pos));
    while (sgf_peek(ps) == ';')
        if (read_node(ps, keep))
            return -1;
    int first = 1;
    while (sgf_peek(ps) == '(') {
        if (sgf_read_tree(ps, keep && first, depth + 1))
            return -1;
        first = 0;
    }
    if (sgf_peek(ps) != ')')
        return ply_fail(ps->err, "sgf line %d: the game tree opened on line "
                        "%d is not closed with ')'",
                        sgf_line_of(ps, ps->pos), sgf_line_of(ps, at));
    ps->pos++;
    return 0;
}

/* A value without escapes and soft line breaks, cut to n-1 bytes. */
void sgf_unescape(const SgfProp *p, char *out, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < p->len && k + 1 < n; i++) {
        char c = p->val[i];
        if (c == '\\' && i + 1 < p->len) {
            c = p->val[++i];
            if (c == '\n' || c == '\r')
                continue;
        }
        out[k++] = c;
    }
    out[k] = 0;
}

int sgf_prop_is(const SgfProp *p, const char *id)
{
    return !strcmp(p->id, id);
}


int sgf_common(const SgfParser *ps, SgfCommon *c)
{
    memset(c, 0, sizeof *c);
    c->pl = -1;
    c->res = -2;
    c->first_mover = -1;
    for (int i = 0; i < ps->nprops; i++) {
        const SgfProp *p = &ps->props[i];
        int line = sgf_line_of(ps, p->at);
        if (sgf_prop_is(p, "B") || sgf_prop_is(p, "W")) {
            if (c->first_mover < 0)
                c->first_mover = p->id[0] == 'W';
            c->nmoves++;
        }
        int setup = sgf_prop_is(p, "AB") || sgf_prop_is(p, "AW") ||
                    sgf_prop_is(p, "AE");
        if (setup && p->node != 0)
            return ply_fail(ps->err, "sgf line %d: %s after the first node "
                            "(setup during the game) is not supported",
                            line, p->id);
        if (p->node != 0)
            continue;
        char val[64];
        sgf_unescape(p, val, sizeof val);
        if (sgf_prop_is(p, "PB")) {
            sgf_unescape(p, c->pb, sizeof c->pb);
        } else if (sgf_prop_is(p, "PW")) {
            sgf_unescape(p, c->pw, sizeof c->pw);
        } else if (sgf_prop_is(p, "PL")) {
            c->pl = (val[0] == 'B' || val[0] == 'b') ? 0
                  : (val[0] == 'W' || val[0] == 'w') ? 1 : -1;
            if (c->pl < 0 || val[1])
                return ply_fail(ps->err, "sgf line %d: PL[%s] is not B or W",
                                line, val);
        } else if (sgf_prop_is(p, "RE")) {
            if ((val[0] == 'B' || val[0] == 'W') && val[1] == '+') {
                c->res = val[0] == 'W';
                if (val[2] == 'T' || !strncmp(val + 2, "Time", 4))
                    c->reason = "time";
                else if (val[2] == 'F' || !strncmp(val + 2, "Forfeit", 7))
                    c->reason = "illegal";
            } else if (!strcmp(val, "0") || !strcmp(val, "Draw")) {
                c->res = -1;
            }
        }
    }
    return 0;
}

int sgf_check_turn(const SgfParser *ps, const SgfProp *p, int tm)
{
    int line = sgf_line_of(ps, p->at);
    if (tm < 0)
        return ply_fail(ps->err, "sgf line %d: a move after the end of the "
                        "game", line);
    if (tm != (p->id[0] == 'W'))
        return ply_fail(ps->err, "sgf line %d: %s[] but %s is to move", line,
                        p->id, tm ? "White" : "Black");
    return 0;
}

int sgf_emit_record(const GameVtbl *g, const SgfCommon *c, const char *opts,
                    const char *setup, const char **moves, int n, int number,
                    RecordSink sink, void *ctx, PlyError *err)
{
    Record r;
    record_init(&r);
    r.game = g->info.name;
    r.options = opts;
    r.setup = setup;
    r.nseats = 2;
    r.seats[0] = c->pb[0] ? c->pb : "?";
    r.seats[1] = c->pw[0] ? c->pw : "?";
    r.nmoves = n;
    r.moves = moves;
    r.number = number;
    record_set_winner(&r, c->res, c->reason ? c->reason : "normal");
    return sink(&r, ctx, err);
}

int sgf_read_games(const char *text, size_t len, PlyError *err,
                   SgfGameFn each, void *ctx)
{
    PlyError local;
    if (!err)
        err = &local;
    SgfParser ps = {.s = text, .len = len, .err = err};
    int number = 0, rc = 0;
    for (;;) {
        int c = sgf_peek(&ps);
        if (c < 0)
            break;
        if (c != '(') {
            rc = ply_fail(err, "sgf line %d: expected '(' (a game tree), "
                          "found '%c'", sgf_line_of(&ps, ps.pos),
                          isprint(c) ? c : '?');
            break;
        }
        ps.nprops = 0;
        ps.nodes = 0;
        if (sgf_read_tree(&ps, 1, 0)) {
            rc = -1;
            break;
        }
        number++;
        if (each(&ps, number, ctx)) {
            rc = -1;
            break;
        }
    }
    free(ps.props);
    return rc;
}

int sgf_game_type(const char *text, size_t len)
{
    /* the first GM[...] before the first node ends: a plain scan of the
     * root node, values skipped */
    size_t i = 0;
    while (i < len && text[i] != ';')
        i++;
    for (i++; i < len && text[i] != ';' && text[i] != '(' &&
               text[i] != ')'; i++) {
        if (text[i] == '[') {
            size_t v = i + 1;
            while (i < len && text[i] != ']') {
                if (text[i] == '\\')
                    i++;
                i++;
            }
            if (v >= 3 && text[v - 3] == 'G' && text[v - 2] == 'M' &&
                (v < 4 || !isupper((unsigned char)text[v - 4])))
                return atoi(text + v);
        }
    }
    return 1;
}

int sgf_write_record(const GameVtbl *g, const Record *r, const SgfWriter *w,
                     FILE *out, PlyError *err)
{
    PlyError local;
    if (!err)
        err = &local;
    if (r->nseats != 2)
        return ply_fail(err, "\"seats\" is not a list of two");
    void *st = state_alloc(g), *start = state_alloc(g);
    char *moves = NULL;
    size_t mlen = 0;
    int rc = -1;
    if (!st || !start) {
        ply_fail(err, "out of memory");
        goto done;
    }
    if (state_setup(g, start, r->options, NULL, 1, err) ||
        state_setup(g, st, r->options, r->setup, 1, err))
        goto done;
    fprintf(out, "(;FF[4]GM[%d]CA[UTF-8]AP[Ply]", w->gm);
    w->root(g, start, out);
    if (r->options && *r->options) {
        fputs("PLYOPTIONS[", out);
        sgf_put_value(out, r->options);
        fputs("]", out);
    }
    for (int p = 0; p < 2; p++) {
        fputs(p ? "PW[" : "PB[", out);
        sgf_put_value(out, r->seats[p] ? r->seats[p] : "?");
        fputs("]", out);
    }
    w->setup(st, start, out);
    /* the moves, replayed and checked; the result goes in the root, so
     * they are written aside first */
    FILE *mem = open_memstream(&moves, &mlen);
    if (!mem) {
        ply_fail(err, "out of memory");
        goto done;
    }
    int bad = 0;
    for (int i = 0; i < r->nmoves; i++) {
        Move m;
        int p = g->to_move(st);
        int step = record_move(g, st, r, i, &m, err);
        if (step < 0) {
            bad = 1;
            break;
        }
        if (step) {
            fputs("\n;C[illegal move: ", mem);
            sgf_put_value(mem, r->moves[i]);
            fputs("]", mem);
            break;
        }
        fprintf(mem, "%s;%c[", i % 10 == 0 ? "\n" : "", p ? 'W' : 'B');
        w->point(st, m, mem);
        fputc(']', mem);
        g->make(st, m);
    }
    if (!bad && r->error && *r->error) {
        fputs("\n;C[", mem);
        sgf_put_value(mem, r->error);
        fputs("]", mem);
    }
    fclose(mem);
    if (bad)
        goto done;
    int winner = record_winner(r);
    if (winner != -2) {
        char re[32];
        const char *reason = r->reason ? r->reason : "normal";
        if (winner == -1)
            snprintf(re, sizeof re, "0");
        else if (!strcmp(reason, "time"))
            snprintf(re, sizeof re, "%c+T", winner ? 'W' : 'B');
        else if (!strcmp(reason, "illegal") || !strcmp(reason, "crash"))
            snprintf(re, sizeof re, "%c+F", winner ? 'W' : 'B');
        else if (!(w->score && g->to_move(st) == PLAYER_TERMINAL &&
                   w->score(st, winner, re, sizeof re) > 0))
            snprintf(re, sizeof re, "%c+", winner ? 'W' : 'B');
        fprintf(out, "RE[%s]", re);
    }
    if (moves && mlen)
        fwrite(moves, 1, mlen, out);
    fputs(")\n", out);
    rc = 0;
done:
    free(moves);
    free(st);
    free(start);
    return rc;
}
