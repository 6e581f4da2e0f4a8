/* apps/http/http.c — shared HTTP plumbing (http.h). */
#include "http.h"

#include <stdlib.h>
#include <string.h>

int http_body_add(HttpBody *b, const char *data, size_t n, size_t max)
{
    if (b->too_big)
        return 0;
    if (b->len + n > max) {
        b->too_big = 1;
        free(b->data);
        b->data = NULL;
        b->len = 0;
        return 0;
    }
    char *nb = realloc(b->data, b->len + n + 1);
    if (!nb)
        return -1;
    b->data = nb;
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = 0;
    return 0;
}

void http_body_free(HttpBody *b)
{
    free(b->data);
    b->data = NULL;
    b->len = 0;
}

enum MHD_Result http_send(struct MHD_Connection *c, unsigned code,
                          const char *type, const char *body, size_t len,
                          const char *const *hdr)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        len, (void *)(body ? body : ""), MHD_RESPMEM_MUST_COPY);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", type);
    for (; hdr && hdr[0]; hdr += 2)
        if (hdr[1])
            MHD_add_response_header(r, hdr[0], hdr[1]);
    enum MHD_Result ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}
