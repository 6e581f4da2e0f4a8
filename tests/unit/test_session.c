/* test_session.c — the engine session (src/core/session.c): positions set,
 * played, undone and redone against replays from scratch, repetitions
 * after undo, go / stop / wait / ponderhit with a search stopped from this
 * thread, info and done callbacks, errors, and freeing while searching. */
#include <time.h>

#include "testlib.h"

#include "core/session.h"

static const char *const LINE =
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5";

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The first n moves of a move list. */
static void prefix(const char *moves, int n, char *out, size_t cap)
{
    out[0] = 0;
    const char *p = moves;
    for (int i = 0; i < n && *p; i++) {
        size_t len = strcspn(p, " ");
        size_t ol = strlen(out);
        snprintf(out + ol, cap - ol, "%s%.*s", ol ? " " : "", (int)len, p);
        p += len;
        while (*p == ' ')
            p++;
    }
}

static void expect_state(const Session *s, const char *game,
                         const char *moves)
{
    const GameVtbl *g = game_find(game);
    void *st = tl_position(game, NULL, NULL, moves);
    if (memcmp(st, session_state(s), g->info.state_size))
        fail_msg("session state differs from a replay of '%s'", moves);
    free(st);
}

static Session *new_session(const char *game, const char *spec)
{
    PlyError err = {{0}};
    Session *s = session_new(game_find(game), NULL, spec, 1, &err);
    if (!s)
        fail_msg("session_new: %s", err.msg);
    return s;
}

static void test_play_undo_redo(void **state)
{
    (void)state;
    Session *s = new_session("chess", "random");
    PlyError err = {{0}};
    char buf[512], copy[512];
    snprintf(copy, sizeof copy, "%s", LINE);
    int n = 0;
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w;
         w = strtok_r(NULL, " ", &save), n++) {
        assert_int_equal(session_play_text(s, w, &err), 0);
        prefix(LINE, n + 1, buf, sizeof buf);
        expect_state(s, "chess", buf);
    }
    assert_int_equal(session_ply(s), n);
    /* every state of the history and its move */
    const GameVtbl *g = game_find("chess");
    for (int i = 0; i < n; i++) {
        prefix(LINE, i, buf, sizeof buf);
        void *st = tl_position("chess", NULL, NULL, buf);
        assert_memory_equal(st, session_state_at(s, i), g->info.state_size);
        char mb[16], want[16];
        g->move_to_text(st, session_move_at(s, i), mb, sizeof mb);
        prefix(LINE + strlen(buf) + (i ? 1 : 0), 1, want, sizeof want);
        assert_string_equal(mb, want);
        free(st);
    }
    /* undo and redo in steps of 1..4 */
    for (int k = 1; k <= 4; k++) {
        assert_int_equal(session_undo(s, k), k);
        prefix(LINE, n - k, buf, sizeof buf);
        expect_state(s, "chess", buf);
        assert_int_equal(session_redo_count(s), k);
        assert_int_equal(session_redo(s, k), k);
        expect_state(s, "chess", LINE);
    }
    /* undo too far stops at the start; redo too far at the end */
    assert_int_equal(session_undo(s, 100), n);
    expect_state(s, "chess", NULL);
    assert_int_equal(session_undo(s, 1), 0);
    assert_int_equal(session_redo(s, 100), n);
    expect_state(s, "chess", LINE);
    /* a move after an undo drops the redo list */
    session_undo(s, 2);
    assert_int_equal(session_play_text(s, "h2h3", &err), 0);
    assert_int_equal(session_redo_count(s), 0);
    prefix(LINE, n - 2, buf, sizeof buf);
    strcat(buf, " h2h3");
    expect_state(s, "chess", buf);
    /* set_position gives the same as playing the moves one by one */
    assert_int_equal(session_set_position(s, NULL, LINE, &err), 0);
    assert_int_equal(session_ply(s), n);
    expect_state(s, "chess", LINE);
    session_undo(s, 3);
    prefix(LINE, n - 3, buf, sizeof buf);
    expect_state(s, "chess", buf);
    session_free(s);
}

static void test_repetition_after_undo(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("chess");
    assert_non_null(g->repeated);
    Session *s = new_session("chess", "random");
    PlyError err = {{0}};
    const char *shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
    assert_int_equal(session_set_position(s, NULL, shuffle, &err), 0);
    assert_true(g->repeated(session_state(s)));
    /* taken back: not a repetition; replayed: one again */
    session_undo(s, 4);
    void *half = tl_position("chess", NULL, NULL, "g1f3 g8f6 f3g1 f6g8");
    assert_int_equal(!!g->repeated(session_state(s)), !!g->repeated(half));
    free(half);
    expect_state(s, "chess", "g1f3 g8f6 f3g1 f6g8");
    session_undo(s, 3);
    assert_false(g->repeated(session_state(s)));
    session_redo(s, 7);
    assert_true(g->repeated(session_state(s)));
    /* played again by hand after an undo */
    session_undo(s, 2);
    assert_int_equal(session_play_text(s, "f3g1", &err), 0);
    assert_int_equal(session_play_text(s, "f6g8", &err), 0);
    assert_true(g->repeated(session_state(s)));
    expect_state(s, "chess", shuffle);
    session_free(s);
}

typedef struct Seen {
    int infos, dones;
    Move best;
    unsigned char root[4096];
} Seen;

static void on_info(void *user, const void *root, const SearchInfo *si)
{
    Seen *w = user;
    w->infos++;
    (void)root;
    (void)si;
}

static void on_done(void *user, const void *root, Move best,
                    const SearchInfo *si)
{
    Seen *w = user;
    w->dones++;
    w->best = best;
    memcpy(w->root, root, game_find("chess")->info.state_size);
    (void)si;
}

static void test_go_stop_wait(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("chess");
    assert_true(g->info.state_size <= sizeof ((Seen *)0)->root);
    Session *s = new_session("chess", "alphabeta");
    Seen w = {0};
    session_on_info(s, on_info, on_done, &w);
    PlyError err = {{0}};
    assert_int_equal(session_set_position(s, NULL, "e2e4 e7e5", &err), 0);
    /* infinite: the result waits for stop, however long */
    Limits none = {0};
    none.time_ms = 50;      /* the bot is done soon; the hold is not */
    assert_int_equal(session_go(s, &none, 1, &err), 0);
    assert_true(session_searching(s));
    assert_int_equal(session_go(s, NULL, 0, &err), -1);  /* one at a time */
    sleep_ms(300);
    assert_false(session_search_done(s));
    assert_true(session_search_endless(s));
    session_stop(s);
    SearchInfo si;
    Move m = session_wait(s, &si);
    assert_false(session_searching(s));
    assert_true(state_is_legal(g, session_state(s), m));
    assert_true(w.infos > 0);
    assert_int_equal(w.dones, 1);
    assert_true(w.best == m && si.best == m);
    assert_memory_equal(w.root, session_state(s), g->info.state_size);
    /* a truly endless search (no limits) stopped from here */
    Limits zero = {0};
    assert_int_equal(session_set_bot(s, "mcts", &err), 0);
    assert_int_equal(session_go(s, &zero, 1, &err), 0);
    sleep_ms(100);
    assert_false(session_search_done(s));
    session_stop(s);
    m = session_wait(s, NULL);
    assert_true(state_is_legal(g, session_state(s), m));
    assert_int_equal(w.dones, 2);
    /* ponderhit lets a held result out without stop */
    Limits d2 = {0};
    d2.depth = 2;
    assert_int_equal(session_set_bot(s, "alphabeta", &err), 0);
    assert_int_equal(session_go(s, &d2, 1, &err), 0);
    sleep_ms(200);
    assert_false(session_search_done(s));
    session_ponderhit(s);
    m = session_wait(s, &si);
    assert_true(state_is_legal(g, session_state(s), m));
    assert_int_equal(si.depth, 2);
    /* a search with limits ends by itself; wait without stop */
    assert_int_equal(session_go(s, &d2, 0, &err), 0);
    m = session_wait(s, NULL);
    assert_true(state_is_legal(g, session_state(s), m));
    /* stop right after go (a bot may miss it): wait still returns */
    for (int i = 0; i < 20; i++) {
        assert_int_equal(session_go(s, &zero, 1, &err), 0);
        session_stop(s);
        m = session_wait(s, NULL);
        assert_true(state_is_legal(g, session_state(s), m));
    }
    /* waiting with no search: 0 */
    assert_true(session_wait(s, &si) == 0 && si.nodes == 0);
    session_free(s);
}

static void test_errors(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("chess");
    PlyError err = {{0}};
    assert_null(session_new(g, NULL, "nosuchbot", 1, &err));
    assert_non_null(strstr(err.msg, "unknown bot 'nosuchbot'"));
    assert_null(session_new(game_find("kalah"), "houses=99", NULL, 1, &err));
    assert_non_null(strstr(err.msg, "out of range"));
    assert_null(session_new(NULL, NULL, NULL, 1, &err));

    Session *s = new_session("chess", "alphabeta:depth=1");
    assert_int_equal(session_set_position(s, NULL, "e2e4 e7e5", &err), 0);
    /* a bad setup, a bad move: an error, nothing changes */
    assert_int_equal(session_set_position(s, "garbage!", NULL, &err), -1);
    assert_true(err.msg[0] != 0);
    expect_state(s, "chess", "e2e4 e7e5");
    assert_int_equal(session_ply(s), 2);
    assert_int_equal(session_set_position(s, NULL, "e2e4 e2e4", &err), -1);
    assert_non_null(strstr(err.msg, "move 2"));
    expect_state(s, "chess", "e2e4 e7e5");
    assert_int_equal(session_play_text(s, "e1e8", &err), -1);
    assert_int_equal(session_play(s, 0xdeadbeef, &err), -1);
    expect_state(s, "chess", "e2e4 e7e5");
    /* bot options: set, replace, remove; a bad one changes nothing */
    assert_int_equal(session_set_bot_option(s, "depth", "3", &err), 0);
    assert_string_equal(session_bot_spec(s), "alphabeta:depth=3");
    assert_int_equal(session_set_bot_option(s, "hash", "4", &err), 0);
    assert_string_equal(session_bot_spec(s), "alphabeta:depth=3,hash=4");
    assert_int_equal(session_set_bot_option(s, "depth", "2", &err), 0);
    assert_string_equal(session_bot_spec(s), "alphabeta:hash=4,depth=2");
    assert_int_equal(session_bot_limits(s).depth, 2);
    assert_int_equal(session_set_bot_option(s, "bogus", "1", &err), -1);
    assert_non_null(strstr(err.msg, "bogus"));
    assert_int_equal(session_set_bot_option(s, "depth", "x", &err), -1);
    assert_int_equal(session_set_bot_option(s, "a,b", "1", &err), -1);
    assert_int_equal(session_set_bot_option(s, "hash", "1,depth=9", &err),
                     -1);
    assert_string_equal(session_bot_spec(s), "alphabeta:hash=4,depth=2");
    assert_int_equal(session_set_bot_option(s, "hash", NULL, &err), 0);
    assert_string_equal(session_bot_spec(s), "alphabeta:depth=2");
    assert_int_equal(session_set_bot(s, "nobot", &err), -1);
    assert_string_equal(session_bot_spec(s), "alphabeta:depth=2");
    /* no search at the end of the game */
    assert_int_equal(session_set_position(s, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
                                          NULL, &err), 0);
    assert_int_equal(session_go(s, NULL, 0, &err), -1);
    assert_non_null(strstr(err.msg, "over"));
    assert_int_equal(session_play_text(s, "h8g8", &err), -1);
    session_free(s);
    session_free(NULL);
}

static void test_default_bot(void **state)
{
    (void)state;
    for (int i = 0; ply_games[i]; i++) {
        const GameVtbl *g = ply_games[i];
        const char *d = game_default_bot(g);
        PlyError err = {{0}};
        Bot *b = bot_new(g, d, 1, &err);
        if (!b)
            fail_msg("%s: default bot %s: %s", g->info.name, d, err.msg);
        bot_free(b);
        if (g->info.default_bot)
            assert_string_equal(d, g->info.default_bot);
        /* a game's own CodeCup player must build too (a bad option in
         * the spec shows only here and in `ply codecup`) */
        if (g->info.codecup_bot) {
            b = bot_new(g, g->info.codecup_bot, 1, &err);
            if (!b)
                fail_msg("%s: codecup bot %s: %s", g->info.name,
                         g->info.codecup_bot, err.msg);
            bot_free(b);
        }
    }
    assert_string_equal(game_default_bot(game_find("chess")), "alphabeta");
    assert_string_equal(game_default_bot(game_find("vindinium")),
                        "vindinium");
}

static void test_free_while_searching(void **state)
{
    (void)state;
    /* an infinite search nobody stops, and a long one */
    Session *s = new_session("chess", "alphabeta");
    Seen w = {0};
    session_on_info(s, on_info, on_done, &w);
    Limits zero = {0};
    PlyError err = {{0}};
    assert_int_equal(session_go(s, &zero, 1, &err), 0);
    sleep_ms(50);
    session_free(s);
    assert_int_equal(w.dones, 1);
    s = new_session("kalah", "mcts:time=60s");
    assert_int_equal(session_go(s, NULL, 0, &err), 0);
    session_free(s);
    /* and the position changed under a search stops it first */
    s = new_session("kalah", "mcts:time=60s");
    assert_int_equal(session_go(s, NULL, 0, &err), 0);
    assert_int_equal(session_play_text(s, "1", &err), 0);
    assert_false(session_searching(s));
    expect_state(s, "kalah", "1");
    session_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_play_undo_redo),
        cmocka_unit_test(test_repetition_after_undo),
        cmocka_unit_test(test_go_stop_wait),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_default_bot),
        cmocka_unit_test(test_free_while_searching),
    };
    tl_filter();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
