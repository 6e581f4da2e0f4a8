/* bot_player.c — an in-process bot at the referee's table: a Session
 * (src/core/session.h) searching under the time manager's budget. */
#include <stdlib.h>
#include <string.h>

#include "../core/session.h"
#include "../core/setup.h"
#include "../core/timeman.h"
#include "../core/util.h"
#include "player.h"

typedef struct BotPlayer {
    Player base;
    char spec[128];
    const GameVtbl *g;
    const TimeControl *tc;
    Session *s;
} BotPlayer;

/* A bot spec's own seed=N would give the bot the same random stream in
 * every game; in a match it is mixed with the game's seed instead, so
 * "random:seed=2" is another bot than "random", and yet random in each
 * game. Writes the spec without its seed to out. */
static uint64_t spec_seed(const char *spec, uint64_t seed, char *out,
                          size_t n)
{
    snprintf(out, n, "%s", spec);
    char *colon = strchr(out, ':');
    if (!colon)
        return seed;
    char *w = colon + 1, *r = colon + 1;
    while (*r) {
        size_t len = strcspn(r, ",");
        if (!strncmp(r, "seed=", 5)) {
            seed = ply_mix64(seed ^ strtoull(r + 5, NULL, 10));
        } else {
            if (w != colon + 1)
                *w++ = ',';
            memmove(w, r, len);
            w += len;
        }
        r += len;
        if (*r == ',')
            r++;
    }
    *w = 0;
    if (w == colon + 1)
        *colon = 0;
    return seed;
}

static Reason bp_begin(Player *p, const PlayerGame *pg, PlyError *err)
{
    BotPlayer *B = (BotPlayer *)p;
    PlyError e2 = {{0}};
    char spec[sizeof B->spec];
    uint64_t seed = spec_seed(B->spec, pg->seed, spec, sizeof spec);
    B->g = pg->g;
    B->tc = pg->tc;
    B->s = session_new(pg->g, pg->options, spec, seed, &e2);
    if (!B->s || session_set_state(B->s, pg->st, &e2))
        return player_fail(err, REASON_CRASH, "%s", e2.msg);
    return REASON_NORMAL;
}

static Reason bp_move(Player *p, const void *st, const PlayerClock *c,
                      Move *out, PlyError *err)
{
    BotPlayer *B = (BotPlayer *)p;
    const TimeControl *tc = B->tc;
    Limits lim = session_bot_limits(B->s);
    int64_t allowed = c->allowed_ms;
    if (allowed < 0 && !lim.time_ms && !lim.nodes && !lim.depth)
        lim.time_ms = tc->ext_move_ms;  /* no limit anywhere: --movetime */
    if (allowed >= 0) {
        int64_t budget = allowed;
        if (tc->kind == TC_GAME) {
            Clock k = {.left_ms = allowed, .inc_ms = tc->inc_ms};
            budget = time_budget(B->g, st, &k, c->seed);
        }
        if (budget < 1)
            budget = 1;
        if (!lim.time_ms || lim.time_ms > budget) {
            lim.time_ms = budget;
            /* a time per move is lost when not used */
            lim.spend_all = tc->kind == TC_MOVE;
        }
    }
    /* the session searches what this seat sees in hidden games */
    PlyError e2 = {{0}};
    SearchInfo si;
    if (session_go(B->s, &lim, 0, &e2))
        return player_fail(err, REASON_CRASH, "%s: %s", p->name, e2.msg);
    *out = session_wait(B->s, &si);
    if (!state_is_legal(B->g, st, *out))
        return player_fail(err, REASON_ILLEGAL, "%s: chose an illegal move",
                           p->name);
    return REASON_NORMAL;
}

static void bp_inform(Player *p, const void *st, Move m, const char *text)
{
    BotPlayer *B = (BotPlayer *)p;
    (void)st;
    (void)text;
    if (B->s)
        session_play(B->s, m, NULL);
}

static void bp_end(Player *p, const double *result, Reason why,
                   int forfeited)
{
    BotPlayer *B = (BotPlayer *)p;
    (void)result;
    (void)why;
    (void)forfeited;
    session_free(B->s);
    B->s = NULL;
}

static void bp_free(Player *p)
{
    if (!p)
        return;
    bp_end(p, NULL, REASON_NORMAL, 0);
    free(p);
}

static const PlayerVtbl bot_vtbl = {bp_begin, bp_move, bp_inform, bp_end,
                                    bp_free, NULL};

Player *bot_player_new(const char *name, const char *spec, PlyError *err)
{
    BotPlayer *B = calloc(1, sizeof *B);
    if (!B) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    if (strlen(spec) >= sizeof B->spec) {
        free(B);
        ply_fail(err, "bot spec too long");
        return NULL;
    }
    B->base.vt = &bot_vtbl;
    snprintf(B->base.name, sizeof B->base.name, "%s", name);
    snprintf(B->spec, sizeof B->spec, "%s", spec);
    return &B->base;
}
