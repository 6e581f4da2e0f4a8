/* cmd_match.c — `ply match`: argument parsing; the work is in
 * src/tools/match.c. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../proto/clients.h"
#include "../tools/engine.h"
#include "../tools/match.h"
#include "../tools/slurm.h"
#include "cli.h"

enum { SETUP_TEXT_MAX = sizeof ((GameRecord *)0)->setup };

static void free_lines(char **lines, int n)
{
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

/* Openings file: one setup string per line; blank lines and # comments
 * are skipped. */
static int read_openings(const char *path, MatchConfig *c)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return cli_error("match", "cannot read openings file '%s'", path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int count = 0, room = 0;
    char **lines = NULL;
    while ((n = getline(&line, &cap, f)) >= 0) {
        line[strcspn(line, "\r\n")] = 0;
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#')
            continue;
        if (count == MATCH_MAX_OPENINGS || strlen(s) >= SETUP_TEXT_MAX) {
            free(line);
            fclose(f);
            free_lines(lines, count);
            return cli_error("match", "openings file '%s': %s", path,
                             count == MATCH_MAX_OPENINGS
                             ? "more than 1000000 setups"
                             : "a setup of 4096 characters or more");
        }
        if (count == room) {
            room = room ? room * 2 : 16;
            char **l2 = realloc(lines, sizeof *l2 * (size_t)room);
            if (!l2)
                goto oom;
            lines = l2;
        }
        if (!(lines[count] = strdup(s)))
            goto oom;
        count++;
    }
    free(line);
    fclose(f);
    if (!count) {
        free(lines);
        return cli_error("match", "openings file '%s' has no setups", path);
    }
    c->open_lines = lines;
    c->open_count = count;
    return 0;
oom:
    free(line);
    fclose(f);
    free_lines(lines, count);
    return cli_error("match", "out of memory reading '%s'", path);
}

/* The arguments of orig (argv before getopt permuted it) that every shard
 * repeats: all but --slurm, --out, --resume, --shard, --sprt (the merge
 * takes that) and their values. Long options may be abbreviated as
 * getopt_long allows. */
static int shard_args(int argc, char **orig, const struct option *lo,
                      char **keep, const char **sprt)
{
    int n = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = orig[i];
        if (!strcmp(a, "--")) {
            while (i < argc)
                keep[n++] = orig[i++];
            break;
        }
        if (!strncmp(a, "--", 2)) {
            size_t len = strcspn(a + 2, "=");
            const struct option *o = NULL;
            for (const struct option *p = lo; p->name; p++)
                if (!strncmp(p->name, a + 2, len)) {
                    o = p;
                    if (strlen(p->name) == len)
                        break;      /* exact beats a prefix */
                }
            int has_val = o && o->has_arg == required_argument;
            int inline_val = a[2 + len] == '=';
            const char *val = inline_val ? a + 3 + len
                              : has_val && i + 1 < argc ? orig[i + 1] : NULL;
            int drop = o && (o->val == 'L' || o->val == 'f' ||
                             o->val == 'R' || o->val == 'H' ||
                             o->val == 'S');
            if (o && o->val == 'S')
                *sprt = val;
            if (!drop)
                keep[n++] = orig[i];
            if (has_val && !inline_val && i + 1 < argc) {
                i++;
                if (!drop)
                    keep[n++] = orig[i];
            }
            continue;
        }
        keep[n++] = orig[i];
        /* -n 10, -j 2 (not -n10) */
        if (a[0] == '-' && (a[1] == 'n' || a[1] == 'j') && !a[2] &&
            i + 1 < argc)
            keep[n++] = orig[++i];
    }
    return n;
}

/* ply match ... --slurm N [--out DIR]: the scripts, nothing played. */
static int write_slurm(int argc, char **orig, const struct option *lo,
                       const MatchConfig *c, int shards)
{
    char cwd[4096], exe[4096], dir[8192];
    const char *d = c->out ? c->out : "ply-match-slurm";
    if (!getcwd(cwd, sizeof cwd))
        return cli_error("match", "getcwd: %s", strerror(errno));
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return cli_error("match", "cannot find the ply binary's path");
    exe[n] = 0;
    if ((size_t)snprintf(dir, sizeof dir, "%s%s%s", d[0] == '/' ? "" : cwd,
                         d[0] == '/' ? "" : "/", d) >= sizeof dir)
        return cli_error("match", "--out: path too long");
    char **keep = malloc(sizeof *keep * (size_t)argc);
    if (!keep)
        return cli_error("match", "out of memory");
    const char *sprt = NULL;
    SlurmJob j = {.dir = dir, .shards = shards, .cpus = c->jobs,
                  .ply = exe, .cwd = cwd, .args = keep};
    j.nargs = shard_args(argc, orig, lo, keep, &sprt);
    j.sprt = sprt;
    PlyError err = {{0}};
    int rc = slurm_write(&j, &err);
    free(keep);
    if (rc)
        return cli_error("match", "%s", err.msg);
    printf("wrote %s/shard.sbatch (a job array of %d shards of %llu games),"
           "\n%s/merge.sbatch (the merge, after them) and %s/submit.sh;\n"
           "submit with: sh %s/submit.sh\n", dir, shards,
           (unsigned long long)c->total, dir, dir, dir);
    return 0;
}

static int run_match(int argc, char **argv, char **orig);

int cmd_match(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "match"))
        return 0;
    /* --slurm repeats the arguments: a copy before getopt permutes them */
    char **orig = malloc(sizeof *orig * (size_t)(argc + 1));
    if (!orig)
        return cli_error("match", "out of memory");
    memcpy(orig, argv, sizeof *orig * (size_t)argc);
    orig[argc] = NULL;
    int rc = run_match(argc, argv, orig);
    free(orig);
    return rc;
}

static int run_match(int argc, char **argv, char **orig)
{
    static const struct option longopts[] = {
        {"tc", required_argument, 0, 't'},
        {"openings", required_argument, 0, 'O'},
        {"sprt", required_argument, 0, 'S'},
        {"out", required_argument, 0, 'f'},
        {"resume", no_argument, 0, 'R'},
        {"seed", required_argument, 0, 'r'},
        {"json", no_argument, 0, 'J'},
        {"engine", required_argument, 0, 'e'},
        {"options", required_argument, 0, 'o'},
        {"grace", required_argument, 0, 'g'},
        {"movetime", required_argument, 0, 'm'},
        {"quiet", no_argument, 0, 'q'},
        {"startup", required_argument, 0, 'u'},
        {"shard", required_argument, 0, 'H'},
        {"merge", no_argument, 0, 'M'},
        {"slurm", required_argument, 0, 'L'},
        {"fixed-seats", no_argument, 0, 'F'},
        {0, 0, 0, 0},
    };
    static MatchConfig cfg;     /* large (pairing table): not on the stack */
    MatchConfig *c = &cfg;
    memset(c, 0, sizeof *c);
    c->games = 10;
    c->jobs = 1;
    c->seed = 1;
    c->alpha = c->beta = 0.05;
    c->progress = 1;
    Participant engines[MATCH_MAX_PARTS];
    int nengines = 0, ch, merge = 0, slurm = 0;

    unsigned long long x;
    PlyError err = {{0}};
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":n:j:", longopts, NULL)) != -1) {
        switch (ch) {
        case 'n':
            if (cli_parse_uint("match", "-n", optarg, &x))
                return 2;
            if (x > MATCH_MAX_GAMES)
                return cli_error("match", "-n %llu is too large (at most %d "
                                 "games per pairing)", x, MATCH_MAX_GAMES);
            c->games = x;
            break;
        case 'j':
            if (cli_parse_uint("match", "-j", optarg, &x))
                return 2;
            if (x < 1 || x > MATCH_MAX_JOBS)
                return cli_error("match", "-j must be 1..%d", MATCH_MAX_JOBS);
            c->jobs = (int)x;
            break;
        case 't':
            if (match_parse_tc(optarg, c, &err))
                return cli_error("match", "%s", err.msg);
            break;
        case 'O':
            if (!strncmp(optarg, "random:", 7)) {
                if (cli_parse_uint("match", "--openings random:PLIES",
                                   optarg + 7, &x))
                    return 2;
                if (x > MATCH_MAX_OPEN_PLIES)
                    return cli_error("match", "random openings of at most "
                                     "%d plies", MATCH_MAX_OPEN_PLIES);
                c->open_plies = (int)x;
            } else if (read_openings(optarg, c)) {
                return 2;
            }
            break;
        case 'S': {
            double v[4] = {0, 0, 0.05, 0.05};
            char *s = optarg, *end;
            int k = 0;
            for (; k < 4; k++) {
                v[k] = strtod(s, &end);
                if (end == s)
                    break;
                s = end;
                if (*s != ',')
                    { k++; break; }
                s++;
            }
            if ((k != 2 && k != 4) || *s || !isfinite(v[0]) ||
                !isfinite(v[1]) || fabs(v[0]) > MATCH_MAX_ELO ||
                fabs(v[1]) > MATCH_MAX_ELO || !(v[1] > v[0]) ||
                !(v[2] > 0 && v[2] < 0.5) || !(v[3] > 0 && v[3] < 0.5))
                return cli_error("match", "bad --sprt '%s' (want elo0,elo1"
                                 " or elo0,elo1,alpha,beta with elo0 < elo1"
                                 " and 0 < alpha, beta < 0.5, elos within"
                                 " +-%d)", optarg, MATCH_MAX_ELO);
            c->sprt = 1;
            c->elo0 = v[0];
            c->elo1 = v[1];
            c->alpha = v[2];
            c->beta = v[3];
            break;
        }
        case 'f': c->out = optarg; break;
        case 'R': c->resume = 1; break;
        case 'r':
            if (cli_parse_uint("match", "--seed", optarg, &x))
                return 2;
            c->seed = x;
            break;
        case 'J': c->json = 1; break;
        case 'H':
            if (match_parse_shard(optarg, c, &err))
                return cli_error("match", "%s", err.msg);
            break;
        case 'M': merge = 1; break;
        case 'L':
            if (cli_parse_uint("match", "--slurm", optarg, &x))
                return 2;
            if (x < 1 || x > MATCH_MAX_SHARDS)
                return cli_error("match", "--slurm: 1 to %d shards",
                                 MATCH_MAX_SHARDS);
            slurm = (int)x;
            break;
        case 'q': c->quiet_engines = 1; break;
        case 'F': c->fixed_seats = 1; break;
        case 'e':
            if (nengines == MATCH_MAX_PARTS)
                return cli_error("match", "too many engines");
            if (match_parse_engine(optarg, &engines[nengines], &err))
                return cli_error("match", "%s", err.msg);
            nengines++;
            break;
        case 'o':
            snprintf(c->options, sizeof c->options, "%s", optarg);
            break;
        case 'g':
            if (parse_duration_ms(optarg, &c->grace_ms))
                return cli_error("match", "bad --grace '%s'", optarg);
            break;
        case 'u':
            if (parse_duration_ms(optarg, &c->start_ms) || c->start_ms <= 0)
                return cli_error("match", "bad --startup '%s'", optarg);
            break;
        case 'm':
            if (parse_duration_ms(optarg, &c->ext_move_ms) ||
                c->ext_move_ms <= 0)
                return cli_error("match", "bad --movetime '%s'", optarg);
            break;
        case ':':
            return cli_error("match", "%s needs a value", argv[optind - 1]);
        default:
            return cli_error("match", "unknown option '%s'",
                             argv[optind - 1]);
        }
    }
    if (merge) {
        /* the settings come from the records */
        if (c->out || c->resume || c->shard_n || nengines)
            return cli_error("match", "--merge takes record files (and "
                             "--json, --sprt), not --out, --resume, --shard "
                             "or --engine");
        if (argc - optind < 1)
            return cli_error("match", "usage: ply match --merge FILE... "
                             "[--json] [--sprt ELO0,ELO1]");
        if (match_merge(c, argc - optind, argv + optind, stdout, &err))
            return cli_error("match", "%s", err.msg);
        return 0;
    }
    if (c->shard_n && c->sprt)
        return cli_error("match", "--sprt stops a match early, which a shard "
                         "cannot do alone (it does not see the others): "
                         "drop --sprt from the shards and give it to "
                         "--merge");
    if (argc - optind < 2)
        return cli_error("match", "usage: ply match GAME BOT_A BOT_B "
                         "[BOT_C ...] [options] (see ply match --help)");
    c->g = cli_game("match", argv[optind]);
    if (!c->g)
        return 2;
    for (int i = optind + 1; i < argc; i++) {
        if (c->nparts == MATCH_MAX_PARTS)
            return cli_error("match", "at most %d participants",
                             MATCH_MAX_PARTS);
        Participant *p = &c->parts[c->nparts++];
        memset(p, 0, sizeof *p);
        int e = 0;
        for (; e < nengines; e++)
            if (!strcmp(engines[e].name, argv[i]))
                break;
        if (e < nengines) {
            *p = engines[e];
            continue;
        }
        if (strlen(argv[i]) >= sizeof p->name)
            return cli_error("match", "bot spec too long");
        p->kind = PART_BOT;
        snprintf(p->name, sizeof p->name, "%s", argv[i]);
    }
    for (int e = 0; e < nengines; e++) {
        int used = 0;
        for (int i = 0; i < c->nparts; i++)
            used |= !strcmp(c->parts[i].name, engines[e].name);
        if (!used)
            return cli_error("match", "engine %s is not among the "
                             "participants: name it after the game",
                             engines[e].name);
    }
    /* a program that is not there would lose every game at the
     * handshake; on a cluster (--slurm) it need only be on the nodes */
    for (int e = 0; e < nengines && !slurm; e++)
        if (engine_check_cmd(engines[e].cmd, &err))
            return cli_error("match", "engine %s: %s", engines[e].name,
                             err.msg);
    if (slurm && (c->shard_n || c->resume))
        return cli_error("match", "--slurm writes the scripts of every "
                         "shard: drop --shard and --resume");
    if (c->resume && !c->out)
        return cli_error("match", "--resume needs --out FILE");
    c->clients = proto_clients;
    if (match_prepare(c, &err))
        return cli_error("match", "%s", err.msg);
    if (slurm)
        return write_slurm(argc, orig, longopts, c, slurm);
    /* a dead engine must give EPIPE, not kill the referee */
    signal(SIGPIPE, SIG_IGN);
    int rc = match_run(c, stdout, &err);
    free_lines(c->open_lines, c->open_count);
    c->open_lines = NULL;
    if (rc)
        return cli_error("match", "%s", err.msg);
    return 0;
}
