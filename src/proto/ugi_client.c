/* ugi_client.c — the referee's client of programs speaking the UGI family:
 * UGI, UCI (also UCCI engines that take UCI's words) and USI differ in a
 * few words. Position (start or FEN/SFEN) and all moves, go with the
 * clocks or a move time, then bestmove. Moves and variant names on the
 * wire come from the game's formats (format.h). */
#include <stdlib.h>
#include <string.h>

#include "../core/format.h"
#include "../core/util.h"
#include "client.h"

typedef enum { FAM_UGI, FAM_UCI, FAM_USI } Family;

typedef struct Proto {
    const char *dialect;        /* the games' format of that name */
    const char *hello, *ack, *newgame, *fen, *variant_opt;
} Proto;

static const Proto protos[] = {
    [FAM_UGI] = {"ugi", "ugi", "ugiok", "uginewgame", "fen", NULL},
    [FAM_UCI] = {"uci", "uci", "uciok", "ucinewgame", "fen", "UCI_Variant"},
    /* Fairy-Stockfish's name for the variant option */
    [FAM_USI] = {"usi", "usi", "usiok", "usinewgame", "sfen", "UCI_Variant"},
};

typedef struct UgiClient {
    Client c;
    Family fam;
    char setup[4096];
    int startpos;
} UgiClient;

/* Reads lines until one starts with `word`; others (info, id, option, …)
 * are skipped. The line is left in line. */
static Reason expect(Client *c, const char *word, char *line, size_t n,
                     int64_t deadline, int *has_seed, PlyError *err)
{
    size_t wl = strlen(word);
    char what[64];
    snprintf(what, sizeof what, "'%.40s'", word);
    for (;;) {
        Reason why = client_read(c, line, n, deadline, what, err);
        if (why != REASON_NORMAL)
            return why;
        if (!strncmp(line, word, wl) && (!line[wl] || line[wl] == ' '))
            return REASON_NORMAL;
        if (has_seed && !strncmp(line, "option name seed ", 17))
            *has_seed = 1;
    }
}

static Reason ugi_begin(Player *p, const PlayerGame *pg, PlyError *err)
{
    UgiClient *U = (UgiClient *)p;
    Client *c = &U->c;
    const Proto *P = &protos[U->fam];
    Reason why = client_begin(c, pg, err);
    if (why)
        return why;
    snprintf(U->setup, sizeof U->setup, "%s", pg->setup);
    U->startpos = pg->startpos;
    int64_t dl = now_ms() + pg->tc->start_ms;
    char line[ENGINE_LINE_MAX];
    if (engine_send(&c->eng, dl, "%s", P->hello))
        return player_fail(err, REASON_CRASH, "%s: does not read its input",
                           p->name);
    int has_seed = 0;
    if ((why = expect(c, P->ack, line, sizeof line, dl, &has_seed, err)))
        return why;
    int bad = 0;
    for (int i = 0; i < c->nopts; i++)
        bad |= engine_send(&c->eng, dl, "setoption name %s value %s",
                           c->opt_name[i], c->opt_value[i]);
    const char *var = format_variant(pg->g, P->dialect);
    if (U->fam == FAM_UGI) {
        bad |= engine_send(&c->eng, dl, "setoption name game value %s",
                           pg->g->info.name);
        if (pg->options[0])
            bad |= engine_send(&c->eng, dl,
                               "setoption name gameoptions value %s",
                               pg->options);
    } else if (var) {
        bad |= engine_send(&c->eng, dl, "setoption name %s value %s",
                           P->variant_opt, var);
    }
    /* an engine with a seed option (Ply's) gets the game's, so that its
     * games differ and are reproducible */
    if (has_seed)
        bad |= engine_send(&c->eng, dl, "setoption name seed value %llu",
                           (unsigned long long)(pg->seed >> 33));
    bad |= engine_send(&c->eng, dl, "%s", P->newgame);
    bad |= engine_send(&c->eng, dl, "isready");
    if (bad)
        return player_fail(err, REASON_CRASH, "%s: stopped reading its "
                           "input", p->name);
    return expect(c, "readyok", line, sizeof line, dl, NULL, err);
}

static Reason ugi_move(Player *p, const void *st, const PlayerClock *k,
                       Move *m, PlyError *err)
{
    UgiClient *U = (UgiClient *)p;
    Client *c = &U->c;
    const Proto *P = &protos[U->fam];
    const GameFormat *f = game_format(c->g, P->dialect);
    const ClientMoves *h = &c->moves;
    char *view = NULL;
    if (c->g->info.flags & GAME_HIDDEN) {
        /* the moves played include what this seat did not see: never send
         * them. A UGI engine is told its seat's view (the observation's
         * setup string), the next position again as a new view. */
        size_t sz = c->g->info.state_size;
        unsigned char *o = malloc(sz);
        int priv = !o;
        if (o) {
            c->g->observe(st, c->g->to_move(st), o);
            priv = memcmp(o, st, sz) != 0;
            if (priv && c->g->from_view && U->fam == FAM_UGI) {
                char buf[4096];
                if (c->g->to_text(o, buf, sizeof buf) > 0)
                    view = strdup(buf);
                priv = !view;
            }
            free(o);
        }
        if (priv)
            return player_fail(err, REASON_CRASH, "%s: external engines "
                               "cannot play %s %s", p->name,
                               c->g->info.name, c->g->from_view ?
                               "but over UGI (where the engine is told its "
                               "seat's view)" : "yet (the moves would show "
                               "what the seat does not see)");
    }
    size_t cap = 64;
    for (int i = 0; i < h->n; i++)
        cap += strlen(h->text[i]) + 2;
    cap += strlen(U->setup) + (view ? strlen(view) : 0) + 64;
    char *pos = malloc(cap);
    if (!pos) {
        free(view);
        return player_fail(err, REASON_CRASH, "out of memory");
    }
    size_t len;
    if (view)
        len = (size_t)snprintf(pos, cap, "position %s %s", P->fen, view);
    else if (U->startpos)
        len = (size_t)snprintf(pos, cap, "position startpos");
    else
        len = (size_t)snprintf(pos, cap, "position %s %s", P->fen,
                               U->setup);
    if (h->n && !view)
        len += (size_t)snprintf(pos + len, cap - len, " moves");
    for (int i = 0; i < h->n && !view; i++) {
        char w[CLIENT_MOVE_MAX];
        format_move_to_wire(f, h->text[i], w, sizeof w);
        len += (size_t)snprintf(pos + len, cap - len, " %s", w);
    }
    int64_t allowed = k->allowed_ms;
    int64_t dl = client_deadline(c, k);
    int bad = engine_send(&c->eng, dl, "%s", pos);
    free(pos);
    free(view);
    if (bad)
        return player_fail(err, REASON_CRASH, "%s: stopped reading its "
                           "input", p->name);
    long long t0 = k->left_ms[0], t1 = k->left_ms[1],
              inc = c->tc->inc_ms;
    int per_game = c->tc->kind == TC_GAME;
    if (per_game && U->fam == FAM_UGI)
        bad = engine_send(&c->eng, dl, "go p1time %lld p2time %lld "
                          "p1inc %lld p2inc %lld", t0, t1, inc, inc);
    else if (per_game && U->fam == FAM_UCI)
        /* seat 0 moves first: white (red in xiangqi) */
        bad = engine_send(&c->eng, dl, "go wtime %lld btime %lld "
                          "winc %lld binc %lld", t0, t1, inc, inc);
    else if (per_game)
        /* USI: seat 0 is sente, called black */
        bad = engine_send(&c->eng, dl, "go btime %lld wtime %lld "
                          "binc %lld winc %lld", t0, t1, inc, inc);
    else if (U->fam == FAM_USI)
        bad = engine_send(&c->eng, dl, "go btime 0 wtime 0 byoyomi %lld",
                          (long long)allowed);
    else
        bad = engine_send(&c->eng, dl, "go movetime %lld",
                          (long long)allowed);
    if (bad)
        return player_fail(err, REASON_CRASH, "%s: stopped reading its "
                           "input", p->name);
    char line[ENGINE_LINE_MAX];
    Reason why = expect(c, "bestmove", line, sizeof line, dl, NULL, err);
    if (why)
        return why;
    char *mv = line + 8;
    while (*mv == ' ')
        mv++;
    mv[strcspn(mv, " ")] = 0;   /* drop "ponder ..." */
    if (!strcmp(mv, "resign"))
        return player_fail(err, REASON_ADJUDICATED, "%s resigned", p->name);
    char own[CLIENT_MOVE_MAX];
    if (strlen(mv) > 200)
        mv[200] = 0;    /* as "%.200s" did */
    format_move_from_wire(f, mv, own, sizeof own);
    return player_text_move(p, c->g, st, own, m, err);
}

static void ugi_end(Player *p, const double *result, Reason why,
                    int forfeited)
{
    (void)result;
    client_quit((Client *)p, "quit", why, forfeited);
}

static const PlayerVtbl ugi_vtbl = {ugi_begin, ugi_move, client_inform,
                                    ugi_end, client_free,
                                    client_set_option};

static Player *family_new(Family fam, const char *name, const char *cmd,
                          int quiet, const EngineWatch *watch, PlyError *err)
{
    UgiClient *U = calloc(1, sizeof *U);
    if (!U) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    if (client_init(&U->c, &ugi_vtbl, name, cmd, quiet, watch, err)) {
        free(U);
        return NULL;
    }
    U->fam = fam;
    return &U->c.base;
}

Player *ugi_client_new(const char *name, const char *cmd, int quiet,
                       const EngineWatch *watch, PlyError *err)
{
    return family_new(FAM_UGI, name, cmd, quiet, watch, err);
}

Player *uci_client_new(const char *name, const char *cmd, int quiet,
                       const EngineWatch *watch, PlyError *err)
{
    return family_new(FAM_UCI, name, cmd, quiet, watch, err);
}

Player *usi_client_new(const char *name, const char *cmd, int quiet,
                       const EngineWatch *watch, PlyError *err)
{
    return family_new(FAM_USI, name, cmd, quiet, watch, err);
}
