/* test_referee.c — the referee against scripted players (tools/player.h):
 * a normal game informs everybody of every move and ends every player
 * once; illegal moves, slow moves and failed begins forfeit with their
 * reason; clocks reach the players. */
#include <time.h>

#include "testlib.h"
#include "tools/referee.h"

typedef enum { P_FIRST, P_ILLEGAL, P_SLOW, P_BEGIN_FAILS, P_RESIGN,
               P_SLOW_FIRST } Mode;

typedef struct Script {
    Player base;
    Mode mode;
    const GameVtbl *g;
    int begins, moves, informs, ends, forfeited;
    int64_t last_allowed, last_left, first_allowed;
    Reason end_why;
} Script;

static Reason s_begin(Player *p, const PlayerGame *pg, PlyError *err)
{
    Script *S = (Script *)p;
    S->begins++;
    S->g = pg->g;
    if (S->mode == P_BEGIN_FAILS)
        return player_fail(err, REASON_CRASH, "%s: cannot start", p->name);
    return REASON_NORMAL;
}

static Reason s_move(Player *p, const void *st, const PlayerClock *c,
                     Move *out, PlyError *err)
{
    Script *S = (Script *)p;
    if (!S->moves++)
        S->first_allowed = c->allowed_ms;
    S->last_allowed = c->allowed_ms;
    S->last_left = c->left_ms[0];
    Move moves[512];
    int n = S->g->gen_moves(st, moves);
    assert_true(n > 0);
    *out = moves[0];
    switch (S->mode) {
    case P_ILLEGAL:
        *out = (Move)0xfffff;   /* not a move of any game here */
        return REASON_NORMAL;   /* the referee checks anyway */
    case P_SLOW_FIRST:
        if (S->moves > 1)
            return REASON_NORMAL;
        /* fall through */
    case P_SLOW: {
        struct timespec ts = {0, 60 * 1000000L};
        nanosleep(&ts, NULL);
        return REASON_NORMAL;
    }
    case P_RESIGN:
        return player_fail(err, REASON_ADJUDICATED, "%s resigned", p->name);
    default:
        return REASON_NORMAL;
    }
}

static void s_inform(Player *p, const void *st, Move m, const char *text)
{
    Script *S = (Script *)p;
    assert_true(state_is_legal(S->g, st, m));
    assert_non_null(text);
    S->informs++;
}

static void s_end(Player *p, const double *result, Reason why,
                  int forfeited)
{
    Script *S = (Script *)p;
    (void)result;
    S->ends++;
    S->forfeited = forfeited;
    S->end_why = why;
}

static void s_free(Player *p)
{
    (void)p;
}

static const PlayerVtbl script_vtbl = {s_begin, s_move, s_inform, s_end,
                                       s_free, NULL};

static void script_init(Script *S, const char *name, Mode mode)
{
    memset(S, 0, sizeof *S);
    S->base.vt = &script_vtbl;
    snprintf(S->base.name, sizeof S->base.name, "%s", name);
    S->mode = mode;
}

static GameRecord play(const char *game, Script *a, Script *b,
                       const TimeControl *tc, int plies)
{
    const GameVtbl *g = game_find(game);
    assert_non_null(g);
    Player *seats[2] = {&a->base, &b->base};
    Opening op = {.setup = NULL, .plies = plies, .seed = 3};
    GameRecord r;
    memset(&r, 0, sizeof r);
    PlyError err = {{0}};
    assert_int_equal(referee_play(g, "", seats, tc, &op, 42, &r, &err), 0);
    return r;
}

static const TimeControl no_tc = {.kind = TC_NONE, .grace_ms = 100,
                                  .ext_move_ms = 500, .start_ms = 1000};

static void test_normal_game(void **state)
{
    (void)state;
    Script a, b;
    script_init(&a, "a", P_FIRST);
    script_init(&b, "b", P_FIRST);
    GameRecord r = play("reversi", &a, &b, &no_tc, 2);
    assert_int_equal(r.reason, REASON_NORMAL);
    assert_int_equal(r.loser, -1);
    assert_int_equal(r.opening_plies, 2);
    assert_true(r.nmoves > 10);
    /* the opening is told at begin, every later move by inform */
    assert_int_equal(a.informs, r.nmoves - 2);
    assert_int_equal(b.informs, r.nmoves - 2);
    assert_int_equal(a.moves + b.moves, r.nmoves - 2);
    assert_int_equal(a.begins + b.begins + a.ends + b.ends, 4);
    assert_int_equal(a.forfeited + b.forfeited, 0);
    /* no control: in-process players are not limited by the referee */
    assert_int_equal(a.last_allowed, -1);
    /* the record replays */
    void *st = tl_position("reversi", NULL, r.setup, NULL);
    const GameVtbl *g = game_find("reversi");
    for (int i = 0; i < r.nmoves; i++) {
        Move m;
        PlyError err = {{0}};
        assert_int_equal(g->text_to_move(st, r.moves[i], &m, &err), 0);
        g->make(st, m);
    }
    assert_int_equal(g->to_move(st), PLAYER_TERMINAL);
    free(st);
    match_record_free(&r);
}

static void test_illegal_move_forfeits(void **state)
{
    (void)state;
    Script a, b;
    script_init(&a, "a", P_FIRST);
    script_init(&b, "cheat", P_ILLEGAL);
    GameRecord r = play("kalah", &a, &b, &no_tc, 0);
    assert_int_equal(r.reason, REASON_ILLEGAL);
    assert_int_equal(r.loser, 1);
    assert_true(r.result[1] < 0 && r.result[0] > 0);
    assert_non_null(strstr(r.error, "cheat: chose an illegal move"));
    assert_int_equal(b.ends, 1);
    assert_int_equal(b.forfeited, 1);
    assert_int_equal(a.forfeited, 0);
    assert_int_equal(b.end_why, REASON_ILLEGAL);
    match_record_free(&r);
}

static void test_slow_move_forfeits(void **state)
{
    (void)state;
    TimeControl tc = {.kind = TC_MOVE, .tc_ms = 10, .grace_ms = 20};
    Script a, b;
    script_init(&a, "slow", P_SLOW);
    script_init(&b, "b", P_FIRST);
    GameRecord r = play("kalah", &a, &b, &tc, 0);
    assert_int_equal(r.reason, REASON_TIME);
    assert_int_equal(r.loser, 0);
    assert_non_null(strstr(r.error, "slow: used"));
    assert_int_equal(a.first_allowed, 10);
    match_record_free(&r);
}

/* Over the move's time but within the grace: no forfeit, an overrun
 * counted for that seat with its excess. */
static void test_overrun_within_grace(void **state)
{
    (void)state;
    TimeControl tc = {.kind = TC_MOVE, .tc_ms = 10, .grace_ms = 10000};
    Script a, b;
    script_init(&a, "late", P_SLOW_FIRST);
    script_init(&b, "b", P_FIRST);
    GameRecord r = play("kalah", &a, &b, &tc, 0);
    assert_int_equal(r.reason, REASON_NORMAL);
    assert_int_equal(r.loser, -1);
    assert_int_equal(r.overruns[0], 1);
    assert_int_equal(r.overruns[1], 0);
    assert_true(r.overrun_max_ms[0] >= 45);    /* slept 60 of 10 ms */
    assert_true(r.overrun_max_ms[0] < 10000);
    match_record_free(&r);
}

static void test_failed_begin_ends_everybody(void **state)
{
    (void)state;
    Script a, b;
    script_init(&a, "a", P_BEGIN_FAILS);
    script_init(&b, "b", P_FIRST);
    GameRecord r = play("kalah", &a, &b, &no_tc, 0);
    assert_int_equal(r.reason, REASON_CRASH);
    assert_int_equal(r.loser, 0);
    assert_string_equal(r.error, "a: cannot start");
    assert_int_equal(r.nmoves, 0);
    assert_int_equal(b.begins, 0);     /* the game was over before */
    assert_int_equal(a.ends + b.ends, 2);
    match_record_free(&r);
}

static void test_resignation(void **state)
{
    (void)state;
    Script a, b;
    script_init(&a, "a", P_FIRST);
    script_init(&b, "quitter", P_RESIGN);
    GameRecord r = play("kalah", &a, &b, &no_tc, 0);
    assert_int_equal(r.reason, REASON_ADJUDICATED);
    assert_int_equal(r.loser, 1);
    assert_string_equal(r.error, "quitter resigned");
    match_record_free(&r);
}

static void test_game_clock(void **state)
{
    (void)state;
    TimeControl tc = {.kind = TC_GAME, .tc_ms = 5000, .inc_ms = 100,
                      .grace_ms = 100};
    Script a, b;
    script_init(&a, "a", P_FIRST);
    script_init(&b, "b", P_FIRST);
    GameRecord r = play("reversi", &a, &b, &tc, 0);
    assert_int_equal(r.reason, REASON_NORMAL);
    /* the first move sees the full clock, later ones clock + increments
     * minus the (tiny) time used */
    assert_int_equal(a.first_allowed, 5000);
    assert_true(a.last_allowed > 5000 && a.last_allowed <= 5000 + 100 * 40);
    assert_true(b.last_left > 5000);
    match_record_free(&r);
}

static void test_protocol_game_clock(void **state)
{
    (void)state;
    /* a protocol's own game clock (CodeCup's) runs without a control */
    Script a, b;
    script_init(&a, "a", P_FIRST);
    script_init(&b, "b", P_FIRST);
    a.base.game_ms = 3000;
    b.base.external = 1;
    GameRecord r = play("kalah", &a, &b, &no_tc, 0);
    assert_int_equal(r.reason, REASON_NORMAL);
    assert_int_equal(a.first_allowed, 3000);
    assert_true(a.last_allowed <= 3000);
    assert_int_equal(b.first_allowed, no_tc.ext_move_ms);
    match_record_free(&r);
}

static void test_player_client_table(void **state)
{
    (void)state;
    static const PlayerClient table[] = {{"x", NULL}, {"y", NULL},
                                         {NULL, NULL}};
    assert_ptr_equal(player_client(table, "y"), &table[1]);
    assert_null(player_client(table, "z"));
    assert_null(player_client(NULL, "x"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normal_game),
        cmocka_unit_test(test_illegal_move_forfeits),
        cmocka_unit_test(test_overrun_within_grace),
        cmocka_unit_test(test_slow_move_forfeits),
        cmocka_unit_test(test_failed_begin_ends_everybody),
        cmocka_unit_test(test_resignation),
        cmocka_unit_test(test_game_clock),
        cmocka_unit_test(test_protocol_game_clock),
        cmocka_unit_test(test_player_client_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
