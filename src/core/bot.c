/* bot.c — bot specs ("mcts:time=2s,threads=2") and the Bot wrapper. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

int parse_duration_ms(const char *s, int64_t *ms)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || errno || !(x >= 0))     /* NaN too */
        return -1;
    double scale;
    if (!*end || !strcmp(end, "ms"))
        scale = 1;
    else if (!strcmp(end, "s"))
        scale = 1000;
    else if (!strcmp(end, "m") || !strcmp(end, "min"))
        scale = 60000;
    else
        return -1;
    if (!(x * scale <= 1e12))               /* inf, NaN */
        return -1;
    *ms = (int64_t)(x * scale + 0.5);
    return 0;
}

static int parse_u64(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*v == '-')
        return -1;
    unsigned long long x = strtoull(v, &end, 10);
    /* accept k and M suffixes: nodes=100k */
    if (*end == 'k' || *end == 'K') {
        x *= 1000;
        end++;
    } else if (*end == 'M') {
        x *= 1000000;
        end++;
    }
    if (end == v || *end || errno)
        return -1;
    *out = x;
    return 0;
}

Bot *bot_new(const GameVtbl *g, const char *spec, uint64_t seed,
             PlyError *err)
{
    char name[64], rest[256] = "";
    const char *colon = strchr(spec, ':');
    size_t nl = colon ? (size_t)(colon - spec) : strlen(spec);
    if (nl == 0 || nl >= sizeof name) {
        ply_fail(err, "bad bot spec '%s'", spec);
        return NULL;
    }
    if (strlen(spec) >= sizeof rest) {
        ply_fail(err, "bot spec too long");
        return NULL;
    }
    memcpy(name, spec, nl);
    name[nl] = 0;
    const BotVtbl *v = bot_find(name);
    if (!v) {
        char list[256] = "";
        for (int i = 0; ply_bots[i]; i++) {
            if (i)
                strncat(list, ", ", sizeof list - strlen(list) - 1);
            strncat(list, ply_bots[i]->name, sizeof list - strlen(list) - 1);
        }
        ply_fail(err, "unknown bot '%s' (bots: %s)", name, list);
        return NULL;
    }
    Limits lim = {0};
    char opts[256] = "";
    if (colon) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", colon + 1);
        char *save = NULL;
        for (char *tok = strtok_r(buf, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(tok, '=');
            if (!eq) {
                ply_fail(err, "bot %s: option '%s' needs the form key=value",
                         name, tok);
                return NULL;
            }
            *eq = 0;
            const char *val = eq + 1;
            int bad = 0;
            if (!strcmp(tok, "time"))
                bad = parse_duration_ms(val, &lim.time_ms);
            else if (!strcmp(tok, "nodes") || !strcmp(tok, "iterations") ||
                     !strcmp(tok, "iters"))
                bad = parse_u64(val, &lim.nodes);
            else if (!strcmp(tok, "depth")) {
                uint64_t d;
                bad = parse_u64(val, &d) || d < 1 || d > 200;
                lim.depth = (int)d;
            } else if (!strcmp(tok, "seed")) {
                bad = parse_u64(val, &seed);
            } else {
                size_t ol = strlen(opts);
                snprintf(opts + ol, sizeof opts - ol, "%s%s=%s",
                         ol ? "," : "", tok, val);
                continue;
            }
            if (bad) {
                ply_fail(err, "bot %s: bad value '%s' for %s", name, val,
                         tok);
                return NULL;
            }
        }
    }
    PlyError e2 = {{0}};
    void *impl = v->create(g, opts, seed, &e2);
    if (!impl) {
        ply_fail(err, "bot %s: %s", name, e2.msg[0] ? e2.msg : "failed");
        return NULL;
    }
    Bot *b = calloc(1, sizeof *b);
    if (!b) {
        v->destroy(impl);
        ply_fail(err, "out of memory");
        return NULL;
    }
    b->v = v;
    b->game = g;
    b->impl = impl;
    b->limits = lim;
    snprintf(b->spec, sizeof b->spec, "%s", spec);
    return b;
}

void bot_free(Bot *b)
{
    if (!b)
        return;
    b->v->destroy(b->impl);
    free(b);
}

Move bot_choose(Bot *b, const void *st, const Limits *lim, SearchInfo *out)
{
    SearchInfo tmp;
    if (!out)
        out = &tmp;
    memset(out, 0, sizeof *out);
    return b->v->choose(b->impl, st, lim ? lim : &b->limits, out);
}

void bot_inform(Bot *b, const void *st, Move played)
{
    if (b->v->inform)
        b->v->inform(b->impl, st, played);
}

void bot_new_game(Bot *b)
{
    b->v->new_game(b->impl);
}
