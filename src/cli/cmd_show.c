/* cmd_show.c — `ply show GAME`: a position, its moves, its result; or
 * `ply show --record FILE [--game N] [--ply K]`: game N of a match record
 * file (any number of players) after K of its moves, with its seats and
 * result. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../core/registry.h"
#include "../core/setup.h"
#include "cli.h"
#include "records.h"

/* Shows game `number` (from 1) of a match record file after `plies`
 * moves (-1: all). */
static int show_record(const char *file, long number, long plies,
                       const char *want_game)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return cli_error("show", "cannot open %s", file);
    char *line = NULL;
    size_t cap = 0;
    long k = 0;
    ssize_t n = -1;
    while (k < number && (n = getline(&line, &cap, f)) > 0)
        k++;
    fclose(f);
    if (k < number || n <= 0) {
        free(line);
        return cli_error("show", "%s has %ld game%s, not %ld", file, k,
                         k == 1 ? "" : "s", number);
    }
    json_error_t je;
    json_t *o = json_loads(line, 0, &je);
    free(line);
    if (!o)
        return cli_error("show", "%s line %ld is not JSON: %s", file, number,
                         je.text);
    Record r;
    const char **moves = NULL;
    PlyError err = {{0}};
    int rc = 2;
    void *st = NULL;
    const GameVtbl *g = NULL;
    if (record_from_json(o, &r, &moves, &err)) {
        cli_error("show", "%s line %ld: %s", file, number, err.msg);
        goto out;
    }
    g = cli_game("show", r.game);
    if (!g)
        goto out;
    if (want_game && strcmp(want_game, r.game)) {
        cli_error("show", "%s line %ld is a game of %s, not %s", file, number,
                  r.game, want_game);
        goto out;
    }
    st = state_alloc(g);
    if (!st || state_setup(g, st, r.options, r.setup, 1, &err)) {
        cli_error("show", "%s line %ld: %s", file, number,
                  st ? err.msg : "out of memory");
        goto out;
    }
    long upto = plies < 0 || plies > r.nmoves ? r.nmoves : plies;
    for (long i = 0; i < upto; i++) {
        Move m;
        int mr = record_move(g, st, &r, (int)i, &m, &err);
        if (mr < 0) {
            cli_error("show", "%s line %ld: %s", file, number, err.msg);
            goto out;
        }
        if (mr > 0)
            break;      /* the illegal last move that lost */
        g->make(st, m);
    }
    printf("record %ld of %s: %s", number, file, r.game);
    if (r.options && r.options[0])
        printf(" (options %s)", r.options);
    printf(", after %ld of %d moves\n", upto, r.nmoves);
    for (int s = 0; s < r.nseats && s < g->info.num_players; s++) {
        printf("  seat %d %-8s %s", s, g->info.player_names[s],
               r.seats[s] ? r.seats[s] : "?");
        if (r.has_result)
            printf("  result %+.3g", r.result[s]);
        putchar('\n');
    }
    if (r.reason)
        printf("  ended: %s%s%s\n", r.reason, r.error ? ": " : "",
               r.error ? r.error : "");
    cli_print_position(stdout, g, st);
    rc = 0;
out:
    free(st);
    free(moves);
    json_decref(o);
    return rc;
}

int cmd_show(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "show"))
        return 0;
    static const struct option longopts[] = {
        {"setup", required_argument, 0, 's'},
        {"options", required_argument, 0, 'o'},
        {"moves", required_argument, 0, 'm'},
        {"record", required_argument, 0, 'r'},
        {"game", required_argument, 0, 'g'},
        {"ply", required_argument, 0, 'p'},
        {0, 0, 0, 0},
    };
    const char *setup = NULL, *options = NULL, *moves = NULL, *record = NULL;
    unsigned long long number = 1, plies = 0;
    int have_plies = 0;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 's': setup = optarg; break;
        case 'o': options = optarg; break;
        case 'm': moves = optarg; break;
        case 'r': record = optarg; break;
        case 'g':
            if (cli_parse_uint("show", "--game", optarg, &number))
                return 2;
            if (number < 1 || number > 1000000000)
                return cli_error("show", "--game counts from 1");
            break;
        case 'p':
            if (cli_parse_uint("show", "--ply", optarg, &plies))
                return 2;
            if (plies > 1000000)
                return cli_error("show", "--ply %llu is too large", plies);
            have_plies = 1;
            break;
        case ':': return cli_error("show", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("show", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (record) {
        if (setup || options || moves || argc - optind > 1)
            return cli_error("show", "usage: ply show [GAME] --record FILE "
                             "[--game N] [--ply K] (no --setup, --options, "
                             "--moves: the record has them)");
        return show_record(record, (long)number,
                           have_plies ? (long)plies : -1,
                           argc - optind == 1 ? argv[optind] : NULL);
    }
    if (have_plies || number != 1)
        return cli_error("show", "--game and --ply go with --record FILE");
    if (argc - optind != 1)
        return cli_error("show", "usage: ply show GAME [options]");
    const GameVtbl *g = cli_game("show", argv[optind]);
    if (!g)
        return 2;
    void *st = cli_position("show", g, options, setup, moves, 1);
    if (!st)
        return 2;
    cli_print_position(stdout, g, st);
    free(st);
    return 0;
}
