/* cli_common.c — helpers shared by the subcommands. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../core/registry.h"
#include "../core/setup.h"
#include "cli.h"

int cli_wants_help(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            for (int j = 0; cli_commands[j].name; j++)
                if (!strcmp(cli_commands[j].name, name))
                    printf("usage: %s\n", cli_commands[j].usage);
            return 0;
        }
    return -1;
}

int cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ply %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

const GameVtbl *cli_game(const char *cmd, const char *name)
{
    PlyError err = {{0}};
    const GameVtbl *g = game_load(name, &err);
    if (!g && err.msg[0] && strstr(name, ".zrf")) {
        cli_error(cmd, "%s", err.msg);
        return NULL;
    }
    if (!g) {
        char list[512] = "";
        for (int i = 0; ply_games[i]; i++) {
            if (i)
                strncat(list, ", ", sizeof list - strlen(list) - 1);
            strncat(list, ply_games[i]->info.name,
                    sizeof list - strlen(list) - 1);
        }
        cli_error(cmd, "unknown game '%s' (games: %s)", name, list);
    }
    return g;
}

void *cli_position(const char *cmd, const GameVtbl *g, const char *options,
                   const char *setup, const char *moves, uint64_t seed)
{
    void *st = state_alloc(g);
    PlyError err = {{0}};
    if (state_setup(g, st, options, setup, seed, &err) ||
        state_play_moves(g, st, moves, &err)) {
        cli_error(cmd, "%s", err.msg);
        free(st);
        return NULL;
    }
    return st;
}

const char *cli_move_text(const GameVtbl *g, const void *st, Move m,
                          char *buf, size_t n)
{
    if (g->move_to_text(st, m, buf, n) < 0)
        snprintf(buf, n, "?");
    return buf;
}

void cli_print_result(FILE *f, const GameVtbl *g, const void *st)
{
    double r[PLY_MAX_PLAYERS];
    g->returns(st, r);
    int np = state_seats(g, st, NULL);
    if (np == 2 && r[0] != r[1]) {
        int w = r[0] > r[1] ? 0 : 1;
        fprintf(f, "result: %s wins", state_seat_name(g, st, w));
    } else if (np == 2) {
        fprintf(f, "result: draw");
    } else {
        fprintf(f, "result:");
        for (int p = 0; p < np; p++)
            fprintf(f, " %s %+.2f", state_seat_name(g, st, p), r[p]);
    }
    if (g->score) {
        fprintf(f, " (");
        for (int p = 0; p < np; p++)
            fprintf(f, "%s%s %d", p ? ", " : "", state_seat_name(g, st, p),
                    g->score(st, p));
        fprintf(f, ")");
    }
    fputc('\n', f);
}

int cli_print_view(FILE *f, const GameVtbl *g, const void *st, int seat)
{
    size_t sz = g->info.state_size;
    unsigned char *obs = calloc(2, sz);
    char *buf = malloc(8192);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    if (!obs || !buf || !mv) {
        free(obs), free(buf), free(mv);
        return -1;
    }
    g->observe(st, seat, obs);
    if (g->render(obs, buf, 8192) >= 0)
        fputs(buf, f);
    if (g->to_text(obs, buf, 8192) >= 0)
        fprintf(f, "view: %s\n", buf);
    int p = g->to_move(st);
    if (p == seat) {
        /* his moves, from what he sees: any consistent world has them */
        Rng r;
        rng_seed(&r, 1);
        g->determinize(obs, seat, &r, obs + sz);
        int n = g->gen_moves(obs + sz, mv);
        fprintf(f, "legal moves (%d):", n);
        for (int i = 0; i < n; i++) {
            char mb[128];
            fprintf(f, " %s", cli_move_text(g, obs + sz, mv[i], mb, sizeof mb));
        }
        fputc('\n', f);
    } else if (p == PLAYER_TERMINAL) {
        fprintf(f, "game over\n");
        cli_print_result(f, g, st);
    } else {
        fprintf(f, "to move: %s\n", p == PLAYER_CHANCE
                                     ? "chance" : state_seat_name(g, st, p));
    }
    free(obs), free(buf), free(mv);
    return 0;
}

void cli_print_position(FILE *f, const GameVtbl *g, const void *st)
{
    char buf[8192];
    if (g->render(st, buf, sizeof buf) >= 0)
        fputs(buf, f);
    if (g->to_text(st, buf, sizeof buf) >= 0)
        fprintf(f, "setup: %s\n", buf);
    int p = g->to_move(st);
    if (p == PLAYER_TERMINAL) {
        fprintf(f, "game over\n");
        cli_print_result(f, g, st);
        return;
    }
    if (p == PLAYER_CHANCE)
        fprintf(f, "to move: chance\n");
    else
        fprintf(f, "to move: %s\n", state_seat_name(g, st, p));
    Move *moves = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    if (!moves)
        return;
    int n = g->gen_moves(st, moves);
    fprintf(f, "legal moves (%d):", n);
    for (int i = 0; i < n; i++) {
        char mb[128];
        fprintf(f, " %s", cli_move_text(g, st, moves[i], mb, sizeof mb));
    }
    fputc('\n', f);
    free(moves);
}

int cli_parse_uint(const char *cmd, const char *what, const char *s,
                   unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-')
        return cli_error(cmd, "%s must be a non-negative number, not '%s'",
                         what, s ? s : "");
    unsigned long long x = strtoull(s, &end, 10);
    if (*end || errno)
        return cli_error(cmd, "%s must be a non-negative number, not '%s'",
                         what, s);
    *out = x;
    return 0;
}
