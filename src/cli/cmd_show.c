/* cmd_show.c — `ply show GAME`: a position, its moves, its result; or
 * `ply show --record FILE [--game N] [--ply K]`: game N of a match record
 * file (any number of players) after K of its moves, with its seats and
 * result. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/registry.h"
#include "../core/setup.h"
#include "cli.h"
#include "records.h"

static int as_seat(const GameVtbl *g, const char *who);
static int show_as(const GameVtbl *g, const void *st, int seat);

/* Shows game `number` (from 1) of a match record file after `plies`
 * moves (-1: all): the true position, or with `as` what that player saw
 * then (a record keeps the true game; any seat's view is replayed from
 * it). */
static int show_record(const char *file, long number, long plies,
                       const char *want_game, const char *as)
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
    int seat = as ? as_seat(g, as) : -1;
    if (as && seat < 0)
        goto out;
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
    for (int s = 0; s < r.nseats && s < state_seats(g, st, NULL); s++) {
        printf("  seat %d %-8s %s", s, state_seat_name(g, st, s),
               r.seats[s] ? r.seats[s] : "?");
        if (r.has_result)
            printf("  result %+.3g", r.result[s]);
        putchar('\n');
    }
    if (r.reason)
        printf("  ended: %s%s%s\n", r.reason, r.error ? ": " : "",
               r.error ? r.error : "");
    if (as)
        rc = show_as(g, st, seat);
    else
        rc = (cli_print_position(stdout, g, st), 0);
out:
    free(st);
    free(moves);
    json_decref(o);
    return rc;
}

/* The seat `who` names (a player name or 1..N) in a game with hidden
 * information, or -1 with the error printed. */
static int as_seat(const GameVtbl *g, const char *who)
{
    if (!(g->info.flags & GAME_HIDDEN) || !g->observe) {
        cli_error("show", "--as: %s has no hidden information; every "
                  "player sees the whole position", g->info.name);
        return -1;
    }
    for (int p = 0; p < g->info.num_players; p++)
        if (!strcasecmp(who, g->info.player_names[p]))
            return p;
    char *end;
    long v = strtol(who, &end, 10);
    if (*who && !*end && v >= 1 && v <= g->info.num_players)
        return (int)v - 1;
    cli_error("show", "--as: no player '%s' in %s (give a name or 1..%d)",
              who, g->info.name, g->info.num_players);
    return -1;
}

/* What one player sees: his observation drawn and written as a view
 * string; his moves when he is to move. */
static int show_as(const GameVtbl *g, const void *st, int seat)
{
    return cli_print_view(stdout, g, st, seat) ? cli_error("show", "out of memory") : 0;
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
        {"as", required_argument, 0, 'a'},
        {0, 0, 0, 0},
    };
    const char *setup = NULL, *options = NULL, *moves = NULL, *record = NULL;
    const char *as = NULL;
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
        case 'a': as = optarg; break;
        case ':': return cli_error("show", "%s needs a value",
                                   argv[optind - 1]);
        default: return cli_error("show", "unknown option '%s'",
                                  argv[optind - 1]);
        }
    }
    if (record) {
        if (setup || options || moves || argc - optind > 1)
            return cli_error("show", "usage: ply show [GAME] --record FILE "
                             "[--game N] [--ply K] [--as PLAYER] (no "
                             "--setup, --options, --moves: the record has "
                             "them)");
        return show_record(record, (long)number,
                           have_plies ? (long)plies : -1,
                           argc - optind == 1 ? argv[optind] : NULL, as);
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
    if (as) {
        int seat = as_seat(g, as);
        int rc = seat < 0 ? 2 : show_as(g, st, seat);
        free(st);
        return rc;
    }
    cli_print_position(stdout, g, st);
    free(st);
    return 0;
}
