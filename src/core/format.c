/* format.c — lookups over the formats games declare. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "record.h"
#include "registry.h"
#include "setup.h"

const GameFormat *game_format(const GameVtbl *g, const char *name)
{
    if (!g || !g->formats || !name)
        return NULL;
    for (int i = 0; g->formats[i]; i++)
        if (!strcmp(g->formats[i]->name, name))
            return g->formats[i];
    return NULL;
}

int games_with_format(const char *name, const GameVtbl **out, int max)
{
    int n = 0;
    for (int i = 0; ply_games[i]; i++)
        if (game_format(ply_games[i], name)) {
            if (out && n < max)
                out[n] = ply_games[i];
            n++;
        }
    return n;
}

const GameVtbl *game_by_variant(const char *format, const char *variant,
                                const GameFormat **f)
{
    if (!variant)
        return NULL;
    for (int i = 0; ply_games[i]; i++) {
        const GameFormat *gf = game_format(ply_games[i], format);
        if (gf && !strcmp(gf->variant ? gf->variant
                          : ply_games[i]->info.name, variant)) {
            if (f)
                *f = gf;
            return ply_games[i];
        }
    }
    return NULL;
}

const GameVtbl *format_native_game(const char *format, const GameFormat **f)
{
    for (int i = 0; ply_games[i]; i++) {
        const GameFormat *gf = game_format(ply_games[i], format);
        if (gf && (gf->flags & FORMAT_NATIVE)) {
            if (f)
                *f = gf;
            return ply_games[i];
        }
    }
    return NULL;
}

const char *format_variant(const GameVtbl *g, const char *format)
{
    const GameFormat *f = game_format(g, format);
    if (!f)
        return g->info.name;
    if (f->flags & FORMAT_NATIVE)
        return NULL;
    return f->variant ? f->variant : g->info.name;
}

const char *format_variant_name(const GameVtbl *g, const char *format)
{
    const GameFormat *f = game_format(g, format);
    return f && f->variant ? f->variant : g->info.name;
}

static int convert(int (*hook)(const char *, char *, size_t),
                   const char *in, char *buf, size_t n)
{
    if (hook) {
        int k = hook(in, buf, n);
        if (k >= 0)
            return k;
    }
    int k = snprintf(buf, n, "%s", in);
    return hook || k < 0 || (size_t)k >= n ? -1 : k;
}

int format_move_to_wire(const GameFormat *f, const char *own, char *buf,
                        size_t n)
{
    return convert(f ? f->move_to_wire : NULL, own, buf, n);
}

int format_move_from_wire(const GameFormat *f, const char *wire, char *buf,
                          size_t n)
{
    return convert(f ? f->move_from_wire : NULL, wire, buf, n);
}

int format_setup_to_wire(const GameFormat *f, const char *own, char *buf,
                         size_t n)
{
    return convert(f ? f->setup_to_wire : NULL, own, buf, n);
}

int format_setup_from_wire(const GameFormat *f, const char *wire, char *buf,
                           size_t n)
{
    return convert(f ? f->setup_from_wire : NULL, wire, buf, n);
}

char *format_moves_from_wire(const GameFormat *f, const char *moves)
{
    size_t len = strlen(moves), cap = 2 * len + 16, k = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    out[0] = 0;
    for (const char *p = moves; *p;) {
        p += strspn(p, " \t");
        size_t n = strcspn(p, " \t");
        if (!n)
            break;
        char one[256], conv[256];
        snprintf(one, sizeof one, "%.*s", (int)(n < 255 ? n : 255), p);
        format_move_from_wire(f, one, conv, sizeof conv);
        size_t cl = strlen(conv);
        if (k + cl + 2 > cap) {
            cap = 2 * (k + cl + 2);
            char *grown = realloc(out, cap);
            if (!grown) {
                free(out);
                return NULL;
            }
            out = grown;
        }
        k += (size_t)snprintf(out + k, cap - k, "%s%s", k ? " " : "", conv);
        p += n;
    }
    return out;
}

int format_names(const char **out, int max)
{
    int n = 0;
    for (int i = 0; ply_games[i]; i++) {
        const GameFormat *const *fs = ply_games[i]->formats;
        for (int j = 0; fs && fs[j]; j++) {
            int seen = 0;
            for (int k = 0; k < n && !seen; k++)
                seen = !strcmp(out[k], fs[j]->name);
            if (!seen && n < max)
                out[n++] = fs[j]->name;
        }
    }
    return n;
}

void record_init(Record *r)
{
    memset(r, 0, sizeof *r);
    r->index = -1;
    r->number = 1;
}

int record_winner(const Record *r)
{
    if (!r->has_result || r->nseats < 1)
        return -2;
    int best = 0, ties = 0;
    for (int i = 1; i < r->nseats; i++)
        if (r->result[i] > r->result[best]) {
            best = i;
            ties = 0;
        } else if (r->result[i] == r->result[best]) {
            ties++;
        }
    return ties ? -1 : best;
}

void record_put_tag(FILE *out, const char *tag, const char *val)
{
    fprintf(out, "[%s \"", tag);
    for (const char *p = val; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', out);
        fputc(*p, out);
    }
    fprintf(out, "\"]\n");
}

void record_put_word(RecordWrap *w, const char *s)
{
    int len = (int)strlen(s);
    if (w->col && w->col + 1 + len > 79) {
        fputc('\n', w->out);
        w->col = 0;
    } else if (w->col) {
        fputc(' ', w->out);
        w->col++;
    }
    fputs(s, w->out);
    w->col += len;
}

void record_set_winner(Record *r, int winner, const char *reason)
{
    if (winner < -1)
        return;
    r->has_result = 1;
    for (int s = 0; s < r->nseats && s < PLY_MAX_PLAYERS; s++)
        r->result[s] = winner == -1 ? 0 : winner == s ? 1 : -1;
    r->reason = reason;
}

int record_move(const GameVtbl *g, const void *st, const Record *r, int i,
                Move *m, PlyError *err)
{
    const char *text = r->moves[i];
    int p = g->to_move(st);
    err->msg[0] = 0;
    if (p >= 0 && !g->text_to_move(st, text, m, err) &&
        state_is_legal(g, st, *m))
        return 0;
    if (p >= 0 && r->reason && !strcmp(r->reason, "illegal") &&
        i + 1 == r->nmoves)
        return 1;
    char why[sizeof err->msg];
    snprintf(why, sizeof why, "%s", p < 0 ? "the game is over"
             : err->msg[0] ? err->msg : "illegal");
    return ply_fail(err, "move %d '%.60s': %s", i + 1, text, why);
}
