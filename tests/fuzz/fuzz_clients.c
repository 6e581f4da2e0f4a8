/* fuzz_clients.c — what ply match's protocol clients read from engines:
 * one game between a client (UGI, UCI, USI, CECP, CodeCup or GTP) whose
 * engine is a script of output lines (engine_start_script: no process)
 * and random bots in the other seats, through the referee. Whatever the
 * engine says, the game must end with a result and a reason, a forfeit
 * must name its seat, and nothing may crash or hang.
 *
 * Input: a byte for the game, a byte for the protocol, a byte for the
 * client's seat, eight bytes of seed, then the engine's output. */
#include "fuzz.h"
#include "proto/client.h"
#include "proto/clients.h"
#include "tools/referee.h"

static int nclients(void)
{
    int n = 0;
    while (proto_clients[n].proto)
        n++;
    return n;
}

static void fuzz_one(FuzzIn *in)
{
    const GameVtbl *g = fuzz_game(in);
    const PlayerClient *pc = &proto_clients[fuzz_byte(in) % nclients()];
    int np = g->info.num_players;
    int seat = (int)(fuzz_byte(in) % (unsigned)np);
    uint64_t seed = fuzz_u64(in);
    size_t n = in->size - in->pos;
    const char *script = (const char *)in->data + in->pos;
    in->pos = in->size;

    PlyError err = {{0}};
    Player *seats[PLY_MAX_PLAYERS] = {0};
    for (int s = 0; s < np; s++) {
        seats[s] = s == seat
            ? pc->create("engine", "unused", 1, NULL, &err)
            : bot_player_new("random", "random", &err);
        if (!seats[s])
            abort();    /* both constructors take any name and command */
    }
    Client *c = (Client *)seats[seat];
    c->script = script;
    c->script_len = n;
    TimeControl tc = {.kind = TC_MOVE, .tc_ms = 1000, .grace_ms = 1000,
                      .ext_move_ms = 1000, .start_ms = 1000};
    Opening op = {NULL, 0, seed};
    GameRecord rec;
    memset(&rec, 0, sizeof rec);
    if (referee_play(g, "", seats, &tc, &op, seed, &rec, &err))
        abort();        /* the start position of every game can be set up */
    if (rec.reason < 0 || rec.reason >= REASON_COUNT)
        abort();
    if (rec.loser >= np || (rec.reason != REASON_NORMAL &&
                            rec.reason != REASON_ADJUDICATED &&
                            rec.loser < 0))
        abort();        /* a forfeit names a seat of this game */
    for (int s = 0; s < np; s++)
        if (!(rec.result[s] >= -1 && rec.result[s] <= 1))
            abort();
    match_record_free(&rec);
    for (int s = 0; s < np; s++)
        seats[s]->vt->free(seats[s]);
}

/* A well-behaved engine's opening lines for each protocol, then a move:
 * the mutator takes it from there. */
static void fuzz_seeds(FuzzSeeds *s)
{
    static const struct {
        const char *proto, *script;
    } talk[] = {
        {"ugi", "id name s\nugiok\nreadyok\nbestmove %s\n"},
        {"uci", "id name s\noption name seed type spin\nuciok\nreadyok\n"
                "info depth 1 score cp 0 pv %s\nbestmove %s ponder x\n"},
        {"usi", "usiok\nreadyok\nbestmove %s\nbestmove resign\n"},
        {"cecp", "feature setboard=1 usermove=1 done=1\nMy move is : %s\n"
                 "Illegal move: x\nresign\n"},
        {"codecup", "%s\n%s\n!\n"},
        {"gtp", "=\n\n=\n\n=\n\n= %s\n\n? unknown\n\n"},
    };
    Move buf[4096];
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        void *st = state_alloc(g);
        PlyError err = {{0}};
        if (!st || g->info.max_moves > 4096 ||
            state_setup(g, st, "", NULL, 0, &err))
            abort();
        char mv[256] = "pass";
        if (g->to_move(st) >= 0 && g->gen_moves(st, buf) > 0)
            g->move_to_text(st, buf[0], mv, sizeof mv);
        free(st);
        for (int k = 0; k < (int)(sizeof talk / sizeof talk[0]); k++) {
            int pi = 0;
            while (proto_clients[pi].proto &&
                   strcmp(proto_clients[pi].proto, talk[k].proto))
                pi++;
            if (!proto_clients[pi].proto)
                abort();
            uint8_t head[11] = {(uint8_t)gi, (uint8_t)pi, 1};
            fuzz_put_u64(head + 3, 0x9e3779b97f4a7c15ull * (uint64_t)(gi + 1));
            fuzz_seedf(s, head, sizeof head, talk[k].script, mv, mv);
        }
    }
}
