/* records.c — the loop shared by `ply pdn`, `ply pgn` and `ply kif`. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "records.h"

int cli_convert_records(const char *cmd, int argc, char **argv,
                        RecordConverter convert, const char *skipped_what)
{
    if (argc > 2)
        return cli_error(cmd, "usage: ply %s [FILE]", cmd);
    return cli_convert_record_file(cmd, argc == 2 ? argv[1] : NULL, convert,
                                   NULL, NULL, skipped_what);
}

int cli_convert_record_file(const char *cmd, const char *file,
                            RecordConverter convert, RecordEmitter emit,
                            void *ctx, const char *skipped_what)
{
    FILE *in = stdin;
    if (file && strcmp(file, "-")) {
        in = fopen(file, "r");
        if (!in)
            return cli_error(cmd, "cannot open '%s'", file);
    }
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int games = 0, skipped = 0, rc = 0;
    while (getline(&line, &cap, in) >= 0) {
        lineno++;
        if (strspn(line, " \t\r\n") == strlen(line))
            continue;
        json_error_t jerr;
        json_t *rec = json_loads(line, 0, &jerr);
        if (!json_is_object(rec)) {
            rc = cli_error(cmd, "line %ld: not a JSON object: %s", lineno,
                           rec ? "another JSON value" : jerr.text);
            json_decref(rec);
            break;
        }
        /* each game goes to a buffer first: a bad record prints nothing */
        char *gbuf = NULL;
        size_t glen = 0;
        FILE *mem = open_memstream(&gbuf, &glen);
        if (!mem) {
            json_decref(rec);
            rc = cli_error(cmd, "out of memory");
            break;
        }
        int r = convert(rec, lineno, games + 1, mem);
        fclose(mem);
        if (r == 0) {
            if (!emit)
                fwrite(gbuf, 1, glen, stdout);
            else if (emit(gbuf, glen, games + 1, ctx))
                r = -1;
        }
        free(gbuf);
        json_decref(rec);
        if (r < 0) {
            rc = 2;
            break;
        }
        if (r == 1)
            skipped++;
        else
            games++;
    }
    free(line);
    if (in != stdin)
        fclose(in);
    if (skipped)
        fprintf(stderr, "ply %s: skipped %d record(s) of %s\n", cmd, skipped,
                skipped_what);
    return rc;
}
