/* cmd_pdn.c — `ply pdn [FILE]`: match records (JSON lines, as written by
 * `ply match --out`) of draughts games as PDN. Every move is replayed, so
 * a bad record is reported with its line rather than written out. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../core/registry.h"
#include "../core/setup.h"
#include "cli.h"
#include "records.h"

/* PDN GameType numbers of the variants that have one. */
static const struct {
    const char *game;
    int type;
} game_types[] = {
    {"draughts-international", 20}, {"draughts-english", 21},
    {"draughts-pool", 23},          {"draughts-russian", 25},
    {"draughts-brazilian", 26},     {"draughts-turkish", 30},
    {"draughts-frisian", 40},
};

static int game_type(const char *name)
{
    for (size_t i = 0; i < sizeof game_types / sizeof game_types[0]; i++)
        if (!strcmp(game_types[i].game, name))
            return game_types[i].type;
    return -1;
}

/* A PDN tag value: quotes and backslashes escaped. */
static void put_tag(FILE *out, const char *tag, const char *val)
{
    fprintf(out, "[%s \"", tag);
    for (const char *p = val; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', out);
        fputc(*p, out);
    }
    fprintf(out, "\"]\n");
}

typedef struct Wrap {
    FILE *out;
    int col;
} Wrap;

static void put_word(Wrap *w, const char *s)
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

static const char *str_field(json_t *rec, const char *key)
{
    json_t *v = json_object_get(rec, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* One record as a PDN game; returns 0, 1 when skipped (not draughts), or
 * -1 after printing an error naming the line. */
static int convert(json_t *rec, long line, int round, FILE *out)
{
    const char *name = str_field(rec, "game");
    if (!name)
        return cli_error("pdn", "line %ld: no \"game\" string", line), -1;
    if (strncmp(name, "draughts-", 9))
        return 1;
    const GameVtbl *g = game_find(name);
    if (!g)
        return cli_error("pdn", "line %ld: unknown game '%s'", line, name),
               -1;
    const char *options = str_field(rec, "options");
    const char *setup = str_field(rec, "setup");
    json_t *moves = json_object_get(rec, "moves");
    if (!json_is_array(moves))
        return cli_error("pdn", "line %ld: no \"moves\" array", line), -1;
    void *st = state_alloc(g);
    void *start = state_alloc(g);
    PlyError err = {{0}};
    if (state_setup(g, st, options, setup, 1, &err)) {
        cli_error("pdn", "line %ld: %s", line, err.msg);
        free(st);
        free(start);
        return -1;
    }
    memcpy(start, st, g->info.state_size);
    char buf[8192];

    fprintf(out, "%s", round > 1 ? "\n" : "");
    put_tag(out, "Event", "Ply match");
    snprintf(buf, sizeof buf, "%d", round);
    put_tag(out, "Round", buf);
    json_t *seats = json_object_get(rec, "seats");
    for (int p = 0; p < 2; p++) {
        json_t *s = json_array_get(seats, (size_t)p);
        put_tag(out, g->info.player_names[p],
                json_is_string(s) ? json_string_value(s) : "?");
    }
    /* the result with White's score first: 2-0, 1-1, 0-2 */
    json_t *res = json_object_get(rec, "result");
    const char *result = "*";
    if (json_is_array(res) && json_array_size(res) == 2 &&
        json_is_number(json_array_get(res, 0)) &&
        json_is_number(json_array_get(res, 1))) {
        double r0 = json_number_value(json_array_get(res, 0));
        double r1 = json_number_value(json_array_get(res, 1));
        int white = strcmp(g->info.player_names[0], "White") ? 1 : 0;
        double rw = white ? r1 : r0, rb = white ? r0 : r1;
        result = rw > rb ? "2-0" : rw < rb ? "0-2" : "1-1";
    }
    put_tag(out, "Result", result);
    int type = game_type(name);
    if (type >= 0) {
        snprintf(buf, sizeof buf, "%d", type);
        put_tag(out, "GameType", buf);
    }
    put_tag(out, "Variant", name);
    if (setup && *setup && g->to_text(start, buf, sizeof buf) >= 0)
        put_tag(out, "FEN", buf);
    if (options && *options)
        put_tag(out, "PlyOptions", options);
    const char *reason = str_field(rec, "reason");
    if (reason && strcmp(reason, "normal"))
        put_tag(out, "Termination", reason);
    json_t *seed = json_object_get(rec, "seed");
    if (json_is_integer(seed)) {
        snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(seed));
        put_tag(out, "PlySeed", buf);
    }

    Wrap w = {out, 0};
    int moveno = 1, rc = 0;
    for (size_t i = 0; i < json_array_size(moves); i++) {
        json_t *mj = json_array_get(moves, i);
        Move m;
        int p = g->to_move(st);
        if (!json_is_string(mj)) {
            rc = cli_error("pdn", "line %ld: move %zu is not a string", line,
                           i + 1);
            break;
        }
        if (p < 0 || g->text_to_move(st, json_string_value(mj), &m, &err)) {
            if (reason && !strcmp(reason, "illegal") &&
                i + 1 == json_array_size(moves)) {
                /* the record ends with the illegal move that lost */
                snprintf(buf, sizeof buf, "{illegal move: %s}",
                         json_string_value(mj));
                put_word(&w, buf);
                break;
            }
            rc = cli_error("pdn", "line %ld: move %zu '%s': %s", line, i + 1,
                           json_string_value(mj),
                           p < 0 ? "the game is over" : err.msg);
            break;
        }
        char mv[256], word[300];
        if (g->move_to_text(st, m, mv, sizeof mv) < 0)
            snprintf(mv, sizeof mv, "%s", json_string_value(mj));
        for (char *c = mv; *c; c++)
            if (*c == ':')
                *c = 'x';
        if (p == 0)
            snprintf(word, sizeof word, "%d. %s", moveno, mv);
        else if (i == 0)
            snprintf(word, sizeof word, "%d... %s", moveno, mv);
        else
            snprintf(word, sizeof word, "%s", mv);
        if (p == 1)
            moveno++;
        put_word(&w, word);
        g->make(st, m);
    }
    if (!rc) {
        put_word(&w, result);
        fputc('\n', out);
    }
    free(st);
    free(start);
    return rc ? -1 : 0;
}

int cmd_pdn(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "pdn"))
        return 0;
    return cli_convert_records("pdn", argc, argv, convert,
                               "non-draughts games");
}
