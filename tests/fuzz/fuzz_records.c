/* fuzz_records.c — readers of records: `ply match --out` records (JSON
 * lines) converted by `ply record --to pgn|pdn|kif|csa` (the shared loop
 * in src/cli/records.c and each game's writer), the KIF and CSA readers
 * (`ply record --from kif|csa`), and `ply tune`'s reader
 * (tune_read_records). Input: a byte that picks the reader and format
 * (for tune, the game), then the file. Each must convert the file or
 * stop with an error naming the line, never crash. */
#include <sys/mman.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/records.h"
#include "fuzz.h"
#include "tools/tune.h"

static const char *const WRITE_FORMATS[4] = {"pgn", "pdn", "kif", "csa"};
static const char *const READ_FORMATS[2] = {"kif", "csa"};

/* main.c's command table, which the CLI helpers refer to */
const Command cli_commands[] = {{0}};

static void fuzz_one(FuzzIn *in)
{
    static int fd = -1;
    if (fd < 0) {
        if ((fd = memfd_create("records", 0)) < 0)
            abort();
        /* the converters print games on standard output */
        if (!freopen("/dev/null", "w", stdout))
            abort();
    }
    unsigned pick = fuzz_byte(in);
    const uint8_t *body = in->data + in->pos;
    size_t len = in->size - in->pos;
    if (pick % 4 < 2) {
        char path[64];
        if (ftruncate(fd, 0) || pwrite(fd, body, len, 0) != (ssize_t)len ||
            lseek(fd, 0, SEEK_SET) < 0)
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        int rc = pick % 4 == 0
                     ? records_write("fuzz", WRITE_FORMATS[(pick / 4) % 4],
                                     path, NULL)
                     : records_read("fuzz", READ_FORMATS[(pick / 4) % 2],
                                    path);
        if (rc != 0 && rc != 2)
            abort();
        return;
    }
    /* tune: the tunable games */
    const GameVtbl *games[64];
    int ng = 0;
    for (int i = 0; ply_games[i]; i++)
        if (ply_games[i]->tuning)
            games[ng++] = ply_games[i];
    if (!ng)
        return;
    const GameVtbl *g = games[(pick / 4) % (unsigned)ng];
    FILE *f = fmemopen(len ? (void *)body : (void *)"", len ? len : 1, "r");
    if (!f)
        abort();
    TuneData d;
    tune_data_init(&d, g->tuning->nparams);
    TuneReadOpts o = {.skip_plies = (int)(pick % 8), .max_positions = 5000,
                      .valid_percent = 10, .seed = 1};
    TuneReadStats st;
    memset(&st, 0, sizeof st);
    PlyError err = {{0}};
    if (tune_read_records(&d, g, f, "fuzz", &o, &st, &err) && !err.msg[0])
        abort();
    fclose(f);
    tune_data_free(&d);
}

/* What `ply record --to format` writes for the records in buf (NULL
 * when the game does not speak it): standard output caught in a memfd. */
static char *written(const char *format, const char *buf, size_t len)
{
    int in = memfd_create("in", 0), out = memfd_create("out", 0);
    if (in < 0 || out < 0 || pwrite(in, buf, len, 0) != (ssize_t)len)
        abort();
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", in);
    fflush(stdout);
    int saved = dup(1);
    if (saved < 0 || dup2(out, 1) < 0)
        abort();
    int rc = records_write("fuzz", format, path, NULL);
    fflush(stdout);
    if (dup2(saved, 1) < 0)
        abort();
    close(saved);
    off_t n = lseek(out, 0, SEEK_END);
    char *text = NULL;
    if (rc == 0 && n > 0 && (text = calloc(1, (size_t)n + 1)) &&
        pread(out, text, (size_t)n, 0) != n)
        abort();
    close(in);
    close(out);
    return text;
}

/* Records of short random games of every game (what ply match writes,
 * forfeits, set-up positions) for each reader. */
static void fuzz_seeds(FuzzSeeds *s)
{
    int tune_k = 0;
    for (int gi = 0; ply_games[gi]; gi++) {
        const GameVtbl *g = ply_games[gi];
        if (g->info.num_players != 2)
            continue;
        void *st = state_alloc(g);
        Move *mv = malloc(sizeof(Move) * (size_t)g->info.max_moves);
        PlyError err = {{0}};
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        for (uint64_t seed = 1; seed <= 2; seed++) {
            if (state_setup(g, st, NULL, NULL, seed, &err))
                abort();
            static char setup[1 << 16];
            if (g->to_text(st, setup, sizeof setup) < 0)
                abort();
            fprintf(f, "{\"game\":\"%s\",\"options\":\"\",\"setup\":\"%s\","
                    "\"seats\":[\"a\",\"b\"],\"moves\":[", g->info.name,
                    seed == 1 ? "" : setup);
            Rng r;
            rng_seed(&r, seed);
            int k = 0;
            for (; k < 40 && g->to_move(st) != PLAYER_TERMINAL; k++) {
                int n = g->gen_moves(st, mv);
                Move m = mv[rng_below(&r, (uint32_t)n)];
                char t[256];
                if (g->move_to_text(st, m, t, sizeof t) < 0)
                    abort();
                fprintf(f, "%s\"%s\"", k ? "," : "", t);
                g->make(st, m);
            }
            fprintf(f, "],\"result\":[%s],\"reason\":\"%s\",\"seed\":1,"
                    "\"index\":%d%s}\n", seed == 1 ? "1,-1" : "0,0",
                    seed == 1 ? "normal" : "time", (int)seed - 1,
                    seed == 1 ? "" : ",\"forfeit\":0,\"error\":\"a: late\"");
        }
        fclose(f);
        for (int k = 0; k < 4; k++)   /* --to pgn, pdn, kif, csa */
            fuzz_seed_prefixed(s, (uint8_t)(4 * k), buf, len);
        for (int k = 0; k < 2; k++) {   /* --from kif, csa: their own text */
            char *rec = written(WRITE_FORMATS[2 + k], buf, len);
            if (rec && *rec)
                fuzz_seed_prefixed(s, (uint8_t)(1 + 4 * k), rec,
                                   strlen(rec));
            free(rec);
        }
        if (g->tuning)
            fuzz_seed_prefixed(s, (uint8_t)(2 + 4 * tune_k++), buf, len);
        free(buf);
        free(mv);
        free(st);
    }
}
