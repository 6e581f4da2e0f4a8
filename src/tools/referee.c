/* referee.c — one game of a match: the seats (in-process bots, UGI and
 * CodeCup programs), clocks and forfeits, openings and chance. Everything
 * comes from the match settings and the game number. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../core/registry.h"
#include "../core/setup.h"
#include "../core/util.h"
#include "engine.h"
#include "match.h"

enum { CODECUP_GAME_MS = 30000, QUIT_WAIT_MS = 300, MOVE_TEXT_MAX = 256 };

static uint64_t game_seed(const MatchConfig *c, uint64_t index)
{
    return ply_mix64(c->seed ^ ply_mix64(index + 1));
}

/* Openings are shared by the rotations of one pairing and by all pairings,
 * so everybody plays the same positions from both sides. */
static uint64_t opening_seed(const MatchConfig *c, uint64_t index)
{
    uint64_t o = (index % c->games) / (uint64_t)c->g->info.num_players;
    return ply_mix64(c->seed ^ 0x6f70656e696e67ull ^ ply_mix64(o + 7));
}

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
    const Participant *part;
    Bot *bot;
    Engine eng;
    int eng_on;
    int64_t clock_ms;   /* per-game clock (TC_GAME, and CodeCup programs) */
    int sent;           /* CodeCup: game moves forwarded so far */
} Seat;

typedef struct Game {
    const MatchConfig *c;
    const GameVtbl *g;
    GameRecord *r;
    void *st, *obs;
    int startpos;       /* the setup is the game's plain start position */
    int *movers;        /* who made each move of r->moves */
    Seat seat[PLY_MAX_PLAYERS];
} Game;

static Reason fail_with(Game *G, Reason why, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static Reason fail_with(Game *G, Reason why, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(G->r->error, sizeof G->r->error, fmt, ap);
    va_end(ap);
    return why;
}

/* Reads lines until one starts with `word`; others (info, id, option, …)
 * are skipped. The line is left in line. */
static Reason ugi_expect(Game *G, Seat *S, const char *word, char *line,
                         size_t n, int64_t deadline, int *has_seed)
{
    size_t wl = strlen(word);
    for (;;) {
        int rc = engine_read_line(&S->eng, line, n, deadline);
        if (rc == 0)
            return fail_with(G, REASON_TIME, "%s: no '%s' in time",
                             S->part->name, word);
        if (rc < 0)
            return fail_with(G, REASON_CRASH, "%s: exited while we waited "
                             "for '%s'", S->part->name, word);
        if (!strncmp(line, word, wl) && (!line[wl] || line[wl] == ' '))
            return REASON_NORMAL;
        if (has_seed && !strncmp(line, "option name seed ", 17))
            *has_seed = 1;
    }
}

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

static Reason seat_begin(Game *G, int s, uint64_t seed)
{
    const MatchConfig *c = G->c;
    Seat *S = &G->seat[s];
    PlyError err = {{0}};
    S->clock_ms = c->tc == TC_GAME ? c->tc_ms : CODECUP_GAME_MS;
    if (S->part->kind == PART_BOT) {
        char spec[sizeof S->part->name];
        seed = spec_seed(S->part->name, seed, spec, sizeof spec);
        S->bot = bot_new(G->g, spec, seed, &err);
        if (!S->bot)
            return fail_with(G, REASON_CRASH, "%s", err.msg);
        return REASON_NORMAL;
    }
    if (engine_start(&S->eng, S->part->cmd, c->quiet_engines, &err))
        return fail_with(G, REASON_CRASH, "%s: %s", S->part->name, err.msg);
    S->eng_on = 1;
    if (S->part->kind == PART_CODECUP)
        return REASON_NORMAL;
    int64_t dl = now_ms() + c->start_ms;
    char line[ENGINE_LINE_MAX];
    Reason why;
    if (engine_send(&S->eng, dl, "ugi"))
        return fail_with(G, REASON_CRASH, "%s: does not read its input",
                         S->part->name);
    int has_seed = 0;
    if ((why = ugi_expect(G, S, "ugiok", line, sizeof line, dl, &has_seed)))
        return why;
    int bad = engine_send(&S->eng, dl, "setoption name game value %s",
                          G->g->info.name);
    /* an engine with a seed option (Ply's) gets the game's, so that its
     * games differ and are reproducible */
    if (has_seed)
        bad |= engine_send(&S->eng, dl, "setoption name seed value %llu",
                           (unsigned long long)(seed >> 33));
    if (c->options[0])
        bad |= engine_send(&S->eng, dl, "setoption name gameoptions value %s",
                           c->options);
    bad |= engine_send(&S->eng, dl, "uginewgame");
    bad |= engine_send(&S->eng, dl, "isready");
    if (bad)
        return fail_with(G, REASON_CRASH, "%s: stopped reading its input",
                         S->part->name);
    if ((why = ugi_expect(G, S, "readyok", line, sizeof line, dl, NULL)))
        return why;
    return REASON_NORMAL;
}

static void seat_end(Game *G, int s)
{
    Seat *S = &G->seat[s];
    /* a program that forfeited by time or crash is not waited for */
    int64_t wait = G->r->loser == s && G->r->reason != REASON_ILLEGAL
                   ? 0 : QUIT_WAIT_MS;
    if (S->bot) {
        bot_free(S->bot);
        S->bot = NULL;
    }
    if (S->eng_on) {
        int64_t dl = now_ms() + wait;
        engine_send(&S->eng, dl, "%s",
                    S->part->kind == PART_CODECUP ? "Quit" : "quit");
        engine_stop(&S->eng, wait);
        S->eng_on = 0;
    }
}

/* Time a seat may use for this move (-1: unlimited) and the search budget
 * handed to an in-process bot. */
static int64_t allowed_ms(const Game *G, const Seat *S)
{
    const MatchConfig *c = G->c;
    if (c->tc == TC_MOVE)
        return c->tc_ms;
    if (c->tc == TC_GAME || S->part->kind == PART_CODECUP)
        return S->clock_ms > 0 ? S->clock_ms : 0;
    if (S->part->kind == PART_UGI)
        return c->ext_move_ms;
    return -1;
}

static Reason text_move(Game *G, Seat *S, const char *text, Move *m)
{
    PlyError err = {{0}};
    if (!*text)
        return fail_with(G, REASON_ILLEGAL, "%s: an empty move",
                         S->part->name);
    if (G->g->text_to_move(G->st, text, m, &err))
        return fail_with(G, REASON_ILLEGAL, "%s: illegal move '%.60s': %s",
                         S->part->name, text, err.msg);
    if (!state_is_legal(G->g, G->st, *m))
        return fail_with(G, REASON_ILLEGAL, "%s: illegal move '%.60s'",
                         S->part->name, text);
    return REASON_NORMAL;
}

static Reason ugi_move(Game *G, int s, Seat *S, int64_t allowed, Move *m)
{
    const MatchConfig *c = G->c;
    GameRecord *r = G->r;
    size_t cap = 64;
    for (int i = 0; i < r->nmoves; i++)
        cap += strlen(r->moves[i]) + 1;
    cap += strlen(r->setup) + 64;
    char *pos = malloc(cap);
    if (!pos)
        return fail_with(G, REASON_CRASH, "out of memory");
    size_t len;
    if (G->startpos)
        len = (size_t)snprintf(pos, cap, "position startpos");
    else
        len = (size_t)snprintf(pos, cap, "position fen %s", r->setup);
    if (r->nmoves)
        len += (size_t)snprintf(pos + len, cap - len, " moves");
    for (int i = 0; i < r->nmoves; i++)
        len += (size_t)snprintf(pos + len, cap - len, " %s", r->moves[i]);
    int64_t dl = now_ms() + allowed + c->grace_ms;
    int bad = engine_send(&S->eng, dl, "%s", pos);
    free(pos);
    if (bad)
        return fail_with(G, REASON_CRASH, "%s: stopped reading its input",
                         S->part->name);
    if (c->tc == TC_GAME)
        bad = engine_send(&S->eng, dl, "go p1time %lld p2time %lld "
                          "p1inc %lld p2inc %lld",
                          (long long)G->seat[0].clock_ms,
                          (long long)G->seat[1].clock_ms,
                          (long long)c->inc_ms, (long long)c->inc_ms);
    else
        bad = engine_send(&S->eng, dl, "go movetime %lld",
                          (long long)allowed);
    if (bad)
        return fail_with(G, REASON_CRASH, "%s: stopped reading its input",
                         S->part->name);
    (void)s;
    char line[ENGINE_LINE_MAX];
    Reason why = ugi_expect(G, S, "bestmove", line, sizeof line, dl, NULL);
    if (why)
        return why;
    char *mv = line + 8;
    while (*mv == ' ')
        mv++;
    mv[strcspn(mv, " ")] = 0;   /* drop "ponder ..." */
    return text_move(G, S, mv, m);
}

static Reason codecup_move(Game *G, int s, Seat *S, int64_t allowed,
                           Move *m)
{
    const MatchConfig *c = G->c;
    GameRecord *r = G->r;
    int64_t dl = now_ms() + allowed + c->grace_ms;
    int bad = 0;
    if (r->nmoves == 0 && S->sent == 0)
        bad = engine_send(&S->eng, dl, "Start");
    for (; S->sent < r->nmoves && !bad; S->sent++)
        if (G->movers[S->sent] != s)
            bad = engine_send(&S->eng, dl, "%s", r->moves[S->sent]);
    if (bad)
        return fail_with(G, REASON_CRASH, "%s: stopped reading its input",
                         S->part->name);
    char line[ENGINE_LINE_MAX];
    int rc = engine_read_line(&S->eng, line, sizeof line, dl);
    if (rc == 0)
        return fail_with(G, REASON_TIME, "%s: no move in time",
                         S->part->name);
    if (rc < 0)
        return fail_with(G, REASON_CRASH, "%s: exited instead of moving",
                         S->part->name);
    size_t n = strlen(line);
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
        line[--n] = 0;
    if (n && line[n - 1] == '!')    /* a win claim: not part of the move */
        line[--n] = 0;
    return text_move(G, S, line, m);
}

static Reason bot_move(Game *G, int p, Seat *S, int64_t allowed, Move *m)
{
    const MatchConfig *c = G->c;
    Limits lim = S->bot->limits;
    if (allowed < 0 && !lim.time_ms && !lim.nodes && !lim.depth)
        lim.time_ms = c->ext_move_ms;   /* no limit anywhere: --movetime */
    if (allowed >= 0) {
        int64_t budget = allowed;
        if (c->tc == TC_GAME) {
            budget = S->clock_ms / 20 + c->inc_ms * 3 / 4;
            if (budget > S->clock_ms / 2)
                budget = S->clock_ms / 2;
        }
        if (budget < 1)
            budget = 1;
        if (!lim.time_ms || lim.time_ms > budget)
            lim.time_ms = budget;
    }
    const void *pos = G->st;
    if (G->g->info.flags & GAME_HIDDEN) {
        /* a fair bot only sees what its seat sees */
        G->g->observe(G->st, p, G->obs);
        pos = G->obs;
    }
    SearchInfo si;
    *m = bot_choose(S->bot, pos, &lim, &si);
    if (!state_is_legal(G->g, G->st, *m))
        return fail_with(G, REASON_ILLEGAL, "%s: chose an illegal move",
                         S->part->name);
    return REASON_NORMAL;
}

/* Plays one move of seat p; updates its clock; 0 or a forfeit reason. */
static Reason seat_move(Game *G, int p, Move *m)
{
    const MatchConfig *c = G->c;
    Seat *S = &G->seat[p];
    int64_t allowed = allowed_ms(G, S);
    int64_t t0 = now_ms();
    Reason why;
    if (S->part->kind == PART_BOT)
        why = bot_move(G, p, S, allowed, m);
    else if (S->part->kind == PART_UGI)
        why = ugi_move(G, p, S, allowed, m);
    else
        why = codecup_move(G, p, S, allowed, m);
    int64_t used = now_ms() - t0;
    if (why == REASON_NORMAL && allowed >= 0 &&
        used > allowed + c->grace_ms)
        why = fail_with(G, REASON_TIME, "%s: used %lld ms of %lld",
                        S->part->name, (long long)used, (long long)allowed);
    if (why == REASON_NORMAL &&
        (c->tc == TC_GAME || S->part->kind == PART_CODECUP)) {
        S->clock_ms -= used;
        if (S->clock_ms < 0)
            S->clock_ms = 0;
        S->clock_ms += c->tc == TC_GAME ? c->inc_ms : 0;
    }
    return why;
}

static void forfeit(Game *G, int loser, Reason why)
{
    int np = G->g->info.num_players;
    GameRecord *r = G->r;
    r->reason = why;
    r->loser = loser;
    for (int s = 0; s < np; s++)
        r->result[s] = s == loser ? -1 : np > 1 ? 1.0 / (np - 1) : 0;
}

/* A random opening: plies uniformly random moves (chance by its odds) that
 * do not end the game. Returns the number of plies played. */
static int random_opening(Game *G, int plies, uint64_t seed, Move *moves,
                          double *probs)
{
    const GameVtbl *g = G->g;
    size_t sz = g->info.state_size;
    void *start = malloc(sz);
    if (!start)
        return 0;
    memcpy(start, G->st, sz);
    char text[MOVE_TEXT_MAX];
    for (int tries = 0; tries < 100 && plies > 0; tries++) {
        Rng rng;
        rng_seed(&rng, seed + (uint64_t)tries);
        memcpy(G->st, start, sz);
        int k = 0;
        for (; k < plies; k++) {
            int p = g->to_move(G->st);
            if (p == PLAYER_TERMINAL)
                break;
            Move m;
            if (p == PLAYER_CHANCE) {
                int n = g->chance_outcomes(G->st, moves, probs);
                double x = rng_double(&rng), acc = 0;
                m = moves[n - 1];
                for (int i = 0; i < n; i++)
                    if (x < (acc += probs[i])) {
                        m = moves[i];
                        break;
                    }
            } else {
                int n = g->gen_moves(G->st, moves);
                m = moves[rng_below(&rng, (uint32_t)n)];
            }
            g->make(G->st, m);
        }
        if (k < plies || g->to_move(G->st) == PLAYER_TERMINAL)
            continue;
        /* replay to write the moves down */
        memcpy(G->st, start, sz);
        rng_seed(&rng, seed + (uint64_t)tries);
        for (k = 0; k < plies; k++) {
            int p = g->to_move(G->st);
            Move m;
            if (p == PLAYER_CHANCE) {
                int n = g->chance_outcomes(G->st, moves, probs);
                double x = rng_double(&rng), acc = 0;
                m = moves[n - 1];
                for (int i = 0; i < n; i++)
                    if (x < (acc += probs[i])) {
                        m = moves[i];
                        break;
                    }
            } else {
                int n = g->gen_moves(G->st, moves);
                m = moves[rng_below(&rng, (uint32_t)n)];
            }
            if (g->move_to_text(G->st, m, text, sizeof text) < 0 ||
                record_push(G->r, text)) {
                free(start);
                return -1;
            }
            G->movers[k] = p;
            g->make(G->st, m);
        }
        free(start);
        return plies;
    }
    memcpy(G->st, start, sz);
    free(start);
    return 0;
}

int match_play_game(const MatchConfig *c, uint64_t index, GameRecord *r,
                    PlyError *err)
{
    const GameVtbl *g = c->g;
    int np = g->info.num_players;
    memset(r, 0, sizeof *r);
    r->index = index;
    r->loser = -1;
    r->seed = game_seed(c, index);
    match_schedule(c, index, &r->pairing, r->seats);
    uint64_t oseed = opening_seed(c, index);

    Game G;
    memset(&G, 0, sizeof G);
    G.c = c;
    G.g = g;
    G.r = r;
    G.st = state_alloc(g);
    G.obs = state_alloc(g);
    int maxlen = g->info.max_game_length + c->open_plies + 2;
    G.movers = calloc((size_t)maxlen, sizeof *G.movers);
    Move *moves = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    double *probs = malloc(sizeof(double) * (size_t)g->info.max_moves);
    int ret = -1;
    if (!G.st || !G.obs || !G.movers || !moves || !probs) {
        ply_fail(err, "out of memory");
        goto out;
    }
    const char *setup = NULL;
    if (c->open_count) {
        uint64_t o = (index % c->games) / (uint64_t)np;
        setup = c->open_lines[o % (uint64_t)c->open_count];
    }
    if (state_setup(g, G.st, c->options, setup, oseed, err))
        goto out;
    if (g->to_text(G.st, r->setup, sizeof r->setup) < 0) {
        ply_fail(err, "%s: to_text failed", g->info.name);
        goto out;
    }
    {
        /* the engines' own start position: init with seed 0 */
        char plain[sizeof r->setup];
        PlyError e2;
        G.startpos = !setup && !state_setup(g, G.obs, c->options, NULL, 0,
                                            &e2) &&
                     g->to_text(G.obs, plain, sizeof plain) >= 0 &&
                     !strcmp(plain, r->setup);
    }
    if (c->open_plies) {
        int k = random_opening(&G, c->open_plies, oseed, moves, probs);
        if (k < 0) {
            ply_fail(err, "could not write an opening move");
            goto out;
        }
        r->opening_plies = k;
    }

    Rng chance;
    rng_seed(&chance, r->seed ^ 0x636861636eull);
    for (int s = 0; s < np; s++)
        G.seat[s].part = &c->parts[r->seats[s]];
    for (int s = 0; s < np; s++) {
        Reason why = seat_begin(&G, s, ply_mix64(r->seed + (uint64_t)s));
        if (why) {
            forfeit(&G, s, why);
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
            int n = g->chance_outcomes(G.st, moves, probs);
            double x = rng_double(&chance), acc = 0;
            m = moves[n - 1];
            for (int i = 0; i < n; i++)
                if (x < (acc += probs[i])) {
                    m = moves[i];
                    break;
                }
        } else {
            Reason why = seat_move(&G, p, &m);
            if (why) {
                forfeit(&G, p, why);
                break;
            }
        }
        if (g->move_to_text(G.st, m, text, sizeof text) < 0 ||
            record_push(r, text)) {
            ply_fail(err, "could not write a move down");
            goto out;
        }
        G.movers[r->nmoves - 1] = p;
        if (!(g->info.flags & GAME_HIDDEN))
            for (int s = 0; s < np; s++)
                if (G.seat[s].bot)
                    bot_inform(G.seat[s].bot, G.st, m);
        g->make(G.st, m);
    }
    ret = 0;
out:
    for (int s = 0; s < np; s++)
        if (G.seat[s].part)
            seat_end(&G, s);
    free(G.st);
    free(G.obs);
    free(G.movers);
    free(moves);
    free(probs);
    return ret;
}

