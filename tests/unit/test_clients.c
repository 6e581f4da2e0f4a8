/* test_clients.c — ply match's protocol clients (the *_client.c files
 * in src/proto) against scripted engines (engine_start_script: the engine's output is a
 * fixed text, what the client sends is recorded): the client sends its
 * protocol's lines, plays the move the engine names, and forfeits with
 * the right reason when the engine names an illegal move, resigns, or
 * stops talking. The same scripted engines drive tests/fuzz/fuzz_clients.c. */
#include "testlib.h"
#include "core/registry.h"
#include "proto/client.h"
#include "proto/clients.h"
#include "tools/referee.h"

typedef struct Sent {
    char text[8192];
    int lines;
} Sent;

static void on_send(void *ctx, const char *line)
{
    Sent *s = ctx;
    size_t n = strlen(s->text);
    snprintf(s->text + n, sizeof s->text - n, "%s\n", line);
    s->lines++;
}

/* One game: the client of proto (seat 0) with the scripted engine and
 * nopts engine options, against the random bot. */
static void play_opts(const char *game, const char *proto,
                      const char *script, const char *const (*opts)[2],
                      int nopts, Sent *sent, GameRecord *rec)
{
    const GameVtbl *g = game_find(game);
    assert_non_null(g);
    const PlayerClient *pc = player_client(proto_clients, proto);
    assert_non_null(pc);
    PlyError err = {{0}};
    Player *seats[2];
    seats[0] = pc->create("engine", "unused", 1, NULL, &err);
    seats[1] = bot_player_new("random", "random", &err);
    assert_non_null(seats[0]);
    assert_non_null(seats[1]);
    for (int i = 0; i < nopts; i++)
        assert_int_equal(seats[0]->vt->set_option(seats[0], opts[i][0],
                                                  opts[i][1], &err), 0);
    Client *c = (Client *)seats[0];
    c->script = script;
    c->script_len = strlen(script);
    c->on_send = on_send;
    c->on_send_ctx = sent;
    memset(sent, 0, sizeof *sent);
    TimeControl tc = {.kind = TC_MOVE, .tc_ms = 1000, .grace_ms = 1000,
                      .ext_move_ms = 1000, .start_ms = 1000};
    Opening op = {NULL, 0, 7};
    memset(rec, 0, sizeof *rec);
    assert_int_equal(referee_play(g, "", seats, &tc, &op, 7, rec, &err), 0);
    seats[0]->vt->free(seats[0]);
    seats[1]->vt->free(seats[1]);
}

static void play(const char *game, const char *proto, const char *script,
                 Sent *sent, GameRecord *rec)
{
    play_opts(game, proto, script, NULL, 0, sent, rec);
}

static void test_uci_plays_the_named_move(void **state)
{
    (void)state;
    Sent s;
    GameRecord r;
    /* one move, then silence: the second move is a crash forfeit */
    play("chess", "uci", "id name scripted\nuciok\nreadyok\n"
         "info depth 1 pv e2e4\nbestmove e2e4 ponder e7e5\n", &s, &r);
    assert_true(r.nmoves >= 2);
    assert_string_equal(r.moves[0], "e2e4");
    assert_int_equal(r.reason, REASON_CRASH);
    assert_int_equal(r.loser, 0);
    assert_true(r.result[0] < r.result[1]);
    assert_non_null(strstr(s.text, "uci\n"));
    assert_non_null(strstr(s.text, "isready\n"));
    assert_non_null(strstr(s.text, "position startpos\n"));
    assert_non_null(strstr(s.text, "go movetime"));
    /* the second position carries both moves */
    char want[64];
    snprintf(want, sizeof want, "position startpos moves e2e4 %s\n",
             r.moves[1]);
    assert_non_null(strstr(s.text, want));
    match_record_free(&r);
}

static void test_illegal_and_resign(void **state)
{
    (void)state;
    Sent s;
    GameRecord r;
    play("chess", "uci", "uciok\nreadyok\nbestmove e2e5\n", &s, &r);
    assert_int_equal(r.nmoves, 0);
    assert_int_equal(r.reason, REASON_ILLEGAL);
    assert_int_equal(r.loser, 0);
    match_record_free(&r);
    play("chess", "uci", "uciok\nreadyok\nbestmove resign\n", &s, &r);
    assert_int_equal(r.reason, REASON_ADJUDICATED);
    assert_true(r.result[0] < r.result[1]);
    match_record_free(&r);
}

static void test_cecp_move_line(void **state)
{
    (void)state;
    Sent s;
    GameRecord r;
    play("chess", "cecp", "feature setboard=1 usermove=1 done=1\n"
         "move g1f3\n", &s, &r);
    assert_true(r.nmoves >= 1);
    assert_string_equal(r.moves[0], "g1f3");
    assert_int_equal(r.reason, REASON_CRASH);
    assert_non_null(strstr(s.text, "xboard\n"));
    match_record_free(&r);
}

/* Output that is no protocol at all ends the game at once: a forfeit of
 * the engine's seat, never a hang or a move. */
/* Engine options reach the engine before the game, in its protocol's
 * words; GNU Chess's "My move is : X" is a move. */
static void test_options_and_my_move(void **state)
{
    (void)state;
    Sent s;
    GameRecord r;
    static const char *const opts[][2] = {{"Skill Level", "8"},
                                          {"Hash", "16"}};
    play_opts("chess", "uci", "uciok\nreadyok\nbestmove e2e4\n", opts, 2,
              &s, &r);
    assert_string_equal(r.moves[0], "e2e4");
    char *a = strstr(s.text, "setoption name Skill Level value 8\n");
    char *b = strstr(s.text, "setoption name Hash value 16\n");
    char *ready = strstr(s.text, "isready\n");
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(ready);
    assert_true(a < b && b < ready);
    match_record_free(&r);
    play_opts("chess", "cecp", "feature usermove=1 done=1\n"
              "My move is : g1f3\n", opts, 1, &s, &r);
    assert_true(r.nmoves >= 1);
    assert_string_equal(r.moves[0], "g1f3");
    assert_non_null(strstr(s.text, "option Skill Level=8\n"));
    match_record_free(&r);
}

static void test_garbage(void **state)
{
    (void)state;
    static const char *const protos[] = {"ugi", "uci", "usi", "cecp",
                                         "codecup", "gtp"};
    static const char *const games[] = {"chess", "chess", "shogi", "chess",
                                        "zuniq", "go"};
    for (int i = 0; i < 6; i++) {
        Sent s;
        GameRecord r;
        play(games[i], protos[i], "\x01\x02 garbage\n\n\xff\xfe\n", &s, &r);
        assert_int_equal(r.nmoves, 0);
        assert_int_not_equal(r.reason, REASON_NORMAL);
        assert_int_equal(r.loser, 0);
        assert_true(s.lines >= 1);  /* it spoke first */
        match_record_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uci_plays_the_named_move),
        cmocka_unit_test(test_illegal_and_resign),
        cmocka_unit_test(test_cecp_move_line),
        cmocka_unit_test(test_options_and_my_move),
        cmocka_unit_test(test_garbage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
