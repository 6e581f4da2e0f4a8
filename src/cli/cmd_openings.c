/* cmd_openings.c — `ply openings GAME`: a file of opening positions for
 * `ply match --openings FILE`, each a random walk of a few plies from the
 * start that a bot's search values within a band: balanced openings (the
 * default), or openings with a set advantage. Random openings alone can
 * decide a match: in minishogi after four random plies the side to move
 * won 66 of 100 games between Ply and Fairy-Stockfish, and 44 of the 50
 * opening pairs were split (each colour won its game), so the engines'
 * difference showed only in the other six.
 *
 * The candidates are the walks of seeds SEED*2^32 + i for i = 0, 1, ...
 * (the referee's random_walk), distinct setups only, searched in batches
 * by -j threads, each with a fresh bot seeded by the candidate's index:
 * the file depends on the arguments, not on -j (with a node or depth
 * limit; a time limit depends on the machine). */
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../core/registry.h"
#include "../core/session.h"
#include "../core/setup.h"
#include "../tools/referee.h"
#include "cli.h"

enum {
    OPEN_SETUP_MAX = 4096,      /* as an openings file line (cmd_match.c) */
    OPEN_N_MAX = 1000000,       /* ply match reads at most this many */
    OPEN_PLIES_MAX = 1000,
    OPEN_JOBS_MAX = 64,
    OPEN_BATCH_PER_JOB = 16,
};

typedef struct Cand {
    uint64_t index;
    char setup[OPEN_SETUP_MAX];
    int searched;       /* 0: not searched (chance or error) */
    int value, proven;
    char error[256];
} Cand;

typedef struct Work {
    const GameVtbl *g;
    const char *options, *spec;
    uint64_t seed;
    Cand *batch;
    int count;
    int next;           /* under mu */
    pthread_mutex_t mu;
} Work;

/* Seen setups: open addressing on a string hash, the strings kept. */
typedef struct Seen {
    char **slot;
    size_t cap, used;
} Seen;

static uint64_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* 1 when s was new (and is now kept), 0 when seen, -1 out of memory. */
static int seen_add(Seen *t, const char *s)
{
    if ((t->used + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        char **slot = calloc(cap, sizeof *slot);
        if (!slot)
            return -1;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slot[i]) {
                size_t j = str_hash(t->slot[i]) & (cap - 1);
                while (slot[j])
                    j = (j + 1) & (cap - 1);
                slot[j] = t->slot[i];
            }
        free(t->slot);
        t->slot = slot;
        t->cap = cap;
    }
    size_t j = str_hash(s) & (t->cap - 1);
    for (; t->slot[j]; j = (j + 1) & (t->cap - 1))
        if (!strcmp(t->slot[j], s))
            return 0;
    if (!(t->slot[j] = strdup(s)))
        return -1;
    t->used++;
    return 1;
}

static void seen_free(Seen *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->slot[i]);
    free(t->slot);
}

/* One candidate searched by a fresh bot seeded by its index. */
static void search_one(const Work *w, Cand *c)
{
    PlyError err = {{0}};
    Session *s = session_new(w->g, w->options, w->spec, w->seed + c->index,
                             &err);
    SearchInfo si;
    if (!s || session_set_position(s, c->setup, NULL, &err) ||
        session_go(s, NULL, 0, &err)) {
        snprintf(c->error, sizeof c->error, "%s", err.msg);
        session_free(s);
        return;
    }
    memset(&si, 0, sizeof si);
    session_wait(s, &si);
    session_free(s);
    c->searched = 1;
    c->value = si.value;
    c->proven = si.proven;
}

static void *worker(void *arg)
{
    Work *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->mu);
        int i = w->next < w->count ? w->next++ : -1;
        pthread_mutex_unlock(&w->mu);
        if (i < 0)
            return NULL;
        search_one(w, &w->batch[i]);
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* "alphabeta" -> "alphabeta:nodes=N"; "mcts:c=1" -> "mcts:c=1,nodes=N" */
static void default_spec(const GameVtbl *g, char *out, size_t n)
{
    const char *d = game_default_bot(g);
    snprintf(out, n, "%s%snodes=100000", d, strchr(d, ':') ? "," : ":");
}

int cmd_openings(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "openings"))
        return 0;
    static const struct option longopts[] = {
        {"plies", required_argument, 0, 'p'},
        {"bot", required_argument, 0, 'b'},
        {"min", required_argument, 0, 'l'},
        {"max", required_argument, 0, 'u'},
        {"seed", required_argument, 0, 'r'},
        {"options", required_argument, 0, 'o'},
        {"out", required_argument, 0, 'O'},
        {"tries", required_argument, 0, 't'},
        {0, 0, 0, 0},
    };
    const char *options = NULL, *spec = NULL, *out_path = NULL;
    unsigned long long n = 100, plies = 4, lo = 0, hi = 100, seed = 1,
                       jobs = 1, tries = 0;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":n:j:", longopts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (cli_parse_uint("openings", "-n", optarg, &n))
                return 2;
            break;
        case 'j':
            if (cli_parse_uint("openings", "-j", optarg, &jobs))
                return 2;
            break;
        case 'p':
            if (cli_parse_uint("openings", "--plies", optarg, &plies))
                return 2;
            break;
        case 'l':
            if (cli_parse_uint("openings", "--min", optarg, &lo))
                return 2;
            break;
        case 'u':
            if (cli_parse_uint("openings", "--max", optarg, &hi))
                return 2;
            break;
        case 'r':
            if (cli_parse_uint("openings", "--seed", optarg, &seed))
                return 2;
            break;
        case 't':
            if (cli_parse_uint("openings", "--tries", optarg, &tries))
                return 2;
            break;
        case 'b': spec = optarg; break;
        case 'o': options = optarg; break;
        case 'O': out_path = optarg; break;
        case ':': return cli_error("openings", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("openings", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_error("openings", "usage: ply openings GAME [-n 100] "
                         "[--plies 4] [--bot SPEC] [--min 0] [--max 100] "
                         "[--seed 1] [-j 1] [--out FILE]");
    if (n < 1 || n > OPEN_N_MAX)
        return cli_error("openings", "-n must be 1 to %d", OPEN_N_MAX);
    if (plies < 1 || plies > OPEN_PLIES_MAX)
        return cli_error("openings", "--plies must be 1 to %d",
                         OPEN_PLIES_MAX);
    if (jobs < 1 || jobs > OPEN_JOBS_MAX)
        return cli_error("openings", "-j must be 1 to %d", OPEN_JOBS_MAX);
    if (lo > hi || hi > EVAL_WIN)
        return cli_error("openings", "--min and --max: 0 <= min <= max <= "
                         "%d", EVAL_WIN);
    if (seed > 0xffffffffull)
        return cli_error("openings", "--seed must be below 2^32");
    if (!tries)
        tries = n * 100;
    const GameVtbl *g = cli_game("openings", argv[optind]);
    if (!g)
        return 2;
    char defspec[256];
    if (!spec) {
        default_spec(g, defspec, sizeof defspec);
        spec = defspec;
    }
    PlyError err = {{0}};
    {
        /* the spec and options, checked once before any work */
        Session *s = session_new(g, options, spec, seed, &err);
        if (!s)
            return cli_error("openings", "%s", err.msg);
        session_free(s);
    }
    FILE *out = stdout;
    if (out_path && !(out = fopen(out_path, "w")))
        return cli_error("openings", "cannot write '%s'", out_path);

    int batch_max = (int)jobs * OPEN_BATCH_PER_JOB;
    Cand *batch = calloc((size_t)batch_max, sizeof *batch);
    int *kept_v = malloc(sizeof *kept_v * (size_t)n);
    void *st = state_alloc(g);
    Move *moves = malloc(sizeof *moves * (size_t)g->info.max_moves);
    double *probs = malloc(sizeof *probs * (size_t)g->info.max_moves);
    Move *played = malloc(sizeof *played * (size_t)plies);
    Seen seen = {0};
    int rc = 2;
    if (!batch || !kept_v || !st || !moves || !probs || !played) {
        cli_error("openings", "out of memory");
        goto done;
    }
    fprintf(out, "# ply openings %s -n %llu --plies %llu --bot %s --min %llu"
            " --max %llu --seed %llu%s%s\n", g->info.name, n, plies, spec,
            lo, hi, seed, options ? " --options " : "",
            options ? options : "");
    fprintf(out, "# each line: a setup after %llu random plies whose value "
            "for the side to move, searched by the bot, is within [%llu, "
            "%llu] either way\n", plies, lo, hi);
    uint64_t kept = 0, index = 0, dups = 0, ended = 0, unsearched = 0,
             proven = 0, outside = 0;
    Work w = {.g = g, .options = options, .spec = spec,
              .seed = seed << 32, .batch = batch};
    pthread_mutex_init(&w.mu, NULL);
    while (kept < n && index < tries) {
        /* a batch of distinct candidates, made in index order */
        int count = 0;
        while (count < batch_max && index < tries) {
            Cand *cd = &batch[count];
            memset(cd, 0, sizeof *cd);
            cd->index = index++;
            uint64_t s = (seed << 32) + cd->index;
            if (state_setup(g, st, options, NULL, s, &err)) {
                cli_error("openings", "%s", err.msg);
                goto stop;
            }
            if (!referee_random_walk(g, st, (int)plies, s, moves, probs,
                                     played) ||
                g->to_move(st) < 0) {
                ended++;    /* the game ends, or a chance node follows */
                continue;
            }
            if (g->to_text(st, cd->setup, sizeof cd->setup) < 0) {
                cli_error("openings", "%s: to_text failed", g->info.name);
                goto stop;
            }
            int fresh = seen_add(&seen, cd->setup);
            if (fresh < 0) {
                cli_error("openings", "out of memory");
                goto stop;
            }
            if (!fresh) {
                dups++;
                continue;
            }
            count++;
        }
        w.count = count;
        w.next = 0;
        pthread_t th[OPEN_JOBS_MAX];
        int started = 0;
        for (int i = 1; i < (int)jobs && i < count; i++, started++)
            if (pthread_create(&th[started], NULL, worker, &w))
                break;
        worker(&w);
        for (int i = 0; i < started; i++)
            pthread_join(th[i], NULL);
        for (int i = 0; i < count && kept < n; i++) {
            Cand *cd = &batch[i];
            if (!cd->searched) {
                unsearched++;
                if (unsearched <= 3)
                    fprintf(stderr, "ply openings: candidate %llu not "
                            "searched: %s\n",
                            (unsigned long long)cd->index, cd->error);
                continue;
            }
            int a = cd->value < 0 ? -cd->value : cd->value;
            if (cd->proven) {
                proven++;
                continue;
            }
            if ((unsigned long long)a < lo || (unsigned long long)a > hi) {
                outside++;
                continue;
            }
            fprintf(out, "%s\n", cd->setup);
            kept_v[kept++] = cd->value;
        }
    }
    if (fflush(out) || ferror(out)) {
        cli_error("openings", "writing '%s' failed",
                  out_path ? out_path : "stdout");
        goto stop;
    }
    fprintf(stderr, "ply openings: %llu kept of %llu tried (%llu repeated "
            "a setup, %llu ended or reached chance, %llu not searched, "
            "%llu proven, %llu outside [%llu, %llu])\n",
            (unsigned long long)kept, (unsigned long long)index,
            (unsigned long long)dups, (unsigned long long)ended,
            (unsigned long long)unsearched, (unsigned long long)proven,
            (unsigned long long)outside, lo, hi);
    if (kept) {
        qsort(kept_v, (size_t)kept, sizeof *kept_v, cmp_int);
        long sum = 0;
        for (uint64_t i = 0; i < kept; i++)
            sum += kept_v[i];
        fprintf(stderr, "ply openings: values kept (side to move): min %d,"
                " median %d, max %d, mean %.1f\n", kept_v[0],
                kept_v[kept / 2], kept_v[kept - 1], (double)sum / kept);
    }
    if (kept < n)
        fprintf(stderr, "ply openings: only %llu of %llu found in %llu "
                "tries (--tries, or a wider band)\n",
                (unsigned long long)kept, n, (unsigned long long)index);
    rc = kept < n;
stop:
    pthread_mutex_destroy(&w.mu);
done:
    if (out_path && out && fclose(out) && rc == 0) {
        cli_error("openings", "writing '%s' failed", out_path);
        rc = 2;
    }
    seen_free(&seen);
    free(batch);
    free(kept_v);
    free(st);
    free(moves);
    free(probs);
    free(played);
    return rc;
}
