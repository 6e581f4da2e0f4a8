/* test_libply.c — the public C API (include/ply.h) as a user meets it:
 * versions, listings, states of every game played out at random and taken
 * back, clones, text round trips, errors for every kind of bad input, bots
 * with progress callbacks, sessions, matches and their records. Only
 * ply.h is included (its PlyError is not the engine's). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../include/ply.h"

static const PlyGame *game(const char *name)
{
    PlyError err;
    const PlyGame *g = ply_game_find(name, &err);
    if (!g)
        fail_msg("%s", err.message);
    return g;
}

static PlyState *state(const char *name, const char *options,
                       const char *setup)
{
    PlyError err;
    PlyState *s = ply_state_new(game(name), options, setup, 1, &err);
    if (!s)
        fail_msg("%s: %s", name, err.message);
    assert_int_equal(err.code, PLY_OK);
    return s;
}

static void test_versions(void **unused)
{
    (void)unused;
    assert_int_equal(ply_api_version(), PLY_API_VERSION);
    const char *v = ply_version();
    assert_non_null(v);
    assert_int_equal(strncmp(v, PLY_VERSION, strlen(PLY_VERSION)), 0);
    assert_string_equal(ply_error_name(PLY_E_PARSE), "PLY_E_PARSE");
    assert_string_equal(ply_error_name(99), "PLY_E_UNKNOWN");
}

static void test_listings(void **unused)
{
    (void)unused;
    int n = ply_game_count();
    assert_true(n >= 10);
    assert_null(ply_game_at(-1));
    assert_null(ply_game_at(n));
    for (int i = 0; i < n; i++) {
        const PlyGame *g = ply_game_at(i);
        assert_non_null(g);
        assert_ptr_equal(ply_game_find(ply_game_name(g), NULL), g);
        assert_true(ply_game_num_players(g) >= 1);
        assert_non_null(ply_game_player_name(g, 0));
        assert_null(ply_game_player_name(g, ply_game_num_players(g)));
        assert_non_null(ply_game_default_bot(g));
        for (int k = 0; k < ply_game_option_count(g); k++) {
            char buf[512];
            assert_true(ply_game_option_describe(g, k, buf, sizeof buf,
                                                 NULL) > 0);
            assert_non_null(strstr(buf, ply_game_option_key(g, k)));
        }
    }
    const PlyGame *kalah = game("kalah");
    assert_true(ply_game_option_count(kalah) >= 2);
    char tiny[4];
    PlyError err;
    assert_int_equal(ply_game_option_describe(kalah, 0, tiny, sizeof tiny,
                                              &err), -1);
    assert_int_equal(err.code, PLY_E_RANGE);
    int found = 0;
    const PlyGame *chess = game("chess");
    for (int i = 0; i < ply_game_format_count(chess); i++)
        found += !strcmp(ply_game_format_name(chess, i), "pgn");
    assert_int_equal(found, 1);

    int nb = ply_bot_type_count();
    assert_true(nb >= 4);
    for (int i = 0; i < nb; i++) {
        const PlyBotType *t = ply_bot_type_at(i);
        assert_ptr_equal(ply_bot_type_find(ply_bot_type_name(t), NULL), t);
        /* time, nodes, depth, seed come first for every bot */
        assert_true(ply_bot_type_option_count(t) >= 4);
        assert_string_equal(ply_bot_type_option_key(t, 0), "time");
        char buf[512];
        assert_true(ply_bot_type_option_describe(t, 0, buf, sizeof buf,
                                                 NULL) > 0);
    }
    assert_null(ply_bot_type_find("nosuch", &err));
    assert_int_equal(err.code, PLY_E_NOT_FOUND);
    assert_non_null(strstr(err.message, "mcts"));
}

static void test_start_positions(void **unused)
{
    (void)unused;
    PlyState *s = state("draughts-russian", NULL, NULL);
    assert_int_equal(ply_state_legal_moves(s, NULL, 0), 7);
    ply_state_free(s);
    s = state("chess", NULL, NULL);
    PlyMove mv[256];
    int n = ply_state_legal_moves(s, mv, 256);
    assert_int_equal(n, 20);
    /* perft 2 through the API */
    long leaves = 0;
    for (int i = 0; i < n; i++) {
        assert_int_equal(ply_state_apply(s, mv[i], NULL), 0);
        leaves += ply_state_legal_moves(s, NULL, 0);
        assert_int_equal(ply_state_undo(s, NULL), 0);
    }
    assert_int_equal(leaves, 400);
    /* only min(count, max) written */
    PlyMove two[3] = {0, 0, 12345};
    assert_int_equal(ply_state_legal_moves(s, two, 2), 20);
    assert_int_equal(two[2], 12345);
    assert_true(two[0] == mv[0] && two[1] == mv[1]);
    ply_state_free(s);
    s = state("kalah", "houses=4,seeds=3", NULL);
    assert_int_equal(ply_state_legal_moves(s, NULL, 0), 4);
    ply_state_free(s);
}

/* Random games of every game: apply until the end, the returns, then
 * undo back to the start (the same setup string and hash), with a clone
 * taken half-way staying as it was. */
static void test_every_game_random(void **unused)
{
    (void)unused;
    for (int gi = 0; gi < ply_game_count(); gi++) {
        const PlyGame *g = ply_game_at(gi);
        PlyError err;
        PlyState *s = ply_state_new(g, NULL, NULL, 7, &err);
        if (!s)
            fail_msg("%s: %s", ply_game_name(g), err.message);
        char start[8192], text[8192];
        assert_true(ply_state_to_text(s, start, sizeof start, &err) >= 0);
        uint64_t h0 = ply_state_hash(s);
        int maxm = ply_game_max_moves(g);
        PlyMove *mv = malloc(sizeof *mv * (size_t)maxm);
        assert_non_null(mv);
        uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(gi + 1);
        PlyState *half = NULL;
        char half_text[8192] = "";
        int plies = 0, cap = 400;
        while (!ply_state_is_terminal(s) && plies < cap) {
            int n = ply_state_legal_moves(s, mv, maxm);
            assert_true(n > 0 && n <= maxm);
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            PlyMove m = mv[x % (uint64_t)n];
            char mt[256];
            assert_true(ply_state_move_to_text(s, m, mt, sizeof mt, &err)
                        > 0);
            PlyMove back;
            if (ply_state_parse_move(s, mt, &back, &err))
                fail_msg("%s: '%s': %s", ply_game_name(g), mt, err.message);
            assert_true(back == m);
            assert_int_equal(ply_state_apply(s, m, &err), 0);
            plies++;
            if (plies == 5) {
                half = ply_state_clone(s, &err);
                assert_non_null(half);
                assert_true(ply_state_to_text(half, half_text,
                                              sizeof half_text, NULL) >= 0);
            }
        }
        assert_int_equal(ply_state_history_length(s), plies);
        double r[PLY_PLAYERS_MAX];
        int np = ply_state_returns(s, r, PLY_PLAYERS_MAX);
        assert_int_equal(np, ply_game_num_players(g));
        if (ply_state_is_terminal(s)) {
            assert_int_equal(ply_state_current_player(s),
                             PLY_PLAYER_TERMINAL);
            assert_int_equal(ply_state_legal_moves(s, NULL, 0), 0);
            assert_int_equal(ply_state_apply(s, mv[0], &err), -1);
            assert_int_equal(err.code, PLY_E_STATE);
            if (ply_game_flags(g) & PLY_GAME_ZERO_SUM) {
                double sum = 0;
                for (int i = 0; i < np; i++)
                    sum += r[i];
                assert_true(sum > -1e-9 && sum < 1e-9);
            }
        } else {
            for (int i = 0; i < np; i++)
                assert_true(r[i] == 0.0);
        }
        char pic[1 << 14];
        assert_true(ply_state_render(s, pic, sizeof pic, &err) > 0);
        while (ply_state_history_length(s) > 0)
            assert_int_equal(ply_state_undo(s, &err), 0);
        assert_int_equal(ply_state_undo(s, &err), -1);
        assert_int_equal(err.code, PLY_E_STATE);
        assert_int_equal(ply_state_to_text(s, text, sizeof text, NULL),
                         (int)strlen(start));
        assert_string_equal(text, start);
        assert_true(ply_state_hash(s) == h0);
        if (half) {
            assert_int_equal(ply_state_history_length(half), 5);
            assert_true(ply_state_to_text(half, text, sizeof text, NULL)
                        >= 0);
            assert_string_equal(text, half_text);
            ply_state_free(half);
        }
        /* A setup string reads back to the same position. */
        PlyState *again = ply_state_new(g, NULL, start, 7, &err);
        assert_non_null(again);
        assert_true(ply_state_hash(again) == h0);
        /* Observations: a copy of the position in games with perfect
         * information; a player out of range is an error. */
        int p0 = 0;
        PlyState *obs = ply_state_observation(again, p0, &err);
        assert_non_null(obs);
        if (!(ply_game_flags(g) & PLY_GAME_HIDDEN))
            assert_true(ply_state_hash(obs) == h0);
        PlyState *det = ply_state_determinize(obs, p0, 3, &err);
        assert_non_null(det);
        assert_int_equal(ply_state_legal_moves(det, NULL, 0) > 0,
                         !ply_state_is_terminal(det));
        assert_null(ply_state_observation(again, np, &err));
        assert_int_equal(err.code, PLY_E_ARGUMENT);
        ply_state_free(det);
        ply_state_free(obs);
        ply_state_free(again);
        free(mv);
        ply_state_free(s);
    }
}

static void test_errors(void **unused)
{
    (void)unused;
    PlyError err;
    assert_null(ply_game_find("nosuch", &err));
    assert_int_equal(err.code, PLY_E_NOT_FOUND);
    assert_non_null(strstr(err.message, "nosuch"));
    assert_null(ply_game_find(NULL, NULL));
    assert_null(ply_state_new(NULL, NULL, NULL, 0, &err));
    assert_int_equal(err.code, PLY_E_ARGUMENT);
    const PlyGame *kalah = game("kalah");
    assert_null(ply_state_new(kalah, "houses=99", NULL, 0, &err));
    assert_int_equal(err.code, PLY_E_PARSE);
    assert_non_null(strstr(err.message, "houses"));
    assert_null(ply_state_new(kalah, "nokey=1", NULL, 0, &err));
    assert_int_equal(err.code, PLY_E_PARSE);
    assert_null(ply_state_new(game("chess"), NULL, "not a fen", 0, &err));
    assert_int_equal(err.code, PLY_E_PARSE);

    PlyState *s = state("chess", NULL, NULL);
    assert_int_equal(ply_state_apply_text(s, "e2e5", &err), -1);
    assert_int_equal(err.code, PLY_E_ILLEGAL);
    assert_non_null(strstr(err.message, "e2e5"));
    assert_int_equal(ply_state_apply_text(s, "", &err), -1);
    assert_int_equal(ply_state_apply_text(s, NULL, &err), -1);
    assert_int_equal(err.code, PLY_E_ARGUMENT);
    assert_int_equal(ply_state_apply(s, 0xdeadbeefull, &err), -1);
    assert_int_equal(err.code, PLY_E_ILLEGAL);
    assert_int_equal(ply_state_history_length(s), 0);
    char buf[8];
    assert_int_equal(ply_state_to_text(s, buf, sizeof buf, &err), -1);
    assert_int_equal(err.code, PLY_E_RANGE);
    assert_int_equal(ply_state_render(s, buf, sizeof buf, &err), -1);
    assert_int_equal(err.code, PLY_E_RANGE);
    assert_int_equal(ply_state_move_to_text(s, 0xdeadbeefull, buf,
                                            sizeof buf, &err), -1);
    assert_int_equal(err.code, PLY_E_ILLEGAL);
    /* an error then a success: the success clears err */
    assert_int_equal(ply_state_apply_text(s, "e2e4", &err), 0);
    assert_int_equal(err.code, PLY_OK);
    assert_string_equal(err.message, "");

    assert_null(ply_bot_new(game("chess"), "nosuch", 1, &err));
    assert_int_equal(err.code, PLY_E_PARSE);
    assert_null(ply_bot_new(game("chess"), "mcts:nokey=3", 1, &err));
    assert_non_null(strstr(err.message, "nokey"));
    PlyBot *b = ply_bot_new(game("kalah"), "random", 1, &err);
    PlyMove m;
    assert_int_equal(ply_bot_choose(b, s, NULL, &m, NULL, &err), -1);
    assert_int_equal(err.code, PLY_E_ARGUMENT);     /* kalah bot, chess */
    ply_bot_free(b);

    const char *bots[] = {"random", "nosuch"};
    assert_null(ply_match_new(game("kalah"), NULL, bots, 2, 2, 1, &err));
    assert_null(ply_match_new(game("kalah"), NULL, bots, 0, 2, 1, &err));
    assert_int_equal(err.code, PLY_E_ARGUMENT);
    const char *ok2[] = {"random", "greedy"};
    PlyMatch *mt = ply_match_new(game("kalah"), NULL, ok2, 2, 2, 1, &err);
    assert_non_null(mt);
    assert_int_equal(ply_match_set_time(mt, "soon", &err), -1);
    assert_int_equal(err.code, PLY_E_PARSE);
    assert_null(ply_match_play(mt, ply_match_total(mt), &err));
    assert_int_equal(err.code, PLY_E_ARGUMENT);
    ply_match_free(mt);
    ply_state_free(s);
    /* NULL handles are harmless */
    ply_state_free(NULL);
    ply_bot_free(NULL);
    ply_session_free(NULL);
    ply_match_free(NULL);
    ply_record_free(NULL);
    assert_int_equal(ply_state_legal_moves(NULL, NULL, 0), 0);
}

typedef struct Seen {
    int calls;
    int bad;
    char root[512];
} Seen;

static void on_info(void *user, const PlyState *root,
                    const PlySearchInfo *info)
{
    Seen *seen = user;
    seen->calls++;
    char text[512];
    if (ply_state_to_text(root, text, sizeof text, NULL) < 0 ||
        strcmp(text, seen->root))
        seen->bad++;
    /* the root is read only */
    PlyError err;
    if (ply_state_apply((PlyState *)root, info->best, &err) != -1 ||
        err.code != PLY_E_STATE)
        seen->bad++;
    char mt[64];
    if (info->depth > 0 &&
        ply_state_move_to_text(root, info->best, mt, sizeof mt, NULL) < 0)
        seen->bad++;
}

static void test_bots(void **unused)
{
    (void)unused;
    PlyError err;
    const PlyGame *g = game("reversi");
    PlyState *s = state("reversi", NULL, NULL);
    PlyBot *b = ply_bot_new(g, "alphabeta:depth=3", 5, &err);
    assert_non_null(b);
    assert_string_equal(ply_bot_spec(b), "alphabeta:depth=3");
    Seen seen = {0};
    assert_true(ply_state_to_text(s, seen.root, sizeof seen.root, NULL) > 0);
    PlyLimits lim = {.depth = 4, .on_info = on_info, .user = &seen};
    PlyMove m;
    PlySearchInfo info;
    assert_int_equal(ply_bot_choose(b, s, &lim, &m, &info, &err), 0);
    assert_true(seen.calls >= 4);
    assert_int_equal(seen.bad, 0);
    assert_int_equal(info.depth, 4);
    assert_true(info.best == m);
    /* a zero field keeps the spec's limit: depth 3 */
    PlyLimits keep = {0};
    assert_int_equal(ply_bot_choose(b, s, &keep, &m, &info, &err), 0);
    assert_int_equal(info.depth, 3);
    assert_int_equal(ply_bot_inform(b, s, m, &err), 0);
    assert_int_equal(ply_state_apply(s, m, &err), 0);
    ply_bot_free(b);
    /* the same seed chooses the same moves */
    PlyMove a[2];
    for (int i = 0; i < 2; i++) {
        PlyBot *r = ply_bot_new(g, "mcts:nodes=200", 42, &err);
        assert_non_null(r);
        assert_int_equal(ply_bot_choose(r, s, NULL, &a[i], NULL, &err), 0);
        ply_bot_free(r);
    }
    assert_true(a[0] == a[1]);
    /* the default bot */
    PlyBot *d = ply_bot_new(g, NULL, 1, &err);
    assert_non_null(d);
    assert_string_equal(ply_bot_spec(d), ply_game_default_bot(g));
    ply_bot_free(d);
    ply_state_free(s);
}

typedef struct Done {
    int info, done;
    PlyMove best;
} Done;

static void s_info(void *user, const PlyState *root,
                   const PlySearchInfo *info)
{
    (void)root;
    (void)info;
    ((Done *)user)->info++;
}

static void s_done(void *user, const PlyState *root, PlyMove best,
                   const PlySearchInfo *info)
{
    (void)info;
    Done *d = user;
    d->done++;
    d->best = ply_state_legal_moves(root, NULL, 0) > 0 ? best : 0;
}

static void test_session(void **unused)
{
    (void)unused;
    PlyError err;
    PlySession *ps = ply_session_new(game("chess"), NULL,
                                     "alphabeta:depth=3", 1, &err);
    assert_non_null(ps);
    PlyMove m;
    assert_int_equal(ply_session_wait(ps, &m, NULL, &err), -1);
    assert_int_equal(err.code, PLY_E_STATE);
    assert_int_equal(ply_session_set_position(ps, NULL, "e2e4 e7e5", &err),
                     0);
    assert_int_equal(ply_session_set_position(ps, NULL, "e2e4 e2e4", &err),
                     -1);
    assert_non_null(strstr(err.message, "e2e4"));
    assert_int_equal(ply_session_play(ps, "g1f3", &err), 0);
    assert_int_equal(ply_session_play(ps, "g1f3", &err), -1);
    assert_int_equal(ply_session_undo(ps, 1), 1);
    assert_int_equal(ply_session_play(ps, "g1f3", &err), 0);
    Done d = {0};
    assert_int_equal(ply_session_on_info(ps, s_info, s_done, &d, &err), 0);
    PlyLimits lim = {.depth = 2};
    assert_int_equal(ply_session_go(ps, &lim, &err), 0);
    PlySearchInfo info;
    assert_int_equal(ply_session_wait(ps, &m, &info, &err), 0);
    assert_int_equal(d.done, 1);
    assert_true(d.info >= 1);
    assert_true(d.best == m);
    assert_int_equal(info.depth, 2);
    PlyState *s = ply_session_state(ps, &err);
    assert_non_null(s);
    assert_int_equal(ply_state_current_player(s), 1);
    assert_int_equal(ply_state_apply(s, m, &err), 0);
    ply_state_free(s);
    assert_int_equal(ply_session_set_bot(ps, "nosuch", &err), -1);
    assert_int_equal(ply_session_set_bot_option(ps, "depth", "1", &err), 0);
    assert_int_equal(ply_session_go(ps, NULL, &err), 0);
    ply_session_stop(ps);
    assert_int_equal(ply_session_wait(ps, &m, &info, &err), 0);
    ply_session_free(ps);
}

/* Clocks: the time manager's budget, and bots and sessions that take
 * their time from a clock. */
static void test_clock(void **unused)
{
    (void)unused;
    PlyError err;
    PlyState *s = state("chess", NULL, NULL);
    int spend = -1;
    /* a share of the main time, the rest kept */
    PlyClock c = {.left_ms = 60000};
    int64_t t = ply_time_budget(s, &c, &spend, &err);
    assert_int_equal(err.code, PLY_OK);
    assert_true(t >= 1000 && t <= 30000);
    assert_int_equal(spend, 0);
    /* more time on the clock, no less for the move; an increment adds */
    PlyClock more = {.left_ms = 120000};
    assert_true(ply_time_budget(s, &more, NULL, &err) >= t);
    PlyClock inc = {.left_ms = 60000, .inc_ms = 2000};
    assert_true(ply_time_budget(s, &inc, NULL, &err) > t);
    /* the last move before the control gets all of it but the margin */
    PlyClock last = {.left_ms = 10000, .moves_to_go = 1};
    int64_t tl = ply_time_budget(s, &last, &spend, &err);
    assert_true(tl >= 9000 && tl < 10000);
    /* byoyomi alone: the move's own time, spent whole */
    PlyClock byo = {.byoyomi_ms = 5000};
    int64_t tb = ply_time_budget(s, &byo, &spend, &err);
    assert_true(tb >= 4000 && tb < 5000);
    assert_int_equal(spend, 1);
    /* a flagged clock still gives the move a millisecond */
    PlyClock none = {0};
    assert_int_equal(ply_time_budget(s, &none, NULL, &err), 1);
    /* bad clocks */
    PlyClock neg = {.left_ms = -5};
    assert_int_equal(ply_time_budget(s, &neg, NULL, &err), -1);
    assert_int_equal(err.code, PLY_E_ARGUMENT);
    assert_non_null(strstr(err.message, "left_ms"));
    PlyClock huge = {.left_ms = 1000, .inc_ms = PLY_CLOCK_MAX_MS + 1};
    assert_int_equal(ply_time_budget(s, &huge, NULL, &err), -1);
    assert_non_null(strstr(err.message, "inc_ms"));
    PlyClock togo = {.left_ms = 1000, .moves_to_go = -1};
    assert_int_equal(ply_time_budget(s, &togo, NULL, &err), -1);
    assert_int_equal(ply_time_budget(s, NULL, NULL, &err), -1);
    assert_int_equal(ply_time_budget(NULL, &c, NULL, &err), -1);
    assert_int_equal(err.code, PLY_E_ARGUMENT);
    PlyState *over = state("chess", NULL,
                           "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    assert_int_equal(ply_time_budget(over, &c, NULL, &err), -1);
    assert_int_equal(err.code, PLY_E_STATE);
    ply_state_free(over);

    /* A bot on a clock: a time in the limits caps the clock's (20 s
     * here, which a broken cap would spend). */
    PlyBot *b = ply_bot_new(game("chess"), "alphabeta", 3, &err);
    assert_non_null(b);
    PlyLimits cap = {.time_ms = 30};
    PlyClock big = {.left_ms = 20000, .moves_to_go = 1};
    PlyMove m;
    PlySearchInfo info;
    assert_int_equal(ply_bot_choose_clock(b, s, &big, &cap, &m, &info, &err),
                     0);
    assert_true(info.seconds < 5.0);
    PlyState *after = ply_state_clone(s, &err);
    assert_int_equal(ply_state_apply(after, m, &err), 0);
    ply_state_free(after);
    assert_int_equal(ply_bot_choose_clock(b, s, &neg, NULL, &m, &info, &err),
                     -1);
    assert_int_equal(err.code, PLY_E_ARGUMENT);
    assert_int_equal(ply_bot_choose_clock(b, s, NULL, NULL, &m, &info, &err),
                     -1);
    /* byoyomi is spent to the deadline: the search does not stop early
     * to bank time it would lose (a bound from below, which a loaded
     * machine cannot break) */
    PlyClock b300 = {.byoyomi_ms = 300};
    assert_int_equal(ply_bot_choose_clock(b, s, &b300, NULL, &m, &info, &err),
                     0);
    assert_true(info.seconds >= 0.2);
    ply_bot_free(b);

    /* A session on a clock. */
    PlySession *ps = ply_session_new(game("chess"), NULL, "alphabeta", 1,
                                     &err);
    assert_non_null(ps);
    assert_int_equal(ply_session_go_clock(ps, &big, &cap, &err), 0);
    assert_int_equal(ply_session_wait(ps, &m, &info, &err), 0);
    assert_true(info.seconds < 5.0);
    assert_int_equal(ply_session_go_clock(ps, &neg, NULL, &err), -1);
    assert_int_equal(err.code, PLY_E_ARGUMENT);
    /* a failed start leaves no search behind */
    assert_int_equal(ply_session_wait(ps, &m, &info, &err), -1);
    assert_int_equal(err.code, PLY_E_STATE);
    assert_int_equal(ply_session_go_clock(NULL, &c, NULL, &err), -1);
    ply_session_free(ps);
    ply_state_free(s);
}

static void test_match(void **unused)
{
    (void)unused;
    PlyError err;
    const char *bots[] = {"random", "greedy"};
    const PlyGame *g = game("draughts-russian");
    PlyMatch *mt = ply_match_new(g, NULL, bots, 2, 4, 9, &err);
    assert_non_null(mt);
    assert_int_equal(ply_match_set_openings(mt, 2, &err), 0);
    assert_int_equal(ply_match_total(mt), 4);
    PlyRecord *first = NULL;
    for (uint64_t i = 0; i < ply_match_total(mt); i++) {
        PlyRecord *r = ply_match_play(mt, i, &err);
        if (!r)
            fail_msg("%s", err.message);
        assert_int_equal(ply_record_index(r), i);
        assert_int_equal(ply_match_count(mt, r, &err), 0);
        /* seats alternate */
        assert_int_equal(ply_record_bot(r, 0), (int)(i % 2));
        assert_int_equal(ply_record_bot(r, 1), (int)(1 - i % 2));
        /* the moves replay to a terminal position with that result */
        PlyState *s = ply_state_new(g, NULL, ply_record_setup(r), 0, &err);
        assert_non_null(s);
        for (int k = 0; k < ply_record_num_moves(r); k++)
            if (ply_state_apply_text(s, ply_record_move(r, k), &err))
                fail_msg("move %d: %s", k, err.message);
        assert_string_equal(ply_record_reason(r), "normal");
        assert_true(ply_state_is_terminal(s));
        double ret[2];
        ply_state_returns(s, ret, 2);
        assert_true(ret[0] == ply_record_result(r, 0));
        assert_true(ret[1] == ply_record_result(r, 1));
        int w = ply_record_winner(r);
        assert_int_equal(w, ret[0] > ret[1] ? 0 : ret[1] > ret[0] ? 1 : -1);
        ply_state_free(s);
        char *json = ply_record_write(r, "json", &err);
        assert_non_null(json);
        assert_non_null(strstr(json, "\"draughts-russian\""));
        ply_free(json);
        char *pdn = ply_record_write(r, "pdn", &err);
        assert_non_null(pdn);
        assert_non_null(strstr(pdn, ply_record_move(r, 0)));
        ply_free(pdn);
        assert_null(ply_record_write(r, "kif", &err));
        assert_int_equal(err.code, PLY_E_NOT_FOUND);
        if (!first)
            first = r;
        else
            ply_record_free(r);
    }
    uint64_t tot = 0;
    for (int b = 0; b < 2; b++) {
        uint64_t w, d, l;
        assert_int_equal(ply_match_score(mt, b, &w, &d, &l, &err), 0);
        assert_int_equal(w + d + l, 4);
        tot += w;
    }
    assert_true(tot <= 4);
    assert_int_equal(ply_match_score(mt, 2, NULL, NULL, NULL, &err), -1);
    /* a record outlives its match; the same game replays identically */
    PlyMatch *again = ply_match_new(g, NULL, bots, 2, 4, 9, &err);
    assert_int_equal(ply_match_set_openings(again, 2, &err), 0);
    ply_match_free(mt);
    PlyRecord *r0 = ply_match_play(again, 0, &err);
    assert_non_null(r0);
    char *a = ply_record_write(first, "json", &err);
    char *b = ply_record_write(r0, "json", &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(a, b);
    ply_free(a);
    ply_free(b);
    ply_record_free(first);
    ply_record_free(r0);
    ply_match_free(again);
}

/* Players from options: splut players=2 is a duel of South and North,
 * its states, matches and records have two seats. */
static void test_seats_from_options(void **unused)
{
    (void)unused;
    PlyError err;
    const PlyGame *g = game("splut");
    assert_int_equal(ply_game_num_players(g), 4);
    PlyState *s = ply_state_new(g, "players=2", NULL, 0, &err);
    assert_non_null(s);
    assert_int_equal(ply_state_num_players(s), 2);
    assert_string_equal(ply_state_player_name(s, 1), "North");
    assert_null(ply_state_player_name(s, 2));
    assert_null(ply_state_player_name(NULL, 0));
    assert_int_equal(ply_state_num_players(NULL), 0);
    double ret[4] = {9, 9, 9, 9};
    assert_int_equal(ply_state_returns(s, ret, 4), 2);
    assert_true(ret[2] == 9);   /* only the players' entries written */
    ply_state_free(s);
    s = ply_state_new(g, "players=3", NULL, 0, &err);
    assert_int_equal(ply_state_num_players(s), 3);
    ply_state_free(s);
    s = ply_state_new(game("kalah"), NULL, NULL, 0, &err);
    assert_int_equal(ply_state_num_players(s), 2);
    assert_string_equal(ply_state_player_name(s, 0),
                        ply_game_player_name(game("kalah"), 0));
    ply_state_free(s);
    const char *bots[] = {"random", "random:seed=5"};
    PlyMatch *mt = ply_match_new(g, "players=2", bots, 2, 2, 3, &err);
    if (!mt)
        fail_msg("%s", err.message);
    assert_int_equal(ply_match_total(mt), 2);
    for (uint64_t i = 0; i < 2; i++) {
        PlyRecord *r = ply_match_play(mt, i, &err);
        assert_non_null(r);
        assert_int_equal(ply_record_num_seats(r), 2);
        assert_int_equal(ply_record_bot(r, 0), (int)(i % 2));
        assert_int_equal(ply_record_bot(r, 1), (int)(1 - i % 2));
        assert_int_equal(ply_record_bot(r, 2), -1);
        double a = ply_record_result(r, 0), b = ply_record_result(r, 1);
        assert_true((a == 1 && b == -1) || (a == -1 && b == 1) ||
                    (a == 0 && b == 0));
        ply_record_free(r);
    }
    ply_match_free(mt);
}

/* Games of one match played on two threads at once, each thread with
 * its own states and bots, give the records of a sequential run. */
typedef struct Worker {
    PlyMatch *m;
    uint64_t first;
    char *json[3];
    PlyState *s;
    int plies;
} Worker;

static void *worker(void *arg)
{
    Worker *w = arg;
    for (int k = 0; k < 3; k++) {
        PlyRecord *r = ply_match_play(w->m, w->first + 2 * (uint64_t)k,
                                      NULL);
        w->json[k] = r ? ply_record_write(r, "json", NULL) : NULL;
        if (r && ply_match_count(w->m, r, NULL))
            w->plies = -1000000;
        ply_record_free(r);
    }
    /* and a random game on a state of its own */
    PlyMove mv[64];
    int n;
    while ((n = ply_state_legal_moves(w->s, mv, 64)) > 0 &&
           !ply_state_apply(w->s, mv[(unsigned)w->plies * 7u % (unsigned)n],
                            NULL))
        w->plies++;
    return NULL;
}

static void test_threads(void **unused)
{
    (void)unused;
    const char *bots[] = {"mcts:nodes=100", "greedy"};
    PlyError err;
    PlyMatch *m = ply_match_new(game("kalah"), NULL, bots, 2, 6, 3, &err);
    assert_non_null(m);
    Worker w[2] = {{.m = m, .first = 0}, {.m = m, .first = 1}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++) {
        w[i].s = state("kalah", NULL, NULL);
        assert_int_equal(pthread_create(&th[i], NULL, worker, &w[i]), 0);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    /* every game counted once, from both threads */
    uint64_t games = 0;
    for (int b = 0; b < 2; b++) {
        uint64_t wins, draws, losses;
        assert_int_equal(ply_match_score(m, b, &wins, &draws, &losses, &err),
                         0);
        games += wins + draws + losses;
    }
    assert_int_equal(games, 2 * 6);
    for (int i = 0; i < 2; i++) {
        assert_true(ply_state_is_terminal(w[i].s));
        assert_int_equal(ply_state_history_length(w[i].s), w[i].plies);
        ply_state_free(w[i].s);
        for (int k = 0; k < 3; k++) {
            PlyRecord *r = ply_match_play(m, w[i].first + 2 * (uint64_t)k,
                                          &err);
            assert_non_null(r);
            char *seq = ply_record_write(r, "json", &err);
            assert_non_null(w[i].json[k]);
            assert_string_equal(w[i].json[k], seq);
            ply_free(seq);
            ply_free(w[i].json[k]);
            ply_record_free(r);
        }
    }
    ply_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_listings),
        cmocka_unit_test(test_start_positions),
        cmocka_unit_test(test_every_game_random),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_bots),
        cmocka_unit_test(test_session),
        cmocka_unit_test(test_clock),
        cmocka_unit_test(test_match),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_seats_from_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
