/* setup.c — options, setup strings and move lists from text. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "setup.h"
#include "util.h"

int options_parse(const GameVtbl *g, const char *s, int *opt, PlyError *err)
{
    int n = option_count(g->info.options);
    for (int i = 0; i < n; i++)
        opt[i] = (int)g->info.options[i].def;
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
        PlyError e2 = {{0}};
        if (option_parse_value(&g->info.options[idx], val, &opt[idx], &e2))
            return ply_fail(err, "%s: %s", g->info.name, e2.msg);
    }
    return 0;
}

int options_guard(const GameVtbl *g, const int *opt, PlyError *err)
{
    const GameOption *t = g->info.options;
    for (int i = 0; t && t[i].key; i++)
        if ((t[i].flags & OPTF_COSTLY) && opt[i] > t[i].def)
            return ply_fail(err, "%s: %s=%d is more than this server allows "
                            "its clients (at most %d)", g->info.name,
                            t[i].key, opt[i], (int)t[i].def);
    return 0;
}

int options_to_text(const GameVtbl *g, const int *opt, char *buf, size_t n)
{
    size_t len = 0;
    if (n)
        buf[0] = 0;
    int k = option_count(g->info.options);
    for (int i = 0; i < k; i++) {
        const GameOption *o = &g->info.options[i];
        if (opt[i] == (int)o->def)
            continue;
        if (o->type == OPT_CHOICE)
            PLY_OUT("%s%s=%s", len ? "," : "", o->key, o->choices[opt[i]]);
        else
            PLY_OUT("%s%s=%d", len ? "," : "", o->key, opt[i]);
    }
    return (int)len;
}

int setup_count(const char **s, long max, const char *what, const char *why,
                long *out, PlyError *err)
{
    const char *p = *s;
    *out = 0;
    if (*p != ' ')
        return 0;
    if (p[1] < '0' || p[1] > '9')
        return ply_fail(err, "expected the %s", what);
    char *end;
    long v = strtol(p + 1, &end, 10);  /* LONG_MAX when out of range */
    if (v > max) {
        int nd = (int)(end - (p + 1));
        return ply_fail(err, "%.*s%s %s: at most %ld%s%s%s", nd > 20 ? 20 : nd,
                        p + 1, nd > 20 ? "..." : "", what, max,
                        why ? " (" : "", why ? why : "", why ? ")" : "");
    }
    *out = v;
    *s = end;
    return 0;
}

void setup_row(char *out, size_t *len, const char *cells, int n)
{
    size_t k = *len;
    for (int i = 0; i < n;) {
        if (cells[i]) {
            out[k++] = cells[i++];
            continue;
        }
        int run = 0;
        while (i < n && !cells[i]) {
            run++;
            i++;
        }
        char digits[12];
        int d = 0;
        do
            digits[d++] = (char)('0' + run % 10);
        while ((run /= 10) > 0);
        while (d > 0)
            out[k++] = digits[--d];
    }
    *len = k;
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

int state_seats(const GameVtbl *g, const void *st, const char **names)
{
    int n = g->seats ? g->seats(st, names) : g->info.num_players;
    if (n < 1 || n > g->info.num_players)
        n = g->info.num_players;
    if (!g->seats && names)
        for (int p = 0; p < n; p++)
            names[p] = g->info.player_names[p];
    return n;
}

const char *state_seat_name(const GameVtbl *g, const void *st, int p)
{
    const char *names[PLY_MAX_PLAYERS];
    if (g->seats && st && p >= 0 && p < state_seats(g, st, names))
        return names[p];
    return p >= 0 && p < g->info.num_players ? g->info.player_names[p] : "?";
}

int options_seats(const GameVtbl *g, const char *options, const char **names,
                  PlyError *err)
{
    if (!g->seats) {    /* no state needed (some init()s are costly) */
        int opt[PLY_MAX_OPTIONS];
        if (options_parse(g, options, opt, err))
            return -1;
        return state_seats(g, NULL, names);
    }
    void *st = state_alloc(g);
    int n = state_setup(g, st, options, NULL, 0, err) ? -1
            : state_seats(g, st, names);
    free(st);
    return n;
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
