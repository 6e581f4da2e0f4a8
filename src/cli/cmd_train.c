/* cmd_train.c — `ply train`: training data from self-play (gen), shards
 * merged (merge), positions searched again (rescore), and a learned
 * evaluation fitted to them (fit), written as a net file for alphabeta's
 * net=FILE. See src/tools/train.h and docs/nets.md. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "../tools/train.h"
#include "cli.h"

static int parse_num(const char *what, const char *s, double lo, double hi,
                     double *out)
{
    char *end;
    errno = 0;
    double x = s ? strtod(s, &end) : 0;
    if (!s || end == s || *end || errno || !(x >= lo && x <= hi))
        return cli_error("train", "%s must be a number in %g..%g, not '%s'",
                         what, lo, hi, s ? s : "");
    *out = x;
    return 0;
}

static int parse_int(const char *what, const char *s, long lo, long hi,
                     long *out)
{
    unsigned long long v;
    if (cli_parse_uint("train", what, s, &v))
        return 2;
    if ((long long)v < lo || v > (unsigned long long)hi)
        return cli_error("train", "%s must be in %ld..%ld, not '%s'", what,
                         lo, hi, s);
    *out = (long)v;
    return 0;
}

static int cmd_gen(int argc, char **argv)
{
    const char *game = NULL, *out = NULL;
    TrainGenOpts o = {.options = "", .play = "alphabeta:nodes=2000",
                      .depth = 4, .keep = 0.1, .random_plies = 8,
                      .games = 100, .shard = 0, .nshards = 1, .jobs = 1,
                      .seed = 1};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long x;
        double d;
        int rc = 0;
        if (!v)
            return cli_error("train", "%s needs a value", a);
        if (!strcmp(a, "--game"))
            game = v;
        else if (!strcmp(a, "--out") || !strcmp(a, "-o"))
            out = v;
        else if (!strcmp(a, "--options"))
            o.options = v;
        else if (!strcmp(a, "--play"))
            o.play = v;
        else if (!strcmp(a, "--depth"))
            rc = parse_int("--depth", v, 0, 64, &x), o.depth = (int)x;
        else if (!strcmp(a, "--keep"))
            rc = parse_num("--keep", v, 0, 1, &d), o.keep = d;
        else if (!strcmp(a, "--random-plies"))
            rc = parse_int("--random-plies", v, 0, 1000, &x),
            o.random_plies = (int)x;
        else if (!strcmp(a, "--games"))
            rc = parse_int("--games", v, 1, 100000000, &x), o.games = x;
        else if (!strcmp(a, "-j") || !strcmp(a, "--jobs"))
            rc = parse_int("-j", v, 1, 256, &x), o.jobs = (int)x;
        else if (!strcmp(a, "--seed")) {
            unsigned long long s;
            rc = cli_parse_uint("train", "--seed", v, &s);
            o.seed = s;
        } else if (!strcmp(a, "--shard")) {
            int k, n, len = 0;
            if (sscanf(v, "%d/%d%n", &k, &n, &len) != 2 || v[len] ||
                n < 1 || n > 100000 || k < 0 || k >= n)
                return cli_error("train", "--shard must be K/N with 0 <= K "
                                 "< N, not '%s'", v);
            o.shard = k;
            o.nshards = n;
        } else
            return cli_error("train", "unknown option '%s'", a);
        if (rc)
            return 2;
        i++;
    }
    if (!game)
        return cli_error("train", "gen needs --game GAME");
    const GameVtbl *g = cli_game("train", game);
    if (!g)
        return 2;
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f)
        return cli_error("train", "cannot write '%s'", out);
    PlyError err = {{0}};
    TrainGenStats st;
    double t0 = now_seconds();
    int rc = train_generate(g, &o, f, &st, &err);
    if (out && fclose(f) && !rc)
        rc = ply_fail(&err, "cannot write '%s'", out);
    if (rc)
        return cli_error("train", "%s", err.msg);
    fprintf(stderr, "%ld games (%ld plies; %ld-%ld-%ld), %ld positions, "
            "%.1f s\n", st.games, st.plies, st.results[0], st.results[1],
            st.results[2], st.positions, now_seconds() - t0);
    return 0;
}

/* rescore: the positions of data files searched again, results kept */
static int cmd_rescore(int argc, char **argv)
{
    const char *game = NULL, *out = NULL;
    TrainRescoreOpts o = {.options = "", .bot = NULL, .depth = 4,
                          .jobs = 1, .seed = 1};
    int files = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long x;
        int rc = 0;
        if (a[0] != '-' || !a[1]) {
            files++;
            continue;
        }
        if (!v)
            return cli_error("train", "%s needs a value", a);
        if (!strcmp(a, "--game"))
            game = v;
        else if (!strcmp(a, "--out") || !strcmp(a, "-o"))
            out = v;
        else if (!strcmp(a, "--options"))
            o.options = v;
        else if (!strcmp(a, "--bot"))
            o.bot = v;
        else if (!strcmp(a, "--depth"))
            rc = parse_int("--depth", v, 1, 64, &x), o.depth = (int)x;
        else if (!strcmp(a, "-j") || !strcmp(a, "--jobs"))
            rc = parse_int("-j", v, 1, 256, &x), o.jobs = (int)x;
        else if (!strcmp(a, "--seed")) {
            unsigned long long s;
            rc = cli_parse_uint("train", "--seed", v, &s);
            o.seed = s;
        } else
            return cli_error("train", "unknown option '%s'", a);
        if (rc)
            return 2;
        i++;
    }
    if (!game)
        return cli_error("train", "rescore needs --game GAME");
    if (!files)
        return cli_error("train", "rescore needs data files");
    const GameVtbl *g = cli_game("train", game);
    if (!g)
        return 2;
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f)
        return cli_error("train", "cannot write '%s'", out);
    PlyError err = {{0}};
    TrainRescoreStats st = {0};
    double t0 = now_seconds();
    int rc = fprintf(f, "# ply-train-data 1 %s\n", g->info.name) < 0
           ? ply_fail(&err, "cannot write the data") : 0;
    /* the data files: the arguments that are not options or their values */
    for (int i = 2; !rc && i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1]) {
            i++;
            continue;
        }
        FILE *in = fopen(a, "r");
        if (!in) {
            rc = ply_fail(&err, "cannot read '%s'", a);
            break;
        }
        rc = train_rescore(g, &o, in, a, f, &st, &err);
        fclose(in);
    }
    if (out && fclose(f) && !rc)
        rc = ply_fail(&err, "cannot write '%s'", out);
    if (rc)
        return cli_error("train", "%s", err.msg);
    fprintf(stderr, "%ld positions read, %ld kept (%ld dropped: best move "
            "noisy; %ld: a mate), %.1f s\n", st.read, st.kept, st.noisy,
            st.mates, now_seconds() - t0);
    return 0;
}

static int cmd_merge(int argc, char **argv)
{
    const char *out = NULL;
    int first = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--out") || !strcmp(argv[i], "-o")) {
            if (i + 1 >= argc)
                return cli_error("train", "%s needs a value", argv[i]);
            out = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_error("train", "unknown option '%s'", argv[i]);
        } else if (!first) {
            first = i;
        }
    }
    if (!first)
        return cli_error("train", "merge needs data files");
    char header[256] = "";
    FILE *o = out ? fopen(out, "w") : stdout;
    if (!o)
        return cli_error("train", "cannot write '%s'", out);
    int rc = 0;
    long lines = 0;
    char *line = NULL;
    size_t cap = 0;
    for (int i = first; i < argc && !rc; i++) {
        if (!strcmp(argv[i], "--out") || !strcmp(argv[i], "-o")) {
            i++;
            continue;
        }
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            rc = cli_error("train", "cannot open '%s'", argv[i]);
            break;
        }
        ssize_t len;
        long ln = 0;
        while ((len = getline(&line, &cap, f)) >= 0) {
            ln++;
            if (line[0] == '#') {
                if (!header[0] && (size_t)len < sizeof header &&
                    !strncmp(line, "# ply-train-data ", 17)) {
                    memcpy(header, line, (size_t)len + 1);
                    fputs(header, o);
                } else if (strcmp(line, header)) {
                    rc = cli_error("train", "%s:%ld: another game's or "
                                   "format's header", argv[i], ln);
                    break;
                }
                continue;
            }
            if (!header[0]) {
                rc = cli_error("train", "%s:%ld: not training data",
                               argv[i], ln);
                break;
            }
            fwrite(line, 1, (size_t)len, o);
            lines++;
        }
        fclose(f);
    }
    free(line);
    if (out && fclose(o) && !rc)
        rc = cli_error("train", "cannot write '%s'", out);
    if (!rc)
        fprintf(stderr, "%ld positions\n", lines);
    return rc;
}

static int cmd_fit(int argc, char **argv)
{
    const char *game = NULL, *out = NULL, *options = "";
    long hidden = 128, factors = 1, add_eval = 0;
    TrainFitOpts o = {.epochs = 10, .batch = 256, .rate = 0.001,
                      .lambda = 0.5, .k = 200, .valid_percent = 10,
                      .seed = 1, .log = stderr};
    int nfiles = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-' || !a[1]) {
            nfiles++;
            continue;
        }
        long x;
        double d;
        int rc = 0;
        if (!v)
            return cli_error("train", "%s needs a value", a);
        if (!strcmp(a, "--game"))
            game = v;
        else if (!strcmp(a, "--out") || !strcmp(a, "-o"))
            out = v;
        else if (!strcmp(a, "--options"))
            options = v;
        else if (!strcmp(a, "--hidden"))
            rc = parse_int("--hidden", v, 1, NET_MAX_HIDDEN, &hidden);
        else if (!strcmp(a, "--epochs"))
            rc = parse_int("--epochs", v, 0, 100000, &x), o.epochs = (int)x;
        else if (!strcmp(a, "--batch"))
            rc = parse_int("--batch", v, 1, 1 << 20, &x), o.batch = (int)x;
        else if (!strcmp(a, "--rate"))
            rc = parse_num("--rate", v, 1e-7, 1, &d), o.rate = d;
        else if (!strcmp(a, "--lambda"))
            rc = parse_num("--lambda", v, 0, 1, &d), o.lambda = d;
        else if (!strcmp(a, "--factors"))
            rc = parse_int("--factors", v, 0, 1, &factors);
        else if (!strcmp(a, "--add-eval"))
            rc = parse_int("--add-eval", v, 0, 1, &add_eval);
        else if (!strcmp(a, "--l2"))
            rc = parse_num("--l2", v, 0, 1, &d), o.l2 = d;
        else if (!strcmp(a, "--k"))
            rc = parse_num("--k", v, 1, 100000, &d), o.k = d;
        else if (!strcmp(a, "--validation"))
            rc = parse_int("--validation", v, 0, 50, &x),
            o.valid_percent = (int)x;
        else if (!strcmp(a, "--seed")) {
            unsigned long long s;
            rc = cli_parse_uint("train", "--seed", v, &s);
            o.seed = s;
        } else
            return cli_error("train", "unknown option '%s'", a);
        if (rc)
            return 2;
        i++;
    }
    if (!game || !out || !nfiles)
        return cli_error("train", "fit needs --game GAME, --out NET and "
                         "data files");
    const GameVtbl *g = cli_game("train", game);
    if (!g)
        return 2;
    if (!g->net || g->info.num_players != 2)
        return cli_error("train", "%s has no net inputs", g->info.name);
    if (add_eval && !g->eval)
        return cli_error("train", "--add-eval 1: %s has no evaluation to "
                         "add to", g->info.name);
    TrainSet d;
    train_set_init(&d, g, (int)factors);
    PlyError err = {{0}};
    int rc = 0;
    for (int i = 2; i < argc && !rc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) {
            i++;
            continue;
        }
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            rc = ply_fail(&err, "cannot open '%s'", argv[i]);
            break;
        }
        rc = train_set_read(&d, f, argv[i], options, &err);
        fclose(f);
    }
    NetFloat n = {0}, folded = {0};
    Net q = {0};
    if (!rc && !d.n)
        rc = ply_fail(&err, "no positions in the data");
    if (!rc && netf_alloc(&n, train_inputs(&d), (int)hidden))
        rc = ply_fail(&err, "out of memory");
    double t0 = now_seconds();
    if (!rc) {
        netf_randomize(&n, o.seed);
        n.flags = add_eval ? NET_ADDS_EVAL : 0;
        fprintf(stderr, "%zu positions, %d inputs, hidden %ld; start: train "
                "%.6f validation %.6f\n", d.n, n.ninputs, hidden,
                train_loss(&d, &n, &o, 0), train_loss(&d, &n, &o, 1));
        if (g->eval)
            fprintf(stderr, "the game's own evaluation: train %.6f "
                    "validation %.6f\n", train_loss(&d, NULL, &o, 0),
                    train_loss(&d, NULL, &o, 1));
        rc = train_fit(&d, &n, &o, &err);
    }
    if (!rc && train_fold(&d, &n, &folded))
        rc = ply_fail(&err, "out of memory");
    if (!rc)
        rc = net_quantise(&folded, g, &q, &err);
    if (!rc)
        rc = net_save(&q, out, &err);
    if (!rc)
        fprintf(stderr, "wrote %s (%.1f s)\n", out, now_seconds() - t0);
    net_free(&q);
    netf_free(&n);
    netf_free(&folded);
    train_set_free(&d);
    if (rc)
        return cli_error("train", "%s", err.msg);
    return 0;
}

/* `ply train embed`: a net file as a C header, so that a game can carry
 * it as its default (NetFeatures.builtin). The net is loaded first, so
 * that only a sound net for the game is embedded. */
static int cmd_embed(int argc, char **argv)
{
    const char *game = NULL, *out = NULL, *name = NULL, *source = NULL;
    const char *path = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-' || !a[1]) {
            if (path)
                return cli_error("train", "embed takes one net file");
            path = a;
            continue;
        }
        if (!v)
            return cli_error("train", "%s needs a value", a);
        if (!strcmp(a, "--game"))
            game = v;
        else if (!strcmp(a, "--out") || !strcmp(a, "-o"))
            out = v;
        else if (!strcmp(a, "--name"))
            name = v;
        else if (!strcmp(a, "--source"))
            source = v;
        else
            return cli_error("train", "unknown option '%s'", a);
        i++;
    }
    if (!game || !out || !name || !path)
        return cli_error("train", "embed needs --game GAME, --name SYMBOL, "
                         "--out HEADER and a net file");
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              *c == '_' || (c > name && *c >= '0' && *c <= '9')))
            return cli_error("train", "--name must be a C identifier, not "
                             "'%s'", name);
    if (source && (strstr(source, "*/") || strchr(source, '\n')))
        return cli_error("train", "--source must be one line without '*/'");
    const GameVtbl *g = cli_game("train", game);
    if (!g)
        return 2;
    PlyError err = {{0}};
    Net q = {0};
    if (net_load(&q, g, path, &err))
        return cli_error("train", "%s", err.msg);
    int hidden = q.hidden;
    net_free(&q);
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long len = -1;
    if (f && !fseek(f, 0, SEEK_END) && (len = ftell(f)) > 0 &&
        !fseek(f, 0, SEEK_SET) && (buf = malloc((size_t)len)) &&
        fread(buf, 1, (size_t)len, f) != (size_t)len)
        len = -1;
    if (f)
        fclose(f);
    if (!buf || len <= 0) {
        free(buf);
        return cli_error("train", "cannot read '%s'", path);
    }
    const char *base = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
    FILE *o = fopen(out, "w");
    if (!o) {
        free(buf);
        return cli_error("train", "cannot write '%s'", out);
    }
    fprintf(o, "/* %s — a learned evaluation for %s, written by\n"
            " * `ply train embed` (docs/nets.md); do not edit. Feature set "
            "%s,\n * hidden %d, %ld bytes.\n", base, g->info.name,
            g->net->name, hidden, len);
    /* the source, wrapped at spaces to lines of about 76 columns */
    for (const char *p = source; p && *p;) {
        size_t n = strlen(p), cut = n;
        if (n > 73) {
            cut = 73;
            while (cut > 0 && p[cut] != ' ')
                cut--;
            if (!cut)
                for (cut = 73; p[cut] && p[cut] != ' '; cut++)
                    ;
        }
        fprintf(o, " * %.*s\n", (int)cut, p);
        p += cut;
        while (*p == ' ')
            p++;
    }
    fprintf(o, " */\nstatic const unsigned char %s[%ld] = {", name, len);
    for (long i = 0; i < len; i++)
        fprintf(o, "%s0x%02x,", i % 12 ? " " : "\n    ", buf[i]);
    fprintf(o, "\n};\n");
    free(buf);
    if (fclose(o))
        return cli_error("train", "cannot write '%s'", out);
    fprintf(stderr, "wrote %s (%ld bytes of net)\n", out, len);
    return 0;
}

int cmd_train(int argc, char **argv)
{
    int h = cli_wants_help(argc, argv, "train");
    if (h >= 0)
        return h;
    if (argc < 2)
        return cli_error("train", "give gen, merge, rescore, fit or embed "
                         "(ply train --help)");
    if (!strcmp(argv[1], "gen"))
        return cmd_gen(argc, argv);
    if (!strcmp(argv[1], "merge"))
        return cmd_merge(argc, argv);
    if (!strcmp(argv[1], "rescore"))
        return cmd_rescore(argc, argv);
    if (!strcmp(argv[1], "fit"))
        return cmd_fit(argc, argv);
    if (!strcmp(argv[1], "embed"))
        return cmd_embed(argc, argv);
    return cli_error("train", "unknown subcommand '%s' (gen, merge, rescore, "
                     "fit, embed)", argv[1]);
}
