/* cmd_info.c — `ply list`, `ply info GAME` and `ply info BOT`. */
#include <stdlib.h>
#include <string.h>

#include "../core/format.h"
#include "../core/options.h"
#include "../core/registry.h"
#include "../core/setup.h"
#include "cli.h"

int cmd_list(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "list"))
        return 0;
    if (argc > 1)
        return cli_error("list", "takes no arguments (got '%s')", argv[1]);
    printf("games:\n");
    for (int i = 0; ply_games[i]; i++)
        printf("  %-24s %s (%d players%s)\n", ply_games[i]->info.name,
               ply_games[i]->info.title, ply_games[i]->info.num_players,
               ply_games[i]->info.flags & GAME_HIDDEN
                   ? ", hidden-information" : "");
    printf("bots:\n");
    for (int i = 0; ply_bots[i]; i++)
        printf("  %-24s %s\n", ply_bots[i]->name, ply_bots[i]->help);
    return 0;
}

/* `ply info BOT`: what it does, then every option it reads. */
static int bot_info(const BotVtbl *v)
{
    printf("%s (bot)\n\n%s\n\noptions (%s:key=value,...):\n", v->name,
           v->help, v->name);
    char line[1024];
    for (int i = 0; i < bot_option_count(v); i++)
        if (option_describe(bot_option_at(v, i), line, sizeof line) >= 0)
            printf("  %s\n", line);
    return 0;
}

int cmd_info(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "info"))
        return 0;
    if (argc == 3 && !strcmp(argv[1], "--bot")) {
        const BotVtbl *v = bot_find(argv[2]);
        if (!v)
            return cli_error("info", "unknown bot '%s' (ply list names "
                             "them)", argv[2]);
        return bot_info(v);
    }
    if (argc != 2)
        return cli_error("info", "usage: ply info GAME|BOT");
    if (!game_find(argv[1]) && bot_find(argv[1]))
        return bot_info(bot_find(argv[1]));
    const GameVtbl *g = cli_game("info", argv[1]);
    if (!g)
        return 2;
    const GameInfo *in = &g->info;
    printf("%s — %s\n\n", in->name, in->title);
    printf("players: %d (", in->num_players);
    for (int p = 0; p < in->num_players; p++)
        printf("%s%s", p ? ", " : "", in->player_names[p]);
    printf(")%s\n", g->seats ? "; the options may leave seats empty, and "
           "front ends seat only the players taking part" : "");
    printf("properties:%s%s%s%s\n",
           in->flags & GAME_ZERO_SUM ? " zero-sum" : "",
           in->flags & GAME_CHANCE ? " chance" : "",
           in->flags & GAME_HIDDEN ? " hidden-information" : "",
           in->flags & GAME_IMPARTIAL ? " impartial" : "");
    printf("hooks:%s%s%s%s%s\n", g->eval ? " eval" : "",
           g->heuristic ? " heuristic" : "", g->is_noisy ? " noisy" : "",
           g->playout ? " playout" : "",
           g->exact ? " exact (endgame databases)" : "");
    if (g->see || g->net)
        printf("search hooks:%s%s\n", g->see ? " see (static exchange)" : "",
               g->net ? " net (learned evaluation inputs)" : "");
    printf("longest game: %d plies; at most %d moves per position\n",
           in->max_game_length, in->max_moves);
    printf("formats:");
    if (!g->formats || !g->formats[0])
        printf(" none");
    for (int i = 0; g->formats && g->formats[i]; i++) {
        const GameFormat *f = g->formats[i];
        const char *var = format_variant(g, f->name);
        printf(" %s", f->name);
        if (f->write_record || f->read_records)
            printf(" (record: %s%s%s)", f->write_record ? "write" : "",
                   f->write_record && f->read_records ? ", " : "",
                   f->read_records ? "read" : "");
        else if (var)
            printf(" (as %s)", var);
    }
    printf("\n");
    printf("\noptions:");
    if (!in->options || !in->options[0].key)
        printf(" none");
    printf("\n");
    char line[1024];
    for (const GameOption *o = in->options; o && o->key; o++)
        if (option_describe(o, line, sizeof line) >= 0)
            printf("  %s\n", line);
    printf("\nnotation:\n%s\n", in->notation);
    void *st = cli_position("info", g, NULL, NULL, NULL, 1);
    if (st) {
        char buf[8192];
        if (g->to_text(st, buf, sizeof buf) >= 0)
            printf("\nstart position setup string:\n  %s\n", buf);
        free(st);
    }
    printf("\nrules:\n%s\n", in->rules);
    return 0;
}
