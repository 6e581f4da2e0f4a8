/* fuzz_proto.c — the engine modes' command lines: a script of lines fed
 * to UGI (on a game), UCI, UCCI, USI, GTP, CodeCup (on a two-player
 * game) or Gomocup through their run functions on memory streams,
 * answered into /dev/null. Each must answer or ignore every line and end
 * at the end of input, never crash or hang. Input: a byte that picks the
 * protocol, a byte that picks the game (UGI, GTP, CodeCup, Gomocup), then
 * the script.
 *
 * The bot is always `random` (a move at once), and lines that would make
 * a unit slow without being a parser's business are dropped before the
 * engine sees them: any line naming a bot (setoption of Bot, PlyBot,
 * bot), and `go perft`, whose depth the script chooses. */
#include <string.h>
#include <strings.h>

#include "core/format.h"
#include "fuzz.h"
#include "proto/gomocup.h"
#include "proto/gtp.h"
#include "proto/uci.h"
#include "proto/ugi.h"
#include "proto/usi.h"

enum { P_UGI, P_UCI, P_UCCI, P_USI, P_GTP, P_CODECUP, P_GOMOCUP, P_COUNT };

/* The script without the lines the note above drops. */
static char *filtered(const char *text)
{
    size_t n = strlen(text);
    char *out = malloc(n + 2), *w = out;
    if (!out)
        abort();
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        char line[4096];
        size_t l = len < sizeof line - 1 ? len : sizeof line - 1;
        memcpy(line, p, l);
        line[l] = 0;
        for (char *c = line; *c; c++)
            if (*c >= 'A' && *c <= 'Z')
                *c = (char)(*c - 'A' + 'a');
        if (!strstr(line, "bot") && !strstr(line, "perft")) {
            memcpy(w, p, len);
            w += len;
            *w++ = '\n';
        }
        p += len;
        if (*p == '\n')
            p++;
    }
    *w = 0;
    return out;
}

static void fuzz_one(FuzzIn *in)
{
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w")))
        abort();
    unsigned proto = fuzz_byte(in) % P_COUNT;
    const GameVtbl *g = fuzz_game(in);
    char *raw = fuzz_rest(in);
    char *script = filtered(raw);
    free(raw);
    FILE *f = fmemopen(script, strlen(script) + 1, "r");
    if (!f)
        abort();
    PlyError err = {{0}};
    switch (proto) {
    case P_UGI:
        ugi_run(f, sink, g->info.num_players == 2 ? g->info.name : NULL, "",
                "random", 1);
        break;
    case P_UCI:
        uci_run(f, sink, "random", 1);
        break;
    case P_UCCI:
        ucci_run(f, sink, "random", 1);
        break;
    case P_USI:
        usi_run(f, sink, NULL, "random");
        break;
    case P_CODECUP:
        /* every two-player game: the CodeCup dialogue is the same words
         * (Start, moves, Quit) with each game's notation */
        if (g->info.num_players == 2)
            codecup_run(f, sink, sink, g, "", "random", 1, 30000);
        break;
    case P_GOMOCUP:
        if (game_format(g, "gomocup") &&
            gomocup_run(f, sink, g, "", "random", 1, &err) && !err.msg[0])
            abort();        /* refused without saying why */
        break;
    default:
        if (game_format(g, "gtp") &&
            gtp_run(f, sink, g, "", "random", 1, &err) && !err.msg[0])
            abort();        /* refused without saying why */
        break;
    }
    fclose(f);
    free(script);
}

/* Dialogues of each protocol as GUIs and the tests hold them. */
static void fuzz_seeds(FuzzSeeds *s)
{
    static const char *const scripts[P_COUNT][3] = {
        {"ugi\nisready\nuginewgame\nposition startpos\ngo depth 2\nquit\n",
         "setoption name gameoptions value houses=4\nposition startpos\n"
         "query gameover\ngo movetime 10\nstop\n",
         "position fen x\ngo wtime 100 btime 100\nisready\n"},
        {"uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\n"
         "go wtime 1000 btime 1000 winc 10 binc 10\nstop\nquit\n",
         "setoption name UCI_Variant value xiangqi\nposition startpos "
         "moves h3e3\ngo infinite\nstop\nsetoption name Hash value 1\n",
         "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 3\nd\n"},
        {"ucci\nisready\nposition startpos moves h2e2\ngo time 1000\n"
         "quit\n",
         "setoption usemillisec true\ngo time 100 increment 10\nstop\n",
         "position fen x moves\nbanmoves\nprobe\n"},
        {"usi\nisready\nusinewgame\nposition startpos moves 7g7f\n"
         "go btime 1000 wtime 1000 byoyomi 100\nstop\nquit\n",
         "setoption name USI_Variant value minishogi\nposition sfen "
         "rbsgk/4p/5/P4/KGSBR b - 1\ngo infinite\nponderhit\nstop\n",
         "setoption name USI_Hash value 1\ngameover win\nposition sfen x\n"},
        {"protocol_version\nboardsize 9\nkomi 6.5\nclear_board\n"
         "genmove b\nplay w E5\nundo\nshowboard\nquit\n",
         "time_settings 10 1 1\ntime_left b 5 0\ngenmove w\nplay b pass\n"
         "play w pass\nfinal_score\n",
         "1 known_command genmove\nlist_commands\nplay x y\nboardsize 99\n"},
        {"Start\nQuit\n", "a1\nb2\nQuit\n", "Start\nStart\n\nx y z\n"},
        {"START 15\r\nINFO timeout_turn 100\r\nBEGIN\r\nTURN 7,8\r\nEND\r\n",
         "START 20\nINFO rule 4\nBOARD\n9,9,2\n10,10,1\n9,10,2\nDONE\n"
         "TAKEBACK 9,10\nRESTART\nABOUT\n",
         "RECTSTART 15,15\nINFO time_left 1000\nTURN 99,1\nBOARD\n1,1,3\n"
         "DONE\nSTART x\nEND\n"},
    };
    for (int p = 0; p < P_COUNT; p++)
        for (int gi = 0; ply_games[gi]; gi++) {
            if (p == P_GTP && !game_format(ply_games[gi], "gtp"))
                continue;
            if (p == P_CODECUP && ply_games[gi]->info.num_players != 2)
                continue;
            if (p == P_GOMOCUP && !game_format(ply_games[gi], "gomocup"))
                continue;
            if (p != P_UGI && p != P_GTP && p != P_CODECUP &&
                p != P_GOMOCUP && gi > 0)
                continue;           /* the game comes from the script */
            uint8_t head[2] = {(uint8_t)p, (uint8_t)gi};
            for (int k = 0; k < 3; k++)
                fuzz_seedf(s, head, sizeof head, "%s", scripts[p][k]);
        }
}
