/* cmd_play.c — `ply play GAME`: a game in the terminal against a bot. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../core/registry.h"
#include "../core/setup.h"
#include "cli.h"

/* The strongest bot this build has for g, with a time that keeps play
 * lively: a game's own bot when there is one (vindinium); alpha-beta for
 * games with an evaluation and noisy moves (it beat mcts in kalah, reversi
 * and draughts-russian: bench/strength.sh); mcts otherwise (zuniq). */
static const char *default_bot(const GameVtbl *g, int demo, char *buf,
                               size_t n)
{
    const char *name = "random";
    if (bot_find(g->info.name))
        name = g->info.name;
    else if (g->eval && g->is_noisy && bot_find("alphabeta"))
        name = "alphabeta";
    else if (bot_find("mcts"))
        name = "mcts";
    else if (bot_find("alphabeta"))
        name = "alphabeta";
    if (!strcmp(name, "random"))
        return name;
    snprintf(buf, n, "%s:time=%s", name, demo ? "200ms" : "2s");
    return buf;
}

typedef struct History {
    size_t size;            /* state size */
    int len, cap;
    unsigned char *states;  /* states[i]: before move i; last = current */
    Move *moves;
    int *movers;
} History;

static void history_push(History *h, const void *st)
{
    if (h->len == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 64;
        h->states = realloc(h->states, h->size * (size_t)h->cap);
        h->moves = realloc(h->moves, sizeof(Move) * (size_t)h->cap);
        h->movers = realloc(h->movers, sizeof(int) * (size_t)h->cap);
        if (!h->states || !h->moves || !h->movers) {
            fprintf(stderr, "ply play: out of memory\n");
            exit(1);
        }
    }
    memcpy(h->states + h->size * (size_t)h->len, st, h->size);
    h->len++;
}

static void print_record(const GameVtbl *g, const History *h)
{
    printf("record:");
    for (int i = 0; i + 1 < h->len; i++) {
        char mb[128];
        printf(" %s", cli_move_text(g, h->states + h->size * (size_t)i,
                                    h->moves[i], mb, sizeof mb));
    }
    printf("\n");
}

int cmd_play(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "play"))
        return 0;
    static const struct option longopts[] = {
        {"setup", required_argument, 0, 's'},
        {"options", required_argument, 0, 'o'},
        {"bot", required_argument, 0, 'b'},
        {"seat", required_argument, 0, 'p'},
        {"seed", required_argument, 0, 'r'},
        {"demo", no_argument, 0, 'd'},
        {0, 0, 0, 0},
    };
    const char *setup = NULL, *options = NULL, *spec = NULL;
    char spec_buf[64];
    unsigned long long seat = 0, seed = 1;
    int demo = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 's': setup = optarg; break;
        case 'o': options = optarg; break;
        case 'b': spec = optarg; break;
        case 'p':
            if (cli_parse_uint("play", "--seat", optarg, &seat))
                return 2;
            break;
        case 'r':
            if (cli_parse_uint("play", "--seed", optarg, &seed))
                return 2;
            break;
        case 'd': demo = 1; break;
        case ':': return cli_error("play", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("play", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_error("play", "usage: ply play GAME [options]");
    const GameVtbl *g = cli_game("play", argv[optind]);
    if (!g)
        return 2;
    if (seat >= (unsigned long long)g->info.num_players)
        return cli_error("play", "--seat must be 0..%d for %s",
                         g->info.num_players - 1, g->info.name);
    if (!spec)
        spec = default_bot(g, demo, spec_buf, sizeof spec_buf);
    void *st = cli_position("play", g, options, setup, NULL, seed);
    if (!st)
        return 2;
    PlyError err = {{0}};
    Bot *bot = bot_new(g, spec, seed, &err);
    if (!bot) {
        free(st);
        return cli_error("play", "%s", err.msg);
    }
    Rng chance;
    rng_seed(&chance, seed ^ 0x5eedull);
    History h = {g->info.state_size, 0, 0, NULL, NULL, NULL};
    history_push(&h, st);
    Move *moves = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    double *probs = malloc(sizeof(double) * (size_t)g->info.max_moves);
    printf("%s: you are %s, the bot is %s%s\n", g->info.title,
           demo ? "watching" : g->info.player_names[seat], spec,
           demo ? " on every seat" : "");
    int quit = 0;
    while (!quit && g->to_move(st) != PLAYER_TERMINAL) {
        int p = g->to_move(st);
        Move m;
        char mb[128];
        if (p == PLAYER_CHANCE) {
            int n = g->chance_outcomes(st, moves, probs);
            double x = rng_double(&chance), acc = 0;
            m = moves[n - 1];
            for (int i = 0; i < n; i++) {
                acc += probs[i];
                if (x < acc) {
                    m = moves[i];
                    break;
                }
            }
            printf("chance: %s\n", cli_move_text(g, st, m, mb, sizeof mb));
        } else if (demo || p != (int)seat) {
            SearchInfo si;
            m = bot_choose(bot, st, NULL, &si);
            if (!state_is_legal(g, st, m)) {
                fprintf(stderr, "ply play: bot %s chose an illegal move\n",
                        spec);
                quit = 1;
                break;
            }
            printf("%s plays %s\n", g->info.player_names[p],
                   cli_move_text(g, st, m, mb, sizeof mb));
        } else {
            printf("\n");
            cli_print_position(stdout, g, st);
            printf("%s> ", g->info.player_names[p]);
            fflush(stdout);
            char line[512];
            if (!fgets(line, sizeof line, stdin)) {
                quit = 1;
                break;
            }
            line[strcspn(line, "\r\n")] = 0;
            char *w = line;
            while (*w == ' ' || *w == '\t')
                w++;
            if (!*w)
                continue;
            if (!strcmp(w, "quit") || !strcmp(w, "q")) {
                quit = 1;
                break;
            }
            if (!strcmp(w, "help")) {
                printf("type a move as listed, or: moves, undo, setup, "
                       "quit\n");
                continue;
            }
            if (!strcmp(w, "setup")) {
                char buf[8192];
                if (g->to_text(st, buf, sizeof buf) >= 0)
                    printf("%s\n", buf);
                continue;
            }
            if (!strcmp(w, "moves"))
                continue;  /* the position printout lists them */
            if (!strcmp(w, "undo")) {
                /* back to the last position before this seat's move */
                int k = h.len - 2;
                while (k >= 0 && h.movers[k] != (int)seat)
                    k--;
                if (k < 0) {
                    printf("nothing to undo\n");
                    continue;
                }
                h.len = k + 1;
                memcpy(st, h.states + h.size * (size_t)k, h.size);
                bot_new_game(bot);
                continue;
            }
            PlyError e = {{0}};
            if (g->text_to_move(st, w, &m, &e)) {
                printf("illegal move '%s': %s\n", w, e.msg);
                continue;
            }
        }
        h.moves[h.len - 1] = m;
        h.movers[h.len - 1] = p;
        bot_inform(bot, st, m);
        g->make(st, m);
        history_push(&h, st);
    }
    printf("\n");
    cli_print_position(stdout, g, st);
    print_record(g, &h);
    free(moves);
    free(probs);
    free(h.states);
    free(h.moves);
    free(h.movers);
    bot_free(bot);
    free(st);
    return 0;
}
