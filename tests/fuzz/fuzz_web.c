/* fuzz_web.c — the web server's request handler (apps/web/web.h) without
 * a socket. Input: a game byte, then requests, each an op byte, a length
 * byte and that many bytes of body (or of path or format). A game of the
 * chosen game is made first; the requests go to it (or to /api/games and
 * the page's files). Every answer must have a known status, a JSON
 * body with "error" for a 4xx, and JSON for every API answer; the game
 * is deleted at the end, so the server holds nothing between inputs. */
#include <jansson.h>

#include "fuzz.h"
#include "apps/web/web.h"

static WebServer *server(void)
{
    static WebServer *w;
    if (!w) {
        WebConfig c;
        web_config_default(&c);
        c.seed = 1;
        c.max_games = 8;
        c.max_body = 4096;
        c.max_think_ms = 20;
        PlyError err = {{0}};
        w = web_new(&c, &err);
        if (!w)
            abort();
    }
    return w;
}

static json_t *call(const char *method, const char *url, const char *body,
                    size_t len, int api)
{
    WebReply r;
    web_handle(server(), method, url, body, len, &r);
    static const int ok[] = {200, 201, 202, 400, 404, 405, 409, 413, 414};
    int known = 0;
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        known |= r.status == ok[i];
    if (!known || !r.type || (r.len && !r.body))
        abort();
    json_t *j = NULL;
    int is_json = !strncmp(r.type, "application/json", 16);
    if (is_json) {
        j = json_loadb(r.body, r.len, 0, NULL);
        if (!j)
            abort();    /* the server wrote bad JSON */
        if (r.status >= 400 &&
            !json_is_string(json_object_get(j, "error")))
            abort();
    } else if (api && r.status != 200) {
        abort();        /* only records are not JSON */
    }
    web_reply_free(&r);
    return j;
}

static void fuzz_one(FuzzIn *in)
{
    const GameVtbl *g = fuzz_game(in);
    char body[600], url[800], id[40];
    snprintf(body, sizeof body, "{\"game\": \"%s\", \"seed\": 3}",
             g->info.name);
    json_t *j = call("POST", "/api/games", body, strlen(body), 1);
    const char *s = json_string_value(json_object_get(j, "id"));
    if (!s)
        abort();
    snprintf(id, sizeof id, "%s", s);
    json_decref(j);
    static const struct { const char *method, *op; } ops[] = {
        {"GET", ""}, {"GET", "/legal"}, {"POST", "/move"}, {"POST", "/undo"},
        {"POST", "/redo"}, {"POST", "/position"}, {"POST", "/seats"},
        {"POST", "/go"}, {"GET", "/think"}, {"POST", "/stop"},
        {"GET", "/record?format="}, {"POST", ""}, {"GET", "/"},
        {"PUT", "/move"},
    };
    enum { NOPS = sizeof ops / sizeof *ops };
    for (int k = 0; k < 12 && in->pos < in->size; k++) {
        unsigned op = fuzz_byte(in) % NOPS;
        size_t len = fuzz_byte(in);
        if (len > in->size - in->pos)
            len = in->size - in->pos;
        size_t n = len < sizeof body - 1 ? len : sizeof body - 1;
        memcpy(body, in->data + in->pos, n);
        body[n] = 0;
        in->pos += len;
        if (op == 11) {         /* a new game from the body */
            json_decref(call("POST", "/api/games", body, n, 1));
        } else if (op == 12) {  /* a file of the page */
            snprintf(url, sizeof url, "/%s", body);
            if (strchr(url, '?') || memchr(body, 0, n) != NULL)
                continue;
            json_decref(call("GET", url, NULL, 0, 0));
        } else if (op == 10) {
            snprintf(url, sizeof url, "/api/games/%s%s%.40s", id,
                     ops[op].op, body);
            json_decref(call("GET", url, NULL, 0, 1));
        } else {
            snprintf(url, sizeof url, "/api/games/%s%s", id, ops[op].op);
            json_decref(call(ops[op].method, url, body, n, 1));
        }
    }
    snprintf(url, sizeof url, "/api/games/%s", id);
    json_decref(call("DELETE", url, NULL, 0, 1));
    /* games made by op 11 are evicted by the bound (8) */
}

static void fuzz_seeds(FuzzSeeds *s)
{
    static const struct { unsigned op; const char *body; } reqs[] = {
        {2, "{\"move\": \"e2e4\"}"}, {2, "{\"move\": \"c3-d4\"}"},
        {2, "{\"move\": \"1\"}"}, {3, "{\"n\": 2}"}, {4, "{}"},
        {5, "{\"setup\": \"\", \"moves\": \"\"}"},
        {6, "{\"seats\": [\"human\", \"random\"]}"},
        {7, "{\"bot\": \"random\"}"}, {8, ""}, {9, ""}, {10, "moves"},
        {10, "pgn"}, {11, "{\"game\": \"kalah\", \"options\": \"houses=3\"}"},
        {12, "index.html"}, {1, ""}, {0, ""},
    };
    for (int g = 0; g < fuzz_ngames(); g++) {
        uint8_t buf[1024];
        size_t n = 0;
        buf[n++] = (uint8_t)g;
        for (size_t i = 0; i < sizeof reqs / sizeof *reqs; i++) {
            size_t l = strlen(reqs[i].body);
            if (n + 2 + l > sizeof buf)
                break;
            buf[n++] = (uint8_t)reqs[i].op;
            buf[n++] = (uint8_t)l;
            memcpy(buf + n, reqs[i].body, l);
            n += l;
        }
        fuzz_seed(s, buf, n);
    }
}
