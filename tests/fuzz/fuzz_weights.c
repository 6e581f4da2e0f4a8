/* fuzz_weights.c — weights files (the X("name", value) headers `ply tune`
 * writes, read by alphabeta's weights=FILE and `ply tune --init`) for
 * every game with a tunable evaluation. Input: a game byte, then the file.
 * evalfile_read() must accept it or fail with a message; accepted weights
 * written back by evalfile_write() must read back the same. */
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "search/evalfile.h"

/* The tunable games, in registry order. */
static int tunable(const GameVtbl **out)
{
    int n = 0;
    for (int i = 0; ply_games[i]; i++)
        if (ply_games[i]->tuning)
            out[n++] = ply_games[i];
    return n;
}

/* A file of the given bytes that evalfile_read() can open by name. */
static void as_file(int fd, char *path, size_t n, const void *data,
                    size_t len)
{
    if (ftruncate(fd, 0) || pwrite(fd, data, len, 0) != (ssize_t)len)
        abort();
    snprintf(path, n, "/proc/self/fd/%d", fd);
}

static void fuzz_one(FuzzIn *in)
{
    static int fd = -1;
    if (fd < 0 && (fd = memfd_create("weights", 0)) < 0)
        abort();
    const GameVtbl *games[64];
    int ng = tunable(games);
    if (!ng)
        return;
    const GameVtbl *g = games[fuzz_byte(in) % (unsigned)ng];
    const EvalTuning *t = g->tuning;
    char path[64];
    as_file(fd, path, sizeof path, in->data + in->pos, in->size - in->pos);
    int *w = calloc((size_t)t->nparams, sizeof *w);
    int *w2 = calloc((size_t)t->nparams, sizeof *w2);
    PlyError err = {{0}};
    if (evalfile_read(t, path, w, &err) == 0) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (!f)
            abort();
        evalfile_write(f, g->info.name, t, w, "fuzz");
        fclose(f);
        as_file(fd, path, sizeof path, buf, len);
        if (evalfile_read(t, path, w2, &err) ||
            memcmp(w, w2, sizeof *w * (size_t)t->nparams))
            abort();    /* written weights do not read back the same */
        free(buf);
    } else if (!err.msg[0]) {
        abort();
    }
    free(w);
    free(w2);
}

/* Each tunable game's own weights as `ply tune` writes them, and that
 * file cut short and with one line doubled. */
static void fuzz_seeds(FuzzSeeds *s)
{
    const GameVtbl *games[64];
    int ng = tunable(games);
    for (int k = 0; k < ng; k++) {
        const EvalTuning *t = games[k]->tuning;
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (!f)
            abort();
        evalfile_write(f, games[k]->info.name, t, t->weights, "seed");
        fclose(f);
        uint8_t head = (uint8_t)k;
        fuzz_seedf(s, &head, 1, "%s", buf);
        fuzz_seedf(s, &head, 1, "%.*s", (int)(len / 2), buf);
        const char *x = strstr(buf, "X(");
        if (x) {
            size_t l = strcspn(x, "\n") + 1;
            fuzz_seedf(s, &head, 1, "%s%.*s", buf, (int)l, x);
        }
        free(buf);
    }
}
