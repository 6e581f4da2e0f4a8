/* session.c — one engine session under every front end (session.h). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "registry.h"
#include "session.h"
#include "setup.h"
#include "util.h"

enum { SPEC_MAX = 256, OPTIONS_MAX = 256, RESTOP_MS = 20 };

struct Session {
    const GameVtbl *g;
    char options[OPTIONS_MAX];
    char spec[SPEC_MAX];
    uint64_t seed;
    int guarded;                /* bots from untrusted specs (session_guard) */
    Bot *bot;                   /* swapped under mu (session_stop reads it) */
    /* history: states[i] is the position before moves[i]; states[cur] is
     * the current one, states[cur+1..top] can be redone */
    size_t sz;
    unsigned char *states;
    Move *moves;
    int cur, top, cap;
    /* callbacks, set while idle */
    SessionInfoFn on_info;
    SessionDoneFn on_done;
    void *user;
    /* search: the owner writes these before pthread_create and reads them
     * after pthread_join; the thread owns them in between */
    pthread_t th;
    int live;                   /* owner only: a thread to join */
    void *root;
    Limits lim;
    Move best;
    SearchInfo info;
    int64_t t0;
    /* shared with the search thread and stoppers: under mu */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop, infinite, done;
    /* standard engine options set by a front end ("Hash" = "64"), kept
     * so that a new bot gets them too where it has such a row */
    char eng_name[SESSION_ENGINE_OPTIONS][32];
    char eng_value[SESSION_ENGINE_OPTIONS][64];
    int neng;
};

static unsigned char *state_ptr(const Session *s, int i)
{
    return s->states + s->sz * (size_t)i;
}

/* Room for states[0..n-1]. */
static int reserve(Session *s, int n)
{
    if (n <= s->cap)
        return 0;
    int cap = s->cap ? s->cap : 64;
    while (cap < n)
        cap *= 2;
    unsigned char *st = realloc(s->states, s->sz * (size_t)cap);
    if (!st)
        return -1;
    s->states = st;
    Move *mv = realloc(s->moves, sizeof(Move) * (size_t)cap);
    if (!mv)
        return -1;
    s->moves = mv;
    s->cap = cap;
    return 0;
}

/* ------------------------------------------------------------ search */

static void trampoline(const SearchInfo *si, void *user)
{
    Session *s = user;
    if (s->on_info)
        s->on_info(s->user, s->root, si);
}

static void *search_main(void *arg)
{
    Session *s = arg;
    SearchInfo info;
    memset(&info, 0, sizeof info);
    Move m = bot_choose(s->bot, s->root, &s->lim, &info);
    pthread_mutex_lock(&s->mu);
    while (s->infinite && !s->stop)     /* held until stop or ponderhit */
        pthread_cond_wait(&s->cv, &s->mu);
    pthread_mutex_unlock(&s->mu);
    s->best = m;
    s->info = info;
    if (s->on_done)
        s->on_done(s->user, s->root, m, &info);
    pthread_mutex_lock(&s->mu);
    s->done = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

void session_stop(Session *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    s->stop = 1;
    pthread_cond_broadcast(&s->cv);
    if (!s->done)
        bot_stop(s->bot);           /* no bot yet: nothing to stop */
    pthread_mutex_unlock(&s->mu);
}

void session_ponderhit(Session *s)
{
    pthread_mutex_lock(&s->mu);
    s->infinite = 0;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

int session_searching(const Session *s)
{
    return s->live;
}

int session_search_done(Session *s)
{
    if (!s->live)
        return 1;
    pthread_mutex_lock(&s->mu);
    int d = s->done;
    if (!d && s->stop)
        bot_stop(s->bot);                   /* see session_wait() */
    pthread_mutex_unlock(&s->mu);
    return d;
}

int session_search_endless(Session *s)
{
    if (!s->live)
        return 0;
    pthread_mutex_lock(&s->mu);
    int e = s->infinite && !s->stop && !s->done;
    pthread_mutex_unlock(&s->mu);
    return e;
}

Move session_wait(Session *s, SearchInfo *out)
{
    if (!s->live) {
        if (out)
            memset(out, 0, sizeof *out);
        return 0;
    }
    /* a bot clears its stop flag when its search begins, so a stop sent
     * just before that is lost: while stopping, ask again now and then */
    pthread_mutex_lock(&s->mu);
    while (!s->done) {
        if (s->stop) {
            bot_stop(s->bot);
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += RESTOP_MS * 1000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&s->cv, &s->mu, &ts);
        } else {
            pthread_cond_wait(&s->cv, &s->mu);
        }
    }
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->th, NULL);
    s->live = 0;
    if (out)
        *out = s->info;
    return s->best;
}

void session_cancel(Session *s)
{
    if (!s->live)
        return;
    session_stop(s);
    session_wait(s, NULL);
}

int64_t session_search_ms(const Session *s)
{
    return now_ms() - s->t0;
}

void session_on_info(Session *s, SessionInfoFn info, SessionDoneFn done,
                     void *user)
{
    s->on_info = info;
    s->on_done = done;
    s->user = user;
}

int session_go(Session *s, const Limits *lim, int infinite, PlyError *err)
{
    if (s->live)
        return ply_fail(err, "a search is already running");
    const void *st = session_state(s);
    int p = s->g->to_move(st);
    if (p == PLAYER_TERMINAL)
        return ply_fail(err, "the game is over");
    if (p == PLAYER_CHANCE)
        return ply_fail(err, "a chance move is due, not a player's");
    if (s->g->info.flags & GAME_HIDDEN)
        s->g->observe(st, p, s->root);   /* the bot sees what its seat sees */
    else
        memcpy(s->root, st, s->sz);
    s->lim = lim ? *lim : s->bot->limits;
    s->lim.on_info = trampoline;
    s->lim.user = s;
    s->best = 0;
    memset(&s->info, 0, sizeof s->info);
    s->t0 = now_ms();
    pthread_mutex_lock(&s->mu);
    s->stop = 0;
    s->done = 0;
    s->infinite = infinite;
    pthread_mutex_unlock(&s->mu);
    if (pthread_create(&s->th, NULL, search_main, s))
        return ply_fail(err, "cannot start the search thread");
    s->live = 1;
    return 0;
}

/* ------------------------------------------------------------ bot */

static int install_bot(Session *s, const char *spec, uint64_t seed,
                       PlyError *err)
{
    if (strlen(spec) >= SPEC_MAX)
        return ply_fail(err, "bot spec too long (%zu characters)",
                        strlen(spec));
    Bot *b = s->guarded ? bot_new_guarded(s->g, spec, seed, err)
                        : bot_new(s->g, spec, seed, err);
    if (!b)
        return -1;
    session_cancel(s);
    pthread_mutex_lock(&s->mu);
    Bot *old = s->bot;
    s->bot = b;
    pthread_mutex_unlock(&s->mu);
    bot_free(old);
    if (spec != s->spec)
        snprintf(s->spec, sizeof s->spec, "%s", spec);
    s->seed = seed;
    return 0;
}

/* Applies the stored engine options that s's bot has rows for. */
static int apply_engine_options(Session *s, PlyError *err)
{
    for (int i = 0; i < s->neng; i++) {
        const Option *o = bot_option_engine(s->bot->v, s->eng_name[i]);
        if (o && session_set_bot_option(s, o->key, s->eng_value[i], err))
            return -1;
    }
    return 0;
}

void session_guard(Session *s)
{
    s->guarded = 1;
}

int session_set_bot(Session *s, const char *spec, PlyError *err)
{
    if (!spec || !*spec)
        return ply_fail(err, "empty bot spec");
    if (install_bot(s, spec, s->seed, err))
        return -1;
    return apply_engine_options(s, err);
}

const BotVtbl *session_bot_vtbl(const Session *s)
{
    return s->bot->v;
}

int session_set_engine_option(Session *s, const char *name,
                              const char *value, PlyError *err)
{
    const Option *o = name ? bot_option_engine(s->bot->v, name) : NULL;
    if (!o)
        return ply_fail(err, "the bot %s has no option %.40s",
                        s->bot->v->name, name ? name : "");
    if (!value || !*value || strlen(value) >= sizeof s->eng_value[0])
        return ply_fail(err, "option %s needs a value", name);
    if (session_set_bot_option(s, o->key, value, err))
        return -1;
    int i = 0;
    while (i < s->neng && strcasecmp(s->eng_name[i], name))
        i++;
    if (i == s->neng) {
        if (s->neng == SESSION_ENGINE_OPTIONS)
            return 0;   /* set on this bot; not kept for the next one */
        s->neng++;
        snprintf(s->eng_name[i], sizeof s->eng_name[i], "%s", o->engine);
    }
    snprintf(s->eng_value[i], sizeof s->eng_value[i], "%s", value);
    return 0;
}

int session_set_bot_option(Session *s, const char *key, const char *value,
                           PlyError *err)
{
    size_t kl = key ? strlen(key) : 0;
    if (!kl || strpbrk(key, ",:= \t"))
        return ply_fail(err, "bad bot option name '%.60s'", key ? key : "");
    if (value && strpbrk(value, ",:"))
        return ply_fail(err, "bad value '%.60s' for bot option %s: no ',' "
                        "or ':' allowed", value, key);
    char out[SPEC_MAX * 2];
    const char *colon = strchr(s->spec, ':');
    size_t nl = colon ? (size_t)(colon - s->spec) : strlen(s->spec);
    int len = snprintf(out, sizeof out, "%.*s", (int)nl, s->spec);
    int first = 1;
    /* the other options, in their order */
    for (const char *r = colon ? colon + 1 : ""; *r;) {
        size_t il = strcspn(r, ",");
        size_t el = strcspn(r, "=");
        if (!(el == kl && el <= il && !strncmp(r, key, kl)) && il > 0) {
            len += snprintf(out + len, sizeof out - (size_t)len, "%c%.*s",
                            first ? ':' : ',', (int)il, r);
            first = 0;
        }
        r += il;
        if (*r == ',')
            r++;
        if (len >= (int)sizeof out)
            break;
    }
    if (value && *value && len < (int)sizeof out)
        len += snprintf(out + len, sizeof out - (size_t)len, "%c%s=%s",
                        first ? ':' : ',', key, value);
    if (len >= SPEC_MAX)
        return ply_fail(err, "bot spec too long with %s=%.40s", key,
                        value ? value : "");
    return install_bot(s, out, s->seed, err);
}

int session_set_seed(Session *s, uint64_t seed, PlyError *err)
{
    return install_bot(s, s->spec, seed, err);
}

const GameVtbl *session_game(const Session *s) { return s->g; }
const char *session_options(const Session *s) { return s->options; }
const char *session_bot_spec(const Session *s) { return s->spec; }
uint64_t session_seed(const Session *s) { return s->seed; }
Limits session_bot_limits(const Session *s) { return s->bot->limits; }

int session_bot_can_stop(const Session *s)
{
    return s->bot->v->stop != NULL;
}

/* ------------------------------------------------------------ position */

const void *session_state(const Session *s)
{
    return state_ptr(s, s->cur);
}

int session_ply(const Session *s) { return s->cur; }
int session_redo_count(const Session *s) { return s->top - s->cur; }

const void *session_state_at(const Session *s, int i)
{
    return i >= 0 && i <= s->cur ? state_ptr(s, i) : NULL;
}

Move session_move_at(const Session *s, int i)
{
    return i >= 0 && i < s->cur ? s->moves[i] : 0;
}

int session_set_state(Session *s, const void *st, PlyError *err)
{
    session_cancel(s);
    if (reserve(s, 1))
        return ply_fail(err, "out of memory");
    if (st != state_ptr(s, 0))
        memmove(state_ptr(s, 0), st, s->sz);
    s->cur = s->top = 0;
    return 0;
}

int session_set_view(Session *s, const char *view, PlyError *err)
{
    const GameVtbl *g = s->g;
    if (!(g->info.flags & GAME_HIDDEN) || !g->from_view)
        return ply_fail(err, "%s has no players' views", g->info.name);
    void *st = state_alloc(g);
    if (!st)
        return ply_fail(err, "out of memory");
    int opt[PLY_MAX_OPTIONS];
    int seat = -1;
    if (!options_parse(g, s->options, opt, err) &&
        !g->init(st, opt, s->seed, err))
        seat = g->from_view(st, view, err);
    int rc = -1;
    if (seat >= 0) {
        int tm = g->to_move(st);
        if (tm != PLAYER_TERMINAL && tm != seat)
            ply_fail(err, "the view is %s's, but %s is to move",
                     g->info.player_names[seat], g->info.player_names[tm]);
        else
            rc = session_set_state(s, st, err);
    }
    free(st);
    return rc;
}

int session_set_position(Session *s, const char *setup, const char *moves,
                         PlyError *err)
{
    const GameVtbl *g = s->g;
    void *st = state_alloc(g);
    if (!st)
        return ply_fail(err, "out of memory");
    if (state_setup(g, st, s->options, setup && *setup ? setup : NULL,
                    s->seed, err)) {
        free(st);
        return -1;
    }
    /* the moves go to a new history, swapped in only when all are legal */
    int n = 0, cap = 0;
    unsigned char *hs = NULL;
    Move *hm = NULL;
    char *copy = moves ? strdup(moves) : NULL;
    int rc = 0;
    if (moves && !copy)
        rc = ply_fail(err, "out of memory");
    char *save = NULL;
    for (char *w = copy ? strtok_r(copy, " \t\r\n", &save) : NULL; w && !rc;
         w = strtok_r(NULL, " \t\r\n", &save)) {
        if (n + 1 >= cap) {
            cap = cap ? cap * 2 : 64;
            unsigned char *t = realloc(hs, s->sz * (size_t)cap);
            Move *u = t ? realloc(hm, sizeof(Move) * (size_t)cap) : NULL;
            if (t)
                hs = t;
            if (u)
                hm = u;
            if (!t || !u) {
                rc = ply_fail(err, "out of memory");
                break;
            }
        }
        PlyError e = {{0}};
        Move m;
        if (g->to_move(st) == PLAYER_TERMINAL)
            rc = ply_fail(err, "move %d '%.40s': the game is over", n + 1, w);
        else if (g->text_to_move(st, w, &m, &e))
            rc = ply_fail(err, "move %d: %s", n + 1,
                          e.msg[0] ? e.msg : "not a legal move");
        else if (!state_is_legal(g, st, m))
            rc = ply_fail(err, "move %d '%.40s': not legal here", n + 1, w);
        if (rc)
            break;
        memcpy(hs + s->sz * (size_t)n, st, s->sz);
        hm[n++] = m;
        g->make(st, m);
    }
    free(copy);
    if (!rc) {
        session_cancel(s);
        if (reserve(s, n + 1)) {
            rc = ply_fail(err, "out of memory");
        } else {
            if (n)
                memcpy(s->states, hs, s->sz * (size_t)n);
            memcpy(state_ptr(s, n), st, s->sz);
            if (n)
                memcpy(s->moves, hm, sizeof(Move) * (size_t)n);
            s->cur = s->top = n;
        }
    }
    free(hs);
    free(hm);
    free(st);
    return rc;
}

int session_new_game(Session *s, PlyError *err)
{
    if (install_bot(s, s->spec, s->seed, err))
        return -1;
    return session_set_position(s, NULL, NULL, err);
}

int session_play(Session *s, Move m, PlyError *err)
{
    const void *st = session_state(s);
    int p = s->g->to_move(st);
    if (p == PLAYER_TERMINAL)
        return ply_fail(err, "the game is over");
    if (!state_is_legal(s->g, st, m))
        return ply_fail(err, "not a legal move here");
    session_cancel(s);
    if (reserve(s, s->cur + 2))
        return ply_fail(err, "out of memory");
    st = session_state(s);
    if (!(s->g->info.flags & GAME_HIDDEN))    /* st is more than it sees */
        bot_inform(s->bot, st, m);
    s->moves[s->cur] = m;
    memcpy(state_ptr(s, s->cur + 1), st, s->sz);
    s->cur++;
    s->top = s->cur;
    s->g->make(state_ptr(s, s->cur), m);
    return 0;
}

int session_play_text(Session *s, const char *text, PlyError *err)
{
    const void *st = session_state(s);
    if (s->g->to_move(st) == PLAYER_TERMINAL)
        return ply_fail(err, "the game is over");
    Move m;
    if (s->g->text_to_move(st, text, &m, err))
        return -1;
    return session_play(s, m, err);
}

int session_undo(Session *s, int n)
{
    session_cancel(s);
    int k = n < s->cur ? n : s->cur;
    if (k > 0) {
        s->cur -= k;
        bot_new_game(s->bot);
    }
    return k > 0 ? k : 0;
}

int session_redo(Session *s, int n)
{
    session_cancel(s);
    int k = n < s->top - s->cur ? n : s->top - s->cur;
    if (k > 0) {
        s->cur += k;
        bot_new_game(s->bot);
    }
    return k > 0 ? k : 0;
}

/* ------------------------------------------------------------ life */

Session *session_new(const GameVtbl *g, const char *options,
                     const char *bot_spec, uint64_t seed, PlyError *err)
{
    if (!g) {
        ply_fail(err, "no game");
        return NULL;
    }
    int opt[PLY_MAX_OPTIONS];
    if (options && strlen(options) >= OPTIONS_MAX) {
        ply_fail(err, "game options too long");
        return NULL;
    }
    if (options_parse(g, options, opt, err))
        return NULL;
    Session *s = calloc(1, sizeof *s);
    if (!s) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    s->g = g;
    s->sz = g->info.state_size;
    s->seed = seed;
    snprintf(s->options, sizeof s->options, "%s", options ? options : "");
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    s->root = malloc(s->sz);
    if (!s->root || reserve(s, 1)) {
        ply_fail(err, "out of memory");
        session_free(s);
        return NULL;
    }
    if (install_bot(s, bot_spec ? bot_spec : game_default_bot(g), seed,
                    err) ||
        session_set_position(s, NULL, NULL, err)) {
        session_free(s);
        return NULL;
    }
    return s;
}

void session_free(Session *s)
{
    if (!s)
        return;
    session_cancel(s);
    bot_free(s->bot);
    free(s->root);
    free(s->states);
    free(s->moves);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s);
}
