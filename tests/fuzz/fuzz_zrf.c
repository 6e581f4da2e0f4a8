/* fuzz_zrf.c — the ZRF reader, preprocessor and compiler on random and
 * mutated rules text: they accept it or fail with a message, never crash,
 * hang or exceed their memory bound. An accepted game plays a few moves
 * and is translated to C (zcc.c). */
#include "fuzz.h"
#include "games/zrf/zcc.h"
#include "games/zrf/zrf.h"

static char *no_file(const char *path, size_t *len, PlyError *err)
{
    (void)len;
    ply_fail(err, "%s: no includes while fuzzing", path);
    return NULL;
}

static void fuzz_one(FuzzIn *in)
{
    int variant = (int)(fuzz_byte(in) % 3);
    const char *text = (const char *)in->data + in->pos;
    size_t len = in->size - in->pos;
    ZReader r;
    PlyError err = {{0}};
    zr_init(&r, no_file, &err);
    if (zr_read(&r, "fuzz.zrf", text, len)) {
        if (!err.msg[0])
            abort();    /* a failure must say why */
        zr_free(&r);
        return;
    }
    char unsup[512];
    ZGame *g = zrf_compile(&r, variant, &err, unsup, sizeof unsup);
    zr_free(&r);
    if (!g) {
        if (!err.msg[0])
            abort();
        return;
    }
    ZState *s = calloc(1, g->state_size);
    Move *mv = malloc(sizeof *mv * ZMAX_MOVES);
    if (!s || !mv)
        abort();
    zvm_init_state(g, s);
    for (int ply = 0; ply < 8 && zvm_to_move(s) >= 0; ply++) {
        int n = zvm_gen(s, mv, g->max_moves);
        if (n <= 0 || n > g->max_moves)
            break;
        zvm_make(s, mv[(unsigned)ply * 7u % (unsigned)n]);
        if (s->hash != zvm_hash_full(s))
            abort();    /* the incremental hash drifted */
    }
    free(mv);
    free(s);
    /* the translation to C: bounded, and only plain text comes out */
    size_t clen = 0;
    char *src = zcc_source(g, &clen);
    if (src) {
        if (strlen(src) != clen)
            abort();
        for (size_t i = 0; i < clen; i++)
            if (src[i] != '\n' && (src[i] < ' ' || src[i] > '~'))
                abort();
        free(src);
    }
    zrf_game_free(g);
}

static void fuzz_seeds(FuzzSeeds *s)
{
    static const char *const files[] = {
        "tests/zrf/tictactoe.zrf", "tests/zrf/chess.zrf", NULL,
    };
    for (int i = 0; files[i]; i++) {
        size_t len = 0;
        PlyError err = {{0}};
        char *text = zr_read_path(files[i], &len, &err);
        if (!text)
            continue;
        char *buf = malloc(len + 1);
        if (!buf)
            abort();
        buf[0] = 0;
        memcpy(buf + 1, text, len);
        fuzz_seed(s, buf, len + 1);
        free(buf);
        free(text);
    }
    fuzz_seedf(s, "", 1, "(define a ($1 $2))(game (players A) (board (grid "
               "(dimensions (\"a/b\" (1 0)) (\"1/2\" (0 1))) (directions "
               "(n 0 -1)))) (piece (name P) (drops ((verify empty?) add))) "
               "(board-setup (A (P off 2))))");
}
