/* apps/vindinium/server.c — the Vindinium HTTP server (see server.h).
 *
 * Connections: libmicrohttpd polls every socket with epoll from a small
 * pool of threads, so an idle or slow connection costs a file descriptor,
 * not a thread; limits per client address and in total, and a short
 * inactivity timeout, bound what one client can hold. A request that
 * must wait (the long poll of the official API: a move is answered when
 * it is the hero's turn again) is suspended and resumed by the game that
 * it waits for; /events streams are suspended between states the same
 * way. No pool thread ever blocks on a game.
 *
 * Games: each has a thread that plays it: server bots and crashed heroes
 * move at once; a client hero gets timeout_ms from the moment its state
 * is handed out, else it crashes (vindinium.md §7). One mutex and one
 * condition variable guard all games. Every move of a running game is
 * journaled in SQLite (WAL), so a restarted server resumes the games in
 * progress: their clients post to the same play URL again. */
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
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../core/bot.h"
#include "../../core/util.h"
#include "../http/http.h"
#include "json.h"
#include "server.h"

extern const GameVtbl game_vindinium;

enum { KEEP_FINISHED = 64, MAX_KEY = 64, MAX_PARAMS = 16, RATE_SLOTS = 256,
       STOP_DRAIN_MS = 1000 };

typedef struct Req Req;
typedef struct Stream Stream;

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
    int resumed[VD_HEROES];     /* restarted: the client may post early */
    int client_moves;           /* moves the clients made (0: abandoned) */
    int handed_turn;            /* turn whose state a client was given */
    int64_t handed_ms;
    int64_t grace_until;        /* after a restart: time to reconnect */
    int has_thread;
    pthread_t thread;
    Req *waiters;               /* suspended long polls on this game */
    Stream *streams;            /* /events streams of this game */
    struct SGame *next;
} SGame;

/* Game creations per key: a token bucket (rate_per_min, burst). */
typedef struct KeyRate {
    char key[MAX_KEY + 1];
    double tokens;
    int64_t last_ms;
} KeyRate;

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
    KeyRate rates[RATE_SLOTS];
    int64_t last_expiry_ms;
    int stopping;
    int draining;               /* long polls resumed by the stop, not
                                 * yet answered (vds_stop waits) */
    int port;
};

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

/* The seats' names and ratings as stored with a game. */
static char *meta_json(const SGame *g)
{
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
    return heroes;
}

static void read_meta(const char *text, VdjHero meta[VD_HEROES])
{
    memset(meta, 0, sizeof(VdjHero) * VD_HEROES);
    json_t *hs = text ? json_loads(text, 0, NULL) : NULL;
    for (int h = 0; h < VD_HEROES && json_is_array(hs); h++) {
        json_t *o = json_array_get(hs, (size_t)h);
        const char *n = json_string_value(json_object_get(o, "name"));
        const char *u = json_string_value(json_object_get(o, "userId"));
        snprintf(meta[h].name, sizeof meta[h].name, "%s", n ? n : "");
        if (u) {
            meta[h].has_user = 1;
            snprintf(meta[h].user_id, sizeof meta[h].user_id, "%s", u);
            meta[h].elo = (int)json_integer_value(json_object_get(o, "elo"));
        }
    }
    json_decref(hs);
}

static void moves_text(const SGame *g, char *out)
{
    for (int i = 0; i < g->nmoves; i++)
        out[i] = (char)('0' + g->moves[i]);
    out[g->nmoves] = 0;
}

/* The journal: a started game's row in `running`, one UPDATE per move,
 * so that a restart (even kill -9) resumes it (resume_games). */
static void journal_start(VdServer *s, SGame *g)
{
    char setup[8192], moves[VD_MAX_TURNS + 16], tokens[VD_HEROES * 4 + 1];
    if (game_vindinium.to_text(&g->start, setup, sizeof setup) < 0)
        return;
    moves_text(g, moves);
    for (int h = 0; h < VD_HEROES; h++)
        memcpy(tokens + 4 * h, g->token[h], 4);
    tokens[VD_HEROES * 4] = 0;
    json_t *ks = json_array();
    for (int h = 0; h < VD_HEROES; h++)
        json_array_append_new(ks, json_string(g->bot[h] ? "" : g->key[h]));
    char *keys = json_dumps(ks, JSON_COMPACT);
    json_decref(ks);
    char *heroes = meta_json(g);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO running(id, "
                           "training, setup, moves, tokens, keys, heroes, "
                           "client_moves) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                           -1, &q, NULL) == SQLITE_OK) {
        sqlite3_bind_text(q, 1, g->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(q, 2, g->training);
        sqlite3_bind_text(q, 3, setup, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 4, moves, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 5, tokens, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 6, keys ? keys : "[]", -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 7, heroes ? heroes : "[]", -1,
                          SQLITE_TRANSIENT);
        sqlite3_bind_int(q, 8, g->client_moves);
        if (sqlite3_step(q) != SQLITE_DONE)
            fprintf(stderr, "ply serve: journal: %s\n", sqlite3_errmsg(s->db));
        sqlite3_finalize(q);
    }
    free(keys);
    free(heroes);
}

static void journal_move(VdServer *s, SGame *g, int m)
{
    char mv[2] = {(char)('0' + m), 0};
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "UPDATE running SET moves = moves || ?, "
                           "client_moves = ? WHERE id = ?", -1, &q, NULL) !=
        SQLITE_OK)
        return;
    sqlite3_bind_text(q, 1, mv, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(q, 2, g->client_moves);
    sqlite3_bind_text(q, 3, g->id, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(q) != SQLITE_DONE)
        fprintf(stderr, "ply serve: journal: %s\n", sqlite3_errmsg(s->db));
    sqlite3_finalize(q);
}

static void db_save_game(VdServer *s, SGame *g)
{
    char setup[8192], moves[VD_MAX_TURNS + 16];
    if (game_vindinium.to_text(&g->start, setup, sizeof setup) < 0)
        return;
    moves_text(g, moves);
    char *heroes = meta_json(g);
    sqlite3_stmt *q;
    db_exec(s, "BEGIN");
    if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO games(id, "
                           "training, setup, moves, heroes, finished_at, "
                           "abandoned) VALUES(?, ?, ?, ?, ?, "
                           "strftime('%s','now'), ?)",
                           -1, &q, NULL) == SQLITE_OK) {
        sqlite3_bind_text(q, 1, g->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(q, 2, g->training);
        sqlite3_bind_text(q, 3, setup, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 4, moves, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 5, heroes ? heroes : "[]", -1,
                          SQLITE_TRANSIENT);
        sqlite3_bind_int(q, 6, g->client_moves == 0);
        sqlite3_step(q);
        sqlite3_finalize(q);
    }
    free(heroes);
    if (sqlite3_prepare_v2(s->db, "DELETE FROM running WHERE id = ?", -1, &q,
                           NULL) == SQLITE_OK) {
        sqlite3_bind_text(q, 1, g->id, -1, SQLITE_TRANSIENT);
        sqlite3_step(q);
        sqlite3_finalize(q);
    }
    if (!g->training)
        db_update_elo(s, g);
    db_exec(s, "COMMIT");
    g->saved = 1;
}

/* Expiry: finished training games that no client move ever touched
 * (abandoned) are deleted after abandoned_keep_s, the others after
 * training_keep_s; arena games stay (ratings and replays). At most one
 * sweep per second. Called locked. */
static void expire_games(VdServer *s)
{
    int64_t t = now_ms();
    if (s->last_expiry_ms && t - s->last_expiry_ms < 1000)
        return;
    s->last_expiry_ms = t;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "DELETE FROM games WHERE training = 1 AND "
                           "((abandoned = 1 AND finished_at <= "
                           "strftime('%s','now') - ?) OR finished_at <= "
                           "strftime('%s','now') - ?)", -1, &q, NULL) !=
        SQLITE_OK)
        return;
    sqlite3_bind_int64(q, 1, s->cfg.abandoned_keep_s);
    sqlite3_bind_int64(q, 2, s->cfg.training_keep_s);
    sqlite3_step(q);
    sqlite3_finalize(q);
}


/* ---------------- games ---------------- */

struct Req {
    char *body;
    size_t len;
    int too_big, bad_nul;
    int nparams;
    char *pk[MAX_PARAMS], *pv[MAX_PARAMS];
    /* a long poll: waiting (suspended) for hero `hero` of `game` to be
     * due after turn `after`, or for the game's end */
    struct MHD_Connection *conn;
    SGame *game;
    int hero, after, waiting, resumed;
    int draining;               /* resumed by the stop: counted in s */
    Req *next_wait;
};

/* An /events stream of a game in memory: its own copy of the state,
 * advanced one journaled move at a time. */
struct Stream {
    VdServer *srv;
    SGame *game;
    struct MHD_Connection *conn;
    Vd st;
    int next;                   /* index of the next state (0: start) */
    VdjHero meta[VD_HEROES];
    char id[9];
    char *buf;
    size_t len, off;
    int suspended;
    Stream *next_stream;
};

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

static int poll_ready(const VdServer *s, const SGame *g, const Req *r)
{
    return s->stopping || g->st.finished || g->thread_done ||
           (g->started && g->st.turn > r->after &&
            g->st.turn % VD_HEROES == r->hero &&
            g->handed_turn == g->st.turn);
}

/* Resumes the long polls of g that can be answered now and every
 * suspended stream of g. Called locked after any change of g. */
static void wake(SGame *g)
{
    VdServer *s = g->srv;
    for (Req **pp = &g->waiters; *pp;) {
        Req *r = *pp;
        if (poll_ready(s, g, r)) {
            *pp = r->next_wait;
            r->next_wait = NULL;
            r->waiting = 0;
            r->resumed = 1;
            if (s->stopping && !r->draining) {
                r->draining = 1;
                s->draining++;
            }
            MHD_resume_connection(r->conn);
            continue;
        }
        pp = &r->next_wait;
    }
    for (Stream *x = g->streams; x; x = x->next_stream)
        if (x->suspended) {
            x->suspended = 0;
            MHD_resume_connection(x->conn);
        }
    pthread_cond_broadcast(&s->cv);
}

static void play(SGame *g, int m, int by_client)
{
    vd_apply(&g->st, m);
    if (g->nmoves < (int)sizeof g->moves)
        g->moves[g->nmoves++] = (uint8_t)m;
    g->client_moves += by_client;
    if (!g->st.finished)
        journal_move(g->srv, g, m);
    wake(g);
}

static void *game_thread(void *arg)
{
    SGame *g = arg;
    VdServer *s = g->srv;
    pthread_mutex_lock(&s->mu);
    while (!g->st.finished && !s->stopping) {
        int h = g->st.turn % VD_HEROES;
        if (g->st.hero[h].crashed) {
            play(g, VD_STAY, 0);   /* Round.stayCrashed */
        } else if (g->bot[h]) {
            Vd copy = g->st;
            SearchInfo info;
            memset(&info, 0, sizeof info);
            pthread_mutex_unlock(&s->mu);
            Move m = bot_choose(g->bot[h], &copy, NULL, &info);
            pthread_mutex_lock(&s->mu);
            play(g, m <= VD_WEST ? (int)m : VD_STAY, 0);
        } else {
            if (g->handed_turn != g->st.turn) {
                g->handed_turn = g->st.turn;
                g->handed_ms = now_ms();
                wake(g);
            }
            int64_t deadline = g->handed_ms + s->cfg.timeout_ms;
            if (g->resumed[h] && deadline < g->grace_until)
                deadline = g->grace_until;
            while (g->pending[h] < 0 && !s->stopping && now_ms() < deadline)
                wait_until(s, deadline);
            if (s->stopping)
                break;
            if (g->pending[h] < 0) {
                play(g, VD_CRASH, 0);
                continue;
            }
            int m = g->pending[h];
            g->pending[h] = -1;
            g->resumed[h] = 0;
            int64_t hold = g->handed_ms + s->cfg.min_move_ms;
            while (now_ms() < hold && !s->stopping) {
                pthread_mutex_unlock(&s->mu);
                struct timespec ts = {0, 2000000};
                nanosleep(&ts, NULL);
                pthread_mutex_lock(&s->mu);
            }
            play(g, m, 1);
        }
    }
    if (g->st.finished && !g->saved)
        db_save_game(s, g);
    g->thread_done = 1;
    wake(g);
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

static int start_game(VdServer *s, SGame *g, int journal)
{
    if (journal) {
        g->start = g->st;
        journal_start(s, g);
    }
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

static int seat_bots(VdServer *s, SGame *g, PlyError *err)
{
    for (int h = 0; h < VD_HEROES; h++) {
        if (g->key[h][0])
            continue;
        g->bot[h] = bot_new(&game_vindinium, s->training_bot,
                            rng_next(&s->rng), err);
        if (!g->bot[h])
            return -1;
        snprintf(g->meta[h].name, sizeof g->meta[h].name, "%s",
                 g->bot[h]->v->name);
    }
    return 0;
}

/* Restart: every journaled game goes on from its last move; clients
 * have resume_grace_ms to post to their play URL again. */
static int resume_games(VdServer *s, PlyError *err)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT id, training, setup, moves, "
                           "tokens, keys, heroes, client_moves FROM running",
                           -1, &q, NULL) != SQLITE_OK)
        return ply_fail(err, "the journal: %s", sqlite3_errmsg(s->db));
    int n = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(q, 0);
        const char *setup = (const char *)sqlite3_column_text(q, 2);
        const char *mv = (const char *)sqlite3_column_text(q, 3);
        const char *tokens = (const char *)sqlite3_column_text(q, 4);
        json_t *keys = json_loads((const char *)sqlite3_column_text(q, 5), 0,
                                  NULL);
        PlyError e2 = {{0}};
        SGame *g = calloc(1, sizeof *g);
        int ok = g && id && strlen(id) == 8 && setup && mv && tokens &&
                 strlen(tokens) == 4 * VD_HEROES && json_is_array(keys) &&
                 json_array_size(keys) == VD_HEROES &&
                 strlen(mv) <= VD_MAX_TURNS + 8 &&
                 game_vindinium.from_text(&g->start, setup, &e2) == 0;
        if (ok) {
            g->srv = s;
            snprintf(g->id, sizeof g->id, "%s", id);
            g->training = sqlite3_column_int(q, 1);
            g->client_moves = sqlite3_column_int(q, 7);
            g->handed_turn = -1;
            g->st = g->start;
            for (int i = 0; mv[i]; i++) {
                int m = mv[i] - '0';
                ok &= m >= 0 && m <= VD_CRASH;
                if (!ok)
                    break;
                vd_apply(&g->st, m);
                g->moves[g->nmoves++] = (uint8_t)m;
            }
            read_meta((const char *)sqlite3_column_text(q, 6), g->meta);
            for (int h = 0; ok && h < VD_HEROES; h++) {
                memcpy(g->token[h], tokens + 4 * h, 4);
                g->token[h][4] = 0;
                const char *k = json_string_value(json_array_get(keys,
                                                                 (size_t)h));
                snprintf(g->key[h], sizeof g->key[h], "%s", k ? k : "");
                g->pending[h] = -1;
                g->resumed[h] = g->key[h][0] != 0;
            }
            g->joined = VD_HEROES;
            g->grace_until = now_ms() + s->cfg.resume_grace_ms;
            char names[VD_HEROES][32];
            for (int h = 0; h < VD_HEROES; h++)
                memcpy(names[h], g->meta[h].name, 32);
            ok = ok && seat_bots(s, g, &e2) == 0;
            for (int h = 0; h < VD_HEROES; h++)   /* names as journaled */
                memcpy(g->meta[h].name, names[h], 32);
        }
        json_decref(keys);
        if (!ok) {
            fprintf(stderr, "ply serve: cannot resume game %s: %s\n",
                    id ? id : "?", e2.msg[0] ? e2.msg : "bad journal row");
            if (g)
                free_game(g);
            continue;
        }
        g->next = s->games;
        s->games = g;
        if (start_game(s, g, 0)) {
            sqlite3_finalize(q);
            return ply_fail(err, "cannot start a thread");
        }
        n++;
    }
    sqlite3_finalize(q);
    if (n)
        fprintf(stderr, "ply serve: resumed %d game%s in progress\n", n,
                n > 1 ? "s" : "");
    return 0;
}

/* A token bucket of RATE_SLOTS (the least recently used slot is
 * reused): 1 when `name` may go ahead (and a token is taken unless
 * `peek`), else 0. */
static int take_token(VdServer *s, const char *name, double burst,
                      double per_min, int peek)
{
    int64_t t = now_ms();
    KeyRate *slot = NULL, *oldest = &s->rates[0];
    for (int i = 0; i < RATE_SLOTS; i++) {
        if (!strcmp(s->rates[i].key, name)) {
            slot = &s->rates[i];
            break;
        }
        if (s->rates[i].last_ms < oldest->last_ms)
            oldest = &s->rates[i];
    }
    if (!slot) {
        slot = oldest;
        snprintf(slot->key, sizeof slot->key, "%s", name);
        slot->tokens = burst;
        slot->last_ms = t;
    }
    slot->tokens += (double)(t - slot->last_ms) * per_min / 60000.0;
    if (slot->tokens > burst)
        slot->tokens = burst;
    slot->last_ms = t;
    if (slot->tokens < 1.0)
        return 0;
    if (!peek)
        slot->tokens -= 1.0;
    return 1;
}

/* Admission of a new game from a client address, before its key is
 * looked up (unknown keys register themselves): at most max_games
 * running games in all, and new games per address at 4 x the key rate.
 * A token is taken only when `take` (once the key is admitted too).
 * NULL, or the refusal. Called locked. */
static const char *admit_address(VdServer *s, struct MHD_Connection *c,
                                 int take)
{
    int running = 0;
    for (SGame *g = s->games; !take && g; g = g->next)
        running += !g->thread_done && !g->st.finished;
    if (running >= s->cfg.max_games)
        return "Vindinium - Too many games in progress, try again later";
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    char name[MAX_KEY + 1] = "@?";
    if (ci && ci->client_addr && ci->client_addr->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)ci->client_addr)->
                  sin_addr, name + 1, sizeof name - 1);
    if (!take_token(s, name, 4.0 * s->cfg.key_burst,
                    4.0 * s->cfg.key_rate_per_min, !take))
        return "Vindinium - Too many new games from this address, slow down";
    return NULL;
}

/* Admission of a new game for key: at most key_games running games per
 * key, and new games per key at key_rate_per_min in bursts of key_burst.
 * NULL, or the refusal. Called locked. */
static const char *admit(VdServer *s, const char *key)
{
    int mine = 0;
    for (SGame *g = s->games; g; g = g->next) {
        if (g->thread_done || g->st.finished)
            continue;
        for (int h = 0; h < VD_HEROES; h++)
            if (!strcmp(g->key[h], key)) {
                mine++;
                break;
            }
    }
    if (mine >= s->cfg.key_games)
        return "Vindinium - Too many games in progress for this key";
    if (!take_token(s, key, s->cfg.key_burst, s->cfg.key_rate_per_min, 0))
        return "Vindinium - Too many new games for this key, slow down";
    return NULL;
}

/* Everything a request for a new or arena game passes, in order: the
 * server is not stopping, the address and then the key are within their
 * limits (admit_address, admit), the key exists (u filled). NULL, the
 * request counted against its address; or the refusal with its HTTP
 * status in *code. Called locked. */
static const char *admit_request(VdServer *s, struct MHD_Connection *c,
                                 const char *key, User *u, unsigned *code)
{
    *code = 503;
    if (s->stopping)
        return "Vindinium - The server is shutting down";
    *code = 429;
    const char *refused = admit_address(s, c, 0);
    if (refused)
        return refused;
    if (find_user(s, key, u)) {
        *code = 400;
        return "Vindinium - Key not found";
    }
    if ((refused = admit(s, u->key)))
        return refused;
    admit_address(s, c, 1);
    return NULL;
}

/* ---------------- HTTP ---------------- */

static enum MHD_Result reply_h(struct MHD_Connection *c, unsigned code,
                               const char *type, const char *body,
                               size_t len, const char *allow)
{
    const char *hdr[] = {"Allow", allow, NULL};
    return http_send(c, code, type, body, len, hdr);
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code,
                             const char *type, const char *body, size_t len)
{
    return reply_h(c, code, type, body, len, NULL);
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

/* Form body (application/x-www-form-urlencoded) into name/value pairs.
 * A name or value that decodes to a NUL byte (%00) marks the request
 * bad: C strings would silently cut it there. */
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
        if (MHD_http_unescape(tok) != strlen(tok) ||
            MHD_http_unescape(v) != strlen(v))
            r->bad_nul = 1;
        r->pk[r->nparams] = tok;
        r->pv[r->nparams++] = v;
    }
}

static enum MHD_Result check_arg(void *cls, enum MHD_ValueKind kind,
                                 const char *key, size_t key_size,
                                 const char *value, size_t value_size)
{
    (void)kind;
    Req *r = cls;
    if (strlen(key) != key_size || (value && strlen(value) != value_size))
        r->bad_nul = 1;
    return MHD_YES;
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

/* An optional parameter: empty is absent, as Play's optional mapping. */
static const char *opt_param(struct MHD_Connection *c, Req *r, const char *k)
{
    const char *v = param(c, r, k);
    return v && *v ? v : NULL;
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

/* Answers a long poll whose condition holds (r->game set, refs taken).
 * Called locked; unlocks. */
static enum MHD_Result answer_poll(VdServer *s, struct MHD_Connection *c,
                                   Req *r)
{
    SGame *g = r->game;
    int h = r->hero;
    if (r->waiting) {   /* resumed by someone else than wake: unlink */
        for (Req **pp = &g->waiters; *pp; pp = &(*pp)->next_wait)
            if (*pp == r) {
                *pp = r->next_wait;
                break;
            }
        r->waiting = 0;
    }
    r->game = NULL;
    g->refs--;
    if (s->stopping && !g->st.finished) {
        pthread_mutex_unlock(&s->mu);
        return text(c, 503, "Vindinium - The server is shutting down");
    }
    if (g->thread_done && !g->st.finished) {
        pthread_mutex_unlock(&s->mu);
        return text(c, 503, "Vindinium - The game was stopped");
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

/* Answers when it is hero h's turn in g after `after_turn` (its state
 * handed out) or the game is over: at once if so, else the connection
 * is suspended until the game thread resumes it (wake). Called locked;
 * unlocks. */
static enum MHD_Result answer_when_turn(VdServer *s, struct MHD_Connection *c,
                                        Req *r, SGame *g, int h,
                                        int after_turn)
{
    r->game = g;
    r->hero = h;
    r->after = after_turn;
    g->refs++;
    if (poll_ready(s, g, r))
        return answer_poll(s, c, r);
    r->conn = c;
    r->waiting = 1;
    r->next_wait = g->waiters;
    g->waiters = r;
    MHD_suspend_connection(c);
    pthread_mutex_unlock(&s->mu);
    return MHD_YES;
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
    const char *turns = opt_param(c, r, "turns");
    const char *map = opt_param(c, r, "map");
    long t = 300;
    if (turns) {
        char *end;
        errno = 0;
        t = strtol(turns, &end, 10);
        if (*end || errno)
            key = NULL;   /* the form fails as a whole */
    }
    if (!key || !*key)
        return text(c, 400, "Did you forget the key parameter?");
    /* maxTurns = min(600, turns) * 4 as the official server; 0 or less
     * ends the game after the first move (vindinium-api.md §2.1) */
    if (t > 600)
        t = 600;
    if (t < -600)
        t = -600;
    pthread_mutex_lock(&s->mu);
    User u;
    unsigned code;
    const char *refused = admit_request(s, c, key, &u, &code);
    if (refused) {
        pthread_mutex_unlock(&s->mu);
        return text(c, code, refused);
    }
    expire_games(s);
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
    if (seat_bots(s, g, &err)) {
        pthread_mutex_unlock(&s->mu);
        free_game(g);
        return text(c, 500, "Vindinium - training bot unavailable");
    }
    prune_games(s);
    g->next = s->games;
    s->games = g;
    if (start_game(s, g, 1)) {
        pthread_mutex_unlock(&s->mu);
        return text(c, 500, "Vindinium - cannot start the game");
    }
    return answer_when_turn(s, c, r, g, 0, -1);
}

static enum MHD_Result api_arena(VdServer *s, struct MHD_Connection *c,
                                 Req *r)
{
    const char *key = param(c, r, "key");
    if (!key || !*key)
        return text(c, 400, "Did you forget the key parameter?");
    pthread_mutex_lock(&s->mu);
    User u;
    unsigned code;
    const char *refused = admit_request(s, c, key, &u, &code);
    if (refused) {
        pthread_mutex_unlock(&s->mu);
        return text(c, code, refused);
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
        if (start_game(s, g, 1)) {
            pthread_mutex_unlock(&s->mu);
            return text(c, 500, "Vindinium - cannot start the game");
        }
    }
    return answer_when_turn(s, c, r, g, h, -1);
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
    int due = g->st.turn;   /* the turn this move is for */
    if (g->st.hero[h].crashed)
        bad = "Vindinium - Time out! You must play faster";
    else if (g->st.finished)
        bad = "Vindinium - The game is finished";
    else if (g->started && g->resumed[h] && g->pending[h] < 0)
        /* reconnecting after a restart: the move is for the hero's next
         * turn, whatever the others are doing now */
        due = g->st.turn + ((h - g->st.turn % VD_HEROES) + VD_HEROES) %
                           VD_HEROES;
    else if (!g->started || g->st.turn % VD_HEROES != h ||
             g->handed_turn != g->st.turn || g->pending[h] >= 0)
        bad = "Vindinium - Wait, you're not supposed to play now";
    if (bad) {
        pthread_mutex_unlock(&s->mu);
        return text(c, 400, bad);
    }
    g->pending[h] = parse_dir(dir);
    pthread_cond_broadcast(&s->cv);
    return answer_when_turn(s, c, r, g, h, due);
}

/* A finished game from the database: start state, moves, seats. */
static int db_load_game(VdServer *s, const char *id, Vd *st, uint8_t *moves,
                        int *nmoves, VdjHero meta[VD_HEROES])
{
    sqlite3_stmt *q;
    int ok = 0;
    *nmoves = 0;
    if (sqlite3_prepare_v2(s->db, "SELECT setup, moves, heroes FROM "
                           "games WHERE id = ?", -1, &q, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(q) == SQLITE_ROW) {
        PlyError err = {{0}};
        const char *setup = (const char *)sqlite3_column_text(q, 0);
        const char *mv = (const char *)sqlite3_column_text(q, 1);
        memset(st, 0, sizeof *st);
        ok = setup && mv && game_vindinium.from_text(st, setup, &err) == 0;
        for (int i = 0; ok && mv[i] && i < VD_MAX_TURNS + 8; i++)
            moves[(*nmoves)++] = (uint8_t)(mv[i] - '0');
        read_meta((const char *)sqlite3_column_text(q, 2), meta);
    }
    sqlite3_finalize(q);
    return ok;
}

/* All states of a finished game as a JSON array (memory or database),
 * or NULL when unknown. */
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
    } else if (!db_load_game(s, id, &st, moves, &nmoves, meta)) {
        pthread_mutex_unlock(&s->mu);
        return NULL;
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

static int sse_append(char **out, size_t *len, size_t *cap, const json_t *g)
{
    char *j = json_dumps(g, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!j)
        return -1;
    size_t n = strlen(j);
    if (*len + n + 16 > *cap) {
        size_t nc = (*cap ? *cap : 4096);
        while (*len + n + 16 > nc)
            nc *= 2;
        char *nb = realloc(*out, nc);
        if (!nb) {
            free(j);
            return -1;
        }
        *out = nb;
        *cap = nc;
    }
    memcpy(*out + *len, "data: ", 6);
    memcpy(*out + *len + 6, j, n);
    memcpy(*out + *len + 6 + n, "\n\n", 2);
    *len += n + 8;
    free(j);
    return 0;
}

/* The content reader of a live stream: the next state when there is one,
 * the end when the game is over, else the connection is suspended until
 * the game moves (wake). */
static ssize_t stream_read(void *cls, uint64_t pos, char *out, size_t max)
{
    (void)pos;
    Stream *x = cls;
    VdServer *s = x->srv;
    if (x->off == x->len) {
        x->off = x->len = 0;
        pthread_mutex_lock(&s->mu);
        SGame *g = x->game;
        if (s->stopping) {
            pthread_mutex_unlock(&s->mu);
            return MHD_CONTENT_READER_END_WITH_ERROR;
        }
        if (x->next > g->nmoves) {
            if (g->st.finished || g->thread_done) {
                pthread_mutex_unlock(&s->mu);
                return MHD_CONTENT_READER_END_OF_STREAM;
            }
            x->suspended = 1;
            MHD_suspend_connection(x->conn);
            pthread_mutex_unlock(&s->mu);
            return 0;
        }
        int m = x->next > 0 ? g->moves[x->next - 1] : -1;
        x->next++;
        pthread_mutex_unlock(&s->mu);
        if (m >= 0)
            vd_apply(&x->st, m);
        json_t *j = vdj_game(x->id, &x->st, x->meta);
        size_t cap = 0;
        free(x->buf);
        x->buf = NULL;
        int bad = sse_append(&x->buf, &x->len, &cap, j);
        json_decref(j);
        if (bad)
            return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    size_t n = x->len - x->off < max ? x->len - x->off : max;
    memcpy(out, x->buf + x->off, n);
    x->off += n;
    return (ssize_t)n;
}

static void stream_free(void *cls)
{
    Stream *x = cls;
    VdServer *s = x->srv;
    pthread_mutex_lock(&s->mu);
    for (Stream **pp = &x->game->streams; *pp; pp = &(*pp)->next_stream)
        if (*pp == x) {
            *pp = x->next_stream;
            break;
        }
    x->game->refs--;
    if (s->stopping)
        pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    free(x->buf);
    free(x);
}

static enum MHD_Result get_events(VdServer *s, struct MHD_Connection *c,
                                  const char *id, int sse)
{
    if (sse) {
        /* a game in memory streams live: every state, then each new one
         * as it is played, until the end */
        pthread_mutex_lock(&s->mu);
        SGame *g = find_game(s, id);
        if (g && g->started && !s->stopping) {
            Stream *x = calloc(1, sizeof *x);
            if (!x) {
                pthread_mutex_unlock(&s->mu);
                return text(c, 500, "out of memory");
            }
            x->srv = s;
            x->game = g;
            x->conn = c;
            x->st = g->start;
            memcpy(x->meta, g->meta, sizeof x->meta);
            memcpy(x->id, g->id, sizeof x->id);
            struct MHD_Response *resp = MHD_create_response_from_callback(
                MHD_SIZE_UNKNOWN, 16384, stream_read, x, stream_free);
            if (!resp) {
                pthread_mutex_unlock(&s->mu);
                free(x);
                return MHD_NO;
            }
            g->refs++;
            x->next_stream = g->streams;
            g->streams = x;
            pthread_mutex_unlock(&s->mu);
            MHD_add_response_header(resp, "Content-Type",
                                    "text/event-stream");
            MHD_add_response_header(resp, "Cache-Control", "no-cache");
            enum MHD_Result ret = MHD_queue_response(c, 200, resp);
            MHD_destroy_response(resp);
            return ret;
        }
        pthread_mutex_unlock(&s->mu);
    }
    json_t *arr = game_states(s, id);
    if (!arr) {
        char msg[128];
        snprintf(msg, sizeof msg, "Vindinium - Unknown game %.16s", id);
        return text(c, 404, msg);
    }
    if (!sse)
        return json_reply(c, arr);
    size_t cap = 0, len = 0;
    char *out = NULL;
    int bad = 0;
    for (size_t i = 0; !bad && i < json_array_size(arr); i++)
        bad = sse_append(&out, &len, &cap, json_array_get(arr, i));
    json_decref(arr);
    if (bad) {
        free(out);
        return text(c, 500, "out of memory");
    }
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

static int game_known(VdServer *s, const char *id)
{
    pthread_mutex_lock(&s->mu);
    SGame *g = find_game(s, id);
    int known = g && g->started;
    if (!known) {
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM games WHERE id = ?", -1,
                               &q, NULL) == SQLITE_OK) {
            sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
            known = sqlite3_step(q) == SQLITE_ROW;
            sqlite3_finalize(q);
        }
    }
    pthread_mutex_unlock(&s->mu);
    return known;
}

static enum MHD_Result not_found(struct MHD_Connection *c)
{
    static const char page[] = "<!DOCTYPE html><html><head><title>Not found"
                               "</title></head><body><p>Not found.</p>"
                               "</body></html>\n";
    return reply(c, 404, "text/html; charset=utf-8", page, sizeof page - 1);
}

static enum MHD_Result bad_method(struct MHD_Connection *c, const char *allow)
{
    return reply_h(c, 405, "text/plain; charset=utf-8",
                   "Method Not Allowed", 18, allow);
}

static enum MHD_Result route(VdServer *s, struct MHD_Connection *c,
                             const char *url, const char *method, Req *r)
{
    int post = !strcmp(method, "POST");
    int get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
    parse_form(r);
    MHD_get_connection_values_n(c, MHD_GET_ARGUMENT_KIND, check_arg, r);
    if (r->bad_nul)
        return text(c, 400, "Vindinium - a parameter contains a NUL byte");
    if (!strcmp(url, "/api/training") || !strcmp(url, "/api/arena")) {
        if (!post)
            return bad_method(c, "POST");
        return url[5] == 't' ? api_training(s, c, r) : api_arena(s, c, r);
    }
    if (!strcmp(url, "/register")) {
        if (!post && !get)
            return bad_method(c, "GET, HEAD, POST");
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
    if (!strcmp(url, "/ai"))
        return get ? get_ratings(s, c) : bad_method(c, "GET, HEAD");
    /* /api/{id}/{token}/play */
    if (!strncmp(url, "/api/", 5)) {
        const char *a = url + 5, *b = strchr(a, '/');
        const char *e = b ? strchr(b + 1, '/') : NULL;
        if (b && e && !strcmp(e, "/play") && is_id(a, (size_t)(b - a)) &&
            (size_t)(e - b - 1) <= 16) {
            if (!post)
                return bad_method(c, "POST");
            char id[17], token[17];
            snprintf(id, sizeof id, "%.*s", (int)(b - a), a);
            snprintf(token, sizeof token, "%.*s", (int)(e - b - 1), b + 1);
            return api_play(s, c, r, id, token);
        }
        return not_found(c);
    }
    int events = !strncmp(url, "/events/", 8);
    if ((events || !strncmp(url, "/replay/", 8)) &&
        is_id(url + 8, strlen(url + 8))) {
        if (!get)
            return bad_method(c, "GET, HEAD");
        return get_events(s, c, url + 8, events);
    }
    if (strlen(url + 1) == 8 && is_id(url + 1, 8)) {
        if (!get)
            return bad_method(c, "GET, HEAD");
        if (!game_known(s, url + 1))
            return not_found(c);
        char page[512];
        snprintf(page, sizeof page, "<!DOCTYPE html><html><head><title>"
                 "Vindinium %s</title></head><body><p>Game %s: states at "
                 "<a href=\"/replay/%s\">/replay/%s</a> and <a href=\"/events/"
                 "%s\">/events/%s</a>.</p></body></html>\n", url + 1, url + 1,
                 url + 1, url + 1, url + 1, url + 1);
        return reply(c, 200, "text/html; charset=utf-8", page, strlen(page));
    }
    return not_found(c);
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
    if (r->game) {
        /* a suspended long poll, resumed: its game moved on */
        pthread_mutex_lock(&s->mu);
        r->resumed = 0;
        return answer_poll(s, c, r);
    }
    if (*upload_size) {
        HttpBody b = {r->body, r->len, r->too_big};
        if (http_body_add(&b, upload_data, *upload_size,
                          (size_t)s->cfg.max_body))
            return MHD_NO;
        r->body = b.data;
        r->len = b.len;
        r->too_big = b.too_big;
        *upload_size = 0;
        return MHD_YES;
    }
    if (r->too_big)
        return text(c, 413, "Request Entity Too Large");
    if (r->body && memchr(r->body, 0, r->len))
        return text(c, 400, "Vindinium - the body contains a NUL byte");
    return route(s, c, url, method, r);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)c;
    (void)toe;
    VdServer *s = cls;
    Req *r = *con_cls;
    if (!r)
        return;
    if (r->game || r->draining) {
        pthread_mutex_lock(&s->mu);
        if (r->game) {
            /* ended while waiting (shutdown, or the client went away) */
            for (Req **pp = &r->game->waiters; *pp; pp = &(*pp)->next_wait)
                if (*pp == r) {
                    *pp = r->next_wait;
                    break;
                }
            r->game->refs--;
        }
        if (r->draining) {
            s->draining--;
            pthread_cond_broadcast(&s->cv);
        }
        pthread_mutex_unlock(&s->mu);
    }
    free(r->body);
    free(r);
    *con_cls = NULL;
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
    c->threads = 2;
    c->max_conns = 4096;
    c->max_per_ip = 1024;
    c->conn_timeout_s = 10;
    c->max_games = 512;
    c->key_games = 8;
    c->key_burst = 20;
    c->key_rate_per_min = 120;
    c->abandoned_keep_s = 600;
    c->training_keep_s = 7 * 86400;
    c->resume_grace_ms = 30000;
}

/* Room for max_conns sockets: raises the soft descriptor limit when the
 * hard one allows, else lowers max_conns to fit. */
static void fit_descriptors(VdsConfig *c)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl))
        return;
    rlim_t want = (rlim_t)c->max_conns + 128;
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
        rlim_t cur = rl.rlim_cur;
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want
                      ? want : rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl))
            rl.rlim_cur = cur;
        if (rl.rlim_cur < want)
            c->max_conns = rl.rlim_cur > 256 ? (int)(rl.rlim_cur - 128) : 128;
    }
    if (c->max_per_ip > c->max_conns)
        c->max_per_ip = c->max_conns;
}

static int fail_start(VdServer *s, PlyError *err, const char *fmt,
                      const char *arg)
{
    ply_fail(err, fmt, arg, s->db ? sqlite3_errmsg(s->db) : "");
    return -1;
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
    VdsConfig def;
    vds_config_default(&def);
    if (s->cfg.max_body <= 0)
        s->cfg.max_body = def.max_body;
    if (s->cfg.arena_turns <= 0 || s->cfg.arena_turns > VD_MAX_TURNS)
        s->cfg.arena_turns = def.arena_turns;
    if (s->cfg.timeout_ms <= 0)
        s->cfg.timeout_ms = def.timeout_ms;
    if (s->cfg.threads <= 0)
        s->cfg.threads = def.threads;
    if (s->cfg.max_conns <= 0)
        s->cfg.max_conns = def.max_conns;
    if (s->cfg.max_per_ip <= 0)
        s->cfg.max_per_ip = def.max_per_ip;
    if (s->cfg.conn_timeout_s <= 0)
        s->cfg.conn_timeout_s = def.conn_timeout_s;
    if (s->cfg.max_games <= 0)
        s->cfg.max_games = def.max_games;
    if (s->cfg.key_games <= 0)
        s->cfg.key_games = def.key_games;
    if (s->cfg.key_burst <= 0)
        s->cfg.key_burst = def.key_burst;
    if (s->cfg.key_rate_per_min <= 0)
        s->cfg.key_rate_per_min = def.key_rate_per_min;
    if (s->cfg.abandoned_keep_s < 0)
        s->cfg.abandoned_keep_s = def.abandoned_keep_s;
    if (s->cfg.training_keep_s < 0)
        s->cfg.training_keep_s = def.training_keep_s;
    if (s->cfg.resume_grace_ms <= 0)
        s->cfg.resume_grace_ms = def.resume_grace_ms;
    fit_descriptors(&s->cfg);
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
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)cfg->port);
    if (inet_pton(AF_INET, s->host, &sa.sin_addr) != 1) {
        ply_fail(err, "--host '%s' is not an IPv4 address", s->host);
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cv, &ca);
    pthread_condattr_destroy(&ca);
    int bad = 0;
    if (sqlite3_open(s->db_path, &s->db) != SQLITE_OK)
        bad = fail_start(s, err, "cannot open the database '%s': %s",
                         s->db_path);
    if (!bad) {
        sqlite3_busy_timeout(s->db, 2000);
        sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
        if (db_exec(s, "PRAGMA synchronous=NORMAL;"
                    "CREATE TABLE IF NOT EXISTS users(key TEXT PRIMARY KEY, "
                    "name TEXT UNIQUE NOT NULL, id TEXT NOT NULL, elo INTEGER "
                    "NOT NULL, games INTEGER NOT NULL);"
                    "CREATE TABLE IF NOT EXISTS games(id TEXT PRIMARY KEY, "
                    "training INTEGER NOT NULL, setup TEXT NOT NULL, moves "
                    "TEXT NOT NULL, heroes TEXT NOT NULL, finished_at "
                    "INTEGER);"
                    "CREATE TABLE IF NOT EXISTS running(id TEXT PRIMARY KEY, "
                    "training INTEGER NOT NULL, setup TEXT NOT NULL, moves "
                    "TEXT NOT NULL, tokens TEXT NOT NULL, keys TEXT NOT "
                    "NULL, heroes TEXT NOT NULL, client_moves INTEGER NOT "
                    "NULL DEFAULT 0);"))
            bad = fail_start(s, err, "cannot set up the database '%s': %s",
                             s->db_path);
    }
    if (!bad) {
        /* databases written before expiry existed lack the column */
        sqlite3_stmt *q;
        int has = 0;
        if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM pragma_table_info("
                               "'games') WHERE name = 'abandoned'", -1, &q,
                               NULL) == SQLITE_OK) {
            has = sqlite3_step(q) == SQLITE_ROW;
            sqlite3_finalize(q);
        }
        if ((!has && db_exec(s, "ALTER TABLE games ADD COLUMN abandoned "
                             "INTEGER NOT NULL DEFAULT 0")) ||
            db_exec(s, "CREATE INDEX IF NOT EXISTS games_expiry ON "
                    "games(training, finished_at)"))
            bad = fail_start(s, err, "cannot set up the database '%s': %s",
                             s->db_path);
    }
    if (!bad) {
        pthread_mutex_lock(&s->mu);
        expire_games(s);
        bad = resume_games(s, err);
        pthread_mutex_unlock(&s->mu);
    }
    if (!bad) {
        s->daemon = MHD_start_daemon(
            MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME,
            (uint16_t)cfg->port, NULL, NULL, on_request, s,
            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
            MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
            MHD_OPTION_THREAD_POOL_SIZE, (unsigned)s->cfg.threads,
            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)s->cfg.conn_timeout_s,
            MHD_OPTION_CONNECTION_LIMIT, (unsigned)s->cfg.max_conns,
            MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)s->cfg.max_per_ip,
            MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024,
            MHD_OPTION_END);
        if (!s->daemon) {
            ply_fail(err, "cannot listen on %s:%d", s->host, cfg->port);
            bad = -1;
        }
    }
    if (bad) {
        vds_stop(s);
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

/* Whether any game has an /events stream still open. Called locked. */
static int open_streams(const VdServer *s)
{
    for (const SGame *g = s->games; g; g = g->next)
        if (g->streams)
            return 1;
    return 0;
}

void vds_stop(VdServer *s)
{
    if (!s)
        return;
    /* answer every waiting request and end every stream, then stop
     * serving; running games stay in the journal for the next start.
     * No new connection is accepted meanwhile (quiesce). */
    MHD_socket listen_fd = s->daemon ? MHD_quiesce_daemon(s->daemon)
                                     : MHD_INVALID_SOCKET;
    pthread_mutex_lock(&s->mu);
    s->stopping = 1;
    for (SGame *g = s->games; g; g = g->next)
        wake(g);
    /* the daemon's stop closes every socket at once, sending nothing
     * more: first let the long polls just resumed send their 503 and the
     * streams end (stream_read), for at most STOP_DRAIN_MS */
    int64_t until = now_ms() + STOP_DRAIN_MS;
    while (s->daemon && (s->draining || open_streams(s)) &&
           now_ms() < until)
        wait_until(s, until);
    pthread_mutex_unlock(&s->mu);
    /* libmicrohttpd 0.9.75 (Debian 12) can crash here, in its own
     * threads: a connection that needs an error answer of the library's
     * (a malformed request) while the daemon stops gets a response that
     * MHD_queue_response declines to queue on a stopping daemon, and
     * build_header_response reads it (NULL). Rare (2 of about 110
     * fuzz_vdserver processes stopping it at exit, after heavy hostile
     * traffic); not reachable from here. docs/fuzzing.md */
    if (s->daemon)
        MHD_stop_daemon(s->daemon);
    if (listen_fd != MHD_INVALID_SOCKET)
        close(listen_fd);
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
