/* gtp.c — `ply gtp [GAME]`: Ply as a GTP version 2 engine (Go Text
 * Protocol) on a Session, for every game that declares a "gtp" format.
 * Vertices are spelled by that format (reversi: grhino's C4); colours are
 * b/black (seat 0) and w/white (seat 1). A `play` or `genmove` for the
 * side not to move is accepted when the side to move may only pass (or a
 * pass does not end the game): the pass is played first, and `undo` takes
 * it back with the move. Time: time_settings and time_left feed the one
 * time manager (timeman.h). loadsgf and printsgf go through the game's
 * "sgf" format; the handicap commands, final_status_list and
 * kgs-genmove_cleanup through the GTP format's stone hooks (go). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/format.h"
#include "../core/record.h"
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
    int handicap_cmd;               /* handicap= set by fixed_handicap */
} Gtp;

static const char *const commands[] = {
    "protocol_version", "name", "version", "known_command", "list_commands",
    "quit", "boardsize", "clear_board", "komi", "play", "genmove", "undo",
    "showboard", "final_score", "time_settings", "time_left",
    "reg_genmove", "kgs-genmove_cleanup", "final_status_list",
    "fixed_handicap", "place_free_handicap", "set_free_handicap", "loadsgf",
    "printsgf", NULL,
};

static int game_option(const GameVtbl *g, const char *key);

static int has_command(const Gtp *G, const char *name)
{
    if (!strcmp(name, "final_score") && !G->g->score && !G->f->score_text)
        return 0;
    if ((!strcmp(name, "kgs-genmove_cleanup") && !G->f->cleanup_moves) ||
        (!strcmp(name, "final_status_list") && !G->f->stones) ||
        (!strcmp(name, "set_free_handicap") &&
         (!G->f->handicap_setup || !G->f->stones)))
        return 0;
    if ((!strcmp(name, "fixed_handicap") ||
         !strcmp(name, "place_free_handicap")) &&
        (!G->f->stones || !game_option(G->g, "handicap")))
        return 0;
    const GameFormat *sgf = game_format(G->g, "sgf");
    if ((!strcmp(name, "loadsgf") && (!sgf || !sgf->read_records)) ||
        (!strcmp(name, "printsgf") && (!sgf || !sgf->write_record)))
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

/* opts (a buffer of n bytes) with key set to value (replacing an earlier
 * key=, appended when absent; removed when value is NULL); -1 when the
 * result does not fit, opts then unchanged. */
static int opt_set(char *opts, size_t n, const char *key, const char *value)
{
    char base[512], out[512];
    size_t kl = strlen(key), len = 0;
    if (strlen(opts) >= sizeof base || n > sizeof out)
        return -1;
    snprintf(base, sizeof base, "%s", opts);
    out[0] = 0;
    for (char *save = NULL, *t = strtok_r(base, ",", &save); t;
         t = strtok_r(NULL, ",", &save))
        if (!(strncmp(t, key, kl) == 0 && t[kl] == '=')) {
            len += (size_t)snprintf(out + len, n - len, "%s%s",
                                    len ? "," : "", t);
            if (len >= n)
                return -1;
        }
    if (value) {
        len += (size_t)snprintf(out + len, n - len, "%s%s=%s",
                                len ? "," : "", key, value);
        if (len >= n)
            return -1;
    }
    memcpy(opts, out, len + 1);
    return 0;
}

/* The value of key in opts into buf; -1 when absent. */
static int opt_get(const char *opts, const char *key, char *buf, size_t n)
{
    size_t kl = strlen(key);
    for (const char *p = opts; p && *p;) {
        if (strncmp(p, key, kl) == 0 && p[kl] == '=') {
            size_t vl = strcspn(p + kl + 1, ",");
            snprintf(buf, n, "%.*s", (int)vl, p + kl + 1);
            return 0;
        }
        p = strchr(p, ',');
        if (p)
            p++;
    }
    return -1;
}

/* Starts a new game with the option key set to value in G->opts (NULL:
 * the key removed); on failure the options and game stay as they were
 * and -1 is returned. */
static int set_game_option(Gtp *G, const char *key, const char *value)
{
    char old[sizeof G->opts];
    snprintf(old, sizeof old, "%s", G->opts);
    if (opt_set(G->opts, sizeof G->opts, key, value))
        return -1;
    PlyError err = {{0}};
    if (new_session(G, &err)) {
        snprintf(G->opts, sizeof G->opts, "%s", old);
        return -1;
    }
    return 0;
}

/* clear_board and boardsize forget a handicap= that fixed_handicap set
 * (the one of the command line comes back). */
static int drop_gtp_handicap(Gtp *G)
{
    if (!G->handicap_cmd)
        return 0;
    char v[32];
    int had = opt_get(G->base_opts, "handicap", v, sizeof v) == 0;
    if (opt_set(G->opts, sizeof G->opts, "handicap", had ? v : NULL))
        return -1;
    G->handicap_cmd = 0;
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

/* The move's budget from time_settings (*limited: there was one) and
 * whether it is the move's own (*spend, Limits.spend_all: the last
 * stone of a byoyomi period, or byoyomi of one stone a period with the
 * main time spent). */
static int64_t clock_budget(Gtp *G, int c, int *limited, int *spend)
{
    *limited = *spend = 0;
    if (!G->timed || (G->byo_stones == 0 && G->byo_ms > 0))
        return 0;   /* no time_settings, or "no time limit" */
    Clock k = {.left_ms = G->left_ms[c] > 0 ? G->left_ms[c] : 0};
    if (G->stones_left[c] > 0)
        k.moves_to_go = G->stones_left[c];
    else if (G->byo_ms > 0 && G->byo_stones > 0)
        k.byoyomi_ms = G->byo_ms / G->byo_stones;
    *limited = 1;
    *spend = G->stones_left[c] == 1 ||
             (G->byo_stones == 1 && time_spend_all(G->g, &k));
    return time_budget(G->g, session_state(G->s), &k,
                       G->seed + (uint64_t)session_ply(G->s));
}

enum { GENMOVE_PLAY, GENMOVE_REG, GENMOVE_CLEANUP };

/* genmove, reg_genmove (the move is not played: the position and the
 * clocks stay) and kgs-genmove_cleanup (a pass of the bot is replaced by
 * a move at the opponent's dead stones while there are any). */
static void cmd_genmove(Gtp *G, const char *id, const char *arg, int mode)
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
    int ply0 = session_ply(G->s);
    if (align_color(G, c)) {
        reply(G, 0, id, "not this color's turn");
        return;
    }
    st = session_state(G->s);
    int64_t t0 = now_ms();
    Limits lim = session_bot_limits(G->s);
    int limited, spend;
    int64_t budget = clock_budget(G, c, &limited, &spend);
    if (limited && (!lim.time_ms || lim.time_ms > budget)) {
        lim.time_ms = budget;
        lim.spend_all = spend;
    }
    if (!limited && !lim.time_ms && !lim.nodes && !lim.depth)
        lim.time_ms = GTP_DEFAULT_MOVE_MS;
    PlyError err = {{0}};
    SearchInfo si;
    if (session_go(G->s, &lim, 0, &err)) {
        session_undo(G->s, session_ply(G->s) - ply0);
        reply(G, 0, id, err.msg);
        return;
    }
    Move m = session_wait(G->s, &si);
    char own[GTP_MOVE_MAX], wire[GTP_MOVE_MAX];
    if (mode == GENMOVE_CLEANUP && G->f->cleanup_moves &&
        G->g->move_to_text(st, m, own, sizeof own) >= 0 &&
        !strcmp(own, "pass")) {
        Move *mv = malloc(sizeof *mv * (size_t)G->g->info.max_moves);
        if (mv && G->f->cleanup_moves(st, G->seed + (uint64_t)ply0, mv,
                                      G->g->info.max_moves) > 0)
            m = mv[0];
        free(mv);
    }
    if (!state_is_legal(G->g, st, m) ||
        G->g->move_to_text(st, m, own, sizeof own) < 0 ||
        (mode != GENMOVE_REG && play_own(G, own, 0, &err))) {
        session_undo(G->s, session_ply(G->s) - ply0);
        reply(G, 0, id, "the bot found no legal move");
        return;
    }
    if (mode == GENMOVE_REG)    /* and a pass we inserted goes too */
        session_undo(G->s, session_ply(G->s) - ply0);
    if (G->timed && mode != GENMOVE_REG) { /* until the next time_left */
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

int gtp_score_text(const GameVtbl *g, const GameFormat *f, const void *st,
                   char *buf, size_t n)
{
    if (g->to_move(st) != PLAYER_TERMINAL)
        return -1;
    if (f->score_text)
        return f->score_text(st, buf, n);
    if (!g->score)
        return -1;
    double r[PLY_MAX_PLAYERS];
    g->returns(st, r);
    int d = g->score(st, 0) - g->score(st, 1);
    int len = r[0] == r[1] ? snprintf(buf, n, "0")
              : snprintf(buf, n, "%c+%d", r[0] > r[1] ? 'B' : 'W',
                         d < 0 ? -d : d);
    return len < 0 || (size_t)len >= n ? -1 : len;
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
    char buf[64];
    int ok = gtp_score_text(G->g, G->f, st, buf, sizeof buf) > 0;
    free(st);
    reply(G, ok, id, ok ? buf : "cannot score");
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
        drop_gtp_handicap(G);
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

/* Moves as wire vertices, separated by sep, into buf (n bytes); -1 when
 * they do not fit. */
static int vertex_list(Gtp *G, const void *st, const Move *mv, int k,
                       const char *sep, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < k; i++) {
        char own[GTP_MOVE_MAX], wire[GTP_MOVE_MAX];
        if (G->g->move_to_text(st, mv[i], own, sizeof own) < 0)
            return -1;
        format_move_to_wire(G->f, own, wire, sizeof wire);
        len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? sep : "",
                                wire);
        if (len >= n)
            return -1;
    }
    return 0;
}

/* The stones on the board (-1 on failure), into a new array *out. */
static int board_stones(Gtp *G, int player, int status, Move **out)
{
    int max = G->g->info.max_moves;
    *out = malloc(sizeof **out * (size_t)max);
    if (!*out)
        return -1;
    return G->f->stones(session_state(G->s), player, status,
                        G->seed + (uint64_t)session_ply(G->s), *out, max);
}

/* final_status_list alive|dead|seki: one vertex a line. */
static void cmd_final_status_list(Gtp *G, const char *id, const char *arg)
{
    int status = !strcmp(arg, "alive") ? GTP_ALIVE
               : !strcmp(arg, "dead") ? GTP_DEAD
               : !strcmp(arg, "seki") ? GTP_SEKI : -1;
    if (status < 0) {
        reply(G, 0, id, "invalid status");
        return;
    }
    Move *mv;
    int k = board_stones(G, -1, status, &mv);
    size_t n = 8 * (size_t)G->g->info.max_moves + 1;
    char *buf = malloc(n);
    if (k < 0 || !buf ||
        vertex_list(G, session_state(G->s), mv, k, "\n", buf, n))
        reply(G, 0, id, "cannot judge the stones");
    else
        reply(G, 1, id, buf);
    free(mv);
    free(buf);
}

/* Whether the board has no stones yet (and no move was played). */
static int board_empty(Gtp *G)
{
    Move *mv;
    int k = board_stones(G, -1, -1, &mv);
    free(mv);
    return k == 0 && session_ply(G->s) == 0;
}

/* fixed_handicap N, and place_free_handicap N, which places the same
 * stones (the engine's choice: the fixed points; more stones than the
 * board has fixed points are refused): the game's handicap option. */
static void cmd_fixed_handicap(Gtp *G, const char *id, const char *arg)
{
    long long n;
    if (parse_int(arg, &n)) {
        reply(G, 0, id, "syntax error");
        return;
    }
    if (!board_empty(G)) {
        reply(G, 0, id, "board not empty");
        return;
    }
    char v[32];
    snprintf(v, sizeof v, "%lld", n);
    if (n < 2 || set_game_option(G, "handicap", v)) {
        reply(G, 0, id, "invalid number of stones");
        return;
    }
    G->handicap_cmd = 1;
    reset_clocks(G);
    Move *mv;
    int k = board_stones(G, 0, -1, &mv);
    char buf[GTP_LINE_MAX];
    if (k < 0 || vertex_list(G, session_state(G->s), mv, k, " ", buf,
                             sizeof buf))
        reply(G, 0, id, "cannot list the stones");
    else
        reply(G, 1, id, buf);
    free(mv);
}

/* set_free_handicap V...: Black's stones where the controller says, White
 * to move; a setup, so no handicap compensation is counted (komi is the
 * controller's). */
static void cmd_set_free_handicap(Gtp *G, const char *id, char *args)
{
    if (!board_empty(G)) {
        reply(G, 0, id, "board not empty");
        return;
    }
    int max = G->g->info.max_moves, n = 0;
    Move *pts = malloc(sizeof *pts * (size_t)max);
    char *buf = malloc(GTP_LINE_MAX);
    const void *st = session_state(G->s);
    const char *msg = NULL;
    if (!pts || !buf)
        msg = "out of memory";
    for (char *save = NULL, *t = strtok_r(args, " ", &save); t && !msg;
         t = strtok_r(NULL, " ", &save)) {
        char own[GTP_MOVE_MAX];
        PlyError e = {{0}};
        if (n >= max - 1 || strlen(t) >= 64 ||
            format_move_from_wire(G->f, t, own, sizeof own) < 0 ||
            G->g->text_to_move(st, own, &pts[n], &e) ||
            !strcmp(own, "pass"))
            msg = "bad vertex list";
        n++;
    }
    if (!msg && n < 2)
        msg = "bad vertex list";
    PlyError err = {{0}};
    if (!msg && (G->f->handicap_setup(st, pts, n, buf, GTP_LINE_MAX) < 0 ||
                 session_set_position(G->s, buf, NULL, &err)))
        msg = "bad vertex list";
    if (!msg && G->autopass_cap)
        memset(G->autopass, 0, (size_t)G->autopass_cap);
    reply(G, !msg, id, msg ? msg : "");
    free(pts);
    free(buf);
}

typedef struct Loaded {
    int got;
    char game[64];
    char *opts, *setup, *moves;     /* moves: at most `upto` of them */
    int upto;                       /* -1: all */
    const char *until;              /* stop before the first move here */
    int nmoves;
} Loaded;

static char *dup_text(const char *s)
{
    s = s ? s : "";
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* The first game of the file; the reader is stopped after it. */
static int loaded_game(const Record *r, void *ctx, PlyError *err)
{
    Loaded *L = ctx;
    snprintf(L->game, sizeof L->game, "%s", r->game ? r->game : "");
    L->opts = dup_text(r->options);
    L->setup = dup_text(r->setup);
    size_t n = 1;
    for (int i = 0; i < r->nmoves; i++)
        n += strlen(r->moves[i]) + 1;
    L->moves = malloc(n);
    if (!L->opts || !L->setup || !L->moves)
        return ply_fail(err, "out of memory");
    size_t len = 0;
    L->moves[0] = 0;
    for (int i = 0; i < r->nmoves && (L->upto < 0 || i < L->upto); i++) {
        if (L->until && !strcasecmp(r->moves[i], L->until))
            break;
        len += (size_t)sprintf(L->moves + len, "%s%s", len ? " " : "",
                               r->moves[i]);
        L->nmoves++;
    }
    L->got = 1;
    return ply_fail(err, "stop");
}

/* loadsgf FILE [N | VERTEX]: the first game of the file, its options
 * (size, komi, handicap, ...) over the command line's, up to the position
 * before move N (counted from 1), or before the first move at VERTEX;
 * answers the colour to move. */
static void cmd_loadsgf(Gtp *G, const char *id, char *args)
{
    const GameFormat *sgf = game_format(G->g, "sgf");
    char *file = strtok(args, " "), *at = strtok(NULL, " ");
    char until[GTP_MOVE_MAX];
    Loaded L = {.upto = -1};
    if (!file || strtok(NULL, " ")) {
        reply(G, 0, id, "syntax error");
        return;
    }
    if (at) {
        long long n;
        if (!parse_int(at, &n) && n >= 1) {
            L.upto = (int)n - 1;
        } else if (strlen(at) < 64 &&
                   format_move_from_wire(G->f, at, until, sizeof until) >= 0) {
            L.until = until;
        } else {
            reply(G, 0, id, "syntax error");
            return;
        }
    }
    char *text = NULL, msg[512] = "";
    size_t len = 0;
    FILE *in = fopen(file, "rb");
    if (!in) {
        reply(G, 0, id, "cannot load file");
        return;
    }
    enum { SGF_FILE_MAX = 16 << 20 };
    size_t cap = 0;
    for (;;) {
        if (len == cap) {
            char *t = cap < SGF_FILE_MAX ? realloc(text, cap + 65536) : NULL;
            if (!t)
                break;
            text = t;
            cap += 65536;
        }
        size_t k = fread(text + len, 1, cap - len, in);
        if (!k)
            break;
        len += k;
    }
    int readable = !ferror(in) && feof(in) && text;
    fclose(in);
    PlyError err = {{0}};
    if (!readable) {
        snprintf(msg, sizeof msg, "cannot load file");
    } else {
        sgf->read_records(G->g, text, len, loaded_game, &L, &err);
        if (!L.got)
            snprintf(msg, sizeof msg, "cannot load file: %s",
                     err.msg[0] ? err.msg : "no game in it");
        else if (!L.opts || !L.setup || !L.moves)
            snprintf(msg, sizeof msg, "out of memory");
        else if (strcmp(L.game, G->g->info.name))
            snprintf(msg, sizeof msg, "cannot load file: a game of %s",
                     L.game);
    }
    free(text);
    if (!msg[0]) {
        /* the file's options over the command line's */
        char opts[sizeof G->opts], old[sizeof G->opts];
        snprintf(opts, sizeof opts, "%s", G->base_opts);
        snprintf(old, sizeof old, "%s", G->opts);
        int ok = strlen(L.opts) < sizeof opts;
        char tmp[sizeof G->opts];
        snprintf(tmp, sizeof tmp, "%s", ok ? L.opts : "");
        for (char *save = NULL, *t = strtok_r(tmp, ",", &save); t && ok;
             t = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(t, '=');
            if (!eq)
                ok = 0;
            else {
                *eq = 0;
                ok = !opt_set(opts, sizeof opts, t, eq + 1);
            }
        }
        snprintf(G->opts, sizeof G->opts, "%s", opts);
        if (!ok || new_session(G, &err) ||
            session_set_position(G->s, L.setup, L.moves, &err)) {
            snprintf(G->opts, sizeof G->opts, "%s", old);
            new_session(G, &err);
            snprintf(msg, sizeof msg, "cannot load file: %s",
                     ok ? err.msg : "bad options");
        }
    }
    free(L.opts);
    free(L.setup);
    free(L.moves);
    if (msg[0]) {
        reply(G, 0, id, msg);
        return;
    }
    G->handicap_cmd = 0;
    if (G->autopass_cap)
        memset(G->autopass, 0, (size_t)G->autopass_cap);
    reset_clocks(G);
    int p = G->g->to_move(session_state(G->s));
    if (p < 0)  /* over: the side after the last mover */
        p = session_ply(G->s) ? !G->g->to_move(session_state_at(
                                    G->s, session_ply(G->s) - 1))
                              : 0;
    reply(G, 1, id, p ? "white" : "black");
}

/* printsgf [FILE]: the game so far through the game's SGF writer, as the
 * reply or into FILE. */
static void cmd_printsgf(Gtp *G, const char *id, char *args)
{
    const GameFormat *sgf = game_format(G->g, "sgf");
    char *file = strtok(args, " ");
    if (file && strtok(NULL, " ")) {
        reply(G, 0, id, "syntax error");
        return;
    }
    int np = session_ply(G->s);
    const void *first = session_state_at(G->s, 0);
    size_t tn = 8192;
    char *setup = malloc(tn), *start = malloc(tn), *out = NULL;
    char (*mv)[GTP_MOVE_MAX] = malloc(sizeof *mv * (size_t)(np + 1));
    const char **mvp = malloc(sizeof *mvp * (size_t)(np + 1));
    void *init = state_alloc(G->g);
    size_t olen = 0;
    PlyError err = {{0}};
    const char *msg = NULL;
    if (!setup || !start || !mv || !mvp || !init)
        msg = "out of memory";
    else if (G->g->to_text(first, setup, tn) < 0 ||
             state_setup(G->g, init, G->opts, NULL, G->seed, &err) ||
             G->g->to_text(init, start, tn) < 0)
        msg = "cannot write the position";
    for (int i = 0; !msg && i < np; i++) {
        if (G->g->move_to_text(session_state_at(G->s, i),
                               session_move_at(G->s, i), mv[i],
                               sizeof mv[i]) < 0)
            msg = "cannot write a move";
        mvp[i] = mv[i];
    }
    if (!msg) {
        Record r;
        record_init(&r);
        r.game = G->g->info.name;
        r.options = G->opts;
        r.setup = strcmp(setup, start) ? setup : NULL;
        r.nseats = 2;
        r.seats[0] = r.seats[1] = "?";
        r.nmoves = np;
        r.moves = mvp;
        const void *st = session_state(G->s);
        if (G->g->to_move(st) == PLAYER_TERMINAL) {
            double v[PLY_MAX_PLAYERS];
            G->g->returns(st, v);
            record_set_winner(&r, v[0] > v[1] ? 0 : v[1] > v[0] ? 1 : -1,
                              "normal");
        }
        FILE *o = file ? fopen(file, "w") : open_memstream(&out, &olen);
        if (!o)
            msg = file ? "cannot write the file" : "out of memory";
        else if (sgf->write_record(G->g, &r, o, &err))
            msg = err.msg[0] ? err.msg : "cannot write the game";
        if (o && fclose(o) && !msg)
            msg = "cannot write the file";
    }
    reply(G, !msg, id, msg ? msg : file ? "" : out ? out : "");
    free(out);
    free(setup);
    free(start);
    free(mv);
    free(mvp);
    free(init);
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
        int fresh = G->handicap_cmd;
        if (drop_gtp_handicap(G) ||
            (fresh ? new_session(G, &err) : session_new_game(G->s, &err))) {
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
        cmd_genmove(G, id, args, GENMOVE_PLAY);
    } else if (!strcmp(cmd, "reg_genmove")) {
        cmd_genmove(G, id, args, GENMOVE_REG);
    } else if (!strcmp(cmd, "kgs-genmove_cleanup") && G->f->cleanup_moves) {
        cmd_genmove(G, id, args, GENMOVE_CLEANUP);
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
    } else if (!strcmp(cmd, "final_status_list") && G->f->stones) {
        cmd_final_status_list(G, id, args);
    } else if ((!strcmp(cmd, "fixed_handicap") ||
                !strcmp(cmd, "place_free_handicap")) &&
               has_command(G, cmd)) {
        cmd_fixed_handicap(G, id, args);
    } else if (!strcmp(cmd, "set_free_handicap") && has_command(G, cmd)) {
        cmd_set_free_handicap(G, id, args);
    } else if (!strcmp(cmd, "loadsgf") && has_command(G, cmd)) {
        cmd_loadsgf(G, id, args);
    } else if (!strcmp(cmd, "printsgf") && has_command(G, cmd)) {
        cmd_printsgf(G, id, args);
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
