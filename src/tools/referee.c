/* referee.c — one game between players: clocks and forfeits, openings
 * and chance, the record. The players (player.h) are bots or programs
 * behind a protocol client; the referee knows neither. */
#include <stdlib.h>
#include <string.h>

#include "../core/rng.h"
#include "../core/setup.h"
#include "../core/util.h"
#include "referee.h"

enum { MOVE_TEXT_MAX = 256 };

static int record_push(GameRecord *r, const char *text)
{
    if (r->nmoves == r->cap) {
        int cap = r->cap ? r->cap * 2 : 64;
        char **m = realloc(r->moves, sizeof *m * (size_t)cap);
        if (!m)
            return -1;
        r->moves = m;
        r->cap = cap;
    }
    r->moves[r->nmoves] = strdup(text);
    if (!r->moves[r->nmoves])
        return -1;
    r->nmoves++;
    return 0;
}

void match_record_free(GameRecord *r)
{
    for (int i = 0; i < r->nmoves; i++)
        free(r->moves[i]);
    free(r->moves);
    r->moves = NULL;
    r->nmoves = r->cap = 0;
}

/* ------------------------------------------------------------------ */
/* one game                                                            */

typedef struct Seat {
    Player *p;
    int64_t clock_ms;   /* per-game clock (TC_GAME, and a protocol's own) */
} Seat;

typedef struct Game {
    const GameVtbl *g;
    const TimeControl *tc;
    GameRecord *r;
    void *st;
    int64_t clocks[PLY_MAX_PLAYERS];
    Seat seat[PLY_MAX_PLAYERS];
    int np;                     /* seats playing (state_seats) */
} Game;

/* Time a seat may use for this move (-1: unlimited). */
static int64_t allowed_ms(const Game *G, const Seat *S)
{
    const TimeControl *tc = G->tc;
    if (tc->kind == TC_MOVE)
        return tc->tc_ms;
    if (tc->kind == TC_GAME || S->p->game_ms)
        return S->clock_ms > 0 ? S->clock_ms : 0;
    if (S->p->external)
        return tc->ext_move_ms;
    return -1;
}

/* Plays one move of seat p; updates its clock; 0 or a forfeit reason. */
static Reason seat_move(Game *G, int p, Move *m, PlyError *err)
{
    const TimeControl *tc = G->tc;
    Seat *S = &G->seat[p];
    int np = G->np;
    for (int s = 0; s < np; s++)
        G->clocks[s] = G->seat[s].clock_ms;
    PlayerClock pc = {
        .allowed_ms = allowed_ms(G, S),
        .left_ms = G->clocks,
        .seed = G->r->seed + (uint64_t)G->r->nmoves,
    };
    int64_t t0 = now_ms();
    S->p->claimed = 0;
    Reason why = S->p->vt->move(S->p, G->st, &pc, m, err);
    int64_t used = now_ms() - t0;
    if (why == REASON_NORMAL && S->p->claimed && !G->r->claim_ply[p])
        G->r->claim_ply[p] = G->r->nmoves + 1;
    if (why == REASON_NORMAL && !state_is_legal(G->g, G->st, *m))
        why = player_fail(err, REASON_ILLEGAL, "%s: chose an illegal move",
                          S->p->name);    /* the players check; so do we */
    if (why == REASON_NORMAL && pc.allowed_ms >= 0 &&
        used > pc.allowed_ms + tc->grace_ms)
        why = player_fail(err, REASON_TIME, "%s: used %lld ms of %lld",
                          S->p->name, (long long)used,
                          (long long)pc.allowed_ms);
    else if (why == REASON_NORMAL && pc.allowed_ms >= 0 &&
             used > pc.allowed_ms) {
        /* within the grace: counted, not forfeited */
        G->r->overruns[p]++;
        if (used - pc.allowed_ms > G->r->overrun_max_ms[p])
            G->r->overrun_max_ms[p] = used - pc.allowed_ms;
    }
    if (why == REASON_NORMAL && (tc->kind == TC_GAME || S->p->game_ms)) {
        S->clock_ms -= used;
        if (S->clock_ms < 0)
            S->clock_ms = 0;
        S->clock_ms += tc->kind == TC_GAME ? tc->inc_ms : 0;
    }
    return why;
}

static void forfeit(Game *G, int loser, Reason why, const PlyError *e)
{
    int np = G->np;
    GameRecord *r = G->r;
    r->reason = why;
    r->loser = loser;
    snprintf(r->error, sizeof r->error, "%s", e->msg);
    for (int s = 0; s < np; s++)
        r->result[s] = s == loser ? -1 : np > 1 ? 1.0 / (np - 1) : 0;
}

/* A chance outcome drawn by its odds. */
static Move draw_chance(const GameVtbl *g, const void *st, Rng *rng,
                        Move *moves, double *probs)
{
    int n = g->chance_outcomes(st, moves, probs);
    double x = rng_double(rng), acc = 0;
    Move m = moves[n - 1];
    for (int i = 0; i < n; i++)
        if (x < (acc += probs[i])) {
            m = moves[i];
            break;
        }
    return m;
}

int referee_random_walk(const GameVtbl *g, void *st, int plies,
                        uint64_t seed, Move *moves, double *probs,
                        Move *played)
{
    size_t sz = g->info.state_size;
    void *start = malloc(sz);
    if (!start)
        return 0;
    memcpy(start, st, sz);
    for (int tries = 0; tries < 100 && plies > 0; tries++) {
        Rng rng;
        rng_seed(&rng, seed + (uint64_t)tries);
        memcpy(st, start, sz);
        int k = 0;
        for (; k < plies; k++) {
            int p = g->to_move(st);
            if (p == PLAYER_TERMINAL)
                break;
            Move m = p == PLAYER_CHANCE
                     ? draw_chance(g, st, &rng, moves, probs)
                     : moves[rng_below(&rng, (uint32_t)g->gen_moves(st,
                                                                moves))];
            played[k] = m;
            g->make(st, m);
        }
        if (k == plies && g->to_move(st) != PLAYER_TERMINAL) {
            free(start);
            return plies;
        }
    }
    memcpy(st, start, sz);
    free(start);
    return 0;
}

/* A random opening (referee_random_walk) written to the record. Returns
 * the number of plies played, -1 when a move could not be written. */
static int random_opening(Game *G, int plies, uint64_t seed, Move *moves,
                          double *probs)
{
    const GameVtbl *g = G->g;
    size_t sz = g->info.state_size;
    void *start = malloc(sz);
    Move *played = malloc(sizeof *played * (size_t)(plies > 0 ? plies : 1));
    int k = 0;
    if (start && played) {
        memcpy(start, G->st, sz);
        k = referee_random_walk(g, G->st, plies, seed, moves, probs,
                                played);
        /* replay to write the moves down */
        if (k > 0)
            memcpy(G->st, start, sz);
        char text[MOVE_TEXT_MAX];
        for (int i = 0; i < k; i++) {
            if (g->move_to_text(G->st, played[i], text, sizeof text) < 0 ||
                record_push(G->r, text)) {
                k = -1;
                break;
            }
            g->make(G->st, played[i]);
        }
    }
    free(start);
    free(played);
    return k;
}

int referee_play(const GameVtbl *g, const char *options,
                 Player *const seats[], const TimeControl *tc,
                 const Opening *op, uint64_t seed, GameRecord *r,
                 PlyError *err)
{
    int np = g->info.num_players;
    r->loser = -1;
    r->seed = seed;
    memset(r->claim_ply, 0, sizeof r->claim_ply);
    memset(r->score_check, 0, sizeof r->score_check);
    memset(r->score_own, 0, sizeof r->score_own);
    r->score_ref[0] = 0;

    Game G;
    memset(&G, 0, sizeof G);
    G.g = g;
    G.tc = tc;
    G.r = r;
    G.st = state_alloc(g);
    void *plain = state_alloc(g);
    int maxlen = g->info.max_game_length + op->plies + 2;
    Move *moves = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    double *probs = malloc(sizeof(double) * (size_t)g->info.max_moves);
    int ret = -1, begun = 0;
    if (!G.st || !plain || !moves || !probs) {
        ply_fail(err, "out of memory");
        goto out;
    }
    if (state_setup(g, G.st, options, op->setup, op->seed, err))
        goto out;
    G.np = np = state_seats(g, G.st, NULL);
    if (g->to_text(G.st, r->setup, sizeof r->setup) < 0) {
        ply_fail(err, "%s: to_text failed", g->info.name);
        goto out;
    }
    int startpos;
    {
        /* the engines' own start position: init with seed 0 */
        char text[sizeof r->setup];
        PlyError e2;
        startpos = !op->setup && !state_setup(g, plain, options, NULL, 0,
                                              &e2) &&
                   g->to_text(plain, text, sizeof text) >= 0 &&
                   !strcmp(text, r->setup);
    }
    if (op->plies) {
        int k = random_opening(&G, op->plies, op->seed, moves, probs);
        if (k < 0) {
            ply_fail(err, "could not write an opening move");
            goto out;
        }
        r->opening_plies = k;
    }

    Rng chance;
    rng_seed(&chance, r->seed ^ 0x636861636eull);
    for (int s = 0; s < np; s++) {
        G.seat[s].p = seats[s];
        G.seat[s].clock_ms = tc->kind == TC_GAME ? tc->tc_ms
                                                 : seats[s]->game_ms;
    }
    begun = 1;
    for (int s = 0; s < np; s++) {
        PlayerGame pg = {
            .g = g, .options = options, .setup = r->setup,
            .startpos = startpos, .opening = r->moves,
            .opening_plies = r->opening_plies, .st = G.st, .seat = s,
            .seed = ply_mix64(r->seed + (uint64_t)s), .tc = tc,
        };
        PlyError e2 = {{0}};
        Reason why = seats[s]->vt->begin(seats[s], &pg, &e2);
        if (why) {
            forfeit(&G, s, why, &e2);
            break;
        }
    }
    char text[MOVE_TEXT_MAX];
    while (r->loser < 0) {
        int p = g->to_move(G.st);
        if (p == PLAYER_TERMINAL) {
            g->returns(G.st, r->result);
            r->reason = REASON_NORMAL;
            break;
        }
        if (r->nmoves >= maxlen - 1) {
            /* the game broke its own length bound: call it a draw */
            for (int s = 0; s < np; s++)
                r->result[s] = 0;
            r->reason = REASON_ADJUDICATED;
            snprintf(r->error, sizeof r->error, "longer than %d plies",
                     g->info.max_game_length);
            break;
        }
        Move m;
        if (p == PLAYER_CHANCE) {
            m = draw_chance(g, G.st, &chance, moves, probs);
        } else {
            PlyError e2 = {{0}};
            Reason why = seat_move(&G, p, &m, &e2);
            if (why) {
                forfeit(&G, p, why, &e2);
                break;
            }
        }
        if (g->move_to_text(G.st, m, text, sizeof text) < 0 ||
            record_push(r, text)) {
            ply_fail(err, "could not write a move down");
            goto out;
        }
        for (int s = 0; s < np; s++)
            seats[s]->vt->inform(seats[s], G.st, m, text);
        g->make(G.st, m);
    }
    ret = 0;
out:
    if (begun)
        for (int s = 0; s < np; s++) {
            Player *p = seats[s];
            p->score_check = SCORE_CHECK_NONE;
            p->vt->end(p, r->result, r->reason, r->loser == s);
            if (p->score_check <= SCORE_CHECK_NONE ||
                p->score_check >= SCORE_CHECK_COUNT)
                continue;
            r->score_check[s] = p->score_check;
            snprintf(r->score_own[s], sizeof r->score_own[s], "%s",
                     p->score_own);
            snprintf(r->score_ref, sizeof r->score_ref, "%s", p->score_ref);
        }
    free(G.st);
    free(plain);
    free(moves);
    free(probs);
    return ret;
}
