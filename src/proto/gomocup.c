/* gomocup.c — `ply gomocup [GAME]`: a Gomocup brain on a Session, for the
 * games that declare a "gomocup" format (the Piskvork protocol).
 *
 * Commands, one a line (CR LF, LF or CR; case does not matter):
 *   START n / RECTSTART n,n   a new n x n game (the game's "size" option)
 *   RESTART                    a new game of the same size
 *   BEGIN                      we move first: answer "x,y"
 *   TURN x,y                   the opponent's move: answer ours
 *   BOARD ... DONE             a position, "x,y,1" ours, "x,y,2" theirs:
 *                              answer our move
 *   TAKEBACK x,y               the last move at x,y goes: "OK"
 *   INFO key value             timeout_turn, timeout_match, time_left (ms),
 *                              max_memory, rule (bit 1 exactly five, bit 4
 *                              renju), game_type, folder: no answer
 *   ABOUT                      name="Ply", version=...
 *   END                        exits
 * Coordinates are 0-based x,y with y = 0 the top row. A move the rules
 * refuse gets "ERROR" naming the rule (renju: a forbidden point). The
 * move's time comes from the one time manager (timeman.h): the match clock
 * (time_left over the moves the game expects) capped by timeout_turn. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/format.h"
#include "../core/session.h"
#include "../core/setup.h"
#include "../core/timeman.h"
#include "../core/version.h"
#include "gomocup.h"

enum { GC_LINE_MAX = 4096, GC_MOVE_MAX = 64, GC_DEFAULT_MOVE_MS = 1000,
       GC_FAST_MS = 50 };

typedef struct Gc {
    FILE *in, *out;
    const GameVtbl *g;
    const char *spec;
    uint64_t seed;
    char opts[320];
    Session *s;
    int64_t timeout_turn, timeout_match, time_left;   /* ms; -1 unset */
} Gc;

static void say(Gc *G, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void say(Gc *G, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(G->out, fmt, ap);
    va_end(ap);
    fputc('\n', G->out);
    fflush(G->out);
}

static int has_option(const GameVtbl *g, const char *key)
{
    for (const GameOption *o = g->info.options; o && o->key; o++)
        if (!strcmp(o->key, key))
            return 1;
    return 0;
}

/* A new session with key=value in the options (any earlier key=
 * replaced); on failure everything stays as it was. */
static int set_option(Gc *G, const char *key, const char *value,
                      PlyError *err)
{
    char base[sizeof G->opts], opts[sizeof G->opts];
    size_t kl = strlen(key), len = 0;
    snprintf(base, sizeof base, "%s", G->opts);
    opts[0] = 0;
    for (char *save = NULL, *t = strtok_r(base, ",", &save); t;
         t = strtok_r(NULL, ",", &save))
        if (!(strncmp(t, key, kl) == 0 && t[kl] == '=') && len < sizeof opts)
            len += (size_t)snprintf(opts + len, sizeof opts - len, "%s%s",
                                    len ? "," : "", t);
    if (len >= sizeof opts ||
        (size_t)snprintf(opts + len, sizeof opts - len, "%s%s=%s",
                         len ? "," : "", key, value) >= sizeof opts - len)
        return ply_fail(err, "options too long");
    Session *s = session_new(G->g, opts, G->spec, G->seed, err);
    if (!s)
        return -1;
    session_free(G->s);
    G->s = s;
    snprintf(G->opts, sizeof G->opts, "%s", opts);
    return 0;
}

/* The board's size: the rows of the setup string. */
static int board_size(Gc *G)
{
    char buf[1024];
    if (G->g->to_text(session_state(G->s), buf, sizeof buf) < 0)
        return 0;
    int n = 1;
    for (const char *p = buf; *p && *p != ' '; p++)
        n += *p == '/';
    return n;
}

/* Our move in Ply's notation ("h8") to the wire's "x,y". */
static int to_wire(Gc *G, const char *own, char *buf, size_t n)
{
    int size = board_size(G);
    if (!isalpha((unsigned char)own[0]))
        return -1;
    int x = tolower((unsigned char)own[0]) - 'a';
    int row = atoi(own + 1);
    if (x < 0 || x >= size || row < 1 || row > size)
        return -1;
    int w = snprintf(buf, n, "%d,%d", x, size - row);
    return w < 0 || (size_t)w >= n ? -1 : w;
}

/* "x,y" with two non-negative numbers; the rest of the line after them
 * in *rest. */
static int parse_xy(const char *s, int *x, int *y, const char **rest)
{
    char *e;
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    long a = strtol(s, &e, 10);
    if (*e != ',' || !isdigit((unsigned char)e[1]))
        return -1;
    long b = strtol(e + 1, &e, 10);
    if (a > 1000 || b > 1000)
        return -1;
    *x = (int)a;
    *y = (int)b;
    if (rest)
        *rest = e;
    return 0;
}

int gomocup_rules(const GameVtbl *g, int *nums, int max)
{
    const char *v = format_variant_name(g, "gomocup");
    int n = 0;
    while (v && *v && n < max) {
        char *e;
        long x = strtol(v, &e, 10);
        if (e == v)
            break;
        nums[n++] = (int)x;
        v = *e == ',' ? e + 1 : NULL;
    }
    return n;
}

int gomocup_rule_of(long long v)
{
    /* bits: 1 exactly five, 2 continuous game, 4 renju, 8 caro */
    return (v & 4) ? 4 : (v & 1) ? 1 : 0;
}

/* The choice of option key whose index is i, or NULL. */
static const char *choice_at(const GameVtbl *g, const char *key, int i)
{
    for (const GameOption *o = g->info.options; o && o->key; o++)
        if (!strcmp(o->key, key) && o->type == OPT_CHOICE) {
            for (int k = 0; o->choices[k]; k++)
                if (k == i)
                    return o->choices[k];
            return NULL;
        }
    return NULL;
}

/* The move's budget; *spend (Limits.spend_all) when the turn's own
 * limit decides it, which a move cannot bank. */
static int64_t move_budget(Gc *G, int *spend)
{
    Limits lim = session_bot_limits(G->s);
    int64_t turn = -1;
    if (G->timeout_turn == 0)
        turn = GC_FAST_MS;
    else if (G->timeout_turn > 0)
        turn = G->timeout_turn - G->timeout_turn / 20 - 30;
    int64_t match = -1;
    if (G->timeout_match > 0 && G->time_left >= 0) {
        Clock k = {.left_ms = G->time_left};
        match = time_budget(G->g, session_state(G->s), &k,
                            G->seed + (uint64_t)session_ply(G->s));
    }
    int64_t b = turn;
    *spend = G->timeout_turn > 0;
    if (match >= 0 && (b < 0 || match < b)) {
        b = match;
        *spend = 0;
    }
    if (b < 0)
        b = lim.time_ms > 0 ? lim.time_ms : GC_DEFAULT_MOVE_MS;
    else if (lim.time_ms > 0 && lim.time_ms < b) {
        b = lim.time_ms;
        *spend = 0;
    }
    return b < 1 ? 1 : b;
}

/* Thinks and plays our move; prints it or an ERROR. */
static void think(Gc *G)
{
    const void *st = session_state(G->s);
    if (G->g->to_move(st) < 0) {
        say(G, "ERROR the game is over");
        return;
    }
    Limits lim = session_bot_limits(G->s);
    lim.time_ms = move_budget(G, &lim.spend_all);
    PlyError err = {{0}};
    SearchInfo si;
    if (session_go(G->s, &lim, 0, &err)) {
        say(G, "ERROR %s", err.msg);
        return;
    }
    Move m = session_wait(G->s, &si);
    st = session_state(G->s);
    char own[GC_MOVE_MAX], wire[GC_MOVE_MAX];
    if (!state_is_legal(G->g, st, m) ||
        G->g->move_to_text(st, m, own, sizeof own) < 0 ||
        to_wire(G, own, wire, sizeof wire) < 0 ||
        session_play(G->s, m, &err)) {
        say(G, "ERROR the bot found no legal move");
        return;
    }
    if (G->time_left > 0 && si.seconds > 0) {
        G->time_left -= (int64_t)(si.seconds * 1000);
        if (G->time_left < 0)
            G->time_left = 0;
    }
    say(G, "%s", wire);
}

/* The opponent's (or, in BOARD, anyone's) move at x,y. */
static int play_xy(Gc *G, int x, int y, PlyError *err)
{
    int size = board_size(G);
    if (x >= size || y >= size)
        return ply_fail(err, "%d,%d is off the %dx%d board", x, y, size,
                        size);
    char t[32];
    snprintf(t, sizeof t, "%d,%d", x, y);
    return session_play_text(G->s, t, err);
}

static void cmd_start(Gc *G, const char *arg, int rect)
{
    PlyError err = {{0}};
    int n, h;
    char *e;
    n = (int)strtol(arg, &e, 10);
    if (rect) {
        if (*e != ',')
            { say(G, "ERROR RECTSTART wants width,height"); return; }
        h = (int)strtol(e + 1, &e, 10);
        if (h != n)
            { say(G, "ERROR only square boards are supported"); return; }
    }
    while (isspace((unsigned char)*e))
        e++;
    if (e == arg || *e || n < 1)
        { say(G, "ERROR START wants the board size"); return; }
    char v[16];
    snprintf(v, sizeof v, "%d", n);
    if (!has_option(G->g, "size")) {
        if (n != board_size(G))
            { say(G, "ERROR unsupported size %d", n); return; }
        if (session_new_game(G->s, &err))
            { say(G, "ERROR %s", err.msg); return; }
    } else if (set_option(G, "size", v, &err)) {
        { say(G, "ERROR unsupported size %d: %s", n, err.msg); return; }
    }
    say(G, "OK");
}

/* BOARD: stones until DONE. Ours are 1, theirs 2; with equal counts we
 * are Black, with one more of theirs White. The stones are placed as a
 * position (their order is not needed by the rules). */
static void cmd_board(Gc *G)
{
    int size = board_size(G);
    char *grid = calloc((size_t)size * (size_t)size, 1);
    char line[GC_LINE_MAX];
    int mine = 0, theirs = 0, bad = 0;
    char why[128] = "";
    if (!grid)
        { say(G, "ERROR out of memory"); return; }
    memset(grid, '.', (size_t)size * (size_t)size);
    int done = 0;
    while (fgets(line, sizeof line, G->in)) {
        line[strcspn(line, "\r\n")] = 0;
        const char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            continue;
        if (!strncasecmp(p, "DONE", 4)) {
            done = 1;
            break;
        }
        int x, y, c;
        const char *rest;
        if (parse_xy(p, &x, &y, &rest) || *rest != ',' ||
            (c = atoi(rest + 1)) < 1 || c > 3) {
            if (!bad)
                snprintf(why, sizeof why, "bad BOARD line '%.60s'", p);
            bad = 1;
            continue;
        }
        if (c == 3 || x >= size || y >= size ||
            grid[y * size + x] != '.') {
            if (!bad)
                snprintf(why, sizeof why, "%s at %d,%d",
                         c == 3 ? "walls are not supported"
                                : "a stone off the board or twice", x, y);
            bad = 1;
            continue;
        }
        grid[y * size + x] = (char)c;
        mine += c == 1;
        theirs += c == 2;
    }
    if (!done) {
        free(grid);
        return;     /* end of input inside BOARD */
    }
    if (!bad && mine != theirs && theirs != mine + 1) {
        snprintf(why, sizeof why, "%d own and %d opponent's stones: not our "
                 "turn", mine, theirs);
        bad = 1;
    }
    if (bad) {
        free(grid);
        { say(G, "ERROR %s", why); return; }
    }
    int we_black = mine == theirs;
    size_t len = (size_t)size * (size_t)(size + 1) + 4;
    char *setup = malloc(len);
    if (!setup) {
        free(grid);
        { say(G, "ERROR out of memory"); return; }
    }
    size_t k = 0;
    for (int y = 0; y < size; y++) {
        for (int x = 0; x < size; x++) {
            char c = grid[y * size + x];
            setup[k++] = c == '.' ? '.' : ((c == 1) == we_black) ? 'x' : 'o';
        }
        setup[k++] = y + 1 < size ? '/' : ' ';
    }
    setup[k++] = we_black ? 'b' : 'w';
    setup[k] = 0;
    free(grid);
    PlyError err = {{0}};
    int r = session_set_position(G->s, setup, NULL, &err);
    free(setup);
    if (r)
        { say(G, "ERROR %s", err.msg); return; }
    think(G);
}

static void cmd_info(Gc *G, const char *arg)
{
    char key[64];
    int n = 0;
    while (*arg && !isspace((unsigned char)*arg) && n < 63)
        key[n++] = (char)tolower((unsigned char)*arg++);
    key[n] = 0;
    while (isspace((unsigned char)*arg))
        arg++;
    long long v = strtoll(arg, NULL, 10);
    if (!strcmp(key, "timeout_turn")) {
        G->timeout_turn = v < 0 ? -1 : v;
    } else if (!strcmp(key, "timeout_match")) {
        G->timeout_match = v < 0 ? -1 : v;
    } else if (!strcmp(key, "time_left")) {
        G->time_left = v < 0 ? 0 : v;
    } else if (!strcmp(key, "rule")) {
        int nums[8], nr = gomocup_rules(G->g, nums, 8), want = -1;
        for (int i = 0; i < nr; i++)
            if (nums[i] == gomocup_rule_of(v))
                want = i;
        PlyError err = {{0}};
        if (v & 8) {
            say(G, "ERROR rule %lld: caro is not supported", v);
        } else if (want < 0) {
            say(G, "ERROR rule %lld: this game plays rule %s only", v,
                format_variant_name(G->g, "gomocup"));
        } else if (has_option(G->g, "rule") && session_ply(G->s) == 0) {
            const char *c = choice_at(G->g, "rule", want);
            if (!c || set_option(G, "rule", c, &err))
                say(G, "ERROR rule %lld: %s", v, c ? err.msg : "no such "
                    "rule");
        }
    }
    /* max_memory, game_type, folder, evaluate: nothing to do */
}

static int command(Gc *G, char *line)
{
    char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    char cmd[32];
    int n = 0;
    while (*p && !isspace((unsigned char)*p) && n < 31)
        cmd[n++] = (char)toupper((unsigned char)*p++);
    cmd[n] = 0;
    while (isspace((unsigned char)*p))
        p++;
    PlyError err = {{0}};
    if (!strcmp(cmd, "END")) {
        return 1;
    } else if (!strcmp(cmd, "START")) {
        cmd_start(G, p, 0);
    } else if (!strcmp(cmd, "RECTSTART")) {
        cmd_start(G, p, 1);
    } else if (!strcmp(cmd, "RESTART")) {
        if (session_new_game(G->s, &err))
            say(G, "ERROR %s", err.msg);
        else
            say(G, "OK");
    } else if (!strcmp(cmd, "BEGIN")) {
        if (session_ply(G->s) != 0)
            say(G, "ERROR BEGIN on a board with stones");
        else
            think(G);
    } else if (!strcmp(cmd, "TURN")) {
        int x, y;
        const char *rest;
        if (parse_xy(p, &x, &y, &rest) || rest[strspn(rest, " \t")])
            say(G, "ERROR TURN wants x,y");
        else if (play_xy(G, x, y, &err))
            say(G, "ERROR %s", err.msg);
        else
            think(G);
    } else if (!strcmp(cmd, "BOARD")) {
        cmd_board(G);
    } else if (!strcmp(cmd, "TAKEBACK")) {
        int x, y, ply = session_ply(G->s);
        const char *rest;
        char own[GC_MOVE_MAX], wire[GC_MOVE_MAX], want[32];
        if (parse_xy(p, &x, &y, &rest) || ply == 0) {
            say(G, "ERROR TAKEBACK wants the last move's x,y");
        } else {
            const void *before = session_state_at(G->s, ply - 1);
            snprintf(want, sizeof want, "%d,%d", x, y);
            if (G->g->move_to_text(before, session_move_at(G->s, ply - 1),
                                   own, sizeof own) < 0 ||
                to_wire(G, own, wire, sizeof wire) < 0 || strcmp(wire, want))
                say(G, "ERROR %s is not the last move", want);
            else if (session_undo(G->s, 1) != 1)
                say(G, "ERROR cannot take back");
            else
                say(G, "OK");
        }
    } else if (!strcmp(cmd, "INFO")) {
        cmd_info(G, p);
    } else if (!strcmp(cmd, "ABOUT")) {
        say(G, "name=\"Ply\", version=\"%s\", author=\"the Ply authors\", "
            "country=\"-\", www=\"-\"", ply_version());
    } else {
        say(G, "UNKNOWN command '%s'", cmd);
    }
    return 0;
}

int gomocup_run(FILE *in, FILE *out, const GameVtbl *g, const char *options,
                const char *spec, uint64_t seed, PlyError *err)
{
    Gc G;
    memset(&G, 0, sizeof G);
    G.in = in;
    G.out = out;
    G.g = g;
    G.spec = spec;
    G.seed = seed;
    G.timeout_turn = G.timeout_match = G.time_left = -1;
    if (!game_format(g, "gomocup") || g->info.num_players != 2)
        return ply_fail(err, "%s does not speak the Gomocup protocol",
                        g->info.name);
    if (options && strlen(options) >= 256)
        return ply_fail(err, "options too long");
    snprintf(G.opts, sizeof G.opts, "%s", options ? options : "");
    G.s = session_new(g, G.opts, spec, seed, err);
    if (!G.s)
        return -1;
    char line[GC_LINE_MAX];
    while (fgets(line, sizeof line, in)) {
        if (!strchr(line, '\n') && !feof(in)) {
            int ch;     /* too long: drop the rest */
            while ((ch = fgetc(in)) != EOF && ch != '\n')
                ;
        }
        line[strcspn(line, "\r\n")] = 0;
        for (char *r = line; *r; r++)
            if ((unsigned char)*r < 32 || *r == 127)
                *r = ' ';
        if (!line[strspn(line, " ")])
            continue;
        if (command(&G, line))
            break;
    }
    session_free(G.s);
    return 0;
}
