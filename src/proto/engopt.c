/* engopt.c — engine options from a bot's option table (see engopt.h). */
#include <math.h>
#include <stdio.h>

#include "../core/bot.h"
#include "engopt.h"

enum { MIB = 1024 * 1024 };

int engopt_line(const Option *o, const char *name, char *buf, size_t n)
{
    int len;
    switch (o->type) {
    case OPT_BOOL:
        len = snprintf(buf, n, "option name %s type check default %s", name,
                       o->def ? "true" : "false");
        break;
    case OPT_CHOICE: {
        len = snprintf(buf, n, "option name %s type combo default %s", name,
                       o->choices[(int)o->def]);
        for (int i = 0; o->choices[i] && len >= 0 && (size_t)len < n; i++)
            len += snprintf(buf + len, n - (size_t)len, " var %s",
                            o->choices[i]);
        break;
    }
    case OPT_INT:
    case OPT_COUNT:
    case OPT_SIZE: {
        double scale = o->type == OPT_SIZE ? MIB : 1;
        double lo = ceil(o->min / scale), hi = floor(o->max / scale);
        double def = round(o->def / scale);
        if (hi > 2147483647.0)
            hi = 2147483647.0;
        if (def < lo)
            def = lo;
        len = snprintf(buf, n, "option name %s type spin default %.0f min "
                       "%.0f max %.0f", name, def, lo, hi);
        break;
    }
    default:
        len = snprintf(buf, n, "option name %s type string default %s", name,
                       o->def_text ? o->def_text : "");
        break;
    }
    return len < 0 || (size_t)len >= n ? -1 : len;
}

void engopt_advertise(const Session *s,
                      const char *(*rename)(const char *engine),
                      void (*say)(void *user, const char *line), void *user)
{
    const BotVtbl *v = session_bot_vtbl(s);
    int count = bot_option_count(v);
    for (int i = 0; i < count; i++) {
        const Option *o = bot_option_at(v, i);
        if (!o->engine || (o->flags & OPTF_ALIAS))
            continue;
        char line[512];
        const char *name = rename ? rename(o->engine) : o->engine;
        if (engopt_line(o, name, line, sizeof line) > 0)
            say(user, line);
    }
}
