/* main.c — `ply`, git-style subcommands. */
#include <stdio.h>
#include <string.h>

#include "../core/registry.h"
#include "../core/version.h"
#include "cli.h"

int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_ugi(int argc, char **argv);
int cmd_codecup(int argc, char **argv);
int cmd_gtp(int argc, char **argv);
int cmd_gomocup(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_openings(int argc, char **argv);
int cmd_book(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_usi(int argc, char **argv);
int cmd_uci(int argc, char **argv);
int cmd_ucci(int argc, char **argv);
int cmd_pdn(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_vindinium_client(int argc, char **argv);
int cmd_pgn(int argc, char **argv);
int cmd_kif(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_playthrough(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_train(int argc, char **argv);

const Command cli_commands[] = {
    {"list", cmd_list, "games and bots Ply knows; rules files' games",
     "ply list [FILE.zrf|DIR ...]  (with paths: each rules file, a "
     "directory's .zrf files, title and players or why it does not load; "
     "exit 1 when one does not load)"},
    {"info", cmd_info, "a game's players, options, notation and rules; a "
     "bot's options", "ply info GAME|BOT  (ply info --bot NAME when a bot "
     "and a game share the name)"},
    {"perft", cmd_perft, "count move sequences (move generator check)",
     "ply perft GAME DEPTH [--setup S] [--options K=V,...] [--divide]\n"
     "  Counts the positions DEPTH plies ahead (leaves), per depth 1..DEPTH,\n"
     "  with time and nodes/s. --divide prints the count below each root\n"
     "  move. Game-over positions before DEPTH count 0 unless the game's\n"
     "  oracle convention says otherwise (see ply info)."},
    {"show", cmd_show, "print a position, its legal moves and its result",
     "ply show GAME [--setup S] [--options K=V,...] [--moves \"m1 m2 ...\"]\n"
     "  [--as PLAYER]  (hidden information: what PLAYER sees)\n"
     "ply show [GAME] --record FILE [--game N] [--ply K] [--as PLAYER]\n"
     "  --record: game N (from 1) of a ply match --out file after K of its\n"
     "  moves (default all), with its seats and result, any player count;\n"
     "  with --as, what PLAYER saw at that point (the record keeps the true\n"
     "  game)."},
    {"play", cmd_play, "play in the terminal against a bot",
     "ply play GAME [--bot SPEC] [--seat N] [--setup S] [--options K=V,...]\n"
     "             [--seed N] [--demo]\n"
     "  You play seat N (0 = first player, default 0) against SPEC (default:\n"
     "  the game's default bot, 2 s a move). Commands at the prompt: a move,\n"
     "  'undo [N]' (takes back your last N moves and the replies), 'redo',\n"
     "  'board', 'setup', 'help', 'quit'. In a terminal the line is edited\n"
     "  with readline (arrows, history) and the bot thinks in the\n"
     "  background: 'stop' makes it move now. --demo: the bot plays both\n"
     "  sides."},
    {"match", cmd_match, "bot-vs-bot matches and tournaments: Elo, SPRT",
     "ply match GAME BOT_A BOT_B [BOT_C ...] [-n GAMES] [-j JOBS]\n"
     "          [--tc 100ms | --tc 30s+0.1s] [--openings random:PLIES | FILE]\n"
     "          [--sprt elo0,elo1[,alpha,beta]] [--out FILE [--resume]]\n"
     "          [--seed N] [--json] [--options K=V,...] [--grace 200ms]\n"
     "          [--engine NAME=CMD[,proto=P][,option.NAME=VALUE]...]\n"
     "          [--engine NAME=CMD[,proto=ugi|uci|usi|cecp|codecup|gtp|gomocup]]\n"
     "          [--movetime 1s] [--shard I/N] [--slurm N]"
     " [--startup 10s] [--quiet]\n"
     "          [--fixed-seats]\n"
     "       ply match --merge FILE... [--json] [--sprt elo0,elo1]\n"
     "  Participants are bot specs (mcts:iterations=1000) or NAMEs given\n"
     "  with --engine (external programs: UGI, UCI, USI, CECP/xboard, or\n"
     "  the CodeCup line protocol, GTP: proto=ugi|uci|usi|cecp|codecup|gtp;\n"
     "  option.NAME=VALUE is sent as setoption (UGI, UCI, USI) or option\n"
     "  (CECP) before the game; see docs/protocols.md).\n"
     "  -n: games per pairing (default 10); each opening is played with\n"
     "  the seats rotated (--fixed-seats: participants keep the seats they\n"
     "  are listed in, the first moving first). More than two participants\n"
     "  in a two-player game play a round robin. --tc: per move, or per\n"
     "  game with increment; a player over time (plus --grace), crashing\n"
     "  or moving illegally forfeits. Without --tc, bots use their own\n"
     "  limits (--movetime per move if they have none) and external\n"
     "  engines get --movetime (1s).\n"
     "  --out appends one JSON line per game; --resume plays the games\n"
     "  missing from it. --openings FILE: one setup string per line.\n"
     "  --startup: time an engine has to answer 'ugi'. --quiet: engines'\n"
     "  stderr to /dev/null. See docs/protocols.md.\n"
     "  --shard I/N: play shard I of N (opening pairs dealt round robin,\n"
     "  seeds as in the whole match); --merge FILE...: the statistics of\n"
     "  the shards' --out files as one match. --slurm N: write sbatch\n"
     "  scripts for N shards and their merge (docs/cluster.md)."},
    {"ugi", cmd_ugi, "engine mode over stdin/stdout (UGI protocol)",
     "ply ugi [--bot SPEC] [--game GAME] [--options K=V,...]\n"
     "  Speaks UGI (see docs/protocols.md). The game can also be set with\n"
     "  'setoption name game value GAME'."},
    {"codecup", cmd_codecup, "CodeCup/Caia player over stdin/stdout",
     "ply codecup GAME [--bot SPEC] [--options K=V,...] [--seed N]\n"
     "                 [--total 30s] [--claim 0.4] [--claim-from 19]\n"
     "  Reads 'Start' (then it moves first) or the opponent's move, answers\n"
     "  with its own, and stops on 'Quit'. Keeps within --total thinking\n"
     "  time per game; appends '!' (once) when its bot proved the win or,\n"
     "  from move --claim-from on, when an MCTS bot's mean value is at\n"
     "  least --claim (2: proofs only)."},
    {"gtp", cmd_gtp, "GTP engine mode (games with a GTP format)",
     "ply gtp [GAME] [--bot SPEC] [--options K=V,...] [--seed N]\n"
     "  Speaks GTP version 2 on stdin/stdout: protocol_version, name,\n"
     "  version, known_command, list_commands, quit, boardsize,\n"
     "  clear_board, komi, play, genmove, undo, showboard, final_score,\n"
     "  time_settings, time_left, reg_genmove; loadsgf, printsgf (games\n"
     "  with SGF); go: fixed_handicap, place_free_handicap,\n"
     "  set_free_handicap, final_status_list, kgs-genmove_cleanup\n"
     "  (docs/protocols.md). Moves as the game's GTP format writes\n"
     "  them. Without GAME: the one game that\n"
     "  speaks GTP natively."},
    {"gomocup", cmd_gomocup, "Gomocup brain (Piskvork protocol)",
     "ply gomocup [GAME] [--bot SPEC] [--options K=V,...] [--seed N]\n"
     "  Speaks the Gomocup (Piskvork) protocol on stdin/stdout: START,\n"
     "  RECTSTART (square), RESTART, BEGIN, TURN, BOARD..DONE, TAKEBACK,\n"
     "  INFO (timeout_turn, timeout_match, time_left, rule), ABOUT, END.\n"
     "  Moves as x,y from 0, y = 0 the top row. Without GAME: the game\n"
     "  that speaks it natively (INFO rule sets its rule option)."},
    {"analyze", cmd_analyze, "what a bot thinks of a position",
     "ply analyze GAME [--setup S] [--moves \"m1 m2 ...\"] [--options K=V,...]\n"
     "                [--bot SPEC] [--seed N] [--watch] [--interactive]\n"
     "  Searches the position with SPEC (default alphabeta:time=1s) and\n"
     "  prints the best move, its value (the mover's point of view), the\n"
     "  principal variation, depth, nodes and nodes/s. --watch prints a\n"
     "  line per completed iteration as the search deepens.\n"
     "  --interactive: the bot analyses without a limit in the background\n"
     "  while you play moves, 'undo [N]', 'redo [N]', 'stop', 'go',\n"
     "  'board', 'setup', 'quit' (readline in a terminal)."},
    {"openings", cmd_openings, "balanced openings for ply match --openings",
     "ply openings GAME [-n 100] [--plies 4] [--bot SPEC] [--min 0]\n"
     "                 [--max 100] [--seed 1] [-j 1] [--options K=V,...]\n"
     "                 [--tries N] [--out FILE]\n"
     "  Writes N distinct setups, one a line (ply match --openings FILE),\n"
     "  each after --plies random moves from the start (as --openings\n"
     "  random:PLIES draws them) whose value for the side to move, searched\n"
     "  by SPEC (default: the game's bot with nodes=100000), lies within\n"
     "  [--min, --max] either way (proven results are left out): balanced\n"
     "  openings, or with --min a set advantage. Candidates are tried in\n"
     "  seed order, -j at a time; with a node or depth limit the file does\n"
     "  not depend on -j. --tries: candidates at most (default 100 N).\n"
     "  Exits 1 when fewer than N were found. A summary goes to stderr."},
    {"book", cmd_book, "an opening book computed by long searches",
     "ply book GAME [--plies 3] [--bot SPEC] [--seed 1] [-j 1] [--max 10000]\n"
     "              [--options K=V,...] [--out FILE]\n"
     "  For each side: every position of fewer than --plies plies reached\n"
     "  when that side plays the book and the others play anything, one of\n"
     "  each symmetry class (the game's own symmetries) searched by SPEC\n"
     "  (default: the game's bot; a node limit makes the book repeatable,\n"
     "  whatever -j), its move stored for every image. Writes the C table\n"
     "  a game compiles in (src/games/GAME_book.h); bots play it with\n"
     "  book=1. --max: positions searched at most. Progress to stderr."},
    {"bench", cmd_bench, "fixed search workload: speed and a signature",
     "ply bench [GAME ...] [--long] [--json] [--iterations N] [--depth D]\n"
     "          [--playouts N]\n"
     "  Per game: mcts (N iterations, default 600; --long 20000), alphabeta\n"
     "  (depth D, default 5 capped at 40000 nodes; --long 6 and 2000000)\n"
     "  and N random playouts (default 300; --long 5000) on fixed positions\n"
     "  with fixed seeds, one thread (counts scaled down for games with long\n"
     "  random games unless given). The signature folds node counts and\n"
     "  chosen moves: the same on every run of one binary. Commits that\n"
     "  change search carry it as 'Bench: <signature>'."},
    {"playthrough", cmd_playthrough,
     "a seeded random game as a transcript (golden files)",
     "ply playthrough GAME [--seed N] [--plies N] [--options K=V,...]\n"
     "                     [--out FILE]\n"
     "  Plays a random game (moves drawn uniformly by the core Rng seeded\n"
     "  with N, default 1; chance outcomes by probability) for at most N\n"
     "  plies (default 200) and prints the game's metadata, every ply's\n"
     "  setup string, legal move count, mover and move, and the returns.\n"
     "  tests/golden holds one per game; `make golden` rewrites them."},
    {"rules", cmd_rules, "check a Zillions rules file (.zrf) Ply can load",
     "ply rules check FILE.zrf [--variant N]\n"
     "ply rules perft FILE.zrf DEPTH [--variant N]\n"
     "  Reads and compiles the file (variant N, default 0: the game form)\n"
     "  and prints what it does not support, each word with its file and\n"
     "  line; exits 1 then, 2 on a read error, 0 when the file loads.\n"
     "  perft counts whole turns (partial moves composed, as Dagaz does).\n"
     "  Any command takes FILE.zrf as its game (--options variant=N)."},
    {"usi", cmd_usi, "USI engine for shogi GUIs (shogi, minishogi)",
     "ply usi [shogi|minishogi|micro-shogi] [--bot SPEC]   (options: UCI_Variant, PlyBot)"},
    {"uci", cmd_uci, "UCI engine mode (chess, makruk, shatranj, xiangqi)",
     "ply uci [--bot SPEC] [--seed N]\n"
     "  Speaks UCI on stdin/stdout with SPEC (default: alphabeta, else mcts,\n"
     "  else random). Options: UCI_Variant (chess|makruk|shatranj|xiangqi,\n"
     "  xiangqi ranks 1-10 as Fairy-Stockfish), Bot."},
    {"ucci", cmd_ucci, "UCCI engine mode (xiangqi)",
     "ply ucci [--bot SPEC] [--seed N]\n"
     "  Speaks UCCI on stdin/stdout for xiangqi with SPEC (default as uci).\n"
     "  Options: bot, usemillisec."},
    {"pdn", cmd_pdn, "draughts match records (JSON lines) as PDN",
     "ply pdn [FILE]\n"
     "  Reads match records (one JSON object a line, from FILE or stdin) and\n"
     "  writes the draughts games among them as PDN, replaying every move."},
    {"serve", cmd_serve, "serve the web page (every game in the browser)",
     "ply serve [--host 127.0.0.1] [--port 8080] [--web-dir DIR]\n"
     "          [--max-games 256] [--max-body 65536] [--idle-s 86400]\n"
     "          [--max-think-ms 60000] [--max-searches 8] [--threads 4]\n"
     "          [--seed N] [--trust-clients]\n"
     "  Serves the page (built in, or from DIR) and its JSON API under\n"
     "  /api/ (docs/web-api.md); prints 'Ply: open http://HOST:PORT/'.\n"
     "  Games live in memory, keyed by random ids; the idlest is dropped\n"
     "  when --max-games are open. Clients' bot specs and game options may\n"
     "  not name files or nested specs, nor raise hash, threads or endgame\n"
     "  databases above their defaults, unless --trust-clients.\n"
     "ply serve vindinium [--host 127.0.0.1] [--port 9000] [--db FILE]\n"
     "                    [--timeout-ms 1000] [--min-move-ms 0]\n"
     "                    [--training-bot SPEC] [--registered-only]\n"
     "                    [--register NAME] [--seed N]\n"
     "                    [--threads 2] [--max-conns 4096]\n"
     "                    [--max-per-ip 1024] [--conn-timeout-s 10]\n"
     "                    [--max-games 512] [--key-games 8]\n"
     "                    [--resume-grace-ms 30000]\n"
     "                    [--keep-abandoned-s 600] [--keep-training-s 604800]\n"
     "  The official API: POST /api/training (key, turns, map), POST\n"
     "  /api/arena (key), POST /api/ID/TOKEN/play (dir); GET /events/ID\n"
     "  (live) and /replay/ID (kept in --db, default vindinium.db), GET\n"
     "  /ai for Elo ratings, POST /register (name). Running games are\n"
     "  journaled and resume after a restart; finished training games\n"
     "  expire (abandoned ones sooner). Unknown keys register\n"
     "  themselves unless --registered-only. Training seats are played\n"
     "  by --training-bot (default random). Not in a SERVER=0 build."},
    {"vindinium-client", cmd_vindinium_client,
     "play a Ply bot on a Vindinium server",
     "ply vindinium-client --server URL --key K [--mode training|arena]\n"
     "                     [--bot SPEC] [--turns N] [--map m1] [--games N]\n"
     "                     [--max-moves 1200] [--max-seconds 3600]\n"
     "                     [--reconnect-ms 30000]\n"
     "  Plays with SPEC (default: vindinium) until the game ends and\n"
     "  prints the result; URL like http://127.0.0.1:9000. Only http(s),\n"
     "  only that host; gives up after --max-moves moves or --max-seconds\n"
     "  in all; retries a move --reconnect-ms while the server restarts."},
    {"record", cmd_record, "match records to and from PGN, PDN, KIF, ...",
     "ply record --to FORMAT [FILE] [--split PREFIX]\n"
     "ply record --from FORMAT [FILE]\n"
     "ply record --list\n"
     "  --to reads match records (one JSON object a line, from FILE or\n"
     "  stdin) and writes every game that speaks FORMAT in it, replaying\n"
     "  each move; --split writes one file per game, PREFIX-001.EXT, ...\n"
     "  --from reads FORMAT and prints match record lines. The game\n"
     "  decides which formats it speaks (ply info GAME); --list shows\n"
     "  them. ply pgn, ply pdn and ply kif are the same per format."},
    {"pgn", cmd_pgn, "chess, makruk, shatranj match records as PGN (SAN)",
     "ply pgn [FILE]\n"
     "  Reads match records (one JSON object a line, from FILE or stdin) and\n"
     "  writes the chess, makruk and shatranj games as PGN with SAN moves."},
    {"kif", cmd_kif, "shogi, minishogi match records as KIF (and back)",
     "ply kif [FILE] [--split PREFIX] [--sjis]\n"
     "ply kif --read [KIFFILE]\n"
     "  Reads match records (one JSON object a line, from FILE or stdin) and\n"
     "  writes the shogi and minishogi games as KIF for shogi GUIs: UTF-8\n"
     "  (.kifu), or Shift_JIS with --sjis (.kif). --split writes one file\n"
     "  per game, PREFIX-001.kifu, ... --read turns KIF games (UTF-8 or\n"
     "  Shift_JIS) back into match record lines. See docs/records.md."},
    {"tune", cmd_tune, "fit evaluation weights to recorded game results",
     "ply tune --game GAME [--out FILE] [--init FILE] [--epochs 500]\n"
     "         [--rate 1] [--l2 0] [--seed 1] [--skip-plies 8]\n"
     "         [--max-positions N] [--validation 10] [--only PREFIXES]\n"
     "         [--freeze PREFIXES] RECORDS.jsonl ...\n"
     "  Replays the games of GAME in the records (from ply match --out),\n"
     "  takes every position after --skip-plies that is not in check,\n"
     "  resolved to the quiet end of its best capture line, labelled with\n"
     "  the result, and fits the weights of the game's evaluation so that\n"
     "  sigmoid(K * eval) predicts it (K fitted first; Adam, full batch;\n"
     "  --l2 pulls towards the initial weights). --validation percent of\n"
     "  the games are held out (seeded). Prints the errors and the largest\n"
     "  changes; --out writes the weights as the C header the game is\n"
     "  compiled with. --init: start from a header. --only / --freeze:\n"
     "  fit only / all but the weights whose names start with one of the\n"
     "  comma-separated prefixes (material,passed). See docs/tuning.md."},
    {"train", cmd_train, "train a learned evaluation (net) on self-play",
     "ply train gen --game GAME [--out DATA] [--games 100] [-j 1]\n"
     "         [--play alphabeta:nodes=2000] [--depth 4] [--keep 0.1]\n"
     "         [--random-plies 8] [--shard K/N] [--seed 1] [--options S]\n"
     "ply train merge [--out DATA] DATA ...\n"
     "ply train rescore --game GAME [--out DATA] [--depth 4 | --bot SPEC]\n"
     "         [-j 1] [--seed 1] [--options S] DATA ...\n"
     "ply train fit --game GAME --out NET [--hidden 128] [--epochs 10]\n"
     "         [--batch 256] [--rate 0.001] [--lambda 0.5] [--k 200]\n"
     "         [--l2 0] [--factors 1] [--add-eval 0] [--validation 10]\n"
     "         [--seed 1] [--options S] DATA ...\n"
     "ply train embed --game GAME --name SYMBOL --out HEADER\n"
     "         [--source TEXT] NET\n"
     "  gen plays GAME against itself with the --play bot after\n"
     "  --random-plies random moves, keeps a --keep fraction of the\n"
     "  positions not in check, rescores each by an alpha-beta search of\n"
     "  --depth plies (0: the self-play search's own value; dropped when\n"
     "  its best move is noisy or it finds a mate) and writes\n"
     "  'SCORE RESULT SETUP' lines, the result for the mover. Game k is\n"
     "  seeded by --seed and k alone: --shard K/N plays games K, K+N, ...\n"
     "  so shards made on several machines merge into the same data as one\n"
     "  run. rescore searches every position of the data again (an\n"
     "  alpha-beta search of --depth plies, or the --bot spec, e.g.\n"
     "  alphabeta:nodes=20000), keeps the results, drops positions as gen\n"
     "  does and writes the lines in the same order. fit trains a net\n"
     "  (inputs from the game's features, --hidden units for each side,\n"
     "  clipped ReLU, one output)\n"
     "  by Adam on minibatches (--l2: decoupled weight decay), minimising\n"
     "  the mean of\n"
     "  (sigmoid(net/K) - lambda*sigmoid(SCORE/K) - (1-lambda)*RESULT)^2,\n"
     "  and writes it for alphabeta:net=NET. --factors 1: the game's\n"
     "  coarser features (a piece on any square) are trained beside the\n"
     "  fine ones and added into them. --add-eval 1: a residual net, its\n"
     "  output added to the game's own evaluation (trained and searched\n"
     "  so). embed writes a checked net as a C\n"
     "  array, for a game's built-in net. See docs/nets.md."},
    {NULL, NULL, NULL, NULL},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: ply COMMAND [ARGS]   (ply COMMAND --help for more;\n"
               "       ply --version)\n\n"
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
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("ply %s\n", ply_version());
        return 0;
    }
    for (int i = 0; cli_commands[i].name; i++)
        if (!strcmp(cli_commands[i].name, argv[1]))
            return cli_commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "ply: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
