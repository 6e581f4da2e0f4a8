/* codecup_client.c — the referee's client of CodeCup (Caia) programs:
 * "Start" to the first mover, then each opponent move on a line, and the
 * program's own move back on a line (a trailing "!" claims a win and is
 * not part of the move). The protocol's 30 s game clock runs also
 * without a time control. */
#include <stdlib.h>
#include <string.h>

#include "client.h"

enum { CODECUP_GAME_MS = 30000 };

typedef struct CodecupClient {
    Client c;
    int sent;       /* moves of c.moves forwarded (or its own) */
} CodecupClient;

static Reason cc_begin(Player *p, const PlayerGame *pg, PlyError *err)
{
    return client_begin((Client *)p, pg, err);
}

static Reason cc_move(Player *p, const void *st, const PlayerClock *k,
                      Move *m, PlyError *err)
{
    CodecupClient *C = (CodecupClient *)p;
    Client *c = &C->c;
    int64_t dl = client_deadline(c, k);
    int bad = 0;
    if (c->moves.n == 0 && C->sent == 0)
        bad = engine_send(&c->eng, dl, "Start");
    for (; C->sent < c->moves.n && !bad; C->sent++)
        if (!c->moves.own[C->sent])
            bad = engine_send(&c->eng, dl, "%s", c->moves.text[C->sent]);
    if (bad)
        return player_fail(err, REASON_CRASH, "%s: stopped reading its "
                           "input", p->name);
    char line[ENGINE_LINE_MAX];
    Reason why = client_read(c, line, sizeof line, dl, "move", err);
    if (why != REASON_NORMAL)
        return why;
    size_t n = strlen(line);
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
        line[--n] = 0;
    if (n && line[n - 1] == '!') {  /* a win claim: not part of the move */
        line[--n] = 0;
        p->claimed = 1;
    }
    c->moved = 1;
    return player_text_move(p, c->g, st, line, m, err);
}

static void cc_end(Player *p, const double *result, Reason why,
                   int forfeited)
{
    (void)result;
    client_quit((Client *)p, "Quit", why, forfeited);
}

static const PlayerVtbl codecup_vtbl = {cc_begin, cc_move, client_inform,
                                        cc_end, client_free, NULL};

Player *codecup_client_new(const char *name, const char *cmd, int quiet,
                           const EngineWatch *watch, PlyError *err)
{
    CodecupClient *C = calloc(1, sizeof *C);
    if (!C) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    if (client_init(&C->c, &codecup_vtbl, name, cmd, quiet, watch, err)) {
        free(C);
        return NULL;
    }
    C->c.base.game_ms = CODECUP_GAME_MS;
    return &C->c.base;
}
