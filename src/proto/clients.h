/* clients.h — the table of protocol clients that ply match hands to the
 * referee (MatchConfig.clients): one entry per --engine proto=NAME. */
#ifndef PLY_CLIENTS_H
#define PLY_CLIENTS_H

#include "../tools/player.h"

extern const PlayerClient proto_clients[];

#endif
