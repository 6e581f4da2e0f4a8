/* cecp_client.c — the referee's client of CECP (xboard) programs:
 * xboard, protover 2, features until done=1 (engines that never send it,
 * protocol 1, are given the handshake time, then used). The program is
 * kept in force mode between its moves; the moves it has not seen are
 * sent, then time/otim and go; it answers "move X" (or "My move is : X",
 * as GNU Chess does). Engine options go as "option NAME=VALUE". Notation is
 * coordinate (e2e4, e7e8q; xiangqi ranks 0-9 as Ply's). */
#include <stdlib.h>
#include <string.h>

#include "../core/format.h"
#include "../core/util.h"
#include "client.h"

typedef struct CecpClient {
    Client c;
    int sent;                   /* moves of c.moves on its board */
    int setboard, usermove;     /* features */
} CecpClient;

static Reason cecp_begin(Player *p, const PlayerGame *pg, PlyError *err)
{
    CecpClient *X = (CecpClient *)p;
    Client *c = &X->c;
    Reason why = client_begin(c, pg, err);
    if (why)
        return why;
    const TimeControl *tc = pg->tc;
    int64_t dl = now_ms() + tc->start_ms;
    char line[ENGINE_LINE_MAX];
    if (engine_send(&c->eng, dl, "xboard") ||
        engine_send(&c->eng, dl, "protover 2"))
        return player_fail(err, REASON_CRASH, "%s: does not read its input",
                           p->name);
    int done = -1;
    while (done != 1) {
        int rc = engine_read_line(&c->eng, line, sizeof line, dl);
        if (rc == 0) {
            if (done == 0)
                return player_fail(err, REASON_TIME, "%s: sent done=0 but "
                                   "no done=1 in time", p->name);
            break;
        }
        if (rc < 0)
            return player_fail(err, REASON_CRASH, "%s: exited during the "
                               "handshake", p->name);
        if (strncmp(line, "feature ", 8))
            continue;
        /* name=value pairs; values may be quoted */
        for (char *q = line + 8; *q;) {
            while (*q == ' ')
                q++;
            char *eq = strchr(q, '=');
            if (!eq)
                break;
            size_t nl = (size_t)(eq - q);
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
            if (nl == 8 && !strncmp(q, "setboard", 8))
                X->setboard = on;
            else if (nl == 8 && !strncmp(q, "usermove", 8))
                X->usermove = on;
            else if (nl == 4 && !strncmp(q, "done", 4))
                done = on;
            q = *end ? end + 1 : end;
        }
    }
    int bad = engine_send(&c->eng, dl, "new");
    const char *var = format_variant(pg->g, "cecp");
    if (var)
        bad |= engine_send(&c->eng, dl, "variant %s", var);
    for (int i = 0; i < c->nopts; i++)
        bad |= engine_send(&c->eng, dl, "option %s=%s", c->opt_name[i],
                           c->opt_value[i]);
    bad |= engine_send(&c->eng, dl, "easy");    /* no pondering */
    bad |= engine_send(&c->eng, dl, "force");
    if (!pg->startpos) {
        if (!X->setboard)
            return player_fail(err, REASON_CRASH, "%s: cannot start from a "
                               "position (no feature setboard=1)", p->name);
        bad |= engine_send(&c->eng, dl, "setboard %s", pg->setup);
    }
    if (tc->kind == TC_GAME) {
        long long base_s = tc->tc_ms / 1000;
        bad |= engine_send(&c->eng, dl, "level 0 %lld:%02lld %g",
                           base_s / 60, base_s % 60, tc->inc_ms / 1000.0);
    } else {
        int64_t mv = tc->kind == TC_MOVE ? tc->tc_ms : tc->ext_move_ms;
        bad |= engine_send(&c->eng, dl, "st %lld",
                           (long long)(mv >= 2000 ? mv / 1000 : 1));
    }
    if (bad)
        return player_fail(err, REASON_CRASH, "%s: stopped reading its "
                           "input", p->name);
    return REASON_NORMAL;
}

static Reason cecp_move(Player *p, const void *st, const PlayerClock *k,
                        Move *m, PlyError *err)
{
    CecpClient *X = (CecpClient *)p;
    Client *c = &X->c;
    int64_t dl = client_deadline(c, k);
    int bad = engine_send(&c->eng, dl, "force");
    for (; X->sent < c->moves.n && !bad; X->sent++) {
        if (c->moves.own[X->sent])  /* made on its board already */
            continue;
        bad = engine_send(&c->eng, dl, "%s%s", X->usermove ? "usermove "
                          : "", c->moves.text[X->sent]);
    }
    if (c->tc->kind == TC_GAME) {
        bad |= engine_send(&c->eng, dl, "time %lld",
                           (long long)(k->left_ms[c->seat] / 10));
        bad |= engine_send(&c->eng, dl, "otim %lld",
                           (long long)(k->left_ms[1 - c->seat] / 10));
    }
    bad |= engine_send(&c->eng, dl, "go");
    if (bad)
        return player_fail(err, REASON_CRASH, "%s: stopped reading its "
                           "input", p->name);
    char line[ENGINE_LINE_MAX];
    for (;;) {
        Reason why = client_read(c, line, sizeof line, dl, "move", err);
        if (why != REASON_NORMAL)
            return why;
        if (!strncmp(line, "move ", 5))
            break;
        /* GNU Chess in xboard mode: "My move is : g1f3" */
        if (!strncmp(line, "My move is", 10)) {
            char *q = line + 10;
            while (*q == ' ' || *q == ':')
                q++;
            memmove(line + 5, q, strlen(q) + 1);
            break;
        }
        if (!strncmp(line, "resign", 6))
            return player_fail(err, REASON_ADJUDICATED, "%s resigned",
                               p->name);
        if (!strncmp(line, "Illegal move", 12) ||
            !strncmp(line, "Error", 5))
            return player_fail(err, REASON_CRASH, "%s: rejected our input: "
                               "%.120s", p->name, line);
        /* thinking output, comments, result claims: the referee decides */
    }
    char *mv = line + 5;
    while (*mv == ' ')
        mv++;
    mv[strcspn(mv, " ")] = 0;
    c->moved = 1;   /* its own move is on its board */
    return player_text_move(p, c->g, st, mv, m, err);
}

static void cecp_end(Player *p, const double *res, Reason why,
                     int forfeited)
{
    Client *c = (Client *)p;
    if (c->on) {
        int64_t wait = forfeited && why != REASON_ILLEGAL ? 0
                       : CLIENT_QUIT_WAIT_MS;
        engine_send(&c->eng, now_ms() + wait, "result %s {%s}",
                    res[0] > res[1] ? "1-0" : res[0] < res[1] ? "0-1"
                                    : "1/2-1/2",
                    match_reason_names[why]);
    }
    client_quit(c, "quit", why, forfeited);
}

static const PlayerVtbl cecp_vtbl = {cecp_begin, cecp_move, client_inform,
                                     cecp_end, client_free,
                                     client_set_option};

Player *cecp_client_new(const char *name, const char *cmd, int quiet,
                        const EngineWatch *watch, PlyError *err)
{
    CecpClient *X = calloc(1, sizeof *X);
    if (!X) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    if (client_init(&X->c, &cecp_vtbl, name, cmd, quiet, watch, err)) {
        free(X);
        return NULL;
    }
    return &X->c.base;
}
