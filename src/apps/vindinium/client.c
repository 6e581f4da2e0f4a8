/* apps/vindinium/client.c — the Vindinium client loop: create or join a game, then
 * read each state, ask the bot, post its direction to playUrl, until the
 * game is finished. */
#include <curl/curl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/bot.h"
#include "client.h"
#include "json.h"

extern const GameVtbl game_vindinium;

typedef struct Buf {
    char *p;
    size_t n;
} Buf;

static size_t on_data(char *d, size_t sz, size_t nm, void *u)
{
    Buf *b = u;
    size_t k = sz * nm;
    if (b->n + k > (64u << 20))
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

/* POSTs a form body; returns the parsed JSON answer or NULL with err. */
static json_t *post(CURL *c, const char *url, const char *body, long timeout,
                    PlyError *err)
{
    Buf b = {NULL, 0};
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, timeout);
    CURLcode r = curl_easy_perform(c);
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    if (r != CURLE_OK) {
        free(b.p);
        ply_fail(err, "%s: %s", url, curl_easy_strerror(r));
        return NULL;
    }
    if (code != 200) {
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

static const char *const dirs[] = {"Stay", "North", "East", "South", "West"};

int vdc_play(const VdcOptions *o, VdcResult *res, PlyError *err)
{
    memset(res, 0, sizeof *res);
    if (!o->server || !o->key || !*o->key)
        return ply_fail(err, "a server URL and a key are needed");
    Bot *bot = bot_new(&game_vindinium, o->bot ? o->bot : "vindinium",
                       o->seed, err);
    if (!bot)
        return -1;
    CURL *c = curl_easy_init();
    if (!c) {
        bot_free(bot);
        return ply_fail(err, "cannot start libcurl");
    }
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    char *ek = curl_easy_escape(c, o->key, 0);
    char *em = o->map ? curl_easy_escape(c, o->map, 0) : NULL;
    char body[4096], url[512];
    int n = snprintf(body, sizeof body, "key=%s", ek ? ek : "");
    if (!o->arena && o->turns > 0)
        n += snprintf(body + n, sizeof body - (size_t)n, "&turns=%d",
                      o->turns);
    if (!o->arena && em)
        snprintf(body + n, sizeof body - (size_t)n, "&map=%s", em);
    curl_free(ek);
    curl_free(em);
    const char *base = o->server;
    size_t bl = strlen(base);
    while (bl && base[bl - 1] == '/')
        bl--;
    snprintf(url, sizeof url, "%.*s/api/%s", (int)bl, base,
             o->arena ? "arena" : "training");
    /* creation waits for three other bots in the arena: no time limit */
    json_t *j = post(c, url, body, 0L, err);
    int rc = -1;
    Vd st;
    while (j) {
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
        snprintf(res->game_id, sizeof res->game_id, "%s",
                 json_string_value(json_object_get(game, "id")) ?
                 json_string_value(json_object_get(game, "id")) : "");
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
        if (res->moves == 0 && o->log)
            fprintf(o->log, "game %s, hero %d, %s\n", res->game_id,
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
        j = post(c, purl, pb, 60L, err);
        res->moves++;
        if (o->log && res->moves % 100 == 0)
            fprintf(o->log, "move %d\n", res->moves);
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
