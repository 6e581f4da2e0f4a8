/* records.c — match records to and from the formats games declare:
 * JSON lines in, Record to the game's writer; a reader's Records out as
 * JSON lines. */
#include <stdlib.h>
#include <string.h>

#include "../core/format.h"
#include "../core/registry.h"
#include "cli.h"
#include "records.h"

static const char *str_field(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* One game's text to standard output or to its own file. */
static int emit(const char *cmd, const GameFormat *f, const char *split,
                int game, const char *text, size_t len)
{
    if (!split) {
        if (game > 1)
            fputc('\n', stdout);      /* a blank line between games */
        fwrite(text, 1, len, stdout);
        return 0;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s-%03d.%s", split, game,
             f->extension ? f->extension : f->name);
    FILE *out = fopen(path, "wb");
    if (!out)
        return cli_error(cmd, "cannot write '%s'", path);
    fwrite(text, 1, len, out);
    if (fclose(out))
        return cli_error(cmd, "cannot write '%s'", path);
    fprintf(stderr, "ply %s: wrote %s\n", cmd, path);
    return 0;
}

int records_write(const char *cmd, const char *format, const char *file,
                  const char *split)
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
    while (!rc && getline(&line, &cap, in) >= 0) {
        lineno++;
        if (strspn(line, " \t\r\n") == strlen(line))
            continue;
        json_error_t jerr;
        json_t *o = json_loads(line, 0, &jerr);
        if (!json_is_object(o)) {
            rc = cli_error(cmd, "line %ld: not a JSON object: %s", lineno,
                           o ? "another JSON value" : jerr.text);
            json_decref(o);
            break;
        }
        PlyError err = {{0}};
        const char *name = str_field(o, "game");
        const GameVtbl *g = name ? game_find(name) : NULL;
        const GameFormat *f = game_format(g, format);
        if (!name) {
            rc = cli_error(cmd, "line %ld: no \"game\" string", lineno);
        } else if (!g) {
            rc = cli_error(cmd, "line %ld: unknown game '%.60s'", lineno,
                           name);
        } else if (!f || !f->write_record) {
            skipped++;
        } else {
            Record r;
            const char **moves = NULL;
            char *text = NULL;
            size_t len = 0;
            FILE *mem = NULL;
            if (record_from_json(o, &r, &moves, &err) ||
                !(mem = open_memstream(&text, &len))) {
                rc = cli_error(cmd, "line %ld: %s", lineno,
                               err.msg[0] ? err.msg : "out of memory");
            } else {
                /* the game goes to a buffer: a bad record prints nothing */
                r.number = games + 1;
                int w = f->write_record(g, &r, mem, &err);
                fclose(mem);
                if (w)
                    rc = cli_error(cmd, "line %ld: %s", lineno, err.msg);
                else if (emit(cmd, f, split, games + 1, text, len))
                    rc = 2;
                else
                    games++;
            }
            free(text);
            free(moves);
        }
        json_decref(o);
    }
    free(line);
    if (in != stdin)
        fclose(in);
    if (skipped)
        fprintf(stderr, "ply %s: skipped %d record(s) of games without %s "
                "(ply record --list)\n", cmd, skipped, format);
    return rc;
}

static int print_record(const Record *r, void *ctx, PlyError *err)
{
    int *games = ctx;
    json_t *o = record_to_json(r);
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!text)
        return ply_fail(err, "out of memory");
    printf("%s\n", text);
    free(text);
    (*games)++;
    return 0;
}

int records_read(const char *cmd, const char *format, const char *file)
{
    const GameVtbl *gs[64];
    int k = games_with_format(format, gs, 64);
    const GameFormat *f = NULL;
    const GameVtbl *g = NULL;
    for (int i = 0; i < k && i < 64 && !g; i++) {
        f = game_format(gs[i], format);
        if (f->read_records)
            g = gs[i];
    }
    if (!g)
        return cli_error(cmd, "no game reads %s records", format);
    FILE *in = stdin;
    const char *name = file && strcmp(file, "-") ? file : "stdin";
    if (file && strcmp(file, "-")) {
        in = fopen(file, "rb");
        if (!in)
            return cli_error(cmd, "cannot open '%s'", file);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        if (in != stdin)
            fclose(in);
        return cli_error(cmd, "out of memory");
    }
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, in)) > 0)
        fwrite(chunk, 1, n, mem);
    fclose(mem);
    if (in != stdin)
        fclose(in);
    /* a format several games share: the game whose records these are */
    for (int i = 0; i < k && i < 64; i++) {
        const GameFormat *fi = game_format(gs[i], format);
        if (fi->read_records && fi->claims && fi->claims(buf, len)) {
            g = gs[i];
            f = fi;
            break;
        }
    }
    PlyError err = {{0}};
    int games = 0, rc = 0;
    if (f->read_records(g, buf, len, print_record, &games, &err))
        rc = cli_error(cmd, "%s", err.msg);
    else if (!games)
        rc = cli_error(cmd, "no moves found in %s", name);
    free(buf);
    return rc;
}
