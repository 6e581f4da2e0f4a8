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
#include <time.h>
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
    char key[24];
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


/* ---- issue 21: availability, input, creation limits, live events,
 * resumed games ---- */

static VdServer *start_cfg(VdsConfig *cfg)
{
    PlyError err = {{0}};
    VdServer *s = vds_start(cfg, &err);
    if (!s)
        fail_msg("server: %s", err.msg);
    return s;
}

static void base_cfg(VdsConfig *cfg, const char *db, int timeout_ms)
{
    vds_config_default(cfg);
    cfg->port = 0;
    cfg->db_path = db;
    cfg->timeout_ms = timeout_ms;
    cfg->seed = 11;
}

/* A socket connected from source address `src` (127.x.y.z), or -1. */
static int connect_from(const char *src, int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    inet_pton(AF_INET, src, &sa.sin_addr);
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa)) {
        close(fd);
        return -1;
    }
    sa.sin_port = htons((uint16_t)port);
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa)) {
        close(fd);
        return -1;
    }
    return fd;
}

static int64_t mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* 600 idle or slow connections (half of them stuck in their headers) no
 * longer lock clients out: a normal request is answered within 1 s. */
static void test_idle_connections(void **state)
{
    (void)state;
    VdsConfig cfg;
    base_cfg(&cfg, ":memory:", 1000);
    VdServer *s = start_cfg(&cfg);
    enum { IDLE = 600 };
    int fds[IDLE], open_n = 0;
    for (int i = 0; i < IDLE; i++) {
        fds[i] = connect_from("127.0.0.1", vds_port(s));
        if (fds[i] < 0)
            break;
        open_n++;
        if (i % 2)
            send_all(fds[i], "GET /ai HTTP/1.1\r\nHost: x", 25);
    }
    assert_int_equal(open_n, IDLE);
    int64_t t0 = mono_ms();
    Conn c = {-1, vds_port(s), 1};
    char *body;
    int st = get(&c, "/ai", &body);
    int64_t dt = mono_ms() - t0;
    assert_int_equal(st, 200);
    free(body);
    assert_true(dt < 1000);
    for (int i = 0; i < open_n; i++)
        close(fds[i]);
    vds_stop(s);

    /* one address over its limit is refused; another is still served */
    base_cfg(&cfg, ":memory:", 1000);
    cfg.max_per_ip = 20;
    s = start_cfg(&cfg);
    int other[40], refused = 0;
    for (int i = 0; i < 40; i++) {
        other[i] = connect_from("127.0.0.2", vds_port(s));
        if (other[i] < 0)
            continue;
        /* an over-limit connection is accepted by the kernel, then
         * closed by the server: its read sees the end at once */
        struct timeval tv = {0, 300000};
        setsockopt(other[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    }
    for (int i = 20; i < 40; i++) {
        char b;
        if (other[i] >= 0 && recv(other[i], &b, 1, 0) == 0)
            refused++;
    }
    assert_true(refused >= 15);
    Conn c2 = {-1, vds_port(s), 1};
    st = get(&c2, "/ai", &body);
    assert_int_equal(st, 200);
    free(body);
    for (int i = 0; i < 40; i++)
        if (other[i] >= 0)
            close(other[i]);
    vds_stop(s);
}

/* Headers that never end are cut off after conn_timeout_s. */
static void test_header_timeout(void **state)
{
    (void)state;
    VdsConfig cfg;
    base_cfg(&cfg, ":memory:", 1000);
    cfg.conn_timeout_s = 1;
    VdServer *s = start_cfg(&cfg);
    int fd = connect_from("127.0.0.1", vds_port(s));
    assert_true(fd >= 0);
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    send_all(fd, "POST /api/training HTTP/1.1\r\nHost: x\r\n", 38);
    int64_t t0 = mono_ms();
    char b[64];
    ssize_t r = recv(fd, b, sizeof b, 0);
    int64_t dt = mono_ms() - t0;
    assert_true(r <= 0);               /* closed, not answered */
    assert_true(dt >= 500 && dt < 4000);
    close(fd);
    vds_stop(s);
}

/* One move with the first state's play path; returns the new state. */
static json_t *move1(Conn *c, json_t *j, const char *dir)
{
    char path[256], form[32];
    char *body;
    play_path(j, path, sizeof path);
    snprintf(form, sizeof form, "dir=%s", dir);
    return must_json(post(c, path, form, &body), &body);
}

static int game_int(json_t *j, const char *k)
{
    return (int)json_integer_value(json_object_get(json_object_get(j, "game"),
                                                   k));
}

static void expect(Conn *c, const char *method, const char *path,
                   const char *form, int status, const char *body_has)
{
    char *body;
    int st;
    if (!strcmp(method, "POST")) {
        st = post(c, path, form, &body);
    } else {
        char req[512];
        int n = snprintf(req, sizeof req, "%s %s HTTP/1.0\r\nHost: x\r\n"
                         "\r\n", method, path);
        st = exchange_raw(c, req, (size_t)n, &body);
    }
    if (st != status || (body_has && !strstr(body ? body : "", body_has)))
        fail_msg("%s %s [%s]: %d '%.200s', expected %d '%s'", method, path,
                 form ? form : "", st, body ? body : "", status,
                 body_has ? body_has : "");
    free(body);
}

static void test_input_rules(void **state)
{
    (void)state;
    VdsConfig cfg;
    base_cfg(&cfg, ":memory:", 2000);
    VdServer *s = start_cfg(&cfg);
    Conn c = {-1, vds_port(s), 1};
    char *body;
    /* turns <= 0: maxTurns = turns * 4 as the official server, and the
     * game ends after the first move */
    static const char *const forms[] = {"key=zero&turns=0&map=m1",
                                        "key=neg&turns=-3&map=m1"};
    static const int maxt[] = {0, -12};
    for (int i = 0; i < 2; i++) {
        json_t *j = must_json(post(&c, "/api/training", forms[i], &body),
                              &body);
        assert_int_equal(game_int(j, "maxTurns"), maxt[i]);
        assert_int_equal(game_int(j, "turn"), 0);
        json_t *k = move1(&c, j, "North");
        assert_true(json_is_true(json_object_get(json_object_get(k, "game"),
                                                 "finished")));
        assert_int_equal(game_int(k, "turn"), 1);
        json_decref(j);
        json_decref(k);
    }
    /* empty optional fields are absent: the defaults */
    json_t *j = must_json(post(&c, "/api/training", "key=empty&turns=&map=",
                               &body), &body);
    assert_int_equal(game_int(j, "maxTurns"), 1200);
    char id[16], path[64];
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(
                                      json_object_get(j, "game"), "id")));
    json_decref(j);
    /* %00 no longer cuts a value: key=abc%00def is refused, not "abc" */
    expect(&c, "POST", "/api/training", "key=abc%00def", 400, "NUL");
    expect(&c, "POST", "/api/training?key=abc%00def", "", 400, "NUL");
    expect(&c, "POST", "/api/training", "key=abc&map=m1%00x", 400, "NUL");
    /* methods: 405, unknown things: 404 */
    expect(&c, "GET", "/api/training", NULL, 405, NULL);
    expect(&c, "GET", "/api/arena", NULL, 405, NULL);
    snprintf(path, sizeof path, "/api/%s/abcd/play", id);
    expect(&c, "GET", path, NULL, 405, NULL);
    expect(&c, "POST", "/ai", "", 405, NULL);
    snprintf(path, sizeof path, "/events/%s", id);
    expect(&c, "POST", path, "", 405, NULL);
    expect(&c, "DELETE", "/register", NULL, 405, NULL);
    expect(&c, "GET", "/zzzzzzzz", NULL, 404, NULL);
    expect(&c, "GET", "/no/such/path", NULL, 404, NULL);
    snprintf(path, sizeof path, "/%s", id);
    expect(&c, "GET", path, NULL, 200, id);
    conn_close(&c);
    vds_stop(s);
}

/* Game creation is bounded per key (running games and rate) and
 * abandoned training games expire. */
static void test_creation_limits_and_expiry(void **state)
{
    (void)state;
    VdsConfig cfg;
    base_cfg(&cfg, ":memory:", 5000);
    cfg.key_games = 2;
    cfg.key_burst = 3;
    cfg.key_rate_per_min = 1;
    VdServer *s = start_cfg(&cfg);
    Conn c = {-1, vds_port(s), 1};
    char *body;
    for (int i = 0; i < 2; i++)
        json_decref(must_json(post(&c, "/api/training", "key=greedy&map=m1",
                                   &body), &body));
    expect(&c, "POST", "/api/training", "key=greedy&map=m1", 429,
           "Too many games in progress for this key");
    expect(&c, "POST", "/api/training", "key=other&map=m1", 200, NULL);
    vds_stop(s);

    /* the rate: a burst of 3, then one a minute; finished games free
     * their running slot but not the rate */
    base_cfg(&cfg, ":memory:", 5000);
    cfg.key_burst = 3;
    cfg.key_rate_per_min = 1;
    s = start_cfg(&cfg);
    c = (Conn){-1, vds_port(s), 1};
    for (int i = 0; i < 3; i++) {
        json_t *j = must_json(post(&c, "/api/training",
                                   "key=fast&turns=0&map=m1", &body), &body);
        json_decref(move1(&c, j, "Stay"));
        json_decref(j);
    }
    expect(&c, "POST", "/api/training", "key=fast&map=m1", 429,
           "for this key, slow down");
    /* many keys from one address: 4 x the key burst (12) games, then
     * refused before the keys are even registered; requests refused for
     * their key took no address token */
    for (int i = 0; i < 9; i++) {   /* 3 games above */
        char form[64];
        snprintf(form, sizeof form, "key=many%d&turns=0&map=m1", i);
        json_t *j = must_json(post(&c, "/api/training", form, &body), &body);
        json_decref(move1(&c, j, "Stay"));
        json_decref(j);
    }
    expect(&c, "POST", "/api/training", "key=many9&map=m1", 429,
           "from this address, slow down");
    {
        /* users: fast and many0..many8, not many9 */
        Conn c2 = {-1, vds_port(s), 1};
        json_t *u = must_json(get(&c2, "/ai", &body), &body);
        assert_int_equal(json_array_size(u), 10);
        json_decref(u);
    }
    vds_stop(s);

    /* expiry: a game no client move touched goes after abandoned_keep_s
     * (0 here); a played one stays */
    char db[] = "/tmp/ply-vdtest-XXXXXX";
    int fd = mkstemp(db);
    assert_true(fd >= 0);
    close(fd);
    base_cfg(&cfg, db, 100);
    cfg.abandoned_keep_s = 0;
    s = start_cfg(&cfg);
    c = (Conn){-1, vds_port(s), 1};
    json_t *j = must_json(post(&c, "/api/training", "key=gone&map=m1", &body),
                          &body);
    char gone[16], kept[16], path[64];
    snprintf(gone, sizeof gone, "%s", json_string_value(json_object_get(
                                          json_object_get(j, "game"), "id")));
    json_decref(j);
    j = must_json(post(&c, "/api/training", "key=kept&turns=1&map=m1", &body),
                  &body);
    snprintf(kept, sizeof kept, "%s", json_string_value(json_object_get(
                                          json_object_get(j, "game"), "id")));
    json_decref(move1(&c, j, "Stay"));
    json_decref(j);
    usleep(1200000);   /* the abandoned one crashed; a sweep is due */
    snprintf(path, sizeof path, "/replay/%s", gone);
    expect(&c, "GET", path, NULL, 200, NULL);   /* in memory still */
    json_decref(must_json(post(&c, "/api/training", "key=sweep&turns=0&map=m1",
                               &body), &body));
    vds_stop(s);
    s = start_cfg(&cfg);   /* from the database only */
    c = (Conn){-1, vds_port(s), 1};
    expect(&c, "GET", path, NULL, 404, NULL);
    snprintf(path, sizeof path, "/replay/%s", kept);
    expect(&c, "GET", path, NULL, 200, NULL);
    vds_stop(s);
    unlink(db);
}

/* /events of a running game streams: the states so far at once, then
 * each new state, and ends with the game. */
static void test_events_live(void **state)
{
    (void)state;
    VdsConfig cfg;
    base_cfg(&cfg, ":memory:", 3000);
    VdServer *s = start_cfg(&cfg);
    Conn c = {-1, vds_port(s), 0};
    char *body;
    json_t *j = must_json(post(&c, "/api/training", "key=watched&turns=5&"
                               "map=m1", &body), &body);
    char path[64];
    snprintf(path, sizeof path, "/events/%s", json_string_value(
                 json_object_get(json_object_get(j, "game"), "id")));
    int ev = connect_from("127.0.0.1", vds_port(s));
    assert_true(ev >= 0);
    struct timeval tv = {3, 0};
    setsockopt(ev, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char req[128];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.0\r\nHost: x\r\n\r\n",
                     path);
    send_all(ev, req, (size_t)n);
    /* the game waits for us: the stream has the first state, stays open */
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    int64_t t0 = mono_ms();
    while (mono_ms() - t0 < 3000) {
        ssize_t r = recv(ev, buf + len, cap - len - 1, 0);
        assert_true(r > 0);
        len += (size_t)r;
        buf[len] = 0;
        if (strstr(buf, "data: {"))
            break;
    }
    assert_non_null(strstr(buf, "text/event-stream"));
    assert_non_null(strstr(buf, "data: {"));
    /* play to the end; the stream follows and closes */
    int turn = 0;
    while (turn < 20) {
        json_t *k = move1(&c, j, "East");
        json_decref(j);
        j = k;
        turn = game_int(j, "turn");
    }
    json_decref(j);
    for (int guard = 0; guard < 10000; guard++) {
        if (len + 4096 > cap)
            buf = realloc(buf, cap *= 2);
        ssize_t r = recv(ev, buf + len, cap - len - 1, 0);
        if (r <= 0)
            break;
        len += (size_t)r;
        buf[len] = 0;
    }
    int events = 0;
    char *last = NULL;
    for (char *p = buf; (p = strstr(p, "data: {")); p++) {
        events++;
        last = p;
    }
    assert_int_equal(events, 21);
    assert_non_null(strstr(last, "\"finished\":true"));
    assert_non_null(strstr(last, "\"turn\":20"));
    free(buf);
    close(ev);
    conn_close(&c);
    vds_stop(s);
}

/* A busy client: keep-alive requests in a loop until the server goes
 * away (connect or read fails). */
static void *hammer(void *arg)
{
    int port = *(int *)arg;
    Conn c = {-1, port, 0};
    for (int i = 0; i < 2000; i++) {
        char *body;
        int st = i % 3 ? get(&c, "/ai", &body)
                       : post(&c, "/api/training", "key=busy&turns=40",
                              &body);
        free(body);
        if (st < 0) {
            conn_close(&c);
            if (conn_open(&c))
                break;
        }
    }
    conn_close(&c);
    return NULL;
}

/* vds_stop with every kind of connection open: arena seats waiting for
 * their fourth player (suspended), /events streams of running games
 * (suspended between states), headers cut short, idle keep-alive
 * connections, one reset, and a client sending requests all along. The
 * stop must return, answer or close each of them, and (under ASan and
 * TSan) touch nothing freed: the Vindinium fuzz run's exit once crashed
 * in libmicrohttpd in such a stop. Twelve rounds. */
static void test_stop_busy(void **state)
{
    (void)state;
    for (int round = 0; round < 12; round++) {
        VdsConfig cfg;
        base_cfg(&cfg, ":memory:", 50);
        cfg.threads = 1 + round % 3;
        cfg.conn_timeout_s = 5;
        VdServer *s = start_cfg(&cfg);
        int port = vds_port(s);
        enum { SEATS = 3, STREAMS = 3, CUT = 4, IDLE = 4 };
        int fds[SEATS + STREAMS + CUT + IDLE], n = 0;
        char req[512];
        for (int i = 0; i < SEATS; i++) {
            int fd = connect_from("127.0.0.1", port);
            assert_true(fd >= 0);
            int len = snprintf(req, sizeof req, "POST /api/arena HTTP/1.1\r\n"
                               "Host: x\r\nContent-Type: application/"
                               "x-www-form-urlencoded\r\nContent-Length: "
                               "7\r\n\r\nkey=s%02d", i + 10 * round % 90);
            assert_int_equal(send_all(fd, req, (size_t)len), 0);
            fds[n++] = fd;
        }
        Conn c = {-1, port, 0};
        for (int i = 0; i < STREAMS; i++) {
            char *body;
            json_t *j = must_json(post(&c, "/api/training", "key=watch&"
                                       "turns=100&map=m1", &body), &body);
            int fd = connect_from("127.0.0.1", port);
            assert_true(fd >= 0);
            int len = snprintf(req, sizeof req, "GET /events/%s HTTP/1.1\r\n"
                               "Host: x\r\n\r\n", json_string_value(
                                   json_object_get(json_object_get(j, "game"),
                                                   "id")));
            json_decref(j);
            assert_int_equal(send_all(fd, req, (size_t)len), 0);
            fds[n++] = fd;
        }
        for (int i = 0; i < CUT; i++) {
            int fd = connect_from("127.0.0.1", port);
            assert_true(fd >= 0);
            send_all(fd, "POST /api/training HTTP/1.1\r\nHost: x\r\n"
                     "Content-Length: 100\r\n\r\nkey=", 64 - 6 * (i % 2));
            fds[n++] = fd;
        }
        for (int i = 0; i < IDLE; i++) {
            int fd = connect_from("127.0.0.1", port);
            assert_true(fd >= 0);
            fds[n++] = fd;
        }
        int rst = connect_from("127.0.0.1", port);
        assert_true(rst >= 0);
        send_all(rst, "GET /ai HTTP/1.1\r\n", 18);
        struct linger lg = {1, 0};
        setsockopt(rst, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
        close(rst);
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, hammer, &port), 0);
        usleep(20000 + 15000 * (unsigned)(round % 4));
        int64_t t0 = mono_ms();
        vds_stop(s);
        assert_true(mono_ms() - t0 < 5000);
        /* each open connection got its answer or its end */
        for (int i = 0; i < n; i++) {
            struct timeval tv = {2, 0};
            setsockopt(fds[i], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
            char b[1 << 14];
            size_t got = 0;
            ssize_t r;
            while ((r = recv(fds[i], b + got, sizeof b - 1 - got, 0)) > 0)
                got += (size_t)r;
            b[got] = 0;
            if (r < 0)
                fail_msg("round %d, connection %d: still open after the "
                         "stop", round, i);
            /* the seats were waiting, told why they end; the streams had
             * their first state */
            if (i < SEATS && !strstr(b, "503"))
                fail_msg("round %d, seat %d: '%.100s'", round, i, b);
            if (i >= SEATS && i < SEATS + STREAMS && !strstr(b, "data: {"))
                fail_msg("round %d, stream %d: '%.100s'", round, i, b);
            close(fds[i]);
        }
        pthread_join(t, NULL);
        conn_close(&c);
    }
}

/* A server stopped mid-game resumes it from the journal: the client
 * posts to the same play URL and the game goes on to its end. (The
 * kill -9 version is tests/vdrestart.sh.) */
static void test_resume_after_restart(void **state)
{
    (void)state;
    char db[] = "/tmp/ply-vdtest-XXXXXX";
    int fd = mkstemp(db);
    assert_true(fd >= 0);
    close(fd);
    VdsConfig cfg;
    base_cfg(&cfg, db, 2000);
    cfg.port = 0;
    VdServer *s = start_cfg(&cfg);
    Conn c = {-1, vds_port(s), 1};
    char *body;
    json_t *j = must_json(post(&c, "/api/training", "key=phoenix&turns=6&"
                               "map=m1", &body), &body);
    for (int i = 0; i < 3; i++) {
        json_t *k = move1(&c, j, "South");
        json_decref(j);
        j = k;
    }
    assert_int_equal(game_int(j, "turn"), 12);
    int gold = (int)json_integer_value(json_object_get(json_object_get(j,
                                                                       "hero"),
                                                       "gold"));
    vds_stop(s);
    s = start_cfg(&cfg);
    c = (Conn){-1, vds_port(s), 1};
    /* the port changed (0): the path is what matters */
    int turn = 12;
    for (int i = 0; i < 10 && turn < 24; i++) {
        json_t *k = move1(&c, j, "South");
        json_decref(j);
        j = k;
        turn = game_int(j, "turn");
        assert_true(json_integer_value(json_object_get(json_object_get(
                                           j, "hero"), "gold")) >= gold);
    }
    assert_int_equal(turn, 24);
    assert_true(json_is_true(json_object_get(json_object_get(j, "game"),
                                             "finished")));
    char path[64];
    snprintf(path, sizeof path, "/replay/%s", json_string_value(
                 json_object_get(json_object_get(j, "game"), "id")));
    json_decref(j);
    usleep(100000);
    j = must_json(get(&c, path, &body), &body);
    assert_int_equal(json_array_size(j), 25);
    json_decref(j);
    vds_stop(s);
    unlink(db);
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
        cmocka_unit_test(test_idle_connections),
        cmocka_unit_test(test_header_timeout),
        cmocka_unit_test(test_input_rules),
        cmocka_unit_test(test_creation_limits_and_expiry),
        cmocka_unit_test(test_events_live),
        cmocka_unit_test(test_resume_after_restart),
        cmocka_unit_test(test_stop_busy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
