/* cmd_bench.c — `ply bench [GAME ...] [--long] [--json]`: speed and a
 * signature. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../core/registry.h"
#include "../tools/bench.h"
#include "cli.h"

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", *s);
        else
            putchar(*s);
    }
    putchar('"');
}

int cmd_bench(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "bench"))
        return 0;
    static const struct option longopts[] = {
        {"json", no_argument, 0, 'j'},
        {"long", no_argument, 0, 'l'},
        {"iterations", required_argument, 0, 'i'},
        {"depth", required_argument, 0, 'd'},
        {"playouts", required_argument, 0, 'p'},
        {0, 0, 0, 0},
    };
    BenchConfig cfg;
    bench_default_config(&cfg);
    /* --long picks the base workload, whatever its place among the
     * options, so that --iterations and the like apply on top of it */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "--long"))
            bench_long_config(&cfg);
    }
    int json = 0, c;
    unsigned long long v;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'j': json = 1; break;
        case 'l': break;    /* read above */
        case 'i':
            if (cli_parse_uint("bench", "--iterations", optarg, &v))
                return 2;
            if (v < 1 || v > 100000000)
                return cli_error("bench", "--iterations must be 1..1e8");
            cfg.mcts_iterations = v;
            cfg.scale = 0;
            break;
        case 'd':
            if (cli_parse_uint("bench", "--depth", optarg, &v))
                return 2;
            if (v < 1 || v > 64)
                return cli_error("bench", "--depth must be 1..64");
            cfg.ab_depth = (int)v;
            break;
        case 'p':
            if (cli_parse_uint("bench", "--playouts", optarg, &v))
                return 2;
            if (v > 100000000)
                return cli_error("bench", "--playouts must be 0..1e8");
            cfg.playouts = v;
            cfg.scale = 0;
            break;
        case ':': return cli_error("bench", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("bench", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    const GameVtbl *games[256];
    int ng = 0;
    if (optind < argc) {
        for (int i = optind; i < argc && ng < 256; i++) {
            const GameVtbl *g = cli_game("bench", argv[i]);
            if (!g)
                return 2;
            games[ng++] = g;
        }
    } else {
        for (int i = 0; ply_games[i] && ng < 256; i++)
            games[ng++] = ply_games[i];
    }
    uint64_t total = 0;
    double secs = 0;
    if (json)
        printf("{\"games\": [");
    for (int i = 0; i < ng; i++) {
        BenchResult res[BENCH_MAX_RESULTS];
        PlyError err = {{0}};
        int n = bench_game(games[i], &cfg, res, &err);
        if (n < 0) {
            if (json)
                printf("]}\n");
            return cli_error("bench", "%s: %s", games[i]->info.name,
                             err.msg);
        }
        if (json) {
            printf("%s\n  {\"game\": ", i ? "," : "");
            json_str(games[i]->info.name);
            printf(", \"results\": [");
        }
        for (int k = 0; k < n; k++) {
            BenchResult *r = &res[k];
            double rate = r->seconds > 0 ? (double)r->count / r->seconds : 0;
            total = bench_fold(total, r->signature);
            secs += r->seconds;
            if (json) {
                printf("%s{\"what\": ", k ? ", " : "");
                json_str(r->what);
                printf(", \"unit\": ");
                json_str(r->unit);
                printf(", \"count\": %" PRIu64 ", \"seconds\": %.3f, "
                       "\"per_second\": %.0f, \"signature\": \"%016" PRIx64
                       "\"}",
                       r->count, r->seconds, rate, r->signature);
            } else {
                printf("%-18s %-12s %12" PRIu64 " %-10s %8.3f s %12.0f/s  "
                       "sig %016" PRIx64 "\n",
                       games[i]->info.name, r->what, r->count, r->unit,
                       r->seconds, rate, r->signature);
            }
            fflush(stdout);
        }
        if (json)
            printf("]}");
    }
    /* peak memory of the whole run (the mcts pool is only touched as
     * far as it is used) */
    struct rusage ru;
    long rss = getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_maxrss;
    if (json)
        printf("\n], \"seconds\": %.3f, \"max_rss_kib\": %ld, "
               "\"signature\": \"%016" PRIx64 "\"}\n", secs, rss, total);
    else
        printf("total %.3f s  peak RSS %ld KiB  signature %016" PRIx64 "\n",
               secs, rss, total);
    return 0;
}
