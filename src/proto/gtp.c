/* gtp.c — `ply gtp [GAME]`: Ply as a GTP version 2 engine (Go Text
 * Protocol) on a Session, for every game that declares a "gtp" format.
 * Vertices are spelled by that format (reversi: grhino's C4); colours are
 * b/black (seat 0) and w/white (seat 1). A `play` or `genmove` for the
 * side not to move is accepted when the side to move may only pass (or a
 * pass does not end the game): the pass is played first, and `undo` takes
 * it back with the move. Time: time_settings and time_left feed the one
 * time manager (timeman.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/format.h"
#include "../core/session.h"
#include "../core/setup.h"
#include "../core/timeman.h"
#include "../core/util.h"
#include "../core/version.h"
#include "gtp.h"

enum {
    GTP_LINE_MAX = 4096,
    GTP_MOVE_MAX = 256,
    GTP_DEFAULT_MOVE_MS = 1000,     /* no clock and no limit in the spec */
};

typedef struct Gtp {
    FILE *out;
    const GameVtbl *g;
    const GameFormat *f;
    const char *spec;
    uint64_t seed;
    char base_opts[256];            /* the options given on the command line */
    char opts[320];                 /* plus size=N from boardsize */
    Session *s;
    unsigned char *autopass;        /* per ply: a pass we inserted */
    int autopass_cap;
    double komi;
    /* time_settings: main, Canadian byo-yomi period and its stones */
    int timed;
    int64_t main_ms, byo_ms;
    int byo_stones;
    int64_t left_ms[2];
    int stones_left[2];             /* 0: in main time */
} Gtp;

static const char *const commands[] = {
    "protocol_version", "name", "version", "known_command", "list_commands",
    "quit", "boardsize", "clear_board", "komi", "play", "genmove", "undo",
    "showboard", "final_score", "time_settings", "time_left", NULL,
};

static int has_command(const Gtp *G, const char *name)
{
    if (!strcmp(name, "final_score") && !G->g->score && !G->f->score_text)
        return 0;
    for (int i = 0; commands[i]; i++)
        if (!strcmp(commands[i], name))
            return 1;
    return 0;
}

/* A success or failure reply; text may hold several lines (empty ones are
 * dropped: an empty line ends the reply). */
static void reply(Gtp *G, int ok, const char *id, const char *text)
{
    fprintf(G->out, "%c%s ", ok ? '=' : '?', id);
    int nl = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            nl = 1;
            continue;
        }
        if (nl)
            fputc('\n', G->out);
        nl = 0;
        fputc(*p, G->out);
    }
    fputs("\n\n", G->out);
    fflush(G->out);
}

static int game_option(const GameVtbl *g, const char *key)
{
    for (const GameOption *o = g->info.options; o && o->key; o++)
        if (!strcmp(o->key, key))
            return 1;
    return 0;
}

static void reset_clocks(Gtp *G)
{
    for (int c = 0; c < 2; c++) {
        G->left_ms[c] = G->main_ms;
        G->stones_left[c] = 0;
    }
    if (G->timed && G->main_ms == 0)    /* straight into byo-yomi */
        for (int c = 0; c < 2; c++) {
            G->left_ms[c] = G->byo_ms;
            G->stones_left[c] = G->byo_stones;
        }
}

/* A new session under G->opts; the old one stays on failure. */
static int new_session(Gtp *G, PlyError *err)
{
    Session *s = session_new(G->g, G->opts, G->spec, G->seed, err);
    if (!s)
        return -1;
    session_free(G->s);
    G->s = s;
    return 0;
}

/* Starts a new game with the option key set to value in G->opts (any
 * earlier key= replaced); on failure the options and game stay as they
 * were and -1 is returned. */
static int set_game_option(Gtp *G, const char *key, const char *value)
{
    char base[sizeof G->opts], opts[sizeof G->opts], old[sizeof G->opts];
    size_t kl = strlen(key), len = 0;
    snprintf(base, sizeof base, "%s", G->opts);
    snprintf(old, sizeof old, "%s", G->opts);
    opts[0] = 0;
    for (char *save = NULL, *t = strtok_r(base, ",", &save); t;
         t = strtok_r(NULL, ",", &save))
        if (!(strncmp(t, key, kl) == 0 && t[kl] == '=') && len < sizeof opts)
            len += (size_t)snprintf(opts + len, sizeof opts - len, "%s%s",
                                    len ? "," : "", t);
    if (len >= sizeof opts ||
        (size_t)snprintf(opts + len, sizeof opts - len, "%s%s=%s",
                         len ? "," : "", key, value) >= sizeof opts - len)
        return -1;
    snprintf(G->opts, sizeof G->opts, "%s", opts);
    PlyError err = {{0}};
    if (new_session(G, &err)) {
        snprintf(G->opts, sizeof G->opts, "%s", old);
        return -1;
    }
    return 0;
}

static int parse_color(const char *s)
{
    if (!strcasecmp(s, "b") || !strcasecmp(s, "black"))
        return 0;
    if (!strcasecmp(s, "w") || !strcasecmp(s, "white"))
        return 1;
    return -1;
}

static int mark_autopass(Gtp *G, int ply, int on)
{
    if (ply >= G->autopass_cap) {
        int cap = G->autopass_cap ? G->autopass_cap * 2 : 256;
        while (cap <= ply)
            cap *= 2;
        unsigned char *a = realloc(G->autopass, (size_t)cap);
        if (!a)
            return -1;
        memset(a + G->autopass_cap, 0, (size_t)(cap - G->autopass_cap));
        G->autopass = a;
        G->autopass_cap = cap;
    }
    G->autopass[ply] = (unsigned char)on;
    return 0;
}

/* Plays a move in Ply's notation, remembering whether we inserted it. */
static int play_own(Gtp *G, const char *text, int inserted, PlyError *err)
{
    int ply = session_ply(G->s);
    if (session_play_text(G->s, text, err))
        return -1;
    if (mark_autopass(G, ply, inserted)) {
        session_undo(G->s, 1);
        return ply_fail(err, "out of memory");
    }
    return 0;
}

/* Brings colour c to move: when the other side is to move and a pass is
 * legal for it that does not end the game, the pass is played. */
static int align_color(Gtp *G, int c)
{
    const void *st = session_state(G->s);
    int p = G->g->to_move(st);
    if (p == c)
        return 0;
    if (p == PLAYER_TERMINAL || p < 0)
        return -1;
    Move m;
    PlyError e = {{0}};
    if (G->g->text_to_move(st, "pass", &m, &e) ||
        !state_is_legal(G->g, st, m))
        return -1;
    void *after = state_alloc(G->g);
    if (!after)
        return -1;
    memcpy(after, st, G->g->info.state_size);
    G->g->make(after, m);
    int next = G->g->to_move(after);
    free(after);
    if (next != c)
        return -1;
    return play_own(G, "pass", 1, &e);
}

static int64_t clock_budget(Gtp *G, int c, int *limited)
{
    *limited = 0;
    if (!G->timed || (G->byo_stones == 0 && G->byo_ms > 0))
        return 0;   /* no time_settings, or "no time limit" */
    Clock k = {.left_ms = G->left_ms[c] > 0 ? G->left_ms[c] : 0};
    if (G->stones_left[c] > 0)
        k.moves_to_go = G->stones_left[c];
    else if (G->byo_ms > 0 && G->byo_stones > 0)
        k.byoyomi_ms = G->byo_ms / G->byo_stones;
    *limited = 1;
    return time_budget(G->g, session_state(G->s), &k,
                       G->seed + (uint64_t)session_ply(G->s));
}

static void cmd_genmove(Gtp *G, const char *id, const char *arg)
{
    int c = parse_color(arg);
    if (c < 0) {
        reply(G, 0, id, "invalid color");
        return;
    }
    const void *st = session_state(G->s);
    if (G->g->to_move(st) == PLAYER_TERMINAL) {
        reply(G, 1, id, "pass");
        return;
    }
    if (align_color(G, c)) {
        reply(G, 0, id, "not this color's turn");
        return;
    }
    st = session_state(G->s);
    int64_t t0 = now_ms();
    Limits lim = session_bot_limits(G->s);
    int limited;
    int64_t budget = clock_budget(G, c, &limited);
    if (limited && (!lim.time_ms || lim.time_ms > budget))
        lim.time_ms = budget;
    if (!limited && !lim.time_ms && !lim.nodes && !lim.depth)
        lim.time_ms = GTP_DEFAULT_MOVE_MS;
    PlyError err = {{0}};
    SearchInfo si;
    if (session_go(G->s, &lim, 0, &err)) {
        reply(G, 0, id, err.msg);
        return;
    }
    Move m = session_wait(G->s, &si);
    char own[GTP_MOVE_MAX], wire[GTP_MOVE_MAX];
    if (!state_is_legal(G->g, st, m) ||
        G->g->move_to_text(st, m, own, sizeof own) < 0 ||
        play_own(G, own, 0, &err)) {
        reply(G, 0, id, "the bot found no legal move");
        return;
    }
    if (G->timed) {     /* until the controller's next time_left */
        G->left_ms[c] -= now_ms() - t0;
        int period = G->byo_ms > 0 && G->byo_stones > 0;
        if (G->stones_left[c] == 0 && G->left_ms[c] <= 0 && period) {
            G->left_ms[c] = G->byo_ms;      /* main time spent */
            G->stones_left[c] = G->byo_stones;
        } else if (G->stones_left[c] > 0 && --G->stones_left[c] == 0) {
            G->left_ms[c] = G->byo_ms;      /* a new period */
            G->stones_left[c] = G->byo_stones;
        }
    }
    format_move_to_wire(G->f, own, wire, sizeof wire);
    reply(G, 1, id, wire);
}

static void cmd_play(Gtp *G, const char *id, char *args)
{
    char *color = strtok(args, " "), *vertex = strtok(NULL, " ");
    if (!color || !vertex || strtok(NULL, " ")) {
        reply(G, 0, id, "syntax error");
        return;
    }
    int c = parse_color(color);
    if (c < 0) {
        reply(G, 0, id, "invalid color");
        return;
    }
    char own[GTP_MOVE_MAX];
    if (strlen(vertex) >= 64 ||
        format_move_from_wire(G->f, vertex, own, sizeof own) < 0) {
        reply(G, 0, id, "invalid vertex");
        return;
    }
    int ply = session_ply(G->s);
    PlyError err = {{0}};
    if (G->g->to_move(session_state(G->s)) == PLAYER_TERMINAL ||
        align_color(G, c) || play_own(G, own, 0, &err)) {
        session_undo(G->s, session_ply(G->s) - ply);  /* an inserted pass */
        reply(G, 0, id, "illegal move");
        return;
    }
    reply(G, 1, id, "");
}

static void cmd_undo(Gtp *G, const char *id)
{
    int ply = session_ply(G->s);
    if (ply == 0) {
        reply(G, 0, id, "cannot undo");
        return;
    }
    int n = 1;
    while (ply - n > 0 && ply - n - 1 < G->autopass_cap &&
           G->autopass[ply - n - 1])
        n++;
    session_undo(G->s, n);
    reply(G, 1, id, "");
}

/* Plays forced passes on st: a position where nobody can do more than
 * pass is over for GTP controllers (reversi's last pass). */
static void forced_passes(const GameVtbl *g, void *st)
{
    Move *moves = malloc(sizeof *moves * (size_t)g->info.max_moves);
    char text[GTP_MOVE_MAX];
    for (int i = 0; moves && i <= g->info.num_players; i++) {
        if (g->to_move(st) < 0 || g->gen_moves(st, moves) != 1 ||
            g->move_to_text(st, moves[0], text, sizeof text) < 0 ||
            strcmp(text, "pass"))
            break;
        g->make(st, moves[0]);
    }
    free(moves);
}

static void cmd_final_score(Gtp *G, const char *id)
{
    void *st = state_alloc(G->g);
    if (!st) {
        reply(G, 0, id, "out of memory");
        return;
    }
    memcpy(st, session_state(G->s), G->g->info.state_size);
    forced_passes(G->g, st);
    if (G->g->to_move(st) != PLAYER_TERMINAL) {
        free(st);
        reply(G, 0, id, "cannot score");
        return;
    }
    double r[PLY_MAX_PLAYERS];
    G->g->returns(st, r);
    char buf[64];
    if (G->f->score_text) {
        int ok = G->f->score_text(st, buf, sizeof buf) > 0;
        free(st);
        reply(G, ok, id, ok ? buf : "cannot score");
        return;
    }
    int d = G->g->score(st, 0) - G->g->score(st, 1);
    if (r[0] == r[1])
        snprintf(buf, sizeof buf, "0");
    else
        snprintf(buf, sizeof buf, "%c+%d", r[0] > r[1] ? 'B' : 'W',
                 d < 0 ? -d : d);
    free(st);
    reply(G, 1, id, buf);
}

static int parse_int(const char *s, long long *v)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return *end || errno || *v < 0 || *v > 1000000000 ? -1 : 0;
}

static void cmd_time_settings(Gtp *G, const char *id, char *args)
{
    long long m, b, s;
    char *a = strtok(args, " "), *bb = strtok(NULL, " "),
         *c = strtok(NULL, " ");
    if (parse_int(a, &m) || parse_int(bb, &b) || parse_int(c, &s) ||
        strtok(NULL, " ")) {
        reply(G, 0, id, "syntax error");
        return;
    }
    G->timed = 1;
    G->main_ms = m * 1000;
    G->byo_ms = b * 1000;
    G->byo_stones = (int)s;
    reset_clocks(G);
    reply(G, 1, id, "");
}

static void cmd_time_left(Gtp *G, const char *id, char *args)
{
    long long t, s;
    char *a = strtok(args, " "), *b = strtok(NULL, " "),
         *c = strtok(NULL, " ");
    int col = a ? parse_color(a) : -1;
    if (col < 0 || parse_int(b, &t) || parse_int(c, &s) ||
        strtok(NULL, " ")) {
        reply(G, 0, id, col < 0 && a && b && c ? "invalid color"
                                               : "syntax error");
        return;
    }
    if (!G->timed) {    /* a controller that sends no time_settings */
        G->timed = 1;
        G->main_ms = t * 1000;
    }
    G->left_ms[col] = t * 1000;
    G->stones_left[col] = (int)s;
    reply(G, 1, id, "");
}

static void cmd_boardsize(Gtp *G, const char *id, const char *arg)
{
    long long n;
    if (parse_int(arg, &n)) {
        reply(G, 0, id, "syntax error");
        return;
    }
    PlyError err = {{0}};
    if (game_option(G->g, "size")) {
        char v[32];
        snprintf(v, sizeof v, "%lld", n);
        if (set_game_option(G, "size", v)) {
            reply(G, 0, id, "unacceptable size");
            return;
        }
    } else if (n != G->f->board_size) {
        reply(G, 0, id, "unacceptable size");
        return;
    } else if (session_new_game(G->s, &err)) {
        reply(G, 0, id, err.msg);
        return;
    }
    reset_clocks(G);
    reply(G, 1, id, "");
}

/* komi: a game with a "komi" option starts again with it (GTP sends komi
 * with boardsize and clear_board, before the game); others ignore it. */
static void cmd_komi(Gtp *G, const char *id, double k)
{
    if (game_option(G->g, "komi")) {
        char v[32];
        snprintf(v, sizeof v, "%g", k);
        if (set_game_option(G, "komi", v)) {
            reply(G, 0, id, "unacceptable komi");
            return;
        }
        reset_clocks(G);
    }
    reply(G, 1, id, "");
}

/* One command line (comments and control characters gone). Returns 1 on
 * quit. */
static int command(Gtp *G, char *line)
{
    char id[24] = "";
    char *p = line;
    while (*p == ' ')
        p++;
    if (isdigit((unsigned char)*p)) {
        size_t n = strspn(p, "0123456789");
        if (n >= sizeof id)
            n = sizeof id - 1;
        memcpy(id, p, n);
        p += strspn(p, "0123456789");
        while (*p == ' ')
            p++;
    }
    char *cmd = p;
    p += strcspn(p, " ");
    if (*p)
        *p++ = 0;
    while (*p == ' ')
        p++;
    size_t al = strlen(p);
    while (al && p[al - 1] == ' ')
        p[--al] = 0;
    char *args = p;
    PlyError err = {{0}};
    char buf[GTP_LINE_MAX + 64];
    if (!*cmd) {
        reply(G, 0, id, "syntax error");
    } else if (!strcmp(cmd, "protocol_version")) {
        reply(G, 1, id, "2");
    } else if (!strcmp(cmd, "name")) {
        reply(G, 1, id, "Ply");
    } else if (!strcmp(cmd, "version")) {
        reply(G, 1, id, ply_version());
    } else if (!strcmp(cmd, "known_command")) {
        reply(G, 1, id, has_command(G, args) ? "true" : "false");
    } else if (!strcmp(cmd, "list_commands")) {
        size_t n = 0;
        buf[0] = 0;
        for (int i = 0; commands[i]; i++)
            if (has_command(G, commands[i]))
                n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s",
                                      n ? "\n" : "", commands[i]);
        reply(G, 1, id, buf);
    } else if (!strcmp(cmd, "quit")) {
        reply(G, 1, id, "");
        return 1;
    } else if (!strcmp(cmd, "boardsize")) {
        cmd_boardsize(G, id, args);
    } else if (!strcmp(cmd, "clear_board")) {
        if (session_new_game(G->s, &err)) {
            reply(G, 0, id, err.msg);
        } else {
            reset_clocks(G);
            reply(G, 1, id, "");
        }
    } else if (!strcmp(cmd, "komi")) {
        char *end;
        double k = strtod(args, &end);
        if (!*args || *end) {
            reply(G, 0, id, "syntax error");
        } else {
            G->komi = k;    /* games without komi take note and ignore it */
            cmd_komi(G, id, k);
        }
    } else if (!strcmp(cmd, "play")) {
        cmd_play(G, id, args);
    } else if (!strcmp(cmd, "genmove")) {
        cmd_genmove(G, id, args);
    } else if (!strcmp(cmd, "undo")) {
        cmd_undo(G, id);
    } else if (!strcmp(cmd, "showboard")) {
        buf[0] = '\n';
        if (G->g->render(session_state(G->s), buf + 1, sizeof buf - 1) < 0)
            reply(G, 0, id, "cannot draw the board");
        else
            reply(G, 1, id, buf);
    } else if (!strcmp(cmd, "final_score") &&
               (G->g->score || G->f->score_text)) {
        cmd_final_score(G, id);
    } else if (!strcmp(cmd, "time_settings")) {
        cmd_time_settings(G, id, args);
    } else if (!strcmp(cmd, "time_left")) {
        cmd_time_left(G, id, args);
    } else {
        reply(G, 0, id, "unknown command");
    }
    return 0;
}

int gtp_run(FILE *in, FILE *out, const GameVtbl *g, const char *options,
            const char *spec, uint64_t seed, PlyError *err)
{
    Gtp G;
    memset(&G, 0, sizeof G);
    G.out = out;
    G.g = g;
    G.f = game_format(g, "gtp");
    G.spec = spec;
    G.seed = seed;
    if (!G.f || g->info.num_players != 2)
        return ply_fail(err, "%s does not speak GTP", g->info.name);
    if (options && strlen(options) >= sizeof G.base_opts)
        return ply_fail(err, "options too long");
    snprintf(G.base_opts, sizeof G.base_opts, "%s", options ? options : "");
    snprintf(G.opts, sizeof G.opts, "%s", G.base_opts);
    if (new_session(&G, err))
        return -1;
    char line[GTP_LINE_MAX];
    while (fgets(line, sizeof line, in)) {
        if (!strchr(line, '\n') && !feof(in)) {
            int ch;     /* too long: drop the rest */
            while ((ch = fgetc(in)) != EOF && ch != '\n')
                ;
        }
        /* comments go; tabs are spaces; other control characters go */
        line[strcspn(line, "#")] = 0;
        char *w = line;
        for (char *r = line; *r; r++) {
            if (*r == '\t')
                *r = ' ';
            if ((unsigned char)*r >= 32 && *r != 127)
                *w++ = *r;
        }
        *w = 0;
        if (!line[strspn(line, " ")])
            continue;
        if (command(&G, line))
            break;
    }
    session_free(G.s);
    free(G.autopass);
    return 0;
}
