/* apps/vindinium/client.c — the Vindinium client loop: create or join a
 * game, then read each state, ask the bot, post its direction to
 * playUrl, until the game is finished. The server is not trusted: see
 * client.h for the bounds. */
#include <curl/curl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "../../core/bot.h"
#include "../../core/util.h"
#include "client.h"
#include "json.h"

extern const GameVtbl game_vindinium;

enum { MAX_ANSWER = 4 << 20 };

typedef struct Buf {
    char *p;
    size_t n;
} Buf;

static size_t on_data(char *d, size_t sz, size_t nm, void *u)
{
    Buf *b = u;
    size_t k = sz * nm;
    if (b->n + k > MAX_ANSWER)
        return 0;   /* a bounded answer */
    char *np = realloc(b->p, b->n + k + 1);
    if (!np)
        return 0;
    memcpy(np + b->n, d, k);
    b->p = np;
    b->n += k;
    b->p[b->n] = 0;
    return k;
}

/* Scheme, host and port of an http(s) URL, lower-cased host, the port
 * defaulted by scheme. 0 ok, -1 not an http(s) URL. */
typedef struct Origin {
    char scheme[8], host[256];
    long port;
} Origin;

static int origin_of(const char *url, Origin *o)
{
    CURLU *u = curl_url();
    char *scheme = NULL, *host = NULL, *port = NULL;
    int rc = -1;
    if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) ==
            CURLUE_OK &&
        (!strcasecmp(scheme, "http") || !strcasecmp(scheme, "https")) &&
        strlen(host) < sizeof o->host) {
        snprintf(o->scheme, sizeof o->scheme, "%s", scheme);
        for (size_t i = 0; i < sizeof o->scheme && o->scheme[i]; i++)
            o->scheme[i] = (char)(o->scheme[i] | 0x20);
        size_t i = 0;
        for (; host[i]; i++)
            o->host[i] = (char)(host[i] >= 'A' && host[i] <= 'Z'
                                ? host[i] + 32 : host[i]);
        o->host[i] = 0;
        o->port = strtol(port, NULL, 10);
        rc = 0;
    }
    curl_free(scheme);
    curl_free(host);
    curl_free(port);
    curl_url_cleanup(u);
    return rc;
}

typedef struct Client {
    CURL *c;
    const VdcOptions *o;
    int64_t deadline_ms;     /* the total time bound */
    Origin origin;           /* the server's */
} Client;

/* POSTs a form body within `timeout_ms` (and the total deadline);
 * returns the parsed JSON answer or NULL with err. *transient tells a
 * failure worth retrying (unreachable, reset, 502/503/504). */
static json_t *post(Client *cl, const char *url, const char *body,
                    int64_t timeout_ms, int *transient, PlyError *err)
{
    *transient = 0;
    int64_t left = cl->deadline_ms - now_ms();
    if (left <= 0) {
        ply_fail(err, "gave up: the total time bound (%d s) is over",
                 cl->o->max_seconds);
        return NULL;
    }
    if (timeout_ms <= 0 || timeout_ms > left)
        timeout_ms = left;
    Buf b = {NULL, 0};
    CURL *c = cl->c;
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)timeout_ms);
    CURLcode r = curl_easy_perform(c);
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    if (r != CURLE_OK) {
        free(b.p);
        *transient = r == CURLE_COULDNT_CONNECT || r == CURLE_GOT_NOTHING ||
                     r == CURLE_RECV_ERROR || r == CURLE_SEND_ERROR ||
                     r == CURLE_PARTIAL_FILE;
        if (r == CURLE_OPERATION_TIMEDOUT && now_ms() >= cl->deadline_ms)
            ply_fail(err, "gave up: the total time bound (%d s) is over",
                     cl->o->max_seconds);
        else
            ply_fail(err, "%s: %s", url, curl_easy_strerror(r));
        return NULL;
    }
    if (code != 200) {
        *transient = code == 502 || code == 503 || code == 504;
        ply_fail(err, "%s: HTTP %ld: %.200s", url, code, b.p ? b.p : "");
        free(b.p);
        return NULL;
    }
    json_error_t je;
    json_t *j = json_loads(b.p ? b.p : "", 0, &je);
    free(b.p);
    if (!j)
        ply_fail(err, "%s: the answer is not JSON: %s", url, je.text);
    return j;
}

/* The play URL of a state, if it is on the server's host and port. */
static int check_play_url(const Client *cl, const char *play, PlyError *err)
{
    Origin p;
    if (strlen(play) > 500 || origin_of(play, &p))
        return ply_fail(err, "the server's playUrl '%.200s' is not an http "
                        "or https URL: refused", play);
    if (strcmp(p.host, cl->origin.host) || p.port != cl->origin.port)
        return ply_fail(err, "the server's playUrl '%.200s' is not on the "
                        "server %s:%ld: refused", play, cl->origin.host,
                        cl->origin.port);
    return 0;
}

static const char *const dirs[] = {"Stay", "North", "East", "South", "West"};

int vdc_play(const VdcOptions *opt, VdcResult *res, PlyError *err)
{
    memset(res, 0, sizeof *res);
    if (!opt->server || !opt->key || !*opt->key)
        return ply_fail(err, "a server URL and a key are needed");
    VdcOptions o = *opt;
    if (o.max_moves <= 0)
        o.max_moves = 1200;
    if (o.max_seconds <= 0)
        o.max_seconds = 3600;
    if (o.reconnect_ms <= 0)
        o.reconnect_ms = 30000;
    Client cl;
    memset(&cl, 0, sizeof cl);
    cl.o = &o;
    cl.deadline_ms = now_ms() + (int64_t)o.max_seconds * 1000;
    if (strlen(o.server) > 400 || origin_of(o.server, &cl.origin))
        return ply_fail(err, "--server '%.200s' is not an http:// or "
                        "https:// URL", o.server);
    Bot *bot = bot_new(&game_vindinium, o.bot ? o.bot : "vindinium",
                       o.seed, err);
    if (!bot)
        return -1;
    CURL *c = curl_easy_init();
    if (!c) {
        bot_free(bot);
        return ply_fail(err, "cannot start libcurl");
    }
    cl.c = c;
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    /* only http and https, also for redirects, which are not followed */
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE, (long)MAX_ANSWER);
    char *ek = curl_easy_escape(c, o.key, 0);
    char *em = o.map ? curl_easy_escape(c, o.map, 0) : NULL;
    char body[4096], url[512];
    int n = snprintf(body, sizeof body, "key=%s", ek ? ek : "");
    if (!o.arena && o.turns > 0)
        n += snprintf(body + n, sizeof body - (size_t)n, "&turns=%d",
                      o.turns);
    if (!o.arena && em)
        snprintf(body + n, sizeof body - (size_t)n, "&map=%s", em);
    curl_free(ek);
    curl_free(em);
    const char *base = o.server;
    size_t bl = strlen(base);
    while (bl && base[bl - 1] == '/')
        bl--;
    snprintf(url, sizeof url, "%.*s/api/%s", (int)bl, base,
             o.arena ? "arena" : "training");
    /* creation waits for three other bots in the arena: only the total
     * time bounds it */
    int transient;
    json_t *j = post(&cl, url, body, 0, &transient, err);
    int rc = -1;
    Vd st;
    while (j) {
        if (!json_is_object(j)) {
            ply_fail(err, "the server's answer is not a JSON object");
            break;
        }
        json_t *game = json_object_get(j, "game");
        json_t *hero = json_object_get(j, "hero");
        const char *play = json_string_value(json_object_get(j, "playUrl"));
        const char *view = json_string_value(json_object_get(j, "viewUrl"));
        json_int_t id = json_integer_value(json_object_get(hero, "id"));
        if (id < 1 || id > 4 || !play || vdj_read_game(game, &st, err)) {
            if (!err->msg[0])
                ply_fail(err, "the server's state lacks hero, playUrl or "
                         "game");
            break;
        }
        res->hero = (int)id;
        const char *gid = json_string_value(json_object_get(game, "id"));
        snprintf(res->game_id, sizeof res->game_id, "%s", gid ? gid : "");
        if (view)
            snprintf(res->view_url, sizeof res->view_url, "%s", view);
        json_t *hs = json_object_get(game, "heroes");
        for (int h = 0; h < 4; h++) {
            const char *nm = json_string_value(json_object_get(
                json_array_get(hs, (size_t)h), "name"));
            snprintf(res->names[h], sizeof res->names[h], "%s",
                     nm ? nm : "?");
            res->gold[h] = st.hero[h].gold;
        }
        res->crashed = st.hero[id - 1].crashed;
        if (st.finished) {
            rc = 0;
            break;
        }
        if (check_play_url(&cl, play, err))
            break;
        if (res->moves >= o.max_moves) {
            ply_fail(err, "gave up after %d moves: the server never ended "
                     "game %s (--max-moves)", res->moves, res->game_id);
            break;
        }
        if (res->moves == 0 && o.log)
            fprintf(o.log, "game %s, hero %d, %s\n", res->game_id,
                    res->hero, view ? view : "");
        /* the server says it is our turn; the state's turn agrees unless
         * it was built oddly, so play for the hero to move */
        st.turn = st.turn - st.turn % 4 + (int)id - 1;
        SearchInfo info;
        memset(&info, 0, sizeof info);
        Move m = bot_choose(bot, &st, NULL, &info);
        if (m > VD_WEST)
            m = VD_STAY;
        char pb[64], purl[600];
        snprintf(pb, sizeof pb, "dir=%s", dirs[m]);
        snprintf(purl, sizeof purl, "%s", play);
        json_decref(j);
        /* a server that restarts comes back with the game: post the same
         * move again for up to reconnect_ms */
        int64_t retry_until = now_ms() + o.reconnect_ms;
        for (;;) {
            err->msg[0] = 0;
            j = post(&cl, purl, pb, 60000, &transient, err);
            if (j || !transient || now_ms() >= retry_until ||
                now_ms() >= cl.deadline_ms)
                break;
            struct timespec ts = {0, 200000000L};
            nanosleep(&ts, NULL);
        }
        res->moves++;
        if (o.log && res->moves % 100 == 0)
            fprintf(o.log, "move %d\n", res->moves);
    }
    json_decref(j);
    if (rc == 0) {
        int me = res->hero - 1;
        res->place = 1;
        for (int h = 0; h < 4; h++)
            if (res->gold[h] > res->gold[me])
                res->place++;
    }
    curl_easy_cleanup(c);
    bot_free(bot);
    return rc;
}
