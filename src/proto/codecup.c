/* codecup.c — `ply codecup GAME`: a CodeCup/Caia player. The referee
 * starts the program once per game; "Start" means we move first,
 * otherwise the first line is the opponent's move. Each later line is a
 * move of the opponent, "Quit" ends. We keep within a total thinking
 * time per game and claim a win with "!" only when the bot proved it. */
#include <stdlib.h>
#include <string.h>

#include "../core/registry.h"
#include "../core/rng.h"
#include "../core/setup.h"
#include "../core/util.h"
#include "ugi.h"

enum { CC_LINE_MAX = 4096, CC_PROBES = 32, CC_PROBE_PLIES = 2000 };

/* The default CodeCup player: mcts with a pool well under the 256 MiB the
 * competition allows (two halves with tree reuse; peak RSS about
 * mem + 6 MiB: 166 MiB measured with /usr/bin/time -v on a full game of
 * 250,000 iterations a move, both halves full). c=0.6: on zuniq at 50 ms
 * a move, c=0.6 beat c=1.0 114-86 and c=0.4 110-90 (200 games each);
 * grave=50 lost 43-157 and playouts=4 was even. */
const char *codecup_default_bot(const GameVtbl *g)
{
    (void)g;
    if (bot_find("mcts"))
        return "mcts:mem=160,c=0.6";
    return proto_default_bot();
}

/* Mean number of plies left in up to CC_PROBES seeded uniformly random
 * games from st: the expected rest of the game, for the time schedule.
 * At most CC_PROBE_PLIES moves in all (games with long random games, like
 * shogi, would otherwise spend the move's time here); games cut off count
 * with the plies they reached. */
static double plies_left(const GameVtbl *g, const void *st, uint64_t seed)
{
    size_t sz = g->info.state_size;
    unsigned char *t = malloc(sz);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    double *pr = malloc(sizeof(double) * (size_t)g->info.max_moves);
    uint64_t total = 0;
    int games = 0;
    Rng r;
    rng_seed(&r, seed);
    for (int i = 0; t && mv && pr && i < CC_PROBES; i++) {
        if (total >= CC_PROBE_PLIES)
            break;
        games++;
        memcpy(t, st, sz);
        for (int k = 0; k < 2 * g->info.max_game_length &&
                        total < CC_PROBE_PLIES; k++) {
            int p = g->to_move(t);
            if (p == PLAYER_TERMINAL)
                break;
            int c = p == PLAYER_CHANCE ? g->chance_outcomes(t, mv, pr)
                                       : g->gen_moves(t, mv);
            if (c <= 0)
                break;
            g->make(t, mv[rng_below(&r, (uint32_t)c)]);
            total++;
        }
    }
    free(t);
    free(mv);
    free(pr);
    return games ? (double)total / games : 0;
}

/* Weight of a move at fraction f of the game: the middle game, where the
 * tree can still change the result and the solver cannot yet, gets the
 * most; the opening a little less; the end little (the solver proves it,
 * and a proven root stops the search). The CodeCup 2021 winner spent
 * about 2 s per move up to move 19 and half of what was left after. */
static double move_weight(double f)
{
    if (f < 0.2)
        return 1.0;
    if (f < 0.75)
        return 1.6;
    return 0.7;
}

/* This move's share of `left` ms: its weight over the weights of our
 * moves expected to come (every other ply until the expected end). */
static int64_t move_budget(const GameVtbl *g, const void *st, int ply,
                           int64_t left, uint64_t seed)
{
    double rest = plies_left(g, st, seed);
    double end = ply + rest + 2;        /* strong play lasts a bit longer */
    double sum = 0, now = move_weight(ply / end);
    for (double p = ply; p < end; p += 2)
        sum += move_weight(p / end);
    if (sum < now)
        sum = now;
    int64_t b = (int64_t)((double)left * now / sum);
    return b < 1 ? 1 : b;
}

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
    Bot *bot = bot_new(g, spec ? spec : codecup_default_bot(g), seed, &err);
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
            int64_t budget = move_budget(g, st, ply, left, seed + (uint64_t)ply);
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
            int64_t took = now_ms() - turn_start;
            used += took;
            /* one short line per move: CodeCup keeps ~10 kB of stderr */
            fprintf(log, "%d %s%s %lld/%lld ms %llu it v %d\n", ply + 1, mb,
                    si.proven > 0 ? "!" : si.proven < 0 ? "?" : "",
                    (long long)took, (long long)budget,
                    (unsigned long long)si.nodes, si.value);
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
