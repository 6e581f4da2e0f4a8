/* client.c — the part every protocol client shares (client.h). */
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "client.h"
#include "clients.h"

const PlayerClient proto_clients[] = {
    {"ugi", ugi_client_new},
    {"uci", uci_client_new},
    {"usi", usi_client_new},
    {"cecp", cecp_client_new},
    {"codecup", codecup_client_new},
    {"gtp", gtp_client_new},
    {"gomocup", gomocup_client_new},
    {NULL, NULL},
};

int client_init(Client *c, const PlayerVtbl *vt, const char *name,
                const char *cmd, int quiet, const EngineWatch *watch,
                PlyError *err)
{
    if (strlen(cmd) >= sizeof c->cmd)
        return ply_fail(err, "engine %s: command too long", name);
    c->base.vt = vt;
    c->base.external = 1;
    snprintf(c->base.name, sizeof c->base.name, "%s", name);
    snprintf(c->cmd, sizeof c->cmd, "%s", cmd);
    c->quiet = quiet;
    c->watch = watch;
    return 0;
}

static int moves_push(ClientMoves *l, const char *text, int own)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        char **t = realloc(l->text, sizeof *t * (size_t)cap);
        if (!t)
            return -1;
        l->text = t;
        unsigned char *o = realloc(l->own, (size_t)cap);
        if (!o)
            return -1;
        l->own = o;
        l->cap = cap;
    }
    if (!(l->text[l->n] = strdup(text)))
        return -1;
    l->own[l->n++] = (unsigned char)own;
    return 0;
}

Reason client_begin(Client *c, const PlayerGame *pg, PlyError *err)
{
    PlyError e2 = {{0}};
    c->g = pg->g;
    c->tc = pg->tc;
    c->seat = pg->seat;
    for (int i = 0; i < pg->opening_plies; i++)
        if (moves_push(&c->moves, pg->opening[i], 0))
            return player_fail(err, REASON_CRASH, "out of memory");
    if (c->script)
        engine_start_script(&c->eng, c->script, c->script_len, c->on_send,
                            c->on_send_ctx);
    else if (engine_start_watched(&c->eng, c->cmd, c->quiet, c->watch, &e2))
        return player_fail(err, REASON_CRASH, "%s: %s", c->base.name,
                           e2.msg);
    c->on = 1;
    return REASON_NORMAL;
}

int client_set_option(Player *p, const char *name, const char *value,
                      PlyError *err)
{
    Client *c = (Client *)p;
    if (c->nopts == CLIENT_OPTS_MAX)
        return ply_fail(err, "engine %s: more than %d options", p->name,
                        CLIENT_OPTS_MAX);
    if (!*name || strlen(name) >= sizeof c->opt_name[0] ||
        strlen(value) >= sizeof c->opt_value[0])
        return ply_fail(err, "engine %s: option name empty or too long, or "
                        "value too long", p->name);
    for (const char *q = name; *q; q++)
        if ((unsigned char)*q < ' ')
            return ply_fail(err, "engine %s: control character in option "
                            "name", p->name);
    for (const char *q = value; *q; q++)
        if ((unsigned char)*q < ' ')
            return ply_fail(err, "engine %s: control character in option "
                            "value", p->name);
    snprintf(c->opt_name[c->nopts], sizeof c->opt_name[0], "%s", name);
    snprintf(c->opt_value[c->nopts], sizeof c->opt_value[0], "%s", value);
    c->nopts++;
    return 0;
}

void client_inform(Player *p, const void *st, Move m, const char *text)
{
    Client *c = (Client *)p;
    (void)st;
    (void)m;
    /* out of memory: the program misses a move and answers wrongly */
    moves_push(&c->moves, text, c->moved);
    c->moved = 0;
}

void client_quit(Client *c, const char *quit_line, Reason why,
                 int forfeited)
{
    if (!c->on)
        return;
    int64_t wait = forfeited && why != REASON_ILLEGAL ? 0
                   : CLIENT_QUIT_WAIT_MS;
    if (quit_line)
        engine_send(&c->eng, now_ms() + wait, "%s", quit_line);
    engine_stop(&c->eng, wait);
    c->on = 0;
}

void client_free(Player *p)
{
    Client *c = (Client *)p;
    if (!c)
        return;
    if (c->on) {
        engine_stop(&c->eng, 0);
        c->on = 0;
    }
    for (int i = 0; i < c->moves.n; i++)
        free(c->moves.text[i]);
    free(c->moves.text);
    free(c->moves.own);
    free(c);
}

int64_t client_deadline(const Client *c, const PlayerClock *k)
{
    return now_ms() + k->allowed_ms + c->tc->grace_ms;
}

Reason client_read(Client *c, char *line, size_t n, int64_t dl,
                   const char *what, PlyError *err)
{
    int rc = engine_read_line(&c->eng, line, n, dl);
    if (rc == 0)
        return player_fail(err, REASON_TIME, "%s: no %s in time",
                           c->base.name, what);
    if (rc < 0)
        return player_fail(err, REASON_CRASH, "%s: exited before its %s",
                           c->base.name, what);
    return REASON_NORMAL;
}
