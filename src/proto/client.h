/* client.h — what the protocol clients (ugi_client.c, cecp_client.c,
 * codecup_client.c, gtp_client.c) share: a Player that is an external
 * program (tools/engine.h) and the list of moves played so far. */
#ifndef PLY_CLIENT_H
#define PLY_CLIENT_H

#include <stddef.h>

#include "../tools/engine.h"
#include "../tools/player.h"

enum { CLIENT_QUIT_WAIT_MS = 300, CLIENT_MOVE_MAX = 256, CLIENT_OPTS_MAX = 16 };

typedef struct ClientMoves {
    char **text;
    unsigned char *own;     /* the client's own move, on its board already */
    int n, cap;
} ClientMoves;

typedef struct Client {
    Player base;
    char cmd[1024];
    int quiet;
    const EngineWatch *watch;   /* the match's watchdog, or NULL */
    Engine eng;
    int on;                 /* the program runs */
    const GameVtbl *g;
    const TimeControl *tc;
    int seat;
    ClientMoves moves;      /* the opening, then every move informed */
    int moved;              /* the next move informed is its own */
    /* engine options to send at begin, in the order given */
    char opt_name[CLIENT_OPTS_MAX][64];
    char opt_value[CLIENT_OPTS_MAX][256];
    int nopts;
    /* tests and fuzzing: a scripted engine instead of the program
     * (engine_start_script), set after the constructor */
    const char *script;
    size_t script_len;
    void (*on_send)(void *ctx, const char *line);
    void *on_send_ctx;
} Client;

/* Fills c (allocated by the caller, zeroed) for the program cmd. */
int client_init(Client *c, const PlayerVtbl *vt, const char *name,
                const char *cmd, int quiet, const EngineWatch *watch,
                PlyError *err);
/* Starts the program and records the game's opening. */
Reason client_begin(Client *c, const PlayerGame *pg, PlyError *err);
/* inform: remembers the move (and whether it was the client's own). */
void client_inform(Player *p, const void *st, Move m, const char *text);
/* Sends quit_line (if not NULL) and stops the program: a program that
 * forfeited by time or crash is not waited for. */
void client_quit(Client *c, const char *quit_line, Reason why,
                 int forfeited);
/* set_option: keeps an engine option for the protocol's begin. */
int client_set_option(Player *p, const char *name, const char *value,
                      PlyError *err);
/* free: stops the program if it still runs, frees the move list and c. */
void client_free(Player *p);
/* The program's next line before deadline dl (`what` it owes, for the
 * errors: "move", "answer to START"). REASON_NORMAL with the line; a loss
 * on time ("NAME: no WHAT in time") when dl passes; a crash ("NAME:
 * exited before its WHAT") when it exits. */
Reason client_read(Client *c, char *line, size_t n, int64_t dl,
                   const char *what, PlyError *err);
/* A move line's deadline: now + allowed + grace. */
int64_t client_deadline(const Client *c, const PlayerClock *k);

/* The constructors of each protocol's client. */
Player *ugi_client_new(const char *name, const char *cmd, int quiet,
                       const EngineWatch *watch, PlyError *err);
Player *uci_client_new(const char *name, const char *cmd, int quiet,
                       const EngineWatch *watch, PlyError *err);
Player *usi_client_new(const char *name, const char *cmd, int quiet,
                       const EngineWatch *watch, PlyError *err);
Player *cecp_client_new(const char *name, const char *cmd, int quiet,
                        const EngineWatch *watch, PlyError *err);
Player *codecup_client_new(const char *name, const char *cmd, int quiet,
                           const EngineWatch *watch, PlyError *err);
Player *gtp_client_new(const char *name, const char *cmd, int quiet,
                       const EngineWatch *watch, PlyError *err);
Player *gomocup_client_new(const char *name, const char *cmd, int quiet,
                           const EngineWatch *watch, PlyError *err);

#endif
