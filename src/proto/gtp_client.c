#include "client.h"
Player *gtp_client_new(const char *name, const char *cmd, int quiet,
                       PlyError *err)
{
    (void)cmd; (void)quiet;
    ply_fail(err, "engine %s: GTP not yet", name);
    return NULL;
}
