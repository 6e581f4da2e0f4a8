/* test_golden.c — golden playthroughs: every registered game has
 * tests/golden/GAME.txt, and every file in tests/golden is exactly what
 * playthrough_write gives for the command in its "# command:" line (the
 * bytes `ply playthrough` writes). Rewrite them with `make golden` when a
 * change of rules, notation or move order is meant. PLY_GOLDEN_DIR names
 * another directory. */
#include "testlib.h"

#include <dirent.h>

#include "tools/playthrough.h"

static const char *golden_dir(void)
{
    const char *d = getenv("PLY_GOLDEN_DIR");
    return d && *d ? d : "tests/golden";
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    size_t n;
    while (s && (n = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char *t = realloc(s, cap *= 2);
            if (!t) {
                free(s);
                s = NULL;
            }
            s = t;
        }
    }
    fclose(f);
    if (s)
        s[len] = 0;
    return s;
}

static void test_every_game_has_one(void **state)
{
    (void)state;
    int missing = 0;
    for (int i = 0; ply_games[i]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.txt", golden_dir(),
                 ply_games[i]->info.name);
        FILE *f = fopen(path, "r");
        if (!f) {
            print_error("no golden playthrough %s (run make golden)\n",
                        path);
            missing++;
            continue;
        }
        fclose(f);
    }
    assert_int_equal(missing, 0);
}

/* The arguments of the "# command: ply playthrough GAME ..." line. */
typedef struct Cmd {
    char game[64], options[512];
    unsigned long long seed;
    int plies;
} Cmd;

static int parse_command(const char *text, Cmd *c)
{
    const char *tag = "# command: ply playthrough ";
    const char *p = strstr(text, tag);
    if (!p)
        return -1;
    p += strlen(tag);
    char line[1024];
    size_t n = strcspn(p, "\n");
    if (n >= sizeof line)
        return -1;
    memcpy(line, p, n);
    line[n] = 0;
    memset(c, 0, sizeof *c);
    c->seed = 1;
    c->plies = PLAYTHROUGH_PLIES;
    char *save = NULL, *w = strtok_r(line, " ", &save);
    if (!w || strlen(w) >= sizeof c->game)
        return -1;
    strcpy(c->game, w);
    while ((w = strtok_r(NULL, " ", &save))) {
        char *v = strtok_r(NULL, " ", &save);
        if (!v)
            return -1;
        if (!strcmp(w, "--seed"))
            c->seed = strtoull(v, NULL, 10);
        else if (!strcmp(w, "--plies"))
            c->plies = atoi(v);
        else if (!strcmp(w, "--options") && strlen(v) < sizeof c->options)
            strcpy(c->options, v);
        else
            return -1;
    }
    return 0;
}

/* Line number and text of the first difference between a and b. */
static void report_diff(const char *name, const char *want, const char *got)
{
    int line = 1;
    const char *a = want, *b = got;
    while (*a && *a == *b) {
        if (*a == '\n')
            line++;
        a++;
        b++;
    }
    while (a > want && a[-1] != '\n') {
        a--;
        b--;
    }
    print_error("%s differs at line %d:\n  file: %.*s\n  now:  %.*s\n", name,
                line, (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
}

static void test_files_reproduce(void **state)
{
    (void)state;
    DIR *d = opendir(golden_dir());
    if (!d)
        fail_msg("cannot open %s", golden_dir());
    int files = 0, bad = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".txt"))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", golden_dir(), e->d_name);
        char *want = read_all(path);
        if (!want)
            fail_msg("cannot read %s", path);
        Cmd c;
        const GameVtbl *g = NULL;
        if (parse_command(want, &c) || !(g = game_find(c.game))) {
            print_error("%s: no valid '# command:' line\n", path);
            bad++;
            free(want);
            continue;
        }
        char *got = NULL;
        size_t got_len = 0;
        FILE *out = open_memstream(&got, &got_len);
        assert_non_null(out);
        PlyError err = {{0}};
        int rc = playthrough_write(g, c.options[0] ? c.options : NULL,
                                   c.seed, c.plies, out, &err);
        fclose(out);
        if (rc) {
            print_error("%s: %s\n", path, err.msg);
            bad++;
        } else if (strcmp(want, got)) {
            report_diff(path, want, got);
            bad++;
        }
        files++;
        free(got);
        free(want);
    }
    closedir(d);
    assert_int_equal(bad, 0);
    assert_true(files >= 1);
}

/* The transcript is a function of its inputs: the same twice, another
 * with another seed, and the seed's random game starts at the start. */
static void test_seed_matters(void **state)
{
    (void)state;
    for (int i = 0; ply_games[i]; i++) {
        const GameVtbl *g = ply_games[i];
        char *t[3] = {NULL, NULL, NULL};
        size_t n[3];
        uint64_t seeds[3] = {5, 5, 6};
        for (int k = 0; k < 3; k++) {
            FILE *out = open_memstream(&t[k], &n[k]);
            assert_non_null(out);
            PlyError err = {{0}};
            if (playthrough_write(g, NULL, seeds[k], 30, out, &err))
                fail_msg("%s: %s", g->info.name, err.msg);
            fclose(out);
        }
        assert_string_equal(t[0], t[1]);
        if (!strcmp(t[0], t[2]))
            fail_msg("%s: seeds 5 and 6 gave the same game", g->info.name);
        assert_non_null(strstr(t[0], "\nply 0\n  setup "));
        assert_non_null(strstr(t[0], "\nend: "));
        for (int k = 0; k < 3; k++)
            free(t[k]);
    }
    PlyError err = {{0}};
    FILE *out = fopen("/dev/null", "w");
    assert_int_equal(playthrough_write(ply_games[0], "nosuchoption=1", 1, 10,
                                       out, &err), -1);
    assert_int_equal(playthrough_write(ply_games[0], NULL, 1, -1, out, &err),
                     -1);
    fclose(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_game_has_one),
        cmocka_unit_test(test_files_reproduce),
        cmocka_unit_test(test_seed_matters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
