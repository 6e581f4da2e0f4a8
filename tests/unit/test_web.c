/* test_web.c — the web server's request handler (apps/web/web.h) called
 * without a socket: every endpoint of docs/web-api.md, malformed JSON,
 * unknown games and ids, illegal moves, oversized bodies, wrong methods,
 * the bound on games, the bot thinking in the background, and many
 * threads on many games and on one game at once. One test listens on a
 * loopback port and speaks raw HTTP to it. */
#include "testlib.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "apps/web/web.h"
#include "core/util.h"

static WebServer *server_trusting(int max_games, int trust)
{
    WebConfig c;
    web_config_default(&c);
    c.port = 0;
    c.seed = 42;
    c.max_games = max_games;
    c.max_body = 4096;
    c.trust_clients = trust;
    PlyError err = {{0}};
    WebServer *w = web_new(&c, &err);
    if (!w)
        fail_msg("web_new: %s", err.msg);
    return w;
}

static WebServer *server(int max_games)
{
    return server_trusting(max_games, 0);
}

/* One request: its status, and its body parsed as JSON (NULL when not
 * JSON). */
static json_t *req(WebServer *w, const char *method, const char *url,
                   const char *body, int *status)
{
    WebReply r;
    web_handle(w, method, url, body, body ? strlen(body) : 0, &r);
    *status = r.status;
    json_t *j = json_loadb(r.body ? r.body : "", r.len, 0, NULL);
    web_reply_free(&r);
    return j;
}

/* A request that must answer `want`; returns the JSON. */
static json_t *expect(WebServer *w, const char *method, const char *url,
                      const char *body, int want)
{
    int st;
    json_t *j = req(w, method, url, body, &st);
    if (st != want) {
        char *d = j ? json_dumps(j, 0) : NULL;
        fail_msg("%s %s %s: status %d, wanted %d: %s", method, url,
                 body ? body : "", st, want, d ? d : "(not JSON)");
    }
    if (want >= 400) {
        if (!j || !json_is_string(json_object_get(j, "error")))
            fail_msg("%s %s: no {\"error\": ...} in the %d reply", method,
                     url, st);
    }
    return j;
}

static void expect_error(WebServer *w, const char *method, const char *url,
                         const char *body, int want)
{
    json_decref(expect(w, method, url, body, want));
}

/* An error reply whose message contains `has`. */
static void expect_error_has(WebServer *w, const char *method,
                             const char *url, const char *body, int want,
                             const char *has)
{
    json_t *j = expect(w, method, url, body, want);
    const char *e = json_string_value(json_object_get(j, "error"));
    if (!strstr(e, has))
        fail_msg("%s %s %s: '%s' does not say '%s'", method, url,
                 body ? body : "", e, has);
    json_decref(j);
}

static const char *id_of(json_t *state, char *buf)
{
    const char *id = json_string_value(json_object_get(state, "id"));
    assert_non_null(id);
    assert_int_equal(strlen(id), 32);
    strcpy(buf, id);
    return buf;
}

static void url_of(char *out, size_t n, const char *id, const char *op)
{
    snprintf(out, n, "/api/games/%s%s%s", id, *op && *op != '?' ? "/" : "",
             op);
}

static void test_list(void **state)
{
    (void)state;
    WebServer *w = server(8);
    json_t *j = expect(w, "GET", "/api/games", NULL, 200);
    json_t *gs = json_object_get(j, "games");
    size_t n = 0;
    while (ply_games[n])
        n++;
    assert_int_equal(json_array_size(gs), n);
    int chess_pgn = 0, kalah_opts = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *g = json_array_get(gs, i);
        const char *name = json_string_value(json_object_get(g, "name"));
        assert_string_equal(name, ply_games[i]->info.name);
        assert_int_equal(json_array_size(json_object_get(g, "players")),
                         ply_games[i]->info.num_players);
        if (!strcmp(name, "chess"))
            chess_pgn = !strcmp(json_string_value(json_array_get(
                json_object_get(g, "formats"), 0)), "pgn");
        if (!strcmp(name, "kalah"))
            kalah_opts = (int)json_array_size(json_object_get(g, "options"));
    }
    assert_true(chess_pgn);
    assert_true(kalah_opts >= 2);
    json_t *bs = json_object_get(j, "bots");
    assert_true(json_array_size(bs) >= 4);
    json_decref(j);
    expect_error(w, "PUT", "/api/games", NULL, 405);
    expect_error(w, "GET", "/api/nothing", NULL, 404);
    web_free(w);
}

static void test_new_and_errors(void **state)
{
    (void)state;
    WebServer *w = server(8);
    expect_error(w, "POST", "/api/games", "{\"game\": \"no-such-game\"}", 404);
    expect_error(w, "POST", "/api/games", "{\"game\": \"chess\"", 400);
    expect_error(w, "POST", "/api/games", "[1, 2]", 400);
    expect_error(w, "POST", "/api/games", "{}", 400);
    expect_error(w, "POST", "/api/games", "{\"game\": 7}", 400);
    expect_error(w, "POST", "/api/games",
                 "{\"game\": \"chess\", \"setup\": \"not a fen\"}", 400);
    expect_error(w, "POST", "/api/games",
                 "{\"game\": \"kalah\", \"options\": \"houses=99\"}", 400);
    expect_error(w, "POST", "/api/games",
                 "{\"game\": \"chess\", \"moves\": \"e2e4 e2e4\"}", 400);
    expect_error(w, "POST", "/api/games",
                 "{\"game\": \"chess\", \"seats\": [\"human\", \"nobot\"]}",
                 400);
    expect_error(w, "POST", "/api/games",
                 "{\"game\": \"chess\", \"seats\": [\"human\", \"human\", "
                 "\"human\"]}", 400);
    expect_error(w, "POST", "/api/games",
                 "{\"game\": \"chess\", \"game\": \"go\"}", 400);
    /* too large: the handler's bound (the HTTP side has the same) */
    char *big = malloc(8000);
    memset(big, ' ', 7999);
    big[0] = '{';
    big[7997] = '}';
    big[7998] = 0;
    expect_error(w, "POST", "/api/games", big, 413);
    free(big);
    /* a move list longer than a game can be */
    size_t cap = 5 * 3000 + 64;
    char *many = malloc(cap);
    size_t k = (size_t)snprintf(many, cap, "{\"game\": \"chess\", \"moves\": \"");
    for (int i = 0; i < 600; i++)
        k += (size_t)snprintf(many + k, cap - k, "g1f3 ");
    snprintf(many + k, cap - k, "\"}");
    int st;
    json_decref(req(w, "POST", "/api/games", many, &st));
    assert_true(st == 413 || st == 400);
    free(many);
    assert_int_equal(web_game_count(w), 0);
    json_t *j = expect(w, "POST", "/api/games",
                       "{\"game\": \"kalah\", \"options\": \"houses=4,seeds=3\","
                       " \"moves\": \"1\"}", 201);
    assert_string_equal(json_string_value(json_object_get(j, "options")),
                        "houses=4,seeds=3");
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 1);
    json_decref(j);
    assert_int_equal(web_game_count(w), 1);
    web_free(w);
}

static void test_play_undo_redo(void **state)
{
    (void)state;
    WebServer *w = server(8);
    char id[40], url[128];
    json_t *j = expect(w, "POST", "/api/games",
                       "{\"game\": \"chess\", \"moves\": \"e2e4\"}", 201);
    id_of(j, id);
    assert_int_equal(json_integer_value(json_object_get(j, "to_move")), 1);
    assert_int_equal(json_array_size(json_object_get(j, "legal")), 20);
    assert_string_equal(json_string_value(json_object_get(json_object_get(
        j, "layout"), "kind")), "board");
    json_decref(j);

    url_of(url, sizeof url, id, "move");
    expect_error(w, "POST", url, "{\"move\": \"e7e4\"}", 400);
    expect_error(w, "POST", url, "{}", 400);
    expect_error(w, "POST", url, "{\"move\": 5}", 400);
    expect_error(w, "GET", url, NULL, 405);
    j = expect(w, "POST", url, "{\"move\": \"e7e5\"}", 200);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 2);
    assert_string_equal(json_string_value(json_array_get(
        json_object_get(j, "moves"), 1)), "e7e5");
    json_decref(j);

    url_of(url, sizeof url, id, "undo");
    j = expect(w, "POST", url, "{\"n\": 2}", 200);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 0);
    assert_int_equal(json_integer_value(json_object_get(j, "redo")), 2);
    json_decref(j);
    expect_error(w, "POST", url, "{\"n\": -1}", 400);
    url_of(url, sizeof url, id, "redo");
    j = expect(w, "POST", url, NULL, 200);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 1);
    json_decref(j);

    /* ?seat= is checked; a game without hidden parts shows everything */
    url_of(url, sizeof url, id, "?seat=9");
    expect_error(w, "GET", url, NULL, 400);
    url_of(url, sizeof url, id, "?seat=x");
    expect_error(w, "GET", url, NULL, 400);
    url_of(url, sizeof url, id, "?seat=0");
    j = expect(w, "GET", url, NULL, 200);
    assert_null(json_object_get(j, "view"));
    assert_int_equal(json_array_size(json_object_get(j, "legal")), 20);
    json_decref(j);

    url_of(url, sizeof url, id, "legal");
    j = expect(w, "GET", url, NULL, 200);
    json_t *legal = json_object_get(j, "legal");
    assert_int_equal(json_array_size(legal), 20);
    json_t *cells = json_object_get(json_array_get(legal, 0), "cells");
    assert_int_equal(json_array_size(cells), 2);
    json_decref(j);

    /* position: a new start, and a bad one changes nothing */
    url_of(url, sizeof url, id, "position");
    expect_error(w, "POST", url, "{\"setup\": \"8/8/8/8\"}", 400);
    j = expect(w, "POST", url, "{\"setup\": \"7k/5Q2/6K1/8/8/8/8/8 w - - 0 1\","
               " \"moves\": \"f7g7\"}", 200);
    assert_int_equal(json_integer_value(json_object_get(j, "to_move")), -1);
    json_t *res = json_object_get(j, "result");
    assert_true(json_is_object(res));
    assert_int_equal(json_integer_value(json_object_get(res, "winner")), 0);
    assert_string_equal(json_string_value(json_object_get(res, "reason")),
                        "checkmate");
    json_decref(j);
    url_of(url, sizeof url, id, "move");
    expect_error(w, "POST", url, "{\"move\": \"h8g8\"}", 409);

    /* records: the game's format, plain moves, an unknown format */
    url_of(url, sizeof url, id, "record?format=pgn");
    WebReply r;
    web_handle(w, "GET", url, NULL, 0, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "1-0"));
    assert_non_null(strstr(r.filename, ".pgn"));
    web_reply_free(&r);
    url_of(url, sizeof url, id, "record?format=moves");
    web_handle(w, "GET", url, NULL, 0, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "f7g7"));
    web_reply_free(&r);
    url_of(url, sizeof url, id, "record?format=kif");
    expect_error(w, "GET", url, NULL, 404);
    url_of(url, sizeof url, id, "record");
    expect_error(w, "GET", url, NULL, 400);

    /* delete, then the id is unknown */
    url_of(url, sizeof url, id, "");
    j = expect(w, "DELETE", url, NULL, 200);
    json_decref(j);
    expect_error(w, "GET", url, NULL, 404);
    expect_error(w, "GET", "/api/games/0123456789abcdef0123456789abcdef",
                 NULL, 404);
    expect_error(w, "GET", "/api/games/short", NULL, 404);
    expect_error(w, "GET", "/api/games/../../etc/passwd", NULL, 404);
    assert_int_equal(web_game_count(w), 0);
    web_free(w);
}

/* The game's moves and layouts across families: a drop, a pass, pits. */
/* A game with hidden information seen from a seat: dark chess's fog is
 * drawn (shade wall, nothing on it), no piece of the opponent stands in
 * it, and the opponent's moves are "?"; banqi hides nothing between the
 * players, so its moves and the flips' outcomes are shown. */
static void test_hidden_view(void **state)
{
    (void)state;
    WebServer *w = server(8);
    char id[40], url[128];
    json_t *j = expect(w, "POST", "/api/games",
                       "{\"game\": \"dark-chess\", \"seats\": [\"human\", "
                       "\"human\"], \"moves\": \"e2e4 b7b5\"}", 201);
    id_of(j, id);
    json_decref(j);
    for (int seat = 0; seat < 2; seat++) {
        char q[24];
        snprintf(q, sizeof q, "?seat=%d", seat);
        url_of(url, sizeof url, id, q);
        j = expect(w, "GET", url, NULL, 200);
        assert_int_equal(json_integer_value(json_object_get(j, "view")),
                         seat);
        json_t *ms = json_object_get(j, "moves");
        assert_string_equal(json_string_value(json_array_get(ms, 0)),
                            seat == 0 ? "e2e4" : "?");
        assert_string_equal(json_string_value(json_array_get(ms, 1)),
                            seat == 1 ? "b7b5" : "?");
        json_t *cells = json_object_get(json_object_get(j, "layout"),
                                        "cells");
        assert_int_equal(json_array_size(cells), 64);
        int fog = 0, theirs = 0, mine = 0;
        for (size_t i = 0; i < 64; i++) {
            json_t *c = json_array_get(cells, i);
            const char *sh = json_string_value(json_object_get(c, "shade"));
            json_t *o = json_object_get(c, "owner");
            int owner = o ? (int)json_integer_value(o) : -1;
            if (sh && !strcmp(sh, "wall")) {
                fog++;
                assert_null(json_object_get(c, "glyph"));
                assert_true(owner < 0);
            }
            theirs += owner == !seat;
            mine += owner == seat;
        }
        assert_int_equal(mine, 16);
        /* white sees b5 (the f1 bishop's diagonal); black not e4 */
        assert_int_equal(theirs, seat == 0);
        assert_true(fog > 20 && fog < 48);
        json_decref(j);
    }

    j = expect(w, "POST", "/api/games",
               "{\"game\": \"banqi\", \"seats\": [\"human\", \"human\"]}",
               201);
    id_of(j, id);
    json_decref(j);
    url_of(url, sizeof url, id, "move");
    json_decref(expect(w, "POST", url, "{\"move\": \"c3\"}", 200));
    url_of(url, sizeof url, id, "?seat=1");
    j = expect(w, "GET", url, NULL, 200);
    json_t *ms = json_object_get(j, "moves");
    assert_string_equal(json_string_value(json_array_get(ms, 0)), "c3");
    assert_int_equal(json_string_value(json_array_get(ms, 1))[0], '=');
    json_t *cells = json_object_get(json_object_get(j, "layout"), "cells");
    assert_int_equal(json_array_size(cells), 32);
    int down = 0;
    for (size_t i = 0; i < 32; i++) {
        const char *g = json_string_value(json_object_get(
            json_array_get(cells, i), "glyph"));
        down += g && !strcmp(g, "?");
    }
    assert_int_equal(down, 31);
    json_decref(j);
    web_free(w);
}

static void test_families(void **state)
{
    (void)state;
    WebServer *w = server(8);
    static const char *const games[] = {
        "{\"game\": \"shogi\", \"moves\": \"7g7f 3c3d 8h2b+ 3a2b\"}",
        "{\"game\": \"reversi\"}",
        "{\"game\": \"kalah\"}",
        "{\"game\": \"draughts-russian\"}",
        "{\"game\": \"vindinium\"}",
        "{\"game\": \"go\", \"options\": \"size=9\"}",
    };
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        json_t *j = expect(w, "POST", "/api/games", games[i], 201);
        json_t *cells = json_object_get(json_object_get(j, "layout"),
                                        "cells");
        assert_true(json_array_size(cells) > 0);
        json_t *legal = json_object_get(j, "legal");
        assert_true(json_array_size(legal) > 0);
        if (i == 0) {
            /* Black has a bishop in hand: a drop starts at the hand */
            int drops = 0;
            for (size_t k = 0; k < json_array_size(legal); k++) {
                const char *t = json_string_value(json_object_get(
                    json_array_get(legal, k), "text"));
                json_t *c = json_object_get(json_array_get(legal, k),
                                            "cells");
                if (t[1] == '*') {
                    drops++;
                    int hand = (int)json_integer_value(json_array_get(c, 0));
                    assert_string_equal(json_string_value(json_object_get(
                        json_array_get(cells, (size_t)hand), "shape")),
                        "hand");
                }
            }
            assert_true(drops > 0);
        }
        json_decref(j);
    }
    web_free(w);
}

/* The bot thinks in the background; polls see it end and play. */
static void test_bot(void **state)
{
    (void)state;
    WebServer *w = server(8);
    char id[40], url[128];
    json_t *j = expect(w, "POST", "/api/games",
                       "{\"game\": \"kalah\", \"seats\": [\"human\", "
                       "\"alphabeta:time=50ms\"], \"moves\": \"2\"}", 201);
    id_of(j, id);
    json_decref(j);
    url_of(url, sizeof url, id, "go");
    expect_error(w, "POST", url, "{\"seat\": 0}", 409);
    expect_error(w, "POST", url, "{\"seat\": 9}", 400);
    expect_error(w, "POST", url, "{\"bot\": \"nobot\"}", 400);
    j = expect(w, "POST", url, "{\"seat\": 1}", 202);
    json_decref(j);
    expect_error(w, "POST", url, "{}", 409);
    url_of(url, sizeof url, id, "think");
    int done = 0;
    for (int i = 0; i < 400 && !done; i++) {
        j = expect(w, "GET", url, NULL, 200);
        done = !strcmp(json_string_value(json_object_get(j, "state")),
                       "done");
        if (done)
            assert_true(json_is_true(json_object_get(j, "played")));
        json_decref(j);
        if (!done)
            usleep(10000);
    }
    assert_true(done);
    url_of(url, sizeof url, id, "");
    j = expect(w, "GET", url, NULL, 200);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 2);
    json_decref(j);

    /* analysis: infinite until stopped, nothing played */
    url_of(url, sizeof url, id, "go");
    j = expect(w, "POST", url, "{\"infinite\": true, \"bot\": \"mcts\"}", 202);
    json_decref(j);
    usleep(30000);
    url_of(url, sizeof url, id, "stop");
    j = expect(w, "POST", url, NULL, 200);
    assert_string_equal(json_string_value(json_object_get(j, "state")),
                        "done");
    assert_true(json_is_false(json_object_get(j, "played")));
    assert_non_null(json_string_value(json_object_get(j, "best")));
    json_decref(j);
    url_of(url, sizeof url, id, "");
    j = expect(w, "GET", url, NULL, 200);
    assert_int_equal(json_integer_value(json_object_get(j, "ply")), 2);
    json_decref(j);

    /* wait_ms: the answer comes when a quick search is over, with the
     * new state */
    url_of(url, sizeof url, id, "go");
    j = expect(w, "POST", url, "{\"time_ms\": 30, \"wait_ms\": 3000, "
               "\"bot\": \"alphabeta\"}", 202);
    assert_string_equal(json_string_value(json_object_get(j, "state")),
                        "done");
    assert_true(json_is_true(json_object_get(j, "played")));
    assert_int_equal(json_integer_value(json_object_get(json_object_get(
        j, "game"), "ply")), 3);
    json_decref(j);
    url_of(url, sizeof url, id, "think?wait_ms=x");
    expect_error(w, "GET", url, NULL, 400);
    url_of(url, sizeof url, id, "go");
    json_decref(expect(w, "POST", url, "{\"time_ms\": 30}", 202));
    url_of(url, sizeof url, id, "think?wait_ms=3000");
    j = expect(w, "GET", url, NULL, 200);
    assert_string_equal(json_string_value(json_object_get(j, "state")),
                        "done");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(
        j, "game"), "ply")), 4);
    json_decref(j);

    /* a move while the bot thinks cancels it */
    url_of(url, sizeof url, id, "go");
    json_decref(expect(w, "POST", url, "{\"time_ms\": 5000}", 202));
    url_of(url, sizeof url, id, "legal");
    j = expect(w, "GET", url, NULL, 200);
    char mv[64];
    snprintf(mv, sizeof mv, "{\"move\": \"%s\"}", json_string_value(
        json_object_get(json_array_get(json_object_get(j, "legal"), 0),
                        "text")));
    json_decref(j);
    url_of(url, sizeof url, id, "move");
    j = expect(w, "POST", url, mv, 200);
    assert_string_equal(json_string_value(json_object_get(json_object_get(
        j, "bot"), "state")), "idle");
    json_decref(j);
    /* deleting a game whose bot thinks */
    url_of(url, sizeof url, id, "go");
    json_decref(expect(w, "POST", url, "{\"time_ms\": 5000}", 202));
    url_of(url, sizeof url, id, "");
    json_decref(expect(w, "DELETE", url, NULL, 200));
    web_free(w);
}

/* Every registered game, bots on every seat, played through the API (the
 * page's watch mode): to its end with PLY_SLOW, else its first 200
 * plies (most games end sooner). */
static void test_sweep(void **state)
{
    (void)state;
    WebServer *w = server(8);
    for (int i = 0; ply_games[i]; i++) {
        const GameVtbl *g = ply_games[i];
        char body[256], id[40], url[128];
        snprintf(body, sizeof body, "{\"game\": \"%s\", \"seed\": 5}",
                 g->info.name);
        json_t *j = expect(w, "POST", "/api/games", body, 201);
        id_of(j, id);
        json_decref(j);
        url_of(url, sizeof url, id, "go");
        int over = 0, plies = 0;
        int cap = tl_slow() ? g->info.max_game_length : 200;
        for (int k = 0; k <= cap && !over; k++) {
            j = expect(w, "POST", url, "{\"bot\": \"random\", "
                       "\"wait_ms\": 1000}", 202);
            json_t *st = json_object_get(j, "game");
            if (!st)
                fail_msg("%s: the random bot took over a second", g->info.name);
            plies = (int)json_integer_value(json_object_get(st, "ply"));
            over = json_is_object(json_object_get(st, "result"));
            if (over && json_integer_value(json_object_get(st, "to_move"))
                != -1)
                fail_msg("%s: a result while a player is to move",
                         g->info.name);
            json_decref(j);
        }
        if (!over && plies < cap)
            fail_msg("%s: not over after %d plies", g->info.name, plies);
        print_message("%s: %s after %d plies\n", g->info.name,
                      over ? "over" : "still going", plies);
        url_of(url, sizeof url, id, "go");
        if (over)
            expect_error(w, "POST", url, "{}", 409);
        url_of(url, sizeof url, id, "");
        json_decref(expect(w, "DELETE", url, NULL, 200));
    }
    web_free(w);
}

static void test_bounds(void **state)
{
    (void)state;
    WebServer *w = server(3);
    char ids[4][40];
    for (int i = 0; i < 4; i++) {
        json_t *j = expect(w, "POST", "/api/games",
                           "{\"game\": \"reversi\"}", 201);
        id_of(j, ids[i]);
        json_decref(j);
        usleep(2000);
    }
    assert_int_equal(web_game_count(w), 3);
    char url[128];
    url_of(url, sizeof url, ids[0], "");
    expect_error(w, "GET", url, NULL, 404);     /* the idlest went */
    for (int i = 1; i < 4; i++) {
        url_of(url, sizeof url, ids[i], "");
        json_decref(expect(w, "GET", url, NULL, 200));
    }
    web_free(w);
}

/* What an untrusted client may ask of the host: no files, no nested
 * specs, no costly option above its default, in seats, in go and in game
 * options; --trust-clients (trust_clients) lifts it. */
static void test_untrusted_clients(void **state)
{
    (void)state;
    WebServer *w = server(16);
    static const char *const refused[][2] = {
        {"alphabeta:hash=17", "hash=17"},
        {"alphabeta:threads=2", "threads=2"},
        {"alphabeta:weights=/etc/hostname", "'weights'"},
        {"alphabeta:net=/etc/hostname", "'net'"},
        {"mcts:mem=300", "mem="},
        {"mcts:threads=4", "threads=4"},
        {"pimc:inner=random", "'inner'"},
        {"greedy:fallback=alphabeta;hash=4096", "'fallback'"},
    };
    char body[256], url[128], id[40];
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        snprintf(body, sizeof body, "{\"game\": \"chess\", \"seats\": "
                 "[\"human\", \"%s\"]}", refused[i][0]);
        expect_error_has(w, "POST", "/api/games", body, 400, refused[i][1]);
    }
    /* the defaults, lower values and limits are fine */
    json_t *j = expect(w, "POST", "/api/games", "{\"game\": \"chess\", "
                       "\"seats\": [\"alphabeta:hash=16,depth=2\", "
                       "\"mcts:mem=64,threads=1,iters=100\"]}", 201);
    id_of(j, id);
    json_decref(j);
    url_of(url, sizeof url, id, "go");
    expect_error_has(w, "POST", url, "{\"bot\": \"alphabeta:hash=64,"
                     "depth=1\"}", 400, "at most 16");
    json_decref(expect(w, "POST", url, "{\"bot\": \"alphabeta:hash=8,"
                       "depth=1\", \"wait_ms\": 1000}", 202));
    /* game options: kalah's databases no bigger than the default */
    expect_error_has(w, "POST", "/api/games", "{\"game\": \"kalah\", "
                     "\"options\": \"dbseeds=12\"}", 400, "dbseeds=12");
    json_decref(expect(w, "POST", "/api/games", "{\"game\": \"kalah\", "
                       "\"options\": \"dbseeds=0,houses=4\"}", 201));
    web_free(w);

    /* trusted: the same specs reach the bots (a missing file is the
     * bot's own error, not the guard's) */
    w = server_trusting(16, 1);
    json_decref(expect(w, "POST", "/api/games", "{\"game\": \"chess\", "
                       "\"seats\": [\"human\", \"alphabeta:hash=17,"
                       "threads=2\"]}", 201));
    expect_error_has(w, "POST", "/api/games", "{\"game\": \"chess\", "
                     "\"seats\": [\"human\", \"alphabeta:weights="
                     "/nonexistent/w\"]}", 400, "cannot open");
    web_free(w);
}

/* A game dropped while its finished search was not collected gives its
 * search slot back. */
static void test_search_slots(void **state)
{
    (void)state;
    WebConfig c;
    web_config_default(&c);
    c.seed = 9;
    c.max_games = 1;
    c.max_searches = 1;
    PlyError err = {{0}};
    WebServer *w = web_new(&c, &err);
    assert_non_null(w);
    char id[40], id2[40], url[128];
    json_t *j = expect(w, "POST", "/api/games", "{\"game\": \"kalah\"}",
                       201);
    id_of(j, id);
    json_decref(j);
    url_of(url, sizeof url, id, "go");
    json_decref(expect(w, "POST", url, "{\"time_ms\": 10}", 202));
    /* done but not collected (nothing asked since): the game may go */
    usleep(300000);
    j = expect(w, "POST", "/api/games", "{\"game\": \"kalah\"}", 201);
    id_of(j, id2);
    json_decref(j);
    url_of(url, sizeof url, id2, "go");
    assert_int_equal(web_game_count(w), 1);
    url_of(url, sizeof url, id, "");
    expect_error(w, "GET", url, NULL, 404);     /* the first went */
    url_of(url, sizeof url, id2, "go");
    json_decref(expect(w, "POST", url, "{\"time_ms\": 10}", 202));
    web_free(w);
}

static void test_files(void **state)
{
    (void)state;
    WebServer *w = server(3);
    WebReply r;
    web_handle(w, "GET", "/", NULL, 0, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.type, "text/html"));
    web_reply_free(&r);
    web_handle(w, "GET", "/../../etc/passwd", NULL, 0, &r);
    assert_int_equal(r.status, 404);
    web_reply_free(&r);
    web_handle(w, "GET", "/no-such-file.js", NULL, 0, &r);
    assert_int_equal(r.status, 404);
    web_reply_free(&r);
    web_handle(w, "POST", "/index.html", "x", 1, &r);
    assert_int_equal(r.status, 405);
    web_reply_free(&r);
    web_handle(w, "POST", "/api/games", "{\"game\":\0\"chess\"}", 17, &r);
    assert_int_equal(r.status, 400);
    web_reply_free(&r);
    web_free(w);
}

/* ---- threads */

typedef struct Worker {
    WebServer *w;
    const char *shared;     /* a game every worker plays on, or NULL */
    int id, errors;
} Worker;

static void *worker(void *arg)
{
    Worker *k = arg;
    char id[40], url[128];
    int st;
    json_t *j = req(k->w, "POST", "/api/games",
                    "{\"game\": \"draughts-russian\"}", &st);
    if (st != 201) {
        k->errors++;
        json_decref(j);
        return NULL;
    }
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(j, "id")));
    json_decref(j);
    Rng r;
    rng_seed(&r, (uint64_t)k->id + 1);
    for (int step = 0; step < 40; step++) {
        const char *gid = k->shared && step % 2 ? k->shared : id;
        url_of(url, sizeof url, gid, "legal");
        j = req(k->w, "GET", url, NULL, &st);
        if (st != 200) {
            k->errors++;
            json_decref(j);
            break;
        }
        json_t *legal = json_object_get(j, "legal");
        size_t n = json_array_size(legal);
        if (!n) {
            json_decref(j);
            url_of(url, sizeof url, gid, "undo");
            json_decref(req(k->w, "POST", url, "{\"n\": 4}", &st));
            continue;
        }
        char body[128];
        snprintf(body, sizeof body, "{\"move\": \"%s\"}",
                 json_string_value(json_object_get(json_array_get(legal,
                     rng_below(&r, (uint32_t)n)), "text")));
        json_decref(j);
        url_of(url, sizeof url, gid, "move");
        json_decref(req(k->w, "POST", url, body, &st));
        /* on the shared game another thread may have moved first */
        if (st != 200 && !(gid == k->shared && (st == 400 || st == 409)))
            k->errors++;
        if (step % 10 == 9) {
            url_of(url, sizeof url, gid, "go");
            json_decref(req(k->w, "POST", url, "{\"time_ms\": 20}", &st));
            url_of(url, sizeof url, gid, "think");
            json_decref(req(k->w, "GET", url, NULL, &st));
            if (st != 200)
                k->errors++;
        }
    }
    url_of(url, sizeof url, id, "");
    json_decref(req(k->w, "DELETE", url, NULL, &st));
    if (st != 200)
        k->errors++;
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    WebServer *w = server(64);
    char shared[40];
    json_t *j = expect(w, "POST", "/api/games",
                       "{\"game\": \"draughts-russian\"}", 201);
    id_of(j, shared);
    json_decref(j);
    enum { N = 6 };
    pthread_t t[N];
    Worker k[N];
    for (int i = 0; i < N; i++) {
        k[i] = (Worker){w, shared, i, 0};
        assert_int_equal(pthread_create(&t[i], NULL, worker, &k[i]), 0);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(k[i].errors, 0);
    }
    assert_int_equal(web_game_count(w), 1);
    web_free(w);
}

/* Over a socket: raw HTTP on loopback. */
static int http(int port, const char *request, char *out, size_t n)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a))
        return -1;
    size_t len = strlen(request);
    if (write(fd, request, len) != (ssize_t)len) {
        close(fd);
        return -1;
    }
    size_t got = 0;
    ssize_t k;
    while (got + 1 < n && (k = read(fd, out + got, n - 1 - got)) > 0)
        got += (size_t)k;
    out[got] = 0;
    close(fd);
    return (int)got;
}

static void test_socket(void **state)
{
    (void)state;
    WebServer *w = server(8);
    PlyError err = {{0}};
    if (web_listen(w, &err))
        fail_msg("listen: %s", err.msg);
    int port = web_port(w);
    assert_true(port > 0);
    static char buf[1 << 16];
    assert_true(http(port, "GET /api/games HTTP/1.1\r\nHost: x\r\n"
                     "Connection: close\r\n\r\n", buf, sizeof buf) > 0);
    assert_non_null(strstr(buf, "200 OK"));
    assert_non_null(strstr(buf, "\"games\""));
    const char *body = "{\"game\": \"reversi\"}";
    char rq[512];
    snprintf(rq, sizeof rq, "POST /api/games HTTP/1.1\r\nHost: x\r\n"
             "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
             strlen(body), body);
    assert_true(http(port, rq, buf, sizeof buf) > 0);
    assert_non_null(strstr(buf, "201 Created"));
    char *idp = strstr(buf, "\"id\":\"");
    assert_non_null(idp);
    char id[33];
    memcpy(id, idp + 6, 32);
    id[32] = 0;
    snprintf(rq, sizeof rq, "GET /api/games/%s/record?format=moves HTTP/1.1"
             "\r\nHost: x\r\nConnection: close\r\n\r\n", id);
    assert_true(http(port, rq, buf, sizeof buf) > 0);
    assert_non_null(strstr(buf, "200 OK"));
    assert_non_null(strstr(buf, "Content-Disposition: attachment"));
    /* a body over the bound: 413 without reading it all */
    snprintf(rq, sizeof rq, "POST /api/games HTTP/1.1\r\nHost: x\r\n"
             "Content-Length: 100000\r\nConnection: close\r\n\r\n{");
    char *big = malloc(110000);
    size_t l = strlen(rq);
    memcpy(big, rq, l);
    memset(big + l, ' ', 100000 - 1);
    big[l + 100000 - 1] = 0;
    assert_true(http(port, big, buf, sizeof buf) > 0);
    free(big);
    assert_non_null(strstr(buf, "413"));
    web_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_new_and_errors),
        cmocka_unit_test(test_play_undo_redo),
        cmocka_unit_test(test_hidden_view),
        cmocka_unit_test(test_families),
        cmocka_unit_test(test_bot),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_untrusted_clients),
        cmocka_unit_test(test_search_slots),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_socket),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
