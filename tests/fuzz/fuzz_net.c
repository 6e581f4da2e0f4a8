/* fuzz_net.c — net files (src/search/net.h, read by alphabeta's net=FILE)
 * for every game with net inputs. Input: a game byte, then the file.
 * net_load_mem() must accept it or fail with a message; an accepted net
 * evaluates a few positions, the same from scratch and through the
 * accumulator stack, and writes back the same bytes. */
#include <sys/mman.h>
#include <unistd.h>

#include "core/setup.h"
#include "fuzz.h"
#include "search/net.h"

static int with_net(const GameVtbl **out)
{
    int n = 0;
    for (int i = 0; ply_games[i]; i++)
        if (ply_games[i]->net && ply_games[i]->info.num_players == 2)
            out[n++] = ply_games[i];
    return n;
}

static void fuzz_one(FuzzIn *in)
{
    static int fd = -1;
    if (fd < 0 && (fd = memfd_create("net", 0)) < 0)
        abort();
    const GameVtbl *games[64];
    int ng = with_net(games);
    if (!ng)
        return;
    const GameVtbl *g = games[fuzz_byte(in) % (unsigned)ng];
    const unsigned char *buf = in->data + in->pos;
    size_t len = in->size - in->pos;
    Net n;
    PlyError err = {{0}};
    if (net_load_mem(&n, g, buf, len, &err)) {
        if (!err.msg[0])
            abort();
        return;
    }
    void *st = malloc(g->info.state_size);
    Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
    NetStack ns;
    int opt[PLY_MAX_OPTIONS];
    if (!st || !mv || options_parse(g, "", opt, &err) ||
        g->init(st, opt, 1, &err) ||
        net_stack_init(&ns, &n, 8))
        abort();
    for (int i = 0; i < 6 && g->to_move(st) >= 0; i++) {
        if (net_stack_eval(&ns, i, st, g->to_move(st) == 1) !=
            net_eval_full(&n, st))
            abort();    /* the accumulators differ from a recomputation */
        fuzz_random_play(g, st, (uint64_t)i, 1, mv);
    }
    char path[64];
    if (ftruncate(fd, 0))
        abort();
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (net_save(&n, path, &err))
        abort();
    unsigned char *back = malloc(len);
    if (!back || pread(fd, back, len, 0) != (ssize_t)len ||
        memcmp(back, buf, len))
        abort();        /* an accepted file does not write back the same */
    free(back);
    net_stack_free(&ns);
    net_free(&n);
    free(mv);
    free(st);
}

/* For each game a small random net, cut short, and with a byte changed. */
static void fuzz_seeds(FuzzSeeds *s)
{
    const GameVtbl *games[64];
    int ng = with_net(games);
    int fd = memfd_create("seed", 0);
    if (fd < 0)
        abort();
    for (int k = 0; k < ng; k++) {
        NetFloat f;
        Net q;
        PlyError err = {{0}};
        if (netf_alloc(&f, games[k]->net->ninputs, 4))
            abort();
        netf_randomize(&f, (uint64_t)k + 1);
        char path[64];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        if (ftruncate(fd, 0) || net_quantise(&f, games[k], &q, &err) ||
            net_save(&q, path, &err))
            abort();
        off_t len = lseek(fd, 0, SEEK_END);
        unsigned char *buf = malloc((size_t)len);
        if (!buf || pread(fd, buf, (size_t)len, 0) != len)
            abort();
        uint8_t head = (uint8_t)k;
        fuzz_seed_prefixed(s, head, buf, (size_t)len);
        fuzz_seed_prefixed(s, head, buf, (size_t)len / 2);
        buf[100] ^= 4;
        fuzz_seed_prefixed(s, head, buf, (size_t)len);
        free(buf);
        net_free(&q);
        netf_free(&f);
    }
    close(fd);
}
