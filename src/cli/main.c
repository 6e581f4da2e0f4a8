/* main.c — `ply`, git-style subcommands. */
#include <stdio.h>
#include <string.h>

#include "../core/registry.h"
#include "cli.h"

int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_vindinium_client(int argc, char **argv);

const Command cli_commands[] = {
    {"list", cmd_list, "games and bots Ply knows", "ply list"},
    {"info", cmd_info, "players, options, notation and rules of a game",
     "ply info GAME"},
    {"perft", cmd_perft, "count move sequences (move generator check)",
     "ply perft GAME DEPTH [--setup S] [--options K=V,...] [--divide]\n"
     "  Counts the positions DEPTH plies ahead (leaves), per depth 1..DEPTH,\n"
     "  with time and nodes/s. --divide prints the count below each root\n"
     "  move. Game-over positions before DEPTH count 0 unless the game's\n"
     "  oracle convention says otherwise (see ply info)."},
    {"show", cmd_show, "print a position, its legal moves and its result",
     "ply show GAME [--setup S] [--options K=V,...] [--moves \"m1 m2 ...\"]"},
    {"play", cmd_play, "play in the terminal against a bot",
     "ply play GAME [--bot SPEC] [--seat N] [--setup S] [--options K=V,...]\n"
     "             [--seed N] [--demo]\n"
     "  You play seat N (0 = first player, default 0) against SPEC (default:\n"
     "  the strongest bot). Commands at the prompt: a move, 'moves', 'undo'\n"
     "  (takes back your last move and the replies), 'setup', 'help',\n"
     "  'quit'. --demo (or no terminal on stdin): the bot plays both sides."},
    {"serve", cmd_serve, "run the Vindinium-compatible HTTP server",
     "ply serve vindinium [--host 127.0.0.1] [--port 9000] [--db FILE]\n"
     "                    [--timeout-ms 1000] [--min-move-ms 0]\n"
     "                    [--training-bot SPEC] [--registered-only]\n"
     "                    [--register NAME] [--seed N]\n"
     "  The official API: POST /api/training (key, turns, map), POST\n"
     "  /api/arena (key), POST /api/ID/TOKEN/play (dir); GET /events/ID\n"
     "  and /replay/ID for finished games (kept in --db, default\n"
     "  vindinium.db), GET /ai for Elo ratings, POST /register (name).\n"
     "  Unknown keys register themselves unless --registered-only.\n"
     "  Training seats are played by --training-bot (default random)."},
    {"vindinium-client", cmd_vindinium_client,
     "play a Ply bot on a Vindinium server",
     "ply vindinium-client --server URL --key K [--mode training|arena]\n"
     "                     [--bot SPEC] [--turns N] [--map m1] [--games N]\n"
     "  Plays with SPEC (default: vindinium) until the game ends and\n"
     "  prints the result; URL like http://127.0.0.1:9000."},
    {NULL, NULL, NULL, NULL},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: ply COMMAND [ARGS]   (ply COMMAND --help for more)\n\n"
               "commands:\n");
    for (int i = 0; cli_commands[i].name; i++)
        fprintf(f, "  %-10s %s\n", cli_commands[i].name,
                cli_commands[i].summary);
}

int main(int argc, char **argv)
{
    PlyError err = {{0}};
    if (registry_check(&err)) {
        fprintf(stderr, "ply: internal error: %s\n", err.msg);
        return 3;
    }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    for (int i = 0; cli_commands[i].name; i++)
        if (!strcmp(cli_commands[i].name, argv[1]))
            return cli_commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "ply: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
