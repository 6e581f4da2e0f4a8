/* fuzz_resume.c — the readers of `ply match`'s own records: `--resume`
 * (an interrupted match's --out file, read back before the missing games
 * are played) and `--merge` (the record files of a match's shards). Input:
 * a byte that picks the reader and the match, then the record file (for
 * --merge, two files split at the first NUL byte). Both go through
 * cmd_match() as `ply match` runs them.
 *
 * Invariants: the exit status is 0 or 2 (an error named on stderr); a
 * refused --resume leaves the file byte for byte as it was (no result is
 * lost); an accepted one leaves a file of whole lines holding every game of
 * the match (or of the shard) at least once, and nothing outside it. */
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "fuzz.h"

int cmd_match(int argc, char **argv);

/* main.c's command table, which the CLI helpers refer to */
const Command cli_commands[] = {{0}};

/* The matches: short games between bots that need no search, so a
 * resumed match finishes in microseconds. */
typedef struct Shape {
    const char *args[12];
    int total;          /* games of the match or of its shard */
    int shard_i, shard_n;
} Shape;

static const Shape SHAPES[] = {
    {{"kalah", "random", "greedy", "-n", "2", "--seed", "5", NULL}, 2, 0, 0},
    {{"kalah", "random", "greedy", "random:seed=2", "-n", "2", NULL}, 6, 0,
     0},
    {{"kalah", "random", "greedy", "-n", "4", "--shard", "2/2", NULL}, 2, 2,
     2},
    {{"kalah", "random", "greedy", "-n", "3", "--options", "houses=4",
      "--openings", "random:2", NULL}, 3, 0, 0},
};
enum { NSHAPES = sizeof SHAPES / sizeof SHAPES[0] };

static char dir[64];

/* The scratch directory goes when the process ends (libFuzzer exits
 * through exit() at -max_total_time and -runs). */
static void remove_dir(void)
{
    char p[96];
    snprintf(p, sizeof p, "%s/a.jsonl", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/b.jsonl", dir);
    unlink(p);
    rmdir(dir);
}

static void paths(char *a, char *b, size_t n)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/ply-fuzz-resume.XXXXXX");
        if (!mkdtemp(dir))
            abort();
        atexit(remove_dir);
        /* the match prints its summary */
        if (!freopen("/dev/null", "w", stdout))
            abort();
    }
    snprintf(a, n, "%s/a.jsonl", dir);
    snprintf(b, n, "%s/b.jsonl", dir);
}

static void put(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f))
        abort();
}

static uint8_t *get(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        abort();
    size_t cap = 1024, len = 0;
    uint8_t *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap && !(buf = realloc(buf, cap *= 2)))
            abort();
    }
    if (!buf)
        abort();
    fclose(f);
    *n = len;
    return buf;
}

static int run(const Shape *s, const char *mode, const char *a,
               const char *b)
{
    char *argv[24];
    int argc = 0;
    argv[argc++] = "match";
    if (!strcmp(mode, "merge")) {
        argv[argc++] = "--merge";
        argv[argc++] = (char *)a;
        if (b)
            argv[argc++] = (char *)b;
    } else {
        for (int i = 0; s->args[i]; i++)
            argv[argc++] = (char *)s->args[i];
        argv[argc++] = "--out";
        argv[argc++] = (char *)a;
        if (!strcmp(mode, "resume"))
            argv[argc++] = "--resume";
    }
    argv[argc] = NULL;
    return cmd_match(argc, argv);
}

/* Every game of the shape is on a whole line of the file; a line's index
 * is in the match. */
static void check_complete(const Shape *s, const uint8_t *p, size_t n)
{
    if (n && p[n - 1] != '\n')
        abort();        /* the partial last line was not cut */
    unsigned char seen[64] = {0};
    int all = s->shard_n ? s->total * s->shard_n : s->total;
    size_t at = 0;
    while (at < n) {
        const uint8_t *nl = memchr(p + at, '\n', n - at);
        size_t len = (size_t)(nl - (p + at));
        json_error_t je;
        json_t *o = json_loadb((const char *)p + at, len, 0, &je);
        json_t *ji = json_object_get(o, "index");
        if (!json_is_integer(ji) || json_integer_value(ji) < 0 ||
            json_integer_value(ji) >= all)
            abort();    /* a line the reader should have refused */
        seen[json_integer_value(ji)] = 1;
        json_decref(o);
        at += len + 1;
    }
    int count = 0;
    for (int i = 0; i < all; i++)
        count += seen[i];
    if (count < s->total)
        abort();        /* a game of the match was never played */
}

static void fuzz_one(FuzzIn *in)
{
    char a[96], b[96];
    paths(a, b, sizeof a);
    unsigned pick = fuzz_byte(in);
    const Shape *s = &SHAPES[(pick >> 1) % NSHAPES];
    const uint8_t *body = in->data + in->pos;
    size_t len = in->size - in->pos;
    if (pick & 1) {
        const uint8_t *nul = memchr(body, 0, len);
        size_t la = nul ? (size_t)(nul - body) : len;
        put(a, body, la);
        if (nul)
            put(b, nul + 1, len - la - 1);
        int rc = run(s, "merge", a, nul ? b : NULL);
        if (rc != 0 && rc != 2)
            abort();
        return;
    }
    put(a, body, len);
    int rc = run(s, "resume", a, NULL);
    size_t n;
    uint8_t *after = get(a, &n);
    if (rc == 2) {
        /* refused: the records are kept as they were */
        if (n != len || (n && memcmp(after, body, n)))
            abort();
    } else if (rc == 0) {
        check_complete(s, after, n);
    } else {
        abort();
    }
    free(after);
}

static void fuzz_seeds(FuzzSeeds *sd)
{
    char a[96], b[96];
    paths(a, b, sizeof a);
    for (int k = 0; k < NSHAPES; k++) {
        const Shape *s = &SHAPES[k];
        unlink(a);
        if (run(s, "out", a, NULL))
            abort();
        size_t n;
        uint8_t *rec = get(a, &n);
        /* whole, cut inside its last line, and its first line only */
        fuzz_seed_prefixed(sd, (uint8_t)(k << 1), rec, n);
        if (n > 10)
            fuzz_seed_prefixed(sd, (uint8_t)(k << 1), rec, n - 10);
        const uint8_t *nl = memchr(rec, '\n', n);
        if (nl)
            fuzz_seed_prefixed(sd, (uint8_t)(k << 1), rec,
                               (size_t)(nl - rec) + 1);
        /* --merge of the records, whole and split in two files */
        fuzz_seed_prefixed(sd, (uint8_t)(k << 1 | 1), rec, n);
        if (nl) {
            size_t first = (size_t)(nl - rec) + 1;
            uint8_t *two = malloc(n + 1);
            if (!two)
                abort();
            memcpy(two, rec, first);
            two[first] = 0;
            memcpy(two + first + 1, rec + first, n - first);
            fuzz_seed_prefixed(sd, (uint8_t)(k << 1 | 1), two, n + 1);
            free(two);
        }
        free(rec);
    }
    unlink(a);
    rmdir(dir);
}
