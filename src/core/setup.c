/* setup.c — options, setup strings and move lists from text. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "setup.h"

static int option_count(const GameVtbl *g)
{
    int n = 0;
    for (const GameOption *o = g->info.options; o && o->key; o++)
        n++;
    return n;
}

static int parse_value(const GameVtbl *g, const GameOption *o,
                       const char *v, int *out, PlyError *err)
{
    switch (o->type) {
    case OPT_INT: {
        char *end;
        errno = 0;
        long x = strtol(v, &end, 10);
        if (!*v || *end || errno)
            return ply_fail(err, "%s: option %s needs a whole number, "
                            "not '%s'", g->info.name, o->key, v);
        if (x < o->min || x > o->max)
            return ply_fail(err, "%s: option %s=%ld is out of range "
                            "%d..%d", g->info.name, o->key, x, o->min,
                            o->max);
        *out = (int)x;
        return 0;
    }
    case OPT_BOOL:
        if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes") ||
            !strcmp(v, "on")) {
            *out = 1;
            return 0;
        }
        if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no") ||
            !strcmp(v, "off")) {
            *out = 0;
            return 0;
        }
        return ply_fail(err, "%s: option %s is true or false, not '%s'",
                        g->info.name, o->key, v);
    case OPT_CHOICE:
        for (int i = 0; o->choices[i]; i++)
            if (!strcmp(v, o->choices[i])) {
                *out = i;
                return 0;
            }
        {
            char list[160] = "";
            for (int i = 0; o->choices[i]; i++) {
                if (i)
                    strncat(list, "|", sizeof list - strlen(list) - 1);
                strncat(list, o->choices[i], sizeof list - strlen(list) - 1);
            }
            return ply_fail(err, "%s: option %s is one of %s, not '%s'",
                            g->info.name, o->key, list, v);
        }
    }
    return ply_fail(err, "%s: option %s has a bad type", g->info.name,
                    o->key);
}

int options_parse(const GameVtbl *g, const char *s, int *opt, PlyError *err)
{
    int n = option_count(g);
    for (int i = 0; i < n; i++)
        opt[i] = g->info.options[i].def;
    if (!s || !*s)
        return 0;
    char buf[512];
    if (strlen(s) >= sizeof buf)
        return ply_fail(err, "%s: options string too long", g->info.name);
    strcpy(buf, s);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*tok))
            tok++;
        if (!*tok)
            continue;
        char *eq = strchr(tok, '=');
        if (!eq)
            return ply_fail(err, "%s: option '%s' needs the form key=value",
                            g->info.name, tok);
        *eq = 0;
        const char *val = eq + 1;
        int idx = -1;
        for (int i = 0; i < n; i++)
            if (!strcmp(g->info.options[i].key, tok))
                idx = i;
        if (idx < 0) {
            if (n == 0)
                return ply_fail(err, "%s has no options (got '%s')",
                                g->info.name, tok);
            char list[200] = "";
            for (int i = 0; i < n; i++) {
                if (i)
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
                strncat(list, g->info.options[i].key,
                        sizeof list - strlen(list) - 1);
            }
            return ply_fail(err, "%s: unknown option '%s' (options: %s)",
                            g->info.name, tok, list);
        }
        if (parse_value(g, &g->info.options[idx], val, &opt[idx], err))
            return -1;
    }
    return 0;
}

int options_to_text(const GameVtbl *g, const int *opt, char *buf, size_t n)
{
    size_t len = 0;
    if (n)
        buf[0] = 0;
    int k = option_count(g);
    for (int i = 0; i < k; i++) {
        const GameOption *o = &g->info.options[i];
        if (opt[i] == o->def)
            continue;
        int w;
        if (o->type == OPT_CHOICE)
            w = snprintf(buf + len, n - len, "%s%s=%s", len ? "," : "",
                         o->key, o->choices[opt[i]]);
        else
            w = snprintf(buf + len, n - len, "%s%s=%d", len ? "," : "",
                         o->key, opt[i]);
        if (w < 0 || (size_t)w >= n - len)
            return -1;
        len += (size_t)w;
    }
    return (int)len;
}

void *state_alloc(const GameVtbl *g)
{
    void *st = calloc(1, g->info.state_size);
    if (!st) {
        fprintf(stderr, "ply: out of memory\n");
        exit(1);
    }
    return st;
}

int state_setup(const GameVtbl *g, void *st, const char *options,
                const char *setup, uint64_t seed, PlyError *err)
{
    int opt[PLY_MAX_OPTIONS];
    if (options_parse(g, options, opt, err))
        return -1;
    if (g->init(st, opt, seed, err))
        return -1;
    if (setup && *setup) {
        PlyError e2 = {{0}};
        if (g->from_text(st, setup, &e2))
            return ply_fail(err, "bad setup string for %s: %s",
                            g->info.name, e2.msg[0] ? e2.msg : "rejected");
    }
    return 0;
}

int state_is_legal(const GameVtbl *g, const void *st, Move m)
{
    Move *moves = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    if (!moves)
        return 0;
    int n = g->to_move(st) == PLAYER_TERMINAL ? 0 : g->gen_moves(st, moves);
    int found = 0;
    for (int i = 0; i < n && !found; i++)
        found = moves[i] == m;
    free(moves);
    return found;
}

int state_play_moves(const GameVtbl *g, void *st, const char *moves,
                     PlyError *err)
{
    if (!moves)
        return 0;
    const char *p = moves;
    int number = 0;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        const char *start = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        char word[128];
        size_t len = (size_t)(p - start);
        number++;
        if (len >= sizeof word)
            return ply_fail(err, "move %d is too long", number);
        memcpy(word, start, len);
        word[len] = 0;
        if (g->to_move(st) == PLAYER_TERMINAL)
            return ply_fail(err, "move %d '%s': the game is already over",
                            number, word);
        Move m;
        PlyError e2 = {{0}};
        if (g->text_to_move(st, word, &m, &e2))
            return ply_fail(err, "move %d '%s': %s", number, word,
                            e2.msg[0] ? e2.msg : "not a legal move");
        g->make(st, m);
    }
    return 0;
}
