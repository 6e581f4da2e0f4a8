/* test_vdserver.c — the Vindinium server through raw HTTP: clients
 * written here speak HTTP/1.0 (a connection per request) and HTTP/1.1
 * keep-alive over loopback. A full arena game with four clients, a
 * training game, the official error answers, a client that stops
 * answering, and replays and ratings after a restart. */
#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "testlib.h"

#include "apps/vindinium/client.h"
#include "apps/vindinium/server.h"

#include <curl/curl.h>

typedef struct Conn {
    int fd;
    int port;
    int http10;
} Conn;

static int conn_open(Conn *c)
{
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (c->fd < 0)
        return -1;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)c->port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct timeval tv = {20, 0};
    setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return connect(c->fd, (struct sockaddr *)&sa, sizeof sa);
}

static void conn_close(Conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

static int send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Sends raw bytes, reads one response: status (or -1), body in *body
 * (malloc'ed, NUL-terminated). HTTP/1.0 connections are reopened per
 * request; keep-alive ones reused. */
static int read_response(Conn *c, char **body);

static int exchange_raw(Conn *c, const char *req, size_t len, char **body)
{
    *body = NULL;
    if (c->http10 || c->fd < 0) {
        conn_close(c);
        if (conn_open(c))
            return -1;
    }
    if (send_all(c->fd, req, len))
        return -1;
    return read_response(c, body);
}

/* Reads one response on c (status, or -1). */
static int read_response(Conn *c, char **body)
{
    *body = NULL;
    size_t cap = 4096, n = 0, hdr = 0;   /* hdr: offset of the body */
    char *buf = malloc(cap);
    long clen = -1;
    for (;;) {
        if (n + 1 >= cap)
            buf = realloc(buf, cap *= 2);
        ssize_t r = recv(c->fd, buf + n, cap - n - 1, 0);
        if (r <= 0)
            break;
        n += (size_t)r;
        buf[n] = 0;
        char *e;
        if (!hdr && (e = strstr(buf, "\r\n\r\n"))) {
            hdr = (size_t)(e + 4 - buf);
            char *cl = strcasestr(buf, "\r\nContent-Length:");
            if (cl && cl < e)
                clen = strtol(cl + 17, NULL, 10);
        }
        if (hdr && clen >= 0 && n >= hdr + (size_t)clen)
            break;
    }
    if (!hdr) {
        free(buf);
        conn_close(c);
        return -1;
    }
    char *hdr_end = buf + hdr - 4;
    int status = -1;
    sscanf(buf, "HTTP/1.%*d %d", &status);
    size_t off = (size_t)(hdr_end + 4 - buf);
    size_t blen = clen >= 0 ? (size_t)clen : n - off;
    *body = malloc(blen + 1);
    memcpy(*body, buf + off, blen);
    (*body)[blen] = 0;
    int closes = strcasestr(buf, "\r\nConnection: close") != NULL &&
                 strcasestr(buf, "\r\nConnection: close") < hdr_end;
    free(buf);
    if (c->http10 || closes)
        conn_close(c);
    return status;
}

static int post(Conn *c, const char *path, const char *form, char **body)
{
    size_t cap = strlen(form) + 512;
    char *req = malloc(cap);
    int n = snprintf(req, cap,
                     "POST %s HTTP/1.%d\r\nHost: 127.0.0.1:%d\r\n"
                     "Content-Type: application/x-www-form-urlencoded\r\n"
                     "Content-Length: %zu\r\n%s\r\n%s", path,
                     c->http10 ? 0 : 1, c->port, strlen(form),
                     c->http10 ? "" : "Connection: keep-alive\r\n", form);
    int st = exchange_raw(c, req, (size_t)n, body);
    free(req);
    return st;
}

/* Sends a keep-alive POST on an open connection without reading. */
static void send_post(Conn *c, const char *path, const char *form)
{
    char req[1024];
    if (c->fd < 0)
        assert_int_equal(conn_open(c), 0);
    int n = snprintf(req, sizeof req,
                     "POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                     "Content-Type: application/x-www-form-urlencoded\r\n"
                     "Content-Length: %zu\r\n\r\n%s", path, c->port,
                     strlen(form), form);
    assert_int_equal(send_all(c->fd, req, (size_t)n), 0);
}

static int get(Conn *c, const char *path, char **body)
{
    char req[1024];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.%d\r\nHost: "
                     "127.0.0.1:%d\r\n\r\n", path, c->http10 ? 0 : 1,
                     c->port);
    return exchange_raw(c, req, (size_t)n, body);
}

/* The path of playUrl in a state. */
static void play_path(json_t *j, char *out, size_t n)
{
    const char *u = json_string_value(json_object_get(j, "playUrl"));
    assert_non_null(u);
    const char *p = strstr(u, "/api/");
    assert_non_null(p);
    snprintf(out, n, "%s", p);
}

static VdServer *start(const char *db, int timeout_ms, int arena_turns)
{
    VdsConfig cfg;
    vds_config_default(&cfg);
    cfg.port = 0;
    cfg.db_path = db;
    cfg.timeout_ms = timeout_ms;
    cfg.arena_turns = arena_turns;
    cfg.seed = 42;
    PlyError err = {{0}};
    VdServer *s = vds_start(&cfg, &err);
    if (!s)
        fail_msg("server: %s", err.msg);
    return s;
}

/* ---- a full arena game, four clients ---- */

typedef struct Player {
    int port, http10, id;
    char key[16];
    char game_id[16];
    int moves, hero, final_turn, ok;
    int gold[4];
} Player;

static void *player_run(void *arg)
{
    Player *p = arg;
    Conn c = {-1, p->port, p->http10};
    char *body;
    char form[64];
    snprintf(form, sizeof form, "key=%s", p->key);
    int st = post(&c, "/api/arena", form, &body);
    json_t *j = st == 200 ? json_loads(body, 0, NULL) : NULL;
    free(body);
    static const char *const dirs[] = {"North", "East", "South", "West",
                                       "Stay"};
    while (j) {
        json_t *game = json_object_get(j, "game");
        p->hero = (int)json_integer_value(json_object_get(
            json_object_get(j, "hero"), "id"));
        snprintf(p->game_id, sizeof p->game_id, "%s",
                 json_string_value(json_object_get(game, "id")));
        if (json_is_true(json_object_get(game, "finished"))) {
            p->final_turn = (int)json_integer_value(json_object_get(game,
                                                                    "turn"));
            json_t *hs = json_object_get(game, "heroes");
            for (int h = 0; h < 4; h++)
                p->gold[h] = (int)json_integer_value(json_object_get(
                    json_array_get(hs, (size_t)h), "gold"));
            p->ok = 1;
            break;
        }
        /* it is our turn: the state says so */
        int turn = (int)json_integer_value(json_object_get(game, "turn"));
        if (turn % 4 + 1 != p->hero)
            break;
        char path[256];
        play_path(j, path, sizeof path);
        json_decref(j);
        j = NULL;
        snprintf(form, sizeof form, "key=%s&dir=%s", p->key,
                 dirs[(p->moves + p->id) % 5]);
        st = post(&c, path, form, &body);
        p->moves++;
        if (st == 200)
            j = json_loads(body, 0, NULL);
        free(body);
    }
    json_decref(j);
    conn_close(&c);
    return NULL;
}

static void test_arena_game(void **state)
{
    (void)state;
    VdServer *s = start(":memory:", 2000, 80);
    Player p[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        memset(&p[i], 0, sizeof p[i]);
        p[i].port = vds_port(s);
        p[i].http10 = i % 2;          /* two HTTP/1.0, two keep-alive */
        p[i].id = i;
        snprintf(p[i].key, sizeof p[i].key, "player%d", i);
        pthread_create(&t[i], NULL, player_run, &p[i]);
        usleep(20000);                /* join in order: hero i+1 */
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    int heroes = 0;
    for (int i = 0; i < 4; i++) {
        assert_true(p[i].ok);
        assert_int_equal(p[i].final_turn, 80);
        assert_int_equal(p[i].moves, 20);
        assert_string_equal(p[i].game_id, p[0].game_id);
        assert_memory_equal(p[i].gold, p[0].gold, sizeof p[0].gold);
        heroes |= 1 << p[i].hero;
    }
    assert_int_equal(heroes, 0x1e);   /* heroes 1..4, one each */
    vds_stop(s);
}

/* ---- training, errors, time-outs, restart ---- */

/* The body of a 200 answer as JSON (body is read after the call). */
static json_t *must_json(int status, char **body)
{
    if (status != 200)
        fail_msg("status %d: %s", status, *body ? *body : "");
    json_t *j = json_loads(*body, 0, NULL);
    if (!j)
        fail_msg("not JSON: %.200s", *body);
    free(*body);
    *body = NULL;
    return j;
}

static void test_training_and_errors(void **state)
{
    (void)state;
    char db[] = "/tmp/ply-vdtest-XXXXXX";
    int fd = mkstemp(db);
    assert_true(fd >= 0);
    close(fd);
    VdServer *s = start(db, 2000, 1200);
    Conn c10 = {-1, vds_port(s), 1}, c11 = {-1, vds_port(s), 0};
    char *body;

    /* a short training game on m1 over HTTP/1.0 */
    json_t *j = must_json(post(&c10, "/api/training",
                               "key=trainer1&turns=5&map=m1", &body), &body);
    json_t *game = json_object_get(j, "game");
    assert_int_equal(json_integer_value(json_object_get(game, "maxTurns")),
                     20);
    assert_int_equal(json_integer_value(json_object_get(game, "turn")), 0);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(game, "board"), "size")), 10);
    json_t *h3 = json_array_get(json_object_get(game, "heroes"), 2);
    assert_string_equal(json_string_value(json_object_get(h3, "name")),
                        "random");
    assert_null(json_object_get(h3, "elo"));      /* server bots: no elo */
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(h3, "spawnPos"), "x")), 9);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(h3, "spawnPos"), "y")), 8);
    char path[256], id[16], bad[300];
    play_path(j, path, sizeof path);
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(game,
                                                                    "id")));
    json_decref(j);

    /* malformed requests, each with the official answer */
    int st = post(&c11, path, "dir=", &body);
    assert_int_equal(st, 400);
    assert_string_equal(body, "");
    free(body);
    st = post(&c11, "/api/training", "turns=3", &body);
    assert_int_equal(st, 400);
    assert_string_equal(body, "Did you forget the key parameter?");
    free(body);
    st = post(&c11, "/api/training", "key=abc&turns=many", &body);
    assert_int_equal(st, 400);
    assert_string_equal(body, "Did you forget the key parameter?");
    free(body);
    st = post(&c11, "/api/arena", "key=bad%20key%21", &body);
    assert_int_equal(st, 400);
    assert_string_equal(body, "Vindinium - Key not found");
    free(body);
    st = post(&c11, "/api/zzzzzzzz/abcd/play", "dir=North", &body);
    assert_int_equal(st, 404);
    assert_string_equal(body, "Vindinium - Unknown game zzzzzzzz");
    free(body);
    snprintf(bad, sizeof bad, "/api/%s/zzzz/play", id);
    st = post(&c11, bad, "dir=North", &body);
    assert_int_equal(st, 404);
    assert_string_equal(body, "Vindinium - Wrong or expired token");
    free(body);
    st = post(&c11, "/api/training", "key=abc&map=@1@2", &body);
    assert_int_equal(st, 400);
    assert_string_equal(body, "Vindinium - @1@2");
    free(body);
    {
        /* an oversized body is refused, the connection answered */
        size_t big = 40000;
        char *form = malloc(big + 16);
        memcpy(form, "key=", 4);
        memset(form + 4, 'a', big);
        form[big + 4] = 0;
        Conn cb = {-1, vds_port(s), 1};
        st = post(&cb, "/api/training", form, &body);
        assert_int_equal(st, 413);
        free(body);
        free(form);
        conn_close(&cb);
    }
    {
        Conn cg = {-1, vds_port(s), 1};
        static const char garbage[] = "\x01\x02\xff garbage\r\n\r\n";
        st = exchange_raw(&cg, garbage, sizeof garbage - 1, &body);
        assert_true(st >= 400 && st < 500);
        free(body);
        conn_close(&cg);
    }
    /* "Up" is not a direction: the official server plays Stay */
    st = post(&c11, path, "dir=Up", &body);
    j = must_json(st, &body);
    game = json_object_get(j, "game");
    assert_int_equal(json_integer_value(json_object_get(game, "turn")), 4);
    assert_string_equal(json_string_value(json_object_get(
                            json_object_get(j, "hero"), "lastDir")), "Stay");
    json_decref(j);
    /* the rest of the game over keep-alive, a few directions */
    int turn = 4;
    static const char *const dirs[] = {"dir=north", "dir= EAST ",
                                       "dir=South", "dir=West"};
    for (int i = 0; turn < 20; i++) {
        j = must_json(post(&c11, path, dirs[i % 4], &body), &body);
        game = json_object_get(j, "game");
        turn = (int)json_integer_value(json_object_get(game, "turn"));
        if (turn < 20)
            assert_false(json_is_true(json_object_get(game, "finished")));
        json_decref(j);
    }
    assert_int_equal(turn, 20);
    st = post(&c11, path, "dir=North", &body);
    assert_int_equal(st, 400);
    assert_string_equal(body, "Vindinium - The game is finished");
    free(body);

    /* a training player that stops answering is crashed; the game ends
     * without a step and later moves are refused */
    VdServer *fast;
    vds_stop(s);
    {
        VdsConfig cfg;
        vds_config_default(&cfg);
        cfg.port = 0;
        cfg.db_path = db;
        cfg.timeout_ms = 150;
        cfg.seed = 7;
        PlyError err = {{0}};
        fast = vds_start(&cfg, &err);
        assert_non_null(fast);
    }
    Conn cf = {-1, vds_port(fast), 0};
    j = must_json(post(&cf, "/api/training", "key=sleepy&map=m2", &body),
                  &body);
    char path2[256], id2[16];
    play_path(j, path2, sizeof path2);
    snprintf(id2, sizeof id2, "%s", json_string_value(json_object_get(
                                        json_object_get(j, "game"), "id")));
    json_decref(j);
    usleep(400000);
    st = post(&cf, path2, "dir=North", &body);
    assert_int_equal(st, 400);
    assert_string_equal(body, "Vindinium - Time out! You must play faster");
    free(body);
    conn_close(&cf);
    vds_stop(fast);

    /* restart: both finished games replay from the database */
    s = start(db, 2000, 1200);
    Conn cr = {-1, vds_port(s), 1};
    snprintf(bad, sizeof bad, "/replay/%s", id);
    j = must_json(get(&cr, bad, &body), &body);
    assert_int_equal(json_array_size(j), 21);      /* start + 20 moves */
    json_t *last = json_array_get(j, 20);
    assert_true(json_is_true(json_object_get(last, "finished")));
    assert_int_equal(json_integer_value(json_object_get(last, "turn")), 20);
    assert_string_equal(json_string_value(json_object_get(last, "id")), id);
    json_decref(j);
    snprintf(bad, sizeof bad, "/replay/%s", id2);
    j = must_json(get(&cr, bad, &body), &body);
    assert_int_equal(json_array_size(j), 2);       /* start + the crash */
    last = json_array_get(j, 1);
    assert_true(json_is_true(json_object_get(last, "finished")));
    assert_int_equal(json_integer_value(json_object_get(last, "turn")), 0);
    assert_true(json_is_true(json_object_get(json_array_get(
        json_object_get(last, "heroes"), 0), "crashed")));
    json_decref(j);
    snprintf(bad, sizeof bad, "/events/%s", id);
    st = get(&cr, bad, &body);
    assert_int_equal(st, 200);
    int events = 0;
    for (char *p = body; (p = strstr(p, "data: {")); p++)
        events++;
    assert_int_equal(events, 21);
    free(body);
    st = get(&cr, "/replay/nosuchgm", &body);
    assert_int_equal(st, 404);
    free(body);
    vds_stop(s);
    unlink(db);
}

/* Ratings: a rated arena game changes Elo, and the change persists. */
static void test_elo_persists(void **state)
{
    (void)state;
    char db[] = "/tmp/ply-vdtest-XXXXXX";
    int fd = mkstemp(db);
    assert_true(fd >= 0);
    close(fd);
    VdServer *s = start(db, 2000, 40);
    Player p[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        memset(&p[i], 0, sizeof p[i]);
        p[i].port = vds_port(s);
        p[i].id = i;
        snprintf(p[i].key, sizeof p[i].key, "elo%d", i);
        pthread_create(&t[i], NULL, player_run, &p[i]);
        usleep(20000);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    int sum = 0, changed = 0;
    for (int i = 0; i < 4; i++)
        assert_true(p[i].ok);
    usleep(100000);   /* the game thread saves after the last answer */
    vds_stop(s);
    s = start(db, 2000, 40);
    Conn c = {-1, vds_port(s), 0};
    char *body;
    json_t *j = must_json(get(&c, "/ai", &body), &body);
    assert_int_equal(json_array_size(j), 4);
    for (size_t i = 0; i < 4; i++) {
        json_t *u = json_array_get(j, i);
        int elo = (int)json_integer_value(json_object_get(u, "elo"));
        assert_int_equal(json_integer_value(json_object_get(u, "games")), 1);
        sum += elo - 1200;
        changed |= elo != 1200;
    }
    /* K=16 pairwise at equal ratings: a zero sum but for the bonus */
    assert_true(sum == 0 || sum == 4);
    int golds_differ = 0;
    for (int h = 1; h < 4; h++)
        golds_differ |= p[0].gold[h] != p[0].gold[0];
    if (golds_differ)
        assert_true(changed);
    json_decref(j);
    conn_close(&c);
    vds_stop(s);
    unlink(db);
}

/* Four hand-driven arena clients: a move out of turn (even with a valid
 * token) is refused, and a hero that stops answering is crashed, then
 * plays Stay while the others finish. */
static void test_arena_turns_and_timeout(void **state)
{
    (void)state;
    VdServer *s = start(":memory:", 200, 12);
    Conn c[5];
    char *body;
    for (int i = 0; i < 5; i++)
        c[i] = (Conn){-1, vds_port(s), 0};
    for (int i = 0; i < 4; i++) {
        char form[32];
        snprintf(form, sizeof form, "key=hand%d", i);
        send_post(&c[i], "/api/arena", form);
        usleep(20000);
    }
    json_t *j = must_json(read_response(&c[0], &body), &body);
    char p1[256];
    play_path(j, p1, sizeof p1);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(j, "game"), "turn")), 0);
    json_decref(j);
    send_post(&c[0], p1, "dir=Stay");
    j = must_json(read_response(&c[1], &body), &body);   /* hero 2, turn 1 */
    char p2[256];
    play_path(j, p2, sizeof p2);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(j, "hero"), "id")), 2);
    json_decref(j);
    /* hero 1's token while hero 2 is to move */
    Conn x = {-1, vds_port(s), 1};
    int st = post(&x, p1, "dir=North", &body);
    assert_int_equal(st, 400);
    assert_string_equal(body, "Vindinium - Wait, you're not supposed to play "
                        "now");
    free(body);
    /* hero 2 never answers: crashed after 200 ms; heroes 3 and 4 and 1
     * go on until the end (12 moves) */
    int finished[4] = {0, 0, 0, 0};
    finished[1] = 1;
    for (int round = 0; round < 40; round++) {
        int all = 1;
        static const int order[3] = {2, 3, 0};   /* turn order after 2 */
        for (int k = 0; k < 3; k++) {
            int h = order[k];
            if (finished[h])
                continue;
            all = 0;
            j = must_json(read_response(&c[h], &body), &body);
            json_t *g = json_object_get(j, "game");
            if (json_is_true(json_object_get(g, "finished"))) {
                finished[h] = 1;
                json_t *h2 = json_array_get(json_object_get(g, "heroes"), 1);
                assert_true(json_is_true(json_object_get(h2, "crashed")));
                assert_int_equal(json_integer_value(json_object_get(g,
                                                                    "turn")),
                                 12);
            } else {
                char p[256];
                play_path(j, p, sizeof p);
                send_post(&c[h], p, "dir=Stay");
            }
            json_decref(j);
        }
        if (all)
            break;
    }
    for (int h = 0; h < 4; h++)
        assert_true(finished[h]);
    st = post(&x, p2, "dir=North", &body);
    assert_int_equal(st, 400);
    assert_string_equal(body, "Vindinium - Time out! You must play faster");
    free(body);
    for (int i = 0; i < 5; i++)
        conn_close(&c[i]);
    vds_stop(s);
}

/* The libcurl client plays a short training game with a Ply bot. */
static void test_client(void **state)
{
    (void)state;
    VdServer *s = start(":memory:", 2000, 40);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", vds_port(s));
    VdcOptions o = {.server = url, .key = "client1", .arena = 0,
                    .bot = "vindinium:time=20ms", .turns = 10, .map = "m1",
                    .seed = 3, .log = NULL};
    VdcResult r;
    PlyError err = {{0}};
    if (vdc_play(&o, &r, &err))
        fail_msg("client: %s", err.msg);
    assert_int_equal(r.hero, 1);
    assert_int_equal(r.moves, 10);
    assert_true(r.place >= 1 && r.place <= 4);
    assert_false(r.crashed);
    o.key = "bad key!";
    assert_int_not_equal(vdc_play(&o, &r, &err), 0);
    assert_non_null(strstr(err.msg, "Key not found"));
    vds_stop(s);
}

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena_game),
        cmocka_unit_test(test_training_and_errors),
        cmocka_unit_test(test_elo_persists),
        cmocka_unit_test(test_arena_turns_and_timeout),
        cmocka_unit_test(test_client),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
