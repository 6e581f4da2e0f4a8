/* cmd_tune.c — `ply tune`: fits a game's evaluation weights to the
 * results of recorded games (Texel-style logistic least squares, see
 * src/tools/tune.h and docs/tuning.md) and writes them as the C header
 * the game compiles (src/games/chess/weights_GAME.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../search/evalfile.h"
#include "../tools/tune.h"
#include "cli.h"

enum { TOP_CHANGES = 15 };

static int parse_double(const char *what, const char *s, double lo,
                        double hi, double *out)
{
    char *end;
    errno = 0;
    double x = s ? strtod(s, &end) : 0;
    if (!s || end == s || *end || errno || !(x >= lo && x <= hi))
        return cli_error("tune", "%s must be a number in %g..%g, not '%s'",
                         what, lo, hi, s ? s : "");
    *out = x;
    return 0;
}

static int parse_count(const char *what, const char *s,
                       unsigned long long hi, unsigned long long *out)
{
    if (cli_parse_uint("tune", what, s, out))
        return 2;
    if (*out > hi)
        return cli_error("tune", "%s must be at most %llu, not '%s'", what,
                         hi, s);
    return 0;
}

/* Whether name starts with one of the comma-separated prefixes. */
static int has_prefix(const char *prefixes, const char *name)
{
    for (const char *p = prefixes; *p;) {
        size_t len = strcspn(p, ",");
        if (len && !strncmp(name, p, len))
            return 1;
        p += len;
        if (*p)
            p++;
    }
    return 0;
}

typedef struct Change {
    int index;
    int delta;
} Change;

static int by_size(const void *a, const void *b)
{
    int x = abs(((const Change *)a)->delta);
    int y = abs(((const Change *)b)->delta);
    return (x < y) - (x > y);
}

int cmd_tune(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "tune"))
        return 0;
    const char *game = NULL, *out = NULL, *init = NULL, *only = NULL;
    const char *freeze = NULL;
    unsigned long long epochs = 500, seed = 1, skip = 8, maxpos = 0;
    unsigned long long valid = 10;
    double rate = 1.0, l2 = 0;
    const char **files = calloc((size_t)argc, sizeof *files);
    int nfiles = 0;
    if (!files)
        return cli_error("tune", "out of memory");
    int rc = 0;
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        const char *v = has ? argv[i + 1] : NULL;
        if (a[0] != '-' || !strcmp(a, "-")) {
            files[nfiles++] = a;
            continue;
        }
        if (!has) {
            rc = cli_error("tune", "%s needs a value", a);
            break;
        }
        i++;
        if (!strcmp(a, "--game"))
            game = v;
        else if (!strcmp(a, "--out"))
            out = v;
        else if (!strcmp(a, "--init"))
            init = v;
        else if (!strcmp(a, "--only"))
            only = v;
        else if (!strcmp(a, "--freeze"))
            freeze = v;
        else if (!strcmp(a, "--epochs"))
            rc = parse_count("--epochs", v, 1000000, &epochs);
        else if (!strcmp(a, "--seed"))
            rc = parse_count("--seed", v, ~0ull, &seed);
        else if (!strcmp(a, "--skip-plies"))
            rc = parse_count("--skip-plies", v, 100000, &skip);
        else if (!strcmp(a, "--max-positions"))
            rc = parse_count("--max-positions", v, 1000000000, &maxpos);
        else if (!strcmp(a, "--validation"))
            rc = parse_count("--validation", v, 90, &valid);
        else if (!strcmp(a, "--rate"))
            rc = parse_double("--rate", v, 1e-6, 1000, &rate);
        else if (!strcmp(a, "--l2"))
            rc = parse_double("--l2", v, 0, 1e6, &l2);
        else
            rc = cli_error("tune", "unknown option '%s' (see ply tune --help)",
                           a);
    }
    if (rc) {
        free(files);
        return rc;
    }
    if (!game || !nfiles) {
        free(files);
        return cli_error("tune", "usage: ply tune --game GAME [options] "
                         "RECORDS.jsonl ... (see ply tune --help)");
    }
    const GameVtbl *g = cli_game("tune", game);
    if (!g) {
        free(files);
        return 2;
    }
    const EvalTuning *t = g->tuning;
    if (!t) {
        free(files);
        return cli_error("tune", "%s has no tunable evaluation (games with "
                         "one: chess, makruk, shatranj)", g->info.name);
    }
    int np = t->nparams;
    int *wi = malloc(sizeof *wi * (size_t)np);
    double *w0 = malloc(sizeof *w0 * (size_t)np);
    double *w = malloc(sizeof *w * (size_t)np);
    Change *ch = malloc(sizeof *ch * (size_t)np);
    unsigned char *frozen = calloc((size_t)np, 1);
    TuneData d;
    tune_data_init(&d, np);
    if (!wi || !w0 || !w || !ch || !frozen) {
        rc = cli_error("tune", "out of memory");
        goto done;
    }
    memcpy(wi, t->weights, sizeof *wi * (size_t)np);
    PlyError err = {{0}};
    if (init && evalfile_read(t, init, wi, &err)) {
        rc = cli_error("tune", "%s", err.msg);
        goto done;
    }
    for (int i = 0; i < np; i++)
        w0[i] = wi[i];
    int nfree = np;
    if (only || freeze) {
        for (int i = 0; i < np; i++) {
            frozen[i] = (only && !has_prefix(only, t->names[i])) ||
                        (freeze && has_prefix(freeze, t->names[i]));
            nfree -= frozen[i];
        }
        if (!nfree) {
            rc = cli_error("tune", "--only/--freeze leave no weight to fit "
                           "(names look like %s)", t->names[0]);
            goto done;
        }
    }

    TuneReadOpts ro = {(int)skip, (size_t)maxpos, (int)valid, seed};
    TuneReadStats rs = {0};
    for (int i = 0; i < nfiles && !rc; i++) {
        FILE *f = strcmp(files[i], "-") ? fopen(files[i], "r") : stdin;
        if (!f) {
            rc = cli_error("tune", "cannot open '%s'", files[i]);
            break;
        }
        if (tune_read_records(&d, g, f, files[i], &ro, &rs, &err))
            rc = cli_error("tune", "%s", err.msg);
        if (f != stdin)
            fclose(f);
    }
    if (rc)
        goto done;
    if (d.npos - d.nvalid < 1) {
        rc = cli_error("tune", "no %s positions to fit in %ld record(s) "
                       "(%ld of other games, %ld forfeits)", g->info.name,
                       rs.records, rs.other_game, rs.forfeits);
        goto done;
    }
    printf("games %ld (records %ld, other games %ld, forfeits %ld)\n",
           rs.games, rs.records, rs.other_game, rs.forfeits);
    printf("positions %zu: training %zu, validation %zu (skipped in check "
           "or check at the end of the captures: %ld)\n", d.npos,
           d.npos - d.nvalid, d.nvalid, rs.in_check);
    double k = tune_fit_k(&d, w0);
    double tr0 = tune_error(&d, w0, k, 0), va0 = tune_error(&d, w0, k, 1);
    if (rs.multi)
        printf("K %.6f (sigmoid(K * eval) ~ result for %s; in the %ld "
               "games of more than two seats, each player's from its own "
               "view, 0..1)\n", k, g->info.player_names[0], rs.multi);
    else
        printf("K %.6f (sigmoid(K * eval) ~ result for %s)\n", k,
               g->info.player_names[0]);
    printf("fitting %d of %d weights\n", nfree, np);
    TuneFitOpts fo = {(int)epochs, rate, l2, frozen};
    tune_fit(&d, k, w0, w, &fo);
    for (int i = 0; i < np; i++) {
        double r = round(w[i]);
        r = r > EVAL_MAX ? EVAL_MAX : r < -EVAL_MAX ? -EVAL_MAX : r;
        wi[i] = (int)r;
        w[i] = wi[i];
    }
    double tr1 = tune_error(&d, w, k, 0), va1 = tune_error(&d, w, k, 1);
    printf("error     before    after (rounded weights)\n");
    printf("train   %.6f %.6f\n", tr0, tr1);
    if (d.nvalid)
        printf("valid   %.6f %.6f\n", va0, va1);
    int nch = 0;
    for (int i = 0; i < np; i++)
        if (wi[i] != (int)w0[i])
            ch[nch++] = (Change){i, wi[i] - (int)w0[i]};
    qsort(ch, (size_t)nch, sizeof *ch, by_size);
    printf("%d of %d weights changed; the largest changes:\n", nch, np);
    for (int i = 0; i < nch && i < TOP_CHANGES; i++)
        printf("  %-28s %6d -> %6d  (%+d)\n", t->names[ch[i].index],
               (int)w0[ch[i].index], wi[ch[i].index], ch[i].delta);
    if (out) {
        FILE *f = fopen(out, "w");
        if (!f) {
            rc = cli_error("tune", "cannot write '%s'", out);
            goto done;
        }
        char note[512];
        if (!epochs)
            snprintf(note, sizeof note, "Not fitted (--epochs 0): the "
                     "initial weights.");
        else
            snprintf(note, sizeof note,
                     "Fitted on %zu positions (%ld games): K %.6f, %llu "
                     "epochs,\nrate %g, l2 %g, %d weights fitted; error "
                     "train %.6f -> %.6f,\nvalidation %.6f -> %.6f.",
                     d.npos, rs.games, k, epochs, rate, l2, nfree, tr0, tr1,
                     va0, va1);
        evalfile_write(f, g->info.name, t, wi, note);
        if (fclose(f))
            rc = cli_error("tune", "cannot write '%s'", out);
        else
            printf("wrote %s\n", out);
    }
done:
    tune_data_free(&d);
    free(files);
    free(wi);
    free(w0);
    free(w);
    free(ch);
    free(frozen);
    return rc;
}
