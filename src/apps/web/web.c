/* apps/web/web.c — `ply serve`: the page and the JSON API (web.h,
 * docs/web-api.md).
 *
 * Locks: the server's `mu` guards the table of games (the list, ids,
 * reference counts, last use); each game's `mu` guards its Session and
 * bookkeeping and is held for the whole of a request on that game; its
 * `imu` guards what the search thread reports (info, best move) and is
 * never held while a Session function runs, so a request that stops and
 * joins a search cannot deadlock with the search's callbacks. Order:
 * server mu before a game's mu is never needed (a game is found and
 * referenced under the server's mu, which is then released). */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../core/format.h"
#include "../../core/layout.h"
#include "../../core/options.h"
#include "../../core/record.h"
#include "../../core/registry.h"
#include "../../core/session.h"
#include "../../core/setup.h"
#include "../../core/util.h"
#include "../http/http.h"
#include "web.h"

enum {
    ID_LEN = 32, SEAT_MAX = 128, PV_SHOW = 16, MAX_WORDS = 4096,
    FILE_MAX = 8 << 20
};

/* The bot a game holds while no search runs: no tables, no tree (an
 * alphabeta bot holds 16 MiB of table, so 100 idle games would hold
 * 1.6 GB); the seat's bot is built for each search and dropped after. */
#define IDLE_BOT "random"

typedef struct WGame {
    struct WebServer *srv;
    char id[ID_LEN + 1];
    pthread_mutex_t mu;         /* the session and the fields below */
    Session *s;
    const GameVtbl *g;
    int trusted;                /* cfg.trust_clients when made */
    char options[512];
    char *setup;                /* the history's start ("" the start) */
    char seats[PLY_MAX_PLAYERS][SEAT_MAX];
    Rng rng;                    /* chance outcomes */
    void *scratch;              /* state_size bytes for pv texts */
    void *obs;                  /* state_size bytes: a seat's view */
    /* hidden information: the seat whose view this request gets, -1 the
     * whole position (set per request, under mu) */
    int view;
    /* the search (under mu) */
    int searching, play, infinite, go_ply, seat;
    int64_t go_ms;
    /* what the search thread reports (under imu) */
    pthread_mutex_t imu;
    pthread_cond_t cv;          /* with imu: the search is done */
    int have_info, done, played;
    int64_t done_ms;
    SearchInfo info;
    char pv[PV_SHOW][32];
    int npv;
    char best[64];
    char top[8][32];
    /* under the server's mu */
    int refs, dead;
    int64_t used_ms;
    struct WGame *next;
} WGame;

struct WebServer {
    WebConfig cfg;
    char host[64];
    char *web_dir;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    WGame *games;
    int ngames;
    int nsearch;                /* searches running (max_searches) */
    Rng rng;
    struct MHD_Daemon *daemon;
    int port;
    int stopping, has_reaper;
    pthread_t reaper;
};

/* ---------------- replies ---------------- */

static void set_body(WebReply *r, int status, const char *type, char *body,
                     size_t len)
{
    r->status = status;
    r->type = type;
    r->body = body;
    r->len = len;
}

static void reply_json(WebReply *r, int status, json_t *o)
{
    char *s = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    if (!s) {
        s = strdup("{\"error\":\"out of memory\"}");
        status = 500;
    }
    set_body(r, status, "application/json; charset=utf-8", s,
             s ? strlen(s) : 0);
}

static void reply_error(WebReply *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void reply_error(WebReply *r, int status, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *m = json_string(msg);
    if (!m) {   /* the message quotes bytes that are not UTF-8 */
        for (char *p = msg; *p; p++)
            if ((unsigned char)*p >= 0x80)
                *p = '?';
        m = json_string(msg);
    }
    json_t *o = json_object();
    json_object_set_new(o, "error", m);
    reply_json(r, status, o);
}

void web_reply_free(WebReply *r)
{
    free(r->body);
    r->body = NULL;
}

/* ---------------- small helpers ---------------- */

/* A JSON string of text that may not be UTF-8 (a game's message): bytes
 * that do not decode are replaced by '?'. */
static json_t *jstr(const char *s)
{
    json_t *j = json_string(s ? s : "");
    if (j)
        return j;
    char *c = strdup(s);
    if (!c)
        return json_string("");
    for (char *p = c; *p; p++)
        if ((unsigned char)*p >= 0x80)
            *p = '?';
    j = json_string(c);
    free(c);
    return j;
}

static void random_id(WebServer *w, char *out)
{
    unsigned char b[ID_LEN / 2];
    ssize_t got = getrandom(b, sizeof b, GRND_NONBLOCK);
    for (size_t i = 0; i < sizeof b; i++) {
        /* mixed with the server's generator: still unique without the
         * system source */
        uint64_t x = rng_next(&w->rng);
        b[i] = (unsigned char)((got == (ssize_t)sizeof b ? b[i] : 0) ^ x);
    }
    for (size_t i = 0; i < sizeof b; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
    out[ID_LEN] = 0;
}

static int is_id(const char *s, size_t n)
{
    if (n != ID_LEN)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
            return 0;
    return 1;
}

/* Value of key in a query "a=b&c=d" (decoded into buf), or NULL. */
static const char *query_arg(const char *q, const char *key, char *buf,
                             size_t n)
{
    size_t kl = strlen(key);
    while (q && *q) {
        const char *amp = strchr(q, '&');
        size_t len = amp ? (size_t)(amp - q) : strlen(q);
        if (len > kl && q[kl] == '=' && !strncmp(q, key, kl)) {
            size_t o = 0;
            for (size_t i = kl + 1; i < len && o + 1 < n; i++) {
                char c = q[i];
                if (c == '+')
                    c = ' ';
                else if (c == '%' && i + 2 < len + 0 + 1 &&
                         isxdigit((unsigned char)q[i + 1]) &&
                         isxdigit((unsigned char)q[i + 2])) {
                    char hx[3] = {q[i + 1], q[i + 2], 0};
                    c = (char)strtol(hx, NULL, 16);
                    i += 2;
                }
                if (!c)
                    return NULL;
                buf[o++] = c;
            }
            buf[o] = 0;
            return buf;
        }
        q = amp ? amp + 1 : NULL;
    }
    return NULL;
}

static const char *type_name(OptionType t)
{
    static const char *const n[] = {"int", "bool", "choice", "double",
                                    "size", "duration", "count", "string",
                                    "file"};
    return (unsigned)t < sizeof n / sizeof *n ? n[t] : "string";
}

/* An option row as JSON, with its default as the text ply info shows. */
static json_t *option_json(const Option *o)
{
    json_t *j = json_object();
    json_object_set_new(j, "key", json_string(o->key));
    json_object_set_new(j, "type", json_string(type_name(o->type)));
    union {
        int i;
        double d;
        size_t z;
        int64_t t;
        uint64_t u;
        char s[OPT_TEXT_MAX];
    } f;
    memset(&f, 0, sizeof f);
    switch (o->type) {
    case OPT_INT: case OPT_BOOL: case OPT_CHOICE: f.i = (int)o->def; break;
    case OPT_DOUBLE: f.d = o->def; break;
    case OPT_SIZE: f.z = (size_t)o->def; break;
    case OPT_DURATION: f.t = (int64_t)o->def; break;
    case OPT_COUNT: f.u = (uint64_t)o->def; break;
    default:
        snprintf(f.s, sizeof f.s, "%s", o->def_text ? o->def_text : "");
    }
    char buf[OPT_TEXT_MAX + 8];
    if (option_value_text(o, &f, buf, sizeof buf) < 0)
        buf[0] = 0;
    json_object_set_new(j, "default", jstr(buf));
    if (o->type == OPT_INT || o->type == OPT_DOUBLE ||
        o->type == OPT_COUNT || o->type == OPT_SIZE ||
        o->type == OPT_DURATION) {
        json_object_set_new(j, "min", json_real(o->min));
        json_object_set_new(j, "max", json_real(o->max));
    }
    if (o->type == OPT_CHOICE && o->choices) {
        json_t *c = json_array();
        for (int i = 0; o->choices[i]; i++)
            json_array_append_new(c, json_string(o->choices[i]));
        json_object_set_new(j, "choices", c);
    }
    json_object_set_new(j, "help", jstr(o->help));
    return j;
}

/* ---------------- GET /api/games ---------------- */

static json_t *games_json(void)
{
    json_t *gs = json_array();
    for (int i = 0; ply_games[i]; i++) {
        const GameVtbl *g = ply_games[i];
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(g->info.name));
        json_object_set_new(o, "title", jstr(g->info.title));
        json_t *pl = json_array();
        for (int p = 0; p < g->info.num_players; p++)
            json_array_append_new(pl, jstr(g->info.player_names ?
                                           g->info.player_names[p] : ""));
        json_object_set_new(o, "players", pl);
        json_t *fl = json_array();
        static const struct { unsigned bit; const char *name; } flags[] = {
            {GAME_ZERO_SUM, "zero-sum"}, {GAME_CHANCE, "chance"},
            {GAME_HIDDEN, "hidden"}, {GAME_IMPARTIAL, "impartial"}};
        for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
            if (g->info.flags & flags[k].bit)
                json_array_append_new(fl, json_string(flags[k].name));
        json_object_set_new(o, "flags", fl);
        json_t *op = json_array();
        for (const GameOption *r = g->info.options; r && r->key; r++)
            json_array_append_new(op, option_json(r));
        json_object_set_new(o, "options", op);
        json_t *fm = json_array();
        for (int k = 0; g->formats && g->formats[k]; k++)
            if (g->formats[k]->write_record)
                json_array_append_new(fm, json_string(g->formats[k]->name));
        json_object_set_new(o, "formats", fm);
        json_object_set_new(o, "default_bot", jstr(game_default_bot(g)));
        json_object_set_new(o, "layout", json_boolean(g->layout != NULL));
        json_object_set_new(o, "notation", jstr(g->info.notation));
        json_object_set_new(o, "rules", jstr(g->info.rules));
        json_array_append_new(gs, o);
    }
    json_t *bs = json_array();
    for (int i = 0; ply_bots[i]; i++) {
        const BotVtbl *b = ply_bots[i];
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(b->name));
        json_object_set_new(o, "help", jstr(b->help));
        json_t *op = json_array();
        int n = bot_option_count(b);
        for (int k = 0; k < n; k++) {
            const Option *r = bot_option_at(b, k);
            if (!(r->flags & OPTF_ALIAS))
                json_array_append_new(op, option_json(r));
        }
        json_object_set_new(o, "options", op);
        json_array_append_new(bs, o);
    }
    json_t *root = json_object();
    json_object_set_new(root, "games", gs);
    json_object_set_new(root, "bots", bs);
    return root;
}

/* ---------------- the game table ---------------- */

static void game_free(WGame *wg)
{
    if (!wg)
        return;
    if (wg->searching) {
        /* dropped with a search not collected: its slot comes back */
        pthread_mutex_lock(&wg->srv->mu);
        wg->srv->nsearch--;
        pthread_mutex_unlock(&wg->srv->mu);
    }
    session_free(wg->s);
    free(wg->setup);
    free(wg->scratch);
    free(wg->obs);
    pthread_mutex_destroy(&wg->mu);
    pthread_mutex_destroy(&wg->imu);
    pthread_cond_destroy(&wg->cv);
    free(wg);
}

/* Finds and references the game with this id (server mu not held). */
static WGame *game_get(WebServer *w, const char *id, size_t n)
{
    if (!is_id(id, n))
        return NULL;
    pthread_mutex_lock(&w->mu);
    WGame *wg = w->games;
    while (wg && (strncmp(wg->id, id, ID_LEN) || wg->dead))
        wg = wg->next;
    if (wg) {
        wg->refs++;
        wg->used_ms = now_ms();
    }
    pthread_mutex_unlock(&w->mu);
    return wg;
}

static void game_put(WebServer *w, WGame *wg)
{
    pthread_mutex_lock(&w->mu);
    wg->refs--;
    int gone = wg->dead && wg->refs == 0;
    pthread_mutex_unlock(&w->mu);
    if (gone)
        game_free(wg);
}

/* Unlinks wg (server mu held); freed by the last game_put, or here. */
static WGame *unlink_game(WebServer *w, WGame *wg)
{
    for (WGame **pp = &w->games; *pp; pp = &(*pp)->next)
        if (*pp == wg) {
            *pp = wg->next;
            w->ngames--;
            wg->dead = 1;
            return wg->refs == 0 ? wg : NULL;
        }
    return NULL;
}

static int game_thinking(WGame *wg)
{
    pthread_mutex_lock(&wg->imu);
    int t = wg->have_info >= 0 && !wg->done && wg->go_ms > 0;
    pthread_mutex_unlock(&wg->imu);
    return t;
}

/* Makes room for one more game (server mu held): drops the game idle the
 * longest that is not thinking. 0, or -1 when every game thinks. */
static int make_room(WebServer *w, WGame **freed)
{
    *freed = NULL;
    if (w->ngames < w->cfg.max_games)
        return 0;
    WGame *old = NULL;
    for (WGame *g = w->games; g; g = g->next)
        if (!game_thinking(g) && (!old || g->used_ms < old->used_ms))
            old = g;
    if (!old)
        return -1;
    *freed = unlink_game(w, old);
    return 0;
}

/* ---------------- search callbacks (the search thread) ---------------- */

static void pv_texts(WGame *wg, const void *root, const SearchInfo *si)
{
    const GameVtbl *g = wg->g;
    memcpy(wg->scratch, root, g->info.state_size);
    wg->npv = 0;
    for (int i = 0; i < si->pv_len && i < PV_SHOW; i++) {
        if (g->to_move(wg->scratch) < 0 && i > 0)
            break;
        if (g->move_to_text(wg->scratch, si->pv[i], wg->pv[i],
                            sizeof wg->pv[i]) < 0)
            break;
        wg->npv = i + 1;
        g->make(wg->scratch, si->pv[i]);
    }
    for (int i = 0; i < si->top_len && i < 8; i++)
        if (g->move_to_text(root, si->top[i], wg->top[i],
                            sizeof wg->top[i]) < 0)
            wg->top[i][0] = 0;
}

static void on_info(void *user, const void *root, const SearchInfo *si)
{
    WGame *wg = user;
    pthread_mutex_lock(&wg->imu);
    wg->info = *si;
    wg->have_info = 1;
    pv_texts(wg, root, si);
    pthread_mutex_unlock(&wg->imu);
}

static void on_done(void *user, const void *root, Move best,
                    const SearchInfo *si)
{
    WGame *wg = user;
    pthread_mutex_lock(&wg->imu);
    wg->info = *si;
    wg->have_info = 1;
    pv_texts(wg, root, si);
    if (wg->g->move_to_text(root, best, wg->best, sizeof wg->best) < 0)
        wg->best[0] = 0;
    wg->done = 1;
    wg->done_ms = now_ms();
    pthread_cond_broadcast(&wg->cv);
    pthread_mutex_unlock(&wg->imu);
}

/* ---------------- game operations (game mu held) ---------------- */

/* A search's slot back, and the seat's bot with its tables dropped. */
static void search_ended(WGame *wg)
{
    pthread_mutex_lock(&wg->srv->mu);
    wg->srv->nsearch--;
    pthread_mutex_unlock(&wg->srv->mu);
    if (strcmp(session_bot_spec(wg->s), IDLE_BOT)) {
        session_set_bot(wg->s, IDLE_BOT, NULL);
        malloc_trim(0);     /* the bot's tables back to the system */
    }
}

/* Forgets a search: stopped and joined, its result dropped. */
static void cancel_search(WGame *wg)
{
    if (wg->searching) {
        session_cancel(wg->s);
        search_ended(wg);
    }
    wg->searching = 0;
    wg->play = 0;
    pthread_mutex_lock(&wg->imu);
    wg->done = 0;
    wg->have_info = 0;
    wg->played = 0;
    wg->go_ms = 0;
    wg->best[0] = 0;
    wg->npv = 0;
    pthread_mutex_unlock(&wg->imu);
}

/* Plays chance outcomes until a player is to move. */
static void play_chance(WGame *wg)
{
    const GameVtbl *g = wg->g;
    for (int guard = 0; guard < 1000 &&
         g->to_move(session_state(wg->s)) == PLAYER_CHANCE; guard++) {
        Move mv[1024];
        double p[1024];
        if (!g->chance_outcomes || g->info.max_moves > 1024)
            return;
        int n = g->chance_outcomes(session_state(wg->s), mv, p);
        if (n <= 0)
            return;
        double x = rng_double(&wg->rng), acc = 0;
        int k = n - 1;
        for (int i = 0; i < n; i++) {
            acc += p[i];
            if (x < acc) {
                k = i;
                break;
            }
        }
        if (session_play(wg->s, mv[k], NULL))
            return;
    }
}

/* A finished search: its move is played when asked and the position did
 * not change since. */
static void finish_with(WGame *wg, Move best)
{
    wg->searching = 0;
    search_ended(wg);
    pthread_mutex_lock(&wg->imu);
    wg->done = 1;
    pthread_mutex_unlock(&wg->imu);
    if (wg->play && session_ply(wg->s) == wg->go_ply &&
        state_is_legal(wg->g, session_state(wg->s), best) &&
        !session_play(wg->s, best, NULL)) {
        pthread_mutex_lock(&wg->imu);
        wg->played = 1;
        pthread_mutex_unlock(&wg->imu);
        play_chance(wg);
    }
    wg->play = 0;
}

static void finish_search(WGame *wg)
{
    if (!wg->searching)
        return;
    /* the done callback ran: the search thread is ending, the join is
     * short */
    pthread_mutex_lock(&wg->imu);
    int done = wg->done;
    pthread_mutex_unlock(&wg->imu);
    if (done || session_search_done(wg->s))
        finish_with(wg, session_wait(wg->s, NULL));
}

/* Waits (game mu not held) up to ms for the search to be done. */
static void wait_done(WGame *wg, long long ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_sec += (time_t)(ms / 1000);
    ts.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&wg->imu);
    while (!wg->done && wg->go_ms &&
           pthread_cond_timedwait(&wg->cv, &wg->imu, &ts) == 0)
        ;
    pthread_mutex_unlock(&wg->imu);
}

/* What this request may see of the position: the observation of the
 * viewing seat in a game with hidden information, else the position. */
static const void *viewed(WGame *wg)
{
    const void *st = session_state(wg->s);
    if (wg->view < 0 || !wg->g->observe)
        return st;
    wg->g->observe(st, wg->view, wg->obs);
    return wg->obs;
}

/* Whether the bot's thoughts may be shown (they are the view of the
 * bot's seat). */
static int thoughts_visible(WGame *wg, int seat)
{
    return wg->view < 0 || seat == wg->view;
}

static json_t *think_json(WGame *wg)
{
    json_t *o = json_object();
    pthread_mutex_lock(&wg->imu);
    const char *state = wg->go_ms == 0 ? "idle" : wg->done ? "done"
                        : "thinking";
    json_object_set_new(o, "state", json_string(state));
    if (wg->go_ms) {
        json_object_set_new(o, "seat", json_integer(wg->seat));
        json_object_set_new(o, "ms", json_integer((wg->done ? wg->done_ms
                                                   : now_ms()) - wg->go_ms));
    }
    int show = thoughts_visible(wg, wg->seat);
    if (wg->have_info > 0 && show) {
        const SearchInfo *si = &wg->info;
        json_object_set_new(o, "depth", json_integer(si->depth));
        json_object_set_new(o, "score", json_integer(si->value));
        json_object_set_new(o, "proven", json_integer(si->proven));
        json_object_set_new(o, "nodes", json_integer((json_int_t)si->nodes));
        json_t *pv = json_array();
        for (int i = 0; i < wg->npv; i++)
            json_array_append_new(pv, jstr(wg->pv[i]));
        json_object_set_new(o, "pv", pv);
        if (si->top_len > 0) {
            json_t *t = json_array();
            for (int i = 0; i < si->top_len && i < 8; i++) {
                json_t *e = json_object();
                json_object_set_new(e, "move", jstr(wg->top[i]));
                json_object_set_new(e, "visits",
                                    json_integer((json_int_t)si->top_visits[i]));
                json_object_set_new(e, "value", json_real(si->top_value[i]));
                json_array_append_new(t, e);
            }
            json_object_set_new(o, "top", t);
        }
    }
    if (!show)
        ;
    else if (wg->done && wg->best[0])
        json_object_set_new(o, "best", jstr(wg->best));
    else if (wg->npv > 0)
        json_object_set_new(o, "best", jstr(wg->pv[0]));
    if (wg->done)
        json_object_set_new(o, "played", json_boolean(wg->played));
    pthread_mutex_unlock(&wg->imu);
    return o;
}

static json_t *legal_json(WGame *wg, const Layout *l)
{
    const GameVtbl *g = wg->g;
    const void *st = session_state(wg->s);
    json_t *arr = json_array();
    if (g->to_move(st) < 0 || (wg->view >= 0 && g->to_move(st) != wg->view))
        return arr;
    Move *mv = malloc(sizeof *mv * (size_t)g->info.max_moves);
    LayoutIndex *ix = l ? malloc(sizeof *ix) : NULL;
    if (!mv || (l && !ix)) {
        free(mv);
        free(ix);
        return arr;
    }
    if (l)
        layout_index(l, ix);
    int n = g->gen_moves(st, mv);
    for (int i = 0; i < n; i++) {
        char t[128];
        if (g->move_to_text(st, mv[i], t, sizeof t) < 0)
            continue;
        json_t *o = json_object();
        json_object_set_new(o, "text", jstr(t));
        json_t *cs = json_array();
        MoveCells mc;
        if (l && !layout_move_cells_ix(g, st, ix, mv[i], &mc)) {
            for (int k = 0; k < mc.n; k++)
                json_array_append_new(cs, json_integer(mc.cells[k]));
            if (mc.choice[0])
                json_object_set_new(o, "choice", jstr(mc.choice));
            if (mc.drop[0])
                json_object_set_new(o, "drop", jstr(mc.drop));
        }
        json_object_set_new(o, "cells", cs);
        json_array_append_new(arr, o);
    }
    free(mv);
    free(ix);
    return arr;
}

static json_t *layout_json(const Layout *l)
{
    json_t *o = json_object();
    if (!l) {
        json_object_set_new(o, "kind", json_string("text"));
        json_object_set_new(o, "cells", json_array());
        json_object_set_new(o, "lines", json_array());
        return o;
    }
    json_object_set_new(o, "kind", json_string("board"));
    json_object_set_new(o, "width", json_real(l->width));
    json_object_set_new(o, "height", json_real(l->height));
    json_t *cs = json_array();
    for (int i = 0; i < l->ncells; i++) {
        const LayoutCell *c = &l->cells[i];
        json_t *j = json_object();
        json_object_set_new(j, "x", json_real(c->x));
        json_object_set_new(j, "y", json_real(c->y));
        json_object_set_new(j, "shape",
                            json_string(layout_shape_name(c->shape)));
        const char *sh = layout_shade_name(c->shade);
        if (sh)
            json_object_set_new(j, "shade", json_string(sh));
        if (c->w > 0)
            json_object_set_new(j, "w", json_real(c->w));
        if (c->h > 0)
            json_object_set_new(j, "h", json_real(c->h));
        if (c->shape == CELL_EDGE) {
            json_object_set_new(j, "dx", json_real(c->dx));
            json_object_set_new(j, "dy", json_real(c->dy));
        }
        if (c->name[0])
            json_object_set_new(j, "name", jstr(c->name));
        if (c->glyph[0])
            json_object_set_new(j, "glyph", jstr(c->glyph));
        if (c->glyph[0] || c->count || c->stack[0])
            json_object_set_new(j, "owner", json_integer(c->owner));
        if (c->king)
            json_object_set_new(j, "king", json_true());
        if (c->count)
            json_object_set_new(j, "count", json_integer(c->count));
        if (c->stack[0])
            json_object_set_new(j, "stack", jstr(c->stack));
        if (c->label[0])
            json_object_set_new(j, "label", jstr(c->label));
        json_array_append_new(cs, j);
    }
    json_object_set_new(o, "cells", cs);
    json_t *ls = json_array();
    for (int i = 0; i < l->nlines; i++)
        json_array_append_new(ls, json_pack("[f,f,f,f]", l->lines[i][0],
                                            l->lines[i][1], l->lines[i][2],
                                            l->lines[i][3]));
    json_object_set_new(o, "lines", ls);
    return o;
}

/* The layout of the current position, or NULL (no hook or it failed);
 * free() it. */
static Layout *make_layout(WGame *wg)
{
    if (!wg->g->layout)
        return NULL;
    Layout *l = calloc(1, sizeof *l);
    if (l && wg->g->layout(viewed(wg), l)) {
        free(l);
        return NULL;
    }
    return l;
}

static json_t *result_json(WGame *wg)
{
    const GameVtbl *g = wg->g;
    const void *st = session_state(wg->s);
    if (g->to_move(st) != PLAYER_TERMINAL)
        return json_null();
    double ret[PLY_MAX_PLAYERS] = {0};
    g->returns(st, ret);
    int np = state_seats(g, st, NULL), win = -1;
    json_t *rs = json_array();
    for (int p = 0; p < np; p++) {
        json_array_append_new(rs, json_real(ret[p]));
        if (win == -1 || ret[p] > ret[win])
            win = p;
    }
    for (int p = 0; p < np; p++)
        if (p != win && ret[p] == ret[win]) {
            win = -1;
            break;
        }
    if (win >= 0 && np > 1 && ret[win] <= 0)
        win = -1;
    char text[96];
    if (win >= 0)
        snprintf(text, sizeof text, "%s wins", g->info.player_names ?
                 state_seat_name(g, st, win) : "?");
    else
        snprintf(text, sizeof text, "%s", np > 1 ? "draw" : "game over");
    json_t *o = json_object();
    json_object_set_new(o, "returns", rs);
    json_object_set_new(o, "winner", json_integer(win));
    json_object_set_new(o, "text", jstr(text));
    const char *why = g->end_reason ? g->end_reason(st) : NULL;
    json_object_set_new(o, "reason", jstr(why ? why : win >= 0 || np < 2
                                          ? "game over" : "draw by the "
                                          "rules"));
    return o;
}

static json_t *state_json(WGame *wg)
{
    const GameVtbl *g = wg->g;
    const Session *s = wg->s;
    const void *st = session_state(s);
    const void *seen = viewed(wg);
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(wg->id));
    if (wg->view >= 0)
        json_object_set_new(o, "view", json_integer(wg->view));
    json_object_set_new(o, "game", json_string(g->info.name));
    json_object_set_new(o, "title", jstr(g->info.title));
    json_object_set_new(o, "options", jstr(wg->options));
    json_t *pl = json_array(), *se = json_array();
    for (int p = 0, np = state_seats(g, st, NULL); p < np; p++) {
        json_array_append_new(pl, jstr(g->info.player_names ?
                                       state_seat_name(g, st, p) : ""));
        json_array_append_new(se, jstr(wg->seats[p]));
    }
    json_object_set_new(o, "players", pl);
    json_object_set_new(o, "seats", se);
    json_object_set_new(o, "setup", jstr(wg->setup));
    char *buf = malloc(1 << 16);
    if (buf && g->to_text(seen, buf, 1 << 16) >= 0)
        json_object_set_new(o, "position", jstr(buf));
    int ply = session_ply(s);
    json_object_set_new(o, "ply", json_integer(ply));
    json_t *ms = json_array();
    /* a view: another seat's move or a chance outcome is "?" when the
     * position before it holds something the viewer cannot see (dark
     * chess, a deal), else it is shown (banqi: nothing is hidden between
     * the players, a flip shows its piece to both) */
    void *tmp = wg->view >= 0 ? malloc(g->info.state_size) : NULL;
    for (int i = 0; i < ply; i++) {
        char t[128];
        const void *before = session_state_at(s, i);
        int secret = 0;
        if (wg->view >= 0 && g->to_move(before) != wg->view) {
            secret = 1;
            if (tmp) {
                g->observe(before, wg->view, tmp);
                secret = memcmp(tmp, before, g->info.state_size) != 0;
            }
        }
        if (secret ||
            g->move_to_text(before, session_move_at(s, i), t, sizeof t) < 0)
            snprintf(t, sizeof t, "?");     /* hidden from this seat */
        json_array_append_new(ms, jstr(t));
    }
    free(tmp);
    json_object_set_new(o, "moves", ms);
    json_object_set_new(o, "redo", json_integer(session_redo_count(s)));
    json_object_set_new(o, "to_move", json_integer(g->to_move(st)));
    json_object_set_new(o, "result", result_json(wg));
    Layout *l = make_layout(wg);
    json_object_set_new(o, "legal", legal_json(wg, l));
    json_object_set_new(o, "layout", layout_json(l));
    free(l);
    if (buf && g->render(seen, buf, 1 << 16) >= 0)
        json_object_set_new(o, "render", jstr(buf));
    free(buf);
    json_object_set_new(o, "bot", think_json(wg));
    return o;
}

/* ---------------- request bodies ---------------- */

static json_t *parse_body(const char *body, size_t len, WebReply *r)
{
    if (!body || !len)
        return json_object();
    json_error_t e;
    json_t *j = json_loadb(body, len, JSON_REJECT_DUPLICATES, &e);
    if (!j) {
        reply_error(r, 400, "malformed JSON: %s (line %d column %d)", e.text,
                    e.line, e.column);
        return NULL;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        reply_error(r, 400, "the body must be a JSON object");
        return NULL;
    }
    return j;
}

/* A string field: its value, def when absent; NULL with a reply when it
 * is not a string (or longer than max). */
static const char *str_field(json_t *b, const char *key, const char *def,
                             size_t max, WebReply *r)
{
    json_t *v = json_object_get(b, key);
    if (!v || json_is_null(v))
        return def;
    if (!json_is_string(v)) {
        reply_error(r, 400, "'%s' must be a string", key);
        return NULL;
    }
    if (json_string_length(v) > max ||
        strlen(json_string_value(v)) != json_string_length(v)) {
        reply_error(r, 400, "'%s' is too long or contains a NUL", key);
        return NULL;
    }
    return json_string_value(v);
}

/* An integer field in lo..hi: 0 with *out, -1 with a reply. */
static int int_field(json_t *b, const char *key, long long def, long long lo,
                     long long hi, long long *out, WebReply *r)
{
    json_t *v = json_object_get(b, key);
    if (!v || json_is_null(v)) {
        *out = def;
        return 0;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi) {
        reply_error(r, 400, "'%s' must be an integer in %lld..%lld", key, lo,
                    hi);
        return -1;
    }
    *out = json_integer_value(v);
    return 0;
}

static int bool_field(json_t *b, const char *key, int def, int *out,
                      WebReply *r)
{
    json_t *v = json_object_get(b, key);
    if (!v || json_is_null(v)) {
        *out = def;
        return 0;
    }
    if (!json_is_boolean(v)) {
        reply_error(r, 400, "'%s' must be true or false", key);
        return -1;
    }
    *out = json_is_true(v);
    return 0;
}

static int count_words(const char *s)
{
    int n = 0;
    for (const char *p = s; p && *p;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        n++;
        while (*p && !isspace((unsigned char)*p))
            p++;
    }
    return n;
}

/* Seats from a JSON array into wg (checked: "human" or a buildable bot
 * spec); -1 with a reply. */
static int set_seats(WGame *wg, json_t *arr, WebReply *r)
{
    const GameVtbl *g = wg->g;
    char seats[PLY_MAX_PLAYERS][SEAT_MAX];
    for (int p = 0; p < PLY_MAX_PLAYERS; p++)
        snprintf(seats[p], SEAT_MAX, "human");
    if (arr && !json_is_null(arr)) {
        if (!json_is_array(arr) ||
            json_array_size(arr) > (size_t)g->info.num_players) {
            reply_error(r, 400, "'seats' must be an array of at most %d "
                        "strings", g->info.num_players);
            return -1;
        }
        for (size_t p = 0; p < json_array_size(arr); p++) {
            json_t *v = json_array_get(arr, p);
            const char *sp = json_string_value(v);
            if (!sp || strlen(sp) >= SEAT_MAX || !*sp) {
                reply_error(r, 400, "seat %zu must be \"human\" or a bot spec"
                            " (under %d characters)", p, SEAT_MAX);
                return -1;
            }
            if (!strcmp(sp, "bot"))
                sp = game_default_bot(g);
            if (strcmp(sp, "human")) {
                PlyError err = {{0}};
                Bot *b = wg->trusted ? bot_new(g, sp, 1, &err)
                                     : bot_new_guarded(g, sp, 1, &err);
                if (!b) {
                    reply_error(r, 400, "seat %zu: %s", p, err.msg);
                    return -1;
                }
                bot_free(b);
                malloc_trim(0);
            }
            snprintf(seats[p], SEAT_MAX, "%s", sp);
        }
    }
    memcpy(wg->seats, seats, sizeof seats);
    return 0;
}

static int check_moves(const GameVtbl *g, const char *moves, WebReply *r)
{
    int n = count_words(moves);
    if (n > MAX_WORDS || n > g->info.max_game_length) {
        reply_error(r, 400, "too many moves (%d; at most %d)", n,
                    g->info.max_game_length < MAX_WORDS ?
                    g->info.max_game_length : MAX_WORDS);
        return -1;
    }
    return 0;
}

/* ---------------- endpoints ---------------- */

/* GET /api/players?game=NAME&options=OPTS: the players taking part under
 * those options (splut players=2: South, North), for the new-game form. */
static void api_players(const char *query, WebReply *r)
{
    char name[128], opts[1024];
    const char *gn = query_arg(query, "game", name, sizeof name);
    const char *op = query_arg(query, "options", opts, sizeof opts);
    const GameVtbl *g = gn ? game_find(gn) : NULL;
    if (!g) {
        reply_error(r, 404, "no game '%s'", gn ? gn : "");
        return;
    }
    const char *names[PLY_MAX_PLAYERS];
    PlyError err = {{0}};
    int n = options_seats(g, op, names, &err);
    if (n < 0) {
        reply_error(r, 400, "%s", err.msg);
        return;
    }
    json_t *o = json_object(), *pl = json_array();
    for (int p = 0; p < n; p++)
        json_array_append_new(pl, jstr(g->info.player_names ? names[p]
                                                           : ""));
    json_object_set_new(o, "game", json_string(g->info.name));
    json_object_set_new(o, "players", pl);
    reply_json(r, 200, o);
}

/* The view of this request (game mu held): ?seat=N in a game with hidden
 * information, else its first human seat, else (bots only: a spectator)
 * the whole position. -1 with a reply for a bad seat. */
static int set_view(WGame *wg, const char *query, WebReply *r)
{
    const GameVtbl *g = wg->g;
    wg->view = -1;
    char v[16];
    const char *q = query_arg(query, "seat", v, sizeof v);
    if (q) {
        char *end;
        long n = strtol(q, &end, 10);
        if (!*q || *end || n < 0 || n >= g->info.num_players) {
            reply_error(r, 400, "?seat= must be 0..%d",
                        g->info.num_players - 1);
            return -1;
        }
        if (g->info.flags & GAME_HIDDEN && g->observe)
            wg->view = (int)n;
        return 0;
    }
    if (!(g->info.flags & GAME_HIDDEN) || !g->observe)
        return 0;
    for (int p = 0; p < g->info.num_players; p++)
        if (!strcmp(wg->seats[p], "human")) {
            wg->view = p;
            break;
        }
    return 0;
}

static void api_new(WebServer *w, json_t *b, const char *query,
                    WebReply *r)
{
    const char *name = str_field(b, "game", NULL, 64, r);
    if (!name) {
        if (!r->body)
            reply_error(r, 400, "'game' is required");
        return;
    }
    const GameVtbl *g = game_find(name);
    if (!g) {
        reply_error(r, 404, "unknown game '%s'", name);
        return;
    }
    const char *opts = str_field(b, "options", "", 400, r);
    const char *setup = opts ? str_field(b, "setup", "", 60000, r) : NULL;
    const char *moves = setup ? str_field(b, "moves", "", 60000, r) : NULL;
    long long seed = 0;
    if (!moves || int_field(b, "seed", 0, 0, (1ll << 53), &seed, r))
        return;
    if (check_moves(g, moves, r))
        return;
    WGame *wg = calloc(1, sizeof *wg);
    if (!wg) {
        reply_error(r, 500, "out of memory");
        return;
    }
    pthread_mutex_init(&wg->mu, NULL);
    pthread_mutex_init(&wg->imu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&wg->cv, &ca);
    pthread_condattr_destroy(&ca);
    wg->g = g;
    wg->scratch = calloc(1, g->info.state_size);
    wg->obs = calloc(1, g->info.state_size);
    wg->view = -1;
    snprintf(wg->options, sizeof wg->options, "%s", opts);
    if (!seed) {
        pthread_mutex_lock(&w->mu);
        seed = (long long)(rng_next(&w->rng) >> 11) + 1;
        pthread_mutex_unlock(&w->mu);
    }
    rng_seed(&wg->rng, (uint64_t)seed ^ 0x9e3779b97f4a7c15ull);
    PlyError err = {{0}};
    wg->trusted = w->cfg.trust_clients;
    int opt[PLY_MAX_OPTIONS];
    if (!wg->trusted && (options_parse(g, opts, opt, &err) ||
                         options_guard(g, opt, &err))) {
        reply_error(r, 400, "%s", err.msg);
        game_free(wg);
        return;
    }
    if (!wg->scratch || !wg->obs ||
        set_seats(wg, json_object_get(b, "seats"), r) ||
        set_view(wg, query, r)) {
        if (!r->body)
            reply_error(r, 500, "out of memory");
        game_free(wg);
        return;
    }
    wg->srv = w;
    wg->s = session_new(g, opts, IDLE_BOT, (uint64_t)seed, &err);
    if (!wg->s || session_set_position(wg->s, setup, moves, &err)) {
        reply_error(r, 400, "%s", err.msg);
        game_free(wg);
        return;
    }
    if (!wg->trusted)
        session_guard(wg->s);
    session_on_info(wg->s, on_info, on_done, wg);
    wg->setup = strdup(setup);
    if (!wg->setup) {
        reply_error(r, 500, "out of memory");
        game_free(wg);
        return;
    }
    play_chance(wg);
    pthread_mutex_lock(&w->mu);
    WGame *freed;
    if (make_room(w, &freed)) {
        pthread_mutex_unlock(&w->mu);
        reply_error(r, 503, "the server is full (%d games, all thinking)",
                    w->cfg.max_games);
        game_free(wg);
        return;
    }
    random_id(w, wg->id);
    wg->used_ms = now_ms();
    wg->refs = 1;
    wg->next = w->games;
    w->games = wg;
    w->ngames++;
    pthread_mutex_unlock(&w->mu);
    game_free(freed);
    pthread_mutex_lock(&wg->mu);
    reply_json(r, 201, state_json(wg));
    pthread_mutex_unlock(&wg->mu);
    game_put(w, wg);
}

/* Starts a search: 1 (the caller answers 202 after *wait_ms), or 0
 * with an error reply. */
static int api_go(WebServer *w, WGame *wg, json_t *b, WebReply *r,
                  long long *wait_ms)
{
    const GameVtbl *g = wg->g;
    if (wg->searching) {
        reply_error(r, 409, "the bot is already thinking (stop it first)");
        return 0;
    }
    int mover = g->to_move(session_state(wg->s));
    if (mover < 0) {
        reply_error(r, 409, "the game is over");
        return 0;
    }
    long long seat, tms;
    int infinite, play;
    if (int_field(b, "wait_ms", 0, 0, 100000, wait_ms, r) ||
        int_field(b, "seat", mover, 0,
                  state_seats(g, session_state(wg->s), NULL) - 1, &seat, r) ||
        int_field(b, "time_ms", 0, 0, 3600000, &tms, r) ||
        bool_field(b, "infinite", 0, &infinite, r) ||
        bool_field(b, "play", !infinite, &play, r))
        return 0;
    if (seat != mover) {
        reply_error(r, 409, "seat %lld is not to move (seat %d is)", seat,
                    mover);
        return 0;
    }
    const char *spec = str_field(b, "bot", NULL, SEAT_MAX - 1, r);
    if (!spec && r->body)
        return 0;
    if (!spec)
        spec = strcmp(wg->seats[mover], "human") ? wg->seats[mover]
               : game_default_bot(g);
    cancel_search(wg);
    pthread_mutex_lock(&w->mu);
    int full = w->nsearch >= w->cfg.max_searches;
    if (!full)
        w->nsearch++;
    pthread_mutex_unlock(&w->mu);
    if (full) {
        reply_error(r, 503, "%d bots are thinking already: try again soon",
                    w->cfg.max_searches);
        return 0;
    }
    PlyError err = {{0}};
    if (strcmp(spec, session_bot_spec(wg->s)) &&
        session_set_bot(wg->s, spec, &err)) {
        search_ended(wg);
        reply_error(r, 400, "bot: %s", err.msg);
        return 0;
    }
    Limits lim = session_bot_limits(wg->s);
    if (tms > 0)
        lim.time_ms = tms;
    if (lim.time_ms <= 0 && !lim.nodes && !lim.depth)
        lim.time_ms = 1000;
    if (lim.time_ms > w->cfg.max_think_ms)
        lim.time_ms = w->cfg.max_think_ms;
    if (infinite) {
        lim.time_ms = w->cfg.max_think_ms;
        lim.nodes = 0;
        lim.depth = 0;
    }
    pthread_mutex_lock(&wg->imu);
    wg->go_ms = now_ms();
    wg->seat = mover;
    pthread_mutex_unlock(&wg->imu);
    if (session_go(wg->s, &lim, 0, &err)) {
        search_ended(wg);
        cancel_search(wg);
        reply_error(r, 409, "%s", err.msg);
        return 0;
    }
    wg->searching = 1;
    wg->play = play;
    wg->infinite = infinite;
    wg->go_ply = session_ply(wg->s);
    return 1;
}

static void send_record(WGame *wg, const char *fmt, WebReply *r)
{
    const GameVtbl *g = wg->g;
    const Session *s = wg->s;
    int ply = session_ply(s);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        reply_error(r, 500, "out of memory");
        return;
    }
    char **moves = calloc((size_t)ply + 1, sizeof *moves);
    int bad = !moves;
    for (int i = 0; !bad && i < ply; i++) {
        char t[128];
        bad = g->move_to_text(session_state_at(s, i), session_move_at(s, i),
                              t, sizeof t) < 0 || !(moves[i] = strdup(t));
    }
    PlyError err = {{0}};
    const char *ext = "txt";
    if (!bad && !strcmp(fmt, "moves")) {
        fprintf(f, "game %s\noptions %s\nsetup %s\nmoves", g->info.name,
                wg->options, wg->setup);
        for (int i = 0; i < ply; i++)
            fprintf(f, " %s", moves[i]);
        fprintf(f, "\n");
    } else if (!bad) {
        const GameFormat *gf = game_format(g, fmt);
        if (!gf || !gf->write_record) {
            fclose(f);
            free(text);
            for (int i = 0; i < ply; i++)
                free(moves[i]);
            free(moves);
            reply_error(r, 404, "%s has no '%s' records", g->info.name, fmt);
            return;
        }
        ext = gf->extension ? gf->extension : gf->name;
        Record rec;
        record_init(&rec);
        rec.game = g->info.name;
        rec.options = wg->options;
        rec.setup = wg->setup;
        rec.nseats = state_seats(g, session_state(s), NULL);
        for (int p = 0; p < rec.nseats; p++)
            rec.seats[p] = wg->seats[p];
        rec.nmoves = ply;
        rec.moves = (const char *const *)moves;
        const void *st = session_state(s);
        if (g->to_move(st) == PLAYER_TERMINAL) {
            rec.has_result = 1;
            g->returns(st, rec.result);
            rec.reason = "normal";
        }
        bad = gf->write_record(g, &rec, f, &err);
    }
    fclose(f);
    for (int i = 0; i < ply; i++)
        free(moves ? moves[i] : NULL);
    free(moves);
    if (bad) {
        free(text);
        reply_error(r, 500, "cannot write the record: %s", err.msg[0] ?
                    err.msg : "out of memory");
        return;
    }
    set_body(r, 200, "text/plain; charset=utf-8", text, len);
    snprintf(r->filename, sizeof r->filename, "ply-%s.%s", g->info.name,
             ext);
}

/* Requests on one game: /api/games/{id}[/op]. */
static void api_game(WebServer *w, const char *method, const char *rest,
                     const char *query, json_t *b, WebReply *r)
{
    const char *slash = strchr(rest, '/');
    size_t idlen = slash ? (size_t)(slash - rest) : strlen(rest);
    const char *op = slash ? slash + 1 : "";
    static const struct {
        const char *op, *method;
    } ops[] = {
        {"", "GET"}, {"", "DELETE"}, {"legal", "GET"}, {"move", "POST"},
        {"undo", "POST"}, {"redo", "POST"}, {"position", "POST"},
        {"seats", "POST"}, {"go", "POST"}, {"think", "GET"},
        {"stop", "POST"}, {"record", "GET"},
    };
    int known = 0, ok = 0;
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (!strcmp(op, ops[i].op)) {
            known = 1;
            ok |= !strcmp(method, ops[i].method);
        }
    if (!known) {
        reply_error(r, 404, "no such path");
        return;
    }
    if (!ok) {
        r->allow = !*op ? "GET, DELETE" : (!strcmp(op, "legal") ||
                   !strcmp(op, "think") || !strcmp(op, "record"))
                   ? "GET" : "POST";
        reply_error(r, 405, "use %s here", r->allow);
        return;
    }
    WGame *wg = game_get(w, rest, idlen);
    if (!wg) {
        reply_error(r, 404, "no game with this id (it may have been "
                    "dropped: idle too long, or the server restarted)");
        return;
    }
    if (!strcmp(method, "DELETE")) {
        pthread_mutex_lock(&w->mu);
        unlink_game(w, wg);
        pthread_mutex_unlock(&w->mu);
        pthread_mutex_lock(&wg->mu);
        cancel_search(wg);
        pthread_mutex_unlock(&wg->mu);
        json_t *o = json_object();
        json_object_set_new(o, "deleted", json_string(wg->id));
        reply_json(r, 200, o);
        game_put(w, wg);
        return;
    }
    pthread_mutex_lock(&wg->mu);
    finish_search(wg);
    const GameVtbl *g = wg->g;
    PlyError err = {{0}};
    int think_status = 0;
    long long wait_ms = 0;
    if (set_view(wg, query, r)) {
        ;
    } else if (!*op) {
        reply_json(r, 200, state_json(wg));
    } else if (!strcmp(op, "legal")) {
        Layout *l = make_layout(wg);
        json_t *o = json_object();
        json_object_set_new(o, "legal", legal_json(wg, l));
        json_object_set_new(o, "to_move",
                            json_integer(g->to_move(session_state(wg->s))));
        free(l);
        reply_json(r, 200, o);
    } else if (!strcmp(op, "think")) {
        char v[16];
        const char *q = query_arg(query, "wait_ms", v, sizeof v);
        char *end = NULL;
        wait_ms = q ? strtoll(q, &end, 10) : 0;
        if (q && (!*q || *end || wait_ms < 0 || wait_ms > 100000))
            reply_error(r, 400, "?wait_ms= must be 0..100000");
        else
            think_status = 200;
    } else if (!strcmp(op, "stop")) {
        if (wg->searching) {
            session_stop(wg->s);
            finish_with(wg, session_wait(wg->s, NULL));
        }
        reply_json(r, 200, think_json(wg));
    } else if (!strcmp(op, "record")) {
        char fmt[32];
        if (wg->view >= 0 && g->to_move(session_state(wg->s)) !=
            PLAYER_TERMINAL)
            reply_error(r, 409, "the record of a game with hidden "
                        "information is given at its end");
        else if (!query_arg(query, "format", fmt, sizeof fmt))
            reply_error(r, 400, "give ?format=NAME (one of the game's "
                        "formats, or 'moves')");
        else
            send_record(wg, fmt, r);
    } else if (!strcmp(op, "go")) {
        if (api_go(w, wg, b, r, &wait_ms))
            think_status = 202;
    } else if (!strcmp(op, "seats")) {
        if (set_seats(wg, json_object_get(b, "seats"), r) == 0)
            reply_json(r, 200, state_json(wg));
    } else if (!strcmp(op, "move")) {
        const char *mv = str_field(b, "move", NULL, 200, r);
        if (!mv) {
            if (!r->body)
                reply_error(r, 400, "'move' is required");
        } else if (g->to_move(session_state(wg->s)) == PLAYER_TERMINAL) {
            reply_error(r, 409, "the game is over");
        } else {
            cancel_search(wg);
            if (session_play_text(wg->s, mv, &err)) {
                reply_error(r, 400, "illegal move '%s': %s", mv, err.msg);
            } else {
                play_chance(wg);
                reply_json(r, 200, state_json(wg));
            }
        }
    } else if (!strcmp(op, "undo") || !strcmp(op, "redo")) {
        long long n;
        if (!int_field(b, "n", 1, 0, 1000000, &n, r)) {
            cancel_search(wg);
            if (*op == 'u')
                session_undo(wg->s, (int)n);
            else
                session_redo(wg->s, (int)n);
            reply_json(r, 200, state_json(wg));
        }
    } else if (!strcmp(op, "position")) {
        const char *setup = str_field(b, "setup", "", 60000, r);
        const char *moves = setup ? str_field(b, "moves", "", 60000, r)
                                  : NULL;
        char *copy = moves ? strdup(setup) : NULL;
        if (moves && !copy) {
            reply_error(r, 500, "out of memory");
        } else if (moves && !check_moves(g, moves, r)) {
            cancel_search(wg);
            if (session_set_position(wg->s, setup, moves, &err)) {
                reply_error(r, 400, "%s", err.msg);
                free(copy);
            } else {
                free(wg->setup);
                wg->setup = copy;
                play_chance(wg);
                reply_json(r, 200, state_json(wg));
            }
        } else {
            free(copy);
        }
    }
    if (think_status) {
        /* a short wait for a quick search, outside the game's lock */
        if (wait_ms > w->cfg.max_wait_ms)
            wait_ms = w->cfg.max_wait_ms;
        if (wait_ms > 0 && wg->searching) {
            pthread_mutex_unlock(&wg->mu);
            wait_done(wg, wait_ms);
            pthread_mutex_lock(&wg->mu);
            finish_search(wg);
        }
        json_t *t = think_json(wg);
        if (!strcmp(json_string_value(json_object_get(t, "state")), "done"))
            json_object_set_new(t, "game", state_json(wg));
        reply_json(r, think_status, t);
    }
    pthread_mutex_unlock(&wg->mu);
    game_put(w, wg);
}

/* ---------------- the page's files ---------------- */

static const char *mime_type(const char *path)
{
    static const struct { const char *ext, *type; } t[] = {
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".ico", "image/x-icon"},
        {".json", "application/json; charset=utf-8"},
        {".txt", "text/plain; charset=utf-8"},
        {".woff2", "font/woff2"},
    };
    const char *dot = strrchr(path, '.');
    for (size_t i = 0; dot && i < sizeof t / sizeof *t; i++)
        if (!strcmp(dot, t[i].ext))
            return t[i].type;
    return "application/octet-stream";
}

/* A safe relative path: [A-Za-z0-9._-/], no "..", no leading '/'. */
static int safe_path(const char *p)
{
    if (!*p || *p == '/' || strlen(p) > 200 || strstr(p, ".."))
        return 0;
    for (const char *c = p; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("._-/", *c))
            return 0;
    return 1;
}

static void serve_file(WebServer *w, const char *path, WebReply *r)
{
    if (!*path)
        path = "index.html";
    if (!safe_path(path)) {
        reply_error(r, 404, "no such file");
        return;
    }
    if (w->web_dir) {
        char full[1024];
        snprintf(full, sizeof full, "%s/%s", w->web_dir, path);
        int fd = open(full, O_RDONLY | O_CLOEXEC);
        struct stat sb;
        if (fd < 0 || fstat(fd, &sb) || !S_ISREG(sb.st_mode) ||
            sb.st_size > FILE_MAX) {
            if (fd >= 0)
                close(fd);
            reply_error(r, 404, "no such file '%s'", path);
            return;
        }
        char *data = malloc((size_t)sb.st_size + 1);
        size_t got = 0;
        while (data && got < (size_t)sb.st_size) {
            ssize_t k = read(fd, data + got, (size_t)sb.st_size - got);
            if (k <= 0)
                break;
            got += (size_t)k;
        }
        close(fd);
        if (!data) {
            reply_error(r, 500, "out of memory");
            return;
        }
        set_body(r, 200, mime_type(path), data, got);
        return;
    }
    for (const WebAsset *a = web_assets; a->path; a++)
        if (!strcmp(a->path, path)) {
            char *data = malloc(a->len + 1);
            if (!data) {
                reply_error(r, 500, "out of memory");
                return;
            }
            memcpy(data, a->data, a->len);
            set_body(r, 200, mime_type(path), data, a->len);
            return;
        }
    if (!strcmp(path, "index.html")) {
        static const char page[] =
            "<!doctype html><meta charset=utf-8><title>Ply</title>"
            "<p>This ply was built without the web page (no web/ "
            "directory). The API is at <a href=/api/games>/api/games</a>.";
        char *data = strdup(page);
        if (data)
            set_body(r, 200, "text/html; charset=utf-8", data,
                     strlen(page));
        else
            reply_error(r, 500, "out of memory");
        return;
    }
    reply_error(r, 404, "no such file '%s'", path);
}

/* ---------------- the handler ---------------- */

void web_handle(WebServer *w, const char *method, const char *url,
                const char *body, size_t len, WebReply *r)
{
    memset(r, 0, sizeof *r);
    char path[512];
    const char *q = strchr(url, '?');
    size_t pl = q ? (size_t)(q - url) : strlen(url);
    if (pl >= sizeof path) {
        reply_error(r, 414, "the URL is too long");
        return;
    }
    memcpy(path, url, pl);
    path[pl] = 0;
    const char *query = q ? q + 1 : "";
    if (body && memchr(body, 0, len)) {
        reply_error(r, 400, "the body contains a NUL byte");
        return;
    }
    if (len > (size_t)w->cfg.max_body) {
        reply_error(r, 413, "the body is larger than %d bytes",
                    w->cfg.max_body);
        return;
    }
    if (strncmp(path, "/api/", 5)) {
        if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
            r->allow = "GET";
            reply_error(r, 405, "use GET here");
            return;
        }
        serve_file(w, path[0] == '/' ? path + 1 : path, r);
        return;
    }
    const char *api = path + 5;
    json_t *b = NULL;
    if (!strcmp(method, "POST")) {
        b = parse_body(body, len, r);
        if (!b)
            return;
    }
    if (!strcmp(api, "players")) {
        if (!strcmp(method, "GET"))
            api_players(query, r);
        else {
            r->allow = "GET";
            reply_error(r, 405, "use GET here");
        }
    } else if (!strcmp(api, "games")) {
        if (!strcmp(method, "GET"))
            reply_json(r, 200, games_json());
        else if (!strcmp(method, "POST"))
            api_new(w, b, query, r);
        else {
            r->allow = "GET, POST";
            reply_error(r, 405, "use GET or POST here");
        }
    } else if (!strncmp(api, "games/", 6)) {
        api_game(w, method, api + 6, query, b, r);
    } else {
        reply_error(r, 404, "no such path");
    }
    json_decref(b);
}

/* ---------------- the reaper ---------------- */

static void *reaper(void *arg)
{
    WebServer *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->stopping) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&w->cv, &w->mu, &ts);
        if (w->stopping)
            break;
        int64_t now = now_ms();
        WGame *drop = NULL;
        for (WGame *g = w->games; g; g = g->next) {
            pthread_mutex_lock(&g->imu);
            int64_t go = g->done ? 0 : g->go_ms;
            pthread_mutex_unlock(&g->imu);
            if (go && now - go > w->cfg.max_think_ms + 1000)
                session_stop(g->s);
            if (!go && !drop && now - g->used_ms > (int64_t)w->cfg.idle_s *
                1000)
                drop = g;
        }
        if (drop) {
            WGame *f = unlink_game(w, drop);
            pthread_mutex_unlock(&w->mu);
            game_free(f);
            pthread_mutex_lock(&w->mu);
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* ---------------- life cycle ---------------- */

void web_config_default(WebConfig *c)
{
    memset(c, 0, sizeof *c);
    c->host = "127.0.0.1";
    c->port = 8080;
    c->max_games = 256;
    c->max_body = 65536;
    c->idle_s = 86400;
    c->max_think_ms = 60000;
    c->max_searches = 8;
    c->max_wait_ms = 1000;
    c->threads = 4;
}

WebServer *web_new(const WebConfig *cfg, PlyError *err)
{
    WebServer *w = calloc(1, sizeof *w);
    if (!w) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    WebConfig def;
    web_config_default(&def);
    w->cfg = *cfg;
    if (w->cfg.max_games <= 0)
        w->cfg.max_games = def.max_games;
    if (w->cfg.max_body <= 0)
        w->cfg.max_body = def.max_body;
    if (w->cfg.idle_s <= 0)
        w->cfg.idle_s = def.idle_s;
    if (w->cfg.max_think_ms <= 0)
        w->cfg.max_think_ms = def.max_think_ms;
    if (w->cfg.threads <= 0)
        w->cfg.threads = def.threads;
    if (w->cfg.max_wait_ms <= 0)
        w->cfg.max_wait_ms = def.max_wait_ms;
    if (w->cfg.max_searches <= 0)
        w->cfg.max_searches = def.max_searches;
    snprintf(w->host, sizeof w->host, "%s", cfg->host ? cfg->host
                                                      : "127.0.0.1");
    w->cfg.host = w->host;
    if (cfg->web_dir) {
        w->web_dir = strdup(cfg->web_dir);
        struct stat sb;
        if (!w->web_dir || stat(w->web_dir, &sb) || !S_ISDIR(sb.st_mode)) {
            ply_fail(err, "--web-dir '%s' is not a directory", cfg->web_dir);
            free(w->web_dir);
            free(w);
            return NULL;
        }
    }
    w->cfg.web_dir = w->web_dir;
    uint64_t seed = cfg->seed;
    if (!seed && getrandom(&seed, sizeof seed, GRND_NONBLOCK) !=
        (ssize_t)sizeof seed) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        seed = ply_mix64((uint64_t)t.tv_sec * 1000000007ull ^
                         (uint64_t)t.tv_nsec ^ (uint64_t)(uintptr_t)w);
    }
    rng_seed(&w->rng, seed);
    pthread_mutex_init(&w->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&w->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&w->reaper, NULL, reaper, w) == 0)
        w->has_reaper = 1;
    return w;
}

int web_game_count(WebServer *w)
{
    pthread_mutex_lock(&w->mu);
    int n = w->ngames;
    pthread_mutex_unlock(&w->mu);
    return n;
}

/* ---------------- HTTP ---------------- */

typedef struct Conn {
    HttpBody in;
} Conn;

/* The query back from libmicrohttpd's decoded arguments, %-escaped. */
typedef struct QBuf {
    char buf[4096];
    size_t len;
    int bad;
} QBuf;

static void q_put(QBuf *q, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (q->len + 4 >= sizeof q->buf) {
            q->bad = 1;
            return;
        }
        if (isalnum(c) || strchr("-_.~", c))
            q->buf[q->len++] = (char)c;
        else
            q->len += (size_t)sprintf(q->buf + q->len, "%%%02X", c);
    }
}

static enum MHD_Result q_arg(void *cls, enum MHD_ValueKind kind,
                             const char *key, const char *value)
{
    (void)kind;
    QBuf *q = cls;
    if (q->len && q->len + 1 < sizeof q->buf)
        q->buf[q->len++] = '&';
    q_put(q, key);
    if (q->len + 1 < sizeof q->buf)
        q->buf[q->len++] = '=';
    q_put(q, value);
    return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
                                  const char *url, const char *method,
                                  const char *version,
                                  const char *upload_data,
                                  size_t *upload_size, void **con_cls)
{
    (void)version;
    WebServer *w = cls;
    Conn *k = *con_cls;
    if (!k) {
        k = calloc(1, sizeof *k);
        if (!k)
            return MHD_NO;
        *con_cls = k;
        return MHD_YES;
    }
    if (*upload_size) {
        if (http_body_add(&k->in, upload_data, *upload_size,
                          (size_t)w->cfg.max_body))
            return MHD_NO;
        *upload_size = 0;
        return MHD_YES;
    }
    WebReply r;
    if (k->in.too_big) {
        memset(&r, 0, sizeof r);
        reply_error(&r, 413, "the body is larger than %d bytes",
                    w->cfg.max_body);
    } else {
        QBuf q;
        q.len = 0;
        q.bad = 0;
        q.buf[0] = 0;
        MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, q_arg, &q);
        q.buf[q.len < sizeof q.buf ? q.len : sizeof q.buf - 1] = 0;
        char full[4700];
        if (q.bad || strlen(url) > 500) {
            memset(&r, 0, sizeof r);
            reply_error(&r, 414, "the URL is too long");
        } else {
            snprintf(full, sizeof full, "%s%s%s", url, q.len ? "?" : "",
                     q.buf);
            web_handle(w, method, full, k->in.data, k->in.len, &r);
        }
    }
    char cd[160];
    snprintf(cd, sizeof cd, "attachment; filename=\"%s\"", r.filename);
    const char *hdr[] = {
        "Cache-Control", "no-store", "X-Content-Type-Options", "nosniff",
        "Allow", r.allow, "Content-Disposition", r.filename[0] ? cd : NULL,
        NULL};
    enum MHD_Result ret = http_send(c, (unsigned)r.status, r.type ? r.type
                                    : "text/plain", r.body, r.len, hdr);
    web_reply_free(&r);
    return ret;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)c;
    (void)toe;
    Conn *k = *con_cls;
    if (k) {
        http_body_free(&k->in);
        free(k);
    }
    *con_cls = NULL;
}

int web_listen(WebServer *w, PlyError *err)
{
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)w->cfg.port);
    if (inet_pton(AF_INET, w->host, &sa.sin_addr) != 1)
        return ply_fail(err, "--host '%s' is not an IPv4 address", w->host);
    w->daemon = MHD_start_daemon(
        MHD_USE_AUTO_INTERNAL_THREAD, (uint16_t)w->cfg.port, NULL, NULL,
        on_request, w,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, w,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)w->cfg.threads,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)512,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)256,
        MHD_OPTION_END);
    if (!w->daemon)
        return ply_fail(err, "cannot listen on %s:%d", w->host, w->cfg.port);
    const union MHD_DaemonInfo *di =
        MHD_get_daemon_info(w->daemon, MHD_DAEMON_INFO_BIND_PORT);
    w->port = di ? di->port : w->cfg.port;
    return 0;
}

int web_port(const WebServer *w)
{
    return w->port;
}

void web_free(WebServer *w)
{
    if (!w)
        return;
    if (w->daemon)
        MHD_stop_daemon(w->daemon);
    pthread_mutex_lock(&w->mu);
    w->stopping = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    if (w->has_reaper)
        pthread_join(w->reaper, NULL);
    while (w->games) {
        WGame *g = w->games;
        w->games = g->next;
        game_free(g);
    }
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w->web_dir);
    free(w);
}
