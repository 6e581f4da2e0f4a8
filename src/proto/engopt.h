/* engopt.h — a bot's standard engine options (the rows of its option
 * table that carry an engine name: "Hash" in MiB, "Threads") as the
 * `option name ...` lines of UCI, USI and UGI, so that a GUI shows them as
 * spin, check or combo controls; setoption on them goes through
 * session_set_engine_option(). */
#ifndef PLY_ENGOPT_H
#define PLY_ENGOPT_H

#include <stddef.h>

#include "../core/session.h"

/* "option name NAME type spin default D min A max B" (check, combo,
 * string likewise) for row o under the name `name`; values of a size row
 * in MiB. Returns the length, or -1 when it does not fit. */
int engopt_line(const Option *o, const char *name, char *buf, size_t n);

/* Calls say(user, line) for every engine option of s's bot, in table
 * order; `rename` maps an engine name to the protocol's own (USI's
 * "USI_Hash"), NULL: as they are. */
void engopt_advertise(const Session *s,
                      const char *(*rename)(const char *engine),
                      void (*say)(void *user, const char *line), void *user);

#endif
