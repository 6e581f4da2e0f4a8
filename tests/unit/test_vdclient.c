/* test_vdclient.c — the Vindinium client against a hostile fake server
 * (libmicrohttpd on loopback): a file:// or foreign-host playUrl, a
 * redirect to file://, garbage JSON, a game that never ends and a server
 * that never answers each end with a clear error, within bounded moves
 * and time. */
#include <curl/curl.h>
#include <jansson.h>
#include <microhttpd.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

#include "apps/vindinium/client.h"
#include "apps/vindinium/json.h"

enum Mode { FILE_URL, FOREIGN, FOREVER, GARBAGE, REDIRECT, SLOW, NOT_OBJ };

typedef struct Fake {
    enum Mode mode;
    int port;
    int requests;
} Fake;

static char *state_json(Fake *f)
{
    Vd v;
    PlyError err = {{0}};
    if (vd_load_fixed(&v, 0, &err))
        fail_msg("m1: %s", err.msg);
    v.max_turns = 40;
    v.training = 1;
    vd_refresh(&v);
    VdjHero meta[4];
    memset(meta, 0, sizeof meta);
    for (int h = 0; h < 4; h++)
        snprintf(meta[h].name, sizeof meta[h].name, "h%d", h + 1);
    char host[64];
    snprintf(host, sizeof host, "127.0.0.1:%d", f->port);
    json_t *e = vdj_envelope("fakegame", &v, meta, 0, "tokn", host);
    if (f->mode == FILE_URL)
        json_object_set_new(e, "playUrl", json_string("file:///etc/passwd"));
    else if (f->mode == FOREIGN)
        json_object_set_new(e, "playUrl", json_string(
                                "http://192.0.2.1:9000/api/fakegame/tokn/play"));
    char *s = json_dumps(e, JSON_COMPACT);
    json_decref(e);
    return s;
}

static enum MHD_Result on_req(void *cls, struct MHD_Connection *c,
                              const char *url, const char *method,
                              const char *version, const char *data,
                              size_t *size, void **con)
{
    (void)url;
    (void)method;
    (void)version;
    (void)data;
    Fake *f = cls;
    if (!*con) {
        *con = f;
        return MHD_YES;
    }
    if (*size) {
        *size = 0;
        return MHD_YES;
    }
    f->requests++;
    char *body = NULL;
    unsigned code = 200;
    const char *location = NULL;
    switch (f->mode) {
    case GARBAGE: body = strdup("{\"game\": garbage"); break;
    case NOT_OBJ: body = strdup("[1, 2, 3]"); break;
    case REDIRECT:
        body = strdup("moved");
        code = 302;
        location = "file:///etc/passwd";
        break;
    case SLOW:
        for (int i = 0; i < 30; i++)   /* 1.5 s, bounded */
            usleep(50000);
        body = state_json(f);
        break;
    default: body = state_json(f); break;
    }
    struct MHD_Response *r = MHD_create_response_from_buffer(
        strlen(body), body, MHD_RESPMEM_MUST_FREE);
    if (location)
        MHD_add_response_header(r, "Location", location);
    enum MHD_Result ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

static struct MHD_Daemon *fake_start(Fake *f)
{
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD, 0,
        NULL, NULL, on_req, f, MHD_OPTION_END);
    assert_non_null(d);
    f->port = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT)->port;
    return d;
}

static int64_t mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Plays against the fake in `mode`; expects a failure whose message has
 * `want`, in less than `max_ms`. */
static void hostile(enum Mode mode, const char *want, int max_moves,
                    int max_seconds, int64_t max_ms, int *requests)
{
    Fake f = {mode, 0, 0};
    struct MHD_Daemon *d = fake_start(&f);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", f.port);
    VdcOptions o = {.server = url, .key = "k", .bot = "random", .seed = 1,
                    .max_moves = max_moves, .max_seconds = max_seconds,
                    .reconnect_ms = 500};
    VdcResult r;
    PlyError err = {{0}};
    int64_t t0 = mono_ms();
    int rc = vdc_play(&o, &r, &err);
    int64_t dt = mono_ms() - t0;
    MHD_stop_daemon(d);
    if (rc == 0 || !strstr(err.msg, want))
        fail_msg("mode %d: rc %d, '%s', expected '%s'", mode, rc, err.msg,
                 want);
    if (dt >= max_ms)
        fail_msg("mode %d took %lld ms", mode, (long long)dt);
    if (requests)
        *requests = f.requests;
}

static void test_file_play_url(void **state)
{
    (void)state;
    int n;
    hostile(FILE_URL, "is not an http or https URL: refused", 0, 10, 5000,
            &n);
    assert_int_equal(n, 1);   /* nothing after the refusal */
}

static void test_foreign_play_url(void **state)
{
    (void)state;
    int n;
    hostile(FOREIGN, "is not on the server 127.0.0.1", 0, 10, 5000, &n);
    assert_int_equal(n, 1);
}

static void test_redirect_not_followed(void **state)
{
    (void)state;
    hostile(REDIRECT, "HTTP 302", 0, 10, 5000, NULL);
}

static void test_garbage(void **state)
{
    (void)state;
    hostile(GARBAGE, "not JSON", 0, 10, 5000, NULL);
    hostile(NOT_OBJ, "not a JSON object", 0, 10, 5000, NULL);
}

static void test_never_ending_game(void **state)
{
    (void)state;
    int n;
    hostile(FOREVER, "gave up after 25 moves", 25, 60, 20000, &n);
    assert_int_equal(n, 26);   /* creation + 25 moves */
}

static void test_total_time(void **state)
{
    (void)state;
    hostile(SLOW, "total time bound (1 s)", 0, 1, 1600, NULL);
}

static void test_bad_server_url(void **state)
{
    (void)state;
    static const char *const bad[] = {"file:///etc/passwd",
                                      "ftp://127.0.0.1/", "gopher://x/",
                                      "127.0.0.1:9000", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        VdcOptions o = {.server = bad[i], .key = "k", .bot = "random"};
        VdcResult r;
        PlyError err = {{0}};
        assert_int_not_equal(vdc_play(&o, &r, &err), 0);
        if (!strstr(err.msg, "is not an http:// or https:// URL"))
            fail_msg("'%s': %s", bad[i], err.msg);
    }
}

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_play_url),
        cmocka_unit_test(test_foreign_play_url),
        cmocka_unit_test(test_redirect_not_followed),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_never_ending_game),
        cmocka_unit_test(test_total_time),
        cmocka_unit_test(test_bad_server_url),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    curl_global_cleanup();
    return rc;
}
