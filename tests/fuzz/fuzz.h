/* fuzz.h — the one harness of Ply's libFuzzer targets.
 *
 * A target is one file tests/fuzz/fuzz_NAME.c that includes this header
 * and defines two functions:
 *
 *   static void fuzz_one(FuzzIn *in);      checks one input; abort() on a
 *                                          broken invariant
 *   static void fuzz_seeds(FuzzSeeds *s);  writes its seed corpus with
 *                                          fuzz_seed() / fuzz_seedf()
 *
 * The Makefile builds every tests/fuzz/fuzz_*.c into build/fuzz/fuzz_NAME
 * (clang, -fsanitize=fuzzer,address,undefined, over an instrumented copy
 * of the library); tests/fuzz/run.sh runs each one. Started with
 * PLY_FUZZ_SEEDS=DIR, a target writes its seeds into DIR and exits, so
 * corpora are made at run time from the current games and never go
 * stale. PLY_FUZZ_GAME=NAME pins fuzz_game() to one game.
 *
 * Inputs are read front to back with the fuzz_* readers below; running
 * past the end yields zeros and empty text, so every byte string is a
 * valid input. */
#ifndef PLY_FUZZ_H
#define PLY_FUZZ_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/rng.h"
#include "core/setup.h"

typedef struct FuzzIn {
    const uint8_t *data;
    size_t size, pos;
} FuzzIn;

typedef struct FuzzSeeds {
    const char *dir;
    int count;
} FuzzSeeds;

static void fuzz_one(FuzzIn *in);
static void fuzz_seeds(FuzzSeeds *s);

static inline unsigned fuzz_byte(FuzzIn *in)
{
    return in->pos < in->size ? in->data[in->pos++] : 0;
}

static inline uint64_t fuzz_u64(FuzzIn *in)
{
    uint64_t x = 0;
    for (int i = 0; i < 8; i++)
        x = x << 8 | fuzz_byte(in);
    return x;
}

static inline int fuzz_ngames(void)
{
    int n = 0;
    while (ply_games[n])
        n++;
    return n;
}

/* One byte: a registered game (or PLY_FUZZ_GAME's). */
static inline const GameVtbl *fuzz_game(FuzzIn *in)
{
    const GameVtbl *g = ply_games[fuzz_byte(in) % (unsigned)fuzz_ngames()];
    const char *only = getenv("PLY_FUZZ_GAME");
    if (only && !(g = game_find(only)))
        abort();
    return g;
}

static inline int fuzz_game_index(const GameVtbl *g)
{
    for (int i = 0; ply_games[i]; i++)
        if (ply_games[i] == g)
            return i;
    return 0;
}

/* The rest of the input as a NUL-terminated string (malloc()ed; an
 * embedded NUL ends the text early, as it would for a C caller). */
static inline char *fuzz_rest(FuzzIn *in)
{
    size_t n = in->size - in->pos;
    char *s = malloc(n + 1);
    if (!s)
        abort();
    memcpy(s, in->data + in->pos, n);
    s[n] = 0;
    in->pos = in->size;
    return s;
}

/* Plays `plies` seeded random moves (chance outcomes included) from st;
 * stops early at the end of the game. */
static inline void fuzz_random_play(const GameVtbl *g, void *st,
                                    uint64_t seed, int plies, Move *buf)
{
    Rng r;
    rng_seed(&r, seed);
    for (int i = 0; i < plies && g->to_move(st) != PLAYER_TERMINAL; i++) {
        int n = g->gen_moves(st, buf);
        if (n <= 0 || n > g->info.max_moves)
            abort();    /* a live position has legal moves */
        g->make(st, buf[rng_below(&r, (uint32_t)n)]);
    }
}

/* Writes one seed file. */
static inline void fuzz_seed(FuzzSeeds *s, const void *bytes, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/seed-%05d", s->dir, s->count++);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, n, f) != n || fclose(f)) {
        perror(path);
        exit(1);
    }
}

/* A seed of `head` raw bytes followed by printf-formatted text. */
static inline void fuzz_seedf(FuzzSeeds *s, const void *head, size_t nhead,
                              const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline void fuzz_seedf(FuzzSeeds *s, const void *head, size_t nhead,
                              const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = NULL;
    int n = vasprintf(&text, fmt, ap);
    va_end(ap);
    if (n < 0)
        abort();
    char *buf = malloc(nhead + (size_t)n);
    if (!buf)
        abort();
    memcpy(buf, head, nhead);
    memcpy(buf + nhead, text, (size_t)n);
    fuzz_seed(s, buf, nhead + (size_t)n);
    free(buf);
    free(text);
}

/* A seed of one byte followed by n bytes. */
static inline void fuzz_seed_prefixed(FuzzSeeds *s, uint8_t head,
                                      const void *bytes, size_t n)
{
    uint8_t *buf = malloc(n + 1);
    if (!buf)
        abort();
    buf[0] = head;
    memcpy(buf + 1, bytes, n);
    fuzz_seed(s, buf, n + 1);
    free(buf);
}

/* Puts a big-endian u64 at p (the layout fuzz_u64() reads). */
static inline void fuzz_put_u64(uint8_t *p, uint64_t x)
{
    for (int i = 7; i >= 0; i--) {
        p[i] = (uint8_t)x;
        x >>= 8;
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
#ifdef FUZZ_FLAG
    /* a libFuzzer flag the target needs on every run (flags are read
     * after this hook); with -jobs each worker gets it the same way */
    static char *args[256];
    if (*argc > 0 && *argc < 255) {
        for (int i = 0; i < *argc; i++)
            args[i] = (*argv)[i];
        args[(*argc)++] = (char *)FUZZ_FLAG;
        args[*argc] = NULL;
        *argv = args;
    }
#else
    (void)argc;
    (void)argv;
#endif
    const char *dir = getenv("PLY_FUZZ_SEEDS");
    if (dir && *dir) {
        FuzzSeeds s = {dir, 0};
        fuzz_seeds(&s);
        printf("%d seeds written to %s\n", s.count, dir);
        exit(0);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzIn in = {data, size, 0};
    fuzz_one(&in);
    return 0;
}

#endif
