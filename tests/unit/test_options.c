/* test_options.c — declared option tables (core/options.c): every type
 * parsed, defaults, errors that name the key and the valid keys, the
 * round trip struct -> spec -> struct, and every registered bot: its
 * table is sound, its defaults round-trip, and the spec strings the tests
 * and docs use still build a bot. */
#include "testlib.h"

#include "core/bot.h"
#include "core/options.h"

typedef struct Demo {
    int n, flag, pick;
    double x, y;
    size_t mem;
    int64_t time_ms;
    uint64_t count;
    char name[OPT_TEXT_MAX];
    char file[OPT_TEXT_MAX];
} Demo;

static const char *const picks[] = {"red", "green", "blue", NULL};

static const Option demo[] = {
    {.key = "n", .type = OPT_INT, .def = 5, .min = -3, .max = 10,
     .offset = offsetof(Demo, n), .help = "an int"},
    {.key = "flag", .type = OPT_BOOL, .def = 1, .max = 1,
     .offset = offsetof(Demo, flag), .help = "a bool"},
    {.key = "pick", .type = OPT_CHOICE, .def = 1, .choices = picks,
     .offset = offsetof(Demo, pick), .help = "a choice"},
    {.key = "x", .type = OPT_DOUBLE, .def = 0.5, .min = 0, .max = 2,
     .offset = offsetof(Demo, x), .help = "a double"},
    {.key = "y", .type = OPT_DOUBLE, .def = 1, .min = 0, .max = 9,
     .flags = OPTF_MIN_EXCLUSIVE, .offset = offsetof(Demo, y),
     .help = "a double above 0"},
    {.key = "mem", .type = OPT_SIZE, .def = 64.0 * 1024, .min = 1024,
     .max = 1024.0 * 1024 * 1024, .offset = offsetof(Demo, mem),
     .engine = "Hash", .help = "a size"},
    {.key = "time", .type = OPT_DURATION, .def = 1000, .max = 60000,
     .offset = offsetof(Demo, time_ms), .help = "a duration"},
    {.key = "count", .type = OPT_COUNT, .offset = offsetof(Demo, count),
     .help = "a count"},
    {.key = "cnt", .type = OPT_COUNT, .flags = OPTF_ALIAS,
     .offset = offsetof(Demo, count), .help = "the same as count"},
    {.key = "name", .type = OPT_STRING, .def_text = "anon",
     .offset = offsetof(Demo, name), .help = "a string"},
    {.key = "file", .type = OPT_FILE, .offset = offsetof(Demo, file),
     .help = "a file"},
    {.key = NULL},
};

static int parse(Demo *d, const char *spec, PlyError *err)
{
    option_defaults(demo, d);
    OptionSet set = {demo, d, 0};
    return option_parse(&set, 1, spec, err);
}

static void expect_error(const char *spec, const char *part)
{
    Demo d;
    PlyError err = {{0}};
    if (parse(&d, spec, &err) == 0)
        fail_msg("'%s' was accepted", spec);
    if (!strstr(err.msg, part))
        fail_msg("'%s': message '%s' lacks '%s'", spec, err.msg, part);
}

static void test_defaults(void **state)
{
    (void)state;
    Demo d;
    memset(&d, 0x5a, sizeof d);
    PlyError err = {{0}};
    assert_int_equal(parse(&d, NULL, &err), 0);
    assert_int_equal(d.n, 5);
    assert_int_equal(d.flag, 1);
    assert_int_equal(d.pick, 1);
    assert_true(d.x == 0.5 && d.y == 1);
    assert_int_equal(d.mem, 64 * 1024);
    assert_int_equal(d.time_ms, 1000);
    assert_int_equal(d.count, 0);
    assert_string_equal(d.name, "anon");
    assert_string_equal(d.file, "");
    char buf[256];
    assert_int_equal(option_to_spec(demo, &d, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
}

static void test_every_type(void **state)
{
    (void)state;
    Demo d;
    PlyError err = {{0}};
    assert_int_equal(parse(&d, "n=-3,flag=off,pick=blue,x=2,y=0.25,"
                               "mem=1.5,time=2.5s,count=100k,name=bob,"
                               "file=/tmp/w.h", &err), 0);
    assert_int_equal(d.n, -3);
    assert_int_equal(d.flag, 0);
    assert_int_equal(d.pick, 2);
    assert_true(d.x == 2 && d.y == 0.25);
    assert_int_equal(d.mem, 3 * 512 * 1024);
    assert_int_equal(d.time_ms, 2500);
    assert_int_equal(d.count, 100000);
    assert_string_equal(d.name, "bob");
    assert_string_equal(d.file, "/tmp/w.h");
    /* other spellings */
    assert_int_equal(parse(&d, "flag=true,mem=64k,time=150ms,cnt=2M",
                           &err), 0);
    assert_int_equal(d.flag, 1);
    assert_int_equal(d.mem, 64 * 1024);
    assert_int_equal(d.time_ms, 150);
    assert_int_equal(d.count, 2000000);
    assert_int_equal(parse(&d, "mem=1G,time=1m,flag=0", &err), 0);
    assert_int_equal(d.mem, (size_t)1 << 30);
    assert_int_equal(d.time_ms, 60000);
    assert_int_equal(d.flag, 0);
    /* empty items are skipped; the given mask names the keys seen */
    option_defaults(demo, &d);
    OptionSet set = {demo, &d, 0};
    assert_int_equal(option_parse(&set, 1, "x=1,,cnt=7,", &err), 0);
    assert_int_equal(set.given, (1u << 3) | (1u << 8));
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("bogus=1", "unknown option 'bogus'");
    expect_error("bogus=1", "options: n, flag, pick, x, y, mem, time, "
                            "count, cnt, name, file");
    expect_error("n", "key=value");
    expect_error("=3", "key=value");
    expect_error("n=11", "out of range -3..10");
    expect_error("n=-4", "out of range");
    expect_error("n=3.5", "bad value '3.5' for n");
    expect_error("n=", "bad value '' for n");
    expect_error("flag=2", "true or false");
    expect_error("pick=pink", "pick must be red, green or blue, not 'pink'");
    expect_error("x=2.01", "out of range 0..2");
    expect_error("x=nan", "not a number");
    expect_error("y=0", "above 0");
    expect_error("mem=0.5k", "out of range 1k..1G");
    expect_error("mem=2G", "out of range");
    expect_error("mem=12q", "a size");
    expect_error("mem=-1", "a size");
    expect_error("time=2h", "a duration");
    expect_error("time=61s", "out of range");
    expect_error("count=-1", "a count");
    expect_error("count=1x", "a count");
    expect_error("count=99999999999999999999", "a count");
    char big[400];
    memset(big, 'a', sizeof big);
    memcpy(big, "name=", 5);
    big[sizeof big - 1] = 0;
    expect_error(big, "too long");
}

/* Any struct -> spec -> struct gives the same struct back. */
static void test_round_trip(void **state)
{
    (void)state;
    const char *specs[] = {
        "n=7,pick=red,x=0.1,y=3.3333333333333335,mem=1000k,time=1500ms,"
        "count=12345678901,name=a:b,file=f",
        "flag=0,mem=1G",
        "x=1e-300,mem=1.25",
        "",
    };
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        Demo a, b;
        PlyError err = {{0}};
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        assert_int_equal(parse(&a, specs[i], &err), 0);
        char buf[512];
        assert_true(option_to_spec(demo, &a, buf, sizeof buf) >= 0);
        if (parse(&b, buf, &err))
            fail_msg("'%s' -> '%s': %s", specs[i], buf, err.msg);
        if (memcmp(&a, &b, sizeof a))
            fail_msg("'%s' -> '%s' reads back differently", specs[i], buf);
    }
}

static void test_describe(void **state)
{
    (void)state;
    char buf[512];
    assert_true(option_describe(&demo[0], buf, sizeof buf) > 0);
    assert_string_equal(buf, "n=N (-3..10, default 5): an int");
    assert_true(option_describe(&demo[2], buf, sizeof buf) > 0);
    assert_string_equal(buf, "pick=red|green|blue (default green): a choice");
    assert_true(option_describe(&demo[5], buf, sizeof buf) > 0);
    assert_string_equal(buf, "mem=SIZE (1k..1G, default 64k; engine option "
                             "Hash): a size");
    assert_true(option_describe(&demo[6], buf, sizeof buf) > 0);
    assert_non_null(strstr(buf, "default 1s"));
    assert_ptr_equal(option_find_engine(demo, "hash"), &demo[5]);
    assert_null(option_find_engine(demo, "Threads"));
    PlyError err = {{0}};
    assert_int_equal(option_table_check(demo, sizeof(Demo), &err), 0);
    assert_int_equal(option_table_check(demo, sizeof(Demo) - 1, &err), -1);
    assert_non_null(strstr(err.msg, "offset"));
}

/* Every bot: a sound table (registry_check), defaults that round-trip
 * through option_to_spec, and a row per engine name it advertises. */
static void test_bots(void **state)
{
    (void)state;
    PlyError err = {{0}};
    if (registry_check(&err))
        fail_msg("%s", err.msg);
    char big[OPT_TEXT_MAX * 4];
    assert_int_equal(option_table_check(bot_limit_options(), sizeof big,
                                        &err), 0);
    for (int i = 0; ply_bots[i]; i++) {
        const BotVtbl *v = ply_bots[i];
        assert_true(bot_option_count(v) >= 6);
        assert_string_equal(bot_option_at(v, 0)->key, "time");
        assert_null(bot_option_at(v, bot_option_count(v)));
        if (!v->options_size)
            continue;
        unsigned char *a = calloc(1, v->options_size);
        unsigned char *b = calloc(1, v->options_size);
        option_defaults(v->options, a);
        char spec[1024];
        assert_int_equal(option_to_spec(v->options, a, spec, sizeof spec),
                         0);
        /* every row set to its default explicitly reads the same */
        size_t len = 0;
        for (const Option *o = v->options; o->key; o++) {
            char val[OPT_TEXT_MAX + 8];
            if (o->def_text == NULL &&
                (o->type == OPT_STRING || o->type == OPT_FILE))
                continue;   /* "" cannot be written as key= ... */
            assert_true(option_value_text(
                            o, a + o->offset, val, sizeof val) >= 0);
            len += (size_t)snprintf(spec + len, sizeof spec - len, "%s%s=%s",
                                    len ? "," : "", o->key, val);
        }
        OptionSet set = {v->options, b, 0};
        option_defaults(v->options, b);
        if (option_parse(&set, 1, spec, &err))
            fail_msg("%s: '%s': %s", v->name, spec, err.msg);
        assert_memory_equal(a, b, v->options_size);
        free(a);
        free(b);
    }
    assert_string_equal(bot_option_engine(bot_find("alphabeta"), "Hash")->key,
                        "hash");
    assert_string_equal(bot_option_engine(bot_find("mcts"), "Hash")->key,
                        "mem");
    assert_string_equal(bot_option_engine(bot_find("mcts"), "threads")->key,
                        "threads");
    assert_string_equal(bot_option_engine(bot_find("alphabeta"),
                                          "Threads")->key, "threads");
    assert_null(bot_option_engine(bot_find("random"), "Hash"));
}

/* Spec strings the tests, docs and scripts use keep building bots, and
 * the values land where they did. */
static void test_existing_specs(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    const char *ok[] = {
        "mcts:mem=160,c=0.6", "mcts:time=2s", "mcts:iterations=20000",
        "mcts:iters=100k,threads=2,reuse=0", "mcts:mem=64k,rave=1,bias=0.3",
        "mcts:grave=50,amaf_all=1,policy=heuristic,eps=0.2",
        "mcts:ept=10,ept_scale=300,im=0.3,playouts=2,expand=1,solver=0",
        "mcts:threads=1,reuse=0,seed=9", "alphabeta:contempt=50",
        "alphabeta:depth=4,hash=1", "alphabeta:hash=0,mode=brs,qs=0,lmr=0",
        "alphabeta:null=0,check=0,mdp=0,ext=0,aspiration=0,soft=100",
        "alphabeta:rollouts=4,rep=0,ttexact=1,nodes=5000",
        "alphabeta:time=150ms", "greedy:noise=5",
        "greedy:fallback=alphabeta:depth=4;hash=1", "random:seed=3",
        "kalah-perfect:inner=alphabeta:depth=4;hash=1",
        "random",
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        PlyError err = {{0}};
        Bot *b = bot_new(g, ok[i], 1, &err);
        if (!b)
            fail_msg("'%s': %s", ok[i], err.msg);
        bot_free(b);
    }
    PlyError err = {{0}};
    Bot *b = bot_new(g, "mcts:time=2s,iters=7k,depth=3", 1, &err);
    assert_non_null(b);
    assert_int_equal(b->limits.time_ms, 2000);
    assert_int_equal(b->limits.nodes, 7000);
    assert_int_equal(b->limits.depth, 3);
    bot_free(b);
    /* seed=N replaces the caller's seed: equal seeds, equal moves */
    void *st = tl_position("kalah", NULL, NULL, NULL);
    Bot *x = bot_new(g, "random:seed=42", 1, &err);
    Bot *y = bot_new(g, "random:seed=42", 2, &err);
    assert_non_null(x);
    assert_non_null(y);
    for (int k = 0; k < 20; k++)
        assert_true(bot_choose(x, st, NULL, NULL) ==
                    bot_choose(y, st, NULL, NULL));
    bot_free(x);
    bot_free(y);
    free(st);
    const char *bad[][2] = {
        {"mcts:zz=1", "unknown option 'zz' (options: time, nodes,"},
        {"random:x=1", "bot random: unknown option 'x'"},
        {"random:time=abc", "bad value 'abc' for time"},
        {"mcts:mem=0", "bad value '0' for mem"},
        {"mcts:c=-1", "out of range"},
        {"mcts:policy=best", "policy must be auto, game, random or "
                             "heuristic"},
        {"alphabeta:depth=0", "out of range 1..200"},
        {"alphabeta:nodes=-5", "a count"},
        {"vindinium:radius=3", "plays only vindinium"},
        /* inner bots (bot_new_inner): the option named, no self */
        {"greedy:fallback=nosuch", "fallback: unknown bot 'nosuch'"},
        {"kalah-perfect:inner=alphabeta:depth=0", "inner: bot alphabeta: "},
        {"kalah-perfect:inner=kalah-perfect:budget=5",
         "kalah-perfect: the inner bot cannot be kalah-perfect"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        PlyError e = {{0}};
        Bot *z = bot_new(g, bad[i][0], 1, &e);
        if (z)
            fail_msg("'%s' was accepted", bad[i][0]);
        if (!strstr(e.msg, bad[i][1]))
            fail_msg("'%s': '%s' lacks '%s'", bad[i][0], e.msg, bad[i][1]);
    }
}

/* Game options go through the same value parser. */
static void test_game_options(void **state)
{
    (void)state;
    const GameVtbl *g = game_find("kalah");
    int opt[PLY_MAX_OPTIONS];
    PlyError err = {{0}};
    assert_int_equal(options_parse(g, "houses=4,capture=nonempty", opt,
                                   &err), 0);
    assert_int_equal(opt[0], 4);
    assert_int_equal(opt[1], 4);
    assert_int_equal(opt[2], 1);
    char buf[128];
    assert_true(options_to_text(g, opt, buf, sizeof buf) > 0);
    assert_string_equal(buf, "houses=4,capture=nonempty");
    assert_int_equal(options_parse(g, "houses=99", opt, &err), -1);
    assert_non_null(strstr(err.msg, "kalah: bad value '99' for houses: "
                                    "out of range 1..16"));
    assert_int_equal(options_parse(g, "pits=3", opt, &err), -1);
    assert_non_null(strstr(err.msg, "unknown option 'pits'"));
}

/* option_guard: files and nested specs off their defaults, and costly
 * rows above their defaults, are refused; defaults (given or not), lower
 * costly values and plain rows pass. */
static const Option guarded[] = {
    {.key = "n", .type = OPT_INT, .def = 5, .min = -3, .max = 10,
     .offset = offsetof(Demo, n), .flags = OPTF_COSTLY, .help = "costly"},
    {.key = "mem", .type = OPT_SIZE, .def = 64.0 * 1024, .min = 1024,
     .max = 1024.0 * 1024 * 1024, .offset = offsetof(Demo, mem),
     .flags = OPTF_COSTLY, .help = "costly size"},
    {.key = "x", .type = OPT_DOUBLE, .def = 0.5, .min = 0, .max = 2,
     .offset = offsetof(Demo, x), .help = "plain"},
    {.key = "name", .type = OPT_STRING, .def_text = "anon",
     .offset = offsetof(Demo, name), .help = "nested"},
    {.key = "file", .type = OPT_FILE, .offset = offsetof(Demo, file),
     .help = "a file"},
    {.key = NULL},
};

static int guard(const char *spec, PlyError *err)
{
    Demo d;
    memset(&d, 0, sizeof d);
    option_defaults(guarded, &d);
    OptionSet set = {guarded, &d, 0};
    if (option_parse(&set, 1, spec, err))
        fail_msg("'%s' does not parse: %s", spec, err->msg);
    return option_guard(&set, 1, err);
}

static void test_guard(void **state)
{
    (void)state;
    static const char *const ok[] = {"", "n=5", "n=-3,mem=1k", "x=2",
                                     "name=anon", "mem=64k"};
    static const char *const bad[][2] = {
        {"n=6", "n=6 is more than"}, {"mem=65k", "(at most 64k)"},
        {"name=other", "'name' is not open"}, {"file=/etc/hostname",
                                               "a file on the host"},
        {"x=1,n=10", "at most 5"},
    };
    PlyError err = {{0}};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (guard(ok[i], &err))
            fail_msg("'%s' refused: %s", ok[i], err.msg);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err.msg[0] = 0;
        if (!guard(bad[i][0], &err))
            fail_msg("'%s' passed the guard", bad[i][0]);
        if (!strstr(err.msg, bad[i][1]))
            fail_msg("'%s': '%s' lacks '%s'", bad[i][0], err.msg, bad[i][1]);
    }
    /* games: kalah's dbseeds above its default */
    const GameVtbl *g = game_find("kalah");
    int opt[PLY_MAX_OPTIONS];
    assert_int_equal(options_parse(g, "dbseeds=10,houses=8", opt, &err), 0);
    assert_int_equal(options_guard(g, opt, &err), 0);
    assert_int_equal(options_parse(g, "dbseeds=11", opt, &err), 0);
    assert_int_equal(options_guard(g, opt, &err), -1);
    assert_non_null(strstr(err.msg, "dbseeds=11"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_every_type),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_bots),
        cmocka_unit_test(test_existing_specs),
        cmocka_unit_test(test_game_options),
        cmocka_unit_test(test_guard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
