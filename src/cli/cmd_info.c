/* cmd_info.c — `ply list`, `ply info GAME` and `ply info BOT`. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../core/book.h"
#include "../core/format.h"
#include "../core/options.h"
#include "../core/registry.h"
#include "../core/setup.h"
#include "cli.h"

/* A directory entry that names a rules file. */
static int zrf_path_ok(const char *name)
{
    size_t len = strlen(name);
    return len > 4 && !strcasecmp(name + len - 4, ".zrf");
}

/* `ply list FILE.zrf|DIR...`: one line per rules file (a directory's
 * .zrf files, its subdirectories too, in name order); *bad counts the
 * files that do not load. -1 when a path cannot be read. */
enum { LIST_MAX_DEPTH = 16, LIST_MAX_FILES = 100000 };

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_path(const char *path, int depth, int *bad, int *count)
{
    struct stat sb;
    if (stat(path, &sb))
        return cli_error("list", "cannot read '%s'", path);
    if (!S_ISDIR(sb.st_mode)) {
        if (++*count > LIST_MAX_FILES)
            return cli_error("list", "more than %d files", LIST_MAX_FILES);
        char line[256];
        PlyError err = {{0}};
        if (game_rules_describe(path, line, sizeof line, &err)) {
            printf("  %-40s does not load: %s\n", path, err.msg);
            ++*bad;
        } else {
            printf("  %-40s %s\n", path, line);
        }
        return 0;
    }
    if (depth >= LIST_MAX_DEPTH)
        return 0;
    DIR *d = opendir(path);
    if (!d)
        return cli_error("list", "cannot read '%s'", path);
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char *full = malloc(strlen(path) + strlen(e->d_name) + 2);
        if (!full) {
            rc = cli_error("list", "out of memory");
            break;
        }
        sprintf(full, "%s/%s", path, e->d_name);
        struct stat es;
        if (stat(full, &es) || (!S_ISDIR(es.st_mode) && !zrf_path_ok(full))) {
            free(full);
            continue;
        }
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            char **q = realloc(names, nc * sizeof *q);
            if (!q) {
                free(full);
                rc = cli_error("list", "out of memory");
                break;
            }
            names = q;
            cap = nc;
        }
        names[n++] = full;
    }
    closedir(d);
    if (names)
        qsort(names, n, sizeof *names, name_cmp);
    for (size_t i = 0; i < n; i++) {
        if (!rc)
            rc = list_path(names[i], depth + 1, bad, count);
        free(names[i]);
    }
    free(names);
    return rc;
}

int cmd_list(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "list"))
        return 0;
    if (argc > 1) {
        int bad = 0, count = 0;
        printf("rules files:\n");
        for (int i = 1; i < argc; i++)
            if (list_path(argv[i], 0, &bad, &count))
                return 1;
        return bad ? 1 : 0;
    }
    printf("games:\n");
    for (int i = 0; ply_games[i]; i++)
        printf("  %-24s %s (%d players%s)\n", ply_games[i]->info.name,
               ply_games[i]->info.title, ply_games[i]->info.num_players,
               ply_games[i]->info.flags & GAME_HIDDEN
                   ? ", hidden-information" : "");
    printf("bots:\n");
    for (int i = 0; ply_bots[i]; i++)
        printf("  %-24s %s\n", ply_bots[i]->name, ply_bots[i]->help);
    return 0;
}

/* `ply info BOT`: what it does, then every option it reads. */
static int bot_info(const BotVtbl *v)
{
    printf("%s (bot)\n\n%s\n\noptions (%s:key=value,...):\n", v->name,
           v->help, v->name);
    char line[1024];
    for (int i = 0; i < bot_option_count(v); i++)
        if (option_describe(bot_option_at(v, i), line, sizeof line) >= 0)
            printf("  %s\n", line);
    return 0;
}

int cmd_info(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "info"))
        return 0;
    if (argc == 3 && !strcmp(argv[1], "--bot")) {
        const BotVtbl *v = bot_find(argv[2]);
        if (!v)
            return cli_error("info", "unknown bot '%s' (ply list names "
                             "them)", argv[2]);
        return bot_info(v);
    }
    if (argc != 2)
        return cli_error("info", "usage: ply info GAME|BOT");
    if (!game_find(argv[1]) && bot_find(argv[1]))
        return bot_info(bot_find(argv[1]));
    const GameVtbl *g = cli_game("info", argv[1]);
    if (!g)
        return 2;
    const GameInfo *in = &g->info;
    printf("%s — %s\n\n", in->name, in->title);
    printf("players: %d (", in->num_players);
    for (int p = 0; p < in->num_players; p++)
        printf("%s%s", p ? ", " : "", in->player_names[p]);
    printf(")%s\n", g->seats ? "; the options may leave seats empty, and "
           "front ends seat only the players taking part" : "");
    printf("properties:%s%s%s%s\n",
           in->flags & GAME_ZERO_SUM ? " zero-sum" : "",
           in->flags & GAME_CHANCE ? " chance" : "",
           in->flags & GAME_HIDDEN ? " hidden-information" : "",
           in->flags & GAME_IMPARTIAL ? " impartial" : "");
    printf("hooks:%s%s%s%s%s\n", g->eval ? " eval" : "",
           g->heuristic ? " heuristic" : "", g->is_noisy ? " noisy" : "",
           g->playout ? " playout" : "",
           g->exact ? " exact (endgame databases)" : "");
    if (g->see || g->net)
        printf("search hooks:%s%s\n", g->see ? " see (static exchange)" : "",
               g->net ? " net (learned evaluation inputs)" : "");
    if (g->net)
        printf("net inputs: %s, %d inputs; %s\n", g->net->name,
               g->net->ninputs, g->net->builtin
               ? "a built-in net is alphabeta's evaluation (net=none: the "
                 "hand-written one)"
               : "alphabeta:net=FILE evaluates with a trained net");
    if (g->tuning) {
        /* the weights ply tune fits and alphabeta:weights=FILE replaces;
         * listed when few (chess has hundreds: ply tune --out writes
         * them all) */
        const EvalTuning *t = g->tuning;
        printf("tunable evaluation: %d weights (ply tune, "
               "alphabeta:weights=FILE; docs/tuning.md)",
               t->nparams);
        if (t->nparams <= 32)
            for (int i = 0; i < t->nparams; i++)
                printf("%s%s %d", i ? ", " : ": ", t->names[i],
                       t->weights[i]);
        printf("\n");
    }
    printf("longest game: %d plies; at most %d moves per position\n",
           in->max_game_length, in->max_moves);
    printf("formats:");
    if (!g->formats || !g->formats[0])
        printf(" none");
    for (int i = 0; g->formats && g->formats[i]; i++) {
        const GameFormat *f = g->formats[i];
        const char *var = format_variant(g, f->name);
        printf(" %s", f->name);
        if (f->write_record || f->read_records)
            printf(" (record: %s%s%s)", f->write_record ? "write" : "",
                   f->write_record && f->read_records ? ", " : "",
                   f->read_records ? "read" : "");
        else if (var)
            printf(" (as %s)", var);
    }
    printf("\n");
    printf("default bot: %s\n", game_default_bot(g));
    if (in->codecup_bot)
        printf("ply codecup bot: %s\n", in->codecup_bot);
    if (g->nsym > 1)
        printf("symmetries: %d (ply book searches one position of each "
               "class)\n", g->nsym);
    if (g->book)
        printf("opening book: %d entries, played by bots with book=1 "
               "(docs/book.md); made by %s\n", g->book->n,
               g->book->source);
    printf("\noptions:");
    if (!in->options || !in->options[0].key)
        printf(" none");
    printf("\n");
    char line[1024];
    for (const GameOption *o = in->options; o && o->key; o++)
        if (option_describe(o, line, sizeof line) >= 0)
            printf("  %s\n", line);
    printf("\nnotation:\n%s\n", in->notation);
    void *st = cli_position("info", g, NULL, NULL, NULL, 1);
    if (st) {
        char buf[8192];
        if (g->to_text(st, buf, sizeof buf) >= 0)
            printf("\nstart position setup string:\n  %s\n", buf);
        free(st);
    }
    printf("\nrules:\n%s\n", in->rules);
    return 0;
}
