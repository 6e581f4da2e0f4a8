/* codecup.c — `ply codecup GAME`: a CodeCup/Caia player. The referee
 * starts the program once per game; "Start" means we move first,
 * otherwise the first line is the opponent's move. Each later line is a
 * move of the opponent, "Quit" ends. We keep within a total thinking
 * time per game and claim a win with "!" only when the bot proved it. */
#include <stdlib.h>
#include <string.h>

#include "../core/registry.h"
#include "../core/setup.h"
#include "../core/util.h"
#include "ugi.h"

enum { CC_LINE_MAX = 4096 };

/* Reads one line without its newline; 0 at end of input. */
static int read_line(FILE *in, char *buf, size_t n)
{
    if (!fgets(buf, (int)n, in))
        return 0;
    if (!strchr(buf, '\n')) {
        int ch;     /* too long: drop the rest, the move will not parse */
        while ((ch = fgetc(in)) != EOF && ch != '\n')
            ;
    }
    buf[strcspn(buf, "\r\n")] = 0;
    size_t l = strlen(buf);
    while (l && (buf[l - 1] == ' ' || buf[l - 1] == '\t'))
        buf[--l] = 0;
    return 1;
}

int codecup_run(FILE *in, FILE *out, FILE *log, const GameVtbl *g,
                const char *options, const char *spec, uint64_t seed,
                int64_t total_ms)
{
    PlyError err = {{0}};
    void *st = state_alloc(g);
    if (!st || state_setup(g, st, options, NULL, seed, &err)) {
        fprintf(log, "ply codecup: %s\n", err.msg[0] ? err.msg : "no memory");
        free(st);
        return 1;
    }
    Bot *bot = bot_new(g, spec ? spec : proto_default_bot(), seed, &err);
    if (!bot) {
        fprintf(log, "ply codecup: %s\n", err.msg);
        free(st);
        return 1;
    }
    /* a safety margin for reading, writing and the referee's own clock */
    int64_t reserve = total_ms / 20 > 300 ? 300 : total_ms / 20;
    int64_t used = 0;
    int me = -1, ply = 0, rc = 1;
    char line[CC_LINE_MAX];
    int64_t turn_start = 0;
    for (;;) {
        int p = g->to_move(st);
        if (p != PLAYER_TERMINAL && p == me) {
            /* our move: a share of the time left */
            int64_t left = total_ms - used - reserve;
            int est = (g->info.max_game_length - ply) / 3;
            if (est > 30)
                est = 30;
            if (est < 4)
                est = 4;
            int64_t budget = left / est;
            if (budget < 1)
                budget = 1;
            Limits lim = bot->limits;
            if (!lim.time_ms || lim.time_ms > budget)
                lim.time_ms = budget;
            SearchInfo si;
            Move m = bot_choose(bot, st, &lim, &si);
            char mb[256];
            if (!state_is_legal(g, st, m) ||
                g->move_to_text(st, m, mb, sizeof mb) < 0) {
                fprintf(log, "ply codecup: the bot found no legal move\n");
                break;
            }
            fprintf(out, "%s%s\n", mb, si.proven > 0 ? "!" : "");
            fflush(out);
            used += now_ms() - turn_start;
            bot_inform(bot, st, m);
            g->make(st, m);
            ply++;
            turn_start = now_ms();
            continue;
        }
        if (!read_line(in, line, sizeof line)) {
            rc = p == PLAYER_TERMINAL ? 0 : 1;
            if (rc)
                fprintf(log, "ply codecup: input ended mid-game\n");
            break;
        }
        turn_start = now_ms();
        if (!strcmp(line, "Quit")) {
            rc = 0;
            break;
        }
        if (!line[0])
            continue;
        if (me < 0) {
            if (!strcmp(line, "Start")) {
                me = p;
                continue;
            }
            /* the opponent moved first: we are the other player */
            me = p == 0 ? 1 : 0;
        }
        if (p == PLAYER_TERMINAL) {
            fprintf(log, "ply codecup: move '%s' after the end of the game\n",
                    line);
            break;
        }
        Move m;
        if (g->text_to_move(st, line, &m, &err)) {
            fprintf(log, "ply codecup: bad move '%s': %s\n", line, err.msg);
            break;
        }
        bot_inform(bot, st, m);
        g->make(st, m);
        ply++;
    }
    if (rc == 0 && me >= 0)
        fprintf(log, "ply codecup: %d plies, %lld of %lld ms used\n", ply,
                (long long)used, (long long)total_ms);
    bot_free(bot);
    free(st);
    return rc;
}
