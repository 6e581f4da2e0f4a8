/* apps/vindinium/server.c — the Vindinium HTTP server (see server.h).
 *
 * Threads: libmicrohttpd runs one thread per connection, so a request
 * simply blocks until its answer is ready (the long poll of the official
 * API). Each game has a thread that plays it: server bots and crashed
 * heroes move at once; a client hero gets timeout_ms from the moment its
 * state is handed out, else it crashes (vindinium.md §7). One mutex and
 * one condition variable guard all games: every change is broadcast. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "../../core/bot.h"
#include "json.h"
#include "server.h"

extern const GameVtbl game_vindinium;

enum { KEEP_FINISHED = 64, MAX_KEY = 64, MAX_PARAMS = 16 };

typedef struct SGame {
    struct VdServer *srv;
    char id[9];
    int training, started, thread_done, saved, refs;
    Vd st, start;
    uint8_t moves[VD_MAX_TURNS + 8];
    int nmoves;
    char token[VD_HEROES][5];
    char key[VD_HEROES][MAX_KEY + 1];
    VdjHero meta[VD_HEROES];
    Bot *bot[VD_HEROES];
    int joined;
    int pending[VD_HEROES];     /* a client's move for the current turn */
    int handed_turn;            /* turn whose state a client was given */
    int64_t handed_ms;
    int has_thread;
    pthread_t thread;
    struct SGame *next;
} SGame;

struct VdServer {
    VdsConfig cfg;
    char host[64], db_path[512], training_bot[128];
    struct MHD_Daemon *daemon;
    sqlite3 *db;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    Rng rng;
    SGame *games;               /* newest first */
    SGame *arena;               /* the arena round filling up, or NULL */
    int stopping;
    int port;
};

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Waits on the server's condition until `until` (monotonic ms). */
static void wait_until(VdServer *s, int64_t until)
{
    struct timespec t;
    t.tv_sec = (time_t)(until / 1000);
    t.tv_nsec = (long)(until % 1000) * 1000000L;
    pthread_cond_timedwait(&s->cv, &s->mu, &t);
}

static void random_chars(VdServer *s, char *out, int n)
{
    static const char al[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    for (int i = 0; i < n; i++)
        out[i] = al[rng_below(&s->rng, 36)];
    out[n] = 0;
}

/* ---------------- database ---------------- */

static int db_exec(VdServer *s, const char *sql)
{
    char *msg = NULL;
    int r = sqlite3_exec(s->db, sql, NULL, NULL, &msg);
    if (r != SQLITE_OK) {
        fprintf(stderr, "ply serve: sqlite: %s\n", msg ? msg : "?");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

typedef struct User {
    char key[MAX_KEY + 1], name[32], id[16];
    int elo, games;
} User;

static int db_user_by_key(VdServer *s, const char *key, User *u)
{
    sqlite3_stmt *q;
    int found = 0;
    if (sqlite3_prepare_v2(s->db, "SELECT name, id, elo, games FROM users "
                           "WHERE key = ?", -1, &q, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(q) == SQLITE_ROW) {
        snprintf(u->key, sizeof u->key, "%s", key);
        snprintf(u->name, sizeof u->name, "%s", sqlite3_column_text(q, 0));
        snprintf(u->id, sizeof u->id, "%s", sqlite3_column_text(q, 1));
        u->elo = sqlite3_column_int(q, 2);
        u->games = sqlite3_column_int(q, 3);
        found = 1;
    }
    sqlite3_finalize(q);
    return found;
}

static int db_add_user(VdServer *s, const char *key, const char *name)
{
    sqlite3_stmt *q;
    char id[9];
    random_chars(s, id, 8);
    if (sqlite3_prepare_v2(s->db, "INSERT INTO users(key, name, id, elo, "
                           "games) VALUES(?, ?, ?, 1200, 0)", -1, &q,
                           NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(q, 1, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 2, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 3, id, -1, SQLITE_TRANSIENT);
    int r = sqlite3_step(q) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(q);
    return r;
}

static int valid_token_chars(const char *k, int maxlen)
{
    int n = 0;
    for (; k[n]; n++)
        if (n >= maxlen || !(isalnum((unsigned char)k[n]) || k[n] == '_' ||
                             k[n] == '-'))
            return 0;
    return n > 0;
}

/* The user owning key; unknown keys register themselves unless the
 * server only accepts registered keys. 0 found, -1 not found. */
static int find_user(VdServer *s, const char *key, User *u)
{
    if (!valid_token_chars(key, MAX_KEY))
        return -1;
    int r = db_user_by_key(s, key, u);
    if (r > 0)
        return 0;
    if (r < 0 || s->cfg.registered_only)
        return -1;
    char name[32];
    uint64_t h = 0;
    for (const char *p = key; *p; p++)
        h = ply_mix64(h ^ (unsigned char)*p);
    for (int i = 0; i < 8; i++) {
        snprintf(name, sizeof name, "anon-%06llx",
                 (unsigned long long)((h >> (4 * i)) & 0xffffff));
        if (db_add_user(s, key, name) == 0)
            return db_user_by_key(s, key, u) > 0 ? 0 : -1;
    }
    return -1;
}

int vds_register(VdServer *s, const char *name, char *key, PlyError *err)
{
    int n = (int)strlen(name);
    if (n < 3 || n > 20 || !valid_token_chars(name, 20))
        return ply_fail(err, "a name has 3 to 20 letters, digits, _ or -");
    pthread_mutex_lock(&s->mu);
    random_chars(s, key, 8);
    int r = db_add_user(s, key, name);
    pthread_mutex_unlock(&s->mu);
    if (r)
        return ply_fail(err, "the name '%s' is taken", name);
    return 0;
}

/* Elo.scala: pairwise K = 16 with truncation, summed per user, plus a
 * game bonus of 1 with probability 1/10; only games with several names. */
static void db_update_elo(VdServer *s, SGame *g)
{
    User u[VD_HEROES];
    for (int h = 0; h < VD_HEROES; h++)
        if (db_user_by_key(s, g->key[h], &u[h]) <= 0)
            return;
    int many = 0;
    for (int h = 1; h < VD_HEROES; h++)
        many |= strcmp(u[h].name, u[0].name) != 0;
    if (!many)
        return;
    int bonus = rng_below(&s->rng, 10) == 0;
    for (int h = 0; h < VD_HEROES; h++) {
        int seen = 0;
        for (int k = 0; k < h; k++)
            seen |= !strcmp(u[k].key, u[h].key);
        if (seen)
            continue;   /* one update per user, over all its heroes */
        int delta = bonus;
        for (int p = 0; p < VD_HEROES; p++) {
            if (strcmp(u[p].key, u[h].key))
                continue;
            for (int o = 0; o < VD_HEROES; o++) {
                if (!strcmp(u[o].name, u[p].name))
                    continue;
                double expected = 1.0 / (1.0 + pow(10.0, (u[o].elo - u[p].elo) /
                                                    400.0));
                int gp = g->st.hero[p].gold, go = g->st.hero[o].gold;
                double score = gp > go ? 1 : gp < go ? 0 : 0.5;
                delta += (int)(16 * (score - expected));
            }
        }
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(s->db, "UPDATE users SET elo = elo + ?, "
                               "games = games + 1 WHERE key = ?", -1, &q,
                               NULL) != SQLITE_OK)
            continue;
        sqlite3_bind_int(q, 1, delta);
        sqlite3_bind_text(q, 2, u[h].key, -1, SQLITE_TRANSIENT);
        sqlite3_step(q);
        sqlite3_finalize(q);
    }
}

static void db_save_game(VdServer *s, SGame *g)
{
    char setup[8192], moves[VD_MAX_TURNS + 16];
    if (game_vindinium.to_text(&g->start, setup, sizeof setup) < 0)
        return;
    for (int i = 0; i < g->nmoves; i++)
        moves[i] = (char)('0' + g->moves[i]);
    moves[g->nmoves] = 0;
    json_t *hs = json_array();
    for (int h = 0; h < VD_HEROES; h++) {
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(g->meta[h].name));
        if (g->meta[h].has_user) {
            json_object_set_new(o, "userId", json_string(g->meta[h].user_id));
            json_object_set_new(o, "elo", json_integer(g->meta[h].elo));
        }
        json_array_append_new(hs, o);
    }
    char *heroes = json_dumps(hs, JSON_COMPACT);
    json_decref(hs);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO games(id, "
                           "training, setup, moves, heroes, finished_at) "
                           "VALUES(?, ?, ?, ?, ?, strftime('%s','now'))",
                           -1, &q, NULL) == SQLITE_OK) {
        sqlite3_bind_text(q, 1, g->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(q, 2, g->training);
        sqlite3_bind_text(q, 3, setup, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 4, moves, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 5, heroes ? heroes : "[]", -1,
                          SQLITE_TRANSIENT);
        sqlite3_step(q);
        sqlite3_finalize(q);
    }
    free(heroes);
    if (!g->training)
        db_update_elo(s, g);
    g->saved = 1;
}

/* ---------------- games ---------------- */

static SGame *find_game(VdServer *s, const char *id)
{
    for (SGame *g = s->games; g; g = g->next)
        if (!strcmp(g->id, id))
            return g;
    return NULL;
}

static void free_game(SGame *g)
{
    if (g->has_thread)
        pthread_join(g->thread, NULL);
    for (int h = 0; h < VD_HEROES; h++)
        if (g->bot[h])
            bot_free(g->bot[h]);
    free(g);
}

/* Keeps the newest finished games in memory (late requests still get
 * "The game is finished"); older ones live on in the database. */
static void prune_games(VdServer *s)
{
    int kept = 0;
    for (SGame **pp = &s->games; *pp;) {
        SGame *g = *pp;
        if (g->thread_done && g->refs == 0 && ++kept > KEEP_FINISHED) {
            *pp = g->next;
            free_game(g);
            continue;
        }
        pp = &g->next;
    }
}

static void play(SGame *g, int m)
{
    vd_apply(&g->st, m);
    if (g->nmoves < (int)sizeof g->moves)
        g->moves[g->nmoves++] = (uint8_t)m;
    pthread_cond_broadcast(&g->srv->cv);
}

static void *game_thread(void *arg)
{
    SGame *g = arg;
    VdServer *s = g->srv;
    pthread_mutex_lock(&s->mu);
    while (!g->st.finished && !s->stopping) {
        int h = g->st.turn % VD_HEROES;
        if (g->st.hero[h].crashed) {
            play(g, VD_STAY);   /* Round.stayCrashed */
        } else if (g->bot[h]) {
            Vd copy = g->st;
            SearchInfo info;
            memset(&info, 0, sizeof info);
            pthread_mutex_unlock(&s->mu);
            Move m = bot_choose(g->bot[h], &copy, NULL, &info);
            pthread_mutex_lock(&s->mu);
            play(g, m <= VD_WEST ? (int)m : VD_STAY);
        } else {
            if (g->handed_turn != g->st.turn) {
                g->handed_turn = g->st.turn;
                g->handed_ms = now_ms();
                pthread_cond_broadcast(&s->cv);
            }
            int64_t deadline = g->handed_ms + s->cfg.timeout_ms;
            while (g->pending[h] < 0 && !s->stopping && now_ms() < deadline)
                wait_until(s, deadline);
            if (s->stopping)
                break;
            if (g->pending[h] < 0) {
                play(g, VD_CRASH);
                continue;
            }
            int m = g->pending[h];
            g->pending[h] = -1;
            int64_t hold = g->handed_ms + s->cfg.min_move_ms;
            while (now_ms() < hold && !s->stopping) {
                pthread_mutex_unlock(&s->mu);
                struct timespec ts = {0, 2000000};
                nanosleep(&ts, NULL);
                pthread_mutex_lock(&s->mu);
            }
            play(g, m);
        }
    }
    if (g->st.finished && !g->saved)
        db_save_game(s, g);
    g->thread_done = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static SGame *new_game(VdServer *s, int training)
{
    SGame *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->srv = s;
    g->training = training;
    g->handed_turn = -1;
    for (int h = 0; h < VD_HEROES; h++)
        g->pending[h] = -1;
    do
        random_chars(s, g->id, 8);
    while (find_game(s, g->id));
    for (int h = 0; h < VD_HEROES; h++) {
        int dup;
        do {
            random_chars(s, g->token[h], 4);
            dup = 0;
            for (int k = 0; k < h; k++)
                dup |= !strcmp(g->token[k], g->token[h]);
        } while (dup);
    }
    return g;
}

static int start_game(VdServer *s, SGame *g)
{
    g->start = g->st;
    g->started = 1;
    if (pthread_create(&g->thread, NULL, game_thread, g))
        return -1;
    g->has_thread = 1;
    return 0;
}

static void seat_user(SGame *g, int h, const User *u)
{
    snprintf(g->key[h], sizeof g->key[h], "%s", u->key);
    snprintf(g->meta[h].name, sizeof g->meta[h].name, "%s", u->name);
    snprintf(g->meta[h].user_id, sizeof g->meta[h].user_id, "%s", u->id);
    g->meta[h].elo = u->elo;
    g->meta[h].has_user = 1;
}

/* ---------------- HTTP ---------------- */

typedef struct Req {
    char *body;
    size_t len;
    int too_big;
    int nparams;
    char *pk[MAX_PARAMS], *pv[MAX_PARAMS];
} Req;

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code,
                             const char *type, const char *body, size_t len)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        len, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    enum MHD_Result ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result text(struct MHD_Connection *c, unsigned code,
                            const char *msg)
{
    return reply(c, code, "text/plain; charset=utf-8", msg, strlen(msg));
}

static enum MHD_Result json_reply(struct MHD_Connection *c, json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!s)
        return text(c, 500, "out of memory");
    enum MHD_Result r = reply(c, 200, "application/json; charset=utf-8", s,
                              strlen(s));
    free(s);
    return r;
}

/* Form body (application/x-www-form-urlencoded) into name/value pairs. */
static void parse_form(Req *r)
{
    if (!r->body)
        return;
    char *save = NULL;
    for (char *tok = strtok_r(r->body, "&", &save); tok && r->nparams <
         MAX_PARAMS; tok = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(tok, '=');
        char *v = eq ? eq + 1 : tok + strlen(tok);
        if (eq)
            *eq = 0;
        for (char *p = tok; *p; p++)
            if (*p == '+')
                *p = ' ';
        for (char *p = v; *p; p++)
            if (*p == '+')
                *p = ' ';
        MHD_http_unescape(tok);
        MHD_http_unescape(v);
        r->pk[r->nparams] = tok;
        r->pv[r->nparams++] = v;
    }
}

/* A parameter: the query string wins over the body (Play's binding). */
static const char *param(struct MHD_Connection *c, Req *r, const char *k)
{
    const char *q = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, k);
    if (q)
        return q;
    for (int i = 0; i < r->nparams; i++)
        if (!strcmp(r->pk[i], k))
            return r->pv[i];
    return NULL;
}

static void request_host(VdServer *s, struct MHD_Connection *c, char *out,
                         size_t n)
{
    const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    int ok = h && *h && strlen(h) < 200;
    for (const char *p = h; ok && *p; p++)
        ok = isalnum((unsigned char)*p) || strchr(".-:[]_", *p);
    if (ok)
        snprintf(out, n, "%s", h);
    else
        snprintf(out, n, "%s:%d", s->host, s->port);
}

/* Blocks until it is hero h's turn in g (its state handed out) or the
 * game is over; then answers with the envelope. Called locked. */
static enum MHD_Result answer_when_turn(VdServer *s, struct MHD_Connection *c,
                                        SGame *g, int h, int after_turn)
{
    g->refs++;
    while (!s->stopping && !g->st.finished &&
           !(g->started && g->st.turn > after_turn &&
             g->st.turn % VD_HEROES == h && g->handed_turn == g->st.turn))
        pthread_cond_wait(&s->cv, &s->mu);
    g->refs--;
    if (s->stopping && !g->st.finished) {
        pthread_mutex_unlock(&s->mu);
        return text(c, 503, "Vindinium - The server is shutting down");
    }
    Vd st = g->st;
    VdjHero meta[VD_HEROES];
    memcpy(meta, g->meta, sizeof meta);
    char token[5], id[9];
    memcpy(token, g->token[h], sizeof token);
    memcpy(id, g->id, sizeof id);
    pthread_mutex_unlock(&s->mu);
    char host[256];
    request_host(s, c, host, sizeof host);
    return json_reply(c, vdj_envelope(id, &st, meta, h, token, host));
}

static int load_map(VdServer *s, const char *map, Vd *v, PlyError *err)
{
    if (!map)
        return vd_generate(v, rng_next(&s->rng), err);
    for (int i = 0; vd_map_names[i]; i++)
        if (!strcmp(map, vd_map_names[i]))
            return vd_load_fixed(v, i, err);
    return vd_parse_map(v, map, err);
}

static enum MHD_Result api_training(VdServer *s, struct MHD_Connection *c,
                                    Req *r)
{
    const char *key = param(c, r, "key");
    const char *turns = param(c, r, "turns");
    const char *map = param(c, r, "map");
    long t = 300;
    if (turns) {
        char *end;
        errno = 0;
        t = strtol(turns, &end, 10);
        if (!*turns || *end || errno)
            key = NULL;   /* the form fails as a whole */
    }
    if (!key || !*key)
        return text(c, 400, "Did you forget the key parameter?");
    if (t > 600)
        t = 600;
    if (t < -600)
        t = -600;
    pthread_mutex_lock(&s->mu);
    User u;
    if (find_user(s, key, &u)) {
        pthread_mutex_unlock(&s->mu);
        return text(c, 400, "Vindinium - Key not found");
    }
    SGame *g = new_game(s, 1);
    PlyError err = {{0}};
    if (!g) {
        pthread_mutex_unlock(&s->mu);
        return text(c, 500, "out of memory");
    }
    if (load_map(s, map, &g->st, &err)) {
        pthread_mutex_unlock(&s->mu);
        free(g);
        char msg[320];
        /* MapParseException(str) / GameException(reason) */
        snprintf(msg, sizeof msg, "Vindinium - %s",
                 map && strlen(map) < 200 ? map : err.msg);
        return text(c, 400, msg);
    }
    g->st.turn = 0;
    g->st.max_turns = (int32_t)(t * 4);
    g->st.training = 1;
    vd_refresh(&g->st);
    seat_user(g, 0, &u);
    for (int h = 1; h < VD_HEROES; h++) {
        g->bot[h] = bot_new(&game_vindinium, s->training_bot,
                            rng_next(&s->rng), &err);
        if (!g->bot[h]) {
            pthread_mutex_unlock(&s->mu);
            free_game(g);
            return text(c, 500, "Vindinium - training bot unavailable");
        }
        snprintf(g->meta[h].name, sizeof g->meta[h].name, "%s",
                 g->bot[h]->v->name);
    }
    prune_games(s);
    g->next = s->games;
    s->games = g;
    if (start_game(s, g)) {
        pthread_mutex_unlock(&s->mu);
        return text(c, 500, "Vindinium - cannot start the game");
    }
    return answer_when_turn(s, c, g, 0, -1);
}

static enum MHD_Result api_arena(VdServer *s, struct MHD_Connection *c,
                                 Req *r)
{
    const char *key = param(c, r, "key");
    if (!key || !*key)
        return text(c, 400, "Did you forget the key parameter?");
    pthread_mutex_lock(&s->mu);
    User u;
    if (find_user(s, key, &u)) {
        pthread_mutex_unlock(&s->mu);
        return text(c, 400, "Vindinium - Key not found");
    }
    SGame *g = s->arena;
    if (!g) {
        PlyError err = {{0}};
        g = new_game(s, 0);
        if (!g || vd_generate(&g->st, rng_next(&s->rng), &err)) {
            pthread_mutex_unlock(&s->mu);
            free(g);
            return text(c, 500, "Vindinium - cannot create a game");
        }
        g->st.max_turns = s->cfg.arena_turns;
        vd_refresh(&g->st);
        prune_games(s);
        g->next = s->games;
        s->games = g;
        s->arena = g;
    }
    int h = g->joined++;
    seat_user(g, h, &u);
    if (g->joined == VD_HEROES) {
        s->arena = NULL;
        if (start_game(s, g)) {
            pthread_mutex_unlock(&s->mu);
            return text(c, 500, "Vindinium - cannot start the game");
        }
    }
    return answer_when_turn(s, c, g, h, -1);
}

static int parse_dir(const char *d)
{
    char b[16];
    while (isspace((unsigned char)*d))
        d++;
    size_t n = 0;
    for (; d[n] && n < sizeof b - 1; n++)
        b[n] = (char)tolower((unsigned char)d[n]);
    while (n && isspace((unsigned char)b[n - 1]))
        n--;
    b[n] = 0;
    if (!strcmp(b, "north"))
        return VD_NORTH;
    if (!strcmp(b, "south"))
        return VD_SOUTH;
    if (!strcmp(b, "east"))
        return VD_EAST;
    if (!strcmp(b, "west"))
        return VD_WEST;
    return VD_STAY;   /* Dir.apply: anything else is Stay */
}

static enum MHD_Result api_play(VdServer *s, struct MHD_Connection *c,
                                Req *r, const char *id, const char *token)
{
    const char *dir = param(c, r, "dir");
    if (!dir || !*dir)
        return reply(c, 400, "text/plain; charset=utf-8", "", 0);
    pthread_mutex_lock(&s->mu);
    SGame *g = find_game(s, id);
    if (!g) {
        pthread_mutex_unlock(&s->mu);
        char msg[128];
        snprintf(msg, sizeof msg, "Vindinium - Unknown game %.16s", id);
        return text(c, 404, msg);
    }
    int h = -1;
    for (int k = 0; k < VD_HEROES; k++)
        if (!strcmp(g->token[k], token) && !g->bot[k] &&
            (g->started || k < g->joined))
            h = k;
    const char *bad = NULL;
    if (h < 0) {
        pthread_mutex_unlock(&s->mu);
        return text(c, 404, "Vindinium - Wrong or expired token");
    }
    if (g->st.hero[h].crashed)
        bad = "Vindinium - Time out! You must play faster";
    else if (g->st.finished)
        bad = "Vindinium - The game is finished";
    else if (!g->started || g->st.turn % VD_HEROES != h ||
             g->handed_turn != g->st.turn || g->pending[h] >= 0)
        bad = "Vindinium - Wait, you're not supposed to play now";
    if (bad) {
        pthread_mutex_unlock(&s->mu);
        return text(c, 400, bad);
    }
    g->pending[h] = parse_dir(dir);
    pthread_cond_broadcast(&s->cv);
    return answer_when_turn(s, c, g, h, g->st.turn);
}

/* All states of a game, from memory or from the database. Returns a
 * JSON array of game objects, or NULL when unknown. */
static json_t *game_states(VdServer *s, const char *id)
{
    Vd st;
    VdjHero meta[VD_HEROES];
    uint8_t moves[VD_MAX_TURNS + 8];
    int nmoves = 0;
    memset(meta, 0, sizeof meta);
    pthread_mutex_lock(&s->mu);
    SGame *g = find_game(s, id);
    if (g && g->started) {
        st = g->start;
        memcpy(meta, g->meta, sizeof meta);
        nmoves = g->nmoves;
        memcpy(moves, g->moves, (size_t)nmoves);
    } else {
        sqlite3_stmt *q;
        int ok = 0;
        if (sqlite3_prepare_v2(s->db, "SELECT setup, moves, heroes FROM "
                               "games WHERE id = ?", -1, &q, NULL) ==
            SQLITE_OK) {
            sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
            if (sqlite3_step(q) == SQLITE_ROW) {
                PlyError err = {{0}};
                const char *setup = (const char *)sqlite3_column_text(q, 0);
                const char *mv = (const char *)sqlite3_column_text(q, 1);
                json_t *hs = json_loads((const char *)sqlite3_column_text(
                                            q, 2), 0, NULL);
                memset(&st, 0, sizeof st);
                ok = setup && mv && game_vindinium.from_text(&st, setup,
                                                             &err) == 0;
                for (int i = 0; ok && mv[i] && i < VD_MAX_TURNS + 8; i++)
                    moves[nmoves++] = (uint8_t)(mv[i] - '0');
                for (int h = 0; h < VD_HEROES && json_is_array(hs); h++) {
                    json_t *o = json_array_get(hs, (size_t)h);
                    const char *n = json_string_value(json_object_get(o,
                                                                      "name"));
                    const char *u = json_string_value(json_object_get(o,
                                                                      "userId"));
                    snprintf(meta[h].name, sizeof meta[h].name, "%s",
                             n ? n : "");
                    if (u) {
                        meta[h].has_user = 1;
                        snprintf(meta[h].user_id, sizeof meta[h].user_id,
                                 "%s", u);
                        meta[h].elo = (int)json_integer_value(
                            json_object_get(o, "elo"));
                    }
                }
                json_decref(hs);
            }
            sqlite3_finalize(q);
        }
        if (!ok) {
            pthread_mutex_unlock(&s->mu);
            return NULL;
        }
    }
    pthread_mutex_unlock(&s->mu);
    json_t *arr = json_array();
    json_array_append_new(arr, vdj_game(id, &st, meta));
    for (int i = 0; i < nmoves; i++) {
        if (moves[i] > VD_CRASH)
            break;
        vd_apply(&st, moves[i]);
        json_array_append_new(arr, vdj_game(id, &st, meta));
    }
    return arr;
}

static enum MHD_Result get_events(VdServer *s, struct MHD_Connection *c,
                                  const char *id, int sse)
{
    json_t *arr = game_states(s, id);
    if (!arr) {
        char msg[128];
        snprintf(msg, sizeof msg, "Vindinium - Unknown game %.16s", id);
        return text(c, 404, msg);
    }
    if (!sse)
        return json_reply(c, arr);
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    for (size_t i = 0; out && i < json_array_size(arr); i++) {
        char *j = json_dumps(json_array_get(arr, i),
                             JSON_COMPACT | JSON_PRESERVE_ORDER);
        size_t n = j ? strlen(j) : 0;
        while (out && len + n + 16 > cap)
            out = realloc(out, cap *= 2);
        if (out && j) {
            memcpy(out + len, "data: ", 6);
            memcpy(out + len + 6, j, n);
            memcpy(out + len + 6 + n, "\n\n", 2);
            len += n + 8;
        }
        free(j);
    }
    json_decref(arr);
    if (!out)
        return text(c, 500, "out of memory");
    enum MHD_Result ret = reply(c, 200, "text/event-stream", out, len);
    free(out);
    return ret;
}

static enum MHD_Result get_ratings(VdServer *s, struct MHD_Connection *c)
{
    json_t *arr = json_array();
    sqlite3_stmt *q;
    pthread_mutex_lock(&s->mu);
    if (sqlite3_prepare_v2(s->db, "SELECT name, elo, games FROM users "
                           "ORDER BY elo DESC, name", -1, &q, NULL) ==
        SQLITE_OK) {
        while (sqlite3_step(q) == SQLITE_ROW) {
            json_t *o = json_object();
            json_object_set_new(o, "name", json_string(
                                    (const char *)sqlite3_column_text(q, 0)));
            json_object_set_new(o, "elo",
                                json_integer(sqlite3_column_int(q, 1)));
            json_object_set_new(o, "games",
                                json_integer(sqlite3_column_int(q, 2)));
            json_array_append_new(arr, o);
        }
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&s->mu);
    return json_reply(c, arr);
}

static int is_id(const char *p, size_t n)
{
    if (n < 1 || n > 16)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)p[i]))
            return 0;
    return 1;
}

static enum MHD_Result route(VdServer *s, struct MHD_Connection *c,
                             const char *url, const char *method, Req *r)
{
    int post = !strcmp(method, "POST"), get = !strcmp(method, "GET");
    parse_form(r);
    if (post && !strcmp(url, "/api/training"))
        return api_training(s, c, r);
    if (post && !strcmp(url, "/api/arena"))
        return api_arena(s, c, r);
    if (post && !strcmp(url, "/register")) {
        const char *name = param(c, r, "name");
        char key[16], msg[300];
        PlyError err = {{0}};
        if (!name || vds_register(s, name, key, &err)) {
            snprintf(msg, sizeof msg, "Vindinium - %s",
                     name ? err.msg : "Did you forget the name parameter?");
            return text(c, 400, msg);
        }
        snprintf(msg, sizeof msg, "%s\n", key);
        return text(c, 200, msg);
    }
    if (get && !strcmp(url, "/ai"))
        return get_ratings(s, c);
    /* /api/{id}/{token}/play */
    if (post && !strncmp(url, "/api/", 5)) {
        const char *a = url + 5, *b = strchr(a, '/');
        const char *e = b ? strchr(b + 1, '/') : NULL;
        if (b && e && !strcmp(e, "/play") && is_id(a, (size_t)(b - a)) &&
            (size_t)(e - b - 1) <= 16) {
            char id[17], token[17];
            snprintf(id, sizeof id, "%.*s", (int)(b - a), a);
            snprintf(token, sizeof token, "%.*s", (int)(e - b - 1), b + 1);
            return api_play(s, c, r, id, token);
        }
    }
    if (get && !strncmp(url, "/events/", 8) && is_id(url + 8, strlen(url + 8)))
        return get_events(s, c, url + 8, 1);
    if (get && !strncmp(url, "/replay/", 8) && is_id(url + 8, strlen(url + 8)))
        return get_events(s, c, url + 8, 0);
    if (get && is_id(url + 1, strlen(url + 1)) && strlen(url + 1) == 8) {
        char page[512];
        snprintf(page, sizeof page, "<!DOCTYPE html><html><head><title>"
                 "Vindinium %s</title></head><body><p>Game %s: states at "
                 "<a href=\"/replay/%s\">/replay/%s</a> and <a href=\"/events/"
                 "%s\">/events/%s</a>.</p></body></html>\n", url + 1, url + 1,
                 url + 1, url + 1, url + 1, url + 1);
        return reply(c, 200, "text/html; charset=utf-8", page, strlen(page));
    }
    return text(c, 404, "Not found");
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
                                  const char *url, const char *method,
                                  const char *version,
                                  const char *upload_data,
                                  size_t *upload_size, void **con_cls)
{
    (void)version;
    VdServer *s = cls;
    Req *r = *con_cls;
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r)
            return MHD_NO;
        *con_cls = r;
        return MHD_YES;
    }
    if (*upload_size) {
        if (!r->too_big) {
            if (r->len + *upload_size > (size_t)s->cfg.max_body) {
                r->too_big = 1;
                free(r->body);
                r->body = NULL;
            } else {
                char *nb = realloc(r->body, r->len + *upload_size + 1);
                if (!nb)
                    return MHD_NO;
                r->body = nb;
                memcpy(r->body + r->len, upload_data, *upload_size);
                r->len += *upload_size;
                r->body[r->len] = 0;
            }
        }
        *upload_size = 0;
        return MHD_YES;
    }
    if (r->too_big)
        return text(c, 413, "Request Entity Too Large");
    return route(s, c, url, method, r);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)c;
    (void)toe;
    Req *r = *con_cls;
    if (r) {
        free(r->body);
        free(r);
        *con_cls = NULL;
    }
}

/* ---------------- life cycle ---------------- */

void vds_config_default(VdsConfig *c)
{
    memset(c, 0, sizeof *c);
    c->host = "127.0.0.1";
    c->port = 9000;
    c->db_path = "vindinium.db";
    c->timeout_ms = 1000;
    c->min_move_ms = 0;
    c->training_bot = "random";
    c->max_body = 16384;
    c->arena_turns = 1200;
}

VdServer *vds_start(const VdsConfig *cfg, PlyError *err)
{
    VdServer *s = calloc(1, sizeof *s);
    if (!s) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    snprintf(s->host, sizeof s->host, "%s", cfg->host ? cfg->host
                                                      : "127.0.0.1");
    snprintf(s->db_path, sizeof s->db_path, "%s", cfg->db_path ?
             cfg->db_path : "vindinium.db");
    snprintf(s->training_bot, sizeof s->training_bot, "%s",
             cfg->training_bot ? cfg->training_bot : "random");
    if (s->cfg.max_body <= 0)
        s->cfg.max_body = 16384;
    if (s->cfg.arena_turns <= 0 || s->cfg.arena_turns > VD_MAX_TURNS)
        s->cfg.arena_turns = 1200;
    if (s->cfg.timeout_ms <= 0)
        s->cfg.timeout_ms = 1000;
    s->cfg.host = s->host;
    s->cfg.db_path = s->db_path;
    s->cfg.training_bot = s->training_bot;
    uint64_t seed = cfg->seed;
    if (!seed) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        seed = ply_mix64((uint64_t)t.tv_sec * 1000000007ull ^
                         (uint64_t)t.tv_nsec ^ (uint64_t)(uintptr_t)s);
    }
    rng_seed(&s->rng, seed);
    Bot *probe = bot_new(&game_vindinium, s->training_bot, 1, err);
    if (!probe) {
        free(s);
        return NULL;
    }
    bot_free(probe);
    pthread_mutex_init(&s->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (sqlite3_open(s->db_path, &s->db) != SQLITE_OK) {
        ply_fail(err, "cannot open the database '%s': %s", s->db_path,
                 sqlite3_errmsg(s->db));
        sqlite3_close(s->db);
        free(s);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, 2000);
    if (db_exec(s, "CREATE TABLE IF NOT EXISTS users(key TEXT PRIMARY KEY, "
                "name TEXT UNIQUE NOT NULL, id TEXT NOT NULL, elo INTEGER "
                "NOT NULL, games INTEGER NOT NULL);"
                "CREATE TABLE IF NOT EXISTS games(id TEXT PRIMARY KEY, "
                "training INTEGER NOT NULL, setup TEXT NOT NULL, moves TEXT "
                "NOT NULL, heroes TEXT NOT NULL, finished_at INTEGER);")) {
        ply_fail(err, "cannot set up the database '%s'", s->db_path);
        sqlite3_close(s->db);
        free(s);
        return NULL;
    }
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)cfg->port);
    if (inet_pton(AF_INET, s->host, &sa.sin_addr) != 1) {
        ply_fail(err, "--host '%s' is not an IPv4 address", s->host);
        sqlite3_close(s->db);
        free(s);
        return NULL;
    }
    s->daemon = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD,
        (uint16_t)cfg->port, NULL, NULL, on_request, s,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)120,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)512,
        MHD_OPTION_END);
    if (!s->daemon) {
        ply_fail(err, "cannot listen on %s:%d", s->host, cfg->port);
        sqlite3_close(s->db);
        free(s);
        return NULL;
    }
    const union MHD_DaemonInfo *di =
        MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
    s->port = di ? di->port : cfg->port;
    return s;
}

int vds_port(const VdServer *s)
{
    return s->port;
}

void vds_stop(VdServer *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    s->stopping = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    MHD_stop_daemon(s->daemon);
    while (s->games) {
        SGame *g = s->games;
        s->games = g->next;
        free_game(g);
    }
    sqlite3_close(s->db);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s);
}
