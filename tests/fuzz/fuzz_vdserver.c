/* fuzz_vdserver.c — the Vindinium server (apps/vindinium/server.c) from
 * the network side: each input is the raw bytes of one connection (HTTP
 * requests, well formed or not: request lines, headers, forms, URL
 * routing, pipelined requests), sent over loopback to one server started
 * at the first input and kept for the whole run, then the connection's
 * write side is closed and its answer read. The server must answer or
 * close, never crash (ASan and UBSan run in its threads, in this
 * process); every 64 inputs, and at the first, a plain GET /ai must get
 * its 200 within 10 s, or the run aborts (a hung or dead server).
 *
 * The one request that waits by design is an arena seat (it waits for
 * four players); "arena" in an input is changed to "arenx" so inputs do
 * not sit in that wait. The arena's form and key checks are those of
 * training, which stays. Games are short (20 ms per move, 30 turns,
 * abandoned games dropped after a second), so memory stays bounded.
 *
 * An input that gets no answer within ANSWER_MS (headers never ended:
 * the server, like libmicrohttpd, waits for the rest until its
 * connection timeout, 1 s here, although the write side is shut) is
 * reset (SO_LINGER 0), which the server must handle too. Before, such
 * inputs waited out the timeout: a run did about 17 inputs a second and
 * used 2% of a core.
 *
 * libFuzzer's leak check after each input is off (-detect_leaks=0):
 * between inputs the server's threads go on playing games, and the check
 * reported blocks of SQLite's and Jansson's in use by them (2,432 and
 * 110 bytes, allocated on the server's threads; none replayed). The
 * exit's leak check stays. The server is not stopped at exit: doing so
 * (vds_stop in an atexit handler) crashed 2 of about 110 processes in
 * libmicrohttpd 0.9.75 itself, a NULL response in build_header_response
 * when a connection needs an error answer while the daemon stops
 * (docs/fuzzing.md has the whole path). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#define FUZZ_FLAG "-detect_leaks=0"

#include "apps/vindinium/server.h"
#include "core/util.h"
#include "fuzz.h"

enum { ANSWER_MS = 100 };

static VdServer *server;
static int port;
static unsigned long inputs;

static void start(void)
{
    VdsConfig cfg;
    vds_config_default(&cfg);
    cfg.port = 0;
    cfg.db_path = ":memory:";
    cfg.timeout_ms = 20;
    cfg.arena_turns = 30;
    cfg.seed = 5;
    cfg.training_bot = "random";
    cfg.conn_timeout_s = 1;
    cfg.key_rate_per_min = 1000000;
    cfg.key_burst = 1000000;
    cfg.abandoned_keep_s = 1;
    cfg.training_keep_s = 1;
    PlyError err = {{0}};
    if (!(server = vds_start(&cfg, &err))) {
        fprintf(stderr, "fuzz_vdserver: %s\n", err.msg);
        abort();
    }
    port = vds_port(server);
}

/* Sends n bytes on one connection, closes its write side and reads the
 * answer until the server closes or wait_ms pass. The status of the
 * first response, 0 if none came. */
static int exchange(const uint8_t *data, size_t n, int wait_ms)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        abort();
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa)) {
        perror("fuzz_vdserver: connect");
        abort();    /* the server no longer accepts */
    }
    int64_t end = now_ms() + wait_ms;
    for (size_t off = 0; off < n;) {
        ssize_t w = send(fd, data + off, n - off, MSG_NOSIGNAL);
        if (w <= 0)
            break;      /* the server closed early: its right */
        off += (size_t)w;
    }
    shutdown(fd, SHUT_WR);
    char buf[4096];
    size_t got = 0;
    char head[16] = "";
    for (;;) {
        int64_t left = end - now_ms();
        /* once an answer has come, a short pause ends it: a keep-alive
         * connection stays open after its last response */
        if (got && left > 5)
            left = 5;
        if (left <= 0)
            break;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, (int)left) <= 0)
            break;
        ssize_t r = recv(fd, buf, sizeof buf, 0);
        if (r <= 0)
            break;
        for (ssize_t i = 0; i < r && got < sizeof head - 1; i++)
            head[got++] = buf[i];
    }
    if (!got) {
        /* no answer: reset, so the server drops the connection now */
        struct linger lg = {1, 0};
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    }
    close(fd);
    int status = 0;
    if (!strncmp(head, "HTTP/1.", 7) && strlen(head) >= 12)
        status = atoi(head + 9);
    return status;
}

static void health(void)
{
    static const char get[] = "GET /ai HTTP/1.1\r\nHost: x\r\n"
                              "Connection: close\r\n\r\n";
    if (exchange((const uint8_t *)get, sizeof get - 1, 10000) != 200) {
        fprintf(stderr, "fuzz_vdserver: GET /ai got no 200 after %lu "
                "inputs\n", inputs);
        abort();
    }
}

static void fuzz_one(FuzzIn *in)
{
    if (!server)
        start();
    if (inputs++ % 64 == 0)
        health();
    size_t n = in->size;
    uint8_t *d = malloc(n + 1);
    if (!d)
        abort();
    memcpy(d, in->data, n);
    for (size_t i = 0; i + 5 <= n; i++)
        if (!memcmp(d + i, "arena", 5))
            d[i + 4] = 'x';
    exchange(d, n, ANSWER_MS);
    free(d);
}

static void fuzz_seeds(FuzzSeeds *s)
{
    static const char *const reqs[] = {
        "GET /ai HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /api/training HTTP/1.1\r\nHost: x\r\nContent-Type: "
        "application/x-www-form-urlencoded\r\nContent-Length: 23\r\n\r\n"
        "key=abcdefgh&turns=10&m",
        "POST /api/training HTTP/1.1\r\nHost: x\r\nContent-Type: "
        "application/x-www-form-urlencoded\r\nContent-Length: 30\r\n\r\n"
        "key=zzzzzzzz&turns=4&map=m3&x=",
        "POST /register HTTP/1.1\r\nHost: x\r\nContent-Type: "
        "application/x-www-form-urlencoded\r\nContent-Length: 9\r\n\r\n"
        "name=fuzz",
        "POST /api/abcdefgh/tok12345/play HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        "Content-Length: 9\r\n\r\ndir=North",
        "GET /events/abcdefgh HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /replay/abcdefgh HTTP/1.0\r\n\r\n",
        "GET /abcdefgh HTTP/1.1\r\nHost: x\r\n\r\n",
        "DELETE /api/training HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /%2e%2e/%00 HTTP/1.1\r\nHost: x\r\n\r\n",
        ("POST /api/training HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
         "chunked\r\nContent-Type: application/x-www-form-urlencoded\r\n"
         "\r\n5\r\nkey=a\r\n0\r\n\r\n"),
        ("GET /ai HTTP/1.1\r\nHost: x\r\n\r\nGET /ai HTTP/1.1\r\nHost: x\r\n"
         "\r\nPOST /register HTTP/1.1\r\nContent-Length: 5\r\n\r\nname="),
    };
    for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++)
        fuzz_seed(s, reqs[i], strlen(reqs[i]));
}
