/* apps/web/web.h — `ply serve`: the web page and its JSON API
 * (docs/web-api.md) on libmicrohttpd and jansson.
 *
 * The request handler (web_handle) takes a method, a URL with its query,
 * and a body, and gives a status and a body: the HTTP side only feeds it,
 * so tests and the fuzz target call it without a socket. Games in
 * progress are Sessions (core/session.h) keyed by unguessable ids, each
 * behind its own lock; one lock guards the table of games. A reaper
 * thread stops searches that run too long and drops idle games. */
#ifndef PLY_WEB_H
#define PLY_WEB_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/game.h"

typedef struct WebConfig {
    const char *host;       /* bind address, default 127.0.0.1 */
    int port;               /* default 8080; 0: any free port */
    const char *web_dir;    /* serve the page from here (NULL: built in) */
    int max_games;          /* games kept (256); then the idlest goes */
    int max_body;           /* request body bound in bytes (64 KiB) */
    int idle_s;             /* a game untouched this long is dropped */
    int max_think_ms;       /* bound on one search (60000) */
    int max_searches;       /* searches at once, all games (8); then 503 */
    int max_wait_ms;        /* bound on go's and think's wait_ms (1000) */
    int threads;            /* HTTP threads (4) */
    int trust_clients;      /* 0: clients' bot specs and game options may
                             * not name files, nest specs or ask for more
                             * than the defaults of costly rows (hash,
                             * threads, endgame databases); 1: anything */
    uint64_t seed;          /* 0: from the system */
} WebConfig;

typedef struct WebServer WebServer;

typedef struct WebReply {
    int status;
    const char *type;       /* Content-Type */
    char *body;             /* malloc'ed (web_reply_free) */
    size_t len;
    const char *allow;      /* Allow header for 405, or NULL */
    char filename[96];      /* Content-Disposition attachment, or "" */
} WebReply;

void web_config_default(WebConfig *c);
/* The server without a socket (web_listen opens one). */
WebServer *web_new(const WebConfig *c, PlyError *err);
/* Answers one request. url may carry a query (?a=b&c=d, %-escaped);
 * body may be NULL. Thread-safe. */
void web_handle(WebServer *w, const char *method, const char *url,
                const char *body, size_t len, WebReply *r);
void web_reply_free(WebReply *r);
/* Starts serving HTTP on host:port; 0 or -1 with err. */
int web_listen(WebServer *w, PlyError *err);
int web_port(const WebServer *w);
/* Games held now (tests). */
int web_game_count(WebServer *w);
/* Stops serving, stops every search, frees everything. */
void web_free(WebServer *w);

/* The page's files built into the binary (a generated table). */
typedef struct WebAsset {
    const char *path;       /* "index.html", "js/app.js" */
    const unsigned char *data;
    size_t len;
} WebAsset;
extern const WebAsset web_assets[];    /* terminated by path NULL */

#endif
