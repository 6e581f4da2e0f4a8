/* apps/http/http.h — the HTTP plumbing the servers of src/apps share on
 * libmicrohttpd: collecting a request body under a bound, and sending a
 * reply from a buffer with its headers. */
#ifndef PLY_HTTP_H
#define PLY_HTTP_H

#include <microhttpd.h>
#include <stddef.h>

/* A request body being received. */
typedef struct HttpBody {
    char *data;         /* NUL-terminated, NULL before the first bytes */
    size_t len;
    int too_big;        /* more than the bound came: data dropped */
} HttpBody;

/* Appends n bytes, or marks the body too big past max bytes (dropping
 * what came). 0, or -1 when out of memory. */
int http_body_add(HttpBody *b, const char *data, size_t n, size_t max);
void http_body_free(HttpBody *b);

/* Queues a reply of len bytes (copied) with Content-Type type and the
 * headers in hdr (name, value, name, value, ..., NULL; a pair with a
 * NULL value is skipped; hdr may be NULL); returns MHD's answer. */
enum MHD_Result http_send(struct MHD_Connection *c, unsigned code,
                          const char *type, const char *body, size_t len,
                          const char *const *hdr);

#endif
