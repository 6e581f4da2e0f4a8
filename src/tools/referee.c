/* referee.c — one game of a match: the seats (in-process bots, programs
 * speaking UGI, UCI, USI, CECP or CodeCup), clocks and forfeits, openings
 * and chance. Everything comes from the match settings and the game
 * number. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../core/format.h"
#include "../core/registry.h"
#include "../core/session.h"
#include "../core/setup.h"
#include "../core/timeman.h"
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
    Session *bot;       /* an in-process bot */
    Engine eng;
    int eng_on;
    int64_t clock_ms;   /* per-game clock (TC_GAME, and CodeCup programs) */
    int sent;           /* CodeCup, CECP: game moves forwarded so far */
    int setboard, usermove;     /* CECP features */
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

/* The UGI family: UGI, UCI and USI differ in a few words. */
typedef struct Proto {
    const char *hello, *ack, *newgame, *fen, *variant_opt;
} Proto;

static const Proto *proto_of(PartKind k)
{
    static const Proto ugi = {"ugi", "ugiok", "uginewgame", "fen", NULL};
    static const Proto uci = {"uci", "uciok", "ucinewgame", "fen",
                              "UCI_Variant"};
    static const Proto usi = {"usi", "usiok", "usinewgame", "sfen",
                              "UCI_Variant"};   /* Fairy-Stockfish's name */
    return k == PART_UCI ? &uci : k == PART_USI ? &usi : &ugi;
}

/* The name of the seat's dialect among the games' formats. */
static const char *dialect(PartKind k)
{
    return k == PART_UCI ? "uci" : k == PART_USI ? "usi"
         : k == PART_CECP ? "cecp" : "ugi";
}

/* The variant name an engine knows the game by, or NULL for the
 * dialect's own game (chess for UCI and CECP, shogi for USI): the game's
 * formats say (Ply's name when it declares none). */
static const char *engine_variant(const Game *G, PartKind k)
{
    return format_variant(G->g, dialect(k));
}

/* Moves on the wire as the dialect writes them (xiangqi over UCI counts
 * ranks 1-10, Ply 0-9): the game's format converts them. */
static void wire_out(const Game *G, const Seat *S, const char *mv,
                     char *buf, size_t n)
{
    format_move_to_wire(game_format(G->g, dialect(S->part->kind)), mv, buf,
                        n);
}

/* CECP: xboard, protover 2, features until done=1. Engines that never
 * send done=1 (protocol 1) are given the handshake time, then used. */
static Reason cecp_begin(Game *G, Seat *S)
{
    const MatchConfig *c = G->c;
    int64_t dl = now_ms() + c->start_ms;
    char line[ENGINE_LINE_MAX];
    if (engine_send(&S->eng, dl, "xboard") ||
        engine_send(&S->eng, dl, "protover 2"))
        return fail_with(G, REASON_CRASH, "%s: does not read its input",
                         S->part->name);
    int done = -1;
    while (done != 1) {
        int rc = engine_read_line(&S->eng, line, sizeof line, dl);
        if (rc == 0) {
            if (done == 0)
                return fail_with(G, REASON_TIME, "%s: sent done=0 but no "
                                 "done=1 in time", S->part->name);
            break;
        }
        if (rc < 0)
            return fail_with(G, REASON_CRASH, "%s: exited during the "
                             "handshake", S->part->name);
        if (strncmp(line, "feature ", 8))
            continue;
        /* name=value pairs; values may be quoted */
        for (char *p = line + 8; *p;) {
            while (*p == ' ')
                p++;
            char *eq = strchr(p, '=');
            if (!eq)
                break;
            size_t nl = (size_t)(eq - p);
            char *v = eq + 1, *end;
            if (*v == '"') {
                v++;
                end = strchr(v, '"');
                if (!end)
                    end = v + strlen(v);
            } else {
                end = v + strcspn(v, " ");
            }
            int on = *v == '1';
            if (nl == 8 && !strncmp(p, "setboard", 8))
                S->setboard = on;
            else if (nl == 8 && !strncmp(p, "usermove", 8))
                S->usermove = on;
            else if (nl == 4 && !strncmp(p, "done", 4))
                done = on;
            p = *end ? end + 1 : end;
        }
    }
    int bad = engine_send(&S->eng, dl, "new");
    const char *var = engine_variant(G, PART_CECP);
    if (var)
        bad |= engine_send(&S->eng, dl, "variant %s", var);
    bad |= engine_send(&S->eng, dl, "easy");    /* no pondering */
    bad |= engine_send(&S->eng, dl, "force");
    if (!G->startpos) {
        if (!S->setboard)
            return fail_with(G, REASON_CRASH, "%s: cannot start from a "
                             "position (no feature setboard=1)",
                             S->part->name);
        bad |= engine_send(&S->eng, dl, "setboard %s", G->r->setup);
    }
    if (c->tc == TC_GAME) {
        long long base_s = c->tc_ms / 1000;
        bad |= engine_send(&S->eng, dl, "level 0 %lld:%02lld %g",
                           base_s / 60, base_s % 60, c->inc_ms / 1000.0);
    } else {
        int64_t mv = c->tc == TC_MOVE ? c->tc_ms : c->ext_move_ms;
        bad |= engine_send(&S->eng, dl, "st %lld",
                           (long long)(mv >= 2000 ? mv / 1000 : 1));
    }
    if (bad)
        return fail_with(G, REASON_CRASH, "%s: stopped reading its input",
                         S->part->name);
    return REASON_NORMAL;
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
        S->bot = session_new(G->g, c->options, spec, seed, &err);
        if (!S->bot || session_set_state(S->bot, G->st, &err))
            return fail_with(G, REASON_CRASH, "%s", err.msg);
        return REASON_NORMAL;
    }
    if (engine_start_watched(&S->eng, S->part->cmd, c->quiet_engines,
                             c->watch, &err))
        return fail_with(G, REASON_CRASH, "%s: %s", S->part->name, err.msg);
    S->eng_on = 1;
    if (S->part->kind == PART_CODECUP)
        return REASON_NORMAL;
    if (S->part->kind == PART_CECP)
        return cecp_begin(G, S);
    const Proto *P = proto_of(S->part->kind);
    int64_t dl = now_ms() + c->start_ms;
    char line[ENGINE_LINE_MAX];
    Reason why;
    if (engine_send(&S->eng, dl, "%s", P->hello))
        return fail_with(G, REASON_CRASH, "%s: does not read its input",
                         S->part->name);
    int has_seed = 0;
    if ((why = ugi_expect(G, S, P->ack, line, sizeof line, dl, &has_seed)))
        return why;
    int bad = 0;
    if (S->part->kind == PART_UGI) {
        bad |= engine_send(&S->eng, dl, "setoption name game value %s",
                           G->g->info.name);
        if (c->options[0])
            bad |= engine_send(&S->eng, dl,
                               "setoption name gameoptions value %s",
                               c->options);
    } else if (engine_variant(G, S->part->kind)) {
        bad |= engine_send(&S->eng, dl, "setoption name %s value %s",
                           P->variant_opt,
                           engine_variant(G, S->part->kind));
    }
    /* an engine with a seed option (Ply's) gets the game's, so that its
     * games differ and are reproducible */
    if (has_seed)
        bad |= engine_send(&S->eng, dl, "setoption name seed value %llu",
                           (unsigned long long)(seed >> 33));
    bad |= engine_send(&S->eng, dl, "%s", P->newgame);
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
    session_free(S->bot);
    S->bot = NULL;
    if (S->eng_on) {
        int64_t dl = now_ms() + wait;
        if (S->part->kind == PART_CECP) {
            const double *res = G->r->result;
            engine_send(&S->eng, dl, "result %s {%s}",
                        res[0] > res[1] ? "1-0" : res[0] < res[1] ? "0-1"
                                                  : "1/2-1/2",
                        match_reason_names[G->r->reason]);
        }
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
    if (S->part->kind != PART_BOT)
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

/* UGI, UCI and USI: position (start or FEN/SFEN) and all moves, go with
 * the clocks or a move time, then bestmove. */
static Reason ugi_move(Game *G, int s, Seat *S, int64_t allowed, Move *m)
{
    const MatchConfig *c = G->c;
    GameRecord *r = G->r;
    const Proto *P = proto_of(S->part->kind);
    size_t cap = 64;
    for (int i = 0; i < r->nmoves; i++)
        cap += strlen(r->moves[i]) + 2;
    cap += strlen(r->setup) + 64;
    char *pos = malloc(cap);
    if (!pos)
        return fail_with(G, REASON_CRASH, "out of memory");
    size_t len;
    if (G->startpos)
        len = (size_t)snprintf(pos, cap, "position startpos");
    else
        len = (size_t)snprintf(pos, cap, "position %s %s", P->fen, r->setup);
    if (r->nmoves)
        len += (size_t)snprintf(pos + len, cap - len, " moves");
    for (int i = 0; i < r->nmoves; i++) {
        char w[MOVE_TEXT_MAX];
        wire_out(G, S, r->moves[i], w, sizeof w);
        len += (size_t)snprintf(pos + len, cap - len, " %s", w);
    }
    int64_t dl = now_ms() + allowed + c->grace_ms;
    int bad = engine_send(&S->eng, dl, "%s", pos);
    free(pos);
    if (bad)
        return fail_with(G, REASON_CRASH, "%s: stopped reading its input",
                         S->part->name);
    long long t0 = G->seat[0].clock_ms, t1 = G->seat[1].clock_ms,
              inc = c->inc_ms;
    if (c->tc == TC_GAME && S->part->kind == PART_UGI)
        bad = engine_send(&S->eng, dl, "go p1time %lld p2time %lld "
                          "p1inc %lld p2inc %lld", t0, t1, inc, inc);
    else if (c->tc == TC_GAME && S->part->kind == PART_UCI)
        /* seat 0 moves first: white (red in xiangqi) */
        bad = engine_send(&S->eng, dl, "go wtime %lld btime %lld "
                          "winc %lld binc %lld", t0, t1, inc, inc);
    else if (c->tc == TC_GAME)
        /* USI: seat 0 is sente, called black */
        bad = engine_send(&S->eng, dl, "go btime %lld wtime %lld "
                          "binc %lld winc %lld", t0, t1, inc, inc);
    else if (S->part->kind == PART_USI)
        bad = engine_send(&S->eng, dl, "go btime 0 wtime 0 byoyomi %lld",
                          (long long)allowed);
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
    if (!strcmp(mv, "resign"))
        return fail_with(G, REASON_ADJUDICATED, "%s resigned",
                         S->part->name);
    char own[MOVE_TEXT_MAX];
    if (strlen(mv) > 200)
        mv[200] = 0;    /* as "%.200s" did */
    format_move_from_wire(game_format(G->g, dialect(S->part->kind)), mv,
                          own, sizeof own);
    return text_move(G, S, own, m);
}

/* CECP: the engine is kept in force mode between its moves; the moves it
 * has not seen are sent, then time/otim and go; it answers "move X".
 * Notation is coordinate (e2e4, e7e8q; xiangqi ranks 0-9 as Ply's). */
static Reason cecp_move(Game *G, int s, Seat *S, int64_t allowed, Move *m)
{
    const MatchConfig *c = G->c;
    GameRecord *r = G->r;
    int64_t dl = now_ms() + allowed + c->grace_ms;
    int bad = engine_send(&S->eng, dl, "force");
    for (; S->sent < r->nmoves && !bad; S->sent++) {
        /* its own moves (after the opening) it has made already */
        if (S->sent >= r->opening_plies && G->movers[S->sent] == s)
            continue;
        bad = engine_send(&S->eng, dl, "%s%s",
                          S->usermove ? "usermove " : "", r->moves[S->sent]);
    }
    if (c->tc == TC_GAME) {
        bad |= engine_send(&S->eng, dl, "time %lld",
                           (long long)(S->clock_ms / 10));
        bad |= engine_send(&S->eng, dl, "otim %lld",
                           (long long)(G->seat[1 - s].clock_ms / 10));
    }
    bad |= engine_send(&S->eng, dl, "go");
    if (bad)
        return fail_with(G, REASON_CRASH, "%s: stopped reading its input",
                         S->part->name);
    char line[ENGINE_LINE_MAX];
    for (;;) {
        int rc = engine_read_line(&S->eng, line, sizeof line, dl);
        if (rc == 0)
            return fail_with(G, REASON_TIME, "%s: no move in time",
                             S->part->name);
        if (rc < 0)
            return fail_with(G, REASON_CRASH, "%s: exited instead of moving",
                             S->part->name);
        if (!strncmp(line, "move ", 5))
            break;
        if (!strncmp(line, "resign", 6))
            return fail_with(G, REASON_ADJUDICATED, "%s resigned",
                             S->part->name);
        if (!strncmp(line, "Illegal move", 12) ||
            !strncmp(line, "Error", 5))
            return fail_with(G, REASON_CRASH, "%s: rejected our input: "
                             "%.120s", S->part->name, line);
        /* thinking output, comments, result claims: the referee decides */
    }
    char *mv = line + 5;
    while (*mv == ' ')
        mv++;
    mv[strcspn(mv, " ")] = 0;
    S->sent = r->nmoves + 1;   /* its own move is on its board */
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
    Limits lim = session_bot_limits(S->bot);
    if (allowed < 0 && !lim.time_ms && !lim.nodes && !lim.depth)
        lim.time_ms = c->ext_move_ms;   /* no limit anywhere: --movetime */
    if (allowed >= 0) {
        int64_t budget = allowed;
        if (c->tc == TC_GAME) {
            Clock k = {.left_ms = S->clock_ms, .inc_ms = c->inc_ms};
            budget = time_budget(G->g, G->st, &k,
                                 G->r->seed + (uint64_t)G->r->nmoves);
        }
        if (budget < 1)
            budget = 1;
        if (!lim.time_ms || lim.time_ms > budget)
            lim.time_ms = budget;
    }
    /* the session searches what p's seat sees in hidden games */
    PlyError err = {{0}};
    SearchInfo si;
    if (session_go(S->bot, &lim, 0, &err))
        return fail_with(G, REASON_CRASH, "%s: %s", S->part->name, err.msg);
    *m = session_wait(S->bot, &si);
    (void)p;
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
    else if (S->part->kind == PART_CODECUP)
        why = codecup_move(G, p, S, allowed, m);
    else if (S->part->kind == PART_CECP)
        why = cecp_move(G, p, S, allowed, m);
    else
        why = ugi_move(G, p, S, allowed, m);
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
        for (int s = 0; s < np; s++)    /* told only in open games */
            if (G.seat[s].bot)
                session_play(G.seat[s].bot, m, NULL);
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

