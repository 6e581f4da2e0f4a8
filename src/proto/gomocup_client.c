/* gomocup_client.c — the referee's client of Gomocup brains (the
 * Piskvork protocol), for games with a "gomocup" format. Begin: START n
 * (the game's "size" option), INFO rule (the "rule" option's Gomocup
 * number: freestyle 0, standard 1, renju 4; else the format's variant),
 * INFO timeout_turn / timeout_match. Each move: INFO time_left, then BEGIN
 * on the empty board, TURN x,y after one move of the opponent, else BOARD
 * with every stone in move order (1 the brain's, 2 the opponent's) and
 * DONE. The answer "x,y" is the move; MESSAGE, DEBUG and other lines
 * before it are skipped, ERROR or UNKNOWN forfeits. Games start from the
 * start position (opening moves go in BOARD). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/format.h"
#include "../core/util.h"
#include "client.h"
#include "gomocup.h"

typedef struct GcClient {
    Client c;
    int size;
    int synced;         /* moves of c.moves the brain has */
} GcClient;

/* The value of option key in options, else its default's text. */
static int option_text(const GameVtbl *g, const char *options,
                       const char *key, char *buf, size_t n)
{
    size_t kl = strlen(key);
    for (const GameOption *o = g->info.options; o && o->key; o++) {
        if (strcmp(o->key, key))
            continue;
        for (const char *v = options; v && *v;) {
            if (!strncmp(v, key, kl) && v[kl] == '=') {
                snprintf(buf, n, "%.*s", (int)strcspn(v + kl + 1, ","),
                         v + kl + 1);
                return 0;
            }
            v = strchr(v, ',');
            if (v)
                v++;
        }
        if (o->type == OPT_CHOICE)
            snprintf(buf, n, "%s", o->choices[(int)o->def]);
        else
            snprintf(buf, n, "%g", o->def);
        return 0;
    }
    return -1;
}

/* "h8" to "x,y" on a size board. */
static int own_to_xy(const char *own, int size, char *buf, size_t n)
{
    if (!isalpha((unsigned char)own[0]))
        return -1;
    int x = tolower((unsigned char)own[0]) - 'a', row = atoi(own + 1);
    if (x < 0 || x >= size || row < 1 || row > size)
        return -1;
    snprintf(buf, n, "%d,%d", x, size - row);
    return 0;
}

static Reason gc_begin(Player *p, const PlayerGame *pg, PlyError *err)
{
    GcClient *T = (GcClient *)p;
    Client *c = &T->c;
    const GameVtbl *g = pg->g;
    const GameFormat *f = game_format(g, "gomocup");
    if (!f || g->info.num_players != 2)
        return player_fail(err, REASON_CRASH, "%s: %s does not speak the "
                           "Gomocup protocol", p->name, g->info.name);
    if (!pg->startpos)
        return player_fail(err, REASON_CRASH, "%s: the Gomocup protocol "
                           "starts from the empty board", p->name);
    char val[64];
    if (option_text(g, pg->options, "size", val, sizeof val))
        return player_fail(err, REASON_CRASH, "%s: %s has no size",
                           p->name, g->info.name);
    T->size = atoi(val);
    /* the rule option's choice, by its index in the format's numbers */
    int nums[8], nn = gomocup_rules(g, nums, 8), rule = nn ? nums[0] : 0;
    if (!option_text(g, pg->options, "rule", val, sizeof val))
        for (const GameOption *o = g->info.options; o && o->key; o++)
            if (!strcmp(o->key, "rule") && o->type == OPT_CHOICE)
                for (int i = 0; o->choices[i] && i < nn; i++)
                    if (!strcmp(o->choices[i], val))
                        rule = nums[i];
    Reason why = client_begin(c, pg, err);
    if (why)
        return why;
    int64_t dl = now_ms() + pg->tc->start_ms;
    if (engine_send(&c->eng, dl, "START %d", T->size))
        return player_fail(err, REASON_CRASH, "%s: stopped reading its "
                           "input", p->name);
    char line[ENGINE_LINE_MAX];
    for (;;) {
        why = client_read(c, line, sizeof line, dl, "answer to START", err);
        if (why != REASON_NORMAL)
            return why;
        if (!strncasecmp(line, "OK", 2))
            break;
        if (!strncasecmp(line, "ERROR", 5) || !strncasecmp(line, "UNKNOWN",
                                                           7))
            return player_fail(err, REASON_CRASH, "%s: refused START %d: "
                               "%.80s", p->name, T->size, line);
    }
    const TimeControl *tc = pg->tc;
    int64_t turn = tc->kind == TC_MOVE ? tc->tc_ms
                 : tc->kind == TC_NONE ? tc->ext_move_ms : 0;
    int64_t match = tc->kind == TC_GAME ? tc->tc_ms : 0;
    if (engine_send(&c->eng, dl, "INFO rule %d", rule) ||
        (turn > 0 && engine_send(&c->eng, dl, "INFO timeout_turn %lld",
                                 (long long)turn)) ||
        engine_send(&c->eng, dl, "INFO timeout_match %lld",
                    (long long)match))
        return player_fail(err, REASON_CRASH, "%s: stopped reading its "
                           "input", p->name);
    return REASON_NORMAL;
}

static Reason gc_move(Player *p, const void *st, const PlayerClock *k,
                      Move *m, PlyError *err)
{
    GcClient *T = (GcClient *)p;
    Client *c = &T->c;
    int64_t dl = client_deadline(c, k);
    int n = c->moves.n, fail = 0;
    if (c->tc->kind == TC_GAME)
        fail |= engine_send(&c->eng, dl, "INFO time_left %lld",
                            (long long)k->left_ms[c->seat]);
    char xy[32];
    if (n == 0) {
        fail |= engine_send(&c->eng, dl, "BEGIN");
    } else if (T->synced == n - 1 && !c->moves.own[n - 1]) {
        if (own_to_xy(c->moves.text[n - 1], T->size, xy, sizeof xy))
            return player_fail(err, REASON_CRASH, "%s: cannot write move "
                               "'%.40s'", p->name, c->moves.text[n - 1]);
        fail |= engine_send(&c->eng, dl, "TURN %s", xy);
    } else {
        /* every stone, in move order: the side to move is the brain */
        fail |= engine_send(&c->eng, dl, "BOARD");
        for (int i = 0; i < n && !fail; i++) {
            if (own_to_xy(c->moves.text[i], T->size, xy, sizeof xy))
                return player_fail(err, REASON_CRASH, "%s: cannot write "
                                   "move '%.40s'", p->name,
                                   c->moves.text[i]);
            int mine = (i % 2) == ((n % 2) ? 1 : 0);
            fail |= engine_send(&c->eng, dl, "%s,%d", xy, mine ? 1 : 2);
        }
        fail |= engine_send(&c->eng, dl, "DONE");
    }
    if (fail)
        return player_fail(err, REASON_CRASH, "%s: stopped reading its "
                           "input", p->name);
    char line[ENGINE_LINE_MAX];
    for (;;) {
        Reason why = client_read(c, line, sizeof line, dl, "move", err);
        if (why != REASON_NORMAL)
            return why;
        if (!strncasecmp(line, "ERROR", 5) || !strncasecmp(line, "UNKNOWN",
                                                           7))
            return player_fail(err, REASON_CRASH, "%s: %.100s", p->name,
                               line);
        int a, b2, len = 0;
        if (sscanf(line, "%d,%d%n", &a, &b2, &len) == 2 && a >= 0 &&
            b2 >= 0 && !line[len + strspn(line + len, " \t\r")])
            break;
        /* MESSAGE, DEBUG, SUGGEST and the like: not the move */
    }
    line[strcspn(line, " \t\r")] = 0;
    T->synced = n + 1;      /* its own move is on its board */
    c->moved = 1;
    return player_text_move(p, c->g, st, line, m, err);
}

static void gc_end(Player *p, const double *result, Reason why,
                   int forfeited)
{
    (void)result;
    client_quit((Client *)p, "END", why, forfeited);
}

static const PlayerVtbl gc_vtbl = {gc_begin, gc_move, client_inform, gc_end,
                                   client_free, NULL};

Player *gomocup_client_new(const char *name, const char *cmd, int quiet,
                           const EngineWatch *watch, PlyError *err)
{
    GcClient *T = calloc(1, sizeof *T);
    if (!T) {
        ply_fail(err, "out of memory");
        return NULL;
    }
    if (client_init(&T->c, &gc_vtbl, name, cmd, quiet, watch, err)) {
        free(T);
        return NULL;
    }
    return &T->c.base;
}
