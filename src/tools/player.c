/* player.c — helpers shared by the players (player.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../core/setup.h"
#include "player.h"

const PlayerClient *player_client(const PlayerClient *table,
                                  const char *proto)
{
    for (; table && table->proto; table++)
        if (!strcmp(table->proto, proto))
            return table;
    return NULL;
}

Reason player_fail(PlyError *err, Reason why, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err)
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return why;
}

Reason player_text_move(const Player *p, const GameVtbl *g, const void *st,
                        const char *text, Move *m, PlyError *err)
{
    PlyError e2 = {{0}};
    if (!*text)
        return player_fail(err, REASON_ILLEGAL, "%s: an empty move",
                           p->name);
    if (g->text_to_move(st, text, m, &e2))
        return player_fail(err, REASON_ILLEGAL, "%s: illegal move '%.60s': "
                           "%s", p->name, text, e2.msg);
    if (!state_is_legal(g, st, *m))
        return player_fail(err, REASON_ILLEGAL, "%s: illegal move '%.60s'",
                           p->name, text);
    return REASON_NORMAL;
}
