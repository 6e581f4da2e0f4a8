/* match.c — the referee: plays games between bots and external engines,
 * records them, and keeps the statistics (ply match). */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "../core/registry.h"
#include "../core/setup.h"
#include "../core/util.h"
#include "engine.h"
#include "match.h"
#include "stats.h"

enum { ENGINE_START_MS = 10000, CODECUP_GAME_MS = 30000, QUIT_WAIT_MS = 300,
       MOVE_TEXT_MAX = 256 };

const char *const match_reason_names[REASON_COUNT] = {
    "normal", "time", "crash", "illegal", "adjudicated",
};

/* ------------------------------------------------------------------ */
/* settings                                                            */

int match_parse_tc(const char *s, MatchConfig *c, PlyError *err)
{
    char buf[64];
    if (!s || strlen(s) >= sizeof buf)
        return ply_fail(err, "bad time control '%s'", s ? s : "");
    snprintf(buf, sizeof buf, "%s", s);
    char *plus = strchr(buf, '+');
    if (plus) {
        *plus = 0;
        if (parse_duration_ms(buf, &c->tc_ms) ||
            parse_duration_ms(plus + 1, &c->inc_ms) || c->tc_ms <= 0)
            return ply_fail(err, "bad time control '%s' (want e.g. 100ms "
                            "per move, or 30s+0.1s per game)", s);
        c->tc = TC_GAME;
        return 0;
    }
    if (parse_duration_ms(buf, &c->tc_ms) || c->tc_ms <= 0)
        return ply_fail(err, "bad time control '%s' (want e.g. 100ms per "
                        "move, or 30s+0.1s per game)", s);
    c->tc = TC_MOVE;
    c->inc_ms = 0;
    return 0;
}

int match_parse_engine(const char *s, Participant *p, PlyError *err)
{
    memset(p, 0, sizeof *p);
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || (size_t)(eq - s) >= sizeof p->name)
        return ply_fail(err, "bad --engine '%s' (want NAME=CMD[,proto=ugi|"
                        "codecup])", s);
    memcpy(p->name, s, (size_t)(eq - s));
    for (const char *q = p->name; *q; q++)
        if (*q == ':' || *q == ',' || *q <= ' ' || *q > '~')
            return ply_fail(err, "bad engine name '%s' (letters, digits "
                            "and punctuation other than ':' and ',')",
                            p->name);
    const char *cmd = eq + 1;
    size_t len = strlen(cmd);
    p->kind = PART_UGI;
    const char *pr = NULL;
    for (const char *q = strstr(cmd, ",proto="); q; q = strstr(q + 1,
                                                                 ",proto="))
        pr = q;
    if (pr) {
        const char *v = pr + 7;
        if (!strcmp(v, "ugi"))
            p->kind = PART_UGI;
        else if (!strcmp(v, "codecup"))
            p->kind = PART_CODECUP;
        else
            return ply_fail(err, "engine %s: unknown protocol '%s' (ugi, "
                            "codecup)", p->name, v);
        len = (size_t)(pr - cmd);
    }
    if (len == 0 || len >= sizeof p->cmd)
        return ply_fail(err, "engine %s: bad command", p->name);
    memcpy(p->cmd, cmd, len);
    p->cmd[len] = 0;
    return 0;
}

int match_prepare(MatchConfig *c, PlyError *err)
{
    const GameVtbl *g = c->g;
    int np = g->info.num_players;
    int opt[PLY_MAX_OPTIONS];
    if (options_parse(g, c->options, opt, err))
        return -1;
    if (c->nparts < 1 || c->nparts > MATCH_MAX_PARTS)
        return ply_fail(err, "give 1 to %d participants", MATCH_MAX_PARTS);
    if (np >= 2 && c->nparts < 2)
        return ply_fail(err, "give at least two participants");
    c->npairings = 0;
    if (c->nparts == np) {
        for (int s = 0; s < np; s++)
            c->pairing[0][s] = s;
        c->npairings = 1;
    } else if (np == 2) {
        for (int a = 0; a < c->nparts; a++)
            for (int b = a + 1; b < c->nparts; b++) {
                c->pairing[c->npairings][0] = a;
                c->pairing[c->npairings][1] = b;
                c->npairings++;
            }
    } else if (np == 1) {
        for (int a = 0; a < c->nparts; a++)
            c->pairing[c->npairings++][0] = a;
    } else {
        return ply_fail(err, "%s is a %d-player game: give %d participants",
                        g->info.name, np, np);
    }
    if (c->games < 1)
        return ply_fail(err, "-n must be at least 1");
    if (c->games > (uint64_t)1 << 40)
        return ply_fail(err, "-n is too large");
    c->total = c->games * (uint64_t)c->npairings;
    for (int i = 0; i < c->nparts; i++) {
        Participant *p = &c->parts[i];
        int dup = 0, k = 0;
        for (int j = 0; j < c->nparts; j++)
            if (!strcmp(c->parts[j].name, p->name)) {
                dup++;
                if (j <= i)
                    k++;
            }
        char suffix[16] = "";
        if (dup > 1)
            snprintf(suffix, sizeof suffix, "#%d", k);
        memcpy(p->label, p->name, sizeof p->name);
        strcat(p->label, suffix);
        if (p->kind == PART_BOT) {
            Bot *b = bot_new(g, p->name, 1, err);
            if (!b)
                return -1;
            bot_free(b);
            continue;
        }
        if (np != 2)
            return ply_fail(err, "engine %s: external engines play "
                            "two-player games only", p->name);
        if (p->kind == PART_CODECUP && (c->open_plies || c->open_count))
            return ply_fail(err, "engine %s: CodeCup programs start from the "
                            "start position; drop --openings", p->name);
    }
    if (c->open_count) {
        void *st = state_alloc(g);
        if (!st)
            return ply_fail(err, "out of memory");
        for (int i = 0; i < c->open_count; i++) {
            PlyError e2 = {{0}};
            if (state_setup(g, st, c->options, c->open_lines[i], 0, &e2)) {
                free(st);
                return ply_fail(err, "opening %d: %s", i + 1, e2.msg);
            }
        }
        free(st);
    }
    if (c->jobs < 1)
        c->jobs = 1;
    if (c->grace_ms <= 0)
        c->grace_ms = 200;
    if (c->ext_move_ms <= 0)
        c->ext_move_ms = 1000;
    if (c->start_ms <= 0)
        c->start_ms = ENGINE_START_MS;
    return 0;
}

void match_schedule(const MatchConfig *c, uint64_t index, int *pairing,
                    int seats[PLY_MAX_PLAYERS])
{
    int np = c->g->info.num_players;
    int p = (int)(index / c->games);
    uint64_t j = index % c->games;
    int r = (int)(j % (uint64_t)np);
    for (int s = 0; s < np; s++)
        seats[s] = c->pairing[p][(s + r) % np];
    *pairing = p;
}

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

/* ------------------------------------------------------------------ */
/* records                                                             */

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

/* Engine output may be anything: keep records printable ASCII. */
static void sanitize(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 32 || (unsigned char)*s > 126)
            *s = '?';
}

static json_t *json_num(double x)
{
    if (x == (double)(int64_t)x)
        return json_integer((json_int_t)x);
    return json_real(x);
}

char *match_record_json(const MatchConfig *c, const GameRecord *r)
{
    int np = c->g->info.num_players;
    json_t *o = json_object();
    json_object_set_new(o, "game", json_string(c->g->info.name));
    json_object_set_new(o, "options", json_string(c->options));
    json_object_set_new(o, "setup", json_string(r->setup));
    json_t *seats = json_array(), *res = json_array(), *mv = json_array();
    for (int s = 0; s < np; s++) {
        json_array_append_new(seats,
                              json_string(c->parts[r->seats[s]].name));
        json_array_append_new(res, json_num(r->result[s]));
    }
    for (int i = 0; i < r->nmoves; i++)
        json_array_append_new(mv, json_string(r->moves[i]));
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "moves", mv);
    json_object_set_new(o, "result", res);
    json_object_set_new(o, "reason",
                        json_string(match_reason_names[r->reason]));
    json_object_set_new(o, "seed", json_integer((json_int_t)c->seed));
    json_object_set_new(o, "index", json_integer((json_int_t)r->index));
    if (r->opening_plies)
        json_object_set_new(o, "opening_plies",
                            json_integer(r->opening_plies));
    if (r->loser >= 0) {
        json_object_set_new(o, "forfeit", json_integer(r->loser));
        char e[256];
        snprintf(e, sizeof e, "%s", r->error);
        sanitize(e);
        json_object_set_new(o, "error", json_string(e));
    }
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!s)
        return NULL;
    size_t n = strlen(s);
    char *line = malloc(n + 2);
    if (line) {
        memcpy(line, s, n);
        line[n] = '\n';
        line[n + 1] = 0;
    }
    free(s);
    return line;
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

/* ------------------------------------------------------------------ */
/* the match: threads, records, statistics                             */

typedef struct PairStats {
    int w, d, l;            /* from the pairing's first member's side */
    int ptnml[5];           /* finished opening pairs by points 0..2 */
} PairStats;

typedef struct PartStats {
    int games, wins, draws, losses, firsts;
    double points;          /* sum of (return + 1) / 2 */
    int forfeits[REASON_COUNT];
} PartStats;

typedef struct Runner {
    MatchConfig *c;
    FILE *out;
    pthread_mutex_t mu;
    uint64_t *todo, ntodo, next;
    int stop;               /* SPRT decided, or an error */
    int fd;
    signed char *score;     /* per game: first member's score *2, or -1 */
    PairStats *pair;
    PartStats part[MATCH_MAX_PARTS];
    uint64_t finished, played;
    int sprt_result;        /* +1 H1, -1 H0, 0 none */
    double llr, lower, upper;
    int failed;
    PlyError err;
    int64_t t0, last_print;
    uint64_t printed;
    int tty;
} Runner;

static int two_bot_match(const MatchConfig *c)
{
    return c->npairings == 1 && c->g->info.num_players == 2;
}

/* Adds one finished game (played now or read back) to the statistics. */
static void add_result(Runner *R, uint64_t index, const int *seats,
                       const double *result, Reason reason, int loser)
{
    const MatchConfig *c = R->c;
    int np = c->g->info.num_players;
    int p = (int)(index / c->games);
    R->finished++;
    double best = -INFINITY;
    int nbest = 0;
    for (int s = 0; s < np; s++) {
        if (result[s] > best) {
            best = result[s];
            nbest = 1;
        } else if (result[s] == best) {
            nbest++;
        }
    }
    for (int s = 0; s < np; s++) {
        PartStats *ps = &R->part[seats[s]];
        ps->games++;
        ps->points += (result[s] + 1) / 2;
        if (result[s] == best && nbest == 1)
            ps->firsts++;
        if (s == loser)
            ps->forfeits[reason]++;
    }
    if (np != 2)
        return;
    int a = c->pairing[p][0];
    int sa = seats[0] == a ? 0 : 1;
    double ra = result[sa], rb = result[1 - sa];
    int sc = ra > rb ? 2 : ra < rb ? 0 : 1;
    PartStats *pa = &R->part[a], *pb = &R->part[c->pairing[p][1]];
    PairStats *q = &R->pair[p];
    if (sc == 2) {
        q->w++;
        pa->wins++;
        pb->losses++;
    } else if (sc == 0) {
        q->l++;
        pa->losses++;
        pb->wins++;
    } else {
        q->d++;
        pa->draws++;
        pb->draws++;
    }
    R->score[index] = (signed char)sc;
    uint64_t j = index % c->games, partner = (j ^ 1);
    if (partner < c->games) {
        uint64_t pi = (uint64_t)p * c->games + partner;
        if (R->score[pi] >= 0)
            q->ptnml[sc + R->score[pi]]++;
    }
}

/* Statistics of pairing p: pentanomial when pairs are finished. */
static int pair_stats(const Runner *R, int p, StatsResult *st, int *penta)
{
    const PairStats *q = &R->pair[p];
    int pairs = 0;
    for (int i = 0; i < 5; i++)
        pairs += q->ptnml[i];
    *penta = pairs > 0 && R->c->games >= 2;
    /* all pairs alike (say, each side won with the first move) gives a
     * zero variance: too few pairs to say more than the games do */
    if (*penta && !stats_pentanomial(q->ptnml, st) && st->var > 0)
        return 0;
    *penta = 0;
    return stats_trinomial(q->w, q->d, q->l, st);
}

static void update_sprt(Runner *R)
{
    const MatchConfig *c = R->c;
    if (!c->sprt || !two_bot_match(c))
        return;
    StatsResult st;
    int penta;
    if (pair_stats(R, 0, &st, &penta))
        return;
    R->llr = stats_sprt_llr(st.n, st.score, st.var, c->elo0, c->elo1);
    if (R->llr >= R->upper)
        R->sprt_result = 1;
    else if (R->llr <= R->lower)
        R->sprt_result = -1;
    if (R->sprt_result)
        R->stop = 1;
}

static double nz(double x)
{
    return fabs(x) < 0.05 ? 0 : x;  /* no "-0.0" */
}

static void fmt_elo(char *buf, size_t n, const StatsResult *st)
{
    snprintf(buf, n, "Elo %+.1f [%+.1f, %+.1f] (95%%%s)", nz(st->elo),
             nz(st->elo_lo), nz(st->elo_hi),
             st->clamped ? ", score clamped" : "");
}

static void progress(Runner *R, int final)
{
    const MatchConfig *c = R->c;
    if (!c->progress)
        return;
    int64_t t = now_ms();
    uint64_t every = c->total / 10 ? c->total / 10 : 1;
    if (!final && !R->tty && R->finished % every)
        return;
    if (!final && R->tty && t - R->last_print < 200)
        return;
    if (final && !R->tty && R->printed == R->finished)
        return;
    R->printed = R->finished;
    R->last_print = t;
    char line[512];
    int len = snprintf(line, sizeof line, "games %llu/%llu",
                       (unsigned long long)R->finished,
                       (unsigned long long)c->total);
    if (two_bot_match(c)) {
        const PairStats *q = &R->pair[0];
        StatsResult st;
        int penta;
        len += snprintf(line + len, sizeof line - (size_t)len,
                        "  %s vs %s +%d =%d -%d", c->parts[0].label,
                        c->parts[1].label, q->w, q->d, q->l);
        if (!pair_stats(R, 0, &st, &penta)) {
            char e[128];
            fmt_elo(e, sizeof e, &st);
            len += snprintf(line + len, sizeof line - (size_t)len,
                            "  %s%s  LOS %.1f%%", e,
                            penta ? " ptnml" : "", st.los * 100);
        }
        if (c->sprt)
            len += snprintf(line + len, sizeof line - (size_t)len,
                            "  LLR %.2f [%.2f, %.2f]", R->llr, R->lower,
                            R->upper);
    }
    int forf = 0;
    for (int i = 0; i < c->nparts; i++)
        for (int k = 1; k < REASON_COUNT; k++)
            forf += R->part[i].forfeits[k];
    if (forf)
        snprintf(line + len, sizeof line - (size_t)len, "  forfeits %d",
                 forf);
    if (R->tty)
        fprintf(stderr, "\r%s\033[K%s", line, final ? "\n" : "");
    else
        fprintf(stderr, "%s\n", line);
}

static int write_record(Runner *R, const GameRecord *r)
{
    if (R->fd < 0)
        return 0;
    char *line = match_record_json(R->c, r);
    if (!line)
        return ply_fail(&R->err, "could not encode a record");
    size_t n = strlen(line);
    /* one write() of the whole line on an O_APPEND file: a kill leaves
     * either the line or nothing (or, on a full disk, a tail that
     * --resume cuts off) */
    ssize_t w = write(R->fd, line, n);
    free(line);
    if (w != (ssize_t)n)
        return ply_fail(&R->err, "writing %s: %s", R->c->out,
                        w < 0 ? strerror(errno) : "short write");
    return 0;
}

static void *worker(void *arg)
{
    Runner *R = arg;
    for (;;) {
        pthread_mutex_lock(&R->mu);
        if (R->stop || R->next >= R->ntodo) {
            pthread_mutex_unlock(&R->mu);
            return NULL;
        }
        uint64_t index = R->todo[R->next++];
        pthread_mutex_unlock(&R->mu);
        GameRecord rec;
        PlyError err = {{0}};
        int rc = match_play_game(R->c, index, &rec, &err);
        pthread_mutex_lock(&R->mu);
        if (rc) {
            if (!R->failed)
                R->err = err;
            R->failed = 1;
            R->stop = 1;
        } else if (write_record(R, &rec)) {
            R->failed = 1;
            R->stop = 1;
        } else {
            add_result(R, index, rec.seats, rec.result, rec.reason,
                       rec.loser);
            R->played++;
            update_sprt(R);
            progress(R, 0);
        }
        pthread_mutex_unlock(&R->mu);
        match_record_free(&rec);
    }
}

/* Reads the records of an interrupted match: cuts a trailing partial line
 * off, checks every line belongs to this match, and counts it. */
static int resume_read(Runner *R, signed char *done)
{
    const MatchConfig *c = R->c;
    int np = c->g->info.num_players;
    FILE *f = fopen(c->out, "r");
    if (!f)
        return errno == ENOENT ? 0 : ply_fail(&R->err, "%s: %s", c->out,
                                              strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long good_end = 0, lineno = 0;
    int rc = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] != '\n')
            break;              /* a partial last line: cut below */
        lineno++;
        json_error_t je;
        json_t *o = json_loadb(line, (size_t)n, 0, &je);
        json_t *jg = o ? json_object_get(o, "game") : NULL;
        json_t *ji = o ? json_object_get(o, "index") : NULL;
        json_t *js = o ? json_object_get(o, "seats") : NULL;
        json_t *jr = o ? json_object_get(o, "result") : NULL;
        json_t *jre = o ? json_object_get(o, "reason") : NULL;
        json_t *jf = o ? json_object_get(o, "forfeit") : NULL;
        if (!o || !json_is_string(jg) || !json_is_integer(ji) ||
            !json_is_array(js) || !json_is_array(jr) ||
            json_array_size(js) != (size_t)np ||
            json_array_size(jr) != (size_t)np) {
            rc = ply_fail(&R->err, "%s line %ld is not a match record",
                          c->out, lineno);
            json_decref(o);
            break;
        }
        json_int_t idx = json_integer_value(ji);
        if (strcmp(json_string_value(jg), c->g->info.name) || idx < 0 ||
            (uint64_t)idx >= c->total) {
            rc = ply_fail(&R->err, "%s line %ld belongs to another match "
                          "(game or game number differ)", c->out, lineno);
            json_decref(o);
            break;
        }
        int seats[PLY_MAX_PLAYERS], pairing;
        match_schedule(c, (uint64_t)idx, &pairing, seats);
        double res[PLY_MAX_PLAYERS];
        int bad = 0;
        for (int s = 0; s < np; s++) {
            json_t *x = json_array_get(js, (size_t)s);
            if (!json_is_string(x) ||
                strcmp(json_string_value(x), c->parts[seats[s]].name))
                bad = 1;
            json_t *y = json_array_get(jr, (size_t)s);
            if (!json_is_number(y))
                bad = 1;
            else
                res[s] = json_number_value(y);
        }
        if (bad) {
            rc = ply_fail(&R->err, "%s line %ld: its seats or result do not "
                          "fit this match (other bots or settings?)", c->out,
                          lineno);
            json_decref(o);
            break;
        }
        Reason why = REASON_NORMAL;
        for (int k = 0; k < REASON_COUNT; k++)
            if (json_is_string(jre) &&
                !strcmp(json_string_value(jre), match_reason_names[k]))
                why = (Reason)k;
        int loser = json_is_integer(jf) ? (int)json_integer_value(jf) : -1;
        if (!done[idx]) {
            done[idx] = 1;
            add_result(R, (uint64_t)idx, seats, res, why, loser);
        }
        json_decref(o);
        good_end = ftell(f);
    }
    free(line);
    fclose(f);
    if (rc)
        return rc;
    struct stat sb;
    if (!stat(c->out, &sb) && sb.st_size > good_end) {
        if (truncate(c->out, good_end))
            return ply_fail(&R->err, "cannot cut the partial last line of "
                            "%s: %s", c->out, strerror(errno));
        if (c->progress)
            fprintf(stderr, "%s: cut a partial last line\n", c->out);
    }
    return 0;
}

static json_t *json_elo(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static void summary_json(Runner *R, FILE *out)
{
    const MatchConfig *c = R->c;
    json_t *o = json_object();
    json_object_set_new(o, "game", json_string(c->g->info.name));
    json_object_set_new(o, "options", json_string(c->options));
    json_object_set_new(o, "games", json_integer((json_int_t)R->finished));
    json_object_set_new(o, "scheduled", json_integer((json_int_t)c->total));
    json_object_set_new(o, "seed", json_integer((json_int_t)c->seed));
    json_t *parts = json_array();
    for (int i = 0; i < c->nparts; i++) {
        const PartStats *ps = &R->part[i];
        json_t *p = json_object();
        json_object_set_new(p, "name", json_string(c->parts[i].name));
        json_object_set_new(p, "label", json_string(c->parts[i].label));
        json_object_set_new(p, "games", json_integer(ps->games));
        json_object_set_new(p, "points", json_real(ps->points));
        json_object_set_new(p, "wins", json_integer(ps->wins));
        json_object_set_new(p, "draws", json_integer(ps->draws));
        json_object_set_new(p, "losses", json_integer(ps->losses));
        json_object_set_new(p, "firsts", json_integer(ps->firsts));
        json_t *f = json_object();
        for (int k = 1; k < REASON_COUNT; k++)
            json_object_set_new(f, match_reason_names[k],
                                json_integer(ps->forfeits[k]));
        json_object_set_new(p, "forfeits", f);
        json_array_append_new(parts, p);
    }
    json_object_set_new(o, "participants", parts);
    if (c->g->info.num_players == 2) {
        json_t *pairs = json_array();
        for (int p = 0; p < c->npairings; p++) {
            const PairStats *q = &R->pair[p];
            json_t *j = json_object();
            json_object_set_new(j, "a", json_string(
                c->parts[c->pairing[p][0]].label));
            json_object_set_new(j, "b", json_string(
                c->parts[c->pairing[p][1]].label));
            json_object_set_new(j, "wins", json_integer(q->w));
            json_object_set_new(j, "draws", json_integer(q->d));
            json_object_set_new(j, "losses", json_integer(q->l));
            json_t *pt = json_array();
            for (int i = 0; i < 5; i++)
                json_array_append_new(pt, json_integer(q->ptnml[i]));
            json_object_set_new(j, "pentanomial", pt);
            StatsResult st;
            int penta;
            if (!pair_stats(R, p, &st, &penta)) {
                json_object_set_new(j, "model", json_string(
                    penta ? "pentanomial" : "trinomial"));
                json_object_set_new(j, "score", json_real(st.score));
                json_object_set_new(j, "elo", json_elo(st.elo));
                json_object_set_new(j, "elo_lo", json_elo(st.elo_lo));
                json_object_set_new(j, "elo_hi", json_elo(st.elo_hi));
                json_object_set_new(j, "los", json_real(st.los));
                json_object_set_new(j, "clamped", json_boolean(st.clamped));
            }
            json_array_append_new(pairs, j);
        }
        json_object_set_new(o, "pairs", pairs);
    }
    if (c->sprt && two_bot_match(c)) {
        json_t *s = json_object();
        json_object_set_new(s, "elo0", json_real(c->elo0));
        json_object_set_new(s, "elo1", json_real(c->elo1));
        json_object_set_new(s, "alpha", json_real(c->alpha));
        json_object_set_new(s, "beta", json_real(c->beta));
        json_object_set_new(s, "llr", json_real(R->llr));
        json_object_set_new(s, "lower", json_real(R->lower));
        json_object_set_new(s, "upper", json_real(R->upper));
        json_object_set_new(s, "result", json_string(
            R->sprt_result > 0 ? "H1" : R->sprt_result < 0 ? "H0" : "none"));
        json_object_set_new(o, "sprt", s);
    }
    char *txt = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (txt)
        fprintf(out, "%s\n", txt);
    free(txt);
    json_decref(o);
}

static void summary_text(Runner *R, FILE *out)
{
    const MatchConfig *c = R->c;
    int np = c->g->info.num_players;
    fprintf(out, "%s: %llu of %llu games", c->g->info.name,
            (unsigned long long)R->finished, (unsigned long long)c->total);
    if (c->options[0])
        fprintf(out, " (options %s)", c->options);
    fprintf(out, ", seed %llu\n", (unsigned long long)c->seed);
    if (np == 2) {
        for (int p = 0; p < c->npairings; p++) {
            const PairStats *q = &R->pair[p];
            StatsResult st;
            int penta;
            fprintf(out, "%s vs %s: +%d =%d -%d", c->parts[c->pairing[p][0]]
                    .label, c->parts[c->pairing[p][1]].label, q->w, q->d,
                    q->l);
            if (!pair_stats(R, p, &st, &penta)) {
                char e[128];
                fmt_elo(e, sizeof e, &st);
                fprintf(out, "  score %.1f%%  %s  LOS %.1f%%",
                        (q->w + 0.5 * q->d) * 100 / (q->w + q->d + q->l), e,
                        st.los * 100);
                if (penta)
                    fprintf(out, "  pentanomial %d %d %d %d %d",
                            q->ptnml[0], q->ptnml[1], q->ptnml[2],
                            q->ptnml[3], q->ptnml[4]);
            }
            fputc('\n', out);
        }
    }
    if (c->sprt && two_bot_match(c))
        fprintf(out, "SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f "
                "[%.2f, %.2f] %s\n", c->elo0, c->elo1, c->alpha, c->beta,
                R->llr, R->lower, R->upper,
                R->sprt_result > 0 ? "H1 accepted (elo1 or better)"
                : R->sprt_result < 0 ? "H0 accepted (elo0 or worse)"
                                     : "no decision yet");
    if (c->nparts > 2 && np == 2) {
        /* crosstable: points scored by the row against the column */
        int w = 8;
        for (int i = 0; i < c->nparts; i++)
            if ((int)strlen(c->parts[i].label) > w)
                w = (int)strlen(c->parts[i].label);
        fprintf(out, "\n%-*s", w + 2, "crosstable");
        for (int i = 0; i < c->nparts; i++)
            fprintf(out, " %8.8s", c->parts[i].label);
        fprintf(out, "    score\n");
        for (int i = 0; i < c->nparts; i++) {
            fprintf(out, "%-*s", w + 2, c->parts[i].label);
            for (int j = 0; j < c->nparts; j++) {
                if (i == j) {
                    fprintf(out, " %8s", "-");
                    continue;
                }
                int p = 0;
                for (; p < c->npairings; p++)
                    if ((c->pairing[p][0] == i && c->pairing[p][1] == j) ||
                        (c->pairing[p][0] == j && c->pairing[p][1] == i))
                        break;
                const PairStats *q = &R->pair[p];
                double pts = c->pairing[p][0] == i ? q->w + 0.5 * q->d
                                                    : q->l + 0.5 * q->d;
                fprintf(out, " %8.1f", pts);
            }
            const PartStats *ps = &R->part[i];
            fprintf(out, "  %5.1f/%d\n", ps->wins + 0.5 * ps->draws,
                    ps->games);
        }
    }
    fprintf(out, "\n%-24s %6s %6s %6s %6s %8s  forfeits\n", "participant",
            "games", "wins", "draws", "losses", "score");
    for (int i = 0; i < c->nparts; i++) {
        const PartStats *ps = &R->part[i];
        fprintf(out, "%-24s %6d %6d %6d %6d %7.1f%%", c->parts[i].label,
                ps->games, np == 2 ? ps->wins : ps->firsts, ps->draws,
                ps->losses, ps->games ? 100 * ps->points / ps->games : 0);
        int any = 0;
        for (int k = 1; k < REASON_COUNT; k++)
            if (ps->forfeits[k]) {
                fprintf(out, "  %s %d", match_reason_names[k],
                        ps->forfeits[k]);
                any = 1;
            }
        fprintf(out, "%s\n", any ? "" : "  -");
    }
}

int match_run(MatchConfig *c, FILE *out, PlyError *err)
{
    Runner R;
    memset(&R, 0, sizeof R);
    R.c = c;
    R.out = out;
    R.fd = -1;
    R.tty = isatty(2);
    R.t0 = now_ms();
    stats_sprt_bounds(c->alpha, c->beta, &R.lower, &R.upper);
    int rc = -1;
    signed char *done = calloc((size_t)c->total, 1);
    R.score = malloc((size_t)c->total);
    R.pair = calloc((size_t)c->npairings, sizeof *R.pair);
    R.todo = malloc(sizeof *R.todo * (size_t)c->total);
    pthread_t *th = calloc((size_t)c->jobs, sizeof *th);
    pthread_mutex_init(&R.mu, NULL);
    if (!done || !R.score || !R.pair || !R.todo || !th) {
        ply_fail(err, "out of memory for %llu games",
                 (unsigned long long)c->total);
        goto out;
    }
    memset(R.score, -1, (size_t)c->total);
    if (c->out) {
        struct stat sb;
        if (!c->resume && !stat(c->out, &sb) && sb.st_size > 0) {
            ply_fail(err, "%s already has records: add --resume to go on "
                     "with that match, or choose another file", c->out);
            goto out;
        }
        if (c->resume && resume_read(&R, done)) {
            *err = R.err;
            goto out;
        }
        R.fd = open(c->out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (R.fd < 0) {
            ply_fail(err, "%s: %s", c->out, strerror(errno));
            goto out;
        }
    }
    for (uint64_t i = 0; i < c->total; i++)
        if (!done[i])
            R.todo[R.ntodo++] = i;
    if (c->resume && c->progress)
        fprintf(stderr, "resuming: %llu games on record, %llu to play\n",
                (unsigned long long)R.finished,
                (unsigned long long)R.ntodo);
    update_sprt(&R);
    int started = 0;
    for (int t = 0; t < c->jobs; t++) {
        if (pthread_create(&th[t], NULL, worker, &R))
            break;
        started++;
    }
    if (!started)
        worker(&R);
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    if (R.failed) {
        *err = R.err;
        goto out;
    }
    progress(&R, 1);
    if (c->json)
        summary_json(&R, out);
    else
        summary_text(&R, out);
    rc = 0;
out:
    if (R.fd >= 0)
        close(R.fd);
    pthread_mutex_destroy(&R.mu);
    free(done);
    free(R.score);
    free(R.pair);
    free(R.todo);
    free(th);
    return rc;
}
