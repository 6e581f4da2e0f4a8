/* cmd_record.c — `ply record --to FORMAT [FILE]` and `ply record --from
 * FORMAT [FILE]`: match records in and out of the formats games declare
 * (PGN, PDN, KIF, ...); and the older per-family commands `ply pgn`,
 * `ply pdn`, `ply kif`, kept as aliases with their options. */
#include <stdio.h>
#include <string.h>

#include "../core/format.h"
#include "cli.h"
#include "records.h"

/* Formats with a record writer or reader, and who speaks them. */
static void list_formats(FILE *out)
{
    const char *names[32];
    int n = format_names(names, 32);
    for (int i = 0; i < n; i++) {
        const GameVtbl *g[64];
        int k = games_with_format(names[i], g, 64);
        const GameFormat *f = game_format(g[0], names[i]);
        if (!f->write_record && !f->read_records)
            continue;
        fprintf(out, "  %-9s %s%s:", names[i], f->write_record ? "write" : "",
                f->read_records ? f->write_record ? ", read" : "read" : "");
        for (int j = 0; j < k && j < 64; j++)
            fprintf(out, " %s", g[j]->info.name);
        fputc('\n', out);
    }
}

int cmd_record(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "record"))
        return 0;
    const char *to = NULL, *from = NULL, *file = NULL, *split = NULL;
    for (int i = 1; i < argc; i++) {
        const char **opt = !strcmp(argv[i], "--to") ? &to
                         : !strcmp(argv[i], "--from") ? &from
                         : !strcmp(argv[i], "--split") ? &split : NULL;
        if (opt) {
            if (++i >= argc)
                return cli_error("record", "%s needs a value", argv[i - 1]);
            *opt = argv[i];
        } else if (!strcmp(argv[i], "--list")) {
            list_formats(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_error("record", "unknown option '%s'", argv[i]);
        } else if (file) {
            return cli_error("record", "one FILE at most");
        } else {
            file = argv[i];
        }
    }
    if (!to == !from) {
        cli_error("record", "usage: ply record --to FORMAT [FILE] [--split "
                  "PREFIX] | ply record --from FORMAT [FILE]; formats:");
        list_formats(stderr);
        return 2;
    }
    const char *format = to ? to : from;
    const GameVtbl *g[1];
    int k = games_with_format(format, g, 1);
    const GameFormat *f = k ? game_format(g[0], format) : NULL;
    if (!f || (to && !f->write_record)) {
        cli_error("record", "no game writes '%s' records; formats:", format);
        list_formats(stderr);
        return 2;
    }
    if (from && split)
        return cli_error("record", "--from takes no --split");
    return to ? records_write("record", to, file, split)
              : records_read("record", from, file);
}

/* `ply pgn [FILE]`, `ply pdn [FILE]`. */
static int simple_alias(const char *cmd, int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, cmd))
        return 0;
    if (argc > 2)
        return cli_error(cmd, "usage: ply %s [FILE]", cmd);
    return records_write(cmd, cmd, argc == 2 ? argv[1] : NULL, NULL);
}

int cmd_pgn(int argc, char **argv)
{
    return simple_alias("pgn", argc, argv);
}

int cmd_pdn(int argc, char **argv)
{
    return simple_alias("pdn", argc, argv);
}

/* `ply kif [FILE] [--split PREFIX] [--sjis]`, `ply kif --read [FILE]`. */
int cmd_kif(int argc, char **argv)
{
    if (!cli_wants_help(argc, argv, "kif"))
        return 0;
    const char *file = NULL, *split = NULL;
    int sjis = 0, read = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--read")) {
            read = 1;
        } else if (!strcmp(argv[i], "--sjis")) {
            sjis = 1;
        } else if (!strcmp(argv[i], "--split")) {
            if (++i >= argc)
                return cli_error("kif", "--split needs a file name prefix");
            split = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_error("kif", "unknown option '%s'", argv[i]);
        } else if (file) {
            return cli_error("kif", "usage: ply kif [FILE] [--split PREFIX] "
                             "[--sjis] | ply kif --read [KIFFILE]");
        } else {
            file = argv[i];
        }
    }
    if (read && (split || sjis))
        return cli_error("kif", "--read takes no --split or --sjis");
    if (read)
        return records_read("kif", "kif", file);
    return records_write("kif", sjis ? "kif-sjis" : "kif", file, split);
}
